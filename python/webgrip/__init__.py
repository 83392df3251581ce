"""webgrip: safe, fast hands on the web for AI agents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__
from .client import WebClient, check_url
from .config import Config
from .errors import (
    BlockedURLError,
    ConnectError,
    DownloadError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidURLError,
    ResponseTooLargeError,
    SearchBlockedError,
    SearchError,
    UnsupportedContentError,
    WebgripError,
)
from .extract import extract
from .page import Download, Page
from .pdf import extract_pdf
from .response import Response
from .tools import Tools, download_file, fetch_page, search_web

__all__ = [
    "AsyncTools",
    "AsyncWebClient",
    "BlockedURLError",
    "Config",
    "ConnectError",
    "Download",
    "DownloadError",
    "FetchTimeoutError",
    "HTTPStatusError",
    "InvalidURLError",
    "Page",
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
    "download_file",
    "extract",
    "extract_pdf",
    "fetch_page",
    "search_web",
]

if TYPE_CHECKING:
    from .aio import AsyncTools, AsyncWebClient


def __getattr__(name: str) -> Any:
    # The asyncio front-ends are imported on first use: asyncio alone is about a quarter of
    # the package's import time, and synchronous callers never need it.
    if name in ("AsyncTools", "AsyncWebClient"):
        from . import aio

        return getattr(aio, name)
    raise AttributeError(f"module 'webgrip' has no attribute {name!r}")
