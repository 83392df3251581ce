"""``webgrip.ray``, kept as an import path: fetching a column of URLs on a Ray cluster
(``webgrip[ray]``), now in :mod:`webgrip.bulk.ray`. Its public names are re-exported here, so
``from webgrip.ray import ...`` works as before; code inside the package imports
:mod:`webgrip.bulk.ray` itself.
"""

from __future__ import annotations

from .bulk.ray import (
    DEFAULT_ACTOR_CPUS,
    default_pool_size,
    fetch_dataset,
)

__all__ = [
    "DEFAULT_ACTOR_CPUS",
    "default_pool_size",
    "fetch_dataset",
]
