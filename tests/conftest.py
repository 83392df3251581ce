"""Shared fixtures: a loopback-opened config, and hand-written servers for hostile behaviour.

Tests never touch the internet. They open loopback *explicitly* with ``allow_networks``
(the default policy refuses it) and talk to servers they start themselves.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

import pytest
from webgrip import Config

#: What the tests open on purpose: loopback only, and no politeness delay.
LOOPBACK_NETWORKS = ("127.0.0.0/8", "::1/128")


def loopback_config(**overrides) -> Config:
    """A ``Config`` that may reach loopback servers (and nothing else beyond the defaults)."""
    values = {"allow_networks": LOOPBACK_NETWORKS, "rate_limit_seconds": 0}
    values.update(overrides)
    return Config(**values)


@pytest.fixture
def loopback() -> Config:
    """The loopback-opened ``Config`` (see :func:`loopback_config`)."""
    return loopback_config()


@pytest.fixture
def web(loopback):
    """A ``WebClient`` on the loopback-opened config."""
    from webgrip import WebClient

    with WebClient(loopback) as client:
        yield client


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
    at will (drip, lie, hang). Without a handler the server accepts and closes: a tripwire.
    ``connections`` counts accepted connections and ``requests`` keeps each request head, so
    tests can assert that nothing reached a server.
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
            with contextlib.suppress(OSError):
                self.handler(conn, head)

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


@pytest.fixture
def raw_server() -> Iterator[Callable[..., RawServer]]:
    """Factory: ``raw_server(handler=None, host="127.0.0.1", port=0)``; all closed at teardown."""
    servers: list[RawServer] = []

    def make(handler: Handler | None = None, host: str = "127.0.0.1", port: int = 0) -> RawServer:
        server = RawServer(handler, host, port)
        servers.append(server)
        return server

    yield make
    for s in servers:
        s.close()


# --- TLS -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def tls_ca():
    """A throwaway CA (trustme) and a server certificate for localhost/127.0.0.1/::1."""
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    return ca, ca.issue_cert("localhost", "127.0.0.1", "::1")


@pytest.fixture
def ca_bundle(tls_ca, tmp_path) -> str:
    """Path of a PEM file with the test CA, for ``Config(ca_bundle=...)``."""
    ca, _ = tls_ca
    path = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return str(path)


@pytest.fixture
def https_server(tls_ca):
    """A pytest-httpserver ``HTTPServer`` speaking TLS with a certificate of the test CA."""
    import ssl

    from pytest_httpserver import HTTPServer

    _, cert = tls_ca
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(ctx)
    server = HTTPServer(host="127.0.0.1", ssl_context=ctx)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver listens on 127.0.0.1 (an address, not the name ``localhost``)."""
    return ("127.0.0.1", 0)


# --- opt-in benchmarks (tests/bench, see _bench_support.py) ----------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from _bench_support import deselect_unless_asked

    deselect_unless_asked(config, items)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    from _bench_support import terminal_summary

    terminal_summary(terminalreporter)


@pytest.fixture
def bench(request: pytest.FixtureRequest):
    """Times a callable over rounds and reports the median (benchmarks only)."""
    from _bench_support import Bench

    return Bench(request.node.name)
