"""Result-page parsing is linear on hostile markup (docs/security.md, "Every pass over
content is linear"): 1 MiB of an unclosed construct once took the standard library's parser
minutes (64 KiB of ``<a `` took 46 s); the tree is now fed by the core's one-pass tokenizer.
The bound is a correctness bound (a quadratic pass takes far longer), not a benchmark."""

from __future__ import annotations

import time

import pytest
from webgrip.search._html import MAX_DEPTH, ParseDeadlineError, parse_html, text_of

SIZE = 1 << 20
PREFIXES = ["<a ", "<a href='", "<!--", "<!", "<div ", "<script "]


@pytest.mark.parametrize("close", ["", ">"])
@pytest.mark.parametrize("prefix", PREFIXES)
def test_hostile_prefix_parses_in_linear_time(prefix: str, close: str) -> None:
    unit = prefix + close
    markup = "<p>lead</p>" + unit * (SIZE // len(unit))
    start = time.perf_counter()
    root = parse_html(markup)
    text = text_of(markup)
    elapsed = time.perf_counter() - start
    assert elapsed < 5, f"{unit!r}: {elapsed:.1f} s"
    assert root.tag == "#document"
    assert text.startswith("lead")


def test_many_attributes_in_one_tag_are_capped() -> None:
    # The core's parse drops a tag with more than 256 attributes and keeps its text; a tag
    # with fewer keeps them all.
    markup = "<div" + "".join(f" a{i}" for i in range(100_000)) + " id=x>t</div>"
    start = time.perf_counter()
    root = parse_html(markup)
    assert time.perf_counter() - start < 5
    assert root.find(lambda e: e.tag == "div") is None
    assert root.text() == "t"
    root = parse_html("<div" + "".join(f" a{i}" for i in range(200)) + ">t</div>")
    div = root.find(lambda e: e.tag == "div")
    assert div is not None and len(div.attrs) == 200 and "a0" in div.attrs
    assert div.text() == "t"


def test_deep_nesting_stays_bounded() -> None:
    markup = "<div>" * 200_000 + "deep" + "</div>" * 200_000 + "after"
    root = parse_html(markup)
    depth = max(sum(1 for _ in e.ancestors()) for e in root.iter())
    assert depth <= MAX_DEPTH + 1
    assert root.text() == "deepafter"


def test_deadline_is_checked() -> None:
    with pytest.raises(ParseDeadlineError):
        parse_html("<p>x</p>", lambda: True)
    calls = iter([False, True])  # before the core's pass: not yet; then expired
    with pytest.raises(ParseDeadlineError):
        parse_html("<p>x</p>" * 10, lambda: next(calls))


def test_text_of_decodes_references() -> None:
    assert text_of("<b>Rust</b> &amp; C") == "Rust & C"
    assert text_of("a < b &amp c") == "a < b & c"
