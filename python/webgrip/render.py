"""Script-rendered pages: headless Chromium whose only way out is the core's guarded proxy.

A browser resolves names and opens sockets by itself, and every script, image, frame,
WebSocket and redirect is a request the page chooses, so checking the first URL protects
nothing. Each render therefore gets its own :class:`webgrip._core.EgressProxy` (loopback,
ephemeral port, a fresh secret, the client's own policy object) and a fresh browser context
whose only proxy it is. The browser is launched so that nothing bypasses it: the launch-wide
proxy is a dead end (``no-egress.invalid``), the bypass list is ``<-loopback>`` (which also
removes Chromium's implicit loopback bypass), QUIC is off, WebRTC may not use unproxied UDP,
DNS prefetch is off, service workers are blocked and downloads refused.

Playwright's sync API is bound to the thread that started it, so each worker thread of the
pool owns a driver and a browser; as many renders run at once as there are workers (one per
two cores, at most four, by default), the rest wait their turn. Each caller waits for its job
until its own deadline, and a job that outlives it gets its worker's browser killed (process
tree and temporary profile included); a job no worker took by then is dropped.
``playwright`` is imported only here, and only when a render runs (the ``webgrip[render]``
extra); the browser is the system's Chromium.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Any

from . import _cancel, _core
from .config import RENDER_MODES, Config
from .errors import (
    BlockedURLError,
    FetchTimeoutError,
    RenderError,
    ResponseTooLargeError,
    UnsupportedContentError,
    WebgripError,
)
from .proxies import in_use as proxy_in_use

#: Where the browser's own words go (its command line, its stderr, Playwright's call log):
#: at ``DEBUG``, never into an error an agent reads.
logger = logging.getLogger("webgrip.render")


class _KilledDriverNoise(logging.Filter):
    """Drops the one asyncio complaint a killed driver leaves behind. Killing a worker's
    driver (a render past its deadline, cancelled, or interrupted by Ctrl-C) ends its pipe,
    and Playwright stores that as an exception on a future nobody awaits; asyncio then
    prints "Future exception was never retrieved" and the exception when the future is
    collected, often at exit, after the render's own error has said what happened."""

    MESSAGE = "Connection closed while reading from the driver"

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (type(exc) is Exception and str(exc) == self.MESSAGE)


logging.getLogger("asyncio").addFilter(_KilledDriverNoise())

__all__ = [
    "HTML_TYPES",
    "PROXY_REFUSED",
    "RENDER_MODES",
    "SHELL_MAX_CHARS",
    "RenderResult",
    "browser_executable",
    "is_script_shell",
    "looks_scripted",
    "render",
    "render_available",
    "require_browser",
    "script_shell_reason",
    "shutdown",
]

#: The values of ``Config.render`` and ``fetch(render=...)``.

#: Requests (page, scripts, XHR, tunnels) one render may make through its proxy.
MAX_RENDER_REQUESTS = 256
#: Bytes one render may move through its proxy, as a multiple of ``max_response_bytes``.
RENDER_BYTES_FACTOR = 4
#: The page counts as settled once it has loaded (``document.readyState`` is ``complete``),
#: no request of its own is in flight and the DOM has not changed for this long...
SETTLED_SECONDS = 0.1
#: ... or, whatever the network does (a long poll, a stream), once the DOM has not changed
#: for this long.
QUIET_SECONDS = 0.5
#: A script, fetch or XHR of the page's own still in flight for less than this holds the page
#: unsettled even when its DOM is quiet: a page built from an API's answer that took longer
#: than QUIET_SECONDS (a slow API, a loaded machine) was read before its text was there.
#: A long poll or a stream stops holding it once this old.
DATA_WAIT_SECONDS = 3.0
#: ... or, whatever the page does (a ticker, an animated carousel, a feed that never stops
#: growing), once it has loaded for this long: the DOM is read as it is then. Without this
#: cap such a page held its worker for the whole deadline, and with one worker (2 cores) a
#: concurrent caller's render waited behind it until its own deadline passed.
MAX_SETTLE_SECONDS = 5.0
#: Resource types not loaded unless a screenshot is taken.
SKIPPED_RESOURCES = frozenset({"image", "font", "media"})
#: Memory the browser's process tree may use (the sum of its processes' proportional set
#: sizes, so shared pages count once) before it is killed and the render fails (``RenderError``,
#: reason ``memory``). A launched Chromium with one page takes 300-600 MiB; a page's
#: ArrayBuffers took it past 7 GiB within one timeout.
MAX_BROWSER_BYTES = 1024 * 1024 * 1024
#: How often that memory is read while a render runs (at ~300 MB/s of growth, the overshoot
#: past the cap stays near 100 MB).
MEMORY_POLL_SECONDS = 0.25
#: The largest full-page screenshot, in CSS pixels: the rest of a taller (wider) page is cut.
#: A 10^5-px-tall page otherwise takes 8 s and GiBs of bitmaps.
MAX_SCREENSHOT_HEIGHT = 16384
MAX_SCREENSHOT_WIDTH = 4096
#: The render's own timeouts end this long before the call's deadline, leaving time to close
#: its context and proxy; a job still running this long *after* the deadline gets the
#: browser killed (a page blocking its renderer never lets Playwright's calls return).
CLEANUP_SECONDS = 0.2
KILL_GRACE_SECONDS = 0.3
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
    content_type: str | None = None
    """The media type of the document shown (its ``Content-Type``, lower-cased, without
    parameters); ``None`` when it sent none."""


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
#: would bypass it, so there is none. (Whether the static page is used instead is the
#: caller's to say: ``auto`` and the CLI's ``--render`` use it, ``fetch(render="always")``
#: raises.)
PROXY_REFUSED = (
    "rendering does not go through an upstream proxy (Config.proxy, proxy_for "
    "or an environment proxy), and one is configured"
)

