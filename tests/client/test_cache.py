"""The persistent page cache: hits, no-store, TTL and revalidation, corruption, concurrency."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import threading

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer, article, page
from webgrip.cache import DB_FILENAME, PageCache, normalise_url
from webgrip.client import Response, WebClient
from webgrip.config import Config
from webgrip.errors import BlockedURLError


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make_response(url: str, status: int = 200, body: bytes = b"<p>hi</p>", **headers: str):
    header_list = [("content-type", "text/html; charset=utf-8")]
    header_list += [(k.replace("_", "-").lower(), v) for k, v in headers.items()]
    return Response._from_raw(
        {
            "url": url,
            "status": status,
            "headers": header_list,
            "content": body,
            "content_type": "text/html",
            "charset": "utf-8",
            "redirects": [],
            "remote_addr": "127.0.0.1:80",
            "elapsed": 0.01,
        }
    )


class Origin:
    """A fake origin server: answers with a queue of responses and records the request headers."""

    def __init__(self, *responses: Response):
        self.responses = list(responses)
        self.requests: list[dict[str, str]] = []

    def __call__(self, extra_headers):
        self.requests.append(dict(extra_headers))
        return self.responses.pop(0) if len(self.responses) > 1 else self.responses[0]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cache(tmp_path, clock):
    c = PageCache(str(tmp_path), 60, clock=clock)
    yield c
    c.close()


URL = "http://example.test/page?q=1"


def test_normalise_url():
    assert normalise_url("HTTP://Example.TEST:80/a?b=1#frag") == "http://example.test/a?b=1"
    assert normalise_url("https://example.test") == "https://example.test/"
    assert normalise_url("https://example.test:8443/x") == "https://example.test:8443/x"
    assert normalise_url("http://[::1]:8080/") == "http://[::1]:8080/"


def test_second_get_is_a_hit_with_the_same_content(cache):
    origin = Origin(make_response(URL, body=b"<h1>Title</h1>"))
    _, source1 = cache.get(URL, origin)
    second, source2 = cache.get("http://EXAMPLE.test/page?q=1#x", origin)
    assert (source1, source2) == ("network", "cache")
    assert len(origin.requests) == 1
    assert second.content == b"<h1>Title</h1>"
    assert second.status == 200 and second.url == URL
    assert second.headers["content-type"] == "text/html; charset=utf-8"
    assert second.content_type == "text/html" and second.charset == "utf-8"


def test_cache_survives_reopening(tmp_path, clock):
    origin = Origin(make_response(URL))
    a = PageCache(str(tmp_path), 60, clock=clock)
    a.get(URL, origin)
    a.close()
    b = PageCache(str(tmp_path), 60, clock=clock)
    assert b.get(URL, origin)[1] == "cache"
    b.close()
    assert (tmp_path / DB_FILENAME).exists()


def test_set_cookie_headers_are_not_stored(cache, tmp_path):
    """A Set-Cookie is the session of the client that got it: a shared cache (on disk, read
    by other clients) keeps the page without it."""
    origin = Origin(make_response(URL, set_cookie="sid=SECRET-SESSION-123; Path=/", x_kept="yes"))
    cache.get(URL, origin)
    second, source = cache.get(URL, origin)
    assert source == "cache" and second.headers["x-kept"] == "yes"
    assert "set-cookie" not in second.headers
    cache.close()
    assert b"SECRET-SESSION-123" not in (tmp_path / DB_FILENAME).read_bytes()


def test_no_store_is_never_written(cache):
    origin = Origin(make_response(URL, cache_control="private, no-store"))
    assert cache.get(URL, origin)[1] == "network"
    assert cache.get(URL, origin)[1] == "network"
    assert len(origin.requests) == 2


def test_no_store_drops_an_older_entry(cache, clock):
    origin = Origin(
        make_response(URL, etag='"v1"'),
        make_response(URL, cache_control="no-store"),
        make_response(URL, body=b"new"),
    )
    cache.get(URL, origin)
    clock.now += 120
    cache.get(URL, origin)  # stale -> network -> no-store: entry removed
    _, source = cache.get(URL, origin)
    assert source == "network"
    assert origin.requests[2] == {}  # nothing left to revalidate


def test_errors_are_not_cached(cache):
    origin = Origin(make_response(URL, status=404), make_response(URL, status=200))
    assert cache.get(URL, origin)[0].status == 404
    assert cache.get(URL, origin)[0].status == 200
    assert cache.get(URL, origin)[1] == "cache"
    assert len(origin.requests) == 2


def test_ttl_expiry_then_etag_revalidation_counts_304s(cache, clock):
    origin = Origin(
        make_response(URL, body=b"original", etag='"abc"', last_modified="Mon, 01 Jan 2024"),
        make_response(URL, status=304, body=b""),
    )
    cache.get(URL, origin)
    clock.now += 30
    assert cache.get(URL, origin)[1] == "cache"  # still fresh
    clock.now += 31
    response, source = cache.get(URL, origin)
    assert source == "revalidated"
    assert response.status == 200 and response.content == b"original"
    assert origin.requests[1] == {"If-None-Match": '"abc"', "If-Modified-Since": "Mon, 01 Jan 2024"}
    # The 304 refreshed the entry: fresh again for another TTL.
    clock.now += 59
    assert cache.get(URL, origin)[1] == "cache"
    clock.now += 2
    assert cache.get(URL, origin)[1] == "revalidated"
    assert sum(1 for r in origin.requests if r) == 2  # two conditional requests, two 304s


def test_changed_resource_replaces_the_entry(cache, clock):
    origin = Origin(
        make_response(URL, body=b"v1", etag='"1"'), make_response(URL, body=b"v2", etag='"2"')
    )
    cache.get(URL, origin)
    clock.now += 61
    response, source = cache.get(URL, origin)
    assert (source, response.content) == ("network", b"v2")
    clock.now += 61
    cache.get(URL, origin)
    assert origin.requests[-1]["If-None-Match"] == '"2"'


def test_max_age_shorter_than_ttl_and_no_cache(cache, clock):
    short = "http://example.test/short"
    always = "http://example.test/always"
    o1 = Origin(make_response(short, cache_control="max-age=10"))
    o2 = Origin(
        make_response(always, cache_control="no-cache", etag='"e"'),
        make_response(always, status=304, body=b""),
    )
    cache.get(short, o1)
    cache.get(always, o2)
    clock.now += 11
    assert cache.get(short, o1)[1] == "network"
    assert cache.get(always, o2)[1] == "revalidated"


def test_corrupt_database_is_rebuilt_with_one_warning(tmp_path, caplog):
    (tmp_path / DB_FILENAME).write_bytes(b"this is not a sqlite database" * 100)
    origin = Origin(make_response(URL))
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        c = PageCache(str(tmp_path), 60)
        sources = [c.get(URL, origin)[1] for _ in range(3)]
    assert sources == ["network", "cache", "cache"]  # rebuilt empty, then caching again
    assert c.enabled
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "corrupt" in warnings[0].getMessage() and "rebuilt it empty" in warnings[0].getMessage()
    assert len(origin.requests) == 1
    c.close()


def test_a_database_corrupt_again_after_its_rebuild_is_given_up(tmp_path, caplog):
    (tmp_path / DB_FILENAME).write_bytes(b"garbage" * 100)
    c = PageCache(str(tmp_path), 60)
    origin = Origin(make_response(URL))
    c.get(URL, origin)
    c.close()
    (tmp_path / DB_FILENAME).write_bytes(b"garbage again" * 100)
    for suffix in ("-wal", "-shm"):
        (tmp_path / (DB_FILENAME + suffix)).unlink(missing_ok=True)
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        assert [c.get(URL, origin)[1] for _ in range(2)] == ["network", "network"]
    assert not c.enabled
    assert "continuing without it" in caplog.records[-1].getMessage()


def test_unwritable_cache_dir_degrades(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        c = PageCache(str(blocker / "sub"), 60)
        assert c.get(URL, Origin(make_response(URL)))[1] == "network"
    assert not c.enabled
    assert len(caplog.records) == 1


def test_threads_share_one_cache(cache):
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            url = f"http://example.test/{i % 10}"
            origin = Origin(make_response(url, body=f"body {i % 10}".encode()))
            for _ in range(5):
                response, _ = cache.get(url, origin)
                assert response.content == f"body {i % 10}".encode()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert cache.enabled


_WORKER = textwrap.dedent("""
    import sys
    from webgrip.cache import PageCache
    from webgrip.client import Response

    directory, worker = sys.argv[1], int(sys.argv[2])
    cache = PageCache(directory, 3600)
    def send(extra):
        return Response._from_raw({
            "url": url, "status": 200, "headers": [], "content": url.encode(),
            "content_type": "text/html", "charset": None, "redirects": [],
            "remote_addr": "127.0.0.1:80", "elapsed": 0.0})
    for i in range(200):
        url = f"http://example.test/{worker}/{i}"
        cache.get(url, send)
    # Read what the other process wrote so far (the same URLs or new ones: both must work).
    for i in range(200):
        url = f"http://example.test/{1 - worker}/{i}"
        response, _ = cache.get(url, send)
        assert response.content == url.encode(), response.content
    assert cache.enabled, "cache was disabled"
    print("ok")
