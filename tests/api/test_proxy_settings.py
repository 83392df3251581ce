"""``webgrip.proxies``: the routes the core gets from ``Config`` and, when trusted, the
environment (no network here; tests/security/test_upstream_proxy.py runs real tunnels)."""

from __future__ import annotations

import pytest
from webgrip import Config
from webgrip.config_file import load_values
from webgrip.proxies import core_routes, in_use, redact

ENV = {
    "HTTP_PROXY": "http://h:1",
    "https_proxy": "socks5://s:2",
    "ALL_PROXY": "http://a:3",
    "NO_PROXY": "intra.example, .corp.example:8443, 10.0.0.0/8, [::1]:80, *.dev.example",
}


def test_the_environment_is_read_only_when_trusted_and_proxy_is_unset():
    assert core_routes(Config(), ENV) == {"http_proxy": None, "https_proxy": None, "proxy_for": []}
    routes = core_routes(Config(trust_env_proxy=True), ENV)
    assert routes["http_proxy"] == "http://h:1"
    assert routes["https_proxy"] == "socks5://s:2"  # lower-case spelling first
    assert dict(routes["proxy_for"]) == {
        "intra.example": "direct",
        "corp.example": "direct",
        "::1": "direct",
        "dev.example": "direct",
    }
    explicit = core_routes(Config(trust_env_proxy=True, proxy="http://mine:9"), ENV)
    assert explicit == {
        "http_proxy": "http://mine:9",
        "https_proxy": "http://mine:9",
        "proxy_for": [],
    }


def test_all_proxy_fills_in_and_a_star_turns_the_environment_off():
    only_all = {"ALL_PROXY": "a:3"}
    routes = core_routes(Config(trust_env_proxy=True), only_all)
    assert routes["http_proxy"] == routes["https_proxy"] == "http://a:3"
    off = core_routes(Config(trust_env_proxy=True), {**only_all, "no_proxy": "*"})
    assert off["http_proxy"] is off["https_proxy"] is None
    assert not in_use(Config(trust_env_proxy=True), {**only_all, "no_proxy": "*"})
    assert in_use(Config(trust_env_proxy=True), only_all)


def test_proxy_for_wins_over_no_proxy():
    config = Config(trust_env_proxy=True, proxy_for={"intra.example": "socks5://x:1"})
    routes = core_routes(config, ENV)
    assert dict(routes["proxy_for"])["intra.example"] == "socks5://x:1"
    assert not in_use(Config(proxy_for={"a.example": "direct"}), {})


def test_redact_hides_user_info():
    assert redact("http://u:p@h:1") == "http://***@h:1"
    assert redact("socks5://h:1") == "socks5://h:1"
    assert redact("u:p@h") == "***"
    # A password with an unencoded "/" (or "?", "#") is hidden whole, not cut at the "/".
    assert redact("http://agent:hunter2/x@proxy.corp:3128") == "http://***@proxy.corp:3128"
    assert redact("http://agent:12/hunter2@p:1/") == "http://***@p:1/"


@pytest.mark.parametrize(
    "value", ["http://agent:hunter2/x@proxy.corp:3128", "http://agent:12/hunter2@proxy.corp:3128"]
)
def test_a_refused_proxy_url_never_shows_its_password(value, monkeypatch):
    with pytest.raises(ValueError) as refused:
        Config(proxy=value)
    assert "hunter2" not in str(refused.value) and "***@proxy.corp" in str(refused.value)
    monkeypatch.setenv("HTTPS_PROXY", value)
    with pytest.raises(ValueError) as from_env:
        core_routes(Config(trust_env_proxy=True), {"HTTPS_PROXY": value})
    assert "hunter2" not in str(from_env.value)


def test_config_file_and_environment_errors_do_not_echo_secret_values(tmp_path, monkeypatch):
    from webgrip.config import _FIELD_KINDS

    path = tmp_path / "webgrip.toml"
    path.write_text(
        'proxy_for = "http://agent:hunter2@proxy.corp:3128"\n'
        'site_headers = "Bearer sk-live-SECRET"\n'
    )
    with pytest.raises(ValueError) as refused:
        load_values(str(path), None, {}, _FIELD_KINDS)
    assert "hunter2" not in str(refused.value)
    path.write_text('site_headers = "Bearer sk-live-SECRET"\n')
    with pytest.raises(ValueError) as refused:
        load_values(str(path), None, {}, _FIELD_KINDS)
    assert "SECRET" not in str(refused.value)
    monkeypatch.setenv("WEBGRIP_PROXY_FOR", "x.test=http://agent:hun;ter2@proxy.corp:3128")
    with pytest.raises(ValueError) as refused:
        Config.from_env()
    assert "ter2" not in str(refused.value)


def test_no_proxy_entries_that_cannot_be_hosts_are_skipped():
    env = {
        "HTTPS_PROXY": "http://p:1",
        "NO_PROXY": "<local>, fe80::1%eth0, exa mple.com, intra.example, 127.0.0.1",
    }
    routes = core_routes(Config(trust_env_proxy=True), env)
    assert dict(routes["proxy_for"]) == {"intra.example": "direct", "127.0.0.1": "direct"}


def test_the_toml_file_takes_proxy_for_as_a_table(tmp_path):
    path = tmp_path / "webgrip.toml"
    path.write_text(
        'proxy = "http://p:3128"\ntrust_env_proxy = false\n'
        '[proxy_for]\n"intra.example" = "direct"\n'
    )
    from webgrip.config import _FIELD_KINDS

    values = load_values(str(path), None, {}, _FIELD_KINDS)
    config = Config(**values)
    assert config.proxy == "http://p:3128"
    assert config.proxy_for == {"intra.example": "direct"}


@pytest.mark.parametrize("value", ["http://p:99999", "http://[::1", "https://"])
def test_bad_proxy_urls_are_refused(value):
    with pytest.raises(ValueError, match="'proxy'"):
        Config(proxy=value)


@pytest.mark.parametrize("key", ["a.test:8080", "http://a.test", "a b", "", "a.test/x"])
def test_proxy_for_keys_are_domains_or_addresses(key):
    with pytest.raises(ValueError, match="proxy_for"):
        Config(proxy_for={key: "direct"})
    for fine in ("a.test", "*.a.test", ".a.test", "10.0.0.1", "::1", "[::1]"):
        Config(proxy_for={fine: "direct"})


def test_the_browser_stays_off_for_a_client_made_with_an_environment_proxy(monkeypatch):
    """The routes are read once: removing the variable later must not let a render (whose
    egress dials directly) bypass the proxy the client's requests still use."""
    from webgrip import RenderError, WebClient

    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    client = WebClient(Config(trust_env_proxy=True))
    monkeypatch.delenv("HTTPS_PROXY")
    with pytest.raises(RenderError) as refused:
        client.screenshot("https://example.com/")
    assert refused.value.reason == "proxy"
    client.close()
