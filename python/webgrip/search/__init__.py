"""Web search behind one interface: DuckDuckGo (no key), SearXNG, Brave, Tavily, Google.

>>> from webgrip.client import WebClient                         # doctest: +SKIP
>>> from webgrip.search import search, format_results
>>> results = search(WebClient(), "rust programming language", num_results=3)
>>> print(format_results(results, "rust programming language"))

:func:`search` reads the provider chain, endpoints and keys from ``client.config``; see
:mod:`webgrip.search.chain` for how fallbacks work and :mod:`webgrip.search.duckduckgo` for
what "blocked", "no results" and "error" mean.
"""

from __future__ import annotations

from ..errors import SearchError
from ..sender import Sender
from . import brave, duckduckgo, google, searxng, tavily
from .base import (
    PROVIDER_NAMES,
    Deadline,
    Provider,
    SearchRequest,
    SearchResult,
    normalize_region,
    normalize_safe_search,
    normalize_time_range,
)
from .chain import provider_chain, run_chain
from .format import format_results

__all__ = [
    "MAX_RESULTS",
    "PROVIDERS",
    "SearchResult",
    "format_results",
    "search",
]

#: The most results one search returns; ``num_results`` is clamped to 1..MAX_RESULTS.
MAX_RESULTS = 10

#: Every provider by name. Each is a :class:`~webgrip.search.base.Provider`.
PROVIDERS: dict[str, Provider] = {
    "duckduckgo": duckduckgo.search,
    "searxng": searxng.search,
    "brave": brave.search,
    "tavily": tavily.search,
    "google": google.search,
}
assert set(PROVIDERS) == set(PROVIDER_NAMES)


def search(
    client: Sender,
    query: str,
    *,
    num_results: int = 5,
    provider: str | None = None,
    region: str | None = None,
    safe_search: str | None = None,
    time_range: str | None = None,
    timeout: float | None = None,
) -> list[SearchResult]:
    """Search the web; the results' URLs are unwrapped, de-duplicated and tracking-free.

    ``provider`` picks one provider; by default the chain is ``config.search_provider``
    then ``config.search_fallbacks``. ``region`` is a ``country-language`` code (``us-en``;
    ``en-US`` is accepted too), default ``config.search_region``; ``safe_search`` is
    ``off``/``moderate``/``strict``, default ``config.safe_search``; ``time_range`` is
    ``d``/``w``/``m``/``y`` (or ``day``...). ``timeout`` is one deadline for the whole search,
    fallbacks included (default ``config.timeout``). ``num_results`` is clamped to 1-10.

    Returns ``[]`` when the engine found nothing. Raises
    :class:`~webgrip.errors.SearchBlockedError` when every provider refused (bot check, rate
    limit: do not retry at once) and :class:`~webgrip.errors.SearchError` otherwise; the
    message names each provider and what went wrong, never an API key.
    """
    config = client.config
    query = " ".join(str(query).split())
    if not query:
        raise SearchError("the search query is empty", reason="empty-query")
    if provider is not None and provider not in PROVIDERS:
        raise SearchError(
            f"unknown search provider {provider!r}; choose one of {', '.join(PROVIDERS)}",
            reason="invalid-argument",
        )
    try:
        count = int(num_results)
    except (TypeError, ValueError):
        count = 5
    seconds = config.timeout if timeout is None else float(timeout)
    if seconds <= 0:
        raise SearchError("timeout must be > 0 seconds", reason="invalid-argument")
    request = SearchRequest(
        client=client,
        query=query,
        num_results=max(1, min(MAX_RESULTS, count)),
        region=normalize_region(region if region is not None else config.search_region),
        safe_search=normalize_safe_search(safe_search, config.safe_search),
        time_range=normalize_time_range(time_range),
        deadline=Deadline(seconds),
    )
    chain = (
        [provider] if provider else provider_chain(config.search_provider, config.search_fallbacks)
    )
    return run_chain(request, chain, PROVIDERS)
