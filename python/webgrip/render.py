"""Script-rendered pages: headless Chromium whose only way out is the core's guarded proxy.

A browser resolves names and opens sockets by itself, and every script, image, frame,
WebSocket and redirect is a request the page chooses, so checking the first URL protects
nothing. Each render therefore gets its own :class:`webgrip._core.EgressProxy` (loopback,
ephemeral port, a fresh secret, the client's own policy object) and a fresh browser context
whose only proxy it is. The browser is launched so that nothing bypasses it: the launch-wide
proxy is a dead end (``no-egress.invalid``), the bypass list is ``<-loopback>`` (which also
removes Chromium's implicit loopback bypass), QUIC is off, WebRTC may not use unproxied UDP,
DNS prefetch is off, service workers are blocked and downloads refused.

Playwright's sync API is bound to the thread that started it, so one worker thread owns the
driver and the browser (the pool) and renders run one at a time on it; each caller waits
for its job until its own deadline, and a job that outlives it gets the browser killed
(process tree and temporary profile included). ``playwright`` is imported only here, and only
when a render runs (the ``webgrip[render]`` extra); the browser is the system's Chromium.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import re
import secrets
import shutil
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Any

from . import _cancel, _core
from .config import RENDER_MODES, Config
from .errors import BlockedURLError, FetchTimeoutError, RenderError
from .proxies import in_use as proxy_in_use

__all__ = [
    "RENDER_MODES", "RenderResult", "browser_executable", "is_script_shell", "looks_scripted",
    "render",
    "render_available", "shutdown",
]

#: The values of ``Config.render`` and ``fetch(render=...)``.

#: Requests (page, scripts, XHR, tunnels) one render may make through its proxy.
MAX_RENDER_REQUESTS = 256
#: Bytes one render may move through its proxy, as a multiple of ``max_response_bytes``.
RENDER_BYTES_FACTOR = 4
#: The page counts as settled once the DOM has not changed for this long.
QUIET_SECONDS = 0.5
#: Resource types not loaded unless a screenshot is taken.
SKIPPED_RESOURCES = frozenset({"image", "font", "media"})
#: Names the system browser goes by, in the order tried.
_BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Flags closing the ways around the proxy Playwright leaves open.
CHROMIUM_FLAGS: tuple[str, ...] = (
    "--disable-quic",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--dns-prefetch-disable",
    "--disable-background-networking",
    "--no-pings",
    "--disable-sync",
)
#: The browser-wide proxy: a name that never resolves (RFC 2606 ``.invalid``), so anything
#: outside a render's context goes nowhere. Given as flags: Playwright drops a launch proxy
#: named ``per-context``.
DEAD_END_PROXY: tuple[str, ...] = (
    "--proxy-server=http://no-egress.invalid:9",
    "--proxy-bypass-list=<-loopback>",
)


@dataclass(frozen=True)
class RenderResult:
    """What one render produced."""

    url: str
    """The URL the page ended on."""
    status: int
    html: str = field(repr=False)
    screenshot: bytes | None = field(default=None, repr=False)
    proxy: dict[str, Any] = field(default_factory=dict)
    """The proxy's stats: requests, refused (and the first refusals), bytes."""


def browser_executable(config: Config) -> str | None:
    """The browser to drive: ``config.browser_executable``, else the first system Chromium."""
    if config.browser_executable:
        path = os.path.expanduser(config.browser_executable)
        return path if os.access(path, os.X_OK) else None
    for name in _BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


#: The browser's egress proxy dials directly: with an upstream proxy configured, a render
#: would bypass it, so there is none.
_PROXY_REFUSED = ("rendering does not go through an upstream proxy (Config.proxy, proxy_for "
                  "or an environment proxy): the static page is used")


def render_available(config: Config, *, proxied: bool | None = None) -> str | None:
    """Why rendering cannot run here (``None`` when it can). ``proxied``: whether the client
    asking routes through an upstream proxy (a ``WebClient`` decides once, when it is made);
    ``None`` reads ``config`` and the environment now."""
    if proxy_in_use(config, os.environ) if proxied is None else proxied:
        return _PROXY_REFUSED
    if find_spec("playwright") is None:
        return "the render extra is not installed (pip install 'webgrip[render]')"
    if browser_executable(config) is None:
        return ("no Chromium found (install it, e.g. apt-get install chromium, or set "
                "browser_executable)")
    return None


