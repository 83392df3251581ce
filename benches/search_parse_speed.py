"""Time the DuckDuckGo result parsers on the real result pages of the test fixtures.

Run: ``PYTHONPATH=python python benches/search_parse_speed.py [--rounds 200]``. Prints the
mean time of one parse per page (best of three runs of ``--rounds`` parses), for comparing
the result-page tree before and after a change as a ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "search" / "duckduckgo"


def main() -> None:
    from webgrip.search.duckduckgo import parse_html_page, parse_lite_page

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    for path in sorted(FIXTURES.glob("*.html")):
        markup = path.read_text(encoding="utf-8")
        parse = parse_lite_page if path.name.startswith("lite") else parse_html_page
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(args.rounds):
                parse(markup)
            best = min(best, (time.perf_counter() - start) / args.rounds)
        print(f"{path.name:<60}{len(markup) / 1024:>8.0f} KiB{best * 1000:>9.2f} ms", flush=True)


if __name__ == "__main__":
    main()
