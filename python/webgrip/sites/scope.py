"""Which URLs belong to a site: the start URL's host (or its registrable domain).

A site map lists, and a crawl follows, only the pages of the site it was started on. "The
site" is decided on the host the fetch would connect to (the core's parse, so
``http://a.example\\@b.example/`` belongs to ``a.example``), never on what a URL appears to
say. Without ``subdomains`` a URL's host must be the start host, with or without a leading
``www.``; with ``subdomains``, any host under the same registrable domain, which the core
finds in the Public Suffix List (``docs.example.co.uk`` and ``example.co.uk`` share
``example.co.uk``; ``a.github.io`` and ``b.github.io`` do not). An IP address or a
single-label host is a site of its own. Ports and http/https do not matter.

Being in scope is not permission to fetch: every request still goes through the guard.
"""

from __future__ import annotations

from .. import _core
from ..errors import InvalidURLError
from .urls import is_http

__all__ = ["SiteScope"]


def _bare(host: str) -> str:
    """``host`` without one leading ``www.`` (when something is left)."""
    rest = host.removeprefix("www.")
    return rest if rest else host


class SiteScope:
    """The URLs of the site ``start_url`` is on (see the module's notes).

    >>> scope = SiteScope("https://www.example.com/docs/")
    >>> scope.site, scope.contains("http://example.com/a"), scope.contains("https://api.example.com/")
    ('example.com', True, False)
    >>> SiteScope("https://example.com/", subdomains=True).contains("https://api.example.com/")
    True
    """

    def __init__(self, start_url: str, *, subdomains: bool = False):
        """Raises :class:`~webgrip.errors.InvalidURLError` when ``start_url`` is not an
        http(s) URL with a host."""
        host = _core.url_host(start_url.strip()) if is_http(start_url) else None
        if host is None:
            raise InvalidURLError(
                f"Not an http(s) URL with a host: {start_url[:200]!r}",
                url=start_url,
                reason="invalid-url",
            )
        self.start_url = start_url
        self.host = host
        self.subdomains = subdomains
        #: The registrable domain of the start host (the host itself for an address).
        self.site: str = _core.site_of(host)
        self._bare = _bare(host)

    def contains(self, url: str) -> bool:
        """Whether ``url`` is an http(s) URL on this site."""
        if not is_http(url):
            return False
        host = _core.url_host(url.strip())
        if host is None:
            return False
        if self.subdomains:
            return host == self.host or _core.site_of(host) == self.site
        return _bare(host) == self._bare

    def __repr__(self) -> str:
        extra = ", subdomains=True" if self.subdomains else ""
        return f"SiteScope({self.start_url!r}{extra})"
