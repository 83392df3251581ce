"""``webgrip crawl``: a site crawled into a folder, with ``webgrip batch``'s conventions.

The rows are those of a batch (``url`` plus :data:`webgrip.bulk.pool.ROW_COLUMNS`), written
by the same sinks (:mod:`webgrip.bulk.sinks`): one ``rows.jsonl`` (the default), a ``.md``
file per page with an ``index.jsonl``, or Parquet files (needs pyarrow, ``webgrip[ray]``).
The crawl's frontier is kept beside them (:data:`STATE_NAME`, SQLite), so running the same
command again goes on where the last run stopped: the URLs of the rows already written are
not requested again, and only the requests in flight when it stopped are made a second time.

Ctrl-C stops leasing URLs, cancels the conversions in flight after a short grace, writes the
rows finished and returns with ``"interrupted": true`` (the command exits 130); a second
Ctrl-C raises ``KeyboardInterrupt`` at once.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, TextIO

from .._progress import CrawlProgress
from ..config import Config
from .crawl import DEFAULT_MAX_DEPTH, DEFAULT_MAX_PER_PATTERN, Crawler
from .redis_frontier import DEFAULT_LEASE_SECONDS

__all__ = ["CRAWL_FORMATS", "STATE_NAME", "run_crawl"]

#: The output formats of ``webgrip crawl`` (the first is the default).
CRAWL_FORMATS = ("jsonl", "markdown", "parquet")
#: The frontier's file in the output folder.
STATE_NAME = ".webgrip-crawl.sqlite3"


def _say(err: TextIO | None, line: str) -> None:
    """A ``webgrip: ...`` line on ``err`` (as ``webgrip batch`` writes them)."""
    from ..bulk.batch_run import _say as say

    say(err, line)


def run_crawl(
    url: str,
    out_dir: str | os.PathLike[str],
    *,
    max_pages: int,
    max_depth: int = DEFAULT_MAX_DEPTH,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    subdomains: bool = False,
    sitemap: bool = True,
    respect_robots: bool = True,
    extract: str = "markdown",
    format: str = "jsonl",
    concurrency: int = 8,
    max_per_pattern: int = DEFAULT_MAX_PER_PATTERN,
    redis_url: str | None = None,
    ray_address: str | None = None,
    workers: int | None = None,
    lease_seconds: float = DEFAULT_LEASE_SECONDS,
    config: Config | None = None,
    err: TextIO | None = None,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Crawl the site of ``url`` into ``out_dir`` (see the module's notes and
    :func:`webgrip.sites.crawl.crawl` for the options).

    Returns the summary: ``pages`` (rows written this run), ``failed`` (rows with an
    error), ``skipped`` (rows an earlier run wrote), ``duplicates``, ``robots`` (URLs left
    out by robots.txt), ``seeds``, ``queued`` (URLs still queued: past the cap or depth),
    and ``"interrupted": True`` after Ctrl-C. Raises :class:`ValueError` when ``out_dir``
    holds another crawl, another format or another view, and
    :class:`~webgrip.errors.InvalidURLError` for a start URL that is not http(s).

    ``ray_address`` crawls on that Ray cluster (:mod:`webgrip.sites.crawl_ray`): ``workers``
    actors (default one a node, each running ``concurrency`` requests) share the frontier
    and the per-host budget in the Redis at ``redis_url`` (required with Ray); a lost
    worker's URLs are queued again once its leases (``lease_seconds``) expire.
    """
    from ..bulk.batch_run import _isatty
    from ..bulk.sinks import SINKS, check_format, check_same_view

    if format not in CRAWL_FORMATS:
        raise ValueError(f"format must be one of {', '.join(CRAWL_FORMATS)}; got {format!r}")
    if format == "markdown" and extract != "markdown":
        raise ValueError(
            f"--format markdown writes .md files, but --extract {extract} asks for another "
            "view. Use --format jsonl or parquet for it, or leave out --extract"
        )
    if ray_address and not redis_url:
        raise ValueError(
            "--ray needs --redis URL: the crawl's frontier and the per-host budget are "
            "shared there by every worker (start one: redis-server)"
        )
    config = config or Config()
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    check_format(folder, format)
    sink = SINKS[format](folder, err)
    check_same_view(folder, extract, sink.extracts())
    done = sink.done_urls()
    client = None
    if redis_url:
        from ..bulk.politeness import RedisHostLimiter
        from ..bulk.rows import STORE_SOCKET_TIMEOUT
        from ..client import WebClient

        limiter = RedisHostLimiter(
            redis_url,
            config.rate_limit_seconds,
            socket_timeout=min(STORE_SOCKET_TIMEOUT, config.timeout),
        )
        client = WebClient(config.replace(respect_robots_txt=respect_robots), limiter=limiter)
    options: dict[str, Any] = dict(
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
    )
    frontier = None
    if ray_address:
        from .crawl_ray import crawl_name
        from .redis_frontier import RedisFrontier

        frontier = RedisFrontier(
            redis_url or "",
            crawl_name(url, str(folder.resolve())),
            max_pages=max_pages,
            max_per_pattern=max_per_pattern,
            lease_seconds=lease_seconds,
        )
    crawler = Crawler(
        url,
        **options,
        state=folder / STATE_NAME,
        config=config,
        client=client,
        frontier=frontier,
    )
    summary: dict[str, Any] = {"pages": 0, "failed": 0, "skipped": len(done)}
    interrupt = threading.Event()
    tty = _isatty(err) if progress is None else progress
    meter = CrawlProgress(err, max_pages, tty=tty) if err is not None else None
    try:
        crawler.mark_done(done)
        left = crawler.frontier.pages_left()
        _say(
            err,
            f"crawling {crawler.start_url} into {folder}: {len(done)} pages already "
            f"there, up to {left} more",
        )
        if ray_address:
            from .crawl_ray import run_on_ray

            def counted(row: dict[str, Any]) -> None:
                if meter is not None:
                    meter.update(done=1, failed=row["error"] is not None)

            run_on_ray(
                crawler,
                sink,
                address=ray_address,
                redis_url=redis_url or "",
                options=options,
                config=_polite_config(crawler, config),
                workers=workers,
                err=err,
                summary=summary,
                on_row=counted,
            )
        else:
            _crawl_here(crawler, sink, extract, meter, summary, interrupt)
    except KeyboardInterrupt:  # a second Ctrl-C, or one while on Ray
        interrupt.set()
    except BaseException:
        _close(crawler, client, sink)
        raise
    return _finish(summary, crawler, client, sink, meter, interrupt, err)


