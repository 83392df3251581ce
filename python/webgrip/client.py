"""``WebClient``: the library API over the guarded Rust core.

Every method raises the typed exceptions of :mod:`webgrip.errors`; the agent tools in
:mod:`webgrip.tools.toolbox` turn those into short error strings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import urlsplit

from . import _cancel, _core
from .challenge import Wall, challenge_error, detect
from .config import RENDER_MODES, Config
from .errors import (
    ChallengeError,
    ConnectError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidURLError,
    WebgripError,
)
from .hygiene import tracking_rules, url_for_fetch
from .messages import shown_url
from .observe import Stats, log_request
from .page import EXTRACT_MODES, Download, Page, _evolve
from .proxies import core_routes, routes_use_proxy
from .ratelimit import HostLimiter, HostRateLimiter, slot_lead
from .response import Response, html_response, status_error, status_message
from .retry import RETRY_STATUSES, parse_retry_after, retry_wait

# The persistent cache (sqlite3), downloads, robots.txt, batches (concurrent.futures), search
# and the page builder are imported by the calls that use them: ``import webgrip`` stays
# cheap (see benches/import_time.py), and a client that never searches never loads the
# search providers.
if TYPE_CHECKING:
    from ._core import _RawDownload
    from .cache import PageCache
    from .downloads import Destination
    from .page_builder import DocumentCache
    from .search import SearchResult
    from .sites.mapping import SiteMap


# The page builder and the render module, imported by the first call that needs them and then
# kept: a function-level ``from .page_builder import build_page`` goes through the import machinery
# (a few microseconds) on every fetch. mypy reads the names as the modules themselves, so a
# changed signature there fails here too, with no copy of it kept here.
class _LazyModule:
    """Stands for the module ``name`` of this package until the first attribute read through
    it: that read imports the module and puts it in this stand-in's place among this module's
    globals (as ``alias``), so later reads go straight to the module."""

    def __init__(self, name: str, alias: str) -> None:
        self._name, self._alias = name, alias

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(f".{self._name}", __package__)
        globals()[self._alias] = module  # two threads racing both store the same module
        return getattr(module, attr)


if TYPE_CHECKING:
    from . import frames as _frames
    from . import page_builder as _page_builder
    from . import render as _render
else:
    _page_builder = _LazyModule("page_builder", "_page_builder")
    _frames = _LazyModule("frames", "_frames")
    _render = _LazyModule("render", "_render")  # the first time ``auto`` looks at a page

_T = TypeVar("_T")


__all__ = ["Response", "WebClient", "check_url"]


def _core_client(config: Config, routes: dict[str, Any] | None = None) -> _core.Client:
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
        tls_trust=config.tls_trust,
        allow_http=config.allow_http,
        allow_https_downgrade=config.allow_https_downgrade,
        resolve={k: list(v) for k, v in config.resolve.items()},
        headers=list(config.headers.items()),
        site_headers={d: list(h.items()) for d, h in config.site_headers.items()},
        cookies=config.cookies,
        **(core_routes(config, os.environ) if routes is None else routes),
    )


def check_url(url: str, config: Config | None = None) -> str:
    """Return the normalised URL if the policy allows it, else raise.

    Resolves the hostname (literal addresses need no DNS) but never connects. Raises
    :class:`~webgrip.errors.InvalidURLError` or :class:`~webgrip.errors.BlockedURLError`,
    whose ``.reason`` names the rule. Because the name is resolved, a host that does not
    resolve raises :class:`~webgrip.errors.ConnectError` (reason ``dns``), and a lookup that
    outlasts ``config.connect_timeout`` raises :class:`~webgrip.errors.FetchTimeoutError`
    (reason ``timeout``).
    """
    return _core_client(config or Config()).check_url(url)


def map_site(
    url: str,
    *,
    limit: int = 5000,
    config: Config | None = None,
    subdomains: bool = False,
    respect_robots: bool = True,
    timeout: float | None = None,
) -> SiteMap:
    """:meth:`WebClient.map_site` on a client made for this call from ``config``."""
    with WebClient(config) as client:
        return client.map_site(
            url,
            limit=limit,
            subdomains=subdomains,
            respect_robots=respect_robots,
            timeout=timeout,
        )


def _rate_key(url: str) -> str:
    """The host ``url`` connects to, spelled one way, to key the per-host rate limit.

    The core's parse decides (no DNS): ``0x7f.0.0.2``, ``2130706434``, ``127.2``,
    ``[::ffff:127.0.0.2]`` and ``127.0.0.2.`` are all ``127.0.0.2``, names are lower-cased
    without trailing dots, and ``http://a\\@b/`` is ``a`` (as fetched). Raises ``ValueError``
    for what neither parser reads.
    """
    host = _core.url_host(url)
    return host if host is not None else urlsplit(url).hostname or ""


class WebClient:
    """A thread-safe, SSRF-guarded HTTP client. Share one per configuration.

    >>> with WebClient(Config(timeout=10)) as client:          # doctest: +SKIP
    ...     page = client.get("https://example.com/")
    """

    def __init__(self, config: Config | None = None, *, limiter: HostLimiter | None = None):
        """``limiter`` replaces the per-process :class:`~webgrip.ratelimit.HostRateLimiter`
        that spaces requests to a host ``config.rate_limit_seconds`` apart, e.g. with
        :class:`~webgrip.bulk.politeness.RedisHostLimiter` to share that budget across processes."""
        self.config = config or Config()
        # The proxy routes are read once (the environment too, with trust_env_proxy): the
        # same snapshot routes the requests and keeps the browser off while it holds a proxy,
        # so a variable changed later cannot let a render bypass the proxy the client uses.
        routes = core_routes(self.config, os.environ)
        self._proxied = routes_use_proxy(routes)
        self._core = _core_client(self.config, routes)
        self._limiter: HostLimiter = (
            HostRateLimiter(self.config.rate_limit_seconds) if limiter is None else limiter
        )
        self._closed = False
        self._lock = threading.Lock()
        self._stats = Stats()
        self._page_cache = _open_cache(self.config)  # None unless cache_dir is set
        # Compiled once: every page this client reads strips links with the same rules.
        self._tracking = tracking_rules(self.config.tracking_params)
        # The jar's change count last saved (-1: nothing to save, cookies are not persisted).
        self._cookies_saved = -1
        if self.config.persist_cookies and self._page_cache is not None:
            self._core.load_cookies(self._page_cache.load_cookies())
            self._cookies_saved = self._core.cookie_changes

    # -- lifecycle ------------------------------------------------------------------------
    def close(self) -> None:
        self._closed = True
        if self._page_cache is not None:
            self._save_cookies()
            self._page_cache.close()

    def __enter__(self) -> WebClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests -------------------------------------------------------------------------
    def check_url(self, url: str) -> str:
        """The policy decision for ``url`` under this client's configuration (no connection).

        Like :func:`check_url`: also raises :class:`~webgrip.errors.ConnectError` (reason
        ``dns``) or :class:`~webgrip.errors.FetchTimeoutError` when the name does not resolve.
        """
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
        """One guarded request; 4xx/5xx are returned (see :meth:`Response.raise_for_status`).

        ``timeout`` (default ``config.timeout``) is the total deadline of the call, the wait
        for this host's rate-limit slot included: if that slot comes too late, the call fails
        at once with :class:`~webgrip.errors.FetchTimeoutError` (nothing is sent). A
        malformed URL raises :class:`~webgrip.errors.InvalidURLError`.
        """
        budget = self.config.timeout if timeout is None else timeout
        if not budget > 0:  # also refuses NaN
            raise ValueError(f"timeout must be a positive number of seconds, not {budget}")
        deadline = time.monotonic() + budget
        self._wait_turn(url, deadline)
        pairs = (
            []
            if headers is None
            else list(headers.items())
            if isinstance(headers, Mapping)
            else list(headers)
        )
        start = time.monotonic()
        try:
            raw = self._core.request(
                url,
                method=method.upper(),
                headers=pairs,
                body=body,
                timeout=_remaining(deadline),
                max_bytes=max_bytes,
            )
        except Exception as exc:
            self._stats.record_error(exc)
            log_request(
                method, url, status=None, nbytes=0, seconds=time.monotonic() - start, error=exc
            )
            raise
        self._stats.record(len(raw["content"]), status=raw["status"])
        log_request(
            method,
            url,
            status=raw["status"],
            nbytes=len(raw["content"]),
            seconds=time.monotonic() - start,
        )
        self._save_cookies()
        return Response._from_core(raw)

    def get(self, url: str, **kwargs: Any) -> Response:
        """GET ``url`` through the guard. Returns the response whatever its status."""
        return self.request("GET", url, **kwargs)

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
        """:meth:`request` finished by ``deadline`` (a :func:`time.monotonic` time) instead of
        after a timeout; with ``retry``, a 429/503 is retried (``Retry-After`` honoured, at
        most ``config.max_retries`` times) when the retry still fits before the deadline.

        The :class:`~webgrip.sender.Sender` interface the cache, robots.txt and search use.
        """

        def once() -> Response:
            return self.request(
                method,
                url,
                headers=headers,
                body=body,
                max_bytes=max_bytes,
                timeout=_remaining(deadline),
            )

        if not retry:
            if deadline - time.monotonic() <= 0:
                raise _deadline_error(url, self.config.timeout)
            return once()
        return self._with_retries(
            url, deadline, once, lambda r: (r.status, r.headers.get("retry-after"), r.url)
        )

    # -- agent-level operations: fetch, search, download ------------------------------------
    # Below: the structured API the agent tools are built on. Each call has one total deadline
    # (``config.timeout``) covering robots.txt, rate-limit waits, retries and the transfer.
    def fetch(
        self,
        url: str,
        *,
        extract: str = "markdown",
        main_content: bool | None = None,
        use_cache: bool = False,
        render: str | None = None,
        headers: Mapping[str, str] | None = None,
        max_age: float | None = None,
    ) -> Page:
        """Fetch ``url`` and convert it to one view (see :data:`webgrip.page.EXTRACT_MODES`).

        Tracking parameters and the fragment are removed first. HTML becomes Markdown, text,
        HTML, a link list or tables (``main_content`` defaults to ``True`` for markdown/text);
        JSON is pretty-printed (up to 1 MiB); other text types pass through. Every converted
        page is kept in a small in-memory cache (``page_cache_size`` pages within
        ``page_cache_bytes``); ``use_cache=True`` answers from it when possible (paging
        through a long page never downloads it again). Raises
        :class:`~webgrip.errors.HTTPStatusError` for 4xx/5xx (after retrying 429/503),
        :class:`~webgrip.errors.ChallengeError` (a subclass, ``.kind``) when a bot check, login
        wall or consent page came instead of the page (any status; docs/challenge-pages.md),
        :class:`~webgrip.errors.UnsupportedContentError` for images and other binary bodies
        (PDFs are read: docs/pdf.md), and the other :mod:`webgrip.errors` exceptions.

        ``render`` (default ``config.render``) runs the page's scripts in the guarded headless
        browser (``webgrip[render]``, see docs/rendering.md): ``"always"`` (every HTML
        answer; the static request still comes first, and a PDF, JSON, text or image is read
        as a static fetch reads it), ``"never"``, or ``"auto"`` (only when the static page is
        a script shell and a browser is available; a failed render then keeps the static
        page). ``Page.rendered`` says which it was, ``Page.render_reason`` why.

        ``headers`` are added to this call's requests (over ``config.headers`` and
        ``config.site_headers``; an ``Authorization`` or ``Cookie`` among them is dropped if a
        redirect leaves the URL's origin). A call with ``headers`` reads and writes no cache
        (what it gets may depend on them), is never rendered in the browser and reads no
        frames.

        ``max_age`` (seconds) sets how old a cached copy may be to answer: the in-memory page
        cache is then read even without ``use_cache``, and a copy there or in the persistent
        cache (``cache_dir``) fetched longer ago than ``max_age`` is fetched again (the
        persistent one revalidated); ``0`` always asks the server. ``None`` keeps the rules
        above. ``Page.from_cache`` says whether a cache answered, ``Page.fetched_at`` when
        the server sent the content.
        """
        call_headers = _call_headers(headers)
        if max_age is not None:
            if isinstance(max_age, bool) or not isinstance(max_age, (int, float)) or max_age < 0:
                raise ValueError(f"max_age must be a number of seconds, 0 or more; got {max_age!r}")
            use_cache = True
        if extract not in EXTRACT_MODES:
            raise ValueError(f"extract must be one of {', '.join(EXTRACT_MODES)}; got {extract!r}")
        mode = self.config.render if render is None else render
        if mode not in RENDER_MODES:
            raise ValueError(f"render must be one of {', '.join(RENDER_MODES)}; got {mode!r}")
        clean = self._clean_url(url)
        if call_headers:
            return self._fetch_with_headers(clean, extract, main_content, call_headers)
        key = (clean, extract, main_content, mode)
        documents = self._documents()
        if use_cache:
            cached = documents.get(key)
            if cached is not None and (
                max_age is None
                or (
                    max_age > 0
                    and cached.fetched_at is not None
                    and time.time() - cached.fetched_at <= max_age
                )
            ):
                return dataclasses.replace(cached, from_cache=True)
        deadline = time.monotonic() + self.config.timeout
        self._check_robots(clean, deadline)
        if mode == "always":  # no browser (or an upstream proxy): refused before any request
            _render.require_browser(self.config, clean, proxied=self._proxied)
        # The persistent cache is shared (other clients, other processes): a request that
        # would carry this client's cookies neither reads nor (cache.store) writes it.
        stored_at: float | None = None  # when the persistent cache answered: its copy's time
        if self._page_cache is None or self._core.has_cookies_for(clean):
            response = self.send("GET", clean, deadline=deadline)
        else:  # through the persistent cache
            from .cache import fetch_cached

            response, stored_at = fetch_cached(
                self, self._page_cache, clean, deadline, self._stats, max_age=max_age
            )

        def dated(page: Page) -> Page:
            # A page the browser rendered was fetched now, whatever the static exchange was.
            if page.rendered or stored_at is None:
                return _evolve(page, fetched_at=time.time())
            return _evolve(page, fetched_at=stored_at, from_cache=True)

        # "always" still asks the static exchange first: only there does the body's type show
        # (a browser turns a PDF into an empty viewer page and JSON into a <pre>), and a
        # PDF, JSON, text or image must read as a static fetch reads it. An HTML answer is
        # rendered whatever its status or bot check: the browser's answer is the one kept.
        if (
            mode == "always"
            and _page_builder.classify(response.headers.get("content-type"), response.content)[0]
            == "html"
        ):
            page = dated(self._rendered_page(clean, extract, main_content, deadline, "always"))
            documents.put(key, page)
            return page
        wall = detect(response, clean)
        if wall is not None:
            page = self._past_wall(wall, response, clean, extract, main_content, mode, deadline)
            page = dated(page)
            documents.put(key, page)
            return page
        if response.status >= 400:
            raise status_error(response)
        page = self._page_of(response, clean, extract, main_content, deadline)
        shell = self._shell_reason(response, page, clean, deadline)
        if shell is not None:
            page = dataclasses.replace(page, script_shell=shell)  # kept if not rendered
            if (
                mode == "auto"
                and _render.render_available(self.config, proxied=self._proxied) is None
            ):
                try:
                    page = self._rendered_page(clean, extract, main_content, deadline, shell)
                except WebgripError as exc:  # the static page is still an answer
                    self._stats.record_error(exc)
        page = dated(page)
        documents.put(key, page)
        return page

    def _fetch_with_headers(
        self, url: str, extract: str, main_content: bool | None, headers: list[tuple[str, str]]
    ) -> Page:
        """:meth:`fetch` of ``url`` with the caller's ``headers``: no cache, no browser, no
        frames read (the headers are meant for ``url``: a frame would be fetched either
        without them, as another client, or with them, at a URL the caller did not name)."""
        deadline = time.monotonic() + self.config.timeout
        self._check_robots(url, deadline)
        response = self.send("GET", url, deadline=deadline, headers=headers)
        wall = detect(response, url)
        if wall is not None:  # no browser on this path to try: the wall is the answer
            raise challenge_error(wall, response, url=url)
        if response.status >= 400:
            raise status_error(response)
        return _page_builder.build_page(
            response,
            url=url,
            extract=extract,
            main_content=main_content,
            tracking=self._tracking,
            deadline=deadline,
            readable_model=self.config.readable_model,
        )

    def screenshot(self, url: str, *, full_page: bool = False) -> bytes:
        """A PNG of ``url`` as the guarded headless browser renders it (``webgrip[render]``,
        see docs/rendering.md): the viewport, or the whole page with ``full_page=True``.
        Within ``config.timeout``; raises :class:`~webgrip.errors.RenderError` when no
        browser is available, :class:`~webgrip.errors.UnsupportedContentError` (reason
        ``not-html``, no screenshot taken) when the document is not HTML (a PDF, JSON, text,
        an image), and the other :mod:`webgrip.errors` exceptions."""
        from .render import render as render_page

        clean = self._clean_url(url)
        deadline = time.monotonic() + self.config.timeout
        self._check_robots(clean, deadline)
        result = render_page(
            self._core,
            self.config,
            clean,
            deadline=deadline,
            screenshot=True,
            full_page=full_page,
            proxied=self._proxied,
        )
        self._stats.record(len(result.screenshot or b""), status=result.status)
        return result.screenshot or b""

    def _past_wall(
        self,
        wall: Wall,
        response: Response,
        url: str,
        extract: str,
        main_content: bool | None,
        mode: str,
        deadline: float,
    ) -> Page:
        """A bot check came instead of the page: in ``auto`` mode with a browser here, the
        page rendered (a browser may pass a JavaScript challenge), else the error."""
        error = challenge_error(wall, response, url=url)
        if (
            mode != "auto"
            or wall.kind not in ("challenge", "captcha")
            or _render.render_available(self.config, proxied=self._proxied) is not None
        ):
            raise error
        try:
            return self._rendered_page(url, extract, main_content, deadline, wall.kind)
        except ChallengeError:
            raise
        except WebgripError as exc:  # the browser failed: the bot check is the answer
            self._stats.record_error(exc)
            raise error from None

    def _shell_reason(
        self, response: Response, page: Page, url: str, deadline: float
    ) -> str | None:
        """Why the static page looks built by its scripts (the core's shell reason for an
        HTML script shell whose text is missing), else ``None``."""
        if page.content_type not in ("text/html", "application/xhtml+xml"):
            return None
        render = _render
        # The cheap test first: a page whose text is already long is no shell (the core's
        # scan of the raw HTML and the look for a browser run only on tiny pages).
        if page.extract in ("markdown", "text") and _stripped_longer(
            page.content, render.SHELL_MAX_CHARS
        ):
            return None
        reason = render.script_shell_reason(response.content)
        if reason is None:
            return None
        text = (
            page
            if page.extract in ("markdown", "text")
            else _page_builder.build_page(response, url=url, extract="text", deadline=deadline)
        )
        if len(text.content.strip()) > render.SHELL_MAX_CHARS:  # the text is already there
            return None
        return str(reason)

    def _rendered_page(
        self, url: str, extract: str, main_content: bool | None, deadline: float, reason: str
    ) -> Page:
        """``url`` rendered in the guarded browser, through the same extractor; ``reason``
        (why it was rendered) becomes ``Page.render_reason``."""
        from .render import render as render_page

        start = time.monotonic()
        result = render_page(self._core, self.config, url, deadline=deadline, proxied=self._proxied)
        body = result.html.encode("utf-8")
        self._stats.record(len(body), status=result.status)
        log_request(
            "GET", url, status=result.status, nbytes=len(body), seconds=time.monotonic() - start
        )
        response = html_response(result.url, result.status, body, time.monotonic() - start)
        wall = detect(response, url)
        if wall is not None:
            raise challenge_error(wall, response, url=url, rendered=True)
        if response.status >= 400:
            raise status_error(response)
        page = self._page_of(response, url, extract, main_content, deadline)
        return dataclasses.replace(page, rendered=True, render_reason=reason)

    def _page_of(
        self, response: Response, url: str, extract: str, main_content: bool | None, deadline: float
    ) -> Page:
        """The page of ``response`` with its same-site frames read within this call's policy,
        ``deadline`` and byte cap (see :mod:`webgrip.frames`)."""

        def load(frame_url: str, max_bytes: int) -> Response:
            clean = self._clean_url(frame_url)
            self._check_robots(clean, deadline)
            return self.send(
                "GET",
                clean,
                deadline=deadline,
                retry=False,
                max_bytes=min(max_bytes, self.config.max_response_bytes),
            )

        return _frames.build_framed_page(
            response,
            url=url,
            extract=extract,
            main_content=main_content,
            tracking=self._tracking,
            deadline=deadline,
            load=load,
            max_frames=self.config.max_frames,
            max_bytes=self.config.max_response_bytes,
            readable_model=self.config.readable_model,
        )

    def search(self, query: str, **options: Any) -> list[SearchResult]:
        """Search the web with the configured provider chain; see :func:`webgrip.search.search`.

        ``options``: ``num_results``, ``provider``, ``region``, ``safe_search``,
        ``time_range``, ``timeout``. Raises :class:`~webgrip.errors.SearchBlockedError` when
        the provider refuses to answer and :class:`~webgrip.errors.SearchError` on failure.
        """
        from .search import search

        return search(self, query, **options)

    def download(
        self,
        url: str,
        *,
        save_to: str | None = None,
        filename: str | None = None,
        overwrite: bool = False,
        progress: Callable[[int, int | None], None] | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        on_path: Callable[[str], None] | None = None,
    ) -> Download:
        """Stream ``url`` to a file in ``save_to`` (default: the first ``download_dirs``).

        The body goes to a temp file in the destination folder (never into memory), capped at
        ``config.max_download_bytes``; only a complete, fsynced file is given its final name,
        chosen by :func:`webgrip.downloads.choose_filename` and never overwriting an existing
        file unless ``overwrite=True`` (otherwise ``name (1).ext``, …). ``save_to`` must be
        inside ``config.download_dirs``; no symlink is followed below the allowed folder.
        Nothing is left behind on failure. ``progress(done, total)`` is called while
        streaming. ``timeout`` (default ``config.timeout``) bounds robots.txt, waits and the
        response head, not the body: it flows until done unless it stalls (fewer than
        ``config.download_min_speed`` bytes/s over ``config.download_stall_seconds``) or the
        transfer passes ``config.download_timeout``, both raising
        :class:`~webgrip.errors.FetchTimeoutError` (reason ``stalled`` or
        ``download-timeout``). The file gets the permissions a new file gets under the umask
        (``0644`` under the usual ``022``; ``0600`` while it is written). ``headers`` are
        added to its requests as in :meth:`fetch`. ``on_path(path)`` is called with the path
        the file is about to be given (its name chosen, the body complete, before the name is
        taken): an exception it raises refuses the download, leaves nothing behind and
        propagates (hosts use it for their own permission prompt or undo record). Raises
        :class:`~webgrip.errors.DownloadError` for a refused destination or a disk error,
        and the other :mod:`webgrip.errors` exceptions.
        """
        from .downloads import choose_filename, open_destination, place_file, sweep_once

        call_headers = _call_headers(headers)
        clean = self._clean_url(url)
        self.check_url(clean)  # refuse a forbidden URL before touching the disk
        with open_destination(save_to or "", self.config.download_dirs) as dest:
            sweep_once(dest)  # temp files of downloads killed earlier (another run)
            deadline = time.monotonic() + (timeout or self.config.timeout)
            self._check_robots(clean, deadline)
            raw = self._download(clean, dest, deadline, progress, call_headers)
            try:
                headers = dict(raw["headers"])
                _check_complete(raw, headers)
                name = choose_filename(
                    filename,
                    content_disposition=headers.get("content-disposition"),
                    url=raw["url"],
                    content_type=raw["content_type"],
                )
                if on_path is not None:
                    on_path(os.path.join(dest.path, name))
            except BaseException:
                # Through the folder's descriptor: its path may lead elsewhere by now.
                with contextlib.suppress(OSError):
                    os.unlink(raw["temp_name"], dir_fd=dest.fd)
                raise
            path, renamed, replaced = place_file(dest, raw["temp_name"], name, overwrite=overwrite)
        return Download(
            path=path,
            size=raw["size"],
            content_type=raw["content_type"],
            sha256=raw["sha256"],
            url=clean,
            final_url=raw["url"],
            renamed=renamed,
            replaced=replaced,
            preferred_name=name,
        )

    # -- helpers of the operations above ----------------------------------------------------
    def _wait_turn(self, url: str, deadline: float) -> None:
        """Wait for ``url``'s host's rate-limit slot, inside ``deadline`` (monotonic).

        A slot that would come after the deadline is not booked (so a timed-out call never
        delays the next one) and the call fails at once instead of sleeping in vain. The
        error's ``retry_in`` (the seconds until that slot) marks it as "nothing was sent":
        a batch queues and calls again (:func:`webgrip.bulk.pool.fetch_many` does) where a
        single call reports it.
        """
        try:
            host = _rate_key(url)
        except ValueError as exc:  # e.g. "http://[::1/": the core would refuse it too
            raise InvalidURLError(
                f'Invalid URL "{shown_url(url)}": {exc}', url=url, reason="invalid-url"
            ) from None
        delay = self._limiter.reserve(host, self._booking_deadline(deadline))
        if delay is None:
            now = time.monotonic()
            left = max(0.0, deadline - now)
            retry_in = max(0.0, self._limiter.next_slot(host) - now)
            raise FetchTimeoutError(
                f"timed out: the next request to {host} allowed by the rate limit "
                f"(rate_limit_seconds={self.config.rate_limit_seconds:g}, or a Retry-After "
                f"the host sent) is in {retry_in:.2f} s, after this call's deadline "
                f"({left:.2f} s left), so {shown_url(url)} was not requested",
                url=url,
                reason="timeout",
                retry_in=retry_in,
            )
        if delay > 0:
            time.sleep(delay)

    def _booking_deadline(self, deadline: float) -> float:
        """The latest a rate-limit slot may start for a call ending at ``deadline``: the
        deadline itself, or earlier inside :func:`webgrip.ratelimit.queued_calls`."""
        return deadline - slot_lead() * self.config.timeout

    def _retry_fits(self, url: str, wait: float, deadline: float) -> bool:
        """Whether a retry after sleeping ``wait`` would also get its rate-limit slot before
        ``deadline``; if not, the caller keeps the answer it has instead of timing out."""
        try:
            host = _rate_key(url)
        except ValueError:
            return True  # _wait_turn reports it
        start = max(time.monotonic() + wait, self._limiter.next_slot(host))
        return start < self._booking_deadline(deadline)

    def _hold_host(self, url: str, retry_after: str) -> None:
        """Tell a shared limiter (one with ``hold``) that ``url``'s host asked every client to
        wait; the process-local limiter has no such step (the retrying call sleeps alone)."""
        hold = getattr(self._limiter, "hold", None)
        delay = parse_retry_after(retry_after)
        if hold is None or delay is None or delay <= 0:
            return
        with contextlib.suppress(ValueError):  # an unparsable URL: _wait_turn reports it
            hold(_rate_key(url), delay)

    def _clean_url(self, url: str) -> str:
        if not isinstance(url, str) or not url.strip():
            raise InvalidURLError("the URL is empty", url=str(url), reason="empty")
        try:
            return url_for_fetch(url.strip(), self.config.tracking_params)
        except ValueError as exc:
            raise InvalidURLError(
                f"cannot parse URL: {exc}", url=url, reason="unparsable"
            ) from None

    def _documents(self) -> DocumentCache:
        cache: DocumentCache | None = self.__dict__.get("_document_cache")
        if cache is not None:  # made once, never replaced: no lock needed to read it
            return cache
        with self._lock:
            cache = self.__dict__.get("_document_cache")
            if cache is None:
                cache = _page_builder.DocumentCache(
                    self.config.page_cache_size,
                    self.config.cache_ttl_seconds,
                    self.config.page_cache_bytes,
                )
                self.__dict__["_document_cache"] = cache
            return cache

    def _check_robots(self, url: str, deadline: float) -> None:
        if not self.config.respect_robots_txt:
            return
        with self._lock:
            robots = self.__dict__.get("_robots")
            if robots is None:
                from .robots import RobotsCache

                robots = RobotsCache(
                    self,
                    user_agent=self.config.user_agent,
                    ttl=min(self.config.cache_ttl_seconds, 86400.0),
                )
                self.__dict__["_robots"] = robots
        robots.check(url, deadline)

    def _download(
        self,
        url: str,
        dest: Destination,
        deadline: float,
        progress: Callable[[int, int | None], None] | None,
        headers: list[tuple[str, str]],
    ) -> _RawDownload:
        """``_core.download`` into ``dest`` with 429/503 retries inside ``deadline`` (which
        bounds each response head; the body is bounded by the stall rule and
        ``config.download_timeout``)."""
        token = _cancel.current()
        if token is not None:  # an MCP request or asyncio task that may be given up on
            progress = _stop_when_cancelled(progress, token, url)

        def once() -> _RawDownload:
            self._wait_turn(url, deadline)
            # The core creates the temp file through dest.fd, the checked folder.
            return self._logged_download(
                url,
                dest.path,
                dir_fd=dest.fd if os.name == "posix" else None,
                timeout=_remaining(deadline),
                max_bytes=self.config.max_download_bytes,
                progress=progress,
                headers=headers,
                min_speed=self.config.download_min_speed,
                stall_seconds=self.config.download_stall_seconds,
                # 0 is no limit; the core counts it from sending the request.
                download_timeout=self.config.download_timeout or None,
            )

        try:
            return self._with_retries(url, deadline, once)
        except HTTPStatusError as exc:
            if exc.status is not None and exc.url:  # same wording as fetch's errors
                exc.message = status_message(exc.status, exc.url)
                exc.args = (exc.message,)
            raise

    def _with_retries(
        self,
        url: str,
        deadline: float,
        once: Callable[[], _T],
        answer: Callable[[_T], tuple[int, str | None, str]] | None = None,
    ) -> _T:
        """``once()`` again after a 429/503 while ``config.max_retries`` allows and the retry
        fits before ``deadline`` (``Retry-After`` honoured); the last answer is returned or
        raised.

        The status comes from ``answer(result)`` (status, ``Retry-After``, the URL that
        answered after redirects) or, for calls that raise for a bad status (downloads), from
        the :class:`HTTPStatusError` raised (its ``url``: the URL that answered).
        """
        attempt = 0
        previous: tuple[HTTPStatusError | None, _T | None] | None = None
        while True:
            if deadline - time.monotonic() <= 0:
                raise _deadline_error(url, self.config.timeout)
            failure: HTTPStatusError | None = None
            try:
                result = once()
            except HTTPStatusError as exc:
                failure = exc
                status, retry_after = exc.status or 0, _retry_after_of(exc)
                answered = exc.url or url
            except FetchTimeoutError as exc:
                # A retry whose slot went to another client meanwhile (_retry_fits saw it
                # free): a request was sent already, so this is no "nothing sent" failure to
                # queue on; the answer this call has is its result, as when a retry won't fit.
                if previous is None or exc.retry_in is None:
                    raise
                failure, earlier = previous
                if failure is not None:
                    raise failure from None
                return cast(_T, earlier)  # no failure: the earlier attempt's result
            else:
                if answer is None:
                    return result
                status, retry_after, answered = answer(result)
                if status not in RETRY_STATUSES:  # nearly every answer: nothing to retry
                    return result
            if retry_after is not None and status in RETRY_STATUSES:
                # The host that answered (the last hop of the redirects) asked to be left
                # alone, not necessarily the one first asked; whether or not this call retries.
                self._hold_host(answered, retry_after)
            wait = retry_wait(status, retry_after, attempt, self.config.max_retries, deadline)
            if wait is None or not self._retry_fits(url, wait, deadline):
                if failure is not None:
                    raise failure
                return result
            previous = (failure, None if failure is not None else result)
            time.sleep(wait)
            attempt += 1

    # -- batch, observability ---------------------------------------------------------------
    def fetch_many(self, urls: Iterable[str], **options: Any) -> list[Page | WebgripError]:
        """Fetch ``urls`` concurrently; see :func:`webgrip.bulk.pool.fetch_many` (``extract``,
        ``main_content``, ``concurrency=8``). Results (or errors) come back in input order."""
        from .bulk.pool import fetch_many

        return fetch_many(self, urls, **options)

    # -- sites -------------------------------------------------------------------------------
    def map_site(
        self,
        url: str,
        *,
        limit: int = 5000,
        subdomains: bool = False,
        respect_robots: bool = True,
        timeout: float | None = None,
        use_cache: bool = False,
    ) -> SiteMap:
        """The URLs of the site ``url`` is on, from its sitemaps, llms.txt and the start
        page's links, each once in canonical form, at most ``limit``; see
        :func:`webgrip.sites.mapping.map_site` (``subdomains``, ``respect_robots``,
        ``timeout`` for the whole map, default 60 s) and docs/crawl.md. Every map is kept in
        memory for ``config.cache_ttl_seconds`` (the last 8); ``use_cache=True`` answers from
        there when the same map was made (the ``map_site`` tool pages through one map so)."""
        from .expiring import ExpiringLRU
        from .sites.mapping import map_site

        key = (url.strip(), limit, subdomains, respect_robots)
        with self._lock:
            maps: ExpiringLRU[tuple[str, int, bool, bool], SiteMap] | None = self.__dict__.get(
                "_site_maps"
            )
            if maps is None:
                maps = self.__dict__["_site_maps"] = ExpiringLRU(8)
            cached = maps.get(key) if use_cache else None
        if cached is not None:
            return cached
        site = map_site(
            self,
            url,
            limit=limit,
            subdomains=subdomains,
            respect_robots=respect_robots,
            timeout=timeout,
        )
        with self._lock:
            maps.put(key, site, self.config.cache_ttl_seconds)
        return site

    def cookies(self) -> list[dict[str, Any]]:
        """The cookie jar's unexpired cookies, as dicts (``name``, ``value``, ``domain``,
        ``host_only``, ``path``, ``secure``, ``http_only``, ``same_site``, ``expires`` in
        unix seconds or ``None`` for a session cookie). Values are secrets: do not log them."""
        return [dict(c) for c in self._core.cookies()]

    def clear_cookies(self) -> None:
        """Forget every cookie (and the saved ones, with ``config.persist_cookies``)."""
        self._core.clear_cookies()
        self._save_cookies()

    def stats(self) -> dict[str, Any]:
        """Counters since this client was made: ``requests``, ``bytes``, ``cache_hits`` and
        ``errors`` (a dict of exception class name to count)."""
        return self._stats.snapshot()

    def _logged_download(self, url: str, dest_dir: str, **kwargs: Any) -> _RawDownload:
        """``_core.download`` counted in :meth:`stats` and logged like every request."""
        start = time.monotonic()
        try:
            raw = self._core.download(url, dest_dir, **kwargs)
        except Exception as exc:
            self._stats.record_error(exc)
            log_request(
                "GET",
                url,
                status=getattr(exc, "status", None),
                nbytes=0,
                seconds=time.monotonic() - start,
                error=exc,
            )
            raise
        self._stats.record(raw["size"])
        log_request(
            "GET", url, status=raw["status"], nbytes=raw["size"], seconds=time.monotonic() - start
        )
        self._save_cookies()
        return raw

    def _save_cookies(self) -> None:
        """Write the jar to the cache database when it changed since the last save (only
        with ``config.persist_cookies``)."""
        if self._cookies_saved < 0 or self._page_cache is None:
            return
        with self._lock:
            changes = self._core.cookie_changes
            if changes == self._cookies_saved:
                return
            # A save the database refused (locked by another process past the busy timeout)
            # is tried again after the next change or on close().
            if self._page_cache.save_cookies(self._core.cookies(persistent_only=True)):
                self._cookies_saved = changes


def _call_headers(headers: Mapping[str, str] | None) -> list[tuple[str, str]]:
    """A call's ``headers=``, checked like ``config.headers`` except that credentials are
    allowed (they go to this call's URL only)."""
    if headers is None:
        return []
    if not isinstance(headers, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        raise ValueError("headers must be a mapping of header name to string value")
    pairs = list(headers.items())
    _core.check_headers(pairs, credentials=True)
    return pairs


def _open_cache(config: Config) -> PageCache | None:
    if not config.cache_dir:
        return None
    from .cache import PageCache

    return PageCache.from_config(config)


def _stop_when_cancelled(
    progress: Callable[[int, int | None], None] | None,
    token: _core.CancelToken,
    url: str,
) -> Callable[[int, int | None], None]:
    """``progress`` that first stops the download once ``token`` is cancelled (checked as the
    body arrives, every 256 KiB): the core then removes the temp file."""

    def report(done: int, total: int | None) -> None:
        if token.cancelled:
            raise FetchTimeoutError(
                f"cancelled: the caller gave up on downloading {shown_url(url)}",
                url=url,
                reason="cancelled",
            )
        if progress is not None:
            progress(done, total)

    return report


def _check_complete(raw: Mapping[str, Any], headers: Mapping[str, str]) -> None:
    """Defence in depth: an unencoded body must match its declared Content-Length.

    Not when it came in chunks: ``Transfer-Encoding`` framed it and overrides any
    Content-Length (RFC 9112 6.3), as it does for a fetched page; the chunked framing's own
    end (the last chunk) is what proves the body complete.
    """
    declared = headers.get("content-length", "").strip()
    comparable = "content-encoding" not in headers and "transfer-encoding" not in headers
    if declared.isdigit() and comparable and int(declared) != raw["size"]:
        raise ConnectError(
            f"the connection ended after {raw['size']} of {declared} bytes",
            url=raw["url"],
            reason="incomplete-body",
        )


def _retry_after_of(exc: HTTPStatusError) -> str | None:
    response = exc.response
    headers = getattr(response, "headers", None)
    if headers is None and isinstance(response, Mapping):
        headers = response.get("headers")
    if isinstance(headers, Mapping):
        return headers.get("retry-after")
    if isinstance(headers, (list, tuple)):
        for item in headers:
            if isinstance(item, (list, tuple)) and len(item) == 2 and item[0] == "retry-after":
                return str(item[1])
    return None


def _deadline_error(url: str, timeout: float) -> FetchTimeoutError:
    return FetchTimeoutError(f"timed out after {timeout:g} s", url=url, reason="timeout")


def _stripped_longer(text: str, limit: int) -> bool:
    """``len(text.strip()) > limit`` without copying a long ``text``: only its edges are
    stripped (the whole text only when an edge is all whitespace)."""
    if len(text) <= limit:
        return False
    edge = 64
    if len(text) < 4 * edge:
        return len(text.strip()) > limit
    head, tail = text[:edge], text[-edge:]
    lead, trail = edge - len(head.lstrip()), edge - len(tail.rstrip())
    if lead == edge or trail == edge:
        return len(text.strip()) > limit
    return len(text) - lead - trail > limit


def _remaining(deadline: float) -> float:
    """Seconds left before ``deadline`` (monotonic), as a timeout the core accepts."""
    return max(0.001, deadline - time.monotonic())
