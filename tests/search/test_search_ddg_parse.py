"""DuckDuckGo page parsing, without a network: real pages and written fixtures."""

from __future__ import annotations

import contextlib

import pytest
from helpers.search import ddg_page, fixture_text
from hypothesis import given
from hypothesis import strategies as st
from webgrip.errors import SearchBlockedError, SearchError
from webgrip.search._html import parse_html
from webgrip.search.duckduckgo import (
    is_ad_url,
    parse_html_page,
    parse_lite_page,
    unwrap_redirect,
)

HTML_SERP = "html_serp_direct-links_rust-programming-language.html"
LITE_SERP = "lite_serp_dentists-in-mumbai.html"


# -- real pages ---------------------------------------------------------------------------


def test_real_html_page() -> None:
    results = parse_html_page(ddg_page(HTML_SERP))
    assert len(results) == 10
    assert [r.position for r in results] == list(range(1, 11))
    first = results[0]
    assert (first.title, first.url) == ("Rust Programming Language", "https://rust-lang.org/")
    assert first.snippet.startswith("Rust is a fast, reliable, and productive programming")
    assert results[1].url == "https://en.wikipedia.org/wiki/Rust_(programming_language)"
    assert results[6].url == "http://rust-lang.github.io/book/"
    # entities decoded, <b> highlighting removed, whitespace collapsed
    assert "I didn't know what that meant" in results[2].snippet
    assert results[9].title == (
        "Has the Rust Programming Language's Popularity Reached Its Plateau ..."
    )
    for r in results:
        assert "<" not in r.title + r.snippet and "  " not in r.snippet
        assert r.provider == "duckduckgo"
    # the zero-click box is not a result, and each target appears once
    assert len({r.url for r in results}) == 10


@pytest.mark.parametrize("section", ["<![ramming languaege", "<![foo bar]]>", "<![ ]]>", "<![1]>"])
def test_unknown_marked_section_is_skipped(section: str) -> None:
    # Found by fuzzing (fuzz/python/targets.py duckduckgo): the standard library's parser
    # raised AssertionError on these, which escaped the search as no SearchError.
    results = parse_html_page(ddg_page(HTML_SERP).replace("<title>", section + "<title>", 1))
    assert len(results) == 10
    assert parse_html(f"<p>{section}</p>x").text() == "x"
    assert parse_html(f"<p>a{section}").text().startswith("a")


@pytest.mark.parametrize(
    "href",
    ["//duckduckgo.com/l/?uddg=https%3A%2F%2Fdu]ck.com%2Fx", "https://[::1/x", "http://a]b/"],
)
def test_result_link_urlsplit_cannot_read_is_skipped(href: str) -> None:
    # Found by fuzzing (fuzz/python/targets.py duckduckgo): urlsplit's ValueError escaped.
    first = 'class="result__a" href="https://rust-lang.org/"'
    page = ddg_page(HTML_SERP).replace(first, f'class="result__a" href="{href}"')
    assert first not in page
    results = parse_html_page(page)
    assert len(results) == 9 and "https://rust-lang.org/" not in {r.url for r in results}


def test_real_lite_page() -> None:
    results = parse_lite_page(ddg_page(LITE_SERP))
    assert len(results) == 10
    assert results[0].title == "Best Dentists Near Me in Mumbai - Practo"
    assert results[0].url == "https://www.practo.com/mumbai/dentist"
    assert results[0].snippet.startswith("Find the Top Dentists Near You in Mumbai")
    assert results[1].title == "Top 10+ Dentists in Mumbai, India • Check Prices & Reviews"
    assert "₹555" in results[1].snippet
    assert results[9].url == "https://bestmumbai.in/dentist/"
    # the link-text line (the displayed URL) is not mistaken for a snippet
    assert all(not r.snippet.startswith("www.") for r in results)


# -- written pages ------------------------------------------------------------------------

HTML_ADS_EXPECTED = [
    ("The Example Guide & Handbook", "https://docs.example.org/guide?page=2&lang=en"),
    ("Story 42", "https://news.example.com/story?id=42&utm_source=ddg&utm_medium=search"),
    ("Wiki Page", "https://wiki.example.net/Page?a=1&b=2"),
    ("Look-alike host", "https://duckduckgo.com.evil.example/y.js?campaign=spring"),
    ("Not a DuckDuckGo redirect", "https://notduckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2F"),
    ("The Example Guide, installation", "https://docs.example.org/guide?page=2&lang=en#install"),
    ("Item 7 reviews", "https://shop.example/item?id=7&fbclid=IwAR0xyz#reviews"),
]


def test_html_ads_dropped_and_redirects_unwrapped() -> None:
    results = parse_html_page(fixture_text("ddg_html_ads_redirects.html"))
    assert [(r.title, r.url) for r in results] == HTML_ADS_EXPECTED
    assert results[0].snippet == "Everything about the example in one place."


def test_lite_ads_dropped_and_redirects_unwrapped() -> None:
    results = parse_lite_page(fixture_text("ddg_lite_ads_redirects.html"))
    assert [(r.title, r.url, r.snippet) for r in results] == [
        (
            "The Example Guide",
            "https://docs.example.org/guide?page=2&lang=en",
            "Everything about the example in one place.",
        ),
        ("Story 42", "https://news.example.com/story?id=42&utm_source=ddg", ""),
        ("Wiki Page", "https://wiki.example.net/Page?a=1&b=2", "Encoded twice."),
    ]


