"""What ``import webgrip`` costs above an empty interpreter: median of many fresh processes.

    python benches/import_time.py              # --runs 41
    python benches/import_time.py --code 'from webgrip import Tools; Tools()'
    python benches/import_time.py --peers ''   # webgrip alone

Each round starts ``python -c 'pass'``, ``python -c CODE`` and ``python -c 'import PEER'`` for
each peer (``requests`` and ``httpx`` unless ``--peers`` says otherwise; a peer that is not
installed is skipped), interleaved so that drifting load hits all alike, and records wall time
and the child's CPU time (user + system, from ``getrusage``; steadier than wall time on a
loaded machine). Printed: the medians, each one's difference from the empty interpreter, and
each peer's difference divided by webgrip's (above 1: webgrip imports faster). ``--no-site``
runs them all with ``-S`` (no ``site``, no ``.pth`` files) and the packages' folders put on
``sys.path`` by hand: an interpreter whose startup has not already imported ``re``,
``typing`` and friends, so what each pulls in is all counted.
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


def _folder(name: str) -> str | None:
    """The ``sys.path`` entry holding package ``name``, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None:
        return None
    where = next(iter(spec.submodule_search_locations or ()), spec.origin)
    return os.path.dirname(where) if where else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=41)
    ap.add_argument("--code", default="import webgrip")
    ap.add_argument("--peers", default="requests,httpx", help="comma-separated modules")
    ap.add_argument("--no-site", action="store_true", help="run the interpreters with -S")
    args = ap.parse_args()

    folder = _folder("webgrip")
    if folder is None:
        sys.exit("webgrip is not importable (install it or set PYTHONPATH=python)")
    peers = {p: _folder(p) for p in filter(None, args.peers.split(","))}
    peers = {p: f for p, f in peers.items() if f is not None}
    folders = list(dict.fromkeys([folder, *peers.values()]))
    prefix = f"import sys; sys.path[:0] = {folders!r}; "
    flags = ["-S"] if args.no_site else []
    codes = {"empty interpreter": "pass", args.code: args.code}
    codes.update({f"import {p}": f"import {p}" for p in peers})
    argvs = {label: [sys.executable, *flags, "-c", prefix + code] for label, code in codes.items()}
    # Write the bytecode caches first (as pip does on install), even under
    # PYTHONDONTWRITEBYTECODE: otherwise every run would compile the sources.
    warm = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for argv in argvs.values():
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=warm)
    rows: dict[str, list[tuple[float, float]]] = {label: [] for label in argvs}
    for _ in range(args.runs):
        for label, argv in argvs.items():
            rows[label].append(_once(argv))

    def med(label: str, i: int) -> float:
        return 1000 * statistics.median(r[i] for r in rows[label])

    site = " (-S)" if args.no_site else ""
    print(f"{args.code!r} from {folder}, {args.runs} interleaved runs{site}")
    print(f"{'':28} {'wall ms':>8} {'CPU ms':>8} {'+wall ms':>9} {'+CPU ms':>8} {'÷ ours':>7}")
    base_wall, base_cpu = med("empty interpreter", 0), med("empty interpreter", 1)
    ours = med(args.code, 1) - base_cpu
    for label in argvs:
        wall, cpu = med(label, 0), med(label, 1)
        line = f"{label[:28]:28} {wall:8.1f} {cpu:8.1f}"
        if label != "empty interpreter":
            line += f" {wall - base_wall:9.1f} {cpu - base_cpu:8.1f}"
            if label != args.code and ours > 0:
                line += f" {(cpu - base_cpu) / ours:6.1f}×"
        print(line)
    print("+: above the empty interpreter; ÷ ours: a peer's +CPU over webgrip's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
