"""A site's map: its URLs from sitemaps, llms.txt and the start page's links, one per page.

:func:`map_site` (``WebClient.map_site``, ``webgrip.map_site``, ``webgrip map``) lists the
pages of the site a URL is on, without crawling it: it reads robots.txt (its ``Sitemap:`` lines
and its rules), the sitemaps it names and ``/sitemap.xml`` (:mod:`.sitemaps`), ``/llms.txt``
and ``/llms-full.txt`` (:mod:`.llmstxt`), and the start page's links. Every URL is written in
its canonical form (:func:`~webgrip.sites.urls.canonical`: no tracking parameters, no fragment,
one spelling of the host) and listed once; only URLs on the site (:class:`~.scope.SiteScope`)
are listed, and, unless ``respect_robots=False``, only those robots.txt lets webgrip fetch.

Nothing on the list is fetched: the map makes a handful of requests (robots.txt, the sitemaps,
the llms.txt files, the start page), each through the guard and all under one deadline.
:func:`seed_urls` is the same without the start page, for a crawl that fetches it anyway.
What was refused, cut or left unread is in :attr:`SiteMap.skipped`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, overload
from urllib.parse import urljoin, urlsplit

from ..errors import WebgripError
from ..page import Page
from ..robots import RobotsCache, RobotsRules
from ..sender import Sender
from .llmstxt import LlmsLink, parse_llms_txt, write_llms_txt
from .scope import SiteScope
from .sitemaps import SitemapRead, read_sitemaps, same_site
from .urls import canonical

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MAP_SECONDS",
    "MappedUrl",
    "SiteMap",
    "llms_txt_for_site",
    "map_site",
    "seed_urls",
]

#: URLs a map lists unless told otherwise.
DEFAULT_LIMIT = 5000
#: The whole map's deadline unless told otherwise (seconds).
DEFAULT_MAP_SECONDS = 60.0
#: ``/llms.txt`` and ``/llms-full.txt`` are read up to this size (a larger one is skipped).
MAX_LLMS_BYTES = 10 * 1024 * 1024
#: Hosts whose robots.txt a map with ``subdomains`` reads; URLs on further hosts are left out.
MAX_ROBOTS_ORIGINS = 16
#: Entries kept in :attr:`SiteMap.skipped` (a sitemap of 50,000 refused URLs says so once).
MAX_SKIPPED = 1000

#: Where a URL can come from (:attr:`MappedUrl.source`).
SOURCES = ("start", "sitemap", "llms.txt", "links")
_DISALLOWED = "robots.txt disallows it"


class MapClient(Sender, Protocol):
    """What a map needs of the client: guarded requests and :meth:`WebClient.fetch`."""

    def fetch(self, url: str, *, extract: str = ...) -> Page: ...


@dataclass(frozen=True)
class MappedUrl:
    """One page of a site map."""

    url: str
    """The canonical URL (see :func:`~webgrip.sites.urls.canonical`)."""
    title: str | None = None
    """The page's title where a source said it: the llms.txt link text, the start page's
    link text, or (for the start page) its ``<title>``."""
    source: str = "sitemap"
    """Where the URL was found first: ``"start"``, ``"sitemap"``, ``"llms.txt"`` or
    ``"links"``."""

    def to_dict(self) -> dict[str, Any]:
        """``{"url", "source"}`` and ``"title"`` where known (a JSON line of ``webgrip map
        --json``)."""
        out: dict[str, Any] = {"url": self.url}
        if self.title:
            out["title"] = self.title
        out["source"] = self.source
        return out


@dataclass
class SiteMap(Sequence[MappedUrl]):
    """The URLs of a site (a sequence of :class:`MappedUrl`, in the order found) and what was
    skipped on the way."""

    start_url: str
    urls: list[MappedUrl] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """``(url, reason)``: sitemaps refused (an entity or gzip bomb, too large, too deep, too
    many, another site, a refused address), files that failed, the start page if it failed,
    URLs robots.txt disallows; at most :data:`MAX_SKIPPED` entries."""
    sitemaps: list[str] = field(default_factory=list)
    """The sitemap files read."""

    @overload
    def __getitem__(self, index: int) -> MappedUrl: ...
    @overload
    def __getitem__(self, index: slice) -> list[MappedUrl]: ...
    def __getitem__(self, index: int | slice) -> MappedUrl | list[MappedUrl]:
        return self.urls[index]

    def __len__(self) -> int:
        return len(self.urls)

    def __iter__(self) -> Iterator[MappedUrl]:
        return iter(self.urls)

    def skip(self, url: str, reason: str) -> None:
        """Record ``(url, reason)`` in :attr:`skipped` (up to :data:`MAX_SKIPPED`)."""
        if len(self.skipped) < MAX_SKIPPED:
            self.skipped.append((url, reason))


def _origin(url: str) -> str:
    """``scheme://host[:port]`` of a canonical URL (no user info)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


