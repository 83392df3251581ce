"""A bounded least-recently-used map whose entries expire: the in-memory caches' one core.

Used by :class:`webgrip.page_builder.DocumentCache` (converted pages, with a byte budget on top)
and :class:`webgrip.robots.RobotsCache` (parsed robots.txt files per origin). It takes no
lock: each owner already holds its own around every call, together with its own bookkeeping.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["ExpiringLRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ExpiringLRU(Generic[K, V]):
    """At most ``maxsize`` entries, each with its own time-to-live; not thread-safe.

    ``on_drop(key, value)`` is called for every entry that leaves other than by :meth:`pop`
    or :meth:`clear`: one that expired, and the least recently used beyond ``maxsize``.
    """

    def __init__(self, maxsize: int, *, on_drop: Callable[[K, V], None] | None = None):
        self.maxsize = max(0, int(maxsize))
        self._on_drop = on_drop
        self._items: OrderedDict[K, tuple[float | None, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value for ``key`` (now the most recently used), or ``None`` if absent or
        expired (an expired entry is dropped)."""
        item = self._items.get(key)
        if item is None:
            return None
        expires, value = item
        if expires is not None and time.monotonic() >= expires:
            del self._items[key]
            self._dropped(key, value)
            return None
        self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V, ttl: float | None) -> None:
        """Store ``value`` for ``ttl`` seconds (``None``: until evicted), then evict the least
        recently used entries beyond ``maxsize``."""
        self._items.pop(key, None)
        self._items[key] = (None if ttl is None else time.monotonic() + ttl, value)
        while len(self._items) > self.maxsize:
            self.pop_oldest()

    def pop(self, key: K) -> V | None:
        """Remove ``key``; its value, or ``None`` if it was not there."""
        item = self._items.pop(key, None)
        return None if item is None else item[1]

    def pop_oldest(self) -> None:
        """Evict the least recently used entry (there must be one)."""
        key, (_, value) = self._items.popitem(last=False)
        self._dropped(key, value)

    def clear(self) -> None:
        self._items.clear()

    def _dropped(self, key: K, value: V) -> None:
        if self._on_drop is not None:
            self._on_drop(key, value)

    def __len__(self) -> int:
        return len(self._items)
