"""A download folder swapped for a symlink while the response is pending (issue #24, 5).

The folder is checked and opened by descriptor before the request; the temp file must be
created, renamed and removed through that descriptor, so nothing is written through the
symlink and no ``.part`` file is left anywhere.
"""

from __future__ import annotations

import os

import pytest
from helpers.loopback import RawServer, loopback_config, wait_until
from webgrip import DownloadError
from webgrip.client import WebClient

BODY = b"secret payload " * 1000


def every_file(folder) -> list[str]:
    return sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_symlink() or not p.is_dir()
    )


def swap_for_symlink(sub, outside) -> None:
    """What a local attacker who can write in the download tree does."""
    os.rename(sub, sub.with_name("sub.moved"))
    os.symlink(outside, sub)


@pytest.mark.parametrize("when", ["before-headers", "mid-body"])
def test_swapped_subfolder_writes_nothing_outside(tmp_path, when):
    root, outside = tmp_path / "dl", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    head = (
        f"HTTP/1.1 200 OK\r\nContent-Length: {len(BODY)}\r\n"
        "Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n"
    ).encode()

    def handler(conn, _request):
        if when == "before-headers":
            swap_for_symlink(root / "sub", outside)
        conn.sendall(head + BODY[:100])
        # The body is pending; wait until the client holds its temp file (in the folder its
        # descriptor points to, wherever that folder now is).
        assert wait_until(lambda: any(root.rglob(".webgrip-*.part")), 10), "no temp file"
        if when == "mid-body":
            swap_for_symlink(root / "sub", outside)
        conn.sendall(BODY[100:])

    client = WebClient(loopback_config(root))
    with RawServer(handler) as server, pytest.raises(DownloadError) as info:
        client.download(server.url("/f.bin"), save_to="sub")
    assert info.value.reason == "folder-changed"
    assert every_file(outside) == []
    # Nothing left behind: not in the moved folder the descriptor still points to either.
    assert every_file(root) == ["sub"]  # the attacker's symlink, nothing else
    assert os.path.islink(root / "sub")


def test_unswapped_subfolder_still_downloads(tmp_path):
    root = tmp_path / "dl"
    (root / "sub").mkdir(parents=True)

    def handler(conn, _request):
        conn.sendall(
            f"HTTP/1.1 200 OK\r\nContent-Length: {len(BODY)}\r\nConnection: close\r\n\r\n".encode()
            + BODY
        )

    with RawServer(handler) as server:
        result = WebClient(loopback_config(root)).download(server.url("/f.bin"), save_to="sub")
    assert result.path == os.path.join(os.path.realpath(root), "sub", "f.bin")
    assert every_file(root) == [os.path.join("sub", "f.bin")]
