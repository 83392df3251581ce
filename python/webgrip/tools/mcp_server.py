"""The MCP server itself, whichever transport carries it: the tool list, the calls run off the
event loop, and the cancel tokens of the calls still running.

:mod:`webgrip.tools.mcp` serves it over stdio and :mod:`webgrip.tools.mcp_http` over
streamable HTTP; both import it from here, so neither needs the other. The MCP Python SDK is
imported only when a server is built (:func:`load_sdk`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from .._cancel import CancelToken, cancel_scope
from .._version import __version__
from .schemas import call_tool, tool_schemas

__all__ = ["GRACE_SECONDS", "Running", "build_server", "load_sdk"]

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


def load_sdk() -> tuple[Any, Any]:
    """The SDK's low-level ``Server`` class and its ``types`` module; an :class:`ImportError`
    with the install hint when the SDK is missing or too old."""
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

    Server, types = load_sdk()

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
