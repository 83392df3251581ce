"""The rows of a bulk run, shared by its two engines: the Arrow schema of a fetched URL's row
(:data:`ROW_SCHEMA`, and :data:`PARQUET_SCHEMA` for a ``webgrip batch`` output file) and the
politeness-store failure that no row may record. :mod:`webgrip.bulk.parquet` (this process)
and :mod:`webgrip.bulk.ray` (a Ray cluster) both import it, and neither imports the other at
module level. Requires pyarrow (``webgrip[ray]``).
"""

from __future__ import annotations

import pyarrow as pa

__all__ = ["PARQUET_SCHEMA", "ROW_SCHEMA", "STORE_FAILED", "STORE_SOCKET_TIMEOUT"]

#: The Arrow types of the columns a fetched URL gains (fixed, so that an all-failed batch
#: has them too and every file of a folder has one schema).
ROW_SCHEMA = pa.schema(
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
#: A ``webgrip batch`` output file: the URL as listed, then :data:`ROW_SCHEMA`.
PARQUET_SCHEMA = pa.schema([pa.field("url", pa.string()), *ROW_SCHEMA])

#: The ``error_kind`` of a URL not fetched because the shared politeness store did not answer:
#: such a row is not an outcome of the URL, so it is never written (the next run fetches it).
STORE_FAILED = "politeness-store"
#: The longest a call to the politeness store may take: the call's own ``config.timeout``
#: when that is shorter (the store's wait counts against the deadline like the rate limit).
STORE_SOCKET_TIMEOUT = 5.0
