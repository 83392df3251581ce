"""``webgrip batch``: a file of URLs fetched into a folder of Parquet files, resumably.

Each output row is a URL with the columns of :func:`webgrip.bulk.pool.result_row`
(:data:`webgrip.bulk.rows.PARQUET_SCHEMA`). Before fetching, the ``url`` column of every
Parquet file already in the folder is read and those URLs are skipped, so a run that stopped
half-way is finished by running the same command again; every URL of the list ends up in
exactly one row. The same rows can go to a JSON-lines file or a folder of Markdown files
instead (``format``; the three are written by :mod:`webgrip.bulk.sinks`), resumed the same
way.

Two engines write the rows: this process (the threads of :func:`webgrip.bulk.pool.fetch_each`,
the rows written as the URLs finish: Parquet files of up to 256 rows, each renamed into place
only when complete), or a Ray cluster (:func:`webgrip.bulk.ray.fetch_dataset`, Ray Data writing
Parquet files; the other formats are refused with Ray). Requires pyarrow (``webgrip[ray]``;
Ray only for ``--ray``).

In this process, Ctrl-C (SIGINT) stops the run within about a second: no URL is started
any more, the page conversions in flight are cancelled, the requests in flight are abandoned
(their URLs are fetched by the next run), and every row finished until then is written; the
summary then has ``"interrupted": true``. A second Ctrl-C raises ``KeyboardInterrupt`` at
once (the rows not yet written are still written on the way out).

A URL that failed because the shared politeness store (``--redis``) did not answer was not
fetched at all: its row is never written, so the next run fetches it. The local engine stops
at the first chunk that has one (:class:`StoreUnavailableError`); on Ray those rows are left
out of the files and counted in the summary's ``left``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit

from .._cancel import CancelToken
from .._progress import BatchProgress, format_duration
from ..client import WebClient
from ..config import Config
from ..errors import WebgripError
from ..sites.urls import canonical
from .pool import fetch_each, result_row
from .rows import STORE_FAILED, STORE_SOCKET_TIMEOUT
from .sinks import FORMATS, SINKS, Sink, check_format, check_same_view, done_urls

if TYPE_CHECKING:
    import pyarrow as pa


__all__ = ["StoreUnavailableError", "read_url_list", "run_batch"]

#: After Ctrl-C, how long the rows finishing meanwhile are still taken (then the rest of the
#: requests in flight are abandoned).
_GRACE_SECONDS = 0.5


class StoreUnavailableError(WebgripError):
    """A local ``webgrip batch --redis`` run stopped because the politeness store did not
    answer (reason ``politeness-store``): the chunk's other rows are written, those URLs not,
    and running the same command again fetches them."""


def read_url_list(path: str | os.PathLike[str]) -> list[str]:
    """The URLs of a text file, one a line, in order and each once (blank lines and lines
    starting with ``#`` are skipped)."""
    seen: dict[str, None] = {}
    with open(path, encoding="utf-8-sig") as f:  # a BOM (Notepad, PowerShell) is no URL
        for line in f:
            url = line.strip()
            if url and not url.startswith("#"):
                seen.setdefault(url, None)
    return list(seen)


def run_batch(
    urls_file: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    config: Config | None = None,
    extract: str = "markdown",
    ray_address: str | None = None,
    redis_url: str | None = None,
    concurrency: int | None = None,
    err: TextIO | None = None,
    format: str = "parquet",
    progress: bool | None = None,
    ray_logs: bool = False,
) -> dict[str, Any]:
    """Fetch every URL of ``urls_file`` not yet in ``out_dir`` into new Parquet files there
    (or, with ``format``, ``jsonl`` / ``markdown``: :class:`~webgrip.bulk.sinks.JsonlSink`,
    :class:`~webgrip.bulk.sinks.MarkdownSink`).

    ``ray_address`` runs the fetches on that Ray cluster (``auto``, the head's
    ``host:6379``, or ``local`` for a new Ray started in this process, never an existing
    cluster; with Ray already initialised in this process, that one); without it they run
    here on ``concurrency`` threads (default 8). ``redis_url`` shares the per-host budget
    through that Redis (with Ray, and also between several local runs). Progress goes to
    ``err``: running here, a line per URL redrawn in place when ``err`` is a terminal
    (``progress`` None: ask ``err.isatty()``), else a line every few seconds; on Ray, Ray
    Data's progress bars, and Ray's own INFO logs only with ``ray_logs`` (``batch -v``).
    Returns ``{"listed", "skipped", "fetched", "failed"}``: ``failed`` counts the
    rows with an error, which are written like the others. A Ray run that could not write
    every URL (the politeness store did not answer) adds ``left``: how many the next run
    fetches. A local run stopped by Ctrl-C adds ``"interrupted": True`` (the rows finished
    until then are written; the next run fetches the rest).

    Raises :class:`StoreUnavailableError` when, running here, the politeness store did not
    answer: what was fetched until then is written; :class:`ValueError` when ``out_dir``
    holds rows of another ``extract`` view or another format, when its lines file is a
    symbolic link or not a regular file (output is never written through a link), or for
    ``markdown`` with Ray or with another view than ``markdown``.
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {format!r}")
    if ray_address and format != "parquet":
        raise ValueError(
            f"--format {format} is written by this process only: with --ray, "
            "Ray Data writes Parquet files. Leave out --ray, or use --format "
            "parquet"
        )
    if format == "markdown" and extract != "markdown":
        raise ValueError(
            f"--format markdown writes .md files, but --extract {extract} "
            "asks for another view. Use --format jsonl or parquet for it, or "
            "leave out --extract"
        )
    config = config or Config()
    folder = Path(out_dir)
    urls = read_url_list(urls_file)  # first: a list that cannot be read creates no folder
    folder.mkdir(parents=True, exist_ok=True)
    check_format(folder, format)
    sink = SINKS[format](folder, err)
    check_same_view(folder, extract, sink.extracts())
    urls, duplicates = _one_spelling_each(urls, config.tracking_params)
    done = {canonical(u, config.tracking_params) for u in sink.done_urls()}
    todo = [u for u in urls if canonical(u, config.tracking_params) not in done]
    summary = {"listed": len(urls), "skipped": len(urls) - len(todo), "fetched": 0, "failed": 0}
    if duplicates:  # only then: a list without any keeps the summary's four counts
        summary["duplicates"] = duplicates
    again = f" ({duplicates} more spell a URL listed before: left out)" if duplicates else ""
    _say(
        err,
        f"{len(urls)} URLs listed{again}, {summary['skipped']} already in {folder}, "
        f"{len(todo)} to fetch",
    )
    pace = _host_pace(todo, config.rate_limit_seconds)
    if pace and not ray_address:
        _say(err, pace)
    if todo and ray_address:
        _run_on_ray(
            todo,
            folder,
            config,
            extract,
            ray_address,
            redis_url,
            concurrency,
            err,
            summary,
            ray_logs=ray_logs,
        )
    elif todo:
        tty = _isatty(err) if progress is None else progress
        meter = BatchProgress(err, len(todo), tty=tty) if err is not None else None
        _run_here(todo, sink, config, extract, redis_url, concurrency, meter, summary)
    if summary.get("interrupted"):
        _say(
            err,
            f"interrupted: {summary['fetched']} fetched ({summary['failed']} with an "
            f"error) and written, {len(todo) - summary['fetched']} left; run the same "
            "command again to fetch the rest",
        )
    else:
        _say(
            err,
            f"done: {summary['fetched']} fetched ({summary['failed']} with an error), "
            f"{summary['skipped']} skipped",
        )
    return summary


def _one_spelling_each(urls: list[str], tracking: tuple[str, ...]) -> tuple[list[str], int]:
    """``urls`` with each page once: spellings that differ only in tracking parameters, the
    fragment, the host's case or a default port (:func:`webgrip.sites.urls.canonical`, the
    hygiene a fetch applies anyway) keep the first one listed. Also how many were left out."""
    seen: set[str] = set()
    kept = []
    for url in urls:
        key = canonical(url, tracking)
        if key not in seen:
            seen.add(key)
            kept.append(url)
    return kept, len(urls) - len(kept)


def _host_pace(todo: list[str], interval: float) -> str | None:
    """A line saying that the per-host interval sets the pace, when it does: some host has
    enough URLs that spacing them ``interval`` seconds apart takes 2 s or more."""
    if interval <= 0 or not todo:
        return None
    per_host: dict[str, int] = {}
    for url in todo:
        host = (urlsplit(url).hostname or "").lower()
        per_host[host] = per_host.get(host, 0) + 1
    host, most = max(per_host.items(), key=lambda item: item[1])
    floor = (most - 1) * interval
    if floor < 2:
        return None
    return (
        f"{most} URLs on {host}, one request every {interval:g} s per host (rate_limit_seconds): "
        f"at least {format_duration(floor)}, whatever --concurrency; --rate-limit SECONDS "
        "changes the interval (ask the site first)"
    )


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def _say(err: TextIO | None, line: str) -> None:
    if err is not None:
        err.write(f"webgrip: {line}\n")
        err.flush()


@contextmanager
def _sigint_sets(event: threading.Event) -> Iterator[None]:
    """Make the first Ctrl-C set ``event`` (a second one raises ``KeyboardInterrupt``), in the
    main thread only; elsewhere Ctrl-C keeps raising ``KeyboardInterrupt``."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        if event.is_set():
            raise KeyboardInterrupt
        event.set()

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main interpreter
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _GracefulStop:
    """How a run on this process's threads stops on the first Ctrl-C (``interrupt``, set by
    :func:`_sigint_sets`): :meth:`check`, called at every item the run yields, then starts
    nothing more (``stop``), cancels the conversions in flight (``token``) and gives the rows
    finishing meanwhile :data:`_GRACE_SECONDS` to be written (:meth:`over`). Batch and crawl
    stop alike."""

    def __init__(self, interrupt: threading.Event) -> None:
        self.interrupt = interrupt
        self.stop = threading.Event()
        self.token = CancelToken()
        self.grace_until: float | None = None

    def check(self) -> None:
        if self.interrupt.is_set() and self.grace_until is None:
            self.halt()
            self.grace_until = time.monotonic() + _GRACE_SECONDS

    @property
    def stopping(self) -> bool:
        """Ctrl-C was seen: what comes now is only what was in flight."""
        return self.grace_until is not None

    def over(self) -> bool:
        """The grace has passed: abandon the requests still in flight."""
        return self.grace_until is not None and time.monotonic() >= self.grace_until

    def halt(self) -> None:
        self.stop.set()
        self.token.cancel()


