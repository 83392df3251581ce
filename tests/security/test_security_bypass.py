"""Red-team regression suite: every SSRF bypass attempt against the guard, through the public API.

Each case is an attack an LLM-chosen URL (or a hostile server) could make. Refusals assert the
*specific* exception (``BlockedURLError`` / ``InvalidURLError``) and its ``.reason``, never
"some error": a DNS failure or a refused connection must not pass for a block.

Cases that need a connection use real loopback servers. The policy opens only
``127.0.0.1/32`` and ``::1/128`` (``GUARD``), so a tripwire listener on ``127.0.0.2`` is a
loopback address the guard must refuse; it counts connections, and every refused hop asserts
that it saw none. A few cases use the suite's usual ``127.0.0.0/8`` opening plus an explicit
``deny_networks`` entry, to test that deny wins.

Decisions documented here (see ``Policy::check_ip`` in ``rust/net/src/policy.rs``):

* An IPv4-mapped address (``::ffff:a.b.c.d``) *is* the IPv4 host (the kernel connects to it),
  so it follows the IPv4 rules both ways: ``allow_networks=127.0.0.0/8`` opens
  ``[::ffff:127.0.0.1]`` and ``deny_networks=10.0.0.0/8`` closes ``[::ffff:10.0.0.1]``.
* Translated or tunnelled forms (NAT64 ``64:ff9b::/96`` and ``64:ff9b:1::/48``, 6to4, Teredo,
  IPv4-compatible, SIIT ``::ffff:0:a.b.c.d``) reach a translator, not the host: an IPv4
  ``allow_networks`` entry does *not* open them; the built-in table keeps refusing them.
* ``deny_networks`` always win, also through every embedding: denying ``8.8.8.0/24`` refuses
  ``[64:ff9b::808:808]`` too (this was a hole), and a deny written in mapped form
  (``::ffff:8.8.8.0/120``) means the IPv4 network (it was silently ignored: a hole).
* A host name with an empty label (``example.com..``) is an invalid URL: one trailing dot was
  stripped, the rest slipped past ``blocked_domains`` and still resolved (a hole).
"""

from __future__ import annotations

import socket
import threading
import zlib

import pytest
from helpers.loopback import RawServer, http_response, reply
from webgrip import (
    BlockedURLError,
    Config,
    ConnectError,
    InvalidURLError,
    ResponseTooLargeError,
    WebClient,
    check_url,
)
from webgrip.config import DEFAULT_BLOCKED_PORTS

MiB = 1024 * 1024

#: Only 127.0.0.1 and ::1 are opened, so the rest of 127/8 stays refused (the tripwires).
GUARD_NETWORKS = ("127.0.0.1/32", "::1/128")
TRAP_HOST = "127.0.0.2"


def guard(**changes) -> Config:
    values = {"allow_networks": GUARD_NETWORKS, "rate_limit_seconds": 0, "timeout": 10.0}
    values.update(changes)
    return Config(**values)


def loopback(**changes) -> Config:
    """The suite's usual opening (all of 127/8 and ::1), with changes."""
    values = {
        "allow_networks": ("127.0.0.0/8", "::1/128"),
        "rate_limit_seconds": 0,
        "timeout": 10.0,
    }
    values.update(changes)
    return Config(**values)


def refused(url: str, reason: str, config: Config | None = None) -> BlockedURLError:
    with pytest.raises(BlockedURLError) as info:
        check_url(url, config)
    assert info.value.reason == reason, str(info.value)
    assert str(info.value).startswith("Refused ")
    return info.value


def invalid(url: str, config: Config | None = None) -> InvalidURLError:
    with pytest.raises(InvalidURLError) as info:
        check_url(url, config)
    assert info.value.reason == "invalid-url", str(info.value)
    return info.value


@pytest.fixture
def trap(raw_server) -> RawServer:
    """A tripwire on 127.0.0.2 (refused by ``guard()``): counts connections, answers none."""
    return raw_server(None, host=TRAP_HOST)


def redirector(raw_server, location: str | bytes, status: int = 302, host: str = "127.0.0.1"):
    """A server on an allowed address whose every answer redirects to ``location``."""
    if isinstance(location, str):
        # Latin-1 when it fits (so "\xff" is a raw non-UTF-8 byte), else UTF-8.
        try:
            loc = location.encode("latin-1")
        except UnicodeEncodeError:
            loc = location.encode("utf-8")
    else:
        loc = location

    def handle(conn: socket.socket, _head: bytes) -> None:
        conn.sendall(
            b"HTTP/1.1 %d X\r\nLocation: %s\r\nContent-Length: 0\r\n"
            b"Connection: close\r\n\r\n" % (status, loc)
        )

    return raw_server(handle, host=host)


def same_port_pair(allowed_hosts: tuple[str, ...], handler=None):
    """A tripwire on 127.0.0.2:P and listeners on each of ``allowed_hosts`` at the same P."""
    for _ in range(50):
        trap_server = RawServer(None, host=TRAP_HOST)
        others: list[RawServer] = []
        try:
            for h in allowed_hosts:
                others.append(RawServer(handler, host=h, port=trap_server.port))
        except OSError:
            for s in [trap_server, *others]:
                s.close()
            continue
        return trap_server, others
    pytest.skip("no port free on every loopback address")


# =========================================================================================
# 1. IPv4 encodings (check_url: the decision, no connection)
# =========================================================================================

IPV4_REFUSED = [
    ("http://2130706433/", "loopback-address"),  # decimal dword
    ("http://017700000001/", "loopback-address"),  # octal dword
    ("http://0x7f000001/", "loopback-address"),  # hex dword
    ("http://0X7F000001/", "loopback-address"),
    ("http://0177.0.0.1/", "loopback-address"),  # octal dotted
    ("http://0177.0000.0000.0001/", "loopback-address"),
    ("http://127.000.000.001/", "loopback-address"),  # leading zeros (octal zero)
    ("http://0x7f.0.0.1/", "loopback-address"),  # hex dotted
    ("http://0x7f.0x0.0x0.0x1/", "loopback-address"),
    ("http://0177.0x0.0.01/", "loopback-address"),  # mixed bases
    ("http://127.1/", "loopback-address"),  # short forms
    ("http://127.0.1/", "loopback-address"),
    ("http://0x7f.1/", "loopback-address"),
    ("http://127.0.0.1./", "loopback-address"),  # trailing dot
    ("http://%31%32%37.0.0.1/", "loopback-address"),  # percent-encoded
    ("http://127%2e0%2e0%2e1/", "loopback-address"),
    ("http://%30x7f.1/", "loopback-address"),
    ("http://１２７.０.０.１/", "loopback-address"),  # fullwidth digits
    ("http://０ｘ７ｆ.1/", "loopback-address"),
    ("http://①②⑦.⓪.⓪.①/", "loopback-address"),  # enclosed digits
    ("http://127。0。0。1/", "loopback-address"),  # ideographic full stop
    ("http://127．0．0．1/", "loopback-address"),  # fullwidth full stop
    ("http://127｡0｡0｡1/", "loopback-address"),  # halfwidth ideographic full stop
    ("http://0/", "unspecified-address"),
    ("http://0x0/", "unspecified-address"),
    ("http://00000/", "unspecified-address"),
    ("http://0.0.0.0/", "unspecified-address"),
    ("http://10.1/", "private-address"),
    ("http://0xa.0.0.1/", "private-address"),
    ("http://192.168.257/", "private-address"),  # 192.168.1.1
    ("http://3232235777/", "private-address"),  # 192.168.1.1
    ("http://0251.0376.0251.0376/", "link-local-address"),  # 169.254.169.254
    ("http://0xa9fea9fe/", "link-local-address"),
    ("http://0xA9.0xFE.0xA9.0xFE/", "link-local-address"),
    ("http://169.254.43518/", "link-local-address"),
    ("http://2852039166/", "link-local-address"),
    ("http://100.64.0.1/", "private-address"),  # CGNAT
    ("http://192.0.0.192/", "reserved-address"),  # Oracle Cloud metadata
    ("http://198.18.0.1/", "reserved-address"),
    ("http://4294967295/", "broadcast-address"),
    ("http://0xffffffff/", "broadcast-address"),
    ("http://240.0.0.1/", "reserved-address"),
]


