"""Frames: the documents a page shows in ``<iframe>`` and ``<frame>`` (framesets), put where
they stand.

A page is read with a frame marker the core puts at each visible frame's position (see
``rust/extract/src/frames.rs``); then, in document order:

- a **same-site** frame (same host as the page's final URL, port aside, as cookies go) is
  fetched through ``load`` — the caller's guarded request under the call's policy and
  deadline — and its own view replaces the mark. At most ``max_frames`` are read, all of them
  within ``max_bytes`` together; frames inside those frames are listed, never fetched
  (depth 1);
- an ``srcdoc`` iframe's inline document is read in place (no request), counted like a fetch;
- a **cross-site** frame, one past the caps, one that failed or came too late, and one that
  is a bot check, login or consent page (:func:`webgrip.challenge.detect`) is listed as a
  link (with its ``title`` or ``name``);
- ``about:``, ``javascript:`` and ``data:`` frames and 0/1-pixel frames are left out (ads,
  trackers and placeholders, not content), as the core leaves out frames in hidden subtrees.

With a main-content view, a fetched frame whose mark the selection left out is appended after
it: a documentation viewer's content lives in a frame the readable selection cannot see into.
``links`` and ``tables`` add the frames' links and tables after the page's own; the ``html``
view is the page as sent.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from . import _core
from .challenge import detect
from .errors import FetchTimeoutError, ResponseTooLargeError, WebgripError
from .page import Page
from .page_builder import build_marked_page, render_links, render_tables, unique_links
from .response import Response, html_response

__all__ = ["MAX_LISTED_FRAMES", "build_framed_page", "same_site"]

#: Frames listed as links at most (a page of 500 ad frames is not 500 lines of links).
MAX_LISTED_FRAMES = 32
#: Sizes (``width``/``height`` attributes) of frames that show nothing: tracking pixels.
_INVISIBLE_SIZES = frozenset({"0", "1", "0px", "1px"})

Loader = Callable[[str, int], Response]
"""``load(url, max_bytes)``: the frame's response under the caller's policy and deadline
(any status), or a :class:`~webgrip.errors.WebgripError`."""


def same_site(url: str, other: str) -> bool:
    """Whether ``url`` and ``other`` are on the same host (compared as the core parses it:
    case, trailing dots and address spellings aside; ports and schemes are not compared)."""
    try:
        a, b = _core.url_host(url), _core.url_host(other)
    except ValueError:
        return False
    return a is not None and a == b


def build_framed_page(
    response: Response,
    *,
    url: str,
    extract: str,
    main_content: bool | None,
    tracking: _core.TrackingRules | None,
    deadline: float,
    load: Loader,
    max_frames: int,
    max_bytes: int,
    readable_model: bool = True,
) -> Page:
    """The page of ``response`` (as :func:`webgrip.page_builder.build_page` makes it) with its
    frames inlined or listed as the module says. ``load`` is never called past ``deadline``,
    more than ``max_frames`` times, nor for more than ``max_bytes`` in all."""
    reader = _Reader(
        response.url,
        extract,
        main_content,
        tracking,
        deadline,
        load,
        max_frames,
        max_bytes,
        readable_model=readable_model,
    )
    return reader.view(response, url, reader.read)


@dataclasses.dataclass
class _Part:
    """What one frame became: a page read, a link to list, or nothing."""

    page: Page | None = None
    link: tuple[str, str, str | None] | None = None  # (url, label, why it was not read)


@dataclasses.dataclass
class _Reader:
    """Reads the frames of one page in document order, keeping the call's caps."""

    page_url: str
    extract: str
    main_content: bool | None
    tracking: _core.TrackingRules | None
    deadline: float
    load: Loader
    frames_left: int  # the call's ``max_frames`` at first
    bytes_left: int  # the call's ``max_bytes`` at first
    listed: int = 0
    readable_model: bool = True  # the learned block scorer judges the readable selection
    # A frame shown twice is read once.
    seen: dict[str, _Part] = dataclasses.field(default_factory=dict)

    def view(
        self, response: Response, url: str, part: Callable[[Mapping[str, Any]], _Part]
    ) -> Page:
        """The view of ``response`` with each of its frames replaced by what ``part`` makes
        of it: the page's own frames are read (:meth:`read`), a frame's frames listed."""
        # The html view is the page as sent: no frame marked, none read (as build_page).
        marker = None if self.extract == "html" else _new_marker()
        page, frames = build_marked_page(
            response,
            url=url,
            extract=self.extract,
            main_content=self.main_content,
            tracking=self.tracking,
            deadline=self.deadline,
            frame_marker=marker,
            readable_model=self.readable_model,
        )
        if marker is None or not frames:
            return page
        parts = [part(frame) for frame in frames]
        if self.extract in ("markdown", "text"):
            return _fill_marks(page, marker, parts)
        return _merge_data(page, parts)

    def read(self, frame: Mapping[str, Any]) -> _Part:
        if _invisible(frame):
            return _Part()
        srcdoc, src = frame.get("srcdoc"), frame.get("src")
        if srcdoc is not None:  # srcdoc wins over src, as in browsers
            return self._inline(srcdoc)
        if not isinstance(src, str) or not src.lower().startswith(("http://", "https://")):
            return _Part()  # about:blank, javascript:, data:, no src at all
        label = frame.get("title") or frame.get("name") or src
        if not same_site(src, self.page_url):
            return self._listed(src, label, None)
        if src in self.seen:
            return self.seen[src]
        part = self._fetch(src, label)
        self.seen[src] = part
        return part

    def _listed(self, src: str, label: str, why: str | None) -> _Part:
        if self.listed >= MAX_LISTED_FRAMES:
            return _Part()
        self.listed += 1
        return _Part(link=(src, label, why))

    def _inline(self, srcdoc: str) -> _Part:
        if self.frames_left <= 0 or self.bytes_left <= 0:
            return _Part()
        body = srcdoc.encode("utf-8")[: self.bytes_left]
        self.frames_left -= 1
        self.bytes_left -= len(body)
        # The inline document's base is the page's URL, as in browsers.
        doc = html_response(self.page_url, 200, body, 0.0)
        try:
            return _Part(page=self._view(doc, self.page_url))
        except WebgripError as exc:
            _reraise_cancel(exc)
            return _Part()

    def _fetch(self, src: str, label: str) -> _Part:
        if self.frames_left <= 0:
            return self._listed(src, label, "frame limit reached")
        if self.bytes_left <= 0:
            return self._listed(src, label, "frame size limit reached")
        if self.deadline - time.monotonic() <= 0:
            return self._listed(src, label, "no time left")
        self.frames_left -= 1
        try:
            response = self.load(src, self.bytes_left)
            self.bytes_left -= len(response.content)
            # A wall is never content, here as for the page itself: list it, with its kind.
            wall = detect(response, src)
            if wall is not None:
                return self._listed(src, label, f"{wall.kind} page")
            if response.status >= 400:
                return self._listed(src, label, f"HTTP {response.status}")
            return _Part(page=self._view(response, src))
        except WebgripError as exc:
            _reraise_cancel(exc)
            if isinstance(exc, ResponseTooLargeError):
                # A body without Content-Length (chunked, compressed) was read up to the whole
                # budget before it was refused: charge it, or each later frame would be given
                # the whole budget again. (One refused up front by its Content-Length cost
                # nothing; it is charged too, which keeps the cap simple and never exceeded.)
                self.bytes_left = 0
            return self._listed(src, label, _why(exc))

    def _view(self, response: Response, url: str) -> Page:
        """The frame's own view; its frames are listed, not fetched (depth 1)."""
        return self.view(response, url, self._nested)

    def _nested(self, frame: Mapping[str, Any]) -> _Part:
        src = frame.get("src")
        if (
            _invisible(frame)
            or frame.get("srcdoc") is not None
            or not isinstance(src, str)
            or not src.lower().startswith(("http://", "https://"))
        ):
            return _Part()
        return self._listed(
            src, frame.get("title") or frame.get("name") or src, "frame inside a frame"
        )


