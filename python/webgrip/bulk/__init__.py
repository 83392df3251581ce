"""The bulk path: many URLs fetched by a thread pool, a folder or a Ray cluster.

- :mod:`.pool`: the thread pool every engine runs (``fetch_many``, ``fetch_each``) and the
  row a URL becomes (``result_row``); needs nothing beyond the package.
- :mod:`.politeness`: one per-host budget shared through Redis by every process.
- :mod:`.rows`: the Arrow schema of a row, shared by the two engines below (pyarrow).
- :mod:`.sinks`: a folder of Parquet, JSON-lines or Markdown files that rows are written to
  and a run resumes from (pyarrow for Parquet); ``webgrip crawl`` writes through them too.
- :mod:`.batch_run`: ``webgrip batch``, a file of URLs fetched into such a folder, here or on
  Ray.
- :mod:`.ray`: a column of URLs fetched on a Ray cluster (``webgrip[ray]``).

This ``__init__`` imports none of them: ``webgrip.bulk.pool`` loads neither pyarrow nor Ray.
"""