@pytest.mark.parametrize(("url", "reason"), IPV4_REFUSED)
def test_ipv4_encodings_refused(url, reason):
    refused(url, reason)


IPV4_OVERFLOW = [
    "http://256.0.0.1/",
    "http://127.0.0.256/",
    "http://0x100000000/",
    "http://4294967296/",
    "http://999999999999/",
    "http://127.16777216/",
    "http://127.0.65536/",
    "http://0x7f.0.0.0x100/",
    "http://1.2.3.4.5/",
    "http://08.0.0.1/",  # not octal, not decimal
    "http://09.0.0.1/",
    "http://127.0.0.1../",  # empty label
]


@pytest.mark.parametrize("url", IPV4_OVERFLOW)
def test_ipv4_overflow_is_invalid_never_wrapped(url):
    invalid(url)


def test_leading_zero_is_octal_and_the_connection_goes_to_the_parsed_address():
    # WHATWG reads 0127 as octal (87): the URL handed to the transport is the serialised
    # form, so there is no second parser that could read it as 127.
    assert check_url("http://0127.0.0.1/") == "http://87.0.0.1/"
    assert check_url("http://８.８.８.８/") == "http://8.8.8.8/"


# =========================================================================================
# 2. IPv6 forms
# =========================================================================================

IPV6_REFUSED = [
    ("http://[::1]/", "loopback-address"),
    ("http://[0::1]/", "loopback-address"),
    ("http://[0000:0000:0000:0000:0000:0000:0000:0001]/", "loopback-address"),
    ("http://[::]/", "unspecified-address"),
    ("http://[0::]/", "unspecified-address"),
    ("http://[::ffff:127.0.0.1]/", "loopback-address"),  # mapped, dotted
    ("http://[::ffff:7f00:1]/", "loopback-address"),  # mapped, hex
    ("http://[::FFFF:7F00:0001]/", "loopback-address"),
    ("http://[0:0:0:0:0:ffff:127.0.0.1]/", "loopback-address"),
    ("http://[::ffff:0.0.0.0]/", "unspecified-address"),
    ("http://[::ffff:a9fe:a9fe]/", "link-local-address"),
    ("http://[::ffff:10.0.0.1]/", "private-address"),
    ("http://[::127.0.0.1]/", "loopback-address"),  # IPv4-compatible
    ("http://[::7f00:1]/", "loopback-address"),
    ("http://[::2]/", "unspecified-address"),  # compatible 0.0.0.2
    ("http://[::ffff:0:127.0.0.1]/", "loopback-address"),  # IPv4-translated (SIIT)
    ("http://[::ffff:0:7f00:1]/", "loopback-address"),
    ("http://[64:ff9b::7f00:1]/", "loopback-address"),  # NAT64 well-known
    ("http://[64:ff9b::127.0.0.1]/", "loopback-address"),
    ("http://[64:ff9b::a9fe:a9fe]/", "link-local-address"),
    ("http://[64:ff9b:1::7f00:1]/", "reserved-address"),  # NAT64 local-use /48
    ("http://[64:ff9b:1::808:808]/", "reserved-address"),
    ("http://[2002:7f00:1::]/", "loopback-address"),  # 6to4
    ("http://[2002:a9fe:a9fe::1]/", "link-local-address"),
    ("http://[2002:808:808::1]/", "reserved-address"),  # 6to4 of a public v4: still refused
    # Teredo, client 127.0.0.1 obfuscated (inverted: 80ff:fffe)
    ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "reserved-address"),
    ("http://[2001::1]/", "reserved-address"),
    ("http://[3fff::1]/", "documentation-address"),
    ("http://[3fff:fff:ffff::1]/", "documentation-address"),
    ("http://[5f00::1]/", "reserved-address"),
    ("http://[fec0::1]/", "private-address"),
    ("http://[feff::1]/", "private-address"),
    ("http://[fe80::1]/", "link-local-address"),
    ("http://[febf::1]/", "link-local-address"),
    ("http://[fc00::1]/", "private-address"),
    ("http://[fdff::1]/", "private-address"),
    ("http://[ff02::1]/", "multicast-address"),
    ("http://[100::1]/", "reserved-address"),
    ("http://[2001:db8::1]/", "documentation-address"),
    ("http://[1::1]/", "reserved-address"),  # outside 2000::/3
]


@pytest.mark.parametrize(("url", "reason"), IPV6_REFUSED)
def test_ipv6_forms_refused(url, reason):
    refused(url, reason)


IPV6_INVALID = [
    "http://[fe80::1%25eth0]/",  # zone ids
    "http://[::1%25lo]/",
    "http://[fe80::1%eth0]/",
    "http://[::ffff:127.1]/",
    "http://[:::1]/",
    "http://[::1/",
    "http://::1/",
    "http://[::1]x/",
]


@pytest.mark.parametrize("url", IPV6_INVALID)
def test_ipv6_malformed_and_zone_ids_are_invalid(url):
    invalid(url)


def test_public_ipv6_embeddings_allowed_where_they_reach_the_host():
    assert check_url("http://[::ffff:8.8.8.8]/") == "http://[::ffff:808:808]/"
    assert check_url("http://[64:ff9b::8.8.8.8]/") == "http://[64:ff9b::808:808]/"


# =========================================================================================
# 3. Host names (no DNS: special names, IDNA, percent-encoding; `resolve` simulates DNS)
# =========================================================================================

