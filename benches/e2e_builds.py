"""Two (or more) builds of webgrip side by side: CPU ms per page of a whole fetch, same run.

``benches/e2e.py`` measures the webgrip it imports; comparing a change with the build before
it there takes two runs, and on a loaded machine two runs differ by more than most changes.
This script serves the corpus pages once (Debian nginx on its own core, as e2e.py does) and
measures, in alternating child processes pinned to the other core, each build's
``WebClient.fetch(main_content=False)`` (whole page), ``WebClient.fetch()`` (readable, the
default) and ``Tools.fetch_page``, plus rnet + turbohtml as the reference, round after round.
The best round of each is kept; CPU time (``time.process_time``), not wall.

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
    runs = []
    for _ in range(passes):
        start = time.process_time()
        for url in urls:
            fetch(url)
        runs.append((time.process_time() - start) * 1000 / len(urls))
    return min(runs)

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
    best: dict[tuple[str, str], float] = {}
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
                for row, ms in json.loads(run.stdout).items():
                    key = (build or "reference", row)
                    best[key] = min(ms, best.get(key, ms))
    finally:
        server.stop()
    reference = best[("reference", "rnet + turbohtml")]
    print(f"{len(urls)} pages, best of {args.rounds} rounds x {args.passes} passes, CPU ms/page\n")
    print("| build | call | CPU ms/page | × rnet + turbohtml |")
    print("|---|---|---:|---:|")
    print(f"| reference | rnet + turbohtml | {reference:.3f} | 1.00 |")
    for (build, row), ms in best.items():
        if build != "reference":
            print(f"| {build} | {row} | {ms:.3f} | {reference / ms:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
