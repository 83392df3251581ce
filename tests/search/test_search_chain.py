"""The provider chain over HTTP: fallbacks, the shared deadline, and what the caller sees."""

from __future__ import annotations

import time

import pytest
from helpers.search import ddg_page, fixture_json, fixture_text, loopback_client
from webgrip.errors import SearchBlockedError, SearchError
from webgrip.search import search
from werkzeug import Response

BRAVE_KEY = "BSA-chain-secret-key"
HTML = "text/html; charset=utf-8"


def ddg_blocked(httpserver) -> None:
    for path in ("/html/", "/lite/"):
        httpserver.expect_request(path, method="POST").respond_with_data(
            fixture_text("ddg_anomaly.html"), status=202, content_type=HTML
        )


def test_falls_back_to_brave_when_duckduckgo_is_blocked(httpserver) -> None:
    ddg_blocked(httpserver)
    httpserver.expect_request("/res/v1/web/search").respond_with_json(
        fixture_json("brave_web.json")
    )
    client = loopback_client(httpserver, search_fallbacks=("brave",), brave_api_key=BRAVE_KEY)
    results = search(client, "example guide")
    assert [r.provider for r in results] == ["brave"] * 3
    assert [request.path for request, _ in httpserver.log] == [
        "/html/",
        "/lite/",
        "/res/v1/web/search",
    ]


def test_every_provider_blocked(httpserver) -> None:
    ddg_blocked(httpserver)
    httpserver.expect_request("/res/v1/web/search").respond_with_json(
        {"error": {"detail": "Request rate limit exceeded."}}, status=429
    )
    client = loopback_client(httpserver, search_fallbacks=("brave",), brave_api_key=BRAVE_KEY)
    with pytest.raises(SearchBlockedError) as info:
        search(client, "q")
    message = str(info.value)
    assert "DuckDuckGo" in message and "Brave Search" in message
    assert "Do not retry at once" in message
    assert BRAVE_KEY not in message


def test_blocked_then_unconfigured_is_blocked_naming_both(httpserver) -> None:
    ddg_blocked(httpserver)
    client = loopback_client(httpserver, search_fallbacks=("tavily",))
    with pytest.raises(SearchBlockedError) as info:
        search(client, "q")
    message = str(info.value)
    assert "DuckDuckGo" in message and "Tavily: no API key configured" in message
    assert "Do not retry at once" in message


def test_blocked_then_failing_is_an_error_naming_both(httpserver) -> None:
    ddg_blocked(httpserver)
    httpserver.expect_request("/res/v1/web/search").respond_with_data("down", status=503)
    client = loopback_client(httpserver, search_fallbacks=("brave",), brave_api_key=BRAVE_KEY)
    with pytest.raises(SearchError) as info:
        search(client, "q")
    assert not isinstance(info.value, SearchBlockedError)
    message = str(info.value)
    assert "refusing automated searches" in message and "Brave Search failed (HTTP 503)" in message


def test_no_results_do_not_fall_through(httpserver) -> None:
    httpserver.expect_request("/html/", method="POST").respond_with_data(
        fixture_text("ddg_html_no_results.html"), content_type=HTML
    )
    client = loopback_client(httpserver, search_fallbacks=("brave",), brave_api_key=BRAVE_KEY)
    assert search(client, "qzxjvwk") == []
    assert [request.path for request, _ in httpserver.log] == ["/html/"]


def test_primary_from_config_and_explicit_provider(httpserver) -> None:
    httpserver.expect_request("/res/v1/web/search").respond_with_json(
        fixture_json("brave_web.json")
    )
    httpserver.expect_request("/html/", method="POST").respond_with_data(
        ddg_page("html_serp_direct-links_rust-programming-language.html"), content_type=HTML
    )
    client = loopback_client(httpserver, search_provider="brave", brave_api_key=BRAVE_KEY)
    assert search(client, "q")[0].provider == "brave"
    assert search(client, "q", provider="duckduckgo")[0].provider == "duckduckgo"


def test_unknown_provider(httpserver) -> None:
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "q", provider="altavista")
    assert info.value.reason == "invalid-argument"


def test_one_deadline_for_the_whole_search(httpserver) -> None:
    def slow(request):
        time.sleep(3.0)  # past the deadline, and past the bound below
        return Response(fixture_text("ddg_html_no_results.html"), content_type=HTML)

    httpserver.expect_request("/html/", method="POST").respond_with_handler(slow)
    httpserver.expect_request("/lite/", method="POST").respond_with_handler(slow)
    client = loopback_client(httpserver, search_fallbacks=("brave",), brave_api_key=BRAVE_KEY)
    start = time.monotonic()
    with pytest.raises(SearchError) as info:
        search(client, "q", timeout=1.0)
    elapsed = time.monotonic() - start
    # The deadline plus room for a loaded machine, under the 3 s the first endpoint holds
    # the request: a search that waited it out, or asked the next engine, fails.
    assert elapsed < 2.5, f"the search took {elapsed:.2f}s with a 1s deadline"
    assert "deadline" in str(info.value)
    # neither the lite endpoint nor Brave was asked after the deadline passed
    assert "/res/v1/web/search" not in [request.path for request, _ in httpserver.log]


def test_webclient_search_method(httpserver) -> None:
    httpserver.expect_request("/html/", method="POST").respond_with_data(
        fixture_text("ddg_html_ads_redirects.html"), content_type=HTML
    )
    client = loopback_client(httpserver)
    results = client.search("example guide", num_results=2)
    assert [r.url for r in results] == [
        "https://docs.example.org/guide?page=2&lang=en",
        "https://news.example.com/story?id=42",
    ]
