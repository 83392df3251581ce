"""A PDF read in a child interpreter, so that a crash fails the test instead of ending the
run: the child reports what it read, its time and the CPU the read spent, the growth of its
peak memory and the CPU its threads kept spending in the second after the call returned (a
worker left spinning spends the whole second). Used by tests/security/test_hostile_pdfs.py and
test_encrypted_pdfs.py.

What a read may cost is bounded in CPU seconds (:data:`CPU_BUDGET`), which a loaded machine
does not stretch, and the read's deadline (:data:`DEADLINE`) is far above it: on a shared
2-core machine at a load average of 15 a read gets a few tenths of a core, so a deadline near
the budget would end reads that are bounded. A read that hangs still ends at the deadline, as
a timeout error that no test accepts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["CPU_BUDGET", "DEADLINE", "FIXTURES", "HOSTILE", "read_in_child"]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pdf"
HOSTILE = sorted(p.name for p in FIXTURES.glob("hostile-*.pdf"))

#: Most CPU seconds a read may spend (the slowest fixture, hostile-shared-content-varied.pdf,
#: spends about 0.6 s of CPU, and took 6.1 s of wall time at a load average of 11).
CPU_BUDGET = 10.0
#: The read's deadline: six times the budget, so it ends only a read that hangs.
DEADLINE = 60.0

CHILD = r"""
import json, sys, time, webgrip
# VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec (a big parent's size).
def peak_kib():
    return int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])
data = open(sys.argv[1], "rb").read()
before = peak_kib()
start = time.monotonic()
cpu_start = time.process_time()
pages_read = None
try:
    doc = webgrip._core.extract_pdf(data, timeout=float(sys.argv[2]))
    text, pages_read, outcome = doc["content"], doc["pages_read"], "read"
except webgrip.WebgripError as exc:
    text, outcome = str(exc), type(exc).__name__
elapsed = time.monotonic() - start
cpu = time.process_time()
read_cpu = cpu - cpu_start
time.sleep(1.0)
after_cpu = time.process_time() - cpu
print(json.dumps({"outcome": outcome, "text": text[:300], "tail": text[-300:],
                  "pages_read": pages_read, "elapsed": elapsed, "cpu": read_cpu,
                  "cpu_after": after_cpu,
                  "growth_mib": (peak_kib() - before)
                  / 1024}))
"""


def _child_env() -> dict[str, str]:
    import webgrip

    parent = str(Path(webgrip.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=parent + (os.pathsep + path if path else ""))


def read_in_child(path: Path, timeout: float = DEADLINE) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(timeout)],
        capture_output=True,
        timeout=timeout + 60,
        env=_child_env(),
        check=False,
    )
    assert result.returncode == 0, (
        f"the reader died (exit {result.returncode}): {result.stderr[-1500:]!r}"
    )
    return json.loads(result.stdout)
