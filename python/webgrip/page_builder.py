"""From a response to a :class:`~webgrip.page.Page`: content-type dispatch, paging, a page cache.

- HTML goes through the Rust extractor (one parse per view), with the readable main content
  by default for ``markdown``/``text`` and a fallback to the whole page when that is nearly
  empty.
- JSON is pretty-printed (up to :data:`MAX_PRETTY_JSON_BYTES`, larger JSON as sent);
  ``text/*``, CSV, XML, YAML and friends pass through as text.
- PDFs (by Content-Type or the ``%PDF-`` magic) are read by the Rust core into text or
  Markdown, in a worker process (see :mod:`webgrip.pdf`, :mod:`webgrip._pdfpool`); the
  page's metadata holds the document's and ``pages``.
- Images, archives and other binary bodies raise
  :class:`~webgrip.errors.UnsupportedContentError` (save those with a download instead).
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from . import _cancel, _core, _jsonsafe, _pdfpool
from .errors import UnsupportedContentError
from .expiring import ExpiringLRU
from .hygiene import tracking_rules
from .messages import describe_media_type
from .page import EXTRACT_MODES, Page
from .pdf import is_pdf

if TYPE_CHECKING:
    from .response import Response

__all__ = [
    "DEFAULT_PAGE_CACHE_BYTES",
    "MAX_LINKS",
    "DocumentCache",
    "build_marked_page",
    "build_page",
    "classify",
    "code_fences",
    "page_links",
    "page_size",
    "render_links",
    "render_tables",
    "slice_text",
    "unique_links",
]

#: Links listed in ``links`` mode; the rest are counted.
MAX_LINKS = 100
#: Below this many characters, a main-content extract is replaced by the whole page (when
#: that is longer); the core decides it on its one parse.
MIN_MAIN_CONTENT_CHARS: int = _core.MIN_MAIN_CONTENT_CHARS
#: JSON bodies up to this size are pretty-printed; larger ones pass through as sent (parsing
#: and re-indenting costs up to ~30 bytes of memory per byte of body: a dict per ``{},``).
MAX_PRETTY_JSON_BYTES = 1024 * 1024
#: Default memory budget of a :class:`DocumentCache` (``Config.page_cache_bytes``).
DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_TEXT_APP_TYPES = frozenset(
    {
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-javascript",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/csv",
        "application/sql",
        "application/graphql",
        "application/x-sh",
        "application/x-httpd-php",
        "application/rss+xml",
        "application/atom+xml",
        "application/x-www-form-urlencoded",
        "application/markdown",
    }
)
_PDF_TYPES = frozenset({"application/pdf", "application/x-pdf", "application/acrobat"})
_UNKNOWN_TYPES = frozenset(
    {"application/octet-stream", "application/unknown", "binary/octet-stream"}
)
# Binary formats recognised by their first bytes (PDFs are told apart first, by ``is_pdf``).
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x1f\x8b", "application/gzip"),
    (b"RIFF", "application/octet-stream"),
    (b"\x7fELF", "application/octet-stream"),
)


def classify(content_type: str | None, body: bytes) -> tuple[str, str | None]:
    """Decide how to treat a body: ``(kind, media_type)`` with kind ``html``, ``json``,
    ``text``, ``pdf`` or ``binary``. Sniffs only when the type is missing or generic."""
    ct = (content_type or "").split(";", 1)[0].strip().lower() or None
    if ct in _PDF_TYPES:
        return "pdf", "application/pdf"
    if ct in _HTML_TYPES:
        return "html", ct
    if ct is not None and (
        ct == "application/json" or ct.endswith("+json") or ct == "application/x-ndjson"
    ):
        return "json", ct
    if ct is not None and (ct.startswith("text/") or ct in _TEXT_APP_TYPES or ct.endswith("+xml")):
        return "text", ct
    if ct is not None and ct not in _UNKNOWN_TYPES:
        return "binary", ct
    return _sniff(body, ct)


def _sniff(body: bytes, declared: str | None) -> tuple[str, str | None]:
    head = body[:1024]
    if is_pdf(head):
        return "pdf", "application/pdf"
    for magic, media in _MAGIC:
        if head.startswith(magic):
            return "binary", media
    if b"\x00" in head:
        return "binary", declared or "application/octet-stream"
    start = head.lstrip().lower()
    if start.startswith((b"<!doctype html", b"<html")) or b"<body" in start or b"<head" in start:
        return "html", "text/html"
    # Only a body small enough to pretty-print is parsed to prove it JSON (see build_page).
    if start[:1] in (b"{", b"[") and len(body) <= MAX_PRETTY_JSON_BYTES:
        try:
            _jsonsafe.loads(body)
            return "json", "application/json"
        except ValueError:  # including too deep or too long a number: show it as text
            pass
    return "text", declared or "text/plain"


def build_page(
    response: Response,
    *,
    url: str,
    extract: str = "markdown",
    main_content: bool | None = None,
    tracking: _core.TrackingRules | None = None,
    deadline: float | None = None,
    readable_model: bool = True,
) -> Page:
    """Convert a successful response into a :class:`Page` showing the ``extract`` view.

    ``main_content`` defaults to ``True`` for ``markdown``/``text`` and ``False`` otherwise.
    ``deadline`` (a :func:`time.monotonic` time) bounds the parsing too: past it the core
    stops and :class:`~webgrip.errors.FetchTimeoutError` is raised, as it is when the call's
    cancel token (:mod:`webgrip._cancel`) is cancelled.
    In ``links`` and ``markdown`` modes the core removes tracking parameters from every link
    as it resolves it: ``tracking`` (see :func:`webgrip.hygiene.tracking_rules`, a client
    compiles its ``Config.tracking_params`` once), else the built-in rules.
    ``readable_model`` (``Config.readable_model``, on by default) lets the learned block
    scorer take out of the readable selection the blocks it judges boilerplate; ``False``
    keeps the rules' selection as it is.
    Raises :class:`~webgrip.errors.UnsupportedContentError` for binary bodies, and for
    ``links``/``tables`` on anything but HTML.
    """
    return build_marked_page(
        response,
        url=url,
        extract=extract,
        main_content=main_content,
        tracking=tracking,
        deadline=deadline,
        readable_model=readable_model,
    )[0]


def build_marked_page(
    response: Response,
    *,
    url: str,
    extract: str = "markdown",
    main_content: bool | None = None,
    tracking: _core.TrackingRules | None = None,
    deadline: float | None = None,
    frame_marker: str | None = None,
    readable_model: bool = True,
) -> tuple[Page, list[dict[str, Any]]]:
    """:func:`build_page` that also lists an HTML page's frames, each marked in the
    ``markdown``/``text`` view as ``{frame_marker}{index}{frame_marker}`` where it stands
    (see :mod:`webgrip.frames`, which fills the marks in). Without a marker, or for a page
    that is not HTML, the list is empty and nothing is marked.
    """
    if extract not in EXTRACT_MODES:
        raise ValueError(f"extract must be one of {', '.join(EXTRACT_MODES)}; got {extract!r}")
    kind, media = classify(response.headers.get("content-type"), response.content)
    if kind == "pdf":
        if extract in ("markdown", "text"):
            return _pdf_page(response, url=url, extract=extract, deadline=deadline), []
        raise UnsupportedContentError(
            f"extract={extract!r} needs an HTML page; {response.url} is a PDF document",
            url=response.url,
            reason="not-html",
            content_type=media,
            size=len(response.content),
        )
    if kind == "binary":
        size = _declared_size(response)
        raise UnsupportedContentError(
            f"{response.url} is {describe_media_type(media)}, not a text document",
            url=response.url,
            reason="binary-content",
            content_type=media,
            size=size,
        )
    if kind != "html":
        if extract in ("links", "tables"):
            raise UnsupportedContentError(
                f"extract={extract!r} needs an HTML page; {response.url} is {media}",
                url=response.url,
                reason="not-html",
                content_type=media,
                size=len(response.content),
            )
        text = response.text
        if kind == "json" and len(response.content) <= MAX_PRETTY_JSON_BYTES:
            text = _pretty_json(text)
        return Page(
            url=url,
            final_url=response.url,
            status=response.status,
            content_type=media,
            extract=extract,
            content=text,
        ), []
    return _html_page(
        response,
        url=url,
        media=media,
        extract=extract,
        main_content=main_content,
        tracking=tracking or tracking_rules(),
        deadline=deadline,
        frame_marker=frame_marker,
        readable_model=readable_model,
    )


def _pdf_page(response: Response, *, url: str, extract: str, deadline: float | None) -> Page:
    left = None if deadline is None else deadline - time.monotonic()
    # In a worker process: a PDF that crashes the reader fails this call, not the host.
    doc = _pdfpool.extract_pdf(
        response.content, mode=extract, url=response.url, timeout=left, cancel=_cancel.current()
    )
    metadata = dict(doc["metadata"])
    return Page(
        url=url,
        final_url=response.url,
        status=response.status,
        content_type="application/pdf",
        extract=extract,
        content=doc["content"],
        title=metadata.get("title"),
        metadata=metadata,
    )


def _declared_size(response: Response) -> int | None:
    raw = response.headers.get("content-length", "")
    if raw.strip().isdigit():
        return int(raw.strip())
    return len(response.content) or None


#: Pretty-printing may grow a document this many times (plus the slack below) at most.
#: Indentation grows with depth, so a deeply nested document of a few KiB would become
#: megabytes of spaces; past the budget the document is shown as sent.
_PRETTY_GROWTH = 4
_PRETTY_SLACK = 64 * 1024


def _pretty_json(text: str) -> str:
    """``text`` re-indented, or as sent when it is not JSON (or JSON lines), nests too deeply
    to parse, holds an integer too long to convert, or would grow past the budget."""
    try:
        parts = json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(_jsonsafe.loads(text))
        budget = _PRETTY_GROWTH * len(text) + _PRETTY_SLACK
        out: list[str] = []
        # Joined a thousand parts at a time (in C): checking after every part cost 60%.
        while chunk := "".join(itertools.islice(parts, 1024)):
            budget -= len(chunk)
            if budget < 0:
                return text
            out.append(chunk)
        return "".join(out)
    except (ValueError, RecursionError):  # RecursionError: the encoder recurses too
        return text


def _html_page(
    response: Response,
    *,
    url: str,
    media: str | None,
    extract: str,
    main_content: bool | None,
    tracking: _core.TrackingRules,
    deadline: float | None,
    frame_marker: str | None,
    readable_model: bool,
) -> tuple[Page, list[dict[str, Any]]]:
    main = extract in ("markdown", "text") if main_content is None else bool(main_content)
    ct_header = response.headers.get("content-type")

    def parse(modes: tuple[str, ...], main_content: bool) -> dict[str, Any]:
        left = None if deadline is None else deadline - time.monotonic()
        # Markdown images on hosts the default policy refuses are reduced to their alt text
        # by the core: a chat UI rendering the answer would make the user's browser request
        # internal hosts (tracking parameters are stripped there too).
        return _core.extract_document(
            response.content,
            modes=modes,
            main_content=main_content,
            url=response.url,
            content_type=ct_header,
            timeout=left,
            cancel=_cancel.current(),
            tracking=tracking,
            refuse_internal_images="markdown" in modes,
            frame_marker=frame_marker,
            readable_model=readable_model,
        )

    data: tuple[dict[str, Any], ...] | None = None
    # A crawl (webgrip.sites.crawl) reads each page's links beside the view it keeps: asked
    # in the same parse, they cost no second pass over the page.
    sink = _LINKS_SINK.get()
    also = ("links",) if sink is not None and extract != "links" else ()
    if extract == "html":
        doc = parse(("metadata", *also), False)
        content, main = response.text, False
    elif extract in ("markdown", "text"):
        doc = parse((extract, "metadata", *also), main)
        content = doc.get(extract) or ""
        main = bool(doc.get("main_content"))
    elif extract == "links":
        doc = parse(("links", "metadata"), main)
        links = unique_links(doc.get("links") or [])
        data = tuple(links)
        content = render_links(links)
    else:  # tables
        doc = parse(("tables", "metadata", *also), main)
        # The row dicts are the core's fresh objects: kept, not copied (memory on huge tables).
        tables = [
            {
                "caption": t.get("caption"),
                "headers": list(t.get("headers") or []),
                "rows": list(t.get("rows") or []),
            }
            for t in doc.get("tables") or []
        ]
        data = tuple(tables)
        content = render_tables(tables)
    if sink is not None:
        sink.extend(data if extract == "links" and data is not None else doc.get("links") or ())
    # The core's dict is fresh and this page's alone: kept, not copied.
    metadata = doc.get("metadata") or {}
    return Page(
        url=url,
        final_url=response.url,
        status=response.status,
        content_type=media,
        extract=extract,
        content=content,
        title=metadata.get("title"),
        metadata=metadata,
        data=data,
        main_content=main,
    ), list(doc.get("frames") or [])


#: Where :func:`page_links` collects the links of the HTML pages converted in its block.
_LINKS_SINK: ContextVar[list[Mapping[str, Any]] | None] = ContextVar(
    "webgrip_page_links", default=None
)


@contextmanager
def page_links() -> Iterator[list[Mapping[str, Any]]]:
    """Collect the links (``{url, text, rel}``, resolved, tracking parameters removed) of
    every HTML page converted in this ``with`` block (this thread or task), whatever its
    view: a crawler keeps a page's Markdown and follows its links from one parse."""
    found: list[Mapping[str, Any]] = []
    token = _LINKS_SINK.set(found)
    try:
        yield found
    finally:
        _LINKS_SINK.reset(token)


