"""LangChain adapter (optional extra ``webgrip[langchain]``): the tools as ``StructuredTool``\\ s.

    from webgrip.tools.langchain import langchain_tools
    agent_tools = langchain_tools()          # or langchain_tools(Tools(config))

Each tool carries exactly the schema of :func:`webgrip.tools.schemas.tool_schemas` (enums, bounds,
defaults), and calls go through :func:`webgrip.tools.schemas.call_tool`, so invalid arguments come
back as ``Error: ...`` text instead of exceptions. Without the adapter,
``Tools().register(langchain_core.tools.tool)`` also works.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .schemas import call_tool, tool_specs
from .toolbox import default_tools

__all__ = ["langchain_tools"]


def langchain_tools(tools: Any = None, *, names: tuple[str, ...] | None = None) -> list[Any]:
    """``StructuredTool`` objects for ``tools`` (default: a :class:`~webgrip.tools.Tools`
    configured from the environment)."""
    try:
        from langchain_core.tools import StructuredTool
    except ImportError as exc:
        raise ImportError(
            "the LangChain adapter needs langchain-core: pip install 'webgrip[langchain]'"
        ) from exc
    if tools is None:
        tools = default_tools()

    def runner(name: str) -> Callable[..., str]:
        return lambda **arguments: call_tool(tools, name, arguments, names=names)

    return [
        StructuredTool.from_function(
            func=runner(spec.name),
            name=spec.name,
            description=spec.description,
            args_schema=dict(spec.parameters),
        )
        for spec in tool_specs(tools, names)
    ]