""")


def test_two_processes_share_one_database(tmp_path):
    env = dict(os.environ)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(tmp_path), str(w)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for w in (0, 1)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out.strip() == "ok"
    check = PageCache(str(tmp_path), 3600)

    def never(extra):
        raise AssertionError("should be a hit")

    for w in (0, 1):
        for i in (0, 199):
            url = f"http://example.test/{w}/{i}"
            response, source = check.get(url, never)
            assert (source, response.content) == ("cache", url.encode())
    check.close()


# -- through WebClient.fetch, against a loopback server ----------------------------------------


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


def _client(tmp_path, **changes) -> WebClient:
    return WebClient(loopback_config(cache_dir=str(tmp_path / "cache"), **changes))


def test_fetch_hit_serves_every_mode_from_one_entry(site, tmp_path):
    url = site.route("/doc", page(article("Cached")))
    with _client(tmp_path) as client:
        first = client.fetch(url)
        second = client.fetch(url)
        links = client.fetch(url, extract="links")
        stats = client.stats()
    assert second.content == first.content and "Cached paragraph 1" in second.content
    assert links.extract == "links"
    assert len(site.hits("/doc")) == 1
    assert stats["cache_hits"] == 2 and stats["requests"] == 3


def test_fetch_cache_is_shared_by_clients_and_off_by_default(site, tmp_path):
    url = site.route("/doc", page(article("Shared")))
    with _client(tmp_path) as a:
        a.fetch(url)
    with _client(tmp_path) as b:
        b.fetch(url)
    assert len(site.hits("/doc")) == 1
    with WebClient(loopback_config()) as plain:
        plain.fetch(url)
        plain.fetch(url)
    assert len(site.hits("/doc")) == 3


def test_fetch_no_store_always_goes_to_the_network(site, tmp_path):
    url = site.route("/secret", page(article("Private"), cache_control="no-store"))
    with _client(tmp_path) as client:
        client.fetch(url)
        client.fetch(url)
        assert client.stats()["cache_hits"] == 0
    assert len(site.hits("/secret")) == 2


def test_fetch_revalidates_stale_entries_with_etag(site, tmp_path):
    body = article("Versioned").encode()

    def versioned(req):
        if req.headers.get("if-none-match") == '"v1"':
            return Reply(304, b"", {"ETag": '"v1"'})
        return Reply(200, body, {"ETag": '"v1"'})

    url = site.route("/v", versioned)
    with _client(tmp_path, cache_ttl_seconds=0) as client:  # always stale
        pages = [client.fetch(url) for _ in range(3)]
        stats = client.stats()
    hits = site.hits("/v")
    assert len(hits) == 3
    assert [h.headers.get("if-none-match") for h in hits] == [None, '"v1"', '"v1"']
    assert pages[0].content == pages[1].content == pages[2].content
    assert "Versioned paragraph 2" in pages[2].content
    assert stats["cache_hits"] == 2  # the two 304s


def test_fetch_with_corrupt_cache_db_still_works(site, tmp_path, caplog):
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / DB_FILENAME).write_bytes(b"\x00garbage" * 512)
    url = site.route("/doc", page(article("Robust")))
    with caplog.at_level(logging.WARNING, logger="webgrip"), _client(tmp_path) as client:
        assert "Robust paragraph" in client.fetch(url).content
        assert "Robust paragraph" in client.fetch(url).content
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    assert len(site.hits("/doc")) == 1  # the rebuilt cache answers the second fetch


def test_connections_of_finished_threads_are_closed(cache):
    origin = Origin(make_response(URL))
    for _ in range(20):
        t = threading.Thread(target=cache.get, args=(URL, origin))
        t.start()
        t.join()
    cache.get(URL, origin)  # opening this thread's connection prunes the dead ones
    assert len(cache._connections) <= 2


def test_locked_database_skips_writes_with_one_warning(tmp_path, monkeypatch, caplog):
    import sqlite3

    import webgrip.cache as cache_module

    monkeypatch.setattr(cache_module, "_BUSY_TIMEOUT_SECONDS", 0.05)
    c = PageCache(str(tmp_path), 60)
    holder = sqlite3.connect(str(tmp_path / DB_FILENAME), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of a long write
    origin = Origin(make_response(URL))
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        for _ in range(3):
            assert c.get(URL, origin)[1] == "network"  # the write is skipped, never fatal
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    assert c.enabled  # a lock is transient: the cache stays on
    holder.execute("ROLLBACK")
    holder.close()
    c.get(URL, origin)
    assert c.get(URL, origin)[1] == "cache"
    c.close()


# -- the policy is never bypassed by the cache ---------------------------------------------------
def test_usable_refusal_drops_the_entry_and_goes_to_the_network(cache):
    origin = Origin(make_response(URL, body=b"old"), make_response(URL, body=b"new"))
    cache.get(URL, origin)
    response, source = cache.get(URL, origin, usable=lambda stored: False)
    assert (source, response.content) == ("network", b"new")
    assert origin.requests[1] == {}  # no validators: the refused entry was not revalidated
    assert cache.get(URL, origin)[1] == "cache"  # the new answer was stored


def test_scopes_do_not_see_each_other(tmp_path, clock):
    a = PageCache(str(tmp_path), 60, clock=clock, scope="a")
    b = PageCache(str(tmp_path), 60, clock=clock, scope="b")
    origin = Origin(make_response(URL, body=b"from a"), make_response(URL, body=b"from b"))
    assert a.get(URL, origin)[1] == "network"
    assert b.get(URL, origin)[1] == "network"
    assert b.get(URL, origin)[0].content == b"from b"
    assert a.get(URL, origin)[0].content == b"from a"
    a.close()
    b.close()


def test_policy_fingerprint_changes_with_every_policy_field():
    from webgrip.cache import policy_fingerprint

    base = policy_fingerprint(Config())
    assert policy_fingerprint(Config()) == base
    assert policy_fingerprint(Config(cache_ttl_seconds=5, rate_limit_seconds=0)) == base
    for change in (
        {"allow_networks": ("127.0.0.0/8",)},
        {"blocked_domains": ("a.test",)},
        {"allowed_domains": ("a.test",)},
        {"blocked_ports": (8080,)},
        {"max_redirects": 1},
        {"allow_http": not Config().allow_http},
        {"resolve": {"a.test": ("127.0.0.1",)}},
    ):
        assert policy_fingerprint(Config(**change)) != base, change


def _refusal(client: WebClient, url: str) -> BaseException:
    with pytest.raises(BlockedURLError) as info:
        client.fetch(url)
    return info.value


@pytest.mark.parametrize(
    "strict",
    [
        {},  # the default policy: no loopback at all
        {"allow_networks": ("127.0.0.0/8",), "blocked_domains": ("127.0.0.1",)},
    ],
)
def test_a_looser_clients_entry_never_answers_a_refused_url(site, tmp_path, strict):
    url = site.route("/private", page(article("Private")))
    cache_dir = str(tmp_path / "cache")
    with WebClient(loopback_config(cache_dir=cache_dir)) as loose:
        assert "Private paragraph" in loose.fetch(url).content
    values = {"rate_limit_seconds": 0, "timeout": 10.0, **strict}
    with WebClient(Config(**values)) as uncached:
        expected = _refusal(uncached, url)
    with WebClient(Config(cache_dir=cache_dir, **values)) as cached:
        got = _refusal(cached, url)
        stats = cached.stats()
    assert (type(got), got.reason, str(got)) == (type(expected), expected.reason, str(expected))
    assert stats["cache_hits"] == 0 and stats["errors"] == {"BlockedURLError": 1}
    assert len(site.hits("/private")) == 1


def test_clients_with_different_policies_do_not_share_entries(site, tmp_path):
    url = site.route("/doc", page(article("Doc")))
    with _client(tmp_path) as a:
        a.fetch(url)
    with _client(tmp_path, blocked_domains=("elsewhere.test",)) as b:
        b.fetch(url)
        b.fetch(url)
    assert len(site.hits("/doc")) == 2  # b got its own entry, then hit it


def test_a_stored_redirect_chain_is_rechecked_against_the_current_policy(site, tmp_path):
    url = site.route("/start", page(article("Fresh")))
    refused = f"http://localhost:{site.url('/').split(':')[2].split('/')[0]}/secret"
    with _client(tmp_path, blocked_domains=("localhost",)) as client:
        # An entry (in this client's own scope) whose redirect chain ends on a host the
        # policy refuses, e.g. stored before the policy or the host's addresses changed.
        poisoned = Response._from_raw(
            {
                "url": refused,
                "status": 200,
                "headers": [("content-type", "text/html; charset=utf-8")],
                "content": b"<p>SECRET</p>",
                "content_type": "text/html",
                "charset": "utf-8",
                "redirects": [refused],
                "remote_addr": "127.0.0.1:80",
                "elapsed": 0.0,
            }
        )
        client._page_cache.store(client._page_cache.key(url), poisoned)
        fetched = client.fetch(url)
        assert "SECRET" not in fetched.content and "Fresh paragraph" in fetched.content
        assert client.stats()["cache_hits"] == 0
    assert len(site.hits("/start")) == 1
