"""``fetch_page(links=...)`` (links as numbered citations or text alone) and
``max_age`` (how old a cached copy may answer), through the tools, the schemas, the
client and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import webgrip
from helpers.loopback import loopback_config
from helpers.openai_strict import tool_problems
from helpers.siteserver import SiteServer, page
from webgrip import Tools, WebClient
from webgrip.tools.citations import cite_links

# The webgrip this test imports (installed, or the source tree on PYTHONPATH), for the child.
PACKAGE_PARENT = str(Path(webgrip.__file__).resolve().parent.parent)

ARTICLE = (
    "<title>Links</title><main><article><h1>Reading list</h1>"
    "<p>Start with <a href='/guide'>the guide</a>, then <a href='/faq'>the FAQ</a>.</p>"
    "<p>The <a href='/guide'>guide again</a>, a <a href='/x?q=(1)'>paren link</a>, "
    "code <code>[not](a-link)</code> and <img src='https://img.example/logo.png' alt='logo'>.</p>"
    + "".join(f"<p>Paragraph {n} cites <a href='/p{n}'>page {n}</a>.</p>" for n in range(40))
    + "</article></main>"
)


@pytest.fixture(scope="module")
def site():
    with SiteServer() as s:
        s.route("/a", page(ARTICLE))
        yield s


def _text(answer: str) -> str:
    return answer.split("\n\n", 1)[1]


def test_citations_number_each_url_once_and_list_them_after_each_part(site, tmp_path):
    tools = Tools(loopback_config(tmp_path))
    inline = tools.fetch_page(site.url("/a"), max_length=20000)
    assert f"[the guide]({site.url('/guide')})" in inline and "Links:" not in inline
    cited = tools.fetch_page(site.url("/a"), links="citations", max_length=20000)
    body = _text(cited)
    assert "the guide [1], then the FAQ [2]." in body
    assert "guide again [1]" in body  # the same URL keeps its number
    assert "paren link [3]" in body and "`[not](a-link)`" in body  # code is left alone
    assert "![logo](https://img.example/logo.png)" in body  # images keep their address
    listed = body.split("\n\nLinks:\n", 1)[1].splitlines()
    assert listed[:3] == [
        f"[1] {site.url('/guide')}",
        f"[2] {site.url('/faq')}",
        f"[3] {site.url('/x?q=(1)')}",
    ]
    # What is left of "](" is the code span's and the image's.
    assert len(listed) == 43 and body.split("\n\nLinks:")[0].count("](") == 2
    # The text alone reads without addresses: shorter than the inline page by every URL.
    assert len(body.split("\n\nLinks:")[0]) < len(_text(inline)) - 40 * len(site.url("/p0"))

    # Parts: offsets count the cited text; each part lists only the numbers it shows.
    first = tools.fetch_page(site.url("/a"), links="citations", max_length=300)
    end = int(first.rsplit("start_index=", 1)[1].split()[0])
    shown = first.split("\nShowing characters ")[1]
    assert "[1] " in shown.split("Links:\n")[1] and "[40] " not in shown
    second = tools.fetch_page(site.url("/a"), links="citations", start_index=end, max_length=300)
    part = second.split("Links:\n")[1]
    numbers = [line.split()[0] for line in part.splitlines() if line[1:2].isdigit()]
    text = _text(second).split("\n\nLinks:")[0]
    assert numbers and all(n in text for n in numbers)
    assert "[1] " not in part or "[1]" in text

    none = tools.fetch_page(site.url("/a"), links="none", max_length=20000)
    assert "the guide, then the FAQ." in none and "Links:" not in none
    assert site.url("/guide") not in none

    found = tools.fetch_page(site.url("/a"), links="citations", find="Paragraph 7 cites")
    assert "page 7 [" in found and f"] {site.url('/p7')}" in found


def test_a_bad_links_value_is_an_error_the_model_can_act_on(site, tmp_path):
    tools = Tools(loopback_config(tmp_path))
    answer = tools.call("fetch_page", {"url": site.url("/a"), "links": "footnotes"})
    assert answer.startswith("Error:") and "citations" in answer
    answer = tools.call("fetch_page", {"url": site.url("/a"), "max_age": -1})
    assert answer.startswith("Error:") and "max_age" in answer
    ok = tools.call("fetch_page", {"url": site.url("/a"), "links": "citations", "max_age": None})
    assert "the guide [1]" in ok


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic", "mcp"])
def test_every_schema_format_offers_links_and_max_age(fmt, tmp_path):
    tools = Tools(loopback_config(tmp_path))
    fetch = tools.schemas(fmt)[0]
    assert (fetch.get("name") or fetch["function"]["name"]) == "fetch_page"
    props = json.dumps(fetch)
    for name in ('"links"', '"max_age"', '"citations"', '"none"', '"inline"'):
        assert name in props
    if fmt.startswith("openai"):
        for entry in tools.schemas(fmt, strict=True):
            assert tool_problems(entry, fmt) == [], entry


def test_cached_copies_answer_only_within_max_age(site, tmp_path):
    with WebClient(loopback_config(tmp_path)) as client:
        before = len(site.requests)
        first = client.fetch(site.url("/a"))
        assert not first.from_cache and first.fetched_at is not None
        again = client.fetch(site.url("/a"), max_age=3600)
        assert again.from_cache and again.fetched_at == first.fetched_at
        assert len(site.requests) == before + 1
        fresh = client.fetch(site.url("/a"), max_age=0)
        assert not fresh.from_cache and len(site.requests) == before + 2
    # The tool's header says a copy came from the cache and how old it is.
    tools = Tools(loopback_config(tmp_path))
    tools.fetch_page(site.url("/a"))
    cached = tools.fetch_page(site.url("/a"), max_age=600)
    assert "Cached: fetched 0 s ago (pass max_age=0 for a fresh copy)" in cached
    assert "Cached:" not in tools.fetch_page(site.url("/a"), max_age=0)


def test_the_persistent_cache_honours_max_age(tmp_path):
    with SiteServer() as s:
        s.route("/p", page("<title>P</title><main><p>Stored page.</p></main>"))
        config = loopback_config(tmp_path, cache_dir=str(tmp_path / "cache"))
        with WebClient(config) as client:
            first = client.fetch(s.url("/p"))
        hits = len(s.requests)
        with WebClient(config) as client:  # a new client: its memory cache is empty
            stored = client.fetch(s.url("/p"), max_age=3600)
            assert stored.from_cache and len(s.requests) == hits
            assert first.fetched_at is not None and stored.fetched_at is not None
            assert first.fetched_at - 1 <= stored.fetched_at <= first.fetched_at
            fresh = client.fetch(s.url("/p"), max_age=0)
            assert not fresh.from_cache and len(s.requests) == hits + 1
            assert fresh.fetched_at is not None and fresh.fetched_at >= first.fetched_at


def test_the_cli_prints_citations_and_takes_max_age(site, tmp_path):
    env_args = [sys.executable, "-m", "webgrip", "fetch", "--allow", "127.0.0.0/8"]
    run = subprocess.run(
        [*env_args, site.url("/a"), "--links", "citations", "--max-age", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(Path(webgrip.__file__).resolve().parent.parent),
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
        },
    )
    assert run.returncode == 0, run.stderr
    assert "the guide [1], then the FAQ [2]." in run.stdout
    assert f"\nLinks:\n[1] {site.url('/guide')}\n" in run.stdout


def test_the_scan_is_linear_on_hostile_shapes():
    # Shapes that make a naive scan go back over the text: unclosed brackets, backtick
    # runs of every length, destinations that never close. Each is one pass.
    shapes = [
        "[" * 50_000 + "](x",
        "".join("`" * n + " " for n in range(1, 300)) * 3,
        "[a](" + "(" * 20_000,
        "[a](<" + "x" * 20_000,
        "](" * 30_000,
    ]
    for shape in shapes:
        out = cite_links(shape, "citations")
        assert len(out.text) <= len(shape) + 10


def test_each_marker_offset_points_at_its_number():
    # The first page's outer bracket is emptied only when its link closes, after the inner
    # link's marker: offsets are counted on the final text, not as the markers are written.
    markdowns = [
        "[a [b](https://x.example/1) c](https://x.example/2) and [d](https://x.example/1)",
        "See [x](https://x.example/3), `[y](z)` and [w](<https://x.example/4>).",
    ]
    for markdown in markdowns:
        cited = cite_links(markdown, "citations")
        assert len(cited.mark_offsets) == len(cited.mark_numbers) >= 2
        for at, number in zip(cited.mark_offsets, cited.mark_numbers, strict=True):
            assert cited.text.startswith(f"[{number}]", at), (cited.text, at, number)
