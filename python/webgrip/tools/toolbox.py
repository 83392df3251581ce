"""The agent tools: ``fetch_page``, ``search_web`` and ``download_file`` (the default three),
and the opt-in ``research`` and ``map_site``.

:class:`Tools` wraps a :class:`~webgrip.client.WebClient`; its methods take plain arguments,
return compact text for a language model, and never raise: every failure is a string starting
with ``Error:`` that names the cause and the next step. The module-level functions use one
shared default :class:`Tools` built from the environment on first use.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..client import WebClient
from ..config import Config
from ..messages import (
    MAX_TITLE_CHARS,
    error_message,
    human_size,
    short_title,
    shown_url,
    unrun_scripts,
)
from ..page import EXTRACT_MODES, Download, Page
from .citations import LINK_STYLES, Cited, LinkStyle, cite_links, links_listed

if TYPE_CHECKING:
    from ..sites.mapping import SiteMap

# Research, the schema builders (inspect, json) and the search formatting are imported by
# the methods that use them, so ``import webgrip`` does not pay for them.

__all__ = ["Tools", "default_tools", "download_file", "fetch_page", "search_web"]

MIN_LENGTH, MAX_LENGTH = 100, 20_000
MIN_RESULTS, MAX_RESULTS = 1, 10
#: Pages a ``map_site`` answer lists at most (a model pages through them).
MAP_LIMIT = 1000
_MAP_SOURCES = {
    "start": "the page itself",
    "sitemap": "sitemaps",
    "llms.txt": "llms.txt",
    "links": "the page's links",
}

ExtractMode = Literal["markdown", "text", "html", "links", "tables"]

_EMPTY = {
    "markdown": '(No readable text was found on this page. Try extract="html" or extract="links".)',
    "text": '(No readable text was found on this page. Try extract="html" or extract="links".)',
    "html": "(The page is empty.)",
    "links": "(No links were found on this page.)",
    "tables": "(No tables were found on this page.)",
}


def _as_int(value: Any, name: str) -> int:
    """Accept ints and the forms models send for them ("5000", 5000.0); refuse the rest."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value.strip())
    raise ValueError(f"{name} must be a whole number, got {shown_url(value)!r}")


#: A cached copy younger than this is not announced unless the call asked for an age.
_ANNOUNCED_AGE = 60


def _announced(page: Page, max_age: int | None) -> Page:
    """``page``, with ``from_cache`` (which adds the header's ``Cached:`` line) kept only when
    the copy's age matters: the call passed ``max_age``, or the copy is a minute old or more.
    The next part of a page just read, or a search of it, comes from the page cache as a
    matter of course and says nothing about it."""
    if not page.from_cache or max_age is not None or page.fetched_at is None:
        return page
    if time.time() - page.fetched_at >= _ANNOUNCED_AGE:
        return page
    return dataclasses.replace(page, from_cache=False)


def _age(seconds: float) -> str:
    """``seconds`` as a model reads an age: "42 s", "5 min", "3 h", "2 days"."""
    s = max(0, int(seconds))
    if s < 120:
        return f"{s} s"
    if s < 2 * 3600:
        return f"{s // 60} min"
    if s < 2 * 86400:
        return f"{s // 3600} h"
    return f"{s // 86400} days"


def _as_str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, got {type(value).__name__}")
    return value


