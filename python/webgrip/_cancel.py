"""The cancel token of the call running in this thread or task.

Why a context variable: cancellation starts far above the code that parses (an asyncio task
or an MCP request is cancelled while its worker thread converts a page), and threading a
token through every signature in between would put it in the public API. The worker sets the
token around its call (:func:`cancel_scope`); the conversion reads it (:func:`current`) and
hands it to the core, which stops within a few milliseconds once it is cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from typing import TypeVar

from . import _core

__all__ = ["CancelToken", "cancel_scope", "current", "run_interruptibly"]

_T = TypeVar("_T")
#: How often the waiting thread wakes: a signal delivered to another thread (the kernel may
#: pick any) is only handled once the main thread runs Python again.
_WAKE_SECONDS = 0.1

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


def run_interruptibly(work: Callable[[], _T], token: _core.CancelToken | None = None) -> _T:
    """``work()`` on a daemon thread inside a :func:`cancel_scope` of ``token`` (a new one by
    default), waited for here in short steps so that ``KeyboardInterrupt`` (Ctrl-C in the
    main thread) is raised at once rather than when a socket read in the core returns.

    On any exception raised while waiting, the token is cancelled first (the conversions,
    renders and downloads polling it stop) and the exception propagates without waiting for
    ``work``, which may still be blocked in the network: a daemon thread does not keep the
    process alive. ``work``'s own result or exception is returned or raised as usual."""
    token = CancelToken() if token is None else token
    done = threading.Event()
    outcome: list[_T] = []
    failure: list[BaseException] = []
    context = copy_context()  # the caller's context variables, as a direct call would see

    def run() -> None:
        try:
            with cancel_scope(token):
                outcome.append(work())
        except BaseException as exc:  # handed to the waiting thread
            failure.append(exc)
        finally:
            done.set()

    threading.Thread(target=context.run, args=(run,), name="webgrip-call", daemon=True).start()
    try:
        while not done.wait(_WAKE_SECONDS):
            pass
    except BaseException:
        token.cancel()
        raise
    if failure:
        raise failure[0]
    return outcome[0]
