"""Upstream proxies keep the pinned address: webgrip resolves and checks every name itself
and asks the proxy (HTTP CONNECT or SOCKS5, ``tests/helpers/proxy_server.py``) only for the checked
IP literal; TLS is verified for the name; credentials never show; the environment's proxies
are ignored unless ``trust_env_proxy``."""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading

import pytest
from helpers.loopback import LOOPBACK_NETWORKS, loopback_config
from helpers.proxy_server import RecordingProxy
from webgrip import (
    BlockedURLError,
    Config,
    ConnectError,
    FetchTimeoutError,
    ProxyError,
    RenderError,
    Tools,
    WebClient,
)
from werkzeug import Request, Response

SECRET = "s3cr3t-pw"


@pytest.fixture
def proxy():
    with RecordingProxy("http") as p:
        yield p


@pytest.fixture
def socks():
    with RecordingProxy("socks5") as p:
        yield p


def host_echo(request: Request) -> Response:
    return Response(f"host={request.headers.get('Host')}", content_type="text/plain")


def named(*names: str, **changes) -> Config:
    """Loopback config where each name resolves (``Config.resolve``) to 127.0.0.1."""
    return loopback_config(resolve={n: ("127.0.0.1",) for n in names}, **changes)


# --- the proxy sees only checked IP literals -------------------------------------------------


@pytest.mark.parametrize("kind", ["http", "socks5"])
def test_the_proxy_is_asked_for_the_checked_address_and_host_is_the_name(httpserver, kind):
    httpserver.expect_request("/page").respond_with_handler(host_echo)
    port = httpserver.port
    with RecordingProxy(kind) as p, WebClient(named("site.test", proxy=p.url())) as c:
        r = c.get(f"http://site.test:{port}/page")
    assert r.status == 200
    assert r.text == f"host=site.test:{port}"
    assert r.remote_addr == f"127.0.0.1:{port}"
    prefix = "ipv4 " if kind == "socks5" else ""
    assert p.targets == [f"{prefix}127.0.0.1:{port}"]


def test_a_name_resolving_to_a_refused_address_never_reaches_the_proxy(proxy):
    config = Config(
        resolve={"internal.test": ("10.0.0.7",)}, proxy=proxy.url(), rate_limit_seconds=0
    )
    with WebClient(config) as c, pytest.raises(BlockedURLError) as info:
        c.get("http://internal.test/")
    assert info.value.reason == "private-address"
    assert proxy.connections == 0
    assert proxy.targets == []


def test_the_proxy_address_itself_is_not_subject_to_the_policy(httpserver, socks):
    """The proxy listens on loopback, which the default policy refuses: it is still used,
    while a loopback *target* stays refused."""
    config = Config(proxy=socks.url(), rate_limit_seconds=0)
    with WebClient(config) as c, pytest.raises(BlockedURLError):
        c.get(httpserver.url_for("/"))
    assert socks.connections == 0


def test_every_redirect_hop_goes_through_the_proxy_and_is_rechecked(httpserver, proxy):
    port = httpserver.port
    httpserver.expect_request("/a").respond_with_data(
        "", status=302, headers={"Location": f"http://other.test:{port}/b"}
    )
    httpserver.expect_request("/b").respond_with_data(
        "", status=302, headers={"Location": "http://evil.test/c"}
    )
    config = named("site.test", "other.test", proxy=proxy.url())
    config = config.replace(resolve={**config.resolve, "evil.test": ("10.1.2.3",)})
    with WebClient(config) as c, pytest.raises(BlockedURLError) as info:
        c.get(f"http://site.test:{port}/a")
    assert info.value.reason == "private-address"
    assert "redirected from" in str(info.value)
    # Two hops reached the proxy, each as the checked literal; the third never did.
    assert proxy.targets == [f"127.0.0.1:{port}", f"127.0.0.1:{port}"]


