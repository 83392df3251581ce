"""Result cleaning, the agent-facing text, option parsing and the chain's decisions."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from webgrip.config import Config
from webgrip.errors import SearchBlockedError, SearchError
from webgrip.search import format_results
from webgrip.search._http import redact
from webgrip.search.base import (
    Deadline,
    SearchRequest,
    SearchResult,
    normalize_region,
    normalize_safe_search,
    normalize_time_range,
)
from webgrip.search.chain import clean_results, provider_chain, run_chain


def r(url: str, title: str = "T", snippet: str = "S", provider: str = "p") -> SearchResult:
    return SearchResult(title=title, url=url, snippet=snippet, provider=provider)


def test_to_dict() -> None:
    result = SearchResult("Title", "https://example.com/", "Snip", "brave", 3)
    assert result.to_dict() == {
        "title": "Title",
        "url": "https://example.com/",
        "snippet": "Snip",
        "provider": "brave",
        "position": 3,
    }


def test_clean_results_strips_dedupes_limits_and_renumbers() -> None:
    raw = [
        r("https://docs.example.org/guide?page=2&utm_source=x"),
        r("http://www.docs.example.org/guide/?page=2#part"),  # same page
        r("javascript:alert(1)"),
        r("/relative/only"),
        r("https://news.example.com/story?id=42&fbclid=abc", title="  Story\n 42 "),
        r("https://a.example/"),
        r("https://b.example/"),
    ]
    cleaned = clean_results(raw, limit=3)
    assert [(c.url, c.position) for c in cleaned] == [
        ("https://docs.example.org/guide?page=2", 1),
        ("https://news.example.com/story?id=42", 2),
        ("https://a.example/", 3),
    ]
    assert cleaned[1].title == "Story 42"


def test_clean_results_uses_configured_tracking_params() -> None:
    cleaned = clean_results([r("https://e.example/?sid=1&k=2")], 5, tracking_params=("sid",))
    assert cleaned[0].url == "https://e.example/?k=2"


def test_format_results() -> None:
    results = [
        SearchResult("First page", "https://one.example/", "About one.", "duckduckgo", 1),
        SearchResult("Second", "https://two.example/x", "", "duckduckgo", 2),
    ]
    text = format_results(results, "my  query")
    assert text == (
        'Web search results for: "my query"\n'
        "\n"
        "1. First page\n"
        "   https://one.example/\n"
        "   About one.\n"
        "\n"
        "2. Second\n"
        "   https://two.example/x\n"
        "\n"
        "Use fetch_page(url) to read any of these pages in full."
    )


def test_format_results_clips_long_snippets_and_says_no_results() -> None:
    long = "word " * 200
    text = format_results([SearchResult("T", "https://e.example/", long)], "q")
    snippet_line = text.splitlines()[4]
    assert len(snippet_line) < 320 and snippet_line.endswith("…")
    assert format_results([], "nothing here").startswith('No results found for: "nothing here"')


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("", None),
        ("d", "d"),
        ("day", "d"),
        ("Week", "w"),
        ("m", "m"),
        ("year", "y"),
    ],
)
def test_time_range(value, expected) -> None:
    assert normalize_time_range(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("wt-wt", None),
        ("us-en", "us-en"),
        ("en-US", "us-en"),
        ("DE-DE", "de-de"),
        ("hk-tzh", "hk-tzh"),
    ],
)
def test_region(value, expected) -> None:
    assert normalize_region(value) == expected


@pytest.mark.parametrize(
    "bad",
    [
        lambda: normalize_time_range("fortnight"),
        lambda: normalize_safe_search("sometimes", "moderate"),
        lambda: normalize_region("Mars"),
    ],
)
def test_invalid_options_are_search_errors(bad) -> None:
    with pytest.raises(SearchError) as info:
        bad()
    assert info.value.reason == "invalid-argument"


def test_redact_masks_raw_and_encoded_secrets() -> None:
    secret = "k3y/with+chars=="
    text = "url?key=k3y%2Fwith%2Bchars%3D%3D and raw k3y/with+chars== and k3y%2Fwith+chars%3D%3D"
    out = redact(text, [secret, None])
    assert "k3y" not in out and out.count("***") == 3


def test_provider_chain_order() -> None:
    assert provider_chain("duckduckgo", ("brave", "duckduckgo", "tavily")) == [
        "duckduckgo",
        "brave",
        "tavily",
    ]


# -- chain decisions with in-process providers ---------------------------------------------


def _request(seconds: float = 5.0) -> SearchRequest:
    client = SimpleNamespace(config=Config())
    return SearchRequest(
        client=client,
        query="q",
        num_results=5,
        region=None,  # type: ignore[arg-type]
        safe_search="moderate",
        time_range=None,
        deadline=Deadline(seconds),
    )


def _blocked(request):
    raise SearchBlockedError("Blocked one refused the search. Do not retry at once.")


def _failing(request):
    raise SearchError("Failing one failed (HTTP 500)", reason="http-500")


def _empty(request):
    return []


def _found(request):
    return [r("https://found.example/?utm_source=x", provider="found")]


def test_first_answer_wins_even_when_empty() -> None:
    calls = []
    providers = {"a": _empty, "b": lambda req: calls.append("b") or _found(req)}
    assert run_chain(_request(), ["a", "b"], providers) == []
    assert calls == []


def test_fallback_after_block_and_failure() -> None:
    providers = {"a": _blocked, "b": _failing, "c": _found}
    results = run_chain(_request(), ["a", "b", "c"], providers)
    assert [x.url for x in results] == ["https://found.example/"]


def test_all_blocked_is_blocked() -> None:
    with pytest.raises(SearchBlockedError) as info:
        run_chain(_request(), ["a", "b"], {"a": _blocked, "b": _blocked})
    assert "Do not retry at once" in str(info.value)


def test_mixed_failures_are_an_error_naming_each_provider() -> None:
    with pytest.raises(SearchError) as info:
        run_chain(_request(), ["brave", "tavily"], {"brave": _blocked, "tavily": _failing})
    assert not isinstance(info.value, SearchBlockedError)
    message = str(info.value)
    assert "Blocked one refused" in message and "HTTP 500" in message


def test_no_further_provider_once_the_deadline_passed() -> None:
    calls = []

    def slow_failure(request):
        time.sleep(0.3)
        raise SearchError("Slow one failed", reason="timeout")

    def later(request):
        calls.append("later")
        return []

    with pytest.raises(SearchError):
        run_chain(_request(0.2), ["slow", "later"], {"slow": slow_failure, "later": later})
    assert calls == []
