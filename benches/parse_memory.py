"""Peak memory of one extraction on the bodies that make the most tree per byte.

The size cap promises that no body it lets in costs more than 200 MiB of peak RSS growth.
The tree is what grows: this script builds the shapes with the most nodes per input byte
(a 10 MiB page of 300,000 links, one-character table cells, deep nesting, dense misnested
markup) and, for each, runs one ``_core.extract_document`` (whole-page Markdown, then the
readable selection) in a fresh child process, reading ``VmHWM`` from ``/proc/self/status``
before and after. Give several builds (folders holding the ``webgrip`` package with its
extension) to compare them in one run:

    python benches/parse_memory.py                      # the installed webgrip
    python benches/parse_memory.py /tmp/before python   # two builds side by side
    python benches/parse_memory.py --fetch-page python  # the whole tool call instead

Prints one row per shape: input size, then per build the peak growth in MiB and the CPU
seconds of the call.

``--fetch-page`` measures what an agent's call costs rather than the core's alone: the page
of links (just under the 10 MiB size cap) is served by a loopback server in this process,
and each child calls ``Tools.fetch_page`` on it once per row (Markdown, text, the links
view, Markdown with ``links="citations"``), after a first call on a small page has imported
what the call path uses. The growth is the child's ``VmHWM`` over the call: the response,
the parse, the Python objects built from it, the cache and the answer.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import subprocess
import sys
import threading

MIB = 1024 * 1024

_CHILD = r"""
import json, sys, time
size, shape, main = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
from webgrip import _core

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0

units = {
    "links": '<a href="/p/{i}">link {i}</a> ',
    "cells": "<tr>" + "<td>1</td>" * 8 + "</tr>",
    "nested": "<div><span>",
    "misnested": "<p><b><p>x",
    "paragraphs": "<p>word word word word word word word word</p>",
}
unit = units[shape]
parts, n, i = [], 0, 0
while n < size:
    piece = unit.replace("{i}", str(i))
    parts.append(piece)
    n += len(piece)
    i += 1
body = "".join(parts)
if shape == "cells":
    body = "<table>" + body + "</table>"
html = "<!doctype html><html><head><title>t</title></head><body>" + body + "</body></html>"
html_bytes = html.encode()
del parts, body, html
before = hwm()
start = time.process_time()
out = _core.extract_document(
    html_bytes, url="https://example.com/", modes=["markdown"], main_content=main
)
cpu = time.process_time() - start
after = hwm()
print(json.dumps({"input": len(html_bytes), "growth": after - before, "cpu": cpu,
                  "chars": len(out.get("markdown") or "")}))
"""

SHAPES = ["links", "cells", "nested", "misnested", "paragraphs"]

_FETCH_CHILD = r"""
import json, sys, time
from webgrip import Config, Tools

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0

base, options = sys.argv[1], json.loads(sys.argv[2])
config = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=300)
tools = Tools(config)
tools.fetch_page(base + "small", **options)  # imports what the call path uses
before = hwm()
start = time.process_time()
answer = tools.fetch_page(base + "links", **options)
cpu = time.process_time() - start
after = hwm()
print(json.dumps({"growth": after - before, "cpu": cpu, "answer": answer[:2000]}))
"""

#: The ``fetch_page`` calls measured by ``--fetch-page``: label and keyword arguments.
FETCH_ROWS = [
    ("markdown (the default)", {}),
    ("text", {"extract": "text"}),
    ("links view", {"extract": "links"}),
    ('links="citations"', {"links": "citations"}),
]


def links_page(size: int) -> tuple[bytes, int]:
    """A page of ``<a href="/p/N">link N</a>`` of at most ``size`` bytes, and its link count."""
    head, tail = b"<!doctype html><html><head><title>t</title></head><body>", b"</body></html>"
    parts, n, i = [], len(head) + len(tail), 0
    while True:
        piece = f'<a href="/p/{i}">link {i}</a> '.encode()
        if n + len(piece) > size:
            break
        parts.append(piece)
        n += len(piece)
        i += 1
    return head + b"".join(parts) + tail, i


def serve(pages: dict[str, bytes]) -> str:
    """Serve ``pages`` (by path, without the slash) on loopback; returns the base URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path.lstrip("/"), b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(OSError):  # a client that stopped reading
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def fetch_page_rows(builds: list[str | None], size: int) -> None:
    page, count = links_page(size)
    base = serve({"links": page, "small": b'<p><a href="/x">x</a> y</p>'})
    names = [b or "installed" for b in builds]
    print(
        f"fetch_page of a {len(page) / MIB:.2f} MiB page of {count:,} links; "
        f"peak RSS growth (MiB) and CPU s of the call per build: {names}"
    )
    for label, options in FETCH_ROWS:
        cells = []
        for build in builds:
            code = f"import sys; sys.path[:0] = {[build] if build else []!r}\n" + _FETCH_CHILD
            done = subprocess.run(
                [sys.executable, "-c", code, base, json.dumps(options)],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                cells.append(f"error: {(done.stderr.strip().splitlines() or ['failed'])[-1]}")
                continue
            got = json.loads(done.stdout)
            if got["answer"].startswith("Error:"):
                cells.append(f"error: {got['answer'][:100]}")
            else:
                cells.append(f"{got['growth'] / MIB:7.1f} MiB {got['cpu']:6.2f} s")
        print(f"{label:24} " + " | ".join(cells), flush=True)


def measure(build: str | None, size: int, shape: str, main: bool) -> dict:
    env_path = [build] if build else []
    code = f"import sys; sys.path[:0] = {env_path!r}\n" + _CHILD
    done = subprocess.run(
        [sys.executable, "-c", code, str(size), shape, "1" if main else "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("builds", nargs="*", help="folders holding a webgrip package")
    parser.add_argument("--mib", type=float, default=10.0, help="input size (default 10 MiB)")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument(
        "--fetch-page", action="store_true", help="the whole fetch_page call on the links page"
    )
    args = parser.parse_args()
    builds = args.builds or [None]
    size = int(args.mib * MIB)
    if args.fetch_page:
        fetch_page_rows(builds, size)
        return
    names = [b or "installed" for b in builds]
    print(f"{args.mib:g} MiB per page; peak RSS growth (MiB) and CPU s per build: {names}")
    for shape in args.shapes.split(","):
        for main in (False, True):
            cells = []
            for build in builds:
                got = measure(build, size, shape, main)
                if "error" in got:
                    cells.append(f"error: {got['error']}")
                else:
                    cells.append(f"{got['growth'] / MIB:7.1f} MiB {got['cpu']:6.2f} s")
            label = f"{shape}{' (readable)' if main else ''}"
            print(f"{label:24} " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
