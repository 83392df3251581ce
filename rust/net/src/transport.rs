//! The connector: dial only policy-approved addresses, remember which one answered, then
//! add TLS.
//!
//! ureq 3.5 does not expose the peer address of a response, so the transport records it in a
//! thread-local each time it sends a request (fresh or pooled connection alike); ureq is
//! blocking, so the send happens on the thread that made the call.
use std::cell::Cell;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::unversioned::transport::time::{Duration as UDuration, Instant as UInstant};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, NextTimeout, RustlsConnector, TcpConnector, Transport,
};
use ureq::Error;

use crate::error::NetError;
use crate::policy::Policy;

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

type TcpOut = <TcpConnector as Connector<()>>::Out;

/// A TCP transport that knows its peer.
#[derive(Debug)]
pub struct PeerTransport {
    inner: TcpOut,
    peer: SocketAddr,
}

impl Transport for PeerTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.inner.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        LAST_PEER.with(|p| p.set(Some(self.peer)));
        self.inner.transmit_output(amount, timeout)
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        self.inner.await_input(timeout)
    }

    fn is_open(&mut self) -> bool {
        self.inner.is_open()
    }

    fn is_tls(&self) -> bool {
        self.inner.is_tls()
    }
}

type TlsOut = <RustlsConnector as Connector<PeerTransport>>::Out;

/// First (and only) connector of the agent: TCP to checked addresses, then rustls.
#[derive(Debug)]
pub struct GuardedConnector {
    policy: Arc<Policy>,
    tcp: TcpConnector,
    tls: RustlsConnector,
}

impl GuardedConnector {
    pub fn new(policy: Arc<Policy>) -> GuardedConnector {
        GuardedConnector {
            policy,
            tcp: TcpConnector::default(),
            tls: RustlsConnector::default(),
        }
    }
}

/// `details` with other addresses, a fresh start and budget; `request_level` cleared so the
/// TLS connector caches its rustls config (it is the agent's: webgrip never sets TLS per
/// request, only timeouts).
fn sub_details<'a>(
    details: &ConnectionDetails<'a>,
    addrs: ureq::unversioned::resolver::ResolvedSocketAddrs,
    budget: Option<Duration>,
) -> ConnectionDetails<'a> {
    ConnectionDetails {
        uri: details.uri,
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
        let total = (!details.timeout.after.is_not_happening()).then(|| *details.timeout.after);
        let count = details.addrs.len();
        let mut last_err = None;
        for (i, addr) in details.addrs.iter().enumerate() {
            // Share what is left of the connect budget evenly among the remaining addresses,
            // so one black-holed address cannot eat the whole budget.
            let left = total.map(|t| t.saturating_sub(start.elapsed()));
            let share = left.map(|l| l / u32::try_from(count - i).unwrap_or(1));
            let mut one = details.resolver.empty();
            one.push(*addr);
            let tcp_details = sub_details(details, one, share);
            let tcp = match self.tcp.connect(&tcp_details, None) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    last_err = Some(e);
                    continue;
                }
            };
            LAST_PEER.with(|p| p.set(Some(*addr)));
            let peer = PeerTransport {
                inner: tcp,
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
