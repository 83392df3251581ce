"""``webgrip.schemas``, kept as an import path: the tools' JSON schemas and dispatch, now in
:mod:`webgrip.tools.schemas`. Its public names are re-exported here, so ``from webgrip.schemas
import ...`` works as before; code inside the package imports :mod:`webgrip.tools.schemas`
itself.
"""

from __future__ import annotations

from .tools.schemas import (
    DEFAULT_TOOLS,
    FORMATS,
    ToolSpec,
    call_tool,
    describe,
    register,
    register_async,
    strict_parameters,
    tool_schemas,
    tool_specs,
)

__all__ = [
    "DEFAULT_TOOLS",
    "FORMATS",
    "ToolSpec",
    "call_tool",
    "describe",
    "register",
    "register_async",
    "strict_parameters",
    "tool_schemas",
    "tool_specs",
]
