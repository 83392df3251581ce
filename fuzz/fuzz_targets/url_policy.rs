//! URL parsing and the policy's checks that need no DNS (`Policy::check_url`), and the
//! redirect hop: a `Location` value joined onto the current URL (as `client.rs` does) and
//! checked again. Invariants of every URL the policy lets through: http(s) only, no
//! userinfo, an unblocked port, a literal address the IANA registries call global, a host
//! name that is no address in disguise and not `localhost`; and checking the serialised URL
//! again gives the same verdict (parse, serialise, parse is stable).
//!
//! Input: the current URL on the first line, the `Location` value after it; the whole input
//! is also checked as one URL.
#![no_main]

use std::net::IpAddr;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use webgrip_fuzz::iana::{self, Expect};
use webgrip_fuzz::split_line;
use webgrip_net::{
    is_localhost_name, shown_url, Policy, PolicyConfig, Target, TargetHost, DEFAULT_BLOCKED_PORTS,
};

fn policy() -> &'static Policy {
    static POLICY: OnceLock<Policy> = OnceLock::new();
    POLICY.get_or_init(|| match Policy::new(&PolicyConfig::default()) {
        Ok(p) => p,
        Err(e) => panic!("the default policy does not build: {e}"),
    })
}

fn check_allowed(t: &Target) {
    let url = &t.url;
    assert!(matches!(url.scheme(), "http" | "https"), "{url}");
    assert!(
        url.username().is_empty() && url.password().is_none(),
        "{url}"
    );
    assert!(
        t.port != 0 && !DEFAULT_BLOCKED_PORTS.contains(&t.port),
        "{url}"
    );
    match &t.host {
        TargetHost::Ip(ip) => {
            assert_ne!(iana::expect(*ip), Expect::Refuse, "{url}: {ip} let through")
        }
        TargetHost::Name(n) => {
            assert!(
                n.parse::<IpAddr>().is_err(),
                "{url}: address {n} taken as a name"
            );
            assert!(!is_localhost_name(n), "{url}: {n} let through");
            assert!(!n.is_empty() && !n.split('.').any(str::is_empty), "{url}");
            assert_eq!(n, &n.to_ascii_lowercase(), "{url}");
        }
    }
    // Stable under a round trip through the serialised form.
    match policy().check_url(url.as_str()) {
        Ok(again) => {
            assert_eq!(again.url, t.url);
            assert_eq!(again.host, t.host);
            assert_eq!(again.port, t.port);
        }
        Err(e) => panic!("{url} allowed, its serialisation refused: {e}"),
    }
}

fn check(raw: &str) -> Option<Target> {
    match policy().check_url(raw) {
        Ok(t) => {
            check_allowed(&t);
            Some(t)
        }
        Err(e) => {
            // The message is built for any input (the URL shortened on a char boundary).
            let _ = e.to_string();
            None
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let whole = String::from_utf8_lossy(data);
    check(&whole);
    let _ = shown_url(&whole);
    let (base, location) = split_line(data);
    let Some(current) = check(&String::from_utf8_lossy(base)) else {
        return;
    };
    let location = String::from_utf8_lossy(location);
    let Ok(next) = current.url.join(location.trim()) else {
        return;
    };
    match policy().check_parsed(next) {
        Ok(t) => check_allowed(&t),
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
