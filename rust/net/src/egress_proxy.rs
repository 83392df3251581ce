//! The guarded egress proxy a rendering browser is pointed at.
//!
//! A browser resolves and connects by itself, so a URL check in front of the first request
//! protects nothing: every script, image, frame, WebSocket and redirect is a request the page
//! chooses. This forward proxy is the browser's only way out. It listens on loopback on an
//! ephemeral port, serves only callers that present the session's secret
//! (`Proxy-Authorization: Basic`), and applies the fetch policy to each request exactly as a
//! fetch does: the URL checks of [`Policy::check_parsed`], one lookup through [`Lookup`]
//! (every answer checked, overrides honoured), then a TCP connection to one of those checked
//! addresses only. It understands `CONNECT host:port` (HTTPS and WebSocket tunnels) and
//! absolute-form plain HTTP (`GET http://host/path`, `ws://` upgrades included). Each
//! session has a deadline, a cap on requests and a cap on bytes relayed.
//!
//! Blocking std sockets, one thread per connection (two while relaying); every read has a
//! short timeout so that a stop, the deadline or the byte cap ends every thread promptly.
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use url::Url;

use crate::error::NetError;
use crate::policy::Target;
use crate::resolve::Lookup;

/// How often blocked reads and the accept loop look at the stop flag and the deadline.
const POLL: Duration = Duration::from_millis(50);
/// The longest request or response head read (the same cap as ureq's response headers).
const MAX_HEAD: usize = 64 * 1024;
/// Connections served at once; more wait in the kernel's backlog.
const MAX_ACTIVE: usize = 64;
/// Refusals remembered for [`ProxyStats::refusals`].
const MAX_REFUSALS_KEPT: usize = 32;
/// The user name the browser is given with the secret.
pub const PROXY_USER: &str = "webgrip";

/// The limits of one proxy session.
#[derive(Clone, Debug)]
pub struct ProxyConfig {
    /// The password the browser must present (with [`PROXY_USER`]).
    pub secret: String,
    /// The session ends this long after it starts: nothing is relayed afterwards.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Bytes relayed in both directions, all connections together.
    pub max_bytes: u64,
    /// Requests and tunnels served (refused ones included).
    pub max_connections: u32,
}

/// What a session did, for the caller's report and for tests.
#[derive(Clone, Debug, Default)]
pub struct ProxyStats {
    /// Requests and tunnels that presented the secret.
    pub requests: u32,
    /// Connections to an upstream address that were opened.
    pub upstream: u32,
    pub refused: u32,
    pub bytes: u64,
    /// The first refusals: (target as the browser asked for it, reason).
    pub refusals: Vec<(String, String)>,
    pub over_bytes: bool,
    pub over_connections: bool,
}

#[derive(Debug)]
struct Shared {
    lookup: Arc<Lookup>,
    cfg: ProxyConfig,
    expected_auth: String,
    deadline: Instant,
    stop: AtomicBool,
    active: AtomicUsize,
    requests: AtomicU32,
    upstream: AtomicU32,
    refused: AtomicU32,
    bytes: AtomicU64,
    over_bytes: AtomicBool,
    over_connections: AtomicBool,
    refusals: Mutex<Vec<(String, String)>>,
}

impl Shared {
    fn ended(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.over_bytes.load(Ordering::Relaxed)
            || Instant::now() >= self.deadline
    }

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    fn refuse(&self, target: &str, reason: &str) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut list) = self.refusals.lock() {
            if list.len() < MAX_REFUSALS_KEPT {
                list.push((target.chars().take(300).collect(), reason.to_string()));
            }
        }
    }

    /// Count `n` relayed bytes; false once the session's byte cap is passed.
    fn spend(&self, n: usize) -> bool {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        let total = self.bytes.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if total > self.cfg.max_bytes {
            self.over_bytes.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }
}

/// A running proxy session; stopped on [`EgressProxy::stop`] or drop.
#[derive(Debug)]
pub struct EgressProxy {
    shared: Arc<Shared>,
    addr: SocketAddr,
    accept: Option<JoinHandle<()>>,
}

