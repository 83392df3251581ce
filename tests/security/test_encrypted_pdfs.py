"""Encrypted hostile PDFs (issue 45, F2 and F3): with the empty user password, RC4-40 hid
nesting from the pre-pass (500,000 arrays in a form and 1,000,000 in an object stream killed
the process), and switched off the inflate, form and rereading charges. The pre-passes now read
the streams decrypted, so each shape is refused or read within bounds as its plain twin is; and
documents encrypted with each standard handler (RC4-128, AES-128, AES-256) still read.

The files are tests/fixtures/pdf/hostile-encrypted-*.pdf and encrypted-*.pdf, written by
tests/fixtures/pdf/make_hostile.py; each is read in a child interpreter (see test_hostile_pdfs.py),
which reports its peak memory and the CPU spent after the call returned."""

from __future__ import annotations

import pytest
from helpers.pdf_child import CPU_BUDGET, DEADLINE, FIXTURES, read_in_child


def assert_bounded(got: dict) -> None:
    assert got["cpu"] < CPU_BUDGET, got
    assert got["elapsed"] < DEADLINE * 1.1, got
    assert got["cpu_after"] < 0.5, f"a worker kept running after the call returned: {got}"
    assert got["growth_mib"] < 200, got


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("hostile-encrypted-nested-form.pdf", "nest 500000 deep (the limit is 1000)"),
        ("hostile-encrypted-nested-objstm.pdf", "nest 1000000 deep (the limit is 1000)"),
        ("hostile-encrypted-nested-100k.pdf", "nest 100000 deep (the limit is 1000)"),
        ("hostile-encrypted-bomb.pdf", "a compressed stream expands past the 64 MiB limit"),
    ],
)
def test_an_encrypted_hostile_pdf_is_refused_with_its_reason(name, reason):
    got = read_in_child(FIXTURES / name)
    assert got["outcome"] == "UnsupportedContentError" and reason in got["text"], got
    assert_bounded(got)


def test_an_encrypted_form_painted_599_times_is_charged_to_its_page():
    got = read_in_child(FIXTURES / "hostile-encrypted-form-repeat.pdf")
    assert got["outcome"] == "read", got
    assert "[Page 1 was not read: it draws more text than a page can hold.]" in got["text"], got
    assert_bounded(got)


@pytest.mark.parametrize(
    "name", ["encrypted-rc4-128.pdf", "encrypted-aes-128.pdf", "encrypted-aes-256.pdf"]
)
def test_a_document_under_each_standard_handler_still_reads(name):
    got = read_in_child(FIXTURES / name)
    assert got["outcome"] == "read", got
    assert "An encrypted document that reads with the empty user password." in got["text"], got
    assert_bounded(got)


def test_an_encrypted_object_stream_still_reads():
    got = read_in_child(FIXTURES / "encrypted-objstm-rc4-40.pdf")
    assert got["outcome"] == "read" and "Page text" in got["text"], got
