"""A webgrip download measured in a fresh process (``e2e.py``, ``download_speed.py``): its peak
RSS growth is then its own and its import not timed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from _rss import STATUS_SOURCE

#: The child's script: ``python -c _CHILD URL FOLDER SIZE``.
_CHILD = (
    STATUS_SOURCE
    + r"""
import json, resource, sys, time
url, folder, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
from webgrip import Config
from webgrip.client import WebClient
client = WebClient(Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0,
                          download_dirs=(folder,), max_download_bytes=size + 1, timeout=3600))
with open("/proc/self/clear_refs", "w") as f:  # VmHWM := VmRSS from here on
    f.write("5")
before = status("VmRSS:")
def cpu():  # user and system time of the whole process, every thread
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime
u0, s0 = cpu()
t0 = time.perf_counter()
result = client.download(url, save_to=folder)
wall = time.perf_counter() - t0
u1, s1 = cpu()
print(json.dumps({"wall": wall, "size": result.size, "sha256": result.sha256,
                  "path": str(result.path), "rss_growth": status("VmHWM:") - before,
                  "user": u1 - u0, "system": s1 - s0}))
"""
)


def run_webgrip(url: str, folder: Path | str, size: int, package_dir: Path | None = None) -> Any:
    """Save ``url`` (``size`` bytes expected) into ``folder`` with ``WebClient.download`` in a
    child process: the webgrip this interpreter imports, or the one in ``package_dir`` (the
    folder holding a ``webgrip`` package, e.g. an older build's copy). Returns the call's wall
    time, the file's ``size``, ``sha256`` and ``path``, and ``rss_growth``: the child's peak
    RSS growth during the call (``VmHWM`` reset through ``/proc/self/clear_refs`` just before
    it, so the import's peak is not counted), and the call's ``user`` and ``system`` CPU
    seconds (all the child's threads)."""
    env = dict(os.environ)
    if package_dir is not None:
        env["PYTHONPATH"] = str(package_dir)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, url, str(folder), str(size)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return json.loads(out.stdout)


def parse_size(text: str) -> int:
    """A size argument in bytes: ``512M``, ``1G``, ``1.5GiB``, ``4096``."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().removesuffix("IB").removesuffix("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)
