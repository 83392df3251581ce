"""Links of a Markdown page as numbered citations, or as their text alone.

``fetch_page(..., links="citations")`` reads ``[text](url)`` as ``text [1]`` and lists
``[1] url`` once at the end of the answer: a page of many links costs a model far fewer
tokens, and a URL cited twice is listed once. ``links="none"`` keeps only the link text.

One left-to-right pass over the text, no regular expression over the page: a stack of the
open ``[`` brackets finds the text of each link when its ``](`` closes it, and the
destination is read forward exactly as the Markdown emitter writes it (``<...>``, or a bare
URL with ``(...)`` groups, as :func:`webgrip._core` reads images). Code spans and fenced code
blocks are copied unchanged, and so are images (``![alt](src)``): a model asking for the
picture needs its address where it stands.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["LINK_STYLES", "Cited", "LinkStyle", "cite_links", "cited_in", "links_listed"]

LinkStyle = Literal["inline", "citations", "none"]
#: The ways ``fetch_page`` shows links: as written, as numbered citations, or as text only.
LINK_STYLES: tuple[str, ...] = ("inline", "citations", "none")


@dataclass(frozen=True)
class Cited:
    """A page's text with its links restyled, and what its citation markers point to."""

    text: str
    urls: tuple[str, ...] = ()
    """Citation ``n`` is ``urls[n - 1]``."""
    # Two flat arrays, not a tuple of pairs: a page of 300,000 links would hold 300,000
    # tuples and twice as many int objects (about 35 MiB, against 5 MiB).
    mark_offsets: Sequence[int] = field(default=(), repr=False)
    """The offset in ``text`` of each marker's ``[``, in text order."""
    mark_numbers: Sequence[int] = field(default=(), repr=False)
    """The number of each marker, in the same order."""


def _fence(line: str) -> str | None:
    """The fence a line opens or closes (its run of backticks or tildes), or ``None``.

    Block quote and list indentation come first in the emitter's output, so ``>`` and spaces
    before the fence are skipped."""
    body = line.lstrip(" >")
    for mark in ("```", "~~~"):
        if body.startswith(mark):
            run = len(body) - len(body.lstrip(mark[0]))
            return mark[0] * run
    return None


def _destination_end(text: str, at: int) -> int:
    """Where the link destination starting at ``text[at]`` (just past ``](``) ends, past its
    closing ``)``; ``-1`` if none closes there. Reads only to the first space, newline or
    unpaired parenthesis, so the whole pass stays linear."""
    n = len(text)
    if at < n and text[at] == "<":
        stop = at + 1
        while stop < n and text[stop] not in ">\n":
            stop += 1
        return stop + 2 if text.startswith(">)", stop) else -1
    i = at
    while i < n:
        c = text[i]
        if c == "(":
            j = i + 1
            while j < n and text[j] not in "()" and not text[j].isspace():
                j += 1
            if j < n and text[j] == ")":
                i = j + 1
                continue
            return -1
        if c == ")":
            return i + 1 if i > at else -1
        if c.isspace():
            return -1
        i += 1
    return -1


def _backtick_closers(line: str) -> dict[int, int]:
    """For each run of backticks in ``line`` that opens a code span, where its closing run
    ends: the next run of the same length (CommonMark's rule); the runs between are code.
    The runs are found in one pass and each knows its next equal run, so a line of unmatched
    backticks costs no more than its length."""
    runs: list[tuple[int, int]] = []
    i, n = 0, len(line)
    while (i := line.find("`", i)) >= 0:
        j = i
        while j < n and line[j] == "`":
            j += 1
        if not (i > 0 and line[i - 1] == "\\"):  # an escaped backtick opens nothing
            runs.append((i, j - i))
        i = j
    following: list[int] = [-1] * len(runs)
    last: dict[int, int] = {}  # run length -> index of the nearest such run to the right
    for r in range(len(runs) - 1, -1, -1):
        following[r] = last.get(runs[r][1], -1)
        last[runs[r][1]] = r
    closers: dict[int, int] = {}
    r = 0
    while r < len(runs):
        close = following[r]
        if close < 0:
            r += 1
            continue
        closers[runs[r][0]] = runs[close][0] + runs[close][1]
        r = close + 1
    return closers


#: The characters the pass stops at; everything between them is copied as it is. One
#: character class, so searching for the next one cannot backtrack.
_SPECIAL = re.compile(r"[\\`\[\]]")
#: Pieces of output gathered before they are joined into one string, once no open bracket
#: can still change them: a page of 300,000 links would otherwise hold a str object for
#: every link text and marker until the end.
_FOLD_PIECES = 4096


