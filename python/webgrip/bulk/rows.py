"""The rows of a bulk run, shared by its two engines: the Arrow schema of a fetched URL's row
(:data:`ROW_SCHEMA`, and :data:`PARQUET_SCHEMA` for a ``webgrip batch`` output file) and the
politeness-store failure that no row may record. :mod:`webgrip.bulk.batch_run` (this process)
and :mod:`webgrip.bulk.ray` (a Ray cluster) both import it, and neither imports the other at
module level. The schemas need pyarrow (``webgrip[ray]``) and are built on first use, so the
JSON-lines and Markdown outputs of ``webgrip batch`` and ``webgrip crawl`` work without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

    # Made on first use by the module's __getattr__ (below).
    ROW_SCHEMA: pa.Schema
    PARQUET_SCHEMA: pa.Schema

__all__ = ["PARQUET_SCHEMA", "ROW_SCHEMA", "STORE_FAILED", "STORE_SOCKET_TIMEOUT"]

#: The ``error_kind`` of a URL not fetched because the shared politeness store did not answer:
#: such a row is not an outcome of the URL, so it is never written (the next run fetches it).
STORE_FAILED = "politeness-store"
#: The longest a call to the politeness store may take: the call's own ``config.timeout``
#: when that is shorter (the store's wait counts against the deadline like the rate limit).
STORE_SOCKET_TIMEOUT = 5.0


def _schemas() -> tuple[pa.Schema, pa.Schema]:
    """:data:`ROW_SCHEMA` and :data:`PARQUET_SCHEMA`, made once (pyarrow imported here)."""
    import pyarrow as pa

    #: The Arrow types of the columns a fetched URL gains (fixed, so that an all-failed batch
    #: has them too and every file of a folder has one schema).
    row = pa.schema(
        [
            ("final_url", pa.string()),
            ("status", pa.int32()),
            ("title", pa.string()),
            ("content", pa.large_string()),
            ("content_type", pa.string()),
            ("extract", pa.string()),
            ("render_reason", pa.string()),
            ("error_kind", pa.string()),
            ("error", pa.string()),
        ]
    )
    # A ``webgrip batch`` output file: the URL as listed, then ROW_SCHEMA.
    whole = pa.schema([pa.field("url", pa.string()), *row])
    globals().update(ROW_SCHEMA=row, PARQUET_SCHEMA=whole)
    return row, whole


def __getattr__(name: str) -> Any:
    """``ROW_SCHEMA`` (the Arrow types of a fetched URL's columns) and ``PARQUET_SCHEMA`` (a
    ``webgrip batch`` output file: the URL as listed, then those columns), made on first
    use."""
    if name in ("ROW_SCHEMA", "PARQUET_SCHEMA"):
        row, whole = _schemas()
        return row if name == "ROW_SCHEMA" else whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
