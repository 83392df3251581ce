"""Site-map benchmark: how much of a generated site's sitemaps and llms.txt a map finds, and
the peak memory of mapping it with entity and gzip bombs among its sitemaps.

    python benches/map_site.py                 # 20,000 URLs, with and without the bombs
    python benches/map_site.py --urls 5000

The site (a Python server in a child process, on loopback): robots.txt names a sitemap index
and a text sitemap; the index names plain sitemaps, a nested index (gzip-compressed sitemaps,
and one more level of index with plain sitemaps below it); ``/llms.txt`` links the rest. The
URLs are split about 40% plain sitemaps, 20% gzip sitemaps two levels down, 20% plain sitemaps
three levels down, 10% the text sitemap, 10% llms.txt, 1,000 a file at most. With
``--bombs`` (the default runs both) robots.txt also names an XML entity bomb ("billion
laughs"), a sitemap with external entities (a file and a URL), a 10 GiB gzip bomb served as a
``.xml.gz`` file and one served with ``Content-Encoding: gzip`` (about 10 MiB each on the
wire).

Each map runs in a fresh process (``webgrip.map_site``, no rate limit, a limit above the
site's size); a row gives the URLs found of those expected, the files skipped, the seconds and
the process's peak RSS (``VmHWM``). The targets: >= 99% found, < 300 MiB with the bombs
(docs/benchmarks.md, "Site maps").
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import multiprocessing as mp
import subprocess
import sys
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
PER_FILE = 1000


def _urlset(urls: list[str]) -> bytes:
    items = "".join(f"<url><loc>{html.escape(u)}</loc></url>" for u in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>{items}</urlset>'.encode()


def _index(urls: list[str]) -> bytes:
    items = "".join(f"<sitemap><loc>{html.escape(u)}</loc></sitemap>" for u in urls)
    return f'<?xml version="1.0"?>\n<sitemapindex {NS}>{items}</sitemapindex>'.encode()


def _zeros(mib: int) -> Iterator[bytes]:
    """A gzip stream of ``mib`` MiB of zeros, ~1 KiB per MiB."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    yield packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    for _ in range(mib - 1):
        yield block
    yield packer.flush()


BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE urlset [\n<!ENTITY lol "lol">\n'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + f"]>\n<urlset {NS}><url><loc>http://example.com/&lol9;</loc></url></urlset>"
).encode()


def build(origin: str, total: int, bombs: bool) -> tuple[dict[str, tuple[str, bytes]], list[str]]:
    """The site's files ``{path: (content type, body)}`` and the page URLs they hold."""
    pages = [f"{origin}/page/{i}" for i in range(total)]
    cut = [int(total * f) for f in (0.4, 0.6, 0.8, 0.9)]
    plain, gz, deep, text, llms = (
        pages[: cut[0]],
        pages[cut[0] : cut[1]],
        pages[cut[1] : cut[2]],
        pages[cut[2] : cut[3]],
        pages[cut[3] :],
    )
    files: dict[str, tuple[str, bytes]] = {}

    def chunked(prefix: str, urls: list[str], packed: bool) -> list[str]:
        names = []
        for n, at in enumerate(range(0, len(urls), PER_FILE)):
            path = f"{prefix}{n}.xml" + (".gz" if packed else "")
            body = _urlset(urls[at : at + PER_FILE])
            files[path] = (
                ("application/gzip", gzip.compress(body, mtime=0))
                if packed
                else ("application/xml", body)
            )
            names.append(origin + path)
        return names

    level3 = chunked("/deep/s", deep, False)
    files["/deep/index.xml"] = ("application/xml", _index(level3))
    level2 = [*chunked("/nested/s", gz, True), origin + "/deep/index.xml"]
    files["/nested/index.xml"] = ("application/xml", _index(level2))
    level1 = [*chunked("/plain/s", plain, False), origin + "/nested/index.xml"]
    files["/sitemap_index.xml"] = ("application/xml", _index(level1))
    files["/pages.txt"] = ("text/plain", "\n".join(text).encode())
    files["/llms.txt"] = (
        "text/plain",
        (
            "# Bench site\n> Generated.\n## Pages\n"
            + "".join(f"- [P](/{u.split('/', 3)[3]})\n" for u in llms)
        ).encode(),
    )
    robots = (
        f"User-agent: *\nAllow: /\nSitemap: {origin}/sitemap_index.xml\n"
        f"Sitemap: {origin}/pages.txt\n"
    )
    if bombs:
        files["/bomb-entities.xml"] = ("application/xml", BILLION_LAUGHS)
        files["/bomb-external.xml"] = (
            "application/xml",
            (
                '<?xml version="1.0"?>\n<!DOCTYPE urlset [\n'
                '<!ENTITY a SYSTEM "file:///etc/passwd">\n'
                f'<!ENTITY b SYSTEM "{origin}/xxe">\n]>\n'
                f"<urlset {NS}><url><loc>&a;&b;</loc></url></urlset>"
            ).encode(),
        )
        for path in (
            "/bomb-entities.xml",
            "/bomb-external.xml",
            "/bomb-zeros.xml.gz",
            "/bomb-encoded.xml",
        ):
            robots += f"Sitemap: {origin}{path}\n"
    files["/robots.txt"] = ("text/plain", robots.encode())
    files["/"] = ("text/html", b"<!doctype html><title>Bench home</title><p>Home.</p>")
    return files, pages