def cite_links(markdown: str, style: str) -> Cited:
    """``markdown`` with its links shown as ``style`` (one of :data:`LINK_STYLES`).

    >>> page = "See [the docs](https://a.example/d), [again](https://a.example/d)."
    >>> cited = cite_links(page, "citations")
    >>> cited.text
    'See the docs [1], again [1].'
    >>> cited.urls
    ('https://a.example/d',)
    >>> cite_links("[x](https://a.example/) ![logo](https://a.example/l.png)", "none").text
    'x ![logo](https://a.example/l.png)'
    """
    if style not in LINK_STYLES:
        raise ValueError(f"links must be one of {', '.join(LINK_STYLES)}, not {style!r}")
    if style == "inline" or "](" not in markdown:
        return Cited(markdown)
    done: list[str] = []  # the output so far, joined a batch of pieces at a time
    out: list[str] = []  # the pieces since: a bracket still open may yet empty one
    numbers: dict[str, int] = {}
    # The index in ``out`` of each marker and its number (arrays: no object per marker);
    # ``offsets`` gets each marker's place in the text once its batch is joined.
    marked, marked_numbers, offsets = array("q"), array("q"), array("q")
    at = 0  # the length of the text in ``done``

    def fold() -> None:
        """Join ``out`` onto ``done`` (no open bracket may change it any more), counting its
        markers' offsets: a marker piece is never changed, and its "[" follows the space it
        may start with."""
        nonlocal at
        k = 0
        for index, piece in enumerate(out):
            if k < len(marked) and marked[k] == index:
                offsets.append(at + (1 if piece.startswith(" ") else 0))
                k += 1
            at += len(piece)
        done.append("".join(out))
        out.clear()
        del marked[:]

    fence: str | None = None
    for line in markdown.splitlines(keepends=True):
        if len(out) >= _FOLD_PIECES:  # between lines no bracket is open
            fold()
        if fence is not None:
            out.append(line)
            if (_fence(line) or "").startswith(fence):
                fence = None
            continue
        if (opened := _fence(line)) is not None:
            fence = opened
            out.append(line)
            continue
        if "[" not in line:
            out.append(line)
            continue
        closers = _backtick_closers(line) if "`" in line else {}
        stack: list[tuple[int, bool]] = []  # open brackets: (index in out, opens an image)
        copied, n = 0, len(line)
        found = _SPECIAL.search(line)
        while found is not None:
            i = found.start()
            c = line[i]
            nxt = i + 1
            if c == "\\":
                nxt = i + 2
            elif c == "`":
                nxt = closers.get(i, i + 1)
            elif c == "[":
                if i > copied:
                    out.append(line[copied:i])
                stack.append((len(out), i > 0 and line[i - 1] == "!"))
                out.append("[")
                copied = nxt
            elif stack:  # "]" closing the innermost open bracket
                slot, image = stack.pop()
                end = _destination_end(line, i + 2) if line.startswith("](", i) else -1
                if end > 0 and not image:
                    if i > copied:
                        out.append(line[copied:i])
                    out[slot] = ""
                    if style == "citations":
                        url = line[i + 2 : end - 1]
                        if url.startswith("<") and url.endswith(">"):
                            url = url[1:-1]
                        number = numbers.setdefault(url, len(numbers) + 1)
                        spaced = any(piece.strip() for piece in out[slot + 1 :])
                        marked.append(len(out))
                        marked_numbers.append(number)
                        out.append(f"{' ' if spaced else ''}[{number}]")
                    copied = nxt = end
                elif end > 0:  # an image: kept whole, destination and all
                    nxt = end
            if not stack and len(out) >= _FOLD_PIECES:
                fold()
            found = _SPECIAL.search(line, nxt) if nxt < n else None
        if copied < n:
            out.append(line[copied:])
    fold()
    return Cited("".join(done), tuple(numbers), offsets, marked_numbers)


def cited_in(cited: Cited, spans: Sequence[tuple[int, int]]) -> list[int]:
    """The numbers of the citations whose markers stand in the ``(start, end)`` spans of
    ``cited.text``, each once, in order."""
    shown: set[int] = set()
    for start, end in spans:
        lo = bisect.bisect_left(cited.mark_offsets, start)
        hi = bisect.bisect_left(cited.mark_offsets, end)
        shown.update(cited.mark_numbers[lo:hi])
    return sorted(shown)


def links_listed(cited: Cited, spans: Sequence[tuple[int, int]]) -> str:
    """The ``Links:`` list of the citations :func:`cited_in` the spans, or ``""`` when
    there are none."""
    numbers = cited_in(cited, spans) if cited.urls else []
    if not numbers:
        return ""
    return "Links:\n" + "\n".join(f"[{n}] {cited.urls[n - 1]}" for n in numbers)
