"""A crawl's frontier on disk: the URLs queued, leased and done, in one SQLite file.

Why SQLite: a crawl of a large site queues far more URLs than it fetches (every page links
to dozens), and calendars or faceted listings queue without end. Kept in memory that set
grows with the site; kept in an embedded database (no server, in the standard library) the
process stays flat however many URLs wait, and the folder of a crawl holds everything a
second run needs to go on where the first stopped.

Every URL is stored once, under its canonical form (:func:`webgrip.sites.urls.canonical`),
in one of these states:

- ``QUEUED``: found, in scope, not yet fetched;
- ``LEASED``: handed to a worker, its request in flight (on restart these are queued again:
  the requests a stopped run had in flight are the only ones a rerun repeats);
- ``FETCHED``: requested, its row written;
- ``SEEN``: known but never to be requested: another URL's redirect target or canonical, or
  a URL left out (off site, robots.txt, a path pattern past its cap).

The page cap is kept here too: :meth:`Frontier.lease` hands out a URL only while the pages
leased plus fetched are under ``max_pages``, so no number of workers can request more.
One :class:`Frontier` is shared by the crawl's threads; its methods take one lock.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FETCHED", "LEASED", "QUEUED", "SEEN", "Frontier", "Lease", "path_pattern"]

QUEUED, LEASED, FETCHED, SEEN = 0, 1, 2, 3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS urls (
    key     TEXT PRIMARY KEY,
    url     TEXT NOT NULL,
    depth   INTEGER NOT NULL,
    state   INTEGER NOT NULL,
    source  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS urls_queue ON urls (state, depth);
CREATE TABLE IF NOT EXISTS patterns (pattern TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hashes (hash BLOB PRIMARY KEY);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Lease:
    """One URL handed to a worker: fetch it, then :meth:`Frontier.finish` it."""

    key: str
    url: str
    depth: int
    source: str


class Frontier:
    """The queue of one crawl, in the SQLite file ``path`` (created if missing).

    ``max_pages`` caps the URLs ever leased or fetched (across runs on the same file);
    ``max_per_pattern`` caps how many URLs of one path pattern (:func:`path_pattern`) are
    queued, which bounds calendars and parameter spaces that depth alone would let grow.
    """

    def __init__(self, path: str | Path, *, max_pages: int, max_per_pattern: int = 1000):
        if max_pages < 1:
            raise ValueError("max_pages must be at least 1")
        if max_per_pattern < 1:
            raise ValueError("max_per_pattern must be at least 1")
        self.path = Path(path)
        self.max_pages = max_pages
        self.max_per_pattern = max_per_pattern
        self._lock = threading.Lock()
        # One connection for every thread, always used under the lock.
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # A crash loses at most the last transactions; the rows file is the record of what
        # was fetched and is reconciled on restart (mark_fetched).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA cache_size=-8192")  # 8 MiB of page cache, whatever the size
        self._db.executescript(_SCHEMA)
        # Requests in flight when a run stopped: queued again (their slots are free again).
        self._db.execute("UPDATE urls SET state = ? WHERE state = ?", (QUEUED, LEASED))
        self._used = self._count_states(LEASED, FETCHED)

    # -- adding -----------------------------------------------------------------------------
    def add(self, items: Iterable[tuple[str, str, int, str, str]]) -> int:
        """Queue ``(key, url, depth, source, pattern)`` items not known yet; a pattern past
        ``max_per_pattern`` queues no more (its URLs are recorded as seen). Returns how
        many were queued."""
        queued = 0
        with self._lock, self._transaction():
            for key, url, depth, source, pattern in items:
                if self._db.execute("SELECT 1 FROM urls WHERE key = ?", (key,)).fetchone():
                    continue
                state = QUEUED if self._take_pattern(pattern) else SEEN
                self._db.execute(
                    "INSERT INTO urls (key, url, depth, state, source) VALUES (?, ?, ?, ?, ?)",
                    (key, url, depth, state, source),
                )
                queued += state == QUEUED
        return queued

    def see(self, keys: Iterable[str], *, source: str = "alias") -> None:
        """Record ``keys`` as known and never to be requested (a redirect's target, a page's
        canonical URL): a link to one later is not queued. A queued one is dropped."""
        with self._lock, self._transaction():
            for key in keys:
                self._db.execute(
                    "INSERT INTO urls (key, url, depth, state, source) VALUES (?, ?, 0, ?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET state = ? WHERE state = ?",
                    (key, key, SEEN, source, SEEN, QUEUED),
                )

    def claim(self, key: str) -> bool:
        """Claim ``key`` for the page in hand (a redirect brought it there): ``True`` when no
        other request fetched or is fetching it (it is then recorded as seen, and a queued
        copy dropped), ``False`` when the page is another row's already."""
        with self._lock:
            row = self._db.execute("SELECT state FROM urls WHERE key = ?", (key,)).fetchone()
            if row is None:
                self._db.execute(
                    "INSERT INTO urls (key, url, depth, state, source) VALUES (?, ?, 0, ?, ?)",
                    (key, key, SEEN, "redirect"),
                )
                return True
            if row[0] == QUEUED:
                self._db.execute("UPDATE urls SET state = ? WHERE key = ?", (SEEN, key))
                return True
            return False

    def _take_pattern(self, pattern: str) -> bool:
        row = self._db.execute("SELECT n FROM patterns WHERE pattern = ?", (pattern,)).fetchone()
        if row is None:
            self._db.execute("INSERT INTO patterns (pattern, n) VALUES (?, 1)", (pattern,))
            return True
        if row[0] >= self.max_per_pattern:
            return False
        self._db.execute("UPDATE patterns SET n = n + 1 WHERE pattern = ?", (pattern,))
        return True

    # -- leasing ----------------------------------------------------------------------------
    def lease(self) -> Lease | None:
        """The next queued URL (shallowest first, then in the order found), or ``None`` when
        none is queued or the page cap is reached."""
        with self._lock:
            if self._used >= self.max_pages:
                return None
            row = self._db.execute(
                "SELECT key, url, depth, source FROM urls WHERE state = ? "
                "ORDER BY depth, rowid LIMIT 1",
                (QUEUED,),
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE urls SET state = ? WHERE key = ?", (LEASED, row[0]))
            self._used += 1
            return Lease(key=row[0], url=row[1], depth=row[2], source=row[3])

    def finish(self, lease: Lease) -> None:
        """Mark a leased URL fetched (its row is written)."""
        with self._lock:
            self._db.execute("UPDATE urls SET state = ? WHERE key = ?", (FETCHED, lease.key))

    def release(self, lease: Lease) -> None:
        """Give a lease back unfetched (the run stops before its request was made)."""
        with self._lock:
            self._db.execute(
                "UPDATE urls SET state = ? WHERE key = ? AND state = ?",
                (QUEUED, lease.key, LEASED),
            )
            self._used -= 1

    def mark_fetched(self, keys: Iterable[str]) -> None:
        """Record ``keys`` as fetched (rows a previous run wrote): never requested again,
        and counted against the page cap."""
        with self._lock, self._transaction():
            for key in keys:
                self._db.execute(
                    "INSERT INTO urls (key, url, depth, state, source) VALUES (?, ?, 0, ?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET state = ?",
                    (key, key, FETCHED, "previous run", FETCHED),
                )
            self._used = self._count_states(LEASED, FETCHED)

    # -- duplicates -------------------------------------------------------------------------
    def first_content(self, digest: bytes) -> bool:
        """Whether a page of content ``digest`` is seen here first (records it)."""
        with self._lock:
            cur = self._db.execute("INSERT OR IGNORE INTO hashes (hash) VALUES (?)", (digest,))
            return cur.rowcount == 1

    # -- state ------------------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        """URLs per state: ``queued``, ``leased``, ``fetched``, ``seen``."""
        with self._lock:
            rows = dict(self._db.execute("SELECT state, COUNT(*) FROM urls GROUP BY state"))
        return {
            "queued": rows.get(QUEUED, 0),
            "leased": rows.get(LEASED, 0),
            "fetched": rows.get(FETCHED, 0),
            "seen": rows.get(SEEN, 0),
        }

    def pages_left(self) -> int:
        """How many more pages the cap allows."""
        with self._lock:
            return max(0, self.max_pages - self._used)

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _count_states(self, *states: int) -> int:
        marks = ",".join("?" * len(states))
        row = self._db.execute(
            f"SELECT COUNT(*) FROM urls WHERE state IN ({marks})", states
        ).fetchone()
        return int(row[0])

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection: one
    transaction per batch of links is what keeps queueing fast on disk."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN")

    def __exit__(self, kind: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if kind is not None else "COMMIT")


def path_pattern(url_path: str, query: str) -> str:
    """The shape of a path for the per-pattern cap: every run of digits becomes ``0`` and
    the query keeps its parameter names, sorted, without values.

    ``/calendar/2031/07/14?view=day`` and ``/calendar/1999/12/01?view=week`` share
    ``/calendar/0/0/0?view``, so an endless calendar fills one pattern's cap and stops;
    ``/docs/intro`` and ``/docs/install`` stay apart.
    """
    out: list[str] = []
    digits = False
    for ch in url_path:
        if ch.isdigit():
            if not digits:
                out.append("0")
            digits = True
        else:
            out.append(ch)
            digits = False
    shape = "".join(out)
    if query:
        names = sorted({part.partition("=")[0] for part in query.split("&") if part})
        shape += "?" + "&".join(names)
    return shape
