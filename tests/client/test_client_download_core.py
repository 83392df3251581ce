"""``_core.Client.download``: streamed to a fresh temp file, hashed, nothing left on failure."""

from __future__ import annotations

import hashlib
import os
import time

import pytest
from helpers.loopback import LOOPBACK_NETWORKS, http_response
from webgrip import (
    BlockedURLError,
    ConnectError,
    FetchTimeoutError,
    HTTPStatusError,
    ResponseTooLargeError,
    _core,
)


@pytest.fixture
def core():
    return _core.Client(allow_networks=list(LOOPBACK_NETWORKS))


def serve(raw_server, data: bytes):
    return raw_server(lambda conn, _head: conn.sendall(data))


def test_download_writes_hashes_and_reports(raw_server, core, tmp_path):
    payload = os.urandom(700_000)
    server = serve(raw_server, http_response(200, payload, {"Content-Type": "application/zip"}))
    calls: list[tuple[int, int | None]] = []
    r = core.download(
        server.url("/f.zip"), str(tmp_path), progress=lambda d, t: calls.append((d, t))
    )
    path = r["temp_path"]
    assert os.path.dirname(path) == str(tmp_path)
    assert os.path.basename(path).startswith(".webgrip-") and path.endswith(".part")
    with open(path, "rb") as f:
        assert f.read() == payload
    assert r["size"] == len(payload)
    assert r["sha256"] == hashlib.sha256(payload).hexdigest()
    assert r["content_type"] == "application/zip"
    assert r["status"] == 200 and r["url"] == server.url("/f.zip")
    assert r["remote_addr"].startswith("127.0.0.1:")
    # Reported every 256 KiB and once at the end, with the declared total.
    assert calls[-1] == (len(payload), len(payload))
    assert len(calls) >= 3 and all(t == len(payload) for _, t in calls)


def test_two_downloads_get_different_temp_files(raw_server, core, tmp_path):
    server = raw_server(lambda conn, _h: conn.sendall(http_response(200, b"same")))
    a = core.download(server.url(), str(tmp_path))["temp_path"]
    b = core.download(server.url(), str(tmp_path))["temp_path"]
    assert a != b and os.path.exists(a) and os.path.exists(b)


def test_non_2xx_raises_and_creates_no_file(raw_server, core, tmp_path):
    server = serve(raw_server, http_response(404, b"missing"))
    with pytest.raises(HTTPStatusError) as info:
        core.download(server.url(), str(tmp_path))
    assert info.value.status == 404 and info.value.reason == "http-404"
    assert os.listdir(tmp_path) == []


def test_content_length_over_cap_creates_no_file(raw_server, core, tmp_path):
    server = serve(raw_server, http_response(200, b"x" * 5000))
    with pytest.raises(ResponseTooLargeError) as info:
        core.download(server.url(), str(tmp_path), max_bytes=1000)
    assert info.value.limit == 1000
    assert os.listdir(tmp_path) == []


def test_stream_over_cap_removes_the_partial_file(raw_server, core, tmp_path):
    server = serve(raw_server, http_response(200, b"x" * 500_000, content_length=False))
    with pytest.raises(ResponseTooLargeError):
        core.download(server.url(), str(tmp_path), max_bytes=100_000)
    assert os.listdir(tmp_path) == []


def test_truncated_body_removes_the_partial_file(raw_server, core, tmp_path):
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 900000\r\n\r\n"
    server = serve(raw_server, head + b"x" * 400_000)
    with pytest.raises(ConnectError):
        core.download(server.url(), str(tmp_path))
    assert os.listdir(tmp_path) == []


def test_deadline_removes_the_partial_file(raw_server, core, tmp_path):
    def drip(conn, _head):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n" + b"x" * 300_000)
        for _ in range(50):
            conn.sendall(b"x")
            time.sleep(0.1)

    server = raw_server(drip)
    # The body is bounded by download_timeout (timeout only bounds the response head).
    with pytest.raises(FetchTimeoutError) as caught:
        core.download(server.url(), str(tmp_path), timeout=5, download_timeout=0.8)
    assert caught.value.reason == "download-timeout"
    assert os.listdir(tmp_path) == []


def test_progress_exception_stops_and_is_reraised(raw_server, core, tmp_path):
    server = serve(raw_server, http_response(200, b"y" * 1_000_000))

    class Stop(Exception):
        pass

    def progress(done, total):
        raise Stop(f"enough at {done}")

    with pytest.raises(Stop):
        core.download(server.url(), str(tmp_path), progress=progress)
    assert os.listdir(tmp_path) == []


def test_download_is_guarded_like_fetch(raw_server, core, tmp_path):
    denied = raw_server(host="127.0.0.2")
    start = serve(raw_server, http_response(302, b"", {"Location": denied.url("/x")}))
    strict = _core.Client(allow_networks=["127.0.0.1/32"])
    with pytest.raises(BlockedURLError):
        strict.download(start.url(), str(tmp_path))
    with pytest.raises(BlockedURLError):
        core.download("http://10.0.0.1/x", str(tmp_path))
    assert denied.connections == 0
    assert os.listdir(tmp_path) == []


def test_missing_dest_dir_is_download_error(raw_server, core, tmp_path):
    from webgrip import DownloadError

    server = serve(raw_server, http_response(200, b"payload"))
    with pytest.raises(DownloadError) as info:
        core.download(server.url(), str(tmp_path / "nope"))
    assert info.value.reason == "io"
