"""Backpressure of the bulk pool (``fetch_each``, ``crawl``): a consumer slower than the fetches
holds the threads back, counted at the server, and a consumer that leaves, stops or cancels
leaves no thread waiting for it."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
import webgrip
from helpers.loopback import loopback_config, wait_until
from helpers.siteserver import Reply, SiteServer, article
from webgrip import _core
from webgrip.bulk.pool import RESULTS_PER_THREAD, fetch_each
from webgrip.client import WebClient

PAGES = 60
THREADS = 4
#: How far the pool may run ahead of what the consumer has read: the finished pages waiting
#: for it, and the one each thread holds (in flight, or done and waiting for room).
AHEAD = THREADS * RESULTS_PER_THREAD + THREADS


class _Site(SiteServer):
    """``PAGES`` article pages ``/p0`` ... and, for a crawl, each linking to the next five."""

    def __init__(self) -> None:
        super().__init__()
        self.route("/", self._start)
        for i in range(PAGES):
            self.route(f"/p{i}", self._page(i))

    def _start(self, _req: object) -> Reply:
        return Reply(body=self._html("start", range(5)))

    def _page(self, i: int) -> Callable[[object], Reply]:
        body = self._html(f"page {i}", range(i + 1, min(i + 6, PAGES)))
        return lambda _req: Reply(body=body)

    @staticmethod
    def _html(title: str, links: range) -> bytes:
        anchors = "".join(f"<a href='/p{j}'>next {j}</a> " for j in links)
        return article(title).replace("</article>", f"<p>{anchors}</p></article>").encode()

    def pages_requested(self) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.path.startswith("/p"))


def _webgrip_threads(prefix: str, before: set[threading.Thread]) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(prefix) and t not in before]


def _read_slowly(results, site: _Site, total: int) -> list[int]:
    """Read every result, each only once the pool has gone as far ahead as it may (or the
    last page was requested); the pages requested ahead of the reader at each read."""
    ahead = []
    read = 0
    for item in results:
        if item is None:
            continue
        read += 1
        target = min(total, read + AHEAD)
        assert wait_until(lambda target=target: site.pages_requested() >= target)
        ahead.append(site.pages_requested() - read)
    assert read == total
    return ahead


def test_a_slow_reader_of_fetch_each_holds_the_fetches_back():
    with _Site() as site, WebClient(loopback_config()) as client:
        urls = [site.url(f"/p{i}") for i in range(PAGES)]
        ahead = _read_slowly(fetch_each(client, urls, concurrency=THREADS), site, PAGES)
    # Without the bound the threads fetch the whole list while the reader waits on its first
    # page; with it, never more than AHEAD pages past what was read.
    assert max(ahead) <= AHEAD
    assert max(ahead) == AHEAD  # and they do go that far: the reader never waits on them


def test_a_slow_reader_of_a_crawl_holds_the_crawl_back():
    with _Site() as site:
        results = webgrip.crawl(
            site.url("/"),
            max_pages=PAGES,
            max_depth=PAGES,
            concurrency=THREADS,
            sitemap=False,
            config=loopback_config(),
        )
        # The start page is not a /p page: the crawl requests the PAGES - 1 others of the cap.
        ahead = _read_slowly((r for r in results if r.url != site.url("/")), site, PAGES - 1)
    assert max(ahead) <= AHEAD


@pytest.mark.parametrize("how", ["break", "close"])
def test_a_reader_that_leaves_leaves_no_thread_of_fetch_each(how):
    before = set(threading.enumerate())
    with _Site() as site, WebClient(loopback_config()) as client:
        urls = [site.url(f"/p{i}") for i in range(PAGES)]
        results = fetch_each(client, urls, concurrency=THREADS)
        for item in results:
            # Leave once every thread waits for room: the bound is full.
            if item is not None and wait_until(lambda: site.pages_requested() >= 1 + AHEAD):
                break
        if how == "close":
            results.close()
        else:
            del results  # dropped, not closed: the generator's finalizer must do it
        assert wait_until(lambda: not _webgrip_threads("webgrip-batch", before))
        assert site.pages_requested() <= 1 + AHEAD


def test_a_reader_that_breaks_out_of_a_crawl_leaves_no_thread():
    before = set(threading.enumerate())
    with _Site() as site:
        crawl = webgrip.crawl(
            site.url("/"),
            max_pages=PAGES,
            max_depth=PAGES,
            concurrency=THREADS,
            sitemap=False,
            config=loopback_config(),
        )
        for _ in crawl:
            # The start page read: leave once every thread waits for room (the bound is full).
            if wait_until(lambda: site.pages_requested() >= AHEAD):
                break
        del crawl  # dropped, not closed: the generator's finalizer must stop the crawl
        assert wait_until(lambda: not _webgrip_threads("webgrip-crawl", before))


@pytest.mark.parametrize("how", ["stop", "cancel"])
def test_a_stop_or_cancel_releases_threads_waiting_for_a_reader_who_still_gets_every_page(how):
    """A caller that stops (or cancels) and reads no more for a while: the threads must not
    wait for it, and when it reads again, every page that was requested is there."""
    before = set(threading.enumerate())
    stop, token = threading.Event(), _core.CancelToken()
    with _Site() as site, WebClient(loopback_config()) as client:
        urls = [site.url(f"/p{i}") for i in range(PAGES)]
        results = fetch_each(client, urls, concurrency=THREADS, stop=stop, cancel=token)
        read = 0
        for item in results:
            if item is not None:
                read += 1
                break
        assert wait_until(lambda: site.pages_requested() >= read + AHEAD)
        if how == "stop":
            stop.set()
        else:
            token.cancel()
        assert wait_until(lambda: not _webgrip_threads("webgrip-batch", before))
        read += sum(item is not None for item in results)
        assert read == site.pages_requested()
