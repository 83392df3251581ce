"""``webgrip batch``: a file of URLs fetched into a folder of Parquet files, resumably.

Each output row is a URL with the columns of :func:`webgrip.bulk.pool.result_row`
(:data:`PARQUET_SCHEMA`). Before fetching, the ``url`` column of every Parquet file already in
the folder is read and those URLs are skipped, so a run that stopped half-way is finished by
running the same command again; every URL of the list ends up in exactly one row. The same
rows can go to a JSON-lines file or a folder of Markdown files instead
(``format``: :class:`JsonlSink`, :class:`MarkdownSink`), resumed the same way.

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
import hashlib
import json
import os
import re
import secrets
import signal
import stat
import threading
import time
import unicodedata
import uuid
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
from . import rows as _rows
from .pool import ROW_COLUMNS, fetch_each, result_row
from .rows import STORE_FAILED, STORE_SOCKET_TIMEOUT

if TYPE_CHECKING:
    import pyarrow as pa

    from .rows import PARQUET_SCHEMA, ROW_SCHEMA

__all__ = [
    "FORMATS",
    "INDEX_NAME",
    "PARQUET_SCHEMA",
    "ROWS_NAME",
    "ROW_SCHEMA",
    "JsonlSink",
    "MarkdownSink",
    "ParquetSink",
    "StoreUnavailableError",
    "done_urls",
    "folder_formats",
    "front_matter",
    "markdown_name",
    "read_lines",
    "read_url_list",
    "run_batch",
]

_CHUNK = 256  # rows per file in a local run: at most this many are lost by a crash
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


def done_urls(folder: Path, err: TextIO | None = None) -> set[str]:
    """The URLs already in ``folder``'s Parquet files. A file that cannot be read (a run
    killed while writing it) is reported and left out: its URLs are fetched again."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    done: set[str] = set()
    for path in sorted(folder.glob("*.parquet")):
        try:
            urls = pq.read_table(path, columns=["url"]).column("url").to_pylist()
        except (OSError, pa.ArrowException, KeyError) as exc:
            if err is not None:
                err.write(
                    f"webgrip: ignoring unreadable {path.name} ({exc}); "
                    "its URLs are fetched again\n"
                )
            continue
        done.update(u for u in urls if u is not None)
    return done


