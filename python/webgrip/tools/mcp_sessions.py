"""The sessions of ``webgrip mcp --http`` bounded per client: a client that opens one session
too many ends its own least recently used idle one, and a full server ends an idle session of
the client holding the most, rather than refusing the newcomer.

The SDK's session manager counts sessions globally and answers ``503`` to every new client once
the count is reached, until a session ends or idles out (30 minutes by default): a hundred
``initialize`` requests, which need no token on loopback, locked everyone out for that long.
:class:`SessionTable` sits in front of the manager (whose own cap is then switched off) and
keeps, per session, its client, when it was last used and how many requests it has in flight
(an open event stream counts as one). When a new session would pass
:data:`MAX_SESSIONS_PER_CLIENT` for its client, or :data:`MAX_SESSIONS` in all, the least
recently used idle session goes — of that client, or else of the client holding the most — ended
the way a client ends its own (a ``DELETE`` handed to the manager): its id then answers ``404``,
which tells an MCP client to start a new session. Only when every session that could make room
is busy is the newcomer refused (``503``). Idle sessions also end after
:data:`SESSION_IDLE_SECONDS` (the manager's timer).

A client is its IP address (IPv6: its ``/64``, the block one host usually holds). Behind one
address — every local process on a loopback bind — clients share their quota.
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_SESSIONS", "MAX_SESSIONS_PER_CLIENT", "SESSION_IDLE_SECONDS", "SessionTable"]

#: Sessions open at once, across clients.
MAX_SESSIONS = 128
#: Sessions open at once for one client (address).
MAX_SESSIONS_PER_CLIENT = 32
#: A session with no request in flight for this long is closed (its id then answers ``404``).
SESSION_IDLE_SECONDS = 10 * 60.0

_SESSION_HEADER = b"mcp-session-id"
# What a session's own requests carry that ending it needs: the transport checks them.
_KEPT_HEADERS = (b"host", _SESSION_HEADER, b"mcp-protocol-version")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]


@dataclass
class _Session:
    client: str
    headers: list[tuple[bytes, bytes]]
    last_used: float = field(default_factory=time.monotonic)
    busy: int = 0  # requests in flight (an open event stream is one)


def client_of(scope: Scope) -> str:
    """Who a request comes from, for the quota: its IP address, or an IPv6 address's ``/64``."""
    client = scope.get("client")
    address = client[0] if client else ""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class SessionTable:
    """ASGI middleware in front of the SDK's session manager ``app``: the quotas above.

    ``limit`` and ``per_client`` replace :data:`MAX_SESSIONS` and
    :data:`MAX_SESSIONS_PER_CLIENT`, ``idle_seconds`` :data:`SESSION_IDLE_SECONDS` (pass the same
    to the manager, which does the closing)."""

    def __init__(
        self,
        app: Any,
        *,
        limit: int | None = None,
        per_client: int | None = None,
        idle_seconds: float | None = None,
    ) -> None:
        self.app = app
        self.limit = MAX_SESSIONS if limit is None else limit
        self.per_client = min(
            MAX_SESSIONS_PER_CLIENT if per_client is None else per_client, self.limit
        )
        self.idle_seconds = SESSION_IDLE_SECONDS if idle_seconds is None else idle_seconds
        self.sessions: dict[bytes, _Session] = {}
        self.evicted = 0  # sessions ended to make room (for diagnostics and tests)
        self._opening: Counter[str] = Counter()  # admitted, their session id not yet known
        self._lock: Any = None  # an anyio.Lock, made on first use inside the event loop

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sid = dict(scope["headers"]).get(_SESSION_HEADER)
        if sid is not None:
            await self._serve_session(sid, scope, receive, send)
        elif scope["method"] == "POST":
            await self._serve_opening(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _serve_session(self, sid: bytes, scope: Scope, receive: Receive, send: Send) -> None:
        session = self.sessions.get(sid)
        if session is None:  # unknown, ended or expired: the manager answers 404
            await self.app(scope, receive, send)
            return
        session.busy += 1
        session.headers = _kept(scope)
        status: list[int] = []

        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            session.busy -= 1
            session.last_used = time.monotonic()
            ended = status == [404] or (scope["method"] == "DELETE" and status and status[0] < 300)
            if ended and self.sessions.get(sid) is session:
                del self.sessions[sid]

    async def _serve_opening(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_of(scope)
        if not await self._admit(client):
            await _too_many(send)
            return
        opened: list[bytes] = []

        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400 and not opened:
                sid = dict(message.get("headers") or ()).get(_SESSION_HEADER)
                if sid is not None:
                    opened.append(sid)
                    session = _Session(client, _kept(scope, sid), busy=1)
                    self.sessions[sid] = session
                    self._opening[client] -= 1
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if opened:
                session = self.sessions.get(opened[0])
                if session is not None:
                    session.busy -= 1
                    session.last_used = time.monotonic()
            else:
                self._opening[client] -= 1
            if self._opening[client] <= 0:
                del self._opening[client]

    async def _admit(self, client: str) -> bool:
        """Whether ``client`` may open one more session, after ending idle ones to make room;
        counted as opening when so."""
        import anyio

        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            self._forget_expired()
            while True:
                mine = [s for s in self.sessions.values() if s.client == client]
                if len(mine) + self._opening[client] < self.per_client:
                    break
                victim = _least_recent_idle(mine)
                if victim is None:
                    return False
                await self._end(victim)
            while len(self.sessions) + sum(self._opening.values()) >= self.limit:
                held = Counter(s.client for s in self.sessions.values())
                idle = [s for s in self.sessions.values() if not s.busy]
                if not idle:
                    return False
                await self._end(min(idle, key=lambda s: (-held[s.client], s.last_used)))
            self._opening[client] += 1
            return True

    def _forget_expired(self) -> None:
        # The manager closed these already (same idle period); they no longer count.
        cutoff = time.monotonic() - self.idle_seconds
        for sid, session in list(self.sessions.items()):
            if not session.busy and session.last_used < cutoff:
                del self.sessions[sid]

    async def _end(self, session: _Session) -> None:
        """End ``session`` as its client would: a ``DELETE`` with its id, handed to the
        manager (which then answers ``404`` to that id)."""
        sid = dict(session.headers)[_SESSION_HEADER]
        self.sessions.pop(sid, None)
        self.evicted += 1
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "DELETE",
            "scheme": "http",
            "path": "",
            "raw_path": b"",
            "root_path": "",
            "query_string": b"",
            "headers": session.headers,
            "client": None,
            "server": None,
            "state": {},
        }
        sent = False

        async def receive() -> Any:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}

        async def discard(message: Any) -> None:
            pass

        await self.app(scope, receive, discard)


def _kept(scope: Scope, sid: bytes | None = None) -> list[tuple[bytes, bytes]]:
    kept = [(k, v) for k, v in scope["headers"] if k in _KEPT_HEADERS and k != _SESSION_HEADER]
    session = sid if sid is not None else dict(scope["headers"]).get(_SESSION_HEADER)
    return kept + ([(_SESSION_HEADER, session)] if session is not None else [])


def _least_recent_idle(sessions: list[_Session]) -> _Session | None:
    idle = [s for s in sessions if not s.busy]
    return min(idle, key=lambda s: s.last_used) if idle else None


async def _too_many(send: Send) -> None:
    body = (
        b'{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":'
        b'"Too many sessions in use; try again when one ends"}}'
    )
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"5"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
