use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use super::*;
use crate::error::ErrorKind;

fn policy() -> Policy {
    Policy::default()
}

fn with(cfg: impl FnOnce(&mut PolicyConfig)) -> Policy {
    let mut c = PolicyConfig::default();
    cfg(&mut c);
    Policy::new(&c).expect("valid test policy")
}

/// The reason an address is refused, or "ok".
fn ip_verdict(p: &Policy, ip: &str) -> String {
    let ip: IpAddr = ip.parse().expect("test address");
    match p.check_ip(ip) {
        Ok(()) => "ok".into(),
        Err(r) => r.reason().into(),
    }
}

/// The reason a URL is refused by the DNS-free checks, or its normalised form.
fn url_verdict(p: &Policy, url: &str) -> String {
    match p.check_url(url) {
        Ok(t) => t.url.to_string(),
        Err(e) if e.kind == ErrorKind::InvalidUrl => "invalid".into(),
        Err(e) => e.reason,
    }
}

#[test]
fn ipv4_table_rows_and_their_boundaries() {
    let p = policy();
    let rows = [
        ("0.0.0.0", "unspecified-address"),
        ("0.255.255.255", "unspecified-address"),
        ("1.0.0.0", "ok"),
        ("9.255.255.255", "ok"),
        ("10.0.0.0", "private-address"),
        ("10.255.255.255", "private-address"),
        ("11.0.0.0", "ok"),
        ("100.63.255.255", "ok"),
        ("100.64.0.0", "private-address"),
        ("100.100.100.200", "private-address"),
        ("100.127.255.255", "private-address"),
        ("100.128.0.0", "ok"),
        ("126.255.255.255", "ok"),
        ("127.0.0.1", "loopback-address"),
        ("127.255.255.255", "loopback-address"),
        ("128.0.0.0", "ok"),
        ("169.253.255.255", "ok"),
        ("169.254.169.254", "link-local-address"),
        ("169.255.0.0", "ok"),
        ("172.15.255.255", "ok"),
        ("172.16.0.0", "private-address"),
        ("172.31.255.255", "private-address"),
        ("172.32.0.0", "ok"),
        ("191.255.255.255", "ok"),
        ("192.0.0.0", "reserved-address"),
        ("192.0.0.8", "reserved-address"),
        ("192.0.0.9", "ok"),
        ("192.0.0.10", "ok"),
        ("192.0.0.11", "reserved-address"),
        ("192.0.0.255", "reserved-address"),
        ("192.0.1.0", "ok"),
        ("192.0.2.1", "documentation-address"),
        ("192.88.99.1", "reserved-address"),
        ("192.167.255.255", "ok"),
        ("192.168.0.1", "private-address"),
        ("192.169.0.0", "ok"),
        ("198.17.255.255", "ok"),
        ("198.18.0.0", "reserved-address"),
        ("198.19.255.255", "reserved-address"),
        ("198.20.0.0", "ok"),
        ("198.51.100.7", "documentation-address"),
        ("203.0.113.9", "documentation-address"),
        ("223.255.255.255", "ok"),
        ("224.0.0.1", "multicast-address"),
        ("239.255.255.255", "multicast-address"),
        ("240.0.0.0", "reserved-address"),
        ("255.255.255.254", "reserved-address"),
        ("255.255.255.255", "broadcast-address"),
        ("8.8.8.8", "ok"),
        ("93.184.216.34", "ok"),
    ];
    for (ip, want) in rows {
        assert_eq!(ip_verdict(&p, ip), want, "{ip}");
    }
}

