//! The connector: dial only policy-approved addresses (directly, or through the upstream
//! proxy the host is routed to, asked for that very address), remember which one answered,
//! then add TLS for the name.
//!
//! ureq 3.5 does not expose the peer address of a response, so the transport records it in a
//! thread-local each time it sends a request (fresh or pooled connection alike); ureq is
//! blocking, so the send happens on the thread that made the call.
use std::cell::Cell;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::http::Uri;
use ureq::unversioned::resolver::ResolvedSocketAddrs;
use ureq::unversioned::transport::time::{Duration as UDuration, Instant as UInstant};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, NextTimeout, RustlsConnector, TcpConnector, Transport,
};
use ureq::Error;

use crate::error::NetError;
use crate::policy::Policy;
use crate::resolve::Lookup;
use crate::tunnel::{self, Budget, Ctx, Tunnel, TunnelError};
use crate::upstream::{ProxyKind, ProxyRoutes, UpstreamProxy};

thread_local! {
    static LAST_PEER: Cell<Option<SocketAddr>> = const { Cell::new(None) };
}

/// Forget the peer recorded on this thread (call before a request).
pub fn clear_last_peer() {
    LAST_PEER.with(|p| p.set(None));
}

/// The address the last request sent on this thread went to.
pub fn last_peer() -> Option<SocketAddr> {
    LAST_PEER.with(Cell::get)
}

thread_local! {
    static IO_DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// While alive, every DNS lookup, connect, read and write of this thread ends by a moving
/// deadline, on top of ureq's own timeouts. A download needs it: its response head must come
/// within the call's `timeout`, but its body is bounded by the stall rule and its own overall
/// limit, and ureq fixes a request's timeouts when it is sent. ureq is blocking, so the I/O
/// of a call happens on the thread that made it (as for [`last_peer`]).
pub(crate) struct IoDeadline {
    previous: Option<Instant>,
}

impl IoDeadline {
    pub(crate) fn new(at: Instant) -> IoDeadline {
        IoDeadline {
            previous: IO_DEADLINE.with(|d| d.replace(Some(at))),
        }
    }

    /// Move the deadline (earlier or later).
    pub(crate) fn move_to(&self, at: Instant) {
        IO_DEADLINE.with(|d| d.set(Some(at)));
    }
}

impl Drop for IoDeadline {
    fn drop(&mut self) {
        IO_DEADLINE.with(|d| d.set(self.previous));
    }
}

/// `budget` cut to what is left before this thread's [`IoDeadline`], if one is set.
pub(crate) fn io_bound(budget: Option<Duration>) -> Option<Duration> {
    let Some(at) = IO_DEADLINE.with(Cell::get) else {
        return budget;
    };
    let left = at.saturating_duration_since(Instant::now());
    Some(budget.map_or(left, |b| b.min(left)))
}

/// `timeout` with its per-read and per-write limits cut to the [`IoDeadline`]: the transport
/// doing the I/O applies them (and reports them as `PerRead`/`PerWrite`, which webgrip never
/// sets otherwise).
fn io_bounded(mut timeout: NextTimeout) -> NextTimeout {
    if let Some(left) = io_bound(None) {
        let left = UDuration::Exact(left);
        timeout.per_read = Some(match timeout.per_read {
            Some(p) if p < left => p,
            _ => left,
        });
        timeout.per_write = Some(match timeout.per_write {
            Some(p) if p < left => p,
            _ => left,
        });
    }
    timeout
}

type TcpOut = <TcpConnector as Connector<()>>::Out;

/// A transport (TCP, or a tunnel through a proxy) that knows its peer: the checked address
/// it reaches.
#[derive(Debug)]
pub struct PeerTransport {
    inner: Box<dyn Transport>,
    peer: SocketAddr,
}

impl Transport for PeerTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.inner.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        LAST_PEER.with(|p| p.set(Some(self.peer)));
        self.inner.transmit_output(amount, io_bounded(timeout))
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        self.inner.await_input(io_bounded(timeout))
    }

    fn is_open(&mut self) -> bool {
        self.inner.is_open()
    }

    fn is_tls(&self) -> bool {
        self.inner.is_tls()
    }
}

type TlsOut = <RustlsConnector as Connector<PeerTransport>>::Out;

/// First (and only) connector of the agent: TCP to checked addresses (or a tunnel to one
/// through an upstream proxy), then rustls.
#[derive(Debug)]
pub struct GuardedConnector {
    policy: Arc<Policy>,
    lookup: Arc<Lookup>,
    routes: ProxyRoutes,
    tcp: TcpConnector,
    tls: RustlsConnector,
    /// TLS to an `https://` proxy (a connector of its own: its rustls config is cached apart).
    proxy_tls: RustlsConnector,
}

