"""An MCP server offering ``fetch_page``, ``search_web`` and ``download_file`` (and, asked
for, ``map_site`` and ``research``) over stdio
(or streamable HTTP: :func:`serve_http`, :mod:`webgrip.tools.mcp_http`).

Run it with ``webgrip mcp`` or ``python -m webgrip mcp``; configure it like everything else
(``WEBGRIP_*`` variables, ``$WEBGRIP_CONFIG`` / ``webgrip.toml``, ``$WEBGRIP_PROFILE``). A
desktop client entry looks like::

    {"mcpServers": {"webgrip": {"command": "python", "args": ["-m", "webgrip", "mcp"],
                                "env": {"WEBGRIP_DOWNLOAD_DIRS": "~/Downloads"}}}}

The tool list (names, descriptions, input schemas, annotations) comes from
:func:`webgrip.tools.schemas.tool_schemas`, the same source as the OpenAI and Anthropic schemas.
A tool that fails answers with an ``isError`` result whose text explains the failure, so the
model can correct itself; only malformed protocol messages become protocol errors — every one
answered (see :mod:`webgrip.tools.mcp_wire`: the SDK's own stdio transport drops them silently).
When the client leaves while calls run, they are cancelled (a download stops and removes its
temp file) and the process exits at most :data:`GRACE_SECONDS` later.

Built on the official MCP Python SDK's low-level server (the ``mcp`` extra:
``pip install 'webgrip[mcp]'``), imported only when a server is started.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from ..config import Config
from .mcp_server import GRACE_SECONDS, Running, build_server, load_sdk
from .toolbox import Tools

__all__ = ["build_server", "serve", "serve_http", "serve_stdio"]


async def serve_stdio(tools: Any, running: Running | None = None) -> None:
    """Serve ``tools`` on this process's stdin/stdout until the client disconnects (closes
    stdin or stops reading)."""
    load_sdk()
    from mcp.server.stdio import stdio_server

    from .mcp_wire import Wire, claim_stdio

    server = build_server(tools, running)
    with claim_stdio() as (wire_in, wire_out):
        wire: Any = Wire(wire_in, wire_out)  # duck-types the AsyncFile the SDK reads/writes
        async with stdio_server(stdin=wire, stdout=wire) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(config: Config | None = None, *, tool_names: Sequence[str] | None = None) -> None:
    """Run the stdio MCP server with ``config`` (default: file + environment) offering
    ``tool_names`` (default: the three default tools; see :class:`~webgrip.tools.Tools`).
    Blocks."""
    import anyio

    load_sdk()  # fail with the install hint before doing anything else
    if config is None:
        load = getattr(Config, "load", None)
        config = load() if load is not None else Config.from_env()
    tools = Tools(config, tool_names=tool_names)
    running = Running()
    try:
        anyio.run(serve_stdio, tools, running)
    except KeyboardInterrupt:
        running.stop(0)  # Ctrl-C: the calls in flight stop with the process
        raise
    left = running.stop(GRACE_SECONDS)
    if left:
        # Blocked on the network until their deadlines; the process must not wait for them
        # (threads cannot be stopped from outside): leave now. A download's temp file left
        # this way is swept by a later download (webgrip.downloads.sweep_temp_files).
        sys.stderr.write(
            f"webgrip mcp: the client left; {left} call(s) still blocked on the "
            "network were abandoned\n"
        )
        sys.stderr.flush()
        os._exit(0)


def serve_http(
    host: str,
    port: int,
    *,
    config: Config | None = None,
    token: str | None = None,
    tool_names: Sequence[str] | None = None,
) -> None:
    """Run the MCP server over streamable HTTP at ``http://host:port/mcp`` until Ctrl-C or
    SIGTERM (``webgrip mcp --http HOST:PORT``); see :mod:`webgrip.tools.mcp_http`. Blocks."""
    from .mcp_http import serve_http as run

    run(host, port, config=config, token=token, tool_names=tool_names)