class Tools:
    """The agent tools over one client. Thread-safe; share one per configuration.

    >>> tools = Tools(Config(timeout=20))                        # doctest: +SKIP
    >>> print(tools.fetch_page("https://example.com/"))

    Pass ``client`` to reuse an existing :class:`~webgrip.client.WebClient` (its config wins).
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        client: WebClient | None = None,
        tool_names: Sequence[str] | None = None,
    ):
        """``tool_names`` are the tools offered to a model (by :meth:`schemas`, :meth:`call`,
        :meth:`register` and the MCP server): the three default ones unless given, e.g.
        ``(*DEFAULT_TOOLS, "map_site")`` to add the opt-in ``map_site`` (``research`` is the
        other opt-in tool)."""
        from .schemas import check_tool_names

        self.tool_names: tuple[str, ...] = check_tool_names(tool_names)
        if client is not None:
            self.client = client
            self.config = client.config
        else:
            self.config = config or Config()
            self.client = WebClient(self.config)

    # -- fetch_page -----------------------------------------------------------------------
    def fetch_page(
        self,
        url: str,
        extract: ExtractMode = "markdown",
        max_length: int = 5000,
        start_index: int = 0,
        find: str | None = None,
        links: LinkStyle = "inline",
        max_age: int | None = None,
    ) -> str:
        """Fetch a web page and return its readable content as Markdown.

        Also reads PDFs, JSON, plain text, CSV and XML. A long page comes in parts: call again
        with the start_index its answer ends with. Pass find to get only the passages around a
        phrase. Save images, archives and other files with download_file.

        Args:
            url: The full http(s) address of the page, e.g. https://example.com/article.
            extract: "markdown" (default), "text" (plain text), "html", "links" or "tables"
                (the tables as JSON rows).
            max_length: The most characters to return in this call, between 100 and 20000.
            start_index: Where to start reading, as a character offset; use the value given
                at the end of a truncated answer to read the next part.
            find: A word or phrase: returns only the passages around it, each with its
                character offset (pass it as start_index to read on from there).
            links: How links are shown: "inline" (default, [text](url)), "citations"
                (text [1], each URL listed once after the part) or "none" (link text only).
            max_age: The oldest cached copy to accept, in seconds: 0 fetches the page
                afresh; default: a page being read in parts comes from the cache.

        Returns:
            A header (title, URL, content type, characters shown) and the content, or a line
            starting with "Error:" that says what went wrong and what to do next.
        """
        try:
            return self._fetch_page(url, extract, max_length, start_index, find, links, max_age)
        except Exception as exc:
            return error_message(exc, url=url, action="fetching", timeout=self.config.timeout)

    def _fetch_page(
        self,
        url: Any,
        extract: Any,
        max_length: Any,
        start_index: Any,
        find: Any = None,
        links: Any = "inline",
        max_age: Any = None,
    ) -> str:
        url = _as_str(url, "url")
        style = _as_str(links, "links").strip().lower()
        if style not in LINK_STYLES:
            raise ValueError(
                f"links must be one of {', '.join(LINK_STYLES)}, not {shown_url(links)!r}"
            )
        age = None if max_age is None else _as_int(max_age, "max_age")
        if age is not None and age < 0:
            raise ValueError("max_age must be 0 or more seconds")
        mode = _as_str(extract, "extract").strip().lower()
        if mode not in EXTRACT_MODES:
            raise ValueError(
                f"extract must be one of {', '.join(EXTRACT_MODES)}, not {shown_url(extract)!r}"
            )
        length = min(MAX_LENGTH, max(MIN_LENGTH, _as_int(max_length, "max_length")))
        start = _as_int(start_index, "start_index")
        if start < 0:
            raise ValueError("start_index must be 0 or more")
        if find is not None:
            phrase = _as_str(find, "find")
            if phrase.strip():
                # A page searched is often searched again: answered from the page cache.
                page = self.client.fetch(url, extract=mode, use_cache=True, max_age=age)
                return self._render_found(_announced(page, age), phrase, start, length, style)
        page = self.client.fetch(url, extract=mode, use_cache=start > 0, max_age=age)
        return self._render_page(_announced(page, age), start, length, style)

    @staticmethod
    def _cited(page: Page, style: str) -> Cited:
        """The page's text with its links as ``style`` asks (Markdown only: the other views
        hold no Markdown links)."""
        return cite_links(page.content, style if page.extract == "markdown" else "inline")

    @staticmethod
    def _header(page: Page, length: int) -> list[str]:
        header = []
        if page.title:
            header.append(f"Title: {short_title(page.title, min(MAX_TITLE_CHARS, length // 4))}")
        header.append(f"URL: {page.final_url}")
        header.append(f"Content-Type: {page.content_type or 'unknown'}")
        if page.rendered:
            header.append("Rendered: yes (the page's scripts ran in a guarded headless browser)")
        pages = page.metadata.get("pages") if page.content_type == "application/pdf" else None
        if pages:
            header.append(f"Pages: {pages}")
        if page.from_cache and page.fetched_at is not None:
            header.append(
                f"Cached: fetched {_age(time.time() - page.fetched_at)} ago "
                "(pass max_age=0 for a fresh copy)"
            )
        return header

    @classmethod
    def _render_found(
        cls, page: Page, phrase: str, start: int, length: int, style: str = "inline"
    ) -> str:
        """The passages around ``phrase`` (:mod:`webgrip.tools.find`), each headed by its offset."""
        from .find import find_passages

        cited = cls._cited(page, style)
        total = len(cited.text)
        found = find_passages(cited.text, phrase, length, start)
        shown = " ".join(phrase.split())
        where = f"{total} characters" + (f" from character {start}" if start else "")
        header = cls._header(page, length)
        if not found.passages:
            header.append(f'No match for "{shown}" in {where}.')
            return (
                "\n".join(header) + "\n\nTry other or fewer words, or read the page "
                "without find (start_index reads any part)."
            )
        if found.exact:
            count = "1 match" if found.total == 1 else f"{found.total} matches"
            header.append(
                f'Found {count} for "{shown}" in {where}; showing {len(found.passages)} passage(s)'
            )
        else:
            header.append(
                f'No exact match for "{shown}" in {where}; the passages sharing most of its words:'
            )
        blocks = [f"[at character {p.at}]\n{p.text}" for p in found.passages]
        if cited.urls:  # the URLs the passages cite, each number once, in order
            spans = [(p.at, p.at + len(p.text)) for p in found.passages]
            listed = links_listed(cited, spans)
            if listed:
                blocks.append(listed)
        out = "\n".join(header) + "\n\n" + "\n\n".join(blocks)
        if found.next_start is not None:
            out += (
                f'\n\n[More matches: call fetch_page with find="{shown}" and '
                f"start_index={found.next_start}]"
            )
        return out + (
            "\n\n[To read on from a passage, call fetch_page with start_index set "
            "to its character.]"
        )

    def _render_page(self, page: Page, start: int, length: int, style: str = "inline") -> str:
        from ..page_builder import slice_text

        cited = self._cited(page, style)
        total = len(cited.text)
        if total and start >= total:
            # A model may send thousands of digits: echo the value only while it is readable.
            shown = str(start) if start < 10**18 else "(a huge number)"
            return (
                f"Error: start_index={shown} is past the end of {shown_url(page.final_url)} "
                f"({total} characters). The whole page has been read; start_index=0 "
                "starts again."
            )
        chunk, end = slice_text(cited.text, start, length)
        header = Tools._header(page, length)
        if total:
            header.append(f"Showing characters {start}–{end} of {total}")
        body = _shown_part(cited.text, chunk, start, end, page.extract) if total else None
        body = body or self._nothing_shown(page)
        out = "\n".join(header) + "\n\n" + body
        # The URLs cited in this part, after it, so that each part reads on its own; outside
        # max_length, which counts the text (one line per URL the part cites).
        listed = links_listed(cited, [(start, end)])
        if listed:
            out = _then(out, listed)
        if end < total:
            out = _then(out, f"[Truncated: call fetch_page with start_index={end} to continue]")
        return out

    def _nothing_shown(self, page: Page) -> str:
        """The note standing for an empty view: for a page its scripts build, that they did
        not run and why (:attr:`Page.script_shell <webgrip.page.Page.script_shell>`)."""
        if page.script_shell is None or page.extract not in ("markdown", "text"):
            return _EMPTY[page.extract]
        from ..render import render_available

        why = render_available(self.config, proxied=self.client._proxied)
        clause = unrun_scripts(page.script_shell, why, self.config.render)
        return f"(No readable text: {clause}. Try another source for this information.)"

    # -- search_web -------------------------------------------------------------------------
    def search_web(self, query: str, num_results: int = 5) -> str:
        """Search the web and return a numbered list of results: title, URL and snippet.

        Use it to find pages on a topic or to answer questions about recent events, then read
        the most promising results with fetch_page. If the answer says the search provider
        refused to answer, do not search again at once.

        Args:
            query: What to search for, written as you would type it into a search engine.
            num_results: How many results to return, between 1 and 10.

        Returns:
            The numbered results, a note that nothing was found, or a line starting with
            "Error:" that says what went wrong and what to do next.
        """
        try:
            return self._search_web(query, num_results)
        except Exception as exc:
            return error_message(exc, url=query, action="searching", timeout=self.config.timeout)

    def _search_web(self, query: Any, num_results: Any) -> str:
        text = " ".join(_as_str(query, "query").split())
        if not text:
            raise ValueError("query is empty; say what to search for")
        count = min(MAX_RESULTS, max(MIN_RESULTS, _as_int(num_results, "num_results")))
        from ..search import format_results

        results = self.client.search(text, num_results=count)
        return format_results(results, text)

    # -- download_file -----------------------------------------------------------------------
    def download_file(
        self,
        url: str,
        save_to: str | None = None,
        filename: str | None = None,
        overwrite: bool = False,
    ) -> str:
        """Download a file (PDF, image, archive, data set, ...) from the web and save it to disk.

        Use it for files fetch_page cannot show, or when the user wants a copy. An existing
        file is never replaced unless overwrite is true: a new name like "report (1).pdf" is
        used instead.

        Args:
            url: The full http(s) address of the file.
            save_to: The folder to save into: an allowed download folder (normally
                ~/Downloads) or one inside it; a relative path is taken inside the first one.
            filename: The name to save under. Default: the name the server or the URL gives;
                any folder part is ignored.
            overwrite: Replace an existing file with the same name instead of choosing a new
                name.

        Returns:
            The saved path, size, content type and SHA-256, or a line starting with "Error:"
            that says what went wrong and what to do next.
        """
        try:
            return self._download_file(url, save_to, filename, overwrite)
        except Exception as exc:
            return error_message(exc, url=url, action="downloading", timeout=self.config.timeout)

    def _download_file(self, url: Any, save_to: Any, filename: Any, overwrite: Any) -> str:
        url = _as_str(url, "url")
        folder = None if save_to is None or save_to == "" else _as_str(save_to, "save_to")
        name = None if filename is None or filename == "" else _as_str(filename, "filename")
        if not isinstance(overwrite, bool):
            if isinstance(overwrite, str) and overwrite.strip().lower() in ("true", "false"):
                overwrite = overwrite.strip().lower() == "true"
            else:
                raise ValueError(f"overwrite must be true or false, got {shown_url(overwrite)!r}")
        result = self.client.download(url, save_to=folder, filename=name, overwrite=overwrite)
        return self._render_download(result)

    @staticmethod
    def _render_download(d: Download) -> str:
        lines = [f"Saved {d.final_url}", f"Path: {d.path}"]
        if d.renamed:
            lines.append(
                f"Note: saved as {d.filename} because {d.preferred_name} already exists "
                "(pass overwrite=true to replace it)."
            )
        if d.replaced:
            lines.append("Note: an existing file with that name was replaced.")
        readable = human_size(d.size)
        exact = f"{d.size} bytes"
        lines.append(f"Size: {exact}" if readable == exact else f"Size: {exact} ({readable})")
        lines.append(f"Content-Type: {d.content_type or 'unknown'}")
        lines.append(f"SHA-256: {d.sha256}")
        return "\n".join(lines)

    # -- map_site (opt-in) ----------------------------------------------------------------------
    def map_site(self, url: str, max_length: int = 5000, start_index: int = 0) -> str:
        """List the pages of a website: their URLs, with titles where the site gives them.

        Reads the site's sitemaps, its llms.txt and the links of the page at url, without
        fetching the pages themselves, so you can choose which ones to read with fetch_page.
        Only pages of the same site are listed, at most 1000. A long list comes in parts: call
        again with the start_index its answer ends with.

        Args:
            url: The full http(s) address of the site or one of its pages, e.g.
                https://example.com/docs/.
            max_length: The most characters to return in this call, between 100 and 20000.
            start_index: The entry to start the list at (0 is the first); use the value given
                at the end of a truncated answer to read the next part.

        Returns:
            A header (the site, how many pages were found and where) and one line per page,
            or a line starting with "Error:" that says what went wrong and what to do next.
        """
        try:
            return self._map_site(url, max_length, start_index)
        except Exception as exc:
            return error_message(exc, url=url, action="mapping", timeout=self.config.timeout)

    def _map_site(self, url: Any, max_length: Any, start_index: Any) -> str:
        url = _as_str(url, "url")
        length = min(MAX_LENGTH, max(MIN_LENGTH, _as_int(max_length, "max_length")))
        start = _as_int(start_index, "start_index")
        if start < 0:
            raise ValueError("start_index must be 0 or more")
        # Paging through a list maps the site once: later parts come from the client's cache.
        site = self.client.map_site(url, limit=MAP_LIMIT, use_cache=True)
        return self._render_map(site, start, length)

    @staticmethod
    def _render_map(site: SiteMap, start: int, length: int) -> str:
        total = len(site)
        counts = {source: 0 for source in ("start", "sitemap", "llms.txt", "links")}
        for mapped in site:
            counts[mapped.source] = counts.get(mapped.source, 0) + 1
        found = ", ".join(f"{n} from {_MAP_SOURCES[source]}" for source, n in counts.items() if n)
        header = [f"Site: {shown_url(site.start_url)}"]
        if not total:
            header.append("No pages were found: no sitemap, no llms.txt, and no links to pages")
            header.append("of the same site on this page.")
        elif start >= total:
            shown = str(start) if start < 10**18 else "(a huge number)"
            return (
                f"Error: start_index={shown} is past the end of the list of "
                f"{shown_url(site.start_url)} ({total} pages). The whole list has been read; "
                "start_index=0 starts again."
            )
        else:
            header.append(f"Pages found: {total} ({found})")
        if site.skipped:
            first_url, first_reason = site.skipped[0]
            header.append(
                f"Not read or left out: {len(site.skipped)} (e.g. {shown_url(first_url)}: "
                f"{short_title(first_reason, 160)})"
            )
        lines: list[str] = []
        # The header, the "Showing entries" line and the truncation note count too.
        used = sum(len(h) + 1 for h in header) + 120
        end = start
        for mapped in site.urls[start:]:
            title = short_title(mapped.title, MAX_TITLE_CHARS) if mapped.title else ""
            line = f"- {mapped.url}" + (f" — {title}" if title else "")
            if lines and used + len(line) + 1 > length:
                break
            lines.append(line)
            used += len(line) + 1
            end += 1
        if total:
            header.append(f"Showing entries {start + 1}–{end} of {total}")
        out = "\n".join(header) + ("\n\n" + "\n".join(lines) if lines else "")
        if end < total:
            out += f"\n\n[Truncated: call map_site with start_index={end} to continue]"
        return out

    # -- research and framework integration (see .research, .schemas) -----------------------
    def research(
        self, query: str, num_results: int = 5, fetch_top: int = 3, max_length: int = 12000
    ) -> str:
        """Search the web and read the top results in one step.

        Use it for a question that needs a few sources; use search_web and fetch_page instead
        to choose pages yourself. Long pages are cut to share the length budget fairly; each
        cut page says which start_index to pass to fetch_page to read on.

        Args:
            query: What to search for, written as you would type it into a search engine.
            num_results: How many search results to list, between 1 and 10.
            fetch_top: How many of the top results to read, between 0 and 10.
            max_length: The most characters to return in total, between 1000 and 50000.

        Returns:
            The results and the pages' content, or a line starting with "Error:" that says
            what went wrong and what to do next.
        """
        from .research import research

        return research(
            self.client, query, num_results=num_results, fetch_top=fetch_top, max_length=max_length
        )

    def schemas(
        self, format: str = "openai", *, strict: bool | None = None
    ) -> list[dict[str, Any]]:
        """The tools' definitions (:attr:`tool_names`) for ``"openai"``, ``"openai-responses"``,
        ``"anthropic"`` or ``"mcp"``; ``strict`` for OpenAI's strict mode (see
        :func:`webgrip.tools.schemas.tool_schemas`)."""
        from .schemas import tool_schemas

        return tool_schemas(self, format, strict=strict)

    def call(self, name: str, arguments: Any = None) -> str:
        """Run a model's tool call by name (``arguments``: dict or JSON string); never raises."""
        from .schemas import call_tool

        return call_tool(self, name, arguments)

    def register(self, decorator: Any) -> list[Any]:
        """Apply a framework's ``@tool`` decorator to each tool; returns what it returned."""
        from .schemas import register

        return register(self, decorator)


