"""One spelling per page: the canonical URL that site maps and crawls deduplicate on.

Links to one page come in many spellings: ``HTTP://Example.com:80/a?utm_source=x#top``,
``http://example.com/a``, ``http://example.com/%7e`` and ``http://example.com/%7E``.
:func:`canonical` maps them to one string, so a site map lists a page once and a crawl fetches
it once. It only makes changes that cannot change which resource a server returns:

- tracking query parameters removed (webgrip's hygiene, :func:`webgrip.hygiene.strip_tracking`),
  and an empty query (``?``) dropped;
- the fragment removed (it is never sent to a server);
- scheme and host lower-cased, the host in the core's canonical form (IDNA, IP literals in
  any spelling as the address, no trailing dot), the default port removed;
- an empty path written ``/``;
- the hex digits of percent escapes upper-cased (RFC 3986 section 6.2.2.1).

Paths keep their case and their order of parameters: servers are free to treat those as
meaningful.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import SplitResult, urlsplit

from .. import _core
from ..hygiene import strip_tracking

__all__ = ["canonical", "is_http"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
_HEX = frozenset("0123456789abcdefABCDEF")


def _parts(url: str) -> SplitResult:
    """``urlsplit`` as the fetch reads ``url``: in http(s) URLs a backslash before the query is
    a slash (WHATWG), so ``http://a\\@b/`` is host ``a``, as the core connects to it."""
    head, sep, tail = url.partition("?")
    if "\\" in head and head[:6].lower() in ("http:/", "https:"):
        before, hash_, after = head.partition("#")
        head = before.replace("\\", "/") + hash_ + after
    return urlsplit(head + sep + tail)


def _upper_escapes(text: str) -> str:
    """``text`` with the two hex digits of every ``%XX`` escape upper-cased (one pass)."""
    if "%" not in text:
        return text
    first, *pieces = text.split("%")
    out = [first]
    for piece in pieces:
        if len(piece) >= 2 and piece[0] in _HEX and piece[1] in _HEX:
            piece = piece[:2].upper() + piece[2:]
        out.append(piece)
    return "%".join(out)


def canonical(url: str, extra_tracking: Iterable[str] = ()) -> str:
    """The one spelling of ``url`` used to tell pages apart (see the module's notes).

    ``extra_tracking`` adds tracking-parameter rules (usually ``Config.tracking_params``).
    Never raises: input that is not an absolute http(s)-like URL comes back only stripped of
    surrounding whitespace.

    >>> canonical("HTTPS://Example.COM:443?utm_source=feed#intro")
    'https://example.com/'
    >>> canonical("http://example.com/a%7e/b?q=%2f&fbclid=1")
    'http://example.com/a%7E/b?q=%2F'
    """
    text = url.strip()
    try:
        parts = _parts(strip_tracking(text, extra_tracking))
        scheme = parts.scheme.lower()
        if not scheme or not parts.netloc:
            return text
        port = parts.port
        host = _core.url_host(text) if scheme in _DEFAULT_PORTS else None
        if host is None:
            host = (parts.hostname or "").rstrip(".")
        if ":" in host:
            host = f"[{host}]"
    except ValueError:  # a port out of range, a broken IPv6 literal...
        return text
    netloc = host
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{host}:{port}"
    userinfo, at, _ = parts.netloc.rpartition("@")
    if at:
        netloc = f"{userinfo}@{netloc}"
    path = _upper_escapes(parts.path) or "/"
    query = f"?{_upper_escapes(parts.query)}" if parts.query else ""
    return f"{scheme}://{netloc}{path}{query}"


def is_http(url: str) -> bool:
    """Whether ``url`` is an absolute ``http:`` or ``https:`` URL with a host."""
    head = url.lstrip()[:8].lower()
    if not head.startswith(("http://", "https://")):
        return False
    return _core.url_host(url.strip()) is not None
