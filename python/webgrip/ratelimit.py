"""Per-host politeness: a minimum interval between requests to the same host."""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Protocol, overload

__all__ = ["HostLimiter", "HostRateLimiter", "queued_calls", "slot_lead"]


class HostLimiter(Protocol):
    """What :class:`~webgrip.client.WebClient` needs of a per-host limiter: this module's
    :class:`HostRateLimiter` (one process) or :class:`~webgrip.bulk.politeness.RedisHostLimiter`
    (many processes; it also has ``hold(host, seconds)``, which the client calls when a host
    answers with ``Retry-After``)."""

    def reserve(self, host: str, deadline: float | None = None) -> float | None: ...

    def next_slot(self, host: str) -> float: ...


def _key(host: str) -> str:
    """``Example.COM.`` and ``example.com`` are one host. (The client passes hosts already
    in the core's canonical form, where ``0x7f.1`` is ``127.0.0.1``; see ``client._rate_key``.)"""
    return host.lower().rstrip(".")


class HostRateLimiter:
    """Reserve the next free slot per host; callers sleep outside the lock.

    Reservations are made under a lock and sleeping happens outside it, so many threads
    waiting on different hosts never block each other, and threads hitting the same host are
    spaced ``interval`` apart in the order they arrived.
    """

    def __init__(self, interval: float, *, max_hosts: int = 4096):
        self.interval = max(0.0, float(interval))
        self._next: OrderedDict[str, float] = OrderedDict()
        # Hosts with an interval of their own (a crawl's robots.txt Crawl-delay).
        self._intervals: dict[str, float] = {}
        self._lock = threading.Lock()
        self._max_hosts = max_hosts

    def set_interval(self, host: str, seconds: float) -> None:
        """Space requests to ``host`` at least ``seconds`` apart (never less than
        :attr:`interval`): how a crawl honours a site's robots.txt ``Crawl-delay``."""
        with self._lock:
            self._intervals[_key(host)] = max(0.0, float(seconds))

    def _interval(self, host: str) -> float:
        return max(self.interval, self._intervals.get(host, 0.0))

    def next_slot(self, host: str) -> float:
        """The monotonic time ``host`` may next be contacted (nothing is booked)."""
        host = _key(host)
        with self._lock:
            return self._next.get(host, 0.0) if self._interval(host) > 0 else 0.0

    @overload
    def reserve(self, host: str) -> float: ...
    @overload
    def reserve(self, host: str, deadline: float | None = None) -> float | None: ...

    def reserve(self, host: str, deadline: float | None = None) -> float | None:
        """Book a slot for ``host`` and return how many seconds to wait before using it.

        With a ``deadline`` (a monotonic time), return ``None`` and book nothing when the
        slot would start at or after it.
        """
        host = _key(host)
        with self._lock:
            interval = self._interval(host)
            if interval <= 0:
                return 0.0
            now = time.monotonic()
            slot = max(now, self._next.get(host, now))
            if deadline is not None and slot >= deadline:
                return None
            self._next[host] = slot + interval
            self._next.move_to_end(host)
            while len(self._next) > self._max_hosts:
                self._next.popitem(last=False)
            return slot - now

    def wait(self, host: str, *, deadline: float | None = None) -> None:
        """Sleep until ``host`` may be contacted (never past ``deadline``, a monotonic time)."""
        delay = self.reserve(host)
        if delay <= 0:
            return
        if deadline is not None:
            delay = min(delay, max(0.0, deadline - time.monotonic()))
        time.sleep(delay)


# The share of config.timeout a call's rate-limit slot must leave for the request itself, in
# this thread or task: none for a single call (its slot may come at any time before its
# deadline), more inside queued_calls(). Read by the client when it books a slot.
_SLOT_LEAD: contextvars.ContextVar[float] = contextvars.ContextVar("webgrip_slot_lead", default=0.0)


@contextlib.contextmanager
def queued_calls(lead: float = 0.5) -> Iterator[None]:
    """Calls made in this block (this thread or task) book a host's rate-limit slot only when
    it leaves ``lead`` of ``config.timeout`` for the request; otherwise they fail at once,
    nothing sent, as when the slot lies past the deadline (``FetchTimeoutError.retry_in``).

    For callers that wait and call again on such a failure (:func:`webgrip.bulk.pool.fetch_many`):
    when more of them want a host than its queue of slots within ``timeout`` holds, every slot
    still free is at the far end of that queue, and a request booked there would get the last
    moments of its call to be sent, answered and converted.
    """
    if not 0.0 <= lead < 1.0:
        raise ValueError("lead must be at least 0 and less than 1")
    token = _SLOT_LEAD.set(lead)
    try:
        yield
    finally:
        _SLOT_LEAD.reset(token)


def slot_lead() -> float:
    """The share of ``config.timeout`` a call made here must keep after its slot starts."""
    return _SLOT_LEAD.get()
