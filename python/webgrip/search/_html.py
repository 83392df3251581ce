"""A small, forgiving HTML tree for reading result pages, built from the core's HTML events.

Why not the Rust core's parser: :func:`webgrip._core.extract_document` turns a page into
text, markdown, links and tables, but result pages are read by *structure* (which block has
class ``result--ad``, which link is ``a.result__a``, whether a ``form#challenge-form`` is
present), and those attributes do not survive the conversion. So the tree is built here, in
Python, from :func:`webgrip._core.html_events`: the page's start tags (with their
attributes), end tags and text, read by the core in one linear pass without the GIL.

Why the core and not the standard library's :mod:`html.parser`, which this module used
before: that parser re-reads an unclosed construct from its start each time it looks for its
end, so a hostile result page was quadratic (64 KiB of ``<a `` took 46 s, 1 MiB of ``<!``
13 s, all of it holding the GIL, and the deadline check between slices of the page could not
interrupt one slice). The core's pass follows the HTML tokenizer (quoted attribute values,
comments, script data, RCDATA and RAWTEXT, character references), drops a tag the input ends
inside as browsers do, keeps at most 64 attributes per tag (the first value of a repeated
name) and is linear in the size of the page whatever its markup.

The tree is deliberately minimal: elements with their attributes and children, text kept as
strings, the content of ``<script>``, ``<style>``, ``<template>`` and ``<noscript>`` dropped,
and the few implied end tags that matter for result pages (``tr``, ``td``, ``li``, ``p``,
``option``) closed the way browsers do.

A result page comes from the network, so a hostile endpoint may send markup nested as deep
as the page is long. Every step is therefore linear in the size of the page: the events come
from one linear pass, the tree is at most :data:`MAX_DEPTH` elements deep (deeper start tags
are dropped and their text kept, as browsers do), end tags find their open element through
per-tag position lists instead of scanning the stack, and an element's text is a slice of the
document's text pieces, recorded in document order, instead of a walk over its subtree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .._core import VOID_ELEMENTS, html_events

__all__ = ["MAX_DEPTH", "Element", "ParseDeadlineError", "parse_html", "text_of"]

#: Elements nested deeper than this are dropped (their text is kept by the deepest element).
MAX_DEPTH = 256

# The core's list (one home for the Rust parse and this one).
_VOID = VOID_ELEMENTS
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


class _Text:
    """The document's text pieces in document order, shared by all its elements."""

    __slots__ = ("blank_before", "pieces")

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.blank_before: list[int] | None = None

    def nonblank_between(self, start: int, end: int) -> bool:
        """Whether a piece in ``[start, end)`` has a non-space character, in O(1)."""
        if self.blank_before is None:  # prefix counts of non-blank pieces, built once
            counts, total = [0], 0
            for piece in self.pieces:
                total += not piece.isspace()
                counts.append(total)
            self.blank_before = counts
        return self.blank_before[end] > self.blank_before[start]


class Element:
    """One element: ``tag`` (lower case), ``attrs`` (dict) and ``children`` (elements, text)."""

    __slots__ = ("_doc", "_end", "_start", "attrs", "children", "parent", "tag")

    def __init__(
        self, tag: str, attrs: dict[str, str], parent: Element | None, doc: _Text | None = None
    ):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []
        self._doc = doc if doc is not None else _Text()
        # The text of this element is ``_doc.pieces[_start:_end]``; ``_end`` is set when the
        # element is closed (``None`` while open).
        self._start = len(self._doc.pieces)
        self._end: int | None = None

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

    def walk(self) -> Iterator[tuple[Element, bool]]:
        """``(element, True)`` on entering and ``(element, False)`` on leaving each element
        at or below this one, in document order: one pass, for checks that depend on the
        ancestors (keep a stack) without walking up from every element."""
        stack: list[tuple[Element, bool]] = [(self, True)]
        while stack:
            node, entering = stack.pop()
            yield node, entering
            if entering:
                stack.append((node, False))
                stack.extend((c, True) for c in reversed(node.children) if isinstance(c, Element))

    def find(self, pred: Callable[[Element], bool]) -> Element | None:
        """The first element at or below this one for which ``pred`` is true."""
        return next((e for e in self.iter() if pred(e)), None)

    def ancestors(self) -> Iterator[Element]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def _span(self) -> tuple[int, int]:
        end = len(self._doc.pieces) if self._end is None else self._end
        return self._start, end

    def has_text(self) -> bool:
        """Whether :meth:`text` is non-empty, in constant time."""
        return self._doc.nonblank_between(*self._span())

    def text(self, limit: int | None = None) -> str:
        """The text content, whitespace collapsed to single spaces and trimmed.

        With ``limit``, at most that many characters of the raw text are read (the cost is
        bounded whatever the size of the subtree).
        """
        start, end = self._span()
        pieces = self._doc.pieces
        if limit is None:
            raw = "".join(pieces[start:end])
        else:
            parts, size = [], 0
            for i in range(start, min(end, start + limit)):  # each piece has a character
                parts.append(pieces[i])
                size += len(pieces[i])
                if size >= limit:
                    break
            raw = "".join(parts)[:limit]
        return _SPACES.sub(" ", raw).strip()


