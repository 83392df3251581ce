"""Redirects walked by hand: every hop re-checked, before any connection to a refused host.

Servers on 127.0.0.1 are opened with ``allow_networks=("127.0.0.1/32",)``; 127.0.0.2 (also
loopback on Linux) stays refused, and a tripwire listener there counts connections.
"""

from __future__ import annotations

import pytest
from helpers.loopback import http_response, loopback_config
from webgrip import BlockedURLError, Config, InvalidURLError, WebClient

ONLY_127_0_0_1 = ("127.0.0.1/32",)


def routes(table: dict[str, bytes]):
    """A raw-server handler answering each path from ``table`` (404 otherwise)."""

    def handle(conn, head):
        path = head.split(b" ")[1].decode() if b" " in head else ""
        conn.sendall(table.get(path, http_response(404, b"no route")))

    return handle


def redirect(location: str, status: int = 302) -> bytes:
    return http_response(status, b"moved", {"Location": location})


@pytest.fixture
def client():
    with WebClient(loopback_config(allow_networks=ONLY_127_0_0_1)) as c:
        yield c


@pytest.fixture
def denied_listener(raw_server):
    """A server on 127.0.0.2, refused by the policy: it must never see a connection."""
    return raw_server(host="127.0.0.2")


def test_redirect_followed_and_recorded(raw_server, client):
    table = {"/a": redirect("/b"), "/b": redirect("c", 301), "/c": http_response(200, b"end")}
    server = raw_server(routes(table))
    r = client.get(server.url("/a"))
    assert r.status == 200 and r.content == b"end"
    assert r.url == server.url("/c")
    assert r.redirects == (server.url("/a"), server.url("/b"))


def test_redirect_to_denied_host_refused_before_connecting(raw_server, client, denied_listener):
    target = denied_listener.url("/secret")
    server = raw_server(routes({"/go": redirect(target)}))
    with pytest.raises(BlockedURLError) as info:
        client.get(server.url("/go"))
    assert info.value.reason == "loopback-address"
    assert info.value.url == target
    assert f"redirected from {server.url('/go')}" in str(info.value)
    assert denied_listener.connections == 0


@pytest.mark.parametrize(
    "location",
    [
        "//127.0.0.2:{port}/x",  # protocol-relative
        "/\\127.0.0.2:{port}/x",  # WHATWG reads /\ as // for http(s)
        "\\\\127.0.0.2:{port}/x",
        "http://2130706434:{port}/x",  # 127.0.0.2 in decimal
        "http://0x7f.0.0.2:{port}/x",
        "http://[::ffff:127.0.0.2]:{port}/x",
    ],
)
def test_dangerous_location_forms(raw_server, client, denied_listener, location):
    location = location.format(port=denied_listener.port)
    server = raw_server(routes({"/go": redirect(location)}))
    with pytest.raises(BlockedURLError) as info:
        client.get(server.url("/go"))
    assert info.value.reason == "loopback-address"
    assert denied_listener.connections == 0


@pytest.mark.parametrize(
    ("location", "reason"),
    [
        ("file:///etc/passwd", "scheme"),
        ("gopher://127.0.0.1:70/", "scheme"),
        ("http://user:pw@127.0.0.1/", "userinfo"),
        ("http://127.0.0.1:22/", "blocked-port"),
        ("http://169.254.169.254/latest/meta-data/", "link-local-address"),
        ("http://[::1]/", "loopback-address"),
    ],
)
def test_every_rule_applies_to_redirect_hops(raw_server, client, location, reason):
    server = raw_server(routes({"/go": redirect(location, 307)}))
    with pytest.raises(BlockedURLError) as info:
        client.get(server.url("/go"))
    assert info.value.reason == reason


def test_protocol_relative_and_backslash_reach_an_allowed_host(raw_server, client):
    target = raw_server(routes({"/x": http_response(200, b"there")}))
    for loc in [f"//127.0.0.1:{target.port}/x", f"/\\127.0.0.1:{target.port}/x"]:
        server = raw_server(routes({"/go": redirect(loc)}))
        r = client.get(server.url("/go"))
        assert r.content == b"there" and r.url == target.url("/x")


