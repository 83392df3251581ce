"""Fetch many pages at once: a thread pool over one client, results in input order.

The Rust core releases the GIL for the whole network transfer and the HTML conversion, so
threads give real parallelism here. Politeness is unaffected: the per-host rate limit lives in
the shared :class:`~webgrip.client.WebClient`, so eight threads fetching from one host are
still spaced ``rate_limit_seconds`` apart, while different hosts proceed in parallel.

A single call fails at once when its host's next rate-limit slot lies past its deadline (the
host's queue is longer than ``timeout``, or a ``Retry-After`` holds it): a
:class:`~webgrip.errors.FetchTimeoutError` with ``retry_in`` set. In a batch that only means
"not yet": nothing was sent, so the URL waits for the slot and is fetched then, for up to
``max_host_wait`` seconds per URL. A batch's call books only a slot that leaves it half of
``timeout`` for the request (:func:`webgrip.ratelimit.queued_calls`): when more threads want a
host than its queue holds, the free slots are all at the queue's far end.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, Protocol, TypeVar

from .._cancel import CancelToken, cancel_scope
from ..errors import FetchTimeoutError, HTTPStatusError, WebgripError
from ..page import EXTRACT_MODES, Page
from ..ratelimit import queued_calls
from .politeness import MAX_HOLD_SECONDS

__all__ = [
    "EMPTY",
    "MAX_HOST_WAIT_SECONDS",
    "RESULTS_PER_THREAD",
    "ROW_COLUMNS",
    "PageFetcher",
    "fetch_each",
    "fetch_many",
    "fetch_rows",
    "result_row",
]

#: How long one URL of a batch waits, at most, for its host's rate-limit slot: the longest
#: ``Retry-After`` hold (an hour) plus ten minutes of queue. Past it the URL's result is that
#: ``timeout`` error.
MAX_HOST_WAIT_SECONDS = MAX_HOLD_SECONDS + 600.0

#: The ``error_kind`` of a page fetched whole whose view holds nothing (:func:`result_row`).
EMPTY = "empty"
#: What an empty view means, per view (the agent tools' wording).
_EMPTY_VIEW = {
    "markdown": "no readable text was found on this page",
    "text": "no readable text was found on this page",
    "html": "the page is empty",
    "links": "no links were found on this page",
    "tables": "no tables were found on this page",
}

#: The columns a fetched URL gains as a table row (:func:`result_row`), besides its ``url``.
ROW_COLUMNS = (
    "final_url",
    "status",
    "title",
    "content",
    "content_type",
    "extract",
    "render_reason",
    "error_kind",
    "error",
)


class PageFetcher(Protocol):
    """What a batch needs of a client: :meth:`WebClient.fetch <webgrip.client.WebClient.fetch>`."""

    def fetch(self, url: str, *, extract: str = ..., main_content: bool | None = ...) -> Page: ...


def fetch_many(
    client: PageFetcher,
    urls: Iterable[str],
    *,
    extract: str = "markdown",
    main_content: bool | None = None,
    concurrency: int = 8,
    max_host_wait: float = MAX_HOST_WAIT_SECONDS,
) -> list[Page | WebgripError]:
    """Fetch every URL with ``client.fetch``; return a :class:`Page` or the error, in order.

    One failing URL never affects the others: its slot holds the
    :class:`~webgrip.errors.WebgripError` it raised (an unexpected exception is wrapped in
    one with ``reason="internal"``). ``concurrency`` bounds the threads used.

    A URL whose host's rate-limit slot lies past the call's deadline (a
    :class:`~webgrip.errors.FetchTimeoutError` with ``retry_in`` set: nothing was sent) is
    not a result yet: its thread sleeps until that slot and fetches it again, for up to
    ``max_host_wait`` seconds in all (default :data:`MAX_HOST_WAIT_SECONDS`, enough for a
    host held by the longest ``Retry-After``); only then is that error its result. While it
    waits, the thread fetches nothing else.
    """
    _check_options(extract, concurrency, max_host_wait)
    todo = list(urls)
    if not todo:
        return []

    def one(url: str) -> Page | WebgripError:
        result = _fetch_one(client, url, extract, main_content, max_host_wait)
        assert result is not None  # only a stop event makes it None
        return result

    if len(todo) == 1 or concurrency == 1:
        return [one(u) for u in todo]
    with ThreadPoolExecutor(
        max_workers=min(concurrency, len(todo)), thread_name_prefix="webgrip-batch"
    ) as pool:
        return list(pool.map(one, todo))


def _check_options(extract: str, concurrency: int, max_host_wait: float) -> None:
    if extract not in EXTRACT_MODES:  # a usage error, not a per-URL failure
        raise ValueError(f"extract must be one of {', '.join(EXTRACT_MODES)}; got {extract!r}")
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    if not max_host_wait >= 0:  # also refuses NaN
        raise ValueError("max_host_wait must be at least 0 seconds")


def _fetch_one(
    client: PageFetcher,
    url: str,
    extract: str,
    main_content: bool | None,
    max_host_wait: float,
    stop: threading.Event | None = None,
    on_wait: Callable[[int], None] | None = None,
) -> Page | WebgripError | None:
    """One URL of a batch (see :func:`fetch_many`); ``None`` when ``stop`` was set while it
    waited for its host's slot (nothing was sent: not an outcome)."""
    give_up = time.monotonic() + max_host_wait
    while True:
        try:
            # A slot in the latter half of the call is not taken: the URL waits for a
            # better one instead of being sent with no time left to answer.
            with queued_calls():
                return client.fetch(url, extract=extract, main_content=main_content)
        except FetchTimeoutError as exc:
            if exc.retry_in is None:  # a real timeout: something was sent
                return exc
            # Until the slot seen when failing: the threads still booking keep the host
            # busy meanwhile, so asking no sooner loses none of its rate.
            pause = max(0.05, exc.retry_in)
            if time.monotonic() + pause > give_up:
                return exc
            if stop is None:
                time.sleep(pause)
                continue
            if on_wait is not None:
                on_wait(1)
            try:
                if stop.wait(pause):
                    return None
            finally:
                if on_wait is not None:
                    on_wait(-1)
        except WebgripError as exc:
            return exc
        except Exception as exc:  # keep the batch going; the caller sees it in this slot
            err = WebgripError(f"unexpected error: {exc}", url=url, reason="internal")
            err.__cause__ = exc
            return err