def _shown_part(text: str, chunk: str, start: int, end: int, extract: str) -> str:
    """The part ``text[start:end]`` as it is shown: for Markdown, a code fence cut by the
    part is closed at its end and reopened at the start of the next
    (:func:`~webgrip.page_builder.code_fences`), so each part reads as Markdown on its own. The
    text in between is the page's, character for character (the offsets count it)."""
    if extract != "markdown" or not chunk:
        return chunk
    from ..page_builder import code_fences

    reopen, close = code_fences(text, start, end)
    if close and chunk.endswith("\n"):
        close = close.lstrip("\n")  # the fence goes on its own line, not after a blank one
    return reopen + chunk + close


def _then(text: str, note: str) -> str:
    """``note`` after ``text`` with one blank line between, however many newlines ``text``
    ends with (a part cut after a paragraph ends with two): ``text`` is kept as it is."""
    ending = len(text) - len(text.rstrip("\n"))
    return text + "\n" * max(0, 2 - ending) + note


# -- module-level tools over a shared default ---------------------------------------------
_default: Tools | None = None
_default_lock = threading.Lock()


def default_tools() -> Tools:
    """The shared :class:`Tools` behind the module-level functions, built on first use from
    :meth:`Config.from_env` (so importing webgrip never builds a client)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Tools(Config.from_env())
        return _default


def _config_error(exc: Exception) -> str:
    return (
        f"Error: webgrip is misconfigured — {' '.join(str(exc).split())}. "
        "Fix the WEBGRIP_* environment variables and restart."
    )


def fetch_page(
    url: str,
    extract: ExtractMode = "markdown",
    max_length: int = 5000,
    start_index: int = 0,
    find: str | None = None,
    links: LinkStyle = "inline",
    max_age: int | None = None,
) -> str:
    try:
        tools = default_tools()
    except Exception as exc:
        return _config_error(exc)
    return tools.fetch_page(url, extract, max_length, start_index, find, links, max_age)


def search_web(query: str, num_results: int = 5) -> str:
    try:
        tools = default_tools()
    except Exception as exc:
        return _config_error(exc)
    return tools.search_web(query, num_results)


def download_file(
    url: str, save_to: str | None = None, filename: str | None = None, overwrite: bool = False
) -> str:
    try:
        tools = default_tools()
    except Exception as exc:
        return _config_error(exc)
    return tools.download_file(url, save_to, filename, overwrite)


fetch_page.__doc__ = Tools.fetch_page.__doc__
search_web.__doc__ = Tools.search_web.__doc__
download_file.__doc__ = Tools.download_file.__doc__
