"""End-to-end benchmark: fetch + Markdown throughput and CPU per page, download throughput/RSS.

One command, everything measured in the same run against a loopback HTTP server (a separate
process, so its CPU is not charged to the client) serving real pages from the WCXB corpus:

    python benches/e2e.py                      # 100 pages, 1 GiB download
    python benches/e2e.py --pages 50 --download-size 64M     # quick look
    python benches/e2e.py --only download --repeat 3         # download part only

Contenders for fetch + Markdown, each sequentially and with 8 threads (webgrip also through
``fetch_many``):

- webgrip (``WebClient.fetch``, readable main content as Markdown — what an agent gets);
- requests + BeautifulSoup + markdownify (the spec's baseline; whole page);
- httpx + html-to-markdown (whole page);
- GAIA's own web client (``pip install amd-gaia``; requests + BeautifulSoup, plain text —
  it has no Markdown mode), with its SSRF guard opened for loopback through its documented
  ``GAIA_WEB_ALLOWED_HOSTS`` switch. Skipped when not installed.

Download: a file of ``--download-size`` bytes generated on the fly by the server, saved by
webgrip (streamed to disk, fsynced) and by ``curl -o`` when curl exists; each run in a fresh
process so its peak RSS growth (``VmHWM`` minus the RSS before the download) is its own.

Ratios are against the baseline measured in the same run, so the numbers compare across
machines even though absolute rates do not.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
CHUNK = 1 << 20


# -- the loopback server (own process) --------------------------------------------------------
def _serve(pages: list[bytes], port_out: mp.Queue, ready: mp.Event) -> None:
    responses = [
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        + f"Content-Length: {len(p)}\r\n\r\n".encode()
        + p
        for p in pages
    ]
    zeros = bytes(range(256)) * (CHUNK // 256)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                line = head.split(b"\r\n", 1)[0].decode()
                path = line.split(" ")[1]
                if path.startswith("/p/"):
                    writer.write(
                        responses[int(path[3:]) % len(responses)]
                        if responses
                        else b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
                    )
                    await writer.drain()
                elif path.startswith("/big/"):
                    size = int(path[5:])
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream"
                        + f"\r\nContent-Length: {size}\r\n\r\n".encode()
                    )
                    left = size
                    while left > 0:
                        n = min(left, CHUNK)
                        writer.write(zeros[:n])
                        await writer.drain()
                        left -= n
                else:
                    writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                    await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=512)
        port_out.put(server.sockets[0].getsockname()[1])
        ready.set()
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def load_pages(corpus: Path, count: int) -> list[bytes]:
    files = sorted((corpus / "wcxb-dev" / "html").glob("*.html.gz"))[:count]
    if not files:
        sys.exit(f"no corpus pages under {corpus}/wcxb-dev/html (use --corpus)")
    return [gzip.decompress(f.read_bytes()) for f in files]


# -- contenders -------------------------------------------------------------------------------
def webgrip_fetcher(main_content: bool | None = None) -> tuple[Callable[[str], str], object]:
    from webgrip import Config
    from webgrip.client import WebClient

    client = WebClient(
        Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, page_cache_size=0, timeout=60)
    )
    return (lambda url: client.fetch(url, main_content=main_content).content), client


def baseline_fetcher() -> Callable[[str], str]:
    import requests
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    local = threading.local()
    converter = MarkdownConverter(heading_style="ATX")

    def fetch(url: str) -> str:
        session = getattr(local, "session", None)
        if session is None:
            session = local.session = requests.Session()
        soup = BeautifulSoup(session.get(url, timeout=60).text, "html.parser")
        for tag in soup(["script", "style", "noscript"]):
            tag.decompose()
        return converter.convert_soup(soup)

    return fetch


def httpx_fetcher() -> Callable[[str], str]:
    import html_to_markdown
    import httpx

    client = httpx.Client(timeout=60)

    def fetch(url: str) -> str:
        result = html_to_markdown.convert(client.get(url).text)
        return getattr(result, "content", result)

    return fetch


def gaia_fetcher() -> Callable[[str], str] | None:
    os.environ.setdefault("GAIA_WEB_ALLOWED_HOSTS", "127.0.0.1")
    try:
        from gaia.web.client import WebClient as GaiaClient
    except Exception:
        return None
    local = threading.local()

    def fetch(url: str) -> str:
        client = getattr(local, "client", None)
        if client is None:  # its rate limiter treats 0 as "default", hence a tiny interval
            client = local.client = GaiaClient(rate_limit=1e-9)
        response = client.get(url)
        return client.extract_text(client.parse_html(response.text), max_length=None)

    return fetch


def measure(fetch_all: Callable[[], int]) -> tuple[float, float, int]:
    """(wall seconds, process CPU seconds, characters produced)."""
    cpu0, t0 = time.process_time(), time.perf_counter()
    chars = fetch_all()
    return time.perf_counter() - t0, time.process_time() - cpu0, chars


def sequential(fetch: Callable[[str], str], urls: list[str]) -> Callable[[], int]:
    return lambda: sum(len(fetch(u)) for u in urls)


def threaded(fetch: Callable[[str], str], urls: list[str], n: int) -> Callable[[], int]:
    def run() -> int:
        with ThreadPoolExecutor(n) as pool:
            return sum(len(t) for t in pool.map(fetch, urls))

    return run


# -- downloads (fresh process each) -----------------------------------------------------------
_DOWNLOAD_CHILD = r"""
import json, os, sys, time
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
    return 0
