"""The bulk path: many URLs fetched by a thread pool, a folder or a Ray cluster.

- :mod:`.batch`: the thread pool every engine runs (``fetch_many``, ``fetch_each``) and the
  row a URL becomes (``result_row``); needs nothing beyond the package.
- :mod:`.politeness`: one per-host budget shared through Redis by every process.
- :mod:`.rows`: the Arrow schema of a row, shared by the two engines below (pyarrow).
- :mod:`.parquet`: ``webgrip batch``, a file of URLs into a folder of Parquet, JSON-lines or
  Markdown files, resumably (pyarrow).
- :mod:`.ray`: a column of URLs fetched on a Ray cluster (``webgrip[ray]``).

This ``__init__`` imports none of them: ``webgrip.bulk.batch`` loads neither pyarrow nor Ray.
The modules keep their old import paths too (``webgrip.batch``, ``webgrip.batch_parquet``,
``webgrip.ray``, ``webgrip.politeness``), which re-export their public names.
"""