NAMES_REFUSED = [
    "http://localhost/",
    "http://LOCALHOST./",
    "http://LocalHost:8000/",
    "http://foo.localhost/",
    "http://a.b.LOCALHOST./x",
    "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/",
    "http://ｌｏｃａｌｈｏｓｔ/",
    "http://local\u00adhost/",  # soft hyphen, removed by IDNA
    "http://localhost\u200b/",  # zero-width space, removed by IDNA
    "http://localhost\u3002/",
    "http://%6c%6f%63%61%6c%68%6f%73%74/",
    "http://localhost%2e/",
    "http://localhoſt/",  # long s, mapped to "s" by IDNA
    "http://LOCALHOſT./",
    "http://ⅼocalhost/",  # small roman numeral fifty, mapped to "l"
]


@pytest.mark.parametrize("url", NAMES_REFUSED)
def test_localhost_names_refused_without_dns(url):
    err = refused(url, "loopback-address")
    assert "always means this machine" in str(err)


@pytest.mark.parametrize(
    "url",
    ["http://localhost../", "http://localhost.../", "http://.localhost/", "http://a..localhost/"],
)
def test_localhost_with_empty_labels_is_invalid(url):
    # Before the fix these escaped the localhost rule and went to DNS as "localhost.".
    invalid(url)


DNS_SIMULATED = [
    ("127.0.0.1.nip.io", ["127.0.0.1"], "loopback-address"),
    ("169.254.169.254.nip.io", ["169.254.169.254"], "link-local-address"),
    ("metadata.google.internal", ["169.254.169.254"], "link-local-address"),
    ("ip6-localhost", ["::1"], "loopback-address"),
    ("mapped.test", ["::ffff:127.0.0.1"], "loopback-address"),
    ("nat64.test", ["64:ff9b::a9fe:a9fe"], "link-local-address"),
    ("ula.test", ["fd00::1"], "private-address"),
    # rebinding-style mixed answers: one bad address refuses the host (fail closed)
    ("mixed.test", ["93.184.216.34", "127.0.0.1"], "loopback-address"),
    ("mixed2.test", ["10.0.0.1", "93.184.216.34"], "private-address"),
    ("mixed6.test", ["2606:4700:4700::1111", "fe80::1"], "link-local-address"),
]


@pytest.mark.parametrize(("name", "addrs", "reason"), DNS_SIMULATED)
def test_names_resolving_to_internal_addresses_refused(name, addrs, reason):
    err = refused(f"http://{name}/", reason, Config(resolve={name: addrs}))
    assert f"resolves to {addrs[0] if len(addrs) == 1 else ''}" in str(err)


def test_resolve_override_keys_and_urls_are_normalised_alike():
    cfg = Config(resolve={"Rebind.TEST.": ["127.0.0.1"]})
    refused("http://REBIND.test./", "loopback-address", cfg)
    refused("http://rebind.test/", "loopback-address", cfg)
    # control: the same override with a public address passes (no DNS, no connection)
    ok = Config(resolve={"Pinned.Test.": ["93.184.216.34"]})
    assert check_url("http://PINNED.test./x", ok) == "http://pinned.test./x"


def test_dns_failure_is_a_connect_error_not_a_block():
    # Guards the harness itself: an unresolvable name must not look like a policy refusal.
    with pytest.raises(ConnectError) as info:
        check_url("http://does-not-exist.invalid/")
    assert info.value.reason == "dns"


# =========================================================================================
# 4. Parser differentials: userinfo, fragments, backslashes, whitespace, long URLs
# =========================================================================================

PARSER_REFUSED = [
    ("http://example.com@127.0.0.1/", "userinfo"),
    ("http://user:pass@8.8.8.8/", "userinfo"),
    ("http://127.1.1.1:80@127.2.2.2:80/", "userinfo"),
    ("http://1.1.1.1 &@127.0.0.1# @3.3.3.3/", "userinfo"),  # Orange Tsai's triple host
    ("http://127.0.0.1%2f@example.com/", "userinfo"),
    ("http://@127.0.0.1/", "loopback-address"),  # empty userinfo is dropped by WHATWG
    ("http://127.0.0.1#@example.com/", "loopback-address"),
    ("http://127.0.0.1?@example.com/", "loopback-address"),
    ("http://127.0.0.1\\@example.com/", "loopback-address"),
    ("http://127.1.1.1:80\\@127.2.2.2:80/", "loopback-address"),
    ("http:\\\\127.0.0.1\\", "loopback-address"),
    ("http:/\\127.0.0.1/", "loopback-address"),
    ("http:\\/127.0.0.1/", "loopback-address"),
    ("http:/127.0.0.1", "loopback-address"),
    ("http:127.0.0.1/", "loopback-address"),
    ("http:///127.0.0.1/", "loopback-address"),
    ("\thttp://127.0.0.1/", "loopback-address"),
    ("  http://127.0.0.1/  ", "loopback-address"),
    ("http://127.0.0.1\t/", "loopback-address"),
    ("http://12\n7.0.0.1/", "loopback-address"),
    ("http://127.0.\r\n0.1/", "loopback-address"),
    ("ht\ttp://127.0.0.1/", "loopback-address"),
    ("http://127.0.0.1/" + "a" * 100_000, "loopback-address"),
    ("http://" + "a" * 63 + ".localhost/", "loopback-address"),
]


@pytest.mark.parametrize(("url", "reason"), PARSER_REFUSED)
def test_parser_differentials_refused(url, reason):
    refused(url, reason)


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com%00.127.0.0.1/",
        "http://127.0.0.1%00.example.com/",
        "http://exa mple.com/",
        "//127.0.0.1/",
        "127.0.0.1",
        "http://",
    ],
)
def test_unparseable_hosts_invalid(url):
    invalid(url)


# =========================================================================================
# 5. Schemes
# =========================================================================================

SCHEMES = [
    "file:///etc/passwd",
    "FILE:///etc/passwd",
    "file://127.0.0.1/etc/passwd",
    "gopher://127.0.0.1:70/_GET%20/",
    "ftp://8.8.8.8/",
    "sftp://8.8.8.8/",
    "tftp://8.8.8.8/x",
    "dict://8.8.8.8:11111/",
    "ldap://8.8.8.8/",
    "data:text/html,<script>alert(1)</script>",
    "javascript:alert(1)",
    "jar:http://8.8.8.8/x.jar!/",
    "netdoc:///etc/passwd",
    "ws://8.8.8.8/",
    "wss://8.8.8.8/",
    "blob:http://8.8.8.8/uuid",
    "view-source:http://8.8.8.8/",
    "http+unix://%2Frun%2Fdocker.sock/info",
    "hxxp://8.8.8.8/",
    "localhost:8080",
]


@pytest.mark.parametrize("url", SCHEMES)
def test_non_http_schemes_refused(url):
    refused(url, "scheme")