_T = TypeVar("_T")

#: Finished results a pool holds, per thread, for a consumer that has not read them yet.
#: Two: each thread can leave the page it just finished and fetch the next while the consumer
#: handles one, so a consumer about as fast as the fetches never holds them back; a slower
#: one (a caller writing each page to disk) holds them back instead of letting finished pages
#: pile up in memory. Each thread may hold one more in its hand while it waits for room.
RESULTS_PER_THREAD = 2


class _WorkerDone:
    """What a worker thread of :func:`worker_results` puts last."""


class _Handoff(Generic[_T]):
    """The results of a pool's threads on their way to its one consumer, in the order put.

    Bounded while the consumer reads: :meth:`put` waits for room, so the threads fetch at the
    consumer's pace. The bound is lifted once the pool winds down (``stop`` set, ``token``
    cancelled): the consumer still reads what the threads finish then (the URLs in flight
    finish and are yielded), and no thread may wait on room that a consumer which stopped
    reading will never make. Once the consumer is gone (:meth:`close`), :meth:`put` drops its
    result and returns at once.

    Not a ``queue.Queue``, because its bound cannot be lifted, but its waits are the same
    ``Condition`` waits: CPython's C ``SimpleQueue.get(timeout=...)`` (3.11 here), when a signal
    handler that ran during its wait returns after the timeout has passed, waits on with a
    negative timeout, i.e. for ever, until the next put (Ctrl-C in `webgrip batch` then waited
    for a request in flight to time out). A lock's timed wait checks for that.
    """

    def __init__(self, bound: int, stop: threading.Event, token: CancelToken, poll: float) -> None:
        self._items: deque[_T] = deque()
        self._bound = max(1, bound)
        self._stop = stop
        self._token = token
        self._poll = poll
        self._closed = False
        lock = threading.Lock()
        self._arrived = threading.Condition(lock)  # the consumer waits here for an item
        self._room = threading.Condition(lock)  # the threads wait here for room

    def _winding_down(self) -> bool:
        return self._stop.is_set() or self._token.cancelled

    def put(self, item: _T) -> None:
        """Hand ``item`` over, waiting while the consumer has ``bound`` items unread."""
        with self._room:
            while len(self._items) >= self._bound and not self._closed and not self._winding_down():
                # A stop or a cancel is set by others, who cannot wake this wait: it looks
                # again every ``poll`` seconds. The consumer's read or close wakes it at once.
                self._room.wait(self._poll)
            self._append(item)

    def put_last(self, item: _T) -> None:
        """Hand ``item`` over without waiting for room (a thread's last word)."""
        with self._room:
            self._append(item)

    def _append(self, item: _T) -> None:
        if not self._closed:  # else nobody will read it
            self._items.append(item)
            self._arrived.notify()

    def get(self, timeout: float) -> _T:
        """The next item, waiting up to ``timeout`` seconds; ``queue.Empty`` if none came."""
        with self._arrived:
            # As queue.Queue.get: a wait cut short by a signal goes on for what is left.
            deadline = time.monotonic() + timeout
            while not self._items:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise queue.Empty
                self._arrived.wait(left)
            item = self._items.popleft()
            self._room.notify()
            return item

    def close(self) -> None:
        """The consumer is gone: drop what it did not read and release every waiting put."""
        with self._room:
            self._closed = True
            self._items.clear()
            self._room.notify_all()