def _run_here(
    todo: list[str],
    sink: Sink,
    config: Config,
    extract: str,
    redis_url: str | None,
    concurrency: int | None,
    meter: BatchProgress | None,
    summary: dict[str, Any],
) -> None:
    limiter = None
    if redis_url:
        from .politeness import RedisHostLimiter

        _check_store(redis_url, config)

        limiter = RedisHostLimiter(
            redis_url,
            config.rate_limit_seconds,
            socket_timeout=min(STORE_SOCKET_TIMEOUT, config.timeout),
        )
    interrupt = threading.Event()
    wind = _GracefulStop(interrupt)
    store_failure: dict[str, Any] | None = None
    try:
        with WebClient(config, limiter=limiter) as client, _sigint_sets(interrupt):
            results = fetch_each(
                client,
                todo,
                extract=extract,
                concurrency=concurrency or 8,
                stop=wind.stop,
                cancel=wind.token,
                on_wait=meter.add_waiting if meter else None,
            )
            try:
                for item in results:
                    wind.check()
                    if item is not None:
                        i, result = item
                        row = result_row(result, extract)
                        if row["error_kind"] == STORE_FAILED:
                            # Going on would turn the rest of the list into these rows as
                            # fast as the threads can take URLs: stop (the URLs in flight
                            # finish), and let the next run fetch them.
                            store_failure = store_failure or row
                            wind.stop.set()
                        elif not (wind.stopping and row["error_kind"] == "cancelled"):
                            sink.add(todo[i], row)
                            failed = row["error"] is not None
                            summary["fetched"] += 1
                            summary["failed"] += failed
                            if meter is not None:
                                meter.update(done=1, failed=failed)
                            continue
                    if meter is not None:
                        meter.update()
                    if wind.over():
                        break
            finally:
                results.close()
    except KeyboardInterrupt:  # a second Ctrl-C, or one outside the main thread
        wind.halt()
        interrupt.set()
    finally:
        sink.close()  # the rows finished so far, whatever stopped the run
        if meter is not None:
            meter.finish(" (interrupted)" if interrupt.is_set() else "")
    if interrupt.is_set():
        summary["interrupted"] = True
    elif store_failure is not None:
        raise StoreUnavailableError(
            f"stopped after {summary['fetched']} of {len(todo)} URLs: "
            f"{store_failure['error']}. The {len(todo) - summary['fetched']} URLs not "
            "fetched were not written; run the same command again once the store "
            "answers",
            reason=STORE_FAILED,
        )