url, folder, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
from webgrip import Config
from webgrip.client import WebClient
client = WebClient(Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0,
                          download_dirs=(folder,), max_download_bytes=size + 1, timeout=3600))
before = rss("VmRSS:")
t0 = time.perf_counter()
result = client.download(url)
wall = time.perf_counter() - t0
print(json.dumps({"wall": wall, "size": result.size, "peak_growth": rss("VmHWM:") - before}))
"""


def download_webgrip(url: str, folder: str, size: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _DOWNLOAD_CHILD, url, folder, str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def download_curl(url: str, folder: str) -> dict | None:
    curl = shutil.which("curl")
    if curl is None:
        return None
    target = os.path.join(folder, "curl.bin")
    t0 = time.perf_counter()
    subprocess.run([curl, "-s", "-o", target, url], check=True)
    wall = time.perf_counter() - t0
    return {"wall": wall, "size": os.path.getsize(target)}


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().removesuffix("IB").removesuffix("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def run_fetch(args: argparse.Namespace, urls: list[str], rows: list[dict]) -> None:
    """Fetch + Markdown for every contender; appends to ``rows`` and prints the table."""

    def run(name: str, mode: str, fetch_all: Callable[[], int]) -> None:
        # Best of --repeat runs: on a shared machine the fastest run is the one least
        # disturbed by other load.
        wall, cpu, chars = min((measure(fetch_all) for _ in range(args.repeat)), key=lambda m: m[0])
        rows.append(
            {
                "contender": name,
                "mode": mode,
                "pages_per_s": len(urls) / wall,
                "cpu_ms_per_page": 1000 * cpu / len(urls),
                "chars": chars,
            }
        )
        r = rows[-1]
        print(
            f"  {name:<34} {mode:<12} {r['pages_per_s']:9.1f} pages/s "
            f"{r['cpu_ms_per_page']:8.2f} ms CPU/page",
            flush=True,
        )

    wg, wg_client = webgrip_fetcher()
    wg(urls[0])
    run("webgrip", "sequential", sequential(wg, urls))
    run("webgrip", f"{args.threads} threads", threaded(wg, urls, args.threads))
    run(
        "webgrip",
        "fetch_many",
        lambda: sum(len(p.content) for p in wg_client.fetch_many(urls, concurrency=args.threads)),
    )
    whole, _ = webgrip_fetcher(main_content=False)
    whole(urls[0])
    run("webgrip (whole page)", "sequential", sequential(whole, urls))

    baseline = baseline_fetcher()
    baseline(urls[0])
    run("requests+bs4+markdownify", "sequential", sequential(baseline, urls))
    run(
        "requests+bs4+markdownify",
        f"{args.threads} threads",
        threaded(baseline, urls, args.threads),
    )

    hx = httpx_fetcher()
    hx(urls[0])
    run("httpx+html-to-markdown", "sequential", sequential(hx, urls))
    run("httpx+html-to-markdown", f"{args.threads} threads", threaded(hx, urls, args.threads))

    gaia = gaia_fetcher()
    if gaia is None:
        print("  GAIA web client: not installed (pip install amd-gaia) - skipped")
    else:
        gaia(urls[0])
        run("GAIA WebClient (text)", "sequential", sequential(gaia, urls))
        run("GAIA WebClient (text)", f"{args.threads} threads", threaded(gaia, urls, args.threads))

    baseline_row = next(
        r for r in rows if r["contender"].startswith("requests") and r["mode"] == "sequential"
    )
    seq = {r["contender"]: r["pages_per_s"] for r in rows if r["mode"] == "sequential"}
    print(
        "\n| contender | mode | pages/s | CPU ms/page | pages/s × baseline "
        "| CPU/page ÷ baseline | × own sequential |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        speed = r["pages_per_s"] / baseline_row["pages_per_s"]
        thrift = baseline_row["cpu_ms_per_page"] / r["cpu_ms_per_page"]
        print(
            f"| {r['contender']} | {r['mode']} | {r['pages_per_s']:.1f} | "
            f"{r['cpu_ms_per_page']:.2f} | {speed:.1f}× | {thrift:.1f}× less | "
            f"{r['pages_per_s'] / seq[r['contender']]:.2f}× |"
        )


# -- main -------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--pages", type=int, default=100, help="corpus pages to fetch (default 100)")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="runs per measurement; the fastest is kept (default 2)",
    )
    ap.add_argument(
        "--download-size",
        type=parse_size,
        default=1 << 30,
        help="size of the generated download, e.g. 1G, 256M (default 1G)",
    )
    ap.add_argument(
        "--skip-download",
        action="store_true",
        help="skip the download measurement (same as --only fetch)",
    )
    ap.add_argument(
        "--only",
        choices=("fetch", "download"),
        help="run only the fetch + Markdown part or only the download part",
    )
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = ap.parse_args(argv)

    if args.only == "fetch":
        args.skip_download = True
    pages = [] if args.only == "download" else load_pages(args.corpus, args.pages)
    port_q: mp.Queue = mp.Queue()
    ready = mp.Event()
    server = mp.Process(target=_serve, args=(pages, port_q, ready), daemon=True)
    server.start()
    ready.wait(30)
    port = port_q.get(timeout=30)
    base = f"http://127.0.0.1:{port}"
    urls = [f"{base}/p/{i}" for i in range(len(pages))]
    total_mb = sum(map(len, pages)) / 1e6
    print(
        f"{len(pages)} pages ({total_mb:.1f} MB of HTML), {os.cpu_count()} CPUs, server on {base}\n"
    )

    rows: list[dict] = []
    if args.only != "download":
        run_fetch(args, urls, rows)

    downloads: list[dict] = []
    if not args.skip_download:
        size = args.download_size
        url = f"{base}/big/{size}"
        curl: dict | None = None
        wgd: dict | None = None
        with tempfile.TemporaryDirectory(prefix="webgrip-bench-") as folder:
            # Alternate the two and keep each one's best run; flush the page cache's dirty
            # data before every run so neither pays for the other's writes.
            for _ in range(args.repeat):
                os.sync()
                c = download_curl(url, folder)
                if c:
                    os.unlink(os.path.join(folder, "curl.bin"))
                    curl = c if curl is None or c["wall"] < curl["wall"] else curl
                os.sync()
                w = download_webgrip(url, folder, size)
                for leftover in os.listdir(folder):
                    os.unlink(os.path.join(folder, leftover))
                wgd = w if wgd is None or w["wall"] < wgd["wall"] else wgd
        assert wgd is not None
        mib = size / (1 << 20)
        print(f"\nDownload of {mib:.0f} MiB (generated by the server):\n")
        print("| client | MiB/s | × curl | peak RSS growth |")
        print("|---|---:|---:|---:|")
        wg_rate = wgd["size"] / (1 << 20) / wgd["wall"]
        ratio = f"{wg_rate / (curl['size'] / (1 << 20) / curl['wall']):.2f}×" if curl else "n/a"
        print(
            f"| webgrip | {wg_rate:.0f} | {ratio} | "
            f"{max(0, wgd['peak_growth']) / (1 << 20):.1f} MiB |"
        )
        downloads.append(
            {"client": "webgrip", "mib_per_s": wg_rate, "peak_rss_growth": wgd["peak_growth"]}
        )
        if curl:
            curl_rate = curl["size"] / (1 << 20) / curl["wall"]
            print(f"| curl -o | {curl_rate:.0f} | 1.00× | (separate process) |")
            downloads.append({"client": "curl", "mib_per_s": curl_rate})

    server.terminate()
    if args.json:
        args.json.write_text(json.dumps({"fetch": rows, "download": downloads}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
