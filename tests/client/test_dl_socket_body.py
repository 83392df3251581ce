"""Large plain-HTTP downloads read from the socket itself once ureq's buffer is drained
(``rust/net/src/tcp.rs``): every byte of the declared length, in order, and the same errors,
limits and cleanup as the bodies ureq reads to their end; TLS bodies stay with ureq."""

from __future__ import annotations

import hashlib
import os
import socket
import ssl
import threading

import pytest
from helpers.loopback import LOOPBACK_NETWORKS, http_response, loopback_config
from webgrip import ConnectError, FetchTimeoutError, WebClient, _core

#: Above the 1 MiB from which a body is read from the socket, and several ring buffers long.
SIZE = 5 * 1024 * 1024 + 12_345


@pytest.fixture
def core():
    return _core.Client(allow_networks=list(LOOPBACK_NETWORKS))


def test_a_large_body_is_saved_whole_and_nothing_past_its_length(raw_server, core, tmp_path):
    payload = os.urandom(SIZE)
    # Bytes after the declared length are not the body's: the file holds exactly the length.
    server = raw_server(lambda conn, _h: conn.sendall(http_response(200, payload) + b"extra"))
    calls: list[tuple[int, int | None]] = []
    r = core.download(
        server.url("/big.bin"), str(tmp_path), progress=lambda d, t: calls.append((d, t))
    )
    with open(r["temp_path"], "rb") as f:
        assert f.read() == payload
    assert r["size"] == SIZE
    assert r["sha256"] == hashlib.sha256(payload).hexdigest()
    assert calls[-1] == (SIZE, SIZE)
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(calls) >= SIZE // (256 * 1024)


def test_keep_alive_server_serves_the_next_download_on_a_fresh_connection(
    raw_server, core, tmp_path
):
    big, small = os.urandom(SIZE), os.urandom(1000)

    def keep_alive(conn, head):
        # Answers every request on this connection, without Connection: close.
        while head:
            body = big if b"/big" in head.split(b"\r\n", 1)[0] else small
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            head = b""
            while b"\r\n\r\n" not in head:
                data = conn.recv(65536)
                if not data:
                    return
                head += data

    server = raw_server(keep_alive)
    for path, body in (("/big", big), ("/small", small), ("/big", big), ("/small", small)):
        r = core.download(server.url(path), str(tmp_path))
        with open(r["temp_path"], "rb") as f:
            assert f.read() == body
        assert r["sha256"] == hashlib.sha256(body).hexdigest()


def test_a_large_body_cut_short_fails_and_leaves_nothing(raw_server, core, tmp_path):
    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % SIZE
    server = raw_server(lambda conn, _h: conn.sendall(head + b"x" * (SIZE // 2)))
    with pytest.raises(ConnectError) as caught:
        core.download(server.url(), str(tmp_path))
    assert caught.value.reason == "incomplete-response"
    assert os.listdir(tmp_path) == []


def test_a_large_body_past_the_download_timeout_fails_and_leaves_nothing(
    raw_server, core, tmp_path
):
    stop = threading.Event()

    def drip(conn, _head):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % SIZE + b"x" * (3 << 20))
        while not stop.wait(0.1):
            conn.sendall(b"x")

    server = raw_server(drip)
    try:
        with pytest.raises(FetchTimeoutError) as caught:
            core.download(server.url(), str(tmp_path), timeout=5, download_timeout=0.8)
    finally:
        stop.set()
    assert caught.value.reason == "download-timeout"
    assert os.listdir(tmp_path) == []


def test_a_progress_callback_stops_a_large_body_read_from_the_socket(raw_server, core, tmp_path):
    server = raw_server(lambda conn, _h: conn.sendall(http_response(200, b"y" * SIZE)))

    class Stop(Exception):
        pass

    def progress(done, total):
        if done > 3 << 20:
            raise Stop(f"enough at {done}")

    with pytest.raises(Stop):
        core.download(server.url(), str(tmp_path), progress=progress)
    assert os.listdir(tmp_path) == []


def test_a_large_body_over_tls_is_read_through_the_tls_layer(tmp_path):
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    ca_path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    payload = os.urandom(SIZE)
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        with context.wrap_socket(conn, server_side=True) as tls:
            head = b""
            while b"\r\n\r\n" not in head:
                head += tls.recv(65536)
            tls.sendall(http_response(200, payload))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    folder = tmp_path / "out"
    folder.mkdir()
    url = f"https://127.0.0.1:{listener.getsockname()[1]}/big.bin"
    config = loopback_config(folder, ca_bundle=str(ca_path))
    try:
        with WebClient(config) as client:
            saved = client.download(url, filename="big.bin")
    finally:
        listener.close()
        server.join(timeout=10)
    assert saved.size == SIZE and saved.sha256 == hashlib.sha256(payload).hexdigest()
    assert (folder / "big.bin").read_bytes() == payload
