"""When to retry a 429/503 answer, and how long to wait first.

``Retry-After`` is honoured in both forms (delay in seconds, or an HTTP date); without it the
wait grows exponentially (0.5 s, 1 s, 2 s, … capped at 8 s). The caller never waits past its
total deadline: if the wait would overrun it, it gives up at once with the answer it has.

The header is the server's to write, so it is read with caps: a delay longer than
:data:`MAX_RETRY_AFTER` (however many digits it has) counts as that maximum, and anything that
is neither a plain number nor an HTTP date is ignored, never an exception.
"""

from __future__ import annotations

import time

__all__ = [
    "MAX_RETRY_AFTER",
    "RETRY_STATUSES",
    "backoff_delay",
    "parse_retry_after",
    "retry_wait",
]

#: Statuses worth retrying: rate limited, temporarily unavailable.
RETRY_STATUSES = frozenset({429, 503})
BASE_DELAY = 0.5
MAX_BACKOFF = 8.0
#: The longest ``Retry-After`` honoured, in seconds (an hour): longer asks count as this much,
#: which outlasts any call's deadline, so the call stops at once with the answer it has.
MAX_RETRY_AFTER = 3600.0
#: More digits than this is a delay past any cap: it is not converted (Python refuses to turn
#: more than 4,300 digits into an ``int``, and converting is quadratic well before that).
_MAX_DELAY_DIGITS = 12
#: An HTTP date is 29 characters (``Sun, 06 Nov 1994 08:49:37 GMT``); the obsolete forms it may
#: take are a little longer. Anything far longer is not a date.
_MAX_DATE_CHARS = 64


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait according to a ``Retry-After`` value, or ``None`` if absent/invalid.

    ``now`` is the current Unix time (for HTTP dates); a date in the past gives ``0``; a delay
    or a date further off than :data:`MAX_RETRY_AFTER` gives :data:`MAX_RETRY_AFTER`. Never
    raises, whatever the value.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    if value.isascii() and value.isdigit():  # delta-seconds: ASCII digits only ("²" is not)
        if len(value.lstrip("0")) > _MAX_DELAY_DIGITS:
            return MAX_RETRY_AFTER
        return min(float(int(value)), MAX_RETRY_AFTER)
    if len(value) > _MAX_DATE_CHARS:
        return None
    from email.utils import parsedate_to_datetime  # only for the HTTP-date form (~5 ms import)

    try:
        when = parsedate_to_datetime(value)
        if when is None or when.tzinfo is None:
            return None
        stamp = when.timestamp()
    except (TypeError, ValueError, IndexError, OverflowError, OSError):
        return None
    current = time.time() if now is None else now
    return min(max(0.0, stamp - current), MAX_RETRY_AFTER)


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
