"""SearXNG: the JSON API of a configured instance (``format=json``).

The instance comes from ``Config.searxng_url`` (its base URL; ``/search`` is appended) or a
full endpoint URL in ``Config.search_endpoints["searxng"]``. JSON output must be enabled in
the instance's ``settings.yml`` (``search.formats``); many public instances disable it and
answer 403, which is reported as such.
"""

from __future__ import annotations

from urllib.parse import urlencode

from ..errors import SearchError
from ._http import bad_shape, call, decode_json, json_results, status_error
from .base import SearchRequest, SearchResult, split_region

__all__ = ["search"]

NAME = "searxng"
_SAFE = {"off": "0", "moderate": "1", "strict": "2"}
_TIME = {"d": "day", "w": "week", "m": "month", "y": "year"}


def _endpoint(request: SearchRequest) -> str:
    configured = request.config.search_endpoints.get("searxng")
    if configured:
        return configured
    base = request.config.searxng_url
    if not base:
        raise SearchError(
            "SearXNG: no instance configured (set searxng_url / WEBGRIP_SEARXNG_URL)",
            reason="not-configured",
        )
    return base.rstrip("/") + "/search"


def _params(request: SearchRequest) -> dict[str, str]:
    params = {
        "q": request.query,
        "format": "json",
        "pageno": "1",
        "safesearch": _SAFE[request.safe_search],
    }
    if request.time_range:
        params["time_range"] = _TIME[request.time_range]
    region = split_region(request.region)
    if region:
        country, language = region
        params["language"] = f"{language}-{country.upper()}"
    return params


def parse_response(data: object) -> list[SearchResult]:
    """Results of a SearXNG JSON answer (``results[].url/title/content``)."""
    if not isinstance(data, dict) or not isinstance(data.get("results", []), list):
        raise bad_shape(NAME)
    results = json_results(data.get("results"), NAME, snippet_key="content")
    unresponsive = data.get("unresponsive_engines")
    if not results and unresponsive:
        # Normally [[engine, why], ...]; anything else is named as it is (a bare number
        # there raised TypeError: found by the providers fuzz target).
        listed = unresponsive if isinstance(unresponsive, list) else [unresponsive]
        engines = ", ".join(str(e[0]) if isinstance(e, list) and e else str(e) for e in listed)
        raise SearchError(
            f"SearXNG returned nothing because its engines did not answer ({engines})",
            reason="engines-unresponsive",
        )
    return results


def search(request: SearchRequest) -> list[SearchResult]:
    """Search a SearXNG instance through its JSON API (GET ``/search?format=json``)."""
    endpoint = _endpoint(request)
    sep = "&" if "?" in endpoint else "?"
    response = call(
        request,
        NAME,
        "GET",
        f"{endpoint}{sep}{urlencode(_params(request))}",
        headers={"Accept": "application/json"},
    )
    if response.status == 429:
        raise status_error(response, NAME, blocked=True)
    if response.status == 403:
        raise status_error(
            response, NAME, hint="JSON output may be disabled on this instance (search.formats)"
        )
    if not 200 <= response.status < 300:
        raise status_error(response, NAME)
    try:
        return parse_response(decode_json(response, NAME))
    except SearchError as exc:
        exc.url = exc.url or response.url
        raise
