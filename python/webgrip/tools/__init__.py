"""The agent-facing tools: :class:`Tools` (pages, searches and downloads as strings an agent
reads) and what carries them to agents.

- :mod:`.toolbox`: :class:`Tools` and the module-level ``fetch_page``, ``search_web``,
  ``download_file`` on a shared default instance; re-exported here, so
  ``from webgrip.tools import Tools`` works as before.
- :mod:`.schemas`: the tools' JSON schemas, argument checking and dispatch.
- :mod:`.research`: search, then read the best results (``Tools.research``).
- :mod:`.find`, :mod:`.citations`: what ``fetch_page`` does with a page's text for ``find=``
  (the passages around a phrase) and ``links=`` (links as numbered citations).
- :mod:`.mcp`, :mod:`.mcp_http`, :mod:`.mcp_wire`: the MCP server (stdio and streamable
  HTTP) and its hardened stdio wire.
- :mod:`.langchain`, :mod:`.gaia`: the tools for LangChain and for AMD GAIA agents.
"""

from __future__ import annotations

from ..messages import MAX_TITLE_CHARS, short_title
from .toolbox import (
    ExtractMode,
    Tools,
    default_tools,
    download_file,
    fetch_page,
    search_web,
)

__all__ = [
    "MAX_TITLE_CHARS",
    "ExtractMode",
    "Tools",
    "default_tools",
    "download_file",
    "fetch_page",
    "search_web",
    "short_title",
]
