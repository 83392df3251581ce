"""``webgrip.langchain``, kept as an import path: the tools as LangChain tools, now in
:mod:`webgrip.tools.langchain`. Its public names are re-exported here, so ``from
webgrip.langchain import ...`` works as before; code inside the package imports
:mod:`webgrip.tools.langchain` itself.
"""

from __future__ import annotations

from .tools.langchain import (
    langchain_tools,
)

__all__ = [
    "langchain_tools",
]
