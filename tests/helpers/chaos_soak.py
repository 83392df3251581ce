"""The chaos soak: many threads calling fetch/download against the chaos server at once.

:func:`run_soak` starts ``tests/helpers/chaos_server.py`` in its own process (so that this
process's descriptors, threads and memory are the client's alone), warms up, takes a baseline,
runs ``threads`` workers until ``calls`` calls are done, and measures again. Each call picks a
behaviour (an HTTP path, the same paths over TLS, or a TLS handshake fault) and one of four
entry points: ``WebClient.fetch``, ``WebClient.download``, ``Tools.fetch_page``,
``Tools.download_file``. A call passes when it returns within ``timeout * 1.1`` (plus
:data:`SCHEDULING_SLACK`) with a result or a typed error (a :class:`webgrip.WebgripError` from
the library, a string from the tools: ``Error: ...`` or a page/download answer). Anything else
(another exception, a Rust panic, an overrun) is a failure, kept with its details.

Used by ``benches/soak.py`` (the long run) and ``tests/security/test_chaos_soak.py`` (a short
run in the default suite).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from webgrip import Config, Tools, WebClient, WebgripError

from helpers.chaos_server import BEHAVIOURS, STALLING, TLS_MODES

SERVER = Path(__file__).with_name("chaos_server.py")

#: Allowed slack over a call's deadline (the issue's "deadline + 10%").
OVERRUN_FACTOR = 1.1

#: Seconds a call may spend past its deadline + 10% besides, read when each call ends: none in
#: the long run (benches/soak.py, the issue's figure, measured on a quiet machine); the short
#: run in the test suite sets what a loaded machine takes to schedule a thread once its timer
#: fires (tests/security/test_chaos_soak.py, as tests/security/test_chaos.py allows).
SCHEDULING_SLACK = 0.0

#: Behaviours served over the TLS ``full`` port as well (a sample: TLS framing + HTTP chaos).
OVER_TLS = (
    "ok",
    "file",
    "reset-body",
    "chunked-truncated",
    "drip-body",
    "endless-body",
    "bomb-gzip",
    "headers-100k",
    "http09",
)

OPERATIONS = ("fetch", "download", "fetch_page", "download_file")


#: The name of the core's kept worker threads (rust/net/src/workers.rs): one waits up to
#: 10 s for its next job before it exits, so how many are alive at a moment depends on the
#: last 10 s of calls, not on a leak; they are counted apart from the other threads.
KEPT_WORKER_NAME = "webgrip-worker"


@dataclass
class Usage:
    """What the process holds: open descriptors, OS threads (the core's kept workers apart),
    resident memory."""

    fds: int
    threads: int
    rss_kib: int
    kept_workers: int = 0

    @staticmethod
    def now(settle: bool = True) -> Usage:
        """Current usage; ``settle`` first collects garbage and trims the heap."""
        if settle:
            gc.collect()
            _malloc_trim()
        status = Path("/proc/self/status").read_text()
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        names = _thread_names()
        kept = names.count(KEPT_WORKER_NAME)
        return Usage(
            fds=len(os.listdir("/proc/self/fd")),
            threads=len(names) - kept,
            rss_kib=int(fields["VmRSS"].split()[0]),
            kept_workers=kept,
        )


def _thread_names() -> list[str]:
    """The name of every thread of this process (a thread that ends meanwhile is left out)."""
    names = []
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            names.append(Path(f"/proc/self/task/{task}/comm").read_text().strip())
    return names


def _malloc_trim() -> None:
    """Hand freed heap pages back to the OS (glibc), so RSS shows live memory, not the
    allocator's free lists that 32 threads' arenas keep around."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


@dataclass
class Report:
    threads: int
    calls: int = 0
    seconds: float = 0.0
    timeout: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)
    by_operation: dict[str, int] = field(default_factory=dict)
    max_elapsed: float = 0.0
    max_overrun: float = 0.0  # seconds past the deadline (negative: every call was early)
    overruns: int = 0
    failures: list[str] = field(default_factory=list)
    failure_count: int = 0
    baseline: dict[str, int] = field(default_factory=dict)
    after: dict[str, int] = field(default_factory=dict)
    rss_samples_kib: list[int] = field(default_factory=list)
    #: Usage after each round (workers joined, heap trimmed): a leak shows as a steady climb.
    rounds: list[dict[str, int]] = field(default_factory=list)
    leftover_files: list[str] = field(default_factory=list)
    #: Overrun (ms past the deadline) of the calls that ran into it, by percentile, per
    #: operation and for the control: a plain socket ``recv`` with the same timeout, made by
    #: the same worker threads (what the machine's scheduling alone costs).
    late_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    load_average: list[float] = field(default_factory=list)

    def json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def targets(ports: dict) -> list[tuple[str, str, bool]]:
    """(name, url, stalls) of every behaviour: HTTP paths, a sample over TLS, TLS faults."""
    http = f"http://127.0.0.1:{ports['http']}"
    tls = f"https://127.0.0.1:{ports['tls']['full']}"
    out = [
        (name, f"{http}/{name}", name in STALLING)
        for name in BEHAVIOURS
        if name not in ("robots.txt", "redirect-loop-b")
    ]
    out += [(f"tls/{name}", f"{tls}/{name}", name in STALLING) for name in OVER_TLS]
    out += [
        (f"tls-{mode}", f"https://127.0.0.1:{ports['tls'][mode]}/ok", mode != "half-reset")
        for mode in TLS_MODES
        if mode != "full"
    ]
    return out


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {
        "n": len(ordered),
        "p50": at(0.5),
        "p99": at(0.99),
        "p999": at(0.999),
        "max": round(ordered[-1] * 1000, 1),
    }


