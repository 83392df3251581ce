"""The wheel carries the notices of third-party data compiled into the extension.

Adobe's BSD-3 licence on the CMap tables in ``rust/pdf/src/adobe_cmaps_data.rs`` asks a binary
distribution to reproduce its notice: the package ships it as ``THIRD_PARTY_NOTICES.txt``, and
this test runs against the installed package, so a wheel without it fails.
"""

from __future__ import annotations

from pathlib import Path

import webgrip

ROOT = Path(__file__).resolve().parents[2]
RULE = "-----------------------------------------------------------"


def _notice_of_generated_tables() -> str:
    lines = (ROOT / "rust" / "pdf" / "src" / "adobe_cmaps_data.rs").read_text().splitlines()
    start = lines.index(f"// {RULE}")
    end = lines.index(f"// {RULE}", start + 1)
    return "\n".join(line.removeprefix("//").removeprefix(" ") for line in lines[start : end + 1])


def test_the_package_carries_the_notice_of_the_adobe_tables() -> None:
    shipped = (Path(webgrip.__file__).parent / "THIRD_PARTY_NOTICES.txt").read_text()
    notice = _notice_of_generated_tables()
    assert "Copyright 1990-2019 Adobe" in notice
    assert notice in shipped
