"""``_core.readable_blocks``: the readable selection's per-block features (issue 33), read by
``training/readable.py``. Checks that the blocks partition the page's text, carry the
selection's flags and verdict, and agree with the readable text view."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from webgrip import _core

PROSE = (
    "The committee met on Tuesday to discuss the budget for the coming year, and after a long "
    "debate it agreed to fund the new library, the park renovation and the repair of the old "
    "bridge, which had been closed since the spring floods."
)

PAGE = f"""<html><body>
<nav><ul><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li></ul></nav>
<main><article><h1>Budget approved</h1><p>{PROSE}</p>
<p>Second paragraph: <a href="/more">a link</a> inside. {PROSE}</p>
<div>Loose text <p>nested paragraph</p> after</div></article></main>
<footer>Copyright 2025 Example News.</footer>
</body></html>"""

CHROME = {"chrome_tag", "chrome_class", "navlike", "role_chrome"}


def flag_names(bits: int) -> set[str]:
    return {name for k, name in enumerate(_core.READABLE_FLAG_NAMES) if bits >> k & 1}


def find(blocks: list[dict[str, Any]], needle: str) -> dict[str, Any]:
    hits = [b for b in blocks if needle in b["text"]]
    assert len(hits) == 1, (needle, blocks)
    return hits[0]


@pytest.fixture(scope="module")
def blocks() -> list[dict[str, Any]]:
    return _core.readable_blocks(PAGE, url="https://example.com/news/budget")


def test_navigation_is_chrome_out_of_scope(blocks: list[dict[str, Any]]) -> None:
    nav = find(blocks, "Politics")
    assert nav["tag"] == "li"
    assert flag_names(nav["flags"] | nav["ancestor_flags"]) & CHROME
    assert nav["link_chars"] == nav["chars"] == len("Politics")
    assert nav["in_scope"] is False
    assert find(blocks, "Copyright")["in_scope"] is False


def test_article_blocks_in_scope(blocks: list[dict[str, Any]]) -> None:
    heading = find(blocks, "Budget approved")
    assert (heading["tag"], heading["level"], heading["in_scope"]) == ("h1", 1, True)
    second = find(blocks, "Second paragraph")
    assert second["in_scope"] is True
    assert second["link_chars"] == len("alink")
    assert second["text"].startswith("Second paragraph: a link inside. The committee")
    assert "main_hint" in flag_names(second["ancestor_flags"])
    assert not CHROME & flag_names(second["flags"] | second["ancestor_flags"])


def test_blocks_partition_the_text(blocks: list[dict[str, Any]]) -> None:
    # The div's own text is what its nested paragraph does not hold.
    assert find(blocks, "Loose text")["text"] == "Loose text after"
    assert find(blocks, "nested paragraph")["text"] == "nested paragraph"
    texts = [b["text"] for b in blocks]
    assert len(set(texts)) == len(texts)
    # Every visible alphanumeric character is in exactly one block.
    whole = _core.extract_document(PAGE, modes=["text"])["text"]
    assert sum(b["chars"] for b in blocks) == sum(c.isalnum() for c in whole)
    positions = [b["position"] for b in blocks]
    assert positions == sorted(positions) and positions[0] == 0.0
    assert all(b["forum"] is False for b in blocks)


def test_in_scope_matches_the_readable_text() -> None:
    page = f"""<html><body><div class="sidebar"><p>Subscribe to our newsletter today</p></div>
    <div class="content"><h2>Budget approved</h2><p>{PROSE}</p><p>{PROSE}</p></div>
    <div class="comments"><p>Great article, thanks for writing it!</p></div></body></html>"""
    # The rules' verdict is the rules' text: the block scorer after them is switched off.
    shown = _core.extract_document(page, modes=["text"], main_content=True, readable_model=False)[
        "text"
    ]
    blocks = _core.readable_blocks(page.encode())
    assert {b["text"] for b in blocks if not b["in_scope"]} >= {
        "Subscribe to our newsletter today",
        "Great article, thanks for writing it!",
    }
    for b in blocks:
        assert (b["text"] in shown) is b["in_scope"], (b, shown)


def test_rejects_other_types() -> None:
    with pytest.raises(TypeError):
        _core.readable_blocks(42)  # type: ignore[arg-type]


def rows(raw: bytes, width: int) -> list[tuple[float, ...]]:
    """``readable_features``' little-endian ``float32`` rows of ``width`` columns."""
    values = struct.unpack(f"<{len(raw) // 4}f", raw)
    return [values[k : k + width] for k in range(0, len(values), width)]


def test_context_columns_follow_the_scorers_own() -> None:
    """``readable_features(..., context=True)`` appends ``READABLE_CONTEXT_NAMES``' columns
    (issue 51) to each block's row and leaves the scorer's own columns as they are."""
    blocks = _core.readable_blocks(PAGE)
    core, extra = len(_core.READABLE_FEATURE_NAMES), len(_core.READABLE_CONTEXT_NAMES)
    plain = rows(_core.readable_features(PAGE), core)
    both = rows(_core.readable_features(PAGE, context=True), core + extra)
    assert len(plain) == len(both) == len(blocks)
    assert [r[:core] for r in both] == plain
    context = [dict(zip(_core.READABLE_CONTEXT_NAMES, r[core:], strict=True)) for r in both]
    title = next(i for i, b in enumerate(blocks) if "Budget approved" in b["text"])
    # The title follows the menu's last item (a link, out of scope) and precedes the prose.
    assert context[title]["prev_scope"] == 0.0
    assert context[title]["prev_link_share"] == 1.0
    assert context[title]["next_scope"] == 1.0
    assert context[0]["prev_scope"] == -1.0 and context[-1]["next_scope"] == -1.0
    assert all(c["docs"] == 0.0 for c in context)
