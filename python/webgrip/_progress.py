"""A one-line terminal progress bar for downloads: bytes, rate and ETA, redrawn in place."""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["ProgressBar", "format_bytes", "format_duration"]


def format_bytes(n: float) -> str:
    """``1536`` -> ``1.5 KiB``."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"  # pragma: no cover - loop always returns


def format_duration(seconds: float) -> str:
    """``75`` -> ``1:15``; ``3700`` -> ``1:01:40``."""
    seconds = max(0, round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressBar:
    """Callable as ``progress(done, total)``; draws at most every ``interval`` seconds.

    ``total`` may be ``None`` (no Content-Length): the bar then shows bytes and rate only.
    """

    def __init__(self, stream: TextIO, *, label: str = "", interval: float = 0.1,
                 width: int = 24, clock=time.monotonic):
        self.stream = stream
        self.label = label
        self.interval = interval
        self.width = width
        self._clock = clock
        self._start = clock()
        self._last_draw = float("-inf")
        self._drawn = False
        self._last: tuple[int, int | None] = (0, None)

    def __call__(self, done: int, total: int | None) -> None:
        self._last = (done, total)
        now = self._clock()
        if now - self._last_draw >= self.interval:
            self._last_draw = now
            self._draw(done, total, now)

    def render(self, done: int, total: int | None, now: float | None = None) -> str:
        """The bar's text for ``done`` of ``total`` bytes (no carriage return)."""
        now = self._clock() if now is None else now
        elapsed = max(now - self._start, 1e-9)
        rate = done / elapsed
        parts = [self.label] if self.label else []
        if total:
            frac = min(1.0, done / total)
            filled = int(frac * self.width)
            parts.append("[" + "#" * filled + "-" * (self.width - filled) + "]")
            parts.append(f"{frac * 100:3.0f}%")
            parts.append(f"{format_bytes(done)}/{format_bytes(total)}")
        else:
            parts.append(format_bytes(done))
        parts.append(f"{format_bytes(rate)}/s")
        if total and rate > 0 and done < total:
            parts.append(f"ETA {format_duration((total - done) / rate)}")
        return " ".join(parts)

    def _draw(self, done: int, total: int | None, now: float) -> None:
        self.stream.write("\r" + self.render(done, total, now) + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def finish(self) -> None:
        """Draw the final state and end the line (nothing if the bar never drew)."""
        if self._drawn:
            self._draw(*self._last, self._clock())
            self.stream.write("\n")
            self.stream.flush()
