"""asyncio front-ends: :class:`AsyncWebClient` and :class:`AsyncTools`.

Every method is the synchronous one run on a bounded pool of worker threads. That costs no
parallelism: the Rust core releases the GIL for the whole transfer and conversion, so the
event loop keeps running and several calls proceed at once (up to ``max_workers``).

Cancellation. Cancelling the task that awaits a call returns control at once (the
``CancelledError`` propagates as usual). The worker thread cannot be interrupted mid-call, so
it is *abandoned*: it runs on in the background, bounded by the call's own deadline
(``Config.timeout``; a download's body by its stall rule instead, and its progress callback
runs at least once a second while bytes arrive), then returns to the pool; no thread is
created per call, so abandoned calls cannot pile up threads. A page being converted stops
within milliseconds (the worker's cancel token reaches the core's parser). A download is
also stopped early (its progress callback raises in the worker, which makes the core delete
its temp file) and, should it finish anyway, the file it saved is deleted: a cancelled
download leaves nothing on disk once its worker has ended. :meth:`AsyncWebClient.aclose`
waits for abandoned workers to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from ._cancel import CancelToken, cancel_scope
from .client import WebClient
from .config import Config
from .errors import FetchTimeoutError, WebgripError
from .page import Download, Page
from .response import Response
from .tools.citations import LinkStyle
from .tools.schemas import register_async
from .tools.toolbox import Tools

if TYPE_CHECKING:
    from .sites.crawl import CrawlResult
    from .sites.mapping import SiteMap

__all__ = ["AsyncTools", "AsyncWebClient", "DownloadAbandoned"]

T = TypeVar("T")
ProgressFn = Callable[[int, "int | None"], None]
DEFAULT_MAX_WORKERS = 16


class DownloadAbandoned(Exception):
    """Raised inside a worker to stop a download whose caller was cancelled."""


class _Abandonable:
    """The state a cancelled coroutine shares with its still-running worker.

    Whichever comes second — the worker saving a file or the caller giving up — deletes the
    file, under one lock, so there is no window in which a finished download survives a
    cancellation.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._abandoned = False
        self._saved: list[Download] = []
        #: Stops the worker's page conversion too (see :mod:`webgrip._cancel`).
        self.token = CancelToken()

    def progress(self, user: ProgressFn | None) -> ProgressFn:
        def callback(done: int, total: int | None) -> None:
            if self._abandoned:
                raise DownloadAbandoned("the caller cancelled this download")
            if user is not None:
                user(done, total)

        return callback

    def saved(self, download: Download) -> None:
        with self._lock:
            if self._abandoned:
                _discard(download)
            else:
                self._saved.append(download)

    def abandon(self) -> None:
        self.token.cancel()
        with self._lock:
            self._abandoned = True
            for download in self._saved:
                _discard(download)
            self._saved.clear()


def _discard(download: Download) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(download.path)


class _GuardedClient:
    """A :class:`WebClient` view whose downloads obey one :class:`_Abandonable`."""

    def __init__(self, client: WebClient, guard: _Abandonable):
        self._client = client
        self._guard = guard

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def download(
        self, url: str, *, progress: Callable[[int, int | None], None] | None = None, **kwargs: Any
    ) -> Download:
        result = self._client.download(url, progress=self._guard.progress(progress), **kwargs)
        self._guard.saved(result)
        return result


