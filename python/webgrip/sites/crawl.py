"""Crawl a site: its pages read as ``fetch_page`` reads them, within caps that hold.

A crawl starts from one URL (depth 0), seeds the site's sitemaps and ``llms.txt`` at depth 1
(:func:`webgrip.sites.mapping.seed_urls`), and follows same-site links one hop deeper per page
up to ``max_depth``. Every request goes through the client, so through the guard (each
redirect hop, each address), the per-host rate limit and, unless turned off, robots.txt.

What keeps it bounded:

- **The page cap** is held by the frontier (:class:`~webgrip.sites.frontier.Frontier`), which
  hands out a URL only while fewer than ``max_pages`` were leased or fetched: no concurrency
  can send more page requests.
- **One request per page**: URLs are deduplicated on their canonical form
  (:func:`~webgrip.sites.urls.canonical`); a redirect's target and a same-site
  ``rel=canonical`` are recorded, so a link to either later is not fetched again (a page that
  redirects to one already fetched gives no second row); a page whose text was seen before
  (session ids in URLs) is kept but its links are not followed again.
- **Traps**: depth bounds how far links lead; a cap per path pattern
  (:func:`~webgrip.sites.frontier.path_pattern`: digits and parameter values ignored) bounds
  calendars and parameter spaces; the frontier lives in SQLite on disk, so the memory of a
  crawl does not grow with the URLs it queues.
- **Off-site**: links off the site (:class:`~webgrip.sites.scope.SiteScope`) are not
  followed; a redirect that leaves the site ends as an error row.
- **robots.txt** is obeyed by default (disallowed links are never queued, and the client
  checks again before each request), and a ``Crawl-delay`` spaces that host's requests.

:func:`crawl` yields one :class:`CrawlResult` per page requested, as pages finish. With
``state`` (a file path) the frontier is kept there, and a crawl run again on the same file
goes on where it stopped: only the requests in flight when it stopped are made again.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from .. import _core
from .._cancel import CancelToken
from ..bulk.pool import MAX_HOST_WAIT_SECONDS, _fetch_one, result_row, worker_results
from ..client import WebClient
from ..config import Config
from ..errors import BlockedURLError, WebgripError
from ..page import EXTRACT_MODES, Page
from ..page_builder import page_links
from ..ratelimit import HostRateLimiter
from ..robots import RobotsCache
from .frontier import Frontier, Lease, path_pattern
from .scope import SiteScope
from .urls import canonical

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_PER_PATTERN",
    "CrawlResult",
    "Crawler",
    "FrontierStore",
    "crawl",
]

#: Link hops from the start page followed by default.
DEFAULT_MAX_DEPTH = 3
#: URLs of one path pattern queued at most, by default (see the module's notes).
DEFAULT_MAX_PER_PATTERN = 1000
#: Sitemap and llms.txt URLs taken as seeds, at most (each is one row of the frontier).
MAX_SEEDS = 100_000


class FrontierStore(Protocol):
    """What a crawl needs of its frontier: :class:`~webgrip.sites.frontier.Frontier` (SQLite,
    one process) or :class:`~webgrip.sites.redis_frontier.RedisFrontier` (a cluster)."""

    path: Any

    def add(self, items: Iterable[tuple[str, str, int, str, str]]) -> int: ...
    def see(self, keys: Iterable[str], *, source: str = ...) -> None: ...
    def claim(self, key: str) -> bool: ...
    def lease(self) -> Lease | None: ...
    def finish(self, lease: Lease) -> None: ...
    def release(self, lease: Lease) -> None: ...
    def mark_fetched(self, keys: Iterable[str]) -> None: ...
    def first_content(self, digest: bytes) -> bool: ...
    def counts(self) -> dict[str, int]: ...
    def pages_left(self) -> int: ...
    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class CrawlResult:
    """One page a crawl requested: its :class:`~webgrip.page.Page`, or the error."""

    url: str
    """The URL requested (as queued: tracking parameters and fragment removed)."""
    depth: int
    """Link hops from the start page (sitemap and llms.txt seeds are at depth 1)."""
    source: str
    """How it was found: ``"start"``, ``"sitemap"``, ``"llms.txt"`` or ``"link"``."""
    page: Page | None = None
    error: WebgripError | None = None
    links: int = 0
    """New URLs this page added to the queue."""
    duplicate: bool = False
    """Its text was seen on another page already (its links were not followed)."""
    lease: Lease | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.page is not None

    def row(self, extract: str | None = None) -> dict[str, Any]:
        """The result as a row of :data:`webgrip.bulk.pool.ROW_COLUMNS` (what ``webgrip
        batch`` writes), without ``url``."""
        result = self.page if self.page is not None else self.error
        assert result is not None
        return result_row(result, extract)


class Crawler:
    """One crawl of the site of ``url`` (see :func:`crawl` for the options)."""

    def __init__(
        self,
        url: str,
        *,
        max_pages: int,
        max_depth: int = DEFAULT_MAX_DEPTH,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        subdomains: bool = False,
        sitemap: bool = True,
        extract: str = "markdown",
        respect_robots: bool = True,
        concurrency: int = 8,
        max_per_pattern: int = DEFAULT_MAX_PER_PATTERN,
        state: str | os.PathLike[str] | None = None,
        config: Config | None = None,
        client: WebClient | None = None,
        frontier: FrontierStore | None = None,
    ):
        if max_pages < 1:
            raise ValueError("max_pages must be at least 1")
        if max_depth < 0:
            raise ValueError("max_depth must be at least 0")
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if extract not in EXTRACT_MODES:
            raise ValueError(f"extract must be one of {', '.join(EXTRACT_MODES)}; got {extract!r}")
        self.scope = SiteScope(url, subdomains=subdomains)
        self.start_url = canonical(url)
        self.max_depth = max_depth
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self.sitemap = sitemap
        self.extract = extract
        self.respect_robots = respect_robots
        self.concurrency = concurrency
        config = client.config if client is not None else (config or Config.from_env())
        self.config = config.replace(respect_robots_txt=respect_robots)
        if client is None:
            self._limiter: HostRateLimiter | None = HostRateLimiter(config.rate_limit_seconds)
            self.client = WebClient(self.config, limiter=self._limiter)
            self._own_client = True
        else:
            self._limiter = None
            self.client = client
            self._own_client = False
        self._robots = RobotsCache(
            self.client, user_agent=self.config.user_agent, ttl=self.config.cache_ttl_seconds
        )
        self._delays_set: set[str] = set()
        self._closed = False
        self._stat_lock = threading.Lock()
        self._temp: tempfile.TemporaryDirectory[str] | None = None
        if frontier is None:
            if state is None:
                self._temp = tempfile.TemporaryDirectory(prefix="webgrip-crawl-")
                state = Path(self._temp.name) / "frontier.sqlite3"
            frontier = Frontier(Path(state), max_pages=max_pages, max_per_pattern=max_per_pattern)
        self.frontier: FrontierStore = frontier
        self._check_same_crawl()
        self.stats: dict[str, int] = {
            "pages": 0,
            "failed": 0,
            "duplicates": 0,
            "robots": 0,
            "seeds": 0,
        }
        self.skipped_sources: list[tuple[str, str]] = []

    # -- the crawl ----------------------------------------------------------------------
    def run(
        self,
        *,
        stop: threading.Event | None = None,
        cancel: CancelToken | None = None,
        poll: float = 0.1,
        finish: bool = True,
    ) -> Generator[CrawlResult | None, None, None]:
        """Yield each page's result as it finishes, and ``None`` every ``poll`` seconds
        between results (so a caller can draw progress and notice a stop).

        Setting ``stop`` leases no further URL; the pages in flight finish and are yielded.
        Cancelling ``cancel`` also stops their conversions: a page that came back
        cancelled is not a result (its URL stays leased, and is queued again by the next
        run on the same ``state``). A result is recorded as fetched when the caller asks
        for the next one, so a row the caller had not written is fetched again next time;
        with ``finish=False`` the caller records it (``frontier.finish``) itself, once its
        row is safe (a Ray worker hands rows to the driver, which writes them first).

        The threads go at the caller's pace: at most
        :data:`~webgrip.bulk.pool.RESULTS_PER_THREAD` finished pages a thread wait unread
        (plus the one each thread holds while it waits), so a slow caller holds the crawl
        back rather than letting pages pile up in memory. Leaving the loop (or closing the
        generator) stops the crawl: nothing more is leased, and the threads end with their
        request in flight, dropping its page (its URL stays leased for the next run).
        """
        stop = stop if stop is not None else threading.Event()
        token = cancel if cancel is not None else CancelToken()
        self.seed()
        turn = threading.Condition()
        busy = [0]  # leases being worked on
        finished = threading.Event()

        def work(put: Callable[[CrawlResult], None]) -> None:
            try:
                while not stop.is_set() and not finished.is_set():
                    with turn:
                        lease = self.frontier.lease()
                        if lease is None:
                            if busy[0] == 0:
                                finished.set()
                                turn.notify_all()
                                break
                            turn.wait(0.1)
                            continue
                        busy[0] += 1
                    try:
                        result = self._visit(lease, stop, token)
                    except Exception as exc:
                        if self._closed:
                            return  # the crawl was closed under a request in flight
                        error = WebgripError(
                            f"unexpected error: {exc}", url=lease.url, reason="internal"
                        )
                        error.__cause__ = exc
                        result = CrawlResult(
                            lease.url, lease.depth, lease.source, error=error, lease=lease
                        )
                    finally:
                        with turn:
                            busy[0] -= 1
                            turn.notify_all()
                    if result is not None:
                        put(result)
            except Exception:
                if not self._closed:
                    raise

        results = worker_results(work, self.concurrency, "webgrip-crawl", token, poll, stop)
        try:
            for item in results:
                if item is None:
                    yield None
                    continue
                self._count(item)
                yield item
                if finish and item.lease is not None:  # the caller has it: fetched for good
                    self.frontier.finish(item.lease)
        finally:
            results.close()  # sets stop: no further lease, no thread left waiting for room

    def __iter__(self) -> Iterator[CrawlResult]:
        results = self.run()
        try:
            for item in results:
                if item is not None:
                    yield item
        finally:
            results.close()  # the caller left: the crawl's threads stop now, not at the next GC

    def close(self) -> None:
        """Close the frontier (and the client the crawler made). Threads still finishing a
        request of a stopped crawl end quietly."""
        self._closed = True
        self.frontier.close()
        if self._own_client:
            self.client.close()
        if self._temp is not None:
            self._temp.cleanup()

    def __enter__(self) -> Crawler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def mark_done(self, urls: Iterable[str]) -> None:
        """Record ``urls`` as fetched by an earlier run (rows already written): they are
        not requested again and count against the page cap."""
        self.frontier.mark_fetched(canonical(u) for u in urls)

    def summary(self) -> dict[str, int]:
        """The crawl's counts: pages (rows) and failed, duplicates, URLs left out by
        robots.txt, seeds taken, and the frontier's queued/fetched/seen."""
        counts = self.frontier.counts()
        return {**self.stats, "queued": counts["queued"], "known": sum(counts.values())}

    # -- one page -----------------------------------------------------------------------
    def _visit(self, lease: Lease, stop: threading.Event, token: CancelToken) -> CrawlResult | None:
        """Fetch one leased URL and queue its links; ``None`` when nothing is to be said of
        it (stopped before its request, or cancelled during it: the lease stays for the
        next run, or is given back)."""
        self._honour_crawl_delay(lease.url)
        if self.respect_robots and not self._robots_allow(lease.url):
            # The start page, or a client that does not ask robots.txt itself: said, not sent.
            refused = BlockedURLError(
                f"robots.txt disallows {lease.url}; not fetched", url=lease.url, reason="robots-txt"
            )
            return CrawlResult(lease.url, lease.depth, lease.source, error=refused, lease=lease)
        with page_links() as links:
            outcome = _fetch_one(
                self.client, lease.url, self.extract, None, MAX_HOST_WAIT_SECONDS, stop
            )
        if outcome is None:  # stopped while waiting for the host's slot: nothing sent
            self.frontier.release(lease)
            return None
        if isinstance(outcome, WebgripError):
            if outcome.reason == "cancelled" or token.cancelled:
                return None  # in flight when the run stopped: fetched again next time
            return CrawlResult(lease.url, lease.depth, lease.source, error=outcome, lease=lease)
        page = outcome
        final = canonical(page.final_url)
        if final != lease.key:
            if not self.scope.contains(page.final_url):
                error = WebgripError(
                    f"{lease.url} redirected off the site to {page.final_url}; not followed",
                    url=lease.url,
                    reason="off-site-redirect",
                )
                return CrawlResult(lease.url, lease.depth, lease.source, error=error, lease=lease)
            if not self.frontier.claim(final):
                # Another URL already brought this page: one row for it.
                self.frontier.finish(lease)
                with self._stat_lock:
                    self.stats["duplicates"] += 1
                return None
        declared = page.metadata.get("canonical_url") if page.metadata else None
        if isinstance(declared, str) and self.scope.contains(declared):
            key = canonical(declared)
            if key not in (lease.key, final):
                self.frontier.see([key])
        digest = hashlib.blake2b(page.content.encode("utf-8", "surrogatepass")).digest()
        duplicate = not self.frontier.first_content(digest)
        queued = 0
        if not duplicate and lease.depth < self.max_depth:
            queued = self._queue_links(links, lease.depth + 1)
        return CrawlResult(
            lease.url,
            lease.depth,
            lease.source,
            page=page,
            links=queued,
            duplicate=duplicate,
            lease=lease,
        )

    def _queue_links(self, links: Iterable[Mapping[str, Any]], depth: int) -> int:
        items = []
        seen: set[str] = set()
        for link in links:
            url = link.get("url")
            if not isinstance(url, str) or not self.scope.contains(url):
                continue
            item = self._item(url, depth, "link")
            if item is not None and item[0] not in seen:
                seen.add(item[0])
                items.append(item)
        return self.frontier.add(items) if items else 0

    def _item(self, url: str, depth: int, source: str) -> tuple[str, str, int, str, str] | None:
        """The frontier row of ``url``, or ``None`` when the globs or robots.txt leave it
        out."""
        key = canonical(url)
        parts = urlsplit(key)
        if not self._wanted(parts.path) or _not_a_document(parts.path):
            return None
        if self.respect_robots and not self._robots_allow(key):
            with self._stat_lock:
                self.stats["robots"] += 1
            return None
        return key, key, depth, source, path_pattern(parts.path, parts.query)

    def _wanted(self, path: str) -> bool:
        if self.include and not any(fnmatch.fnmatchcase(path, g) for g in self.include):
            return False
        return not any(fnmatch.fnmatchcase(path, g) for g in self.exclude)

    def _robots_allow(self, url: str) -> bool:
        try:
            self._robots.check(url, time.monotonic() + self.config.timeout)
        except BlockedURLError:
            return False
        except WebgripError:
            return True  # robots.txt could not be read: the fetch itself decides and reports
        return True

    def start_crawl_delay(self) -> float | None:
        """The start site's robots.txt ``Crawl-delay`` for us, if it sets one."""
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.start_url))
        try:
            rules = self._robots.rules(origin, time.monotonic() + self.config.timeout)
        except WebgripError:
            return None
        return rules.crawl_delay(self._robots.token)

    def _honour_crawl_delay(self, url: str) -> None:
        """Give the limiter the host's ``Crawl-delay`` once (robots.txt is cached)."""
        if not self.respect_robots:
            return
        set_interval = getattr(self._limiter or self.client._limiter, "set_interval", None)
        host = _core.url_host(url) or ""
        if set_interval is None or host in self._delays_set:
            return
        self._delays_set.add(host)
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
        try:
            rules = self._robots.rules(origin, time.monotonic() + self.config.timeout)
        except WebgripError:
            return
        delay = rules.crawl_delay(self._robots.token)
        if delay:
            set_interval(host, delay)

    # -- seeds and bookkeeping ----------------------------------------------------------
    def seed(self) -> None:
        """Queue the start page and (with ``sitemap``) the site's sitemap and llms.txt URLs,
        once per frontier (a resumed crawl is not seeded again)."""
        if self.frontier.get_meta("seeded") == "1":
            return
        self.frontier.add([(self.start_url, self.start_url, 0, "start", "")])
        if self.sitemap and self.max_depth >= 1:
            from .mapping import _DISALLOWED, seed_urls

            found = seed_urls(
                self.client,
                self.start_url,
                limit=MAX_SEEDS,
                scope=self.scope,
                respect_robots=self.respect_robots,
            )
            self.skipped_sources.extend(found.skipped)
            with self._stat_lock:
                self.stats["robots"] += sum(why == _DISALLOWED for _, why in found.skipped)
            items = []
            for mapped in found.urls:
                item = self._item(mapped.url, 1, mapped.source)
                if item is not None:
                    items.append(item)
            self.stats["seeds"] = self.frontier.add(items)
        self.frontier.set_meta("seeded", "1")

    def _check_same_crawl(self) -> None:
        started = self.frontier.get_meta("start")
        if started is None:
            self.frontier.set_meta("start", self.start_url)
        elif started != self.start_url:
            self.close()
            raise ValueError(
                f"{self.frontier.path} holds a crawl of {started}, not {self.start_url}: use "
                "another folder, or the same start URL to finish that crawl"
            )

    def _count(self, result: CrawlResult) -> None:
        with self._stat_lock:
            self.stats["pages"] += 1
            self.stats["failed"] += result.error is not None
            self.stats["duplicates"] += result.duplicate


