"""The MCP server over the SDK's streamable HTTP transport: ``webgrip mcp --http HOST:PORT``.

The same server as over stdio (:func:`webgrip.tools.mcp_server.build_server`: the same tools,
schemas, annotations, ``isError`` results, worker threads and cancel tokens), served at
``http://HOST:PORT/mcp`` by uvicorn:

- **Loopback by default.** :func:`parse_address` reads ``HOST:PORT``, ``[v6]:PORT`` or a
  bare ``PORT`` (host ``127.0.0.1``).
- **A bearer token off loopback.** Bound anywhere else, every request needs
  ``Authorization: Bearer <token>`` (else ``401``): the token comes from ``$WEBGRIP_MCP_TOKEN``
  or, unset, is generated and printed to stderr once at start (:func:`resolve_token`). On
  loopback the variable is honoured when set. A token shorter than :data:`MIN_TOKEN_CHARS`
  (128 bits) is refused at start.
- **``Origin`` checked on every bind** (the MCP transport's rule against DNS rebinding): a
  browser request whose ``Origin`` is not the server's own address, a loopback page reaching a
  loopback connection, or one listed in ``$WEBGRIP_MCP_ORIGINS`` is refused (``403``). On a
  loopback bind the SDK's transport security also refuses a ``Host`` other than the loopback
  names with the bound port (``421``).
- **Bounded reads**: a request head must arrive within
  :data:`webgrip.tools.mcp_connections.HEAD_SECONDS` and its body within :data:`BODY_SECONDS`
  (``408``); a body over :data:`MAX_BODY_BYTES` (the stdio wire's 4 MiB message cap) is refused
  with ``413`` — from its ``Content-Length`` before anything is read, else as soon as the bytes
  streamed in pass the cap.
- **Bounded connections and sessions**: at most
  :func:`webgrip.tools.mcp_connections.connection_cap` connections, the unauthenticated ones
  shed first (:mod:`webgrip.tools.mcp_connections`); sessions capped per client, the least
  recently used idle one ended to make room rather than a new client refused
  (:mod:`webgrip.tools.mcp_sessions`).
- **Cancellation**: a client that ends its session (``DELETE``), or drops the connection of a
  call in flight (:class:`_CancelOnDisconnect`), cancels that call's token; stopping the
  server (Ctrl-C, SIGTERM, :meth:`HttpServer.stop`) cancels every call in flight and waits at
  most :data:`webgrip.tools.mcp_server.GRACE_SECONDS` for them; after a signal the process
  leaves at most :data:`STOP_SECONDS` later whatever is still running.

The SDK, uvicorn and starlette are imported only when a server is built.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import os
import re
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..config import Config
from .mcp_connections import (
    Gate,
    QuietDisconnects,
    connection_cap,
    guarded_protocol,
    quiet_accept_errors,
    quiet_disconnect_logs,
)
from .mcp_sessions import MAX_SESSIONS, SESSION_IDLE_SECONDS, SessionTable
from .mcp_wire import HEAD_BYTES, MAX_MESSAGE_BYTES, head_id

if TYPE_CHECKING:
    import uvicorn

    from .mcp_server import Running

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

#: The environment variable holding the bearer token.
TOKEN_ENV = "WEBGRIP_MCP_TOKEN"
#: The environment variable listing more origins a browser may call from (``https://a.example,
#: http://b.example:8080``).
ORIGINS_ENV = "WEBGRIP_MCP_ORIGINS"
#: Where the MCP endpoint is served.
PATH = "/mcp"
#: The largest request body accepted: the stdio wire's message cap.
MAX_BODY_BYTES = MAX_MESSAGE_BYTES
#: How long a request body may take to arrive once its head has (then ``408``).
BODY_SECONDS = 30.0
#: The shortest token accepted: 128 bits in base64url (``secrets.token_urlsafe(16)``).
MIN_TOKEN_CHARS = 22
#: How long after Ctrl-C or SIGTERM the process leaves, whatever is still running: the
#: graceful shutdown and the calls' grace period fit in it.
STOP_SECONDS = 15.0
#: What a token may contain: RFC 6750's ``b64token`` (``secrets.token_urlsafe`` fits).
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
_TOKEN_HINT = 'make one with: python -c "import secrets; print(secrets.token_urlsafe(32))"'


def parse_address(text: str) -> tuple[str, int]:
    """``(host, port)`` from ``HOST:PORT``, ``[IPv6]:PORT`` or a bare ``PORT`` (host
    ``127.0.0.1``). Raises ``ValueError`` with a message for anything else."""
    text = text.strip()
    if text.isdigit():
        host, port_text = "127.0.0.1", text
    elif text.startswith("["):
        end = text.find("]")
        if end < 0 or not text.startswith(":", end + 1):
            raise ValueError(f"expected [IPv6]:PORT, e.g. [::1]:8766, not {text!r}")
        host, port_text = text[1:end], text[end + 2 :]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv6 address") from None
    else:
        host, sep, port_text = text.rpartition(":")
        if not sep or not host:
            raise ValueError(f"expected HOST:PORT, e.g. 127.0.0.1:8766, not {text!r}")
        if ":" in host:
            raise ValueError(f"an IPv6 address goes in brackets: [{host}]:{port_text}")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"the port must be a number from 0 to 65535, not {port_text!r}")
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) names this machine's loopback only."""
    host = host.strip("[]")
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # another name: it may resolve anywhere


