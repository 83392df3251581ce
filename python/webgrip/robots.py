"""Optional robots.txt compliance (RFC 9309), fetched through the same guarded client.

Used when ``Config.respect_robots_txt`` is on. Rules are parsed per RFC 9309: the groups for
our product token (the first word of the User-Agent) or else ``*``; the longest matching
``Allow``/``Disallow`` pattern wins, ``Allow`` on a tie; ``*`` and ``$`` wildcards. A missing
robots.txt (4xx) allows everything; a server error (5xx, 429) or an unreachable server
disallows everything, as the RFC asks. Results are cached per origin.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import SplitResult, unquote, urlsplit

from . import _core
from .errors import (
    BlockedURLError,
    ConnectError,
    FetchTimeoutError,
    InvalidURLError,
    ResponseTooLargeError,
)
from .expiring import ExpiringLRU
from .messages import shown_url
from .sender import Sender

__all__ = ["RobotsCache", "RobotsRules"]

#: robots.txt bodies beyond this are cut (RFC 9309 asks crawlers to read at least 500 KiB).
MAX_ROBOTS_BYTES = 512 * 1024
#: ``Sitemap:`` lines kept from one robots.txt.
MAX_SITEMAP_LINES = 1000
#: Seconds an "unreachable" answer is remembered (shorter than a real robots.txt).
ERROR_TTL = 60.0


@dataclass
class RobotsRules:
    """The rules of one robots.txt: ``groups`` of (user agents, [(allow, pattern), ...])."""

    groups: list[tuple[list[str], list[tuple[bool, str]]]] = field(default_factory=list)
    allow_all: bool = False
    disallow_all: bool = False
    why: str = ""
    """For ``disallow_all``: why the file could not be used (e.g. ``HTTP 503``)."""
    delays: list[tuple[list[str], float]] = field(default_factory=list)
    """``Crawl-delay`` lines (not in RFC 9309, honoured by crawls): (user agents, seconds)."""
    sitemaps: list[str] = field(default_factory=list)
    """The ``Sitemap:`` lines' URLs in file order (they belong to no group), at most
    :data:`MAX_SITEMAP_LINES`; site maps read them (:mod:`webgrip.sites.sitemaps`)."""

    @classmethod
    def parse(cls, text: str) -> RobotsRules:
        """Parse a robots.txt body. Unknown lines are ignored."""
        groups: list[tuple[list[str], list[tuple[bool, str]]]] = []
        delays: list[tuple[list[str], float]] = []
        sitemaps: list[str] = []
        agents: list[str] = []
        rules: list[tuple[bool, str]] = []
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            key, sep, value = line.partition(":")
            if not sep:
                continue
            key, value = key.strip().lower(), value.strip()
            if key in ("user-agent", "useragent"):
                if rules:  # a user-agent line after rules starts a new group
                    groups.append((agents, rules))
                    agents, rules = [], []
                agents.append(value.lower())
            elif key in ("allow", "disallow") and agents:
                if key == "disallow" and not value:
                    continue  # "Disallow:" with no path allows everything
                rules.append((key == "allow", value))
            elif key == "crawl-delay" and agents:
                seconds = _seconds(value)
                if seconds is not None:
                    delays.append((agents, seconds))
            elif key == "sitemap" and value and len(sitemaps) < MAX_SITEMAP_LINES:
                sitemaps.append(value)
        if agents:
            groups.append((agents, rules))
        return cls(groups=groups, delays=delays, sitemaps=sitemaps)

    def crawl_delay(self, token: str) -> float | None:
        """The ``Crawl-delay`` for ``token`` (its own group's, else the ``*`` group's) in
        seconds, at most :data:`MAX_CRAWL_DELAY`; ``None`` when the file sets none."""
        token = token.lower()
        own = [d for agents, d in self.delays if token in agents]
        if not own:
            own = [d for agents, d in self.delays if "*" in agents]
        return min(max(own), MAX_CRAWL_DELAY) if own else None

    def rules_for(self, token: str) -> list[tuple[bool, str]]:
        """The merged rules of every group naming ``token``, else of the ``*`` groups."""
        token = token.lower()
        own = [r for agents, rules in self.groups if token in agents for r in rules]
        if own or any(token in agents for agents, _ in self.groups):
            return own
        return [r for agents, rules in self.groups if "*" in agents for r in rules]

    def can_fetch(self, token: str, url: str) -> bool:
        """Whether the crawler ``token`` may fetch ``url`` under these rules."""
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        parts = _split(url)
        path = _normalise(parts.path or "/")
        if parts.query:
            path += "?" + _normalise(parts.query)
        if path == "/robots.txt":
            return True
        best: tuple[int, bool] | None = None
        for allow, pattern in self.rules_for(token):
            if _matches(_normalise(pattern), path):
                score = (len(pattern), allow)
                if best is None or score > best:
                    best = score
        return True if best is None else best[1]


#: The longest ``Crawl-delay`` honoured (seconds): a site asking for more is still crawled,
#: one page a minute.
MAX_CRAWL_DELAY = 60.0


def _seconds(value: str) -> float | None:
    """A ``Crawl-delay`` value (``10``, ``0.5``) as seconds; ``None`` when it is not a
    finite number >= 0. Read by hand: ``float()`` of a site's 4,000-digit string is fine,
    but ``nan`` and ``inf`` are not delays."""
    text = value.strip()[:32]
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if 0.0 <= seconds < float("inf") else None


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` with the host in the core's canonical form, so
    every spelling of one site (``0x7f.1``, ``2130706433``, ``EXAMPLE.com.``) shares one
    robots.txt and one cache entry."""
    parts = _split(url)
    scheme = parts.scheme.lower()
    host = _core.url_host(url)
    if host is None:
        return f"{scheme}://{parts.netloc}".lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    shown_port = "" if port is None or port == _DEFAULT_PORTS.get(scheme) else f":{port}"
    return f"{scheme}://{host}{shown_port}"