def test_redirect_loop_is_refused(raw_server, client):
    server = raw_server(routes({"/a": redirect("/b"), "/b": redirect("/a")}))
    with pytest.raises(BlockedURLError) as info:
        client.get(server.url("/a"))
    assert info.value.reason == "redirect-loop"
    server = raw_server(routes({"/self": redirect("/self")}))
    with pytest.raises(BlockedURLError) as info:
        client.get(server.url("/self"))
    assert info.value.reason == "redirect-loop"


def chain(n: int) -> dict[str, bytes]:
    table = {f"/r{i}": redirect(f"/r{i - 1}") for i in range(1, n + 1)}
    table["/r0"] = http_response(200, b"arrived")
    return table


def test_five_redirects_are_followed(raw_server, client):
    server = raw_server(routes(chain(5)))
    r = client.get(server.url("/r5"))
    assert r.content == b"arrived" and len(r.redirects) == 5


def test_six_redirects_exceed_the_limit(raw_server, client):
    server = raw_server(routes(chain(6)))
    with pytest.raises(BlockedURLError) as info:
        client.get(server.url("/r6"))
    assert info.value.reason == "too-many-redirects"
    assert "limit is 5" in str(info.value)


def test_max_redirects_is_configurable(raw_server):
    server = raw_server(routes(chain(2)))
    with WebClient(loopback_config(max_redirects=1)) as c, pytest.raises(BlockedURLError):
        c.get(server.url("/r2"))
    with WebClient(loopback_config(max_redirects=0)) as c, pytest.raises(BlockedURLError):
        c.get(server.url("/r1"))


def test_invalid_location_is_invalid_url(raw_server, client):
    server = raw_server(routes({"/go": redirect("http://[::1")}))
    with pytest.raises(InvalidURLError):
        client.get(server.url("/go"))


