"""``webgrip.mcp``, kept as an import path: the MCP server, now in :mod:`webgrip.tools.mcp`. Its
public names are re-exported here, so ``from webgrip.mcp import ...`` works as before; code
inside the package imports :mod:`webgrip.tools.mcp` itself.
"""

from __future__ import annotations

from .tools.mcp import (
    GRACE_SECONDS,
    Running,
    build_server,
    main,
    serve,
    serve_http,
    serve_stdio,
)

__all__ = [
    "GRACE_SECONDS",
    "Running",
    "build_server",
    "main",
    "serve",
    "serve_http",
    "serve_stdio",
]


if __name__ == "__main__":  # python -m webgrip.mcp, as the docs and MCP clients run it
    main()
