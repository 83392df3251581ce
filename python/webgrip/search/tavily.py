"""Tavily: ``POST /search`` with a JSON body and ``Authorization: Bearer <key>``.

Needs ``Config.tavily_api_key``. The key travels only in the header (Tavily's current API;
the old ``api_key`` body field is not sent). ``max_results`` and ``time_range`` are passed;
Tavily has no region or safe-search setting, so those options are ignored.
"""

from __future__ import annotations

import json

from ._http import bad_shape, call, decode_json, json_results, status_error, try_json
from .base import SearchRequest, SearchResult, required_settings

__all__ = ["parse_response", "search"]

NAME = "tavily"
_TIME = {"d": "day", "w": "week", "m": "month", "y": "year"}
#: 429: rate limit; 432: plan limit; 433: pay-as-you-go limit.
_QUOTA_STATUSES = frozenset({429, 432, 433})


def parse_response(data: object) -> list[SearchResult]:
    """Results of a Tavily answer (``results[].title/url/content``)."""
    if not isinstance(data, dict) or not isinstance(data.get("results", []), list):
        raise bad_shape(NAME)
    return json_results(data.get("results"), NAME, snippet_key="content")


def _error_detail(data: object) -> str | None:
    if not isinstance(data, dict):
        return None
    detail = data.get("detail", data.get("error"))
    if isinstance(detail, dict):
        detail = detail.get("error") or detail.get("message")
    return str(detail) if detail else None


def search(request: SearchRequest) -> list[SearchResult]:
    """Search with the Tavily API."""
    (key,) = required_settings(request, NAME, "tavily_api_key")
    body: dict[str, object] = {
        "query": request.query,
        "max_results": request.num_results,
        "search_depth": "basic",
        "topic": "general",
        "include_answer": False,
        "include_raw_content": False,
        "include_images": False,
    }
    if request.time_range:
        body["time_range"] = _TIME[request.time_range]
    endpoint = request.endpoint(NAME)
    assert endpoint is not None
    response = call(
        request,
        NAME,
        "POST",
        endpoint,
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
        body=json.dumps(body).encode("utf-8"),
        secrets=(key,),
    )
    if not 200 <= response.status < 300:
        detail = _error_detail(try_json(response))
        if response.status in _QUOTA_STATUSES:
            raise status_error(response, NAME, detail=detail, blocked=True, secrets=(key,))
        hint = "check the API key" if response.status in (401, 403) else ""
        raise status_error(response, NAME, detail=detail, secrets=(key,), hint=hint)
    return parse_response(decode_json(response, NAME, (key,)))
