"""An opt-in persistent cache of fetched pages: SQLite (stdlib), WAL mode, one row per URL.

Enabled by setting ``Config.cache_dir``; entries stay fresh for ``cache_ttl_seconds`` (or less
when the server's ``Cache-Control: max-age`` says so). What it stores is the raw HTTP answer
(status 200 only: final URL, headers, body, validators), so every extraction mode and every
``start_index`` page is served from one entry.

- ``Cache-Control: no-store`` responses are never written (and drop any older entry);
  ``no-cache`` / ``max-age=0`` ones are stored but revalidated on every use.
- A stale entry is revalidated with ``If-None-Match`` / ``If-Modified-Since``; a ``304``
  refreshes it without downloading the body again.
- Threads each get their own connection; processes share the file through WAL and a busy
  timeout, so several agents can point at one ``cache_dir``.
- Entries are scoped by the URL policy: the key carries a fingerprint of the policy fields
  (networks, domains, ports, redirects, ``resolve``, TLS roots, size cap), so a client can
  never read a page stored by a client with a looser policy. :func:`fetch_cached` also checks
  the URL against the current client's policy before any cache read (a refused URL raises
  exactly as an uncached fetch would), and re-checks a stored entry's redirect chain and
  final URL before serving it (an entry that fails is dropped and the request goes out).
- The cache can never fail a fetch: an unreadable or locked database logs one warning and the
  request goes to the network as if there were no cache. A corrupt one (garbage, truncated)
  is rebuilt empty once, with a warning (see :meth:`PageCache._rebuild`).
- Every entry carries a SHA-256 of what it serves (:func:`entry_digest`): an entry that no
  longer matches (bytes flipped or garbled on disk, which SQLite itself does not notice) is
  dropped with a warning and fetched again, never served. It guards against corruption, not
  against someone who may write the file (they could write digests too: keep ``cache_dir``
  private).
- With ``Config.persist_cookies``, the client's cookies that have an expiry date are kept in
  the same file (table ``cookies``, see :meth:`PageCache.save_cookies`): a new client with
  the same ``cache_dir`` starts with them; expired ones are dropped on load.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlunsplit

from . import _core
from .config import Config
from .observe import Stats, log_request, revalidating
from .response import Response
from .sender import Sender

__all__ = [
    "DB_FILENAME",
    "PageCache",
    "entry_digest",
    "fetch_cached",
    "normalise_url",
    "policy_fingerprint",
]

logger = logging.getLogger("webgrip.cache")
_T = TypeVar("_T")

DB_FILENAME = "webgrip-cache.sqlite3"
# 2: keys carry the policy fingerprint (version-1 files, unscoped, are dropped on open).
# 3: rows carry a digest of what they serve (older tables are dropped on open).
_SCHEMA_VERSION = 3
_BUSY_TIMEOUT_SECONDS = 5.0
# Entries unused for this long are pruned when a cache is opened (they could still be
# revalidated, but an unbounded file is worse than an occasional full download).
_PRUNE_AFTER_SECONDS = 30 * 24 * 3600.0

_CREATE = """
CREATE TABLE IF NOT EXISTS pages (
    key TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    content BLOB NOT NULL,
    content_type TEXT,
    charset TEXT,
    redirects TEXT NOT NULL,
    remote_addr TEXT NOT NULL,
    stored_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    etag TEXT,
    last_modified TEXT,
    digest TEXT NOT NULL
)
"""
_CREATE_COOKIES = """
CREATE TABLE IF NOT EXISTS cookies (
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    domain TEXT NOT NULL,
    host_only INTEGER NOT NULL,
    path TEXT NOT NULL,
    secure INTEGER NOT NULL,
    http_only INTEGER NOT NULL,
    same_site TEXT NOT NULL,
    expires INTEGER NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (domain, path, name)
)
"""
_COOKIE_COLUMNS = (
    "name",
    "value",
    "domain",
    "host_only",
    "path",
    "secure",
    "http_only",
    "same_site",
    "expires",
    "created",
)

#: The columns a stored answer is made of, in table order: what :func:`entry_digest` covers.
_SERVED = (
    "key",
    "url",
    "status",
    "headers",
    "content",
    "content_type",
    "charset",
    "redirects",
    "remote_addr",
)

#: What :meth:`PageCache.get` says about where an answer came from.
SOURCES = ("network", "cache", "revalidated")


def normalise_url(url: str) -> str:
    """The cache key for ``url``: scheme and host lower-cased, default port and fragment dropped.

    The query string is kept verbatim (its order can matter to the server). The URL is read
    as the core reads it (WHATWG), not as ``urlsplit`` does: ``http://ATT\\@VICTIM/`` is
    fetched from ATT (a backslash is a slash there), so it must never be keyed under VICTIM,
    or a client sharing ``cache_dir`` would be served ATT's page for VICTIM. The host is the
    core's canonical one (:func:`webgrip._core.url_host`). :func:`fetch_cached` goes further
    and keys by the URL the core's policy check returned.
    """
    from .robots import _split  # the same WHATWG reading robots.txt uses

    text = url.strip()
    parts = _split(text)
    scheme = parts.scheme.lower()
    host = (_core.url_host(text) or parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    port = parts.port
    if port is not None and (scheme, port) not in (("http", 80), ("https", 443)):
        host = f"{host}:{port}"
    return urlunsplit((scheme, host, parts.path or "/", parts.query, ""))


#: The :class:`~webgrip.config.Config` fields that decide what a fetch may reach or return.
_POLICY_FIELDS = (
    "allow_networks",
    "deny_networks",
    "allowed_domains",
    "blocked_domains",
    "blocked_ports",
    "allow_http",
    "allow_https_downgrade",
    "resolve",
    "max_redirects",
    "ca_bundle",
    "tls_trust",
    "max_response_bytes",
    # What a client sends: a page fetched with a site's token is never served to a client
    # without it (only a digest of them is in the key).
    "headers",
    "site_headers",
)


def policy_fingerprint(config: Config) -> str:
    """A short digest of ``config``'s URL policy: clients whose policies differ in any way
    get different fingerprints, hence disjoint cache entries."""
    fields = {name: getattr(config, name, None) for name in _POLICY_FIELDS}
    # The trust store the environment adds (docs/security.md): a page fetched through a
    # root only this environment trusts is not served to a client that would refuse it.
    fields["env"] = [os.environ.get(name) or None for name in ("SSL_CERT_FILE", "SSL_CERT_DIR")]
    blob = json.dumps(fields, sort_keys=True, default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def entry_digest(values: Sequence[Any]) -> str:
    """SHA-256 (hex) of a row's served columns (:data:`_SERVED`, in that order): the content
    bytes after a length-prefixed JSON of the rest, so no two different rows hash alike."""
    fields = dict(zip(_SERVED, values, strict=True))
    content = fields.pop("content")
    meta = json.dumps(list(fields.values()), default=repr).encode()
    h = hashlib.sha256(len(meta).to_bytes(8, "big"))
    h.update(meta)
    h.update(content if isinstance(content, bytes) else repr(content).encode())
    return h.hexdigest()


def _cache_control(headers: Any) -> dict[str, str | None]:
    raw = headers.get("cache-control", "") if headers else ""
    out: dict[str, str | None] = {}
    for item in raw.split(","):
        name, sep, value = item.strip().partition("=")
        if name:
            out[name.lower()] = value.strip().strip('"') if sep else None
    return out


class PageCache:
    """A persistent cache of 200 responses, keyed by ``scope`` and :func:`normalise_url`.

    Use :meth:`get` with a ``send`` callable that performs the real request; everything else
    (freshness, validators, storing) happens here. ``scope`` (the policy fingerprint when made
    by :meth:`from_config`) partitions the entries: a cache only sees those of its own scope.
    """

    def __init__(
        self,
        directory: str,
        ttl_seconds: float,
        *,
        clock: Callable[[], float] = time.time,
        scope: str = "",
    ):
        self.path = os.path.join(os.path.expanduser(directory), DB_FILENAME)
        self.ttl = float(ttl_seconds)
        self.scope = scope
        self._clock = clock
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[tuple[threading.Thread, sqlite3.Connection]] = []
        self._disabled = False
        self._warned = False
        self._rebuilt = False
        try:
            # Private: the file holds fetched pages and, with persist_cookies, session
            # cookies. A folder that exists already keeps its mode (it is the user's choice).
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
        except OSError as exc:
            self._fail("cannot create the cache directory", exc, disable=True)
            return
        conn = self._conn()
        if conn is not None:
            self._run(
                lambda c: c.execute(
                    "DELETE FROM pages WHERE stored_at < ?", (self._clock() - _PRUNE_AFTER_SECONDS,)
                ),
                write=True,
            )

    @classmethod
    def from_config(cls, config: Config) -> PageCache | None:
        """The cache ``config`` asks for, or ``None`` when ``cache_dir`` is unset."""
        if not config.cache_dir:
            return None
        return cls(config.cache_dir, config.cache_ttl_seconds, scope=policy_fingerprint(config))

    @property
    def enabled(self) -> bool:
        """``False`` once the database proved unusable (the cache then does nothing)."""
        return not self._disabled

    # -- the request flow -----------------------------------------------------------------
    def key(self, url: str) -> str:
        """The database key of ``url`` in this cache's scope."""
        return f"{self.scope} {normalise_url(url)}" if self.scope else normalise_url(url)

    def get(
        self,
        url: str,
        send: Callable[[Sequence[tuple[str, str]]], Response],
        *,
        usable: Callable[[Response], bool] | None = None,
        max_age: float | None = None,
    ) -> tuple[Response, str]:
        """Answer a GET of ``url`` from the cache, revalidating or downloading as needed.

        ``send(extra_headers)`` must perform the request (adding the conditional headers it is
        given) and return a :class:`~webgrip.response.Response`. Returns the response and its
        source: ``"cache"`` (fresh, no request made), ``"revalidated"`` (a ``304`` confirmed
        the stored copy) or ``"network"``. ``usable(stored)``, when given, vets a stored
        entry before it is served or revalidated: one it refuses is deleted and the request
        goes out as if there were no entry. ``max_age`` (seconds) treats an entry stored or
        revalidated longer ago than that as stale whatever its lifetime: it is revalidated
        (``0`` always asks the server).
        """
        response, source, _ = self.get_dated(url, send, usable=usable, max_age=max_age)
        return response, source

    def get_dated(
        self,
        url: str,
        send: Callable[[Sequence[tuple[str, str]]], Response],
        *,
        usable: Callable[[Response], bool] | None = None,
        max_age: float | None = None,
    ) -> tuple[Response, str, float]:
        """:meth:`get`, with when the server sent what it answers (this cache's clock): the
        time the entry was stored or last revalidated for ``"cache"``, now otherwise."""
        key = self.key(url)
        row = self._load(key)
        now = self._clock()
        if row is not None and usable is not None and not usable(self._to_response(row, now)):
            self._run(lambda c: c.execute("DELETE FROM pages WHERE key = ?", (key,)), write=True)
            row = None
        if (
            row is not None
            and now < row["expires_at"]
            and (max_age is None or (max_age > 0 and now - row["stored_at"] <= max_age))
        ):
            return self._to_response(row, now), "cache", float(row["stored_at"])
        validators: list[tuple[str, str]] = []
        if row is not None:
            if row["etag"]:
                validators.append(("If-None-Match", row["etag"]))
            if row["last_modified"]:
                validators.append(("If-Modified-Since", row["last_modified"]))
        response = send(validators)
        if response.status == 304 and row is not None:
            self._refresh(key, row, response)
            return self._to_response(row, now), "revalidated", now
        self.store(key, response)
        return response, "network", now

    def store(self, key: str, response: Response) -> None:
        """Store a 200 response under ``key`` unless it says ``no-store``."""
        cc = _cache_control(response.headers)
        if "no-store" in cc:
            self._run(lambda c: c.execute("DELETE FROM pages WHERE key = ?", (key,)), write=True)
            return
        # Not for a shared cache: a page fetched with the client's cookies (its session's,
        # RFC 9111 5.2.2.7's "private" in effect), or one that says private.
        if response.status != 200 or response.sent_cookies or "private" in cc:
            return
        now = self._clock()
        # A Set-Cookie belongs to the client that got it (its jar, with persist_cookies its
        # cookie table), never to a shared cache, nor to disk without persist_cookies.
        headers = [
            (k, v)
            for k, v in (list(response.header_list) or list(response.headers.items()))
            if k.lower() not in ("set-cookie", "set-cookie2")
        ]
        served = (
            key,
            response.url,
            response.status,
            json.dumps(headers),
            bytes(response.content),
            response.content_type,
            response.charset,
            json.dumps(list(response.redirects)),
            response.remote_addr,
        )
        row = (
            *served,
            now,
            now + self._lifetime(cc),
            response.headers.get("etag"),
            response.headers.get("last-modified"),
            entry_digest(served),
        )
        self._run(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO pages VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", row
            ),
            write=True,
        )

    def clear(self) -> None:
        """Drop every entry."""
        self._run(lambda c: c.execute("DELETE FROM pages"), write=True)

    # -- cookies (Config.persist_cookies) ----------------------------------------------------
    def load_cookies(self) -> list[dict[str, Any]]:
        """The saved cookies that have not expired (an unusable database: none)."""

        def read(c: sqlite3.Connection) -> list[dict[str, Any]]:
            c.execute("DELETE FROM cookies WHERE expires <= ?", (int(self._clock()),))
            rows = c.execute(f"SELECT {', '.join(_COOKIE_COLUMNS)} FROM cookies").fetchall()
            out = []
            for row in rows:
                d = dict(zip(_COOKIE_COLUMNS, row, strict=True))
                for flag in ("host_only", "secure", "http_only"):
                    d[flag] = bool(d[flag])
                out.append(d)
            return out

        return self._run(read, write=True) or []

    def save_cookies(self, cookies: Sequence[Mapping[str, Any]]) -> bool:
        """Replace the saved cookies with ``cookies`` (a jar's persistent ones), in one
        transaction: the last client to save wins, as with a browser profile. False when the
        database could not take them (locked, or the cache is off)."""
        rows = [
            tuple(int(c[k]) if isinstance(c[k], bool) else c[k] for k in _COOKIE_COLUMNS)
            for c in cookies
            if c.get("expires") is not None
        ]

        def write(c: sqlite3.Connection) -> bool:
            c.execute("BEGIN IMMEDIATE")
            c.execute("DELETE FROM cookies")
            c.executemany(
                f"INSERT OR REPLACE INTO cookies ({', '.join(_COOKIE_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COOKIE_COLUMNS))})",
                rows,
            )
            return True

        return bool(self._run(write, write=True))

    def close(self) -> None:
        """Close every connection this cache opened."""
        with self._lock:
            conns, self._connections = self._connections, []
        for _, conn in conns:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._local = threading.local()

    # -- internals ------------------------------------------------------------------------
    def _lifetime(self, cc: dict[str, str | None]) -> float:
        if "no-cache" in cc:
            return 0.0
        max_age = cc.get("s-maxage") or cc.get("max-age")
        if max_age is not None:
            try:
                return max(0.0, min(self.ttl, float(max_age)))
            except ValueError:
                pass
        return self.ttl

    def _refresh(self, key: str, row: dict[str, Any], fresh: Response) -> None:
        # A 304 may carry updated validators and caching headers; keep the old ones otherwise.
        etag = fresh.headers.get("etag") or row["etag"]
        last_modified = fresh.headers.get("last-modified") or row["last_modified"]
        cc = _cache_control(fresh.headers) or _cache_control(dict(json.loads(row["headers"])))
        now = self._clock()
        if "no-store" in cc:
            self._run(lambda c: c.execute("DELETE FROM pages WHERE key = ?", (key,)), write=True)
            return
        self._run(
            lambda c: c.execute(
                "UPDATE pages SET stored_at = ?, expires_at = ?, etag = ?, last_modified = ?"
                " WHERE key = ?",
                (now, now + self._lifetime(cc), etag, last_modified, key),
            ),
            write=True,
        )

    def _load(self, key: str) -> dict[str, Any] | None:
        def read(c: sqlite3.Connection) -> dict[str, Any] | None:
            cur = c.execute("SELECT * FROM pages WHERE key = ?", (key,))
            found = cur.fetchone()
            if found is None:
                return None
            return dict(zip([d[0] for d in cur.description], found, strict=True))

        row = self._run(read)
        if row is None or self._intact(row):
            return row
        self._run(lambda c: c.execute("DELETE FROM pages WHERE key = ?", (key,)), write=True)
        logger.warning(
            "webgrip cache %s: the entry for %s failed its integrity check "
            "(corrupted on disk); dropped it, fetching the page again",
            self.path,
            key.rpartition(" ")[2],
        )
        return None

    @staticmethod
    def _intact(row: dict[str, Any]) -> bool:
        """Whether ``row`` is exactly what was stored (its digest matches) and can be read."""
        try:
            if row.get("digest") != entry_digest([row[name] for name in _SERVED]):
                return False
            json.loads(row["headers"])
            json.loads(row["redirects"])
            return isinstance(row["expires_at"], float | int)
        except (KeyError, TypeError, ValueError):
            return False

    def _to_response(self, row: dict[str, Any], now: float) -> Response:
        raw = {
            "url": row["url"],
            "status": row["status"],
            "headers": [tuple(h) for h in json.loads(row["headers"])],
            "content": bytes(row["content"]),
            "content_type": row["content_type"],
            "charset": row["charset"],
            "redirects": json.loads(row["redirects"]),
            "remote_addr": row["remote_addr"],
            "elapsed": max(0.0, self._clock() - now),
        }
        return Response._from_raw(raw)

    def _conn(self) -> sqlite3.Connection | None:
        if self._disabled:
            return None
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        try:
            conn = self._open()
        except sqlite3.Error as exc:
            if not (_is_corrupt(exc) and self._rebuild(exc)):
                self._fail("cannot open the cache database", exc, disable=not _is_busy(exc))
                return None
            try:
                conn = self._open()
            except sqlite3.Error as again:
                self._fail(
                    "cannot open the rebuilt cache database", again, disable=not _is_busy(again)
                )
                return None
        self._local.conn = conn
        with self._lock:
            # Threads come and go (each fetch_many call has its own pool): close the
            # connections of threads that have ended so file descriptors do not pile up.
            alive = []
            for thread, old in self._connections:
                if thread.is_alive():
                    alive.append((thread, old))
                else:
                    with contextlib.suppress(sqlite3.Error):
                        old.close()
            alive.append((threading.current_thread(), conn))
            self._connections = alive
        return conn

    def _open(self) -> sqlite3.Connection:
        with contextlib.suppress(OSError):  # SQLite reports a file it cannot use itself
            _private_file(self.path)
        conn = sqlite3.connect(
            self.path,
            timeout=_BUSY_TIMEOUT_SECONDS,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT_SECONDS * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, _SCHEMA_VERSION):  # written by another webgrip version
                conn.execute("DROP TABLE IF EXISTS pages")
            conn.execute(_CREATE)
            conn.execute(_CREATE_COOKIES)
            conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
        except BaseException:
            conn.close()
            raise
        return conn

    def _rebuild(self, exc: BaseException) -> bool:
        """Replace the corrupt database file with an empty one: once per cache object (a file
        that is corrupt again after that disables the cache). Before deleting anything, a
        fresh connection checks the file is still corrupt: another process may have rebuilt it
        already. Only cached pages are lost. Returns whether the cache may go on."""
        with self._lock:
            if self._rebuilt:
                return False
            self._rebuilt = True
        self.close()
        if _still_corrupt(self.path):
            try:
                for suffix in ("-wal", "-shm", ""):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(self.path + suffix)
            except OSError as err:
                self._fail("cannot remove the corrupt cache database", err, disable=True)
                return False
        logger.warning(
            "webgrip cache %s: the database is corrupt (%s); rebuilt it empty "
            "(only cached pages are lost)",
            self.path,
            exc,
        )
        return True

    def _run(self, op: Callable[[sqlite3.Connection], _T], *, write: bool = False) -> _T | None:
        conn = self._conn()
        if conn is None:
            return None
        try:
            if write:
                with conn:  # one short transaction per write
                    return op(conn)
            return op(conn)
        except sqlite3.Error as exc:
            # Locked, or a connection another thread's rebuild closed: skip this one
            # operation. Corrupt: rebuild the file (once). Anything else (disk I/O, a schema
            # someone else changed): stop using the cache for the rest of this client's life.
            if isinstance(exc, sqlite3.ProgrammingError) and "closed" in str(exc):
                return None
            if _is_corrupt(exc) and self._rebuild(exc):
                return None
            self._fail("cache database error", exc, disable=not _is_busy(exc))
            return None

    def _fail(self, what: str, exc: BaseException, *, disable: bool) -> None:
        if disable:
            self._disabled = True
        with self._lock:
            if self._warned:
                return
            self._warned = True
        logger.warning(
            "webgrip cache %s: %s (%s); continuing without it",
            self.path,
            what,
            exc,
        )


