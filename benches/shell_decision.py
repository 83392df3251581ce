"""``render="auto"``'s decision on the shell fixtures and on the corpus.

    python benches/shell_decision.py [--corpus ../shared/corpus] [--repeat 3]

Runs ``webgrip.is_script_shell`` (what ``auto`` asks of every HTML page: the core's linear
pass, then the tiny-text test when the pass finds a reason) over
``tests/fixtures/shells/{shells,static}/`` and over the corpus's server-rendered pages
(``<corpus>/wcxb-dev/html/*.html.gz`` and ``<corpus>/article-bench-dev/html/*.html.gz``,
decompressed in memory). Prints how many shells are detected and near misses refused, how
many corpus pages would render with each one's reason and path (target: at most 1 %), how
many the core pass alone flags (the tiny-text test then keeps them static), and the time per
page: the core pass alone and the whole decision, best of ``--repeat`` rounds of CPU time.
Not a test: the corpus lives outside the repository (``../shared``).
"""

from __future__ import annotations

import argparse
import gzip
import time
from collections.abc import Callable
from pathlib import Path

import webgrip
from webgrip import _core

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "shells"
SETS = ("wcxb-dev", "article-bench-dev")


def load_corpus(root: Path) -> list[tuple[Path, bytes]]:
    pages = []
    for name in SETS:
        files = sorted((root / name / "html").glob("*.html.gz"))
        if not files:
            raise SystemExit(f"no pages under {root / name / 'html'} (see {root}/README.md)")
        pages += [(f, gzip.decompress(f.read_bytes())) for f in files]
    return pages


def per_page_ms(pages: list[bytes], decide: Callable[[bytes], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for html in pages:
            decide(html)
        best = min(best, time.process_time() - start)
    return best / len(pages) * 1000


def fixtures() -> None:
    shells = sorted((FIXTURES / "shells").glob("*.html"))
    static = sorted((FIXTURES / "static").glob("*.html"))
    missed = [p.name for p in shells if not webgrip.is_script_shell(p.read_bytes())]
    rendered = [p.name for p in static if webgrip.is_script_shell(p.read_bytes())]
    print(
        f"shells detected: {len(shells) - len(missed)}/{len(shells)}"
        + (f" (missed: {', '.join(missed)})" if missed else "")
    )
    print(
        f"near misses rendered: {len(rendered)}/{len(static)}"
        + (f" ({', '.join(rendered)})" if rendered else "")
    )
    reasons: dict[str, int] = {}
    for p in shells:
        why = _core.script_shell_reason(p.read_bytes()) or "none"
        key = why.split(" #")[0].split(" <")[0].split(" [")[0]
        reasons[key] = reasons.get(key, 0) + 1
    print("shell reasons: " + ", ".join(f"{k} {n}" for k, n in sorted(reasons.items())))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    fixtures()
    corpus = load_corpus(args.corpus)
    size = sum(len(html) for _, html in corpus)
    print(f"\ncorpus: {len(corpus)} pages ({size / 1e6:.1f} MB) from {', '.join(SETS)}")
    flagged = []
    rendered = []
    for path, html in corpus:
        why = _core.script_shell_reason(html)
        if why is None:
            continue
        flagged.append((path, why))
        if webgrip.is_script_shell(html):
            rendered.append((path, why))
    print(f"would render: {len(rendered)} ({len(rendered) / len(corpus):.2%})")
    for path, why in rendered:
        print(f"  {why:32} {path.relative_to(args.corpus)}")
    kinds: dict[str, int] = {}
    for _, why in flagged:
        key = why.split(" #")[0].split(" <")[0].split(" [")[0]
        kinds[key] = kinds.get(key, 0) + 1
    print(
        f"core pass flags: {len(flagged)} ({len(flagged) / len(corpus):.2%}; "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        + "), kept static by the tiny-text test unless listed above"
    )

    pages = [html for _, html in corpus]
    core_ms = per_page_ms(pages, _core.script_shell_reason, args.repeat)
    full_ms = per_page_ms(pages, webgrip.is_script_shell, args.repeat)
    print(
        f"time per page: core pass {core_ms:.3f} ms, whole decision {full_ms:.3f} ms "
        f"(best of {args.repeat}, CPU time)"
    )


if __name__ == "__main__":
    main()