def _split(url: str) -> SplitResult:
    """``urlsplit`` as the fetch will read ``url``: in http(s) URLs a backslash before the
    query is a slash (WHATWG), so ``http://HOST\\@OTHER/`` is HOST's path ``/@OTHER/``, and
    robots.txt is read from, and matched against, the site actually fetched."""
    head, sep, tail = url.partition("?")
    if "\\" in head and head[:6].lower() in ("http:/", "https:"):
        fragment = head.partition("#")
        head = fragment[0].replace("\\", "/") + fragment[1] + fragment[2]
    return urlsplit(head + sep + tail)


def _normalise(text: str) -> str:
    return unquote(text, errors="replace")


def _matches(pattern: str, path: str) -> bool:
    """Whether ``path`` starts with ``pattern`` (``*``: any run of characters; a final ``$``:
    the end of the path).

    Why not a regex of ``.*``-joined pieces: the site writes the pattern, and a backtracking
    match of ``/*a*a*a*a*a*a*a*a*b`` against a 50-character path took 40 s. With ``*`` the
    only wildcard, taking each piece at its leftmost place after the previous one never
    misses a match, so one left-to-right pass of ``str.find`` decides.
    """
    anchored = pattern.endswith("$")
    first, *rest = (pattern[:-1] if anchored else pattern).split("*")
    if not path.startswith(first):
        return False
    if not rest:
        return not anchored or len(path) == len(first)
    pos = len(first)
    for piece in rest[:-1]:
        found = path.find(piece, pos)
        if found < 0:
            return False
        pos = found + len(piece)
    last = rest[-1]
    if anchored:
        return path.endswith(last) and len(path) - len(last) >= pos
    return path.find(last, pos) >= 0


