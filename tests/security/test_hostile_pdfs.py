"""Hostile PDFs (issue 29): nesting that overflowed the parser's stack and killed the process,
a page tree that looped forever, a page drawing a million glyphs. Each is read in a child
interpreter, so a crash fails this test instead of ending the run; the child reports its peak
memory and the CPU its threads kept spending after the call returned.

The files are tests/fixtures/pdf/hostile-*.pdf, written by scripts/make-hostile-pdfs.py (they
are also the fuzz run's seeds for these shapes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from webgrip import Tools

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pdf"
HOSTILE = sorted(p.name for p in FIXTURES.glob("hostile-*.pdf"))

# The child: read the file, then sleep a second and see how much CPU the process spent in it
# (a worker left spinning spends the whole second).
CHILD = r"""
import json, sys, time, webgrip
# VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec (a big parent's size).
def peak_kib():
    return int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])
data = open(sys.argv[1], "rb").read()
before = peak_kib()
start = time.monotonic()
pages_read = None
try:
    doc = webgrip._core.extract_pdf(data, timeout=float(sys.argv[2]))
    text, pages_read, outcome = doc["content"], doc["pages_read"], "read"
except webgrip.WebgripError as exc:
    text, outcome = str(exc), type(exc).__name__
elapsed = time.monotonic() - start
cpu = time.process_time()
time.sleep(1.0)
after_cpu = time.process_time() - cpu
print(json.dumps({"outcome": outcome, "text": text[:300], "tail": text[-300:],
                  "pages_read": pages_read, "elapsed": elapsed,
                  "cpu_after": after_cpu,
                  "growth_mib": (peak_kib() - before)
                  / 1024}))
"""


def _child_env() -> dict[str, str]:
    import webgrip

    parent = str(Path(webgrip.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=parent + (os.pathsep + path if path else ""))


def read_in_child(path: Path, timeout: float = 10.0) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(timeout)],
        capture_output=True,
        timeout=120,
        env=_child_env(),
        check=False,
    )
    assert result.returncode == 0, (
        f"the reader died (exit {result.returncode}): {result.stderr[-1500:]!r}"
    )
    return json.loads(result.stdout)


def test_every_shape_has_a_fixture():
    assert len(HOSTILE) >= 7, HOSTILE


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_pdf_is_refused_or_read_within_bounds(name):
    got = read_in_child(FIXTURES / name, timeout=10.0)
    # Refused (or read with the page left out, saying why), never a crash or a hang.
    assert got["outcome"] in ("read", "UnsupportedContentError"), got
    if got["outcome"] == "read":
        assert "was not read" in got["text"] or got["text"].strip(), got
    assert got["elapsed"] < 11.0, got
    assert got["cpu_after"] < 0.5, f"a worker kept running after the call returned: {got}"
    assert got["growth_mib"] < 200, got


def test_nesting_is_refused_with_a_reason():
    got = read_in_child(FIXTURES / "hostile-nested-content.pdf")
    assert got["outcome"] == "UnsupportedContentError" and "nest" in got["text"], got
    loop = read_in_child(FIXTURES / "hostile-page-tree-loop.pdf")
    assert loop["outcome"] == "UnsupportedContentError" and "page tree" in loop["text"], loop
    flood = read_in_child(FIXTURES / "hostile-text-flood.pdf")
    assert flood["outcome"] == "read" and "Page 1 was not read" in flood["text"], flood
    reread = read_in_child(FIXTURES / "hostile-operands-no-operator.pdf")
    assert reread["outcome"] == "read" and "reread without end" in reread["text"], reread


def test_pages_naming_one_content_stream_pay_for_it_within_the_documents_budget():
    # Fifty alike page objects naming one 3.96 MB stream are read once and shown fifty times.
    alike = read_in_child(FIXTURES / "hostile-shared-content.pdf")
    assert alike["outcome"] == "read" and alike["pages_read"] == 50, alike
    assert "Line 3 of the page that every page names" in alike["tail"], alike
    # Fifty that differ each pay for it: the reading stops at 64 MiB of content, saying so.
    varied = read_in_child(FIXTURES / "hostile-shared-content-varied.pdf")
    assert varied["outcome"] == "read" and varied["pages_read"] == 16, varied
    assert (
        "[Only the first 16 of 50 pages were read: together they draw from more than the "
        "64 MiB of content a document may hold.]" in varied["tail"]
    ), varied


def test_fetch_page_survives_every_hostile_pdf(tmp_path, httpserver):
    """Through the agent's tool on loopback: an error string or text, and the process lives."""
    for name in HOSTILE:
        httpserver.expect_request(f"/{name}").respond_with_data(
            (FIXTURES / name).read_bytes(), content_type="application/pdf"
        )
    tools = Tools(loopback_config(tmp_path))
    for name in HOSTILE:
        answer = tools.fetch_page(httpserver.url_for(f"/{name}"))
        assert isinstance(answer, str) and answer, name
