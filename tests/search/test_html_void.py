"""The result-page tree is the core's parse, which closes the void elements of its list
``webgrip._core.VOID_ELEMENTS``, the one home of element facts (issue 48): a void element
never swallows the markup after it, here or in the Rust views."""

from __future__ import annotations

import pytest
from webgrip._core import VOID_ELEMENTS
from webgrip.search._html import parse_html


def test_the_core_lists_the_standard_void_elements() -> None:
    standard = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"}
    standard |= {"param", "source", "track", "wbr"}
    assert standard <= VOID_ELEMENTS
    assert "div" not in VOID_ELEMENTS and "p" not in VOID_ELEMENTS


# Outside a frameset and a table a browser ignores these, and it reads <image> as <img>.
OUT_OF_PLACE = {"col", "frame", "image"}


@pytest.mark.parametrize("name", sorted(VOID_ELEMENTS))
def test_a_void_element_holds_nothing(name: str) -> None:
    root = parse_html(f'<div class="r"><{name}><a href="/x">result</a></div>')
    void = root.find(lambda e: e.tag == name)
    link = root.find(lambda e: e.tag == "a")
    if name in OUT_OF_PLACE:
        assert void is None
    else:
        assert void is not None and void.children == []
    assert link is not None and link.parent is not None and link.parent.tag == "div"
