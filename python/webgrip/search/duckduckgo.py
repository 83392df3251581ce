"""DuckDuckGo without an API key: the HTML endpoint, then the lite endpoint.

Both endpoints take the same form (``q``, ``kl`` region, ``kp`` safe search, ``df`` time
range) by POST, like DuckDuckGo's own forms. Their answers mean three different things,
which must never be confused:

- **results**: ``div.result`` blocks (HTML layout) or ``a.result-link`` rows (lite layout);
- **no results**: a page that says so (``No results.``) -> ``[]``;
- **blocked**: the bot check (HTTP 202, or 200 with the "anomaly" challenge form), or a
  refusal status -> :class:`~webgrip.errors.SearchBlockedError`. The block is per IP address
  and lasts minutes; retrying at once prolongs it.

Anything else (a 5xx, a page with neither results nor a no-results notice) is an error. The
lite endpoint is tried when the HTML one is blocked or failing. Result links may be wrapped
in DuckDuckGo's ``/l/?uddg=<target>`` redirect (relative, protocol-relative or absolute):
:func:`unwrap_redirect` recovers the target. Ads (``result--ad`` blocks, ``y.js`` links) are
dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TypeVar
from urllib.parse import parse_qs, unquote, urlencode, urljoin, urlsplit

from ..errors import SearchBlockedError, SearchError
from ._html import Element, ParseDeadlineError, parse_html
from ._http import call, status_error
from .base import Deadline, SearchRequest, SearchResult

__all__ = [
    "MAX_PAGE_RESULTS",
    "MAX_QUERY_LENGTH",
    "is_ad_url",
    "is_blocked_page",
    "parse_html_page",
    "parse_lite_page",
    "search",
    "unwrap_redirect",
]

NAME = "duckduckgo"
#: DuckDuckGo rejects longer queries.
MAX_QUERY_LENGTH = 500
#: Results read from one page at most (a real page has about 30): with the cap on titles and
#: snippets, it bounds the text work whatever a hostile page holds.
MAX_PAGE_RESULTS = 100
#: Characters of raw text read for a title or a snippet (real ones are a few hundred).
MAX_TEXT = 2000

_KP = {"strict": "1", "moderate": "-1", "off": "-2"}
_BLOCK_STATUSES = frozenset({202, 403, 418, 429})
_BASE = "https://duckduckgo.com/"
_NO_RESULTS = re.compile(r"\bno\s+(?:more\s+)?results\b", re.IGNORECASE)
_ANOMALY_TEXT = re.compile(r"bots use duckduckgo too", re.IGNORECASE)

BLOCKED_HINT = (
    "Do not retry at once: the block is per IP address and lasts several minutes. "
    "Wait, or configure another search provider (search_fallbacks)."
)


# -- links -------------------------------------------------------------------------------


def _is_ddg_host(host: str | None) -> bool:
    host = (host or "").rstrip(".").lower()
    return host == "duckduckgo.com" or host.endswith(".duckduckgo.com")


def unwrap_redirect(href: str) -> str:
    """The target of a result link, with DuckDuckGo's ``/l/?uddg=`` redirect removed.

    Accepts the relative (``/l/?uddg=...``), protocol-relative (``//duckduckgo.com/l/?...``)
    and absolute forms, with or without ``&rut=``. The wrapper's query is split first and
    only then is ``uddg`` decoded, so a target with its own ``&``-separated query survives;
    a target encoded twice is decoded twice. Links that are not wrapped come back absolute.
    """
    url = urljoin(_BASE, href.strip())
    for _ in range(4):  # a redirect wrapping a redirect, at most a few levels
        parts = urlsplit(url)
        if not (_is_ddg_host(parts.hostname) and parts.path.rstrip("/") == "/l"):
            return url
        target = parse_qs(parts.query, keep_blank_values=True).get("uddg", [""])[0].strip()
        if not target:
            return url
        for _ in range(3):  # percent-encoded more than once: http%3A%2F%2F...
            if re.match(r"^(?:https?%3a|%2f%2f)", target, re.IGNORECASE):
                target = unquote(target)
        url = urljoin(_BASE, target)
    return url


def is_ad_url(url: str) -> bool:
    """Whether ``url`` (unwrapped) is an ad click: DuckDuckGo ``y.js`` or Bing ``aclick``."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").rstrip(".").lower()
    except ValueError:
        return False
    if _is_ddg_host(host):
        return parts.path.startswith("/y.js") or "ad_provider=" in parts.query
    if host == "bing.com" or host.endswith(".bing.com"):
        return parts.path.startswith("/aclick")
    return False


def _result_url(href: str | None) -> str | None:
    """The cleaned target of a result link, or ``None`` for ads and unusable links."""
    if not href:
        return None
    try:
        url = unwrap_redirect(href)
        parts = urlsplit(url)
    except ValueError:  # "https://du]ck.com/" (found by the duckduckgo fuzz target)
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or is_ad_url(url):
        return None
    if _is_ddg_host(parts.hostname) and parts.path.rstrip("/") == "/l":
        return None  # a redirect without a target
    return url


