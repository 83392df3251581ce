"""``webgrip.batch_parquet``, kept as an import path: ``webgrip batch``'s Parquet, JSON-lines and
Markdown runs, now in :mod:`webgrip.bulk.parquet`. Its public names are re-exported here, so
``from webgrip.batch_parquet import ...`` works as before; code inside the package imports
:mod:`webgrip.bulk.parquet` itself.
"""

from __future__ import annotations

from .bulk.parquet import (
    FORMATS,
    INDEX_NAME,
    MAX_SLUG,
    PARQUET_SCHEMA,
    ROW_SCHEMA,
    ROWS_NAME,
    JsonlSink,
    MarkdownSink,
    ParquetSink,
    StoreUnavailableError,
    done_urls,
    folder_formats,
    markdown_name,
    read_lines,
    read_url_list,
    rows_table,
    run_batch,
)
from .bulk.rows import STORE_FAILED, STORE_SOCKET_TIMEOUT

__all__ = [
    "FORMATS",
    "INDEX_NAME",
    "MAX_SLUG",
    "PARQUET_SCHEMA",
    "ROWS_NAME",
    "ROW_SCHEMA",
    "STORE_FAILED",
    "STORE_SOCKET_TIMEOUT",
    "JsonlSink",
    "MarkdownSink",
    "ParquetSink",
    "StoreUnavailableError",
    "done_urls",
    "folder_formats",
    "markdown_name",
    "read_lines",
    "read_url_list",
    "rows_table",
    "run_batch",
]
