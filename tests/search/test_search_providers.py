"""Brave, Tavily, Google Custom Search and SearXNG: the request each one sends and how its
answer (recorded JSON) is read, against a loopback stand-in. API keys must never show up in
results, messages, URLs or reprs."""

from __future__ import annotations

import json
import traceback

import pytest
from helpers.search import fixture_json, loopback_client
from webgrip.errors import SearchBlockedError, SearchError
from webgrip.search import format_results, search

BRAVE_KEY = "BSA-secret-brave-Key/1+2=="
TAVILY_KEY = "tvly-secret-tavily-key-0123456789"
GOOGLE_KEY = "AIzaSy-secret-google/key+x"


def assert_no_secret(exc_or_text: object, *secrets: str) -> None:
    """None of ``secrets`` (raw or in any encoding a URL uses) in the text, repr, url or trace."""
    from urllib.parse import quote, quote_plus

    texts = [str(exc_or_text), repr(exc_or_text)]
    if isinstance(exc_or_text, BaseException):
        texts.append(str(getattr(exc_or_text, "url", "")))
        texts.append(repr(exc_or_text.__dict__))
        texts.append("".join(traceback.format_exception(exc_or_text)))
    blob = "\n".join(texts)
    for secret in secrets:
        for form in (secret, quote(secret, safe=""), quote_plus(secret), secret[6:20]):
            assert form not in blob, f"secret leaked as {form!r}"


# -- Brave --------------------------------------------------------------------------------


def test_brave_request_and_results(httpserver) -> None:
    httpserver.expect_request(
        "/res/v1/web/search",
        method="GET",
        query_string={
            "q": "example guide",
            "count": "3",
            "safesearch": "strict",
            "freshness": "pw",
            "country": "US",
            "search_lang": "en",
        },
        headers={"X-Subscription-Token": BRAVE_KEY, "Accept": "application/json"},
    ).respond_with_json(fixture_json("brave_web.json"))
    client = loopback_client(httpserver, brave_api_key=BRAVE_KEY)
    results = search(
        client,
        "example guide",
        provider="brave",
        num_results=3,
        region="us-en",
        safe_search="strict",
        time_range="w",
    )
    assert [(r.title, r.url, r.snippet) for r in results] == [
        (
            "The Example Guide",
            "https://docs.example.org/guide?page=2",
            "Everything about the example & more, in one place.",
        ),
        (
            "Story 42 - Example News",
            "https://news.example.com/story?id=42",
            "A story about guides.",
        ),
        ("Wiki Page", "https://wiki.example.net/Page?a=1&b=2", ""),
    ]
    assert {r.provider for r in results} == {"brave"}
    assert_no_secret(format_results(results, "example guide"), BRAVE_KEY)
    assert_no_secret(repr(results) + repr(client.config), BRAVE_KEY)


def test_brave_bad_key(httpserver) -> None:
    httpserver.expect_request("/res/v1/web/search").respond_with_json(
        fixture_json("brave_error_422.json"), status=422
    )
    client = loopback_client(httpserver, brave_api_key=BRAVE_KEY)
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="brave")
    assert not isinstance(info.value, SearchBlockedError)
    assert "HTTP 422" in str(info.value) and "subscription token is invalid" in str(info.value)
    assert "check the API key" in str(info.value)
    assert_no_secret(info.value, BRAVE_KEY)


def test_brave_rate_limited_is_blocked(httpserver) -> None:
    httpserver.expect_request("/res/v1/web/search").respond_with_json(
        {
            "type": "ErrorResponse",
            "error": {
                "status": 429,
                "code": "RATE_LIMITED",
                "detail": "Request rate limit exceeded.",
            },
        },
        status=429,
    )
    client = loopback_client(httpserver, brave_api_key=BRAVE_KEY)
    with pytest.raises(SearchBlockedError) as info:
        search(client, "q", provider="brave")
    assert info.value.reason == "rate-limited"
    assert_no_secret(info.value, BRAVE_KEY)


def test_brave_without_web_section_is_no_results(httpserver) -> None:
    httpserver.expect_request("/res/v1/web/search").respond_with_json(
        {"type": "search", "query": {"original": "qzx"}}
    )
    client = loopback_client(httpserver, brave_api_key=BRAVE_KEY)
    assert search(client, "qzx", provider="brave") == []


def test_brave_not_json(httpserver) -> None:
    httpserver.expect_request("/res/v1/web/search").respond_with_data(
        "<html>proxy error</html>", content_type="text/html"
    )
    client = loopback_client(httpserver, brave_api_key=BRAVE_KEY)
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="brave")
    assert info.value.reason == "bad-response"


