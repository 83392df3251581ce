//! The guard end to end on loopback: what is refused never reaches a socket.
//!
//! 127.0.0.1 is opened with `allow_networks`; 127.0.0.2 (also loopback) stays refused and
//! hosts a "tripwire" listener that nobody accepts on: after a call, a non-blocking
//! `accept` must find no pending connection.
use std::io::{ErrorKind as IoKind, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::thread;
use std::time::Duration;

use webgrip_net::{Client, ClientConfig, ErrorKind, PolicyConfig, RequestSpec};

/// Serve `reply` to every connection on 127.0.0.1, forever (the test process ends it).
fn serve(reply: Vec<u8>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let addr = listener.local_addr().expect("local addr");
    thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let reply = reply.clone();
            thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let mut head = Vec::new();
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match conn.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let _ = conn.write_all(&reply);
            });
        }
    });
    addr
}

fn tripwire() -> TcpListener {
    TcpListener::bind("127.0.0.2:0").expect("bind 127.0.0.2 (Linux loopback)")
}

fn untouched(listener: &TcpListener) -> bool {
    listener.set_nonblocking(true).expect("nonblocking");
    matches!(listener.accept(), Err(e) if e.kind() == IoKind::WouldBlock)
}

fn client(resolve: Vec<(String, Vec<String>)>) -> Client {
    Client::new(ClientConfig {
        policy: PolicyConfig {
            allow_networks: vec!["127.0.0.1/32".into()],
            ..PolicyConfig::default()
        },
        resolve,
        timeout: Duration::from_secs(5),
        ..ClientConfig::default()
    })
    .expect("valid config")
}

fn get(url: String) -> RequestSpec {
    RequestSpec {
        url,
        ..RequestSpec::default()
    }
}

#[test]
fn allowed_fetch_reports_the_checked_peer() {
    let addr = serve(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".to_vec());
    let r = client(vec![])
        .request(&get(format!("http://{addr}/x")))
        .expect("allowed");
    assert_eq!(r.exchange.status, 200);
    assert_eq!(r.content, b"hello");
    assert_eq!(r.exchange.remote_addr, addr.to_string());
}

#[test]
fn redirect_to_a_refused_address_never_connects() {
    let trap = tripwire();
    let target = trap.local_addr().expect("addr");
    let reply =
        format!("HTTP/1.1 302 Found\r\nLocation: http://{target}/\r\nContent-Length: 0\r\n\r\n");
    let addr = serve(reply.into_bytes());
    let e = client(vec![])
        .request(&get(format!("http://{addr}/")))
        .expect_err("refused");
    assert_eq!(e.kind, ErrorKind::Blocked);
    assert_eq!(e.reason, "loopback-address");
    assert!(untouched(&trap));
}

#[test]
fn mixed_answers_fail_closed_without_connecting() {
    let trap = tripwire();
    let port = trap.local_addr().expect("addr").port();
    let resolve = vec![(
        "mixed.test".to_string(),
        vec!["127.0.0.1".to_string(), "127.0.0.2".to_string()],
    )];
    let e = client(resolve)
        .request(&get(format!("http://mixed.test:{port}/")))
        .expect_err("refused");
    assert_eq!(e.kind, ErrorKind::Blocked);
    assert!(
        e.message.contains("mixed.test resolves to 127.0.0.2"),
        "{}",
        e.message
    );
    assert!(untouched(&trap));
}

#[test]
fn check_url_resolves_but_never_connects() {
    let trap = tripwire();
    let port = trap.local_addr().expect("addr").port();
    let c = client(vec![("pinned.test".into(), vec!["127.0.0.1".into()])]);
    assert_eq!(
        c.check_url(&format!("http://Pinned.TEST:{port}/a/../b"))
            .expect("allowed"),
        format!("http://pinned.test:{port}/b")
    );
    let e = c
        .check_url(&format!("http://127.0.0.2:{port}/"))
        .expect_err("refused");
    assert_eq!(e.reason, "loopback-address");
    assert!(untouched(&trap));
}

#[test]
fn cap_boundary_is_exact() {
    // Exactly the cap passes, one byte more fails (compressed bombs:
    // tests/security/test_client_hostile.py).
    let body = vec![b'a'; 1000];
    // `Connection: close`: this server answers once per connection, and a client that pooled
    // the connection would race its close on the second request.
    let mut reply = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    reply.extend_from_slice(&body);
    let addr = serve(reply);
    let c = client(vec![]);
    let mut spec = get(format!("http://{addr}/"));
    spec.max_bytes = Some(1000);
    assert_eq!(c.request(&spec).expect("at the cap").content.len(), 1000);
    spec.max_bytes = Some(999);
    let e = c.request(&spec).expect_err("over the cap");
    assert_eq!(e.kind, ErrorKind::TooLarge);
    assert_eq!(e.limit, Some(999));
}

#[test]
fn a_timeout_past_the_clocks_range_is_cut_not_a_panic() {
    // `Instant::now() + 1e19 s` panics ("overflow when adding duration to instant"): a config
    // that asked for it killed the process on its first call. The client cuts it to a week.
    let addr = serve(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".to_vec());
    let huge = Duration::from_secs(u64::MAX);
    let client = Client::new(ClientConfig {
        policy: PolicyConfig {
            allow_networks: vec!["127.0.0.1/32".into()],
            ..PolicyConfig::default()
        },
        timeout: huge,
        connect_timeout: huge,
        ..ClientConfig::default()
    })
    .expect("valid config");
    let r = client
        .request(&get(format!("http://{addr}/x")))
        .expect("answered");
    assert_eq!(r.content, b"ok");
    let per_call = RequestSpec {
        timeout: Some(Duration::from_secs_f64(1e19)),
        ..get(format!("http://{addr}/y"))
    };
    assert_eq!(client.request(&per_call).expect("answered").content, b"ok");
    assert!(client.connect_timeout() <= webgrip_net::MAX_TIMEOUT);
}
