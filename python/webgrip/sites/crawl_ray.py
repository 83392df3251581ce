"""``webgrip crawl --ray ADDRESS --redis URL``: one crawl on the workers of a Ray cluster.

The frontier, the visited set and the page cap live in Redis
(:class:`~webgrip.sites.redis_frontier.RedisFrontier`), beside the per-host budget every
worker books its requests from (:class:`~webgrip.bulk.politeness.RedisHostLimiter`), so
workers on many nodes crawl one site (or many) as one polite crawler. Each worker is a Ray
actor holding a :class:`~webgrip.sites.crawl.Crawler` on that shared frontier; the driver
asks each for the rows it finished (:meth:`_CrawlWorker.step`), writes them with the
sinks of ``webgrip batch`` and only then marks their URLs fetched.

A worker or node lost mid-crawl loses no page: its leases expire (``lease_seconds``) and its
URLs are queued again for the others; Ray restarts the actor. Pages are fetched at least
once (one that was in flight on a lost worker is requested again); each URL gets one row.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any, TextIO

from ..config import Config
from ..errors import WebgripError
from .crawl import Crawler
from .redis_frontier import RedisFrontier
from .urls import canonical

__all__ = ["crawl_name", "run_on_ray"]

#: A row as a worker hands it over: the URL's frontier key, the URL and the row.
_Row = tuple[str, str, dict[str, Any]]

#: A worker that fails this many steps in a row (it dies, or cannot start) is given up on.
MAX_WORKER_FAILURES = 5

#: How long the driver waits with no worker answering (each answers about every second)
#: before it gives up on the cluster.
SILENT_WORKERS_SECONDS = 300.0

#: How long one ``step`` of a worker collects rows before handing them to the driver.
_STEP_SECONDS = 1.0


def crawl_name(start_url: str, folder: str) -> str:
    """The Redis name of the crawl of ``start_url`` into ``folder`` (the same command run
    again finds its frontier)."""
    return hashlib.sha256(f"{canonical(start_url)}\0{folder}".encode()).hexdigest()[:24]


class _CrawlWorker:
    """One actor: a Crawler on the shared frontier and the shared per-host budget."""

    def __init__(
        self,
        url: str,
        options: dict[str, Any],
        config: Config,
        redis_url: str,
        frontier: RedisFrontier,
    ):
        from ..bulk.politeness import RedisHostLimiter
        from ..bulk.rows import STORE_SOCKET_TIMEOUT
        from ..client import WebClient

        limiter = RedisHostLimiter(
            redis_url,
            config.rate_limit_seconds,
            socket_timeout=min(STORE_SOCKET_TIMEOUT, config.timeout),
        )
        client = WebClient(config, limiter=limiter)
        self.extract = options.get("extract", "markdown")
        self.crawler = Crawler(url, client=client, frontier=frontier, **options)
        self._results: Any = None

    def pid(self) -> int:
        import os

        return os.getpid()

    def step(
        self, seconds: float = _STEP_SECONDS
    ) -> tuple[list[tuple[str, str, dict[str, Any]]], bool]:
        """The rows finished within ``seconds`` as ``(key, url, row)``, and whether this
        worker found nothing to lease (its crawl loop ended; the next step starts another,
        for links other workers queue meanwhile)."""
        if self._results is None:
            self._results = self.crawler.run(finish=False)
        rows: list[_Row] = []
        until = time.monotonic() + seconds
        for item in self._results:
            if item is not None and item.lease is not None:
                rows.append((item.lease.key, item.url, item.row(self.extract)))
            if time.monotonic() >= until:
                return rows, False
        self._results = None
        if not rows:  # idle: do not spin the driver
            time.sleep(min(seconds, 0.25))
        return rows, True


def run_on_ray(
    crawler: Crawler,
    sink: Any,
    *,
    address: str,
    redis_url: str,
    options: dict[str, Any],
    config: Config,
    workers: int | None,
    err: TextIO | None,
    summary: dict[str, Any],
    on_row: Any = None,
) -> None:
    """Crawl with ``workers`` Ray actors (default: one per node) on ``crawler``'s Redis
    frontier, writing rows into ``sink`` as they come back."""
    import ray

    from ..bulk.batch_run import _check_cluster_address
    from ..bulk.ray import default_pool_size

    frontier = crawler.frontier
    assert isinstance(frontier, RedisFrontier)
    started = False
    if not ray.is_initialized():
        _check_cluster_address(address)
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        started = True
    try:
        crawler.seed()
        count = workers or default_pool_size()
        remote: Any = ray.remote(_CrawlWorker).options(
            max_restarts=-1, max_task_retries=0, num_cpus=0.25, scheduling_strategy="SPREAD"
        )
        actors: list[Any] = [
            remote.remote(crawler.start_url, options, config, redis_url, frontier)
            for _ in range(count)
        ]
        writer = _Writer(frontier, sink, summary, on_row)
        failures = {id(actor): 0 for actor in actors}
        pending = {actor.step.remote(): actor for actor in actors}
        answered = time.monotonic()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            if ready:
                answered = time.monotonic()
            elif time.monotonic() - answered > SILENT_WORKERS_SECONDS:
                raise WebgripError(
                    f"no crawl worker on Ray answered for {SILENT_WORKERS_SECONDS:.0f} s (the "
                    "cluster has no room for them, or they cannot start): check `ray status`; "
                    "the rows written so far are kept, and the same command goes on from them",
                    reason="ray-workers",
                )
            for ref in ready:
                actor = pending.pop(ref)
                try:
                    rows, idle = ray.get(ref)
                    failures[id(actor)] = 0
                except ray.exceptions.RayError as exc:
                    # The actor died (Ray restarts it): its leases expire and are queued
                    # again for the others. One that keeps dying (it cannot even start) is
                    # given up on, and a crawl left with none fails saying why.
                    failures[id(actor)] += 1
                    _say_lost(err, exc, failures[id(actor)])
                    if failures[id(actor)] >= MAX_WORKER_FAILURES:
                        if not pending and not frontier.done():
                            raise WebgripError(
                                f"every crawl worker on Ray failed {MAX_WORKER_FAILURES} times in "
                                f"a row; the last: {_first_line(exc)}",
                                reason="ray-workers",
                            ) from exc
                        continue
                    rows, idle = [], True
                writer.add(rows)
                if idle and frontier.done():
                    continue  # nothing left for it
                pending[actor.step.remote()] = actor
        writer.flush()
        for actor in actors:
            ray.kill(actor)
    finally:
        if started:
            ray.shutdown()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[-1][:500] if text else type(exc).__name__


def _say_lost(err: TextIO | None, exc: BaseException, times: int) -> None:
    if err is not None:
        err.write(
            f"webgrip: a crawl worker was lost ({type(exc).__name__}, {times} in a row): "
            f"{_first_line(exc)}\n"
        )


class _Writer:
    """Rows into the sink, then their URLs marked fetched: at once for the line formats
    (each line is on disk when written), once a Parquet file is written for Parquet."""

    def __init__(self, frontier: RedisFrontier, sink: Any, summary: dict[str, Any], on_row: Any):
        self.frontier = frontier
        self.sink = sink
        self.summary = summary
        self.on_row = on_row
        self._buffered = type(sink).__name__ == "ParquetSink"
        self._pending: dict[str, None] = {}

    def add(self, rows: list[_Row]) -> None:
        """Write the rows not written before (a page two workers fetched, one having
        outlived its lease, is one row)."""
        if not rows:
            return
        done = self.frontier.fetched(key for key, _, _ in rows)
        fresh = [r for r, d in zip(rows, done, strict=True) if not d and r[0] not in self._pending]
        for key, url, row in fresh:
            self.sink.add(url, row)
            self._pending[key] = None
            self.summary["pages"] += 1
            self.summary["failed"] += row["error"] is not None
            if self.on_row is not None:
                self.on_row(row)
        if not self._buffered or len(self._pending) >= 256:
            self.flush()

    def flush(self) -> None:
        if self._buffered:
            self.sink.flush()
        self.frontier.finish_keys(self._pending)
        self._pending = {}
