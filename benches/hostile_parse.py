#!/usr/bin/env python3
"""Time to convert pages built to keep an HTML parser busy, per shape and size.

Each shape repeats one unit that leaves elements open that no end tag closes (misnested
formatting around blocks: the adoption agency and the reconstruction of active formatting
elements), or nests lists to the depth cap. A quadratic tree builder shows as a time that
quadruples when the size doubles; webgrip's should double. Reported, never asserted.

Usage (from the repository root, with the extension built)::

    python benches/hostile_parse.py                      # 1 and 2 MiB, every shape
    python benches/hostile_parse.py --sizes 1,10 --modes markdown
    python benches/hostile_parse.py --timeout 3          # as fetch_page runs it
"""

from __future__ import annotations

import argparse
import time

# The installed webgrip (the source tree has no built `_core`): `pip install .` first.
from webgrip import _core, errors

SHAPES = [
    "<b><div>x</b>",
    "<b><i><u><s>x</b>",
    "<b><i><u><s><div>x</b>",
    "<b class=c{n}><div>x</b>",
    "<a href=#{n}><div>x</a>",
    "<table><tr><td><b>x</table>",
    "<p><b><p>x",
    "<nobr><div>x</nobr>",
    "<b>x<table>y</b>",
    "<em><li>x</em><ul>",
    "<button><b><div>x</button>",
]


def page(unit: str, size: int) -> str:
    parts, total, n = [], 0, 0
    while total < size:
        part = unit.replace("{n}", str(n))
        parts.append(part)
        total += len(part)
        n += 1
    return "<html><body>" + "".join(parts) + "</body></html>"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1,2", help="sizes in MiB, comma-separated")
    ap.add_argument(
        "--modes",
        default="markdown,text",
        help="views: markdown (readable main content) and/or text (whole page)",
    )
    ap.add_argument("--timeout", type=float, default=None, help="deadline per conversion")
    args = ap.parse_args()
    sizes = [int(float(s) * (1 << 20)) for s in args.sizes.split(",")]
    print(f"{'shape':32} {'MiB':>5} {'view':9} {'seconds':>8}  result")
    for unit in SHAPES:
        for size in sizes:
            html = page(unit, size)
            for mode in args.modes.split(","):
                main_content = mode == "markdown"
                start = time.perf_counter()
                try:
                    out = _core.extract_document(
                        html, modes=[mode], main_content=main_content, timeout=args.timeout
                    )
                    result = f"{len(out[mode]):,} chars"
                except errors.FetchTimeoutError:
                    result = "timeout"
                seconds = time.perf_counter() - start
                print(
                    f"{unit!r:32} {size / (1 << 20):5.1f} {mode:9} {seconds:8.3f}  {result}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