def test_downloads_take_the_same_path(httpserver, socks, tmp_path):
    httpserver.expect_request("/f.bin").respond_with_data(
        b"\x00" * 1000, content_type="application/x-thing"
    )
    port = httpserver.port
    config = named("files.test", proxy=socks.url(), download_dirs=(str(tmp_path),))
    with WebClient(config) as c:
        d = c.download(f"http://files.test:{port}/f.bin")
    assert d.size == 1000
    assert socks.targets == [f"ipv4 127.0.0.1:{port}"]


# --- TLS through the tunnel is for the name ---------------------------------------------------


@pytest.fixture
def site_server(tls_ca):
    """An HTTPS server with a certificate for ``site.test`` only (not for 127.0.0.1)."""
    from pytest_httpserver import HTTPServer

    ca, _ = tls_ca
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("site.test").configure_cert(ctx)
    server = HTTPServer(host="127.0.0.1", ssl_context=ctx)
    server.start()
    server.expect_request("/").respond_with_handler(host_echo)
    yield server
    server.clear()
    server.stop()


@pytest.mark.parametrize("kind", ["http", "socks5"])
def test_https_through_the_proxy_verifies_the_certificate_for_the_name(
    site_server, ca_bundle, kind
):
    port = site_server.port
    with RecordingProxy(kind) as p:
        config = named("site.test", "wrong.test", proxy=p.url(), ca_bundle=ca_bundle)
        with WebClient(config) as c:
            r = c.get(f"https://site.test:{port}/")
            assert r.text == f"host=site.test:{port}"
            # Same address, another name: the certificate does not match it.
            with pytest.raises(ConnectError) as info:
                c.get(f"https://wrong.test:{port}/")
    assert info.value.reason == "tls"
    assert not isinstance(info.value, ProxyError)
    prefix = "ipv4 " if kind == "socks5" else ""
    assert p.targets == [f"{prefix}127.0.0.1:{port}"] * 2


def test_an_https_proxy_carries_tls_to_the_site_inside_tls_to_the_proxy(
    site_server, tls_ca, ca_bundle
):
    _, proxy_cert = tls_ca  # issued for 127.0.0.1
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    proxy_cert.configure_cert(ctx)
    port = site_server.port
    with RecordingProxy("http", tls=ctx) as p:
        assert p.url().startswith("https://")
        config = named("site.test", proxy=p.url(), ca_bundle=ca_bundle)
        with WebClient(config) as c:
            assert c.get(f"https://site.test:{port}/").text == f"host=site.test:{port}"
    assert p.targets == [f"127.0.0.1:{port}"]


def test_an_https_proxy_with_an_untrusted_certificate_is_a_proxy_error(httpserver, tls_ca):
    _, proxy_cert = tls_ca
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    proxy_cert.configure_cert(ctx)
    with RecordingProxy("http", tls=ctx) as p:
        with WebClient(loopback_config(proxy=p.url())) as c, pytest.raises(ProxyError) as info:
            c.get(httpserver.url_for("/"))  # no ca_bundle: the test CA is not trusted
        assert p.targets == []
    assert info.value.reason == "proxy-tls"


# --- credentials ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["http", "socks5"])
def test_proxy_credentials_right_and_wrong(httpserver, kind):
    httpserver.expect_request("/").respond_with_data("ok")
    url = httpserver.url_for("/")
    with RecordingProxy(kind, auth=("agent", SECRET)) as p:
        with WebClient(loopback_config(proxy=p.url(f"agent:{SECRET}"))) as c:
            assert c.get(url).text == "ok"
        for user_info in (f"agent:wrong-{SECRET}x", ""):
            config = loopback_config(proxy=p.url(user_info))
            with WebClient(config) as c, pytest.raises(ProxyError) as info:
                c.get(url)
            e = info.value
            assert e.reason == "proxy-auth"
            assert isinstance(e, ConnectError)
            assert f"127.0.0.1:{p.port}" in str(e)
            for shown in (str(e), repr(e), repr(e.args), repr(e.__dict__)):
                assert SECRET not in shown
    if kind == "http":
        assert p.auth_seen[0] == "Basic YWdlbnQ6czNjcjN0LXB3"  # base64("agent:s3cr3t-pw")


