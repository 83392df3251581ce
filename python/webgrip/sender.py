"""``Sender``: what the features below the client need from it, and nothing more.

The persistent cache, robots.txt and the search providers make requests through this small
interface instead of importing :class:`~webgrip.client.WebClient` (which sits above them and
uses them), as ``httpx`` keeps its transport interface below its client.
:class:`~webgrip.client.WebClient` is the implementation; tests may pass any object with
these members.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from .config import Config
from .response import Response

__all__ = ["Sender"]


class Sender(Protocol):
    """Guarded HTTP under one configuration."""

    config: Config

    def check_url(self, url: str) -> str:
        """The policy's decision on ``url`` (normalised URL, or a typed error); no request."""
        ...

    def send(
        self,
        method: str,
        url: str,
        *,
        deadline: float,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        body: bytes | None = None,
        max_bytes: int | None = None,
        retry: bool = True,
    ) -> Response:
        """One guarded request finished by ``deadline`` (a :func:`time.monotonic` time), any
        status returned; with ``retry``, a 429/503 is retried as ``config.max_retries`` allows
        when the retry still fits before the deadline."""
        ...
