"""``webgrip.gaia``, kept as an import path: the tools for AMD GAIA agents, now in
:mod:`webgrip.tools.gaia`. Its public names are re-exported here, so ``from webgrip.gaia import
...`` works as before; code inside the package imports :mod:`webgrip.tools.gaia` itself.
"""

from __future__ import annotations

from .tools.gaia import (
    SEARCH_RETRY_SECONDS,
    SEARCH_UNAVAILABLE_STREAK_LIMIT,
    TOOL_NAMES,
    ToolConflictError,
    WebgripBrowserToolsMixin,
    gaia_answer,
)

__all__ = [
    "SEARCH_RETRY_SECONDS",
    "SEARCH_UNAVAILABLE_STREAK_LIMIT",
    "TOOL_NAMES",
    "ToolConflictError",
    "WebgripBrowserToolsMixin",
    "gaia_answer",
]
