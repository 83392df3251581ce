"""llms.txt (llmstxt.org): reading a site's list of pages for language models, and writing one.

An llms.txt is Markdown at ``/llms.txt``: an H1 with the site's name, a blockquote summary,
optional paragraphs, then H2 sections of lists ``- [title](url): notes``. A section named
"Optional" lists what can be skipped when context is short. ``/llms-full.txt``, a convention of
documentation hosts, holds the whole content in one file; its links are read the same way.

:func:`parse_llms_txt` reads the links (with their section and notes) in one left-to-right
pass over each line with :meth:`str.find` (no regular expression: the file is the site's),
and :func:`write_llms_txt` writes the format back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urljoin

__all__ = ["LlmsLink", "LlmsTxt", "parse_llms_txt", "write_llms_txt"]

#: Links kept from one file (an llms-full.txt of a large documentation site has thousands).
MAX_LINKS = 50_000
#: Longer titles, notes and URLs are cut (titles, notes) or the link is left out (URLs).
MAX_TITLE_CHARS = 300
MAX_NOTES_CHARS = 300
MAX_URL_CHARS = 4096


@dataclass(frozen=True)
class LlmsLink:
    """One ``- [title](url): notes`` item."""

    url: str
    """Absolute: a relative link is resolved against the file's URL."""
    title: str = ""
    notes: str = ""
    section: str = ""
    """The H2 heading the link is under (``""`` before the first one)."""


@dataclass
class LlmsTxt:
    """What an llms.txt says: ``name`` (H1), ``summary`` (blockquote), ``links``."""

    name: str = ""
    summary: str = ""
    links: list[LlmsLink] = field(default_factory=list)


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _links_of_line(line: str) -> Iterable[tuple[str, str, int]]:
    """``(title, target, end)`` of each ``[title](target)`` of ``line``, left to right; every
    search starts where the last one stopped, so the line is read once."""
    pos = 0
    while True:
        open_ = line.find("[", pos)
        if open_ < 0:
            return
        close = line.find("](", open_ + 1)
        if close < 0:
            return
        end = line.find(")", close + 2)
        if end < 0:
            return
        title = line[open_ + 1 : close]
        nested = title.rfind("[")  # "[a [b](u)": the innermost bracket opens the link
        if nested >= 0:
            title = title[nested + 1 :]
        yield title, line[close + 2 : end], end + 1
        pos = end + 1


def _target(raw: str) -> str:
    """The URL of a link target: ``<url>`` or ``url "title"`` forms, spaces trimmed."""
    text = raw.strip()
    if text.startswith("<"):
        return text[1:].partition(">")[0].strip()
    return text.split(None, 1)[0] if text else ""


def parse_llms_txt(text: str, base_url: str = "") -> LlmsTxt:
    """The name, summary and links of an llms.txt (or llms-full.txt) body.

    Links are taken from every line (list items or running text), at most :data:`MAX_LINKS`;
    ``notes`` is what follows ``):`` on a list item. Relative URLs are resolved against
    ``base_url``; links to anything but http(s) are left out.

    >>> doc = parse_llms_txt('''# Demo
    ... > A demo site.
    ... ## Docs
    ... - [Start](/start): how to begin
    ... ''', "https://example.com/llms.txt")
    >>> doc.name, doc.summary
    ('Demo', 'A demo site.')
    >>> link = doc.links[0]
    >>> link.url, link.title, link.notes, link.section
    ('https://example.com/start', 'Start', 'how to begin', 'Docs')
    """
    doc = LlmsTxt()
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("# ") and not doc.name:
            doc.name = _one_line(line[2:], MAX_TITLE_CHARS)
            continue
        if line.startswith(">") and not doc.summary and not doc.links:
            doc.summary = _one_line(line.lstrip("> "), MAX_NOTES_CHARS)
            continue
        if line.startswith("## "):
            section = _one_line(line[3:], MAX_TITLE_CHARS)
            continue
        for title, raw_target, end in _links_of_line(line):
            if len(doc.links) >= MAX_LINKS:
                return doc
            target = _target(raw_target)
            if not target or len(target) > MAX_URL_CHARS:
                continue
            url = urljoin(base_url, target) if base_url else target
            if not url.lower().startswith(("http://", "https://")):
                continue
            rest = line[end:]
            notes = rest[1:] if line.startswith(("- ", "* ")) and rest.startswith(":") else ""
            doc.links.append(
                LlmsLink(
                    url=url,
                    title=_one_line(title, MAX_TITLE_CHARS),
                    notes=_one_line(notes, MAX_NOTES_CHARS),
                    section=section,
                )
            )
    return doc


def _escape_title(title: str) -> str:
    return (
        _one_line(title, MAX_TITLE_CHARS)
        .replace("\\", "\\\\")
        .replace("[", "\\[")
        .replace("]", "\\]")
    )


def _escape_url(url: str) -> str:
    """A URL safe inside ``(...)``: parentheses, spaces and angle brackets percent-encoded."""
    return (
        url.replace(" ", "%20")
        .replace("(", "%28")
        .replace(")", "%29")
        .replace("<", "%3C")
        .replace(">", "%3E")
    )


def write_llms_txt(
    name: str,
    summary: str = "",
    sections: Mapping[str, Sequence[LlmsLink]] | None = None,
    details: str = "",
) -> str:
    """An llms.txt in llmstxt.org's format: ``# name``, ``> summary``, ``details`` (a
    paragraph), then one ``## section`` per entry of ``sections`` with its links as
    ``- [title](url): notes`` (titles and notes on one line each; the title falls back to the
    URL).

    >>> page = LlmsLink("https://example.com/a", "A", "the first page")
    >>> print(write_llms_txt("Demo", "A demo site.", {"Docs": [page]}))
    # Demo
    <BLANKLINE>
    > A demo site.
    <BLANKLINE>
    ## Docs
    <BLANKLINE>
    - [A](https://example.com/a): the first page
    <BLANKLINE>
    """
    out = [f"# {_one_line(name, MAX_TITLE_CHARS) or 'Untitled site'}", ""]
    if summary.strip():
        out += [f"> {_one_line(summary, MAX_NOTES_CHARS * 2)}", ""]
    if details.strip():
        out += [" ".join(details.split()), ""]
    for heading, links in (sections or {}).items():
        if not links:
            continue
        out += [f"## {_one_line(heading, MAX_TITLE_CHARS)}", ""]
        for link in links:
            item = f"- [{_escape_title(link.title or link.url)}]({_escape_url(link.url)})"
            notes = _one_line(link.notes, MAX_NOTES_CHARS)
            out.append(f"{item}: {notes}" if notes else item)
        out.append("")
    return "\n".join(out)
