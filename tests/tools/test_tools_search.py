"""search_web through the tool layer, against a loopback SearXNG stand-in."""

from __future__ import annotations

import json

from helpers.loopback import loopback_config
from webgrip import Tools


def searx_tools(httpserver, tmp_path, **changes):
    return Tools(
        loopback_config(
            tmp_path,
            search_provider="searxng",
            search_endpoints={"searxng": httpserver.url_for("/search")},
            **changes,
        )
    )


def results(n: int) -> str:
    return json.dumps(
        {
            "results": [
                {
                    "url": f"https://site{i}.example/page?utm_source=x&id={i}",
                    "title": f"Result {i}",
                    "content": f"Snippet number {i}.",
                }
                for i in range(1, n + 1)
            ]
        }
    )


def test_search_web_lists_clean_results(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data(
        results(3), content_type="application/json"
    )
    answer = searx_tools(httpserver, tmp_path).search_web("cheese  facts", num_results=2)
    assert answer.startswith('Web search results for: "cheese facts"')
    assert "1. Result 1\n   https://site1.example/page?id=1\n   Snippet number 1." in answer
    assert "Result 3" not in answer and "utm_source" not in answer
    assert answer.endswith("Use fetch_page(url) to read any of these pages in full.")
    assert httpserver.log[0][0].args["q"] == "cheese facts"


def test_num_results_clamped(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data(
        results(15), content_type="application/json"
    )
    tools = searx_tools(httpserver, tmp_path)
    assert "10. Result 10" in tools.search_web("q", num_results=50)
    assert "11. " not in tools.search_web("q", num_results=50)
    one = tools.search_web("q", num_results=0)
    assert "1. Result 1" in one and "2. Result 2" not in one


def test_no_results_is_not_an_error(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data(
        '{"results": []}', content_type="application/json"
    )
    answer = searx_tools(httpserver, tmp_path).search_web("zzzz")
    assert answer.startswith('No results found for: "zzzz"')


def test_provider_failure_is_an_error_string(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data("down", status=500)
    answer = searx_tools(httpserver, tmp_path, max_retries=0).search_web("cheese")
    assert answer.startswith("Error:")


def test_empty_query_refused(httpserver, tmp_path):
    answer = searx_tools(httpserver, tmp_path).search_web("   ")
    assert answer.startswith("Error: query is empty")
    assert len(httpserver.log) == 0


# -- a blocked search is one cause and one piece of advice --------------------------------------


def _assert_one_cause_one_advice(answer: str) -> None:
    assert answer.startswith("Error: ")
    assert answer.count("Do not") == 1, answer
    assert answer.count("minutes") == 1, answer
    assert "wait a minute" not in answer
    assert ". Do not search again" in answer  # cause sentence, then the advice sentence
    body = answer.removeprefix("Error: ")
    cause, _advice = body.split(" Do not search again")
    assert cause.endswith(".") and cause.count(". ") == 0, cause


def test_blocked_duckduckgo_answer_does_not_repeat_itself(httpserver, tmp_path):
    httpserver.expect_request("/html/").respond_with_data("", status=202)
    httpserver.expect_request("/lite/").respond_with_data("", status=202)
    tools = Tools(
        loopback_config(
            tmp_path,
            search_endpoints={
                "duckduckgo_html": httpserver.url_for("/html/"),
                "duckduckgo_lite": httpserver.url_for("/lite/"),
            },
        )
    )
    answer = tools.search_web("cheese")
    _assert_one_cause_one_advice(answer)
    assert "DuckDuckGo is refusing automated searches" in answer
    assert "html endpoint: HTTP 202" in answer and "lite endpoint: HTTP 202" in answer


def test_blocked_single_provider_answer_does_not_repeat_itself(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data("slow down", status=429)
    answer = searx_tools(httpserver, tmp_path, max_retries=0).search_web("cheese")
    _assert_one_cause_one_advice(answer)


def test_blocked_chain_answer_does_not_repeat_itself():
    from webgrip import SearchBlockedError
    from webgrip.messages import error_message

    exc = SearchBlockedError(
        "The search was refused: DuckDuckGo is refusing automated searches from this address "
        "(html endpoint: HTTP 202); Brave Search refused the search (HTTP 429). Do not retry "
        "at once; wait a few minutes or configure another provider.",
        reason="blocked",
    )
    _assert_one_cause_one_advice(error_message(exc, action="searching"))