class AsyncWebClient:
    """:class:`~webgrip.client.WebClient` with coroutine methods.

    >>> async with AsyncWebClient(Config(timeout=10)) as client:     # doctest: +SKIP
    ...     page = await client.fetch("https://example.com/")

    Pass ``client`` to share an existing :class:`WebClient` (its rate limiter, caches and
    counters); ``max_workers`` bounds the threads running calls.
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        client: WebClient | None = None,
        max_workers: int = DEFAULT_MAX_WORKERS,
    ):
        self._owns_client = client is None
        self.client = client if client is not None else WebClient(config)
        self.config = self.client.config
        self._executor = ThreadPoolExecutor(
            max_workers=max_workers, thread_name_prefix="webgrip-async"
        )

    async def _run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self._run_abandonable(lambda _guard: fn(*args, **kwargs))

    async def _run_abandonable(self, fn: Callable[[_Abandonable], T]) -> T:
        guard = _Abandonable()

        def work() -> T:
            with cancel_scope(guard.token):
                return fn(guard)

        future = self._executor.submit(work)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            guard.abandon()
            raise

    # -- the WebClient methods, as coroutines ------------------------------------------------
    async def check_url(self, url: str) -> str:
        """See :meth:`WebClient.check_url`."""
        return await self._run(self.client.check_url, url)

    async def request(self, method: str, url: str, **kwargs: Any) -> Response:
        """See :meth:`WebClient.request`."""
        return await self._run(self.client.request, method, url, **kwargs)

    async def get(self, url: str, **kwargs: Any) -> Response:
        """See :meth:`WebClient.get`."""
        return await self._run(self.client.get, url, **kwargs)

    async def fetch(self, url: str, **kwargs: Any) -> Page:
        """See :meth:`WebClient.fetch` (``extract``, ``main_content``, ``use_cache``,
        ``max_age``, ...)."""
        return await self._run(self.client.fetch, url, **kwargs)

    async def screenshot(self, url: str, *, full_page: bool = False) -> bytes:
        """See :meth:`WebClient.screenshot`: a PNG from the guarded browser. Renders from
        several tasks run at once, up to the render pool's workers (docs/rendering.md); a
        cancelled task's render has its browser stopped."""
        return await self._run(self.client.screenshot, url, full_page=full_page)

    async def search(self, query: str, **kwargs: Any) -> list[Any]:
        """See :meth:`WebClient.search`."""
        return await self._run(self.client.search, query, **kwargs)

    async def download(self, url: str, **kwargs: Any) -> Download:
        """See :meth:`WebClient.download`. ``progress`` is called from the worker thread.

        If the awaiting task is cancelled, no file is left once the worker has ended.
        """
        return await self._run_abandonable(
            lambda guard: _GuardedClient(self.client, guard).download(url, **kwargs)
        )

    async def map_site(self, url: str, **kwargs: Any) -> SiteMap:
        """See :meth:`WebClient.map_site` (``limit``, ``subdomains``, ``respect_robots``,
        ``timeout``)."""
        return await self._run(self.client.map_site, url, **kwargs)

    async def crawl(self, url: str, **options: Any) -> AsyncIterator[CrawlResult]:
        """Crawl the site of ``url`` with this client, yielding each page's
        :class:`~webgrip.sites.crawl.CrawlResult` as it finishes (the options of
        :func:`webgrip.crawl`: ``max_pages`` is required).

        The crawl runs on its own threads; leaving the loop (``break``, an exception, the
        task cancelled) stops it: no further URL is leased and the conversions in flight are
        cancelled.

        >>> async for result in client.crawl(url, max_pages=50):  # doctest: +SKIP
        ...     print(result.url)
        """
        from .sites.crawl import Crawler

        crawler = await self._run(lambda: Crawler(url, client=self.client, **options))
        loop = asyncio.get_running_loop()
        found: asyncio.Queue[CrawlResult | BaseException | None] = asyncio.Queue(maxsize=16)
        # ``stop`` ends the crawl (the crawl sets it too when it is done); ``left``: the
        # consumer is gone, so nothing is handed over any more.
        stop, left, token = threading.Event(), threading.Event(), CancelToken()

        def hand_over(item: CrawlResult | BaseException | None) -> None:
            if left.is_set():  # nobody to hand it to
                return
            put = found.put(item)
            try:
                future = asyncio.run_coroutine_threadsafe(put, loop)
            except RuntimeError:  # the event loop is closed
                put.close()
                return
            while not left.is_set():  # a consumer gone away must not hold this thread
                with contextlib.suppress(TimeoutError):
                    future.result(timeout=0.1)
                    return
            future.cancel()

        def pump() -> None:
            try:
                for item in crawler.run(stop=stop, cancel=token):
                    if item is not None:
                        hand_over(item)
                hand_over(None)
            except BaseException as exc:  # handed to the awaiting task, raised there
                hand_over(exc)
            finally:
                crawler.close()

        threading.Thread(target=pump, name="webgrip-async-crawl", daemon=True).start()
        try:
            while (item := await found.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            left.set()
            stop.set()
            token.cancel()

    async def fetch_many(
        self,
        urls: Iterable[str],
        *,
        concurrency: int = 8,
        max_host_wait: float | None = None,
        **kwargs: Any,
    ) -> list[Page | WebgripError]:
        """Fetch concurrently, at most ``concurrency`` at a time; results in input order.

        As :func:`webgrip.bulk.pool.fetch_many`: a URL whose host's rate-limit slot lies past the
        call's deadline (nothing sent) waits for it, up to ``max_host_wait`` seconds (default
        :data:`webgrip.bulk.pool.MAX_HOST_WAIT_SECONDS`), without holding a place of
        ``concurrency`` meanwhile, and books only a slot that leaves half of ``timeout``."""
        from .bulk.pool import MAX_HOST_WAIT_SECONDS
        from .ratelimit import queued_calls

        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        patience = MAX_HOST_WAIT_SECONDS if max_host_wait is None else max_host_wait
        if not patience >= 0:  # also refuses NaN
            raise ValueError("max_host_wait must be at least 0 seconds")
        gate = asyncio.Semaphore(concurrency)

        def queued_fetch(url: str) -> Page:
            with queued_calls():  # in the worker thread, where the booking happens
                return self.client.fetch(url, **kwargs)

        async def one(url: str) -> Page | WebgripError:
            give_up = loop.time() + patience
            while True:
                async with gate:
                    try:
                        return await self._run(queued_fetch, url)
                    except FetchTimeoutError as exc:
                        if exc.retry_in is None:
                            return exc
                        pause = max(0.05, exc.retry_in)
                        if loop.time() + pause > give_up:
                            return exc
                    except WebgripError as exc:
                        return exc
                await asyncio.sleep(pause)

        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(*(one(u) for u in urls)))

    def stats(self) -> dict[str, Any]:
        """See :meth:`WebClient.stats`."""
        return self.client.stats()

    # -- lifecycle ---------------------------------------------------------------------------
    async def aclose(self) -> None:
        """Wait for running (including abandoned) calls to end, then release the threads."""
        await asyncio.get_running_loop().run_in_executor(None, self._executor.shutdown, True)
        if self._owns_client:
            self.client.close()

    async def __aenter__(self) -> AsyncWebClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class AsyncTools:
    """:class:`~webgrip.tools.Tools` with coroutine methods returning the same strings.

    >>> tools = AsyncTools(Config())                                  # doctest: +SKIP
    >>> text = await tools.fetch_page("https://example.com/")
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        client: WebClient | None = None,
        max_workers: int = DEFAULT_MAX_WORKERS,
        tool_names: Sequence[str] | None = None,
    ):
        self._tools_class = Tools
        self.tools = Tools(config, client=client, tool_names=tool_names)
        self.tool_names = self.tools.tool_names
        self.config = self.tools.config
        self.client = AsyncWebClient(client=self.tools.client, max_workers=max_workers)
        self.client._owns_client = client is None

    async def _call(self, name: str, *args: Any, **kwargs: Any) -> str:
        # Each call runs on a Tools view whose downloads obey this call's cancellation; fetch
        # and search go to the shared client unchanged.
        def work(guard: _Abandonable) -> str:
            # _GuardedClient is no WebClient subclass: a view that passes every other
            # attribute through to the shared client (__getattr__).
            tools = self._tools_class(
                client=_GuardedClient(self.tools.client, guard),  # type: ignore[arg-type]
                tool_names=self.tool_names,
            )
            answer: str = getattr(tools, name)(*args, **kwargs)  # every tool answers a string
            return answer

        return await self.client._run_abandonable(work)

    async def fetch_page(
        self,
        url: str,
        extract: str = "markdown",
        max_length: int = 5000,
        start_index: int = 0,
        find: str | None = None,
        links: LinkStyle = "inline",
        max_age: int | None = None,
    ) -> str:
        """See :meth:`Tools.fetch_page <webgrip.tools.Tools.fetch_page>`."""
        return await self._call(
            "fetch_page", url, extract, max_length, start_index, find, links, max_age
        )

    async def search_web(self, query: str, num_results: int = 5) -> str:
        """See :meth:`Tools.search_web <webgrip.tools.Tools.search_web>`."""
        return await self._call("search_web", query, num_results)

    async def download_file(
        self,
        url: str,
        save_to: str | None = None,
        filename: str | None = None,
        overwrite: bool = False,
    ) -> str:
        """See :meth:`Tools.download_file <webgrip.tools.Tools.download_file>`.

        If the awaiting task is cancelled, no file is left once the worker has ended.
        """
        return await self._call("download_file", url, save_to, filename, overwrite)

    async def map_site(self, url: str, max_length: int = 5000, start_index: int = 0) -> str:
        """See :meth:`Tools.map_site <webgrip.tools.Tools.map_site>`."""
        return await self._call("map_site", url, max_length, start_index)

    async def research(
        self, query: str, num_results: int = 5, fetch_top: int = 3, max_length: int = 12000
    ) -> str:
        """See :meth:`Tools.research <webgrip.tools.Tools.research>`."""
        return await self._call("research", query, num_results, fetch_top, max_length)

    async def call(self, name: str, arguments: Any = None) -> str:
        """Dispatch a model's tool call (see :func:`webgrip.tools.schemas.call_tool`); never
        raises."""
        return await self._call("call", name, arguments)

    def schemas(
        self, format: str = "openai", *, strict: bool | None = None
    ) -> list[dict[str, Any]]:
        """The tools' definitions; see :func:`webgrip.tools.schemas.tool_schemas`."""
        return self.tools.schemas(format, strict=strict)

    def register(self, decorator: Any) -> list[Any]:
        """Apply a framework's ``@tool`` decorator to each tool as an ``async def``.

        Each coroutine function carries the name, docstring, signature and resolved
        annotations of the :class:`~webgrip.tools.Tools` method (what
        :meth:`Tools.register <webgrip.tools.Tools.register>` hands over) and runs the call
        like the methods here: on a worker thread, cancellable. Returns what the decorator
        returned.
        """
        return register_async(self.tools, decorator, self._call)

    async def aclose(self) -> None:
        """See :meth:`AsyncWebClient.aclose`."""
        await self.client.aclose()

    async def __aenter__(self) -> AsyncTools:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