impl GuardedConnector {
    pub fn new(lookup: Arc<Lookup>, routes: ProxyRoutes) -> GuardedConnector {
        GuardedConnector {
            policy: lookup.policy.clone(),
            lookup,
            routes,
            tcp: TcpConnector::default(),
            tls: RustlsConnector::default(),
            proxy_tls: RustlsConnector::default(),
        }
    }
}

/// The request's host as [`ProxyRoutes::route`] takes it.
fn route_host(uri: &Uri) -> String {
    let host = uri.authority().map_or("", |a| a.host());
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.trim_end_matches('.').to_ascii_lowercase()
}

/// `details` with other addresses, a fresh start and budget; `request_level` cleared so the
/// TLS connector caches its rustls config (it is the agent's: webgrip never sets TLS per
/// request, only timeouts).
fn sub_details<'a>(
    details: &ConnectionDetails<'a>,
    addrs: ResolvedSocketAddrs,
    budget: Option<Duration>,
) -> ConnectionDetails<'a> {
    with_uri(details, details.uri, addrs, budget)
}

/// [`sub_details`] for another URI (the proxy's, for TLS to an `https://` proxy).
fn with_uri<'a>(
    details: &ConnectionDetails<'a>,
    uri: &'a Uri,
    addrs: ResolvedSocketAddrs,
    budget: Option<Duration>,
) -> ConnectionDetails<'a> {
    ConnectionDetails {
        uri,
        addrs,
        config: details.config,
        request_level: false,
        resolver: details.resolver,
        now: UInstant::now(),
        timeout: NextTimeout {
            after: budget.map_or(UDuration::NotHappening, UDuration::Exact),
            ..details.timeout
        },
        current_time: details.current_time.clone(),
        run_connector: details.run_connector.clone(),
        register_shutdown: details.register_shutdown.clone(),
    }
}

impl Connector<()> for GuardedConnector {
    type Out = TlsOut;

    fn connect(
        &self,
        details: &ConnectionDetails,
        _chained: Option<()>,
    ) -> Result<Option<Self::Out>, Error> {
        // Tripwire: the resolver already checked these, but nothing reaches a socket
        // without passing the policy here too (ureq would hand us no addresses at all if a
        // proxy were ever configured, and that fails below as well).
        for a in details.addrs.iter() {
            if let Err(r) = self.policy.check_ip(a.ip()) {
                let url = details.uri.to_string();
                return Err(Error::Other(Box::new(NetError::blocked(
                    &url,
                    r.reason(),
                    format!("{} is {r}", a.ip()),
                ))));
            }
        }
        if details.addrs.is_empty() {
            return Err(Error::HostNotFound);
        }
        let start = Instant::now();
        let total =
            io_bound((!details.timeout.after.is_not_happening()).then(|| *details.timeout.after));
        let routed = if self.routes.is_direct() {
            None
        } else {
            self.routes
                .route(&route_host(details.uri), details.needs_tls())
        };
        if let Some(proxy) = routed {
            let budget = Budget {
                start,
                total,
                base: details.timeout,
            };
            return self
                .connect_via(details, proxy, &budget)
                .map_err(|e| Error::Other(Box::new(e)));
        }
        let count = details.addrs.len();
        let mut last_err = None;
        for (i, addr) in details.addrs.iter().enumerate() {
            // Share what is left of the connect budget evenly among the remaining addresses,
            // so one black-holed address cannot eat the whole budget.
            let left = total.map(|t| t.saturating_sub(start.elapsed()));
            let share = left.map(|l| l / u32::try_from(count - i).unwrap_or(1));
            // Our own plain TCP (its socket can be handed to a download's body, `tcp.rs`).
            let tcp = match crate::tcp::connect(details, *addr, share) {
                Ok(t) => t,
                Err(e) => {
                    last_err = Some(e);
                    continue;
                }
            };
            LAST_PEER.with(|p| p.set(Some(*addr)));
            let peer = PeerTransport {
                inner: Box::new(tcp),
                peer: *addr,
            };
            // The TLS handshake gets what remains of the whole connect budget.
            let left = total.map(|t| t.saturating_sub(start.elapsed()));
            let mut all = details.resolver.empty();
            for a in details.addrs.iter() {
                all.push(*a);
            }
            let tls_details = sub_details(details, all, left);
            return self.tls.connect(&tls_details, Some(peer));
        }
        Err(last_err.unwrap_or(Error::ConnectionFailed))
    }
}