@pytest.mark.parametrize("results", [5, "text", {"url": "https://example.com/"}, True])
def test_brave_results_not_a_list_is_bad_response(httpserver, results) -> None:
    # Found by fuzzing (fuzz/python/targets.py providers): a number there raised TypeError.
    httpserver.expect_request("/res/v1/web/search").respond_with_json({"web": {"results": results}})
    client = loopback_client(httpserver, brave_api_key=BRAVE_KEY)
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="brave")
    assert info.value.reason == "bad-response"


def test_missing_key_sends_nothing(httpserver) -> None:
    client = loopback_client(httpserver)
    for provider, setting in (
        ("brave", "brave_api_key"),
        ("tavily", "tavily_api_key"),
        ("google", "google_api_key"),
        ("searxng", "searxng_url"),
    ):
        if provider == "searxng":
            client = loopback_client(httpserver, search_endpoints={"searxng": ""})
        with pytest.raises(SearchError) as info:
            search(client, "q", provider=provider)
        assert info.value.reason == "not-configured"
        assert setting in str(info.value)
    assert httpserver.log == []


# -- Tavily -------------------------------------------------------------------------------


def test_tavily_request_and_results(httpserver) -> None:
    httpserver.expect_request(
        "/search",
        method="POST",
        headers={"Authorization": f"Bearer {TAVILY_KEY}", "Content-Type": "application/json"},
    ).respond_with_json(fixture_json("tavily_search.json"))
    client = loopback_client(httpserver, tavily_api_key=TAVILY_KEY)
    results = search(client, "example guide", provider="tavily", num_results=4, time_range="m")
    body = json.loads(httpserver.log[0][0].get_data())
    assert body["query"] == "example guide"
    assert body["max_results"] == 4
    assert body["time_range"] == "month"
    assert body["search_depth"] == "basic"
    assert "api_key" not in body  # the key travels only in the Authorization header
    assert [(r.url, r.snippet) for r in results] == [
        ("https://docs.example.org/guide?page=2", "Everything about the example, in one place."),
        ("https://news.example.com/story?id=42", "A story about guides."),
    ]


def test_tavily_unauthorized(httpserver) -> None:
    httpserver.expect_request("/search", method="POST").respond_with_json(
        fixture_json("tavily_error_401.json"), status=401
    )
    client = loopback_client(httpserver, tavily_api_key=TAVILY_KEY)
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="tavily")
    assert "HTTP 401" in str(info.value) and "invalid API key" in str(info.value)
    assert not isinstance(info.value, SearchBlockedError)
    assert_no_secret(info.value, TAVILY_KEY)


@pytest.mark.parametrize("status", [429, 432])
def test_tavily_quota_is_blocked(httpserver, status: int) -> None:
    httpserver.expect_request("/search", method="POST").respond_with_json(
        {"detail": {"error": f"Limit reached for key {TAVILY_KEY}"}}, status=status
    )
    client = loopback_client(httpserver, tavily_api_key=TAVILY_KEY)
    with pytest.raises(SearchBlockedError) as info:
        search(client, "q", provider="tavily")
    assert_no_secret(info.value, TAVILY_KEY)


# -- Google -------------------------------------------------------------------------------


def test_google_request_and_results(httpserver) -> None:
    httpserver.expect_request(
        "/customsearch/v1",
        method="GET",
        query_string={
            "key": GOOGLE_KEY,
            "cx": "0123456789abcdef0",
            "q": "example guide",
            "num": "10",
            "safe": "active",
            "dateRestrict": "y1",
            "gl": "fr",
            "hl": "fr",
        },
    ).respond_with_json(fixture_json("google_cse.json"))
    client = loopback_client(httpserver, google_api_key=GOOGLE_KEY, google_cx="0123456789abcdef0")
    results = search(
        client,
        "example guide",
        provider="google",
        num_results=25,
        region="fr-fr",
        safe_search="strict",
        time_range="y",
    )
    assert [(r.title, r.url, r.snippet) for r in results] == [
        (
            "The Example Guide & Handbook",
            "https://docs.example.org/guide?page=2",
            "Everything about the example, in one place.",
        ),
        ("Story 42", "https://news.example.com/story?id=42", "A story about guides."),
    ]


def test_google_no_items_is_no_results(httpserver) -> None:
    httpserver.expect_request("/customsearch/v1").respond_with_json(
        fixture_json("google_cse_empty.json")
    )
    client = loopback_client(httpserver, google_api_key=GOOGLE_KEY, google_cx="cx1")
    assert search(client, "qzxjvwk", provider="google") == []


