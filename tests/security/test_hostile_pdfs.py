"""Hostile PDFs (issue 29): nesting that overflowed the parser's stack and killed the process,
a page tree that looped forever, a page drawing a million glyphs. Each is read in a child
interpreter, so a crash fails this test instead of ending the run; the child reports its peak
memory and the CPU its threads kept spending after the call returned.

The files are tests/fixtures/pdf/hostile-*.pdf, written by tests/fixtures/pdf/make_hostile.py (they
are also the fuzz run's seeds for these shapes)."""

from __future__ import annotations

import pytest
from helpers.loopback import loopback_config
from helpers.pdf_child import CPU_BUDGET, DEADLINE, FIXTURES, HOSTILE, read_in_child
from webgrip import Tools


def test_every_shape_has_a_fixture():
    assert len(HOSTILE) >= 7, HOSTILE


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_pdf_is_refused_or_read_within_bounds(name):
    got = read_in_child(FIXTURES / name)
    # Refused (or read with the page left out, saying why), never a crash or a hang (a read
    # that hangs ends at the deadline, as a FetchTimeoutError).
    assert got["outcome"] in ("read", "UnsupportedContentError"), got
    if got["outcome"] == "read":
        assert "was not read" in got["text"] or got["text"].strip(), got
    assert got["cpu"] < CPU_BUDGET, got
    assert got["elapsed"] < DEADLINE * 1.1, got
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
