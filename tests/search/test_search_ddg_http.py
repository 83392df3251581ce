"""DuckDuckGo over HTTP, against a loopback stand-in serving recorded pages.

Covers, on both layouts: results, blocked (HTTP 202, and 200 with the anomaly page), no
results and error (HTTP 500), the HTML -> lite fallback, and the form that is sent.
"""

from __future__ import annotations

import pytest
from helpers.search import ddg_page, fixture_text, loopback_client
from webgrip.errors import SearchBlockedError, SearchError
from webgrip.search import search

HTML_SERP = "html_serp_direct-links_rust-programming-language.html"
LITE_SERP = "lite_serp_dentists-in-mumbai.html"
HTML = "text/html; charset=utf-8"


def serve(httpserver, path: str, body: str, status: int = 200) -> None:
    httpserver.expect_request(path, method="POST").respond_with_data(
        body, status=status, content_type=HTML
    )


def paths(httpserver) -> list[str]:
    return [request.path for request, _ in httpserver.log]


def test_html_results(httpserver) -> None:
    serve(httpserver, "/html/", ddg_page(HTML_SERP))
    client = loopback_client(httpserver)
    results = search(client, "rust programming language", num_results=3)
    assert [r.url for r in results] == [
        "https://rust-lang.org/",
        "https://en.wikipedia.org/wiki/Rust_(programming_language)",
        "https://www.howtogeek.com/what-is-the-rust-programming-language-and-how-to-get-started/",
    ]
    assert [r.position for r in results] == [1, 2, 3]
    assert paths(httpserver) == ["/html/"]


def test_form_fields_sent(httpserver) -> None:
    serve(httpserver, "/html/", ddg_page(HTML_SERP))
    client = loopback_client(httpserver)
    search(
        client,
        "rust  programming\nlanguage",
        region="de-de",
        safe_search="strict",
        time_range="week",
    )
    request = httpserver.log[0][0]
    assert request.method == "POST"
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert request.form.to_dict() == {
        "q": "rust programming language",
        "b": "",
        "kl": "de-de",
        "kp": "1",
        "df": "w",
    }


def test_defaults_from_config(httpserver) -> None:
    serve(httpserver, "/html/", ddg_page(HTML_SERP))
    client = loopback_client(httpserver, search_region="en-GB", safe_search="off")
    search(client, "q")
    form = httpserver.log[0][0].form
    assert (form["kl"], form["kp"]) == ("gb-en", "-2")
    assert "df" not in form


@pytest.mark.parametrize(("asked", "expected"), [(0, 1), (-3, 1), (3, 3), (50, 10)])
def test_num_results_clamped(httpserver, asked: int, expected: int) -> None:
    serve(httpserver, "/html/", ddg_page(HTML_SERP))
    assert len(search(loopback_client(httpserver), "rust", num_results=asked)) == expected


def test_lite_results_when_html_blocked(httpserver) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_anomaly.html"), status=202)
    serve(httpserver, "/lite/", ddg_page(LITE_SERP))
    results = search(loopback_client(httpserver), "dentists in Mumbai", num_results=10)
    assert len(results) == 10
    assert results[0].url == "https://www.practo.com/mumbai/dentist"
    assert paths(httpserver) == ["/html/", "/lite/"]
    assert httpserver.log[1][0].form["q"] == "dentists in Mumbai"


def test_lite_results_when_html_fails(httpserver) -> None:
    serve(httpserver, "/html/", "Internal error", status=500)
    serve(httpserver, "/lite/", ddg_page(LITE_SERP))
    assert len(search(loopback_client(httpserver), "dentists in Mumbai")) == 5


@pytest.mark.parametrize("status", [202, 200])
def test_blocked_on_both_layouts(httpserver, status: int) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_anomaly.html"), status=status)
    serve(httpserver, "/lite/", fixture_text("ddg_anomaly.html"), status=status)
    with pytest.raises(SearchBlockedError) as info:
        search(loopback_client(httpserver), "anything")
    message = str(info.value)
    assert "Do not retry at once" in message
    assert "html endpoint" in message and "lite endpoint" in message
    assert paths(httpserver) == ["/html/", "/lite/"]


