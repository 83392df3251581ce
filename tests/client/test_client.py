"""``WebClient.get`` against real loopback servers: responses, TLS, threads, politeness."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.loopback import http_response, loopback_config, reply, wait_until
from webgrip import (
    ConnectError,
    FetchTimeoutError,
    HTTPStatusError,
    Response,
    WebClient,
    _core,
)


def test_get_returns_the_response(httpserver, web):
    httpserver.expect_request("/page").respond_with_data(
        "<p>hi</p>", content_type="text/html; charset=utf-8", headers={"X-Test": "1"}
    )
    r = web.get(httpserver.url_for("/page"))
    assert isinstance(r, Response)
    assert r.status == 200 and r.ok
    assert r.content == b"<p>hi</p>"
    assert r.content_type == "text/html"
    assert r.charset == "utf-8"
    assert r.headers["x-test"] == "1"
    assert r.url == httpserver.url_for("/page")
    assert r.redirects == ()
    host, _, port = r.remote_addr.rpartition(":")
    assert host == "127.0.0.1" and int(port) == httpserver.port
    assert r.elapsed > 0


def test_request_headers_and_user_agent_are_sent(raw_server, loopback):
    server = raw_server(reply(200, b"ok"))
    with WebClient(loopback.replace(user_agent="agent-test/1")) as client:
        client.get(server.url("/h"), headers={"X-Custom": "yes"})
    head = server.requests[0].decode("latin-1").lower()
    assert head.startswith("get /h http/1.1")
    assert "user-agent: agent-test/1" in head
    assert "x-custom: yes" in head


def test_post_sends_the_body(httpserver, web):
    httpserver.expect_request("/p", method="POST", data=b"payload").respond_with_data("done")
    r = web.request("POST", httpserver.url_for("/p"), body=b"payload")
    assert r.content == b"done"


@pytest.mark.parametrize("status", [404, 410, 500, 503])
def test_error_statuses_keep_their_body(httpserver, web, status):
    httpserver.expect_request("/e").respond_with_data(f"body of {status}", status=status)
    r = web.get(httpserver.url_for("/e"))
    assert r.status == status and not r.ok
    assert r.content == f"body of {status}".encode()
    with pytest.raises(HTTPStatusError) as info:
        r.raise_for_status()
    assert info.value.status == status
    assert info.value.response is r


def test_connection_refused_is_connect_error(raw_server, web):
    server = raw_server()
    url = server.url("/")
    server.close()
    with pytest.raises(ConnectError) as info:
        web.get(url)
    assert info.value.url == url
    assert isinstance(info.value, ConnectionError)


def test_headers_repeated_are_kept(raw_server, web):
    server = raw_server(reply(200, b"x", [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]))
    r = web.get(server.url())
    assert ("set-cookie", "a=1") in r.header_list and ("set-cookie", "b=2") in r.header_list
    assert r.headers["set-cookie"] == "a=1, b=2"


def test_https_with_extra_ca_bundle(https_server, ca_bundle):
    https_server.expect_request("/secure").respond_with_data("secret page")
    url = https_server.url_for("/secure")
    assert url.startswith("https://")
    with WebClient(loopback_config(ca_bundle=ca_bundle)) as client:
        r = client.get(url)
    assert r.status == 200 and r.content == b"secret page"


def test_https_with_unknown_ca_is_refused(https_server):
    https_server.expect_request("/secure").respond_with_data("secret page")
    with WebClient(loopback_config()) as client, pytest.raises(ConnectError) as info:
        client.get(https_server.url_for("/secure"))
    assert info.value.reason == "tls"


def test_bad_ca_bundle_is_a_value_error(tmp_path):
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate")
    with pytest.raises(ValueError):
        WebClient(loopback_config(ca_bundle=str(bad)))


def test_many_threads_share_one_client(raw_server):
    # Each reply echoes the request path, so crossed wires would show.
    def echo(conn, head):
        path = head.split(b" ")[1]
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(path), path))
        # Keep-alive: serve further requests on the same connection.
        while True:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                head += chunk
            path = head.split(b" ")[1]
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(path), path))

    server = raw_server(echo)
    with WebClient(loopback_config()) as client:

        def work(i: int) -> list[bool]:
            out = []
            for j in range(10):
                path = f"/t{i}/r{j}"
                out.append(client.get(server.url(path)).content == path.encode())
            return out

        with ThreadPoolExecutor(16) as pool:
            results = [ok for batch in pool.map(work, range(16)) for ok in batch]
    assert len(results) == 160 and all(results)


def test_network_calls_release_the_gil(raw_server, web):
    # A server that answers only after another Python thread has run proves the GIL was free.
    ran = threading.Event()

    def slow(conn, _head):
        body = b"ok" if ran.wait(5) else b"gil-held"
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    server = raw_server(slow)
    ticker = threading.Thread(target=ran.set)
    result: list[bytes] = []
    fetcher = threading.Thread(target=lambda: result.append(web.get(server.url()).content))
    fetcher.start()
    time.sleep(0.05)
    ticker.start()
    fetcher.join(10)
    assert result == [b"ok"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_starts_its_own_worker_threads(raw_server, loopback):
    # The parent's request leaves a worker thread waiting for the next job; a forked child
    # has no such thread, and a request there must not be queued for it (it would never run).
    server = raw_server(reply(200, b"ok"))
    with WebClient(loopback) as client:
        assert client.get(server.url("/parent")).content == b"ok"
    pid = os.fork()
    if pid == 0:  # the child: a fresh client (the parent's pooled socket is the parent's)
        code = 1
        try:
            with WebClient(loopback) as child:
                code = 0 if child.get(server.url("/child")).content == b"ok" else 1
        finally:
            os._exit(code)
    status: list[int] = []

    def ended() -> bool:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status.append(code)
        return bool(done)

    if not wait_until(ended, timeout=30):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child's request never ran")
    assert os.waitstatus_to_exitcode(status[0]) == 0


def test_per_domain_interval_is_honoured(httpserver):
    httpserver.expect_request("/r").respond_with_data("x")
    with WebClient(loopback_config(rate_limit_seconds=0.2)) as client:
        start = time.monotonic()
        for _ in range(4):
            client.get(httpserver.url_for("/r"))
        spent = time.monotonic() - start
    assert spent >= 0.6  # three intervals between four requests: a guaranteed lower bound


def test_rate_limit_spaces_threads_on_one_host(httpserver):
    httpserver.expect_request("/r").respond_with_data("x")
    stamps: list[float] = []
    lock = threading.Lock()
    with WebClient(loopback_config(rate_limit_seconds=0.15)) as client:

        def one(_):
            client.get(httpserver.url_for("/r"))
            with lock:
                stamps.append(time.monotonic())

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(one, range(4)))
    stamps.sort()
    assert stamps[-1] - stamps[0] >= 0.3  # at least two of three gaps, with scheduling slack


def test_latin1_page_without_charset_header(raw_server, web):
    body = "<html><body><p>Café déjà vu, garçon, naïve über Straße</p></body></html>"
    server = raw_server(reply(200, body.encode("latin-1"), {"Content-Type": "text/html"}))
    r = web.get(server.url())
    assert r.charset is None
    assert "Café déjà vu, garçon, naïve über Straße" in r.text


def test_shift_jis_declared_only_in_meta(raw_server, web):
    text = "日本語のページです。こんにちは、世界。"
    html = f'<html><head><meta charset="shift_jis"></head><body><p>{text}</p></body></html>'
    server = raw_server(reply(200, html.encode("shift_jis"), {"Content-Type": "text/html"}))
    r = web.get(server.url())
    assert r.charset is None
    assert text in r.text
    assert r.encoding.lower().replace("-", "_") in ("shift_jis", "sjis", "windows_31j")


def test_ipv6_loopback_when_opened(raw_server, web):
    try:
        server = raw_server(reply(200, b"v6"), host="::1")
    except OSError:
        pytest.skip("no IPv6 loopback here")
    r = web.get(server.url("/six"))
    assert r.content == b"v6"
    assert r.remote_addr == f"[::1]:{server.port}"


def test_resolve_override_pins_the_address(raw_server):
    server = raw_server(reply(200, b"pinned"))
    with WebClient(loopback_config(resolve={"pinned.test": ("127.0.0.1",)})) as client:
        r = client.get(f"http://pinned.test:{server.port}/")
    assert r.content == b"pinned"
    assert r.remote_addr == f"127.0.0.1:{server.port}"
    assert f"host: pinned.test:{server.port}".encode() in server.requests[0].lower()


def test_remote_addr_is_reported_for_pooled_connections(httpserver, web):
    httpserver.expect_request("/p").respond_with_data("x")
    addrs = {web.get(httpserver.url_for("/p")).remote_addr for _ in range(3)}
    assert addrs == {f"127.0.0.1:{httpserver.port}"}


# -- the rate-limit wait counts against the call's total deadline ----------------------------


def test_rate_limit_wait_is_inside_the_deadline(httpserver):
    httpserver.expect_request("/r").respond_with_data("x")
    # The slot is 6 s away and the deadline 3 s: refused well before a sleep to the deadline
    # would end, with room for a loaded machine (a 1 s deadline left it 0.5 s).
    with WebClient(loopback_config(rate_limit_seconds=6, timeout=3)) as client:
        client.get(httpserver.url_for("/r"))
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError) as info:
            client.get(httpserver.url_for("/r"))
        assert time.monotonic() - start < 2.0  # refused at once, not after sleeping
        assert info.value.reason == "timeout"
        assert info.value.url == httpserver.url_for("/r")
        assert "rate_limit_seconds=6" in str(info.value)
    assert len(httpserver.log) == 1  # the second request was never sent


def test_refused_rate_limit_slot_is_not_booked(httpserver):
    """A call that gives up does not push the host's next slot further away."""
    httpserver.expect_request("/r").respond_with_data("x")
    # Intervals of 2 s keep the two outcomes 6 s apart, far more than a loaded machine adds
    # (with 0.6 s intervals the bound left 0.4 s for it).
    with WebClient(loopback_config(rate_limit_seconds=2.0)) as client:
        url = httpserver.url_for("/r")
        client.get(url)
        for _ in range(3):
            with pytest.raises(FetchTimeoutError):
                client.get(url, timeout=0.1)
        start = time.monotonic()
        client.get(url)  # waits up to 2 s for the slot after the first request only
        assert time.monotonic() - start < 4.0  # not 6+ (slots booked by the refused calls)


