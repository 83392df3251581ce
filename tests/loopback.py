"""Test helpers: loopback configs and a raw-socket HTTP server for misbehaving responses."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from webgrip import Config

LOOPBACK = ("127.0.0.0/8", "::1/128")


def loopback_config(tmp_path: Path | None = None, **changes) -> Config:
    """A config that may reach loopback servers, with no rate limit, downloads into tmp_path."""
    values = {"allow_networks": LOOPBACK, "rate_limit_seconds": 0, "timeout": 10.0}
    if tmp_path is not None:
        values["download_dirs"] = (str(tmp_path),)
    values.update(changes)
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


class RawServer:
    """Accepts connections on 127.0.0.1 and hands each socket to ``handler`` in a thread.

    The handler reads the request itself (``read_request``) and writes whatever bytes it
    wants, then the connection is closed. ``hits`` counts connections that sent a request.
    """

    def __init__(self, handler: Callable[[socket.socket, bytes], None]):
        self.handler = handler
        self.hits = 0
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.port = self._sock.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            request = read_request(conn)
            if request:
                self.hits += 1
                self.handler(conn, request)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._sock.close()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_request(conn: socket.socket) -> bytes:
    conn.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data
