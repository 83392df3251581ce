"""How long a download may take (issue 47): a body that keeps flowing outlasts ``timeout``;
one that stalls fails within the stall window (curl's ``--speed-limit``/``--speed-time``);
``download_timeout`` bounds the whole call. And how the file is left: the mode a new file
gets under the umask, and a word when it had to be renamed."""

from __future__ import annotations

import os
import socket
import stat
import threading

import pytest
from helpers.loopback import RawServer, http_response, loopback_config
from webgrip import FetchTimeoutError, Tools
from webgrip.cli import EXIT_FAILURE, EXIT_OK, main
from webgrip.client import WebClient

CHUNK = b"x" * 2048


def trickle(chunks: int, every: float, then_hold: threading.Event | None = None):
    """A handler sending a head declaring ``chunks`` × 2 KiB, then one chunk every ``every``
    seconds; with ``then_hold``, it stops after the first half and holds the connection
    open (sending nothing) until the event is set."""

    def handle(conn: socket.socket, _head: bytes) -> None:
        head = http_response(200, b"", {"Content-Type": "application/octet-stream"})
        head = head.replace(b"Content-Length: 0", f"Content-Length: {chunks * len(CHUNK)}".encode())
        conn.sendall(head)
        pause = threading.Event()  # never set: its timed wait paces the chunks
        for i in range(chunks):
            if then_hold is not None and i == chunks // 2:
                then_hold.wait(15)
                return
            conn.sendall(CHUNK)
            pause.wait(every)

    return handle


def folder_names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_download_that_keeps_flowing_outlasts_the_timeout(tmp_path):
    # 80 KiB over about 4 s with timeout=2: the head came in time, the body keeps coming
    # (twice the timeout, as before; 2 s rather than 1 s for the head on a loaded machine).
    with RawServer(trickle(40, 0.1)) as server:
        config = loopback_config(tmp_path, timeout=2.0)
        with WebClient(config) as client:
            result = client.download(server.url("/slow.bin"))
    assert result.size == 40 * len(CHUNK)
    assert folder_names(tmp_path) == ["slow.bin"]


def test_a_stalled_download_fails_within_the_window_and_leaves_nothing(tmp_path):
    release = threading.Event()
    with RawServer(trickle(8, 0.01, then_hold=release)) as server:
        config = loopback_config(tmp_path, timeout=5.0, download_stall_seconds=1.0)
        try:
            with WebClient(config) as client, pytest.raises(FetchTimeoutError) as caught:
                client.download(server.url("/stops.bin"))
            answer = Tools(config).download_file(server.url("/stops.bin"))
        finally:
            release.set()
    assert caught.value.reason == "stalled"
    assert "stalled: less than 1 KiB/s arrived over the last 1 s (8 KiB of 16 KiB received)" in str(
        caught.value
    )
    assert answer.startswith("Error: Download of http://127.0.0.1:")
    assert "Nothing was saved. The server stopped sending" in answer
    assert "download_stall_seconds" in answer
    assert folder_names(tmp_path) == []


def test_a_trickle_under_the_speed_limit_is_a_stall(tmp_path):
    # 2 KiB every 0.25 s is 8 KiB/s: under a 64 KiB/s limit over 0.5 s, though bytes flow.
    with RawServer(trickle(40, 0.25)) as server:
        config = loopback_config(tmp_path, download_min_speed=64 * 1024, download_stall_seconds=0.5)
        with WebClient(config) as client, pytest.raises(FetchTimeoutError) as caught:
            client.download(server.url("/trickle.bin"))
    assert caught.value.reason == "stalled"
    assert folder_names(tmp_path) == []


