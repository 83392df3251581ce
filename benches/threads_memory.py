"""Peak memory of ``Tools.fetch_page`` over the corpus pages: one thread against many.

    python benches/threads_memory.py                 # both corpora, sequential and 32 threads
    python benches/threads_memory.py --limit 300 --threads 8,32

A loopback HTTP server in its own process serves the pages of ``article-bench-dev`` and
``wcxb-dev`` (decompressed once, served as plain ``text/html``). Each mode runs in a fresh
client process that calls ``Tools(Config(...)).fetch_page(url)`` on every page once (the
default Markdown view of the readable content, the shared in-memory page cache at its
defaults) and reports its peak RSS (``VmHWM``), the RSS after the import (the baseline every
mode shares) and the wall time. Every mode runs in the same invocation, so the figures
compare; the server's memory is its own and is not counted.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing as mp
import subprocess
import sys
from pathlib import Path

from _rss import STATUS_SOURCE

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
CORPORA = ("article-bench-dev", "wcxb-dev")


def _serve(files: list[str], port_out: mp.Queue) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    pages = [gzip.decompress(Path(f).read_bytes()) for f in files]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            if self.path.startswith("/p/"):
                body = pages[int(self.path[3:]) % len(pages)]
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
            else:
                body = b""
                self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 256
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_out.put(server.server_address[1])
    server.serve_forever()


# The measured client: a fresh interpreter per mode, so each peak is its own.
_CLIENT = (
    STATUS_SOURCE
    + r"""
import json, sys, time
from concurrent.futures import ThreadPoolExecutor

base, count, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
from webgrip import Config, Tools

tools = Tools(Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=60))
urls = [f"{base}/p/{i}" for i in range(count)]
tools.fetch_page(urls[0])
start_rss = status("VmRSS:")
t0 = time.perf_counter()
if threads <= 1:
    answers = [tools.fetch_page(u) for u in urls]
else:
    with ThreadPoolExecutor(threads) as pool:
        answers = list(pool.map(tools.fetch_page, urls))
wall = time.perf_counter() - t0
errors = sum(a.startswith("Error:") for a in answers)
print(json.dumps({"wall": wall, "start_rss": start_rss, "peak_rss": status("VmHWM:"),
                  "end_rss": status("VmRSS:"), "errors": errors}))
"""
)


def run_mode(base: str, count: int, threads: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CLIENT, base, str(count), str(threads)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--limit", type=int, default=0, help="pages (default: all of both corpora)")
    ap.add_argument("--threads", default="1,32", help="comma-separated thread counts")
    args = ap.parse_args()

    files = sorted(str(f) for c in CORPORA for f in (args.corpus / c / "html").glob("*.html.gz"))
    if args.limit:
        files = files[: args.limit]
    if not files:
        sys.exit(f"no corpus pages under {args.corpus} (use --corpus)")
    port_q: mp.Queue = mp.Queue()
    server = mp.Process(target=_serve, args=(files, port_q), daemon=True)
    server.start()
    base = f"http://127.0.0.1:{port_q.get(timeout=120)}"
    mib = 1 << 20
    print(f"{len(files)} pages from {', '.join(CORPORA)}; server on {base}\n")
    print("| threads | peak RSS (MiB) | RSS after warm-up | RSS at the end | wall s | errors |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    try:
        for threads in (int(t) for t in args.threads.split(",")):
            r = run_mode(base, len(files), threads)
            print(
                f"| {threads} | {r['peak_rss'] / mib:.0f} | {r['start_rss'] / mib:.0f} | "
                f"{r['end_rss'] / mib:.0f} | {r['wall']:.1f} | {r['errors']} |",
                flush=True,
            )
    finally:
        server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
