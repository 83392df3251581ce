"""AMD GAIA integration (optional: ``pip install amd-gaia``): webgrip in place of GAIA's
``BrowserToolsMixin``, with GAIA's own tool names, signatures and conventions.

    from gaia.agents.base.agent import Agent
    from webgrip import Config
    from webgrip.tools.gaia import WebgripBrowserToolsMixin

    class MyAgent(Agent, WebgripBrowserToolsMixin):
        def _register_tools(self):
            self.register_webgrip_tools(config=Config())

The three tools take exactly the arguments GAIA's own take, with GAIA's defaults, so a prompt
or agent written for GAIA works unchanged:

- ``fetch_page(url, extract="text", max_length=5000, offset=0, find=None)``: ``offset`` is
  webgrip's ``start_index``; ``extract`` takes GAIA's choices (``text``, ``html``, ``links``,
  ``tables``) and webgrip's ``markdown``. The answer's first line is ``Page: <title>`` (what
  GAIA's UI reads), and its markers name ``offset``, not ``start_index``.
- ``search_web(query, num_results=5)``: a refused search (bot check, rate limit) answers with
  GAIA's ``rate_limited`` dict, which GAIA's loop waits out; after
  :data:`SEARCH_UNAVAILABLE_STREAK_LIMIT` refusals in a row, with a plain error dict instead.
- ``download_file(url, save_to="~/Downloads", filename=None)``: the folder goes through the
  agent's GAIA path validator (blocked folders, permission prompt) and GAIA's undo snapshot,
  as in GAIA's mixin; an existing file is never replaced (the download is refused, as GAIA
  does). webgrip's own guards still apply: the folder GAIA allowed is added to
  ``download_dirs`` for that one call, and no symlink or ``..`` is followed below it.

They are registered like GAIA's: ``@tool(atomic=True)`` into GAIA's registry. The names are
GAIA's own, and GAIA lets the last registration win silently, so an agent that also has GAIA's
``BrowserToolsMixin`` is refused (:class:`ToolConflictError`) instead of running whichever
was registered last; tools of the same names left in the registry by anything else are
replaced, with a :class:`RuntimeWarning` naming them.
"""

import os
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

from ..config import Config
from ..errors import SearchBlockedError
from ..messages import error_message
from .toolbox import Tools, default_tools

__all__ = [
    "SEARCH_RETRY_SECONDS",
    "SEARCH_UNAVAILABLE_STREAK_LIMIT",
    "TOOL_NAMES",
    "ToolConflictError",
    "WebgripBrowserToolsMixin",
    "gaia_answer",
]

_Tool = TypeVar("_Tool", bound=Callable[..., Any])

#: The tools registered, under GAIA's own names.
TOOL_NAMES = ("fetch_page", "search_web", "download_file")
#: The wait a refused search asks GAIA's loop for (webgrip's search names no retry time).
SEARCH_RETRY_SECONDS = 30.0
#: Refused searches in a row after which the ``rate_limited`` mark is dropped, so GAIA's
#: failure breaker can end a search loop that cannot recover (GAIA's own limit).
SEARCH_UNAVAILABLE_STREAK_LIMIT = 3

_EXTRACT = {
    "text": "text",
    "markdown": "markdown",
    "html": "html",
    "links": "links",
    "tables": "tables",
}
_STREAK_LOCK = threading.Lock()


class ToolConflictError(TypeError):
    """webgrip's tools and GAIA's ``BrowserToolsMixin`` were both put on one agent."""


class _Refused(Exception):
    """A download the GAIA side refused (name taken, blocked path, permission declined)."""


def gaia_answer(text: str) -> str:
    """webgrip's ``fetch_page`` answer in GAIA's words: ``Page:`` for ``Title:`` on the first
    line, and ``offset`` for ``start_index`` in the markers and errors (never in the page)."""
    if text.startswith("Error:"):
        return text.replace("start_index", "offset")
    head, sep, rest = text.partition("\n\n")
    if head.startswith("Title: "):
        head = "Page: " + head[len("Title: ") :]
    marks = (
        (
            "\n\n[Truncated: call fetch_page with start_index=",
            "\n\n[Truncated: call fetch_page with offset=",
        ),
        (
            "\n\n[To read on from a passage, call fetch_page with start_index set to its "
            "character.]",
            "\n\n[To read on from a passage, call fetch_page with offset set to its character.]",
        ),
        ("(start_index reads any part)", "(offset reads any part)"),
    )
    for old, new in marks:
        at = rest.rfind(old)
        if at >= 0:
            rest = rest[:at] + new + rest[at + len(old) :]
    more = rest.rfind("\n\n[More matches: call fetch_page with find=")
    if more >= 0:
        rest = rest[:more] + rest[more:].replace("start_index=", "offset=", 1)
    return head + sep + rest


