"""Loopback configs and a raw-socket HTTP server whose replies are written by hand.

Tests never touch the internet. They open loopback *explicitly* with ``allow_networks``
(the default policy refuses it) and talk to servers they start themselves.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from webgrip import Config

#: What the tests open on purpose: loopback only.
LOOPBACK_NETWORKS = ("127.0.0.0/8", "::1/128")


def loopback_config(tmp_path: Path | None = None, **overrides) -> Config:
    """A ``Config`` that may reach loopback servers (and nothing else beyond the defaults),
    with no politeness delay and a 10 s timeout; downloads go into ``tmp_path`` when given."""
    values = {"allow_networks": LOOPBACK_NETWORKS, "rate_limit_seconds": 0, "timeout": 10.0}
    if tmp_path is not None:
        values["download_dirs"] = (str(tmp_path),)
    values.update(overrides)
    return Config(**values)


def wait_until(condition: Callable[[], object], timeout: float = 15.0) -> bool:
    """Whether ``condition()`` came true within ``timeout`` seconds (checked every 10 ms)."""
    tick = threading.Event()  # never set: its timed wait is the pause between checks
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        tick.wait(0.01)
    return True


# --- raw-socket servers --------------------------------------------------------------------

Handler = Callable[[socket.socket, bytes], None]


def read_head(conn: socket.socket, limit: int = 65536) -> bytes:
    """Read one request head (up to the blank line); whatever arrived if the peer stops."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < limit:
        try:
            chunk = conn.recv(4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


def http_response(
    status: int = 200,
    body: bytes = b"",
    headers: dict[str, str] | list[tuple[str, str]] | None = None,
    *,
    reason: str = "X",
    content_length: bool = True,
) -> bytes:
    """Bytes of a complete HTTP/1.1 response (``Connection: close``)."""
    items = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
    if content_length and not any(k.lower() == "content-length" for k, _ in items):
        items.append(("Content-Length", str(len(body))))
    items.append(("Connection", "close"))
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in items)
    return head.encode("latin-1") + b"\r\n" + body


class RawServer:
    """A TCP server on a loopback address whose replies are written by hand.

    ``handler(conn, request_head)`` runs in its own thread per connection and may misbehave
    at will (drip, lie, hang); the connection is shut down and closed when it returns.
    Without a handler the server accepts and closes: a tripwire. ``connections`` counts
    accepted connections, ``hits`` those that sent a request, and ``requests`` keeps each
    request head, so tests can assert that nothing reached a server. ``close()`` also closes
    the connections still open, so a handler that hangs ends with the test.
    """

    def __init__(self, handler: Handler | None = None, host: str = "127.0.0.1", port: int = 0):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.host = host
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(128)
        self.port: int = self.sock.getsockname()[1]
        self.handler = handler
        self.connections = 0
        self.hits = 0
        self.requests: list[bytes] = []
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._conns: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def authority(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return f"http://{self.authority}{path}"

    def _serve(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
                self._conns.append(conn)
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with contextlib.closing(conn):
            if self.handler is None:
                return
            conn.settimeout(30)
            head = read_head(conn)
            with self._lock:
                self.requests.append(head)
                if head:
                    self.hits += 1
            with contextlib.suppress(OSError):
                self.handler(conn, head)
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._closed.set()
        with contextlib.suppress(OSError):
            self.sock.close()
        with self._lock:
            for c in self._conns:
                with contextlib.suppress(OSError):
                    c.close()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def reply(status: int = 200, body: bytes = b"", headers=None, **kw) -> Handler:
    """A handler that sends one fixed response."""
    data = http_response(status, body, headers, **kw)

    def handle(conn: socket.socket, _head: bytes) -> None:
        conn.sendall(data)

    return handle