def resolve_token(
    host: str, token: str | None = None, env: Mapping[str, str] | None = None
) -> tuple[str | None, bool]:
    """``(token, generated)``: the bearer token a server bound to ``host`` requires.

    ``token`` when given, else ``$WEBGRIP_MCP_TOKEN`` when set and not empty; else, off
    loopback, a new random one (``generated`` is then true: print it, once), and on loopback
    none. Raises ``ValueError`` for a token that cannot travel in a header or is shorter than
    :data:`MIN_TOKEN_CHARS`."""
    if token is None:
        token = (os.environ if env is None else env).get(TOKEN_ENV) or None
    if token is not None:
        if not _TOKEN_SHAPE.fullmatch(token):
            raise ValueError(
                f"the MCP token (${TOKEN_ENV}) must be letters, digits and "
                f"-._~+/ (then = padding), with no spaces; {_TOKEN_HINT}"
            )
        if len(token) < MIN_TOKEN_CHARS:
            raise ValueError(
                f"the MCP token (${TOKEN_ENV}) has {len(token)} characters; at least "
                f"{MIN_TOKEN_CHARS} (128 bits) are needed so that it cannot be guessed; "
                f"{_TOKEN_HINT}"
            )
        return token, False
    if is_loopback(host):
        return None, False
    return secrets.token_urlsafe(32), True


def parse_origins(text: str | Iterable[str]) -> frozenset[str]:
    """The origins in ``text`` (separated by commas or spaces) or an iterable of them, each
    ``http(s)://host[:port]``, in the lowercase form browsers send. Raises ``ValueError`` for
    anything else."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    origins = set()
    for item in items:
        origin = item.strip().lower().rstrip("/")
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            parts, port = None, None
        if (
            parts is None
            or parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.path
            or parts.query
            or parts.fragment
            or parts.username is not None
        ):
            raise ValueError(
                f"{item!r} is not an origin; write scheme://host[:port], "
                "e.g. https://app.example.com"
            )
        host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
        default = {"http": 80, "https": 443}[parts.scheme]
        origins.add(f"{parts.scheme}://{host}" + ("" if port in (None, default) else f":{port}"))
    return frozenset(origins)


def _reply(status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None) -> Any:
    body = text.encode()

    async def send_reply(send: Any) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    *(headers or []),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return send_reply


def _bearer_matches(headers: Sequence[tuple[bytes, bytes]], expected: bytes) -> bool:
    """Whether ``headers`` (lowercased names) hold one ``Authorization: Bearer <expected>``,
    compared in constant time."""
    values = [v for k, v in headers if k == b"authorization"]
    if len(values) != 1:
        return False
    scheme, _, given = values[0].strip().partition(b" ")
    return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), expected)


class _RequireToken:
    """ASGI middleware: ``401`` for an HTTP request without ``Authorization: Bearer <token>``
    (compared in constant time), before its body is read."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = token.encode("ascii")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not _bearer_matches(scope["headers"], self.expected):
            reply = _reply(
                401,
                "Unauthorized: send Authorization: Bearer <token>\n",
                [(b"www-authenticate", b'Bearer realm="webgrip"')],
            )
            await reply(send)
            return
        await self.app(scope, receive, send)


