"""Time whole-page vs main-content extraction over the corpus pages, in one process.

    PYTHONPATH=python python benches/corpus_timing.py [--repeat 5] [--cpu]
        [--modes markdown,metadata]

Per page the best of ``--repeat`` runs of ``_core.extract_document`` (bytes in, the fetch
path's views), summed over all pages and divided by their number: ms per page with
``main_content=False``, with ``True`` and ``readable_model=False`` (the rules alone), and
with ``True`` (the rules, then the learned block scorer: the default); the main-content
selection's cost on top of the whole page, and the scorer's speed relative to the rules
alone (its budget: at least 0.9). Run two builds alternately on a quiet machine; compare
ratios from one run, not absolute figures from runs at different times (the machine is
shared). ``--cpu`` times the thread's CPU (``time.thread_time``) rather than the wall clock,
which on a loaded machine mostly measures the wait for a core.
"""

from __future__ import annotations

import argparse
import time

from corpus_views import pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--modes", default="markdown,metadata")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not the wall clock")
    args = parser.parse_args()
    clock = time.thread_time if args.cpu else time.perf_counter
    from webgrip import _core

    modes = args.modes.split(",")
    docs = [(url, raw) for _, url, raw in pages()]
    # (main_content, readable_model)
    variants = ((False, True), (True, False), (True, True))
    best = dict.fromkeys(variants, 0.0)
    for url, raw in docs:
        for main, model in variants:
            times = []
            for _ in range(args.repeat):
                t0 = clock()
                _core.extract_document(
                    raw,
                    modes=modes,
                    main_content=main,
                    url=url,
                    content_type="text/html",
                    readable_model=model,
                )
                times.append(clock() - t0)
            best[main, model] += min(times)
    n = len(docs)
    whole, rules, scored = (best[v] / n * 1e3 for v in variants)
    print(f"{_core.__file__}")
    print(f"{n} pages, modes {modes}, best of {args.repeat}, {'CPU' if args.cpu else 'wall'} time")
    print(f"whole page                 {whole:.3f} ms/page")
    for name, ms in (("main content, rules", rules), ("main content, scorer", scored)):
        print(
            f"{name:<27}{ms:.3f} ms/page  (+{ms - whole:.3f} ms, "
            f"+{(ms / whole - 1) * 100:.0f}% on top of whole page)"
        )
    print(f"scorer speed / rules speed: {rules / scored:.3f}")


if __name__ == "__main__":
    main()