@pytest.mark.parametrize("url", ["HTTP://127.0.0.1/", "HtTpS://127.0.0.1/"])
def test_uppercase_schemes_are_still_checked(url):
    refused(url, "loopback-address")


@pytest.mark.parametrize("url", ["http://8.8.8.8/", "HTTP://8.8.8.8/", "http:8.8.8.8"])
def test_https_only_mode_refuses_http_spellings(url):
    refused(url, "scheme", Config(allow_http=False))


# =========================================================================================
# 6. Ports
# =========================================================================================


@pytest.mark.parametrize("port", DEFAULT_BLOCKED_PORTS)
def test_every_default_blocked_port_refused(port):
    refused(f"http://8.8.8.8:{port}/", "blocked-port")


@pytest.mark.parametrize(
    "url",
    [
        "http://8.8.8.8:0/",
        "http://8.8.8.8:00/",
        "http://8.8.8.8:0022/",
        "https://8.8.8.8:000006379/",
        "http://[2606:4700::1]:22/",
    ],
)
def test_port_spellings_refused(url):
    refused(url, "blocked-port")


@pytest.mark.parametrize(
    "url",
    [
        "http://8.8.8.8:65536/",
        "http://8.8.8.8:99999/",
        "http://8.8.8.8:-1/",
        "http://8.8.8.8:80a/",
        "http://8.8.8.8: 80/",
        "http://8.8.8.8:80:80/",
    ],
)
def test_bad_ports_invalid(url):
    invalid(url)


def test_leading_zero_port_normalised_and_custom_blocked_ports():
    assert check_url("http://8.8.8.8:000080/") == "http://8.8.8.8/"
    refused("http://8.8.8.8/", "blocked-port", Config(blocked_ports=(80,)))  # implicit port
    refused("https://8.8.8.8:08443/", "blocked-port", Config(blocked_ports=(8443,)))


# =========================================================================================
# 7. allow_networks / deny_networks: embedding must not open or bypass anything
# =========================================================================================


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://[64:ff9b::7f00:1]/", "loopback-address"),
        ("http://[64:ff9b:1::7f00:1]/", "reserved-address"),
        ("http://[::127.0.0.1]/", "loopback-address"),
        ("http://[::ffff:0:7f00:1]/", "loopback-address"),
        ("http://[2002:7f00:1::1]/", "loopback-address"),
        ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "reserved-address"),
        ("http://0.0.0.0/", "unspecified-address"),  # connects to localhost on Linux
        ("http://[::]/", "unspecified-address"),
    ],
)
def test_ipv4_allow_does_not_open_translated_forms(url, reason):
    refused(url, reason, Config(allow_networks=("127.0.0.0/8",)))


def test_ipv4_allow_opens_the_mapped_form_only():
    cfg = Config(allow_networks=("127.0.0.0/8",))
    assert check_url("http://[::ffff:127.0.0.1]/", cfg) == "http://[::ffff:7f00:1]/"
    # and an IPv6 allow of ::1 opens neither the IPv4 loopback nor its mapped form
    cfg6 = Config(allow_networks=("::1/128",))
    refused("http://127.0.0.1/", "loopback-address", cfg6)
    refused("http://[::ffff:127.0.0.1]/", "loopback-address", cfg6)
    # an intranet allow does not open NAT64 of the intranet either
    refused("http://[64:ff9b::a00:1]/", "private-address", Config(allow_networks=("10.0.0.0/8",)))


@pytest.mark.parametrize(
    "url",
    [
        "http://8.8.8.8/",
        "http://134744072/",
        "http://[::ffff:8.8.8.8]/",
        "http://[64:ff9b::808:808]/",  # was allowed: the NAT64 bypass of deny_networks
        "http://[64:ff9b::8.8.8.8]/",
    ],
)
def test_deny_networks_win_through_every_spelling(url):
    err = refused(url, "denied-network", Config(deny_networks=("8.8.8.0/24",)))
    assert "deny_networks" in str(err)


def test_deny_networks_apply_to_resolved_names_through_nat64():
    cfg = Config(deny_networks=("8.8.8.0/24",), resolve={"dns64.test": ["64:ff9b::808:808"]})
    refused("http://dns64.test/", "denied-network", cfg)


@pytest.mark.parametrize(
    "url", ["http://8.8.8.8/", "http://[::ffff:8.8.8.8]/", "http://[64:ff9b::808:808]/"]
)
def test_deny_networks_written_in_mapped_form_are_not_ignored(url):
    # Before the fix a mapped-form CIDR never matched anything (addresses are judged as IPv4).
    refused(url, "denied-network", Config(deny_networks=("::ffff:8.8.8.0/120",)))


def test_deny_beats_allow_for_the_same_range():
    cfg = Config(allow_networks=("127.0.0.0/8",), deny_networks=("127.0.0.2/32",))
    for url in [
        "http://127.0.0.2/",
        "http://2130706434/",
        "http://[::ffff:127.0.0.2]/",
        "http://127.0.2/",
    ]:
        refused(url, "denied-network", cfg)
    assert check_url("http://127.0.0.1/", cfg) == "http://127.0.0.1/"


def test_mapped_form_allow_is_refused_naming_the_ipv4_network():
    # An IPv6 entry never opens IPv4 (::/0 opens none of it), so its mapped subset may not
    # either: written that way it is refused, with the IPv4 spelling to use instead.
    with pytest.raises(ValueError, match=r"Write it as IPv4: 127\.0\.0\.0/8"):
        Config(allow_networks=("::ffff:127.0.0.0/104",))
    cfg = Config(allow_networks=("127.0.0.0/8",))
    assert check_url("http://127.0.0.1/", cfg) == "http://127.0.0.1/"
    assert check_url("http://[::ffff:127.0.0.1]/", cfg) == "http://[::ffff:7f00:1]/"


# =========================================================================================
# 8. allowed_domains / blocked_domains: exact-or-subdomain on the IDNA-normalised host
# =========================================================================================