class _Robots:
    """robots.txt of the site's hosts: their rules (for ``respect_robots``) and ``Sitemap:``
    lines, each file fetched once through the guard."""

    def __init__(self, client: MapClient, deadline: float, respect: bool):
        self._cache = RobotsCache(client, user_agent=client.config.user_agent)
        self._client = client
        self._deadline = deadline
        self.respect = respect
        self._origins: dict[str, RobotsRules | None] = {}

    def rules(self, origin: str) -> RobotsRules | None:
        """The rules of ``origin``; ``None`` when they cannot be had (refused host, time out,
        too many hosts): nothing there is listed."""
        if origin in self._origins:
            return self._origins[origin]
        rules: RobotsRules | None = None
        if len(self._origins) < MAX_ROBOTS_ORIGINS:
            deadline = min(self._deadline, time.monotonic() + self._client.config.timeout)
            try:
                rules = self._cache.rules(origin, deadline)
            except WebgripError:
                rules = None
        self._origins[origin] = rules
        return rules

    def allows(self, url: str) -> bool:
        """Whether ``url`` (canonical) may be listed: always without ``respect``."""
        if not self.respect:
            return True
        rules = self.rules(_origin(url))
        return rules is not None and rules.can_fetch(self._cache.token, url)


class _Collector:
    """The map being built: one entry per canonical URL on the site, up to ``limit``."""

    def __init__(self, result: SiteMap, scope: SiteScope, robots: _Robots, limit: int):
        self.result = result
        self._scope = scope
        self._robots = robots
        self.limit = limit
        self._index: dict[str, int] = {}
        self._disallowed = 0

    @property
    def full(self) -> bool:
        return len(self.result.urls) >= self.limit

    def add(self, url: str, source: str, title: str | None = None) -> None:
        if not self._scope.contains(url):
            return
        key = canonical(url)
        title = " ".join(title.split()) if title else None
        at = self._index.get(key)
        if at is not None:
            known = self.result.urls[at]
            if title and not known.title:
                self.result.urls[at] = MappedUrl(known.url, title, known.source)
            return
        if self.full:
            return
        if not self._robots.allows(key):
            self._disallowed += 1
            self.result.skip(key, _DISALLOWED)
            return
        self._index[key] = len(self.result.urls)
        self.result.urls.append(MappedUrl(key, title or None, source))


def _deadline(timeout: float | None) -> float:
    seconds = DEFAULT_MAP_SECONDS if timeout is None else timeout
    if not seconds > 0:  # also refuses NaN
        raise ValueError(f"timeout must be a positive number of seconds, not {seconds}")
    return time.monotonic() + seconds


