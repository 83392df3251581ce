"""The cancel token of the call running in this thread or task.

Why a context variable: cancellation starts far above the code that parses (an asyncio task
or an MCP request is cancelled while its worker thread converts a page), and threading a
token through every signature in between would put it in the public API. The worker sets the
token around its call (:func:`cancel_scope`); the conversion reads it (:func:`current`) and
hands it to the core, which stops within a few milliseconds once it is cancelled.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from . import _core

__all__ = ["CancelToken", "cancel_scope", "current"]

CancelToken = _core.CancelToken

_current: ContextVar[_core.CancelToken | None] = ContextVar("webgrip_cancel", default=None)


@contextmanager
def cancel_scope(token: _core.CancelToken) -> Iterator[_core.CancelToken]:
    """Make ``token`` the cancel token of the work done inside the ``with`` block."""
    reset = _current.set(token)
    try:
        yield token
    finally:
        _current.reset(reset)


def current() -> _core.CancelToken | None:
    """The token set by the innermost :func:`cancel_scope`, if any."""
    return _current.get()
