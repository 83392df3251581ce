"""Reading a site's sitemaps (sitemaps.org) safely: every file hostile, every limit held.

Where they are found: the ``Sitemap:`` lines of robots.txt (any number, any host) and
``/sitemap.xml`` by convention. What they may be: an XML ``<urlset>`` of ``<url><loc>``, an XML
``<sitemapindex>`` of ``<sitemap><loc>`` naming further sitemaps, a text file of one URL a
line; any of them gzip-compressed (``.xml.gz``, or a gzip body whatever the name).

What a hostile file cannot do:

- **Expand entities or load a DTD.** The XML goes through expat with handlers that stop the
  parse at the first entity declaration or internal DTD subset (a "billion laughs" bomb is a
  few hundred bytes declaring entities), and parameter entities and external DTDs are never
  read, so no file is opened and no request is made for a ``SYSTEM`` identifier.
- **Grow past the protocol's limits.** A file is read up to :data:`MAX_SITEMAP_BYTES` (the
  protocol's 50 MiB), after decompression too: a ``Content-Encoding`` is decoded by the core
  under that cap, and a gzip *file* is decompressed here, a megabyte at a time, into the parser
  (so memory holds one chunk, never the file), stopping at the cap. At most
  :data:`MAX_URLS_PER_SITEMAP` URLs are taken from one file, :data:`MAX_SITEMAPS` files are
  read per map, and indexes are followed :data:`MAX_INDEX_DEPTH` levels deep.
- **Outlast the map.** Every fetch is finished by the map's deadline.
- **Reach what the guard refuses.** Every file is fetched through the client (the policy on
  every hop and address); an index naming sitemaps on another site is not followed.

A file breaking a rule is skipped (or cut where the rule broke) and reported as ``(url,
reason)``: never an exception, never a memory spike.
"""

from __future__ import annotations

import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin
from xml.parsers import expat

from .. import _core
from ..errors import WebgripError
from ..sender import Sender
from .urls import canonical, is_http

__all__ = [
    "MAX_INDEX_DEPTH",
    "MAX_SITEMAPS",
    "MAX_SITEMAP_BYTES",
    "MAX_URLS_PER_SITEMAP",
    "SitemapRead",
    "parse_sitemap",
    "read_sitemaps",
]

#: The protocol's limits for one file: 50 MiB uncompressed, 50,000 URLs.
MAX_SITEMAP_BYTES = 50 * 1024 * 1024
MAX_URLS_PER_SITEMAP = 50_000
#: Files read per map (sitemaps and indexes together).
MAX_SITEMAPS = 200
#: How many indexes may stand above a sitemap (robots.txt's sitemap is at depth 0).
MAX_INDEX_DEPTH = 4
#: A ``<loc>`` (or a text line) longer than this is no URL anyone serves: left out.
MAX_URL_CHARS = 4096
#: Decompressed bytes handed to the parser at a time.
_CHUNK = 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"


class _Refused(Exception):
    """A rule of this module broken by a file: the reason, as reported."""


@dataclass
class _Parsed:
    """What one file held: page URLs, or (for an index) sitemap URLs."""

    urls: list[str] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)
    problem: str | None = None