#: Documents the browser shows as pages: anything else (a PDF in its viewer, JSON or text in
#: a ``<pre>``, an image) has no page to read or to photograph.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def render_available(config: Config, *, proxied: bool | None = None) -> str | None:
    """Why rendering cannot run here (``None`` when it can). ``proxied``: whether the client
    asking routes through an upstream proxy (a ``WebClient`` decides once, when it is made);
    ``None`` reads ``config`` and the environment now."""
    if proxy_in_use(config, os.environ) if proxied is None else proxied:
        return PROXY_REFUSED
    if find_spec("playwright") is None:
        return "the render extra is not installed (pip install 'webgrip[render]')"
    if config.browser_executable and browser_executable(config) is None:
        # The setting names the browser: pointing at the system's Chromium would be wrong.
        path = os.path.expanduser(config.browser_executable)
        what = "is not executable" if os.path.exists(path) else "does not exist"
        return (
            f"browser_executable {path!r} is not an executable browser (it {what}); point "
            "browser_executable (WEBGRIP_BROWSER_EXECUTABLE) at a Chromium or Chrome binary, "
            "or leave it unset to use the one installed"
        )
    if browser_executable(config) is None:
        return (
            "no Chromium found (install it, e.g. apt-get install chromium, or set "
            "browser_executable)"
        )
    return None


def require_browser(config: Config, url: str, *, proxied: bool | None = None) -> str:
    """The browser a render of ``url`` would run, or :class:`~webgrip.errors.RenderError`
    (reason ``proxy`` or ``no-browser``, the message saying why) when none can run here."""
    why = render_available(config, proxied=proxied)
    executable = browser_executable(config)
    if why is not None or executable is None:
        reason = "proxy" if why == PROXY_REFUSED else "no-browser"
        raise RenderError(f"cannot render {url}: {why}", url=url, reason=reason)
    return executable


#: A selection this short says nothing: the page is built by its scripts.
SHELL_MAX_CHARS = _core.SHELL_MAX_CHARS


def script_shell_reason(html: bytes) -> str | None:
    """Why a page looks like an app shell its scripts build (``"app-root #root"``,
    ``"noscript"``, ``"empty body with scripts"``, ...), else ``None``: one linear pass over
    the raw HTML in the core, without the GIL (:func:`webgrip._core.script_shell_reason`).
    Why not a regex here: Python's ``re`` backtracks, and patterns of the shape
    ``<script[^>]*src=`` took minutes on a megabyte of ``<script `` while holding the GIL,
    past any deadline."""
    return _core.script_shell_reason(html)


def looks_scripted(html: bytes) -> bool:
    """Whether a page ships scripts and a root they fill (an app root, a custom element,
    a ``<noscript>`` asking for JavaScript, or a body with nothing but scripts)."""
    return _core.script_shell_reason(html) is not None


def is_script_shell(html: bytes, selection: str) -> bool:
    """Whether a static page is an empty shell its scripts fill in: the extracted selection
    (the readable text) is tiny while the page looks scripted (:func:`looks_scripted`)."""
    return len(selection.strip()) <= SHELL_MAX_CHARS and looks_scripted(html)


