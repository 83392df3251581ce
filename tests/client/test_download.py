"""download_file against loopback servers: names, destinations, caps, broken transfers."""

from __future__ import annotations

import hashlib
import os
import threading

import pytest
from helpers.loopback import RawServer, loopback_config
from webgrip import Download, DownloadError, Tools
from webgrip.client import WebClient

PAYLOAD = bytes(range(256)) * 40  # 10 KiB


def serve_file(
    httpserver, path="/files/report.pdf", body=PAYLOAD, content_type="application/pdf", headers=None
):
    httpserver.expect_request(path).respond_with_data(
        body, content_type=content_type, headers=headers or {}
    )
    return httpserver.url_for(path)


def names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def dl(tmp_path):
    folder = tmp_path / "dl"
    folder.mkdir()
    return folder


@pytest.fixture
def tools(dl):
    return Tools(loopback_config(dl))


def test_download_reports_path_size_type_hash(tools, dl, httpserver):
    url = serve_file(httpserver)
    answer = tools.download_file(url)
    path = dl / "report.pdf"
    assert path.read_bytes() == PAYLOAD
    assert answer.splitlines() == [
        f"Saved {url}",
        f"Path: {os.path.realpath(path)}",
        f"Size: {len(PAYLOAD)} bytes (10.0 KiB)",
        "Content-Type: application/pdf",
        f"SHA-256: {hashlib.sha256(PAYLOAD).hexdigest()}",
    ]
    assert names(dl) == ["report.pdf"]


@pytest.mark.parametrize(
    ("size", "line"),
    [
        (0, "Size: 0 bytes"),
        (24, "Size: 24 bytes"),
        (1023, "Size: 1023 bytes"),
        (1024, "Size: 1024 bytes (1.0 KiB)"),
        (3 * 1024 * 1024 + 5, "Size: 3145733 bytes (3.0 MiB)"),
    ],
)
def test_download_size_line_says_bytes_once(tools, httpserver, size, line):
    url = serve_file(
        httpserver,
        path=f"/files/f{size}.bin",
        body=b"x" * size,
        content_type="application/octet-stream",
    )
    answer = tools.download_file(url)
    assert line in answer.splitlines(), answer


def test_structured_download(dl, httpserver):
    url = serve_file(httpserver)
    with WebClient(loopback_config(dl)) as client:
        result = client.download(url, save_to=str(dl / "sub"))
    assert isinstance(result, Download)
    assert result.path == os.path.join(os.path.realpath(dl), "sub", "report.pdf")
    assert result.size == len(PAYLOAD) and result.sha256 == hashlib.sha256(PAYLOAD).hexdigest()
    assert result.to_dict()["filename"] == "report.pdf"


@pytest.mark.parametrize(
    ("disposition", "expected"),
    [
        ('attachment; filename="../../etc/passwd"', "passwd"),
        ('attachment; filename="..\\\\x"', "x"),
        ('attachment; filename="/tmp/evil.sh"', "evil.sh"),
        ('attachment; filename=".bashrc"', "bashrc"),
        (
            "attachment; filename=\"fallback.txt\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E"
            "%20r%C3%A9sum%C3%A9.pdf",
            "日本語 résumé.pdf",
        ),
        ('attachment; filename="CON.txt"', "_CON.txt"),
        ('attachment; filename="bidi\u202egpj.exe"'.encode().decode("latin-1"), "bidi_gpj.exe"),
    ],
)
def test_content_disposition_names(tools, dl, tmp_path, httpserver, disposition, expected):
    url = serve_file(httpserver, "/get", headers={"Content-Disposition": disposition})
    answer = tools.download_file(url)
    assert not answer.startswith("Error"), answer
    assert names(dl) == [expected]
    assert names(tmp_path) == ["dl"]  # nothing written beside the download folder


@pytest.mark.parametrize("filename", ["../../escape.txt", "..\\escape.txt", "/etc/escape.txt"])
def test_filename_argument_cannot_escape(tools, dl, tmp_path, httpserver, filename):
    url = serve_file(httpserver)
    tools.download_file(url, filename=filename)
    assert names(dl) == ["escape.txt"]
    assert names(tmp_path) == ["dl"]


def test_name_from_url_and_content_type(tools, dl, httpserver):
    serve_file(httpserver, "/a/naïve data.csv", b"a,b\n", "text/csv")
    tools.download_file(httpserver.url_for("/a/") + "na%C3%AFve%20data.csv")
    tools.download_file(serve_file(httpserver, "/", b"{}", "application/json"))
    assert names(dl) == ["download.json", "naïve data.csv"]