class _XmlReader:
    """An XML sitemap or index fed in chunks to expat, which expands nothing.

    Only a ``<loc>`` directly inside ``<url>`` or ``<sitemap>`` counts (an image sitemap's
    ``<image:loc>`` is inside ``<image:image>``); names are compared without their namespace
    prefix, so ``<sm:url>`` reads like ``<url>``.
    """

    def __init__(self, parsed: _Parsed, max_urls: int):
        self._parsed = parsed
        self._max = max_urls
        self._stack: list[str] = []
        self._text: list[str] | None = None
        self._size = 0
        p = expat.ParserCreate()
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartDoctypeDeclHandler = self._doctype
        p.EntityDeclHandler = self._entity
        p.ExternalEntityRefHandler = self._external
        p.StartElementHandler = self._start
        p.EndElementHandler = self._end
        p.CharacterDataHandler = self._chars
        p.buffer_text = True
        self._parser = p

    # Entities and DTDs: refused at the declaration, before anything is expanded or read.
    def _doctype(self, name: str, sysid: str | None, pubid: str | None, internal: int) -> None:
        if internal:
            raise _Refused(
                "an XML DTD with declarations (where entity bombs live): refused, nothing expanded"
            )

    def _entity(self, *args: object) -> None:
        raise _Refused("an XML entity declaration: refused, never expanded")

    def _external(self, *args: object) -> int:
        raise _Refused("an external XML entity: refused, never read")

    def _start(self, name: str, attrs: object) -> None:
        local = name.rpartition(":")[2]
        if local == "loc" and self._stack and self._stack[-1] in ("url", "sitemap"):
            self._text, self._size = [], 0
        self._stack.append(local)

    def _chars(self, data: str) -> None:
        if self._text is not None:
            self._size += len(data)
            if self._size <= MAX_URL_CHARS:
                self._text.append(data)

    def _end(self, name: str) -> None:
        local = self._stack.pop() if self._stack else ""
        if local != "loc" or self._text is None:
            return
        text, self._text = "".join(self._text).strip(), None
        if not text or self._size > MAX_URL_CHARS:
            return
        into = self._parsed.sitemaps if self._stack[-1] == "sitemap" else self._parsed.urls
        if len(self._parsed.urls) + len(self._parsed.sitemaps) >= self._max:
            raise _Refused(f"more than {self._max:,} entries: the first {self._max:,} kept")
        into.append(text)

    def feed(self, chunk: bytes, final: bool = False) -> None:
        try:
            self._parser.Parse(chunk, final)
        except expat.ExpatError as exc:
            raise _Refused(f"not well-formed XML ({expat.ErrorString(exc.code)})") from None


class _TextReader:
    """A text sitemap fed in chunks: one URL a line, a line kept while it is short enough."""

    def __init__(self, parsed: _Parsed, max_urls: int):
        self._parsed = parsed
        self._max = max_urls
        self._tail = b""
        self._overlong = False

    def _line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace").strip()
        if is_http(text):
            if len(self._parsed.urls) >= self._max:
                raise _Refused(f"more than {self._max:,} URLs: the first {self._max:,} kept")
            self._parsed.urls.append(text)

    def feed(self, chunk: bytes, final: bool = False) -> None:
        lines = (self._tail + chunk).split(b"\n")
        self._tail = lines.pop()
        for raw in lines:
            if self._overlong:  # the end of a line already too long
                self._overlong = False
            elif len(raw) <= MAX_URL_CHARS:
                self._line(raw)
        if len(self._tail) > MAX_URL_CHARS:  # no URL: skip to the next line break
            self._tail, self._overlong = b"", True
        if final and self._tail and not self._overlong:
            self._line(self._tail)


def _gunzip(body: bytes, limit: int, sink: Callable[[bytes], None]) -> None:
    """Decompress the gzip ``body`` (members one after another, as gzip allows) into
    ``sink`` at most :data:`_CHUNK` bytes at a time, refusing past ``limit`` bytes out: the
    whole output never exists at once, whatever the ratio."""
    data = body
    produced = 0
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = data
        while not inflater.eof:
            try:
                out = inflater.decompress(pending, _CHUNK)
            except zlib.error as exc:
                raise _Refused(f"broken gzip data ({exc})") from None
            pending = inflater.unconsumed_tail
            if not out and not pending:
                break
            produced += len(out)
            if produced > limit:
                raise _Refused(f"more than {limit // (1024 * 1024)} MiB once decompressed")
            if out:
                sink(out)
        if not inflater.eof:
            raise _Refused("truncated gzip data")
        data = inflater.unused_data.lstrip(b"\0")  # padding after the last member


def parse_sitemap(
    body: bytes, *, max_urls: int = MAX_URLS_PER_SITEMAP, limit: int = MAX_SITEMAP_BYTES
) -> _Parsed:
    """The URLs (or, for an index, the sitemap URLs) of one sitemap body: XML, text, either
    gzip-compressed. A rule broken (see the module's notes) ends the reading; what was read
    before stays, and ``problem`` says why it stopped."""
    parsed = _Parsed()
    reader: _XmlReader | _TextReader | None = None

    def feed(chunk: bytes) -> None:
        nonlocal reader
        if reader is None:
            start = chunk.lstrip(b"\xef\xbb\xbf \t\r\n")
            if not start:
                return
            reader = (
                _XmlReader(parsed, max_urls) if start[:1] == b"<" else _TextReader(parsed, max_urls)
            )
        reader.feed(chunk)

    try:
        if body[:2] == _GZIP_MAGIC:
            _gunzip(body, limit, feed)
        elif len(body) > limit:
            raise _Refused(f"more than {limit // (1024 * 1024)} MiB")
        else:
            for at in range(0, len(body), _CHUNK):
                feed(body[at : at + _CHUNK])
        if reader is not None:
            reader.feed(b"", final=True)
    except _Refused as exc:
        parsed.problem = str(exc)
    return parsed


