"""Build the seed corpora of every fuzz target under fuzz/seeds/<target>/.

From the test fixtures (always there) and, when present, a sample of ../shared/corpus
(web pages and PDFs). Seeds are rebuilt from scratch on every run and never committed; the
corpus a run grows is kept apart, in fuzz/corpus/<target>/.
"""

from __future__ import annotations

import gzip
import hashlib
import ipaddress
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURES = ROOT / "tests" / "fixtures"
SHARED = ROOT.parent / "shared" / "corpus"
OUT = HERE / "seeds"
#: Pages and PDFs above this are left out (libFuzzer's -max_len in run.sh is 256 KiB).
MAX_SEED = 256 * 1024
#: Every n-th page of the shared web corpus (1,585 pages): enough structure to start from.
PAGE_STRIDE = 12


def put(target: str, data: bytes) -> None:
    if len(data) > MAX_SEED:
        return
    folder = OUT / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def pages() -> list[bytes]:
    found = []
    for path in sorted((FIXTURES / "extract").glob("*.html*")):
        found.append(path.read_bytes())
    for sub in ("wcxb-dev", "article-bench-dev"):
        for path in sorted((SHARED / sub / "html").glob("*.html.gz"))[::PAGE_STRIDE]:
            found.append(path.read_bytes())
    return [gzip.decompress(p) if p[:2] == b"\x1f\x8b" else p for p in found]


def small_html() -> list[bytes]:
    """Hand-written fragments that reach the rarer lexer and tree-builder states."""
    return [s.encode() for s in (
        "<!DOCTYPE html><title>t</title><p>a<b>b<i>c</b>d</i>",
        "<table><tr><td>1<td>2<tr><th colspan=2>h</table>",
        "<svg><foreignObject><p>x</p></foreignObject><math><mi>y</math></svg>",
        "<script>if (a<b) {}</script><style>p{}</style><noscript><p>n</noscript>",
        "<textarea><b>x</textarea><plaintext><a>",
        "<!-- c --><!---><![CDATA[x]]><?pi?><template><td>t</template>",
        "<frameset><frame></frameset><base href='/x/'><a href=y>l</a>",
        "<meta charset=shift_jis><meta property=og:title content=T>",
        '<script type="application/ld+json">{"@type":"Article","headline":"h"}</script>',
        "<h1>H</h1><ul><li>a<li>b</ul><pre>  x\n y</pre><blockquote>q</blockquote>",
    )]


def attribute_storms() -> list[bytes]:
    """Issue 45's attribute storms, at sizes a seed may have: repeated ``<body>``/``<html>``
    tags each adding one attribute (F1: the merged sets grew quadratically; 166 KiB took
    2.1 GiB, past run.sh's -rss_limit_mb), also with a ``<frameset>`` mention (no attribute
    stripped), and one tag with tens of thousands of attributes (F5)."""
    merges = "".join(f"<body/a{i}><html/b{i}>" for i in range(10_000))
    storm = " ".join(f"a{i}" for i in range(30_000))
    return [s.encode() for s in (
        merges + "<p>x",
        "<!-- <frameset> -->" + merges + "<p>x",
        "<body a><html b><p><body/c id=1><html//d/><body e f g>",
        f"<p>a<div {storm}>b</div>c",
        f"<svg><g {storm[:90_000]}/></svg></div {storm[:90_000]}>",
    )]


def main() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    html = pages() + small_html() + attribute_storms()
    for page in html:
        # html: flag byte 0x3f = every view with main content, no Content-Type.
        put("html", b"\x3f" + page)
        put("lexer_diff", page[:64 * 1024])
        put("tree_diff", page[:64 * 1024])
        put("charset", b"text/html\n" + page[:16 * 1024])
    for label in ("shift_jis", "euc-kr", "utf-16le", "iso-8859-7", "x-user-defined", "gb18030"):
        put("charset", f"text/html; charset={label}\n".encode() + "héllo ü 日本".encode())
        put("charset", f'<meta charset="{label}">'.encode() + "héllo".encode())
    put("charset", b"\n\xef\xbb\xbfbom")
    put("charset", b"\n\xff\xfeu\x00t\x00f\x00")

    urls = [
        "https://example.com/a/b?c=d#e", "http://127.0.0.1/", "http://0x7f.1/", "http://2130706433/",
        "http://[::ffff:127.0.0.1]/", "http://[64:ff9b::a00:1]/", "http://[2002:a00:1::]/",
        "http://localhost./", "http://a.localhost/", "https://user:pw@example.com/",
        "http://example.com:22/", "http://example.com..", "https://xn--nxasmq6b.com/",
        "http://169.254.169.254/latest/meta-data/", "http://[fe80::1%25eth0]/", "http://0/",
        "http://[::]/", "https://exa%41mple.com/", "http://1.1.1.1:80/", "file:///etc/passwd",
    ]
    locations = ["/next", "//127.0.0.1/x", "http://10.0.0.1/", "../../up", "?q=1", "#f",
                 "https://example.org:6379/", "  http://[::1]/  ", "\\\\evil.example\\x", ""]
    for i, u in enumerate(urls):
        put("url_policy", u.encode())
        put("url_policy", f"{u}\n{locations[i % len(locations)]}".encode())
    for ip in (b"\x7f\x00\x00\x01", b"\x0a\x00\x00\x01", b"\xc0\x00\x00\x09", b"\x08\x08\x08\x08"):
        put("ip_table", b"\x00" + ip)
    for ip6 in ("::ffff:7f00:1", "64:ff9b::808:808", "2001:db8::1", "2606:4700::1111", "fe80::1",
                "2002:c000:0204::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "::1", "ff02::1"):

        put("ip_table", b"\x01" + ipaddress.IPv6Address(ip6).packed)

    pdfs = sorted((FIXTURES / "pdf").glob("*.pdf"))
    pdfs += sorted(SHARED.glob("pdf-samples/**/*.pdf"))
    pdfs += sorted(SHARED.glob("pdf-dev/pdf/*.pdf"))[::8]
    for path in pdfs:
        put("pdf", b"\x00" + path.read_bytes())

    robots_txt = (
        b"User-agent: *\nDisallow: /private/\nAllow: /private/ok$\n"
        b"User-agent: webgrip\nDisallow: /*.pdf$\nDisallow: /a*b*c\n# comment\nSitemap: /s.xml\n"
    )
    put("robots", b"\x20\x05https://example.com/private/x.pdf?q=1webgrip" + robots_txt)
    for path in sorted((FIXTURES / "search").rglob("*.html")):
        page = path.read_bytes()
        put("duckduckgo", (b"l" if "lite" in path.name else b"h") + page)
    for path in sorted((FIXTURES / "search").glob("*.json")):
        put("providers", path.read_bytes())
    for cd in ('attachment; filename="report.pdf"',
               "attachment; filename*=UTF-8''%E2%82%AC%20rates.txt",
               'inline; filename="..\\\\..\\\\CON.txt"; filename*=iso-8859-1\'en\'%A3.txt',
               "attachment; filename=\"a\\\"b\"", "attachment; filename=Ã©tÃ©.doc"):
        put("filename", b"\x01\x00\x10\x00" + cd.encode())
    counts = {p.name: len(list(p.iterdir())) for p in sorted(OUT.iterdir())}
    print("seeds:", ", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