_APP_ROOT = re.compile(
    rb"""<[a-z][^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|main-app)\b"""
    rb"""|<app-root\b|\bng-version\s*=|\bdata-reactroot\b|\bng-app\b""",
    re.IGNORECASE,
)
_SCRIPT_SRC = re.compile(rb"<script\b[^>]*\bsrc\s*=", re.IGNORECASE)
_MODULE_SCRIPT = re.compile(rb"<script\b[^>]*\btype\s*=\s*[\"']?module", re.IGNORECASE)
#: A selection this short says nothing: the page is built by its scripts.
SHELL_MAX_CHARS = 200


def looks_scripted(html: bytes) -> bool:
    """Whether a page ships an app root and script bundles (a cheap test on the raw HTML)."""
    head = html[: 512 * 1024]
    has_scripts = bool(_SCRIPT_SRC.search(head) or _MODULE_SCRIPT.search(head))
    return has_scripts and bool(_APP_ROOT.search(head))


def is_script_shell(html: bytes, selection: str) -> bool:
    """Whether a static page is an empty shell its scripts fill in: the extracted selection
    (the readable text) is tiny while the page ships an app root and script bundles."""
    return len(selection.strip()) <= SHELL_MAX_CHARS and looks_scripted(html)


# -- the pool: one worker thread owning the driver and the browser ---------------------------
class _Job:
    def __init__(self, work: Callable[[Any], Any]):
        self.work = work
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None