def worker_results(
    work: Callable[[Callable[[_T], None]], None],
    count: int,
    name: str,
    token: CancelToken,
    poll: float,
    stop: threading.Event,
) -> Generator[_T | None, None, None]:
    """Run ``work(put)`` on ``count`` daemon threads (``{name}-{number}``), each under the
    cancel ``token``, and yield every result they ``put`` as it comes: ``None`` after every
    ``poll`` seconds without one, so that the caller can draw progress and react to a stop,
    until every thread has returned. A batch's and a crawl's threads run through this.

    ``work`` returns once ``stop`` is set (it starts nothing more). ``put`` waits while
    :data:`RESULTS_PER_THREAD` results a thread are unread (backpressure: a slow consumer holds
    the threads back), except once ``stop`` is set or ``token`` cancelled. When this generator
    is closed (the caller left its loop, or dropped it), ``stop`` is set and every ``put``
    returns at once, dropping its result: no thread is left waiting for a reader."""
    results: _Handoff[_T | _WorkerDone] = _Handoff(count * RESULTS_PER_THREAD, stop, token, poll)

    def thread() -> None:
        try:
            with cancel_scope(token):
                work(results.put)
        finally:
            results.put_last(_WorkerDone())

    try:
        for number in range(count):
            threading.Thread(target=thread, name=f"{name}-{number}", daemon=True).start()
        running = count
        while running:
            try:
                item = results.get(timeout=poll)
            except queue.Empty:
                yield None
                continue
            if isinstance(item, _WorkerDone):
                running -= 1
            else:
                yield item
    finally:
        stop.set()  # start nothing more, then release the threads waiting for room
        results.close()


