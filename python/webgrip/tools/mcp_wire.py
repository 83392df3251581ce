"""The MCP server's stdio wire: newline-delimited JSON-RPC with a guard in front of the SDK.

The MCP SDK's own stdio transport drops a line it cannot parse without answering and reads a
line of any length into memory. :class:`Wire` is handed to the SDK's ``stdio_server`` as its
``stdin`` and ``stdout`` instead:

- every line that is not a valid JSON-RPC 2.0 message gets a JSON-RPC error — ``-32700``
  (parse error: bad UTF-8 or JSON) or ``-32600`` (invalid request: a batch, not an object, no
  ``method``, a wrong ``jsonrpc`` or ``id``, …), with the message's ``id`` when it has a usable
  one, else ``null`` — and only valid messages reach the SDK;
- a line longer than :data:`MAX_MESSAGE_BYTES` is discarded as it streams in (never held
  whole) and answered with ``-32600``, with the request's ``id`` when its first
  :data:`HEAD_BYTES` show a top-level ``"id"`` and ``"method"`` (:func:`head_id`), else
  ``null``;
- stdin is read by a daemon thread, so a read blocked on a silent client never keeps the
  process alive; a client that stops reading (broken pipe) ends the session as EOF does.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _json import scanstring as _scanstring
else:
    # json's string scanner (the C one, or its Python fallback): typeshed declares it in
    # _json only, not as the json.decoder attribute it is.
    _scanstring = json.decoder.scanstring

__all__ = ["MAX_MESSAGE_BYTES", "Wire", "claim_stdio", "vet"]

#: The largest message read. Tool arguments are a URL, a query and a file name: a legitimate
#: message is a few KiB; 4 MiB leaves room for any client's metadata.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_CHUNK = 64 * 1024
#: How much of an oversized line is kept to find its id: clients write ``jsonrpc``, ``id``
#: and ``method`` before ``params``, so they come in the first few dozen bytes.
HEAD_BYTES = 4096
_TOKEN = re.compile(r'["{}\[\],:]')


def error_line(code: int, message: str, ident: Any = None) -> str:
    """A JSON-RPC error response, as one line."""
    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}})


def _usable_id(obj: dict[str, Any]) -> Any:
    ident = obj.get("id")
    return ident if isinstance(ident, str | int) and not isinstance(ident, bool) else None


def head_id(head: bytes) -> Any:
    """The ``id`` of the JSON-RPC request whose line starts with ``head`` (the rest unread),
    or ``None``.

    Only the top-level members are read, in order, up to the end of ``head``; a nested value
    is skipped by matching brackets outside strings, so an ``"id"`` inside ``params`` is never
    taken. The id counts only when ``head`` also shows a top-level string ``"method"``: an
    error with the id of a *response* (no method) would read to the client as an answer to
    its own request of that number. Linear in ``len(head)``; anything unexpected: ``None``.
    """
    text = head.decode("utf-8", errors="replace")
    decoder = json.JSONDecoder()
    i = len(text) - len(text.lstrip())
    if not text.startswith("{", i):
        return None
    i += 1
    ident: Any = None
    method = False
    try:
        while True:
            i = _skip_space(text, i)
            if text.startswith("}", i) or not text.startswith('"', i):
                break
            key, i = _scanstring(text, i + 1)
            i = _skip_space(text, i)
            if not text.startswith(":", i):
                break
            i = _skip_space(text, i + 1)
            if key in ("id", "method") and not text.startswith(("{", "["), i):
                value, i = decoder.raw_decode(text, i)
                if _skip_space(text, i) >= len(text):
                    break  # the head may have cut a number short: 12 of 1234
                if key == "method":
                    method = isinstance(value, str)
                elif isinstance(value, str | int) and not isinstance(value, bool):
                    ident = value
            else:
                i = _skip_value(text, i)
            if ident is not None and method:
                return ident
            i = _skip_space(text, i)
            if not text.startswith(",", i):
                break
            i += 1
    except (ValueError, IndexError):  # the head ends mid-member: what was read so far
        pass
    return ident if method else None


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _skip_value(text: str, i: int) -> int:
    """The index after the JSON value at ``i`` (strings and nesting honoured); raises
    ``IndexError`` when ``text`` ends first."""
    if text.startswith('"', i):
        return _scanstring(text, i + 1)[1]
    if not text.startswith(("{", "["), i):  # a number, true, false or null
        match = re.compile(r"[,}\]\s]").search(text, i)
        if match is None:
            raise IndexError(i)
        return match.start()
    depth = 0
    while True:
        match = _TOKEN.search(text, i)
        if match is None:
            raise IndexError(i)
        ch, i = match.group(), match.end()
        if ch == '"':
            i = _scanstring(text, i)[1]
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i


def _problem(obj: dict[str, Any]) -> str:
    """What is wrong with a message the SDK's schema refused, in words a client developer
    can act on."""
    if obj.get("jsonrpc") != "2.0":
        return 'the "jsonrpc" member must be "2.0"'
    if "method" in obj:
        if not isinstance(obj["method"], str):
            return 'the "method" must be a string'
        if "params" in obj and not isinstance(obj["params"], dict):
            return 'the "params" must be an object'
        return "the message does not match the JSON-RPC request or notification schema"
    if "result" in obj or "error" in obj:
        return "the response does not match the JSON-RPC response schema"
    return 'a request needs a "method" (a response, a "result" or an "error")'


def vet(raw: bytes) -> tuple[str | None, str | None]:
    """``(message, None)`` for a valid JSON-RPC message, ``(None, error response)`` for any
    other line, ``(None, None)`` for a blank line (ignored)."""
    if not raw.strip():
        return None, None
    try:
        text = raw.decode("utf-8")
        obj = json.loads(text)
    except UnicodeDecodeError:
        return None, error_line(PARSE_ERROR, "Parse error: the message is not valid UTF-8")
    except (ValueError, RecursionError) as exc:
        return None, error_line(PARSE_ERROR, f"Parse error: not valid JSON ({exc})"[:300])
    if isinstance(obj, list):
        return None, error_line(
            INVALID_REQUEST, "Invalid Request: batches are not supported; send one message per line"
        )
    if not isinstance(obj, dict):
        return None, error_line(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    if "method" in obj and "id" in obj and _usable_id(obj) is None:
        # The SDK would take it for a notification and never answer; MCP forbids null ids.
        return None, error_line(
            INVALID_REQUEST, 'Invalid Request: the "id" must be a string or an integer'
        )
    from mcp import types

    try:
        types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except Exception:  # pydantic's ValidationError, or its recursion guard
        return None, error_line(
            INVALID_REQUEST, f"Invalid Request: {_problem(obj)}", _usable_id(obj)
        )
    return text, None


@contextlib.contextmanager
def claim_stdio() -> Iterator[tuple[int, int]]:
    """Private copies of fds 0 and 1 for the wire, while fd 0 reads the null device and fd 1
    writes to stderr: stray prints of libraries and child processes never reach the wire."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(devnull, 0)
        os.dup2(2, 1)
    finally:
        os.close(devnull)
    try:
        yield wire_in, wire_out
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        # wire_in stays open: the reader thread may still be blocked on it.
        os.close(wire_out)


