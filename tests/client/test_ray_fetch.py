"""fetch_dataset and ``webgrip batch --ray`` on a real local Ray runtime (2 CPUs) with a real
redis-server, against sites on several loopback addresses that record each request.

Skips with a reason when the ``ray`` extra (ray, redis, pyarrow) or ``redis-server`` is
missing; ``.ci/run`` installs both, so CI runs these.
"""

from __future__ import annotations

import collections
import os
import shutil
import signal
import threading
from urllib.parse import urlsplit

import pytest

MISSING = "the ray extra is not installed: pip install 'webgrip[ray]'"
ray = pytest.importorskip("ray", reason=MISSING)
pytest.importorskip("ray.data", reason=MISSING)
pytest.importorskip("redis", reason=MISSING)
pq = pytest.importorskip("pyarrow.parquet", reason=MISSING)
if shutil.which("redis-server") is None:
    pytest.skip("redis-server is not installed (apt-get install redis-server)",
                allow_module_level=True)

from loopback import loopback_config  # noqa: E402
from ray_support import Site, budget_violations, pid_of_peer, redis_server  # noqa: E402
from webgrip.batch_parquet import run_batch  # noqa: E402
from webgrip.ray import fetch_dataset  # noqa: E402

pytestmark = pytest.mark.ray

INTERVAL = 0.25
ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    # Both actors up before the first batch goes out, so that on a loaded machine a slow
    # second actor cannot leave every batch to the first (the tests check both fetch).
    ray.data.DataContext.get_current().wait_for_min_actors_s = 120
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


class Sites:
    """Sites on every address; each arrival also records the process that sent it."""

    def __init__(self, kill_on: str | None = None):
        self.senders: dict[str, set[int]] = collections.defaultdict(set)
        self.killed: list[int] = []
        self._lock = threading.Lock()
        self._kill_on = kill_on
        self.sites = [Site(a, on_request=self._seen) for a in ADDRESSES]

    def _seen(self, path: str, peer_port: int) -> int | None:
        pid = pid_of_peer(peer_port)
        with self._lock:
            if pid is not None:
                self.senders[path.split("/")[1]].add(pid)
            victim = path == self._kill_on and not self.killed
            if victim:
                assert pid is not None and pid != os.getpid()
                self.killed.append(pid)
        if victim:  # the worker fetching this page dies before it gets an answer
            os.kill(pid, signal.SIGKILL)
            return 503
        return None

    def urls(self, per_site: int) -> list[str]:
        # Interleaved, so that every batch (and so every actor) has URLs of every site.
        return [s.url(f"/{s.address}/p{n}") for n in range(per_site) for s in self.sites]

    def close(self) -> None:
        for s in self.sites:
            s.close()


@pytest.fixture
def sites():
    made = Sites()
    yield made
    made.close()


def _config(**changes):
    return loopback_config(rate_limit_seconds=INTERVAL, timeout=20.0, **changes)


def test_rows_for_every_url_refusals_as_errors_one_budget_per_host(local_ray, redis_url,
                                                                    sites):
    urls = sites.urls(per_site=8)
    refused = ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/",
               "ftp://127.0.0.2/x", None]
    ds = ray.data.from_items([{"url": u, "n": i} for i, u in enumerate(urls + refused)])
    out = fetch_dataset(ds, config=_config(), politeness=redis_url, concurrency=2,
                        batch_size=4)
    rows = out.take_all()

    by_url = collections.Counter(r["url"] for r in rows)
    assert by_url == collections.Counter(urls + refused)  # every URL once
    got = {r["url"]: r for r in rows}
    for url in urls:
        row = got[url]
        assert (row["status"], row["error"], row["error_kind"]) == (200, None, None)
        assert row["final_url"] == url
        assert row["title"] == f"page {urlsplit(url).path}"
        assert row["content_type"] == "text/html" and "distributed fetch" in row["content"]
        assert row["n"] == urls.index(url)  # the input's other columns are kept
    kinds = {u: got[u]["error_kind"] for u in refused}
    assert kinds == {"http://10.0.0.1/": "private-address",
                     "http://169.254.169.254/latest/meta-data/": "link-local-address",
                     "ftp://127.0.0.2/x": "scheme", None: "empty"}
    assert all(got[u]["content"] is None and got[u]["error"] for u in refused)

    for site in sites.sites:
        times = site.times()
        assert len(times) == 8
        assert budget_violations(times, INTERVAL) == [], site.address
        # Both actors fetched from this host: the budget held across workers.
        assert len(sites.senders[site.address]) == 2


def test_a_worker_killed_mid_run_loses_no_url_and_duplicates_none(local_ray, redis_url):
    victim = f"/{ADDRESSES[1]}/p3"
    killing = Sites(kill_on=victim)
    try:
        urls = killing.urls(per_site=6)
        ds = ray.data.from_items([{"url": u} for u in urls])
        rows = fetch_dataset(ds, config=_config(max_retries=0), politeness=redis_url,
                             concurrency=2, batch_size=3).take_all()
        assert len(killing.killed) == 1  # one actor process really died mid-batch
        assert collections.Counter(r["url"] for r in rows) == collections.Counter(urls)
        assert all(r["status"] == 200 and r["error"] is None for r in rows)
        # At least once: the killed batch ran again on the restarted actor.
        assert killing.sites[1].paths().count(victim) == 2
    finally:
        killing.close()


def test_batch_command_resumes_a_folder_on_ray(local_ray, redis_url, sites, tmp_path):
    urls = sites.urls(per_site=4)
    listed = tmp_path / "urls.txt"
    out = tmp_path / "out"
    # A first run (in this process) got through part of the list...
    listed.write_text("\n".join(urls[:5]) + "\n")
    first = run_batch(listed, out, config=_config())
    assert first == {"listed": 5, "skipped": 0, "fetched": 5, "failed": 0}
    # ...the same command on Ray with the whole list fetches only the rest.
    listed.write_text("# the list\n" + "\n".join([*urls, "http://10.0.0.1/", urls[0]]) + "\n")
    second = run_batch(listed, out, config=_config(), ray_address="auto",
                       redis_url=redis_url, concurrency=2)
    assert second == {"listed": 13, "skipped": 5, "fetched": 8, "failed": 1}
    table = pq.read_table(out)
    assert sorted(table.column("url").to_pylist()) == sorted([*urls, "http://10.0.0.1/"])
    for site in sites.sites:
        paths = site.paths()
        assert len(paths) == len(set(paths)) == 4  # each page fetched once over both runs
