"""A small threaded loopback web site for the integration tests (CLI, MCP, async, batch, cache).

Routes map a path to a handler ``(request) -> Reply``; every request is recorded (method,
path, headers) so tests can count hits and look at conditional headers. Unlike a
single-threaded server, many requests are served at once, which the concurrency tests need.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass
class Request:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Reply:
    status: int = 200
    body: bytes | Iterable[bytes] = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "text/html; charset=utf-8"
    length: int | None = None
    """Content-Length to announce for a streamed (iterable) body."""


Handler = Callable[[Request], Reply]


def page(html: str, **headers: str) -> Handler:
    """A handler answering 200 with ``html`` and extra headers (``cache_control=...``)."""
    hdrs = {k.replace("_", "-"): v for k, v in headers.items()}
    return lambda req: Reply(body=html.encode(), headers=hdrs)


def article(title: str, paragraphs: int = 3) -> str:
    """A plain article page whose main content mentions ``title``."""
    body = "".join(
        f"<p>{title} paragraph {i}: readable sentences about {title.lower()} that a reader "
        f"would want, long enough to count as the main content of the page.</p>"
        for i in range(paragraphs)
    )
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body>"
        f"<nav><a href='/'>Home</a></nav><main><article><h1>{title}</h1>{body}"
        f"</article></main><footer>footer text</footer></body></html>"
    )


def all_at_once(parties: int) -> Handler:
    """A handler that answers only while ``parties`` requests are in flight at once: each
    waits for the others (up to 10 s), then gets a "Together" article, or a 500 ("not
    concurrent") if the others never came."""
    barrier = threading.Barrier(parties, timeout=10)

    def together(req: Request) -> Reply:
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            return Reply(500, b"not concurrent")
        return Reply(200, article("Together").encode())

    return together


def ddg_results(results: list[tuple[str, str, str]]) -> str:
    """A DuckDuckGo HTML-endpoint results page for ``(title, url, snippet)`` triples."""
    items = "".join(
        f'<div class="result results_links web-result"><div class="links_main">'
        f'<h2 class="result__title"><a class="result__a" href="{url}">{title}</a></h2>'
        f'<a class="result__snippet" href="{url}">{snippet}</a></div></div>'
        for title, url, snippet in results
    )
    return f'<html><body><div id="links" class="results">{items}</div></body></html>'


class SiteServer:
    """``with SiteServer() as site: site.route("/a", page("<p>hi</p>")); site.url("/a")``."""

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def _serve(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                req = Request(
                    self.command,
                    parts.path,
                    parts.query,
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                )
                with site._lock:
                    site.requests.append(req)
                handler = site.routes.get(parts.path)
                reply = handler(req) if handler else Reply(404, b"not found", {}, "text/plain")
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                if isinstance(reply.body, bytes):
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    if self.command != "HEAD" and reply.status not in (204, 304):
                        self.wfile.write(reply.body)
                    return
                if reply.length is not None:
                    self.send_header("Content-Length", str(reply.length))
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for chunk in reply.body:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client went away (a cancelled download): fine
                self.close_connection = True

            do_GET = do_POST = do_HEAD = _serve

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def route(self, path: str, handler: Handler) -> str:
        self.routes[path] = handler
        return self.url(path)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def hits(self, path: str) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> SiteServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def slow_stream(
    chunk: bytes,
    count: int,
    delay: float,
    started: threading.Event | None = None,
    stop: threading.Event | None = None,
) -> Iterator[bytes]:
    """Yield ``chunk`` ``count`` times, ``delay`` apart; set ``started`` after the first."""
    for i in range(count):
        if stop is not None and stop.is_set():
            return
        yield chunk
        if i == 0 and started is not None:
            started.set()
        time.sleep(delay)


def loopback_env(**extra: str) -> dict[str, str]:
    """Environment for a webgrip subprocess that may reach loopback servers, no rate limit."""
    import os

    env = dict(os.environ)
    env.update(
        {
            "WEBGRIP_ALLOW_NETWORKS": "127.0.0.0/8,::1/128",
            "WEBGRIP_RATE_LIMIT_SECONDS": "0",
            "WEBGRIP_TIMEOUT": "20",
        }
    )
    for k in [k for k in env if k in ("WEBGRIP_CONFIG", "WEBGRIP_PROFILE")]:
        del env[k]
    env.update(extra)
    return env


def run_webgrip(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m webgrip ARGS`` with loopback opened (:func:`loopback_env` plus ``env``), no
    stdin, its output captured: the command as a person runs it."""
    return subprocess.run(
        [sys.executable, "-m", "webgrip", *args],
        capture_output=True,
        text=True,
        env=loopback_env(**env),
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
