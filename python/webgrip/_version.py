"""The installed package's version, kept apart so any module can read it without importing
the package's public face (``webgrip/__init__.py`` imports nearly everything)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("webgrip")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"
