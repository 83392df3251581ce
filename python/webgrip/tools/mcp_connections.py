"""The connections of ``webgrip mcp --http`` bounded: each request head read within
:data:`HEAD_SECONDS`, at most :func:`connection_cap` connections open, the unauthenticated ones
shed first when a new one arrives.

uvicorn reads a request head without a deadline (its keep-alive timer stops at the first byte
of the next request) and accepts every connection: a client holding hundreds of half-sent heads
holds that many descriptors for as long as it likes, and uvicorn's own ``limit_concurrency``
would count those connections too and answer ``503`` to the real clients. So the server runs
on :func:`guarded_protocol`, uvicorn's h11 protocol with a :class:`Gate` in front:

- **A head deadline.** A connection gets :data:`HEAD_SECONDS` from its opening (and from the
  end of each response, for the next request on a kept-alive connection) to send a complete
  request head; one that has not is closed.
- **A connection cap.** At the cap, a new connection makes room by closing the oldest idle
  connection that has not sent an authenticated head (the half-open ones, or those refused
  ``401``), else the oldest idle one; when every open connection is serving a request the new
  one is answered ``503`` and closed. A client that sends its head at once, as every HTTP
  client does, is therefore served whatever a flood of half-open connections holds.

uvicorn is imported only when :func:`guarded_protocol` is called.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "HEAD_SECONDS",
    "MAX_CONNECTIONS",
    "Gate",
    "QuietDisconnects",
    "client_left",
    "connection_cap",
    "guarded_protocol",
    "quiet_accept_errors",
    "quiet_disconnect_logs",
]

#: How long a connection has to send a complete request head.
HEAD_SECONDS = 10.0
#: The most connections open at once (lowered to fit the process's descriptor limit).
MAX_CONNECTIONS = 256
#: How often, at most, running out of descriptors is reported.
_REPORT_SECONDS = 60.0
#: The answer to a connection arriving when every open one is serving a request.
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 1\r\nConnection: close\r\nContent-Length: 44\r\n\r\n"
    b"Too many connections; try again in a moment\n"
)

#: Reads a request's headers (lowercased names) and says whether they carry the credential.
Authorized = Callable[[Sequence[tuple[bytes, bytes]]], bool]


def connection_cap(limit: int = MAX_CONNECTIONS) -> int:
    """``limit``, lowered to a quarter of this process's descriptor limit (the tool calls need
    descriptors of their own: sockets, downloaded files), and at least 8."""
    try:
        import resource
    except ImportError:  # not on Windows
        return limit
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return limit
    return max(8, min(limit, soft // 4))


class Gate:
    """The open connections of one server, oldest first, and who leaves when one more comes.

    Each member is a protocol from :func:`guarded_protocol` (``idle``, ``trusted``,
    ``shed()``)."""

    def __init__(self, limit: int, authorized: Authorized) -> None:
        self.limit = limit
        self.authorized = authorized
        self._open: dict[Any, None] = {}  # insertion order: the oldest first
        self.shed_count = 0  # connections closed to make room (for diagnostics and tests)
        self.refused_count = 0  # connections answered 503

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, conn: Any) -> bool:
        """Whether ``conn`` may stay open, after closing another to make room if need be."""
        if len(self._open) >= self.limit:
            victim = self._victim()
            if victim is None:
                self.refused_count += 1
                return False
            self.shed_count += 1
            self.leave(victim)
            victim.shed()
        self._open[conn] = None
        return True

    def leave(self, conn: Any) -> None:
        self._open.pop(conn, None)

    def _victim(self) -> Any:
        fallback = None
        for conn in self._open:
            if not conn.idle:
                continue
            if not conn.trusted:
                return conn
            if fallback is None:
                fallback = conn
        return fallback


def guarded_protocol(gate: Gate, head_seconds: float | None = None) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol class, its connections admitted by ``gate`` and closed when a
    request head takes longer than ``head_seconds`` (default :data:`HEAD_SECONDS`)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    deadline = HEAD_SECONDS if head_seconds is None else head_seconds

    class GuardedH11Protocol(H11Protocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._admitted = False
            self._head_timer: asyncio.TimerHandle | None = None
            self._seen: object = None  # the request cycle whose head was last noticed
            self.trusted = False  # whether the last request head carried the credential

        @property
        def idle(self) -> bool:
            """No request is being served: waiting for a head (or the first one)."""
            return self.cycle is None or self.cycle.response_complete

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not gate.admit(self):
                transport.write(_BUSY)
                transport.close()
                return
            self._admitted = True
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if not self._admitted:
                return  # refused: uvicorn never saw this connection
            gate.leave(self)
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._notice_head()

        def on_response_complete(self) -> None:
            # The next request on this connection gets a head deadline of its own; a head
            # already pipelined behind this one is noticed below.
            self._arm()
            super().on_response_complete()
            self._notice_head()

        def shed(self) -> None:
            """Closed by the gate to make room: at once, unsent bytes dropped."""
            self._disarm()
            self.transport.abort()

        def _notice_head(self) -> None:
            if self.cycle is not None and self.cycle is not self._seen:
                self._seen = self.cycle
                self._disarm()
                self.trusted = gate.authorized(self.headers)

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(deadline, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self.idle and not self.transport.is_closing():
                self.transport.abort()

    return GuardedH11Protocol


def quiet_accept_errors(
    write: Callable[[str], None],
) -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """An event-loop exception handler that reports running out of descriptors in one line a
    minute (with ``write``) and hands anything else to the loop's default handler.

    Out of descriptors, asyncio's accept loop logs a traceback per attempt — and, on Python
    3.11, one per second for ever once the server is closed: hundreds of thousands of lines
    that, into a pipe nobody drains, block the process (and its shutdown) on stderr."""
    last = [-_REPORT_SECONDS]

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        accepting = "accept" in str(context.get("message", "")) or "_start_serving" in repr(
            context.get("handle")
        )
        starved = isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE)
        if not (accepting or starved):
            loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if now - last[0] >= _REPORT_SECONDS:
            last[0] = now
            write(
                "webgrip mcp: out of file descriptors, new connections wait; raise the limit "
                "(ulimit -n) or lower the load\n"
            )

    return handle


#: The loggers that report a client gone mid-request as an error with a traceback: the SDK's
#: transport ("Error handling POST request") and uvicorn ("Exception in ASGI application").
_DISCONNECT_LOGGERS = ("mcp.server.streamable_http", "uvicorn.error")
_log = logging.getLogger("webgrip.mcp")


def client_left(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what it was raised while handling, or every error of a group) is
    the SDK writing to the stream of a session that is gone: anyio's ``ClosedResourceError``
    or ``BrokenResourceError``. That happens when a client gives up on a call — it sends
    ``notifications/cancelled`` and ends its session at once — and is expected."""
    import anyio

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError)):
            return True
        group = getattr(exc, "exceptions", None)  # an exception group (3.11+, or anyio's)
        if isinstance(group, (list, tuple)) and group:
            return all(client_left(inner) for inner in group)
        exc = exc.__cause__ or exc.__context__
    return False


class _DisconnectToDebug(logging.Filter):
    """Turns a record of a client that left (see :func:`client_left`) into one debug line
    without the traceback; lets every other record through unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and client_left(exc):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            record.msg, record.args = (
                "%s: a client left mid-request (%s)",
                (
                    record.getMessage(),
                    type(exc).__name__,
                ),
            )
            record.exc_info = record.exc_text = None
        return True


def quiet_disconnect_logs() -> None:
    """Install, once, the filter that logs a client leaving mid-request as one debug line
    instead of some 75 lines of tracebacks at error level."""
    for name in _DISCONNECT_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DisconnectToDebug) for f in logger.filters):
            logger.addFilter(_DisconnectToDebug())


class QuietDisconnects:
    """ASGI middleware, outermost: a request that fails only because its client left (see
    :func:`client_left`) ends with one debug line, not uvicorn's "Exception in ASGI
    application" traceback; any other error goes on to uvicorn as before."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception as exc:
            if not client_left(exc):
                raise
            _log.debug("webgrip mcp: a client left mid-request (%s)", type(exc).__name__)
