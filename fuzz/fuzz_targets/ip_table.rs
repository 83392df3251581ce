//! Differential: the address policy (`Policy::check_ip`, default settings) against the
//! IANA special-purpose registries typed in independently (`webgrip_fuzz::iana`). A
//! non-global address let through is an SSRF hole; a global one refused is a false block.
//!
//! Input: 4 bytes (IPv4) or 16 bytes (IPv6), after one selector byte.
#![no_main]

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use webgrip_fuzz::iana::{self, Expect};
use webgrip_net::{Policy, PolicyConfig};

fn policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| match Policy::new(&PolicyConfig::default()) {
        Ok(p) => p,
        Err(e) => panic!("the default policy does not build: {e}"),
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let ip = if selector & 1 == 0 {
        let Some(b) = rest.first_chunk::<4>() else {
            return;
        };
        IpAddr::V4(Ipv4Addr::from(*b))
    } else {
        let Some(b) = rest.first_chunk::<16>() else {
            return;
        };
        IpAddr::V6(Ipv6Addr::from(*b))
    };
    let verdict = policy().check_ip(ip);
    match iana::expect(ip) {
        Expect::Refuse => assert!(
            verdict.is_err(),
            "{ip} is not globally reachable, yet allowed"
        ),
        Expect::Allow => assert!(
            verdict.is_ok(),
            "{ip} is globally reachable, yet refused: {verdict:?}"
        ),
        Expect::Either => {}
    }
    // The URL path reaches the same verdict as the address alone.
    let url = match ip {
        IpAddr::V4(v4) => format!("https://{v4}/"),
        IpAddr::V6(v6) => format!("https://[{v6}]/"),
    };
    assert_eq!(
        policy().check_url(&url).is_ok(),
        verdict.is_ok(),
        "{url}: check_url and check_ip disagree"
    );
});
