"""Pages per second of ``webgrip.bulk.ray.fetch_dataset`` against the number of Ray workers.

    python benches/ray_scaling.py                      # 1-4 workers, 800 pages, Ray on 2 CPUs
    python benches/ray_scaling.py --pages 2000 --workers 1,2,4,8 --cpus 2

A local nginx (Debian's; a config of its own in a temp folder, one worker process) serves the
``article-bench-dev`` pages (decompressed once; a generated article when ../shared is absent)
on four loopback addresses, i.e. four hosts. Three setups, every one in this invocation so the
figures compare:

- ``threads``: one process, :func:`webgrip.bulk.pool.fetch_many` on 8 threads (no Ray);
- ``ray N``: ``fetch_dataset`` with N actors (0.5 CPU each, so up to 2x the CPUs fit), no
  rate limit: what the machine can fetch and convert;
- ``ray N polite``: the same with ``rate_limit_seconds`` = ``--interval`` per host shared
  through a throwaway redis-server: the budget (4 hosts / interval) caps the rate whatever N.

Two figures per run: the wall time of ``materialize()`` on a fresh actor pool (actor start-up
included; the Ray runtime is started once before), and the fetching rate seen by nginx (its
access log: requests from the run's first to its last, so start-up left out). Needs
``webgrip[ray]``, nginx and redis-server.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

# The throwaway redis-server is the distributed-fetch tests' own (tests/helpers/ray_sites.py),
# imported the way those tests import it: with tests/ on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from helpers.ray_sites import free_port, redis_server

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "article-bench-dev" / "html"
HOSTS = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")


def _wait_port(host: str, port: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), 1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {host}:{port}")


def _write_pages(folder: Path, limit: int) -> list[str]:
    files = sorted(CORPUS.glob("*.html.gz"))[:limit]
    names = []
    for i, f in enumerate(files):
        (folder / f"p{i}.html").write_bytes(gzip.decompress(f.read_bytes()))
        names.append(f"p{i}.html")
    if not names:  # no corpus here: one generated article
        body = "".join(
            f"<p>Paragraph {i} of a generated article, long enough to read.</p>" for i in range(200)
        )
        (folder / "p0.html").write_text(
            f"<html><head><title>Generated</title></head><body>"
            f"<main><h1>Generated</h1>{body}</main></body></html>"
        )
        names = ["p0.html"]
    return names


@contextlib.contextmanager
def nginx(folder: Path) -> Iterator[int]:
    port = free_port()
    listens = "\n".join(f"listen {h}:{port};" for h in HOSTS)
    conf = folder / "nginx.conf"
    conf.write_text(f"""
daemon off; worker_processes 1; pid {folder}/nginx.pid; error_log {folder}/error.log;
events {{ worker_connections 1024; }}
http {{
  log_format t '$msec'; access_log {folder}/access.log t buffer=64k flush=1s;
  client_body_temp_path {folder}; proxy_temp_path {folder};
  fastcgi_temp_path {folder}; uwsgi_temp_path {folder}; scgi_temp_path {folder};
  types {{ text/html html; }} keepalive_requests 100000;
  server {{ {listens} root {folder}/www; }}
}}
""")
    proc = subprocess.Popen(
        [shutil.which("nginx") or "nginx", "-c", str(conf), "-p", str(folder)],
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_port(HOSTS[0], port)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


class Access:
    """nginx's access log (one ``$msec`` a request): the rate of the requests of one run,
    from its first arrival to its last, i.e. without the actors' start-up."""

    def __init__(self, path: Path):
        self.path = path
        self.seen = 0

    def rate(self, expected: int) -> float:
        deadline = time.monotonic() + 10  # nginx flushes its buffer every second
        while True:
            lines = self.path.read_text().split() if self.path.exists() else []
            if len(lines) >= self.seen + expected or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        times = sorted(float(t) for t in lines[self.seen :])
        self.seen = len(lines)
        return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=800, help="URLs per run")
    ap.add_argument("--workers", default="1,2,3,4", help="actor counts to run")
    ap.add_argument("--cpus", type=int, default=2, help="CPUs given to the local Ray")
    ap.add_argument(
        "--interval",
        type=float,
        default=0.05,
        help="per-host rate limit of the polite runs (seconds)",
    )
    ap.add_argument("--polite-pages", type=int, default=200, help="URLs per polite run")
    args = ap.parse_args()

    import ray
    import ray.data
    from webgrip import Config, WebClient
    from webgrip.bulk.pool import fetch_many
    from webgrip.bulk.ray import fetch_dataset

    workers = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "www").mkdir()
        names = _write_pages(folder / "www", 100)
        with nginx(folder) as port, redis_server(folder) as redis_url:

            def urls(n: int) -> list[str]:  # distinct URLs, hosts interleaved
                return [
                    f"http://{HOSTS[i % len(HOSTS)]}:{port}/{names[i % len(names)]}?n={i}"
                    for i in range(n)
                ]

            free = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=30)
            polite = Config(
                allow_networks=("127.0.0.0/8",), rate_limit_seconds=args.interval, timeout=60
            )
            print(
                f"{len(names)} distinct pages on {len(HOSTS)} hosts; Ray with {args.cpus} CPUs",
                file=sys.stderr,
            )
            results: list[tuple[str, int, float, float]] = []
            log = Access(folder / "access.log")

            with WebClient(free) as client:
                todo = urls(args.pages)
                start = time.perf_counter()
                done = fetch_many(client, todo, concurrency=8)
                elapsed = time.perf_counter() - start
                assert not any(isinstance(d, Exception) for d in done)
                results.append(
                    ("threads (no Ray, 8 threads)", len(todo), elapsed, log.rate(len(todo)))
                )

            ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
            ray.data.DataContext.get_current().enable_progress_bars = False
            try:
                for label, config, n, politeness in (
                    ("ray", free, args.pages, None),
                    ("ray polite", polite, args.polite_pages, redis_url),
                ):
                    for w in workers:
                        ds = ray.data.from_items([{"url": u} for u in urls(n)])
                        start = time.perf_counter()
                        out = fetch_dataset(
                            ds, config=config, politeness=politeness, concurrency=w, num_cpus=0.5
                        ).materialize()
                        elapsed = time.perf_counter() - start
                        errors = out.filter(lambda r: r["error"] is not None).count()
                        assert out.count() == n and errors == 0, (out.count(), errors)
                        results.append(
                            (f"{label}, {w} worker{'s' * (w > 1)}", n, elapsed, log.rate(n))
                        )
                        print(
                            f"  {results[-1][0]}: {n / elapsed:.0f} pages/s wall, "
                            f"{results[-1][3]:.0f} fetching",
                            file=sys.stderr,
                        )
            finally:
                ray.shutdown()

    cap = len(HOSTS) / args.interval
    print(
        "\n| setup | pages | wall s | pages/s (wall) | pages/s (fetching) |\n"
        "|---|---:|---:|---:|---:|"
    )
    for label, n, elapsed, steady in results:
        print(f"| {label} | {n} | {elapsed:.1f} | {n / elapsed:.0f} | {steady:.0f} |")
    print(f"\npolite runs: budget {len(HOSTS)} hosts / {args.interval:g} s = {cap:.0f} pages/s")


if __name__ == "__main__":
    main()