def test_download_timeout_bounds_the_whole_download(tmp_path):
    with RawServer(trickle(40, 0.05)) as server:
        config = loopback_config(tmp_path, timeout=5.0, download_timeout=0.5)
        with WebClient(config) as client, pytest.raises(FetchTimeoutError) as caught:
            client.download(server.url("/long.bin"))
    assert caught.value.reason == "download-timeout"
    assert "took longer than its limit of 0.5 s (download_timeout;" in str(caught.value)
    assert folder_names(tmp_path) == []


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("download_min_speed", 0, "must be > 0"),
        ("download_stall_seconds", 0.0, "must be > 0 seconds"),
        ("download_stall_seconds", 3600.0, "at most 1800 seconds"),
        ("download_timeout", -1.0, "must be >= 0 seconds"),
        ("download_timeout", float("inf"), "finite"),
    ],
)
def test_the_download_limits_are_validated(field, value, why):
    with pytest.raises(ValueError, match=why):
        loopback_config(**{field: value})


def test_cli_stall_names_its_flags(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WEBGRIP_ALLOW_NETWORKS", "127.0.0.0/8")
    monkeypatch.setenv("WEBGRIP_DOWNLOAD_DIRS", str(tmp_path))
    monkeypatch.setenv("WEBGRIP_RATE_LIMIT_SECONDS", "0")
    release = threading.Event()
    with RawServer(trickle(8, 0.01, then_hold=release)) as server:
        try:
            code = main(["download", server.url("/x.bin"), "--speed-time", "0.5"])
        finally:
            release.set()
    err = capsys.readouterr().err
    assert code == EXIT_FAILURE
    assert "stalled" in err and "a lower --speed-limit or a longer --speed-time" in err
    assert "--timeout" not in err  # waiting longer for the response would not help
    assert folder_names(tmp_path) == []
    assert main(["download", server.url("/x.bin"), "--speed-time", "0"]) == 2
    assert "invalid value for --speed-time: must be > 0 seconds" in capsys.readouterr().err


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_the_saved_file_has_the_umask_mode_and_is_private_while_written(tmp_path, umask):
    seen: list[int] = []

    def progress(_done: int, _total: int | None) -> None:
        for p in tmp_path.iterdir():
            seen.append(stat.S_IMODE(p.stat().st_mode))

    old = os.umask(umask)
    try:
        with RawServer(trickle(200, 0)) as server, WebClient(loopback_config(tmp_path)) as client:
            result = client.download(server.url("/m.bin"), progress=progress)
    finally:
        os.umask(old)
    assert seen and set(seen) == {0o600}, "the temp file stays private while written"
    assert stat.S_IMODE(os.stat(result.path).st_mode) == 0o666 & ~umask


def test_a_renamed_download_says_so(tmp_path, monkeypatch, capsys):
    (tmp_path / "q3.csv").write_text("mine")
    body = http_response(200, b"a,b\n", {"Content-Type": "text/csv"})
    with RawServer(lambda conn, _h: conn.sendall(body)) as server:
        answer = Tools(loopback_config(tmp_path)).download_file(server.url("/q3.csv"))
        monkeypatch.setenv("WEBGRIP_ALLOW_NETWORKS", "127.0.0.0/8")
        monkeypatch.setenv("WEBGRIP_DOWNLOAD_DIRS", str(tmp_path))
        monkeypatch.setenv("WEBGRIP_RATE_LIMIT_SECONDS", "0")
        code = main(["download", server.url("/x"), "--name", "q3.csv"])
    assert (
        "Note: saved as q3 (1).csv because q3.csv already exists (pass overwrite=true to "
        "replace it)." in answer.splitlines()
    )
    out, err = capsys.readouterr()
    assert code == EXIT_OK
    assert out == f"{os.path.realpath(tmp_path / 'q3 (2).csv')}\n"
    assert err == "webgrip: saved as q3 (2).csv: q3.csv exists (pass --overwrite to replace it)\n"
    assert (tmp_path / "q3.csv").read_text() == "mine"


def test_the_response_head_still_comes_within_the_timeout(tmp_path):
    # A server that accepts and never answers: the body's limits do not apply to the head.
    release = threading.Event()
    with RawServer(lambda _conn, _head: release.wait(15)) as server:
        config = loopback_config(tmp_path, timeout=0.5)
        try:
            with WebClient(config) as client, pytest.raises(FetchTimeoutError) as caught:
                client.download(server.url("/silent"))
        finally:
            release.set()
    assert caught.value.reason == "timeout"
    assert folder_names(tmp_path) == []
