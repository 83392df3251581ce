"""What the challenge check adds to a fetch, end to end: the corpus through WebClient.fetch
with the check on and off, alternately, in one process.

    PYTHONPATH=python python benches/challenge_cost.py [--pages 400] [--repeat 3]

The pages (``../shared/corpus``, see scripts/corpus_views.py) are served from a loopback
``http.server`` in a child process; each page is fetched ``--repeat`` times with the check
and as often without it (``webgrip.client.detect`` replaced by a function that finds
nothing), interleaved so machine load hits both alike. Reported: the median wall time per
page of each, and the difference. Figures on a shared machine are noisy: compare the two
rows of one run, not runs with each other.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from corpus_views import pages  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import webgrip.client as client_module
    from webgrip import Config, WebClient

    with tempfile.TemporaryDirectory() as root:
        names = []
        for i, (_, _, raw) in enumerate(pages()):
            if i >= args.pages:
                break
            (Path(root) / f"{i}.html").write_bytes(raw)
            names.append(f"{i}.html")
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1",
             "--directory", root], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            line = server.stdout.readline() if server.stdout else ""
            port = int(line.split("port ")[1].split()[0])
            base = f"http://127.0.0.1:{port}/"
            config = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0,
                            page_cache_size=0, render="never", timeout=30)
            real = client_module.detect
            timings: dict[str, list[float]] = {"on": [], "off": []}
            with WebClient(config) as client:
                for name in names:
                    client.fetch(base + name)  # warm: connection, first parse
                    for _ in range(args.repeat):
                        for label in ("on", "off"):
                            client_module.detect = real if label == "on" else _nothing
                            t0 = time.perf_counter()
                            client.fetch(base + name)
                            timings[label].append(time.perf_counter() - t0)
            client_module.detect = real
        finally:
            server.terminate()
            server.wait()
    on = statistics.median(timings["on"]) * 1e3
    off = statistics.median(timings["off"]) * 1e3
    mean_on = statistics.fmean(timings["on"]) * 1e3
    mean_off = statistics.fmean(timings["off"]) * 1e3
    print(f"{len(names)} pages x {args.repeat}, WebClient.fetch (markdown, main content)")
    print(f"check on   median {on:.3f} ms/page   mean {mean_on:.3f}")
    print(f"check off  median {off:.3f} ms/page   mean {mean_off:.3f}")
    print(f"difference median {on - off:+.3f} ms ({(on / off - 1) * 100:+.1f}%), "
          f"mean {mean_on - mean_off:+.3f} ms ({(mean_on / mean_off - 1) * 100:+.1f}%)")


def _nothing(response: object, requested: str) -> None:
    return None


if __name__ == "__main__":
    main()
