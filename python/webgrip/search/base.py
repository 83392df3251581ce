"""The pieces every search provider shares: the result type, the request, the deadline.

A provider is a function ``(SearchRequest) -> list[SearchResult]`` (see :class:`Provider`).
It returns ``[]`` only when the engine genuinely found nothing, raises
:class:`~webgrip.errors.SearchBlockedError` when the engine refused to answer (bot check,
rate limit, exhausted quota) and :class:`~webgrip.errors.SearchError` for anything else.
:mod:`webgrip.search.chain` runs providers in order and cleans their results.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from ..config import Config
from ..errors import SearchError
from ..sender import Sender

__all__ = [
    "DEFAULT_ENDPOINTS",
    "PROVIDER_NAMES",
    "Deadline",
    "Provider",
    "SearchRequest",
    "SearchResult",
    "display_name",
    "normalize_region",
    "normalize_safe_search",
    "normalize_time_range",
    "required_settings",
    "split_region",
]

#: The public endpoint of each provider; ``Config.search_endpoints`` overrides any of them
#: with a full endpoint URL (SearXNG has none: it comes from ``Config.searxng_url``).
DEFAULT_ENDPOINTS: dict[str, str] = {
    "duckduckgo_html": "https://html.duckduckgo.com/html/",
    "duckduckgo_lite": "https://lite.duckduckgo.com/lite/",
    "brave": "https://api.search.brave.com/res/v1/web/search",
    "tavily": "https://api.tavily.com/search",
    "google": "https://www.googleapis.com/customsearch/v1",
}

PROVIDER_NAMES: tuple[str, ...] = ("duckduckgo", "searxng", "brave", "tavily", "google")

_DISPLAY = {
    "duckduckgo": "DuckDuckGo",
    "searxng": "SearXNG",
    "brave": "Brave Search",
    "tavily": "Tavily",
    "google": "Google Custom Search",
}


def display_name(provider: str) -> str:
    """The provider's name as shown in messages (``brave`` -> ``Brave Search``)."""
    return _DISPLAY.get(provider, provider)


@dataclass(frozen=True)
class SearchResult:
    """One search hit, ready to show to an agent."""

    title: str
    url: str
    """The target page, unwrapped from any redirect, tracking parameters removed."""
    snippet: str
    """The engine's short excerpt of the page (plain text; may be empty)."""
    provider: str = ""
    """The provider that found it (``duckduckgo``, ``brave``, ...)."""
    position: int = 0
    """1-based rank in the list returned by :func:`webgrip.search.search`."""

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-ready) with every field."""
        return asdict(self)


class Deadline:
    """One total time budget, shared by every request of a search (across fallbacks)."""

    __slots__ = ("_end", "total")

    def __init__(self, seconds: float):
        self.total = float(seconds)
        self._end = time.monotonic() + self.total

    @property
    def end(self) -> float:
        """When the budget runs out, as a :func:`time.monotonic` time."""
        return self._end

    def remaining(self) -> float:
        """Seconds left; ``0.0`` once the deadline has passed."""
        return max(0.0, self._end - time.monotonic())

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0.0


@dataclass(frozen=True)
class SearchRequest:
    """Everything a provider needs for one search, options already validated."""

    client: Sender
    """Sends the provider's requests (the :class:`~webgrip.client.WebClient` searching)."""
    query: str
    num_results: int
    """How many results are wanted (1-10); providers may return more or fewer."""
    region: str | None
    """DuckDuckGo-style ``country-language`` code (``us-en``, ``de-de``), or ``None``."""
    safe_search: str
    """``off``, ``moderate`` or ``strict``."""
    time_range: str | None
    """``d``, ``w``, ``m``, ``y`` (past day/week/month/year), or ``None`` for any time."""
    deadline: Deadline

    @property
    def config(self) -> Config:
        return self.client.config

    def endpoint(self, name: str) -> str | None:
        """The endpoint URL for ``name`` (``Config.search_endpoints`` first, then the default)."""
        configured = self.config.search_endpoints.get(name)
        return configured or DEFAULT_ENDPOINTS.get(name)


def required_settings(request: SearchRequest, provider: str, *fields: str) -> tuple[Any, ...]:
    """The values of the ``Config`` ``fields`` ``provider`` cannot work without.

    Raises the ``not-configured`` :class:`~webgrip.errors.SearchError` naming the first one
    unset (a provider's own API key alone is "no API key"), which the chain passes over.
    """
    values = tuple(getattr(request.config, name) for name in fields)
    for name, value in zip(fields, values, strict=True):
        if not value:
            what = "no API key" if fields == (f"{provider}_api_key",) else f"{name} is not"
            variables = " and ".join(f"WEBGRIP_{f.upper()}" for f in fields)
            raise SearchError(
                f"{display_name(provider)}: {what} configured (set {' and '.join(fields)} / "
                f"{variables})",
                reason="not-configured",
            )
    return values


class Provider(Protocol):
    """A search provider: one function from a request to results."""

    def __call__(self, request: SearchRequest, /) -> list[SearchResult]: ...


_TIME_RANGES = {
    "d": "d",
    "day": "d",
    "24h": "d",
    "w": "w",
    "week": "w",
    "m": "m",
    "month": "m",
    "y": "y",
    "year": "y",
}


def normalize_time_range(value: str | None) -> str | None:
    """``d``/``w``/``m``/``y`` from those letters or ``day``/``week``/``month``/``year``."""
    if value is None or not str(value).strip():
        return None
    key = str(value).strip().lower()
    if key not in _TIME_RANGES:
        raise SearchError(
            f"invalid time_range {value!r}: use d, w, m or y (past day, week, month, year)",
            reason="invalid-argument",
        )
    return _TIME_RANGES[key]


def normalize_safe_search(value: str | None, default: str) -> str:
    """``off``, ``moderate`` or ``strict`` (``value`` if given, else ``default``)."""
    chosen = (value if value is not None else default).strip().lower()
    if chosen not in ("off", "moderate", "strict"):
        raise SearchError(
            f"invalid safe_search {value!r}: use off, moderate or strict",
            reason="invalid-argument",
        )
    return chosen


_BCP47 = re.compile(r"^([a-z]{2,3})[-_]([A-Z]{2})$")
_DDG_REGION = re.compile(r"^([a-z]{2})-([a-z]{2,4})$")


def normalize_region(value: str | None) -> str | None:
    """A DuckDuckGo ``country-language`` code from ``us-en`` or a BCP 47 tag like ``en-US``.

    ``None``, ``""`` and ``wt-wt`` (DuckDuckGo's "no region") mean no region.
    """
    if value is None or not value.strip():
        return None
    value = value.strip()
    m = _BCP47.match(value)
    if m:
        return f"{m.group(2).lower()}-{m.group(1)}"
    low = value.lower()
    if low == "wt-wt":
        return None
    if not _DDG_REGION.match(low):
        raise SearchError(
            f"invalid region {value!r}: use a country-language code such as us-en or de-de",
            reason="invalid-argument",
        )
    return low


def split_region(region: str | None) -> tuple[str, str] | None:
    """``(country, language)`` of a normalized region (``us-en`` -> ``("us", "en")``)."""
    if not region:
        return None
    country, _, language = region.partition("-")
    return country, language[:2]