# -- pages -------------------------------------------------------------------------------


def is_blocked_page(root: Element) -> bool:
    """Whether the page is DuckDuckGo's bot check (the "anomaly" challenge)."""
    for el in root.iter():
        if el.get("data-testid") == "anomaly-modal" or "anomaly-modal" in el.classes:
            return True
        if el.tag == "form" and (
            el.get("id") == "challenge-form" or "anomaly.js" in (el.get("action") or "")
        ):
            return True
    return bool(_ANOMALY_TEXT.search(root.text()))


def _is_ad_block(el: Element) -> bool:
    return any(c.startswith("result--ad") or "sponsored" in c for c in el.classes)


def _walk_outside_ads(root: Element) -> Iterator[tuple[Element, bool, bool]]:
    """``(element, entering, in_ad)`` for the walk of :meth:`Element.walk`; ``in_ad`` says
    whether the element or one of its ancestors is an ad block (the open ad blocks are kept on
    a stack: no walk up the ancestors from each element)."""
    ads: list[Element] = []
    for el, entering in root.walk():
        if entering:
            if _is_ad_block(el):
                ads.append(el)
            yield el, True, bool(ads)
        else:
            yield el, False, bool(ads)
            if ads and ads[-1] is el:
                ads.pop()


def _check_page(root: Element, results: list[SearchResult], layout: str) -> list[SearchResult]:
    if results:
        return results
    if _NO_RESULTS.search(root.text()) or root.find(
        lambda e: bool(e.classes & {"no-results", "result--no-result"})
    ):
        return []
    raise SearchError(
        f"DuckDuckGo ({layout} endpoint) returned a page with neither results nor a "
        "no-results notice; its layout may have changed",
        reason="unrecognized-page",
    )


def _blocked(layout: str, why: str, url: str | None = None) -> SearchBlockedError:
    exc = SearchBlockedError(
        f"DuckDuckGo ({layout} endpoint) is refusing automated searches from this address "
        f"({why}). {BLOCKED_HINT}",
        url=url,
        reason="blocked",
    )
    # For the combined message of search(), which reads it back with getattr: an attribute
    # of this module's blocks only, not one SearchBlockedError declares.
    exc.detail = f"{layout} endpoint: {why}"  # type: ignore[attr-defined]
    return exc


_T = TypeVar("_T")


def _read(markup: str, layout: str, deadline: Deadline | None, read: Callable[[Element], _T]) -> _T:
    """``read`` over the page's tree, within ``deadline``: parsing and every walk of the tree
    stop once it passes (see :func:`parse_html`)."""
    try:
        root = parse_html(markup, None if deadline is None else (lambda: deadline.expired))
        return read(root)
    except ParseDeadlineError:
        pass  # raised below, outside the handler: nothing is chained
    assert deadline is not None
    raise SearchError(
        f"DuckDuckGo ({layout} endpoint): its page ({len(markup)} characters) could not be "
        f"read within the search deadline ({deadline.total:g} s)",
        reason="timeout",
    )


def _html_blocks(root: Element) -> list[list[Element | None]]:
    """``[block, link, snippet]`` for each ``div.result`` outside ads, in page order: the
    first ``a.result__a`` and the first ``.result__snippet`` at or below the block (or
    ``None``), all found in one walk. Blocks still missing a link (a snippet) are kept on a
    stack while open; an element found serves every one of them at once."""
    blocks: list[list[Element | None]] = []
    wants_link: list[list[Element | None]] = []
    wants_snippet: list[list[Element | None]] = []
    for el, entering, in_ad in _walk_outside_ads(root):
        if not entering:
            for waiting in (wants_link, wants_snippet):
                if waiting and waiting[-1][0] is el:
                    waiting.pop()
            continue
        classes = el.classes
        if el.tag == "div" and "result" in classes and not in_ad:
            entry: list[Element | None] = [el, None, None]
            blocks.append(entry)
            wants_link.append(entry)
            wants_snippet.append(entry)
        if el.tag == "a" and "result__a" in classes:
            for entry in wants_link:
                entry[1] = el
            wants_link.clear()
        if "result__snippet" in classes:
            for entry in wants_snippet:
                entry[2] = el
            wants_snippet.clear()
    return blocks


def parse_html_page(markup: str, *, deadline: Deadline | None = None) -> list[SearchResult]:
    """Results of a page from the HTML endpoint (``div.result`` layout), ads removed.

    Returns ``[]`` for a no-results page; raises ``SearchBlockedError`` for the bot check and
    ``SearchError`` for a page that is neither, or that is still being parsed when
    ``deadline`` passes. Positions are in page order, from 1; at most
    :data:`MAX_PAGE_RESULTS`.
    """
    return _read(markup, "html", deadline, _html_results)


