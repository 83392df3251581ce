"""Tracking parameters leave links as the core resolves them (no Python pass over the output)."""

from __future__ import annotations

from webgrip import _core
from webgrip.hygiene import tracking_rules
from webgrip.page_builder import build_page
from webgrip.response import Response

PAGE = b"""<html><head><title>t</title></head><body><main>
<p>Read <a href="/story?id=2&utm_source=feed&utm_medium=rss">the story</a> and
<a href="https://en.example.org/wiki/Gouda_(cheese)?utm_campaign=x">Gouda (cheese)</a>.</p>
<p><img src="https://cdn.example.net/i.png?w=20&fbclid=abc" alt="a picture"></p>
<p><a href="https://www.youtube.com/watch?v=abc&si=SHARE">video</a>
<a href="/story?id=2&session_ref=9">same story, another tag</a></p>
</main></body></html>"""
URL = "https://news.example.com/front"


def page(extract: str, **options) -> object:
    response = Response(
        url=URL,
        status=200,
        headers={"content-type": "text/html"},
        content=PAGE,
        content_type="text/html",
        charset=None,
        redirects=(),
        remote_addr="127.0.0.1:80",
        elapsed=0.0,
    )
    return build_page(response, url=URL, extract=extract, main_content=False, **options)


def test_markdown_links_and_images_lose_their_tracking_parameters():
    md = page("markdown").content
    assert "[the story](https://news.example.com/story?id=2)" in md
    # A target with parentheses is stripped whole (a regex over the Markdown cut it at ")").
    assert "(https://en.example.org/wiki/Gouda_(cheese))" in md
    assert "![a picture](https://cdn.example.net/i.png?w=20)" in md
    assert "(https://www.youtube.com/watch?v=abc)" in md
    assert "utm_" not in md and "fbclid" not in md and "si=" not in md


def test_extra_rules_compiled_once_per_client_apply_too():
    md = page("markdown").content
    assert "session_ref=9" in md
    md = page("markdown", tracking=tracking_rules(("session_ref",))).content
    assert "session_ref" not in md


def test_links_that_differ_only_in_tracking_are_one_entry():
    links = page("links", tracking=tracking_rules(("session_ref",))).data
    urls = [link["url"] for link in links]
    assert urls.count("https://news.example.com/story?id=2") == 1
    story = next(link for link in links if link["url"].endswith("story?id=2"))
    assert story["text"] == "the story"  # the first one's


def test_the_core_keeps_urls_as_written_without_rules():
    doc = _core.extract_document(PAGE, modes=["markdown", "links"], url=URL)
    assert "utm_source=feed" in doc["markdown"]
    assert any("fbclid" not in link["url"] and "utm_" in link["url"] for link in doc["links"])
    stripped = _core.extract_document(
        PAGE, modes=["markdown", "links"], url=URL, tracking=_core.TrackingRules()
    )
    assert "utm_" not in stripped["markdown"]
    assert not any("utm_" in link["url"] for link in stripped["links"])