@dataclass
class SitemapRead:
    """The outcome of reading a site's sitemaps."""

    urls: list[str] = field(default_factory=list)
    """Page URLs in the order found, as the files spell them (deduplicate with
    :func:`~webgrip.sites.urls.canonical`)."""
    sitemaps: list[str] = field(default_factory=list)
    """The files read (each fetched once)."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """``(sitemap url, reason)`` for each file refused, cut or not fetched."""


def _reason(exc: WebgripError) -> str:
    message = " ".join(str(exc).split())
    return f"{exc.reason}: {message}" if exc.reason else message


def read_sitemaps(
    sender: Sender,
    roots: list[str],
    *,
    deadline: float,
    limit: int,
    guessed: frozenset[str] = frozenset(),
    follow: Callable[[str, str], bool] | None = None,
    max_sitemaps: int = MAX_SITEMAPS,
    max_depth: int = MAX_INDEX_DEPTH,
) -> SitemapRead:
    """Read the sitemaps ``roots`` and the indexes below them, breadth first, until ``limit``
    page URLs are found, every file is read, or ``deadline`` (a :func:`time.monotonic` time).

    ``guessed`` are roots tried by convention (``/sitemap.xml``): a 404 or an HTML page
    there is no sitemap, and not reported. ``follow(child, index)`` decides whether an
    index's entry ``child`` is read (default: any http(s) URL); every fetch goes through
    ``sender`` (the guard), each file read at most once.
    """
    result = SitemapRead()
    queue: deque[tuple[str, int]] = deque((url, 0) for url in roots)
    seen: set[str] = set()
    while queue and len(result.urls) < limit:
        url, depth = queue.popleft()
        key = canonical(url)
        if key in seen:
            continue
        seen.add(key)
        if len(result.sitemaps) >= max_sitemaps:
            result.skipped.append((url, f"more than {max_sitemaps} sitemaps: not read"))
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            result.skipped.append((url, "the map's time ran out before this sitemap was read"))
            continue
        try:
            response = sender.send(
                "GET",
                url,
                deadline=min(deadline, time.monotonic() + sender.config.timeout),
                max_bytes=MAX_SITEMAP_BYTES,
            )
        except WebgripError as exc:
            result.skipped.append((url, _reason(exc)))
            continue
        if response.status >= 400 or response.status < 200:
            if not (url in guessed and response.status in (404, 410)):
                result.skipped.append((url, f"HTTP {response.status}"))
            continue
        if url in guessed and "html" in (response.content_type or ""):
            continue  # a site answering every path with a page: no sitemap there
        result.sitemaps.append(url)
        parsed = parse_sitemap(response.content, max_urls=MAX_URLS_PER_SITEMAP)
        if parsed.problem:
            result.skipped.append((url, parsed.problem))
        base = response.url or url
        for loc in parsed.urls:
            if len(result.urls) >= limit:
                break
            result.urls.append(urljoin(base, loc))
        for child in parsed.sitemaps:
            absolute = urljoin(base, child)
            if depth + 1 > max_depth:
                result.skipped.append(
                    (absolute, f"sitemap indexes nested deeper than {max_depth}: not read")
                )
            elif follow is None or follow(absolute, base):
                queue.append((absolute, depth + 1))
            else:
                result.skipped.append((absolute, "on another site than its index: not read"))
    return result


def same_site(url: str, other: str) -> bool:
    """Whether two URLs' hosts share a registrable domain (the Public Suffix List's)."""
    a, b = _core.url_host(url), _core.url_host(other)
    return a is not None and b is not None and _core.site_of(a) == _core.site_of(b)