class _Pool:
    """One browser reused across renders, driven from its own thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._executable: str | None = None
        self._driver_pid: int | None = None
        self._browser_pids: list[int] = []
        self._profiles: list[str] = []

    def run(self, executable: str, work: Callable[[Any], Any], deadline: float,
            cancel: _core.CancelToken | None = None) -> Any:
        """``work(browser)`` on the worker, waited for until ``deadline`` (monotonic) or until
        ``cancel`` is cancelled; either way a job still running then gets the browser killed
        (the job cannot be interrupted from this thread, the processes can)."""
        job = _Job(work)
        with self._lock:
            if self._thread is not None and self._executable != executable:
                self._stop_locked()
            if self._thread is None or not self._thread.is_alive():
                # Each worker has its own queue: a killed one must not take the next jobs.
                self._executable, self._jobs = executable, queue.Queue()
                self._thread = threading.Thread(
                    target=self._serve, args=(executable, self._jobs), name="webgrip-render",
                    daemon=True)
                self._thread.start()
            self._jobs.put(job)
        # A little grace past the deadline: the job's own timeouts end it first normally.
        limit = deadline + 2.0
        while not job.done.wait(min(0.05, max(0.0, limit - time.monotonic()))):
            if cancel is not None and cancel.cancelled:
                self.kill()
                raise FetchTimeoutError("the render was cancelled; the browser was stopped",
                                        reason="cancelled")
            if time.monotonic() >= limit:
                self.kill()
                raise FetchTimeoutError("the render did not finish before the deadline; the "
                                        "browser was stopped", reason="timeout")
        if job.error is not None:
            raise job.error
        return job.result

    def _serve(self, executable: str, jobs: queue.Queue[_Job | None]) -> None:
        pw = browser = None
        try:
            from playwright.sync_api import sync_playwright

            before = set(_drivers())
            pw = sync_playwright().start()
            self._driver_pid = next((p for p in _drivers() if p not in before), None)
            while True:
                job = jobs.get()
                if job is None:
                    break
                try:
                    if browser is None or not browser.is_connected():
                        browser = _launch(pw, executable)
                        self._note_processes()
                    job.result = job.work(browser)
                except BaseException as exc:  # handed to the waiting caller
                    job.error = exc
                finally:
                    job.done.set()
        except BaseException as exc:  # the driver did not start: fail what is queued
            _fail_queue(jobs, RenderError(f"cannot start the browser driver: {exc}",
                                          reason="browser"))
        finally:
            with contextlib.suppress(Exception):
                if browser is not None:
                    browser.close()
            with contextlib.suppress(Exception):
                if pw is not None:
                    pw.stop()

    def _note_processes(self) -> None:
        """Remember the browser's processes and profile, to reap them if it must be killed."""
        if self._driver_pid is None:
            return
        self._browser_pids = _descendants(self._driver_pid)
        self._profiles = [p for pid in self._browser_pids for p in _profile_dirs(pid)]

    def _stop_locked(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None and thread.is_alive():
            self._jobs.put(None)
            thread.join(timeout=10)
            if thread.is_alive():
                self._kill_processes()

    def stop(self) -> None:
        """Close the browser and the driver (at exit, or to free the memory)."""
        with self._lock:
            self._stop_locked()

    def kill(self) -> None:
        """Kill the browser and the driver now (a render outlived its deadline)."""
        with self._lock:
            self._kill_processes()
            self._thread = None  # the old worker ends with its driver; a new one starts
            _fail_queue(self._jobs, FetchTimeoutError("the browser was stopped",
                                                      reason="timeout"))
            self._jobs.put(None)  # the old worker's last job

    def _kill_processes(self) -> None:
        pids = ([] if self._driver_pid is None else _descendants(self._driver_pid))
        pids = list(dict.fromkeys(pids + self._browser_pids))
        profiles = list(self._profiles) + [p for pid in pids for p in _profile_dirs(pid)]
        for pid in pids + ([self._driver_pid] if self._driver_pid else []):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for path in dict.fromkeys(profiles):
            shutil.rmtree(path, ignore_errors=True)
        self._driver_pid, self._browser_pids, self._profiles = None, [], []


def _fail_queue(jobs: queue.Queue[_Job | None], error: BaseException) -> None:
    while True:
        try:
            job = jobs.get_nowait()
        except queue.Empty:
            return
        if job is not None:
            job.error = error
            job.done.set()


def _launch(pw: Any, executable: str) -> Any:
    return pw.chromium.launch(
        executable_path=executable, headless=True, args=[*CHROMIUM_FLAGS, *DEAD_END_PROXY],
        handle_sigint=False, handle_sigterm=False, handle_sighup=False,
    )


def _drivers() -> list[int]:
    """This process's Playwright driver children (their command line says ``run-driver``)."""
    out = []
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as f:
            if b"run-driver" in f.read():
                out.append(pid)
    return out


def _descendants(root: int) -> list[int]:
    """Every process below ``root`` (Linux ``/proc``; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
                ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
                children.setdefault(ppid, []).append(int(entry))
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _profile_dirs(pid: int) -> list[str]:
    with contextlib.suppress(OSError):
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().split(b"\0")
        return [a.split(b"=", 1)[1].decode(errors="replace") for a in args
                if a.startswith(b"--user-data-dir=")]
    return []


_POOL = _Pool()


def shutdown() -> None:
    """Close the shared browser (also done at interpreter exit)."""
    _POOL.stop()


atexit.register(shutdown)


# -- one render ---------------------------------------------------------------------------
#: Installed before any page script: the time of the DOM's last change.
_OBSERVER_JS = """
window.__webgripQuiet = performance.now();
new MutationObserver(() => { window.__webgripQuiet = performance.now(); })
  .observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""
#: Milliseconds since the DOM last changed.
_QUIET_JS = "() => performance.now() - (window.__webgripQuiet || 0)"


def render(
    core: _core.Client, config: Config, url: str, *, deadline: float,
    screenshot: bool = False, full_page: bool = False, proxied: bool | None = None,
) -> RenderResult:
    """Load ``url`` in the guarded browser until the network is idle or the DOM stops changing
    (whichever comes first) and return its DOM (and a PNG screenshot when asked), all by
    ``deadline`` (monotonic). Raises :class:`~webgrip.errors.RenderError` when no browser can
    run, :class:`~webgrip.errors.BlockedURLError` when the page itself is refused and
    :class:`~webgrip.errors.FetchTimeoutError` past the deadline. ``proxied`` as for
    :func:`render_available`."""
    why = render_available(config, proxied=proxied)
    executable = browser_executable(config)
    if why is not None or executable is None:
        reason = "proxy" if why == _PROXY_REFUSED else "no-browser"
        raise RenderError(f"cannot render {url}: {why}", url=url, reason=reason)
    core.check_url(url)  # the first URL gets the usual, typed refusal
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchTimeoutError("no time left to render", url=url, reason="timeout")

    def work(browser: Any) -> RenderResult:
        return _render_in(browser, core, config, url, deadline, screenshot, full_page)

    return _POOL.run(executable, work, deadline, _cancel.current())  # type: ignore[no-any-return]


def _ms_left(deadline: float) -> float:
    return max(1.0, (deadline - time.monotonic()) * 1000)


def _render_in(
    browser: Any, core: _core.Client, config: Config, url: str, deadline: float,
    screenshot: bool, full_page: bool,
) -> RenderResult:
    from playwright.sync_api import Error as PlaywrightError

    secret = secrets.token_urlsafe(24)
    proxy = _core.EgressProxy(
        core, secret=secret, timeout=max(0.001, deadline - time.monotonic()),
        max_bytes=config.max_response_bytes * RENDER_BYTES_FACTOR,
        max_connections=MAX_RENDER_REQUESTS,
    )
    context = None
    try:
        context = browser.new_context(
            proxy={"server": f"http://127.0.0.1:{proxy.port}", "bypass": "<-loopback>",
                   "username": _core.EgressProxy.user, "password": secret},
            service_workers="block", accept_downloads=False, user_agent=config.user_agent,
            java_script_enabled=True,
        )
        context.set_default_timeout(_ms_left(deadline))

        def route(r: Any) -> None:
            req = r.request
            if not req.url.startswith(("http://", "https://")) or (
                    not screenshot and req.resource_type in SKIPPED_RESOURCES):
                r.abort()
            else:
                r.fallback()

        context.route("**/*", route)
        context.add_init_script(_OBSERVER_JS)
        page = context.new_page()
        page.on("download", lambda d: d.cancel())
        # The page's own navigations (a JavaScript check that passes reloads the page): the
        # status reported is that of the document shown, not of the first one.
        documents: list[Any] = []
        page.on("response", lambda r: documents.append(r) if (
            r.request.is_navigation_request() and r.frame == page.main_frame) else None)
        try:
            response = page.goto(url, wait_until="domcontentloaded", timeout=_ms_left(deadline))
        except PlaywrightError as exc:
            raise _navigation_error(url, exc, proxy.stats(), deadline) from None
        if response is not None and response.headers.get("x-webgrip-refused"):
            reason = response.headers["x-webgrip-refused"]
            raise BlockedURLError(f"Refused {response.url}: the render proxy refused it "
                                  f"({reason})", url=response.url, reason=reason)
        # Leave part of the budget for reading the DOM when the page never settles.
        html = _settled_content(page, deadline - min(1.0, 0.2 * (deadline - time.monotonic())))
        shot = page.screenshot(full_page=full_page, type="png",
                                timeout=_ms_left(deadline)) if screenshot else None
        shown = documents[-1] if documents else response
        return RenderResult(url=page.url, status=shown.status if shown else 200,
                            html=html, screenshot=shot, proxy=dict(proxy.stats()))
    except PlaywrightError as exc:
        if time.monotonic() >= deadline:
            raise FetchTimeoutError(f"the render of {url} ran out of time", url=url,
                                    reason="timeout") from None
        raise RenderError(f"the browser failed on {url}: {str(exc).splitlines()[0]}",
                          url=url, reason="browser") from None
    finally:
        if context is not None:
            with contextlib.suppress(Exception):
                context.close()
        proxy.stop()


#: Navigations of the page itself (reloads, redirects by script) waited for before its DOM is
#: read: a JavaScript check reloads once when it passes.
MAX_PAGE_NAVIGATIONS = 3


def _settled_content(page: Any, deadline: float) -> str:
    """The DOM once settled; when the page navigates meanwhile (a script reloading it), the
    new document's, settled in turn (at most :data:`MAX_PAGE_NAVIGATIONS` times)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(MAX_PAGE_NAVIGATIONS):
        _settle(page, deadline)
        try:
            return str(page.content())
        except PlaywrightError:  # "the page is navigating": wait for the next document
            with contextlib.suppress(PlaywrightError):
                page.wait_for_load_state("domcontentloaded", timeout=_ms_left(deadline))
    return str(page.content())


def _settle(page: Any, deadline: float) -> None:
    """Wait for network idle or a DOM that stopped changing, whichever is first."""
    from playwright.sync_api import Error as PlaywrightError

    while time.monotonic() + 0.05 < deadline:
        try:
            if page.evaluate(_QUIET_JS) >= QUIET_SECONDS * 1000:
                return
        except PlaywrightError:
            return  # navigated away meanwhile: take what is there
        try:
            page.wait_for_load_state(
                "networkidle", timeout=max(1.0, min(0.1, deadline - time.monotonic()) * 1000))
            return
        except PlaywrightError:
            pass


def _navigation_error(url: str, exc: Exception, stats: Any, deadline: float) -> Exception:
    if time.monotonic() >= deadline:
        return FetchTimeoutError(f"the render of {url} ran out of time", url=url,
                                 reason="timeout")
    refusals = stats.get("refusals") or []
    if refusals:
        target, reason = refusals[0]
        return BlockedURLError(f"Refused {url}: the render proxy refused {target} ({reason})",
                               url=url, reason=reason)
    return RenderError(f"the browser could not load {url}: {str(exc).splitlines()[0]}",
                       url=url, reason="browser")