@pytest.mark.parametrize("parse", [parse_html_page, parse_lite_page])
def test_anomaly_page_is_blocked(parse) -> None:
    with pytest.raises(SearchBlockedError) as info:
        parse(fixture_text("ddg_anomaly.html"))
    assert "Do not retry at once" in str(info.value)
    assert info.value.reason == "blocked"


@pytest.mark.parametrize(
    "markup",
    [
        '<html><body><div data-testid="anomaly-modal">Please wait</div></body></html>',
        '<html><body><form id="challenge-form" action="/x"></form></body></html>',
        '<html><body><form action="/anomaly.js?sv=lite" method="post"></form></body></html>',
        "<html><body><p>Unfortunately, bots use DuckDuckGo too.</p></body></html>",
    ],
)
def test_each_anomaly_marker_alone_means_blocked(markup: str) -> None:
    with pytest.raises(SearchBlockedError):
        parse_html_page(markup)


def test_ad_blocks_dropped_by_class_alone() -> None:
    markup = """
    <div class="result results_links result--ad"><h2 class="result__title">
      <a class="result__a" href="https://shop.example/buy">Shop</a></h2></div>
    <div class="result results_links web-result"><h2 class="result__title">
      <a class="result__a" href="https://real.example/">Real</a></h2></div>
    <table><tr class="result-sponsored"><td>
      <a class='result-link' href="https://shop.example/buy">Shop</a></td></tr>
    <tr><td><a class='result-link' href="https://real.example/lite">Real lite</a></td></tr>
    </table>"""
    assert [r.url for r in parse_html_page(markup)] == ["https://real.example/"]
    assert [r.url for r in parse_lite_page(markup)] == ["https://real.example/lite"]


def test_no_results_pages() -> None:
    assert parse_html_page(fixture_text("ddg_html_no_results.html")) == []
    assert parse_lite_page(fixture_text("ddg_lite_no_results.html")) == []


@pytest.mark.parametrize("parse", [parse_html_page, parse_lite_page])
def test_unrecognized_page_is_an_error_not_no_results(parse) -> None:
    with pytest.raises(SearchError) as info:
        parse(fixture_text("ddg_unrecognized.html"))
    assert not isinstance(info.value, SearchBlockedError)
    assert info.value.reason == "unrecognized-page"


def test_layouts_are_not_confused() -> None:
    # a lite parser given an HTML-layout page finds no a.result-link, and says so
    with pytest.raises(SearchError):
        parse_lite_page(fixture_text("ddg_html_ads_redirects.html"))


# -- links --------------------------------------------------------------------------------

TARGET = "https://example.com/a/b?x=1&y=two%20words#frag"
ENC = "https%3A%2F%2Fexample.com%2Fa%2Fb%3Fx%3D1%26y%3Dtwo%2520words%23frag"


@pytest.mark.parametrize(
    "href",
    [
        f"/l/?uddg={ENC}",
        f"/l/?uddg={ENC}&rut=abc123",
        f"/l?kh=-1&uddg={ENC}",
        f"//duckduckgo.com/l/?uddg={ENC}&rut=abc123",
        f"https://duckduckgo.com/l/?uddg={ENC}&rut=abc123",
        f"http://duckduckgo.com/l/?rut=abc123&uddg={ENC}",
        f"https://html.duckduckgo.com/l/?uddg={ENC}",
        "/l/?uddg=https%253A%252F%252Fexample.com%252Fa%252Fb%253Fx%253D1%2526y%253Dtwo%252520words%2523frag",
        f"  /l/?uddg={ENC}  ",
    ],
)
def test_unwrap_every_redirect_form(href: str) -> None:
    assert unwrap_redirect(href) == TARGET


@pytest.mark.parametrize(
    "href",
    [
        "https://example.com/page?uddg=https%3A%2F%2Fother.example%2F",
        "https://duckduckgo.com.evil.example/l/?uddg=https%3A%2F%2Fother.example%2F",
        "https://evilduckduckgo.com/l/?uddg=https%3A%2F%2Fother.example%2F",
        "https://duckduckgo.com/about",
    ],
)
def test_other_links_are_not_unwrapped(href: str) -> None:
    assert unwrap_redirect(href) == href


def test_unwrap_keeps_plus_and_percent_in_target_query() -> None:
    # the target's own encoded '&' and '+' survive (decode once, after splitting)
    href = "/l/?uddg=https%3A%2F%2Fexample.com%2Fs%3Fq%3Da%252Bb%26r%3D1&rut=x"
    assert unwrap_redirect(href) == "https://example.com/s?q=a%2Bb&r=1"


@pytest.mark.parametrize(
    ("url", "ad"),
    [
        ("https://duckduckgo.com/y.js?ad_domain=x&ad_provider=bingv7aa", True),
        ("https://improving.duckduckgo.com/y.js?u3=x", True),
        ("https://www.bing.com/aclick?ld=abc", True),
        ("https://duckduckgo.com.evil.example/y.js?ad_domain=x", False),
        ("https://notduckduckgo.com/y.js", False),
        ("https://example.com/y.js", False),
        ("https://example.com/?ad_provider=1", False),
    ],
)
def test_is_ad_url(url: str, ad: bool) -> None:
    assert is_ad_url(url) is ad


@given(st.text(max_size=300))
def test_tree_builder_never_raises(markup: str) -> None:
    root = parse_html(markup)
    assert isinstance(root.text(), str)


@given(st.text(max_size=200))
def test_parsers_fail_only_with_search_errors(markup: str) -> None:
    for parse in (parse_html_page, parse_lite_page):
        with contextlib.suppress(SearchError):
            parse(markup)
