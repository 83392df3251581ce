"""Crawl benchmark: pages/s crawling a generated loopback site, webgrip beside Scrapy, and the
peak RSS of a crawl with 100,000 URLs queued.

    python benches/crawl.py                   # 10,000 pages, every part
    python benches/crawl.py --pages 2000 --only links

The site: ``--pages`` generated HTML pages (about 6 KB each: a title, paragraphs of
varied words and 12 links to other pages of the site, chosen by a fixed random seed so every
page is reachable) served by Debian's nginx on its own core (``apt-get install nginx``; the
Nginx helper of ``benches/e2e.py``), or by a Python server in a child process without it.
The crawlers run pinned to the other core, one at a time, in a fresh process each:

- **Scrapy** (the anchor crawl engine; ``pip install scrapy``, in the bench extra): a spider
  following every same-site link with Scrapy's ``LinkExtractor``, 16 concurrent requests, no
  delay, robots.txt off, stopped at the page count; with ``--markdown`` also converting each
  page with ``markdownify`` and writing it to a file (what a Scrapy user adds for Markdown);
- **webgrip links**: ``webgrip.crawl(..., extract="links")``, 16 concurrent requests;
- **webgrip markdown**: ``run_crawl(..., format="markdown")``: each page's readable Markdown
  written to its own file with the index, as ``webgrip crawl --format markdown`` does.

Politeness is off for both (no rate limit, no robots.txt, no sitemap). Each row gives pages
crawled, pages/s and the ratio to Scrapy's links-only row measured in the same run.

The memory part crawls a site whose every page links to 2,000 new URLs, with ``max_pages``
60, so about 100,000 URLs wait in the frontier when it stops; it reports the child process's
peak RSS (``VmHWM``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

_WORDS = [
    "crawl",
    "page",
    "site",
    "link",
    "index",
    "reader",
    "agent",
    "market",
    "river",
    "stone",
    "paper",
    "orbit",
    "signal",
    "garden",
    "letter",
    "engine",
    "winter",
    "harbor",
    "valley",
    "copper",
    "meadow",
    "lantern",
    "canvas",
    "pilot",
    "ember",
    "quiet",
]


def make_site(pages: int, seed: int = 7) -> list[bytes]:
    """``pages`` HTML pages at ``/p/<i>``: page i links to i+1 (so all are reachable) and to
    eleven others at random."""
    rng = random.Random(seed)
    out = []
    for i in range(pages):
        links = {(i + 1) % pages, *(rng.randrange(pages) for _ in range(11))}
        paras = "".join(
            "<p>" + " ".join(rng.choice(_WORDS) for _ in range(80)) + ".</p>" for _ in range(6)
        )
        anchors = "".join(f'<li><a href="/p/{j}">page {j}</a></li>' for j in sorted(links))
        out.append(
            (
                f"<!doctype html><html><head><title>Page {i}</title></head><body>"
                f"<nav><a href='/p/0'>Home</a></nav><main><article><h1>Page {i}</h1>{paras}"
                f"</article><ul>{anchors}</ul></main><footer>footer</footer></body></html>"
            ).encode()
        )
    return out


def _fanout_page(i: int, fanout: int) -> bytes:
    anchors = "".join(f'<a href="/q/{i}/{j}">u{j}</a>' for j in range(fanout))
    return (
        f"<!doctype html><html><head><title>Hub {i}</title></head><body><h1>Hub {i}</h1>"
        f"<p>A hub page with many links.</p>{anchors}</body></html>"
    ).encode()


# -- the server ---------------------------------------------------------------------------
def _serve_python(pages: list[bytes], fanout: int, port_q: mp.Queue) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            parts = self.path.split("/")
            body = None
            if len(parts) == 3 and parts[1] == "p" and parts[2].isdigit():
                n = int(parts[2])
                body = pages[n] if n < len(pages) else None
            elif len(parts) == 3 and parts[1] == "q" and parts[2].isdigit():
                body = _fanout_page(int(parts[2]), fanout)
            elif len(parts) == 4 and parts[1] == "q" and (parts[2] + parts[3]).isdigit():
                # /q/a/b links to a block of URLs no other page links to
                body = _fanout_page(int(parts[2]) * fanout + int(parts[3]) + 1, fanout)
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port_q.put(server.server_address[1])
    server.serve_forever()


# -- the crawlers (each in its own process) -------------------------------------------------
def _pin(core: int | None) -> None:
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})


def run_webgrip(base: str, pages: int, extract: str, out: str, core: int | None, q: mp.Queue):
    _pin(core)
    from webgrip import Config
    from webgrip.sites.crawl import crawl
    from webgrip.sites.crawl_run import run_crawl

    config = Config(
        allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=60, page_cache_size=0
    )
    options = dict(
        max_pages=pages,
        max_depth=10_000,
        sitemap=False,
        respect_robots=False,
        concurrency=16,
        max_per_pattern=pages,
        config=config,
    )
    start = time.perf_counter()
    if extract == "links":
        done = sum(1 for r in crawl(base + "/p/0", extract="links", **options) if r.ok)
    else:
        summary = run_crawl(base + "/p/0", out, format="markdown", **options)
        done = summary["pages"] - summary["failed"]
    q.put((done, time.perf_counter() - start))


_SCRAPY_SPIDER = """
import sys, time, json, os
from pathlib import Path
import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor

base, pages, markdown, out = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
if markdown:
    from markdownify import markdownify
extractor = LinkExtractor()  # every link of the generated site is on it
count = [0]

class Site(scrapy.Spider):
    name = "site"
    start_urls = [base + "/p/0"]

    def parse(self, response):
        count[0] += 1
        if markdown:
            name = response.url.rsplit("/", 1)[1]
            Path(out, name + ".md").write_text(markdownify(response.text))
        for link in extractor.extract_links(response):
            yield response.follow(link.url, callback=self.parse)

