"""The provider chain: try each configured provider in turn, inside one deadline.

The chain is ``Config.search_provider`` followed by ``Config.search_fallbacks`` (or just the
provider asked for). The first provider that answers wins, even with no results: "nothing
found" is an answer, and asking the next provider would only spend its quota. A provider
that is blocked, failing or not configured passes the turn to the next one while time
remains. When every provider failed, the error says which failed and why; if every one of
them was *blocked* (providers without a key or instance, which were never asked, aside),
it is a :class:`~webgrip.errors.SearchBlockedError` (do not retry now).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import urlsplit

from ..errors import SearchBlockedError, SearchError
from ..hygiene import strip_tracking
from .base import Provider, SearchRequest, SearchResult, display_name

__all__ = ["clean_results", "provider_chain", "run_chain"]


def provider_chain(primary: str, fallbacks: Iterable[str]) -> list[str]:
    """``primary`` then ``fallbacks``, each provider once, in order."""
    chain: list[str] = []
    for name in (primary, *fallbacks):
        if name and name not in chain:
            chain.append(name)
    return chain


def _dedupe_key(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    port = f":{parts.port}" if parts.port else ""
    path = parts.path.rstrip("/") or "/"
    return f"{host}{port}{path}?{parts.query}"


def clean_results(
    results: Iterable[SearchResult],
    limit: int,
    tracking_params: Sequence[str] = (),
) -> list[SearchResult]:
    """Results ready to show: http(s) only, tracking parameters stripped, duplicates
    (same page, ignoring scheme, ``www.``, trailing slash and fragment) removed, at most
    ``limit``, positions renumbered from 1."""
    cleaned: list[SearchResult] = []
    seen: set[str] = set()
    for result in results:
        url = strip_tracking(result.url.strip(), tracking_params)
        try:
            parts = urlsplit(url)
            if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
                continue
            key = _dedupe_key(url)
        except ValueError:
            continue
        if key in seen:
            continue
        seen.add(key)
        title = " ".join(result.title.split()) or url
        snippet = " ".join(result.snippet.split())
        cleaned.append(
            SearchResult(
                title=title,
                url=url,
                snippet=snippet,
                provider=result.provider,
                position=len(cleaned) + 1,
            )
        )
        if len(cleaned) >= limit:
            break
    return cleaned


def run_chain(
    request: SearchRequest,
    chain: Sequence[str],
    providers: Mapping[str, Provider],
) -> list[SearchResult]:
    """Run ``chain`` until a provider answers; clean and return its results."""
    failures: list[tuple[str, SearchError]] = []
    for name in chain:
        if request.deadline.expired and failures:
            break
        try:
            raw = providers[name](request)
        except SearchError as exc:
            failures.append((name, exc))
            continue
        return clean_results(raw, request.num_results, request.config.tracking_params)
    raise _chain_error(failures, request.deadline.expired)


def _chain_error(failures: list[tuple[str, SearchError]], expired: bool) -> SearchError:
    if not failures:
        return SearchError(
            "no search provider is configured (search_provider)", reason="not-configured"
        )
    if len(failures) == 1:
        return failures[0][1]
    first = failures[0][1]
    summary = "; ".join(_describe(name, exc) for name, exc in failures)
    # Providers without a key or instance were never asked: they neither block nor fail.
    asked = [exc for _, exc in failures if exc.reason != "not-configured"]
    if asked and all(isinstance(exc, SearchBlockedError) for exc in asked):
        return SearchBlockedError(
            f"The search was refused: {summary}. Do not retry at once; wait a few minutes "
            "or configure another provider.",
            url=first.url,
            reason="blocked",
        )
    tail = " (the search deadline passed)" if expired else ""
    # None was asked (each lacks its key or instance): a setting is the fix, not waiting.
    reason = "all-failed" if asked else "not-configured"
    return SearchError(
        f"Every search provider failed{tail}: {summary}", url=first.url, reason=reason
    )


def _describe(name: str, exc: SearchError) -> str:
    text = str(exc).split(" Do not retry")[0].rstrip(". ")
    label = display_name(name)
    return text if text.startswith(label) or text.startswith("DuckDuckGo") else f"{label}: {text}"
