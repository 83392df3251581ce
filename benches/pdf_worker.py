#!/usr/bin/env python3
"""What reading PDFs in a worker process costs: per document, in-process
(``_core.extract_pdf``) against through the pool (``_pdfpool.extract_pdf``), in one run.

Each document of ``../shared/corpus/pdf-dev/pdf`` is read ``--repeat`` times each way,
alternating (in-process, pool, in-process, ...) so that both see the same machine load, and the
fastest of each is kept; the pool is warm (started and used once before timing). The
overhead of a document is its pool time minus its in-process time. Reported: the median and
90th percentile of both times and of the overhead, in milliseconds, and the pool's start
(the first call of a fresh pool, which starts a worker).

Usage (from the repository root, after ``scripts/dev-build`` or ``pip install -e .``)::

    PYTHONPATH=python python benches/pdf_worker.py
    PYTHONPATH=python python benches/pdf_worker.py --repeat 7 --mode markdown

Figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from webgrip import _core, _pdfpool

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "pdf-dev" / "pdf"


def _time(read: Callable[[], object]) -> float:
    start = time.perf_counter()
    # A document that fails does so both ways; its time still counts.
    with contextlib.suppress(Exception):
        read()
    return time.perf_counter() - start


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mode", default="text", choices=("text", "markdown"))
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*.pdf"))
    if not files:
        print(f"no PDFs in {args.corpus}", file=sys.stderr)
        return 1
    docs = [f.read_bytes() for f in files]

    start = time.perf_counter()
    _pdfpool.extract_pdf(docs[0], mode=args.mode)
    cold = time.perf_counter() - start
    for data in docs:  # warm: the worker has mapped what each document needs once
        _pdfpool.extract_pdf(data, mode=args.mode)

    inproc: list[float] = []
    pooled: list[float] = []
    for data in docs:
        a, b = [], []
        for _ in range(args.repeat):
            a.append(_time(lambda d=data: _core.extract_pdf(d, mode=args.mode, timeout=30)))
            b.append(_time(lambda d=data: _pdfpool.extract_pdf(d, mode=args.mode, timeout=30)))
        inproc.append(min(a))
        pooled.append(min(b))
    overhead = [p - i for p, i in zip(pooled, inproc, strict=True)]

    def row(name: str, values: list[float]) -> str:
        median, p90 = statistics.median(values) * 1e3, _quantile(values, 0.9) * 1e3
        return f"| {name} | {median:.2f} | {p90:.2f} |"

    sizes = sorted(len(d) for d in docs)
    print(
        f"{len(docs)} PDFs (median {sizes[len(sizes) // 2] / 1024:.0f} KiB), mode {args.mode}, "
        f"fastest of {args.repeat}; {_pdfpool.DEFAULT_WORKERS} workers\n"
    )
    print("| per document | median ms | p90 ms |\n| --- | ---: | ---: |")
    print(row("in-process (`_core.extract_pdf`)", inproc))
    print(row("worker pool (`_pdfpool.extract_pdf`)", pooled))
    print(row("overhead (pool - in-process)", overhead))
    print(f"\nfirst call of a fresh pool (starts a worker): {cold * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
