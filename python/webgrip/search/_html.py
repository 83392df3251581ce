"""The element tree of a result page, as the core's HTML5 parse builds it.

Result pages are read by *structure*: which block has class ``result--ad``, which link is
``a.result__a``, whether a ``form#challenge-form`` is present. The tree comes from
:func:`webgrip._core.html_tree`: the same parse every other view of a page reads (the HTML5
tree builder over the arena DOM, which keeps each element's attributes), run without the
GIL and linear in the size of the page whatever its markup, under the parse's caps (deeper
nesting than :data:`MAX_DEPTH` open elements is dropped and its text kept; a tag with more
attributes than the cap is dropped). Void elements, implied end tags and misnested markup
are handled as a browser handles them, with the core's element lists.

The core answers flat lists indexed by element in document order; :class:`Element` wraps an
index when the parsers reach it, so a page of thousands of elements costs Python objects
only for those read. An element's text is a slice of the document's text pieces (scripts,
styles and ``<noscript>`` left out), so it is found without walking the subtree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .._core import html_tree

__all__ = ["MAX_DEPTH", "Element", "ParseDeadlineError", "parse_html", "text_of"]

#: Open elements the parse nests before it drops deeper start tags (their text is kept):
#: the core's depth cap.
MAX_DEPTH = 256

_SPACES = re.compile(r"\s+")
# Elements walked between two checks of the time allowed.
_CHECK_EVERY = 4096


class ParseDeadlineError(Exception):
    """The time allowed for parsing ran out (see :func:`parse_html`)."""


class _Tree:
    """The flat lists of :func:`webgrip._core.html_tree` and the elements wrapped so far."""

    __slots__ = (
        "attrs",
        "ends",
        "expired",
        "nodes",
        "nonblank",
        "parents",
        "pieces",
        "tags",
        "text_ends",
        "text_starts",
    )

    def __init__(self, markup: str | bytes, expired: Callable[[], bool] | None) -> None:
        self.expired = expired
        flat = html_tree(markup)
        self.tags, self.attrs, self.parents, self.ends = flat[:4]
        self.text_starts, self.text_ends, self.pieces = flat[4:]
        # One wrapper per element, made when first reached: the same element is the same
        # object however it is found.
        self.nodes: list[Element | None] = [None] * len(self.tags)
        self.nonblank: list[int] | None = None

    def node(self, index: int) -> Element:
        node = self.nodes[index]
        if node is None:
            node = self.nodes[index] = Element(self, index)
        return node

    def check(self, step: int) -> None:
        """Raise :class:`ParseDeadlineError` once the time allowed has run out (asked every
        :data:`_CHECK_EVERY` elements of a walk: a page of millions of elements takes
        seconds to walk in Python)."""
        if self.expired is not None and not step % _CHECK_EVERY and self.expired():
            raise ParseDeadlineError

    def nonblank_between(self, start: int, end: int) -> bool:
        """Whether a piece in ``[start, end)`` has a non-space character, in O(1)."""
        if self.nonblank is None:  # prefix counts of non-blank pieces, built once
            counts, total = [0], 0
            for piece in self.pieces:
                total += not piece.isspace()
                counts.append(total)
            self.nonblank = counts
        return self.nonblank[end] > self.nonblank[start]


class Element:
    """One element of a parsed page: ``tag`` (lower case), ``attrs``, ``parent``, ``children``."""

    __slots__ = ("_index", "_tree")

    def __init__(self, tree: _Tree, index: int) -> None:
        self._tree = tree
        self._index = index

    def __repr__(self) -> str:
        return f"<Element {self.tag} {self.attrs!r}>"

    @property
    def tag(self) -> str:
        return self._tree.tags[self._index]

    @property
    def attrs(self) -> dict[str, str]:
        return self._tree.attrs[self._index] or {}

    @property
    def parent(self) -> Element | None:
        parent = self._tree.parents[self._index]
        return None if parent < 0 else self._tree.node(parent)

    @property
    def children(self) -> list[Element | str]:
        """The child elements and text pieces, in document order."""
        tree, index = self._tree, self._index
        starts, pieces = tree.text_starts, tree.pieces
        out: list[Element | str] = []
        piece, child, end = starts[index], index + 1, tree.ends[index]
        while child < end:  # the text before each child, the child, past its subtree
            out.extend(pieces[piece : starts[child]])
            out.append(tree.node(child))
            piece, child = tree.text_ends[child], tree.ends[child]
        out.extend(pieces[piece : tree.text_ends[index]])
        return out

    def get(self, name: str, default: str | None = None) -> str | None:
        attrs = self._tree.attrs[self._index]
        return default if attrs is None else attrs.get(name, default)

    @property
    def classes(self) -> frozenset[str]:
        attrs = self._tree.attrs[self._index]
        return frozenset((attrs.get("class") or "").split()) if attrs else frozenset()

    def iter(self) -> Iterator[Element]:
        """This element and every element below it, in document order."""
        node, check = self._tree.node, self._tree.check
        for index in range(self._index, self._tree.ends[self._index]):
            check(index)
            yield node(index)

    def walk(self) -> Iterator[tuple[Element, bool]]:
        """``(element, True)`` on entering and ``(element, False)`` on leaving each element
        at or below this one, in document order: one pass, for checks that depend on the
        ancestors (keep a stack) without walking up from every element."""
        node, ends, check = self._tree.node, self._tree.ends, self._tree.check
        open_: list[int] = []
        for index in range(self._index, ends[self._index]):
            check(index)
            while open_ and ends[open_[-1]] <= index:
                yield node(open_.pop()), False
            yield node(index), True
            open_.append(index)
        while open_:
            yield node(open_.pop()), False

    def find(self, pred: Callable[[Element], bool]) -> Element | None:
        """The first element at or below this one for which ``pred`` is true."""
        return next((e for e in self.iter() if pred(e)), None)

    def ancestors(self) -> Iterator[Element]:
        parents, index = self._tree.parents, self._tree.parents[self._index]
        while index >= 0:
            yield self._tree.node(index)
            index = parents[index]

    def _span(self) -> tuple[int, int]:
        return self._tree.text_starts[self._index], self._tree.text_ends[self._index]

    def has_text(self) -> bool:
        """Whether :meth:`text` is non-empty, in constant time."""
        return self._tree.nonblank_between(*self._span())

    def text(self, limit: int | None = None) -> str:
        """The text content, whitespace collapsed to single spaces and trimmed.

        With ``limit``, at most that many characters of the raw text are read (the cost is
        bounded whatever the size of the subtree).
        """
        start, end = self._span()
        pieces = self._tree.pieces
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


def parse_html(markup: str, expired: Callable[[], bool] | None = None) -> Element:
    """Parse ``markup`` into a tree; the returned root has tag ``#document``.

    ``expired`` is asked before and after the core's parse (linear, without the GIL), and
    every :data:`_CHECK_EVERY` elements of the tree's walks (:meth:`Element.iter`,
    :meth:`Element.walk`); once it returns true, :class:`ParseDeadlineError` is raised (a
    search must answer within its deadline).
    """
    if expired is not None and expired():
        raise ParseDeadlineError
    tree = _Tree(markup, expired)
    if expired is not None and expired():  # reading the tree would take longer still
        raise ParseDeadlineError
    return tree.node(0)


def text_of(fragment: str) -> str:
    """Plain text of an HTML fragment (``<b>Rust</b> &amp; C`` -> ``Rust & C``)."""
    if "<" not in fragment and "&" not in fragment:
        return _SPACES.sub(" ", fragment).strip()
    return parse_html(fragment).text()
