"""A handful of timings over small pages: extraction, and fetch from a loopback server.

Run with ``python -m pytest -m benchmark tests/bench`` (see docs/benchmarks.md); a default
run deselects them. Each one checks its result too, so a broken path fails rather than
timing an error. ``benches/*.py`` hold the side-by-side studies against other libraries.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import webgrip
from helpers.loopback import loopback_config
from webgrip import Tools, WebClient

pytestmark = pytest.mark.benchmark

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "extract"


def _article_page(sections: int = 40) -> str:
    """A generated article with navigation around it, ~40 KB: headings, paragraphs, links,
    a list and a table per section."""
    body = []
    for i in range(sections):
        body.append(
            f"<h2>Section {i}</h2><p>Paragraph {i} explains <a href='/s/{i}?utm_source=x'>a "
            f"point</a> with <em>emphasis</em> and <strong>weight</strong>, long enough to "
            f"read as prose rather than as a label of the page's furniture.</p>"
            f"<ul><li>first {i}</li><li>second {i}</li></ul>"
            f"<table><tr><th>k</th><th>v</th></tr><tr><td>{i}</td><td>{i * i}</td></tr></table>"
        )
    nav = "".join(f"<li><a href='/nav/{i}'>Menu {i}</a></li>" for i in range(30))
    return (
        f"<html><head><title>Bench article</title></head><body><nav><ul>{nav}</ul></nav>"
        f"<main><article><h1>Bench article</h1>{''.join(body)}</article></main>"
        f"<footer>Footer links</footer></body></html>"
    )


ARTICLE = _article_page()


def test_extract_markdown_whole_page(bench) -> None:
    out = bench(lambda: webgrip.extract(ARTICLE, url="https://example.com/a", mode="markdown"))
    assert "## Section 39" in out and "Menu 3" in out


def test_extract_markdown_readable(bench) -> None:
    out = bench(
        lambda: webgrip.extract(
            ARTICLE, url="https://example.com/a", mode="markdown", main_content=True
        )
    )
    assert "## Section 39" in out and "Menu 3" not in out


def test_extract_text(bench) -> None:
    out = bench(lambda: webgrip.extract(ARTICLE, mode="text"))
    assert "Paragraph 7 explains" in out


def test_extract_links_and_tables(bench) -> None:
    html = gzip.decompress((FIXTURES / "shop-short-selection.html.gz").read_bytes()).decode()
    links = bench(
        lambda: webgrip.extract(html, url="https://shop.example/", mode="links"),
        label="(links, shop page)",
    )
    assert links
    tables = bench(lambda: webgrip.extract(ARTICLE, mode="tables"), label="(tables, article)")
    assert len(tables) == 40


PAGES = {
    "/small": b"<html><body><p>" + b"x" * 2000 + b"</p></body></html>",
    "/article": ARTICLE.encode(),
}


class _Handler(BaseHTTPRequestHandler):
    # Keep-alive, and headers and body not held back by Nagle's algorithm (two writes would
    # otherwise wait for a delayed ACK: 40 ms per request, timing the kernel, not webgrip).
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        body = PAGES.get(self.path.split("?")[0], b"")
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The base URL of a keep-alive loopback server for :data:`PAGES`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_get_small_page(bench, site) -> None:
    with WebClient(loopback_config()) as client:
        response = bench(lambda: client.get(site + "/small"), rounds=200)
    assert response.status == 200 and len(response.content) > 2000


def test_fetch_article_readable(bench, site) -> None:
    with WebClient(loopback_config(page_cache_size=0)) as client:
        result = bench(lambda: client.fetch(site + "/article"), rounds=100)
    assert result.title == "Bench article" and "## Section 39" in result.content


def test_tools_fetch_page(bench, site) -> None:
    tools = Tools(loopback_config(page_cache_size=0))
    answer = bench(lambda: tools.fetch_page(site + "/article"), rounds=100)
    assert answer.startswith("Title: Bench article")
