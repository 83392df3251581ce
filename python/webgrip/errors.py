"""The exceptions webgrip raises.

Everything derives from :class:`WebgripError`, so ``except webgrip.WebgripError`` catches
every failure of the library API. Each exception carries the URL it concerns (``.url``) and,
where one applies, a short machine-readable ``.reason``. Several also derive from the
matching built-in (``TimeoutError``, ``ConnectionError``, ``ValueError``) so code written
against the standard library keeps working.

The agent-facing tool functions never raise these: they turn them into ``Error: ...`` strings.
"""

from __future__ import annotations

# Neither dataclasses nor typing: ``import webgrip`` loads this module (the core resolves its
# classes on import), and the two with what they pull in (inspect, re, enum, ast) cost more
# than the rest of the package's import. Type checkers treat any TYPE_CHECKING constant alike.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    _E = TypeVar("_E", bound="WebgripError")

__all__ = [
    "BlockedURLError",
    "ChallengeError",
    "ConnectError",
    "DownloadError",
    "FetchTimeoutError",
    "HTTPStatusError",
    "InvalidURLError",
    "ProxyError",
    "RenderError",
    "ResponseTooLargeError",
    "SearchBlockedError",
    "SearchError",
    "UnsupportedContentError",
    "WebgripError",
]


class WebgripError(Exception):
    """Base class of every webgrip error.

    ``url`` is the URL the failing operation was working on (``None`` when there was none),
    ``reason`` a short stable tag for the cause (for example ``"private-address"``).
    """

    # Every class takes ``(message, *, url=None, reason=None)``; the few that carry more add
    # their fields as keyword-only parameters after these, and each field is an attribute of
    # the same name (a worker process sends ``vars(exc)`` back, see ``_pdfpool``).
    def __init__(self, message: str, *, url: str | None = None, reason: str | None = None) -> None:
        # The built-in base's own init with the message (``args``, and the ``OSError`` state
        # of the classes that also derive from ``TimeoutError``/``ConnectionError``).
        super().__init__(message)
        self.message = message
        self.url = url
        self.reason = reason

    def __str__(self) -> str:
        return self.message

    # Keep pickling (multiprocessing, caches) working with kw-only args.
    def __reduce__(self) -> tuple[Callable[..., WebgripError], tuple[object, ...]]:
        return (_rebuild, (type(self), self.message, self.__dict__))


def _rebuild(cls: type[_E], message: str, state: dict[str, Any]) -> _E:
    obj = cls.__new__(cls)
    Exception.__init__(obj, message)
    obj.__dict__.update(state)
    return obj


class InvalidURLError(WebgripError, ValueError):
    """The URL (or a redirect's ``Location``) cannot be parsed. Refused schemes and userinfo
    are :class:`BlockedURLError` (reasons ``scheme``, ``userinfo``)."""


class BlockedURLError(WebgripError):
    """The security policy refused the URL or one of its redirect hops.

    ``reason`` names the rule, e.g. ``private-address``, ``blocked-port``, ``blocked-domain``.
    """


class FetchTimeoutError(WebgripError, TimeoutError):
    """The call's total deadline (or the connect timeout) passed — while waiting, sending,
    receiving or parsing the page — or the host's rate-limit slot would only come after it.
    ``reason`` is ``timeout``, or ``cancelled`` when the caller gave up (an asyncio task or
    MCP request cancelled while its page was being parsed or its file downloaded). A
    download's body has limits of its own instead of the deadline: ``stalled`` (fewer than
    ``download_min_speed`` bytes/s over ``download_stall_seconds``) and ``download-timeout``
    (the whole download past ``download_timeout``).

    ``retry_in`` is set (else ``None``) only when the call failed because the host's next
    rate-limit slot (its queue of requests, or a ``Retry-After`` hold) lies past the deadline:
    nothing was sent, and it holds the seconds until that slot as seen when failing, so the
    same call made then can succeed (a batch waits and does so)."""

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        reason: str | None = None,
        retry_in: float | None = None,
    ) -> None:
        super().__init__(message, url=url, reason=reason)
        self.retry_in = retry_in


class ResponseTooLargeError(WebgripError):
    """The (decoded) body exceeded the configured cap. ``limit`` is the cap in bytes."""

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        reason: str | None = None,
        limit: int | None = None,
    ) -> None:
        super().__init__(message, url=url, reason=reason)
        self.limit = limit


class HTTPStatusError(WebgripError):
    """The server answered with a 4xx/5xx status. ``status`` holds it, ``response`` the reply."""

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        reason: str | None = None,
        status: int | None = None,
        response: object | None = None,
    ) -> None:
        super().__init__(message, url=url, reason=reason)
        self.status = status
        self.response = response


class ChallengeError(HTTPStatusError):
    """The site answered with something standing in for the page: a bot check, a CAPTCHA, a
    firewall's block page, a login wall or a cookie-consent interstitial.

    ``kind`` (also ``reason``) is ``"challenge"``, ``"captcha"``, ``"blocked"``, ``"login"``
    or ``"consent"``; ``vendor`` names the bot manager when it is known (``"Cloudflare"``,
    ``"Akamai"``, ...). ``status`` is the HTTP status it came with, which may be 200: it
    derives from :class:`HTTPStatusError` because such pages mostly come as 403, 429 or 503,
    which were reported as plain status errors before. ``rendered`` says whether the page
    was loaded in the headless browser. See docs/challenge-pages.md.
    """

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        reason: str | None = None,
        status: int | None = None,
        response: object | None = None,
        kind: str = "challenge",
        vendor: str | None = None,
        rendered: bool = False,
    ) -> None:
        super().__init__(message, url=url, reason=reason or kind, status=status, response=response)
        self.kind = kind
        self.vendor = vendor
        self.rendered = rendered


class ConnectError(WebgripError, ConnectionError):
    """The connection failed: DNS, refused, reset, TLS, or a broken response."""


class ProxyError(ConnectError):
    """The configured upstream proxy failed: it could not be reached or resolved
    (``reason`` ``proxy-connect``, ``proxy-dns``, ``proxy-tls``), refused or wanted credentials
    (``proxy-auth``), refused the tunnel to the checked address (``proxy-refused``) or did not
    speak its protocol (``proxy-protocol``). The message names the proxy as
    ``scheme://host:port``, never with its credentials."""


class UnsupportedContentError(WebgripError):
    """The response is not a document that can be shown as text (PDF, image, archive, ...).

    ``content_type`` is the media type received, ``size`` the body size in bytes if known.
    Save such files with ``download`` instead.
    """

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        reason: str | None = None,
        content_type: str | None = None,
        size: int | None = None,
    ) -> None:
        super().__init__(message, url=url, reason=reason)
        self.content_type = content_type
        self.size = size


class DownloadError(WebgripError):
    """A download could not be saved (destination refused, disk error, ...)."""


class SearchError(WebgripError):
    """A search provider failed or answered with something that could not be parsed."""


class SearchBlockedError(SearchError):
    """The search provider refused to answer (bot check, rate limit). Do not retry at once."""


class RenderError(WebgripError):
    """A page could not be rendered: no browser here (reason ``no-browser``), an upstream
    proxy is configured (``proxy``: renders would bypass it) or the browser failed
    (``browser``). Refusals and timeouts inside a render keep their own classes."""
