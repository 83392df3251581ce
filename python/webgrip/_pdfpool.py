"""PDFs are read in worker processes, so that no PDF can take the host process down.

Why a process: the PDF parser beneath the core is a large third-party crate, and three rounds
of hostile files found a way to kill the process reading them (a stack overflow through
nesting, twice; memory exhausted through encrypted streams). The limits in the core answer
each shape found; a process boundary answers the next one too, as browsers do by isolating
their PDF readers. A crash, a runaway allocation or a stack overflow now ends one worker and
fails one call with :class:`~webgrip.errors.UnsupportedContentError` (``reason``
``"malformed-pdf"``, the message saying what stopped the reader); the next call gets a new one.

- **Pool.** Up to :data:`DEFAULT_WORKERS` long-lived workers, started on the first PDF (never
  at import) and reused; each call checks one out, so concurrent calls (threads, the async
  client) each have their own. A call that finds none free waits within its deadline.
- **Wire.** A worker is ``python -I -c`` running :func:`_serve` on two pipes: the parent sends
  a length-prefixed JSON header (mode, password, limits, time left) and the PDF's bytes; the
  worker answers with one length-prefixed JSON document, the core's result or its error (type,
  message and fields). JSON and not pickle: whatever a worker sends is read as data, so even a
  worker a PDF took over cannot run code in the host through its answer.
- **Limits.** The parent watches the worker's resident memory while it reads (on Linux,
  every :data:`_WATCH_SECONDS`) and kills it past the least it held idle before any of its
  reads, plus the document twice and :data:`DEFAULT_MEMORY_BYTES`. Around each read the
  worker also caps its own CPU time (the call's time plus a second, or
  :data:`NO_DEADLINE_CPU_SECONDS`) and address space (what it has mapped, the parse thread's
  stack, the document twice and the same allowance: the backstop for an allocation too large
  or too fast for the watch), and lifts both after.
  The allocator reserves address space 64 MiB at a time in a worker, not 1 GiB, so that cap
  holds to that. A worker left holding over 256 MiB after a read is replaced.
- **No CPU after return.** The parent waits until the call's deadline or cancellation and
  then kills the worker (``SIGKILL``); a worker that answered with a timeout is killed too,
  because the core returns at its deadline while its parse thread may still be running.
- **Lifetime.** Workers ignore ``SIGINT`` (Ctrl-C is the host's to handle), exit when their
  input closes (the host ended, however it ended) and are killed at interpreter exit; a
  forked child forgets its parent's workers and starts its own.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import json
import os
import select
import signal
import struct
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from . import errors

if TYPE_CHECKING:
    import subprocess

    from . import _core

__all__ = [
    "DEFAULT_MEMORY_BYTES",
    "DEFAULT_WORKERS",
    "NO_DEADLINE_CPU_SECONDS",
    "extract_pdf",
    "stop_workers",
    "worker_pids",
]

#: Workers at most: one per core, at most two (a PDF read takes one core while it runs).
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: Memory one read may allocate beyond the worker's own size, its parse thread's stack and
#: the document's two copies (the one received and the core's): the core's own stream caps
#: keep a legitimate read under about 600 MiB.
DEFAULT_MEMORY_BYTES = 1 << 30
#: The CPU limit of a read without a deadline (``extract_pdf`` called with no ``timeout``).
NO_DEADLINE_CPU_SECONDS = 120
#: The core's parse thread stack (``webgrip_pdf::WORKER_STACK``): address space it reserves.
_PARSE_STACK_BYTES = 256 << 20
#: The core's allocator (mimalloc) reserves address space in arenas, 1 GiB at a time by
#: default: a read would then fill a reserved gigabyte before the address-space cap could
#: stop it. Workers reserve 64 MiB at a time (the value is in KiB), so the cap holds to that.
_ARENA_RESERVE_KIB = str(64 * 1024)
#: mimalloc hands memory freed by a read back to the system after 10 ms by default, and the
#: next read faults it in again, page by page, each zeroed by the kernel: reading pdf-dev,
#: 214,000 page faults, a quarter of the worker's CPU. Workers keep freed memory for a second
#: (30,000 faults), so back-to-back reads reuse it. What a read reuses counts against its
#: allowance: its limit is counted from the least the worker held before any of its reads, not
#: from what it holds now (see ``_Worker.floor``); what an idle worker holds stays bounded by
#: its retirement past ``_RETIRE_RESIDENT_BYTES``.
_PURGE_DELAY_MS = "1000"
#: A worker holding more than this after a read is replaced: its next read's limits are
#: counted from what it holds. Reading pdf-dev over and over, a worker holds 50-60 MiB.
_RETIRE_RESIDENT_BYTES = 256 << 20
#: How often a wait looks at the caller's cancel token and the worker's memory.
_WATCH_SECONDS = 0.02
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
#: The exceptions a worker may send back, by name; anything else is read as a failure.
_RAISABLE: dict[str, type[Exception]] = {
    "UnsupportedContentError": errors.UnsupportedContentError,
    "ResponseTooLargeError": errors.ResponseTooLargeError,
    "FetchTimeoutError": errors.FetchTimeoutError,
    "ValueError": ValueError,
    "TypeError": TypeError,
}
#: The longest answer read from a worker: the core's text cap (64 MiB) JSON-escaped, with room.
_MAX_ANSWER_BYTES = 512 << 20
_HEAD = struct.Struct("<IQ")  # request: header length, document length
_SIZE = struct.Struct("<Q")  # answer: its length


def extract_pdf(
    data: bytes,
    *,
    mode: str = "text",
    password: str | None = None,
    url: str | None = None,
    timeout: float | None = None,
    cancel: _core.CancelToken | None = None,
    max_pages: int | None = None,
    memory_bytes: int | None = None,
) -> dict[str, Any]:
    """:func:`webgrip._core.extract_pdf` in a worker process: the same arguments, result and
    exceptions, plus :class:`~webgrip.errors.UnsupportedContentError` (``"malformed-pdf"``)
    when the reader dies on the document (crash, memory or CPU limit). ``memory_bytes`` is
    what the read may allocate beyond the worker and the document (see the module); by
    default :data:`DEFAULT_MEMORY_BYTES`, read at each call.
    """
    started = time.monotonic()
    deadline = None if timeout is None else started + max(0.0, timeout)
    header = {
        "mode": mode,
        "password": password,
        "url": url,
        "max_pages": max_pages,
        "memory": max(0, int(DEFAULT_MEMORY_BYTES if memory_bytes is None else memory_bytes)),
    }
    return _POOL.run(bytes(data), header, deadline, cancel, url, timeout)


def stop_workers() -> None:
    """Kill every worker now (they are also killed at interpreter exit); the next call starts
    new ones."""
    _POOL.stop()


def worker_pids(*, busy: bool | None = None) -> list[int]:
    """The process ids of the live workers: all, or only those reading a document now
    (``busy=True``) or waiting for one (``busy=False``)."""
    return _POOL.pids(busy)


class _Worker:
    """One worker process and the parent's ends of its two pipes (non-blocking)."""

    def __init__(self) -> None:
        import subprocess

        package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        # -I: no user site, no PYTHON* variables, not the working folder on the path; the
        # package comes from the folder the host imported it from.
        boot = f"import sys; sys.path.insert(0, {package_parent!r}); "
        boot += "from webgrip._pdfpool import _serve; _serve()"
        self.proc: subprocess.Popen[bytes] = subprocess.Popen(
            [sys.executable, "-I", "-c", boot],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            env=dict(
                os.environ,
                MIMALLOC_ARENA_RESERVE=_ARENA_RESERVE_KIB,
                MIMALLOC_PURGE_DELAY=_PURGE_DELAY_MS,
            ),
        )
        #: The least resident memory seen before one of its reads: what the worker is without
        #: memory kept from earlier reads, from which each read's limit is counted.
        self.floor: int | None = None
        #: ``/proc/PID/statm``, open once read (see :meth:`resident`).
        self._statm: int | None = None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.to_fd = self.proc.stdin.fileno()
        self.from_fd = self.proc.stdout.fileno()
        for fd in (self.to_fd, self.from_fd):
            os.set_blocking(fd, False)
            _widen_pipe(fd)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def resident(self) -> int | None:
        """The process's resident memory in bytes (Linux), else ``None``.

        Read about four times a call: ``statm`` is opened once and read again in place (an
        open, read and close cost some 10 µs of the caller's CPU, a read again 1.5 µs; on
        pdf-dev, 0.08 ms of the parent's 0.3 ms a document). The open file follows the
        process, not its number: once the worker is reaped, reading it fails."""
        try:
            if self._statm is None:
                self._statm = os.open(f"/proc/{self.proc.pid}/statm", os.O_RDONLY | os.O_CLOEXEC)
            return int(os.pread(self._statm, 128, 0).split()[1]) * _PAGE_SIZE
        except (OSError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """Kill the process now and reap it (no zombie)."""
        with contextlib.suppress(OSError):  # already reaped
            self.proc.kill()
        self.proc.wait()
        self.close()

    def close(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if self._statm is not None:
            with contextlib.suppress(OSError):
                os.close(self._statm)
            self._statm = None


class _Gone(Exception):
    """The worker's pipe closed: it died (or closed it) in the middle of a call.
    ``untouched``: it had not read any of the request. ``sent``: the bytes of the request
    written before the pipe broke (``None``: all of it)."""

    def __init__(
        self, worker: _Worker | None = None, untouched: bool = False, sent: int | None = None
    ) -> None:
        super().__init__()
        self.worker = worker
        self.untouched = untouched
        self.sent = sent


class _OverMemory(Exception):
    """The worker's resident memory passed the read's limit."""

    def __init__(self, resident: int) -> None:
        super().__init__()
        self.resident = resident


class _Late(Exception):
    """The deadline passed or the call was cancelled before the worker answered."""

    def __init__(self, cancelled: bool) -> None:
        super().__init__()
        self.cancelled = cancelled


class _Pool:
    """Up to ``size`` workers; a call checks one out, uses it alone and returns it, or kills
    it when the call ended badly (late, cancelled, crashed, or its parse may still run)."""

    def __init__(self, size: int = DEFAULT_WORKERS) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._free = threading.Condition(self._lock)
        self._idle: list[_Worker] = []
        self._live: set[_Worker] = set()
        self._starting = 0  # workers being started (counted against size)

    def pids(self, busy: bool | None = None) -> list[int]:
        with self._lock:
            return sorted(
                w.pid
                for w in self._live
                if w.alive() and (busy is None or busy != (w in self._idle))
            )

    def run(
        self,
        data: bytes,
        header: dict[str, Any],
        deadline: float | None,
        cancel: _core.CancelToken | None,
        url: str | None,
        timeout: float | None,
    ) -> dict[str, Any]:
        # A worker found dead with the whole request still unread in its pipe died before
        # this call reached it (killed while idle): the call goes to a new worker, once.
        for attempt in range(2):
            try:
                answer = self._exchange(data, header, deadline, cancel, retry=attempt == 0)
            except _Late as late:
                raise _late_error(late.cancelled, url, timeout) from None
            except _Gone as gone:
                if gone.untouched and attempt == 0:
                    continue
                assert gone.worker is not None
                raise _crash_error(gone.worker, header["memory"], header["cpu"], url) from None
            except _OverMemory as over:
                raise _stopped(
                    f"it passed its memory limit ({over.resident >> 20} MiB resident; a read "
                    f"may take {header['memory'] >> 20} MiB beyond the document) and was "
                    "stopped",
                    url,
                ) from None
            break
        if "ok" in answer:
            result: dict[str, Any] = answer["ok"]
            return result
        raise _rebuilt(answer.get("error") or {}, url)

    def _exchange(
        self,
        data: bytes,
        header: dict[str, Any],
        deadline: float | None,
        cancel: _core.CancelToken | None,
        retry: bool,
    ) -> dict[str, Any]:
        """One request to one worker and its answer; the worker goes back to the pool, or is
        killed when the call ended badly or the worker asked to be replaced."""
        worker = self._checkout(deadline, cancel)
        try:
            _Watch(deadline, cancel).check()  # late already: the worker was given nothing
        except _Late:
            self._checkin(worker)
            raise
        left = None if deadline is None else deadline - time.monotonic()
        header["timeout"] = left
        header["cpu"] = NO_DEADLINE_CPU_SECONDS if left is None else max(0.0, left) + 1.0
        try:
            head = json.dumps(header).encode()
        except (TypeError, ValueError):  # an argument of the wrong type: the worker is fine
            self._checkin(worker)
            raise TypeError("mode, password and url must be str, max_pages an int") from None
        request = [_HEAD.pack(len(head), len(data)), head, data]
        # The read's memory, held to as it grows: what the worker holds idle, the document
        # twice (received, and the core's copy) and the allowance. Idle is the least it held
        # before any read: memory an earlier read freed and the worker kept (see
        # ``_PURGE_DELAY_MS``) counts against this read if it reuses it.
        idle = worker.resident()
        if idle is not None:
            worker.floor = idle if worker.floor is None else min(worker.floor, idle)
        limit = None if worker.floor is None else worker.floor + 2 * len(data) + header["memory"]
        watch = _Watch(deadline, cancel, worker, limit)
        try:
            _send(worker.to_fd, request, watch)
            answer = json.loads(_receive(worker.from_fd, watch))
        except _Gone as gone:
            sent = sum(len(p) for p in request) if gone.sent is None else gone.sent
            untouched = retry and _unread(worker.to_fd) == sent
            self._discard(worker)
            raise _Gone(worker, untouched) from None
        except ValueError:  # an answer that is not JSON
            self._discard(worker)
            raise _Gone(worker, False) from None
        except BaseException:  # late, cancelled, over memory, KeyboardInterrupt
            self._discard(worker)
            raise
        error = answer.get("error") or {}
        # After a timeout the core's parse thread may still be running: the worker goes. So
        # does one left holding much memory: a new one starts small.
        resident = worker.resident()
        if error.get("type") == "FetchTimeoutError" or (
            resident is not None and resident > _RETIRE_RESIDENT_BYTES
        ):
            self._discard(worker)
        else:
            self._checkin(worker)
        return dict(answer)

    def _checkout(self, deadline: float | None, cancel: _core.CancelToken | None) -> _Worker:
        with self._free:
            while True:
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive():
                        return worker
                    self._live.discard(worker)  # died while idle (killed from outside)
                    worker.close()
                if len(self._live) + self._starting < self.size:
                    self._starting += 1
                    break
                watch = _Watch(deadline, cancel)
                self._free.wait(watch.slice())
                watch.check()
        try:
            worker = _Worker()
        except OSError as exc:
            with self._free:
                self._starting -= 1
                self._free.notify()
            raise errors.UnsupportedContentError(
                f"the PDF reader process could not be started ({exc.strerror or exc})",
                reason="malformed-pdf",
                content_type="application/pdf",
            ) from None
        with self._free:
            self._starting -= 1
            self._live.add(worker)
        return worker

    def _checkin(self, worker: _Worker) -> None:
        with self._free:
            if worker in self._live:
                self._idle.append(worker)
                self._free.notify()

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        with self._free:
            self._live.discard(worker)
            self._free.notify()

    def stop(self) -> None:
        """Kill every worker (at interpreter exit)."""
        with self._lock:
            workers, self._live, self._idle = list(self._live), set(), []
        for worker in workers:
            worker.kill()

    def forget(self) -> None:
        """In a forked child: close the parent's pipes without touching its workers."""
        for worker in list(self._live):
            worker.close()


class _Watch:
    """What a wait watches: the deadline, the cancel token and, during a read, the worker's
    resident memory against its limit (checked on each wake, every
    :data:`_WATCH_SECONDS` while any of the last two is watched)."""

    def __init__(
        self,
        deadline: float | None,
        cancel: _core.CancelToken | None,
        worker: _Worker | None = None,
        resident_limit: int | None = None,
    ) -> None:
        self.deadline, self.cancel = deadline, cancel
        self.worker, self.resident_limit = worker, resident_limit

    def slice(self) -> float | None:
        """How long one wait may block."""
        often = self.cancel is not None or self.resident_limit is not None
        if self.deadline is None:
            return _WATCH_SECONDS if often else None
        left = max(0.0, self.deadline - time.monotonic())
        return min(left, _WATCH_SECONDS) if often else left

    def check(self) -> None:
        if self.cancel is not None and self.cancel.cancelled:
            raise _Late(cancelled=True)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Late(cancelled=False)
        if self.resident_limit is not None and self.worker is not None:
            resident = self.worker.resident()
            if resident is not None and resident > self.resident_limit:
                raise _OverMemory(resident)


def _send(fd: int, parts: list[bytes], watch: _Watch) -> None:
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    sent = 0
    for part in parts:
        view = memoryview(part)
        while view:
            try:
                wrote = os.write(fd, view)
                view, sent = view[wrote:], sent + wrote
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise _Gone(sent=sent) from None
            _poll(poller, watch)


def _receive(fd: int, watch: _Watch) -> bytearray:
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    size = bytearray(_SIZE.size)
    _read_into(fd, memoryview(size), poller, watch)
    length = _SIZE.unpack(size)[0]
    if length > _MAX_ANSWER_BYTES:
        raise _Gone
    body = bytearray(length)
    _read_into(fd, memoryview(body), poller, watch)
    return body


def _read_into(fd: int, view: memoryview, poller: Any, watch: _Watch) -> None:
    while view:
        try:
            got = os.readv(fd, [view])
        except BlockingIOError:
            _poll(poller, watch)
            continue
        if got == 0:
            raise _Gone
        view = view[got:]


def _poll(poller: Any, watch: _Watch) -> None:
    watch.check()
    wait = watch.slice()
    poller.poll(None if wait is None else max(1, int(wait * 1000)))
    watch.check()


def _unread(fd: int) -> int | None:
    """The bytes waiting in the pipe ``fd`` writes to (Linux), else ``None``."""
    try:
        import fcntl
        import termios

        count = bytearray(struct.calcsize("i"))
        fcntl.ioctl(fd, termios.FIONREAD, count)
        return int(struct.unpack("i", count)[0])
    except (ImportError, OSError):
        return None


def _widen_pipe(fd: int) -> None:
    """Give the pipe 1 MiB of buffer (Linux): a typical PDF then crosses in one write."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass  # another system, or past the system's pipe-max-size: the default works


def _late_error(cancelled: bool, url: str | None, timeout: float | None) -> errors.WebgripError:
    """The error the core raises for the same event (``rust/python/src/pdf.rs``)."""
    if cancelled:
        return errors.FetchTimeoutError(
            "reading the page was cancelled", url=url, reason="cancelled"
        )
    return errors.FetchTimeoutError(
        f"reading the page (a PDF) took longer than the {max(0.0, timeout or 0.0):.1f} s left "
        "of the call's deadline (the document is unusually large or malformed)",
        url=url,
        reason="timeout",
    )


def _crash_error(worker: _Worker, memory: int, cpu: float, url: str | None) -> errors.WebgripError:
    """What stopped a worker in the middle of a call, in words."""
    code = worker.proc.returncode
    if code is not None and code < 0:
        sig = -code
        name = signal.Signals(sig).name if sig in signal.valid_signals() else f"signal {sig}"
        if sig == getattr(signal, "SIGXCPU", None):
            why = f"it used up its CPU time limit ({cpu:.0f} s)"
        elif sig == signal.SIGABRT:
            why = (
                f"it aborted ({name}): out of memory (a read may take {memory >> 20} MiB "
                "beyond the document) or out of stack"
            )
        elif sig == signal.SIGKILL:
            why = f"it was killed ({name})"
        else:
            why = f"it crashed ({name})"
    elif code is not None:
        why = f"it exited with status {code}"
    else:
        why = "it stopped answering"
    return _stopped(why, url)


def _stopped(why: str, url: str | None) -> errors.WebgripError:
    return errors.UnsupportedContentError(
        f"the PDF reader process stopped on this document: {why}. The document cannot be "
        "read as text; a new reader serves the next call",
        url=url,
        reason="malformed-pdf",
        content_type="application/pdf",
    )


def _rebuilt(error: dict[str, Any], url: str | None) -> Exception:
    """The exception a worker described, as the same class with the same fields."""
    cls = _RAISABLE.get(str(error.get("type")))
    message = str(error.get("message") or "the PDF reader failed")
    if cls is None:
        return errors.UnsupportedContentError(
            message, url=url, reason="malformed-pdf", content_type="application/pdf"
        )
    if not issubclass(cls, errors.WebgripError):
        return cls(message)
    fields = error.get("fields") or {}
    known = set(inspect.signature(cls).parameters) - {"message"}  # its keyword fields
    kwargs: dict[str, Any] = {
        k: v for k, v in fields.items() if k in known and isinstance(v, (str, int, float))
    }
    kwargs["url"] = url
    exc: Exception = cls(message, **kwargs)
    return exc


_POOL = _Pool()


def _after_fork_in_child() -> None:
    global _POOL
    _POOL.forget()
    _POOL = _Pool()


os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(stop_workers)


# --- the worker ------------------------------------------------------------------------------


def _serve() -> None:
    """The worker's loop: read a request, read the PDF under the limits, answer; until the
    input closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The protocol's pipes move off fds 0 and 1, so a stray write to stdout by anything
    # inside can never corrupt an answer: fd 1 becomes the host's stderr.
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    _no_core_files()
    from . import _core

    capped = _address_space() > 0  # where the size cannot be read, no address-space cap
    while True:
        head = requests.read(_HEAD.size)
        if len(head) < _HEAD.size:
            return  # the host closed the pipe: it is done with us, or gone
        head_len, data_len = _HEAD.unpack(head)
        header = json.loads(requests.read(head_len))
        data = requests.read(data_len)
        if len(data) < data_len:
            return
        reply = _answer(_core, data, header, _address_space() if capped else 0)
        del data
        body = json.dumps(reply, ensure_ascii=False).encode()
        _write_all(answers, _SIZE.pack(len(body)) + body)


def _answer(core: Any, data: bytes, header: dict[str, Any], mapped: int) -> dict[str, Any]:
    restore = _limit(mapped, len(data), int(header["memory"]), float(header["cpu"]))
    try:
        doc = core.extract_pdf(
            data,
            mode=header["mode"],
            password=header["password"],
            url=header["url"],
            timeout=header["timeout"],
            max_pages=header["max_pages"],
        )
        return {"ok": doc}
    except (errors.WebgripError, ValueError, TypeError) as exc:
        return {"error": _described(exc)}
    finally:
        restore()


def _described(exc: Exception) -> dict[str, Any]:
    if isinstance(exc, errors.WebgripError):
        fields = {
            k: v
            for k, v in vars(exc).items()
            if k != "message" and (v is None or isinstance(v, (str, int, float)))
        }
        return {"type": type(exc).__name__, "message": exc.message, "fields": fields}
    return {"type": type(exc).__name__, "message": str(exc)}


def _limit(mapped: int, size: int, memory: int, cpu: float) -> Any:
    """Cap this process's CPU time and address space for one read (``mapped``: the worker's
    size now, 0 if unknown); returns the undo. The address-space cap is the backstop, loose
    by what the worker keeps mapped and unused (a parse stack kept for the next thread, free
    arena space); the parent's watch on resident memory is the tight limit."""
    try:
        import resource
    except ImportError:  # not a POSIX system: the deadline alone bounds the read
        return lambda: None
    undo = []
    used = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    caps = [(resource.RLIMIT_CPU, int(used + cpu) + 1)]
    if mapped:  # the document is here once and copied once by the core
        caps.append((resource.RLIMIT_AS, mapped + _PARSE_STACK_BYTES + 2 * size + memory))
    for which, soft in caps:
        old = resource.getrlimit(which)
        if old[1] != resource.RLIM_INFINITY:
            soft = min(soft, old[1])
        try:
            resource.setrlimit(which, (soft, old[1]))
            undo.append((which, old))
        except (ValueError, OSError):
            pass  # not enforced here (RLIMIT_AS on macOS): the deadline still holds

    def restore() -> None:
        for which, old in undo:
            resource.setrlimit(which, old)

    return restore


def _address_space() -> int:
    """This process's mapped size in bytes (Linux), else 0 (the cap is then skipped).
    ``statm`` is opened once and read again in place for each read (see
    :meth:`_Worker.resident`)."""
    global _OWN_STATM
    try:
        if _OWN_STATM is None:
            _OWN_STATM = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
        return int(os.pread(_OWN_STATM, 128, 0).split()[0]) * _PAGE_SIZE
    except (OSError, ValueError, IndexError):
        return 0


#: The worker's own ``/proc/self/statm``, open once read (see :func:`_address_space`).
_OWN_STATM: int | None = None


def _no_core_files() -> None:
    """A worker the kernel stops writes no core file (a hostile PDF's crash is expected)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