def _run_on_ray(
    todo: list[str],
    folder: Path,
    config: Config,
    extract: str,
    address: str | None,
    redis_url: str | None,
    concurrency: int | None,
    err: TextIO | None,
    summary: dict[str, int],
    *,
    ray_logs: bool = False,
) -> None:
    import importlib.util
    import logging

    if redis_url:  # before Ray, which takes seconds to start
        _check_store(redis_url, config)
    _say(err, f"starting Ray (--ray {address})…")  # importing it alone takes seconds
    import ray
    import ray.data

    from .ray import fetch_dataset, quiet_ray

    with contextlib.ExitStack() as running:
        if not ray.is_initialized():
            # "local" is Ray's own word for a new instance here; None would join the cluster
            # RAY_ADDRESS or the last `ray start` on this machine names.
            _check_cluster_address(address)
            running.enter_context(quiet_ray(verbose=ray_logs))
            try:
                # Ray's own INFO lines (start-up, Ray Data's plan and stages) only when asked
                # (`webgrip batch -v`); its progress bars stay.
                ray.init(
                    address=address,
                    log_to_driver=False,
                    logging_level=logging.INFO if ray_logs else logging.WARNING,
                )
            except ConnectionError as exc:
                # "auto" with no cluster: Ray's own hint names a flag webgrip does not have.
                raise ValueError(
                    f"no Ray cluster to join at --ray {address} ({str(exc).split('.')[0]}). "
                    "Start one (ray start --head) or give its head's host:6379, or use --ray "
                    "local for a Ray started here"
                ) from None
            running.callback(ray.shutdown)
        if not ray_logs:
            logging.getLogger("ray.data").setLevel(logging.WARNING)
        bars = (
            "Ray Data's progress bars follow"
            if importlib.util.find_spec("tqdm") is not None
            else "its progress bars need tqdm: pip install tqdm"
        )
        _say(err, f"Ray is up; fetching {len(todo)} URLs on it ({bars})")
        ds = ray.data.from_items([{"url": u} for u in todo])
        out = fetch_dataset(
            ds, config=config, extract=extract, politeness=redis_url, concurrency=concurrency
        )
        # Rows of URLs the store kept from being fetched are no outcome: left for next time.
        out = out.map_batches(_without_store_failures, batch_format="pyarrow")
        # Ray Data reports its progress on stderr while the files are written.
        out.write_parquet(str(folder))
    # What reached the folder this run (files written by other runs meanwhile included).
    written = done_urls(folder)
    fetched = [u for u in todo if u in written]
    summary["fetched"] = len(fetched)
    summary["failed"] = _count_errors(folder, set(fetched))
    left = len(todo) - len(fetched)
    if left:  # only then: the summary of a complete run keeps its four counts
        summary["left"] = left
        _say(
            err,
            f"{left} URLs not fetched (the politeness store did not answer) are left "
            "for the next run: run the same command again",
        )


