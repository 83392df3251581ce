#!/usr/bin/env python3
"""The small site the README's and the docs' outputs come from, on loopback.

    python scripts/demo_site.py              # serves http://127.0.0.1:8765 until Ctrl-C
    python scripts/demo_site.py --port 0     # any free port (printed)
    python scripts/demo_site.py --port-like-docs  # 8765, or a free port of as many digits

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
  /logo.png        a PNG image (not a text document): one pixel, 67 bytes
  /report.pdf      a two-page PDF report
  /locked.pdf      its first page, encrypted: it opens only with the password "open-sesame"
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
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

#: The port the docs show.
DOCS_PORT = 8765
#: Where a port of the docs' width is looked for when :data:`DOCS_PORT` is taken: four digits,
#: none of them a port the default policy blocks (9200, 9300), so every character count an
#: example prints (a page's length, a cut's offset) is what a person sees on :data:`DOCS_PORT`.
DOCS_WIDTH_PORTS = range(8000, 9000)

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

#: The password of ``/locked.pdf``.
LOCKED_PDF_PASSWORD = "open-sesame"
REPORT_PAGES = [
    [
        "Quarterly report",
        "Units sold in the third quarter: 1,234, up from 1,020 in the second.",
        "Most orders came through the web shop; returns stayed under two percent.",
    ],
    [
        "Outlook",
        "The fourth quarter adds two products and a second warehouse.",
        "Figures are unaudited and rounded to the nearest unit.",
    ],
]
#: The 32 bytes a PDF password is padded with (PDF 1.7, 7.6.3.3).
_PDF_PAD = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")


def _rc4(key: bytes, data: bytes) -> bytes:
    """RC4, the cipher of the PDF standard security handler's revision 2."""
    box = list(range(256))
    j = 0
    for i in range(256):
        j = (j + box[i] + key[i % len(key)]) % 256
        box[i], box[j] = box[j], box[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + box[i]) % 256
        box[i], box[j] = box[j], box[i]
        out.append(byte ^ box[(box[i] + box[j]) % 256])
    return bytes(out)


def _pdf_string(text: str) -> bytes:
    return b"(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode() + b")"


def _pdf(pages: list[list[str]], title: str, user_password: str | None = None) -> bytes:
    """A PDF of text pages (Helvetica, a heading and its lines), encrypted with the standard
    security handler (RC4, 40-bit key, revision 2) when ``user_password`` is given, so it
    opens only with that password."""
    import hashlib

    file_id = hashlib.md5(title.encode()).digest()
    key = None
    if user_password is not None:
        padded = (user_password.encode("latin-1") + _PDF_PAD)[:32]
        # The owner password (which would lift restrictions) is the user's too: no second way in.
        owner_key = hashlib.md5(padded).digest()[:5]
        owner = _rc4(owner_key, padded)
        permissions = (-4).to_bytes(4, "little", signed=True)
        key = hashlib.md5(padded + owner + permissions + file_id).digest()[:5]
        user = _rc4(key, _PDF_PAD)

    def sealed(number: int, data: bytes) -> bytes:
        if key is None:
            return data
        object_key = hashlib.md5(key + number.to_bytes(3, "little") + b"\0\0").digest()[:10]
        return _rc4(object_key, data)

    font = 3 + 2 * len(pages)
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids ["
        + b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(len(pages)))
        + b"] /Count %d >>" % len(pages),
        font: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        font + 1: b"<< /Title " + _pdf_string(title) + b" >>",
    }
    for i, (heading, *lines) in enumerate(pages):
        page, content = 3 + 2 * i, 4 + 2 * i
        objects[page] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 %d "
            b"0 R >> >> /Contents %d 0 R >>" % (font, content)
        )
        text = b"BT /F1 18 Tf 72 770 Td " + _pdf_string(heading) + b" Tj /F1 11 Tf"
        for line in lines:
            text += b" 0 -24 Td " + _pdf_string(line) + b" Tj"
        stream = sealed(content, text + b" ET")
        objects[content] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
    if key is not None:  # the title is a string of the info dictionary: sealed as well
        objects[font + 1] = (
            b"<< /Title <" + sealed(font + 1, title.encode()).hex().encode() + b"> >>"
        )
        objects[font + 2] = (
            b"<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O <"
            + owner.hex().encode()
            + b"> /U <"
            + user.hex().encode()
            + b"> >>"
        )
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offsets[n] for n in sorted(objects))
    trailer = b"<< /Size %d /Root 1 0 R /Info %d 0 R /ID [<%s> <%s>]" % (
        len(objects) + 1,
        font + 1,
        file_id.hex().encode(),
        file_id.hex().encode(),
    )
    if key is not None:
        trailer += b" /Encrypt %d 0 R" % (font + 2)
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


REPORT_PDF = _pdf(REPORT_PAGES, "Quarterly report")
LOCKED_PDF = _pdf(REPORT_PAGES[:1], "Quarterly report", user_password=LOCKED_PDF_PASSWORD)

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


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """Quiet when the client went away (a fetch of ``/slow`` that timed out, as the docs
        show); anything else is a fault of the site, printed as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class DemoSite:
    """``with DemoSite(port=0) as site: site.origin`` — the demo pages on 127.0.0.1."""

    def __init__(self, port: int = DOCS_PORT, host: str = "127.0.0.1") -> None:
        self._server = _Server((host, port), _handler_for(self))
        self.host, self.port = self._server.server_address[:2]
        self.origin = f"http://{self.host}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @classmethod
    def like_the_docs(cls) -> DemoSite:
        """The site on :data:`DOCS_PORT` if it is free, else on a free port of as many digits
        (:data:`DOCS_WIDTH_PORTS`): the docs' outputs, with their origin rewritten to this one,
        then hold to the character."""
        others = [p for p in DOCS_WIDTH_PORTS if p != DOCS_PORT]
        for port in [DOCS_PORT, *random.sample(others, len(others))]:
            try:
                return cls(port=port)
            except OSError:  # in use: the next one
                continue
        raise OSError(f"no free port in {DOCS_WIDTH_PORTS} for the demo site")

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
            elif path == "/report.pdf":
                self._send(200, REPORT_PDF, "application/pdf")
            elif path == "/locked.pdf":
                self._send(200, LOCKED_PDF, "application/pdf")
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
    parser.add_argument(
        "--port-like-docs",
        action="store_true",
        help=f"{DOCS_PORT}, or a free port of as many digits when it is taken",
    )
    args = parser.parse_args()
    site = DemoSite.like_the_docs() if args.port_like_docs else DemoSite(port=args.port)
    print(f"serving the demo site on {site.origin} (Ctrl-C stops it)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        site.serve_forever()


if __name__ == "__main__":
    main()
