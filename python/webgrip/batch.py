"""Fetch many pages at once: a thread pool over one client, results in input order.

The Rust core releases the GIL for the whole network transfer and the HTML conversion, so
threads give real parallelism here. Politeness is unaffected: the per-host rate limit lives in
the shared :class:`~webgrip.client.WebClient`, so eight threads fetching from one host are
still spaced ``rate_limit_seconds`` apart, while different hosts proceed in parallel.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from .errors import WebgripError
from .page import EXTRACT_MODES, Page

__all__ = ["PageFetcher", "fetch_many"]


class PageFetcher(Protocol):
    """What a batch needs of a client: :meth:`WebClient.fetch <webgrip.client.WebClient.fetch>`."""

    def fetch(self, url: str, *, extract: str = ..., main_content: bool | None = ...) -> Page:
        ...


def fetch_many(
    client: PageFetcher,
    urls: Iterable[str],
    *,
    extract: str = "markdown",
    main_content: bool | None = None,
    concurrency: int = 8,
) -> list[Page | WebgripError]:
    """Fetch every URL with ``client.fetch``; return a :class:`Page` or the error, in order.

    One failing URL never affects the others: its slot holds the
    :class:`~webgrip.errors.WebgripError` it raised (an unexpected exception is wrapped in
    one with ``reason="internal"``). ``concurrency`` bounds the threads used.
    """
    if extract not in EXTRACT_MODES:  # a usage error, not a per-URL failure
        raise ValueError(f"extract must be one of {', '.join(EXTRACT_MODES)}; got {extract!r}")
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    todo = list(urls)
    if not todo:
        return []

    def one(url: str) -> Page | WebgripError:
        try:
            return client.fetch(url, extract=extract, main_content=main_content)
        except WebgripError as exc:
            return exc
        except Exception as exc:  # keep the batch going; the caller sees it in this slot
            err = WebgripError(f"unexpected error: {exc}", url=url, reason="internal")
            err.__cause__ = exc
            return err

    if len(todo) == 1 or concurrency == 1:
        return [one(u) for u in todo]
    with ThreadPoolExecutor(max_workers=min(concurrency, len(todo)),
                            thread_name_prefix="webgrip-batch") as pool:
        return list(pool.map(one, todo))
