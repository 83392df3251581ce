"""``WebClient``: the library API over the guarded Rust core.

Every method raises the typed exceptions of :mod:`webgrip.errors`; the agent tools in
:mod:`webgrip.tools` turn those into short error strings.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

from . import _core
from .config import Config
from .ratelimit import HostRateLimiter

__all__ = ["Response", "WebClient", "check_url"]


@dataclass(frozen=True)
class Response:
    """A completed HTTP exchange (any status; redirects already walked)."""

    url: str
    """Final URL, after redirects."""
    status: int
    headers: Mapping[str, str]
    """Header names lower-cased; repeated headers joined with ``, ``."""
    content: bytes = field(repr=False)
    content_type: str | None
    """Media type only, lower-cased, e.g. ``text/html``."""
    charset: str | None
    """The charset declared in ``Content-Type``, if any."""
    redirects: tuple[str, ...]
    """Every URL requested before the final one."""
    remote_addr: str
    """``ip:port`` the final hop connected to: the address that was checked."""
    elapsed: float
    """Seconds for the whole call."""
    header_list: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    """Headers exactly as received (names lower-cased), repeats kept."""

    @cached_property
    def _decoded(self) -> tuple[str, str]:
        return _core.decode_body(self.content, self._content_type_header)

    @property
    def _content_type_header(self) -> str | None:
        return self.headers.get("content-type")

    @property
    def text(self) -> str:
        """The body decoded: BOM, header charset, ``<meta>`` prescan, then detection."""
        return self._decoded[0]

    @property
    def encoding(self) -> str:
        """The encoding :attr:`text` was decoded with."""
        return self._decoded[1]

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 400

    def json(self) -> Any:
        import json

        return json.loads(self.text)

    def raise_for_status(self) -> Response:
        """Raise :class:`~webgrip.errors.HTTPStatusError` for a 4xx/5xx status."""
        if self.status >= 400:
            from .errors import HTTPStatusError

            raise HTTPStatusError(
                f"HTTP {self.status} from {self.url}", url=self.url, reason=f"http-{self.status}",
                status=self.status, response=self,
            )
        return self

    @classmethod
    def _from_raw(cls, raw: Mapping[str, Any]) -> Response:
        header_list = tuple((k, v) for k, v in raw["headers"])
        joined: dict[str, str] = {}
        for k, v in header_list:
            joined[k] = f"{joined[k]}, {v}" if k in joined else v
        return cls(
            url=raw["url"], status=raw["status"], headers=joined, content=raw["content"],
            content_type=raw["content_type"], charset=raw["charset"],
            redirects=tuple(raw["redirects"]), remote_addr=raw["remote_addr"],
            elapsed=raw["elapsed"], header_list=header_list,
        )


def _core_client(config: Config) -> _core.Client:
    return _core.Client(
        allow_networks=list(config.allow_networks),
        deny_networks=list(config.deny_networks),
        allowed_domains=list(config.allowed_domains),
        blocked_domains=list(config.blocked_domains),
        blocked_ports=list(config.blocked_ports),
        max_redirects=config.max_redirects,
        timeout=config.timeout,
        connect_timeout=config.connect_timeout,
        max_response_bytes=config.max_response_bytes,
        user_agent=config.user_agent,
        ca_bundle=config.ca_bundle,
        allow_http=config.allow_http,
        resolve={k: list(v) for k, v in config.resolve.items()},
    )


def check_url(url: str, config: Config | None = None) -> str:
    """Return the normalised URL if the policy allows it, else raise.

    Resolves the hostname (literal addresses need no DNS) but never connects. Raises
    :class:`~webgrip.errors.InvalidURLError` or :class:`~webgrip.errors.BlockedURLError`,
    whose ``.reason`` names the rule.
    """
    return _core_client(config or Config()).check_url(url)


class WebClient:
    """A thread-safe, SSRF-guarded HTTP client. Share one per configuration.

    >>> with WebClient(Config(timeout=10)) as client:          # doctest: +SKIP
    ...     page = client.get("https://example.com/")
    """

    def __init__(self, config: Config | None = None):
        self.config = config or Config()
        self._core = _core_client(self.config)
        self._limiter = HostRateLimiter(self.config.rate_limit_seconds)
        self._closed = False
        self._lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------------------
    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> WebClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests -------------------------------------------------------------------------
    def check_url(self, url: str) -> str:
        """The policy decision for ``url`` under this client's configuration (no connection)."""
        return self._core.check_url(url)

    def request(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        body: bytes | None = None,
        timeout: float | None = None,
        max_bytes: int | None = None,
    ) -> Response:
        """One guarded request; 4xx/5xx are returned (see :meth:`Response.raise_for_status`)."""
        host = urlsplit(url).hostname or ""
        self._limiter.wait(host)
        pairs = list(headers.items()) if isinstance(headers, Mapping) else list(headers or ())
        raw = self._core.request(
            url, method=method.upper(), headers=pairs, body=body, timeout=timeout,
            max_bytes=max_bytes,
        )
        return Response._from_raw(raw)

    def get(self, url: str, **kwargs: Any) -> Response:
        """GET ``url`` through the guard. Returns the response whatever its status."""
        return self.request("GET", url, **kwargs)
