"""Hostile servers: decompression bombs, lying Content-Length, slow drips, silence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import zlib

import pytest
from helpers.loopback import http_response, loopback_config
from webgrip import ConnectError, FetchTimeoutError, ResponseTooLargeError, WebClient

MiB = 1024 * 1024


def gzip_of_zeros(size: int) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip container
    chunk = bytes(MiB)
    parts = [comp.compress(chunk) for _ in range(size // MiB)]
    return b"".join([*parts, comp.flush()])


def brotli_of_zeros(size: int) -> bytes:
    brotli = pytest.importorskip("brotli")
    comp = brotli.Compressor(quality=5)
    chunk = bytes(MiB)
    parts = [comp.process(chunk) for _ in range(size // MiB)]
    return b"".join([*parts, comp.finish()])


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    return gzip_of_zeros(128 * MiB)


def serve(raw_server, data: bytes):
    def handle(conn, _head):
        conn.sendall(data)

    return raw_server(handle)


def test_gzip_bomb_stops_at_the_cap(raw_server, gzip_bomb):
    server = serve(raw_server, http_response(200, gzip_bomb, {"Content-Encoding": "gzip"}))
    cfg = loopback_config(max_response_bytes=1 * MiB)
    with WebClient(cfg) as c, pytest.raises(ResponseTooLargeError) as info:
        c.get(server.url())
    assert info.value.limit == 1 * MiB
    assert info.value.url == server.url()


def test_brotli_bomb_stops_at_the_cap(raw_server):
    bomb = brotli_of_zeros(512 * MiB)
    server = serve(raw_server, http_response(200, bomb, {"Content-Encoding": "br"}))
    cfg = loopback_config(max_response_bytes=1 * MiB)
    with WebClient(cfg) as c, pytest.raises(ResponseTooLargeError) as info:
        c.get(server.url())
    assert info.value.limit == 1 * MiB


def test_compressed_body_within_the_cap_is_decoded(raw_server):
    payload = b"hello compressed world " * 1000
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    data = comp.compress(payload) + comp.flush()
    server = serve(raw_server, http_response(200, data, {"Content-Encoding": "gzip"}))
    with WebClient(loopback_config()) as c:
        r = c.get(server.url())
    assert r.content == payload
    assert "content-encoding" not in r.headers


def test_body_of_exactly_the_cap_is_accepted(raw_server):
    server = serve(raw_server, http_response(200, b"x" * 1000))
    with WebClient(loopback_config(max_response_bytes=1000)) as c:
        assert len(c.get(server.url()).content) == 1000
    cfg = loopback_config(max_response_bytes=999)
    with WebClient(cfg) as c, pytest.raises(ResponseTooLargeError):
        c.get(server.url())


def test_per_call_max_bytes(raw_server, web):
    server = serve(raw_server, http_response(200, b"y" * 5000, content_length=False))
    with pytest.raises(ResponseTooLargeError) as info:
        web.get(server.url(), max_bytes=100)
    assert info.value.limit == 100


# A subprocess measures its own peak RSS around the fetch: the bomb inflates to 512 MiB
# (gzip) / 1 GiB (brotli), the cap is 2 MiB, so growth must stay far below the bomb.
BOMB_SCRIPT = textwrap.dedent(
    """
    import json, resource, socket, sys, threading
    from webgrip import Config, WebClient, ResponseTooLargeError

    bomb = open(sys.argv[1], "rb").read()
    encoding = sys.argv[2]
    head = ("HTTP/1.1 200 OK\\r\\nContent-Encoding: %s\\r\\nContent-Length: %d\\r\\n"
            "Connection: close\\r\\n\\r\\n" % (encoding, len(bomb))).encode()
    srv = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = srv.accept()
        conn.recv(65536)
        try:
            conn.sendall(head + bomb)
        except OSError:
            pass
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    cfg = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0,
                 max_response_bytes=2 * 1024 * 1024)
    client = WebClient(cfg)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcome = "no error"
    try:
        client.get("http://127.0.0.1:%d/" % srv.getsockname()[1])
    except ResponseTooLargeError:
        outcome = "too large"
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"outcome": outcome, "growth_kib": after - before}))
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_bomb_memory_stays_bounded(tmp_path, encoding):
    if encoding == "gzip":
        size, bomb = 512 * MiB, gzip_of_zeros(512 * MiB)
    else:
        size, bomb = 1024 * MiB, brotli_of_zeros(1024 * MiB)
    path = tmp_path / "bomb"
    path.write_bytes(bomb)
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, "-c", BOMB_SCRIPT, str(path), encoding],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["outcome"] == "too large"
    growth = result["growth_kib"] * 1024
    assert growth < 64 * MiB, f"RSS grew {growth / MiB:.1f} MiB for a {size // MiB} MiB bomb"


