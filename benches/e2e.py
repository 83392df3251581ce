"""End-to-end benchmark: fetch + Markdown throughput and CPU per page, download throughput/RSS.

One command, everything measured in the same run against loopback servers in their own
processes (so their CPU is not charged to the client):

    python benches/e2e.py                      # 100 pages, 1 GiB download
    python benches/e2e.py --only fetch --pages 181 --set articles+wcxb --repeat 3
    python benches/e2e.py --only download --repeat 3         # download part only

Fetch + Markdown: the corpus pages come from Debian's nginx (``apt-get install nginx``; the
script writes a temporary nginx.conf serving them on 127.0.0.1 with keep-alive, starts it
under ``taskset`` on the last core and stops it at the end) while this process runs pinned to
the first core; without nginx, or with ``--server python``, from an asyncio server in a child
process instead. Contenders, one thread each (peers are optional imports, skipped with the
reason printed; ``pip install '.[bench]'`` brings them):

- rnet + turbohtml ``to_markdown`` (the fastest Python stack found: the reference row);
- pycurl + markdownify_rs;
- httpx + html-to-markdown;
- requests + BeautifulSoup + markdownify (the spec's baseline);
- webgrip ``WebClient.fetch(..., main_content=False)`` (whole page, as the peers convert);
- webgrip ``WebClient.fetch(...)`` (readable main content, the default);
- webgrip ``Tools.fetch_page`` (what an agent calls: the readable page, header and slice);

then webgrip with ``--threads`` threads and through ``fetch_many``, and GAIA's own web client
when installed (``pip install amd-gaia``; requests + BeautifulSoup, plain text, its SSRF guard
opened for loopback through ``GAIA_WEB_ALLOWED_HOSTS``). Each row gives pages/s, the ratio to
rnet + turbohtml and the client's CPU per page (``time.process_time``).

Download: a file of ``--download-size`` bytes generated on the fly by the Python server, saved
by webgrip (streamed to disk, fsynced) and by ``curl -o`` when curl exists; each run in a fresh
process so its peak RSS growth (``VmHWM``, reset just before the download, minus the RSS then)
is its own.

Ratios are against rows measured in the same run, so they compare across machines even
though absolute rates do not.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import logging
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

import _nginx
from _download import parse_size, run_webgrip

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


SETS = {
    "wcxb": ("wcxb-dev",),
    "articles": ("article-bench-dev",),
    "articles+wcxb": ("article-bench-dev", "wcxb-dev"),
}


def load_pages(corpus: Path, count: int, which: str = "wcxb") -> list[bytes]:
    files = [f for name in SETS[which] for f in sorted((corpus / name / "html").glob("*.html.gz"))][
        :count
    ]
    if not files:
        sys.exit(f"no corpus pages for {which!r} under {corpus} (use --corpus)")
    return [gzip.decompress(f.read_bytes()) for f in files]


# -- nginx (own process, own core) ------------------------------------------------------------
#: Keep-alive connections that last the whole run, pages as HTML.
_HTTP = """\
    tcp_nodelay on;
    keepalive_timeout 120s;
    keepalive_requests 1000000;
    default_type text/html;
    charset utf-8;"""


class Nginx(_nginx.Nginx):
    """nginx serving ``pages`` as ``/p/<i>`` from a temp folder, on its own core."""

    def __init__(self, pages: list[bytes], core: int):
        self.dir = tempfile.mkdtemp(prefix="webgrip-e2e-nginx-")
        www = Path(self.dir, "www", "p")
        www.mkdir(parents=True)
        for i, page in enumerate(pages):
            (www / str(i)).write_bytes(page)
        taskset = ("taskset", "-c", str(core)) if shutil.which("taskset") else ()
        super().__init__(Path(self.dir), _HTTP, connections=1024, prefix=taskset)

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.dir, ignore_errors=True)


# -- contenders -------------------------------------------------------------------------------
def webgrip_fetcher(main_content: bool | None = None) -> tuple[Callable[[str], str], object]:
    from webgrip import Config
    from webgrip.client import WebClient

    client = WebClient(
        Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, page_cache_size=0, timeout=60)
    )
    return (lambda url: client.fetch(url, main_content=main_content).content), client


def tools_fetcher() -> Callable[[str], str]:
    from webgrip import Config, Tools

    tools = Tools(Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=60))
    return tools.fetch_page


def rnet_fetcher() -> Callable[[str], str]:
    import rnet
    import turbohtml

    client = rnet.BlockingClient()

    def fetch(url: str) -> str:
        response = client.get(url)
        if not response.ok:
            raise RuntimeError(f"{url}: HTTP {response.status_code}")
        return turbohtml.parse(response.text()).to_markdown()

    return fetch


def pycurl_fetcher() -> Callable[[str], str]:
    import io

    import markdownify_rs
    import pycurl

    curl = pycurl.Curl()  # one handle: its connection is reused (keep-alive)

    def fetch(url: str) -> str:
        buf = io.BytesIO()
        curl.setopt(pycurl.URL, url)
        curl.setopt(pycurl.WRITEDATA, buf)
        curl.perform()
        if curl.getinfo(pycurl.RESPONSE_CODE) != 200:
            raise RuntimeError(f"{url}: HTTP {curl.getinfo(pycurl.RESPONSE_CODE)}")
        return markdownify_rs.markdownify(buf.getvalue().decode("utf-8", "replace"))

    return fetch


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
        response = session.get(url, timeout=60)
        response.raise_for_status()
        soup = BeautifulSoup(response.text, "html.parser")
        for tag in soup(["script", "style", "noscript"]):
            tag.decompose()
        return converter.convert_soup(soup)

    return fetch


def httpx_fetcher() -> Callable[[str], str]:
    import html_to_markdown
    import httpx

    client = httpx.Client(timeout=60)

    def fetch(url: str) -> str:
        response = client.get(url)
        response.raise_for_status()
        result = html_to_markdown.convert(response.text)
        return getattr(result, "content", result)

    return fetch


def gaia_fetcher() -> Callable[[str], str] | None:
    os.environ.setdefault("GAIA_WEB_ALLOWED_HOSTS", "127.0.0.1")
    # Importing GAIA configures the root logger (level INFO, a stderr handler and a rotating
    # file in ~/.gaia): from then on every contender that logs, webgrip's per-request INFO
    # line included, would pay for formatting and writing records in every later round.
    # The root logger is put back as it was, so each row measures its own work.
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        from gaia.web.client import WebClient as GaiaClient
    except Exception:
        return None
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers
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
def download_curl(url: str, folder: str) -> dict | None:
    curl = shutil.which("curl")
    if curl is None:
        return None
    target = os.path.join(folder, "curl.bin")
    t0 = time.perf_counter()
    subprocess.run([curl, "-s", "-o", target, url], check=True)
    wall = time.perf_counter() - t0
    return {"wall": wall, "size": os.path.getsize(target)}


def _optional(name: str, make: Callable[[], Callable[[str], str]]) -> Callable[[str], str] | None:
    """A peer's fetcher, or ``None`` (reason printed) when its packages are missing."""
    try:
        return make()
    except ImportError as exc:
        print(f"  {name}: skipped ({exc.name or exc} is not installed; pip install '.[bench]')")
        return None


