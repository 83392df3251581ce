"""Readable mode (``main_content=True``) checks that are more than phrases present or absent:
counts, emptiness, the metadata view, the ``main_content=False`` switch.

The rule cases (this page, these phrases in, those out) are fixture files in
``rust/extract/tests/readable/``, run by ``test_readable_cases.py`` and by ``cargo test``."""

from __future__ import annotations

import pytest
from webgrip import _core

PROSE = (
    "The committee met on Tuesday to discuss the budget for the coming year, and after a long "
    "debate it agreed to fund the new library, the park renovation and the repair of the old "
    "bridge, which had been closed since the spring floods."
)


def readable(html: str, mode: str = "text") -> str:
    out = _core.extract_document(html, modes=[mode], main_content=True)
    return out[mode]


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><p>Just one short line.</p></body></html>",
        "<html><body><nav><a href='/'>Only a menu</a></nav></body></html>",
        "<html><body><footer>Only a footer with some words in it</footer></body></html>",
    ],
)
def test_never_empty_for_visible_text(html):
    assert readable(html).strip()


def test_title_is_not_duplicated():
    html = f"""<html><head><title>Budget approved</title></head><body>
    <article><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p></article></body></html>"""
    for mode in ("text", "markdown"):
        assert readable(html, mode).count("Budget approved") == 1


def test_metadata_is_beside_content_not_inlined():
    html = f"""<html><head><title>Budget approved</title>
    <meta name="author" content="Jane Reporter"></head><body>
    <article><p>{PROSE}</p><p>{PROSE}</p></article></body></html>"""
    out = _core.extract_document(html, modes=["text", "metadata"], main_content=True)
    assert "Budget approved" not in out["text"]
    assert "Jane Reporter" not in out["text"]
    assert out["metadata"]["title"] == "Budget approved"


def test_main_content_false_keeps_everything():
    html = f"""<html><body><nav><a href="/a">Politics</a></nav>
    <article><p>{PROSE}</p></article></body></html>"""
    out = _core.extract_document(html, modes=["text"], main_content=False)["text"]
    assert "Politics" in out


def test_cloned_blocks_are_kept_once():
    # Slide decks clone their slides and responsive layouts ship a block twice; each line is
    # short (too short for the repeated-line rule), the block as a whole is the same.
    slide = (
        "<div class='slide'><h3>Soft wool</h3><p>Superfine fibers feel luxurious.</p>"
        "<h3>Odor minimizing</h3><p>Wool locks away moisture.</p>"
        "<h3>Supportive</h3><p>A sturdy and soft midsole.</p></div>"
    )
    html = f"""<html><body><main><h1>Wool runner</h1><p>{PROSE}</p>
    <div class="deck">{slide}</div><p>{PROSE.replace("committee", "council")}</p>
    <div class="deck-clone">{slide}</div></main></body></html>"""
    out = readable(html)
    assert out.count("Superfine fibers") == 1, out
    assert "council met" in out


def test_repeated_code_examples_are_kept():
    # API references repeat the same example object on purpose.
    example = (
        '<div class="example">'
        + "".join(f'<div class="line"><code>"field_{i}": null,</code></div>' for i in range(12))
        + "</div>"
    )
    html = f"""<html><body><main><h1>Charges</h1><p>{PROSE}</p><h2>Create a charge</h2>
    {example}<h2>Retrieve a charge</h2><p>Returns the charge object.</p>{example}</main>
    </body></html>"""
    out = readable(html)
    assert out.count("field_11") == 2, out
