"""A chaos HTTP server on loopback: one misbehaviour per path, plus TLS ports that stall.

Used by the per-behaviour tests (tests/security/test_chaos.py, in-process) and by the soak
(benches/soak.py, in its own process so that the client's descriptors, threads and memory
are measured alone). Raw sockets, one thread per connection: every reply is written by hand
so that it can be as broken as a real hostile server's.

    python tests/helpers/chaos_server.py   # prints {"http": port, "tls": {...}, "ca": path}
                                           # on one line, serves until stdin closes

Every behaviour is in :data:`BEHAVIOURS` (path -> handler); ``/ok`` and ``/file`` answer
properly so that a mix of good and bad replies goes through the same client. TLS ports:
``full`` speaks TLS and then serves the same paths; ``silent`` reads the ClientHello and
never answers; ``half`` sends the first half of the server's handshake flight then stalls;
``half-reset`` sends that half then resets the connection.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import ssl
import struct
import sys
import tempfile
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

MiB = 1024 * 1024

#: How long a stalling handler keeps a connection open at most (the clients' deadlines are
#: far shorter; this only bounds the server's own threads).
STALL_SECONDS = 120.0

Handler = Callable[["Conn"], None]


class Conn:
    """One accepted connection: the socket, the request head, and the server's stop flag."""

    def __init__(self, sock: socket.socket, head: bytes, stop: threading.Event):
        self.sock = sock
        self.head = head
        self.stop = stop

    @property
    def path(self) -> str:
        parts = self.head.split(b" ", 2)
        return parts[1].decode("latin-1") if len(parts) > 1 else "/"

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def wait(self, seconds: float) -> bool:
        """Sleep ``seconds`` unless the server stops; True if it stopped."""
        return self.stop.wait(seconds)

    def stall(self) -> None:
        self.wait(STALL_SECONDS)

    def reset(self) -> None:
        """Abort with a TCP RST (SO_LINGER 0) instead of a clean FIN."""
        with contextlib.suppress(OSError):
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def head(
    status: str = "200 OK", headers: list[tuple[str, str]] | None = None, length: int | None = None
) -> bytes:
    lines = [f"HTTP/1.1 {status}"]
    lines += [f"{k}: {v}" for k, v in headers or []]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


PAGE = (
    b"<!doctype html><html><head><title>chaos ok</title></head><body><main><h1>Fine</h1>"
    + b"<p>This page is served properly by the chaos server.</p>" * 20
    + b"</main></body></html>"
)
FILE = bytes(range(256)) * 64


# --- bombs (built once, lazily) --------------------------------------------------------------

_bombs: dict[str, bytes] = {}
_bomb_lock = threading.Lock()


