"""Search, then read the top results: the search-and-visit step agents otherwise hand-roll.

:func:`research` runs one search, fetches the best few results concurrently (through
:func:`webgrip.batch.fetch_many`, so the per-host rate limit and every guard still apply)
and returns the result list followed by each page's readable content, all within one total
character budget shared fairly between the pages: a short page leaves its unused share to
the longer ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .batch import fetch_many
from .errors import WebgripError
from .fetching import slice_text
from .messages import error_message
from .page import Page
from .tools import short_title

if TYPE_CHECKING:
    from .client import WebClient

__all__ = ["MAX_BUDGET", "MIN_BUDGET", "research", "share_budget"]

MIN_BUDGET, MAX_BUDGET = 1000, 50_000
_MIN_PAGE_SHARE = 200


def share_budget(lengths: list[int], budget: int) -> list[int]:
    """Split ``budget`` characters between texts of ``lengths`` (water-filling).

    Every text gets an equal share; a text shorter than its share keeps only what it needs
    and the rest is shared again between the longer ones.
    """
    shares = [0] * len(lengths)
    pending = sorted(range(len(lengths)), key=lambda i: lengths[i])
    left = max(0, budget)
    while pending:
        fair = left // len(pending)
        i = pending[0]
        if lengths[i] <= fair:
            shares[i] = lengths[i]
            left -= lengths[i]
            pending.pop(0)
            continue
        for j in pending:
            shares[j] = fair
        break
    return shares


def research(
    client: WebClient,
    query: str,
    *,
    num_results: int = 5,
    fetch_top: int = 3,
    max_length: int = 12_000,
) -> str:
    """Search for ``query`` and return the results plus the content of the top ``fetch_top``.

    The whole answer stays within about ``max_length`` characters. Never raises: a failed
    search is an ``Error: ...`` string, a page that cannot be read says why in its section.
    """
    try:
        query = " ".join(str(query).split())
        if not query:
            return "Error: the query is empty; say what to search for."
        num_results = min(10, max(1, int(num_results)))
        fetch_top = min(num_results, max(0, int(fetch_top)))
        max_length = min(MAX_BUDGET, max(MIN_BUDGET, int(max_length)))
        results = client.search(query, num_results=num_results)
    except Exception as exc:
        return error_message(exc, url=query, action="searching", timeout=client.config.timeout)
    if not results:
        return f"No results found for {query!r}. Try other words or a broader query."

    lines = [f"Search results for {query!r}:"]
    for i, r in enumerate(results, 1):
        lines.append(f"{i}. {r.title or r.url}\n   {r.url}")
        if r.snippet:
            lines.append(f"   {' '.join(r.snippet.split())}")
    head = "\n".join(lines)
    top = results[:fetch_top]
    if not top:
        return head

    # An agent is waiting: a page whose host is busy waits one call's timeout at most (a
    # batch's default is to wait out an hour-long Retry-After).
    outcomes = fetch_many(client, [r.url for r in top], extract="markdown",
                          max_host_wait=client.config.timeout)
    # (heading, body, lead, total): ``body`` is the page's content stripped of surrounding
    # whitespace, ``lead`` how many characters were stripped in front and ``total`` the
    # content's full length, so offsets given to the agent count in the unstripped content,
    # exactly as fetch_page's start_index does.
    sections: list[tuple[str, str, int, int]] = []
    for i, (result, outcome) in enumerate(zip(top, outcomes, strict=True), 1):
        title = (outcome.title if isinstance(outcome, Page) and outcome.title else result.title)
        # A page's title is the server's to make huge: cut like fetch_page's Title line.
        heading = (f"=== [{i}] {short_title(title) if title else ' '.join(result.url.split())}"
                   f" ===\nURL: {result.url}")
        if isinstance(outcome, WebgripError):
            message = error_message(outcome, url=result.url, timeout=client.config.timeout)
            sections.append((heading, message, 0, len(message)))
        else:
            content = outcome.content
            body = content.strip()
            lead = len(content) - len(content.lstrip()) if body else 0
            sections.append((heading, body, lead, len(content)))

    overhead = len(head) + sum(len(s[0]) + 4 for s in sections) + 120 * len(sections)
    budget = max(_MIN_PAGE_SHARE * len(sections), max_length - overhead)
    readable = [0 if s[1].startswith("Error:") else len(s[1]) for s in sections]
    shares = share_budget(readable, budget)
    out = [head, f"\nThe top {len(sections)} results, read:"]
    for (heading, body, lead, total), share, result in zip(sections, shares, top, strict=True):
        if body.startswith("Error:"):
            out.append(f"\n{heading}\n{body}")
            continue
        if not body:
            out.append(f"\n{heading}\n(No readable text was found on this page.)")
            continue
        chunk, end = slice_text(body, 0, max(1, share))
        text = chunk.rstrip()
        if end < len(body):
            resume = lead + end  # an offset in the page's content, as fetch_page counts
            text += (f"\n[Truncated at {resume} of {total} characters: call fetch_page with "
                     f"url={result.url!r} and start_index={resume} to read on]")
        out.append(f"\n{heading}\n{text}")
    return "\n".join(out)
