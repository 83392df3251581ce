"""Observability: one log line per request and per-client counters.

Every request a :class:`~webgrip.client.WebClient` makes (or answers from its cache) is logged
once on the ``webgrip`` logger at ``INFO``::

    GET example.com 200 5120B 43ms network
    GET example.com 200 5120B 0ms cache
    GET example.com 304 0B 12ms revalidated

The last word is where the answer came from: ``network`` (downloaded), ``cache`` (a fresh entry
of the persistent cache, no request made) or ``revalidated`` (a stale entry confirmed by a
``304`` to a conditional request; the line shows the ``304`` and its empty body).

Only the method and the host are logged: paths and query strings can carry API keys or
personal data, so they never reach the log. Enable the lines with the standard library, e.g.
``logging.basicConfig(level=logging.INFO)``.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import logging

__all__ = ["Stats", "log_request", "revalidating"]

_INFO = 20  # logging.INFO, without importing logging
_logger: logging.Logger | None = None


def _webgrip_logger() -> logging.Logger:
    """The ``webgrip`` logger; logging itself is imported on first use."""
    global _logger
    if _logger is None:
        import logging

        _logger = logging.getLogger("webgrip")
    return _logger


# Set while the persistent cache sends a conditional request: a 304 answered then is logged
# as ``revalidated`` rather than as a plain network answer.
_REVALIDATING: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "webgrip_revalidating", default=False
)


@contextlib.contextmanager
def revalidating(active: bool = True) -> Iterator[None]:
    """Within this block (when ``active``), a ``304`` is logged with source ``revalidated``."""
    token = _REVALIDATING.set(active)
    try:
        yield
    finally:
        _REVALIDATING.reset(token)


class Stats:
    """Thread-safe counters for one client: requests, bytes, cache hits, errors by kind.

    ``requests`` counts every request answered, from the network or the cache;
    ``cache_hits`` those served without a full download (fresh hits and 304 revalidations);
    ``errors`` maps an exception class name (``"FetchTimeoutError"``...) to its count, 4xx/5xx
    answers counting as ``"HTTPStatusError"``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests = 0
        self._bytes = 0
        self._cache_hits = 0
        self._errors: Counter[str] = Counter()

    def record(self, nbytes: int = 0, *, cached: bool = False, status: int | None = None) -> None:
        """Count one answered request of ``nbytes`` body bytes.

        A 4xx/5xx ``status`` also counts as an ``HTTPStatusError``: that is what fetching it
        raises, even though the request itself completed.
        """
        with self._lock:
            self._requests += 1
            self._bytes += nbytes
            if cached:
                self._cache_hits += 1
            if status is not None and status >= 400:
                self._errors["HTTPStatusError"] += 1

    def record_hit(self) -> None:
        """Count a cache hit on a request already counted (a ``304`` revalidation)."""
        with self._lock:
            self._cache_hits += 1

    def record_error(self, exc: BaseException) -> None:
        """Count one failed request under the exception's class name."""
        with self._lock:
            self._errors[type(exc).__name__] += 1

    def snapshot(self) -> dict[str, Any]:
        """A consistent copy of the counters, safe to keep or serialise."""
        with self._lock:
            return {
                "requests": self._requests,
                "bytes": self._bytes,
                "cache_hits": self._cache_hits,
                "errors": dict(self._errors),
            }


def log_request(
    method: str,
    url: str,
    *,
    status: int | None,
    nbytes: int,
    seconds: float,
    source: str = "network",
    error: BaseException | None = None,
) -> None:
    """Log one request. ``source`` is ``network``, ``cache`` or ``revalidated``."""
    # Until something imports logging, nothing can have enabled INFO (the root logger starts
    # at WARNING): no need to import it for every request.
    if "logging" not in sys.modules:
        return
    logger = _webgrip_logger()
    if not logger.isEnabledFor(_INFO):
        return
    if source == "network" and status == 304 and _REVALIDATING.get():
        source = "revalidated"
    host = _host(url)
    ms = round(seconds * 1000)
    if error is not None:
        logger.info("%s %s error=%s %dms", method.upper(), host, type(error).__name__, ms)
    else:
        logger.info("%s %s %s %dB %dms %s", method.upper(), host, status, nbytes, ms, source)


def _host(url: str) -> str:
    try:
        parts = urlsplit(url)
        host = parts.hostname or "-"
        # Keep a non-default port (useful when debugging) but never userinfo, path or query.
        return f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return "-"
