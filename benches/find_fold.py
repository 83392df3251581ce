"""``fetch_page(find=...)`` on a long page with awkward case mappings.

    python benches/find_fold.py [--mib 9.4] [--repeat 3]

Searches a page of ``--mib`` MiB of plain English three ways: ASCII only, with one ``İ`` (whose
lower case is two characters, so offsets in the lowered page drift from the page's: a search
that mapped them back character by character took seconds and hundreds of MiB), and with a Greek
sigma in every paragraph (lower-cased by context). Prints the best CPU time of ``--repeat``
rounds for each and the ratio of the two awkward pages to the ASCII one: every pass is a few
``str`` methods, so the ratios stay small (an ASCII page takes CPython's fastest path; the
others are wider strings). Also prints the peak of Python's allocations during one search of
each page.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from webgrip.tools.find import find_passages

PARAGRAPH = "The quick brown fox jumps over the lazy dog near the river bank. " * 8


def make_page(mib: float, extra: str, every: int) -> str:
    """``mib`` MiB of paragraphs; ``extra`` inserted in every ``every``-th one (0: once)."""
    count = int(mib * 2**20) // (len(PARAGRAPH) + 2)
    paragraphs = [PARAGRAPH] * count
    if every:
        for at in range(0, count, every):
            paragraphs[at] = extra + " " + PARAGRAPH
    else:
        paragraphs[count // 2] = extra + " " + PARAGRAPH
    return "\n\n".join(paragraphs)


def best_cpu(page: str, phrase: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        found = find_passages(page, phrase, 2000)
        best = min(best, time.process_time() - start)
        assert found.exact, phrase
    return best


def peak_mib(page: str, phrase: str) -> float:
    tracemalloc.start()
    find_passages(page, phrase, 2000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=float, default=9.4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases = [
        ("ASCII only", make_page(args.mib, "Istanbul Unicode", 0), "istanbul unicode"),
        ("one İ", make_page(args.mib, "İstanbul Ünïcode", 0), "İSTANBUL ünïcode"),
        ("a sigma a paragraph", make_page(args.mib, "ΟΔΟΣ", 20), "οδοσ"),
    ]
    base = None
    for name, page, phrase in cases:
        cpu = best_cpu(page, phrase, args.repeat)
        base = cpu if base is None else base
        print(
            f"{name:<20} {len(page):>9} chars  {cpu * 1000:7.1f} ms  x{cpu / base:5.1f}  "
            f"peak {peak_mib(page, phrase):6.1f} MiB"
        )


if __name__ == "__main__":
    main()
