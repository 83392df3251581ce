"""Progress on stderr: a download's bar (bytes, rate, ETA) and a batch's URL counts.

On a terminal both redraw one line in place; :class:`BatchProgress` writes a plain line every
few seconds (or every so many URLs) when stderr is a file or a pipe instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["BatchProgress", "CrawlProgress", "ProgressBar", "format_bytes", "format_duration"]


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

    def __init__(
        self,
        stream: TextIO,
        *,
        label: str = "",
        interval: float = 0.1,
        width: int = 24,
        clock: Callable[[], float] = time.monotonic,
    ):
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


class BatchProgress:
    """The URLs of a batch: done (failed among them), waiting for a host, rate and ETA.

    Call :meth:`update` as often as convenient (each finished URL, each poll): on a terminal
    (``tty``) it redraws one line at most every ``interval`` seconds; otherwise it writes a
    line once ``every_seconds`` have passed or ``every_urls`` more URLs are done since the
    last one. :meth:`finish` writes the final state and ends the line.
    """

    def __init__(
        self,
        stream: TextIO,
        total: int,
        *,
        tty: bool,
        interval: float = 0.1,
        every_seconds: float = 5.0,
        every_urls: int = 500,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.stream = stream
        self.total = total
        self.tty = tty
        self.interval = interval
        self.every_seconds = every_seconds
        self.every_urls = every_urls
        self._clock = clock
        self._start = clock()
        self._last_time = self._start
        self._last_done = 0
        self._drawn = False
        self._last_counts: tuple[int, int, int] | None = None  # of the last line written
        self.done = 0
        self.failed = 0
        self.waiting = 0
        self._lock = threading.Lock()

    def render(self, now: float | None = None) -> str:
        """The line's text (no carriage return)."""
        now = self._clock() if now is None else now
        elapsed = max(now - self._start, 1e-9)
        parts = [f"{self.done}/{self.total} done", f"{self.failed} failed"]
        if self.waiting:
            parts.append(f"{self.waiting} waiting for a host")
        rate = self.done / elapsed
        parts.append(f"{rate:.1f} URLs/s")
        if rate > 0 and self.done < self.total:
            parts.append(f"ETA {format_duration((self.total - self.done) / rate)}")
        return "webgrip: " + ", ".join(parts)

    def add_waiting(self, delta: int) -> None:
        """A URL starts (+1) or stops (-1) waiting for its host; from any thread, draws
        nothing (the next :meth:`update` shows it)."""
        with self._lock:
            self.waiting += delta

    def update(self, *, done: int = 0, failed: int = 0) -> None:
        """Add ``done`` finished URLs, ``failed`` of them errors, and draw if it is time
        (call from one thread)."""
        self.done += done
        self.failed += failed
        now = self._clock()
        if self.tty:
            if now - self._last_time >= self.interval:
                self._draw(now)
        elif (
            now - self._last_time >= self.every_seconds
            or self.done - self._last_done >= self.every_urls
        ):
            self._draw(now)

    def _draw(self, now: float) -> None:
        self._last_time = now
        self._last_done = self.done
        self._last_counts = (self.done, self.failed, self.waiting)
        if self.tty:
            self.stream.write("\r" + self.render(now) + "\x1b[K")
        else:
            self.stream.write(self.render(now) + "\n")
        self.stream.flush()
        self._drawn = True

    def finish(self, note: str = "") -> None:
        """Write the final state (with ``note`` appended) and end the line. Off a terminal,
        a last line already showing these counts is not written again."""
        line = self.render() + note
        if self.tty:
            self.stream.write("\r" + line + "\x1b[K\n")
        elif note or self._last_counts != (self.done, self.failed, self.waiting):
            self.stream.write(line + "\n")
        self.stream.flush()


class CrawlProgress(BatchProgress):
    """A crawl's pages: done (failed among them) out of its cap, URLs still queued, rate."""

    queued = 0

    def render(self, now: float | None = None) -> str:
        now = self._clock() if now is None else now
        elapsed = max(now - self._start, 1e-9)
        parts = [
            f"{self.done} pages (cap {self.total})",
            f"{self.failed} failed",
            f"{self.queued} queued",
        ]
        if self.waiting:
            parts.append(f"{self.waiting} waiting for a host")
        parts.append(f"{self.done / elapsed:.1f} pages/s")
        return "webgrip: " + ", ".join(parts)