#[test]
fn ipv6_table_rows() {
    let p = policy();
    let rows = [
        ("::", "unspecified-address"),
        ("::1", "loopback-address"),
        ("0:0:0:0:0:0:0:1", "loopback-address"),
        ("::2", "unspecified-address"),
        // IPv4-mapped: judged as the IPv4 address.
        ("::ffff:127.0.0.1", "loopback-address"),
        ("::ffff:7f00:1", "loopback-address"),
        ("::ffff:10.1.2.3", "private-address"),
        ("::ffff:169.254.169.254", "link-local-address"),
        ("::ffff:8.8.8.8", "ok"),
        // IPv4-compatible (deprecated): the embedded address decides, and public is still no.
        ("::127.0.0.1", "loopback-address"),
        ("::10.0.0.1", "private-address"),
        ("::8.8.8.8", "reserved-address"),
        // SIIT
        ("::ffff:0:127.0.0.1", "loopback-address"),
        ("::ffff:0:8.8.8.8", "reserved-address"),
        // NAT64 well-known prefix: reaches the embedded IPv4.
        ("64:ff9b::7f00:1", "loopback-address"),
        ("64:ff9b::a9fe:a9fe", "link-local-address"),
        ("64:ff9b::808:808", "ok"),
        ("64:ff9b:1::808:808", "reserved-address"),
        // 6to4: embedded at bits 16..48.
        ("2002:7f00:1::", "loopback-address"),
        ("2002:a00:1::1", "private-address"),
        ("2002:808:808::1", "reserved-address"),
        // Teredo and the IETF block, with its globally reachable exceptions.
        ("2001::1", "reserved-address"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved-address"),
        ("2001:2::1", "reserved-address"),
        ("2001:1::1", "ok"),
        ("2001:1::4", "reserved-address"),
        ("2001:3::1", "ok"),
        ("2001:4:112::1", "ok"),
        ("2001:20::1", "ok"),
        ("2001:1ff::1", "reserved-address"),
        ("2001:200::1", "ok"),
        ("2001:db8::1", "documentation-address"),
        ("3fff::1", "documentation-address"),
        ("3fff:fff::1", "documentation-address"),
        ("3fff:1000::1", "ok"),
        ("5f00::1", "reserved-address"),
        ("100::1", "reserved-address"),
        ("100:0:0:1::1", "reserved-address"),
        ("fc00::1", "private-address"),
        ("fdff:ffff::1", "private-address"),
        ("fe80::1", "link-local-address"),
        ("febf::1", "link-local-address"),
        ("fec0::1", "private-address"),
        ("ff02::1", "multicast-address"),
        ("4000::1", "reserved-address"),
        ("1fff:ffff::1", "reserved-address"),
        ("2606:4700:4700::1111", "ok"),
        ("2a00:1450:4001:80b::200e", "ok"),
    ];
    for (ip, want) in rows {
        assert_eq!(ip_verdict(&p, ip), want, "{ip}");
    }
}

#[test]
fn ipv4_spellings_are_parsed_like_whatwg() {
    let p = policy();
    for url in [
        "http://127.0.0.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f.1/",
        "http://0x7f000001/",
        "http://127.1/",
        "http://127.0.1/",
        "http://017700000001/",
        "http://%31%32%37.0.0.1/",
        "http://127.0.0.1./",
        "http://[::1]/",
        "http://[0:0:0:0:0:0:0:1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://localhost/",
        "http://localhost./",
        "http://LOCALHOST/",
        "http://a.b.localhost/",
    ] {
        assert_eq!(url_verdict(&p, url), "loopback-address", "{url}");
    }
    let open = with(|c| c.allow_networks = vec!["127.0.0.0/8".into()]);
    assert_eq!(
        url_verdict(&open, "http://LocalHost./x"),
        "http://localhost./x"
    );
    assert_eq!(
        url_verdict(&p, "http://localhost.example/"),
        "http://localhost.example/"
    );
    assert_eq!(url_verdict(&p, "http://0/"), "unspecified-address");
    assert_eq!(url_verdict(&p, "http://0x0a.0.0.1/"), "private-address");
    assert_eq!(url_verdict(&p, "http://167772161/"), "private-address");
    assert_eq!(url_verdict(&p, "http://0xa9fea9fe/"), "link-local-address");
    // Out of range numbers are invalid, never wrapped modulo 2^32.
    assert_eq!(url_verdict(&p, "http://4294967296/"), "invalid");
    assert_eq!(url_verdict(&p, "http://256.0.0.1/"), "invalid");
    // Zone identifiers are not part of a URL host.
    assert_eq!(url_verdict(&p, "http://[fe80::1%25eth0]/"), "invalid");
}

#[test]
fn normalised_urls_are_returned() {
    let p = policy();
    assert_eq!(url_verdict(&p, "HTTP://Example.COM"), "http://example.com/");
    assert_eq!(
        url_verdict(&p, "http://8.8.8.8:8080/x"),
        "http://8.8.8.8:8080/x"
    );
    assert_eq!(
        url_verdict(&p, "https://bücher.example/"),
        "https://xn--bcher-kva.example/"
    );
    assert_eq!(
        url_verdict(&p, "  http://example.com/\t"),
        "http://example.com/"
    );
}

#[test]
fn scheme_userinfo_and_port_rules() {
    let p = policy();
    for url in [
        "ftp://example.com/",
        "file:///etc/passwd",
        "gopher://example.com/",
        "data:,x",
    ] {
        assert_eq!(url_verdict(&p, url), "scheme", "{url}");
    }
    assert_eq!(url_verdict(&p, "http://user@example.com/"), "userinfo");
    assert_eq!(url_verdict(&p, "http://user:pw@example.com/"), "userinfo");
    assert_eq!(url_verdict(&p, "http://:pw@example.com/"), "userinfo");
    for port in [
        0, 22, 23, 25, 445, 3306, 5432, 6379, 11211, 27017, 9200, 2375,
    ] {
        let url = format!("http://example.com:{port}/");
        assert_eq!(url_verdict(&p, &url), "blocked-port", "{url}");
    }
    assert_eq!(
        url_verdict(&p, "http://example.com:8080/"),
        "http://example.com:8080/"
    );
    let https_only = with(|c| c.allow_http = false);
    assert_eq!(url_verdict(&https_only, "http://example.com/"), "scheme");
    assert_eq!(
        url_verdict(&https_only, "https://example.com/"),
        "https://example.com/"
    );
    let custom_ports = with(|c| c.blocked_ports = vec![8080]);
    assert_eq!(
        url_verdict(&custom_ports, "http://example.com:22/"),
        "http://example.com:22/"
    );
    assert_eq!(
        url_verdict(&custom_ports, "http://example.com:8080/"),
        "blocked-port"
    );
    assert_eq!(
        url_verdict(&custom_ports, "http://example.com:0/"),
        "blocked-port"
    );
}

#[test]
fn domain_lists_match_exact_or_subdomain_only() {
    let p = with(|c| c.blocked_domains = vec!["Evil.COM.".into(), "*.bad.org".into()]);
    assert_eq!(url_verdict(&p, "http://evil.com/"), "blocked-domain");
    assert_eq!(url_verdict(&p, "http://a.b.evil.com/"), "blocked-domain");
    assert_eq!(url_verdict(&p, "http://evil.com./"), "blocked-domain");
    assert_eq!(
        url_verdict(&p, "http://notevil.com/"),
        "http://notevil.com/"
    );
    assert_eq!(
        url_verdict(&p, "http://evil.com.example/"),
        "http://evil.com.example/"
    );
    assert_eq!(url_verdict(&p, "http://bad.org/"), "blocked-domain");

    let p = with(|c| c.allowed_domains = vec!["bücher.example".into(), "example.org".into()]);
    assert_eq!(
        url_verdict(&p, "http://xn--bcher-kva.example/"),
        "http://xn--bcher-kva.example/"
    );
    assert_eq!(
        url_verdict(&p, "http://www.example.org/"),
        "http://www.example.org/"
    );
    assert_eq!(
        url_verdict(&p, "http://badexample.org/"),
        "not-allowed-domain"
    );
    assert_eq!(url_verdict(&p, "http://8.8.8.8/"), "not-allowed-domain");
}

#[test]
fn allow_and_deny_networks() {
    let p = with(|c| {
        c.allow_networks = vec!["127.0.0.0/8".into(), "10.1.0.0/16".into()];
        c.deny_networks = vec!["10.1.2.0/24".into(), "8.8.8.0/24".into()];
    });
    assert_eq!(ip_verdict(&p, "127.0.0.1"), "ok");
    assert_eq!(ip_verdict(&p, "::ffff:127.0.0.1"), "ok");
    assert_eq!(ip_verdict(&p, "::1"), "loopback-address");
    assert_eq!(ip_verdict(&p, "10.1.9.9"), "ok");
    assert_eq!(ip_verdict(&p, "10.2.0.1"), "private-address");
    assert_eq!(ip_verdict(&p, "10.1.2.3"), "denied-network");
    assert_eq!(ip_verdict(&p, "8.8.8.8"), "denied-network");
    assert_eq!(ip_verdict(&p, "8.8.4.4"), "ok");
    assert!(Policy::new(&PolicyConfig {
        allow_networks: vec!["10.0.0.0/40".into()],
        ..PolicyConfig::default()
    })
    .is_err());
}

fn allow_error(allow: &str) -> String {
    Policy::new(&PolicyConfig {
        allow_networks: vec![allow.into()],
        ..PolicyConfig::default()
    })
    .map(|_| ())
    .expect_err(allow)
    .message
}

#[test]
fn an_allow_entry_with_host_bits_set_is_refused() {
    // `127.0.0.1/0` was read as 0.0.0.0/0 and opened every IPv4 address, without a word.
    assert_eq!(
        allow_error("127.0.0.1/0"),
        "allow_networks: \"127.0.0.1/0\" has host bits set: did you mean 127.0.0.1/32 (that \
         one address) or 0.0.0.0/0 (the whole network)?"
    );
    assert!(
        allow_error("10.1.2.3/8").contains("10.1.2.3/32")
            && allow_error("10.1.2.3/8").contains("10.0.0.0/8")
    );
    assert!(allow_error("fd00::1/8").contains("fd00::/8"));
    // A deny entry is widened instead: refusing more than written stays on the safe side.
    let p = with(|c| c.deny_networks = vec!["8.8.8.8/24".into()]);
    assert_eq!(ip_verdict(&p, "8.8.8.1"), "denied-network");
}

#[test]
fn an_ipv6_allow_entry_never_opens_ipv4() {
    // `::/0` opened no IPv4 address while its subset `::ffff:0:0/96` opened all of them.
    let p = with(|c| c.allow_networks = vec!["::/0".into()]);
    for v4 in [
        "127.0.0.1",
        "::ffff:127.0.0.1",
        "10.0.0.1",
        "::ffff:10.0.0.1",
    ] {
        assert_ne!(ip_verdict(&p, v4), "ok", "{v4}");
    }
    assert_eq!(ip_verdict(&p, "::1"), "ok");
    assert_eq!(ip_verdict(&p, "fd00::1"), "ok");
    for mapped in ["::ffff:0:0/96", "::ffff:127.0.0.0/104", "::ffff:127.0.0.1"] {
        let e = allow_error(mapped);
        assert!(
            e.contains("IPv4-mapped") && e.contains("Write it as IPv4"),
            "{e}"
        );
    }
    assert!(allow_error("::ffff:0:0/96").ends_with("Write it as IPv4: 0.0.0.0/0"));
    assert!(allow_error("::ffff:127.0.0.0/104").ends_with("Write it as IPv4: 127.0.0.0/8"));
    // The IPv4 spelling opens the IPv4 host under both of its spellings.
    let p = with(|c| c.allow_networks = vec!["127.0.0.0/8".into()]);
    assert_eq!(ip_verdict(&p, "::ffff:127.0.0.1"), "ok");
    // Denying in the mapped form still means the IPv4 network.
    let p = with(|c| c.deny_networks = vec!["::ffff:8.8.8.0/120".into()]);
    assert_eq!(ip_verdict(&p, "8.8.8.8"), "denied-network");
}

#[test]
fn messages_name_the_url_and_the_rule() {
    let e = policy().check_url("http://10.0.0.5/").expect_err("refused");
    assert_eq!(
        e.message,
        "Refused http://10.0.0.5/: 10.0.0.5 is a private address (10.0.0.0/8)"
    );
    assert_eq!(e.url.as_deref(), Some("http://10.0.0.5/"));
    // Mapped addresses are the IPv4 host itself.
    let e = policy()
        .check_url("http://[::ffff:169.254.169.254]/")
        .expect_err("refused");
    assert!(
        e.message
            .ends_with("::ffff:169.254.169.254 is a link-local address (169.254.0.0/16)"),
        "{}",
        e.message
    );
    let e = policy()
        .check_url("http://[64:ff9b::7f00:1]/")
        .expect_err("refused");
    assert!(
        e.message.ends_with(
            "64:ff9b::7f00:1 is an IPv6 address embedding 127.0.0.1 (NAT64), \
             which is a loopback address (127.0.0.0/8)"
        ),
        "{}",
        e.message
    );
}

proptest! {
    /// Every IPv4 address in a refused block stays refused however the URL spells it.
    #[test]
    fn numeric_spellings_agree(a in any::<u32>()) {
        let p = policy();
        let ip = Ipv4Addr::from(a);
        let want = ip_verdict(&p, &ip.to_string());
        let decimal = format!("http://{a}/");
        let hex = format!("http://{a:#x}/");
        let [b0, b1, b2, b3] = ip.octets();
        let octal = format!("http://0{b0:o}.0{b1:o}.0{b2:o}.0{b3:o}/");
        let short = format!("http://{b0}.{}/", (u32::from(b1) << 16) | (u32::from(b2) << 8) | u32::from(b3));
        let mapped = format!("http://[::ffff:{ip}]/");
        for url in [decimal, hex, octal, short, mapped] {
            let got = url_verdict(&p, &url);
            if want == "ok" {
                prop_assert!(got.starts_with("http://"), "{} -> {}", url, got);
            } else {
                prop_assert_eq!(&got, &want, "{}", url);
            }
        }
    }

    /// Mapped IPv6 and plain IPv4 get the same decision.
    #[test]
    fn mapped_matches_v4(a in any::<u32>()) {
        let p = policy();
        let v4 = Ipv4Addr::from(a);
        let v6 = v4.to_ipv6_mapped();
        prop_assert_eq!(ip_verdict(&p, &v4.to_string()), ip_verdict(&p, &v6.to_string()));
    }

    /// Outside 2000::/3 nothing is public, except what embeds a public IPv4 in a form that
    /// reaches it (mapped, NAT64).
    #[test]
    fn ipv6_outside_global_unicast_is_refused(x in any::<u128>()) {
        let ip = Ipv6Addr::from(x);
        let top = x >> 125;
        let embeds = ip.to_ipv4_mapped().is_some() || (x >> 32) == (0x64_ff9b_u128 << 64);
        if top != 1 && !embeds {
            prop_assert_ne!(ip_verdict(&policy(), &ip.to_string()), "ok");
        }
    }
}

// Regressions found by red-teaming the public API (tests/security/test_security_bypass.py).

#[test]
fn deny_networks_also_refuse_embedded_ipv4_forms() {
    let p = with(|c| c.deny_networks = vec!["8.8.8.0/24".into()]);
    for ip in [
        "8.8.8.8",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "::ffff:0:808:808",
        "2002:808:808::1",
        "::808:808",
        // Teredo: server 8.8.8.8, or client 8.8.8.8 (stored inverted)
        "2001:0:808:808::1",
        "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    ] {
        assert_eq!(ip_verdict(&p, ip), "denied-network", "{ip}");
    }
    assert_eq!(ip_verdict(&p, "64:ff9b::909:909"), "ok");
}

#[test]
fn mapped_networks_in_deny_lists_mean_their_ipv4_network() {
    let p = with(|c| {
        c.allow_networks = vec!["10.0.0.0/8".into()];
        c.deny_networks = vec!["::ffff:10.0.0.0/120".into()];
    });
    assert_eq!(ip_verdict(&p, "10.0.0.7"), "denied-network");
    assert_eq!(ip_verdict(&p, "::ffff:10.0.0.7"), "denied-network");
    assert_eq!(ip_verdict(&p, "10.0.1.7"), "ok");
    // In allow_networks the mapped form is refused: an_ipv6_allow_entry_never_opens_ipv4.
}

#[test]
fn ipv4_allow_does_not_open_translated_forms() {
    let p = with(|c| c.allow_networks = vec!["127.0.0.0/8".into()]);
    assert_eq!(ip_verdict(&p, "::ffff:127.0.0.1"), "ok");
    for ip in [
        "64:ff9b::7f00:1",
        "::127.0.0.1",
        "2002:7f00:1::1",
        "::ffff:0:7f00:1",
    ] {
        assert_eq!(ip_verdict(&p, ip), "loopback-address", "{ip}");
    }
}

#[test]
fn host_names_with_empty_labels_are_invalid() {
    let p = with(|c| c.blocked_domains = vec!["example.com..".into()]);
    for url in [
        "http://example.com../",
        "http://example.com.../",
        "http://a..example.com/",
        "http://.example.com/",
        "http://localhost../",
    ] {
        assert_eq!(url_verdict(&p, url), "invalid", "{url}");
    }
    assert_eq!(url_verdict(&p, "http://example.com./"), "blocked-domain");
    assert_eq!(url_verdict(&p, "http://www.example.com/"), "blocked-domain");
}

#[test]
fn ip_literals_in_blocked_domains_block_every_spelling() {
    let p = with(|c| {
        c.blocked_domains = vec!["8.8.8.8".into(), "[2606:4700::1]".into()];
        c.allow_networks = vec!["0.0.0.0/0".into()];
    });
    for ip in [
        "8.8.8.8",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "2606:4700::1",
    ] {
        assert_eq!(ip_verdict(&p, ip), "blocked-domain", "{ip}");
    }
    assert_eq!(ip_verdict(&p, "8.8.4.4"), "ok");
    assert_eq!(
        url_verdict(&p, "http://[::ffff:808:808]/"),
        "blocked-domain"
    );
}
