"""``webgrip.research``, kept as an import path: search, then read the best results, now in
:mod:`webgrip.tools.research`. Its public names are re-exported here, so ``from webgrip.research
import ...`` works as before; code inside the package imports :mod:`webgrip.tools.research`
itself.
"""

from __future__ import annotations

from .tools.research import (
    MAX_BUDGET,
    MIN_BUDGET,
    research,
    share_budget,
)

__all__ = [
    "MAX_BUDGET",
    "MIN_BUDGET",
    "research",
    "share_budget",
]