def test_content_length_above_cap_refused_before_reading(raw_server):
    # Headers announce 50 MiB, then the server goes quiet. Reading would hang until the
    # deadline (a timeout); refusing on the header alone gives "too large" at once.
    def handle(conn, _head):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 52428800\r\n\r\n" + b"z" * 100)
        time.sleep(10)

    server = raw_server(handle)
    with WebClient(loopback_config(timeout=5)) as c, pytest.raises(ResponseTooLargeError) as info:
        c.get(server.url())
    assert "Content-Length is 52428800" in str(info.value)


def test_content_length_smaller_than_body_reads_only_what_was_declared(raw_server, web):
    server = serve(raw_server, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello, and much more")
    assert web.get(server.url()).content == b"hello"


def test_content_length_larger_than_body_is_an_error(raw_server, web):
    server = serve(raw_server, b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
    with pytest.raises(ConnectError) as info:
        web.get(server.url())
    assert info.value.reason == "incomplete-response"


def test_slow_drip_cannot_outlive_the_deadline(raw_server):
    def drip(conn, _head):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
        for _ in range(100):
            conn.sendall(b"x")
            time.sleep(0.1)

    server = raw_server(drip)
    with WebClient(loopback_config(timeout=1.0)) as c:
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError) as info:
            c.get(server.url())
    assert time.monotonic() - start < 8  # sanity bound only: the drip would take 10 s
    assert isinstance(info.value, TimeoutError)
    assert info.value.reason == "timeout"


def test_slow_drip_of_headers(raw_server):
    def drip(conn, _head):
        for _ in range(100):
            conn.sendall(b"X-Drip: 1\r\n" if _ else b"HTTP/1.1 200 OK\r\n")
            time.sleep(0.1)

    server = raw_server(drip)
    with WebClient(loopback_config(timeout=1.0)) as c, pytest.raises(FetchTimeoutError):
        c.get(server.url())


def test_silent_server_times_out(raw_server, web):
    server = raw_server(lambda conn, head: time.sleep(10))
    with pytest.raises(FetchTimeoutError):
        web.get(server.url(), timeout=0.5)


def test_deadline_spans_redirect_hops(raw_server):
    # Each hop answers after 0.4 s: no single hop is slow, but four together pass 1 s.
    def slow_redirect(conn, head):
        time.sleep(0.4)
        n = int(head.split(b" ")[1].strip(b"/") or b"0")
        conn.sendall(http_response(302, b"", {"Location": f"/{n + 1}"}))

    server = raw_server(slow_redirect)
    with WebClient(loopback_config(timeout=1.0)) as c, pytest.raises(FetchTimeoutError):
        c.get(server.url("/0"))


def test_garbage_response_is_connect_error(raw_server, web):
    server = serve(raw_server, b"this is not HTTP at all\r\n\r\n")
    with pytest.raises(ConnectError):
        web.get(server.url())


def test_huge_header_is_connect_error(raw_server, web):
    server = serve(raw_server, b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
    with pytest.raises(ConnectError):
        web.get(server.url())