def test_rate_limit_wait_and_transfer_share_one_budget(raw_server):
    """After waiting for its slot, the request only gets what is left of the deadline."""
    # The shared budget ends the call at 3 s, a fresh one for the transfer at 5 s: 2 s apart,
    # room for a loaded machine (0.6 s intervals and a 1 s deadline left it 0.4 s).
    server = raw_server(_slow_reply)
    with WebClient(loopback_config(rate_limit_seconds=2.0)) as client:
        client.get(server.url("/fast"))
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError):
            client.get(server.url("/slow"), timeout=3.0)  # 2 s wait + 1 s of transfer
        assert time.monotonic() - start < 4.0


def _slow_reply(conn, head):
    if b"/slow" in head:
        time.sleep(6.0)  # past either budget
    conn.sendall(http_response(200, b"ok"))


def test_fetch_and_download_count_the_rate_limit_wait(httpserver, tmp_path):
    httpserver.expect_request("/doc").respond_with_data("<p>hello</p>", content_type="text/html")
    cfg = loopback_config(rate_limit_seconds=10, timeout=3, download_dirs=(str(tmp_path),))
    with WebClient(cfg) as client:
        client.fetch(httpserver.url_for("/doc"))
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError) as fetch_info:
            client.fetch(httpserver.url_for("/doc"))
        with pytest.raises(FetchTimeoutError) as download_info:
            client.download(httpserver.url_for("/doc"))
        assert time.monotonic() - start < 2.0  # both at once: one sleep would take 3 s
    assert fetch_info.value.reason == download_info.value.reason == "timeout"
    assert list(tmp_path.iterdir()) == []


