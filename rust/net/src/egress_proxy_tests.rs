//! The proxy against real loopback listeners: 127.0.0.1 is opened by the policy, 127.0.0.2
//! (same machine, refused by the default table) counts every connection it receives.
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use super::*;
use crate::policy::{Policy, PolicyConfig};

const SECRET: &str = "0123456789abcdef-secret";

/// A listener answering every connection with a fixed HTTP response, counting connections.
fn listener(ip: [u8; 4]) -> (u16, Arc<AtomicU32>) {
    let l = TcpListener::bind((IpAddr::from(ip), 0)).unwrap();
    let port = l.local_addr().unwrap().port();
    let count = Arc::new(AtomicU32::new(0));
    let c = count.clone();
    thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            c.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            let body = format!("echo:{}", String::from_utf8_lossy(&buf[..n]).len());
            let _ = s.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            );
        }
    });
    (port, count)
}

fn proxy_with(policy: PolicyConfig, overrides: HashMap<String, Vec<IpAddr>>) -> EgressProxy {
    let lookup = Arc::new(Lookup::new(
        Arc::new(Policy::new(&policy).unwrap()),
        overrides,
    ));
    EgressProxy::start(
        lookup,
        ProxyConfig {
            secret: SECRET.into(),
            timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(5),
            max_bytes: 1 << 20,
            max_connections: 50,
        },
    )
    .unwrap()
}

fn proxy() -> EgressProxy {
    let policy = PolicyConfig {
        allow_networks: vec!["127.0.0.1/32".into()],
        ..PolicyConfig::default()
    };
    let mut overrides = HashMap::new();
    overrides.insert("evil.test".to_string(), vec![IpAddr::from([127, 0, 0, 2])]);
    overrides.insert("good.test".to_string(), vec![IpAddr::from([127, 0, 0, 1])]);
    proxy_with(policy, overrides)
}

fn auth() -> String {
    format!(
        "Proxy-Authorization: Basic {}\r\n",
        base64(format!("{PROXY_USER}:{SECRET}").as_bytes())
    )
}