def _invisible(frame: Mapping[str, Any]) -> bool:
    return any(
        str(frame.get(side) or "").strip().lower() in _INVISIBLE_SIZES
        for side in ("width", "height")
    )


def _reraise_cancel(exc: WebgripError) -> None:
    """A call the caller gave up on stops here; any other failure only loses the frame."""
    if isinstance(exc, FetchTimeoutError) and getattr(exc, "reason", None) == "cancelled":
        raise exc


def _why(exc: WebgripError) -> str:
    reason = getattr(exc, "reason", None)
    if isinstance(exc, FetchTimeoutError):
        return "no time left"
    return f"not fetched: {reason}" if reason else "not fetched"


#: The secret part of every frame marker, drawn once per process: a page cannot write a mark
#: that the frames' content would replace without knowing it, and no mark is left in a view
#: (each is replaced by its frame or by nothing). Drawing it per call cost a ``getrandom``
#: system call on every fetch, frames or not.
_MARKER_KEY = secrets.token_hex(8)
#: Tells one call's marks from another's (a frame's view is built inside its page's call).
_MARKER_CALLS = itertools.count()


def _new_marker() -> str:
    return f"WGFRAME{_MARKER_KEY}{next(_MARKER_CALLS)}X"


def _link_line(link: tuple[str, str, str | None], markdown: bool) -> str:
    url, label, why = link
    label = " ".join(label.split())
    note = f" ({why})" if why else ""
    if not markdown:
        shown = url if label == url else f"{label} ({url})"
        return f"Frame: {shown}{note}"
    text = label.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    text = "Frame" if label == url else f"Frame: {text}"
    target = f"<{url}>" if any(c in url for c in " ()<>") else url
    return f"[{text}]({target}){note}"