def _crawl_here(
    crawler: Crawler,
    sink: Any,
    extract: str,
    meter: CrawlProgress | None,
    summary: dict[str, Any],
    interrupt: threading.Event,
) -> None:
    """The crawl on this process's threads; the first Ctrl-C stops it (see the module)."""
    from ..bulk.batch_run import _GracefulStop, _sigint_sets

    wind = _GracefulStop(interrupt)
    try:
        with _sigint_sets(interrupt):
            results = crawler.run(stop=wind.stop, cancel=wind.token)
            try:
                for item in results:
                    wind.check()
                    if item is not None:
                        sink.add(item.url, item.row(extract))
                        failed = item.error is not None
                        summary["pages"] += 1
                        summary["failed"] += failed
                        if meter is not None:
                            meter.update(done=1, failed=failed)
                    if meter is not None:
                        meter.queued = crawler.frontier.counts()["queued"]
                        meter.update()
                    if wind.over():
                        break
            finally:
                results.close()
    finally:
        wind.halt()


def _close(crawler: Crawler, client: Any, sink: Any) -> None:
    try:
        sink.close()
    finally:
        crawler.close()
        if client is not None:
            client.close()


def _polite_config(crawler: Crawler, config: Config) -> Config:
    """``config`` with ``rate_limit_seconds`` raised to the start site's ``Crawl-delay``:
    on a cluster the shared budget has one interval per crawl, so the site's own delay is
    honoured by raising it."""
    if not crawler.respect_robots:
        return config
    delay = crawler.start_crawl_delay()
    if delay is None or delay <= config.rate_limit_seconds:
        return config
    return config.replace(rate_limit_seconds=delay)


def _finish(
    summary: dict[str, Any],
    crawler: Crawler,
    client: Any,
    sink: Any,
    meter: CrawlProgress | None,
    interrupt: threading.Event,
    err: TextIO | None,
) -> dict[str, Any]:
    try:
        if meter is not None:
            meter.finish(" (interrupted)" if interrupt.is_set() else "")
        counts = crawler.summary()
    finally:
        _close(crawler, client, sink)
    for key in ("duplicates", "robots", "seeds", "queued"):
        summary[key] = counts[key]
    for source, why in crawler.skipped_sources:
        _say(err, f"skipped {source}: {why}")
    if interrupt.is_set():
        summary["interrupted"] = True
        _say(
            err,
            f"interrupted: {summary['pages']} pages written ({summary['failed']} with an "
            "error); run the same command again to go on",
        )
    else:
        _say(
            err,
            f"done: {summary['pages']} pages ({summary['failed']} with an error), "
            f"{summary['queued']} URLs left queued (past --max-pages or --max-depth)",
        )
    return summary
