"""Per-request cost of ``WebClient.get`` against ``requests.Session().get``, same run.

    python benches/client_overhead.py [--requests 2000] [--size 2048]

A keep-alive HTTP/1.1 server runs in a *separate process* on loopback, so
``time.process_time()`` here counts only the client's CPU. Each client fetches the same
small page ``--requests`` times over one pooled connection (after a warm-up); the table
gives wall time and CPU time per request and the ratio to ``requests``. Both numbers are
measured in the same run, on the same machine, so the ratios are what to compare.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable

SERVER = r"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BODY = b"<html><body>" + b"x" * int(sys.argv[1]) + b"</body></html>"

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--size", type=int, default=2048, help="body bytes")
    args = ap.parse_args()

    import requests
    from webgrip import Config, WebClient, _core

    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(args.size)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        url = f"http://127.0.0.1:{port}/page"
        cfg = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0)
        web = WebClient(cfg)
        core = _core.Client(allow_networks=["127.0.0.0/8"])
        session = requests.Session()
        session.trust_env = False  # no proxy lookups: compare transport work only

        rows = [
            ("requests.Session().get", lambda: len(session.get(url).content)),
            ("webgrip WebClient.get", lambda: len(web.get(url).content)),
            ("webgrip _core.Client.request", lambda: len(core.request(url)["content"])),
        ]
        results = [(name, *measure(f, args.requests)) for name, f in rows]
    finally:
        proc.terminate()
        proc.wait()

    base_wall, base_cpu = results[0][1], results[0][2]
    print(f"{args.requests} GETs of a {args.size}-byte page over loopback keep-alive\n")
    print(f"{'client':32} {'wall/req':>10} {'CPU/req':>10} {'wall ratio':>11} {'CPU ratio':>10}")
    for name, wall, cpu in results:
        print(
            f"{name:32} {wall * 1e6:8.0f}µs {cpu * 1e6:8.0f}µs "
            f"{wall / base_wall:10.2f}x {cpu / base_cpu:9.2f}x"
        )
    print("\nratios are relative to requests.Session (lower is cheaper)")


if __name__ == "__main__":
    main()
