"""The package's version, kept apart so any module can read it without importing the
package's public face (``webgrip/__init__.py`` imports nearly everything).

It is the native core's: maturin takes the wheel's version from the same ``Cargo.toml``, so
the two cannot differ, and reading it costs nothing (``importlib.metadata`` took about 15 ms
of every import).
"""

from __future__ import annotations

from ._core import __version__

__all__ = ["__version__"]
