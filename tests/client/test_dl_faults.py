"""Faults injected into real downloads (issue #16): the disk fills up, the folder is removed or
made read-only mid-body, the process is SIGKILLed mid-body, two processes save the same name.

Each fault is real: a child interpreter with ``RLIMIT_FSIZE`` (or a 256 KiB tmpfs in a user
namespace), ``chmod``/``chattr +i`` on the folder, ``rmtree``, ``SIGKILL``. The rule checked
every time: a typed error (``DownloadError``, or an ``Error:`` line from the tool), nothing
under the final name unless the file is complete, and no temp file left except the one a
killed process could not remove — which the next run's sweep removes once it is stale.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers.loopback import RawServer, loopback_config, wait_until
from webgrip import DownloadError, Tools
from webgrip.client import WebClient
from webgrip.downloads import STALE_TEMP_SECONDS, TEMP_NAME

BODY = bytes(range(256)) * 4096  # 1 MiB

# One download run in a child interpreter, told what to do by a JSON argument; prints what
# happened as JSON (its listing of the folder too: a tmpfs mount is visible only in there).
CHILD = r"""
import json, os, resource, signal, subprocess, sys
args = json.loads(sys.argv[1])
if args.get("fsize"):
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() then fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (args["fsize"], args["fsize"]))
if args.get("tmpfs"):
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + args["tmpfs"], "tmpfs",
                    args["dir"]], check=True)
from webgrip import Config, Tools, WebgripError
from webgrip.client import WebClient
config = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=20,
                download_dirs=(args["dir"],))
out = {"results": []}
with WebClient(config) as client:
    for url in args.get("urls", []):
        try:
            d = client.download(url, filename=args.get("filename"))
            out["results"].append({"path": d.path, "size": d.size, "sha256": d.sha256})
        except WebgripError as exc:
            out["results"].append({"error": type(exc).__name__, "reason": exc.reason,
                                   "message": str(exc)})
if args.get("tool_url"):
    out["tool"] = Tools(config).download_file(args["tool_url"])