def test_credentials_are_percent_decoded(httpserver):
    httpserver.expect_request("/").respond_with_data("ok")
    with RecordingProxy("socks5", auth=("a@b", "p:w/%")) as p:
        config = loopback_config(proxy=p.url("a%40b:p%3Aw%2F%25"))
        with WebClient(config) as c:
            assert c.get(httpserver.url_for("/")).text == "ok"


def test_credentials_never_show_in_config_repr_or_tool_errors(httpserver):
    httpserver.expect_request("/").respond_with_data("ok")
    with RecordingProxy("http", auth=("agent", "right")) as p:
        config = loopback_config(
            proxy=p.url(f"agent:{SECRET}"), proxy_for={"x.test": p.url(f"agent:{SECRET}")}
        )
        assert SECRET not in repr(config)
        assert SECRET not in str(config)
        out = Tools(config).fetch_page(httpserver.url_for("/"))
    assert out.startswith("Error:")
    assert "proxy" in out
    assert SECRET not in out


def test_socks5h_and_other_schemes_are_refused_at_config_time():
    with pytest.raises(ValueError, match="pinned"):
        Config(proxy=f"socks5h://u:{SECRET}@127.0.0.1:1080")
    with pytest.raises(ValueError, match="pinned"):
        Config(proxy_for={"a.test": "socks5h://127.0.0.1:1080"})
    for bad in (
        f"socks4://u:{SECRET}@p:1",
        f"ftp://u:{SECRET}@p",
        "p:3128",
        f"http://u:{SECRET}@p/path",
        "",
    ):
        with pytest.raises(ValueError) as info:
            Config(proxy=bad)
        assert SECRET not in str(info.value)
    with pytest.raises(ValueError):
        Config(proxy_for={"a.test": "nowhere"})


# --- failures are typed -----------------------------------------------------------------------


def test_an_unreachable_proxy_is_a_proxy_error(httpserver):
    with RecordingProxy("http") as p:
        dead = p.port
    config = loopback_config(proxy=f"http://127.0.0.1:{dead}")
    with WebClient(config) as c, pytest.raises(ProxyError) as info:
        c.get(httpserver.url_for("/"))
    assert info.value.reason == "proxy-connect"
    assert f"http://127.0.0.1:{dead}" in str(info.value)


@pytest.mark.parametrize("kind", ["http", "socks5"])
def test_a_tunnel_the_proxy_refuses_is_a_proxy_error(httpserver, kind):
    port = httpserver.port
    refused = frozenset({f"127.0.0.1:{port}"})
    with (
        RecordingProxy(kind, refuse=refused) as p,
        WebClient(loopback_config(proxy=p.url())) as c,
        pytest.raises(ProxyError) as info,
    ):
        c.get(httpserver.url_for("/"))
    assert info.value.reason == "proxy-refused"
    assert f"127.0.0.1:{port}" in str(info.value)


class JunkServer:
    """Accepts connections on loopback and answers each with ``reply`` (nothing: stays
    silent until closed)."""

    def __init__(self, reply: bytes):
        self.reply = reply
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.sock.settimeout(0.05)
        self.stop = threading.Event()
        self.conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:  # the accept timeout: look at the stop flag
                continue
            self.conns.append(conn)
            if self.reply:
                with contextlib.suppress(OSError):
                    conn.sendall(self.reply)
                    conn.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()
        for c in self.conns:
            c.close()


@pytest.mark.parametrize("scheme", ["http", "socks5"])
def test_a_proxy_that_speaks_another_protocol_says_so(httpserver, scheme):
    junk = JunkServer(b"SSH-2.0-OpenSSH_9.6\r\n")
    try:
        config = loopback_config(proxy=f"{scheme}://127.0.0.1:{junk.port}")
        with WebClient(config) as c, pytest.raises(ProxyError) as info:
            c.get(httpserver.url_for("/"))
    finally:
        junk.close()
    assert info.value.reason == "proxy-protocol"


def test_a_silent_proxy_times_out_within_connect_timeout(httpserver):
    junk = JunkServer(b"")
    try:
        config = loopback_config(proxy=f"http://127.0.0.1:{junk.port}", connect_timeout=0.3)
        with WebClient(config) as c, pytest.raises(FetchTimeoutError) as info:
            c.get(httpserver.url_for("/"))
    finally:
        junk.close()
    assert f"127.0.0.1:{junk.port}" in str(info.value)