def test_search_counts_the_rate_limit_wait(httpserver):
    from webgrip import SearchError

    httpserver.expect_request("/searx").respond_with_json({"results": []})
    endpoint = httpserver.url_for("/searx")
    cfg = loopback_config(
        rate_limit_seconds=10, timeout=3, search_provider="searxng", searxng_url=endpoint
    )
    with WebClient(cfg) as client:
        client.get(endpoint)
        start = time.monotonic()
        with pytest.raises(SearchError) as info:
            client.search("anything")
        assert time.monotonic() - start < 2.0  # at once: a sleep would take the 3 s
    assert info.value.reason == "timeout"


def test_deadline_errors_use_one_reason_tag(raw_server):
    """The core and the Python retry loop tag a passed deadline the same way."""
    server = raw_server(lambda conn, head: (time.sleep(1.5), conn.sendall(http_response(200))))
    with (
        WebClient(loopback_config(timeout=0.5)) as client,
        pytest.raises(FetchTimeoutError) as core_info,
    ):
        client.get(server.url())
    assert core_info.value.reason == "timeout"
    from webgrip.client import _deadline_error

    assert _deadline_error("http://x/", 1.0).reason == "timeout"


# -- one style for status errors -------------------------------------------------------------


def test_raise_for_status_says_status_and_phrase_like_fetch(httpserver, web, tmp_path):
    httpserver.expect_request("/gone").respond_with_data("nope", status=404)
    httpserver.expect_request("/odd").respond_with_data("?", status=599)
    url = httpserver.url_for("/gone")
    with pytest.raises(HTTPStatusError) as raised:
        web.get(url).raise_for_status()
    with pytest.raises(HTTPStatusError) as fetched:
        web.fetch(url)
    assert str(raised.value) == str(fetched.value) == f"HTTP 404 Not Found for {url}"
    assert raised.value.reason == fetched.value.reason == "http-404"
    with pytest.raises(HTTPStatusError, match=r"^HTTP 599 for http://"):
        web.get(httpserver.url_for("/odd")).raise_for_status()
    httpserver.expect_request("/big").respond_with_data("no", status=413)
    big = httpserver.url_for("/big")
    with WebClient(loopback_config(download_dirs=(str(tmp_path),))) as client:
        with pytest.raises(HTTPStatusError) as downloaded:
            client.download(url)
        assert str(downloaded.value) == f"HTTP 404 Not Found for {url}"
        with pytest.raises(HTTPStatusError) as big_download:
            client.download(big)
        with pytest.raises(HTTPStatusError) as big_fetch:
            client.fetch(big)
    assert str(big_download.value) == str(big_fetch.value)  # the same reason phrase
    assert big_download.value.status == 413