def _check_store(redis_url: str, config: Config) -> None:
    """The politeness store answering a PING, checked before anything starts; a
    :class:`StoreUnavailableError` naming it and the next step otherwise."""
    from .politeness import check_store

    try:
        check_store(redis_url, timeout=min(2.0, config.timeout))
    except WebgripError as exc:
        raise StoreUnavailableError(str(exc), reason=STORE_FAILED) from exc.__cause__


def _check_cluster_address(address: str | None) -> None:
    """Fail in seconds on a head that does not answer: Ray itself retries a ``host:port``
    that refuses connections for minutes."""
    if address in (None, "local", "auto"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(
            f"--ray {address}: expected auto, local or the head's host:port (e.g. 10.0.0.5:6379)"
        )
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise ValueError(
            f"cannot reach the Ray cluster at {address} ({exc.strerror or exc}). "
            "Check the head's address and port (ray status on the head "
            "shows them), or use --ray local"
        ) from None


def _without_store_failures(batch: pa.Table) -> pa.Table:
    """``batch`` without the rows whose URL the politeness store kept from being fetched."""
    import pyarrow.compute as pc  # the Ray engine only

    failed = pc.fill_null(pc.equal(batch.column("error_kind"), STORE_FAILED), False)
    return batch.filter(pc.invert(failed))


def _count_errors(folder: Path, urls: set[str]) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    failed = 0
    for path in folder.glob("*.parquet"):
        try:
            table = pq.read_table(path, columns=["url", "error"])
        except (OSError, pa.ArrowException, KeyError):
            continue
        failed += sum(
            u in urls and e is not None
            for u, e in zip(
                table.column("url").to_pylist(), table.column("error").to_pylist(), strict=True
            )
        )
    return failed
