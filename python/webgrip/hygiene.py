"""URL hygiene: strip tracking parameters, and prepare a URL for fetching.

Links found on the web (and in search results) carry parameters whose only job is to tell
someone where a click came from: ``utm_source``, ``fbclid``, ``gclid`` and friends. They
change nothing in the page, make two identical links look different, and leak context to
third parties. :func:`strip_tracking` removes them and leaves everything else *byte for byte*:
the order of the remaining parameters, their encoding, the path and the fragment.

The lists were written for webgrip and live in the Rust core
(``rust/extract/src/tracking.rs``), which also strips links while it extracts a page; this
module is its Python face. A rule is a parameter name, compared without regard to case, or a
prefix ending in ``*`` (``utm_*``). Some parameters are tracking on one site and meaningful on
another (``ref`` is a branch on GitHub, a referral tag on Amazon), so those are only removed
on the sites listed in :data:`DOMAIN_TRACKING_PARAMS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import _core

__all__ = [
    "DOMAIN_TRACKING_PARAMS",
    "TRACKING_PARAMS",
    "is_tracking_param",
    "strip_tracking",
    "tracking_rules",
    "url_for_fetch",
]

#: Parameters removed on every site (the core's list, the one source of truth).
TRACKING_PARAMS: tuple[str, ...] = _core.TRACKING_PARAMS
#: Parameters removed only on the listed sites (the host itself or any subdomain of it).
#: ``amazon.*`` stands for every Amazon storefront (amazon.com, amazon.co.uk, ...).
DOMAIN_TRACKING_PARAMS: Mapping[str, tuple[str, ...]] = _core.DOMAIN_TRACKING_PARAMS

_RULES_CACHE: dict[tuple[str, ...], _core.TrackingRules] = {}


def tracking_rules(extra: Iterable[str] = ()) -> _core.TrackingRules:
    """The built-in rules plus ``extra`` (a name, or a prefix ending in ``*``), compiled once
    for a client and handed to every extraction it runs."""
    key = tuple(extra)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = _core.TrackingRules(list(key))
        if len(_RULES_CACHE) < 64:
            _RULES_CACHE[key] = rules
    return rules


def is_tracking_param(name: str, host: str = "", extra: Iterable[str] = ()) -> bool:
    """Whether the query parameter ``name`` is tracking on ``host``.

    ``name`` is the decoded parameter name; ``extra`` adds rules (``*`` suffix = prefix).
    """
    return tracking_rules(extra).is_tracking_param(name, host)


def _split(url: str) -> tuple[str, str | None, str | None]:
    """``(before_query, query, fragment)`` without re-encoding anything."""
    rest, hash_, fragment = url.partition("#")
    base, qmark, query = rest.partition("?")
    return base, (query if qmark else None), (fragment if hash_ else None)


def strip_tracking(url: str, extra: Iterable[str] = ()) -> str:
    """``url`` without its tracking query parameters.

    Every other part of the URL is kept exactly as given, including the order and encoding
    of the remaining parameters and the fragment; a URL without tracking parameters comes
    back unchanged. ``extra`` adds rules on top of the built-in lists (usually
    ``Config.tracking_params``): a name, or a prefix ending in ``*``.

    >>> strip_tracking("https://example.com/a?id=7&utm_source=news&b=%20x#top")
    'https://example.com/a?id=7&b=%20x#top'
    """
    return tracking_rules(extra).strip(url)


def url_for_fetch(url: str, extra: Iterable[str] = ()) -> str:
    """The URL to request for ``url``: tracking parameters stripped, fragment dropped.

    The fragment (``#section``) is never sent to a server; dropping it also lets two links
    to the same page share one download and one cache entry.
    """
    base, query, _fragment = _split(strip_tracking(url, extra))
    return base if query is None else f"{base}?{query}"
