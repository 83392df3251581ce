"""The readable (main-content) rule cases in ``rust/extract/tests/readable/``, through the
Python API: each ``<case>.html`` extracted with ``main_content=True`` must hold the ``+``
phrases of ``<case>.expect`` and none of its ``-`` phrases (format: the README.md there), with
the rules alone (the default) and with the learned block scorer after them
(``readable_model=True``).
``cargo test`` runs the same cases through the Rust API (``tests/readable_cases.rs``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from webgrip import _core

CASES = Path(__file__).resolve().parents[2] / "rust" / "extract" / "tests" / "readable"
VIEWS = {"text": ["text"], "markdown": ["markdown"], "both": ["text", "markdown"]}


@dataclass
class Expect:
    url: str | None = None
    view: str | None = None
    # (must_appear, phrase) in file order.
    phrases: list[tuple[bool, str]] = field(default_factory=list)
    # (times, phrase): the phrase appears exactly that many times.
    counts: list[tuple[int, str]] = field(default_factory=list)


def parse_expect(source: str) -> Expect:
    expect = Expect()
    for at, line in enumerate(source.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        for key in ("url", "view"):
            if line.startswith(f"{key}: "):
                assert getattr(expect, key) is None, f"line {at}: second {key}"
                setattr(expect, key, line.removeprefix(f"{key}: "))
                break
        else:
            times = re.match(r"\+(\d+) (.*)", line)
            if times:
                n, phrase = int(times[1]), times[2]
                assert n >= 1 and phrase and phrase.strip() == phrase, f"line {at}: bad +N line"
                expect.counts.append((n, phrase))
                continue
            sign, phrase = line[:2], line[2:]
            assert sign in ("+ ", "- "), f"line {at}: not a comment, header or phrase: {line!r}"
            # Edges an editor may trim would silently change what the phrase matches.
            assert phrase and phrase.strip() == phrase, f"line {at}: phrase with space at an end"
            expect.phrases.append((sign == "+ ", phrase))
    assert (expect.view or "text") in VIEWS, f"view {expect.view!r}: expected text|markdown|both"
    assert expect.phrases or expect.counts, "no phrase to check"
    return expect


def test_every_page_has_its_expectations():
    pages = {p.stem for p in CASES.glob("*.html")}
    expects = {p.stem for p in CASES.glob("*.expect")}
    assert pages == expects, ("unpaired", sorted(pages ^ expects))
    assert expects


@pytest.mark.parametrize("readable_model", [False, True], ids=["rules", "block-scorer"])
@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.expect")))
def test_readable_case(case, readable_model):
    # Bytes as they are (read_text would translate line ends), as the Rust test reads them.
    html = (CASES / f"{case}.html").read_bytes().decode("utf-8")
    expect = parse_expect((CASES / f"{case}.expect").read_text(encoding="utf-8"))
    modes = VIEWS[expect.view or "text"]
    out = _core.extract_document(
        html, url=expect.url, modes=modes, main_content=True, readable_model=readable_model
    )
    failures = [
        f"{mode} view {'lacks' if must else 'holds'} {phrase!r}"
        for mode in modes
        for must, phrase in expect.phrases
        if (phrase in out[mode]) != must
    ]
    failures += [
        f"{mode} view holds {phrase!r} {out[mode].count(phrase)} times, not {n}"
        for mode in modes
        for n, phrase in expect.counts
        if out[mode].count(phrase) != n
    ]
    # A phrase the page does not even hold can never appear: that check could not fail.
    failures += [
        f"- {phrase!r} is not in the page, so it cannot fail"
        for must, phrase in expect.phrases
        if not must and phrase not in html
    ]
    assert not failures, "\n".join(failures)
