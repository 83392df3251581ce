"""An MCP server offering ``fetch_page``, ``search_web`` and ``download_file`` over stdio
(or streamable HTTP: :func:`serve_http`, :mod:`webgrip.tools.mcp_http`).

Run it with ``webgrip mcp`` or ``python -m webgrip.mcp``; configure it like everything else
(``WEBGRIP_*`` variables, ``$WEBGRIP_CONFIG`` / ``webgrip.toml``, ``$WEBGRIP_PROFILE``). A
desktop client entry looks like::

    {"mcpServers": {"webgrip": {"command": "python", "args": ["-m", "webgrip.mcp"],
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

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any

from .._cancel import CancelToken, cancel_scope
from .._version import __version__
from ..config import Config
from .schemas import call_tool, tool_schemas
from .toolbox import Tools

__all__ = ["build_server", "main", "serve", "serve_http", "serve_stdio"]

_INSTRUCTIONS = (
    "Web access with a security guard: search_web finds pages, fetch_page reads one (or a "
    "PDF) as Markdown (continue long pages with start_index), download_file saves a file into an "
    "allowed folder. Failures come back as text starting with 'Error:'."
)
_MISSING_SDK = (
    "the webgrip MCP server needs the MCP Python SDK, which is not installed; "
    "install it with: pip install 'webgrip[mcp]'"
)


#: How long the calls still running when the client leaves get to stop (their tokens are
#: cancelled) before the process exits without them: one blocked on a silent server would
#: otherwise keep it alive until its deadline.
GRACE_SECONDS = 5.0


class Running:
    """The cancel tokens of the tool calls running in worker threads."""

    def __init__(self) -> None:
        self._tokens: set[Any] = set()
        self._changed = threading.Condition()

    @contextlib.contextmanager
    def track(self, token: Any) -> Iterator[None]:
        with self._changed:
            self._tokens.add(token)
        try:
            yield
        finally:
            with self._changed:
                self._tokens.discard(token)
                self._changed.notify_all()

    def stop(self, grace: float) -> int:
        """Cancel every running call; wait up to ``grace`` seconds for them to return.
        Returns how many are still running."""
        with self._changed:
            for token in self._tokens:
                token.cancel()
            self._changed.wait_for(lambda: not self._tokens, timeout=grace)
            return len(self._tokens)


def _sdk() -> tuple[Any, Any]:
    try:
        from mcp import types
        from mcp.server.lowlevel import Server
    except ImportError as exc:
        raise ImportError(_MISSING_SDK) from exc
    import inspect

    if "on_list_tools" not in inspect.signature(Server.__init__).parameters:
        # MCP SDK 1.x registers handlers with decorators instead of constructor arguments.
        raise ImportError(
            "the webgrip MCP server needs version 2 of the MCP Python SDK; "
            "upgrade it with: pip install -U 'webgrip[mcp]'"
        )
    return Server, types


def build_server(tools: Any, running: Running | None = None) -> Any:
    """An ``mcp.server.lowlevel.Server`` serving ``tools`` (a :class:`webgrip.Tools`);
    ``running`` keeps track of the calls in progress."""
    import anyio

    Server, types = _sdk()

    listed = [
        types.Tool(
            name=s["name"],
            description=s["description"],
            inputSchema=s["inputSchema"],
            annotations=types.ToolAnnotations(**s["annotations"]) if "annotations" in s else None,
        )
        for s in tool_schemas(tools, "mcp")
    ]

    def run(name: str, arguments: dict[str, Any] | None, token: Any) -> tuple[str, bool]:
        tracked = running.track(token) if running is not None else contextlib.nullcontext()
        with tracked, cancel_scope(token):
            text = call_tool(tools, name, arguments or {})
        return text, text.startswith("Error:")

    async def on_list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(ctx: Any, params: Any) -> Any:
        # The tools block on the network (without the GIL); run them off the event loop so
        # the server keeps answering pings and cancellations meanwhile. A cancelled request
        # returns at once and its token stops the worker's parsing (the network part ends at
        # the call's own deadline).
        token = CancelToken()
        try:
            text, failed = await anyio.to_thread.run_sync(
                run,
                params.name,
                params.arguments,
                token,
                abandon_on_cancel=True,
            )
        except anyio.get_cancelled_exc_class():
            token.cancel()
            raise
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            isError=failed,
        )

    return Server(
        "webgrip",
        version=__version__,
        instructions=_INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(tools: Any, running: Running | None = None) -> None:
    """Serve ``tools`` on this process's stdin/stdout until the client disconnects (closes
    stdin or stops reading)."""
    _sdk()
    from mcp.server.stdio import stdio_server

    from .mcp_wire import Wire, claim_stdio

    server = build_server(tools, running)
    with claim_stdio() as (wire_in, wire_out):
        wire: Any = Wire(wire_in, wire_out)  # duck-types the AsyncFile the SDK reads/writes
        async with stdio_server(stdin=wire, stdout=wire) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(config: Config | None = None) -> None:
    """Run the stdio MCP server with ``config`` (default: file + environment). Blocks."""
    import anyio

    _sdk()  # fail with the install hint before doing anything else
    if config is None:
        load = getattr(Config, "load", None)
        config = load() if load is not None else Config.from_env()
    tools = Tools(config)
    running = Running()
    anyio.run(serve_stdio, tools, running)
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
    host: str, port: int, *, config: Config | None = None, token: str | None = None
) -> None:
    """Run the MCP server over streamable HTTP at ``http://host:port/mcp`` until Ctrl-C or
    SIGTERM (``webgrip mcp --http HOST:PORT``); see :mod:`webgrip.tools.mcp_http`. Blocks."""
    from .mcp_http import serve_http as run

    run(host, port, config=config, token=token)


def main() -> None:
    """``python -m webgrip.mcp``: :func:`serve`, a refused configuration or a missing ``mcp``
    package reported on stderr with exit status 2."""
    try:
        serve()
    except (ImportError, ValueError) as exc:
        sys.stderr.write(f"webgrip mcp: {exc}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
