"""fetch_dataset's default pool on a real two-node Ray cluster (``ray.cluster_utils.Cluster``:
two raylets on this machine, each its own node): every node fetches.

Issue 36, finding 14: on a two-node cluster ``webgrip batch --ray ADDRESS`` fetched every URL
on the head, because the default pool started one actor and a polite crawl never made it
grow. Which node sent a request is read from the operating system: the site records the
process behind each connection (a Ray worker), and a worker is a child of its node's raylet.

Skips with a reason when the ``ray`` extra is missing; ``.ci/run`` installs it.
"""

from __future__ import annotations

import collections
import contextlib
import os

import pytest

MISSING = "the ray extra is not installed: pip install 'webgrip[ray]'"
ray = pytest.importorskip("ray", reason=MISSING)
pytest.importorskip("ray.data", reason=MISSING)
pytest.importorskip("pyarrow", reason=MISSING)
cluster_utils = pytest.importorskip("ray.cluster_utils", reason=MISSING)

from helpers.loopback import loopback_config  # noqa: E402
from helpers.ray_sites import SiteProcess  # noqa: E402
from webgrip.bulk.ray import default_pool_size, fetch_dataset  # noqa: E402

pytestmark = pytest.mark.ray

ADDRESS = "127.0.0.2"


@pytest.fixture(scope="module")
def two_nodes():
    # Two CPUs a node: room for an actor (a quarter CPU) beside Ray Data's own tasks.
    cluster = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 2, "include_dashboard": False},
    )
    try:
        cluster.add_node(num_cpus=2)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
        # Every actor of the pool up before the first batch goes out (a loaded machine
        # would otherwise let the first actor take every batch).
        ray.data.DataContext.get_current().wait_for_min_actors_s = 120
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def raylet_of(pid: int) -> int | None:
    """The raylet (node) a worker process belongs to: its nearest ancestor named raylet."""
    while pid > 1:
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"raylet" in f.read().split(b"\0")[0]:
                    return pid
            with open(f"/proc/{pid}/status") as f:
                pid = next(int(line.split()[1]) for line in f if line.startswith("PPid:"))
            continue
        return None
    return None


def test_the_default_pool_puts_an_actor_on_every_node(two_nodes, tmp_path):
    assert default_pool_size() == 2
    site = SiteProcess((ADDRESS,), tmp_path)
    try:
        urls = [site.url(ADDRESS, f"/p{n}") for n in range(48)]
        ds = ray.data.from_items([{"url": u} for u in urls])
        config = loopback_config(rate_limit_seconds=0.0, timeout=20.0)
        rows = fetch_dataset(ds, config=config, batch_size=4).take_all()
        assert collections.Counter(r["url"] for r in rows) == collections.Counter(urls)
        assert all(r["status"] == 200 and r["error"] is None for r in rows)

        senders = {pid for _, _, _, pid, _ in site.arrivals()}
        assert None not in senders and os.getpid() not in senders
        nodes = {raylet_of(pid) for pid in senders}
        assert None not in nodes
        # Both nodes fetched: the pool put an actor on each.
        assert len(nodes) == 2, (senders, nodes)
    finally:
        site.close()
