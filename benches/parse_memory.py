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

Prints one row per shape: input size, then per build the peak growth in MiB and the CPU
seconds of the call.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

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
    args = parser.parse_args()
    builds = args.builds or [None]
    size = int(args.mib * MIB)
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
