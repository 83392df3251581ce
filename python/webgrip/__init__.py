"""webgrip: safe, fast hands on the web for AI agents."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("webgrip")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"

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
    WebgripError,
)

__all__ = [
    "BlockedURLError",
    "Config",
    "ConnectError",
    "DownloadError",
    "FetchTimeoutError",
    "HTTPStatusError",
    "InvalidURLError",
    "ResponseTooLargeError",
    "SearchBlockedError",
    "SearchError",
    "WebgripError",
    "__version__",
]
