"""Where the rows of ``webgrip batch`` and ``webgrip crawl`` go, and what a folder holds already.

Three formats (:data:`FORMATS`), one sink class each (:data:`SINKS`):

- ``parquet``: Parquet files of up to 256 rows (:data:`webgrip.bulk.rows.PARQUET_SCHEMA`),
  each written under a temporary name and renamed into place only when complete
  (:class:`ParquetSink`; pyarrow, ``webgrip[ray]``);
- ``jsonl``: one ``rows.jsonl``, a line per URL, flushed as each finishes (:class:`JsonlSink`);
- ``markdown``: a ``.md`` file per page, opened by YAML front matter, and an ``index.jsonl``
  mapping each URL to its file (:class:`MarkdownSink`).

Each sink reads the URLs its folder already holds (``done_urls``) and the views they were
written in (``extracts``), so a run that stopped half-way resumes, and a folder never mixes
two formats (:func:`check_format`) or two views (:func:`check_same_view`). Every file is
opened without following a symbolic link and must be a regular file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import stat
import time
import unicodedata
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit

from . import rows as _rows
from .pool import ROW_COLUMNS

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "FORMATS",
    "INDEX_NAME",
    "ROWS_NAME",
    "SINKS",
    "JsonlSink",
    "MarkdownSink",
    "ParquetSink",
    "Sink",
    "check_format",
    "check_same_view",
    "done_urls",
    "folder_formats",
    "front_matter",
    "markdown_name",
    "read_lines",
    "rows_table",
]

_CHUNK = 256  # rows per Parquet file: at most this many are lost by a crash


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


def check_same_view(folder: Path, extract: str, found: set[str] | None = None) -> None:
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


Sink = ParquetSink | JsonlSink | MarkdownSink
SINKS: dict[str, type[Sink]] = {
    "parquet": ParquetSink,
    "jsonl": JsonlSink,
    "markdown": MarkdownSink,
}


def check_format(folder: Path, fmt: str) -> None:
    """Refuse to add rows of ``fmt`` to a folder holding another format's: its URLs would not
    be seen as done, and the folder would hold two halves of one run."""
    other = sorted(folder_formats(folder) - {fmt})
    if other:
        raise ValueError(
            f"{folder} holds a --format {other[0]} batch, not {fmt}: its URLs would be "
            f"fetched again into a second format. Use another folder, or --format {other[0]} "
            "to finish that run"
        )
