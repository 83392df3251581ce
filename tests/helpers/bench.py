"""The opt-in benchmarks' machinery (``tests/bench``): deselected unless ``-m benchmark``.

A default ``python -m pytest`` deselects them (they time things, which a normal test run
should not spend its time on); ``python -m pytest -m benchmark tests/bench`` runs them and
prints a table of medians at the end of the run. ``tests/conftest.py`` wires the hooks and
the ``bench`` fixture to this module.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest

_RESULTS: list[tuple[str, int, float, float]] = []


def deselect_unless_asked(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "benchmark" in (config.getoption("markexpr") or ""):
        return  # asked for: the -m expression decides
    chosen, skipped = [], []
    for item in items:
        (skipped if item.get_closest_marker("benchmark") else chosen).append(item)
    if skipped:
        config.hook.pytest_deselected(items=skipped)
        items[:] = chosen


class Bench:
    """Times ``fn`` over ``rounds`` calls (after one warm-up) and records the median."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, fn: Callable[[], object], *, rounds: int = 50, label: str = "") -> object:
        result = fn()  # warm-up; its result is what the test checks
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        name = f"{self.name} {label}".strip()
        _RESULTS.append((name, rounds, statistics.median(times), min(times)))
        return result


def terminal_summary(terminalreporter) -> None:
    if not _RESULTS:
        return
    terminalreporter.section("benchmarks (median and best of the timed rounds)")
    for name, rounds, median, best in _RESULTS:
        terminalreporter.write_line(
            f"{name:<56} {rounds:5d} rounds  median {median * 1e3:9.3f} ms  "
            f"best {best * 1e3:9.3f} ms"
        )
