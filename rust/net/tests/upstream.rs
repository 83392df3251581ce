//! Upstream proxies from Rust: the proxy is asked for the checked address (SOCKS5 ATYP 1, an
//! IPv4 literal), and a name resolving to a refused address never reaches the proxy. The
//! full tunnels (relay, TLS for the name) are tested from Python (test_upstream_proxy.py).
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use webgrip_net::{Client, ClientConfig, ErrorKind, PolicyConfig, ProxyRoutes, RequestSpec};

/// A SOCKS5 server for one connection: accepts "no authentication", sends the CONNECT
/// request it got back through `tx`, then answers "connection refused".
fn refusing_socks() -> (SocketAddr, mpsc::Receiver<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let Ok((mut conn, _)) = listener.accept() else {
            return;
        };
        let mut greeting = [0u8; 3];
        if conn.read_exact(&mut greeting).is_err() || conn.write_all(&[5, 0]).is_err() {
            return;
        }
        let mut request = [0u8; 10]; // VER CMD RSV ATYP=1 + 4 address bytes + port
        if conn.read_exact(&mut request).is_err() {
            return;
        }
        let _ = tx.send(request.to_vec());
        let _ = conn.write_all(&[5, 5, 0, 1, 0, 0, 0, 0, 0, 0]);
    });
    (addr, rx)
}

fn client(proxy: SocketAddr, resolve: &str, allow: &str) -> Client {
    let url = format!("socks5://{proxy}");
    Client::new(ClientConfig {
        policy: PolicyConfig {
            allow_networks: vec![allow.into()],
            ..PolicyConfig::default()
        },
        resolve: vec![("site.test".into(), vec![resolve.into()])],
        timeout: Duration::from_secs(5),
        proxies: ProxyRoutes::new(Some(&url), Some(&url), &[]).expect("proxy URL"),
        ..ClientConfig::default()
    })
    .expect("valid config")
}

fn get(url: &str) -> RequestSpec {
    RequestSpec {
        url: url.into(),
        ..RequestSpec::default()
    }
}

#[test]
fn socks5_is_asked_for_the_checked_ipv4_literal() {
    let (proxy, seen) = refusing_socks();
    let c = client(proxy, "127.0.0.1", "127.0.0.1/32");
    let err = c
        .request(&get("http://site.test:8081/"))
        .expect_err("the proxy refuses");
    assert_eq!(err.kind, ErrorKind::Proxy);
    assert_eq!(err.reason, "proxy-refused");
    let request = seen
        .recv_timeout(Duration::from_secs(5))
        .expect("a request");
    assert_eq!(&request[..4], &[5, 1, 0, 1], "CONNECT with ATYP 1 (IPv4)");
    assert_eq!(&request[4..8], &[127, 0, 0, 1]);
    assert_eq!(u16::from_be_bytes([request[8], request[9]]), 8081);
}

#[test]
fn a_refused_address_never_reaches_the_proxy() {
    let (proxy, seen) = refusing_socks();
    let c = client(proxy, "10.9.8.7", "127.0.0.1/32");
    let err = c
        .request(&get("http://site.test/"))
        .expect_err("private address");
    assert_eq!(err.kind, ErrorKind::Blocked);
    assert!(seen.recv_timeout(Duration::from_millis(200)).is_err());
}
