"""Download speed against the disk: webgrip, ``curl | tee | sha256sum`` + sync, ``dd`` + fsync.

    python benches/download_speed.py                   # 512 MiB, 5 interleaved rounds
    python benches/download_speed.py --size 256M --rounds 3 --json out.json

nginx (``/usr/sbin/nginx``, Debian's package) serves a file of random bytes from a temporary
folder on 127.0.0.1 (a minimal config written next to it: one worker, ``sendfile``, pid and logs
in that folder, run as the current user). Each round runs, in turn:

- webgrip ``WebClient.download`` in a fresh process (the file streamed to a temp file, SHA-256
  computed, fsynced, then given its name): the call's wall time, and the process's peak RSS
  growth during the call (``VmHWM`` reset through ``/proc/self/clear_refs`` just before it)
  and its CPU (user + system of all the process's threads, median over the rounds printed);
- ``curl -s URL | tee FILE | sha256sum`` then ``sync FILE`` (fsync of that file): the same
  guarantees from the usual shell tools;
- ``dd if=SOURCE of=FILE bs=1M conv=fsync``: the same bytes copied from the page cache (the
  served file) to the same folder and fsynced: what the disk takes through the page cache, the
  reference of the target (webgrip ≥ 0.8× this);
- ``dd ... bs=4M oflag=direct conv=fsync``: the same with direct I/O, as webgrip writes its
  full chunks on Linux: the disk's own speed, without the page cache's copy and writeback;
- ``socket``: the same URL read over a plain socket in 1 MiB reads and the bytes dropped
  (nothing written, nothing hashed): what nginx and loopback TCP deliver on this machine.
  ``dd`` reads its bytes from the page cache, a download from a socket fed by another
  process on the same cores, so no download can beat the slower of ``socket`` and
  ``dd_direct``: ``webgrip ÷ ceiling`` is webgrip over that slower one, round by round.

Dirty pages are flushed (``sync``) and the previous round's files removed before each run, so
no run pays for another's writes. Rates are MiB/s; the ratios are of medians over the rounds of
this one run (best rounds shown too), so they compare across machines even though the absolute
rates do not. Files are written to ``--dir`` (default: the system temp folder, which should be
on the disk being measured, not a tmpfs).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _nginx
from _download import parse_size, run_webgrip

MIB = 1 << 20

#: What the file is served with: one large file, sent by ``sendfile``.
_HTTP = """\
    tcp_nopush on;
    types { application/octet-stream bin; }"""


class Nginx(_nginx.Nginx):
    """nginx serving one file, ``/big.bin``, from a temp folder."""

    def __init__(self, folder: Path, size: int):
        self.dir = folder
        www = folder / "www"
        www.mkdir()
        self.source = www / "big.bin"
        with open(self.source, "wb") as f:
            for _ in range(size // MIB):
                f.write(os.urandom(MIB))
            f.write(os.urandom(size % MIB))
        super().__init__(folder, _HTTP, connections=64)
        self.url = f"http://127.0.0.1:{self.port}/big.bin"


def _clear(folder: Path) -> None:
    """Remove the previous run's files and flush dirty pages to disk."""
    for leftover in folder.iterdir():
        leftover.unlink()
    os.sync()


def run_curl_tee(url: str, folder: Path) -> dict:
    target = folder / "curl.bin"
    t0 = time.perf_counter()
    piped = subprocess.run(
        f"curl -s {url} | tee {target} | sha256sum",
        shell=True,
        capture_output=True,
        text=True,
        check=True,
    )
    subprocess.run(["sync", str(target)], check=True)
    wall = time.perf_counter() - t0
    return {"wall": wall, "size": target.stat().st_size, "sha256": piped.stdout.split()[0]}


def run_dd(source: Path, folder: Path, *flags: str) -> dict:
    target = folder / "dd.bin"
    t0 = time.perf_counter()
    subprocess.run(
        ["dd", f"if={source}", f"of={target}", "conv=fsync", *flags],
        capture_output=True,
        check=True,
    )
    wall = time.perf_counter() - t0
    return {"wall": wall, "size": target.stat().st_size}


