"""Where fetch_page cuts a long page (issue 47, item 10): each part reads as Markdown on its
own. A code fence the cut leaves open is closed in the part and reopened in the next, a
heading is never the last line before the cut note, no run of blank lines comes before the
note, and an empty ``find`` is no find at all."""

from __future__ import annotations

import re

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import SiteServer, page
from webgrip.page_builder import MAX_FENCE_MARKERS, code_fences
from webgrip.tools import Tools

CODE = "\n".join(f"value_{i} = compute({i})" for i in range(60))
FENCED = (
    "<html><head><title>Code</title></head><body><main><article><h1>Code</h1>"
    f"<p>{'Some words before the code. ' * 4}</p><pre><code>{CODE}</code></pre>"
    f"<p>{'Some words after the code. ' * 4}</p></article></main></body></html>"
)
SECTIONS = "".join(
    f"<h2>Section {i}</h2><p>{'A sentence of the section body. ' * (1 + i % 4)}</p>"
    for i in range(30)
)
HEADED = (
    "<html><head><title>Sections</title></head><body><main><article><h1>Sections</h1>"
    f"{SECTIONS}</article></main></body></html>"
)
SHOWING = re.compile(r"^Showing characters (\d+)–(\d+) of (\d+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def site():
    with SiteServer() as s:
        yield s


@pytest.fixture(scope="module")
def tools():
    return Tools(loopback_config())


def part_of(answer: str) -> tuple[str, int, int]:
    """The text shown (between the header and the notes after it), and its offsets."""
    m = SHOWING.search(answer)
    assert m, answer
    body = answer[m.end() + 2 :]
    body = body.split("\n\n[Truncated:")[0]
    return body, int(m.group(1)), int(m.group(2))


def read_all(tools: Tools, url: str, length: int) -> list[tuple[str, int, int]]:
    """Every part of the page at ``url``, ``length`` characters at most each."""
    parts, start = [], 0
    while True:
        answer = tools.fetch_page(url, max_length=length, start_index=start)
        body, first, end = part_of(answer)
        assert first == start
        parts.append((body, first, end))
        if "[Truncated:" not in answer:
            return parts
        start = end


def fence_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("```"))


@pytest.mark.parametrize("length", [200, 260, 333])
def test_a_code_fence_cut_open_is_closed_and_reopened(site, tools, length):
    url = site.route("/fenced", page(FENCED))
    parts = read_all(tools, url, length)
    assert len(parts) > 2
    cut_inside = 0
    for body, _start, _end in parts:
        assert fence_lines(body) % 2 == 0, body  # every fence shown is closed in its part
        if body.startswith("```\nvalue_"):
            cut_inside += 1
    assert cut_inside >= 1  # a part starting inside the block reopens it
    whole = tools.fetch_page(url, max_length=20_000)
    assert fence_lines(part_of(whole)[0]) == 2  # the page itself is unchanged


@pytest.mark.parametrize("length", range(150, 400, 23))
def test_no_part_ends_with_a_heading_and_the_parts_still_join(site, tools, length):
    url = site.route("/headed", page(HEADED))
    total = int(SHOWING.search(tools.fetch_page(url, max_length=20_000)).group(3))
    parts = read_all(tools, url, length)
    for body, _start, _end in parts[:-1]:
        last = body.rstrip().splitlines()[-1]
        assert not last.startswith("#"), (length, body)
    # The offsets still cover the page exactly once, in order.
    assert [p[1] for p in parts[1:]] == [p[2] for p in parts[:-1]]
    assert parts[0][1] == 0 and parts[-1][2] == total


def test_no_blank_lines_pile_up_before_the_cut_note(site, tools):
    url = site.route("/fenced", page(FENCED))
    for length in (120, 200, 300):
        answer = tools.fetch_page(url, max_length=length)
        assert "\n\n\n" not in answer, answer


def test_an_empty_find_is_no_find(site, tools):
    url = site.route("/fenced", page(FENCED))
    plain = tools.fetch_page(url, max_length=200)
    for find in ("", "   "):
        answer = tools.fetch_page(url, max_length=200, find=find)
        assert answer == plain
        assert "\n\n\n" not in answer


def test_the_fences_added_are_those_open_at_each_end():
    text = "a\n```py\ncode\n```\nb\n"
    assert code_fences(text, 0, len(text)) == ("", "")
    assert code_fences(text, 0, 10) == ("", "\n```")  # cut inside: closed after the part
    assert code_fences(text, 9, len(text)) == ("```py\n", "")  # reopened before the next
    assert code_fences(text, 9, 12) == ("```py\n", "\n```")
    assert code_fences(text, 9, 15) == ("```py\n", "")  # the closing line begins in the part
    assert code_fences("~~~~\n```\n~~~~\n", 6, 8) == ("~~~~\n", "\n~~~~")  # ``` inside ~~~~


def test_a_page_of_fence_markers_gets_no_fences_added():
    """Beyond MAX_FENCE_MARKERS the markers are not followed: no page a person writes, and
    a page built to make every call read them all."""
    text = "\n```" * (MAX_FENCE_MARKERS + 10)
    assert code_fences(text, 1000, len(text) - 10) == ("", "")
    assert code_fences("x" + "\n```" * 11, 5, 40) != ("", "")
