"""fetch_many: input order, per-URL errors, real concurrency, the per-host rate limit; research."""

from __future__ import annotations

import pytest
from helpers.loopback import loopback_config, wait_until
from helpers.siteserver import Reply, SiteServer, all_at_once, article, ddg_results, page
from webgrip.bulk.pool import fetch_each, fetch_many
from webgrip.client import WebClient
from webgrip.errors import BlockedURLError, HTTPStatusError, WebgripError
from webgrip.page import Page
from webgrip.tools import Tools
from webgrip.tools.research import share_budget


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


def test_results_in_input_order_with_errors_in_place(site):
    for name in ("alpha", "beta", "gamma"):
        site.route(f"/{name}", page(article(name.title())))
    site.route("/gone", lambda req: Reply(404, b"missing"))
    urls = [
        site.url("/gamma"),
        site.url("/gone"),
        "http://10.1.2.3/",
        site.url("/alpha"),
        site.url("/beta"),
    ]
    with WebClient(loopback_config()) as client:
        out = client.fetch_many(urls, concurrency=4)
    assert [type(o).__name__ for o in out] == [
        "Page",
        "HTTPStatusError",
        "BlockedURLError",
        "Page",
        "Page",
    ]
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


def arrivals_at(site, path: str, title: str) -> list[float]:
    """Route ``path`` to an article and return the list its requests' arrival times go to."""
    import time

    arrivals: list[float] = []

    def stamp(req):
        arrivals.append(time.monotonic())
        return Reply(200, article(title).encode())

    site.route(path, stamp)
    return arrivals


def test_rate_limit_per_host_still_applies(site):
    arrivals = arrivals_at(site, "/slow", "Slowly")
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
    endpoints = _search_site(
        site,
        [
            ("Cheddar facts", site.url("/one"), "About cheddar"),
            ("Long read", site.url("/two"), "Very long"),
            ("Broken", site.url("/three"), "Fails"),
            ("Fourth", site.url("/four"), "Not fetched"),
        ],
    )
    tools = Tools(loopback_config(search_endpoints=endpoints))
    answer = tools.research("cheese", num_results=4, fetch_top=3, max_length=4000)
    assert "1. Cheddar facts" in answer and "4. Fourth" in answer
    assert "Cheddar paragraph 2" in answer  # short page shown whole
    assert "Long paragraph 0" in answer
    assert "start_index=" in answer  # long page cut, with how to read on
    assert "=== [3] Broken ===" in answer and "Error:" in answer
    assert "Never read paragraph" not in answer
    assert len(answer) <= 4000
    assert not site.hits("/four")


def test_research_keeps_to_max_length_however_tight(site):
    """The answer never runs past ``max_length`` (it once gave 1,058 characters for 1,000):
    every page's share comes after the list, headings and notes, counted exactly."""
    for name in ("one", "two", "three"):
        site.route(f"/{name}", page(article(name.title(), paragraphs=60)))
    endpoints = _search_site(
        site,
        [
            (f"Result {name} " + "with a long title " * 3, site.url(f"/{name}"), "Snippet " * 40)
            for name in ("one", "two", "three")
        ],
    )
    tools = Tools(loopback_config(search_endpoints=endpoints))
    for limit in (1200, 1500, 2500, 6000):
        answer = tools.research("cheese", num_results=3, fetch_top=3, max_length=limit)
        assert len(answer) <= limit, (limit, len(answer))
        # Each page still says where fetch_page reads on.
        assert answer.count("start_index=") == 3, answer
    # Too tight for the snippets: they go before the pages' text does.
    tight = tools.research("cheese", num_results=3, fetch_top=1, max_length=1000)
    assert len(tight) <= 1000 and "Snippet" not in tight and "One paragraph 0" in tight
    assert "Snippet" in tools.research("cheese", num_results=3, fetch_top=1, max_length=3000)
    roomy = tools.research("cheese", num_results=3, fetch_top=3, max_length=6000)
    assert "One paragraph 0" in roomy and "Three paragraph 0" in roomy
    assert len(roomy) > 5000  # the room is used, not left empty


def test_research_never_raises(site):
    site.route("/html/", lambda req: Reply(500, b"search down"))
    tools = Tools(
        loopback_config(
            search_endpoints={
                "duckduckgo_html": site.url("/html/"),
                "duckduckgo_lite": site.url("/html/"),
            }
        )
    )
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
    match = re.search(
        r"\[Truncated at (\d+) of (\d+) characters: call fetch_page with "
        r"url='[^']+' and start_index=(\d+) to read on\]",
        answer,
    )
    assert match, answer
    at, total, start = map(int, match.groups())
    assert at == start and total == len(content)
    shown = answer[: match.start()].split(f"URL: {url}\n", 1)[1].rstrip()
    # What research showed ends exactly where start_index picks up...
    assert content[:start].strip() == shown
    # ... and fetch_page(start_index=N) continues with the very next characters.
    more = tools.fetch_page(url, start_index=start, max_length=1000)
    assert f"Showing characters {start}–" in more
    assert more.split("\n\n", 1)[1].startswith(content[start : start + 200])


# -- a host's queue longer than the timeout: a batch waits, a single call fails fast ----------