def fetch_each(
    client: PageFetcher,
    urls: Iterable[str],
    *,
    extract: str = "markdown",
    main_content: bool | None = None,
    concurrency: int = 8,
    max_host_wait: float = MAX_HOST_WAIT_SECONDS,
    stop: threading.Event | None = None,
    cancel: CancelToken | None = None,
    on_wait: Callable[[int], None] | None = None,
    poll: float = 0.1,
) -> Generator[tuple[int, Page | WebgripError] | None, None, None]:
    """:func:`fetch_many` yielding each URL's ``(index, result)`` as soon as it is done.

    Between results it yields ``None`` every ``poll`` seconds, so that the caller can draw
    progress and react to a stop. Setting ``stop`` starts no further URL and ends the waits
    for a host's slot (those URLs are not yielded: nothing was sent); the URLs in flight
    still finish and are yielded, after which the iteration ends. ``cancel`` is the cancel
    token of every fetch (cancelling it stops the page conversions in flight, whose results
    are then ``FetchTimeoutError`` with reason ``cancelled``). ``on_wait(+1/-1)`` is called
    when a URL starts and stops waiting for its host's slot.

    The threads go at the caller's pace: at most :data:`RESULTS_PER_THREAD` finished pages a
    thread wait unread (plus the one each thread holds while it waits for room), so a caller
    slower than the fetches holds them back instead of letting pages pile up in memory; once
    ``stop`` is set or ``cancel`` cancelled, the URLs in flight no longer wait for room.
    The threads are daemon threads: a caller that stops iterating (Ctrl-C) does not wait for
    the requests in flight, and neither does the interpreter when it exits; closing the
    generator (``close()``, or its last reference dropped: a ``break`` out of ``for item in
    fetch_each(...)``) sets ``stop``, and each thread ends once its request in flight does,
    its result dropped.
    """
    _check_options(extract, concurrency, max_host_wait)
    todo = list(urls)
    stop = stop if stop is not None else threading.Event()
    token = cancel if cancel is not None else CancelToken()
    lock = threading.Lock()
    upcoming = iter(range(len(todo)))

    def work(put: Callable[[tuple[int, Page | WebgripError | None]], None]) -> None:
        while not stop.is_set():
            with lock:
                i = next(upcoming, None)
            if i is None:
                break
            put(
                (
                    i,
                    _fetch_one(
                        client, todo[i], extract, main_content, max_host_wait, stop, on_wait
                    ),
                )
            )

    workers = min(concurrency, len(todo))
    results = worker_results(work, workers, "webgrip-batch", token, poll, stop)
    try:
        for item in results:
            if item is None:
                yield None
            elif item[1] is not None:
                yield item[0], item[1]
    finally:
        results.close()  # also when the caller stops iterating: start nothing more


def result_row(result: Page | WebgripError, extract: str | None = None) -> dict[str, Any]:
    """One URL's outcome as a flat row of :data:`ROW_COLUMNS` (for Parquet, Ray datasets).

    ``extract`` is the view asked for (a page's own :attr:`Page.extract
    <webgrip.page.Page.extract>` wins), so a folder of rows says what its content is.
    A page fills the first six, ``render_reason`` when it was rendered in the browser (why:
    ``"always"``, the shell's reason, a challenge kind; :attr:`Page.render_reason
    <webgrip.page.Page.render_reason>`), and leaves ``error_kind``/``error`` ``None``; a failure
    leaves the page columns ``None`` (``status`` kept for an HTTP error) and gives the error's
    ``reason`` (e.g. ``private-address``, ``http-404``, ``timeout``; the class name when it
    has none) and message. A page whose view is empty (no readable text, no links, no tables)
    is a failure too, ``error_kind`` :data:`EMPTY`, keeping its ``final_url``, ``status``,
    ``title`` and ``content_type`` but no ``content``.
    """
    if isinstance(result, Page) and not (result.content or "").strip():
        # Nothing to store: a failure row, so that a folder holds no empty files and the
        # summary counts it; the page's address, status and title stay for a look.
        return {
            "final_url": result.final_url,
            "status": result.status,
            "title": result.title,
            "content": None,
            "content_type": result.content_type,
            "extract": result.extract,
            "render_reason": result.render_reason,
            "error_kind": EMPTY,
            "error": f"{_EMPTY_VIEW.get(result.extract, _EMPTY_VIEW['html'])} ({result.url})",
        }
    if isinstance(result, Page):
        return {
            "final_url": result.final_url,
            "status": result.status,
            "title": result.title,
            "content": result.content,
            "content_type": result.content_type,
            "extract": result.extract,
            "render_reason": result.render_reason,
            "error_kind": None,
            "error": None,
        }
    status = result.status if isinstance(result, HTTPStatusError) else None
    return {
        "final_url": None,
        "status": status,
        "title": None,
        "content": None,
        "content_type": None,
        "extract": extract,
        "render_reason": None,
        "error_kind": result.reason or type(result).__name__,
        "error": str(result),
    }


def fetch_rows(client: PageFetcher, urls: Iterable[str], **options: Any) -> list[dict[str, Any]]:
    """:func:`fetch_many` with each outcome as a :func:`result_row`, in input order."""
    extract = options.get("extract", "markdown")
    return [result_row(r, extract) for r in fetch_many(client, urls, **options)]
