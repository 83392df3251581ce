"""The shared per-host budget (webgrip.politeness) against a real redis-server on loopback.

Several ``WebClient``s, each with its own ``RedisHostLimiter`` (as separate workers would
have), fetch from sites on 127.0.0.2 and 127.0.0.3; the sites record when each request
arrived. Skips with a reason without the ``ray`` extra's redis client or without
``redis-server`` (Debian package); ``.ci/run`` installs both.
"""

from __future__ import annotations

import pickle
import shutil
import threading

import pytest

pytest.importorskip("redis", reason="the ray extra is not installed: pip install 'webgrip[ray]'")
if shutil.which("redis-server") is None:
    pytest.skip("redis-server is not installed (apt-get install redis-server)",
                allow_module_level=True)

from loopback import loopback_config
from ray_support import Site, budget_violations, free_port, redis_server
from webgrip import WebClient, WebgripError
from webgrip.politeness import RedisHostLimiter

pytestmark = pytest.mark.ray

INTERVAL = 0.2


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def sites():
    made = [Site("127.0.0.2"), Site("127.0.0.3")]
    yield made
    for s in made:
        s.close()


def _hammer(clients: list[WebClient], sites: list[Site], per_client: int) -> None:
    """Every client fetches ``per_client`` pages from every site, all clients at once."""
    start = threading.Barrier(len(clients))
    failures: list[BaseException] = []

    def run(i: int, client: WebClient) -> None:
        start.wait()
        urls = [s.url(f"/c{i}/p{n}") for n in range(per_client) for s in sites]
        for result in client.fetch_many(urls, concurrency=4):
            if isinstance(result, BaseException):
                failures.append(result)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_workers_sharing_redis_keep_one_budget_per_host(redis_url, sites):
    config = loopback_config(rate_limit_seconds=INTERVAL)
    clients = [WebClient(config, limiter=RedisHostLimiter(redis_url, INTERVAL,
                                                          namespace="t1:"))
               for _ in range(3)]
    _hammer(clients, sites, per_client=3)
    for site in sites:
        times = site.times()
        assert len(times) == 9
        assert budget_violations(times, INTERVAL) == [], site.address


def test_workers_with_their_own_limiters_exceed_the_budget(sites):
    """The control: the same three workers without Redis send three times the rate."""
    config = loopback_config(rate_limit_seconds=INTERVAL)
    clients = [WebClient(config) for _ in range(3)]
    _hammer(clients, sites, per_client=3)
    for site in sites:
        times = site.times()
        assert len(times) == 9
        assert budget_violations(times, INTERVAL) != [], site.address
        assert times[-1] - times[0] < 6 * INTERVAL  # 3 at a time: about 2 intervals


def test_retry_after_from_one_worker_holds_the_host_for_all(redis_url, sites):
    site = sites[0]
    refused = threading.Event()

    def first_refused(path: str, _port: int, _arrived: float) -> int | None:
        if path == "/busy" and not refused.is_set():
            refused.set()
            return 429  # with Retry-After: 1
        return None

    busy = Site("127.0.0.4", on_request=first_refused)
    try:
        config = loopback_config(rate_limit_seconds=0.01, max_retries=0)
        one, other = (WebClient(config, limiter=RedisHostLimiter(redis_url, 0.01,
                                                                 namespace="t3:"))
                      for _ in range(2))
        with pytest.raises(WebgripError) as caught:
            one.fetch(busy.url("/busy"))  # no retry here: the 429 is the answer
        assert caught.value.reason == "http-429"
        page = other.fetch(busy.url("/next"))
        assert page.status == 200
        (_, refused_at), (_, next_at) = busy.arrivals
        assert next_at - refused_at >= 1.0
        # Another host is not held.
        assert other.fetch(site.url("/free")).status == 200
    finally:
        busy.close()


def test_an_unreachable_store_fails_the_request_without_sending_it(sites):
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    client = WebClient(loopback_config(rate_limit_seconds=INTERVAL),
                       limiter=RedisHostLimiter(url, INTERVAL, socket_timeout=2))
    [result] = client.fetch_many([sites[0].url("/x")])
    assert isinstance(result, WebgripError)
    assert result.reason == "politeness-store"
    assert sites[0].arrivals == []


def test_the_limiter_pickles_to_a_fresh_connection(redis_url):
    limiter = RedisHostLimiter(redis_url, 5.0, namespace="t5:")
    copy = pickle.loads(pickle.dumps(limiter))
    assert (copy.url, copy.interval, copy.namespace) == (redis_url, 5.0, "t5:")
    assert limiter.reserve("Example.COM.") == 0.0
    # The copy sees the slot the original booked (one budget), under the canonical name.
    wait = copy.reserve("example.com")
    assert wait is not None and 4.0 < wait <= 5.0
    assert copy.reserve("example.com", deadline=0.0) is None  # past deadline: nothing booked
