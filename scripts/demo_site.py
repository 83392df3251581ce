#!/usr/bin/env python3
"""The small site the README's and the docs' outputs come from, on loopback.

    python scripts/demo_site.py              # serves http://127.0.0.1:8765 until Ctrl-C
    python scripts/demo_site.py --port 0     # any free port (printed)

The examples open loopback on purpose (``allow_networks=("127.0.0.0/8",)``), as the test
suite does; ``tests/docs/test_examples.py`` runs every example of README.md and docs/ against
this site and compares what they print with what the page says they print.

Pages:
  /article         an article with a <nav>, a cookie banner, a <footer> and a utm_source link
  /long            forty paragraphs, for paging
  /docs            a short page the article links to
  /missing         404
  /to-metadata     a redirect to the cloud metadata address (refused by the policy)
  /files/q3        a CSV whose Content-Disposition names ../../etc/passwd and "Q3 report.csv"
  /logo.png        a PNG image (not a text document)
  /slow            an article sent after five seconds (for cancelling)
  /html/, /lite/   DuckDuckGo stand-ins: an ad and two results for "webgrip agent tools", the
                   engine's no-results page for anything else
  /robots.txt      disallows /drafts/, names the sitemap index
  /sitemap_index.xml  a sitemap index: /sitemaps/pages.xml (a sitemap) and /sitemaps/more.xml
                   (an index naming /sitemaps/blog.xml.gz, a gzip-compressed sitemap)
  /llms.txt        the site's llms.txt: titles and notes for its pages
  /blog/first, /blog/second   two short posts the blog sitemap lists
"""

from __future__ import annotations

import argparse
import contextlib
import html
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

#: The port the docs show.
DOCS_PORT = 8765

ARTICLE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Getting started with webgrip</title>
<meta name="description" content="Install webgrip and give an agent the web.">
<meta name="author" content="A. Writer"></head>
<body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a> <a href="/long">Blog</a></nav>
<div class="cookie-banner" id="cookie-consent">We use cookies. <button>Accept all</button></div>
<main><article>
<h1>Getting started</h1>
<p>webgrip gives an agent three tools: <em>fetch_page</em>, <em>search_web</em> and
<em>download_file</em>. Read the <a href="/docs?id=7&amp;utm_source=newsletter">documentation</a>
for the details.</p>
<h2>Install</h2>
<pre><code class="language-sh">pip install webgrip</code></pre>
<h2>Tools</h2>
<table><tr><th>Tool</th><th>Returns</th></tr>
<tr><td>fetch_page</td><td>Markdown of the main content</td></tr>
<tr><td>search_web</td><td>numbered results</td></tr></table>
</article></main>
<footer>&copy; 2026 webgrip. <a href="/privacy">Privacy</a></footer>
</body></html>
"""

PARAGRAPH = (
    "Paragraph {n}: webgrip cuts long pages at a word boundary and says where to "
    "continue, so an agent can read on without downloading the page again."
)
LONG = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A long page'
    "</title></head><body><main><article><h1>A long page</h1>"
    + "".join(f"<p>{PARAGRAPH.format(n=n)}</p>" for n in range(1, 41))
    + "</article></main></body></html>"
)

DOCS = (
    '<!doctype html><html lang="en"><head><title>Documentation</title></head><body>'
    "<main><h1>Documentation</h1><p>The three tools, their arguments and their answers."
    "</p></main></body></html>"
)

POST = (
    '<!doctype html><html lang="en"><head><title>{title}</title>'
    '<meta name="description" content="{about}"></head><body><main><article>'
    "<h1>{title}</h1><p>{about} A short post of the demo blog.</p></article></main>"
    "</body></html>"
)
POSTS = {
    "/blog/first": ("First post", "Why agents need a guard on the web."),
    "/blog/second": ("Second post", "Reading a whole site with one map."),
}

ROBOTS = "User-agent: *\nDisallow: /drafts/\n\nSitemap: {origin}/sitemap_index.xml\n"
SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
#: (path, what it holds): the index, a sitemap beside a nested index, and the gzip sitemap.
SITEMAPS = {
    "/sitemap_index.xml": ("sitemapindex", ["/sitemaps/pages.xml", "/sitemaps/more.xml"]),
    "/sitemaps/pages.xml": ("urlset", ["/article", "/docs?utm_source=sitemap", "/drafts/plan"]),
    "/sitemaps/more.xml": ("sitemapindex", ["/sitemaps/blog.xml.gz"]),
    "/sitemaps/blog.xml.gz": ("urlset", ["/blog/first", "/blog/second"]),
}
LLMS_TXT = """# webgrip demo

> The demo site of webgrip's documentation.

## Docs

- [Getting started](/article): install webgrip and give an agent the web
- [Documentation](/docs): the three tools and their answers

## Optional