def _check_limit(limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a whole number of at least 1, not {limit!r}")


def _read_llms(client: MapClient, url: str, deadline: float, result: SiteMap) -> list[LlmsLink]:
    """The links of the llms.txt file ``url``; ``[]`` when there is none."""
    try:
        response = client.send(
            "GET",
            url,
            deadline=min(deadline, time.monotonic() + client.config.timeout),
            max_bytes=MAX_LLMS_BYTES,
        )
    except WebgripError as exc:
        result.skip(url, f"{exc.reason}: {' '.join(str(exc).split())}")
        return []
    if response.status in (404, 410):
        return []
    if not 200 <= response.status < 300:
        result.skip(url, f"HTTP {response.status}")
        return []
    media = (response.content_type or "").lower()
    if "html" in media:  # a site answering every path with its home page
        return []
    return parse_llms_txt(response.text, response.url or url).links


def _seed(
    client: MapClient,
    collector: _Collector,
    robots: _Robots,
    start_url: str,
    deadline: float,
) -> None:
    """Add the URLs of the site's sitemaps, then of its llms.txt files, to ``collector``."""
    result = collector.result
    origin = _origin(canonical(start_url))
    start_rules = robots.rules(origin)
    # RFC 9309 wants absolute URLs; a relative one is read against the site, as crawlers do.
    listed = (
        [urljoin(origin + "/", u) for u in start_rules.sitemaps] if start_rules is not None else []
    )
    guessed = origin + "/sitemap.xml"
    roots = listed + ([guessed] if robots.allows(guessed) else [])

    def follow(child: str, index: str) -> bool:
        return (same_site(child, start_url) or same_site(child, index)) and robots.allows(
            canonical(child)
        )

    found: SitemapRead = read_sitemaps(
        client,
        roots,
        deadline=deadline,
        limit=collector.limit * 2 + 100,  # room for duplicates and other sites' URLs
        guessed=frozenset({guessed}),
        follow=follow,
    )
    result.sitemaps.extend(found.sitemaps)
    for url, reason in found.skipped:
        result.skip(url, reason)
    for url in found.urls:
        if collector.full:
            break
        collector.add(url, "sitemap")
    for name in ("/llms.txt", "/llms-full.txt"):
        url = origin + name
        if time.monotonic() >= deadline or not robots.allows(url):
            continue
        for link in _read_llms(client, url, deadline, result):
            collector.add(link.url, "llms.txt", link.title)


def seed_urls(
    client: MapClient,
    start_url: str,
    *,
    limit: int,
    scope: SiteScope,
    respect_robots: bool = True,
    timeout: float | None = None,
) -> SiteMap:
    """The URLs of the site's sitemaps and llms.txt files (no page is fetched): a crawl's
    seeds. Like :func:`map_site` without the start page, on ``scope``."""
    _check_limit(limit)
    deadline = _deadline(timeout)
    result = SiteMap(start_url)
    robots = _Robots(client, deadline, respect_robots)
    _seed(client, _Collector(result, scope, robots, limit), robots, start_url, deadline)
    return result


def map_site(
    client: MapClient,
    url: str,
    *,
    limit: int = DEFAULT_LIMIT,
    subdomains: bool = False,
    respect_robots: bool = True,
    timeout: float | None = None,
) -> SiteMap:
    """The URLs of the site ``url`` is on (see the module's notes), at most ``limit``.

    ``subdomains`` lists the pages of every host of the site's registrable domain, not only
    ``url``'s host (and its ``www.`` twin). ``respect_robots=False`` also lists what robots.txt
    disallows. ``timeout`` (default :data:`DEFAULT_MAP_SECONDS`) bounds the whole map; what
    was not read in time is in ``skipped``. Raises :class:`~webgrip.errors.InvalidURLError`
    or :class:`~webgrip.errors.BlockedURLError` when ``url`` itself cannot be fetched under
    the policy; every other failure is an entry of :attr:`SiteMap.skipped`.
    """
    _check_limit(limit)
    scope = SiteScope(url, subdomains=subdomains)
    client.check_url(url)
    deadline = _deadline(timeout)
    result = SiteMap(url)
    robots = _Robots(client, deadline, respect_robots)
    collector = _Collector(result, scope, robots, limit)
    links: list[tuple[str, str | None]] = []
    start = canonical(url)
    if not robots.allows(start):
        rules = robots.rules(_origin(start))
        why = rules.why if rules is not None and rules.disallow_all else ""
        result.skip(start, f"robots.txt could not be read ({why})" if why else _DISALLOWED)
    else:
        try:
            page = client.fetch(url, extract="links")
        except WebgripError as exc:
            result.skip(start, f"{exc.reason}: {' '.join(str(exc).split())}")
        else:
            collector.add(page.final_url if scope.contains(page.final_url) else url, "start")
            if result.urls and page.title:
                first = result.urls[0]
                result.urls[0] = MappedUrl(first.url, " ".join(page.title.split()), "start")
            links = [(str(d.get("url") or ""), d.get("text")) for d in page.data or ()]
    _seed(client, collector, robots, url, deadline)
    for link, text in links:
        collector.add(link, "links", text)
    return result


class _FetchMany(MapClient, Protocol):
    def fetch_many(self, urls: Iterable[str], **options: Any) -> list[Page | WebgripError]: ...


def _section_of(url: str) -> str:
    """A page's section in a written llms.txt: its path's first segment, titled."""
    path = urlsplit(url).path.strip("/")
    first = path.split("/", 1)[0] if "/" in path else ""
    return first.replace("-", " ").replace("_", " ").strip().capitalize() or "Pages"


def _description(page: Page) -> str:
    """One line about a page: its meta description, else the first sentence of its text."""
    described = page.metadata.get("description")
    if isinstance(described, str) and described.strip():
        return " ".join(described.split())
    text = " ".join(page.content.split()[:80])
    title = " ".join((page.title or "").split())
    if title and text.startswith(title):  # the page's heading repeats its title
        text = text[len(title) :].lstrip()
    end = text.find(". ")
    return text[: end + 1] if 0 < end < 200 else text[:200]


def llms_txt_for_site(
    client: _FetchMany,
    url: str,
    *,
    limit: int = 50,
    subdomains: bool = False,
    respect_robots: bool = True,
    timeout: float | None = None,
) -> str:
    """An llms.txt (llmstxt.org) for the site ``url`` is on: its map, then at most ``limit``
    of its pages fetched (through the guard, politely) for their titles and one-line
    descriptions. The H1 is the site's name (the start page's ``og:site_name``, else its
    title), the blockquote the start page's description, and the pages are grouped in
    sections by their path's first segment. Pages that fail to load are left out."""
    _check_limit(limit)
    site = map_site(
        client,
        url,
        limit=limit,
        subdomains=subdomains,
        respect_robots=respect_robots,
        timeout=timeout,
    )
    pages = client.fetch_many([m.url for m in site], extract="text")
    sections: dict[str, list[LlmsLink]] = {}
    name = summary = ""
    for mapped, page in zip(site, pages, strict=True):
        if not isinstance(page, Page):
            continue
        title = " ".join((page.title or mapped.title or mapped.url).split())
        if mapped.source == "start":
            site_name = page.metadata.get("site_name")
            name = site_name if isinstance(site_name, str) and site_name.strip() else title
            summary = _description(page)
            continue
        link = LlmsLink(mapped.url, title, _description(page))
        sections.setdefault(_section_of(mapped.url), []).append(link)
    if not name:
        name = urlsplit(canonical(url)).hostname or url
    return write_llms_txt(name, summary, sections)