/// Send `request` to the proxy and read everything it answers.
fn ask(p: &EgressProxy, request: &str) -> String {
    let mut s = TcpStream::connect(p.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn base64_matches_the_rfc_vectors() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    // A proxy's `user:password` as it goes into `Proxy-Authorization`.
    assert_eq!(base64(b"user:p@ss"), "dXNlcjpwQHNz");
}

#[test]
fn without_the_secret_nothing_is_relayed() {
    let (port, count) = listener([127, 0, 0, 1]);
    let p = proxy();
    for extra in ["", "Proxy-Authorization: Basic d2ViZ3JpcDp3cm9uZw==\r\n"] {
        let r = ask(
            &p,
            &format!("GET http://127.0.0.1:{port}/ HTTP/1.1\r\nHost: x\r\n{extra}\r\n"),
        );
        assert!(r.starts_with("HTTP/1.1 407"), "{r}");
        assert!(r.contains("Proxy-Authenticate: Basic"), "{r}");
    }
    assert_eq!(count.load(Ordering::SeqCst), 0);
    assert_eq!(p.stats().requests, 0);
}

#[test]
fn an_allowed_http_request_is_forwarded_in_origin_form() {
    let (port, count) = listener([127, 0, 0, 1]);
    let p = proxy();
    let r = ask(
        &p,
        &format!(
            "GET http://good.test:{port}/a?b=1 HTTP/1.1\r\nHost: good.test\r\n{}\r\n",
            auth()
        ),
    );
    assert!(r.starts_with("HTTP/1.1 200"), "{r}");
    assert!(r.contains("Connection: close"), "{r}");
    assert!(r.contains("echo:"), "{r}");
    assert_eq!(count.load(Ordering::SeqCst), 1);
    let st = p.stats();
    assert_eq!((st.requests, st.upstream, st.refused), (1, 1, 0));
}

#[test]
fn refused_addresses_get_no_connection_whatever_the_spelling() {
    let (port, count) = listener([127, 0, 0, 2]);
    let p = proxy();
    let targets = [
        format!("GET http://127.0.0.2:{port}/ HTTP/1.1"),
        format!("GET http://2130706434:{port}/ HTTP/1.1"),
        format!("GET http://evil.test:{port}/ HTTP/1.1"),
        format!("GET http://[::ffff:127.0.0.2]:{port}/ HTTP/1.1"),
        format!("GET http://127.0.0.1:6666\\@127.0.0.2:{port}/ HTTP/1.1"),
        format!("GET http://u:p@127.0.0.2:{port}/ HTTP/1.1"),
        format!("CONNECT 127.0.0.2:{port} HTTP/1.1"),
        format!("CONNECT evil.test:{port} HTTP/1.1"),
        format!("CONNECT 127.0.0.1:{port}@127.0.0.2:{port} HTTP/1.1"),
        format!("CONNECT [::ffff:7f00:2]:{port} HTTP/1.1"),
        "CONNECT 127.0.0.1:22 HTTP/1.1".to_string(),
        "GET /relative HTTP/1.1".to_string(),
    ];
    for t in &targets {
        let r = ask(&p, &format!("{t}\r\nHost: x\r\n{}\r\n", auth()));
        assert!(r.starts_with("HTTP/1.1 403"), "{t}: {r}");
    }
    assert_eq!(count.load(Ordering::SeqCst), 0);
    assert_eq!(p.stats().upstream, 0);
    assert_eq!(p.stats().refused, targets.len() as u32);
}

#[test]
fn a_tunnel_relays_both_ways_and_https_only_requires_tls() {
    let (port, count) = listener([127, 0, 0, 1]);
    let p = proxy();
    let r = ask(
        &p,
        &format!(
            "CONNECT 127.0.0.1:{port} HTTP/1.1\r\n{}\r\nGET / HTTP/1.1\r\n\r\n",
            auth()
        ),
    );
    assert!(r.starts_with("HTTP/1.1 200 Connection Established"), "{r}");
    assert!(r.contains("echo:"), "{r}");
    assert_eq!(count.load(Ordering::SeqCst), 1);

    let strict = proxy_with(
        PolicyConfig {
            allow_networks: vec!["127.0.0.1/32".into()],
            allow_http: false,
            ..PolicyConfig::default()
        },
        HashMap::new(),
    );
    let r = ask(
        &strict,
        &format!(
            "CONNECT 127.0.0.1:{port} HTTP/1.1\r\n{}\r\nGET / HTTP/1.1\r\n\r\n",
            auth()
        ),
    );
    assert!(!r.contains("echo:"), "{r}");
    assert_eq!(strict.stats().refused, 1);
    let r = ask(
        &strict,
        &format!("GET http://127.0.0.1:{port}/ HTTP/1.1\r\n{}\r\n", auth()),
    );
    assert!(r.starts_with("HTTP/1.1 403"), "{r}");
}

#[test]
fn the_request_cap_and_stop_end_the_session() {
    let (port, count) = listener([127, 0, 0, 1]);
    let lookup = Arc::new(Lookup::new(
        Arc::new(
            Policy::new(&PolicyConfig {
                allow_networks: vec!["127.0.0.1/32".into()],
                ..PolicyConfig::default()
            })
            .unwrap(),
        ),
        HashMap::new(),
    ));
    let mut p = EgressProxy::start(
        lookup.clone(),
        ProxyConfig {
            secret: SECRET.into(),
            timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(5),
            max_bytes: 1 << 20,
            max_connections: 2,
        },
    )
    .unwrap();
    let req = format!("GET http://127.0.0.1:{port}/ HTTP/1.1\r\n{}\r\n", auth());
    assert!(ask(&p, &req).starts_with("HTTP/1.1 200"));
    assert!(ask(&p, &req).starts_with("HTTP/1.1 200"));
    assert!(ask(&p, &req).starts_with("HTTP/1.1 403"));
    assert!(p.stats().over_connections);
    assert_eq!(count.load(Ordering::SeqCst), 2);
    p.stop();
    assert!(
        TcpStream::connect_timeout(&p.addr(), Duration::from_secs(1))
            .map(|mut s| {
                let _ = s.write_all(req.as_bytes());
                let mut out = Vec::new();
                let _ = s.read_to_end(&mut out);
                out.is_empty()
            })
            .unwrap_or(true)
    );
    assert!(EgressProxy::start(
        lookup,
        ProxyConfig {
            secret: "short".into(),
            timeout: Duration::from_secs(1),
            connect_timeout: Duration::from_secs(1),
            max_bytes: 1,
            max_connections: 1,
        },
    )
    .is_err());
}

fn proxy_limited(max_bytes: u64, timeout: Duration) -> EgressProxy {
    let lookup = Arc::new(Lookup::new(
        Arc::new(
            Policy::new(&PolicyConfig {
                allow_networks: vec!["127.0.0.1/32".into()],
                ..PolicyConfig::default()
            })
            .unwrap(),
        ),
        HashMap::new(),
    ));
    EgressProxy::start(
        lookup,
        ProxyConfig {
            secret: SECRET.into(),
            timeout,
            connect_timeout: Duration::from_secs(5),
            max_bytes,
            max_connections: 50,
        },
    )
    .unwrap()
}

#[test]
fn the_byte_cap_cuts_the_relay_and_ends_the_session() {
    let (port, _) = listener([127, 0, 0, 1]);
    let p = proxy_limited(40, Duration::from_secs(20));
    let req = format!("GET http://127.0.0.1:{port}/ HTTP/1.1\r\n{}\r\n", auth());
    let r = ask(&p, &req);
    assert!(!r.contains("echo:"), "{r}");
    assert!(p.stats().over_bytes);
    // Spent: nothing more is served.
    assert!(ask(&p, &req).is_empty());
}

#[test]
fn nothing_is_served_after_the_deadline() {
    let (port, count) = listener([127, 0, 0, 1]);
    let p = proxy_limited(1 << 20, Duration::from_millis(200));
    thread::sleep(Duration::from_millis(400));
    let req = format!("GET http://127.0.0.1:{port}/ HTTP/1.1\r\n{}\r\n", auth());
    let served = TcpStream::connect(p.addr())
        .map(|mut s| {
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = s.write_all(req.as_bytes());
            let mut out = Vec::new();
            let _ = s.read_to_end(&mut out);
            !out.is_empty()
        })
        .unwrap_or(false);
    assert!(!served);
    assert_eq!(count.load(Ordering::SeqCst), 0);
}