def _parquet_extracts(folder: Path) -> set[str]:
    """The ``extract`` values of ``folder``'s Parquet files. Files from before the
    ``extract`` column (or unreadable ones) do not count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    found: set[str] = set()
    for path in sorted(folder.glob("*.parquet")):
        try:
            if "extract" not in pq.read_schema(path).names:
                continue
            column = pq.read_table(path, columns=["extract"]).column("extract")
        except (OSError, pa.ArrowException):
            continue  # done_urls reports it
        found.update(v for v in column.unique().to_pylist() if v is not None)
    return found


def _check_same_view(folder: Path, extract: str, found: set[str] | None = None) -> None:
    """Refuse to add rows of ``extract`` to a folder holding another view (``found``, by
    default the Parquet files' ``extract`` values): the URLs already there would be skipped
    as done, silently leaving the folder mixed."""
    if found is None:
        found = _parquet_extracts(folder)
    other = sorted(found - {extract})
    if other:
        raise ValueError(
            f"{folder} holds rows fetched with --extract {other[0]}, not {extract}: the URLs "
            f"in it would be skipped as done. Use another folder, or --extract {other[0]} "
            "to finish that run"
        )


def rows_table(urls: list[str], rows: list[dict[str, Any]]) -> pa.Table:
    """``urls`` with their result rows as a table of :data:`PARQUET_SCHEMA`."""
    import pyarrow as pa

    columns = {"url": urls}
    for field in _rows.ROW_SCHEMA:
        columns[field.name] = [row[field.name] for row in rows]
    return pa.Table.from_pydict(columns, schema=_rows.PARQUET_SCHEMA)


# -- writing into a folder others may write to too ------------------------------------------
# The output folder may be shared (a team's folder, /tmp): whoever can write there can plant a
# symbolic link where a batch is about to write, pointing at a file of the user running it. So
# no output is ever opened through a link. A new file goes to a temporary name nobody can guess,
# created exclusively (O_EXCL, O_NOFOLLOW), and is renamed over its final name: a link planted
# there is replaced, not followed. The lines files, appended to across runs, are opened with
# O_NOFOLLOW and must be regular files; anything else is refused.

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO planted as a lines file must not block


def _refusal(path: Path, what: str) -> ValueError:
    return ValueError(
        f"{path} is {what}: a batch writes its output files itself and never through a link "
        "or into a device or pipe. Remove it, or use another folder"
    )


def _open_regular(path: Path, flags: int) -> int:
    """A descriptor of ``path`` opened with ``flags``, never through a symbolic link, and only
    if it is a regular file (:class:`ValueError` otherwise; ``FileNotFoundError`` passes)."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NONBLOCK, 0o644)
    except FileNotFoundError:
        raise
    except OSError:
        if os.path.islink(path):  # ELOOP on Linux, EMLINK on FreeBSD
            raise _refusal(path, "a symbolic link") from None
        if os.path.lexists(path) and not os.path.isfile(path):  # e.g. a FIFO without reader
            raise _refusal(path, "not a regular file") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _refusal(path, "not a regular file")
    return fd


@contextmanager
def _new_file(folder: Path, name: str) -> Iterator[int]:
    """A descriptor of a new file of ``folder`` that becomes ``name`` once the block ends
    without an error (renamed over whatever ``name`` was, a link included); it is removed
    otherwise. Its temporary name starts with a dot and ends in ``.tmp``: never read as
    output."""
    while True:
        temp = folder / f".{name}.{secrets.token_hex(8)}.tmp"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        except FileExistsError:  # 64 random bits taken: someone is guessing; draw again
            continue
        break
    try:
        yield fd
        os.replace(temp, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _write_atomically(table: pa.Table, folder: Path) -> Path:
    """``table`` as a new Parquet file of ``folder``, visible only once complete."""
    import pyarrow.parquet as pq

    name = f"part-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:12]}.parquet"
    with _new_file(folder, name) as fd, os.fdopen(fd, "wb") as f:
        pq.write_table(table, f)
    return folder / name


class ParquetSink:
    """Rows collected into Parquet files of up to :data:`_CHUNK` rows (in the order they
    finished), each written atomically; :meth:`close` writes the rest."""

    def __init__(self, folder: Path, err: TextIO | None = None):
        self.folder = folder
        self._err = err
        self._urls: list[str] = []
        self._rows: list[dict[str, Any]] = []

    def done_urls(self) -> set[str]:
        return done_urls(self.folder, self._err)

    def extracts(self) -> set[str]:
        return _parquet_extracts(self.folder)

    def add(self, url: str, row: dict[str, Any]) -> None:
        self._urls.append(url)
        self._rows.append(row)
        if len(self._rows) >= _CHUNK:
            self.flush()

    def flush(self) -> None:
        if self._rows:  # emptied only once written: an interrupted write is done again
            _write_atomically(rows_table(self._urls, self._rows), self.folder)
            self._urls, self._rows = [], []

    def close(self) -> None:
        self.flush()


# -- the other formats: jsonl and markdown -----------------------------------------------
# * jsonl: DIR/rows.jsonl, one JSON object per URL and line (url plus ROW_COLUMNS, the columns
#   of a Parquet row), UTF-8, appended and flushed as each URL finishes, so a crash keeps every
#   line written before it.
# * markdown: one .md file per page fetched (markdown_name), written to a temporary name and
#   renamed, then a line in DIR/index.jsonl mapping the URL to its file (null for a failure),
#   with the row's columns but content.
# In both, the URLs of the folder's lines are done (a rerun skips them); a last line torn by
# a crash is ignored (reported), and its URL fetched again.

#: The output formats of ``webgrip batch`` (the first is the default).
FORMATS = ("parquet", "jsonl", "markdown")
#: The file of a ``jsonl`` folder.
ROWS_NAME = "rows.jsonl"
#: The index of a ``markdown`` folder.
INDEX_NAME = "index.jsonl"
#: The longest slug of a Markdown file's name (before its hash and ``.md``).
MAX_SLUG = 80
_HASH_CHARS = 12
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def folder_formats(folder: Path) -> set[str]:
    """The formats of the batch output already in ``folder`` (empty for a new folder)."""
    found = set()
    if any(folder.glob("*.parquet")):
        found.add("parquet")
    if os.path.lexists(folder / ROWS_NAME):  # a link there too: the sink then refuses it
        found.add("jsonl")
    if os.path.lexists(folder / INDEX_NAME):
        found.add("markdown")
    return found


def markdown_name(url: str) -> str:
    """A safe file name for ``url``'s page: a slug of its host and path (ASCII letters,
    digits, ``.``, ``_`` and ``-``; at most :data:`MAX_SLUG` characters, never starting with
    a dot) and the first 12 hex digits of the SHA-256 of the whole URL, so that two URLs never
    share a file (the same path with another query, two paths that slug alike).

    No separator, no ``..`` of its own, no absolute path: the name stays in the folder.
    """
    try:
        parts = urlsplit(url)
        base = f"{parts.hostname or ''}{parts.path}"
    except ValueError:
        base = url
    ascii_text = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode()
    slug = _UNSAFE.sub("-", ascii_text.replace("/", "-"))
    slug = re.sub(r"-{2,}", "-", slug)[:MAX_SLUG].strip(".-") or "page"
    digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]
    return f"{slug}-{digest}.md"


def read_lines(path: Path, err: TextIO | None = None) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file written by a batch; lines that are not a row with a
    ``url`` (a line torn by a crash) are reported on ``err`` and left out. A link or
    anything but a regular file there is refused (:class:`ValueError`)."""
    rows: list[dict[str, Any]] = []
    bad = 0
    try:
        fd = _open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return []
    with open(fd, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if isinstance(row, dict) and isinstance(row.get("url"), str):
                rows.append(row)
            else:
                bad += 1
    if bad and err is not None:
        err.write(
            f"webgrip: ignoring {bad} unreadable line{'s' if bad > 1 else ''} of "
            f"{path.name}; those URLs are fetched again\n"
        )
    return rows


class _LineFile:
    """A JSON-lines file opened for appending (never through a link: :func:`_open_regular`),
    each line flushed once written."""

    def __init__(self, path: Path):
        fd = _open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
        size = os.fstat(fd).st_size
        torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
        self._file = open(fd, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
        if torn:  # a line cut by a crash: end it, so the next line stays readable
            self._file.write("\n")

    def write(self, row: dict[str, Any]) -> None:
        self._file.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file.closed:
            return
        self._file.flush()
        with contextlib.suppress(OSError):
            os.fsync(self._file.fileno())
        self._file.close()


class _LinesSink:
    """What the two sinks writing a JSON-lines file share: the lines already there (the URLs
    done, the views they hold), and the file opened by the first line added."""

    _NAME: str  # the lines file in ``folder``

    def __init__(self, folder: Path, err: TextIO | None = None):
        self.folder = folder
        self._path = folder / self._NAME
        self._rows = read_lines(self._path, err)
        self._out: _LineFile | None = None

    def done_urls(self) -> set[str]:
        return {r["url"] for r in self._rows}

    def extracts(self) -> set[str]:
        return {r["extract"] for r in self._rows if isinstance(r.get("extract"), str)}

    def _write(self, entry: dict[str, Any]) -> None:
        if self._out is None:
            self._out = _LineFile(self._path)
        self._out.write(entry)

    def close(self) -> None:
        if self._out is not None:
            self._out.close()


class JsonlSink(_LinesSink):
    """``rows.jsonl`` of ``folder``: :meth:`add` appends a URL's row at once."""

    _NAME = ROWS_NAME

    def add(self, url: str, row: dict[str, Any]) -> None:
        self._write({"url": url, **{c: row[c] for c in ROW_COLUMNS}})


def front_matter(url: str, row: dict[str, Any]) -> str:
    """The YAML front matter a ``.md`` file of a batch starts with: ``url`` (as listed),
    ``final_url`` when a redirect changed it, and ``title`` when the page has one; values in
    JSON's double-quoted form, which YAML reads as is. What static-site tools, Obsidian and
    document loaders (LlamaIndex, LangChain) read as the file's metadata; the Markdown
    follows unchanged."""
    fields = [("url", url)]
    if row.get("final_url") and row["final_url"] != url:
        fields.append(("final_url", row["final_url"]))
    if row.get("title"):
        fields.append(("title", row["title"]))
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in fields]
    return "---\n" + "\n".join(lines) + "\n---\n\n"