def _serve(port_out: mp.Queue, total: int, bombs: bool) -> None:
    files: dict[str, tuple[str, bytes]] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path in ("/bomb-zeros.xml.gz", "/bomb-encoded.xml"):
                self.send_response(200)
                self.send_header(
                    "Content-Type",
                    "application/gzip" if path.endswith(".gz") else "application/xml",
                )
                if path == "/bomb-encoded.xml":
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for chunk in _zeros(10 * 1024):
                        self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True
                return
            media, body = files.get(path, ("text/plain", b""))
            status = 200 if path in files else 404
            self.send_response(status)
            self.send_header("Content-Type", media)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    files.update(build(origin, total, bombs)[0])
    port_out.put(origin)
    server.serve_forever()


MAPPER = """
import json, sys, time
import webgrip
from webgrip.sites import canonical
config = webgrip.Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=60)
start = time.monotonic()
found = webgrip.map_site(sys.argv[1] + "/", limit=int(sys.argv[2]), config=config, timeout=300)
seconds = time.monotonic() - start
print(json.dumps({
    "urls": [m.url for m in found],
    "skipped": found.skipped,
    "seconds": seconds,
    # VmHWM: ru_maxrss would carry the parent's size across exec.
    "peak_mib": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024,
}))
"""


def run(total: int, bombs: bool) -> dict[str, object]:
    ctx = mp.get_context("spawn")
    port_out: mp.Queue = ctx.Queue()
    server = ctx.Process(target=_serve, args=(port_out, total, bombs), daemon=True)
    server.start()
    try:
        origin = port_out.get(timeout=60)
        expected = set(build(origin, total, bombs)[1])
        env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            [sys.executable, "-c", MAPPER, origin, str(total * 2)],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            check=True,
        )
    finally:
        server.terminate()
        server.join()
    report = json.loads(done.stdout)
    found = expected & set(report["urls"])
    return {
        "bombs": bombs,
        "expected": len(expected),
        "found": len(found),
        "found_pct": round(100 * len(found) / len(expected), 2),
        "skipped": len(report["skipped"]),
        "skipped_reasons": sorted({r.split(":")[0][:60] for _, r in report["skipped"]}),
        "seconds": round(report["seconds"], 2),
        "peak_rss_mib": round(report["peak_mib"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", type=int, default=20_000, help="page URLs in the site")
    parser.add_argument("--only", choices=("bombs", "plain"), help="run one of the two maps")
    args = parser.parse_args()
    for bombs in (False, True):
        if args.only and (args.only == "bombs") != bombs:
            continue
        print(json.dumps(run(args.urls, bombs)), flush=True)


if __name__ == "__main__":
    main()