def test_existing_file_gets_suffix_and_overwrite_replaces(tools, dl, httpserver):
    (dl / "report.pdf").write_bytes(b"original")
    url = serve_file(httpserver)
    first = tools.download_file(url)
    assert f"Path: {os.path.realpath(dl / 'report (1).pdf')}" in first
    assert "saved as report (1).pdf because report.pdf already exists" in first
    tools.download_file(url)
    assert names(dl) == ["report (1).pdf", "report (2).pdf", "report.pdf"]
    assert (dl / "report.pdf").read_bytes() == b"original"
    replaced = tools.download_file(url, overwrite=True)
    assert "was replaced" in replaced
    assert (dl / "report.pdf").read_bytes() == PAYLOAD


def test_save_to_outside_download_dirs_refused(tools, dl, tmp_path, httpserver):
    url = serve_file(httpserver)
    for target in (str(tmp_path), "/etc", str(dl / ".." / "elsewhere"), "../elsewhere"):
        answer = tools.download_file(url, save_to=target)
        assert answer.startswith("Error: Could not save ")
        assert "outside the allowed download folders" in answer
    assert len(httpserver.log) == 0
    assert names(tmp_path) == ["dl"]


def test_symlinked_parent_dir_refused(tools, dl, tmp_path, httpserver):
    outside = tmp_path / "outside"
    outside.mkdir()
    (dl / "link").symlink_to(outside)
    answer = tools.download_file(serve_file(httpserver), save_to=str(dl / "link"))
    assert answer.startswith("Error:") and "symbolic link" in answer
    assert names(outside) == []
    assert len(httpserver.log) == 0


def test_symlinked_target_file_not_followed(tools, dl, tmp_path, httpserver):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep me")
    (dl / "report.pdf").symlink_to(victim)
    url = serve_file(httpserver)
    answer = tools.download_file(url)
    assert "report (1).pdf" in answer
    refused = tools.download_file(url, overwrite=True)
    assert refused.startswith("Error:") and "symbolic link" in refused
    assert victim.read_bytes() == b"keep me"
    assert os.path.islink(dl / "report.pdf")
    assert names(dl) == ["report (1).pdf", "report.pdf"]


def test_declared_size_over_cap_refused(dl, httpserver):
    url = serve_file(httpserver, body=b"x" * 5000)
    answer = Tools(loopback_config(dl, max_download_bytes=1000)).download_file(url)
    assert answer.startswith("Error:") and "size limit" in answer
    assert names(dl) == []


def test_cap_hit_mid_stream_leaves_nothing(dl):
    def endless(conn, request):  # no Content-Length: the body ends when the socket closes
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            b"Connection: close\r\n\r\n"
        )
        for _ in range(64):
            conn.sendall(b"y" * 1024)

    with RawServer(endless) as server:
        answer = Tools(loopback_config(dl, max_download_bytes=10_000)).download_file(
            server.url("/big.bin")
        )
    assert answer.startswith("Error:") and "size limit" in answer
    assert names(dl) == []


def test_dropped_connection_leaves_nothing(dl):
    def truncated(conn, request):
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            b"Content-Length: 100000\r\n\r\n" + b"z" * 3000
        )

    with RawServer(truncated) as server:
        answer = Tools(loopback_config(dl)).download_file(server.url("/cut.bin"))
    assert answer.startswith("Error:"), answer
    assert names(dl) == []


def test_http_error_leaves_nothing(tools, dl, httpserver):
    httpserver.expect_request("/gone").respond_with_data("no", status=404)
    answer = tools.download_file(httpserver.url_for("/gone"))
    assert answer.startswith("Error: HTTP 404 Not Found for ")
    assert names(dl) == []


def test_concurrent_downloads_of_same_name(dl, httpserver):
    url = serve_file(httpserver)
    tools = Tools(loopback_config(dl))
    barrier = threading.Barrier(2)
    answers: list[str] = []

    def run() -> None:
        barrier.wait()
        answers.append(tools.download_file(url))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a.startswith("Saved ") for a in answers), answers
    assert names(dl) == ["report (1).pdf", "report.pdf"]
    assert (dl / "report.pdf").read_bytes() == (dl / "report (1).pdf").read_bytes() == PAYLOAD


def test_blocked_address_refused_without_file(dl, httpserver):
    from webgrip import Config

    url = serve_file(httpserver)
    answer = Tools(Config(download_dirs=(str(dl),), rate_limit_seconds=0)).download_file(url)
    assert answer.startswith(f"Error: Refused {url} — ")
    assert names(dl) == [] and len(httpserver.log) == 0


def test_library_raises_download_error(dl, httpserver):
    with WebClient(loopback_config(dl)) as client, pytest.raises(DownloadError) as info:
        client.download(serve_file(httpserver), save_to="/etc")
    assert info.value.reason == "outside-download-dirs"
