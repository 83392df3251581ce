"""``webgrip.batch``, kept as an import path: the thread-pool batch fetcher, now in
:mod:`webgrip.bulk.batch`. Its public names are re-exported here, so ``from webgrip.batch import
...`` works as before; code inside the package imports :mod:`webgrip.bulk.batch` itself.
"""

from __future__ import annotations

from .bulk.batch import (
    MAX_HOST_WAIT_SECONDS,
    ROW_COLUMNS,
    PageFetcher,
    fetch_each,
    fetch_many,
    fetch_rows,
    result_row,
)

__all__ = [
    "MAX_HOST_WAIT_SECONDS",
    "ROW_COLUMNS",
    "PageFetcher",
    "fetch_each",
    "fetch_many",
    "fetch_rows",
    "result_row",
]
