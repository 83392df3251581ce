"""Request logging (no secrets) and the per-client counters."""

from __future__ import annotations

import logging
import threading

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer, page
from webgrip.client import WebClient
from webgrip.errors import BlockedURLError, FetchTimeoutError
from webgrip.observe import Stats, log_request


def test_log_line_has_method_host_status_bytes_ms_source_and_no_secrets(caplog):
    with caplog.at_level(logging.INFO, logger="webgrip"):
        log_request(
            "get",
            "https://user:pw@api.example.test:8443/v1/search?key=SECRET&q=x",
            status=200,
            nbytes=5120,
            seconds=0.0432,
            source="network",
        )
    (record,) = caplog.records
    line = record.getMessage()
    assert record.name == "webgrip"
    assert line == "GET api.example.test:8443 200 5120B 43ms network"
    for secret in ("SECRET", "key=", "/v1/search", "user", "pw"):
        assert secret not in line


def test_log_line_for_an_error(caplog):
    with caplog.at_level(logging.INFO, logger="webgrip"):
        log_request(
            "GET",
            "http://slow.test/?token=abc",
            status=None,
            nbytes=0,
            seconds=2.0,
            error=FetchTimeoutError("timed out"),
        )
    line = caplog.records[0].getMessage()
    assert line == "GET slow.test error=FetchTimeoutError 2000ms"


def test_nothing_logged_below_info(caplog):
    with caplog.at_level(logging.WARNING, logger="webgrip"):
        log_request("GET", "http://a.test/", status=200, nbytes=1, seconds=0.0)
    assert caplog.records == []


def test_stats_count_requests_bytes_hits_and_errors_across_threads():
    stats = Stats()

    def work() -> None:
        for _ in range(1000):
            stats.record(10)
            stats.record(5, cached=True)
        stats.record_error(BlockedURLError("no", reason="private-address"))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats.record_error(FetchTimeoutError("slow"))
    snap = stats.snapshot()
    assert snap == {
        "requests": 16000,
        "bytes": 8 * 1000 * 15,
        "cache_hits": 8000,
        "errors": {"BlockedURLError": 8, "FetchTimeoutError": 1},
    }
    snap["requests"] = 0  # a copy: the counters are untouched
    assert stats.snapshot()["requests"] == 16000


# -- hooked into WebClient ----------------------------------------------------------------------


def test_client_logs_each_request_once_and_counts(tmp_path, caplog):
    with SiteServer() as site:
        url = site.route("/p", page("<p>hello</p>"))
        site.route(
            "/file.bin",
            lambda req: Reply(200, b"x" * 1000, content_type="application/octet-stream"),
        )
        with (
            WebClient(loopback_config(tmp_path)) as client,
            caplog.at_level(logging.INFO, logger="webgrip"),
        ):
            client.get(url + "?api_key=SECRET")
            client.fetch(url)
            client.download(site.url("/file.bin"))
            client.get(site.url("/missing"))  # a 404 answer: counted as an HTTP error
            with pytest.raises(BlockedURLError):
                client.get("http://10.9.8.7/?token=SECRET")
            stats = client.stats()
    lines = [r.getMessage() for r in caplog.records if r.name == "webgrip"]
    assert len(lines) == 5, lines
    assert lines[0].startswith(f"GET 127.0.0.1:{site.port} 200 12B ")
    assert lines[0].endswith(" network")
    assert lines[2].startswith(f"GET 127.0.0.1:{site.port} 200 1000B ")
    assert lines[3].startswith(f"GET 127.0.0.1:{site.port} 404 9B ")
    assert lines[4].startswith("GET 10.9.8.7 error=BlockedURLError")
    assert not any("SECRET" in line or "api_key" in line for line in lines)
    assert stats == {
        "requests": 4,
        "bytes": 12 + 12 + 1000 + 9,
        "cache_hits": 0,
        "errors": {"BlockedURLError": 1, "HTTPStatusError": 1},
    }


def test_cache_hits_are_logged_as_cache(tmp_path, caplog):
    with SiteServer() as site:
        url = site.route("/p", page("<p>hello</p>"))
        cfg = loopback_config(cache_dir=str(tmp_path))
        with WebClient(cfg) as client, caplog.at_level(logging.INFO, logger="webgrip"):
            client.fetch(url)
            client.fetch(url)
            stats = client.stats()
    lines = [r.getMessage() for r in caplog.records if r.name == "webgrip"]
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["network", "cache"]
    assert stats["requests"] == 2 and stats["cache_hits"] == 1


def test_a_304_revalidation_is_logged_as_revalidated(tmp_path, caplog):
    def versioned(req):
        if req.headers.get("if-none-match") == '"v1"':
            return Reply(304, b"", {"ETag": '"v1"'})
        return Reply(200, b"<p>versioned</p>", {"ETag": '"v1"'})

    with SiteServer() as site:
        url = site.route("/v", versioned)
        cfg = loopback_config(cache_dir=str(tmp_path), cache_ttl_seconds=0)  # always stale
        with WebClient(cfg) as client, caplog.at_level(logging.INFO, logger="webgrip"):
            client.fetch(url)
            client.fetch(url)
            stats = client.stats()
    lines = [r.getMessage() for r in caplog.records if r.name == "webgrip"]
    assert len(lines) == 2  # still one line per request
    assert lines[0].split()[2] == "200" and lines[0].endswith(" network")
    assert lines[1].split()[2] == "304" and lines[1].endswith(" revalidated")
    assert stats["requests"] == 2 and stats["cache_hits"] == 1


def test_the_module_documents_every_source_it_logs():
    import webgrip.observe as observe
    from webgrip.cache import SOURCES

    for source in SOURCES:
        assert f"ms {source}\n" in observe.__doc__, source


def test_a_304_outside_revalidation_stays_network(caplog):
    from webgrip.observe import revalidating

    with caplog.at_level(logging.INFO, logger="webgrip"):
        log_request("GET", "http://a.test/", status=304, nbytes=0, seconds=0.0)
        with revalidating():
            log_request("GET", "http://a.test/", status=304, nbytes=0, seconds=0.0)
            log_request("GET", "http://a.test/", status=200, nbytes=5, seconds=0.0)
        with revalidating(False):
            log_request("GET", "http://a.test/", status=304, nbytes=0, seconds=0.0)
    assert [r.getMessage().rsplit(" ", 1)[1] for r in caplog.records] == [
        "network",
        "revalidated",
        "network",
        "network",
    ]
