//! Tunnels through an upstream proxy to a checked address: HTTP `CONNECT ip:port` and SOCKS5
//! `CONNECT` with an IPv4/IPv6 address (never a name, so the proxy resolves nothing).
//!
//! Both speak over a ureq [`Transport`] (TCP to the proxy, or TLS to an `https://` proxy),
//! reading with its buffers so that nothing past the proxy's reply is consumed: the target's
//! TLS handshake (or HTTP exchange) then runs over the same transport. Errors never contain
//! the proxy's credentials.
use std::fmt;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ureq::unversioned::transport::time::Duration as UDuration;
use ureq::unversioned::transport::{Buffers, NextTimeout, Transport};
use ureq::Error;

use crate::egress_proxy::base64;
use crate::error::{status_label, NetError};
use crate::upstream::{ProxyKind, UpstreamProxy};

/// Longest proxy reply head read (the same cap as response headers).
const MAX_REPLY_HEAD: usize = 64 * 1024;

/// The connect budget shared by every step of reaching the target through the proxy.
pub(crate) struct Budget {
    pub start: Instant,
    pub total: Option<Duration>,
    pub base: NextTimeout,
}

impl Budget {
    pub fn left(&self) -> Option<Duration> {
        self.total.map(|t| t.saturating_sub(self.start.elapsed()))
    }

    fn next(&self) -> NextTimeout {
        NextTimeout {
            after: self
                .left()
                .map_or(UDuration::NotHappening, UDuration::Exact),
            ..self.base
        }
    }
}

/// What a failed tunnel attempt means for the next target address.
pub(crate) enum TunnelError {
    /// The proxy could not reach this address: another one may work.
    Target(NetError),
    /// The proxy itself failed (unreachable, credentials, protocol): stop.
    Proxy(NetError),
}

/// The request a tunnel is for, for messages.
pub(crate) struct Ctx<'a> {
    pub url: &'a str,
    pub proxy: &'a UpstreamProxy,
}

impl Ctx<'_> {
    fn fail(&self, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::proxy(self.url, &self.proxy.to_string(), reason, detail)
    }

    /// A transport error while talking to the proxy.
    fn io(&self, e: Error) -> NetError {
        match e {
            Error::Timeout(_) => NetError::timeout(
                self.url,
                format!(
                    "the proxy {} did not answer within connect_timeout",
                    self.proxy
                ),
            ),
            other => self.fail(
                "proxy-connect",
                format!("the connection to the proxy failed ({other})"),
            ),
        }
    }
}

/// Open a tunnel to `target` on `t`, a fresh connection to `ctx.proxy`.
pub(crate) fn open(
    t: &mut dyn Transport,
    target: SocketAddr,
    ctx: &Ctx<'_>,
    budget: &Budget,
) -> Result<(), TunnelError> {
    match ctx.proxy.kind {
        ProxyKind::Http | ProxyKind::Https => http_connect(t, target, ctx, budget),
        ProxyKind::Socks5 => socks5_connect(t, target, ctx, budget),
    }
}

fn send(
    t: &mut dyn Transport,
    data: &[u8],
    ctx: &Ctx<'_>,
    budget: &Budget,
) -> Result<(), NetError> {
    let mut sent = 0;
    while sent < data.len() {
        let out = t.buffers().output();
        let n = out.len().min(data.len() - sent);
        if n == 0 {
            return Err(ctx.fail("proxy-connect", "no output buffer"));
        }
        out[..n].copy_from_slice(&data[sent..sent + n]);
        t.transmit_output(n, budget.next()).map_err(|e| ctx.io(e))?;
        sent += n;
    }
    Ok(())
}

