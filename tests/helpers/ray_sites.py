"""Real parts for the distributed-fetch tests: a redis-server on loopback, sites on several
loopback addresses that record when each request arrived, and the process behind a socket.

Stdlib only: the tests that use these import Ray, redis and pyarrow themselves (skipping
with a reason when the ``ray`` extra is missing).
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from helpers.loopback import wait_until


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A throwaway ``redis-server`` on a free loopback port (no persistence, data in
    ``folder``); yields its URL and stops it afterwards."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise FileNotFoundError(
            "redis-server is not installed (Debian: apt-get install redis-server)"
        )
    port = free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(folder),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def answers() -> bool:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False

    try:
        if not wait_until(answers, timeout=20):
            raise RuntimeError(f"redis-server did not start on port {port}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


#: Pages of the crawl tests' tree: ``/tree/<n>`` links to its two children below this.
TREE_SIZE = 40


def tree_links(path: str) -> str:
    """The links of ``/tree/<n>``: to ``/tree/<2n+1>`` and ``/tree/<2n+2>`` while they are
    under :data:`TREE_SIZE` (every page of the tree is reachable from ``/tree/0``)."""
    head, _, n = path.rpartition("/")
    if head != "/tree" or not n.isdigit():
        return ""
    children = [c for c in (2 * int(n) + 1, 2 * int(n) + 2) if c < TREE_SIZE]
    return "".join(f'<a href="/tree/{c}">child {c}</a>' for c in children)


class Site:
    """An HTTP site on ``address`` (any 127.x.y.z) serving a small HTML page per path, titled
    with the path, and recording every request's path and arrival (monotonic) time.

    ``on_request(path, peer_port, arrived)`` runs before the answer; when it returns an int,
    that status is sent instead of the page (with ``Retry-After: 1`` for 429).
    """

    def __init__(
        self, address: str, on_request: Callable[[str, int, float], int | None] | None = None
    ):
        self.address = address
        self.arrivals: list[tuple[str, float]] = []
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                arrived = time.monotonic()
                with site._lock:
                    site.arrivals.append((self.path, arrived))
                status = (
                    on_request(self.path, self.client_address[1], arrived) if on_request else None
                )
                if status is not None:
                    self.send_response(status)
                    if status == 429:
                        self.send_header("Retry-After", "1")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = (
                    f"<html><head><title>page {self.path}</title></head><body><main>"
                    f"<h1>{self.path}</h1><p>Served from {site.address} for the "
                    f"distributed fetch tests.</p>{tree_links(self.path)}</main></body></html>"
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer((address, 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://{self.address}:{self.port}{path}"

    def times(self) -> list[float]:
        with self._lock:
            return sorted(t for _, t in self.arrivals)

    def paths(self) -> list[str]:
        with self._lock:
            return [p for p, _ in self.arrivals]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def min_gap(times: list[float]) -> float:
    """The shortest time between two consecutive arrivals (infinite for fewer than two)."""
    return min((b - a for a, b in itertools.pairwise(times)), default=float("inf"))


def most_in_window(times: list[float], width: float) -> int:
    """The most arrivals (sorted ``times``) inside any window ``[t, t + width)``."""
    return max((bisect.bisect_left(times, t + width) - i for i, t in enumerate(times)), default=0)


def budget_violations(times: list[float], interval: float) -> list[str]:
    """How the arrivals at one host break a budget of one request per ``interval``; empty
    when they keep it.

    A request reaches the host a little after its slot (a sleep that wakes late, a connection
    on a loaded machine), so two arrivals can come closer than the interval by that delay;
    this accepts any delay under half an interval, and no more. Then no window of ``k``
    intervals holds more than ``k + 1`` arrivals, and the whole run spans its intervals.
    """
    times = sorted(times)
    found = []
    if min_gap(times) < interval / 2:
        found.append(f"two arrivals {min_gap(times):.3f} s apart")
    for k in (2, 4, 8):
        if most_in_window(times, k * interval) > k + 1:
            found.append(f"{most_in_window(times, k * interval)} arrivals within {k} intervals")
    if len(times) > 1 and times[-1] - times[0] < (len(times) - 1.5) * interval:
        found.append(f"{len(times)} arrivals in {times[-1] - times[0]:.3f} s")
    return found


def pid_of_peer(local_port: int, prefix: str = "ray::") -> int | None:
    """The process whose TCP socket has local port ``local_port`` (Linux /proc), i.e. the
    client behind a connection a loopback server accepted. Only processes whose command line
    starts with ``prefix`` (Ray workers name themselves ``ray::...``) are searched."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in list(f)[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == local_port:
                    inodes.add(fields[9])
    targets = {f"socket:[{i}]" for i in inodes if i != "0"}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if not f.read(len(prefix)).decode(errors="replace").startswith(prefix):
                    continue
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") in targets:
                        return int(pid)
    return None


class SiteProcess:
    """:class:`Site` on each of ``addresses``, served by a process of its own, so that what
    the test process does (a Ray driver's threads) never delays the arrival times.

    Each request is logged as it arrives with the process that sent it (a Ray worker, see
    :func:`pid_of_peer`); the worker that sends ``kill_on`` first is killed (``SIGKILL``)
    before it gets an answer.
    """

    def __init__(self, addresses: tuple[str, ...], folder: Path, kill_on: str | None = None):
        self.log = folder / "arrivals.tsv"
        # Run as ``-m helpers.ray_sites`` with tests/ on the path, so that the helpers'
        # own imports resolve in the child as they do under pytest.
        tests = str(Path(__file__).resolve().parents[1])
        path = os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "helpers.ray_sites", str(self.log), kill_on or "", *addresses],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
        )
        line = self._proc.stdout.readline() if self._proc.stdout else ""
        if not line:
            raise RuntimeError("the site process did not start")
        self.ports: dict[str, int] = json.loads(line)

    def url(self, address: str, path: str) -> str:
        return f"http://{address}:{self.ports[address]}{path}"

    def arrivals(self) -> list[tuple[str, str, float, int | None, bool]]:
        """``(address, path, arrived, sender pid, killed)`` of every request so far."""
        rows = []
        for line in self.log.read_text().splitlines():
            address, path, arrived, pid, killed = line.split("\t")
            rows.append(
                (address, path, float(arrived), int(pid) if pid else None, killed == "killed")
            )
        return rows

    def close(self) -> None:
        self._proc.terminate()
        self._proc.wait(10)


def _serve(log_path: str, kill_on: str, addresses: list[str]) -> None:
    """The body of :class:`SiteProcess`: serve until terminated."""
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1)  # noqa: SIM115 (open for the process's life)
    killed: list[int] = []

    def make_hook(address: str) -> Callable[[str, int, float], int | None]:
        def seen(path: str, peer_port: int, arrived: float) -> int | None:
            pid = pid_of_peer(peer_port)
            with lock:
                victim = bool(kill_on) and path == kill_on and not killed and pid is not None
                if victim:
                    killed.append(pid)
                log.write(
                    f"{address}\t{path}\t{arrived!r}\t{pid or ''}\t{'killed' if victim else ''}\n"
                )
            if victim:  # the worker fetching this page dies before it gets an answer
                os.kill(pid, signal.SIGKILL)
                return 503
            return None

        return seen

    sites = [Site(a, on_request=make_hook(a)) for a in addresses]
    print(json.dumps({s.address: s.port for s in sites}), flush=True)
    signal.sigwait({signal.SIGTERM})


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    _serve(sys.argv[1], sys.argv[2], sys.argv[3:])