_DIGITS = re.compile(r"\d+")
_NEWLINES = re.compile(r"\n*")


def _replace_marks(content: str, marker: str, fill: Callable[[int, bool, bool], str]) -> str:
    """``content`` with each ``<newlines>MARK<digits>MARK<newlines>`` replaced by
    ``fill(index, lead, trail)`` (``lead``/``trail``: newlines stood there, inside the text).

    Why not ``re.sub`` of ``(\\n*)MARK(\\d+)MARK(\\n*)``: a pattern opening with ``\\n*``
    retries every newline run from each of its positions, quadratic in the run; a page of
    1 MiB of blank lines in a ``<pre>`` beside a frame took hours. Here the marker (secret,
    see ``_new_marker``) is found with ``str.find``, and the newlines around it are counted
    once.
    """
    out: list[str] = []
    done = 0  # end of the last replaced span
    search = 0
    while (at := content.find(marker, search)) >= 0:
        digits = _DIGITS.match(content, at + len(marker))
        if digits is None or not content.startswith(marker, digits.end()):
            search = at + 1
            continue
        gap = content[done:at]
        start = at - (len(gap) - len(gap.rstrip("\n")))
        close = digits.end() + len(marker)
        newlines = _NEWLINES.match(content, close)
        assert newlines is not None  # "\n*" matches anywhere, if only ""
        end = newlines.end()
        lead = start < at and start > 0
        trail = end > close and end < len(content)
        out.append(content[done:start])
        out.append(fill(int(digits.group()), lead, trail))
        done = search = end
    out.append(content[done:])
    return "".join(out)


def _fill_marks(page: Page, marker: str, parts: list[_Part]) -> Page:
    """``page`` with each mark replaced by its frame's text; frames read but left out by the
    main-content selection are appended."""
    markdown = page.extract == "markdown"
    placed: set[int] = set()

    def fill(index: int, lead: bool, trail: bool) -> str:
        text = ""
        if index < len(parts):
            placed.add(index)
            part = parts[index]
            if part.page is not None:
                text = part.page.content.strip()
            elif part.link is not None:
                text = _link_line(part.link, markdown)
        # The mark is a paragraph of its own: an emptied one takes its blank lines with it.
        if not text:
            return "\n\n" if lead and trail else ""
        return ("\n\n" if lead else "") + text + ("\n\n" if trail else "")

    content = _replace_marks(page.content, marker, fill)
    missing = [
        p.page.content.strip()
        for i, p in enumerate(parts)
        if p.page is not None and i not in placed and p.page.content.strip()
    ]
    if missing:
        content = "\n\n".join([content.rstrip(), *missing]).lstrip("\n")
    return dataclasses.replace(page, content=content)


def _merge_data(page: Page, parts: list[_Part]) -> Page:
    """``links``/``tables``: the frames' items after the page's own."""
    items: list[dict[str, Any]] = [dict(item) for item in page.data or ()]
    for part in parts:
        if part.page is not None:
            items.extend(dict(item) for item in part.page.data or ())
        elif part.link is not None and page.extract == "links":
            url, label, _ = part.link
            items.append({"url": url, "text": "" if label == url else label, "rel": None})
    if page.extract == "links":
        links = unique_links(items)
        return dataclasses.replace(page, data=tuple(links), content=render_links(links))
    return dataclasses.replace(page, data=tuple(items), content=render_tables(items))
