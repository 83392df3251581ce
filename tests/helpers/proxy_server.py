"""Test helper: a small upstream proxy (HTTP CONNECT or SOCKS5) on loopback that records what
it was asked to connect to, then relays bytes. Threaded; started and stopped by the test.

``targets`` lists every destination asked for, as the client spelled it (``127.0.0.1:8080``
for CONNECT, ``ipv4 127.0.0.1:8080`` / ``domain name:80`` for SOCKS5), so a test can check
that only checked IP literals ever reach a proxy. ``connections`` counts accepted sockets
(a refusal before the proxy is contacted leaves it at 0).
"""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import select
import socket
import ssl
import struct
import threading


class RecordingProxy:
    """``kind`` is ``"http"`` (CONNECT) or ``"socks5"``; ``auth`` ``(user, password)`` makes
    credentials required; ``tls`` (a server ``SSLContext``) makes it an ``https://`` proxy;
    CONNECT targets in ``refuse`` get a 502 (SOCKS5: reply 5, connection refused)."""

    def __init__(
        self,
        kind: str = "http",
        *,
        auth: tuple[str, str] | None = None,
        tls: ssl.SSLContext | None = None,
        refuse: frozenset[str] = frozenset(),
    ):
        self.kind = kind
        self.auth = auth
        self.tls = tls
        self.refuse = refuse
        self.targets: list[str] = []
        self.auth_seen: list[str | None] = []
        self.connections = 0
        self._lock = threading.Lock()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.05)
        self.port = self._sock.getsockname()[1]
        self._stop = threading.Event()
        self._open: list[socket.socket] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def url(self, user_info: str = "") -> str:
        scheme = "https" if self.tls else self.kind
        at = f"{user_info}@" if user_info else ""
        return f"{scheme}://{at}127.0.0.1:{self.port}"

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close()
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.close()

    def __enter__(self) -> RecordingProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- serving ---------------------------------------------------------------------------

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (TimeoutError, OSError):
                continue
            with self._lock:
                self.connections += 1
                self._open.append(conn)
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        try:
            if self.tls is not None:
                conn = self.tls.wrap_socket(conn, server_side=True)
                with self._lock:
                    self._open.append(conn)
            upstream = self._socks5(conn) if self.kind == "socks5" else self._connect(conn)
            if upstream is not None:
                self._relay(conn, upstream)
        except (OSError, ValueError, ssl.SSLError):
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.close()

    def _record(self, target: str) -> None:
        with self._lock:
            self.targets.append(target)

    def _dial(self, host: str, port: int) -> socket.socket | None:
        try:
            up = socket.create_connection((host, port), timeout=5)
        except OSError:
            return None
        with self._lock:
            self._open.append(up)
        return up

    def _connect(self, conn: socket.socket) -> socket.socket | None:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = conn.recv(4096)
            if not chunk:
                return None
            head += chunk
        lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = {
            k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])
        }
        self._record(target)
        given = headers.get("proxy-authorization")
        with self._lock:
            self.auth_seen.append(given)
        if self.auth is not None:
            want = "Basic " + base64.b64encode(":".join(self.auth).encode()).decode()
            if given != want:
                conn.sendall(
                    b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                    b'Proxy-Authenticate: Basic realm="test"\r\n'
                    b"Content-Length: 0\r\n\r\n"
                )
                return None
        if method != "CONNECT" or target in self.refuse:
            conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return None
        host, _, port = target.rpartition(":")
        up = self._dial(host.strip("[]"), int(port))
        if up is None:
            conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return None
        conn.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        return up

    def _recv_exact(self, conn: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ValueError("closed")
            data += chunk
        return data

    def _socks5(self, conn: socket.socket) -> socket.socket | None:
        version, count = self._recv_exact(conn, 2)
        methods = self._recv_exact(conn, count)
        if version != 5:
            return None
        want = 2 if self.auth is not None else 0
        if want not in methods:
            conn.sendall(b"\x05\xff")
            return None
        conn.sendall(bytes([5, want]))
        if want == 2:
            _, ulen = self._recv_exact(conn, 2)
            user = self._recv_exact(conn, ulen).decode()
            (plen,) = self._recv_exact(conn, 1)
            password = self._recv_exact(conn, plen).decode()
            with self._lock:
                self.auth_seen.append(f"{user}:{password}")
            if (user, password) != self.auth:
                conn.sendall(b"\x01\x01")
                return None
            conn.sendall(b"\x01\x00")
        _, cmd, _, atyp = self._recv_exact(conn, 4)
        if atyp == 1:
            host = str(ipaddress.IPv4Address(self._recv_exact(conn, 4)))
            kind = "ipv4"
        elif atyp == 4:
            host = str(ipaddress.IPv6Address(self._recv_exact(conn, 16)))
            kind = "ipv6"
        else:
            (n,) = self._recv_exact(conn, 1)
            host = self._recv_exact(conn, n).decode()
            kind = "domain"
        (port,) = struct.unpack("!H", self._recv_exact(conn, 2))
        target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self._record(f"{kind} {target}")
        up = None if cmd != 1 or target in self.refuse else self._dial(host, port)
        code = 0 if up is not None else 5
        conn.sendall(bytes([5, code, 0, 1, 0, 0, 0, 0, 0, 0]))
        return up

    def _relay(self, a: socket.socket, b: socket.socket) -> None:
        """Copy both ways on this one thread (an ``SSLSocket`` must not be read and written
        from two threads at once) until either side closes or the proxy stops."""
        other = {a: b, b: a}
        try:
            while not self._stop.is_set():
                ready = [s for s in (a, b) if isinstance(s, ssl.SSLSocket) and s.pending()]
                if not ready:
                    ready, _, _ = select.select([a, b], [], [], 0.05)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    other[s].sendall(data)
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                b.close()