/// Wait until the input holds at least `n` bytes; `false` if the proxy closed first.
fn fill(t: &mut dyn Transport, n: usize, ctx: &Ctx<'_>, budget: &Budget) -> Result<bool, NetError> {
    while t.buffers().input().len() < n {
        if !t.await_input(budget.next()).map_err(|e| ctx.io(e))? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Take exactly `n` bytes of the proxy's reply.
fn take(
    t: &mut dyn Transport,
    n: usize,
    ctx: &Ctx<'_>,
    budget: &Budget,
) -> Result<Vec<u8>, NetError> {
    if !fill(t, n, ctx, budget)? {
        return Err(ctx.fail(
            "proxy-protocol",
            "the proxy closed the connection in the middle of its reply",
        ));
    }
    let buffers: &mut dyn Buffers = t.buffers();
    let out = buffers.input()[..n].to_vec();
    buffers.input_consume(n);
    Ok(out)
}

/// `CONNECT ip:port`; a 2xx opens the tunnel.
fn http_connect(
    t: &mut dyn Transport,
    target: SocketAddr,
    ctx: &Ctx<'_>,
    budget: &Budget,
) -> Result<(), TunnelError> {
    // `SocketAddr` displays IPv6 in brackets, as an authority needs.
    let mut head = format!("CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n");
    if let Some(auth) = &ctx.proxy.auth {
        let token = base64(format!("{}:{}", auth.user, auth.password).as_bytes());
        head.push_str("Proxy-Authorization: Basic ");
        head.push_str(&token);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    send(t, head.as_bytes(), ctx, budget).map_err(TunnelError::Proxy)?;
    // Read the reply head without consuming anything past it.
    let end = loop {
        let input = t.buffers().input();
        if let Some(end) = input.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        if input.len() > MAX_REPLY_HEAD {
            return Err(TunnelError::Proxy(
                ctx.fail("proxy-protocol", "the proxy's reply head is too long"),
            ));
        }
        let len = input.len();
        let more = fill(t, len + 1, ctx, budget).map_err(TunnelError::Proxy)?;
        if !more {
            return Err(TunnelError::Proxy(ctx.fail(
                "proxy-protocol",
                "the proxy closed the connection without answering CONNECT",
            )));
        }
    };
    let reply = take(t, end, ctx, budget).map_err(TunnelError::Proxy)?;
    let status_line = String::from_utf8_lossy(&reply);
    let status = status_line
        .split("\r\n")
        .next()
        .filter(|l| l.starts_with("HTTP/1."))
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse::<u16>().ok());
    match status {
        Some(200..=299) => Ok(()),
        Some(407) => Err(TunnelError::Proxy(ctx.fail(
            "proxy-auth",
            if ctx.proxy.auth.is_some() {
                "the proxy refused the credentials (HTTP 407)"
            } else {
                "the proxy requires credentials (HTTP 407): put them in the proxy URL"
            },
        ))),
        Some(s) => Err(TunnelError::Target(ctx.fail(
            "proxy-refused",
            format!(
                "the proxy refused to connect to {target} ({})",
                status_label(s)
            ),
        ))),
        None => Err(TunnelError::Proxy(ctx.fail(
            "proxy-protocol",
            "the proxy did not answer CONNECT with HTTP (is it a SOCKS proxy?)",
        ))),
    }
}

/// RFC 1928 reply codes.
fn socks_reply(code: u8) -> &'static str {
    match code {
        1 => "general failure",
        2 => "connection not allowed by the proxy's rules",
        3 => "network unreachable",
        4 => "host unreachable",
        5 => "connection refused",
        6 => "TTL expired",
        7 => "command not supported",
        8 => "address type not supported",
        _ => "unknown error",
    }
}

/// SOCKS5: greeting, optional user/password (RFC 1929), then CONNECT with ATYP 1 or 4.
fn socks5_connect(
    t: &mut dyn Transport,
    target: SocketAddr,
    ctx: &Ctx<'_>,
    budget: &Budget,
) -> Result<(), TunnelError> {
    let p = TunnelError::Proxy;
    // Offer only what we can do: no authentication, or user/password when configured.
    let greeting: &[u8] = if ctx.proxy.auth.is_some() {
        &[5, 1, 2]
    } else {
        &[5, 1, 0]
    };
    send(t, greeting, ctx, budget).map_err(p)?;
    let choice = take(t, 2, ctx, budget).map_err(p)?;
    if choice[0] != 5 {
        return Err(p(ctx.fail(
            "proxy-protocol",
            "the proxy did not answer as a SOCKS5 server",
        )));
    }
    match (choice[1], &ctx.proxy.auth) {
        (0, None) => {}
        (2, Some(auth)) => {
            let (user, pass) = (auth.user.as_bytes(), auth.password.as_bytes());
            let (Ok(ulen), Ok(plen)) = (u8::try_from(user.len()), u8::try_from(pass.len())) else {
                return Err(p(ctx.fail(
                    "proxy-auth",
                    "SOCKS5 credentials are at most 255 bytes each",
                )));
            };
            let mut msg = Vec::with_capacity(3 + user.len() + pass.len());
            msg.push(1);
            msg.push(ulen);
            msg.extend_from_slice(user);
            msg.push(plen);
            msg.extend_from_slice(pass);
            send(t, &msg, ctx, budget).map_err(p)?;
            let status = take(t, 2, ctx, budget).map_err(p)?;
            if status[1] != 0 {
                return Err(p(
                    ctx.fail("proxy-auth", "the proxy refused the credentials")
                ));
            }
        }
        (0xff, None) | (2, None) => {
            return Err(p(ctx.fail(
                "proxy-auth",
                "the proxy requires credentials: put them in the proxy URL",
            )))
        }
        _ => {
            return Err(p(ctx.fail(
                "proxy-auth",
                "the proxy accepts none of the offered authentication methods",
            )))
        }
    }
    let mut req = vec![5, 1, 0];
    match target {
        SocketAddr::V4(a) => {
            req.push(1);
            req.extend_from_slice(&a.ip().octets());
        }
        SocketAddr::V6(a) => {
            req.push(4);
            req.extend_from_slice(&a.ip().octets());
        }
    }
    req.extend_from_slice(&target.port().to_be_bytes());
    send(t, &req, ctx, budget).map_err(p)?;
    let reply = take(t, 4, ctx, budget).map_err(p)?;
    if reply[0] != 5 {
        return Err(p(
            ctx.fail("proxy-protocol", "the proxy's SOCKS5 reply is malformed")
        ));
    }
    // The bound address that follows: skip it whatever its type.
    let rest = match reply[3] {
        1 => 4 + 2,
        4 => 16 + 2,
        3 => usize::from(take(t, 1, ctx, budget).map_err(p)?[0]) + 2,
        _ => {
            return Err(p(ctx.fail(
                "proxy-protocol",
                "the proxy's SOCKS5 reply has an unknown address type",
            )))
        }
    };
    take(t, rest, ctx, budget).map_err(p)?;
    match reply[1] {
        0 => Ok(()),
        code => Err(TunnelError::Target(ctx.fail(
            "proxy-refused",
            format!(
                "the proxy could not connect to {target} (SOCKS5: {})",
                socks_reply(code)
            ),
        ))),
    }
}

/// A tunnel through a proxy: a new connection context for the target, so not TLS to the
/// target even when the transport under it is TLS to an `https://` proxy.
#[derive(Debug)]
pub(crate) struct Tunnel(pub Box<dyn Transport>);

impl Transport for Tunnel {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.0.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        self.0.transmit_output(amount, timeout)
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        self.0.await_input(timeout)
    }

    fn is_open(&mut self) -> bool {
        self.0.is_open()
    }

    fn is_tls(&self) -> bool {
        false
    }
}
