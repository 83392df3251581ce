"""search_web through the tool layer, against a loopback SearXNG stand-in."""

from __future__ import annotations

import json

from loopback import loopback_config
from webgrip import Tools


def searx_tools(httpserver, tmp_path, **changes):
    return Tools(loopback_config(
        tmp_path, search_provider="searxng",
        search_endpoints={"searxng": httpserver.url_for("/search")}, **changes))


def results(n: int) -> str:
    return json.dumps({"results": [
        {"url": f"https://site{i}.example/page?utm_source=x&id={i}", "title": f"Result {i}",
         "content": f"Snippet number {i}."} for i in range(1, n + 1)
    ]})


def test_search_web_lists_clean_results(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data(results(3),
                                                           content_type="application/json")
    answer = searx_tools(httpserver, tmp_path).search_web("cheese  facts", num_results=2)
    assert answer.startswith('Web search results for: "cheese facts"')
    assert "1. Result 1\n   https://site1.example/page?id=1\n   Snippet number 1." in answer
    assert "Result 3" not in answer and "utm_source" not in answer
    assert answer.endswith("Use fetch_page(url) to read any of these pages in full.")
    assert httpserver.log[0][0].args["q"] == "cheese facts"


def test_num_results_clamped(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data(results(15),
                                                           content_type="application/json")
    tools = searx_tools(httpserver, tmp_path)
    assert "10. Result 10" in tools.search_web("q", num_results=50)
    assert "11. " not in tools.search_web("q", num_results=50)
    one = tools.search_web("q", num_results=0)
    assert "1. Result 1" in one and "2. Result 2" not in one


def test_no_results_is_not_an_error(httpserver, tmp_path):
    httpserver.expect_request("/search").respond_with_data('{"results": []}',
                                                           content_type="application/json")
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
