"""One per-host politeness budget for many processes, held in Redis.

:class:`~webgrip.ratelimit.HostRateLimiter` spaces the requests of one process; N workers each
keeping it send N times the rate to a host. :class:`RedisHostLimiter` keeps the next allowed
time of every host in one Redis instead, so all workers sharing that Redis book their slots
from the same clock. Booking a slot is one Lua script (one round trip, atomic on the server):
read the host's next time, take ``max(now, next)`` as this request's slot, store the slot plus
the interval. ``now`` is the Redis server's clock (``TIME``), so the workers' own clocks never
matter; the worker gets back how long to wait, which it sleeps on its own monotonic clock.

A ``Retry-After`` seen by any worker is handed to :meth:`RedisHostLimiter.hold`, which pushes
that host's next time for the whole cluster (never pulls it earlier).

Requires the ``redis`` package (``webgrip[ray]``), imported only when a limiter is made.

:func:`queued_calls` is the other half of politeness in a batch, with any limiter: the calls
made inside it book only a slot that leaves them time to be answered (see there).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from ..errors import WebgripError
from ..retry import MAX_RETRY_AFTER

__all__ = ["MAX_HOLD_SECONDS", "RedisHostLimiter", "check_store", "shown_store"]

#: The longest a ``Retry-After`` may hold a host for the cluster: a server asking for more is
#: held an hour, then asked again.
MAX_HOLD_SECONDS = MAX_RETRY_AFTER

# Times in integer microseconds of the Redis clock (exact in Lua's doubles until year 2255).
# Every script starts from the clock and the host's next free time (KEYS[1]: the host's key).
_CLOCK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
"""

# Sets the host's next free time, expiring a second after it passes.
_BOOK = """
redis.call('SET', KEYS[1], string.format('%d', until_),
           'PX', math.floor((until_ - now) / 1000) + 1000)
"""

# ARGV[1]: interval; ARGV[2]: the longest acceptable wait, or -1.
# Returns the wait before the booked slot, or -1 (nothing booked) when it would be too long.
_RESERVE = (
    _CLOCK
    + """
local interval = tonumber(ARGV[1])
local horizon = tonumber(ARGV[2])
local slot = math.max(now, nxt)
if horizon >= 0 and slot - now >= horizon then
  return -1
end
local until_ = slot + interval
"""
    + _BOOK
    + """
return slot - now
"""
)

# ARGV[1]: how long the host must be left alone from now on. Never moves the next time back.
_HOLD = (
    _CLOCK
    + """
local until_ = math.max(nxt, now + tonumber(ARGV[1]))
"""
    + _BOOK
    + """
return until_ - now
"""
)

# The wait before the host's next free slot (0 if free now); books nothing.
_PEEK = (
    _CLOCK
    + """
return math.max(0, nxt - now)
"""
)


def _key(host: str) -> str:
    """Spelled like :mod:`webgrip.ratelimit` keys it: ``Example.COM.`` is ``example.com``."""
    return host.lower().rstrip(".")


def shown_store(url: str) -> str:
    """The store's address as messages show it: scheme, host, port and database, never the
    user, the password (``redis://:pw@host``) or the query (``?password=pw``)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # an unreadable port: show no part that might hold the password
        return "the configured Redis URL"
    host = parts.hostname or ""
    if ":" in host:  # IPv6, bracketed again
        host = f"[{host}]"
    return f"{parts.scheme}://{host}{f':{port}' if port is not None else ''}{parts.path}"


def check_store(url: str, timeout: float = 2.0) -> None:
    """Make sure the politeness store at ``url`` answers a PING within ``timeout`` seconds,
    before a run starts anything (Ray takes seconds to start; a store that is down should be
    said at once). Raises :class:`~webgrip.errors.WebgripError` (reason ``politeness-store``)
    naming the store (:func:`shown_store`) and the next step."""
    import redis  # the ray extra; a clear ImportError without it

    shown = shown_store(url)
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError) as exc:
        raise WebgripError(
            f"the shared politeness store ({shown}) did not answer a PING within "
            f"{timeout:g} s ({exc}); nothing was fetched. Start that Redis or give the "
            "right --redis URL (redis://HOST:6379/0), then run the same command again; or "
            "leave out --redis",
            reason="politeness-store",
        ) from exc


def _micros(seconds: float) -> int:
    return max(0, round(seconds * 1_000_000))


class RedisHostLimiter:
    """The per-host interval of :class:`~webgrip.ratelimit.HostRateLimiter`, shared by every
    process using the same Redis (``url``, e.g. ``redis://host:6379/0``) and ``namespace``.

    Same interface as the local limiter (:meth:`reserve`, :meth:`next_slot`) plus
    :meth:`hold`; pass it to :class:`~webgrip.client.WebClient` as ``limiter=``. A failure to
    reach Redis raises :class:`~webgrip.errors.WebgripError` (reason ``politeness-store``):
    the request is not sent rather than sent unthrottled.
    """

    def __init__(
        self,
        url: str,
        interval: float,
        *,
        namespace: str = "webgrip:next:",
        socket_timeout: float = 5.0,
    ):
        import redis  # the ray extra; a clear ImportError without it

        self.url = url  # may hold a password: messages show shown_store(url)
        self.interval = max(0.0, float(interval))
        self.namespace = namespace
        self.socket_timeout = socket_timeout
        self._redis = redis.Redis.from_url(
            url, socket_timeout=socket_timeout, socket_connect_timeout=socket_timeout
        )
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._reserve = self._redis.register_script(_RESERVE)
        self._hold = self._redis.register_script(_HOLD)
        self._peek = self._redis.register_script(_PEEK)

    def __reduce__(self) -> Any:  # the connection pool stays behind; a copy reconnects
        return (_rebuild, (self.url, self.interval, self.namespace, self.socket_timeout))

    def _run(self, script: Any, host: str, *args: int) -> int:
        try:
            return int(script(keys=[self.namespace + _key(host)], args=list(args)))
        except self._errors as exc:
            raise WebgripError(
                f"the shared politeness store ({shown_store(self.url)}) did not answer: {exc}; "
                "nothing was sent",
                reason="politeness-store",
            ) from exc

    def reserve(self, host: str, deadline: float | None = None) -> float | None:
        """Book ``host``'s next slot cluster-wide; return the seconds to wait for it.

        With a ``deadline`` (a :func:`time.monotonic` time), book nothing and return ``None``
        when the slot would start at or after it.
        """
        if self.interval <= 0:
            return 0.0
        horizon = -1 if deadline is None else _micros(deadline - time.monotonic())
        if horizon == 0:
            return None
        wait = self._run(self._reserve, host, _micros(self.interval), horizon)
        return None if wait < 0 else wait / 1_000_000

    def next_slot(self, host: str) -> float:
        """The monotonic time ``host`` may next be contacted (nothing is booked)."""
        now = time.monotonic()
        if self.interval <= 0:
            return 0.0
        return now + self._run(self._peek, host) / 1_000_000

    def hold(self, host: str, seconds: float) -> None:
        """Leave ``host`` alone for ``seconds`` (at most :data:`MAX_HOLD_SECONDS`) across the
        cluster: a ``Retry-After`` one worker saw."""
        self._run(self._hold, host, _micros(min(seconds, MAX_HOLD_SECONDS)))


def _rebuild(
    url: str, interval: float, namespace: str, socket_timeout: float = 5.0
) -> RedisHostLimiter:
    return RedisHostLimiter(url, interval, namespace=namespace, socket_timeout=socket_timeout)
