"""fetch_many: input order, per-URL errors, real concurrency, the per-host rate limit; research."""

from __future__ import annotations

import pytest
from loopback import loopback_config
from siteserver import Reply, SiteServer, all_at_once, article, ddg_results, page
from webgrip.batch import fetch_many
from webgrip.client import WebClient
from webgrip.errors import BlockedURLError, HTTPStatusError, WebgripError
from webgrip.page import Page
from webgrip.research import share_budget
from webgrip.tools import Tools


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


def test_results_in_input_order_with_errors_in_place(site):
    for name in ("alpha", "beta", "gamma"):
        site.route(f"/{name}", page(article(name.title())))
    site.route("/gone", lambda req: Reply(404, b"missing"))
    urls = [site.url("/gamma"), site.url("/gone"), "http://10.1.2.3/", site.url("/alpha"),
            site.url("/beta")]
    with WebClient(loopback_config()) as client:
        out = client.fetch_many(urls, concurrency=4)
    assert [type(o).__name__ for o in out] == [
        "Page", "HTTPStatusError", "BlockedURLError", "Page", "Page"]
    assert isinstance(out[1], HTTPStatusError) and out[1].status == 404
    assert isinstance(out[2], BlockedURLError)
    assert [o.title for o in out if isinstance(o, Page)] == ["Gamma", "Alpha", "Beta"]
    assert "Gamma paragraph 0" in out[0].content


def test_fetches_really_run_concurrently(site):
    # Each handler waits until four requests are in flight at once; sequential fetching
    # would leave the first one waiting alone until the barrier gives up.
    site.route("/together", all_at_once(4))
    urls = [site.url("/together") + f"?n={i}" for i in range(4)]
    with WebClient(loopback_config()) as client:
        out = fetch_many(client, urls, concurrency=4)
    assert all(isinstance(o, Page) for o in out), out


def test_rate_limit_per_host_still_applies(site):
    import time

    arrivals: list[float] = []

    def stamp(req):
        arrivals.append(time.monotonic())
        return Reply(200, article("Slowly").encode())

    site.route("/slow", stamp)
    urls = [site.url("/slow") + f"?n={i}" for i in range(4)]
    with WebClient(loopback_config(rate_limit_seconds=0.3)) as client:
        out = fetch_many(client, urls, concurrency=4)
    assert all(isinstance(o, Page) for o in out)
    gaps = [b - a for a, b in zip(sorted(arrivals), sorted(arrivals)[1:], strict=False)]
    # A lower bound guaranteed by the limiter's sleeps (not a performance measurement).
    assert min(gaps) >= 0.25, gaps


def test_usage_errors_raise_and_empty_input():
    with WebClient(loopback_config()) as client:
        with pytest.raises(ValueError, match="extract"):
            fetch_many(client, ["http://127.0.0.1:9/"], extract="pdf")
        with pytest.raises(ValueError, match="concurrency"):
            fetch_many(client, ["http://127.0.0.1:9/"], concurrency=0)
        assert fetch_many(client, []) == []


def test_unexpected_exception_is_kept_in_its_slot():
    class Broken(WebClient):
        def fetch(self, url, **kw):
            if url.endswith("bad"):
                raise RuntimeError("boom")
            raise BlockedURLError("no", url=url, reason="test")

    with Broken(loopback_config()) as client:
        out = fetch_many(client, ["http://a.test/ok", "http://a.test/bad"], concurrency=2)
    assert isinstance(out[0], BlockedURLError)
    assert isinstance(out[1], WebgripError) and out[1].reason == "internal"
    assert isinstance(out[1].__cause__, RuntimeError)


# -- research ------------------------------------------------------------------------------
def test_share_budget_water_fills():
    assert share_budget([100, 5000, 8000], 3000) == [100, 1450, 1450]
    assert share_budget([10, 20], 1000) == [10, 20]
    assert sum(share_budget([4000, 4000, 4000], 3000)) <= 3000
    assert share_budget([], 100) == []


def _search_site(site, results):
    site.route("/html/", page(ddg_results(results)))
    return {"duckduckgo_html": site.url("/html/"), "duckduckgo_lite": site.url("/lite/")}


def test_research_reads_top_results_within_budget(site):
    long_text = article("Long", paragraphs=200)
    site.route("/one", page(article("Cheddar")))
    site.route("/two", page(long_text))
    site.route("/three", lambda req: Reply(500, b"down"))
    site.route("/four", page(article("Never read")))
    endpoints = _search_site(site, [
        ("Cheddar facts", site.url("/one"), "About cheddar"),
        ("Long read", site.url("/two"), "Very long"),
        ("Broken", site.url("/three"), "Fails"),
        ("Fourth", site.url("/four"), "Not fetched"),
    ])
    tools = Tools(loopback_config(search_endpoints=endpoints))
    answer = tools.research("cheese", num_results=4, fetch_top=3, max_length=4000)
    assert "1. Cheddar facts" in answer and "4. Fourth" in answer
    assert "Cheddar paragraph 2" in answer  # short page shown whole
    assert "Long paragraph 0" in answer
    assert "start_index=" in answer  # long page cut, with how to read on
    assert "=== [3] Broken ===" in answer and "Error:" in answer
    assert "Never read paragraph" not in answer
    assert len(answer) <= 4000 + 200
    assert not site.hits("/four")


def test_research_never_raises(site):
    site.route("/html/", lambda req: Reply(500, b"search down"))
    tools = Tools(loopback_config(search_endpoints={"duckduckgo_html": site.url("/html/"),
                                                    "duckduckgo_lite": site.url("/html/")}))
    assert tools.research("anything").startswith("Error:")
    assert tools.research("   ").startswith("Error:")


def test_research_continuation_offset_is_where_fetch_page_continues(site):
    import re

    words = " ".join(f"word{i:04d}" for i in range(3000))
    body = ("\n\n\n    " + words + "\n").encode()
    site.route("/plain", lambda req: Reply(200, body, content_type="text/plain; charset=utf-8"))
    url = site.url("/plain")
    endpoints = _search_site(site, [("Plain words", url, "Lots of words")])
    tools = Tools(loopback_config(search_endpoints=endpoints))
    content = tools.client.fetch(url).content
    assert content[:1].isspace(), "the converted content must start with whitespace"
    answer = tools.research("words", num_results=1, fetch_top=1, max_length=2000)
    match = re.search(r"\[Truncated at (\d+) of (\d+) characters: call fetch_page with "
                      r"url='[^']+' and start_index=(\d+) to read on\]", answer)
    assert match, answer
    at, total, start = map(int, match.groups())
    assert at == start and total == len(content)
    shown = answer[:match.start()].split(f"URL: {url}\n", 1)[1].rstrip()
    # What research showed ends exactly where start_index picks up...
    assert content[:start].strip() == shown
    # ... and fetch_page(start_index=N) continues with the very next characters.
    more = tools.fetch_page(url, start_index=start, max_length=1000)
    assert f"Showing characters {start}–" in more
    assert more.split("\n\n", 1)[1].startswith(content[start:start + 200])
