"""PDFs are read in worker processes (issue 45): a reader that crashes, runs out of memory or
outlives its deadline fails its own call, is replaced, and leaves nothing running.

The crash is forced with the pool's memory allowance set far below what a plain document
needs to inflate; the same document reads with the default allowance, so the limit is what
stopped it. Fixtures: tests/fixtures/pdf/ (see its README).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.loopback import loopback_config, wait_until
from webgrip import (
    FetchTimeoutError,
    ResponseTooLargeError,
    Tools,
    UnsupportedContentError,
    _cancel,
    _core,
    _pdfpool,
    extract_pdf,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pdf"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def _one_page_pdf(content: bytes) -> bytes:
    """A one-page PDF whose page content is ``content`` (Flate-compressed here)."""
    stream = zlib.compress(content, 9)
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 "
        b"/BaseFont /Helvetica >> >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


#: A page whose 40 MiB of content (text, then spaces: under every core limit) must be
#: inflated to be read.
ROOMY = _one_page_pdf(b"BT /F1 12 Tf 72 720 Td (Roomy page) Tj ET" + b" " * (40 << 20))


def _child_state(pid: int) -> str | None:
    """The state letter of ``pid`` if it is still this process's child (``"Z"``: a zombie
    nobody reaped), else ``None`` (Linux)."""
    try:
        state, ppid = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:2]
    except (OSError, ValueError):
        return None
    return state if ppid == str(os.getpid()) else None


def _readers() -> list[int]:
    """This process's reader children that are still running (Linux)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _child_state(int(entry.name)) not in (None, "Z"):
            try:
                if b"_pdfpool" in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return sorted(found)


def _no_readers() -> None:
    """Kill (and reap) every reader: the next call starts a new one."""
    _pdfpool.stop_workers()


def _one_stopped_reader() -> int:
    """Leave the pool one reader, stopped (``SIGSTOP``): it takes requests and never answers,
    like a reader stuck in a parse."""
    _no_readers()
    extract_pdf(fixture("columns.pdf"))  # the dead are cleared out; one new reader
    (pid,) = _pdfpool.worker_pids()
    os.kill(pid, signal.SIGSTOP)
    assert wait_until(lambda: _child_state(pid) == "T")  # stopped before any call reaches it
    return pid


linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def test_the_pool_reads_like_the_core():
    data = fixture("running.pdf")
    assert _pdfpool.extract_pdf(data) == _core.extract_pdf(data)
    assert _pdfpool.extract_pdf(data, mode="markdown", max_pages=1) == _core.extract_pdf(
        data, mode="markdown", max_pages=1
    )
    assert _pdfpool.worker_pids()


def test_errors_come_back_with_their_class_and_fields():
    with pytest.raises(UnsupportedContentError) as info:
        _pdfpool.extract_pdf(fixture("encrypted-password.pdf"), url="https://example.org/a.pdf")
    assert info.value.reason == "password-protected"
    assert info.value.content_type == "application/pdf"
    assert info.value.url == "https://example.org/a.pdf"
    with pytest.raises(UnsupportedContentError) as info:
        extract_pdf(b"%PDF-1.7\nthis is not really a PDF at all")
    assert info.value.reason == "malformed-pdf"
    with pytest.raises(ValueError, match="unknown mode"):
        _pdfpool.extract_pdf(fixture("running.pdf"), mode="html")
    with pytest.raises(ResponseTooLargeError) as too_large:
        _pdfpool.extract_pdf(b"%PDF-1.7\n" + bytes(256 * 1024 * 1024))
    assert too_large.value.limit == 256 * 1024 * 1024
    assert "Secret!" in extract_pdf(fixture("rc4-40-user-baz.pdf"), password="baz")


@pytest.mark.parametrize("earlier_reads", [0, 3])
def test_a_reader_out_of_memory_fails_its_call_alone_and_the_next_call_reads(earlier_reads):
    """On a new reader and on one that earlier reads left holding memory: stopped by its
    address-space cap or by the parent's watch on its resident memory, whichever comes
    first; the default allowance reads the same document."""
    _no_readers()
    for _ in range(earlier_reads):
        assert "Roomy page" in _pdfpool.extract_pdf(ROOMY)["content"]
    with pytest.raises(UnsupportedContentError) as info:
        _pdfpool.extract_pdf(ROOMY, memory_bytes=4 << 20)
    assert info.value.reason == "malformed-pdf"
    assert "PDF reader process stopped on this document" in str(info.value)
    assert "final office flow" in extract_pdf(fixture("ligatures.pdf"))
    assert "Roomy page" in _pdfpool.extract_pdf(ROOMY)["content"]


def test_the_agent_gets_an_error_line_and_its_next_fetch_reads(tmp_path, httpserver, monkeypatch):
    """Through the tool: a PDF that exhausts its reader (the allowance made tiny while it is
    read) answers with an ``Error:`` line saying so, and the agent's next PDF reads."""
    httpserver.expect_request("/roomy.pdf").respond_with_data(ROOMY, content_type="application/pdf")
    httpserver.expect_request("/doc.pdf").respond_with_data(
        fixture("ligatures.pdf"), content_type="application/pdf"
    )
    tools = Tools(loopback_config(tmp_path))
    _no_readers()
    monkeypatch.setattr(_pdfpool, "DEFAULT_MEMORY_BYTES", 4 << 20)
    answer = tools.fetch_page(httpserver.url_for("/roomy.pdf"), extract="text")
    assert answer.startswith("Error:"), answer
    assert "is a PDF that cannot be read" in answer and "PDF reader process stopped" in answer
    monkeypatch.undo()
    assert "final office flow" in tools.fetch_page(httpserver.url_for("/doc.pdf"), extract="text")


