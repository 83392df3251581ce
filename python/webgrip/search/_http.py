"""HTTP for providers: one guarded request inside the search deadline, secrets kept out.

Every failure leaves here as a :class:`~webgrip.errors.SearchError` (or its subclass
:class:`~webgrip.errors.SearchBlockedError`) that names the provider, says what went wrong
and never contains an API key: keys are removed from messages and URLs, and the original
exception is not chained (its text could hold a URL with ``key=...`` in it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .._jsonsafe import loads
from ..errors import (
    BlockedURLError,
    ConnectError,
    FetchTimeoutError,
    InvalidURLError,
    ResponseTooLargeError,
    SearchBlockedError,
    SearchError,
    WebgripError,
)
from ..response import Response
from ._html import text_of
from .base import SearchRequest, SearchResult, display_name

__all__ = [
    "bad_shape",
    "call",
    "decode_json",
    "json_results",
    "redact",
    "status_error",
    "try_json",
]

_MASK = "***"
_INVALID = object()


def _secret_pattern(secret: str) -> re.Pattern[str]:
    """Matches ``secret`` however it was encoded: raw, percent-encoded (once or twice, any
    mix, either hex case) or form-encoded (``+`` for a space)."""
    parts = []
    for ch in secret:
        pct = "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
        alternatives = [re.escape(ch), re.escape(pct), re.escape(pct.replace("%", "%25"))]
        if ch == " ":
            alternatives.append(r"\+")
        parts.append("(?:" + "|".join(alternatives) + ")")
    return re.compile("".join(parts), re.IGNORECASE)


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret (raw or encoded in any way) replaced by ``***``."""
    for secret in secrets:
        if secret:
            text = _secret_pattern(secret).sub(_MASK, text)
    return text


def call(
    request: SearchRequest,
    provider: str,
    method: str,
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    body: bytes | None = None,
    secrets: Iterable[str | None] = (),
) -> Response:
    """One request for ``provider``, with the time left of the search deadline as timeout.

    Returns the response whatever its status; transport failures become ``SearchError``.
    """
    secrets = tuple(secrets)
    name = display_name(provider)
    safe_url = redact(url, secrets)
    remaining = request.deadline.remaining()
    if remaining <= 0:
        raise SearchError(
            f"{name}: the search deadline ({request.deadline.total:g} s) passed before it "
            "could be asked",
            url=safe_url,
            reason="timeout",
        )
    failure: Exception | None = None
    try:
        # No retry: a 429 means "blocked", and the chain moves on to the next provider.
        response = request.client.send(
            method,
            url,
            deadline=request.deadline.end,
            headers=dict(headers or {}),
            body=body,
            retry=False,
        )
    except Exception as exc:  # converted below, outside the handler: nothing is chained
        failure = exc
    if failure is None:
        return response
    raise _convert(failure, name, safe_url, secrets, request.deadline.total)


def _convert(
    exc: Exception,
    name: str,
    safe_url: str,
    secrets: tuple[str | None, ...],
    total: float,
) -> SearchError:
    detail = redact(str(exc), secrets)
    if isinstance(exc, FetchTimeoutError):
        return SearchError(
            f"{name}: no answer within the search deadline ({total:g} s)",
            url=safe_url,
            reason="timeout",
        )
    if isinstance(exc, (BlockedURLError, InvalidURLError)):
        return SearchError(
            f"{name}: the endpoint {safe_url} is refused by the URL policy ({detail}); "
            "check search_endpoints and allow_networks",
            url=safe_url,
            reason=exc.reason or "blocked-url",
        )
    if isinstance(exc, ConnectError):
        return SearchError(
            f"{name}: could not connect ({detail})", url=safe_url, reason=exc.reason or "connect"
        )
    if isinstance(exc, ResponseTooLargeError):
        return SearchError(
            f"{name}: the answer was too large ({detail})", url=safe_url, reason="too-large"
        )
    reason = exc.reason if isinstance(exc, WebgripError) else None
    return SearchError(
        f"{name}: request failed ({type(exc).__name__}: {detail})",
        url=safe_url,
        reason=reason or "request-failed",
    )


def status_error(
    response: Response,
    provider: str,
    *,
    detail: str | None = None,
    blocked: bool = False,
    secrets: Iterable[str | None] = (),
    hint: str = "",
    label: str | None = None,
) -> SearchError:
    """The error for a non-2xx answer: blocked (do not retry now) or a plain failure.

    ``label`` replaces the provider's display name at the start of the message.
    """
    secrets = tuple(secrets)
    name = label or display_name(provider)
    safe_url = redact(response.url, secrets)
    text = f"HTTP {response.status}"
    if detail:
        text += f": {redact(_shorten(detail), secrets)}"
    if blocked:
        return SearchBlockedError(
            f"{name} refused the search ({text}); it is rate-limiting or blocking this "
            "client. Do not retry at once.",
            url=safe_url,
            reason="rate-limited" if response.status == 429 else "blocked",
        )
    message = f"{name} failed ({text})"
    if hint:
        message += f"; {hint}"
    return SearchError(message, url=safe_url, reason=f"http-{response.status}")


def decode_json(response: Response, provider: str, secrets: Iterable[str | None] = ()) -> Any:
    """The JSON body, or a ``SearchError`` saying the provider sent something else."""
    try:
        data = loads(response.content.decode("utf-8-sig"))
    except ValueError:  # also too deep, too long a number, not UTF-8 (see _jsonsafe)
        data = _INVALID
    if data is _INVALID:
        raise SearchError(
            f"{display_name(provider)} answered with something that is not JSON "
            f"(content type {response.content_type or 'unknown'})",
            url=redact(response.url, secrets),
            reason="bad-response",
        )
    return data


def bad_shape(provider: str) -> SearchError:
    """The error for a JSON answer that does not have the provider's documented shape."""
    return SearchError(
        f"{display_name(provider)} answered with JSON of an unexpected shape", reason="bad-response"
    )


def json_results(
    items: Any,
    provider: str,
    *,
    url_key: str = "url",
    snippet_key: str,
) -> list[SearchResult]:
    """The results of a JSON answer's result ``items``, numbered from 1.

    Items that are not objects or have no string ``url_key`` are skipped; the title is
    ``title`` and the snippet ``snippet_key``, both with markup reduced to text. ``items``
    other than a list (or nothing) is a ``bad_shape`` error: a number there raised
    ``TypeError`` (found by the providers fuzz target).
    """
    if items is not None and not isinstance(items, list):
        raise bad_shape(provider)
    results: list[SearchResult] = []
    for item in items or []:
        if not isinstance(item, dict) or not isinstance(item.get(url_key), str):
            continue
        results.append(
            SearchResult(
                title=text_of(str(item.get("title") or "")),
                url=item[url_key],
                snippet=text_of(str(item.get(snippet_key) or "")),
                provider=provider,
                position=len(results) + 1,
            )
        )
    return results


def try_json(response: Response) -> Any:
    """The JSON body if there is one (for error details), else ``None``."""
    try:
        return loads(response.content.decode("utf-8-sig"))
    except ValueError:
        return None


def _shorten(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
