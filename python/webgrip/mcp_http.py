"""``webgrip.mcp_http``, kept as an import path: the MCP server over streamable HTTP, now in
:mod:`webgrip.tools.mcp_http`. Its public names are re-exported here, so ``from webgrip.mcp_http
import ...`` works as before; code inside the package imports :mod:`webgrip.tools.mcp_http`
itself.
"""

from __future__ import annotations

from .tools.mcp_http import (
    BODY_SECONDS,
    MAX_BODY_BYTES,
    MAX_SESSIONS,
    MIN_TOKEN_CHARS,
    ORIGINS_ENV,
    PATH,
    SESSION_IDLE_SECONDS,
    STOP_SECONDS,
    TOKEN_ENV,
    HttpServer,
    is_loopback,
    parse_address,
    parse_origins,
    resolve_token,
    serve_http,
)

__all__ = [
    "BODY_SECONDS",
    "MAX_BODY_BYTES",
    "MAX_SESSIONS",
    "MIN_TOKEN_CHARS",
    "ORIGINS_ENV",
    "PATH",
    "SESSION_IDLE_SECONDS",
    "STOP_SECONDS",
    "TOKEN_ENV",
    "HttpServer",
    "is_loopback",
    "parse_address",
    "parse_origins",
    "resolve_token",
    "serve_http",
]
