"""``webgrip batch``: a file of URLs fetched into a folder of Parquet files, resumably.

Each output row is a URL with the columns of :func:`webgrip.batch.result_row`
(:data:`PARQUET_SCHEMA`). Before fetching, the ``url`` column of every Parquet file already in
the folder is read and those URLs are skipped, so a run that stopped half-way is finished by
running the same command again; every URL of the list ends up in exactly one row.

Two engines write the same rows: this process (the thread pool of
:func:`webgrip.batch.fetch_many`, one Parquet file per chunk of URLs, each renamed into place
only when complete), or a Ray cluster (:func:`webgrip.ray.fetch_dataset`, Ray Data writing
the files). Requires pyarrow (``webgrip[ray]``; Ray only for ``--ray``).

A URL that failed because the shared politeness store (``--redis``) did not answer was not
fetched at all: its row is never written, so the next run fetches it. The local engine stops
at the first chunk that has one (:class:`StoreUnavailableError`); on Ray those rows are left
out of the files and counted in the summary's ``left``.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

import pyarrow as pa
import pyarrow.parquet as pq

from .batch import fetch_rows
from .client import WebClient
from .config import Config
from .errors import WebgripError

__all__ = ["PARQUET_SCHEMA", "ROW_SCHEMA", "StoreUnavailableError", "done_urls",
           "read_url_list", "run_batch"]

#: The Arrow types of the columns a fetched URL gains (fixed, so that an all-failed batch
#: has them too and every file of a folder has one schema).
ROW_SCHEMA = pa.schema([
    ("final_url", pa.string()), ("status", pa.int32()), ("title", pa.string()),
    ("content", pa.large_string()), ("content_type", pa.string()), ("extract", pa.string()),
    ("render_reason", pa.string()), ("error_kind", pa.string()), ("error", pa.string()),
])
#: A ``webgrip batch`` output file: the URL as listed, then :data:`ROW_SCHEMA`.
PARQUET_SCHEMA = pa.schema([pa.field("url", pa.string()), *ROW_SCHEMA])

_CHUNK = 256  # URLs per file in a local run: at most this many are fetched again after a stop

#: The ``error_kind`` of a URL not fetched because the shared politeness store did not answer:
#: such a row is not an outcome of the URL, so it is never written (the next run fetches it).
STORE_FAILED = "politeness-store"
#: The longest a call to the politeness store may take: the call's own ``config.timeout``
#: when that is shorter (the store's wait counts against the deadline like the rate limit).
STORE_SOCKET_TIMEOUT = 5.0


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


def done_urls(folder: Path, err: TextIO | None = None) -> set[str]:
    """The URLs already in ``folder``'s Parquet files. A file that cannot be read (a run
    killed while writing it) is reported and left out: its URLs are fetched again."""
    done: set[str] = set()
    for path in sorted(folder.glob("*.parquet")):
        try:
            urls = pq.read_table(path, columns=["url"]).column("url").to_pylist()
        except (OSError, pa.ArrowException, KeyError) as exc:
            if err is not None:
                err.write(f"webgrip: ignoring unreadable {path.name} ({exc}); "
                          "its URLs are fetched again\n")
            continue
        done.update(u for u in urls if u is not None)
    return done


def _check_same_view(folder: Path, extract: str) -> None:
    """Refuse to add rows of ``extract`` to a folder holding another view: the URLs already
    there would be skipped as done, silently leaving the folder mixed. Files from before the
    ``extract`` column (or unreadable ones) do not count."""
    found: set[str] = set()
    for path in sorted(folder.glob("*.parquet")):
        try:
            if "extract" not in pq.read_schema(path).names:
                continue
            column = pq.read_table(path, columns=["extract"]).column("extract")
        except (OSError, pa.ArrowException):
            continue  # done_urls reports it
        found.update(v for v in column.unique().to_pylist() if v is not None)
    other = sorted(found - {extract})
    if other:
        raise ValueError(
            f"{folder} holds rows fetched with --extract {other[0]}, not {extract}: the URLs "
            f"in it would be skipped as done. Use another folder, or --extract {other[0]} "
            "to finish that run")


def rows_table(urls: list[str], rows: list[dict[str, Any]]) -> pa.Table:
    """``urls`` with their result rows as a table of :data:`PARQUET_SCHEMA`."""
    columns = {"url": urls}
    for field in ROW_SCHEMA:
        columns[field.name] = [row[field.name] for row in rows]
    return pa.Table.from_pydict(columns, schema=PARQUET_SCHEMA)


def _write_atomically(table: pa.Table, folder: Path) -> Path:
    """``table`` as a new Parquet file of ``folder``, visible only once complete."""
    name = f"part-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:12]}.parquet"
    temp = folder / f".{name}.tmp"  # not *.parquet: never read as output
    pq.write_table(table, temp)
    os.replace(temp, folder / name)
    return folder / name


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


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
) -> dict[str, int]:
    """Fetch every URL of ``urls_file`` not yet in ``out_dir`` into new Parquet files there.

    ``ray_address`` runs the fetches on that Ray cluster (``auto``, the head's
    ``host:6379``, or ``local`` for a new Ray started in this process, never an existing
    cluster; with Ray already initialised in this process, that one); without it they run
    here on ``concurrency`` threads (default 8). ``redis_url`` shares the per-host budget
    through that Redis (with Ray, and also between several local runs). Progress goes to
    ``err``. Returns ``{"listed", "skipped", "fetched", "failed"}``: ``failed`` counts the
    rows with an error, which are written like the others. A Ray run that could not write
    every URL (the politeness store did not answer) adds ``left``: how many the next run
    fetches.

    Raises :class:`StoreUnavailableError` when, running here, the politeness store did not
    answer: what was fetched until then is written; :class:`ValueError` when ``out_dir``
    holds rows of another ``extract`` view.
    """
    config = config or Config()
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    urls = read_url_list(urls_file)
    _check_same_view(folder, extract)
    done = done_urls(folder, err)
    todo = [u for u in urls if u not in done]
    summary = {"listed": len(urls), "skipped": len(urls) - len(todo), "fetched": 0,
               "failed": 0}
    _say(err, f"{len(urls)} URLs listed, {summary['skipped']} already in {folder}, "
              f"{len(todo)} to fetch")
    if todo:
        run = _run_on_ray if ray_address else _run_here
        run(todo, folder, config, extract, ray_address, redis_url, concurrency, err, summary)
    _say(err, f"done: {summary['fetched']} fetched ({summary['failed']} with an error), "
              f"{summary['skipped']} skipped")
    return summary


def _say(err: TextIO | None, line: str) -> None:
    if err is not None:
        err.write(f"webgrip: {line}\n")
        err.flush()


def _run_here(todo: list[str], folder: Path, config: Config, extract: str,
              _address: str | None, redis_url: str | None, concurrency: int | None,
              err: TextIO | None, summary: dict[str, int]) -> None:
    limiter = None
    if redis_url:
        from .politeness import RedisHostLimiter

        limiter = RedisHostLimiter(redis_url, config.rate_limit_seconds,
                                   socket_timeout=min(STORE_SOCKET_TIMEOUT, config.timeout))
    with WebClient(config, limiter=limiter) as client:
        for chunk in _chunks(todo, _CHUNK):
            rows = fetch_rows(client, chunk, extract=extract, concurrency=concurrency or 8)
            kept = [(u, r) for u, r in zip(chunk, rows, strict=True)
                    if r["error_kind"] != STORE_FAILED]
            if kept:
                _write_atomically(rows_table([u for u, _ in kept], [r for _, r in kept]),
                                  folder)
            summary["fetched"] += len(kept)
            summary["failed"] += sum(r["error"] is not None for _, r in kept)
            _say(err, f"{summary['fetched']}/{len(todo)} fetched "
                      f"({summary['failed']} with an error)")
            if len(kept) < len(rows):
                # Going on would turn the rest of the list into these rows as fast as the
                # threads can take URLs: stop, and let the next run fetch them.
                first = next(r for r in rows if r["error_kind"] == STORE_FAILED)
                raise StoreUnavailableError(
                    f"stopped after {summary['fetched']} of {len(todo)} URLs: "
                    f"{first['error']}. The {len(todo) - summary['fetched']} URLs not "
                    "fetched were not written; run the same command again once the store "
                    "answers", reason=STORE_FAILED)


def _run_on_ray(todo: list[str], folder: Path, config: Config, extract: str,
                address: str | None, redis_url: str | None, concurrency: int | None,
                err: TextIO | None, summary: dict[str, int]) -> None:
    import ray
    import ray.data

    from .ray import fetch_dataset

    started = False
    if not ray.is_initialized():
        # "local" is Ray's own word for a new instance here; None would join the cluster
        # RAY_ADDRESS or the last `ray start` on this machine names.
        _check_cluster_address(address)
        try:
            ray.init(address=address, log_to_driver=False)
        except ConnectionError as exc:
            # "auto" with no cluster: Ray's own hint names a flag webgrip does not have.
            raise ValueError(
                f"no Ray cluster to join at --ray {address} ({str(exc).split('.')[0]}). "
                "Start one (ray start --head) or give its head's host:6379, or use --ray "
                "local for a Ray started here") from None
        started = True
    try:
        ds = ray.data.from_items([{"url": u} for u in todo])
        out = fetch_dataset(ds, config=config, extract=extract, politeness=redis_url,
                            concurrency=concurrency)
        # Rows of URLs the store kept from being fetched are no outcome: left for next time.
        out = out.map_batches(_without_store_failures, batch_format="pyarrow")
        # Ray Data reports its progress on stderr while the files are written.
        out.write_parquet(str(folder))
    finally:
        if started:
            ray.shutdown()
    # What reached the folder this run (files written by other runs meanwhile included).
    written = done_urls(folder)
    fetched = [u for u in todo if u in written]
    summary["fetched"] = len(fetched)
    summary["failed"] = _count_errors(folder, set(fetched))
    left = len(todo) - len(fetched)
    if left:  # only then: the summary of a complete run keeps its four counts
        summary["left"] = left
        _say(err, f"{left} URLs not fetched (the politeness store did not answer) are left "
                  "for the next run: run the same command again")


def _check_cluster_address(address: str | None) -> None:
    """Fail in seconds on a head that does not answer: Ray itself retries a ``host:port``
    that refuses connections for minutes."""
    if address in (None, "local", "auto"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--ray {address}: expected auto, local or the head's host:port "
                         "(e.g. 10.0.0.5:6379)")
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise ValueError(f"cannot reach the Ray cluster at {address} ({exc.strerror or exc}). "
                         "Check the head's address and port (ray status on the head "
                         "shows them), or use --ray local") from None


def _without_store_failures(batch: pa.Table) -> pa.Table:
    """``batch`` without the rows whose URL the politeness store kept from being fetched."""
    import pyarrow.compute as pc  # the Ray engine only

    failed = pc.fill_null(pc.equal(batch.column("error_kind"), STORE_FAILED), False)
    return batch.filter(pc.invert(failed))


def _count_errors(folder: Path, urls: set[str]) -> int:
    failed = 0
    for path in folder.glob("*.parquet"):
        try:
            table = pq.read_table(path, columns=["url", "error"])
        except (OSError, pa.ArrowException, KeyError):
            continue
        failed += sum(u in urls and e is not None
                      for u, e in zip(table.column("url").to_pylist(),
                                      table.column("error").to_pylist(), strict=True))
    return failed
