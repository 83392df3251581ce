"""The URL/address policy through the public API: ``webgrip.check_url`` (never connects).

Every refused row asserts the *reason*, not just "some error", and that the message names
the URL. Allowed rows only use public literal addresses, so no DNS is needed.
"""

from __future__ import annotations

import pytest
import webgrip
from webgrip import BlockedURLError, Config, InvalidURLError, _core, check_url

REFUSED = [
    # IPv4, every spelling of loopback the WHATWG parser accepts
    ("http://127.0.0.1/", "loopback-address"),
    ("http://2130706433/", "loopback-address"),
    ("http://0177.0.0.1/", "loopback-address"),
    ("http://0x7f.1/", "loopback-address"),
    ("http://0x7f000001/", "loopback-address"),
    ("http://127.1/", "loopback-address"),
    ("http://127.0.1/", "loopback-address"),
    ("http://%31%32%37.0.0.1/", "loopback-address"),
    ("http://127.0.0.1.:8080/", "loopback-address"),
    # special names (RFC 6761): answered as loopback, never sent to DNS
    ("http://localhost/", "loopback-address"),
    ("http://localhost./", "loopback-address"),
    ("http://LocalHost:8000/", "loopback-address"),
    ("http://anything.localhost/", "loopback-address"),
    ("http://a.b.localhost./x", "loopback-address"),
    # the rest of the IPv4 table
    ("http://0.0.0.0/", "unspecified-address"),
    ("http://0/", "unspecified-address"),
    ("http://10.0.0.5/", "private-address"),
    ("http://0xa.0.0.5/", "private-address"),
    ("http://172.16.0.1/", "private-address"),
    ("http://172.31.255.255/", "private-address"),
    ("http://192.168.1.1/", "private-address"),
    ("http://100.64.0.0/", "private-address"),
    ("http://100.100.100.200/", "private-address"),
    ("http://169.254.169.254/latest/meta-data/", "link-local-address"),
    ("http://2852039166/", "link-local-address"),
    ("http://192.0.0.1/", "reserved-address"),
    ("http://192.0.2.1/", "documentation-address"),
    ("http://198.18.0.1/", "reserved-address"),
    ("http://198.19.255.255/", "reserved-address"),
    ("http://198.51.100.1/", "documentation-address"),
    ("http://203.0.113.1/", "documentation-address"),
    ("http://224.0.0.1/", "multicast-address"),
    ("http://240.0.0.1/", "reserved-address"),
    ("http://255.255.255.255/", "broadcast-address"),
    # IPv6 forms
    ("http://[::1]/", "loopback-address"),
    ("http://[0:0:0:0:0:0:0:1]/", "loopback-address"),
    ("http://[::]/", "unspecified-address"),
    ("http://[::ffff:127.0.0.1]/", "loopback-address"),
    ("http://[::ffff:7f00:1]/", "loopback-address"),
    ("http://[::ffff:169.254.169.254]/", "link-local-address"),
    ("http://[::ffff:10.0.0.1]/", "private-address"),
    ("http://[::127.0.0.1]/", "loopback-address"),
    ("http://[::ffff:0:127.0.0.1]/", "loopback-address"),
    ("http://[64:ff9b::127.0.0.1]/", "loopback-address"),
    ("http://[64:ff9b::a9fe:a9fe]/", "link-local-address"),
    ("http://[64:ff9b:1::8.8.8.8]/", "reserved-address"),
    ("http://[2002:7f00:1::1]/", "loopback-address"),
    ("http://[2002:808:808::1]/", "reserved-address"),
    ("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "reserved-address"),
    ("http://[2001:db8::1]/", "documentation-address"),
    ("http://[3fff::1]/", "documentation-address"),
    ("http://[5f00::1]/", "reserved-address"),
    ("http://[100::1]/", "reserved-address"),
    ("http://[fc00::1]/", "private-address"),
    ("http://[fd12:3456::1]/", "private-address"),
    ("http://[fe80::1]/", "link-local-address"),
    ("http://[fec0::1]/", "private-address"),
    ("http://[ff02::1]/", "multicast-address"),
    # scheme, userinfo and port rules
    ("ftp://8.8.8.8/", "scheme"),
    ("file:///etc/passwd", "scheme"),
    ("gopher://8.8.8.8/", "scheme"),
    ("javascript:alert(1)", "scheme"),
    ("http://user@8.8.8.8/", "userinfo"),
    ("http://user:secret@8.8.8.8/", "userinfo"),
    ("http://8.8.8.8@127.0.0.1/", "userinfo"),
    ("http://8.8.8.8:22/", "blocked-port"),
    ("http://8.8.8.8:0/", "blocked-port"),
    ("https://8.8.8.8:6379/", "blocked-port"),
    ("http://8.8.8.8:11211/", "blocked-port"),
]


@pytest.mark.parametrize(("url", "reason"), REFUSED)
def test_refused_with_reason(url, reason):
    with pytest.raises(BlockedURLError) as info:
        check_url(url)
    assert info.value.reason == reason
    assert info.value.url
    assert str(info.value).startswith(f"Refused {info.value.url}: ")


@pytest.mark.parametrize(
    ("url", "normalised"),
    [
        ("http://8.8.8.8/", "http://8.8.8.8/"),
        ("HTTPS://8.8.8.8:8443/a/../b?q=1#frag", "https://8.8.8.8:8443/b?q=1#frag"),
        ("http://134744072/", "http://8.8.8.8/"),
        ("http://[2606:4700:4700::1111]/", "http://[2606:4700:4700::1111]/"),
        ("http://[::ffff:8.8.8.8]/", "http://[::ffff:808:808]/"),
        ("http://[64:ff9b::8.8.8.8]/", "http://[64:ff9b::808:808]/"),
        ("  http://8.8.8.8/\n", "http://8.8.8.8/"),
    ],
)
def test_public_literals_allowed_and_normalised(url, normalised):
    assert check_url(url) == normalised


@pytest.mark.parametrize(
    "url", ["not a url", "http://", "http://[::1/", "http://256.256.256.256/", "/relative"]
)
def test_unparseable_is_invalid(url):
    with pytest.raises(InvalidURLError) as info:
        check_url(url)
    assert info.value.reason == "invalid-url"
    assert isinstance(info.value, ValueError)


def test_message_says_which_rule_in_plain_words():
    with pytest.raises(BlockedURLError) as info:
        check_url("http://10.0.0.5/")
    assert str(info.value) == (
        "Refused http://10.0.0.5/: 10.0.0.5 is a private address (10.0.0.0/8)"
    )
    with pytest.raises(BlockedURLError) as info:
        check_url("http://8.8.8.8:3306/")
    assert "port 3306 is blocked" in str(info.value)


def test_allow_networks_opens_a_range_on_purpose():
    cfg = Config(allow_networks=("10.1.0.0/16",))
    assert check_url("http://10.1.2.3/", cfg) == "http://10.1.2.3/"
    with pytest.raises(BlockedURLError) as info:
        check_url("http://10.2.0.1/", cfg)
    assert info.value.reason == "private-address"
    # Opening loopback for IPv4 does not open it for IPv6.
    cfg = Config(allow_networks=("127.0.0.0/8",))
    assert check_url("http://localhost:8080/", cfg) == "http://localhost:8080/"
    with pytest.raises(BlockedURLError):
        check_url("http://[::1]/", cfg)


def test_deny_networks_win_over_allow_networks():
    cfg = Config(allow_networks=("10.0.0.0/8",), deny_networks=("10.9.0.0/16", "8.8.8.0/24"))
    assert check_url("http://10.1.0.1/", cfg)
    for url in ["http://10.9.1.1/", "http://8.8.8.8/", "http://[::ffff:8.8.8.8]/"]:
        with pytest.raises(BlockedURLError) as info:
            check_url(url, cfg)
        assert info.value.reason == "denied-network"


def test_domain_lists_exact_or_subdomain_after_idna():
    cfg = Config(
        blocked_domains=("evil.example",),
        resolve={
            "evil.example": ("8.8.8.8",),
            "a.evil.example": ("8.8.8.8",),
            "notevil.example": ("8.8.8.8",),
            "xn--bcher-kva.example": ("8.8.8.8",),
        },
    )
    for url in ["http://evil.example/", "http://a.evil.example/", "http://EVIL.example./"]:
        with pytest.raises(BlockedURLError) as info:
            check_url(url, cfg)
        assert info.value.reason == "blocked-domain"
    assert check_url("http://notevil.example/", cfg) == "http://notevil.example/"

    cfg = cfg.replace(blocked_domains=(), allowed_domains=("bücher.example",))
    assert check_url("http://bücher.example/", cfg) == "http://xn--bcher-kva.example/"
    for url in ["http://notevil.example/", "http://8.8.8.8/"]:
        with pytest.raises(BlockedURLError) as info:
            check_url(url, cfg)
        assert info.value.reason == "not-allowed-domain"


def test_resolve_overrides_are_still_checked():
    cfg = Config(resolve={"internal.example": ("8.8.8.8", "10.0.0.7")})
    with pytest.raises(BlockedURLError) as info:
        check_url("http://internal.example/", cfg)
    assert info.value.reason == "private-address"
    assert "internal.example resolves to 10.0.0.7" in str(info.value)
    cfg = Config(resolve={"public.example": ("8.8.8.8", "2606:4700:4700::1111")})
    assert check_url("https://public.example/x", cfg) == "https://public.example/x"


def test_https_only_mode():
    cfg = Config(allow_http=False)
    with pytest.raises(BlockedURLError) as info:
        check_url("http://8.8.8.8/", cfg)
    assert info.value.reason == "scheme"
    assert check_url("https://8.8.8.8/", cfg) == "https://8.8.8.8/"


def test_blocked_ports_are_configurable():
    cfg = Config(blocked_ports=(8080,))
    assert check_url("http://8.8.8.8:22/", cfg) == "http://8.8.8.8:22/"
    with pytest.raises(BlockedURLError):
        check_url("http://8.8.8.8:8080/", cfg)
    with pytest.raises(BlockedURLError):  # port 0 is never usable
        check_url("http://8.8.8.8:0/", cfg)


@pytest.mark.parametrize(
    ("ip", "reason"),
    [
        ("100.63.255.255", None),
        ("100.64.0.0", "private-address"),
        ("100.127.255.255", "private-address"),
        ("100.128.0.0", None),
        ("192.0.0.9", None),
        ("192.0.0.8", "reserved-address"),
        ("::ffff:8.8.8.8", None),
        ("2001:4:112::1", None),
        ("2001:2::1", "reserved-address"),
        ("4000::1", "reserved-address"),
    ],
)
def test_check_ip_boundaries(ip, reason):
    assert _core.check_ip(ip) == reason


def test_check_ip_with_networks():
    assert _core.check_ip("127.0.0.1", ["127.0.0.0/8"]) is None
    assert _core.check_ip("127.0.0.1", ["127.0.0.0/8"], ["127.0.0.1/32"]) == "denied-network"
    with pytest.raises(ValueError):
        _core.check_ip("not-an-ip")


def test_errors_are_webgrip_errors():
    with pytest.raises(webgrip.WebgripError):
        check_url("http://127.0.0.1/")