def run_fetch(args: argparse.Namespace, urls: list[str], rows: list[dict]) -> None:
    """Fetch + Markdown for every contender; appends to ``rows`` and prints the table."""
    jobs: list[tuple[str, str, Callable[[], int]]] = []

    def one_thread(name: str, fetch: Callable[[str], str] | None) -> None:
        if fetch is not None:
            fetch(urls[0])  # connect and warm up outside the timing
            jobs.append((name, "sequential", sequential(fetch, urls)))

    one_thread("rnet + turbohtml to_markdown", _optional("rnet + turbohtml", rnet_fetcher))
    one_thread("pycurl + markdownify_rs", _optional("pycurl + markdownify_rs", pycurl_fetcher))
    one_thread("httpx + html-to-markdown", _optional("httpx + html-to-markdown", httpx_fetcher))
    one_thread(
        "requests + BeautifulSoup + markdownify",
        _optional("requests + BeautifulSoup + markdownify", baseline_fetcher),
    )
    whole, _ = webgrip_fetcher(main_content=False)
    one_thread("webgrip fetch(main_content=False) (whole page)", whole)
    wg, wg_client = webgrip_fetcher()
    one_thread("webgrip fetch() (readable, the default)", wg)
    one_thread("webgrip Tools.fetch_page", tools_fetcher())

    if args.threads > 1:
        jobs.append(
            (
                "webgrip fetch() (readable)",
                f"{args.threads} threads",
                threaded(wg, urls, args.threads),
            )
        )
        jobs.append(
            (
                "webgrip fetch() (readable)",
                "fetch_many",
                lambda: sum(
                    len(p.content) for p in wg_client.fetch_many(urls, concurrency=args.threads)
                ),
            )
        )

    gaia = gaia_fetcher()
    if gaia is None:
        print("  GAIA web client: skipped (not installed: pip install amd-gaia)")
    else:
        one_thread("GAIA WebClient (text)", gaia)

    # Rounds of every contender in turn, so that a burst of other load on a shared machine
    # falls on all of them; each keeps its fastest round (the least disturbed one) for the
    # wall time, and its cheapest for the CPU time.
    best: list[tuple[float, float, int] | None] = [None] * len(jobs)
    for _ in range(args.repeat):
        for i, (_name, _mode, fetch_all) in enumerate(jobs):
            wall, cpu, chars = measure(fetch_all)
            old = best[i]
            best[i] = (
                (wall, cpu, chars) if old is None else (min(old[0], wall), min(old[1], cpu), chars)
            )
    for (name, mode, _), result in zip(jobs, best, strict=True):
        assert result is not None
        wall, cpu, chars = result
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
            f"  {name:<44} {mode:<12} {r['pages_per_s']:9.1f} pages/s "
            f"{r['cpu_ms_per_page']:8.2f} ms CPU/page",
            flush=True,
        )

    reference = next((r for r in rows if r["contender"].startswith("rnet")), None)
    if reference is None:
        reference = next((r for r in rows if r["contender"].startswith("requests")), rows[0])
    print(f"\n| contender | mode | pages/s | × {reference['contender']} | CPU ms/page |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['contender']} | {r['mode']} | {r['pages_per_s']:.0f} | "
            f"{r['pages_per_s'] / reference['pages_per_s']:.2f}× | {r['cpu_ms_per_page']:.2f} |"
        )