@linux_only
def test_a_reader_killed_between_calls_is_replaced():
    extract_pdf(fixture("columns.pdf"))
    before = _pdfpool.worker_pids()
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: all(_child_state(pid) in (None, "Z") for pid in before))
    assert "final office flow" in extract_pdf(fixture("ligatures.pdf"))
    assert not set(_pdfpool.worker_pids()) & set(before)


@linux_only
def test_past_its_deadline_the_reader_is_killed_and_replaced():
    """A call whose reader has not answered by the deadline returns the core's timeout error,
    and its reader is gone (reaped, not a zombie): nothing spends CPU for the call after it
    returned. The next call gets a new reader."""
    stuck = _one_stopped_reader()
    with pytest.raises(FetchTimeoutError) as info:
        _pdfpool.extract_pdf(fixture("running.pdf"), timeout=0.2, url="https://example.org/")
    assert info.value.reason == "timeout"
    assert "reading the page (a PDF)" in str(info.value)
    assert info.value.url == "https://example.org/"
    assert _child_state(stuck) is None  # killed and reaped
    assert _readers() == _pdfpool.worker_pids()
    assert extract_pdf(fixture("running.pdf"))


def _in_thread(read: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    """``read()`` started on a thread; the list gets its result or exception."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(read())
        except BaseException as exc:  # checked by the test
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def _resident(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@linux_only
def test_a_reader_killed_mid_read_fails_that_call_alone():
    """The reader is killed while it reads the roomy page (seen by its memory growing):
    that call fails with what happened, the next call reads."""
    _no_readers()
    extract_pdf(fixture("columns.pdf"))
    (pid,) = _pdfpool.worker_pids()
    idle = _resident(pid)
    thread, outcome = _in_thread(lambda: _pdfpool.extract_pdf(ROOMY))
    assert wait_until(lambda: _resident(pid) > idle + (16 << 20))
    os.kill(pid, signal.SIGKILL)
    thread.join(60)
    assert len(outcome) == 1 and isinstance(outcome[0], UnsupportedContentError), outcome
    assert outcome[0].reason == "malformed-pdf"
    assert "it was killed (SIGKILL)" in str(outcome[0])
    assert "final office flow" in extract_pdf(fixture("ligatures.pdf"))
    assert pid not in _pdfpool.worker_pids()


@linux_only
def test_a_reader_that_died_before_reading_the_request_passes_the_call_on():
    """A reader killed with the whole request still unread in its pipe did not die of this
    document: the call goes to a new reader and succeeds."""
    stuck = _one_stopped_reader()
    thread, outcome = _in_thread(lambda: extract_pdf(fixture("ligatures.pdf")))
    assert wait_until(lambda: _pdfpool.worker_pids(busy=True) == [stuck])
    os.kill(stuck, signal.SIGKILL)
    thread.join(60)
    assert len(outcome) == 1 and "final office flow" in str(outcome[0]), outcome
    assert stuck not in _pdfpool.worker_pids()


def test_a_cancelled_call_raises_the_cancel_error():
    token = _core.CancelToken()
    token.cancel()
    with _cancel.cancel_scope(token), pytest.raises(FetchTimeoutError) as info:
        extract_pdf(fixture("running.pdf"))
    assert info.value.reason == "cancelled"


def test_concurrent_calls_each_get_a_reader():
    names = ["columns.pdf", "running.pdf", "structure.pdf", "ligatures.pdf"] * 3
    expected = {name: _core.extract_pdf(fixture(name))["content"] for name in set(names)}
    got: dict[int, str] = {}
    failures: list[BaseException] = []

    def read(i: int, name: str) -> None:
        try:
            got[i] = extract_pdf(fixture(name))
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=read, args=(i, n)) for i, n in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert [got[i] for i in range(len(names))] == [expected[n] for n in names]
    assert len(_pdfpool.worker_pids()) <= _pdfpool.DEFAULT_WORKERS


@linux_only
def test_readers_end_with_their_host_however_it_ends():
    """A host killed without running its exit handlers still takes its readers with it:
    each reader ends when its input pipe closes."""
    import webgrip

    package_parent = str(Path(webgrip.__file__).resolve().parent.parent)
    code = (
        f"import os, sys; sys.path.insert(0, {package_parent!r})\n"
        "from webgrip import _pdfpool, extract_pdf\n"
        f"extract_pdf(open({str(FIXTURES / 'columns.pdf')!r}, 'rb').read())\n"
        "print(*_pdfpool.worker_pids(), flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=60, check=False
    )
    pids = [int(p) for p in result.stdout.split()]
    assert pids, result.stderr[-2000:]

    def gone() -> bool:
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":  # a zombie waits for its new parent to reap it: it runs nothing
                return False
        return True

    assert wait_until(gone, timeout=30)