#: Links to these are not followed: images, media, archives and programs are no pages to
#: read, and each would spend one of ``max_pages`` (PDFs and text formats are read).
_NOT_DOCUMENTS = frozenset({
    "7z", "apk", "avi", "bin", "bmp", "bz2", "css", "deb", "dmg", "exe", "flac", "flv", "gif",
    "gz", "ico", "iso", "jar", "jpeg", "jpg", "js", "m4a", "m4v", "mkv", "mov", "mp3", "mp4",
    "mpeg", "mpg", "msi", "ogg", "otf", "png", "rar", "rpm", "svg", "tar", "tgz", "tif", "tiff",
    "ttf", "wav", "webm", "webp", "wmv", "woff", "woff2", "xz", "zip",
})  # fmt: skip


def _not_a_document(path: str) -> bool:
    """Whether ``path`` names a file type :data:`_NOT_DOCUMENTS` lists (by its extension)."""
    name = path.rpartition("/")[2]
    stem, dot, ext = name.rpartition(".")
    return bool(dot and stem) and ext.lower() in _NOT_DOCUMENTS


def crawl(
    url: str,
    *,
    max_pages: int,
    max_depth: int = DEFAULT_MAX_DEPTH,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
    subdomains: bool = False,
    sitemap: bool = True,
    extract: str = "markdown",
    respect_robots: bool = True,
    concurrency: int = 8,
    max_per_pattern: int = DEFAULT_MAX_PER_PATTERN,
    state: str | os.PathLike[str] | None = None,
    config: Config | None = None,
) -> Iterator[CrawlResult]:
    """Crawl the site of ``url``, yielding a :class:`CrawlResult` per page as it finishes.

    - ``max_pages``: page requests at most (the cap holds whatever ``concurrency``);
    - ``max_depth``: link hops from the start page (sitemap and llms.txt URLs are seeds at
      depth 1; ``0`` reads the start page alone);
    - ``include`` / ``exclude``: glob patterns (``fnmatch``) on the URL's path: with
      ``include``, only paths matching one are queued; a path matching an ``exclude`` is not;
    - ``subdomains``: follow the start URL's subdomains too (same registrable domain);
    - ``sitemap``: seed from robots.txt ``Sitemap:`` lines, ``/sitemap.xml`` and
      ``/llms.txt``;
    - ``extract``: the view of each page (as :meth:`WebClient.fetch
      <webgrip.client.WebClient.fetch>`); links are read from the same parse;
    - ``respect_robots``: obey robots.txt and its ``Crawl-delay`` (on by default for
      crawls, whatever ``Config.respect_robots_txt`` says);
    - ``max_per_pattern``: URLs of one path pattern queued at most (calendars, facets);
    - ``state``: the frontier's SQLite file; the same file again resumes the crawl.

    Raises :class:`~webgrip.errors.InvalidURLError` for a start URL that is not http(s).

    >>> for result in crawl("https://docs.example.org/", max_pages=20):  # doctest: +SKIP
    ...     print(result.depth, result.url, result.page.title if result.ok else result.error)
    """
    crawler = Crawler(
        url,
        max_pages=max_pages,
        max_depth=max_depth,
        include=include,
        exclude=exclude,
        subdomains=subdomains,
        sitemap=sitemap,
        extract=extract,
        respect_robots=respect_robots,
        concurrency=concurrency,
        max_per_pattern=max_per_pattern,
        state=state,
        config=config,
    )
    with crawler:
        yield from crawler