def unique_links(links: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The core's ``links`` once per URL (first text kept, or the first non-empty one), text
    whitespace-collapsed: the ``data`` of a ``links`` page (here and in :mod:`.frames`)."""
    # The core's dicts are fresh and ours: they are updated in place rather than copied, so a
    # page of 300k links does not hold two sets of dicts at once.
    seen: dict[str, dict[str, Any]] = {}
    for link in links:
        href = link.get("url")
        if not href:
            continue
        text = " ".join(str(link.get("text") or "").split())
        first = seen.get(href)
        if first is None:
            link["url"], link["text"] = href, text
            seen[href] = link
        elif not first["text"] and text:
            first["text"] = text
    return list(seen.values())


def render_links(links: list[dict[str, Any]]) -> str:
    """The ``content`` of a ``links`` page: a Markdown list of the first :data:`MAX_LINKS`."""
    lines = []
    for link in links[:MAX_LINKS]:
        text = link["text"].replace("[", "\\[").replace("]", "\\]") or link["url"]
        lines.append(f"- [{text}]({link['url']})")
    if len(links) > MAX_LINKS:
        lines.append(f"…and {len(links) - MAX_LINKS} more links")
    return "\n".join(lines)


def render_tables(tables: list[dict[str, Any]]) -> str:
    """The ``content`` of a ``tables`` page: the tables as a JSON list, one per line."""
    if not tables:
        return ""
    rows = ",\n".join(json.dumps(t, ensure_ascii=False) for t in tables)
    return f"[\n{rows}\n]"


def slice_text(text: str, start: int, max_length: int) -> tuple[str, int]:
    """``text[start:end]`` of at most ``max_length`` characters, cut at a word boundary.

    Returns ``(chunk, end)``; ``end`` is the ``start`` of the next chunk, so consecutive
    chunks reassemble ``text`` exactly. A break is preferred at a newline in the last quarter
    of the window, else at the last whitespace in its second half, else the cut is hard.
    """
    start = max(0, start)
    end = start + max(1, max_length)
    if end >= len(text):
        return text[start:], len(text)
    window = text[start:end]
    newline = window.rfind("\n")
    if newline >= len(window) * 3 // 4:
        cut = newline + 1
    else:
        cut = 0
        for i in range(len(window) - 1, len(window) // 2 - 1, -1):
            if window[i].isspace():
                cut = i + 1
                break
    if cut <= 0:
        cut = len(window)
    cut = _before_trailing_heading(window, cut)
    return window[:cut], start + cut


def _before_trailing_heading(window: str, cut: int) -> int:
    """``cut`` moved back to the start of a Markdown heading the chunk would end with (its
    section is on the next part, and a heading is read with what follows it); unchanged when
    the heading is all the chunk holds."""
    kept = window[:cut].rstrip()
    line_start = kept.rfind("\n") + 1
    if line_start <= 0 or not _is_heading(kept[line_start:]):
        return cut
    return line_start


def _is_heading(line: str) -> bool:
    """Whether ``line`` is an ATX Markdown heading ("## Title": 1-6 "#", then a space)."""
    hashes = len(line) - len(line.lstrip("#"))
    return 1 <= hashes <= 6 and line[hashes : hashes + 1] in (" ", "\t")


def code_fences(text: str, start: int, end: int) -> tuple[str, str]:
    """What makes ``text[start:end]`` of a Markdown page read as Markdown on its own: the
    opening line of a code fence open at ``start`` (to reopen it before the part) and the
    fence that closes one left open at ``end`` (to close it after the part); ``""`` where
    none is needed. The page itself is not changed, so offsets stay those of the page.

    Linear in ``text[:end]``: only the lines starting with a fence marker are read (found
    with ``str.find``), not every line; past :data:`MAX_FENCE_MARKERS` markers (no page
    a person writes, a page built to slow each call down) nothing is added."""
    lines = _fence_lines(text, end)
    if lines is None:
        return "", ""
    fence: tuple[str, int, str] | None = None  # (marker char, run length, opening line)
    at_start = None  # the fence open at ``start``: set once the lines before it are read
    for line_start in lines:
        if line_start >= start and at_start is None:
            at_start = (fence,)
        newline = text.find("\n", line_start)
        line = text[line_start : len(text) if newline < 0 else newline]
        marker = _fence_marker(line)
        if marker is None:  # pragma: no cover - _fence_lines found a marker there
            continue
        char, run, rest = marker
        if fence is None:
            if not (char == "`" and "`" in rest):  # an info string holds no backtick
                fence = (char, run, line.strip())
        elif char == fence[0] and run >= fence[1] and not rest.strip():
            fence = None
    opened = fence if at_start is None else at_start[0]
    reopen = opened[2] + "\n" if opened is not None else ""
    close = "\n" + fence[0] * fence[1] if fence is not None else ""
    return reopen, close


#: The most fence markers (``` or ~~~ anywhere) :func:`code_fences` looks at before giving up.
MAX_FENCE_MARKERS = 50_000


def _fence_lines(text: str, end: int) -> list[int] | None:
    """The starts of the lines beginning before ``end`` with a fence marker (up to three
    spaces, then three backticks or tildes), in order; ``None`` past
    :data:`MAX_FENCE_MARKERS` markers. Each search goes on from the last match, and the line
    start is looked for back to the previous match only: linear."""
    starts: set[int] = set()
    seen = 0
    limit = end + 6  # a marker on a line that starts before ``end`` may run past it
    for token in ("```", "~~~"):
        line_start = looked = 0
        at = text.find(token, 0, limit)
        while at >= 0:
            seen += 1
            if seen > MAX_FENCE_MARKERS:
                return None
            newline = text.rfind("\n", looked, at)
            if newline >= 0:
                line_start = newline + 1
            looked = at
            if at - line_start <= 3 and line_start < end and not text[line_start:at].strip(" "):
                starts.add(line_start)
            at = text.find(token, at + 3, limit)
    return sorted(starts)


def _fence_marker(line: str) -> tuple[str, int, str] | None:
    """``(char, run length, rest)`` for a code fence line (up to three spaces, then three or
    more backticks or tildes), else ``None``."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3 or body[:3] not in ("```", "~~~"):
        return None
    char = body[0]
    run = len(body) - len(body.lstrip(char))
    return char, run, body[run:]


class DocumentCache:
    """A bounded, thread-safe LRU of converted pages with a time-to-live.

    Keys are ``(url, extract, main_content)``. Bounded twice: at most ``maxsize`` pages and
    at most ``max_bytes`` of them in memory (see :func:`page_size`); a page larger than
    ``max_bytes`` on its own is not kept. A ``maxsize`` or ``max_bytes`` of 0 disables caching.
    """

    def __init__(self, maxsize: int, ttl: float, max_bytes: int = DEFAULT_PAGE_CACHE_BYTES):
        self.maxsize = max(0, int(maxsize))
        self.max_bytes = max(0, int(max_bytes))
        self.ttl = float(ttl)
        # Values are (page, its size): the byte budget is kept here, on top of the LRU.
        self._items: ExpiringLRU[Hashable, tuple[Page, int]] = ExpiringLRU(
            self.maxsize, on_drop=self._forget
        )
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        """The estimated size of the pages held, in bytes (never above ``max_bytes``)."""
        with self._lock:
            return self._bytes

    def get(self, key: Hashable) -> Page | None:
        """The cached page for ``key``, or ``None`` if absent or expired."""
        with self._lock:
            item = self._items.get(key)
            return None if item is None else item[0]

    def put(self, key: Hashable, page: Page) -> None:
        """Store ``page``, evicting the least recently used entries beyond either bound."""
        if self.maxsize == 0 or self.max_bytes == 0:
            return
        size = page_size(page)  # measured outside the lock: it walks the whole page
        with self._lock:
            old = self._items.pop(key)  # an older copy is stale even if the new one is not kept
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return
            self._bytes += size
            self._items.put(key, (page, size), self.ttl if self.ttl > 0 else None)
            while self._bytes > self.max_bytes:
                self._items.pop_oldest()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def _forget(self, key: Hashable, item: tuple[Page, int]) -> None:
        self._bytes -= item[1]  # called by the LRU, under self._lock

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


def page_size(page: Page) -> int:
    """The approximate memory held by ``page``, in bytes: every str at its real width (a
    single astral character makes CPython store 4 bytes per character), plus the containers
    of ``metadata`` and ``data``. Dict keys are not counted: they are shared field names or
    table headers (counted once in ``headers``)."""
    total = sys.getsizeof(page)
    stack: list[Any] = [
        page.url,
        page.final_url,
        page.content_type,
        page.extract,
        page.content,
        page.title,
        page.metadata,
        page.data,
    ]
    while stack:
        obj = stack.pop()
        if obj is None:
            continue
        total += sys.getsizeof(obj)
        if type(obj) is str:  # most values: skip the abstract-class checks below
            continue
        if isinstance(obj, Mapping):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
    return total