class MarkdownSink(_LinesSink):
    """A folder of ``.md`` files and their ``index.jsonl``: :meth:`add` writes a page's file
    (temporary name, then renamed; :func:`front_matter` first) and then its index line; a
    failure only its line."""

    _NAME = INDEX_NAME

    def add(self, url: str, row: dict[str, Any]) -> None:
        name = None
        if row["error"] is None and row["content"] is not None:
            name = markdown_name(url)
            with (
                _new_file(self.folder, name) as fd,
                open(fd, "w", encoding="utf-8", newline="\n") as f,
            ):
                f.write(front_matter(url, row))
                f.write(row["content"])
        entry = {"url": url, "file": name}
        entry.update((c, row[c]) for c in ROW_COLUMNS if c != "content")
        self._write(entry)


_Sink = ParquetSink | JsonlSink | MarkdownSink
_SINKS: dict[str, type[_Sink]] = {
    "parquet": ParquetSink,
    "jsonl": JsonlSink,
    "markdown": MarkdownSink,
}


def _check_format(folder: Path, fmt: str) -> None:
    """Refuse to add rows of ``fmt`` to a folder holding another format's: its URLs would not
    be seen as done, and the folder would hold two halves of one run."""
    other = sorted(folder_formats(folder) - {fmt})
    if other:
        raise ValueError(
            f"{folder} holds a --format {other[0]} batch, not {fmt}: its URLs would be "
            f"fetched again into a second format. Use another folder, or --format {other[0]} "
            "to finish that run"
        )


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
    (or, with ``format``, ``jsonl`` / ``markdown``: :class:`JsonlSink`, :class:`MarkdownSink`).

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
    _check_format(folder, format)
    sink = _SINKS[format](folder, err)
    _check_same_view(folder, extract, sink.extracts())
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


