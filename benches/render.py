"""Rendered pages against static fetches of the same script-built page, same run.

    python benches/render.py [--pages 20] [--threads 4] [--workers 2]

A loopback server (a thread here) serves an empty shell whose script fetches JSON from its
own origin and inserts it. ``WebClient.fetch`` reads it ``--pages`` times with
``render="never"`` (today's static fetch: the shell only) and with ``render="always"`` (the
guarded headless Chromium: the content). The first render, which launches the browser, is
timed apart, and a first round from every thread brings up the pool's other workers; then
the pages are fetched from ``--threads`` threads at once (the render pool runs as many as it
has workers: one per two cores, at most four). Peak memory (PSS) is sampled every
20 ms over this process and every process below it (the Playwright driver and Chromium's
processes), so it is what the machine pays.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The installed webgrip (the source tree has no built `_core`): `pip install .` first.
from webgrip import Config, WebClient, render

SHELL = (
    b'<!doctype html><html><head><title>Shell</title></head><body><div id="app"></div>'
    b'<script src="/app.js"></script></body></html>'
)
APP_JS = (
    b'fetch("/data.json").then(r => r.json()).then(d => {'
    b'document.getElementById("app").innerHTML = "<h1>" + d.title + "</h1>" + '
    b'd.paragraphs.map(p => "<p>" + p + "</p>").join(""); });'
)
DATA = json.dumps(
    {
        "title": "Rendered",
        "paragraphs": [
            f"Paragraph {i} of the JSON document, inserted by the page's own script."
            for i in range(20)
        ],
    }
).encode()
ROUTES = {
    "/": (SHELL, "text/html"),
    "/app.js": (APP_JS, "text/javascript"),
    "/data.json": (DATA, "application/json"),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms stalls

    def do_GET(self) -> None:
        body, ctype = ROUTES.get(self.path, (b"not found", "text/plain"))
        self.send_response(200 if self.path in ROUTES else 404)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def tree_rss() -> int:
    """Proportional resident bytes (PSS: shared pages split between their users, so the
    browser's processes are not counted many times) of this process and its descendants."""
    total = 0
    for pid in [os.getpid(), *render._descendants(os.getpid())]:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


class PeakRss:
    def __init__(self) -> None:
        self.peak = tree_rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, tree_rss())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--workers",
        type=int,
        default=0,
        help="Config.render_workers (0: one per two cores, at most four)",
    )
    args = ap.parse_args()
    why = render.render_available(Config())
    if why:
        sys.exit(f"cannot bench rendering: {why}")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    cfg = Config(
        allow_networks=("127.0.0.1/32",),
        rate_limit_seconds=0,
        page_cache_size=0,
        render_workers=args.workers,
    )
    rows = []
    with WebClient(cfg) as client:
        for mode in ("never", "always"):
            with PeakRss() as rss:
                t0 = time.perf_counter()
                first = client.fetch(url, render=mode)
                launch = time.perf_counter() - t0
                with ThreadPoolExecutor(max_workers=args.threads) as pool:
                    # Every worker's browser up before the clock starts (each launch is the
                    # "first call" cost, not a render's).
                    list(
                        pool.map(lambda _, m=mode: client.fetch(url, render=m), range(args.threads))
                    )
                    t0 = time.perf_counter()
                    pages = list(
                        pool.map(lambda _, m=mode: client.fetch(url, render=m), range(args.pages))
                    )
                    took = time.perf_counter() - t0
                page = pages[-1]
            rows.append(
                (
                    mode,
                    launch,
                    args.pages / took,
                    took / args.pages,
                    rss.peak,
                    len(page.content),
                    first.rendered,
                )
            )
    render.shutdown()
    server.shutdown()
    print(
        f"{args.pages} pages from {args.threads} thread(s); render workers: "
        f"{args.workers or render.DEFAULT_RENDER_WORKERS}"
    )
    print(
        f"{'render':8} {'first call':>11} {'pages/s':>9} {'ms/page':>9} {'peak PSS':>10} "
        f"{'content':>8}"
    )
    for mode, launch, rate, per, peak, chars, _ in rows:
        print(
            f"{mode:8} {launch * 1000:9.0f}ms {rate:9.1f} {per * 1000:9.1f} "
            f"{peak / 2**20:8.0f}MB {chars:7d}c"
        )


if __name__ == "__main__":
    main()
