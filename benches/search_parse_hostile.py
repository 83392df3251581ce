"""Time the DuckDuckGo result parsers on hostile, deeply nested pages.

Run: ``PYTHONPATH=python python benches/search_parse_hostile.py [--sizes 277K,1400K,10M]
[--cap 60]``. Each (shape, size, layout) runs in a child process killed after ``--cap``
seconds, so a quadratic parser shows as ``>cap`` instead of hanging the run.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import time

SHAPES = {
    # Divs opened and never closed: a tree as deep as the page is long.
    "nested-divs": ("<div>", "<div class=result><a class=result__a href='https://e.com/'>t</a>"),
    # Result blocks nested inside each other (each block's subtree holds all later ones).
    "nested-results": (
        "<div class='result'><a class='result__a' href='https://e.com/x'>t</a>"
        "<a class='result__snippet'>s</a>",
        "",
    ),
    # Lite layout: result links nested inside each other, snippets between them.
    "nested-lite-links": (
        "<a class='result-link' href='https://e.com/x'>t<td class='result-snippet'>s",
        "",
    ),
    # Unclosed inline tags, then closed paragraphs: each <p> looks for an open <p>.
    "unclosed-then-p": ("<span>", "<p>x</p>"),
    # A deep stack, then end tags that match nothing open: each scans the stack.
    "misnested-ends": ("<div>", "</b>"),
}


def page(shape: str, size: int) -> str:
    head, tail = SHAPES[shape]
    if not tail:
        return head * (size // len(head))
    half = size // 2
    return head * (half // len(head)) + tail * (half // len(tail))


def _run(shape: str, size: int, layout: str) -> None:
    from webgrip.search.duckduckgo import parse_html_page, parse_lite_page

    parse = parse_html_page if layout == "html" else parse_lite_page
    # A SearchError is an answer too: only the time matters here.
    with contextlib.suppress(Exception):
        parse(page(shape, size))


def measure(shape: str, size: int, layout: str, cap: float) -> str:
    proc = multiprocessing.Process(target=_run, args=(shape, size, layout))
    start = time.monotonic()
    proc.start()
    proc.join(cap)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return f">{cap:g} s"
    return f"{time.monotonic() - start:.2f} s"


def _size(text: str) -> int:
    units = {"K": 1024, "M": 1024 * 1024}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="277K,1400K,10M")
    parser.add_argument("--cap", type=float, default=60.0)
    parser.add_argument("--shapes", default=",".join(SHAPES))
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    print(f"{'shape':<20}{'layout':<7}" + "".join(f"{s:>12}" for s in sizes), flush=True)
    for shape in args.shapes.split(","):
        for layout in ("html", "lite"):
            row = [measure(shape, _size(s), layout, args.cap) for s in sizes]
            print(f"{shape:<20}{layout:<7}" + "".join(f"{r:>12}" for r in row), flush=True)


if __name__ == "__main__":
    main()
