"""Google Custom Search JSON API: ``GET /customsearch/v1?key=...&cx=...&q=...``.

Needs ``Config.google_api_key`` and ``Config.google_cx`` (the Programmable Search Engine
id). The key has to travel in the URL, so every message and URL this module raises has it
masked. ``num`` is at most 10; region maps to ``gl``/``hl``, strict safe search to
``safe=active``, the time range to ``dateRestrict`` (``d1``/``w1``/``m1``/``y1``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from ._http import bad_shape, call, decode_json, json_results, status_error, try_json
from .base import SearchRequest, SearchResult, required_settings, split_region

__all__ = ["parse_response", "search"]

NAME = "google"
_QUOTA_REASONS = frozenset(
    {
        "dailyLimitExceeded",
        "rateLimitExceeded",
        "userRateLimitExceeded",
        "quotaExceeded",
        "RATE_LIMIT_EXCEEDED",
        "RESOURCE_EXHAUSTED",
    }
)


def parse_response(data: object) -> list[SearchResult]:
    """Results of a Custom Search answer (``items[].title/link/snippet``)."""
    if not isinstance(data, dict) or not isinstance(data.get("items", []), list):
        raise bad_shape(NAME)
    return json_results(data.get("items"), NAME, url_key="link", snippet_key="snippet")


def _error(data: object) -> tuple[str | None, set[str]]:
    """``(message, reasons)`` of a Google error body."""
    if not isinstance(data, dict) or not isinstance(data.get("error"), dict):
        return None, set()
    err = data["error"]
    reasons = {str(err.get("status") or "")}
    for item in err.get("errors") or []:
        if isinstance(item, dict):
            reasons.add(str(item.get("reason") or ""))
    return (str(err.get("message")) if err.get("message") else None), reasons


def search(request: SearchRequest) -> list[SearchResult]:
    """Search with the Google Custom Search JSON API."""
    key, cx = required_settings(request, NAME, "google_api_key", "google_cx")
    params = {"key": key, "cx": cx, "q": request.query, "num": str(min(request.num_results, 10))}
    if request.safe_search == "strict":
        params["safe"] = "active"
    elif request.safe_search == "off":
        params["safe"] = "off"
    if request.time_range:
        params["dateRestrict"] = f"{request.time_range}1"
    region = split_region(request.region)
    if region:
        params["gl"] = region[0]
        params["hl"] = region[1]
    endpoint = request.endpoint(NAME)
    assert endpoint is not None
    sep = "&" if "?" in endpoint else "?"
    response = call(
        request,
        NAME,
        "GET",
        f"{endpoint}{sep}{urlencode(params)}",
        headers={"Accept": "application/json"},
        secrets=(key,),
    )
    if not 200 <= response.status < 300:
        message, reasons = _error(try_json(response))
        quota = response.status == 429 or (response.status == 403 and reasons & _QUOTA_REASONS)
        if quota:
            raise status_error(response, NAME, detail=message, blocked=True, secrets=(key,))
        hint = "check google_api_key and google_cx" if response.status in (400, 401, 403) else ""
        raise status_error(response, NAME, detail=message, secrets=(key,), hint=hint)
    return parse_response(decode_json(response, NAME, (key,)))