class Wire:
    """``stdin`` and ``stdout`` for ``mcp.server.stdio.stdio_server``: an async iterator of
    vetted message lines, and ``write``/``flush`` of whole lines on the output descriptor."""

    def __init__(self, fd_in: int, fd_out: int, *, max_bytes: int = MAX_MESSAGE_BYTES):
        import anyio

        self._fd_in, self._fd_out, self.max_bytes = fd_in, fd_out, max_bytes
        self._send, self._recv = anyio.create_memory_object_stream[tuple[str, Any]](16)
        self._lock = anyio.Lock()
        self._started = False
        self.gone = False
        """Whether the client stopped reading (a write failed)."""
        self.refused = 0
        """How many lines were answered with an error instead of being passed on."""

    # -- input ------------------------------------------------------------------------------
    def __aiter__(self) -> Wire:
        return self

    async def __anext__(self) -> str:
        import anyio
        import anyio.lowlevel

        if not self._started:
            self._started = True
            token = anyio.lowlevel.current_token()
            threading.Thread(
                target=self._read, args=(token,), daemon=True, name="webgrip-mcp-stdin"
            ).start()
        while True:
            try:
                kind, value = await self._recv.receive()
            except (anyio.EndOfStream, anyio.ClosedResourceError):
                raise StopAsyncIteration from None
            if kind == "oversized":
                self.refused += 1
                size, head = value
                await self.write(
                    error_line(
                        INVALID_REQUEST,
                        f"Invalid Request: the message is {size} bytes, over the "
                        f"{self.max_bytes}-byte limit; it was discarded",
                        head_id(head),
                    )
                    + "\n"
                )
                continue
            text, error = vet(value)
            if error is not None:
                self.refused += 1
                await self.write(error + "\n")
            elif text is not None:
                return text

    def _read(self, token: Any) -> None:
        """The reader thread: split the input into lines, never holding more than
        ``max_bytes`` of one; hand each to the event loop."""
        buffered = bytearray()
        skipped = 0  # length so far of an oversized line being discarded
        head = b""  # its first HEAD_BYTES, where its id is looked for
        while True:
            try:
                chunk = os.read(self._fd_in, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                break
            while chunk:
                head, newline, chunk = chunk.partition(b"\n")
                if skipped:
                    skipped += len(head)
                else:
                    buffered += head
                    if len(buffered) > self.max_bytes:
                        head = bytes(buffered[:HEAD_BYTES])
                        skipped, buffered = len(buffered), bytearray()
                if newline:
                    item = ("oversized", (skipped, head)) if skipped else ("line", bytes(buffered))
                    buffered, skipped, head = bytearray(), 0, b""
                    if not self._deliver(token, item):
                        return
        if skipped or buffered.strip():  # a last message without its newline
            self._deliver(
                token, ("oversized", (skipped, head)) if skipped else ("line", bytes(buffered))
            )
        self._deliver(token, None)

    def _deliver(self, token: Any, item: tuple[str, Any] | None) -> bool:
        import anyio.from_thread

        try:
            if item is None:
                anyio.from_thread.run_sync(self._send.close, token=token)
            else:
                anyio.from_thread.run(self._send.send, item, token=token)
        except Exception:  # the session ended: the stream is closed, or the loop is gone
            return False
        return True

    # -- output -----------------------------------------------------------------------------
    async def write(self, text: str) -> None:
        """Write ``text`` (whole lines) to the client; a broken pipe ends the session."""
        import anyio

        data = text.encode("utf-8")
        async with self._lock:
            if self.gone:
                return
            try:
                await anyio.to_thread.run_sync(_write_all, self._fd_out, data)
            except OSError:
                self.gone = True
                self._send.close()  # the SDK's reader sees the end of input: the session ends

    async def flush(self) -> None:
        """Nothing to do: :meth:`write` goes straight to the descriptor."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