PUBLIC = ["93.184.216.34"]
NAMES = [
    "example.com",
    "www.example.com",
    "evilexample.com",
    "example.com.evil.org",
    "notexample.com",
    "example.co",
    "evil.org",
    "xn--xample-2of.com",
    "xn--bcher-kva.example",
]
DOMAIN_RESOLVE = {n: PUBLIC for n in NAMES}


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://evilexample.com/", "not-allowed-domain"),
        ("http://example.com.evil.org/", "not-allowed-domain"),
        ("http://notexample.com/", "not-allowed-domain"),
        ("http://example.co/", "not-allowed-domain"),
        ("http://evil.org#.example.com", "not-allowed-domain"),
        ("http://evil.org?.example.com", "not-allowed-domain"),
        ("http://evil.org\\.example.com", "not-allowed-domain"),
        ("http://evil.org/.example.com", "not-allowed-domain"),
        ("http://еxample.com/", "not-allowed-domain"),  # Cyrillic е: punycode, another name
        ("http://example.com@evil.org/", "userinfo"),
        ("http://93.184.216.34/", "not-allowed-domain"),  # the IP of an allowed name is not it
    ],
)
def test_allowed_domains_suffix_tricks_refused(url, reason):
    refused(url, reason, Config(allowed_domains=("example.com",), resolve=DOMAIN_RESOLVE))


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/",
        "http://EXAMPLE.COM./",
        "http://www.example.com/",
        "http://ex%61mple.com/",
        "http://ｅｘａｍｐｌｅ.ｃｏｍ/",
    ],
)
def test_allowed_domains_accept_spellings_of_the_domain(url):
    cfg = Config(allowed_domains=("*.Example.COM.",), resolve=DOMAIN_RESOLVE)
    assert check_url(url, cfg).startswith(("http://example.com", "http://www.example.com"))


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/",
        "http://WWW.Example.com./",
        "http://ex%61mple.com/",
        "http://ｅｘａｍｐｌｅ.ｃｏｍ/",
    ],
)
def test_blocked_domains_catch_spellings(url):
    refused(url, "blocked-domain", Config(blocked_domains=("example.com",), resolve=DOMAIN_RESOLVE))


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com../",
        "http://example.com.../",
        "http://www..example.com/",
        "http://.example.com/",
    ],
)
def test_blocked_domains_not_bypassed_by_empty_labels(url):
    # `example.com..` used to pass blocked_domains and resolve as `example.com.`.
    invalid(url, Config(blocked_domains=("example.com",), resolve=DOMAIN_RESOLVE))


def test_blocked_domains_list_entry_with_extra_dots_still_blocks():
    refused(
        "http://example.com/",
        "blocked-domain",
        Config(blocked_domains=("example.com..",), resolve=DOMAIN_RESOLVE),
    )


def test_blocked_domains_do_not_overreach():
    cfg = Config(blocked_domains=("example.com",), resolve=DOMAIN_RESOLVE)
    assert check_url("http://evilexample.com/", cfg) == "http://evilexample.com/"
    assert check_url("http://example.com.evil.org/", cfg) == "http://example.com.evil.org/"


@pytest.mark.parametrize(
    "url",
    [
        "http://8.8.8.8/",
        "http://134744072/",
        "http://[::ffff:8.8.8.8]/",
        "http://[64:ff9b::808:808]/",
        "http://dns.test/",
    ],
)
def test_ip_literal_in_blocked_domains_blocks_every_spelling(url):
    # Used to be a string match only: the mapped, NAT64 and resolved-name forms got through.
    cfg = Config(blocked_domains=("8.8.8.8",), resolve={"dns.test": ["8.8.8.8"]})
    err = refused(url, "blocked-domain", cfg)
    assert "blocked_domains" in str(err)


def test_blocked_domains_idna_both_ways_and_ip_literals():
    refused(
        "http://xn--bcher-kva.example/",
        "blocked-domain",
        Config(blocked_domains=("bücher.example",), resolve=DOMAIN_RESOLVE),
    )
    refused(
        "http://BÜCHER.example/",
        "blocked-domain",
        Config(blocked_domains=("xn--bcher-kva.example",), resolve=DOMAIN_RESOLVE),
    )
    refused("http://134744072/", "blocked-domain", Config(blocked_domains=("8.8.8.8",)))


# =========================================================================================
# 9. Through the client: denied hosts are never contacted (tripwire listeners)
# =========================================================================================

TRAP_SPELLINGS = [
    "127.0.0.2",
    "2130706434",
    "0x7f000002",
    "017700000002",
    "0177.0.0.2",
    "0x7f.0.0.2",
    "127.2",
    "127.0.2",
    "0177.0x0.0.02",
    "127.0.0.2.",
    "１２７.０.０.２",
    "%31%32%37.0.0.2",
    "127。0。0。2",
    "[::ffff:127.0.0.2]",
    "[::ffff:7f00:2]",
    "[::127.0.0.2]",
    "[64:ff9b::7f00:2]",
    "[2002:7f00:2::]",
    "[::ffff:0:7f00:2]",
]


@pytest.mark.parametrize("host", TRAP_SPELLINGS)
def test_direct_get_to_denied_spelling_never_connects(trap, host):
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(f"http://{host}:{trap.port}/")
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


@pytest.mark.parametrize("host", TRAP_SPELLINGS)
def test_redirect_to_denied_spelling_never_connects(raw_server, trap, host):
    start = redirector(raw_server, f"http://{host}:{trap.port}/")
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "loopback-address"
    assert "redirected from" in str(info.value)
    assert start.connections == 1
    assert trap.connections == 0


@pytest.mark.parametrize(
    "name",
    [
        "localhost",
        "LOCALHOST.",
        "foo.localhost",
        "a.b.LocalHost.",
        "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ",
        "%6c%6f%63%61%6c%68%6f%73%74",
        "localho%C5%BFt",
        "127.0.0.1.nip.io",
        "ip6-loopback.test",
    ],
)
def test_redirect_to_names_meaning_this_machine(raw_server, name):
    # Only ::1 is opened: the start server lives there, the tripwire on 127.0.0.1.
    target = raw_server(None, host="127.0.0.1")
    start = redirector(raw_server, f"http://{name}:{target.port}/", host="::1")
    cfg = Config(
        allow_networks=("::1/128",),
        rate_limit_seconds=0,
        timeout=10.0,
        resolve={"127.0.0.1.nip.io": ["127.0.0.1"], "ip6-loopback.test": ["::1", "127.0.0.1"]},
    )
    with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "loopback-address"
    assert start.connections == 1
    assert target.connections == 0


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("method", ["GET", "POST", "HEAD", "PUT"])
def test_every_redirect_status_and_method_is_rechecked(raw_server, trap, status, method):
    start = redirector(raw_server, f"http://[::ffff:127.0.0.2]:{trap.port}/", status=status)
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.request(method, start.url(), body=b"x" if method in ("POST", "PUT") else None)
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


@pytest.mark.parametrize(
    "template",
    [
        "//127.0.0.2:{p}/",  # protocol-relative
        "/\\127.0.0.2:{p}/",
        "\\\\127.0.0.2:{p}\\",
        "\\/127.0.0.2:{p}/",
        "http:\\\\127.0.0.2:{p}\\",
        "https:127.0.0.2:{p}/",  # another scheme without slashes: an authority
        "   http://127.0.0.2:{p}/   ",
        "\thttp://127.0.0.2:{p}/",
        "http://127.0.0.\t2:{p}/",
        "HTTP://127.0.0.2:{p}/",
        "http://127.0.0.2:{p}#@127.0.0.1/",
        "http://127.0.0.2:{p}/\xff\xfe",  # not UTF-8
        "//2130706434:{p}/",
        "//[::ffff:7f00:2]:{p}/",
        "//%31%32%37.0.0.2:{p}/",
    ],
)
def test_tricky_locations_resolved_then_refused(raw_server, trap, template):
    start = redirector(raw_server, template.format(p=trap.port))
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