- [A long page](/long): forty paragraphs, for paging
"""


def _sitemap(origin: str, path: str) -> bytes:
    """The XML of one of :data:`SITEMAPS` (gzip-compressed for a ``.gz`` path)."""
    import gzip

    kind, paths = SITEMAPS[path]
    item = "sitemap" if kind == "sitemapindex" else "url"
    entries = "".join(f"<{item}><loc>{html.escape(origin + p)}</loc></{item}>" for p in paths)
    xml = f'<?xml version="1.0" encoding="UTF-8"?><{kind} {SITEMAP_NS}>{entries}</{kind}>'
    data = xml.encode()
    return gzip.compress(data, mtime=0) if path.endswith(".gz") else data


Q3_CSV = b"quarter,units\nQ3,1234\n"
#: The smallest PNG there is: one transparent pixel.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
)

#: The results the stand-in search engine knows: (title, path, query string, snippet).
RESULTS = [
    (
        "Getting started with webgrip",
        "/article",
        "utm_source=ddg&utm_medium=search",
        "webgrip gives an agent three tools: fetch_page, search_web and download_file.",
    ),
    ("A long page", "/long", "", "Paragraph 1: webgrip cuts long pages at a word boundary."),
]
KNOWN_QUERY = "webgrip agent tools"


def _results_page(origin: str, query: str) -> str:
    """DuckDuckGo's HTML endpoint's markup: an ad, then results behind its redirect links."""
    if query.strip().lower() != KNOWN_QUERY:
        return (
            '<html><body><div id="links" class="results"><div class="no-results">'
            "No results.</div></div></body></html>"
        )
    ad = (
        '<div class="result results_links result--ad"><div class="links_main">'
        '<h2 class="result__title"><a class="result__a" '
        'href="https://duckduckgo.com/y.js?ad_domain=ads.example">Buy agent tools</a></h2>'
        '<a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">'
        "Sponsored.</a></div></div>"
    )
    items = []
    for title, path, tracking, snippet in RESULTS:
        target = origin + path + (f"?{tracking}" if tracking else "")
        href = "//duckduckgo.com/l/?uddg=" + quote(target, safe="") + "&amp;rut=abc"
        items.append(
            '<div class="result results_links web-result"><div class="links_main">'
            f'<h2 class="result__title"><a class="result__a" href="{href}">'
            f"{html.escape(title)}</a></h2>"
            f'<a class="result__snippet" href="{href}">{html.escape(snippet)}</a>'
            "</div></div>"
        )
    return (
        '<html><body><div id="links" class="results">'
        + ad
        + "".join(items)
        + "</div></body></html>"
    )


class DemoSite:
    """``with DemoSite(port=0) as site: site.origin`` — the demo pages on 127.0.0.1."""

    def __init__(self, port: int = DOCS_PORT, host: str = "127.0.0.1") -> None:
        self._server = ThreadingHTTPServer((host, port), _handler_for(self))
        self._server.daemon_threads = True
        self.host, self.port = self._server.server_address[:2]
        self.origin = f"http://{self.host}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> DemoSite:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def serve_forever(self) -> None:
        self._server.serve_forever()


def _handler_for(site: DemoSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # quiet: the examples print, not us
            pass

        def do_HEAD(self) -> None:
            self.do_GET()

        def do_POST(self) -> None:  # DuckDuckGo's endpoints take the query by POST too
            length = int(self.headers.get("content-length") or 0)
            form = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            self._answer(urlsplit(self.path).path, parse_qs(form))

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            self._answer(parts.path, parse_qs(parts.query))

        def _answer(self, path: str, query: dict[str, list[str]]) -> None:
            if path == "/article":
                self._send(200, ARTICLE.encode(), "text/html; charset=utf-8")
            elif path == "/long":
                self._send(200, LONG.encode(), "text/html; charset=utf-8")
            elif path == "/docs":
                self._send(200, DOCS.encode(), "text/html; charset=utf-8")
            elif path == "/to-metadata":
                self._send(
                    302, b"", "text/plain", {"Location": "http://169.254.169.254/latest/meta-data/"}
                )
            elif path == "/files/q3":
                self._send(
                    200,
                    Q3_CSV,
                    "text/csv",
                    {
                        "Content-Disposition": 'attachment; filename="../../etc/passwd"; '
                        "filename*=UTF-8''Q3%20report.csv"
                    },
                )
            elif path == "/logo.png":
                self._send(200, PNG, "image/png")
            elif path == "/slow":
                time.sleep(5)
                self._send(200, ARTICLE.encode(), "text/html; charset=utf-8")
            elif path == "/robots.txt":
                self._send(200, ROBOTS.format(origin=site.origin).encode(), "text/plain")
            elif path in SITEMAPS:
                media = "application/gzip" if path.endswith(".gz") else "application/xml"
                self._send(200, _sitemap(site.origin, path), media)
            elif path == "/llms.txt":
                self._send(200, LLMS_TXT.encode(), "text/markdown; charset=utf-8")
            elif path in POSTS:
                title, about = POSTS[path]
                page = POST.format(title=title, about=about).encode()
                self._send(200, page, "text/html; charset=utf-8")
            elif path in ("/html/", "/lite/"):
                q = (query.get("q") or [""])[0]
                page = _results_page(site.origin, q).encode()
                self._send(200, page, "text/html; charset=utf-8")
            else:
                self._send(
                    404,
                    b"<!doctype html><title>Not found</title><p>Not found.</p>",
                    "text/html; charset=utf-8",
                )

        def _send(
            self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=DOCS_PORT, help="port (0: any free one)")
    args = parser.parse_args()
    site = DemoSite(port=args.port)
    print(f"serving the demo site on {site.origin} (Ctrl-C stops it)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        site.serve_forever()


if __name__ == "__main__":
    main()
