"""Result pages nested as deep as they are long (issue #24): parsing stays linear, and a
search answers within its deadline however slow the page is to read.

The pages are built here: divs never closed, result blocks inside result blocks, lite
result links inside each other, unclosed inline tags followed by closed paragraphs, and a
deep stack followed by end tags that match nothing. Before the fix each took minutes at a
few hundred KiB (every end tag scanned the stack, every result block searched its whole
subtree and walked up all its ancestors).
"""

from __future__ import annotations

import contextlib
import threading
import time

import pytest
from helpers.loopback import loopback_config
from helpers.search import loopback_client
from webgrip import Tools
from webgrip.errors import SearchError
from webgrip.search import search
from webgrip.search._html import MAX_DEPTH, parse_html
from webgrip.search.base import Deadline
from webgrip.search.duckduckgo import MAX_PAGE_RESULTS, parse_html_page, parse_lite_page

HTML = "text/html; charset=utf-8"
RESULT = (
    "<div class='result'><a class='result__a' href='https://e.com/{i}'>Title {i}</a>"
    "<a class='result__snippet'>Snippet {i}</a>"
)
LITE = (
    "<a class='result-link' href='https://e.com/{i}'>Title {i}</a><td class='result-snippet'>S{i}"
)


def repeat(unit: str, size: int) -> str:
    """``unit`` (``{i}`` numbered from 0) repeated until the text is about ``size`` long."""
    count = max(1, size // len(unit.format(i=0)))
    return "".join(unit.format(i=i) for i in range(count))


def shapes(size: int) -> dict[str, str]:
    half = size // 2
    return {
        "nested-divs": repeat("<div>", half) + repeat(RESULT, half),
        "nested-results": repeat(RESULT, size),
        "nested-lite-links": repeat(LITE, size),
        "unclosed-then-p": repeat("<span>", half) + repeat("<p>x</p>", half),
        "misnested-ends": repeat("<div>", half) + repeat("</b>", half),
    }


def depth(root) -> int:
    deepest = 0
    for el in root.iter():
        deepest = max(deepest, sum(1 for _ in el.ancestors()))
    return deepest


# -- the tree ------------------------------------------------------------------------------


def test_depth_is_capped_and_text_kept() -> None:
    root = parse_html("<div>" * 5000 + "deep text" + "</div>" * 5000 + "<p>after</p>")
    assert depth(root) == MAX_DEPTH
    assert root.text() == "deep textafter"
    # The end tags of the dropped divs close the kept ones: "after" is back at the top.
    assert [c.tag for c in root.children] == ["div", "p"]


def test_unmatched_end_tags_are_ignored() -> None:
    root = parse_html("<div>" * 200 + "</b></span>" * 1000 + "<i>x</i>" + "</div>" * 200)
    innermost = root.find(lambda e: e.tag == "i")
    assert innermost is not None
    # The stray end tags closed nothing: <i> is inside all 200 divs.
    assert [a.tag for a in innermost.ancestors()] == ["div"] * 200 + ["#document"]


def test_text_of_nested_elements() -> None:
    root = parse_html("<b>" * 1000 + "a" + "</b>" * 1000 + " <i>b</i>")
    first = root.children[0]
    assert first.text() == "a"
    assert first.text(limit=0) == ""
    assert root.text() == "a b"


def test_nested_result_blocks_share_the_link_below_them() -> None:
    # Each block's link and snippet are the first at or below it: nested blocks without a
    # link of their own take the next one down, as before; only MAX_PAGE_RESULTS are read.
    markup = "<div class='result'>" * 3 + RESULT.format(i=7) + RESULT.format(i=8) * 300
    results = parse_html_page(markup)
    assert len(results) == MAX_PAGE_RESULTS
    assert [r.url for r in results[:5]] == ["https://e.com/7"] * 4 + ["https://e.com/8"]
    assert results[0].title == "Title 7" and results[0].snippet == "Snippet 7"


# -- linear time ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "parse"),
    [
        ("nested-divs", parse_html_page),
        ("unclosed-then-p", parse_html_page),
        ("unclosed-then-p", parse_lite_page),
        ("misnested-ends", parse_html_page),
        ("misnested-ends", parse_lite_page),
    ],
)
def test_hostile_shapes_parse_in_linear_time(shape: str, parse) -> None:
    # 600 KiB: about a second when linear; before the fix, from half a minute to many
    # minutes depending on the shape. The margin is generous (slow CI machines). Nested
    # result blocks are timed over HTTP below, at a size where the old cost shows.
    markup = shapes(600 * 1024)[shape]
    start = time.monotonic()
    with contextlib.suppress(SearchError):  # "no results", "unrecognized page": answers too
        parse(markup)
    assert time.monotonic() - start < 20.0


def test_parse_stops_at_the_deadline() -> None:
    # Linear, but 8 MiB of the densest tree (re-opened formatting elements) still takes
    # seconds to parse and walk: the deadline stops it.
    markup = repeat("<p><b>x", 8 * 1024 * 1024)
    deadline = Deadline(0.3)
    with pytest.raises(SearchError) as info:
        parse_html_page(markup, deadline=deadline)
    assert info.value.reason == "timeout"
    assert "deadline" in str(info.value)


# -- over HTTP -----------------------------------------------------------------------------


def serve_both(httpserver, body: str) -> None:
    for path in ("/html/", "/lite/"):
        httpserver.expect_request(path, method="POST").respond_with_data(body, content_type=HTML)


def call_within(limit: float, fn):
    """``fn()``'s value, or a failure if it has not returned after ``limit`` seconds."""
    box: list[object] = []
    worker = threading.Thread(target=lambda: box.append(fn()), daemon=True)
    worker.start()
    worker.join(limit)
    assert not worker.is_alive(), f"still running after {limit} s"
    return box[0]


@pytest.mark.parametrize("shape", ["nested-divs", "nested-results", "misnested-ends"])
def test_search_web_answers_within_the_deadline(httpserver, tmp_path, shape: str) -> None:
    serve_both(httpserver, shapes(1400 * 1024)[shape])
    tools = Tools(
        loopback_config(
            tmp_path,
            search_provider="duckduckgo",
            search_fallbacks=(),
            timeout=2.0,
            max_retries=0,
            search_endpoints={
                "duckduckgo_html": httpserver.url_for("/html/"),
                "duckduckgo_lite": httpserver.url_for("/lite/"),
            },
        )
    )
    answer = call_within(2.0 + 15.0, lambda: tools.search_web("anything"))
    assert isinstance(answer, str)
    assert answer.startswith("Error:") or answer.startswith("Web search results")


def test_slow_page_is_a_timeout_not_a_late_answer(httpserver) -> None:
    # Misnested formatting tags: the densest tree a page builds (re-opened <b>s), 8 MiB of
    # it slower to parse than the deadline leaves after the fetch.
    serve_both(httpserver, repeat("<p><b>x", 8 * 1024 * 1024))
    client = loopback_client(httpserver, search_provider="duckduckgo", search_fallbacks=())

    def run() -> SearchError | None:
        try:
            search(client, "anything", timeout=0.5)
        except SearchError as exc:
            return exc
        return None

    error = call_within(0.5 + 15.0, run)
    assert isinstance(error, SearchError)
    assert error.reason == "timeout" and "deadline" in str(error)