@pytest.mark.parametrize(
    ("location", "reason"),
    [
        ("http://127.0.0.1@127.0.0.2:{p}/", "userinfo"),
        ("http://user:pw@127.0.0.1:{p}/", "userinfo"),
        ("file:///etc/passwd", "scheme"),
        ("gopher://127.0.0.1:{p}/_INFO", "scheme"),
        ("ftp://127.0.0.1:{p}/", "scheme"),
        ("dict://127.0.0.1:{p}/", "scheme"),
        ("data:text/html,hi", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("http://127.0.0.1:0/", "blocked-port"),
    ],
)
def test_redirect_to_refused_scheme_userinfo_or_port(raw_server, trap, location, reason):
    start = redirector(raw_server, location.format(p=trap.port))
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == reason
    assert trap.connections == 0


def test_redirect_control_reaches_allowed_target(raw_server):
    # The harness can fail: an allowed hop *is* followed and connected to.
    final = raw_server(reply(200, b"final"))
    start = redirector(raw_server, f"//localhost.:{final.port}/")
    with WebClient(guard()) as c:
        r = c.get(start.url())
    assert r.content == b"final"
    assert final.connections == 1
    assert r.remote_addr == f"127.0.0.1:{final.port}"


def test_same_scheme_without_slashes_is_a_relative_path(raw_server):
    # WHATWG: `http:127.0.0.2:P/` against an http base is a path on the same host.
    seen: list[bytes] = []

    def handle(conn, head):
        seen.append(head)
        if head.startswith(b"GET / "):
            conn.sendall(http_response(302, headers={"Location": "http:127.0.0.2:9/x"}))
        else:
            conn.sendall(http_response(200, b"same host"))

    server = raw_server(handle)
    with WebClient(guard()) as c:
        r = c.get(server.url())
    assert r.content == b"same host"
    assert seen[-1].startswith(b"GET /127.0.0.2:9/x ")


def test_redirect_to_a_blocked_port_on_an_allowed_address(raw_server):
    target = raw_server(None)  # on 127.0.0.1: allowed address, but its port is blocked
    start = redirector(raw_server, f"http://127.0.0.1:{target.port}/")
    cfg = guard(blocked_ports=(*DEFAULT_BLOCKED_PORTS, target.port))
    with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "blocked-port"
    assert target.connections == 0


@pytest.mark.parametrize(
    "location", ["http://127.0.0.1:65536/", "http://[::1/", "http://256.0.0.1/"]
)
def test_unparseable_location_is_invalid(raw_server, trap, location):
    start = redirector(raw_server, location)
    with WebClient(guard()) as c, pytest.raises(InvalidURLError):
        c.get(start.url())
    assert trap.connections == 0


@pytest.mark.parametrize("ctl", [b"\x00", b"\x01", b"\x0b", b"\x7f", b"\r"])
def test_location_with_control_characters(raw_server, trap, ctl):
    # A control byte in a header value makes the whole response malformed (ureq's parser);
    # the Location is never followed.
    loc = b"http://127.0.0.2:%d/%sx" % (trap.port, ctl)
    start = redirector(raw_server, loc)
    with WebClient(guard()) as c, pytest.raises(ConnectError) as info:
        c.get(start.url())
    assert info.value.reason == "bad-response"
    assert trap.connections == 0


def test_duplicate_location_headers_first_one_is_checked(raw_server, trap):
    raw = (
        b"HTTP/1.1 302 X\r\nLocation: http://127.0.0.2:%d/\r\nLocation: /fine\r\n"
        b"Content-Length: 0\r\nConnection: close\r\n\r\n" % trap.port
    )
    start = raw_server(lambda conn, head: conn.sendall(raw))
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


def test_interim_100_then_redirect_is_checked(raw_server, trap):
    raw = (
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 302 X\r\n"
        b"Location: http://127.0.0.2:%d/\r\nContent-Length: 0\r\n\r\n" % trap.port
    )
    start = raw_server(lambda conn, head: conn.sendall(raw))
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


def test_non_redirect_statuses_with_location_are_not_followed(raw_server, trap):
    for status in (300, 305, 201, 200):
        start = redirector(raw_server, f"http://127.0.0.2:{trap.port}/", status=status)
        with WebClient(guard()) as c:
            r = c.get(start.url())
        assert r.status == status
        assert r.redirects == ()
    assert trap.connections == 0


def test_https_to_http_downgrade_refused_before_connecting(https_server, ca_bundle, raw_server):
    target = raw_server(None)  # allowed address: only the downgrade rule stops it
    https_server.expect_request("/").respond_with_data(
        "", status=302, headers={"Location": f"http://127.0.0.1:{target.port}/"}
    )
    with WebClient(guard(ca_bundle=ca_bundle)) as c, pytest.raises(BlockedURLError) as info:
        c.get(https_server.url_for("/"))
    assert info.value.reason == "https-downgrade"
    assert target.connections == 0


def test_redirect_chain_that_reenters_is_a_loop(raw_server):
    a_port: list[int] = []

    def a(conn, head):
        conn.sendall(http_response(302, headers={"Location": f"http://127.0.0.1:{b.port}/"}))

    def b_handler(conn, head):
        # re-enter A under another spelling of the same URL
        conn.sendall(http_response(302, headers={"Location": f"http://2130706433:{a_port[0]}"}))

    b = raw_server(b_handler)
    first = raw_server(a)
    a_port.append(first.port)
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(first.url())
    assert info.value.reason == "redirect-loop"
    assert first.connections == 1
    assert b.connections == 1


def test_sixth_redirect_is_never_contacted(raw_server):
    last = raw_server(None)
    servers = [last]
    for _ in range(6):
        servers.append(redirector(raw_server, servers[-1].url()))
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(servers[-1].url())
    assert info.value.reason == "too-many-redirects"
    assert [s.connections for s in servers] == [0, 1, 1, 1, 1, 1, 1]


def test_credentials_not_carried_to_another_origin(raw_server):
    final = raw_server(reply(200, b"ok"))
    start = redirector(raw_server, final.url(), status=307)
    with WebClient(guard()) as c:
        c.get(start.url(), headers={"Authorization": "Bearer s3cret", "Cookie": "sid=1"})
    assert b"s3cret" in start.requests[0]
    assert b"s3cret" not in final.requests[0].lower()
    assert b"sid=1" not in final.requests[0].lower()


# =========================================================================================
# 10. DNS rebinding: `resolve` answers mixing allowed and denied addresses
# =========================================================================================


@pytest.mark.parametrize("order", ["allowed-first", "denied-first"])
def test_mixed_answers_refused_and_nobody_contacted(order):
    trap_server, (good,) = same_port_pair(("127.0.0.1",), reply(200, b"good"))
    try:
        addrs = ["127.0.0.1", "127.0.0.2"]
        if order == "denied-first":
            addrs.reverse()
        cfg = guard(resolve={"rebind.test": addrs})
        with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
            c.get(f"http://rebind.test:{trap_server.port}/")
        assert info.value.reason == "loopback-address"
        assert "rebind.test resolves to 127.0.0.2" in str(info.value)
        assert trap_server.connections == 0
        assert good.connections == 0
    finally:
        trap_server.close()
        good.close()


def test_mixed_ipv6_answers_with_mapped_denied_address():
    trap_server, (good,) = same_port_pair(("::1",), reply(200, b"good"))
    try:
        cfg = guard(resolve={"rebind6.test": ["::1", "::ffff:127.0.0.2"]})
        with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
            c.get(f"http://rebind6.test:{trap_server.port}/")
        assert info.value.reason == "loopback-address"
        assert trap_server.connections == 0
        assert good.connections == 0
    finally:
        trap_server.close()
        good.close()


def test_redirect_to_a_rebinding_name_refused(raw_server):
    trap_server, (good,) = same_port_pair(("127.0.0.1",), reply(200, b"good"))
    try:
        start = redirector(raw_server, f"http://rebind.test:{trap_server.port}/")
        cfg = guard(resolve={"rebind.test": ["127.0.0.1", "127.0.0.2"]})
        with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
            c.get(start.url())
        assert info.value.reason == "loopback-address"
        assert trap_server.connections == 0
        assert good.connections == 0
    finally:
        trap_server.close()
        good.close()


def test_pinned_name_connects_to_exactly_the_checked_address():
    trap_server, (good,) = same_port_pair(("127.0.0.1",), reply(200, b"good"))
    try:
        with WebClient(guard(resolve={"pinned.test": ["127.0.0.1"]})) as c:
            r = c.get(f"http://pinned.test:{good.port}/")
        assert r.content == b"good"
        assert r.remote_addr == f"127.0.0.1:{good.port}"
        assert good.connections == 1
        assert trap_server.connections == 0
    finally:
        trap_server.close()
        good.close()


def test_deny_network_wins_over_allow_for_a_live_listener(raw_server):
    # The brief's loopback opening (127/8) plus a deny of the trap: deny must win.
    trap_server = raw_server(None, host=TRAP_HOST)
    cfg = loopback(deny_networks=("127.0.0.2/32",))
    for url in [
        trap_server.url(),
        f"http://[::ffff:7f00:2]:{trap_server.port}/",
        f"http://2130706434:{trap_server.port}/",
    ]:
        with WebClient(cfg) as c, pytest.raises(BlockedURLError) as info:
            c.get(url)
        assert info.value.reason == "denied-network"
    assert trap_server.connections == 0


@pytest.mark.parametrize(
    ("host", "listen", "reason"),
    [
        ("0.0.0.0", "127.0.0.1", "unspecified-address"),
        ("0", "127.0.0.1", "unspecified-address"),
        ("[::]", "::1", "unspecified-address"),
        ("[::ffff:0.0.0.0]", "127.0.0.1", "unspecified-address"),
    ],
)
def test_unspecified_address_refused_even_when_it_would_reach_an_allowed_listener(
    raw_server, host, listen, reason
):
    # On Linux connecting to 0.0.0.0 / :: reaches this machine. The listener is on an
    # *allowed* address, so only the unspecified-address rule can stop it.
    target = raw_server(None, host=listen)
    with WebClient(loopback()) as c, pytest.raises(BlockedURLError) as info:
        c.get(f"http://{host}:{target.port}/")
    assert info.value.reason == reason
    assert target.connections == 0


# =========================================================================================
# 11. Proxy environment variables are ignored
# =========================================================================================

PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


def test_proxy_env_vars_never_used(raw_server, monkeypatch):
    proxy = raw_server(reply(200, b"from proxy"))
    site = raw_server(reply(200, b"direct"))
    for var in PROXY_VARS:
        monkeypatch.setenv(var, proxy.url())
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(var, raising=False)
    with WebClient(guard()) as c:
        assert c.get(site.url()).content == b"direct"
        with pytest.raises(BlockedURLError) as info:
            c.get(f"http://127.0.0.2:{proxy.port}/")
        assert info.value.reason == "loopback-address"
        with pytest.raises(ConnectError) as dns:
            c.get("http://no-such-host.invalid/")  # a proxy would have resolved it for us
        assert dns.value.reason == "dns"
    assert proxy.connections == 0
    assert site.connections == 1


# =========================================================================================
# 12. Hostile responses and request edge cases
# =========================================================================================


def test_request_header_injection_refused_before_connecting(raw_server):
    site = raw_server(reply(200, b"ok"))
    with WebClient(guard()) as c:
        for headers in (
            {"X-A": "a\r\nHost: 127.0.0.2"},
            {"X-A": "a\nX-B: b"},
            {"X-A\r\nX-B": "b"},
            {"Bad Name": "x"},
            {"X-A": "a\x00b"},
        ):
            with pytest.raises(ValueError):
                c.get(site.url(), headers=headers)
        for method in ("GET /x HTTP/1.1\r\nHost: a\r\n\r\nGET", "G ET", "GET\n", ""):
            with pytest.raises(ValueError):
                c.request(method, site.url())
    assert site.connections == 0


def test_nonstandard_methods_to_denied_hosts_refused(trap):
    with WebClient(guard()) as c:
        for method in ("CONNECT", "TRACE", "PROPFIND", "OPTIONS"):
            with pytest.raises(BlockedURLError):
                c.request(method, f"http://127.0.0.2:{trap.port}/")
    assert trap.connections == 0


def test_response_splitting_via_header_values(raw_server):
    raw = (
        b"HTTP/1.1 200 OK\r\nX-A: a\rSet-Cookie: injected=1\r\n"
        b"Content-Length: 2\r\nConnection: close\r\n\r\nok"
    )
    site = raw_server(lambda conn, head: conn.sendall(raw))
    with WebClient(guard()) as c, pytest.raises(ConnectError) as info:
        c.get(site.url())  # a bare CR inside a header value: the response is malformed
    assert info.value.reason == "bad-response"


def test_huge_header_count_refused(raw_server):
    many = b"".join(b"X-%d: v\r\n" % i for i in range(20000))
    raw = b"HTTP/1.1 200 OK\r\n" + many + b"Content-Length: 0\r\nConnection: close\r\n\r\n"
    site = raw_server(lambda conn, head: conn.sendall(raw))
    with WebClient(guard()) as c, pytest.raises(ConnectError) as info:
        c.get(site.url())
    assert info.value.reason == "bad-response"


def test_infinite_header_line_refused(raw_server):
    def handle(conn, _head):
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Endless: ")
        chunk = b"a" * 65536
        for _ in range(1024):  # 64 MiB at most, never a line end
            conn.sendall(chunk)

    site = raw_server(handle)
    with WebClient(guard()) as c, pytest.raises(ConnectError) as info:
        c.get(site.url())
    assert info.value.reason == "bad-response"


def test_chunked_body_with_huge_chunk_size_stops_at_the_cap(raw_server):
    def handle(conn, _head):
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
            b"\r\nffffffffffffffff\r\n"
        )
        for _ in range(64):  # 4 MiB of the announced 16 EiB
            conn.sendall(b"z" * 65536)

    site = raw_server(handle)
    with (
        WebClient(guard(max_response_bytes=MiB)) as c,
        pytest.raises(ResponseTooLargeError) as info,
    ):
        c.get(site.url())
    assert info.value.limit == MiB


