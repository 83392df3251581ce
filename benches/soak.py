"""The chaos soak: 32 threads x tens of thousands of fetch/download calls against a hostile
loopback server, with descriptors, threads and memory measured before and after.

    PYTHONPATH=python python benches/soak.py                      # 50 000 calls, 32 threads
    PYTHONPATH=python python benches/soak.py --calls 2000 --json /tmp/soak.json

The server is tests/helpers/chaos_server.py in its own process (resets, broken chunking,
conflicting lengths, 100k headers, 1 MB header lines, drips, endless bodies, compression bombs,
redirect loops, HTTP/0.9 and garbage status lines, TLS handshakes that stop halfway). Each call
picks a behaviour and one of ``WebClient.fetch``, ``WebClient.download``, ``Tools.fetch_page``,
``Tools.download_file`` (tests/helpers/chaos_soak.py has the details). Exit status 0 when every
call returned within its deadline + 10% with a result or a typed error (no other exception, no
panic), no temp file was left behind, and after the run the process holds exactly as many
descriptors and threads as at the baseline and its RSS is within ``--rss-tolerance-mib`` of it.
docs/reliability.md ("Soak") has the figures and how the baseline is taken.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.chaos_soak import Report, run_soak

#: Most the trimmed RSS may rise from the first round to the last.
ROUND_CLIMB_MIB = 4.0


def problems(report: Report, rss_tolerance_mib: float) -> list[str]:
    """Every way the run broke the contract (empty: it passed)."""
    found = []
    if report.failure_count:
        found.append(f"{report.failure_count} calls failed (overrun or untyped outcome)")
    if report.leftover_files:
        found.append(f"files left in the download folder: {report.leftover_files[:5]}")
    before, after = report.baseline, report.after
    for key in ("fds", "threads"):
        if after[key] != before[key]:
            found.append(f"{key}: {before[key]} before, {after[key]} after")
    # Each calling thread has at most one exchange (and its name lookup) on a kept worker at
    # a time: more than that alive is a leak, however recent the calls.
    if after["kept_workers"] > 2 * report.threads:
        found.append(f"{after['kept_workers']} kept worker threads for {report.threads} callers")
    grown = (after["rss_kib"] - before["rss_kib"]) / 1024
    if grown > rss_tolerance_mib:
        found.append(f"RSS grew {grown:.1f} MiB (tolerance {rss_tolerance_mib} MiB)")
    # A leak climbs round after round; the step from the baseline to the first round does not
    # count (caches and allocator pages that reach their steady size).
    if len(report.rounds) > 1:
        climb = (report.rounds[-1]["rss_kib"] - report.rounds[0]["rss_kib"]) / 1024
        if climb > ROUND_CLIMB_MIB:
            found.append(
                f"RSS climbed {climb:.1f} MiB from the first round to the last "
                f"(tolerance {ROUND_CLIMB_MIB} MiB)"
            )
    for i, usage in enumerate(report.rounds):
        if usage["fds"] != before["fds"] or usage["threads"] != before["threads"]:
            found.append(f"after round {i + 1}: {usage['fds']} fds, {usage['threads']} threads")
    return found


def summary(report: Report) -> str:
    before, after = report.baseline, report.after
    tags: dict[str, int] = {}
    for key, count in report.outcomes.items():
        tag = key.rsplit(" -> ", 1)[-1]
        tags[tag] = tags.get(tag, 0) + count
    lines = [
        f"calls {report.calls} on {report.threads} threads in {report.seconds:.1f} s "
        f"({report.calls / max(report.seconds, 1e-9):.0f}/s), deadline {report.timeout:g} s",
        f"by operation: {report.by_operation}",
        f"outcomes: {dict(sorted(tags.items(), key=lambda kv: -kv[1]))}",
        f"slowest call {report.max_elapsed:.3f} s (overrun {report.max_overrun * 1000:+.0f} ms,"
        f" allowed +{report.timeout * 100:.0f} ms); calls over: {report.overruns}",
        f"past the deadline (ms): {report.late_ms} (load average {report.load_average})",
        f"fds {before['fds']} -> {after['fds']}, threads {before['threads']} -> "
        f"{after['threads']}, RSS {before['rss_kib'] / 1024:.1f} -> {after['rss_kib'] / 1024:.1f}"
        f" MiB (peak sampled {max(report.rss_samples_kib or [0]) / 1024:.0f} MiB)",
    ]
    lines.append(
        "after each round: "
        + ", ".join(
            f"{r['fds']} fds/{r['threads']} threads/{r['rss_kib'] / 1024:.1f} MiB"
            for r in report.rounds
        )
    )
    lines += [f"FAILURE: {f}" for f in report.failures[:10]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=50_000)
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument(
        "--timeout", type=float, default=2.0, help="each call's deadline in seconds (default 2)"
    )
    parser.add_argument(
        "--stall-share",
        type=float,
        default=0.05,
        help="share of calls to behaviours that hold on until the deadline",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help="mixed calls before the baseline (default 10 per thread)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="measure descriptors, threads and RSS after each of N rounds",
    )
    parser.add_argument("--rss-tolerance-mib", type=float, default=16.0)
    parser.add_argument("--json", help="also write the full report here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    report = run_soak(
        args.calls,
        threads=args.threads,
        timeout=args.timeout,
        stall_share=args.stall_share,
        warmup=args.warmup,
        seed=args.seed,
        rounds=args.rounds,
        progress=not args.quiet,
    )
    if args.json:
        Path(args.json).write_text(report.json())
    print(summary(report))
    found = problems(report, args.rss_tolerance_mib)
    for line in found:
        print(f"PROBLEM: {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