def _html_results(root: Element) -> list[SearchResult]:
    if is_blocked_page(root):
        raise _blocked("html", "bot check")
    results: list[SearchResult] = []
    urls: dict[int, str | None] = {}  # per link: nested blocks may share one
    for _block, link, snippet_el in _html_blocks(root):
        if link is None:
            continue
        if id(link) not in urls:
            urls[id(link)] = _result_url(link.get("href"))
        url = urls[id(link)]
        if url is None:
            continue
        results.append(
            SearchResult(
                title=link.text(MAX_TEXT) or url,
                url=url,
                snippet=snippet_el.text(MAX_TEXT) if snippet_el is not None else "",
                provider=NAME,
                position=len(results) + 1,
            )
        )
        if len(results) >= MAX_PAGE_RESULTS:
            break
    return _check_page(root, results, "html")


def parse_lite_page(markup: str, *, deadline: Deadline | None = None) -> list[SearchResult]:
    """Results of a page from the lite endpoint (table layout), ads removed.

    Each ``a.result-link`` starts a result; the next ``td.result-snippet`` with text, before
    the next link, is its snippet. Same outcomes as :func:`parse_html_page`.
    """
    return _read(markup, "lite", deadline, _lite_results)


def _lite_results(root: Element) -> list[SearchResult]:
    if is_blocked_page(root):
        raise _blocked("lite", "bot check")
    results: list[SearchResult] = []
    current: dict[str, str] | None = None
    pending: list[dict[str, str]] = []
    for el, entering, in_ad in _walk_outside_ads(root):
        if not entering:
            continue
        if el.tag == "a" and "result-link" in el.classes:
            current = None
            if in_ad:
                continue
            url = _result_url(el.get("href"))
            if url is None:
                continue
            if len(pending) >= MAX_PAGE_RESULTS:
                break
            current = {"title": el.text(MAX_TEXT) or url, "url": url, "snippet": ""}
            pending.append(current)
        elif current is not None and "result-snippet" in el.classes and el.has_text():
            # has_text() first: a run of empty snippets costs nothing to skip.
            current["snippet"] = el.text(MAX_TEXT)
            current = None  # the first snippet with text is the one
    for item in pending:
        results.append(SearchResult(provider=NAME, position=len(results) + 1, **item))
    return _check_page(root, results, "lite")


# -- requests ----------------------------------------------------------------------------


def _form(request: SearchRequest) -> bytes:
    fields = {"q": request.query, "b": ""}
    if request.region:
        fields["kl"] = request.region
    fields["kp"] = _KP[request.safe_search]
    if request.time_range:
        fields["df"] = request.time_range
    return urlencode(fields).encode("ascii")


def _ask(request: SearchRequest, layout: str) -> list[SearchResult]:
    endpoint = request.endpoint(f"duckduckgo_{layout}")
    assert endpoint is not None
    origin = urljoin(endpoint, "/")
    response = call(
        request,
        NAME,
        "POST",
        endpoint,
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "text/html,application/xhtml+xml",
            "Referer": origin,
        },
        body=_form(request),
    )
    if response.status in _BLOCK_STATUSES:
        raise _blocked(layout, f"HTTP {response.status}", response.url)
    if not 200 <= response.status < 300:
        raise status_error(response, NAME, label=f"DuckDuckGo ({layout} endpoint)")
    text = response.text
    if not text.strip():
        raise _blocked(layout, "empty page", response.url)
    parse = parse_html_page if layout == "html" else parse_lite_page
    try:
        return parse(text, deadline=request.deadline)
    except SearchError as exc:
        exc.url = exc.url or response.url
        raise


def search(request: SearchRequest) -> list[SearchResult]:
    """Search DuckDuckGo: the HTML endpoint, then the lite endpoint if that one fails.

    Raises ``SearchBlockedError`` if an endpoint was blocked and none answered, else
    ``SearchError`` when both failed.
    """
    if len(request.query) > MAX_QUERY_LENGTH:
        raise SearchError(
            f"DuckDuckGo rejects queries longer than {MAX_QUERY_LENGTH} characters "
            f"(this one has {len(request.query)}); shorten it",
            reason="query-too-long",
        )
    failures: list[SearchError] = []
    for layout in ("html", "lite"):
        try:
            return _ask(request, layout)
        except SearchError as exc:
            failures.append(exc)
            if exc.reason == "timeout":
                break
    blocked = [f for f in failures if isinstance(f, SearchBlockedError)]
    details: list[str] = [getattr(f, "detail", "") for f in failures]
    if len(failures) > 1 and len(blocked) == len(failures) and all(details):
        # Both endpoints blocked: one cause, the reason of each in brackets.
        raise SearchBlockedError(
            "DuckDuckGo is refusing automated searches from this address "
            f"({'; '.join(details)}). {BLOCKED_HINT}",
            url=blocked[0].url,
            reason="blocked",
        )
    if blocked and len(failures) > 1:
        # One endpoint blocked, the other blocked or failing: the advice is the same.
        both = "; ".join(str(f).split(" Do not retry")[0].rstrip(". ") for f in failures)
        raise SearchBlockedError(f"{both}. {BLOCKED_HINT}", url=blocked[0].url, reason="blocked")
    if len(failures) == 1:
        raise failures[0]
    raise SearchError(
        "DuckDuckGo failed on both endpoints: " + "; ".join(str(f) for f in failures),
        url=failures[0].url,
        reason=failures[-1].reason,
    )
