"""Per-request CPU of webgrip's request path against rnet and ``requests``, same run.

    python benches/client_overhead.py [--requests 2000] [--size 2048] [--rounds 3]
                                      [--client-cpu N --server-cpu M] [--host NAME]

A keep-alive HTTP/1.1 server runs in a *separate process* on loopback, so
``time.process_time()`` here counts only the client's CPU. Each client fetches the same
page (``--size`` bytes of HTML) ``--requests`` times over one pooled connection, after a
warm-up; the clients take turns, ``--rounds`` times, and each row keeps its cheapest round
(what the client costs, less what other work on the machine added). The table gives wall
time and CPU time per request and the CPU ratio to rnet and to ``requests``. Every number
comes from the same run, on the same machine, so the ratios are what to compare.
``--client-cpu``/``--server-cpu`` pin this process (all its threads, rnet's runtime
included) and the server to one core each, as ``benches/e2e.py`` does: rnet's CPU per
request varies most with where its threads get scheduled. ``--host`` addresses the server
by a name (one that resolves to 127.0.0.1, e.g. from ``/etc/hosts``) instead of the
address, to show what resolving costs per request.

Rows:

- ``requests.Session().get`` (``.content``), environment proxies off;
- ``rnet.BlockingClient().get`` (``.bytes()``), when rnet is installed (a benchmark peer,
  never a dependency of webgrip);
- ``WebClient.get`` (``.content``): policy, pinned resolution, rate limiter, counters,
  ``Response``;
- ``WebClient.fetch(url, extract="html")``: ``get`` plus the fetch pipeline (URL hygiene,
  document cache, bot-check look, the metadata parse of the page, ``Page``);
- ``_core.Client.request``: the binding alone, no Python layer.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable

SERVER = r"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

size = int(sys.argv[1])
HEAD = b"<!doctype html><html><head><title>Bench page</title></head><body><p>"
TAIL = b"</p></body></html>"
BODY = HEAD + b"x" * max(0, size - len(HEAD) - len(TAIL)) + TAIL

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms stalls

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def measure(fetch: Callable[[], int], n: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) per call, after a warm-up."""
    for _ in range(min(50, n)):
        fetch()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for _ in range(n):
        fetch()
    return (time.perf_counter() - wall0) / n, (time.process_time() - cpu0) / n


def clients(url: str) -> list[tuple[str, Callable[[], int]]]:
    import requests
    from webgrip import Config, WebClient, _core

    cfg = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0)
    web = WebClient(cfg)
    core = _core.Client(allow_networks=["127.0.0.0/8"])
    session = requests.Session()
    session.trust_env = False  # no proxy lookups: compare transport work only
    rows: list[tuple[str, Callable[[], int]]] = [
        ("requests.Session().get", lambda: len(session.get(url).content)),
    ]
    try:
        import rnet
    except ImportError:
        print("rnet is not installed: its row is skipped (pip install rnet)", file=sys.stderr)
    else:
        rn = rnet.BlockingClient()
        rows.append(("rnet BlockingClient.get", lambda: len(rn.get(url).bytes())))
    rows += [
        ("webgrip WebClient.get", lambda: len(web.get(url).content)),
        ("webgrip fetch(extract='html')", lambda: len(web.fetch(url, extract="html").content)),
        ("webgrip _core.Client.request", lambda: len(core.request(url)["content"])),
    ]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--size", type=int, default=2048, help="body bytes")
    ap.add_argument("--rounds", type=int, default=3, help="turns per client; the best is kept")
    ap.add_argument("--client-cpu", type=int, help="pin this process to this core")
    ap.add_argument("--server-cpu", type=int, help="pin the server to this core")
    ap.add_argument("--host", default="127.0.0.1", help="how the URL names the server")
    args = ap.parse_args()

    def pin_server() -> None:
        if args.server_cpu is not None:
            os.sched_setaffinity(0, {args.server_cpu})

    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(args.size)],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=pin_server,
    )
    if args.client_cpu is not None:
        os.sched_setaffinity(0, {args.client_cpu})
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        rows = clients(f"http://{args.host}:{port}/page")
        best: dict[str, tuple[float, float]] = {}
        for _ in range(max(1, args.rounds)):
            for name, fetch in rows:
                wall, cpu = measure(fetch, args.requests)
                old = best.get(name)
                best[name] = (wall, cpu) if old is None else (min(old[0], wall), min(old[1], cpu))
    finally:
        proc.terminate()
        proc.wait()

    base = best["requests.Session().get"][1]
    ref = best.get("rnet BlockingClient.get", (0.0, 0.0))[1]
    pinned = (
        ""
        if args.client_cpu is None and args.server_cpu is None
        else f", client on core {args.client_cpu}, server on core {args.server_cpu}"
    )
    print(
        f"{args.requests} GETs of a {args.size}-byte page over loopback keep-alive "
        f"(http://{args.host}:port/), best of {args.rounds} rounds{pinned}\n"
    )
    print(
        f"{'client':32} {'wall/req':>10} {'CPU/req':>10} {'× rnet CPU':>11} {'× requests CPU':>15}"
    )
    for name, _ in rows:
        wall, cpu = best[name]
        vs_rnet = f"{cpu / ref:10.2f}x" if ref else f"{'-':>11}"
        print(f"{name:32} {wall * 1e6:8.0f}µs {cpu * 1e6:8.1f}µs {vs_rnet} {cpu / base:14.2f}x")
    print(
        "\nratios are CPU per request relative to rnet and to requests.Session (lower is cheaper)"
    )


if __name__ == "__main__":
    main()
