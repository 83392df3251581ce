"""The agent-facing text of a result list, shared by ``search_web`` and other front ends."""

from __future__ import annotations

from collections.abc import Sequence

from .base import SearchResult

__all__ = ["format_results"]

_SNIPPET_CHARS = 300


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] or text[:limit]
    return cut.rstrip(" ,;:.-") + "…"


def format_results(results: Sequence[SearchResult], query: str) -> str:
    """A numbered list (title, URL, snippet) ending with a hint to use ``fetch_page``.

    ::

        Web search results for: "rust programming language"

        1. Rust Programming Language
           https://rust-lang.org/
           Rust is a fast, reliable, and productive programming language ...

        Use fetch_page(url) to read any of these pages in full.

    With no results it says so and suggests changing the query (not an error).
    """
    shown = " ".join(query.split())
    if not results:
        return (
            f'No results found for: "{shown}". Try different or fewer keywords, '
            "or check the spelling."
        )
    lines = [f'Web search results for: "{shown}"', ""]
    for number, result in enumerate(results, 1):
        lines.append(f"{number}. {result.title}")
        lines.append(f"   {result.url}")
        if result.snippet:
            lines.append(f"   {_clip(result.snippet, _SNIPPET_CHARS)}")
        lines.append("")
    lines.append("Use fetch_page(url) to read any of these pages in full.")
    return "\n".join(lines)