def test_google_bad_key_message_has_no_key(httpserver) -> None:
    httpserver.expect_request("/customsearch/v1").respond_with_json(
        fixture_json("google_error_400.json"), status=400
    )
    client = loopback_client(httpserver, google_api_key=GOOGLE_KEY, google_cx="cx1")
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="google")
    assert "API key not valid" in str(info.value)
    assert "check google_api_key and google_cx" in str(info.value)
    assert "***" in info.value.url  # the URL is reported, with the key masked
    assert_no_secret(info.value, GOOGLE_KEY)


def test_google_quota_is_blocked(httpserver) -> None:
    httpserver.expect_request("/customsearch/v1").respond_with_json(
        fixture_json("google_error_403_quota.json"), status=403
    )
    client = loopback_client(httpserver, google_api_key=GOOGLE_KEY, google_cx="cx1")
    with pytest.raises(SearchBlockedError) as info:
        search(client, "q", provider="google")
    assert "Quota exceeded" in str(info.value)
    assert_no_secret(info.value, GOOGLE_KEY)


def test_google_connection_failure_has_no_key(httpserver) -> None:
    # nothing listens on the port of a stopped server: the transport error names the URL
    client = loopback_client(
        httpserver,
        google_api_key=GOOGLE_KEY,
        google_cx="cx1",
        search_endpoints={"google": "http://127.0.0.1:9/customsearch/v1"},
    )
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="google", timeout=3)
    assert_no_secret(info.value, GOOGLE_KEY)


# -- SearXNG ------------------------------------------------------------------------------


def test_searxng_request_and_results(httpserver) -> None:
    httpserver.expect_request(
        "/searx/search",
        method="GET",
        query_string={
            "q": "example guide",
            "format": "json",
            "pageno": "1",
            "safesearch": "1",
            "time_range": "day",
            "language": "en-US",
        },
    ).respond_with_json(fixture_json("searxng.json"))
    client = loopback_client(httpserver)
    results = search(client, "example guide", provider="searxng", region="us-en", time_range="d")
    # mc_cid/mc_eid stripped; the same page from a second engine dropped
    assert [r.url for r in results] == [
        "https://docs.example.org/guide?page=2",
        "https://news.example.com/story?id=42",
    ]
    assert [r.position for r in results] == [1, 2]


def test_searxng_from_instance_url(httpserver) -> None:
    httpserver.expect_request(
        "/instance/search",
        query_string={
            "q": "x",
            "format": "json",
            "pageno": "1",
            "safesearch": "0",
        },
    ).respond_with_json(fixture_json("searxng.json"))
    client = loopback_client(
        httpserver,
        searxng_url=httpserver.url_for("/instance/"),
        safe_search="off",
        search_endpoints={"searxng": ""},
    )
    assert len(search(client, "x", provider="searxng")) == 2


def test_searxng_json_disabled(httpserver) -> None:
    httpserver.expect_request("/searx/search").respond_with_data("Forbidden", status=403)
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "q", provider="searxng")
    assert "HTTP 403" in str(info.value) and "search.formats" in str(info.value)


def test_searxng_engines_unresponsive(httpserver) -> None:
    httpserver.expect_request("/searx/search").respond_with_json(
        fixture_json("searxng_unresponsive.json")
    )
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "q", provider="searxng")
    assert "duckduckgo" in str(info.value) and "brave" in str(info.value)


@pytest.mark.parametrize("engines", [1, "bing", {"bing": "timeout"}])
def test_searxng_unresponsive_engines_of_another_shape(httpserver, engines) -> None:
    # Found by fuzzing (fuzz/python/targets.py providers): a number there raised TypeError.
    httpserver.expect_request("/searx/search").respond_with_json(
        {"results": [], "unresponsive_engines": engines}
    )
    with pytest.raises(SearchError) as info:
        search(loopback_client(httpserver), "q", provider="searxng")
    assert info.value.reason == "engines-unresponsive"


def test_google_endpoint_refused_by_policy_has_no_key(httpserver) -> None:
    # a private address outside allow_networks: refused before connecting, URL in the error
    client = loopback_client(
        httpserver,
        google_api_key=GOOGLE_KEY,
        google_cx="cx1",
        search_endpoints={"google": "http://10.1.2.3/customsearch/v1"},
    )
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="google", timeout=3)
    assert "policy" in str(info.value)
    assert_no_secret(info.value, GOOGLE_KEY)
