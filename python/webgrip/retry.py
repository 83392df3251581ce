"""When to retry a 429/503 answer, and how long to wait first.

``Retry-After`` is honoured in both forms (delay in seconds, or an HTTP date); without it the
wait grows exponentially (0.5 s, 1 s, 2 s, … capped at 8 s). The caller never waits past its
total deadline: if the wait would overrun it, it gives up at once with the answer it has.
"""

from __future__ import annotations

import time

__all__ = ["RETRY_STATUSES", "backoff_delay", "parse_retry_after", "retry_wait"]

#: Statuses worth retrying: rate limited, temporarily unavailable.
RETRY_STATUSES = frozenset({429, 503})
BASE_DELAY = 0.5
MAX_BACKOFF = 8.0


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait according to a ``Retry-After`` value, or ``None`` if absent/invalid.

    ``now`` is the current Unix time (for HTTP dates); a date in the past gives ``0``.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(int(value))
    from email.utils import parsedate_to_datetime  # only for the HTTP-date form (~5 ms import)

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def backoff_delay(attempt: int) -> float:
    """The exponential wait before retry number ``attempt + 1`` (``attempt`` from 0)."""
    factor: int = 2 ** max(0, attempt)  # int ** int is Any to mypy (a negative power is a float)
    return min(MAX_BACKOFF, BASE_DELAY * factor)


def retry_wait(
    status: int, retry_after: str | None, attempt: int, max_retries: int, deadline: float
) -> float | None:
    """How long to sleep before retrying, or ``None`` to stop and report the answer.

    Stops when ``status`` is not retryable, ``attempt`` (retries done so far) reached
    ``max_retries``, or the wait would end after ``deadline`` (a :func:`time.monotonic` time).
    """
    if status not in RETRY_STATUSES or attempt >= max_retries:
        return None
    delay = parse_retry_after(retry_after)
    if delay is None:
        delay = backoff_delay(attempt)
    if time.monotonic() + delay >= deadline:
        return None
    return delay