class _CheckOrigin:
    """ASGI middleware: ``403`` for a request whose ``Origin`` (sent by browsers) is not
    allowed: the MCP transport's rule against DNS rebinding, on every bind.

    Allowed: no ``Origin`` (not a browser); one of ``allowed``; a loopback page reaching the
    server through a loopback address (any port: a local tool's page); the server's own
    address and port, as the connection reached it. A page on any other name — the name a
    rebinding attack uses — is refused."""

    def __init__(self, app: Any, port: int, allowed: frozenset[str]) -> None:
        self.app = app
        self.port = port
        self.allowed = allowed

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            origins = [v for k, v in scope["headers"] if k == b"origin"]
            if origins and not self._allowed(origins, scope):
                reply = _reply(403, "Forbidden: this Origin may not call the MCP server\n")
                await reply(send)
                return
        await self.app(scope, receive, send)

    def _allowed(self, origins: list[bytes], scope: dict[str, Any]) -> bool:
        if len(origins) != 1:
            return False
        try:
            (origin,) = parse_origins(origins[0].decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            return False  # "null" (a sandboxed page or a file), or not an origin at all
        if origin in self.allowed:
            return True
        parts = urlsplit(origin)
        host = parts.hostname or ""
        local = str((scope.get("server") or ("",))[0])
        if is_loopback(host) and is_loopback(local):
            return True
        port = parts.port or {"http": 80, "https": 443}[parts.scheme]
        return port == self.port and _same_address(host, local)


def _same_address(a: str, b: str) -> bool:
    try:
        return ipaddress.ip_address(a.strip("[]")) == ipaddress.ip_address(b.strip("[]"))
    except ValueError:
        return False


class _ReadBody:
    """ASGI middleware: the request body read whole before the app sees it — within
    :data:`BODY_SECONDS` of the head (else ``408``) and up to :data:`MAX_BODY_BYTES` (else
    ``413``, from ``Content-Length`` before a byte is read when it says so) — then handed on
    in one piece. Both refusals close the connection."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.seconds = BODY_SECONDS
        self.limit = MAX_BODY_BYTES

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        import anyio

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        closing = [(b"connection", b"close")]
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await _reply(413, "Request body too large\n", closing)(send)
            return
        body = bytearray()
        with anyio.move_on_after(self.seconds) as timer:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client left before its body was whole: nothing to serve
                body += message.get("body", b"")
                if len(body) > self.limit:
                    await _reply(413, "Request body too large\n", closing)(send)
                    return
                if not message.get("more_body", False):
                    break
        if timer.cancelled_caught:
            text = f"Request Timeout: the body did not arrive within {self.seconds:g} s\n"
            await _reply(408, text, closing)(send)
            return
        pending = [{"type": "http.request", "body": bytes(body), "more_body": False}]

        async def replay() -> Any:
            return pending.pop(0) if pending else await receive()

        await self.app(scope, replay, send)


class _CancelOnDisconnect:
    """ASGI middleware: when the client of a POST carrying a request disconnects before the
    response ends, the session gets the ``notifications/cancelled`` the client did not send,
    so the call's token is cancelled — as over stdio when the client leaves. (The SDK keeps
    running a request whose connection is gone.)"""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        headers = dict(scope.get("headers") or ())
        if (
            scope["type"] != "http" or scope["method"] != "POST" or b"mcp-session-id" not in headers
        ):  # no session yet: an initialize
            await self.app(scope, receive, send)
            return
        head = bytearray()
        gone = finished = False

        async def watch_receive() -> Any:
            nonlocal gone
            message = await receive()
            if message["type"] == "http.request" and len(head) < HEAD_BYTES:
                head.extend(message.get("body", b"")[: HEAD_BYTES - len(head)])
            elif message["type"] == "http.disconnect":
                gone = True
            return message

        async def watch_send(message: Any) -> None:
            nonlocal finished
            if message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        try:
            await self.app(scope, watch_receive, watch_send)
        finally:
            if gone and not finished:
                ident = head_id(bytes(head))
                if ident is not None:
                    import anyio

                    with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                        await self._cancel(scope, ident)

    async def _cancel(self, scope: dict[str, Any], ident: Any) -> None:
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": ident, "reason": "the client disconnected"},
            }
        ).encode()
        keep = (b"host", b"origin", b"mcp-session-id", b"mcp-protocol-version")
        headers = [(k, v) for k, v in scope["headers"] if k in keep]
        headers += [
            (b"content-type", b"application/json"),
            (b"accept", b"application/json, text/event-stream"),
            (b"content-length", str(len(body)).encode()),
        ]
        pending = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> Any:
            return pending.pop() if pending else {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            pass

        await self.app(dict(scope, headers=headers), receive, send)


def _security(host: str, port: int, allowed: frozenset[str]) -> Any:
    """The SDK's transport security: ``Host`` and ``Origin`` checked on a loopback bind (the
    origins :class:`_CheckOrigin` lets through, so that the two agree)."""
    from mcp.server.transport_security import TransportSecuritySettings

    if not is_loopback(host):
        # Reached by other names than we can know; the bearer token guards it instead.
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    bound = f"[{host}]" if ":" in host else host
    names = sorted({"127.0.0.1", "localhost", "[::1]", bound})
    hosts = [f"{n}:{port}" for n in names] + (names if port == 80 else [])
    origins = [f"{scheme}://{n}:*" for scheme in ("http", "https") for n in names]
    origins += [f"{scheme}://{n}" for scheme in ("http", "https") for n in names]
    origins += sorted(allowed)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=128)


class HttpServer:
    """The MCP server bound to ``host:port`` (``0``: any free port, see :attr:`port`),
    serving when :meth:`run` is called, until :meth:`stop` or a signal.

    ``token`` and ``$WEBGRIP_MCP_TOKEN`` as in :func:`resolve_token` (``env`` replaces
    ``os.environ`` there); :attr:`token` is the one required, :attr:`generated` whether it
    was made up here. ``origins`` (default: ``$WEBGRIP_MCP_ORIGINS``, see
    :func:`parse_origins`) are the pages on other names a browser may call from;
    :attr:`gate` holds the open connections. For a test::

        server = HttpServer("127.0.0.1", 0, config=config)
        thread = threading.Thread(target=server.run); thread.start()
        ...  # connect to server.url
        server.stop(); thread.join()
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        config: Config | None = None,
        token: str | None = None,
        env: Mapping[str, str] | None = None,
        origins: Iterable[str] | None = None,
        tool_names: Sequence[str] | None = None,
    ) -> None:
        from .mcp_server import GRACE_SECONDS, Running, build_server, load_sdk
        from .toolbox import Tools

        load_sdk()  # fail with the install hint before binding anything
        try:
            import uvicorn
        except ImportError as exc:
            raise ImportError(
                "webgrip mcp --http needs uvicorn, which is not installed; "
                "install it with: pip install 'webgrip[mcp]'"
            ) from exc
        if config is None:
            load = getattr(Config, "load", None)
            config = load() if load is not None else Config.from_env()
        if origins is None:
            listed = (os.environ if env is None else env).get(ORIGINS_ENV, "")
            try:
                origins = parse_origins(listed)
            except ValueError as exc:
                raise ValueError(f"${ORIGINS_ENV}: {exc}") from None
        allowed = parse_origins(origins)
        self._sock = _bind(host, port)
        try:
            bound_host, self.port = self._sock.getsockname()[:2]
            self.host = host
            # Loopback is decided by the address bound, not the name asked for.
            self.token, self.generated = resolve_token(bound_host, token, env)
            self.loopback = is_loopback(bound_host)
            self.running = Running()
            server = build_server(Tools(config, tool_names=tool_names), self.running)
            app, self._end_sessions = _app(server, _security(bound_host, self.port, allowed))
            asgi: Any = _ReadBody(app)
            if self.token is not None:
                asgi = _RequireToken(asgi, self.token)
            asgi = QuietDisconnects(_CheckOrigin(asgi, self.port, allowed))
            quiet_disconnect_logs()
            expected = None if self.token is None else self.token.encode("ascii")
            cap = connection_cap()
            self.gate = Gate(
                cap, lambda headers: expected is None or _bearer_matches(headers, expected)
            )
            settings = uvicorn.Config(
                asgi,
                http=guarded_protocol(self.gate),
                lifespan="on",
                log_config=None,
                log_level="warning",
                access_log=False,
                proxy_headers=False,
                server_header=False,
                ws="none",
                timeout_graceful_shutdown=int(GRACE_SECONDS),
                # asyncio accepts up to this many connections at a time before any is
                # admitted or shed: no more than the cap, so that they fit in the
                # descriptors left (the cap is a quarter of them at most).
                backlog=cap,
            )
            self._stop_asked = threading.Event()  # set by a stop signal
            self._uvicorn = _server_class()(
                settings, self.running, self._end_sessions, self._stop_asked
            )
        except BaseException:
            self._sock.close()
            raise
        self._ran = False

    @property
    def url(self) -> str:
        """The endpoint's URL (``http://host:port/mcp``; on a wildcard bind, its loopback
        form)."""
        host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}{PATH}"

    def run(self) -> int:
        """Serve until :meth:`stop`, Ctrl-C or SIGTERM (signals only when called on the main
        thread). Then cancel the calls still running and wait up to the grace period for them;
        returns how many are still running (blocked on the network)."""
        from .mcp_server import GRACE_SECONDS

        if self._ran:
            raise RuntimeError("an HttpServer runs once")
        self._ran = True
        finished = threading.Event()
        if threading.current_thread() is threading.main_thread():
            # Started now, not when the signal comes: a process out of resources may not be
            # able to start a thread then.
            watchdog = threading.Thread(
                target=_leave_when_stuck,
                args=(self._stop_asked, finished),
                name="webgrip-mcp-stop",
                daemon=True,
            )
            watchdog.start()
        try:
            try:
                self._uvicorn.run(sockets=[self._sock])
            finally:
                self._sock.close()
            return self.running.stop(GRACE_SECONDS)
        finally:
            finished.set()
            self._stop_asked.set()  # lets the watchdog end

    def stop(self) -> None:
        """Ask :meth:`run` to return (from any thread): no new connections, calls in flight
        cancelled, open streams closed."""
        self._uvicorn.should_exit = True

    @property
    def started(self) -> bool:
        """Whether the server has started serving (requests queue in the listening socket
        before that)."""
        return bool(self._uvicorn.started)


