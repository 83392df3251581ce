"""Two (or more) builds of webgrip side by side: CPU and wall time of a whole fetch, same run.

``benches/e2e.py`` measures the webgrip it imports; comparing a change with the build before
it there takes two runs, and on a loaded machine two runs differ by more than most changes.
This script serves the corpus pages once (Debian nginx on its own core, as e2e.py does) and
measures, in alternating child processes pinned to the other core, each build's
``WebClient.fetch(main_content=False)`` (whole page), ``WebClient.fetch()`` (readable, the
default) and ``Tools.fetch_page``, plus rnet + turbohtml as the reference, round after round.
The best round of each is kept, by CPU time (``time.process_time``) and by wall time apart:
the wall time holds what the CPU time misses (waits for the server, hand-offs between threads).

    git archive HEAD~3 python | tar -x -C /tmp/before      # and copy the matching _core .so
    python benches/e2e_builds.py /tmp/before/python python --rounds 3

Each build is a folder holding the ``webgrip`` package with its extension module.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e  # the same nginx and corpus pages

_CHILD = r"""
import json, os, sys, time
cores = sorted(os.sched_getaffinity(0))
os.sched_setaffinity(0, {cores[0]})
urls, passes, which = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

def best(fetch):
    fetch(urls[0])  # connect and warm up outside the timing
    cpu, wall = [], []
    for _ in range(passes):
        start, t0 = time.process_time(), time.perf_counter()
        for url in urls:
            fetch(url)
        wall.append((time.perf_counter() - t0) * 1000 / len(urls))
        cpu.append((time.process_time() - start) * 1000 / len(urls))
    return min(cpu), min(wall)

out = {}
if which == "rnet":
    import rnet, turbohtml
    client = rnet.BlockingClient()
    out["rnet + turbohtml"] = best(lambda u: turbohtml.parse(client.get(u).text()).to_markdown())
else:
    from webgrip import Config, Tools
    from webgrip.client import WebClient
    options = dict(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=60)
    client = WebClient(Config(page_cache_size=0, **options))
    out["whole page"] = best(lambda u: client.fetch(u, main_content=False).content)
    out["readable"] = best(lambda u: client.fetch(u).content)
    out["Tools.fetch_page"] = best(Tools(Config(**options)).fetch_page)
print(json.dumps(out))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("builds", nargs="+", help="folders holding a webgrip package (PYTHONPATH)")
    ap.add_argument("--corpus", type=Path, default=e2e.DEFAULT_CORPUS)
    ap.add_argument("--pages", type=int, default=181)
    ap.add_argument("--set", choices=sorted(e2e.SETS), default="articles+wcxb")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of all builds")
    ap.add_argument("--passes", type=int, default=2, help="passes over the pages per child")
    args = ap.parse_args()
    pages = e2e.load_pages(args.corpus, args.pages, args.set)
    cores = sorted(os.sched_getaffinity(0))
    server = e2e.Nginx(pages, cores[-1])
    best: dict[tuple[str, str], float] = {}  # CPU ms/page
    best_wall: dict[tuple[str, str], float] = {}
    try:
        urls = [f"http://127.0.0.1:{server.port}/p/{i}" for i in range(len(pages))]
        for _ in range(args.rounds):
            for build in [None, *args.builds]:
                env = dict(os.environ)
                if build is not None:
                    env["PYTHONPATH"] = str(Path(build).resolve())
                run = subprocess.run(
                    [
                        sys.executable,
                        "-c",
                        _CHILD,
                        json.dumps(urls),
                        str(args.passes),
                        "rnet" if build is None else "webgrip",
                    ],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if run.returncode:
                    sys.exit(f"{build or 'rnet'}: {run.stderr.strip()}")
                for row, (ms, wall) in json.loads(run.stdout).items():
                    key = (build or "reference", row)
                    best[key] = min(ms, best.get(key, ms))
                    best_wall[key] = min(wall, best_wall.get(key, wall))
    finally:
        server.stop()
    ref = ("reference", "rnet + turbohtml")
    print(f"{len(urls)} pages, best of {args.rounds} rounds x {args.passes} passes\n")
    print("| build | call | CPU ms/page | × rnet + turbohtml | wall pages/s | × rnet + turbohtml |")
    print("|---|---|---:|---:|---:|---:|")
    for key, ms in best.items():
        wall = best_wall[key]
        print(
            f"| {key[0]} | {key[1]} | {ms:.3f} | {best[ref] / ms:.2f} | {1000 / wall:.0f} "
            f"| {best_wall[ref] / wall:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