impl GuardedConnector {
    /// Reach one of the checked `details.addrs` through `proxy`: each address in turn over a
    /// fresh proxy connection, until the proxy opens a tunnel; then TLS for the name.
    fn connect_via(
        &self,
        details: &ConnectionDetails,
        proxy: &UpstreamProxy,
        budget: &Budget,
    ) -> Result<Option<TlsOut>, NetError> {
        let url = details.uri.to_string();
        let ctx = Ctx { url: &url, proxy };
        let mut last = None;
        for target in details.addrs.iter() {
            let mut t = self.reach_proxy(details, &ctx, budget)?;
            match tunnel::open(&mut *t, *target, &ctx, budget) {
                Ok(()) => {}
                Err(TunnelError::Target(e)) => {
                    last = Some(e);
                    continue;
                }
                Err(TunnelError::Proxy(e)) => return Err(e),
            }
            LAST_PEER.with(|p| p.set(Some(*target)));
            let peer = PeerTransport {
                inner: Box::new(Tunnel(t)),
                peer: *target,
            };
            let mut all = details.resolver.empty();
            for a in details.addrs.iter() {
                all.push(*a);
            }
            let tls_details = sub_details(details, all, budget.left());
            return self
                .tls
                .connect(&tls_details, Some(peer))
                .map_err(|e| crate::ureq_error::from_ureq(e, &url));
        }
        Err(last
            .unwrap_or_else(|| NetError::connect(&url, "dns", "the host name does not resolve")))
    }

    /// A fresh connection to the proxy itself: its host resolved once (not subject to the
    /// policy: the user chose it), dialled directly, with TLS to it for `https://`.
    fn reach_proxy(
        &self,
        details: &ConnectionDetails,
        ctx: &Ctx<'_>,
        budget: &Budget,
    ) -> Result<Box<dyn Transport>, NetError> {
        let proxy = ctx.proxy;
        let timed_out = || {
            NetError::timeout(
                ctx.url,
                format!("could not reach the proxy {proxy} within connect_timeout"),
            )
        };
        let addrs = self
            .lookup
            .resolve_proxy(&proxy.host, proxy.port, budget.left())
            .map_err(|e| {
                if e == "timeout" {
                    timed_out()
                } else {
                    NetError::proxy(
                        ctx.url,
                        &proxy.to_string(),
                        "proxy-dns",
                        format!("cannot resolve the proxy's host ({e})"),
                    )
                }
            })?;
        let count = addrs.len();
        let mut last_err = None;
        for (i, addr) in addrs.iter().enumerate() {
            let left = budget.left();
            let share = left.map(|l| l / u32::try_from(count - i).unwrap_or(1));
            let mut one = details.resolver.empty();
            one.push(*addr);
            let tcp: TcpOut = match self.tcp.connect(&sub_details(details, one, share), None) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    last_err = Some(e);
                    continue;
                }
            };
            if proxy.kind != ProxyKind::Https {
                return Ok(Box::new(tcp));
            }
            let authority = if proxy.host.contains(':') {
                format!("[{}]:{}", proxy.host, proxy.port)
            } else {
                format!("{}:{}", proxy.host, proxy.port)
            };
            let proxy_uri: Uri = format!("https://{authority}/").parse().map_err(|_| {
                NetError::proxy(ctx.url, &proxy.to_string(), "proxy-tls", "bad proxy host")
            })?;
            let mut one = details.resolver.empty();
            one.push(*addr);
            let tls_details = with_uri(details, &proxy_uri, one, budget.left());
            return match self.proxy_tls.connect(&tls_details, Some(Box::new(tcp))) {
                Ok(Some(t)) => Ok(Box::new(t)),
                Ok(None) => Err(NetError::proxy(
                    ctx.url,
                    &proxy.to_string(),
                    "proxy-tls",
                    "TLS to the proxy could not be set up",
                )),
                Err(Error::Timeout(_)) => Err(timed_out()),
                Err(e) => Err(NetError::proxy(
                    ctx.url,
                    &proxy.to_string(),
                    "proxy-tls",
                    format!("TLS to the proxy failed ({e})"),
                )),
            };
        }
        Err(match last_err {
            Some(Error::Timeout(_)) => timed_out(),
            Some(e) => NetError::proxy(
                ctx.url,
                &proxy.to_string(),
                "proxy-connect",
                format!("cannot connect to the proxy ({e})"),
            ),
            None => timed_out(),
        })
    }
}
