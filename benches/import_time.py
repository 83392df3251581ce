"""What ``import webgrip`` costs above an empty interpreter: median of many fresh processes.

    python benches/import_time.py              # --runs 41
    python benches/import_time.py --code 'from webgrip import Tools; Tools()'

Each round starts ``python -c 'pass'`` and ``python -c CODE`` (interleaved, so drifting load
hits both alike) and records wall time and the child's CPU time (user + system, from
``getrusage``; steadier than wall time on a loaded machine). Printed: the medians and their
difference. ``--no-site`` runs both with ``-S`` (no ``site``, no ``.pth`` files) and the
package's folder put on ``sys.path`` by hand: an interpreter whose startup has not already
imported ``re``, ``typing`` and friends, so what webgrip pulls in is all counted.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import time


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _once(argv: list[str]) -> tuple[float, float]:
    cpu0, t0 = _child_cpu(), time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0, _child_cpu() - cpu0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=41)
    ap.add_argument("--code", default="import webgrip")
    ap.add_argument("--no-site", action="store_true", help="run the interpreters with -S")
    args = ap.parse_args()

    spec = importlib.util.find_spec("webgrip")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        sys.exit("webgrip is not importable (install it or set PYTHONPATH=python)")
    folder = os.path.dirname(next(iter(spec.submodule_search_locations)))
    prefix = f"import sys; sys.path.insert(0, {folder!r}); "
    flags = ["-S"] if args.no_site else []
    empty = [sys.executable, *flags, "-c", prefix + "pass"]
    loaded = [sys.executable, *flags, "-c", prefix + args.code]
    # Write the bytecode caches first (as pip does on install), even under
    # PYTHONDONTWRITEBYTECODE: otherwise every run would compile the sources.
    warm = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(loaded, check=True, stdout=subprocess.DEVNULL, env=warm)
    base: list[tuple[float, float]] = []
    full: list[tuple[float, float]] = []
    for _ in range(args.runs):
        base.append(_once(empty))
        full.append(_once(loaded))

    def med(rows: list[tuple[float, float]], i: int) -> float:
        return 1000 * statistics.median(r[i] for r in rows)

    print(f"{args.code!r} from {folder}, {args.runs} runs{' (-S)' if args.no_site else ''}")
    print(f"{'':24} {'wall ms':>8} {'CPU ms':>8}")
    print(f"{'empty interpreter':24} {med(base, 0):8.1f} {med(base, 1):8.1f}")
    print(f"{'with the import':24} {med(full, 0):8.1f} {med(full, 1):8.1f}")
    wall, cpu = med(full, 0) - med(base, 0), med(full, 1) - med(base, 1)
    print(f"{'difference':24} {wall:8.1f} {cpu:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