# -- main -------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--pages", type=int, default=100, help="corpus pages to fetch (default 100)")
    ap.add_argument(
        "--set", choices=sorted(SETS), default="wcxb", help="which corpus pages (default wcxb)"
    )
    ap.add_argument("--threads", type=int, default=8, help="threads for webgrip's extra rows")
    ap.add_argument(
        "--server",
        choices=("nginx", "python"),
        default="nginx",
        help="what serves the pages (default nginx, if installed)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="rounds of all contenders in turn; each keeps its fastest (default 2)",
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
    pages = [] if args.only == "download" else load_pages(args.corpus, args.pages, args.set)
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    nginx: Nginx | None = None
    if pages and args.server == "nginx":
        if shutil.which("nginx") is None:
            print("nginx is not installed (apt-get install nginx): pages from the Python server")
        else:
            nginx = Nginx(pages, core=cores[-1] if cores else 0)
            if len(cores) > 1:  # the client on the first core, nginx on the last
                os.sched_setaffinity(0, {cores[0]})
    port_q: mp.Queue = mp.Queue()
    ready = mp.Event()
    server = mp.Process(target=_serve, args=([] if nginx else pages, port_q, ready), daemon=True)
    server.start()
    ready.wait(30)
    port = port_q.get(timeout=30)
    base = f"http://127.0.0.1:{port}"
    page_base = f"http://127.0.0.1:{nginx.port}" if nginx else base
    urls = [f"{page_base}/p/{i}" for i in range(len(pages))]
    total_mb = sum(map(len, pages)) / 1e6
    where = (
        f"nginx on core {cores[-1] if cores else '?'}, client on core {cores[0]}"
        if nginx and len(cores) > 1
        else "nginx"
        if nginx
        else "Python server"
    )
    print(f"{len(pages)} pages ({total_mb:.1f} MB of HTML), {os.cpu_count()} CPUs, {where}\n")

    rows: list[dict] = []
    try:
        if args.only != "download":
            run_fetch(args, urls, rows)
    finally:
        if nginx is not None:
            nginx.stop()
            if cores:
                os.sched_setaffinity(0, set(cores))

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
                w = run_webgrip(url, folder, size)
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
            f"{max(0, wgd['rss_growth']) / (1 << 20):.1f} MiB |"
        )
        downloads.append(
            {"client": "webgrip", "mib_per_s": wg_rate, "peak_rss_growth": wgd["rss_growth"]}
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
