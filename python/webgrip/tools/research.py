"""Search, then read the top results: the search-and-visit step agents otherwise hand-roll.

:func:`research` runs one search, fetches the best few results concurrently (through
:func:`webgrip.bulk.pool.fetch_many`, so the per-host rate limit and every guard still apply)
and returns the result list followed by each page's readable content, all within one total
character budget shared fairly between the pages: a short page leaves its unused share to
the longer ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..bulk.pool import fetch_many
from ..errors import WebgripError
from ..messages import error_message, short_title
from ..page import Page
from ..page_builder import slice_text

if TYPE_CHECKING:
    from ..client import WebClient
    from ..search.base import SearchResult

__all__ = ["MAX_BUDGET", "MIN_BUDGET", "research", "share_budget"]

MIN_BUDGET, MAX_BUDGET = 1000, 50_000
_NO_TEXT = "(No readable text was found on this page.)"


def _result_list(query: str, results: list[SearchResult], *, snippets: bool) -> str:
    """The numbered results: title, URL and (with ``snippets``) the snippet of each."""
    lines = [f"Search results for {query!r}:"]
    for i, r in enumerate(results, 1):
        lines.append(f"{i}. {r.title or r.url}\n   {r.url}")
        if snippets and r.snippet:
            lines.append(f"   {' '.join(r.snippet.split())}")
    return "\n".join(lines)


def _continuation(resume: int, total: int, url: str) -> str:
    """The note closing a page cut short: where ``fetch_page`` reads on."""
    return (
        f"[Truncated at {resume} of {total} characters: call fetch_page with "
        f"url={url!r} and start_index={resume} to read on]"
    )


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

    The whole answer keeps within ``max_length`` characters: page text is shared out after
    the result list, the headings, error sections and each page's note saying where
    ``fetch_page`` reads on (when those take it all, the list loses its snippets, then the
    pages are their notes only).
    Never raises: a failed
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

    head = _result_list(query, results, snippets=True)
    top = results[:fetch_top]
    if not top:
        return head

    # An agent is waiting: a page whose host is busy waits one call's timeout at most (a
    # batch's default is to wait out an hour-long Retry-After).
    outcomes = fetch_many(
        client, [r.url for r in top], extract="markdown", max_host_wait=client.config.timeout
    )
    # (heading, body, lead, total): ``body`` is the page's content stripped of surrounding
    # whitespace, ``lead`` how many characters were stripped in front and ``total`` the
    # content's full length, so offsets given to the agent count in the unstripped content,
    # exactly as fetch_page's start_index does.
    sections: list[tuple[str, str, int, int]] = []
    for i, (result, outcome) in enumerate(zip(top, outcomes, strict=True), 1):
        title = outcome.title if isinstance(outcome, Page) and outcome.title else result.title
        # A page's title is the server's to make huge: cut like fetch_page's Title line.
        heading = (
            f"=== [{i}] {short_title(title) if title else ' '.join(result.url.split())}"
            f" ===\nURL: {result.url}"
        )
        if isinstance(outcome, WebgripError):
            message = error_message(outcome, url=result.url, timeout=client.config.timeout)
            sections.append((heading, message, 0, len(message)))
        else:
            content = outcome.content
            body = content.strip()
            lead = len(content) - len(content.lstrip()) if body else 0
            sections.append((heading, body, lead, len(content)))

    # What is not page text, counted exactly (each part joins the next with one newline), so
    # the answer keeps to ``max_length``: the result list, the headings, error sections, and
    # for each page its continuation note at its longest (its offset at most ``total``).
    intro = f"\nThe top {len(sections)} results, read:"
    fixed = 1 + len(intro)
    for (heading, body, _, total), result in zip(sections, top, strict=True):
        fixed += 2 + len(heading) + 1
        if body.startswith("Error:"):
            fixed += len(body)
        elif not body:
            fixed += len(_NO_TEXT)
        else:
            fixed += 1 + len(_continuation(total, total, result.url))
    if len(head) + fixed > max_length:
        # Too tight for the snippets too: the pages' text matters more than the summaries.
        head = _result_list(query, results, snippets=False)
    fixed += len(head)
    readable = [0 if s[1].startswith("Error:") else len(s[1]) for s in sections]
    shares = share_budget(readable, max_length - fixed)
    out = [head, intro]
    for (heading, body, lead, total), share, result in zip(sections, shares, top, strict=True):
        if body.startswith("Error:"):
            out.append(f"\n{heading}\n{body}")
            continue
        if not body:
            out.append(f"\n{heading}\n{_NO_TEXT}")
            continue
        chunk, end = slice_text(body, 0, share) if share > 0 else ("", 0)
        text = chunk.rstrip()
        if end < len(body):
            resume = lead + end  # an offset in the page's content, as fetch_page counts
            text = (text + "\n" if text else "") + _continuation(resume, total, result.url)
        out.append(f"\n{heading}\n{text}")
    return "\n".join(out)
