"""``webgrip.politeness``, kept as an import path: the per-host limiter shared through Redis, now
in :mod:`webgrip.bulk.politeness`. Its public names are re-exported here, so ``from
webgrip.politeness import ...`` works as before; code inside the package imports
:mod:`webgrip.bulk.politeness` itself.
"""

from __future__ import annotations

from .bulk.politeness import (
    MAX_HOLD_SECONDS,
    RedisHostLimiter,
    shown_store,
)

__all__ = [
    "MAX_HOLD_SECONDS",
    "RedisHostLimiter",
    "shown_store",
]