def test_chunk_size_overflow_is_a_broken_response(raw_server):
    raw = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        b"1ffffffffffffffff0\r\nabc\r\n0\r\n\r\n"
    )
    site = raw_server(lambda conn, head: conn.sendall(raw))
    with WebClient(guard()) as c, pytest.raises(ConnectError) as info:
        c.get(site.url())
    assert info.value.reason == "bad-response"


def gzip_of_zeros(size: int) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    return b"".join([*(comp.compress(bytes(MiB)) for _ in range(size // MiB)), comp.flush()])


def test_gzip_body_with_small_content_length_capped_after_decoding(raw_server):
    bomb = gzip_of_zeros(32 * MiB)  # ~32 KiB on the wire
    assert len(bomb) < MiB
    site = raw_server(
        lambda conn, head: conn.sendall(http_response(200, bomb, {"Content-Encoding": "gzip"}))
    )
    with (
        WebClient(guard(max_response_bytes=MiB)) as c,
        pytest.raises(ResponseTooLargeError) as info,
    ):
        c.get(site.url())
    assert info.value.limit == MiB


def test_content_length_above_cap_refused(raw_server):
    site = raw_server(
        lambda conn, head: conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\nConnection: close\r\n\r\nxx"
        )
    )
    with (
        WebClient(guard(max_response_bytes=MiB)) as c,
        pytest.raises(ResponseTooLargeError) as info,
    ):
        c.get(site.url())
    assert info.value.limit == MiB


def test_head_and_204_have_no_body_whatever_the_headers_say(raw_server):
    def handle(conn, head):
        status = b"204 No Content" if head.startswith(b"GET") else b"200 OK"
        conn.sendall(
            b"HTTP/1.1 " + status + b"\r\nContent-Length: 5000000\r\nConnection: close\r\n\r\n"
        )

    site = raw_server(handle)
    with WebClient(guard(max_response_bytes=MiB)) as c:
        head = c.request("HEAD", site.url())
        assert (head.status, head.content) == (200, b"")
        r = c.get(site.url())
        assert (r.status, r.content) == (204, b"")


def test_head_redirect_to_denied_host_refused(raw_server, trap):
    start = redirector(raw_server, f"http://127.0.0.2:{trap.port}/", status=301)
    with WebClient(guard()) as c, pytest.raises(BlockedURLError):
        c.request("HEAD", start.url())
    assert trap.connections == 0


def test_concurrent_refusals_never_leak_a_connection(raw_server, trap):
    start = redirector(raw_server, f"http://[::ffff:127.0.0.2]:{trap.port}/")
    errors: list[BaseException | None] = []
    with WebClient(guard()) as c:

        def hit():
            try:
                c.get(start.url())
            except BaseException as exc:
                errors.append(exc)
            else:
                errors.append(None)

        threads = [threading.Thread(target=hit) for _ in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(errors) == 16
    assert all(isinstance(e, BlockedURLError) and e.reason == "loopback-address" for e in errors)
    assert trap.connections == 0


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/",
        "http://[127.0.0.2]/",
        "http://[::1]x/",
        "http://[v1.x]/",
        "http://[fe80::1%25eth0]/",
    ],
)
@pytest.mark.parametrize("rate_limit", [0, 1.0])
def test_client_raises_invalid_url_error_for_bracket_typos(trap, url, rate_limit):
    with WebClient(guard(rate_limit_seconds=rate_limit)) as c:
        with pytest.raises(InvalidURLError) as info:
            c.get(url)
        assert info.value.url == url
        assert info.value.reason == "invalid-url"
        with pytest.raises(InvalidURLError):
            c.request("POST", url, body=b"x")
    assert trap.connections == 0


def test_very_long_urls(raw_server, trap):
    site = raw_server(reply(200, b"ok"))
    with WebClient(guard()) as c:
        assert c.get(site.url("/" + "a" * 8000)).status == 200  # control: long but fine
        with pytest.raises(InvalidURLError) as info:
            c.get(site.url("/" + "a" * 1_000_000))  # beyond what the request line allows
        assert info.value.reason == "invalid-url"
        with pytest.raises(BlockedURLError) as blocked:
            c.get(f"http://127.0.0.2:{trap.port}/" + "b" * 1_000_000)
        assert blocked.value.reason == "loopback-address"
    assert site.connections == 1
    assert trap.connections == 0


def test_very_long_location_to_a_denied_host(raw_server, trap):
    start = redirector(raw_server, f"http://127.0.0.2:{trap.port}/" + "b" * 60000)
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.get(start.url())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


# =========================================================================================
# 13. The other entry points share the guard (URL hygiene runs first, then the same walk)
# =========================================================================================


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.2:{p}/?utm_source=x#frag",
        "http://[::ffff:7f00:2]:{p}/page",
        "HTTP://2130706434:{p}",
    ],
)
def test_fetch_refuses_denied_spellings(trap, url):
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.fetch(url.format(p=trap.port))
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


def test_fetch_follows_redirect_checks(raw_server, trap):
    start = redirector(raw_server, f"//[64:ff9b::7f00:2]:{trap.port}/")
    with WebClient(guard()) as c, pytest.raises(BlockedURLError) as info:
        c.fetch(start.url())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0


def test_download_redirect_to_denied_host_refused(raw_server, trap, tmp_path):
    start = redirector(raw_server, f"http://127.0.0.2:{trap.port}/file.bin", status=307)
    with (
        WebClient(guard(download_dirs=(str(tmp_path),))) as c,
        pytest.raises(BlockedURLError) as info,
    ):
        c.download(start.url())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0
    assert list(tmp_path.iterdir()) == []


def test_async_client_refuses_denied_host(trap):
    import asyncio

    from webgrip import AsyncWebClient

    async def go():
        async with AsyncWebClient(guard()) as c:
            await c.get(f"http://[::ffff:127.0.0.2]:{trap.port}/")

    with pytest.raises(BlockedURLError) as info:
        asyncio.run(go())
    assert info.value.reason == "loopback-address"
    assert trap.connections == 0
