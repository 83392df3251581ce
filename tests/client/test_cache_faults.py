"""Faults injected into the SQLite page cache (issue #16): bytes garbled inside an entry, the
file truncated or overwritten with garbage at many offsets, processes writing at once while
one of them is SIGKILLed mid-write.

The rule checked every time: no exception reaches the caller, a warning when something was
found, the cache works again afterwards (rebuilt if need be), and never a wrong page served —
every answer is either the page the origin serves or went to the origin.
"""

from __future__ import annotations

import functools
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from webgrip.cache import DB_FILENAME, PageCache
from webgrip.client import Response

URLS = [f"http://example.test/page/{i}" for i in range(40)]
FILLER = bytes(range(251))


@functools.cache
def body_for(url: str) -> bytes:
    """The one right body for ``url``: its URL, then filler whose length depends on it (some
    entries span SQLite overflow pages, some fit in one page)."""
    size = 200 + (sum(url.encode()) * 97) % 30_000
    start = sum(url.encode()) % 251
    return f"<p>{url}</p>".encode() + (FILLER * (size // 251 + 2))[start : start + size]


def respond(url: str, body: bytes | None = None) -> Response:
    return Response._from_raw(
        {
            "url": url,
            "status": 200,
            "headers": [("content-type", "text/html")],
            "content": body_for(url) if body is None else body,
            "content_type": "text/html",
            "charset": None,
            "redirects": [],
            "remote_addr": "127.0.0.1:80",
            "elapsed": 0.0,
        }
    )


class Origin:
    """Answers every URL with its right body; counts requests."""

    def __init__(self) -> None:
        self.requests = 0

    def for_url(self, url: str):
        def send(_extra):
            self.requests += 1
            return respond(url)

        return send


def filled(directory: Path) -> bytes:
    """A closed cache file holding every URL (checkpointed: all of it in the main file)."""
    cache = PageCache(str(directory), 3600)
    origin = Origin()
    for url in URLS:
        cache.get(url, origin.for_url(url))
    cache.close()
    data = (directory / DB_FILENAME).read_bytes()
    assert (
        not (directory / (DB_FILENAME + "-wal")).exists()
        or (directory / (DB_FILENAME + "-wal")).stat().st_size == 0
    )
    return data


def check_every_answer(directory: Path) -> dict[str, int]:
    """Open the cache in ``directory`` and ask for every URL twice: each answer must be the
    right page; the second round must come from the (possibly rebuilt) cache."""
    cache = PageCache(str(directory), 3600)
    origin = Origin()
    sources: dict[str, int] = {}
    try:
        for _round in range(2):
            for url in URLS:
                response, source = cache.get(url, origin.for_url(url))
                assert response.content == body_for(url), (url, source)
                sources[source] = sources.get(source, 0) + 1
        assert cache.enabled
    finally:
        cache.close()
    assert sources.get("cache", 0) >= len(URLS), sources
    return sources


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> bytes:
    return filled(tmp_path_factory.mktemp("pristine"))


def test_bytes_garbled_inside_an_entry_are_caught_not_served(tmp_path, pristine, caplog):
    # A few bytes of one page's body flipped on disk: SQLite has no checksums and would hand
    # them back as they are; the entry's digest does not match, so it is dropped and fetched.
    victim = URLS[7]
    marker = f"<p>{victim}</p>".encode()
    at = pristine.index(marker) + len(marker) + 5
    damaged = bytearray(pristine)
    damaged[at : at + 4] = bytes(b ^ 0xFF for b in damaged[at : at + 4])
    (tmp_path / DB_FILENAME).write_bytes(bytes(damaged))
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        sources = check_every_answer(tmp_path)
    assert sources == {"network": 1, "cache": 2 * len(URLS) - 1}
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "failed its integrity check" in warning and victim in warning


def cut_points(size: int) -> list[int]:
    page = 4096
    return sorted(
        {
            0,
            1,
            100,
            99 + page,
            page,
            2 * page,
            size // 4,
            size // 3,
            size // 2,
            2 * size // 3,
            3 * size // 4,
            size - page,
            size - 1,
        }
    )


def test_truncated_file_at_many_offsets_never_serves_a_wrong_page(tmp_path, pristine, caplog):
    # A file cut short (a copy or a crash mid-write on a filesystem without ordering): every
    # cut gives right answers only, and a working cache again afterwards.
    warned = 0
    for n, cut in enumerate(cut_points(len(pristine))):
        directory = tmp_path / f"cut{n}"
        directory.mkdir()
        (directory / DB_FILENAME).write_bytes(pristine[:cut])
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="webgrip"):
            check_every_answer(directory)
        warned += any(r.levelno == logging.WARNING for r in caplog.records)
    assert warned >= len(cut_points(len(pristine))) - 3  # most cuts are noticed, all survived


def test_garbage_written_over_the_file_at_many_offsets(tmp_path, pristine, caplog):
    # 1 KiB of random bytes over the header, the schema, index and data pages; then the whole
    # file replaced by garbage.
    rng = random.Random(16)
    offsets = [0, 16, 100, 4096, 8192, *sorted(rng.randrange(len(pristine)) for _ in range(20))]
    for n, offset in enumerate(offsets):
        directory = tmp_path / f"garbage{n}"
        directory.mkdir()
        damaged = bytearray(pristine)
        damaged[offset : offset + 1024] = rng.randbytes(len(damaged[offset : offset + 1024]))
        (directory / DB_FILENAME).write_bytes(bytes(damaged))
        check_every_answer(directory)
    whole = tmp_path / "whole"
    whole.mkdir()
    (whole / DB_FILENAME).write_bytes(rng.randbytes(len(pristine)))
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        assert check_every_answer(whole) == {"network": len(URLS), "cache": len(URLS)}
    assert any("rebuilt it empty" in r.getMessage() for r in caplog.records)


def test_file_overwritten_while_a_cache_has_it_open(tmp_path, caplog):
    cache = PageCache(str(tmp_path), 3600)
    origin = Origin()
    for url in URLS:
        cache.get(url, origin.for_url(url))
    cache.get(URLS[0], origin.for_url(URLS[0]))
    path = tmp_path / DB_FILENAME
    with open(path, "r+b") as f:  # the same inode, garbage from the first byte on
        f.write(random.Random(1).randbytes(path.stat().st_size))
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        for _round in range(2):
            for url in URLS:
                response, _ = cache.get(url, origin.for_url(url))
                assert response.content == body_for(url)
    cache.close()
    check_every_answer(tmp_path)  # and a new client finds a working cache


# -- several processes at once ------------------------------------------------------------------
WRITER = textwrap.dedent("""
    import sys
    from webgrip.cache import PageCache
    from webgrip.client import Response

    directory, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    cache = PageCache(directory, 3600)

    def body(url, i):
        # Self-describing: the URL, then a filler whose length and bytes depend on the URL
        # and the round, so a mixed-up or torn entry cannot pass the reader's check.
        head = f"<p>{url}|{name}|{i}|</p>".encode()
        return head + bytes([i % 251]) * (1000 + (i * 7919) % 40_000)

    i = 0
    while rounds < 0 or i < rounds:
        for url in (f"http://example.test/shared/{i % 20}", f"http://example.test/{name}/{i}"):
            def send(extra, url=url):
                return Response._from_raw({
                    "url": url, "status": 200, "headers": [], "content": body(url, i),
                    "content_type": "text/html", "charset": None, "redirects": [],
                    "remote_addr": "127.0.0.1:80", "elapsed": 0.0})
            cache.store(cache.key(url), send(()))
        if i == 10:
            print("writing", flush=True)
        i += 1
    assert cache.enabled
    print("ok", flush=True)
""")


def well_formed(url: str, content: bytes) -> bool:
    head, sep, rest = content.partition(b"|</p>")
    if not sep:
        return False
    stored_url, _, i = head.removeprefix(b"<p>").decode().rsplit("|", 2)
    i = int(i)
    return stored_url == url and rest == bytes([i % 251]) * (1000 + (i * 7919) % 40_000)


def test_processes_writing_at_once_one_killed_mid_write(tmp_path, caplog):
    env = dict(os.environ)
    import webgrip

    parent = str(Path(webgrip.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")

    def start(name: str, rounds: int) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), name, str(rounds)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )

    victim = start("victim", -1)  # writes until killed
    line = victim.stdout.readline()
    assert line.strip() == b"writing", victim.stderr.read()[-2000:]
    writers = [start(f"w{n}", 60) for n in range(4)]
    # Let the others get going, then kill the victim in the middle of its stream of writes.
    stop = threading.Event()
    deadline = time.monotonic() + 10
    while not stop.wait(0.01):
        with sqlite3.connect(tmp_path / DB_FILENAME, timeout=5) as probe:
            if probe.execute("SELECT count(*) FROM pages").fetchone()[0] > 80:
                break
        assert time.monotonic() < deadline
    victim.send_signal(signal.SIGKILL)
    victim.wait(10)
    for w in writers:
        out, err = w.communicate(timeout=120)
        assert w.returncode == 0 and out.split()[-1] == b"ok", err[-3000:]

    with sqlite3.connect(tmp_path / DB_FILENAME) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        urls = [row[0] for row in conn.execute("SELECT url FROM pages")]
    names = {u.split("/")[3] for u in urls}
    assert {"shared", "victim", "w0", "w1", "w2", "w3"} <= names
    assert len([u for u in urls if "/w" in u]) == 4 * 60

    cache = PageCache(str(tmp_path), 3600)

    def never(_extra):
        raise AssertionError("every stored entry must be served from the cache")

    with caplog.at_level(logging.WARNING, logger="webgrip"):
        for url in urls:
            response, source = cache.get(url, never)
            assert source == "cache" and well_formed(url, response.content), url
    cache.close()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