def deflate_of_zeros(mib: int) -> bytes:
    """Raw deflate of ``mib`` MiB of zeros, built in milliseconds: after a full flush the
    compressor forgets its history, so every further MiB compresses to the same bytes."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(MiB)
    first = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    again = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    return first + again * (mib - 1) + comp.flush()


def _checksum(fn: Callable[[bytes, int], int], start: int, mib: int) -> int:
    chunk, value = bytes(MiB), start
    for _ in range(mib):
        value = fn(chunk, value)
    return value


def gzip_of_zeros(mib: int) -> bytes:
    trailer = struct.pack("<II", _checksum(zlib.crc32, 0, mib), (mib * MiB) & 0xFFFFFFFF)
    return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + deflate_of_zeros(mib) + trailer


def zlib_of_zeros(mib: int) -> bytes:
    return b"\x78\xda" + deflate_of_zeros(mib) + struct.pack(">I", _checksum(zlib.adler32, 1, mib))


def bomb(kind: str) -> bytes:
    """A small body that inflates to hundreds of MiB of zeros (``nested``: gzip in gzip)."""
    with _bomb_lock:
        if kind not in _bombs:
            if kind == "gzip":
                data = gzip_of_zeros(256)
            elif kind == "deflate":
                data = zlib_of_zeros(256)
            elif kind == "br":
                import brotli

                comp = brotli.Compressor(quality=1)
                chunk = bytes(MiB)
                data = b"".join([*(comp.process(chunk) for _ in range(512)), comp.finish()])
            elif kind == "nested":  # 512 MiB of zeros behind two gzip layers
                data = gzip.compress(gzip_of_zeros(512), 9)
            else:
                raise ValueError(kind)
            _bombs[kind] = data
        return _bombs[kind]


# --- behaviours --------------------------------------------------------------------------------


def ok(c: Conn) -> None:
    c.send(head(headers=[("Content-Type", "text/html; charset=utf-8")], length=len(PAGE)) + PAGE)


def file(c: Conn) -> None:
    c.send(
        head(
            headers=[
                ("Content-Type", "application/octet-stream"),
                ("Content-Disposition", 'attachment; filename="chaos.bin"'),
            ],
            length=len(FILE),
        )
        + FILE
    )


def reset_in_headers(c: Conn) -> None:
    c.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/ht")
    c.reset()


def reset_in_body(c: Conn) -> None:
    c.send(head(headers=[("Content-Type", "text/html")], length=100_000) + PAGE[:500])
    c.reset()


def close_in_body(c: Conn) -> None:
    c.send(head(headers=[("Content-Type", "text/html")], length=100_000) + PAGE[:500])


def _chunked_head() -> bytes:
    return head(headers=[("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")])


def chunked_truncated(c: Conn) -> None:
    c.send(_chunked_head() + b"100\r\n" + b"a" * 100)  # promised 256 bytes, then FIN


def chunked_no_terminator(c: Conn) -> None:
    c.send(_chunked_head() + b"5\r\nhello\r\n")  # no 0-chunk, then FIN


def chunked_bad_size(c: Conn) -> None:
    c.send(_chunked_head() + b"zz\r\nhello\r\n0\r\n\r\n")


def chunked_huge_size(c: Conn) -> None:
    c.send(_chunked_head() + b"ffffffffffffffffffff\r\nhello\r\n0\r\n\r\n")


def chunked_bad_crlf(c: Conn) -> None:
    c.send(_chunked_head() + b"5\r\nhelloXX3\r\nabc\r\n0\r\n\r\n")


def conflicting_lengths(c: Conn) -> None:
    c.send(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n"
        b"Content-Length: 50\r\nConnection: close\r\n\r\n" + b"x" * 50
    )


def length_and_chunked(c: Conn) -> None:
    c.send(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 3\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
    )


def negative_length(c: Conn) -> None:
    c.send(b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\nConnection: close\r\n\r\nabc")


def many_headers(c: Conn) -> None:
    c.send(
        b"HTTP/1.1 200 OK\r\n"
        + b"".join(b"X-H%d: v\r\n" % i for i in range(100_000))
        + b"Content-Length: 2\r\n\r\nok"
    )


def huge_header_line(c: Conn) -> None:
    c.send(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * MiB + b"\r\nContent-Length: 2\r\n\r\nok")


def drip_headers(c: Conn) -> None:
    for byte in head(headers=[("Content-Type", "text/html")] * 200, length=2):
        c.send(bytes([byte]))
        if c.wait(1.0):
            return


def drip_body(c: Conn) -> None:
    c.send(head(headers=[("Content-Type", "text/html")], length=10_000))
    for _ in range(10_000):
        c.send(b"x")
        if c.wait(1.0):
            return


def silent(c: Conn) -> None:
    c.stall()


def endless_body(c: Conn) -> None:
    c.send(head(headers=[("Content-Type", "text/html")]))  # close-delimited
    chunk = b"<p>more</p>" * 6000
    while not c.stop.is_set():
        c.send(chunk)


def endless_chunked(c: Conn) -> None:
    c.send(_chunked_head())
    chunk = b"<p>more</p>" * 6000
    frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
    while not c.stop.is_set():
        c.send(frame)


def endless_interim(c: Conn) -> None:
    while not c.stop.is_set():
        c.send(b"HTTP/1.1 100 Continue\r\n\r\n" * 100)


def _bomb_handler(kind: str, encoding: str, content_type: str = "text/html") -> Handler:
    def handler(c: Conn) -> None:
        data = bomb(kind)
        c.send(
            head(
                headers=[("Content-Type", content_type), ("Content-Encoding", encoding)],
                length=len(data),
            )
            + data
        )

    handler.__name__ = f"bomb_{kind}"
    return handler


def redirect_loop(c: Conn) -> None:
    there = "/redirect-loop-b" if c.path == "/redirect-loop" else "/redirect-loop"
    c.send(head("302 Found", [("Location", there)], length=0))


def redirect_endless(c: Conn) -> None:
    n = int(c.path.rsplit("/", 1)[-1] or 0) if c.path.rsplit("/", 1)[-1].isdigit() else 0
    c.send(head("302 Found", [("Location", f"/redirect-endless/{n + 1}")], length=0))


def redirect_to_nowhere(c: Conn) -> None:
    c.send(head("301 Moved", [("Location", "http://[::1/broken")], length=0))


def http09(c: Conn) -> None:
    c.send(b"<html><body>no status line at all</body></html>\n")


def garbage_status(c: Conn) -> None:
    c.send(b"HTTP/1.1 twohundred OK\r\nContent-Length: 2\r\n\r\nok")


def bad_version(c: Conn) -> None:
    c.send(b"HTTP/7.3 200 OK\r\nContent-Length: 2\r\n\r\nok")


def status_999(c: Conn) -> None:
    c.send(b"HTTP/1.1 999 Whatever\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")


def binary_noise(c: Conn) -> None:
    c.send(bytes(range(256)) * 16)


def empty_reply(c: Conn) -> None:
    """Accept the request and close without a byte."""


def header_without_colon(c: Conn) -> None:
    c.send(b"HTTP/1.1 200 OK\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\nok")


def nul_in_header(c: Conn) -> None:
    c.send(b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\nok")


def bad_gzip(c: Conn) -> None:
    data = b"\x1f\x8b\x08\x00" + bytes(range(200))
    c.send(
        head(
            headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")], length=len(data)
        )
        + data
    )


def truncated_gzip(c: Conn) -> None:
    data = gzip.compress(PAGE * 50)[:300]
    c.send(
        head(
            headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")], length=len(data)
        )
        + data
    )


def robots(c: Conn) -> None:
    c.send(head("404 Not Found", length=0))


#: path -> handler. Keys are the first path segment ("/redirect-endless/3" -> redirect-endless).
BEHAVIOURS: dict[str, Handler] = {
    "ok": ok,
    "file": file,
    "reset-headers": reset_in_headers,
    "reset-body": reset_in_body,
    "close-body": close_in_body,
    "chunked-truncated": chunked_truncated,
    "chunked-no-end": chunked_no_terminator,
    "chunked-bad-size": chunked_bad_size,
    "chunked-huge-size": chunked_huge_size,
    "chunked-bad-crlf": chunked_bad_crlf,
    "conflicting-lengths": conflicting_lengths,
    "length-and-chunked": length_and_chunked,
    "negative-length": negative_length,
    "headers-100k": many_headers,
    "header-1mb": huge_header_line,
    "drip-headers": drip_headers,
    "drip-body": drip_body,
    "silent": silent,
    "endless-body": endless_body,
    "endless-chunked": endless_chunked,
    "endless-interim": endless_interim,
    "bomb-gzip": _bomb_handler("gzip", "gzip"),
    "bomb-deflate": _bomb_handler("deflate", "deflate"),
    "bomb-br": _bomb_handler("br", "br"),
    "bomb-nested": _bomb_handler("nested", "gzip, gzip"),
    "bomb-download": _bomb_handler("gzip", "gzip", "application/octet-stream"),
    "redirect-loop": redirect_loop,
    "redirect-loop-b": redirect_loop,
    "redirect-endless": redirect_endless,
    "redirect-broken": redirect_to_nowhere,
    "http09": http09,
    "garbage-status": garbage_status,
    "bad-version": bad_version,
    "status-999": status_999,
    "binary-noise": binary_noise,
    "empty-reply": empty_reply,
    "header-no-colon": header_without_colon,
    "nul-in-header": nul_in_header,
    "bad-gzip": bad_gzip,
    "truncated-gzip": truncated_gzip,
    "robots.txt": robots,
}

#: Behaviours whose connection is held open until the client's deadline (the soak weighs them).
STALLING = frozenset({"drip-headers", "drip-body", "silent"})

TLS_MODES = ("full", "silent", "half", "half-reset")


def read_head(sock: socket.socket, limit: int = 65536) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data and len(data) < limit:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def read_tls_record(sock: socket.socket) -> bytes:
    """One TLS record (the ClientHello), or what arrived before the peer stopped."""
    data = b""
    while len(data) < 5 or len(data) < 5 + int.from_bytes(data[3:5], "big"):
        chunk = sock.recv(16384)
        if not chunk:
            break
        data += chunk
    return data


class ChaosServer:
    """The chaos server on 127.0.0.1: ``url(behaviour)`` for HTTP, ``tls_url(mode)`` for TLS.

    Start with ``with ChaosServer() as server:``; ``close()`` stops every handler (stalls
    and endless bodies end within a second) and closes every socket.
    """

    def __init__(self, workdir: str | None = None):
        import trustme

        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._conns: set[socket.socket] = set()
        self._threads: set[threading.Thread] = set()
        self.connections = 0
        self._tmp = tempfile.TemporaryDirectory() if workdir is None else None
        folder = Path(workdir or self._tmp.name)  # type: ignore[union-attr]
        ca = trustme.CA()
        cert = ca.issue_cert("127.0.0.1", "localhost")
        self.ca_path = str(folder / "chaos-ca.pem")
        ca.cert_pem.write_to_path(self.ca_path)
        self._tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        cert.configure_cert(self._tls)
        self._listeners: dict[str, socket.socket] = {}
        self.port = self._listen("http")
        self.tls_ports = {mode: self._listen(mode) for mode in TLS_MODES}

    def _listen(self, mode: str) -> int:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(1024)
        self._listeners[mode] = sock
        thread = threading.Thread(target=self._accept, args=(sock, mode), daemon=True)
        thread.start()
        return sock.getsockname()[1]

    def url(self, behaviour: str, suffix: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/{behaviour}{suffix}"

    def tls_url(self, mode: str, behaviour: str = "ok") -> str:
        return f"https://127.0.0.1:{self.tls_ports[mode]}/{behaviour}"

    def _accept(self, listener: socket.socket, mode: str) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self._handle, args=(conn, mode), daemon=True)
            with self._lock:
                self.connections += 1
                self._conns.add(conn)
                self._threads.add(thread)
            thread.start()

    def _handle(self, conn: socket.socket, mode: str) -> None:
        sock: socket.socket = conn
        try:
            conn.settimeout(STALL_SECONDS)
            if mode == "http":
                self._serve_http(conn)
            elif mode == "full":
                sock = self._tls.wrap_socket(conn, server_side=True)
                self._serve_http(sock)
            else:
                self._tls_fault(conn, mode)
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                sock.close()
            with contextlib.suppress(OSError):
                conn.close()
            with self._lock:
                self._conns.discard(conn)
                self._threads.discard(threading.current_thread())

    def _serve_http(self, sock: socket.socket) -> None:
        request = read_head(sock)
        if not request:
            return
        c = Conn(sock, request, self._stop)
        name = c.path.lstrip("/").split("/", 1)[0].split("?", 1)[0]
        handler = BEHAVIOURS.get(name)
        if handler is None:
            c.send(head("404 Not Found", length=0))
            return
        handler(c)
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_WR)

    def _tls_fault(self, conn: socket.socket, mode: str) -> None:
        hello = read_tls_record(conn)
        if mode == "silent" or not hello:
            self._stop.wait(STALL_SECONDS)
            return
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        tls = self._tls.wrap_bio(incoming, outgoing, server_side=True)
        incoming.write(hello)
        with contextlib.suppress(ssl.SSLWantReadError):
            tls.do_handshake()
        flight = outgoing.read()
        conn.sendall(flight[: max(1, len(flight) // 2)])
        if mode == "half-reset":
            Conn(conn, b"", self._stop).reset()
        else:
            self._stop.wait(STALL_SECONDS)

    def close(self) -> None:
        self._stop.set()
        for sock in self._listeners.values():
            with contextlib.suppress(OSError):
                sock.close()
        with self._lock:
            conns, threads = list(self._conns), list(self._threads)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        for thread in threads:
            thread.join(timeout=5)
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> ChaosServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def main() -> None:
    """Serve in this process until stdin closes (the soak's parent controls the lifetime)."""
    with tempfile.TemporaryDirectory() as folder, ChaosServer(folder) as server:
        for kind in ("gzip", "deflate", "br", "nested"):
            bomb(kind)  # built before the first request, not during the soak's warm-up
        print(
            json.dumps({"http": server.port, "tls": server.tls_ports, "ca": server.ca_path}),
            flush=True,
        )
        sys.stdin.read()


if __name__ == "__main__":
    main()