def _human_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size} bytes"


def _inside(path: str, folders: tuple[str, ...]) -> bool:
    real = os.path.realpath(path)
    for folder in folders:
        root = os.path.realpath(os.path.expanduser(folder))
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def _remove_empty(folder: Path, top: Path) -> None:
    """Remove ``folder`` and its parents up to ``top`` while they are empty folders."""
    while True:
        try:
            os.rmdir(folder)
        except OSError:
            return
        if folder == top or folder.parent == folder:
            return
        folder = folder.parent


class WebgripBrowserToolsMixin:
    """GAIA's browser tools (``fetch_page``, ``search_web``, ``download_file``) run by webgrip.

    Add it to a GAIA agent and call :meth:`register_webgrip_tools` from ``_register_tools``,
    as GAIA's own mixins are used. Do not add GAIA's ``BrowserToolsMixin`` as well.
    """

    _webgrip_tools: Tools | None = None
    _search_unavailable_streak = 0

    def register_webgrip_tools(
        self, config: Config | None = None, *, tools: Tools | None = None
    ) -> None:
        """Register the three tools in GAIA's registry, ``@tool(atomic=True)`` as GAIA does.

        ``config`` builds this agent's :class:`~webgrip.tools.Tools`; ``tools`` passes one
        to share; with neither, the shared tools configured from ``WEBGRIP_*`` are used.
        Raises :class:`ToolConflictError` when the agent also has GAIA's ``BrowserToolsMixin``.
        """
        try:
            from gaia.agents.base.tools import _TOOL_REGISTRY, tool
        except ImportError as exc:
            raise ImportError("webgrip.tools.gaia needs GAIA: pip install amd-gaia") from exc
        try:
            from gaia.agents.tools.browser_tools import BrowserToolsMixin
        except ImportError:  # a GAIA without its own browser tools: nothing to clash with
            BrowserToolsMixin = None
        if BrowserToolsMixin is not None and isinstance(self, BrowserToolsMixin):
            raise ToolConflictError(
                f"{type(self).__name__} has both GAIA's BrowserToolsMixin and webgrip's "
                "WebgripBrowserToolsMixin: their tools share the names fetch_page, search_web "
                "and download_file, and GAIA keeps whichever registers last. Remove one of "
                "the two mixins."
            )
        if tools is not None:
            self._webgrip_tools = tools
        else:
            self._webgrip_tools = Tools(config) if config is not None else default_tools()

        registry = getattr(self, "_tools_registry", _TOOL_REGISTRY)
        foreign = sorted(
            name
            for name in TOOL_NAMES
            if name in registry
            and not getattr(registry[name].get("function"), "_webgrip_gaia", False)
        )
        if foreign:
            warnings.warn(
                f"replacing the tools already registered as {', '.join(foreign)} with "
                "webgrip's (GAIA's registry keeps the last registration)",
                RuntimeWarning,
                stacklevel=2,
            )

        mixin = self

        def atomic_tool(function: _Tool) -> _Tool:
            """``@tool(atomic=True)``, typed: GAIA ships no type information."""
            registered: _Tool = tool(atomic=True)(function)
            return registered

        @atomic_tool
        def fetch_page(
            url: str,
            extract: Literal["text", "markdown", "html", "links", "tables"] = "text",
            max_length: int = 5000,
            offset: int = 0,
            find: str | None = None,
        ) -> str:
            """Fetch a web page and return its readable content.

            Reads articles, docs, PDFs, JSON, CSV and plain text; does not run JavaScript.
            Long text ends with a marker naming the offset of the next part; to get one
            detail (a price, a spec) pass find instead of paging.

            Args:
                url: The full URL to fetch (must start with http:// or https://)
                extract: 'text' (readable content), 'markdown', 'html' (raw HTML), 'links'
                    (all links on page) or 'tables' (tables as JSON)
                max_length: Maximum characters to return (default: 5000, max: 20000)
                offset: Character offset to start from, to continue a long page
                find: Return only the passages containing this word or phrase, each with
                    its offset
            """
            return mixin._webgrip_fetch(url, extract, max_length, offset, find)

        @atomic_tool
        def search_web(query: str, num_results: int = 5) -> str | dict[str, Any]:
            """Search the web and return results with titles, URLs, and snippets.

            Returns titles, URLs and brief descriptions. Use fetch_page to read the full
            content of any result.

            Args:
                query: Search query string
                num_results: Number of results to return (default: 5, max: 10)
            """
            return mixin._webgrip_search(query, num_results)

        @atomic_tool
        def download_file(
            url: str, save_to: str = "~/Downloads", filename: str | None = None
        ) -> str:
            """Download a file from a URL to the local filesystem.

            Useful for documents, PDFs, CSVs, images or any file from the web; afterwards
            use read_file or index_document to process it. Never replaces a file that
            already exists: if the destination is taken the download fails, so pass
            filename= to choose a free name.

            Args:
                url: Direct URL to the file to download
                save_to: Local directory to save the file (default: ~/Downloads)
                filename: Override filename (default: derived from URL or Content-Disposition)
            """
            return mixin._webgrip_download(url, save_to, filename)

        for function in (fetch_page, search_web, download_file):
            # A mark on the function GAIA registered: functions have no declared attributes.
            function._webgrip_gaia = True  # type: ignore[union-attr]
        # An agent that snapshotted its registry before this call reads the snapshot.
        instance = getattr(self, "_instance_tools", None)
        if isinstance(instance, dict):
            for name in TOOL_NAMES:
                instance[name] = _TOOL_REGISTRY[name]

    def register_browser_tools(self) -> None:
        """GAIA's ``BrowserToolsMixin`` entry point, refused: this agent's browser tools are
        webgrip's (register them with :meth:`register_webgrip_tools`)."""
        raise ToolConflictError(
            "register_browser_tools() would replace webgrip's fetch_page, search_web and "
            "download_file with GAIA's (the last registration wins in GAIA). Use "
            "register_webgrip_tools() only, or remove WebgripBrowserToolsMixin."
        )

    # -- the tool bodies -------------------------------------------------------------------
    def _webgrip(self) -> Tools:
        if self._webgrip_tools is None:
            self._webgrip_tools = default_tools()
        return self._webgrip_tools

    def _webgrip_fetch(
        self, url: Any, extract: Any, max_length: Any, offset: Any, find: Any
    ) -> str:
        mode = extract
        if isinstance(extract, str):
            mode = _EXTRACT.get(extract.strip().lower(), extract)
        tools = self._webgrip()
        return gaia_answer(tools.fetch_page(url, mode, max_length, offset, find))

    def _webgrip_search(self, query: Any, num_results: Any) -> str | dict[str, Any]:
        tools = self._webgrip()
        try:
            text = tools._search_web(query, num_results)
        except SearchBlockedError as exc:
            return self._webgrip_search_refused(error_message(exc, url=query, action="searching"))
        except Exception as exc:
            return error_message(exc, url=query, action="searching", timeout=tools.config.timeout)
        with _STREAK_LOCK:
            self._search_unavailable_streak = 0
        return text

    def _webgrip_search_refused(self, message: str) -> dict[str, Any]:
        """GAIA's answer to a refused search (``browser_tools._search_unavailable_result``)."""
        with _STREAK_LOCK:
            streak = self._search_unavailable_streak + 1
            self._search_unavailable_streak = streak
        cause = message.removeprefix("Error: ")
        if streak >= SEARCH_UNAVAILABLE_STREAK_LIMIT:
            return {
                "status": "error",
                "error": (
                    f"Web search is temporarily unavailable: {cause} {streak} searches "
                    "in a row were refused, so stop calling search_web for now."
                ),
                "retryable": False,
                "hint": (
                    "Call fetch_page on a URL you already know (an official site, "
                    "documentation page or Wikipedia article), or answer with what you "
                    "have and say web search was unavailable. Do not invent search "
                    "results."
                ),
            }
        return {
            "status": "error",
            "error": f"Web search is temporarily unavailable: {cause}",
            "rate_limited": True,
            "wait_time_seconds": SEARCH_RETRY_SECONDS,
            "retryable": True,
            "hint": (
                "Try search_web again shortly, with a narrower query, or call fetch_page "
                "on a URL you already know. Do not invent search results."
            ),
        }

    def _webgrip_validator(self) -> Any:
        """The agent's GAIA path validator, found as GAIA's agent finds it (or None)."""
        validator = getattr(self, "path_validator", None)
        return validator if validator is not None else getattr(self, "_path_validator", None)

    def _webgrip_download(self, url: Any, save_to: Any, filename: Any) -> str:
        from gaia.agents.base.file_snapshots import before_change

        from ..client import WebClient

        tools = self._webgrip()
        if save_to is None or (isinstance(save_to, str) and not save_to.strip()):
            save_to = "~/Downloads"
        if not isinstance(save_to, str):
            return f"Error: save_to must be a folder path, got {type(save_to).__name__}."
        validator = self._webgrip_validator()
        client, folder = tools.client, save_to
        ask_per_file = False
        made: Path | None = None
        if validator is not None:
            # GAIA's flow: a blocked folder (/etc, ~/.ssh, ...) is refused before any request,
            # and the folder is asked about whole when it can be granted whole (one approval
            # covers later downloads); else (e.g. ~) each file is, once its name is known.
            resolved = str(Path(save_to).expanduser().resolve())
            blocked, reason = validator.is_write_blocked(resolved)
            if blocked:
                return f"Error: {reason}"
            ask_per_file = bool(validator.grant_refusal_reason(resolved))
            if not ask_per_file and not validator.is_path_allowed(resolved, prompt_user=True):
                return f"Error: {validator.access_denied_message(resolved)}"
            folder = resolved
            # The folders this call will create: removed again (when empty) if it fails, as
            # GAIA creates none for a refused download.
            created = Path(resolved)
            while not created.parent.exists() and created.parent != created:
                created = created.parent
            if not created.exists():
                made = created
            if not _inside(resolved, tools.config.download_dirs):
                # The folder GAIA allowed joins download_dirs for this call only; webgrip's
                # checks below it (no symlink, no "..", depth, temp file) all still apply.
                config = tools.config.replace(download_dirs=(*tools.config.download_dirs, resolved))
                client = WebClient(config, limiter=tools.client._limiter)

        def screen(path: str) -> None:
            # Called with the final path before the file takes it: refusing leaves nothing.
            if os.path.lexists(path):
                raise _Refused(
                    f"Refusing to overwrite existing file: {path}. Pass an explicit "
                    "filename= to download under a different name."
                )
            if validator is not None:
                blocked, reason = validator.is_write_blocked(path)
                if blocked:
                    raise _Refused(f"Downloaded file blocked by security policy: {reason}")
                if ask_per_file and not validator.is_path_allowed(path, prompt_user=True):
                    raise _Refused(validator.access_denied_message(path))
            try:
                before_change(path, "download_file")
            except Exception as exc:  # GAIA's undo could not keep a copy: do not write
                raise _Refused(f"Could not record the change for undo: {exc}") from exc

        try:
            try:
                name = None if filename is None or filename == "" else filename
                if name is not None and not isinstance(name, str):
                    raise ValueError(f"filename must be a string, got {type(name).__name__}")
                result = client.download(url, save_to=folder, filename=name, on_path=screen)
            finally:
                if client is not tools.client:
                    client.close()
        except Exception as exc:
            if made is not None:
                _remove_empty(Path(folder), made)
            if isinstance(exc, _Refused):
                return f"Error: {exc}"
            return error_message(exc, url=url, action="downloading", timeout=tools.config.timeout)
        lines = [
            f"Downloaded: {os.path.basename(result.path)}",
            f"  Saved to: {result.path}",
            f"  Size: {_human_size(result.size)}",
            f"  Type: {result.content_type or 'unknown'}",
            f"  SHA-256: {result.sha256}",
        ]
        if result.renamed:
            lines.append("  Note: that name was taken meanwhile, so a new name was used.")
        return "\n".join(lines) + "\n\nUse read_file or index_document to process this file."
