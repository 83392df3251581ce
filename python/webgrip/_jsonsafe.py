"""``json.loads`` for text from a model or a web server: every failure is a ``ValueError``.

The standard parser also raises ``RecursionError`` for deep nesting (``[[[[…`` a thousand
levels down) and a bare ``ValueError`` for an integer longer than
``sys.get_int_max_str_digits()`` (4,300 digits). Either, from hostile input, would escape
handlers that only expect ``JSONDecodeError`` and crash the caller.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JSONError", "loads"]


class JSONError(ValueError):
    """Text that is not JSON we accept; ``msg`` is a short reason fit for a model."""

    def __init__(self, msg: str):
        super().__init__(msg)
        self.msg = msg


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``, raising only :class:`JSONError` (a ``ValueError``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONError(exc.msg) from None
    except RecursionError:
        raise JSONError("it is nested too deeply") from None
    except UnicodeDecodeError:
        raise JSONError("it is not UTF-8 text") from None
    except ValueError:  # an integer over the int-to-str digit limit
        raise JSONError("it holds a number with too many digits") from None
