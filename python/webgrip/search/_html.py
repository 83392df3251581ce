"""A small, forgiving HTML tree for reading result pages, built on the stdlib parser.

Why not the Rust core's parser: :func:`webgrip._core.extract_document` turns a page into
text, markdown, links and tables, but result pages are read by *structure* (which block has
class ``result--ad``, which link is ``a.result__a``, whether a ``form#challenge-form`` is
present), and those attributes do not survive the conversion. :mod:`html.parser` is in the
standard library, never raises on broken markup, and reads a 30 kB result page in a few
milliseconds, so no third-party parser is needed at run time.

The tree is deliberately minimal: elements with their attributes and children, text kept as
strings, ``<script>``/``<style>`` content dropped, and the few implied end tags that matter
for result pages (``tr``, ``td``, ``li``, ``p``, ``option``) closed the way browsers do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser

__all__ = ["Element", "parse_html", "text_of"]

_VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
})
_RAW_TEXT = frozenset({"script", "style", "template", "noscript"})
# Starting the key tag closes an open tag of the first set, unless one of the second set
# (a scope boundary) is found first on the way up.
_IMPLIED_END: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "tr": (frozenset({"tr", "td", "th"}), frozenset({"table", "tbody", "thead", "tfoot"})),
    "td": (frozenset({"td", "th"}), frozenset({"tr", "table"})),
    "th": (frozenset({"td", "th"}), frozenset({"tr", "table"})),
    "li": (frozenset({"li"}), frozenset({"ul", "ol"})),
    "option": (frozenset({"option"}), frozenset({"select", "datalist"})),
    "p": (frozenset({"p"}), frozenset({"div", "td", "li", "section", "article", "body"})),
}
_SPACES = re.compile(r"\s+")


class Element:
    """One element: ``tag`` (lower case), ``attrs`` (dict) and ``children`` (elements, text)."""

    __slots__ = ("attrs", "children", "parent", "tag")

    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []

    def __repr__(self) -> str:
        return f"<Element {self.tag} {self.attrs!r}>"

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    @property
    def classes(self) -> frozenset[str]:
        return frozenset((self.attrs.get("class") or "").split())

    def iter(self) -> Iterator[Element]:
        """This element and every element below it, in document order."""
        stack: list[Element] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(c for c in reversed(node.children) if isinstance(c, Element))

    def find(self, pred: Callable[[Element], bool]) -> Element | None:
        """The first element at or below this one for which ``pred`` is true."""
        return next((e for e in self.iter() if pred(e)), None)

    def ancestors(self) -> Iterator[Element]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def text(self) -> str:
        """The text content, whitespace collapsed to single spaces and trimmed."""
        parts: list[str] = []
        stack: list[Element | str] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                parts.append(node)
            else:
                stack.extend(reversed(node.children))
        return _SPACES.sub(" ", "".join(parts)).strip()


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None)
        self.stack: list[Element] = [self.root]
        self.raw_depth = 0

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> Element:
        rule = _IMPLIED_END.get(tag)
        if rule is not None:
            closes, boundary = rule
            for i in range(len(self.stack) - 1, 0, -1):
                name = self.stack[i].tag
                if name in closes:
                    del self.stack[i:]
                    break
                if name in boundary:
                    break
        parent = self.stack[-1]
        node = Element(tag, {k: (v if v is not None else "") for k, v in attrs}, parent)
        parent.children.append(node)
        return node

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = self._open(tag, attrs)
        if tag not in _VOID:
            self.stack.append(node)
            if tag in _RAW_TEXT:
                self.raw_depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                for node in self.stack[i:]:
                    if node.tag in _RAW_TEXT:
                        self.raw_depth -= 1
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self.raw_depth:
            self.stack[-1].children.append(data)


def parse_html(markup: str) -> Element:
    """Parse ``markup`` into a tree; the returned root has tag ``#document``."""
    builder = _Builder()
    builder.feed(markup)
    builder.close()
    return builder.root


def text_of(fragment: str) -> str:
    """Plain text of an HTML fragment (``<b>Rust</b> &amp; C`` -> ``Rust & C``)."""
    if "<" not in fragment and "&" not in fragment:
        return _SPACES.sub(" ", fragment).strip()
    return parse_html(fragment).text()