def classify(op: str, result: object) -> str:
    """A short outcome tag; ``BAD:`` prefix for anything that breaks the contract."""
    if op in ("fetch", "download"):
        if isinstance(result, BaseException):
            return (
                type(result).__name__
                if isinstance(result, WebgripError)
                else f"BAD:{type(result).__name__}"
            )
        return "result"
    if isinstance(result, BaseException):
        return f"BAD:raised {type(result).__name__}"
    if not isinstance(result, str) or not result:
        return "BAD:not a string"
    return "tool-error" if result.startswith("Error:") else "tool-result"


class Soak:
    def __init__(self, ports: dict, folder: str, timeout: float, seed: int):
        self.timeout = timeout
        self.folder = folder
        config = Config(
            allow_networks=("127.0.0.0/8",),
            rate_limit_seconds=0,
            timeout=timeout,
            connect_timeout=timeout,
            render="never",
            ca_bundle=ports["ca"],
            download_dirs=(folder,),
            max_response_bytes=1024 * 1024,
            max_download_bytes=1024 * 1024,
            # A download's body has no `timeout` of its own: bound it alike (the overrun
            # check holds every call to `timeout`).
            download_timeout=timeout,
            max_retries=0,
        )
        self.client = WebClient(config)
        self.tools = Tools(config)
        all_targets = targets(ports)
        self.fast = [t for t in all_targets if not t[2]]
        self.stalling = [t for t in all_targets if t[2]]
        self.seed = seed
        self.lock = threading.Lock()
        self.outcomes: Counter[str] = Counter()
        self.operations: Counter[str] = Counter()
        self.failures: list[str] = []
        self.failure_count = 0
        self.max_elapsed = 0.0
        self.overruns = 0
        self.done = 0
        self.port = ports["http"]
        self.late: dict[str, list[float]] = {"control": []}

    def call(self, op: str, url: str, worker: int) -> object:
        try:
            if op == "fetch":
                return self.client.fetch(url)
            if op == "download":
                return self.client.download(url, filename=f"lib-{worker}.bin", overwrite=True)
            if op == "fetch_page":
                return self.tools.fetch_page(url)
            return self.tools.download_file(url, filename=f"tool-{worker}.bin", overwrite=True)
        except BaseException as exc:  # a Rust panic is a BaseException: count it too
            return exc

    def control(self) -> None:
        """The same wait without webgrip: a request to /silent and one ``recv`` with the
        deadline as its timeout."""
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout) as sock:
            sock.sendall(b"GET /silent HTTP/1.1\r\nHost: chaos\r\n\r\n")
            sock.settimeout(max(0.001, self.timeout - (time.monotonic() - start)))
            with contextlib.suppress(TimeoutError):
                sock.recv(1)
        with self.lock:
            self.late["control"].append(time.monotonic() - start - self.timeout)

    def worker(self, worker: int, quota: int, stall_share: float) -> None:
        rng = random.Random(self.seed * 1000 + worker)
        for _ in range(quota):
            stalls = rng.random() < stall_share
            if stalls and rng.random() < 0.2:
                self.control()
            pool = self.stalling if stalls else self.fast
            name, url, _ = rng.choice(pool)
            op = rng.choice(OPERATIONS)
            start = time.monotonic()
            result = self.call(op, url, worker)
            elapsed = time.monotonic() - start
            tag = classify(op, result)
            late = elapsed > self.timeout * OVERRUN_FACTOR + SCHEDULING_SLACK
            with self.lock:
                self.done += 1
                self.outcomes[f"{name} {op} -> {tag}"] += 1
                self.operations[op] += 1
                self.max_elapsed = max(self.max_elapsed, elapsed)
                if elapsed >= self.timeout:
                    self.late.setdefault(op, []).append(elapsed - self.timeout)
                if late:
                    self.overruns += 1
                if tag.startswith("BAD") or late:
                    self.failure_count += 1
                    if len(self.failures) < 50:
                        detail = (
                            "".join(traceback.format_exception(result))
                            if isinstance(result, BaseException)
                            else repr(result)[:300]
                        )
                        self.failures.append(f"{name} {op} {elapsed:.3f}s {tag}: {detail}")

    def run(
        self, threads: int, calls: int, stall_share: float, tick: Callable[[], None] | None = None
    ) -> float:
        """``calls`` calls on ``threads`` workers; ``tick()`` every 2 s meanwhile, on this
        thread (so that no extra thread is counted while they run)."""
        quota, extra = divmod(calls, threads)
        pool = [
            threading.Thread(
                target=self.worker, args=(i, quota + (i < extra), stall_share), daemon=True
            )
            for i in range(threads)
        ]
        start = time.monotonic()
        for t in pool:
            t.start()
        for t in pool:
            while True:
                t.join(2.0)
                if not t.is_alive():
                    break
                if tick is not None:
                    tick()
        return time.monotonic() - start

    def close(self) -> None:
        self.client.close()
        self.tools.client.close()