# -- check_url resolves, so it can fail like a connection ----------------------------------------


def test_check_url_documents_and_raises_dns_failures():
    from webgrip import check_url

    for doc in (check_url.__doc__, WebClient.check_url.__doc__, _core.Client.check_url.__doc__):
        assert "ConnectError" in doc and "dns" in doc and "FetchTimeoutError" in doc
    cfg = loopback_config(resolve={"nowhere.test": ()})
    with pytest.raises(ConnectError) as info:
        check_url("http://nowhere.test/", cfg)
    assert info.value.reason == "dns"


# -- long URLs are cut in messages, kept whole in .url --------------------------------------------


def test_errors_quote_at_most_200_characters_of_a_url(raw_server):
    from webgrip import BlockedURLError, InvalidURLError

    site = raw_server(reply(200, b"ok"))
    blocked = "http://10.0.0.1/" + "a" * 1_000_000
    invalid = site.url("/" + "b" * 1_000_000)
    slow_site = raw_server(lambda conn, head: time.sleep(2))
    slow = slow_site.url("/" + "c" * 5000)
    with WebClient(loopback_config(timeout=0.5)) as client:
        for url, cls in (
            (blocked, BlockedURLError),
            (invalid, InvalidURLError),
            (slow, FetchTimeoutError),
        ):
            with pytest.raises(cls) as info:
                client.get(url)
            assert info.value.url == url
            assert len(str(info.value)) < 400, str(info.value)[:500]
            assert url[:150] in str(info.value) and "…" in str(info.value)


def test_retry_whose_rate_limit_slot_is_too_late_keeps_the_answer(httpserver, tmp_path):
    """A 503 that cannot be retried inside the deadline (the host's next slot comes too late)
    is reported as the 503 at once, not slept on and not turned into a timeout."""
    httpserver.expect_request("/busy").respond_with_data(
        "busy", status=503, headers={"Retry-After": "0"}
    )
    url = httpserver.url_for("/busy")
    # The next slot is 10 s away, the deadline 5 s: a call that slept towards either takes
    # 5 s or more; at once leaves room for a loaded machine under 3 s.
    cfg = loopback_config(rate_limit_seconds=10, timeout=5, download_dirs=(str(tmp_path),))
    with WebClient(cfg) as client:
        start = time.monotonic()
        with pytest.raises(HTTPStatusError) as fetched:
            client.fetch(url)
        assert time.monotonic() - start < 3.0
    assert fetched.value.status == 503
    with WebClient(cfg) as client:
        start = time.monotonic()
        with pytest.raises(HTTPStatusError) as downloaded:
            client.download(url)
        assert time.monotonic() - start < 3.0
    assert downloaded.value.status == 503
    assert len(httpserver.log) == 2  # one request per call: no retry was attempted