out["listing"] = sorted(os.listdir(args["dir"]))
print(json.dumps(out))
"""


def child_env() -> dict[str, str]:
    """A child interpreter imports the webgrip this test imports (source tree or site-packages)."""
    import webgrip

    parent = str(Path(webgrip.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=parent + (os.pathsep + path if path else ""))


def child_command(args: dict, prefix: tuple[str, ...] = ()) -> list[str]:
    return [*prefix, sys.executable, "-c", CHILD, json.dumps(args)]


def run_child(args: dict, prefix: tuple[str, ...] = ()) -> dict:
    done = subprocess.run(
        child_command(args, prefix),
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def serve(body: bytes = BODY):
    def handler(conn, _request):
        conn.sendall(
            f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nContent-Type: "
            "application/octet-stream\r\nConnection: close\r\n\r\n".encode()
            + body
        )

    return RawServer(handler)


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_NAME.fullmatch(p.name))


class Paused:
    """A server that sends the headers and ``first`` body bytes, then runs ``fault()`` once
    the client holds its temp file in ``watch``, then sends the rest (or waits for the end)."""

    def __init__(self, watch: Path, fault=None, *, first: int = 64 * 1024, hang=False):
        self.released = threading.Event()

        def handler(conn, _request):
            conn.sendall(
                f"HTTP/1.1 200 OK\r\nContent-Length: {len(BODY)}\r\nContent-Type: "
                "application/octet-stream\r\nConnection: close\r\n\r\n".encode()
                + BODY[:first]
            )
            if not wait_until(lambda: watch.is_dir() and temp_files(watch)):
                return
            if fault is not None:
                fault()
            if hang:
                self.released.wait(30)
                return
            conn.sendall(BODY[first:])

        self.server = RawServer(handler)

    def __enter__(self) -> RawServer:
        return self.server

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.server.close()


# -- disk full --------------------------------------------------------------------------------
def test_disk_full_by_file_size_limit_leaves_nothing(tmp_path):
    # RLIMIT_FSIZE: the kernel refuses writes past 256 KiB, as a full disk refuses the next
    # block. The 1 MiB body fails; the small one saved after it shows the client still works.
    folder = tmp_path / "dl"
    folder.mkdir()
    with serve() as big, serve(b"small") as small:
        out = run_child(
            {
                "dir": str(folder),
                "fsize": 256 * 1024,
                "urls": [big.url("/big.bin"), small.url("/small.txt")],
                "tool_url": big.url("/again.bin"),
            }
        )
    failed, saved = out["results"]
    assert failed["error"] == "DownloadError" and failed["reason"] == "io", failed
    assert "File too large" in failed["message"]
    assert out["tool"].startswith("Error: ") and "File too large" in out["tool"]
    assert saved["size"] == 5 and saved["path"].endswith("small.txt")
    assert out["listing"] == ["small.txt"]  # no partial file, no final name for the big one
    assert sorted(os.listdir(folder)) == ["small.txt"]


def test_disk_full_on_a_small_tmpfs_leaves_nothing(tmp_path):
    # A real ENOSPC: a 256 KiB tmpfs mounted in a user + mount namespace of the child.
    probe = (
        subprocess.run(["unshare", "-rm", "true"], capture_output=True, check=False)
        if shutil.which("unshare")
        else None
    )
    if probe is None or probe.returncode != 0:
        pytest.skip("no user namespaces here to mount a small tmpfs")
    folder = tmp_path / "mnt"
    folder.mkdir()
    with serve() as big, serve(b"small") as small:
        out = run_child(
            {
                "dir": str(folder),
                "tmpfs": "256k",
                "urls": [big.url("/big.bin"), small.url("/small.txt")],
            },
            prefix=("unshare", "-rm"),
        )
    failed, saved = out["results"]
    assert failed["error"] == "DownloadError" and "No space left" in failed["message"], failed
    assert saved["size"] == 5
    assert out["listing"] == ["small.txt"]


# -- the folder changes under a download ------------------------------------------------------
def test_folder_removed_mid_download(tmp_path):
    root = tmp_path / "dl"
    sub = root / "sub"
    sub.mkdir(parents=True)
    client = WebClient(loopback_config(root))
    with Paused(sub, lambda: shutil.rmtree(sub)) as server, pytest.raises(DownloadError) as info:
        client.download(server.url("/f.bin"), save_to="sub")
    assert info.value.reason == "folder-changed"
    assert "was removed during the download" in str(info.value)
    assert list(root.iterdir()) == []
    # The same client saves into the folder again once it exists (it is created anew).
    with serve() as server:
        saved = client.download(server.url("/f.bin"), save_to="sub")
    assert Path(saved.path).read_bytes() == BODY and os.listdir(sub) == ["f.bin"]


@contextlib.contextmanager
def read_only(folder: Path):
    """Make ``folder`` refuse new names and removals: ``chattr +i`` for root (whom mode bits
    do not stop), ``chmod 0555`` otherwise. Skips when neither works here."""
    undo = None

    def lock() -> None:
        nonlocal undo
        if os.geteuid() == 0:
            if (
                shutil.which("chattr")
                and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode
                == 0
            ):
                undo = ["chattr", "-i", str(folder)]
        else:
            folder.chmod(0o555)
            undo = "chmod"

    try:
        yield lock
    finally:
        if undo == "chmod":
            folder.chmod(0o755)
        elif undo:
            subprocess.run(undo, check=True)


def test_folder_made_read_only_mid_download(tmp_path):
    folder = tmp_path / "dl"
    folder.mkdir()
    client = WebClient(loopback_config(folder))
    with read_only(folder) as lock:
        with Paused(folder, lock) as server, pytest.raises(DownloadError) as info:
            client.download(server.url("/f.bin"))
        if not any(folder.iterdir()):
            pytest.skip("could not make a folder read-only here")
        leftovers = temp_files(folder)
    # A typed error (it used to be a bare PermissionError from the temp file's removal) that
    # names the partial file the folder would not let go of; nothing under the final name.
    assert info.value.reason == "os-error", info.value
    assert len(leftovers) == 1 and sorted(os.listdir(folder)) == leftovers
    assert f"the partial file {folder.resolve() / leftovers[0]} could not be removed" in str(
        info.value
    )
    assert (folder / leftovers[0]).stat().st_size == len(BODY)
    # Writable again, and the leftover stale: the next run sweeps it and saves normally.
    old = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(folder / leftovers[0], (old, old))
    with serve() as server:
        out = run_child({"dir": str(folder), "urls": [server.url("/f.bin")]})
    assert out["listing"] == ["f.bin"]


def test_tool_reports_a_folder_made_read_only(tmp_path):
    folder = tmp_path / "dl"
    folder.mkdir()
    tools = Tools(loopback_config(folder))
    with read_only(folder) as lock, Paused(folder, lock) as server:
        answer = tools.download_file(server.url("/f.bin"))
    if not any(folder.iterdir()):
        pytest.skip("could not make a folder read-only here")
    assert answer.startswith("Error: ") and "could not be removed" in answer, answer
    assert temp_files(folder) == sorted(os.listdir(folder))


# -- SIGKILL mid-download, and the sweep on the next run --------------------------------------
def test_sigkill_mid_download_then_the_next_run_sweeps(tmp_path):
    folder = tmp_path / "dl"
    folder.mkdir()
    with Paused(folder, first=3 * 128 * 1024, hang=True) as stalled:
        child = subprocess.Popen(
            child_command({"dir": str(folder), "urls": [stalled.url("/report.pdf")]}),
            env=child_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert wait_until(lambda: temp_files(folder), 30), "the child never started"
            assert wait_until(lambda: (folder / temp_files(folder)[0]).stat().st_size > 0)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(30)
    assert child.returncode == -signal.SIGKILL
    # Nothing under the final name; the one leftover is recognisable by its name.
    (leftover,) = os.listdir(folder)
    assert TEMP_NAME.fullmatch(leftover)

    # Things the sweep must leave alone, all with matching-looking names and old times: a
    # symlink to a file outside (never followed), a folder, a foreign name, a user's file.
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep me")
    os.symlink(outside, folder / ".webgrip-00000000000000aa.part")
    (folder / ".webgrip-00000000000000bb.part").mkdir()
    (folder / ".webgrip-notours.part").write_bytes(b"x")
    (folder / "thesis.part").write_bytes(b"x")
    old = time.time() - STALE_TEMP_SECONDS - 60
    for name in os.listdir(folder):
        os.utime(folder / name, (old, old), follow_symlinks=False)

    # A fresh leftover (another process may still be writing it) survives a run ...
    os.utime(folder / leftover, None)
    with serve(b"one") as server:
        out = run_child({"dir": str(folder), "urls": [server.url("/one.txt")]})
    assert leftover in out["listing"] and "one.txt" in out["listing"]
    # ... a stale one is swept by the next.
    os.utime(folder / leftover, (old, old))
    with serve(b"two") as server:
        out = run_child({"dir": str(folder), "urls": [server.url("/two.txt")]})
    assert out["listing"] == sorted(
        [
            ".webgrip-00000000000000aa.part",
            ".webgrip-00000000000000bb.part",
            ".webgrip-notours.part",
            "one.txt",
            "thesis.part",
            "two.txt",
        ]
    )
    assert outside.read_bytes() == b"keep me"


# -- two processes, one name ------------------------------------------------------------------
def test_processes_saving_the_same_name_at_once_lose_nothing(tmp_path):
    # The server holds every answer until all requests are in, so the children race for the
    # name with complete files; each gets a different body to tell the files apart.
    folder = tmp_path / "dl"
    folder.mkdir()
    parties = 4
    barrier = threading.Barrier(parties)
    bodies = [bytes([i]) * (200_000 + i) for i in range(parties)]
    served = iter(range(parties))
    lock = threading.Lock()

    def handler(conn, _request):
        with lock:
            body = bodies[next(served)]
        barrier.wait(30)
        conn.sendall(
            f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body
        )

    with RawServer(handler) as server:
        children = [
            subprocess.Popen(
                child_command({"dir": str(folder), "urls": [server.url("/report.pdf")]}),
                env=child_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(parties)
        ]
        outputs = [c.communicate(timeout=60) for c in children]
    assert all(c.returncode == 0 for c in children), [e[-2000:] for _, e in outputs]
    names = ["report.pdf", *(f"report ({n}).pdf" for n in range(1, parties))]
    assert sorted(os.listdir(folder)) == sorted(names)
    assert sorted((folder / n).read_bytes() for n in names) == bodies
    paths = sorted(
        json.loads(o.decode().strip().splitlines()[-1])["results"][0]["path"] for o, _ in outputs
    )
    assert paths == sorted(str(folder.resolve() / n) for n in names)