def _leave_when_stuck(stop_asked: threading.Event, finished: threading.Event) -> None:
    """Once a stop signal came, give the server :data:`STOP_SECONDS` to finish, then leave the
    process: stopping must not depend on anything the server is still waiting for."""
    stop_asked.wait()
    if finished.wait(STOP_SECONDS):
        return
    note = f"webgrip mcp: the server did not stop within {STOP_SECONDS:g} s; leaving anyway\n"
    # Written from a thread of its own: a stderr nobody reads (a full pipe) must not hold the
    # exit up.
    writer = threading.Thread(target=_write_stderr, args=(note,), daemon=True)
    writer.start()
    writer.join(1.0)
    os._exit(0)


def _write_stderr(text: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(text)
        sys.stderr.flush()


def _app(server: Any, security: Any) -> tuple[Any, Callable[[], None]]:
    """The ASGI app serving ``server`` at :data:`PATH`, and a function ending every session
    (their calls cancelled, their streams closed) ahead of the app's shutdown."""
    import anyio
    from mcp.server.streamable_http_manager import (
        StreamableHTTPASGIApp,
        StreamableHTTPSessionManager,
    )
    from starlette.applications import Starlette
    from starlette.routing import Route

    manager = StreamableHTTPSessionManager(
        app=server,
        security_settings=security,
        max_request_body_size=MAX_BODY_BYTES,
        session_idle_timeout=SESSION_IDLE_SECONDS,
        max_sessions=None,  # the SessionTable below caps them, per client
    )
    stops: list[Any] = []  # the event ending the manager's run, once the app has started

    def end_sessions() -> None:
        for stop in stops:
            stop.set()

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        # The manager runs in a task of its own, so that its sessions can end when the server
        # starts stopping: uvicorn waits for open responses (a call's stream, the client's GET
        # stream) to finish before it shuts the app down.
        done = anyio.Event()
        stops.append(done)

        async def hold(*, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
            async with manager.run():
                task_status.started()
                await done.wait()

        async with anyio.create_task_group() as tasks:
            await tasks.start(hold)
            try:
                yield
            finally:
                done.set()

    endpoint = SessionTable(_CancelOnDisconnect(StreamableHTTPASGIApp(manager)))
    app = Starlette(routes=[Route(PATH, endpoint=endpoint)], lifespan=lifespan)
    return app, end_sessions


def _server_class() -> Callable[
    [uvicorn.Config, Running, Callable[[], None], threading.Event], uvicorn.Server
]:
    import uvicorn  # imported already by the caller, which gives the install hint without it

    class _Uvicorn(uvicorn.Server):
        """uvicorn's server, ending sessions and calls first on shutdown, and not re-raising
        the signal that stopped it."""

        def __init__(
            self,
            settings: uvicorn.Config,
            running: Running,
            end_sessions: Callable[[], None],
            stop_asked: threading.Event,
        ) -> None:
            super().__init__(settings)
            self._running = running
            self._end_sessions = end_sessions
            self._stop_asked = stop_asked

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn re-raises a caught signal after shutting down (SIGTERM would then kill
            # the process before the calls are waited for): stop instead, and return.
            if threading.current_thread() is not threading.main_thread():
                yield
                return

            def handle(sig: int, frame: Any) -> None:
                if self.should_exit and sig == signal.SIGINT:
                    self.force_exit = True  # a second Ctrl-C: stop waiting for connections
                self.should_exit = True
                self._stop_asked.set()  # the watchdog's clock starts

            previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            asyncio.get_running_loop().set_exception_handler(quiet_accept_errors(_write_stderr))
            await super().startup(sockets=sockets)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            self._running.stop(0)  # cancel the tokens of the calls in flight; no waiting here
            self._end_sessions()
            await super().shutdown(sockets=sockets)

    return _Uvicorn


def serve_http(
    host: str,
    port: int,
    *,
    config: Config | None = None,
    token: str | None = None,
    tool_names: Sequence[str] | None = None,
    origins: Iterable[str] | None = None,
) -> None:
    """Run the MCP server over streamable HTTP at ``http://host:port/mcp`` with ``config``
    (default: file + environment) until Ctrl-C or SIGTERM. Blocks.

    Off loopback a bearer token is required: ``token``, else ``$WEBGRIP_MCP_TOKEN``, else a
    generated one printed to stderr. ``origins``: the pages on other names a browser may call
    from (default ``$WEBGRIP_MCP_ORIGINS``). Raises ``ImportError`` without the ``mcp`` extra,
    ``ValueError`` for a bad token or origin and ``OSError`` when the address cannot be
    bound."""
    server = HttpServer(
        host, port, config=config, token=token, tool_names=tool_names, origins=origins
    )
    out = sys.stderr
    where = " (every interface)" if host in ("", "0.0.0.0", "::") else ""
    out.write(f"webgrip mcp: serving MCP over streamable HTTP at {server.url}{where}\n")
    if server.generated:
        out.write(f"webgrip mcp: bearer token (set {TOKEN_ENV} to choose it): {server.token}\n")
    elif server.token is not None:
        out.write(f"webgrip mcp: requests need the bearer token from {TOKEN_ENV}\n")
    else:
        out.write("webgrip mcp: loopback only, no token required\n")
    out.flush()
    left = server.run()
    if left:
        out.write(
            f"webgrip mcp: stopped; {left} call(s) still blocked on the network were abandoned\n"
        )
        out.flush()
        os._exit(0)