def test_303_becomes_get_without_body_and_307_keeps_it(raw_server, client):
    seen: list[bytes] = []
    table = {"/see": redirect("/t", 303), "/keep": redirect("/t", 307)}

    def handle(conn, head):
        path = head.split(b" ")[1].decode()
        if path == "/t":
            # Read the body, if any, that came with the head.
            seen.append(head)
            conn.sendall(http_response(200, b"ok"))
        else:
            conn.sendall(table[path])

    server = raw_server(handle)
    client.request(
        "POST",
        server.url("/see"),
        body=b"data=1",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    first = seen[-1].lower()
    assert first.startswith(b"get /t ")
    assert b"content-type" not in first and b"data=1" not in first
    client.request(
        "POST",
        server.url("/keep"),
        body=b"data=2",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    second = seen[-1].lower()
    assert second.startswith(b"post /t ")
    assert b"content-type: application/x-www-form-urlencoded" in second


def test_credentials_not_carried_to_another_origin(raw_server, client):
    other = raw_server(routes({"/land": http_response(200, b"ok")}))
    same_origin = {"/land": http_response(200, b"ok")}
    first = raw_server(
        routes({"/go": redirect(other.url("/land")), **same_origin, "/stay": redirect("/land")})
    )
    secrets = {"Authorization": "Bearer s3cret", "Cookie": "session=abc"}

    client.get(first.url("/go"), headers=secrets)
    landed = other.requests[-1].lower()
    assert b"authorization" not in landed and b"cookie" not in landed
    assert b"s3cret" not in landed

    client.get(first.url("/stay"), headers=secrets)
    kept = first.requests[-1].lower()
    assert kept.startswith(b"get /land ")
    assert b"authorization: bearer s3cret" in kept and b"cookie: session=abc" in kept


def test_https_to_http_downgrade_refused(https_server, ca_bundle, raw_server):
    plain = raw_server(routes({"/x": http_response(200, b"plain")}))
    https_server.expect_request("/down").respond_with_data(
        "", status=302, headers={"Location": plain.url("/x")}
    )
    with (
        WebClient(loopback_config(ca_bundle=ca_bundle)) as c,
        pytest.raises(BlockedURLError) as info,
    ):
        c.get(https_server.url_for("/down"))
    assert info.value.reason == "https-downgrade"
    assert plain.connections == 0


@pytest.mark.parametrize("allowed", [False, True])
def test_config_allow_https_downgrade_reaches_the_core(
    https_server, ca_bundle, raw_server, allowed
):
    plain = raw_server(routes({"/x": http_response(200, b"plain")}))
    https_server.expect_request("/down").respond_with_data(
        "", status=302, headers={"Location": plain.url("/x")}
    )
    cfg = loopback_config(ca_bundle=ca_bundle, allow_https_downgrade=allowed)
    with WebClient(cfg) as c:
        if allowed:
            r = c.get(https_server.url_for("/down"))
            assert (r.status, r.content, r.url) == (200, b"plain", plain.url("/x"))
            assert plain.connections == 1
        else:
            with pytest.raises(BlockedURLError) as info:
                c.get(https_server.url_for("/down"))
            assert info.value.reason == "https-downgrade"
            assert plain.connections == 0


def test_allow_https_downgrade_from_env_reaches_the_core(https_server, ca_bundle, raw_server):
    plain = raw_server(routes({"/x": http_response(200, b"plain")}))
    https_server.expect_request("/down").respond_with_data(
        "", status=302, headers={"Location": plain.url("/x")}
    )
    cfg = Config.from_env(
        {
            "WEBGRIP_ALLOW_HTTPS_DOWNGRADE": "1",
            "WEBGRIP_ALLOW_NETWORKS": "127.0.0.0/8",
            "WEBGRIP_RATE_LIMIT_SECONDS": "0",
            "WEBGRIP_CA_BUNDLE": ca_bundle,
        }
    )
    with WebClient(cfg) as c:
        assert c.get(https_server.url_for("/down")).content == b"plain"


def same_port_pair(raw_server):
    """Listeners on 127.0.0.2 and 127.0.0.1 sharing one port (so one URL can reach either)."""
    for _ in range(20):
        denied = raw_server(host="127.0.0.2")
        try:
            allowed = raw_server(routes({"/": http_response(200, b"ok")}), port=denied.port)
        except OSError:
            denied.close()
            continue
        return denied, allowed
    pytest.skip("no port free on both 127.0.0.1 and 127.0.0.2")


def test_dns_rebinding_mixed_answers_fail_closed(raw_server):
    # One name, an allowed and a refused address at once: refused, and neither listener
    # sees a connection (the allowed one included: we never pick the "good" answer).
    denied, allowed = same_port_pair(raw_server)
    port = denied.port
    cfg = loopback_config(
        allow_networks=ONLY_127_0_0_1,
        resolve={"rebind.test": ("127.0.0.1", "127.0.0.2")},
    )
    with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
        c.get(f"http://rebind.test:{port}/")
    assert info.value.reason == "loopback-address"
    assert "rebind.test resolves to 127.0.0.2" in str(info.value)
    assert denied.connections == 0 and allowed.connections == 0


def test_dns_rebinding_between_hops(raw_server):
    # The name is checked again at every hop: a redirect to a name that maps to a refused
    # address is refused, even though the first hop's host was fine.
    denied = raw_server(host="127.0.0.2")
    start = raw_server(routes({"/go": redirect(f"http://inner.test:{denied.port}/")}))
    cfg = loopback_config(allow_networks=ONLY_127_0_0_1, resolve={"inner.test": ("127.0.0.2",)})
    with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url("/go"))
    assert "inner.test resolves to 127.0.0.2" in str(info.value)
    assert f"redirected from {start.url('/go')}" in str(info.value)
    assert denied.connections == 0


@pytest.mark.parametrize(
    "var", ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"]
)
def test_proxy_environment_is_ignored(raw_server, monkeypatch, var):
    proxy = raw_server(routes({}))
    target = raw_server(routes({"/t": http_response(200, b"direct")}))
    monkeypatch.setenv(var, f"http://{proxy.authority}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with WebClient(loopback_config()) as c:
        assert c.get(target.url("/t")).content == b"direct"
        with pytest.raises(BlockedURLError):
            c.get("http://10.0.0.1/")
    assert proxy.connections == 0