def _run_here(
    todo: list[str],
    sink: _Sink,
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
    stop, interrupt, token = threading.Event(), threading.Event(), CancelToken()
    store_failure: dict[str, Any] | None = None
    grace_until: float | None = None
    try:
        with WebClient(config, limiter=limiter) as client, _sigint_sets(interrupt):
            results = fetch_each(
                client,
                todo,
                extract=extract,
                concurrency=concurrency or 8,
                stop=stop,
                cancel=token,
                on_wait=meter.add_waiting if meter else None,
            )
            try:
                for item in results:
                    if interrupt.is_set() and grace_until is None:
                        # Start nothing more, cancel the conversions in flight; what
                        # finishes meanwhile is still written.
                        stop.set()
                        token.cancel()
                        grace_until = time.monotonic() + _GRACE_SECONDS
                    if item is not None:
                        i, result = item
                        row = result_row(result, extract)
                        if row["error_kind"] == STORE_FAILED:
                            # Going on would turn the rest of the list into these rows as
                            # fast as the threads can take URLs: stop (the URLs in flight
                            # finish), and let the next run fetch them.
                            store_failure = store_failure or row
                            stop.set()
                        elif not (grace_until is not None and row["error_kind"] == "cancelled"):
                            sink.add(todo[i], row)
                            failed = row["error"] is not None
                            summary["fetched"] += 1
                            summary["failed"] += failed
                            if meter is not None:
                                meter.update(done=1, failed=failed)
                            continue
                    if meter is not None:
                        meter.update()
                    if grace_until is not None and time.monotonic() >= grace_until:
                        break
            finally:
                results.close()
    except KeyboardInterrupt:  # a second Ctrl-C, or one outside the main thread
        stop.set()
        token.cancel()
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


def __getattr__(name: str) -> Any:
    """``PARQUET_SCHEMA`` and ``ROW_SCHEMA`` (:mod:`webgrip.bulk.rows`), made on first use:
    importing this module needs no pyarrow (the JSON-lines and Markdown formats)."""
    if name in ("PARQUET_SCHEMA", "ROW_SCHEMA"):
        return getattr(_rows, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