@contextlib.contextmanager
def chaos_process():
    """``tests/helpers/chaos_server.py`` in a child process; yields its ports (and CA path)."""
    proc = subprocess.Popen(
        [sys.executable, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the chaos server did not start")
        yield json.loads(line)
    finally:
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_soak(
    calls: int,
    threads: int = 32,
    timeout: float = 2.0,
    stall_share: float = 0.05,
    warmup: int | None = None,
    seed: int = 1,
    rounds: int = 1,
    progress: bool = False,
) -> Report:
    """Run the soak and return its :class:`Report` (failures listed, not raised)."""
    report = Report(threads=threads, timeout=timeout)
    with chaos_process() as ports, tempfile.TemporaryDirectory() as folder:
        soak = Soak(ports, folder, timeout, seed)
        # Warm-up: every target once per operation, then a short mixed run on the same
        # number of threads, so lazily built state (TLS config, allocator arenas of 32
        # threads, caches up to their caps) exists before the baseline is taken.
        for _name, url, stalls in soak.fast + soak.stalling:
            if not stalls:
                for op in OPERATIONS:
                    soak.call(op, url, 0)
        soak.run(threads, warmup if warmup is not None else threads * 10, stall_share)
        baseline = Usage.now()
        soak.outcomes.clear()
        soak.operations.clear()
        soak.max_elapsed, soak.overruns, soak.done = 0.0, 0, 0
        soak.failures.clear()
        soak.failure_count = 0
        soak.late = {"control": []}
        report.load_average.append(os.getloadavg()[0])

        def sample() -> None:
            report.rss_samples_kib.append(Usage.now(settle=False).rss_kib)
            if progress:
                print(
                    f"  {soak.done} calls, RSS {report.rss_samples_kib[-1] // 1024} MiB",
                    file=sys.stderr,
                    flush=True,
                )

        per_round, extra = divmod(calls, rounds)
        for i in range(rounds):
            report.seconds += soak.run(threads, per_round + (i < extra), stall_share, sample)
            report.rounds.append(asdict(Usage.now()))
        report.load_average.append(os.getloadavg()[0])
        soak.close()
        after = Usage.now()
        report.leftover_files = sorted(
            n
            for n in os.listdir(folder)
            if not (n.startswith(("lib-", "tool-")) and n.endswith(".bin"))
        )
    report.calls = soak.done
    report.outcomes = dict(sorted(soak.outcomes.items()))
    report.by_operation = dict(soak.operations)
    report.max_elapsed = soak.max_elapsed
    report.max_overrun = soak.max_elapsed - timeout
    report.overruns = soak.overruns
    report.failures = soak.failures
    report.failure_count = soak.failure_count
    report.late_ms = {key: percentiles(values) for key, values in soak.late.items()}
    report.baseline = asdict(baseline)
    report.after = asdict(after)
    return report