def _private_file(path: str) -> None:
    """Create the database file owner-only (0600) before SQLite does (SQLite would make it
    0644 under the usual umask, and its -wal and -shm files copy the database's mode), and
    take group and other access away from one an older version left readable."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        mode = os.fstat(fd).st_mode & 0o777
        if mode & 0o077:
            with contextlib.suppress(OSError):  # not ours to change: leave it
                os.fchmod(fd, mode & 0o700)
    finally:
        os.close(fd)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(OSError):
            if os.stat(path + suffix, follow_symlinks=False).st_mode & 0o077:
                os.chmod(path + suffix, 0o600, follow_symlinks=False)


def _is_busy(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _is_corrupt(exc: BaseException) -> bool:
    """SQLITE_CORRUPT / SQLITE_NOTADB: the file holds garbage, not a lock or an I/O hiccup."""
    name: str | None = getattr(exc, "sqlite_errorname", None)  # Python 3.11+
    if name:
        return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def _still_corrupt(path: str) -> bool:
    """A fresh look at the file: does it still fail to open or its quick check?"""
    if not os.path.exists(path):
        return False
    try:
        probe = sqlite3.connect(path, timeout=_BUSY_TIMEOUT_SECONDS)
    except sqlite3.Error:
        return True
    try:
        verdict: str = probe.execute("PRAGMA quick_check").fetchone()[0]
        return verdict != "ok"
    except sqlite3.Error as exc:
        return _is_corrupt(exc) or not _is_busy(exc)
    finally:
        probe.close()


def fetch_cached(
    sender: Sender,
    cache: PageCache | None,
    url: str,
    deadline: float,
    stats: Stats,
    *,
    max_age: float | None = None,
) -> tuple[Response, float | None]:
    """GET ``url`` for :meth:`WebClient.fetch <webgrip.client.WebClient.fetch>` through
    ``cache`` (a plain request when there is none), counting hits in ``stats`` and logging them.
    Returns the response and, when the stored copy answered without a request, when it was
    stored or last revalidated (Unix time); ``None`` when the server answered this call.
    ``max_age``: see :meth:`PageCache.get`.
    """
    if cache is None or not cache.enabled:
        return sender.send("GET", url, deadline=deadline), None
    start = time.monotonic()
    # The policy decides before the cache is read: an entry stored by another client (another
    # policy, another process) must never answer for a URL this client may not fetch. The
    # refusal is counted and logged like the one the request itself would have raised.
    try:
        # The key is the URL as the core parsed it (WHATWG), which is what is fetched: a
        # spelling Python's urlsplit reads differently cannot store a page under another
        # site's key (cache poisoning through a shared cache_dir).
        checked = sender.check_url(url)
    except Exception as exc:
        stats.record_error(exc)
        log_request("GET", url, status=None, nbytes=0, seconds=time.monotonic() - start, error=exc)
        raise

    def usable(stored: Response) -> bool:
        # Every hop of the stored redirect chain and the final URL must pass *this* policy
        # now (addresses included: a name may resolve elsewhere than when it was stored).
        try:
            for hop in (*stored.redirects, stored.url):
                sender.check_url(hop)
        except Exception:
            return False
        return True

    def send(extra: Sequence[tuple[str, str]]) -> Response:
        # With validators, a 304 is the stored copy confirmed: logged as "revalidated".
        with revalidating(bool(extra)):
            return sender.send("GET", url, deadline=deadline, headers=extra)

    response, source, stored_at = cache.get_dated(
        checked if isinstance(checked, str) and checked else url,
        send,
        usable=usable,
        max_age=max_age,
    )
    if source == "cache":  # no request was made: count and log it here
        stats.record(len(response.content), cached=True)
        log_request(
            "GET",
            url,
            status=response.status,
            nbytes=len(response.content),
            seconds=time.monotonic() - start,
            source="cache",
        )
    elif source == "revalidated":  # the 304 itself was counted and logged by request()
        stats.record_hit()
    return response, stored_at if source == "cache" else None
