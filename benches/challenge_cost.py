"""What the challenge check adds to a fetch, end to end: the corpus through WebClient.fetch
with the check on and off, alternately, in one process.

    PYTHONPATH=python python benches/challenge_cost.py [--pages 400] [--repeat 3]

The WCXB dev pages are served by the end-to-end benchmark's keep-alive loopback server
(``benches/e2e.py``) in a child process; each page is fetched ``--repeat`` times with the
check and as often without it (``webgrip.client.detect`` replaced by a function that finds
nothing), interleaved so machine load hits both alike. Reported: the median wall time per
page of each, and the difference. Figures on a shared machine are noisy: compare the two
rows of one run, not runs with each other.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e import DEFAULT_CORPUS, _serve, load_pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import webgrip.client as client_module
    from webgrip import Config, WebClient

    pages = load_pages(DEFAULT_CORPUS, args.pages, "wcxb")
    port_out: mp.Queue = mp.Queue()
    ready = mp.Event()
    server = mp.Process(target=_serve, args=(pages, port_out, ready), daemon=True)
    server.start()
    try:
        ready.wait(30)
        base = f"http://127.0.0.1:{port_out.get(timeout=30)}/p/"
        config = Config(
            allow_networks=("127.0.0.0/8",),
            rate_limit_seconds=0,
            page_cache_size=0,
            render="never",
            timeout=60,
        )
        real = client_module.detect
        timings: dict[str, list[float]] = {"on": [], "off": []}
        try:
            with WebClient(config) as client:
                for i in range(len(pages)):
                    client.fetch(f"{base}{i}")  # warm: connection, first parse
                    for _ in range(args.repeat):
                        for label in ("on", "off"):
                            client_module.detect = real if label == "on" else _nothing
                            t0 = time.perf_counter()
                            client.fetch(f"{base}{i}")
                            timings[label].append(time.perf_counter() - t0)
        finally:
            client_module.detect = real
    finally:
        server.terminate()
        server.join()
    on = statistics.median(timings["on"]) * 1e3
    off = statistics.median(timings["off"]) * 1e3
    mean_on = statistics.fmean(timings["on"]) * 1e3
    mean_off = statistics.fmean(timings["off"]) * 1e3
    print(f"{len(pages)} pages x {args.repeat}, WebClient.fetch (markdown, main content)")
    print(f"check on   median {on:.3f} ms/page   mean {mean_on:.3f}")
    print(f"check off  median {off:.3f} ms/page   mean {mean_off:.3f}")
    print(
        f"difference median {on - off:+.3f} ms ({(on / off - 1) * 100:+.1f}%), "
        f"mean {mean_on - mean_off:+.3f} ms ({(mean_on / mean_off - 1) * 100:+.1f}%)"
    )


def _nothing(response: object, requested: str) -> None:
    return None


if __name__ == "__main__":
    main()