# --- routing ----------------------------------------------------------------------------------


def test_proxy_for_routes_by_domain_most_specific_first(httpserver):
    httpserver.expect_request("/").respond_with_handler(host_echo)
    port = httpserver.port
    names = ("a.test", "www.a.test", "intra.a.test", "b.test", "c.test")
    with RecordingProxy("http") as first, RecordingProxy("socks5") as second:
        config = named(
            *names,
            proxy=first.url(),
            proxy_for={"a.test": second.url(), "intra.a.test": "direct", "b.test": "DIRECT"},
        )
        with WebClient(config) as c:
            for name in names:
                assert c.get(f"http://{name}:{port}/").text == f"host={name}:{port}"
    assert second.targets == [f"ipv4 127.0.0.1:{port}"] * 2  # a.test, www.a.test
    assert first.targets == [f"127.0.0.1:{port}"]  # c.test
    # intra.a.test and b.test went direct.


def test_environment_proxies_are_ignored_unless_trusted(httpserver, proxy, monkeypatch):
    httpserver.expect_request("/").respond_with_data("ok")
    port = httpserver.port
    url = f"http://site.test:{port}/"
    for name in (
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
        "no_proxy",
        "NO_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"127.0.0.1:{proxy.port}")  # no scheme: http://
    with WebClient(named("site.test")) as c:
        assert c.get(url).text == "ok"
    assert proxy.connections == 0
    with WebClient(named("site.test", trust_env_proxy=True)) as c:
        assert c.get(url).text == "ok"
    assert proxy.targets == [f"127.0.0.1:{port}"]
    monkeypatch.setenv("NO_PROXY", "example.org, .site.test:8080")
    with WebClient(named("site.test", trust_env_proxy=True)) as c:
        assert c.get(url).text == "ok"
    assert len(proxy.targets) == 1
    # An explicit proxy wins over the environment.
    monkeypatch.setenv("HTTP_PROXY", "socks5h://127.0.0.1:1")
    with WebClient(named("site.test", trust_env_proxy=True, proxy=proxy.url())) as c:
        assert c.get(url).text == "ok"
    assert len(proxy.targets) == 2
    # A refused environment value is named, not used.
    with pytest.raises(ValueError, match=r"\$HTTP_PROXY.*pinned"):
        WebClient(named("site.test", trust_env_proxy=True))


def test_config_from_env_reads_the_proxy_settings():
    config = Config.from_env(
        {
            "WEBGRIP_PROXY": "socks5://127.0.0.1:1080",
            "WEBGRIP_PROXY_FOR": "intra.test=direct;x.test=http://p:1",
            "WEBGRIP_TRUST_ENV_PROXY": "true",
        }
    )
    assert config.proxy == "socks5://127.0.0.1:1080"
    assert config.proxy_for == {"intra.test": "direct", "x.test": "http://p:1"}
    assert config.trust_env_proxy is True


def test_rendering_is_refused_rather_than_bypassing_the_proxy(proxy):
    config = Config(allow_networks=LOOPBACK_NETWORKS, proxy=proxy.url(), render="always")
    with WebClient(config) as c, pytest.raises(RenderError) as info:
        c.fetch("http://127.0.0.1:9/")
    assert info.value.reason == "proxy"
    assert proxy.connections == 0


@pytest.mark.parametrize("kind", ["http", "socks5"])
def test_an_ipv6_target_is_asked_for_as_an_ipv6_literal(raw_server, kind):
    from helpers.loopback import reply

    server = raw_server(reply(200, b"over v6"), host="::1")
    with RecordingProxy(kind) as p:
        config = loopback_config(resolve={"six.test": ("::1",)}, proxy=p.url())
        with WebClient(config) as c:
            assert c.get(f"http://six.test:{server.port}/").text == "over v6"
    expected = f"[::1]:{server.port}"
    assert p.targets == [f"ipv6 {expected}" if kind == "socks5" else expected]