process = CrawlerProcess(settings={
    "LOG_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "DOWNLOAD_DELAY": 0,
    "CLOSESPIDER_PAGECOUNT": pages,
    "DEPTH_LIMIT": 0,
    "TELNETCONSOLE_ENABLED": False,
    "COOKIES_ENABLED": False,
    "RETRY_ENABLED": False,
})
start = time.perf_counter()
process.crawl(Site)
process.start()
print(json.dumps([count[0], time.perf_counter() - start]))
"""


def run_scrapy(base: str, pages: int, markdown: bool, out: str, core: int | None):
    try:
        import scrapy  # noqa: F401
    except ImportError:
        return None, "scrapy is not installed (pip install scrapy)"
    if markdown:
        try:
            import markdownify  # noqa: F401
        except ImportError:
            return None, "markdownify is not installed"
    # A file, not ``-c``: Scrapy reads its callbacks' source (inspect.getsource), which a
    # ``-c`` program has none of ("could not get source code" on every page after the first).
    spider = Path(out) / "webgrip_bench_spider.py"
    spider.write_text(_SCRAPY_SPIDER)
    cmd = [sys.executable, str(spider), base, str(pages), "1" if markdown else "0", out]
    if core is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(core), *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1:]
    count, seconds = json.loads(done.stdout.strip().splitlines()[-1])
    return (count, seconds), None


def _status_kib(field: str) -> int:
    """A ``/proc/self/status`` figure in KiB (``VmHWM``: the peak RSS of this process; not
    ``ru_maxrss``, which a forked child inherits from its parent)."""
    with open("/proc/self/status") as f:
        return int(f.read().split(field + ":")[1].split()[0])


def peak_rss_child(base: str, fanout: int, q: mp.Queue) -> None:
    from webgrip import Config
    from webgrip.sites.crawl import Crawler

    config = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=60)
    before = _status_kib("VmRSS")
    with Crawler(
        base + "/q/0",
        max_pages=60,
        max_depth=10,
        sitemap=False,
        respect_robots=False,
        max_per_pattern=10**9,
        config=config,
    ) as crawler:
        for _ in crawler:
            pass
        queued = crawler.frontier.counts()["queued"]
    q.put((queued, before, _status_kib("VmHWM")))


def _in_child(target, *args):
    q: mp.Queue = mp.Queue()
    p = mp.Process(target=target, args=(*args, q))
    p.start()
    result = q.get()
    p.join()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=10_000)
    ap.add_argument("--only", choices=("links", "markdown", "memory"), action="append")
    ap.add_argument("--fanout", type=int, default=2000, help="links per hub page (memory part)")
    args = ap.parse_args()
    parts = args.only or ["links", "markdown", "memory"]
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    client_core = cores[0] if len(cores) > 1 else None
    site = make_site(args.pages)
    nginx = None
    server = None
    if shutil.which("nginx"):
        from e2e import Nginx

        nginx = Nginx(site, core=cores[-1] if cores else 0)
        base = f"http://127.0.0.1:{nginx.port}"
    if nginx is None or "memory" in parts:
        port_q: mp.Queue = mp.Queue()
        server = mp.Process(target=_serve_python, args=(site, args.fanout, port_q), daemon=True)
        server.start()
        py_base = f"http://127.0.0.1:{port_q.get()}"
        if nginx is None:
            base = py_base
    print(
        f"site: {args.pages} pages, served by {'nginx' if nginx else 'a Python server'}; "
        f"crawlers on core {client_core}"
    )
    rows = []
    try:
        out = tempfile.mkdtemp(prefix="webgrip-crawl-bench-")
        anchor = None
        if "links" in parts or "markdown" in parts:
            result, why = run_scrapy(base, args.pages, False, out, client_core)
            if result is None:
                print(f"Scrapy skipped: {why}")
            else:
                anchor = result[0] / result[1]
                rows.append(("Scrapy, links", *result))
        if "links" in parts:
            rows.append(
                (
                    "webgrip, links",
                    *_in_child(run_webgrip, base, args.pages, "links", out, client_core),
                )
            )
        if "markdown" in parts:
            md_out = tempfile.mkdtemp(prefix="webgrip-crawl-md-", dir=out)
            result, why = run_scrapy(base, args.pages, True, md_out, client_core)
            if result is not None:
                rows.append(("Scrapy + markdownify, files", *result))
            wg_out = tempfile.mkdtemp(prefix="webgrip-crawl-wg-", dir=out)
            rows.append(
                (
                    "webgrip, Markdown files",
                    *_in_child(run_webgrip, base, args.pages, "markdown", wg_out, client_core),
                )
            )
        if rows:
            print("\n| crawler | pages | seconds | pages/s | vs Scrapy links |")
            print("|---|---:|---:|---:|---:|")
            for name, count, seconds in rows:
                rate = count / seconds
                ratio = f"{rate / anchor:.2f}×" if anchor else "n/a"
                print(f"| {name} | {count} | {seconds:.2f} | {rate:.0f} | {ratio} |")
        if "memory" in parts:
            queued, before, peak = _in_child(peak_rss_child, py_base, args.fanout)
            print(
                f"\nmemory: {queued} URLs queued when the crawl stopped; peak RSS "
                f"{peak / 1024:.0f} MiB (at start {before / 1024:.0f} MiB)"
            )
    finally:
        shutil.rmtree(out, ignore_errors=True)
        if nginx is not None:
            nginx.stop()
        if server is not None:
            server.terminate()


if __name__ == "__main__":
    main()
