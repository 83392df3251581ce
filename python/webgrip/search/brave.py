"""Brave Search API: ``GET /res/v1/web/search`` with an ``X-Subscription-Token`` header.

Needs ``Config.brave_api_key``. Region maps to ``country``/``search_lang``, safe search to
``safesearch``, the time range to ``freshness`` (``pd``/``pw``/``pm``/``py``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from ._http import bad_shape, call, decode_json, json_results, status_error, try_json
from .base import SearchRequest, SearchResult, required_settings, split_region

__all__ = ["parse_response", "search"]

NAME = "brave"
_FRESHNESS = {"d": "pd", "w": "pw", "m": "pm", "y": "py"}


def parse_response(data: object) -> list[SearchResult]:
    """Results of a Brave answer (``web.results[].title/url/description``)."""
    if not isinstance(data, dict):
        raise bad_shape(NAME)
    web = data.get("web") or {}
    items = web.get("results") if isinstance(web, dict) else None
    return json_results(items, NAME, snippet_key="description")


def _error_detail(data: object) -> str | None:
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        err = data["error"]
        return str(err.get("detail") or err.get("code") or "") or None
    return None


def search(request: SearchRequest) -> list[SearchResult]:
    """Search with the Brave Search API."""
    (key,) = required_settings(request, NAME, "brave_api_key")
    params = {
        "q": request.query,
        "count": str(request.num_results),
        "safesearch": request.safe_search,
    }
    if request.time_range:
        params["freshness"] = _FRESHNESS[request.time_range]
    region = split_region(request.region)
    if region:
        params["country"] = region[0].upper()
        params["search_lang"] = region[1]
    endpoint = request.endpoint(NAME)
    assert endpoint is not None
    sep = "&" if "?" in endpoint else "?"
    response = call(
        request,
        NAME,
        "GET",
        f"{endpoint}{sep}{urlencode(params)}",
        headers={"Accept": "application/json", "X-Subscription-Token": key},
        secrets=(key,),
    )
    if not 200 <= response.status < 300:
        detail = _error_detail(try_json(response))
        if response.status == 429:
            raise status_error(response, NAME, detail=detail, blocked=True, secrets=(key,))
        hint = "check the API key" if response.status in (401, 403, 422) else ""
        raise status_error(response, NAME, detail=detail, secrets=(key,), hint=hint)
    return parse_response(decode_json(response, NAME, (key,)))