def test_status_202_is_blocked_whatever_the_body(httpserver) -> None:
    serve(httpserver, "/html/", ddg_page(HTML_SERP), status=202)
    serve(httpserver, "/lite/", ddg_page(LITE_SERP), status=202)
    with pytest.raises(SearchBlockedError) as info:
        search(loopback_client(httpserver), "anything")
    assert "HTTP 202" in str(info.value)


def test_blocked_by_empty_202(httpserver) -> None:
    serve(httpserver, "/html/", "", status=202)
    serve(httpserver, "/lite/", "", status=202)
    with pytest.raises(SearchBlockedError):
        search(loopback_client(httpserver), "anything")


def test_html_blocked_and_lite_failing_is_still_blocked(httpserver) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_anomaly.html"), status=202)
    serve(httpserver, "/lite/", "oops", status=500)
    with pytest.raises(SearchBlockedError) as info:
        search(loopback_client(httpserver), "anything")
    assert "HTTP 500" in str(info.value)


def test_no_results_on_html_layout(httpserver) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_html_no_results.html"))
    serve(httpserver, "/lite/", ddg_page(LITE_SERP))
    assert search(loopback_client(httpserver), "qzxjvwk plorbnatch") == []
    assert paths(httpserver) == ["/html/"]  # "nothing found" is an answer: no fallback


def test_no_results_on_lite_layout(httpserver) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_anomaly.html"), status=202)
    serve(httpserver, "/lite/", fixture_text("ddg_lite_no_results.html"))
    assert search(loopback_client(httpserver), "qzxjvwk plorbnatch") == []


def test_error_on_both_layouts(httpserver) -> None:
    serve(httpserver, "/html/", "Internal error", status=500)
    serve(httpserver, "/lite/", "Internal error", status=500)
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "anything")
    assert not isinstance(info.value, SearchBlockedError)
    assert "HTTP 500" in str(info.value) and "DuckDuckGo" in str(info.value)


def test_unrecognized_page_falls_back_then_errors(httpserver) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_unrecognized.html"))
    serve(httpserver, "/lite/", fixture_text("ddg_unrecognized.html"))
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "anything")
    assert not isinstance(info.value, SearchBlockedError)
    assert paths(httpserver) == ["/html/", "/lite/"]


def test_results_are_unwrapped_deduplicated_and_tracking_free(httpserver) -> None:
    serve(httpserver, "/html/", fixture_text("ddg_html_ads_redirects.html"))
    results = search(loopback_client(httpserver), "example guide", num_results=10)
    assert [r.url for r in results] == [
        "https://docs.example.org/guide?page=2&lang=en",
        "https://news.example.com/story?id=42",
        "https://wiki.example.net/Page?a=1&b=2",
        "https://duckduckgo.com.evil.example/y.js?campaign=spring",
        "https://notduckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2F",
        "https://shop.example/item?id=7#reviews",
    ]
    assert all("Ad" not in r.title and "Sponsored" not in r.title for r in results)


def test_lite_ads_dropped_over_http(httpserver) -> None:
    serve(httpserver, "/html/", "", status=202)
    serve(httpserver, "/lite/", fixture_text("ddg_lite_ads_redirects.html"))
    results = search(loopback_client(httpserver), "example guide")
    assert [r.url for r in results] == [
        "https://docs.example.org/guide?page=2&lang=en",
        "https://news.example.com/story?id=42",
        "https://wiki.example.net/Page?a=1&b=2",
    ]


def test_overlong_query_is_refused_without_a_request(httpserver) -> None:
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "x" * 501)
    assert info.value.reason == "query-too-long"
    assert httpserver.log == []


def test_empty_query(httpserver) -> None:
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "   ")
    assert info.value.reason == "empty-query"