def run_socket(url: str) -> dict:
    """GET ``url`` over a plain socket and drop the body, read in 1 MiB reads."""
    host, _, rest = url.removeprefix("http://").partition("/")
    name, port = host.rsplit(":", 1)
    buf = bytearray(MIB)
    view = memoryview(buf)
    t0 = time.perf_counter()
    with socket.create_connection((name, int(port))) as sock:
        sock.sendall(f"GET /{rest} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            n = sock.recv_into(view)
            if n == 0:
                raise RuntimeError("the server closed before the head ended")
            head += bytes(view[:n])
        size = len(head) - head.index(b"\r\n\r\n") - 4
        while n := sock.recv_into(view):
            size += n
    return {"wall": time.perf_counter() - t0, "size": size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=parse_size, default=512 * MIB, help="default 512M")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--dir", type=Path, default=None, help="where files are written")
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        help="also run the webgrip package in this folder (e.g. an older build's copy)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        print("nginx is not installed (apt-get install nginx)")
        return 1
    base = Path(tempfile.mkdtemp(prefix="webgrip-dlbench-", dir=args.dir))
    served, out = base / "served", base / "out"
    served.mkdir()
    out.mkdir()
    nginx = Nginx(served, args.size)
    names = [
        "webgrip",
        *(["compared"] if args.compare else []),
        "curl_tee",
        "socket",
        "dd_direct",
        "dd",
    ]
    rates: dict[str, list[float]] = {name: [] for name in names}
    growth: dict[str, list[int]] = {"webgrip": [], "compared": []}
    cpu: dict[str, list[tuple[float, float]]] = {"webgrip": [], "compared": []}
    try:
        expected = run_curl_tee(nginx.url, out)["sha256"]  # warm-up and reference digest
        runs = {
            "webgrip": lambda: run_webgrip(nginx.url, out, args.size),
            "compared": lambda: run_webgrip(nginx.url, out, args.size, args.compare),
            "curl_tee": lambda: run_curl_tee(nginx.url, out),
            "socket": lambda: run_socket(nginx.url),
            "dd": lambda: run_dd(nginx.source, out, "bs=1M"),
            "dd_direct": lambda: run_dd(nginx.source, out, "bs=4M", "oflag=direct"),
        }
        print(f"{args.size / MIB:.0f} MiB from nginx on 127.0.0.1, files in {out}")
        if args.compare:
            print(f"compared: the webgrip in {args.compare}")
        print(
            f"\n| round | {' | '.join(names)} (MiB/s) | webgrip ÷ dd | webgrip ÷ ceiling "
            "| RSS growth |"
        )
        print("| ---: " * (len(names) + 4) + "|")
        for i in range(args.rounds):
            row = []
            for name in names:
                _clear(out)
                r = runs[name]()
                if name in growth:
                    if r["size"] != args.size or r["sha256"] != expected:
                        raise RuntimeError(f"{name} saved something else: {r}")
                    growth[name].append(r["rss_growth"])
                    cpu[name].append((r["user"], r["system"]))
                rates[name].append(r["size"] / MIB / r["wall"])
                row.append(f"{rates[name][-1]:.0f}")
            ratio = rates["webgrip"][-1] / rates["dd"][-1]
            ceiling = min(rates["socket"][-1], rates["dd_direct"][-1])
            print(
                f"| {i + 1} | {' | '.join(row)} | {ratio:.2f}× | "
                f"{rates['webgrip'][-1] / ceiling:.2f}× | {growth['webgrip'][-1] / MIB:.1f} MiB |",
                flush=True,
            )
        _clear(out)
    finally:
        nginx.stop()
        shutil.rmtree(base, ignore_errors=True)
    med = {name: statistics.median(r) for name, r in rates.items()}
    best = {name: max(r) for name, r in rates.items()}
    per_round = {
        name: statistics.median(a / b for a, b in zip(rates[name], rates["dd"], strict=True))
        for name in names
    }
    print("\nmedian MiB/s: " + ", ".join(f"{name} {med[name]:.0f}" for name in names))
    for name in names[:-1]:
        print(
            f"{name} ÷ dd + fsync: {med[name] / med['dd']:.2f}× (medians), "
            f"{per_round[name]:.2f}× (median of the rounds' ratios), "
            f"{best[name] / best['dd']:.2f}× (best rounds)"
        )
    ceilings = [min(a, b) for a, b in zip(rates["socket"], rates["dd_direct"], strict=True)]
    under = statistics.median(a / c for a, c in zip(rates["webgrip"], ceilings, strict=True))
    print(f"webgrip ÷ the slower of socket and dd_direct: {under:.2f}× (median of the rounds)")
    print(f"webgrip ÷ curl | tee | sha256sum + sync: {med['webgrip'] / med['curl_tee']:.2f}×")
    for name, seen in growth.items():
        if seen:
            print(f"{name} peak RSS growth: {max(seen) / MIB:.1f} MiB (max over rounds)")
    for name, spent in cpu.items():
        if spent:
            user = statistics.median(u for u, _ in spent)
            system = statistics.median(s for _, s in spent)
            total = statistics.median(u + s for u, s in spent)
            print(
                f"{name} CPU per download (median of the rounds): {total:.3f} s "
                f"(user {user:.3f} + system {system:.3f})"
            )
    if args.json:
        summary = {"size": args.size, "rates": rates, "median": med, "best": best}
        args.json.write_text(json.dumps({**summary, "rss_growth": growth, "cpu": cpu}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