def test_a_slot_past_the_deadline_fails_a_single_call_but_a_batch_waits_for_it(site):
    """The host's next slot is after the call's deadline: nothing is sent. A single call says
    so at once (``retry_in``); in a batch the URL waits for the slot instead of becoming a
    ``timeout`` row, unless that is longer than ``max_host_wait``."""
    import time

    from webgrip.errors import FetchTimeoutError

    site.route("/held", page(article("Held")))
    url = site.url("/held")
    # A 6 s interval and a 2 s deadline: "at once" gets 1.5 s of room on a loaded machine
    # (a 1 s deadline left it 0.5 s), still under the 2 s a sleep to the deadline takes, and
    # a slow first fetch (up to 4 s) still leaves the next slot past the deadline.
    with WebClient(loopback_config(rate_limit_seconds=6.0, timeout=2.0)) as client:
        client.fetch(url)
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError) as info:
            client.fetch(url)
        assert time.monotonic() - start < 1.5  # at once, not after sleeping
        assert info.value.reason == "timeout" and 2.0 < info.value.retry_in <= 6.0
        assert "not requested" in str(info.value)
        [given_up] = fetch_many(client, [url], max_host_wait=0)
        assert isinstance(given_up, FetchTimeoutError) and given_up.retry_in is not None
        assert len(site.hits("/held")) == 1  # neither sent anything

        [waited] = fetch_many(client, [url])
        assert isinstance(waited, Page) and waited.title == "Held"
        # It waited for the slot, which was at least retry_in after `start` (less rounding).
        assert time.monotonic() - start > info.value.retry_in - 0.1
    assert len(site.hits("/held")) == 2


def test_more_threads_than_the_hosts_queue_holds_all_fetched_at_its_rate(site):
    """Eight threads, one host, and a queue of four slots within the timeout: the threads
    that find it full wait, every URL is fetched once, spaced by the rate limit, and none is
    booked so late in its call that it runs out of time."""
    arrivals = arrivals_at(site, "/q", "Queued")
    urls = [site.url("/q") + f"?n={i}" for i in range(10)]
    # Four slots within the timeout, and each booked call keeps half of it (1 s) for its
    # request: a loaded machine's fetch fits (0.25 s slots and a 1 s timeout left 0.5 s).
    with WebClient(loopback_config(rate_limit_seconds=0.5, timeout=2.0)) as client:
        out = fetch_many(client, urls, concurrency=8)
    assert all(isinstance(o, Page) for o in out), [str(o) for o in out]
    assert len(arrivals) == 10
    gaps = [b - a for a, b in zip(sorted(arrivals), sorted(arrivals)[1:], strict=False)]
    assert min(gaps) >= 0.4, gaps


class _SlotTakenOnRetry:
    """A limiter that grants every first slot and finds every second one taken by others
    (as a shared limiter may between ``_retry_fits`` and the retry's booking)."""

    def __init__(self) -> None:
        self.calls = 0

    def reserve(self, host: str, deadline: float | None = None) -> float | None:
        self.calls += 1
        return 0.0 if self.calls % 2 else None

    def next_slot(self, host: str) -> float:
        import time

        return time.monotonic()


def test_a_retry_that_loses_its_slot_keeps_the_answer_it_had(site):
    """After a request was sent, a failure to book the retry's slot is no "nothing sent"
    failure a batch would queue on (sending the URL again): the 503 received is the answer."""
    site.route("/busy", lambda req: Reply(503, b"busy", {"Retry-After": "0"}))
    with WebClient(loopback_config(max_retries=2), limiter=_SlotTakenOnRetry()) as client:
        with pytest.raises(HTTPStatusError) as info:
            client.fetch(site.url("/busy"))
        assert info.value.status == 503
        [row] = fetch_many(client, [site.url("/busy")], max_host_wait=5)
    assert isinstance(row, HTTPStatusError) and row.status == 503
    assert len(site.hits("/busy")) == 2  # once per fetch: the batch did not send it again


def test_the_results_keep_coming_after_a_signal_handler_outlasts_the_poll(site):
    """A signal handler slower than ``poll`` (Ctrl-C in `webgrip batch` under load) must not
    stall the iteration until a request in flight ends. CPython's C SimpleQueue.get(timeout)
    resumes such a wait with a negative timeout, which means for ever: `webgrip batch` then
    exited only when the hung request timed out."""
    import signal
    import threading

    released = threading.Event()
    site.route("/hang", lambda req: (released.wait(30), Reply(200, b"late"))[1])
    handled: list[int] = []

    def slow_handler(signum, frame):
        threading.Event().wait(0.2)  # outlasts the 0.05 s poll the wait was started with
        handled.append(signum)

    def signal_main_thread() -> None:
        for n in range(1, 4):
            # Each signal once the main thread is back in the queue's wait, where it spends
            # nearly all its time between ticks: one landing there is enough to stall it.
            threading.Event().wait(0.02)
            signal.pthread_kill(threading.main_thread().ident, signal.SIGUSR1)
            wait_until(lambda n=n: len(handled) >= n, timeout=10)

    previous = signal.signal(signal.SIGUSR1, slow_handler)
    safety = threading.Timer(20, released.set)  # ends the hang whatever happens
    safety.start()
    sender = threading.Thread(target=signal_main_thread)
    started, ticks_after = False, 0
    try:
        with WebClient(loopback_config(timeout=25)) as client:
            results = fetch_each(client, [site.url("/hang")], poll=0.05)
            try:
                for item in results:
                    assert item is None, "the hung request answered: the ticks had stopped"
                    if not started and site.hits("/hang"):
                        sender.start()
                        started = True
                    if len(handled) == 3:
                        ticks_after += 1
                        if ticks_after == 3:
                            break
            finally:
                still_hung = not released.is_set()
                released.set()
                results.close()
    finally:
        signal.signal(signal.SIGUSR1, previous)
        safety.cancel()
        if started:
            sender.join()
    assert still_hung and ticks_after == 3