class _Builder:
    def __init__(self) -> None:
        self.doc = _Text()
        self.root = Element("#document", {}, None, self.doc)
        self.stack: list[Element] = [self.root]
        # Stack positions of the open elements of each tag, innermost last: finding the
        # element an end tag closes is a lookup, not a scan of the stack.
        self.open_at: dict[str, list[int]] = {}
        self.raw_depth = 0
        # Raw-text start tags dropped for depth: their content is still not text.
        self.dropped_raw = 0

    def _close_from(self, index: int) -> None:
        """Close the open elements at ``index`` and above (each element is closed once)."""
        end = len(self.doc.pieces)
        while len(self.stack) > index:
            node = self.stack.pop()
            node._end = end
            self.open_at[node.tag].pop()
            if node.tag in _RAW_TEXT:
                self.raw_depth -= 1
        # A raw-text element dropped for depth sat above the stack: it is closed too.
        self.raw_depth -= self.dropped_raw
        self.dropped_raw = 0

    def _innermost(self, tags: frozenset[str]) -> int:
        return max((self.open_at[t][-1] for t in tags if self.open_at.get(t)), default=0)

    def _implied_end(self, tag: str) -> None:
        rule = _IMPLIED_END.get(tag)
        if rule is not None:
            closes, boundary = rule
            index = self._innermost(closes)
            if index > self._innermost(boundary):
                self._close_from(index)

    def _open(self, tag: str, attrs: list[tuple[str, str]]) -> Element:
        parent = self.stack[-1]
        node = Element(tag, dict(attrs), parent, self.doc)
        parent.children.append(node)
        return node

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str]]) -> None:
        self._implied_end(tag)
        if tag in _VOID:
            self._open(tag, attrs)._end = len(self.doc.pieces)
        elif len(self.stack) > MAX_DEPTH:  # too deep: drop the tag, keep its text
            if tag in _RAW_TEXT:
                self.dropped_raw += 1
                self.raw_depth += 1
        else:
            node = self._open(tag, attrs)
            self.open_at.setdefault(tag, []).append(len(self.stack))
            self.stack.append(node)
            if tag in _RAW_TEXT:
                self.raw_depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str]]) -> None:
        self._implied_end(tag)
        self._open(tag, attrs)._end = len(self.doc.pieces)

    def handle_endtag(self, tag: str) -> None:
        positions = self.open_at.get(tag)
        if positions:
            self._close_from(positions[-1])
        elif tag in _RAW_TEXT and self.dropped_raw:
            self.dropped_raw -= 1
            self.raw_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.raw_depth:
            self.stack[-1].children.append(data)
            self.doc.pieces.append(data)


class ParseDeadlineError(Exception):
    """The time allowed for parsing ran out (see :func:`parse_html`)."""


# Events fed to the tree between two checks of the time allowed.
_CHECK_EVERY = 4096


def parse_html(markup: str, expired: Callable[[], bool] | None = None) -> Element:
    """Parse ``markup`` into a tree; the returned root has tag ``#document``.

    ``expired`` is asked before and after the core's pass over the page (linear, without the
    GIL) and while the tree is built; once it returns true, parsing stops with
    :class:`ParseDeadlineError` (a search must answer within its deadline).
    """
    if expired is not None and expired():
        raise ParseDeadlineError
    events = html_events(markup)
    builder = _Builder()
    for count, event in enumerate(events):
        if expired is not None and not count % _CHECK_EVERY and expired():
            raise ParseDeadlineError
        match event:
            case ("text", data):
                builder.handle_data(data)
            case ("start", tag, attrs, True):
                builder.handle_startendtag(tag, attrs)
            case ("start", tag, attrs, _):
                builder.handle_starttag(tag, attrs)
            case ("end", tag):
                builder.handle_endtag(tag)
    if expired is not None and expired():  # reading the tree would take longer still
        raise ParseDeadlineError
    return builder.root


def text_of(fragment: str) -> str:
    """Plain text of an HTML fragment (``<b>Rust</b> &amp; C`` -> ``Rust & C``)."""
    if "<" not in fragment and "&" not in fragment:
        return _SPACES.sub(" ", fragment).strip()
    return parse_html(fragment).text()
