"""Run the challenge/wall detector over every corpus page, as served (status 200, no redirect).

    PYTHONPATH=python python benches/challenge_corpus.py [--repeat 3] [--statuses 200,403]

Every page of ``../shared/corpus/{wcxb-dev,article-bench-dev}`` is a real article, listing,
forum or shop page, so every detection is a false positive: the script prints each hit and
exits with status 1 if there is one. It also times :func:`webgrip.challenge.detect` per page
(best of ``--repeat``, the whole Python call) beside the markdown extraction the fetch path
runs anyway, to show what the check adds. ``--statuses`` also replays the pages with other
statuses (a 403 with a real page's body must stay an HTTP error unless it is a bot check).
"""

from __future__ import annotations

import argparse
import sys
import time

from corpus_views import pages, served


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--statuses", default="200")
    args = parser.parse_args()
    from webgrip import _core
    from webgrip.challenge import detect

    statuses = [int(s) for s in args.statuses.split(",")]
    docs = list(pages())
    hits: list[tuple[str, int, object]] = []
    scanned = 0
    detect_s = extract_s = 0.0
    for page_id, url, raw in docs:
        for status in statuses:
            response = served(url, raw, status)
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                wall = detect(response, url)
                times.append(time.perf_counter() - t0)
            if status == 200:
                detect_s += min(times)
                scanned += _core.scan_challenge(raw, status) is not None
            if wall is not None:
                hits.append((page_id, status, wall))
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            _core.extract_document(
                raw,
                modes=["markdown", "metadata"],
                main_content=True,
                url=url,
                content_type="text/html",
            )
            times.append(time.perf_counter() - t0)
        extract_s += min(times)
    n = len(docs)
    print(
        f"{n} pages checked at status {', '.join(map(str, statuses))}; "
        f"{scanned} had little enough text to be searched for markers"
    )
    print(f"detect      {detect_s / n * 1e3:.4f} ms/page (best of {args.repeat})")
    print(f"extraction  {extract_s / n * 1e3:.3f} ms/page (markdown+metadata, main content)")
    print(f"detect adds {detect_s / extract_s * 100:.2f}% to the extraction")
    for page_id, status, wall in hits:
        print(f"HIT {page_id} status {status}: {wall}")
    print(f"{len(hits)} detections")
    return 1 if any(status == 200 for _, status, _ in hits) else 0


if __name__ == "__main__":
    sys.exit(main())