# -- the pool: worker threads, each owning a driver and a browser ----------------------------
#: Renders running at once by default: one browser per two cores, at most four (each browser
#: is 300-600 MiB, capped at :data:`MAX_BROWSER_BYTES`). A render keeps about a core busy
#: (Chromium, the driver, Playwright's Python side): on 2 cores one worker did 2.1 light
#: renders/s and two did 1.7 (benches/render.py, docs/benchmarks.md).
DEFAULT_RENDER_WORKERS = max(1, min(4, (os.cpu_count() or 1) // 2))
#: A render running this long is stuck (a page that loads and settles is read within
#: :data:`MAX_SETTLE_SECONDS` of loading; one blocking its renderer holds its worker until its
#: deadline): while every worker is on such a render, a queued one gets a spare worker (one
#: at a time, ending once the queue is empty) instead of waiting for the stuck ones'
#: deadlines.
STUCK_SECONDS = MAX_SETTLE_SECONDS + 5.0


class _Job:
    def __init__(self, work: Callable[[Any], Any]):
        self.work = work
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        #: The worker running it, once one took it (under the pool's lock).
        self.worker: _Worker | None = None
        #: Set by a caller that stopped waiting before any worker took it: skipped.
        self.abandoned = False
        #: Set when the memory watchdog killed the browser under this job: its error then.
        self.memory_error: RenderError | None = None
        #: When a worker took it (monotonic; under the pool's lock).
        self.started: float | None = None


class _Worker:
    """One thread owning one Playwright driver and the browser it launched (Playwright's sync
    API is bound to the thread that started it), taking jobs from the pool's queue."""

    #: Driver starts one at a time: a new driver is found as the process that appeared.
    _starting = threading.Lock()

    def __init__(self, pool: _Pool, executable: str, *, spare: bool = False):
        self.pool, self.executable = pool, executable
        #: Started past the pool's size because every worker was stuck (see
        #: :data:`STUCK_SECONDS`): ends once it finds the queue empty.
        self.spare = spare
        self.driver_pid: int | None = None
        self.browser_pids: list[int] = []
        #: Folders the browser and the driver made for it (profile, Playwright's artifacts,
        #: the browser's TMPDIR): a killed browser or driver leaves them behind.
        self.profiles: list[str] = []
        self.current: _Job | None = None
        #: Killed: takes no more jobs (the driver is gone).
        self.retired = False
        self.thread = threading.Thread(target=self._serve, name="webgrip-render", daemon=True)

    @property
    def idle(self) -> bool:
        return self.current is None and not self.retired

    def _serve(self) -> None:
        pool = self.pool
        pw = browser = None
        stopped = threading.Event()
        try:
            from playwright.sync_api import sync_playwright

            with _Worker._starting:
                before = set(_drivers())
                pw = sync_playwright().start()
                self.driver_pid = next((p for p in _drivers() if p not in before), None)
            if self.driver_pid is not None:
                threading.Thread(
                    target=self._watch,
                    args=(self.driver_pid, stopped),
                    name="webgrip-render-memory",
                    daemon=True,
                ).start()
            while True:
                job = pool.next_job(self)
                if job is None:
                    break
                try:
                    if browser is None or not browser.is_connected():
                        self._remove_folders()  # of a browser killed for its memory
                        browser = None
                        try:
                            browser, self.profiles = _launch(pw, self.executable)
                        except Exception as exc:
                            raise _start_error(self.executable, exc) from None
                        self._note_processes()
                    job.result = job.work(browser)
                except BaseException as exc:  # handed to the waiting caller
                    job.error = exc
                finally:
                    if job.memory_error is not None:  # the real cause of the browser's end
                        job.result, job.error = None, job.memory_error
                    pool.finished(self, job)
        except BaseException as exc:  # the driver did not start: fail this worker's job
            logger.debug("the Playwright driver did not start: %s", exc)
            pool.failed(
                self,
                RenderError(
                    f"cannot start the browser driver ({_first_line(exc)}); reinstall the "
                    "render extra (pip install 'webgrip[render]')",
                    reason="no-browser",
                ),
            )
        finally:
            stopped.set()
            with contextlib.suppress(Exception):
                if browser is not None:
                    browser.close()
            with contextlib.suppress(Exception):
                if pw is not None:
                    pw.stop()
            self._remove_folders()

    def _watch(self, driver: int, stopped: threading.Event) -> None:
        """While a job runs, the browser tree's memory; past :data:`MAX_BROWSER_BYTES` the
        browser (not the driver) is killed: Playwright then fails the job's pending call at
        once, removes its own folders, and the next job launches a new browser."""
        while not stopped.wait(MEMORY_POLL_SECONDS):
            job = self.current
            if job is None or job.memory_error is not None:
                continue
            pids = _descendants(driver)
            used = _tree_memory(pids)
            if used <= MAX_BROWSER_BYTES:
                continue
            job.memory_error = RenderError(
                f"the page used more than {MAX_BROWSER_BYTES // (1024 * 1024)} MiB in the "
                f"browser ({used // (1024 * 1024)} MiB); the browser was stopped",
                reason="memory",
            )
            with self.pool.lock:
                if self.current is job:
                    _kill_tree(driver, pids)
                    self._remove_folders()

    def _note_processes(self) -> None:
        """Remember the browser's processes and profile, to reap them if it must be killed."""
        if self.driver_pid is None:
            return
        self.browser_pids = _descendants(self.driver_pid)
        self.profiles = list(
            dict.fromkeys(
                self.profiles + [p for pid in self.browser_pids for p in _profile_dirs(pid)]
            )
        )

    def _remove_folders(self) -> None:
        profiles, self.profiles = self.profiles, []
        for path in profiles:
            shutil.rmtree(path, ignore_errors=True)

    def kill(self) -> None:
        """Kill the browser and the driver now; the thread ends once its calls fail."""
        self.retired = True
        driver = self.driver_pid
        pids = [] if driver is None else _descendants(driver)
        pids = list(dict.fromkeys(pids + self.browser_pids))
        self.profiles += [p for pid in pids for p in _profile_dirs(pid)]
        _kill_tree(driver, pids + ([driver] if driver else []))
        self._remove_folders()
        self.driver_pid, self.browser_pids = None, []


class _Pool:
    """Up to ``size`` workers, each with its own browser, sharing one queue of renders: as
    many pages render at once as there are workers, the rest wait their turn (within their
    own deadline). A render that outlives its deadline gets its own worker's browser killed;
    the others go on."""

    def __init__(self, size: int = DEFAULT_RENDER_WORKERS) -> None:
        self.lock = threading.Lock()
        self.size = size
        self._queue: list[_Job] = []
        self._wake = threading.Condition(self.lock)
        self._workers: list[_Worker] = []
        self._executable: str | None = None

    def run(
        self,
        executable: str,
        work: Callable[[Any], Any],
        deadline: float,
        cancel: _core.CancelToken | None = None,
        size: int | None = None,
    ) -> Any:
        """``work(browser)`` on a worker, waited for until ``deadline`` (monotonic) or until
        ``cancel`` is cancelled; either way a job still running then gets its browser killed
        (the job cannot be interrupted from this thread, the processes can), and a job no
        worker took yet is dropped."""
        job = _Job(work)
        with self.lock:
            if size is not None and max(1, size) != self.size:
                # The pool is the process's: the latest render's setting sizes it, and
                # workers past it end after the render they are on.
                self.size = max(1, size)
                live = [w for w in self._workers if w.thread.is_alive() and not w.retired]
                for w in live[self.size :]:
                    w.retired = True
                self._wake.notify_all()
            if self._executable != executable:
                self._stop_locked()
                self._executable = executable
            self._workers = [w for w in self._workers if w.thread.is_alive() and not w.retired]
            self._queue.append(job)
            idle = sum(w.idle for w in self._workers)
            if idle < len(self._queue) and len(self._workers) < self.size:
                worker = _Worker(self, executable)
                self._workers.append(worker)
                worker.thread.start()
            self._wake.notify()
        # The job's own timeouts end it before the deadline; this grace only covers a job
        # stuck in a call that has none (an evaluate in a renderer a page keeps busy).
        limit = deadline + KILL_GRACE_SECONDS
        while not job.done.wait(min(0.05, max(0.0, limit - time.monotonic()))):
            if job.worker is None:
                self._staff(job, executable)
            cancelled = cancel is not None and cancel.cancelled
            if cancelled or time.monotonic() >= limit:
                self._give_up(job)
                if cancelled:
                    raise FetchTimeoutError(
                        "the render was cancelled; the browser was stopped", reason="cancelled"
                    )
                raise FetchTimeoutError(
                    "the render did not finish before the deadline; the browser was stopped",
                    reason="timeout",
                )
        if job.error is not None:
            raise _typed(job.error)
        return job.result

    def _staff(self, job: _Job, executable: str) -> None:
        """Start a worker for ``job``, still queued, if none will take it soon: one replacing
        a worker killed meanwhile (its render's deadline passed), or a spare while every
        worker is on a stuck render (:data:`STUCK_SECONDS`)."""
        with self.lock:
            if job.worker is not None or job.abandoned or self._executable != executable:
                return
            live = [w for w in self._workers if w.thread.is_alive() and not w.retired]
            now = time.monotonic()
            if len(live) < self.size:
                spare = False
                if sum(w.idle for w in live) >= len(self._queue):
                    return
            elif any(w.spare for w in live) or not all(
                w.current is not None
                and w.current.started is not None
                and now - w.current.started >= STUCK_SECONDS
                for w in live
            ):
                return
            else:
                spare = True
            worker = _Worker(self, executable, spare=spare)
            self._workers = [*live, worker]
            worker.thread.start()
            self._wake.notify()

    def _give_up(self, job: _Job) -> None:
        with self.lock:
            if job.worker is None:  # still queued: nothing to stop
                job.abandoned = True
                with contextlib.suppress(ValueError):
                    self._queue.remove(job)
                return
            if not job.done.is_set() and job.worker.current is job:
                job.worker.kill()

    def next_job(self, worker: _Worker) -> _Job | None:
        """The next queued job for ``worker``; ``None`` once it is retired or stopped."""
        with self.lock:
            while True:
                if worker.retired or worker not in self._workers:
                    return None
                while self._queue:
                    job = self._queue.pop(0)
                    if not job.abandoned:
                        job.worker, worker.current = worker, job
                        job.started = time.monotonic()
                        return job
                if worker.spare:  # its one render done (or taken by another): it ends
                    worker.retired = True
                    return None
                self._wake.wait()

    def finished(self, worker: _Worker, job: _Job) -> None:
        with self.lock:
            worker.current = None
        job.done.set()

    def failed(self, worker: _Worker, error: BaseException) -> None:
        """``worker`` could not start: its job, and the queue if no other worker is left to
        take it, fail with ``error``."""
        with self.lock:
            worker.retired = True
            if worker in self._workers:
                self._workers.remove(worker)
            jobs = [] if self._workers else self._queue
            if worker.current is not None:
                jobs = [worker.current, *jobs]
            for job in jobs:
                job.error = error
                job.done.set()
            if not self._workers:
                self._queue = []
            worker.current = None

    def driver_pids(self) -> list[int]:
        with self.lock:
            return [w.driver_pid for w in self._workers if w.driver_pid is not None]

    def _stop_locked(self) -> None:
        workers, self._workers = self._workers, []
        for w in workers:
            w.retired = True
        self._wake.notify_all()
        self.lock.release()
        try:
            for w in workers:
                w.thread.join(timeout=10)
                if w.thread.is_alive():
                    w.kill()
        finally:
            self.lock.acquire()

    def stop(self) -> None:
        """Close every browser and driver (at exit, or to free the memory)."""
        with self.lock:
            self._stop_locked()

    def kill(self) -> None:
        """Kill every browser and driver now; queued renders fail."""
        with self.lock:
            workers, self._workers = self._workers, []
            queued, self._queue = self._queue, []
            self._wake.notify_all()
        for w in workers:
            w.kill()
        for job in queued:
            job.error = FetchTimeoutError("the browser was stopped", reason="timeout")
            job.done.set()


def _kill_tree(root: int | None, pids: list[int]) -> None:
    """SIGKILL ``pids`` and whatever ``root`` forks meanwhile. Each is stopped first, then
    the tree read again until nothing new appears: a zygote killed while it forks a renderer
    would leave an orphan no later read finds (it is re-parented away from ``root``)."""
    seen = dict.fromkeys(pids)
    for _ in range(10):
        for pid in seen:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        new = [p for p in (_descendants(root) if root is not None else []) if p not in seen]
        if not new:
            break
        seen.update(dict.fromkeys(new))
    for pid in seen:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _tree_memory(pids: list[int]) -> int:
    """Bytes used by ``pids``: proportional set sizes (shared pages divided among their
    users, so the renderers' shared libraries count once), else resident sizes."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            try:
                with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                    pss = next(line for line in f if line.startswith(b"Pss:"))
                total += int(pss.split()[1]) * 1024
            except (OSError, StopIteration):
                with open(f"/proc/{pid}/statm", "rb") as f:
                    total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return total


#: Folders Playwright's driver makes in the temporary directory for each browser.
_PLAYWRIGHT_FOLDERS = ("playwright-artifacts-", "playwright_chromiumdev_profile-")


def _playwright_folders(tmp: str) -> set[str]:
    with contextlib.suppress(OSError):
        return {os.path.join(tmp, n) for n in os.listdir(tmp) if n.startswith(_PLAYWRIGHT_FOLDERS)}
    return set()


def _launch(pw: Any, executable: str) -> tuple[Any, list[str]]:
    """The browser, and the folders to remove once it is gone: its own TMPDIR (Chromium
    leaves ``.org.chromium.Chromium.*`` there when killed) and those the driver made for it
    (found as the new ``playwright-*`` folders: the driver names them, not us)."""
    tmp = tempfile.gettempdir()
    before = _playwright_folders(tmp)
    private = tempfile.mkdtemp(prefix="webgrip-browser-")
    try:
        browser = pw.chromium.launch(
            executable_path=executable,
            headless=True,
            args=[*CHROMIUM_FLAGS, *DEAD_END_PROXY],
            handle_sigint=False,
            handle_sigterm=False,
            handle_sighup=False,
            env={**os.environ, "TMPDIR": private},
        )
    except BaseException:
        # Also when the driver was killed mid-launch (a render cancelled then), which leaves
        # its folders behind.
        for path in [private, *(_playwright_folders(tmp) - before)]:
            shutil.rmtree(path, ignore_errors=True)
        raise
    return browser, [private, *sorted(_playwright_folders(tmp) - before)]


#: What Playwright says when the browser (or its page) went away under a call.
_CLOSED = "Target page, context or browser has been closed"


def _first_line(exc: BaseException, limit: int = 160) -> str:
    """The first line of ``exc``'s message, cut at ``limit`` characters: Playwright's messages
    go on with the browser's command line, its stderr and a call log (4 KB and more)."""
    line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"


def _start_error(executable: str, exc: Exception) -> RenderError:
    """The error for a browser that would not start (a wrong binary, missing libraries, a
    crash at launch): what happened in one line and what to do, the rest in the debug log."""
    logger.debug("the browser %s did not start: %s", executable, exc)
    text = str(exc)
    at = text.rfind("exitCode=")
    code = text[at + len("exitCode=") :].split(",", 1)[0].strip() if at >= 0 else ""
    how = f"it exited at once with status {code}" if code.lstrip("-").isdigit() else "it failed"
    return RenderError(
        f"the browser {executable} did not start ({how}); install Chromium (e.g. apt-get "
        "install chromium) or set browser_executable (WEBGRIP_BROWSER_EXECUTABLE) to a "
        "working one",
        reason="no-browser",
    )


def _typed(error: BaseException) -> BaseException:
    """``error`` as the caller sees it: a webgrip error (or a control exception) unchanged,
    anything else (a Playwright error no code path above expected) a short
    :class:`RenderError`, its full text in the debug log."""
    if isinstance(error, WebgripError) or not isinstance(error, Exception):
        return error
    logger.debug("the render failed: %r", error)
    return RenderError(f"the browser failed: {_first_line(error)}", reason="browser")


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
                ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
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
        return [
            a.split(b"=", 1)[1].decode(errors="replace")
            for a in args
            if a.startswith(b"--user-data-dir=")
        ]
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
#: Milliseconds since the DOM last changed, and whether the page has loaded.
_QUIET_JS = (
    "() => [performance.now() - (window.__webgripQuiet || 0), document.readyState === 'complete']"
)
#: The DOM serialized as ``page.content()`` does, or only its length when it has more UTF-16
#: units than the byte cap (each unit is at least one byte of UTF-8): an 80 MB DOM is not
#: copied out of the browser only to be refused.
_CONTENT_JS = """limit => {
  let html = '';
  if (document.doctype) html = new XMLSerializer().serializeToString(document.doctype);
  if (document.documentElement) html += document.documentElement.outerHTML;
  return html.length > limit ? html.length : html;
}"""


def render(
    core: _core.Client,
    config: Config,
    url: str,
    *,
    deadline: float,
    screenshot: bool = False,
    full_page: bool = False,
    proxied: bool | None = None,
) -> RenderResult:
    """Load ``url`` in the guarded browser until the network is idle or the DOM stops changing
    (whichever comes first) and return its DOM (and a PNG screenshot when asked), all by
    ``deadline`` (monotonic). Raises :class:`~webgrip.errors.RenderError` when no browser can
    run or the page passes :data:`MAX_BROWSER_BYTES` (reason ``memory``),
    :class:`~webgrip.errors.BlockedURLError` when the page or a navigation of its own is
    refused (or passes ``max_redirects``: reason ``too-many-redirects``),
    :class:`~webgrip.errors.ResponseTooLargeError` when its HTML passes
    ``max_response_bytes`` and :class:`~webgrip.errors.FetchTimeoutError` past the deadline.
    ``proxied`` as for :func:`render_available`."""
    executable = require_browser(config, url, proxied=proxied)
    core.check_url(url)  # the first URL gets the usual, typed refusal
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchTimeoutError("no time left to render", url=url, reason="timeout")

    def work(browser: Any) -> RenderResult:
        # The job's own timeouts end before the deadline (see CLEANUP_SECONDS).
        work_deadline = deadline - min(CLEANUP_SECONDS, 0.1 * max(0.0, left))
        return _render_in(browser, core, config, url, work_deadline, screenshot, full_page)

    try:
        # The pool's jobs hold any work's result (Any): this one's is work's RenderResult.
        result: RenderResult = _POOL.run(
            executable,
            work,
            deadline,
            _cancel.current(),
            size=config.render_workers or DEFAULT_RENDER_WORKERS,
        )
    except WebgripError as exc:
        if exc.url is None:  # the pool's own errors (the browser did not start) name no page
            exc.url = url
        raise
    return result


def _ms_left(deadline: float) -> float:
    return max(1.0, (deadline - time.monotonic()) * 1000)


class _Navigations:
    """What the main frame did during one render: the documents it showed, the navigations
    that failed, and a redirect chain past ``max_redirects``, which is stopped at once
    (Chromium follows up to 20 by itself, and Playwright's ``route`` never sees a redirect)."""

    def __init__(self, page: Any, cdp: Any, max_redirects: int):
        self._page, self._cdp, self._max = page, cdp, max_redirects
        #: ``("document", response)`` or ``("failed", url, failure)``, in order.
        self.events: list[tuple[Any, ...]] = []
        self.too_many: tuple[str, str] | None = None
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("requestfailed", self._on_failed)

    def _ours(self, request: Any) -> bool:
        try:
            return bool(request.is_navigation_request() and request.frame == self._page.main_frame)
        except Exception:  # a worker's request has no frame: no navigation of the page
            return False

    def _on_response(self, response: Any) -> None:
        if self._ours(response.request):
            self.events.append(("document", response))

    def _on_failed(self, request: Any) -> None:
        if self._ours(request):
            self.events.append(("failed", request.url, request.failure or ""))

    def _on_request(self, request: Any) -> None:
        if self.too_many is not None or not self._ours(request):
            return
        hops, previous = 0, request.redirected_from
        while previous is not None:
            hops, previous = hops + 1, previous.redirected_from
        if hops > self._max:
            self.too_many = (request.redirected_from.url, request.url)
            with contextlib.suppress(Exception):
                self._cdp.send("Page.stopLoading")

    @property
    def documents(self) -> list[Any]:
        return [e[1] for e in self.events if e[0] == "document"]

    def check(self, url: str, stats: Any) -> None:
        """Raise for what the page ended on if it is not a page: too many redirects, the
        proxy's refusal, or the browser's own error page (a blocked port, a refused tunnel)."""
        if self.too_many is not None:
            came_from, target = self.too_many
            raise BlockedURLError(
                f"Refused {came_from}: too many redirects (the limit is {self._max}); the next "
                f"one was to {target}",
                url=came_from,
                reason="too-many-redirects",
            )
        last = self.events[-1] if self.events else None
        if last is None:
            return
        if last[0] == "document":
            refused = last[1].headers.get("x-webgrip-refused")
            if refused:  # the proxy's 403, which is no page of the site
                raise BlockedURLError(
                    f"Refused {last[1].url}: the render proxy refused it ({refused})",
                    url=last[1].url,
                    reason=refused,
                )
            return
        _, failed_url, failure = last
        if failure == "net::ERR_ABORTED":  # superseded, a download or a 204: no error page
            return
        raise _failed_navigation(failed_url, failure, stats)


def _failed_navigation(url: str, failure: str, stats: Any) -> Exception:
    """The error for a navigation of the page's that failed (Chromium shows its error page)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        host, port = "", None
    for target, reason in stats.get("refusals") or []:
        if host and host in str(target):
            return BlockedURLError(
                f"Refused {url}: the render proxy refused {target} ({reason})",
                url=url,
                reason=reason,
            )
    if failure == "net::ERR_UNSAFE_PORT":
        return BlockedURLError(
            f"Refused {url}: the browser refuses port {port} (an unsafe port)",
            url=url,
            reason="blocked-port",
        )
    if failure == "net::ERR_BLOCKED_BY_CLIENT":  # our route: not http(s)
        return BlockedURLError(f"Refused {url}: not an http(s) URL", url=url, reason="scheme")
    return RenderError(f"the browser could not load {url}: {failure}", url=url, reason="browser")


def _render_in(
    browser: Any,
    core: _core.Client,
    config: Config,
    url: str,
    deadline: float,
    screenshot: bool,
    full_page: bool,
) -> RenderResult:
    from playwright.sync_api import Error as PlaywrightError

    secret = secrets.token_urlsafe(24)
    proxy = _core.EgressProxy(
        core,
        secret=secret,
        timeout=max(0.001, deadline - time.monotonic()),
        max_bytes=config.max_response_bytes * RENDER_BYTES_FACTOR,
        max_connections=MAX_RENDER_REQUESTS,
    )
    context = None
    try:
        context = browser.new_context(
            proxy={
                "server": f"http://127.0.0.1:{proxy.port}",
                "bypass": "<-loopback>",
                "username": _core.EgressProxy.user,
                "password": secret,
            },
            service_workers="block",
            accept_downloads=False,
            user_agent=config.user_agent,
            java_script_enabled=True,
        )
        context.set_default_timeout(_ms_left(deadline))

        def route(r: Any) -> None:
            req = r.request
            if not req.url.startswith(("http://", "https://")) or (
                not screenshot and req.resource_type in SKIPPED_RESOURCES
            ):
                r.abort()
            else:
                r.fallback()

        context.route("**/*", route)
        context.add_init_script(_OBSERVER_JS)
        page = context.new_page()
        # Popups (window.open, target=_blank) are closed as they open: each is a page with a
        # renderer of its own, and 40 of them took the browser to 3.8 GiB.
        context.on("page", lambda p: None if p == page else _close(p))
        page.on("download", lambda d: d.cancel())
        # The page's own navigations (a JavaScript check that passes reloads the page): the
        # status reported is that of the document shown, not of the first one.
        nav = _Navigations(page, context.new_cdp_session(page), config.max_redirects)
        inflight = _InFlight(page)
        try:
            response = page.goto(url, wait_until="domcontentloaded", timeout=_ms_left(deadline))
        except PlaywrightError as exc:
            nav.check(url, proxy.stats())
            if screenshot and nav.documents:  # a download (a zip, an octet-stream) aborts
                _check_html(url, nav.documents[-1])
            raise _navigation_error(url, exc, proxy.stats(), deadline) from None
        if response is not None and response.headers.get("x-webgrip-refused"):
            reason = response.headers["x-webgrip-refused"]
            raise BlockedURLError(
                f"Refused {response.url}: the render proxy refused it ({reason})",
                url=response.url,
                reason=reason,
            )
        nav.check(url, proxy.stats())
        if screenshot:
            # Checked before the shot: a PDF's viewer or a JSON <pre> would photograph as a
            # blank or meaningless PNG that looks like success.
            _check_html(url, nav.documents[-1] if nav.documents else response)
        # Leave part of the budget for reading the DOM when the page never settles, and take
        # the DOM as it is once MAX_SETTLE_SECONDS have passed since it loaded.
        settle_by = min(
            deadline - min(1.0, 0.2 * (deadline - time.monotonic())),
            time.monotonic() + MAX_SETTLE_SECONDS,
        )
        html = _settled_content(page, inflight, settle_by, config.max_response_bytes, url)
        nav.check(url, proxy.stats())
        shot = _screenshot(page, full_page, deadline) if screenshot else None
        documents = nav.documents
        shown = documents[-1] if documents else response
        return RenderResult(
            url=page.url,
            status=shown.status if shown else 200,
            html=html,
            screenshot=shot,
            proxy=dict(proxy.stats()),
            content_type=_media_type(shown),
        )
    except PlaywrightError as exc:
        if time.monotonic() >= deadline:
            raise FetchTimeoutError(
                f"the render of {url} ran out of time", url=url, reason="timeout"
            ) from None
        logger.debug("the render of %s failed: %s", url, exc)
        if _CLOSED in _first_line(exc):  # Playwright's TargetClosedError, not exported
            raise RenderError(
                f"the browser closed during the render of {url} (it crashed or was stopped)",
                url=url,
                reason="browser",
            ) from None
        raise RenderError(
            f"the browser failed on {url}: {_first_line(exc)}", url=url, reason="browser"
        ) from None
    finally:
        if context is not None:
            with contextlib.suppress(Exception):
                context.close()
        proxy.stop()


def _media_type(response: Any) -> str | None:
    """The media type of a Playwright response's ``Content-Type`` (``None`` if it has none)."""
    if response is None:
        return None
    with contextlib.suppress(Exception):  # a response of a closed page
        value = response.headers.get("content-type") or ""
        return value.split(";", 1)[0].strip().lower() or None
    return None


def _check_html(url: str, response: Any) -> None:
    """Raise :class:`UnsupportedContentError` (reason ``not-html``) when the document the
    browser shows is not HTML. A document without a ``Content-Type`` passes: the browser
    sniffs it, and so it is shown as whatever it looks like."""
    media = _media_type(response)
    if media is not None and media not in HTML_TYPES:
        raise UnsupportedContentError(
            f"{url} is not an HTML page ({media}), so no screenshot was taken; fetch it to "
            "read its content",
            url=url,
            reason="not-html",
            content_type=media,
        )


def _close(page: Any) -> None:
    with contextlib.suppress(Exception):
        page.close()


def _screenshot(page: Any, full_page: bool, deadline: float) -> bytes:
    """A PNG of the viewport, or of the page cut at :data:`MAX_SCREENSHOT_WIDTH` x
    :data:`MAX_SCREENSHOT_HEIGHT` (Playwright trims the clip to a smaller page)."""
    clip = (
        {"x": 0, "y": 0, "width": MAX_SCREENSHOT_WIDTH, "height": MAX_SCREENSHOT_HEIGHT}
        if full_page
        else None
    )
    return bytes(
        page.screenshot(full_page=full_page, clip=clip, type="png", timeout=_ms_left(deadline))
    )


#: Navigations of the page itself (reloads, redirects by script) waited for before its DOM is
#: read: a JavaScript check reloads once when it passes.
MAX_PAGE_NAVIGATIONS = 3


def _settled_content(page: Any, inflight: _InFlight, deadline: float, limit: int, url: str) -> str:
    """The DOM once settled, at most ``limit`` bytes of UTF-8; when the page navigates
    meanwhile (a script reloading it), the new document's, settled in turn (at most
    :data:`MAX_PAGE_NAVIGATIONS` times)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(MAX_PAGE_NAVIGATIONS):
        _settle(page, inflight, deadline)
        try:
            return _content(page, limit, url)
        except PlaywrightError:  # "the page is navigating": wait for the next document
            with contextlib.suppress(PlaywrightError):
                page.wait_for_load_state("domcontentloaded", timeout=_ms_left(deadline))
    return _content(page, limit, url)


def _content(page: Any, limit: int, url: str) -> str:
    """The page's HTML, or :class:`ResponseTooLargeError` past ``limit`` bytes, as a static
    fetch past ``max_response_bytes``: a page cut at an arbitrary point would pass for whole."""
    got = page.evaluate(_CONTENT_JS, limit)
    # Measured here again: the page's scripts run in the same world and could lie.
    size = (
        int(got)
        if isinstance(got, (int, float))
        else len(str(got).encode("utf-8", "surrogatepass"))
    )
    if size > limit:
        raise ResponseTooLargeError(
            f"Response from {url} is too large: the rendered page's HTML is {size} bytes or "
            f"more (limit {limit} bytes)",
            url=url,
            reason="too-large",
            limit=limit,
        )
    return str(got)


class _InFlight:
    """The page's requests not yet answered, counted from the page's own events (Playwright's
    ``networkidle`` waits a fixed 500 ms of silence instead: a third of a light render), and
    when each of its scripts, fetches and XHRs started."""

    _DATA_TYPES = frozenset({"script", "fetch", "xhr"})

    def __init__(self, page: Any):
        self.count = 0
        self._data: dict[Any, float] = {}
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        self.count += 1
        with contextlib.suppress(Exception):
            if request.resource_type in self._DATA_TYPES:
                self._data[request] = time.monotonic()

    def _ended(self, request: Any) -> None:
        self.count = max(0, self.count - 1)
        self._data.pop(request, None)

    def waiting_for_data(self) -> bool:
        """Whether a script, fetch or XHR started less than :data:`DATA_WAIT_SECONDS` ago is
        still in flight."""
        since = time.monotonic() - DATA_WAIT_SECONDS
        return any(started > since for started in self._data.values())


def _settle(page: Any, inflight: _InFlight, deadline: float) -> None:
    """Wait until the page has settled: loaded, nothing of its own in flight and the DOM
    still for :data:`SETTLED_SECONDS`; or the DOM still for :data:`QUIET_SECONDS` whatever
    the network does, but for a script, fetch or XHR younger than :data:`DATA_WAIT_SECONDS`;
    or ``deadline`` (at most :data:`MAX_SETTLE_SECONDS` after loading)."""
    from playwright.sync_api import Error as PlaywrightError

    while time.monotonic() + 0.05 < deadline:
        try:
            quiet_ms, loaded = page.evaluate(_QUIET_JS)
        except PlaywrightError:
            return  # navigated away meanwhile: take what is there
        if (quiet_ms >= QUIET_SECONDS * 1000 and not inflight.waiting_for_data()) or (
            loaded and inflight.count == 0 and quiet_ms >= SETTLED_SECONDS * 1000
        ):
            return
        # Events (requests ending, the DOM changing) are delivered while Playwright waits.
        with contextlib.suppress(PlaywrightError):
            page.wait_for_timeout(min(25.0, max(1.0, (deadline - time.monotonic()) * 1000)))


def _navigation_error(url: str, exc: Exception, stats: Any, deadline: float) -> Exception:
    if time.monotonic() >= deadline:
        return FetchTimeoutError(f"the render of {url} ran out of time", url=url, reason="timeout")
    refusals = stats.get("refusals") or []
    if refusals:
        target, reason = refusals[0]
        return BlockedURLError(
            f"Refused {url}: the render proxy refused {target} ({reason})", url=url, reason=reason
        )
    return RenderError(
        f"the browser could not load {url}: {str(exc).splitlines()[0]}", url=url, reason="browser"
    )