class RobotsCache:
    """Fetches, parses and caches robots.txt per origin; thread-safe.

    robots.txt is fetched through ``sender`` (the guarded client: retries, deadline, size
    cap). ``ttl`` is how long a parsed file is trusted.
    """

    def __init__(
        self, sender: Sender, *, user_agent: str, ttl: float = 3600.0, max_origins: int = 512
    ):
        self._sender = sender
        self.token = user_agent.split("/", 1)[0].split()[0] if user_agent.strip() else "*"
        self.ttl = ttl
        self._items: ExpiringLRU[str, RobotsRules] = ExpiringLRU(
            max_origins, on_drop=self._forget_origin
        )
        self._lock = threading.Lock()
        self._origin_locks: dict[str, threading.Lock] = {}

    def check(self, url: str, deadline: float) -> None:
        """Raise :class:`~webgrip.errors.BlockedURLError` (reason ``robots-txt``) if the
        site's robots.txt does not allow ``url``; otherwise return.
        :class:`~webgrip.errors.InvalidURLError` for a URL ``urlsplit`` cannot read (it
        escaped as a bare ``ValueError``: found by the robots fuzz target)."""
        try:
            origin = _origin(url)
            _split(url)
        except ValueError as exc:  # e.g. "http://[::1/": the core would refuse it too
            raise InvalidURLError(
                f'Invalid URL "{shown_url(url)}": {exc}', url=url, reason="invalid-url"
            ) from None
        try:
            rules = self.rules(origin, deadline)
        except BlockedURLError as exc:
            # The site's own address is refused: that is the answer for the page asked for,
            # which is what the caller must see (not its robots.txt's URL).
            raise BlockedURLError(
                str(exc).replace(exc.url or "\0", shown_url(url), 1), url=url, reason=exc.reason
            ) from None
        if rules.can_fetch(self.token, url):
            return
        if rules.disallow_all and rules.why:
            message = f"robots.txt of {origin} could not be read ({rules.why}); not fetching"
        else:
            message = f"robots.txt of {origin} disallows {url}"
        raise BlockedURLError(message, url=url, reason="robots-txt")

    def rules(self, origin: str, deadline: float) -> RobotsRules:
        """The rules for ``origin`` (``scheme://host[:port]``), fetched if not cached."""
        cached = self._cached(origin)
        if cached is not None:
            return cached
        with self._lock:
            origin_lock = self._origin_locks.setdefault(origin, threading.Lock())
        with origin_lock:
            cached = self._cached(origin)
            if cached is not None:
                return cached
            rules, ttl = self._load(origin, deadline)
            with self._lock:
                self._items.put(origin, rules, ttl)
            return rules

    def _cached(self, origin: str) -> RobotsRules | None:
        with self._lock:
            return self._items.get(origin)

    def _forget_origin(self, origin: str, _rules: RobotsRules) -> None:
        self._origin_locks.pop(origin, None)  # called by the LRU, under self._lock

    def _load(self, origin: str, deadline: float) -> tuple[RobotsRules, float]:
        try:
            response = self._sender.send(
                "GET", origin + "/robots.txt", deadline=deadline, max_bytes=MAX_ROBOTS_BYTES
            )
        except FetchTimeoutError as exc:
            if exc.retry_in is not None:
                # Nothing was sent (the host's rate-limit queue is longer than this call):
                # the site said nothing, so nothing is cached; the caller fails or queues.
                raise
            return RobotsRules(disallow_all=True, why=f"unreachable: {exc}"), ERROR_TTL
        except ConnectError as exc:
            return RobotsRules(disallow_all=True, why=f"unreachable: {exc}"), ERROR_TTL
        except ResponseTooLargeError:
            return RobotsRules(allow_all=True), self.ttl
        except BlockedURLError as exc:
            if exc.url == origin + "/robots.txt":
                raise  # the site itself is refused: check() says so for the page
            # A redirect of robots.txt to a refused address is no robots.txt (RFC 9309 reads
            # a redirect it cannot follow as unavailable); the page is checked on its own.
            return RobotsRules(allow_all=True), self.ttl
        if response.status == 429 or response.status >= 500:
            return RobotsRules(disallow_all=True, why=f"HTTP {response.status}"), ERROR_TTL
        if response.status >= 400:
            return RobotsRules(allow_all=True), self.ttl
        if response.status >= 300:  # redirects beyond the limit: treat as unavailable
            return RobotsRules(allow_all=True), self.ttl
        return RobotsRules.parse(response.text), self.ttl
