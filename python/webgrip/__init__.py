"""webgrip: safe, fast hands on the web for AI agents."""

from __future__ import annotations

from ._version import __version__
from .errors import (
    BlockedURLError,
    ChallengeError,
    ConnectError,
    DownloadError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidURLError,
    ProxyError,
    RenderError,
    ResponseTooLargeError,
    SearchBlockedError,
    SearchError,
    UnsupportedContentError,
    WebgripError,
)

# Eager, unlike the rest: the function must shadow the submodule of the same name, which
# any import of ``webgrip.extract`` binds here (a lazy name would then never be looked up).
from .extract import extract

__all__ = [
    "AsyncTools",
    "AsyncWebClient",
    "BlockedURLError",
    "ChallengeError",
    "Config",
    "ConnectError",
    "Download",
    "DownloadError",
    "FetchTimeoutError",
    "HTTPStatusError",
    "InvalidURLError",
    "Page",
    "ProxyError",
    "RenderError",
    "Response",
    "ResponseTooLargeError",
    "SearchBlockedError",
    "SearchError",
    "Tools",
    "UnsupportedContentError",
    "WebClient",
    "WebgripError",
    "__version__",
    "check_url",
    "crawl",
    "download_file",
    "extract",
    "extract_pdf",
    "fetch_page",
    "is_script_shell",
    "map_site",
    "search_web",
]

# Not typing.TYPE_CHECKING: importing typing (with re, collections...) would cost more than
# the rest of this module; type checkers treat any constant named TYPE_CHECKING alike.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .aio import AsyncTools, AsyncWebClient
    from .client import WebClient, check_url, map_site
    from .config import Config
    from .page import Download, Page
    from .pdf import extract_pdf
    from .response import Response
    from .sites.crawl import crawl
    from .tools import Tools, download_file, fetch_page, search_web


def is_script_shell(html: str | bytes) -> bool:
    """Whether an HTML page is an app shell its scripts build, so that reading it needs a
    browser: what ``render="auto"`` asks of every HTML page it fetches.

    Both must hold: the page's readable text (its main content, as ``extract(...,
    mode="text", main_content=True)`` gives it) is at most ``_core.SHELL_MAX_CHARS``
    characters, and its HTML has scripts (``<script src>``, a module script, a module
    preload or an inline boot script) with a root they fill: an app root element still
    empty (``id="root"``, ``"app"``, ``"__next"``, ..., ``<app-root>``, ``ng-version``,
    ``data-reactroot``, ``v-scope``; a root holding server-rendered text does not count), a
    custom element as the body's first element, a ``<noscript>`` asking for JavaScript, a
    body with nothing besides scripts, or only a short placeholder line ("Loading...") on a
    page that boots as an ES module app. The HTML test is one linear pass in the core
    (``_core.script_shell_reason`` tells which reason held).

    >>> is_script_shell('<div id="root"></div><script src="/main.js"></script>')
    True
    >>> is_script_shell("<h1>Hello</h1><p>A page.</p><script src=/a.js></script>")
    False
    """
    from . import _core

    if not isinstance(html, (str, bytes)):
        raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
    raw = html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html
    if _core.script_shell_reason(raw) is None:
        return False
    doc = _core.extract_document(html, modes=("text",), main_content=True)
    return len(doc["text"].strip()) <= _core.SHELL_MAX_CHARS


# Where each lazily imported public name lives. ``import webgrip`` loads only the core, the
# errors and ``extract``; the client, the tools and the value classes (dataclasses, hence
# ``inspect``) load on first use, the asyncio front-ends too (asyncio alone is about a quarter
# of the package's import time). ``from webgrip import Tools`` works as before.
_LAZY = {
    "AsyncTools": "aio",
    "AsyncWebClient": "aio",
    "Config": "config",
    "Download": "page",
    "Page": "page",
    "Response": "response",
    "Tools": "tools",
    "WebClient": "client",
    "check_url": "client",
    "crawl": "sites.crawl",
    "download_file": "tools",
    "extract_pdf": "pdf",
    "fetch_page": "tools",
    "map_site": "client",
    "search_web": "tools",
}


def __getattr__(name: str) -> Any:
    import importlib  # here: ``import webgrip`` itself has no use for it (nor for warnings)

    module = _LAZY.get(name)
    if module is None:
        # ``webgrip.client``, ``webgrip.tools``...: submodules stay reachable as attributes,
        # as when the package imported them all eagerly.
        if not name.startswith("__"):
            try:
                return importlib.import_module(f".{name}", __name__)
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{name}":
                    raise
        raise AttributeError(f"module 'webgrip' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
