"""Helpers of the render tests: the skip when no browser exists, counting listeners, pages.

A counting listener is a bare TCP socket that counts every connection it accepts (and answers
any request with a tiny page, so a leak would even "work"). The render escape tests put them
on addresses and ports the policy refuses and require zero connections.
"""

from __future__ import annotations

import os
import socket
import threading

import pytest
from webgrip import Config, render
from webgrip.render import render_available

from helpers.loopback import loopback_config

_WHY = render_available(Config())
#: Skips a test where no browser can run (no playwright, no Chromium): the reason says which.
needs_browser = pytest.mark.skipif(_WHY is not None, reason=f"rendering unavailable: {_WHY}")

#: The deadline of a call that must render to pass its test. The browser's launch (by the
#: first render of a process, or after a test killed the pool) is inside it: 4.6 s at a load
#: average of 13 on 2 cores, and there a render ran out of loopback_config's 10 s and ``auto``
#: fell back to the static page. A test of a deadline sets its own.
RENDER_TIMEOUT = 60.0


def render_config(tmp_path=None, **overrides) -> Config:
    """:func:`loopback_config` with the roomy :data:`RENDER_TIMEOUT` (unless ``timeout`` is
    given): for tests of what a render reads or refuses, not of how long it takes."""
    return loopback_config(tmp_path, **{"timeout": RENDER_TIMEOUT, **overrides})


def browser_processes() -> list[int]:
    """This test process's Chromium browsers (a browser process names its profile folder)."""
    out = []
    for pid in render._descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"--user-data-dir=" in f.read():
                    out.append(pid)
        except OSError:
            pass
    return out


class CountingListener:
    """Accepts on ``host`` (port 0: ephemeral) and counts connections."""

    def __init__(self, host: str, port: int = 0):
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self._sock.listen(64)
        self.host, self.port = self._sock.getsockname()[:2]
        self.connections = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            try:
                conn.settimeout(1)
                conn.recv(4096)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                    b"Content-Length: 6\r\nConnection: close\r\n\r\nLEAKED"
                )
            except OSError:
                pass
            finally:
                conn.close()

    def origin(self, scheme: str = "http") -> str:
        return f"{scheme}://{self.host}:{self.port}"

    def close(self) -> None:
        self._sock.close()


#: A page whose content a script inserts after a same-origin fetch() of JSON.
SCRIPT_SHELL = """<!doctype html><html><head><title>Shell</title></head>
<body><div id="app"></div><script src="/app.js"></script></body></html>"""
APP_JS = """fetch("/data.json").then(r => r.json()).then(d => {
  const app = document.getElementById("app");
  app.innerHTML = "<h1>" + d.title + "</h1>" + d.paragraphs.map(p => "<p>" + p + "</p>").join("");
});"""
DATA = {
    "title": "Rendered heading",
    "paragraphs": [
        "The first paragraph came from a JSON document fetched by the page's own script.",
        "The second paragraph is there so that the extractor has an article to keep.",
    ],
}