/// Standard base64 with padding (`Proxy-Authorization: Basic`).
pub(crate) fn base64(data: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ABC[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Equal strings, compared in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl EgressProxy {
    /// Bind `127.0.0.1:0` and start serving under `lookup`'s policy.
    pub fn start(lookup: Arc<Lookup>, cfg: ProxyConfig) -> Result<EgressProxy, NetError> {
        if cfg.secret.len() < 16 || cfg.secret.contains([':', '\r', '\n']) {
            return Err(NetError::invalid_input(
                "the proxy secret must be at least 16 characters, without ':' or line breaks",
            ));
        }
        let listener = TcpListener::bind((IpAddr::from([127, 0, 0, 1]), 0))
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|e| NetError::invalid_input(format!("cannot start the proxy: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| NetError::invalid_input(format!("cannot start the proxy: {e}")))?;
        let expected_auth = base64(format!("{PROXY_USER}:{}", cfg.secret).as_bytes());
        let shared = Arc::new(Shared {
            lookup,
            deadline: crate::client::deadline_after(Instant::now(), cfg.timeout),
            cfg,
            expected_auth,
            stop: AtomicBool::new(false),
            active: AtomicUsize::new(0),
            requests: AtomicU32::new(0),
            upstream: AtomicU32::new(0),
            refused: AtomicU32::new(0),
            bytes: AtomicU64::new(0),
            over_bytes: AtomicBool::new(false),
            over_connections: AtomicBool::new(false),
            refusals: Mutex::new(Vec::new()),
        });
        let s = shared.clone();
        let accept = thread::Builder::new()
            .name("webgrip-proxy".into())
            .spawn(move || accept_loop(&listener, &s))
            .map_err(|e| NetError::invalid_input(format!("cannot start the proxy: {e}")))?;
        Ok(EgressProxy {
            shared,
            addr,
            accept: Some(accept),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn stats(&self) -> ProxyStats {
        let s = &self.shared;
        ProxyStats {
            requests: s.requests.load(Ordering::Relaxed),
            upstream: s.upstream.load(Ordering::Relaxed),
            refused: s.refused.load(Ordering::Relaxed),
            bytes: s.bytes.load(Ordering::Relaxed),
            refusals: s.refusals.lock().map(|l| l.clone()).unwrap_or_default(),
            over_bytes: s.over_bytes.load(Ordering::Relaxed),
            over_connections: s.over_connections.load(Ordering::Relaxed),
        }
    }

    /// Stop accepting and end every relay (within `POLL`). Idempotent.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
        // Relays notice the flag on their next read timeout; wait for them, boundedly.
        let until = Instant::now() + POLL * 4;
        while self.shared.active.load(Ordering::Relaxed) > 0 && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EgressProxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Decrements the active count however a connection thread ends.
struct ActiveGuard(Arc<Shared>);

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::Relaxed);
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    while !shared.ended() {
        match listener.accept() {
            Ok((stream, peer)) => {
                // Only this machine's loopback can be a client; the bind already ensures it.
                if !peer.ip().is_loopback() || shared.active.load(Ordering::Relaxed) >= MAX_ACTIVE {
                    let _ = stream.shutdown(Shutdown::Both);
                    continue;
                }
                shared.active.fetch_add(1, Ordering::Relaxed);
                let s = shared.clone();
                let spawned = thread::Builder::new()
                    .name("webgrip-proxy-conn".into())
                    .spawn(move || {
                        let guard = ActiveGuard(s);
                        serve(stream, &guard.0);
                    });
                if spawned.is_err() {
                    shared.active.fetch_sub(1, Ordering::Relaxed);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => thread::sleep(POLL / 5),
            Err(_) => thread::sleep(POLL / 5),
        }
    }
}

/// A parsed request head and the bytes read past it.
struct Head {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    rest: Vec<u8>,
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Read until the blank line ending a head; `None` on EOF, a cap, the end of the session.
fn read_head(
    stream: &mut TcpStream,
    shared: &Shared,
    mut buf: Vec<u8>,
) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buf.split_off(end + 4);
            return Some((buf, rest));
        }
        if buf.len() > MAX_HEAD || shared.ended() {
            return None;
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if is_timeout(&e) => continue,
            Err(_) => return None,
        }
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// The request line and header fields (`rest`: the bytes read past them); `None` if it is
/// not HTTP/1.x.
fn parse_head(head: &[u8], rest: Vec<u8>) -> Option<Head> {
    let text = std::str::from_utf8(head).ok()?;
    let mut lines = text.split("\r\n");
    let mut parts = lines.next()?.split(' ');
    let (method, target, version) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || !version.starts_with("HTTP/1.") || method.is_empty() {
        return None;
    }
    let mut headers = Vec::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (k, v) = line.split_once(':')?;
        if k.is_empty() || k.contains([' ', '\t']) {
            return None;
        }
        headers.push((k.to_string(), v.trim().to_string()));
    }
    Some(Head {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        rest,
    })
}

fn reply(stream: &mut TcpStream, status: &str, extra: &str, body: &str) {
    let msg = format!(
        "HTTP/1.1 {status}\r\n{extra}Content-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\nProxy-Connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(msg.as_bytes());
    let _ = stream.flush();
}

/// Refuse a request in a way the browser reports as a network error, and remember why.
fn refuse(stream: &mut TcpStream, shared: &Shared, target: &str, e: &NetError) {
    shared.refuse(target, &e.reason);
    let reason: String = e
        .reason
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    reply(
        stream,
        "403 Forbidden",
        &format!("X-Webgrip-Refused: {reason}\r\n"),
        &e.message,
    );
}

fn serve(mut client: TcpStream, shared: &Arc<Shared>) {
    if client.set_nonblocking(false).is_err() || client.set_read_timeout(Some(POLL)).is_err() {
        return;
    }
    let _ = client.set_nodelay(true);
    let Some(head) = read_request(&mut client, shared) else {
        return;
    };
    let authorized = header(&head.headers, "proxy-authorization")
        .and_then(|v| {
            v.strip_prefix("Basic ")
                .or_else(|| v.strip_prefix("basic "))
        })
        .is_some_and(|token| same_secret(token.trim(), &shared.expected_auth));
    if !authorized {
        reply(
            &mut client,
            "407 Proxy Authentication Required",
            "Proxy-Authenticate: Basic realm=\"webgrip\"\r\n",
            "this proxy serves one render session only",
        );
        return;
    }
    let n = shared.requests.fetch_add(1, Ordering::Relaxed) + 1;
    if n > shared.cfg.max_connections {
        shared.over_connections.store(true, Ordering::Relaxed);
        let e = NetError::blocked(
            &head.target,
            "too-many-requests",
            format!(
                "the render already made {} requests (the cap)",
                shared.cfg.max_connections
            ),
        );
        refuse(&mut client, shared, &head.target, &e);
        return;
    }
    if head.method.eq_ignore_ascii_case("CONNECT") {
        tunnel(client, shared, head);
    } else {
        forward(client, shared, head);
    }
}

fn read_request(client: &mut TcpStream, shared: &Shared) -> Option<Head> {
    let (raw, rest) = read_head(client, shared, Vec::new())?;
    let head = parse_head(&raw, rest);
    if head.is_none() {
        reply(client, "400 Bad Request", "", "not an HTTP/1 proxy request");
    }
    head
}

/// A CONNECT authority (`host:port`, `[v6]:port`) as the URL the policy judges. Anything
/// that could make the URL parser see another host than the browser meant (userinfo, a
/// path, a backslash) is refused rather than interpreted.
fn connect_url(authority: &str) -> Result<Url, NetError> {
    let ok = !authority.is_empty()
        && authority
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '[' | ']'));
    let has_port = authority.rsplit_once(':').is_some_and(|(h, p)| {
        !h.is_empty() && !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())
    });
    if !ok || !has_port {
        return Err(NetError::invalid_url(
            authority,
            "a CONNECT target must be host:port",
        ));
    }
    let raw = format!("https://{authority}/");
    Url::parse(&raw).map_err(|e| NetError::invalid_url(&raw, e))
}

/// Resolve once, check every answer, connect to a checked address (re-checked right before
/// the connect, as the fetch's connector does).
fn dial(shared: &Shared, target: &Target) -> Result<TcpStream, NetError> {
    let url = target.url.as_str();
    let budget = shared.cfg.connect_timeout.min(shared.remaining());
    if budget.is_zero() {
        return Err(NetError::timeout(url, "the render's deadline passed"));
    }
    let addrs = shared
        .lookup
        .resolve(url, &target.host, target.port, Some(budget))?;
    let start = Instant::now();
    let mut last = None;
    for addr in &addrs {
        if let Err(r) = shared.lookup.policy.check_ip(addr.ip()) {
            return Err(NetError::blocked(
                url,
                r.reason(),
                format!("{} is {r}", addr.ip()),
            ));
        }
        let left = budget.saturating_sub(start.elapsed());
        if left.is_zero() {
            break;
        }
        match TcpStream::connect_timeout(addr, left) {
            Ok(s) => {
                shared.upstream.fetch_add(1, Ordering::Relaxed);
                let _ = s.set_nodelay(true);
                return Ok(s);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(NetError::connect(
        url,
        "connect",
        match last {
            Some(e) => format!("cannot connect to {} ({e})", target.host),
            None => format!("cannot connect to {} in time", target.host),
        },
    ))
}

fn tunnel(mut client: TcpStream, shared: &Arc<Shared>, head: Head) {
    let checked = connect_url(&head.target).and_then(|u| shared.lookup.policy.check_parsed(u));
    let upstream = checked.and_then(|t| dial(shared, &t));
    let upstream = match upstream {
        Ok(s) => s,
        Err(e) => return refuse(&mut client, shared, &head.target, &e),
    };
    if client
        .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        .is_err()
    {
        return;
    }
    let mut first = head.rest;
    if !shared.lookup.policy.allow_http {
        // https only: the tunnel must carry TLS (a ClientHello starts with 0x16), not a
        // plain `ws://` or HTTP exchange.
        while first.is_empty() && !shared.ended() {
            let mut b = [0u8; 4096];
            match client.read(&mut b) {
                Ok(0) => return,
                Ok(n) => first.extend_from_slice(&b[..n]),
                Err(e) if is_timeout(&e) => continue,
                Err(_) => return,
            }
        }
        if first.first() != Some(&0x16) {
            shared.refuse(&head.target, "scheme");
            let _ = client.shutdown(Shutdown::Both);
            let _ = upstream.shutdown(Shutdown::Both);
            return;
        }
    }
    relay(client, upstream, shared, &first);
}

/// Hop-by-hop and proxy headers, never passed on.
fn is_hop_header(name: &str) -> bool {
    [
        "proxy-authorization",
        "proxy-connection",
        "connection",
        "keep-alive",
        "te",
        "trailer",
    ]
    .iter()
    .any(|h| name.eq_ignore_ascii_case(h))
}

fn forward(mut client: TcpStream, shared: &Arc<Shared>, head: Head) {
    let checked = Url::parse(&head.target)
        .map_err(|e| NetError::invalid_url(&head.target, e))
        .and_then(|u| {
            if u.scheme() == "http" {
                shared.lookup.policy.check_parsed(u)
            } else {
                Err(NetError::blocked(
                    &head.target,
                    "scheme",
                    "only absolute http:// requests are forwarded (https goes through CONNECT)",
                ))
            }
        });
    let target = match checked {
        Ok(t) => t,
        Err(e) => return refuse(&mut client, shared, &head.target, &e),
    };
    let mut upstream = match dial(shared, &target) {
        Ok(s) => s,
        Err(e) => return refuse(&mut client, shared, &head.target, &e),
    };
    let upgrade = header(&head.headers, "upgrade").is_some();
    let mut path = target.url.path().to_string();
    if let Some(q) = target.url.query() {
        path.push('?');
        path.push_str(q);
    }
    let mut out = format!("{} {path} HTTP/1.1\r\n", head.method);
    for (k, v) in head.headers.iter().filter(|(k, _)| !is_hop_header(k)) {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    // One request per upstream connection: the next request may be for another host, and it
    // must come back through the policy.
    out.push_str(if upgrade {
        "Connection: Upgrade\r\n\r\n"
    } else {
        "Connection: close\r\n\r\n"
    });
    if !shared.spend(out.len()) || upstream.write_all(out.as_bytes()).is_err() {
        return;
    }
    if upstream.set_read_timeout(Some(POLL)).is_err() {
        return;
    }
    // The request body (or the first frames) the browser already sent.
    if !head.rest.is_empty()
        && (!shared.spend(head.rest.len()) || upstream.write_all(&head.rest).is_err())
    {
        return;
    }
    // Relay the body in the background while the response head is read, then tell the
    // browser not to reuse this connection (unless it became a WebSocket).
    let Some(response) = read_response_head(&mut client, &mut upstream, shared) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    if !shared.spend(response.len()) || client.write_all(&response).is_err() {
        return;
    }
    relay(client, upstream, shared, &[]);
}

/// Read the upstream's response head while passing on whatever the browser still sends (a
/// request body); rewrite it so the browser closes the connection after the response.
fn read_response_head(
    client: &mut TcpStream,
    upstream: &mut TcpStream,
    shared: &Shared,
) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let end = loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        if buf.len() > MAX_HEAD || shared.ended() {
            return None;
        }
        match upstream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if is_timeout(&e) => {
                // Meanwhile, pass on a request body.
                let _ = client.set_nonblocking(true);
                let r = client.read(&mut chunk);
                let _ = client.set_nonblocking(false);
                match r {
                    Ok(0) => {}
                    Ok(n) => {
                        if !shared.spend(n) || upstream.write_all(&chunk[..n]).is_err() {
                            return None;
                        }
                    }
                    Err(_) => {}
                }
            }
            Err(_) => return None,
        }
    };
    let body = buf.split_off(end + 4);
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let switching = status_line.split(' ').nth(1) == Some("101");
    let mut out = format!("{status_line}\r\n");
    for line in lines {
        let name = line.split(':').next().unwrap_or("");
        if !switching && is_hop_header(name) {
            continue;
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    if !switching {
        out.push_str("Connection: close\r\nProxy-Connection: close\r\n");
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    out.extend_from_slice(&body);
    Some(out)
}

/// Copy both ways until either side closes, the session ends or the byte cap is passed.
fn relay(client: TcpStream, upstream: TcpStream, shared: &Arc<Shared>, first: &[u8]) {
    let (Ok(c2), Ok(u2)) = (client.try_clone(), upstream.try_clone()) else {
        return;
    };
    for s in [&client, &upstream] {
        if s.set_read_timeout(Some(POLL)).is_err() {
            return;
        }
    }
    let mut up = upstream;
    if !first.is_empty() && (!shared.spend(first.len()) || up.write_all(first).is_err()) {
        return;
    }
    let s = shared.clone();
    shared.active.fetch_add(1, Ordering::Relaxed);
    let back = thread::Builder::new()
        .name("webgrip-proxy-relay".into())
        .spawn(move || {
            let guard = ActiveGuard(s);
            copy(u2, c2, &guard.0);
        });
    if back.is_err() {
        shared.active.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    copy(client, up, shared);
}

/// One direction of a relay; shuts both sockets when it ends so the other direction ends too.
fn copy(mut from: TcpStream, mut to: TcpStream, shared: &Shared) {
    let mut buf = [0u8; 16 * 1024];
    while !shared.ended() {
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if !shared.spend(n) || to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            Err(e) if is_timeout(&e) => continue,
            Err(_) => break,
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

#[cfg(test)]
#[path = "egress_proxy_tests.rs"]
mod tests;
