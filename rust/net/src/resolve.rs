//! Name resolution under the address policy: look a name up once, check every answer, fail
//! closed, and hand ureq only addresses that passed. ureq dials exactly what its resolver
//! returns, so no second lookup (DNS rebinding) can slip another address in.
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use ureq::http::Uri;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

use crate::error::NetError;
use crate::policy::{is_localhost_name, Policy, TargetHost, LOCALHOST_ADDR};
use crate::workers::spawn_job;

/// The addresses ureq can take from one resolution (its `ArrayVec` capacity).
const MAX_ADDRS: usize = 16;

/// Resolution with the `resolve` overrides, checked against the policy.
#[derive(Debug)]
pub struct Lookup {
    pub policy: Arc<Policy>,
    /// Normalised host name -> addresses (like curl's `--resolve`).
    overrides: HashMap<String, Vec<IpAddr>>,
}

fn getaddrinfo(name: &str, port: u16, timeout: Option<Duration>) -> Result<Vec<IpAddr>, String> {
    let query = (name.to_string(), port);
    let run = move || -> std::io::Result<Vec<IpAddr>> {
        Ok(query.to_socket_addrs()?.map(|a| a.ip()).collect())
    };
    let Some(timeout) = timeout else {
        return run().map_err(|e| e.to_string());
    };
    // getaddrinfo cannot be interrupted: wait for it on a worker thread (host names are looked
    // up on every request, pooled connection or not: ureq resolves before it looks in its
    // pool), and give up (leaving the thread to finish on its own) when the budget runs out.
    let (tx, rx) = mpsc::sync_channel(1);
    spawn_job(Box::new(move || {
        let found = run();
        Box::new(move || {
            let _ = tx.send(found);
        })
    }))
    .map_err(|e| format!("cannot start a DNS lookup: {e}"))?;
    match rx.recv_timeout(timeout) {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(String::from("timeout")),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(String::from("lookup thread failed")),
    }
}

impl Lookup {
    pub fn new(policy: Arc<Policy>, overrides: HashMap<String, Vec<IpAddr>>) -> Lookup {
        Lookup { policy, overrides }
    }

    /// Every address `host` stands for, each one checked; an error if any is refused.
    pub fn resolve(
        &self,
        url: &str,
        host: &TargetHost,
        port: u16,
        timeout: Option<Duration>,
    ) -> Result<Vec<SocketAddr>, NetError> {
        let ips: Vec<IpAddr> = match host {
            TargetHost::Ip(ip) => vec![*ip],
            TargetHost::Name(name) => {
                if let Some(ips) = self.overrides.get(name) {
                    ips.clone()
                } else if is_localhost_name(name) {
                    vec![LOCALHOST_ADDR]
                } else {
                    getaddrinfo(name, port, timeout).map_err(|e| {
                        if e == "timeout" {
                            NetError::timeout(
                                url,
                                format!("the DNS lookup of {name} took too long"),
                            )
                        } else {
                            NetError::connect(url, "dns", format!("cannot resolve {name} ({e})"))
                        }
                    })?
                }
            }
        };
        if ips.is_empty() {
            return Err(NetError::connect(
                url,
                "dns",
                format!("{host} has no address"),
            ));
        }
        // Fail closed: one refused answer refuses the host, since DNS that mixes public and
        // internal answers is exactly what a rebinding attack looks like.
        for ip in &ips {
            if let Err(r) = self.policy.check_ip(*ip) {
                let detail = match host {
                    TargetHost::Ip(_) => format!("{ip} is {r}"),
                    TargetHost::Name(n) => format!("{n} resolves to {ip}, {r}"),
                };
                return Err(NetError::blocked(url, r.reason(), detail));
            }
        }
        let mut addrs: Vec<SocketAddr> = Vec::with_capacity(ips.len().min(MAX_ADDRS));
        for ip in ips {
            let a = SocketAddr::new(ip, port);
            if !addrs.contains(&a) && addrs.len() < MAX_ADDRS {
                addrs.push(a);
            }
        }
        Ok(addrs)
    }

    /// The addresses of the user's upstream proxy `host`: the `resolve` overrides, else
    /// one system lookup. Deliberately not checked against the policy (the user configured
    /// it, and it is usually on a private network); webgrip connects to it directly.
    pub fn resolve_proxy(
        &self,
        host: &str,
        port: u16,
        timeout: Option<Duration>,
    ) -> Result<Vec<SocketAddr>, String> {
        let ips = if let Ok(ip) = host.parse::<IpAddr>() {
            vec![ip]
        } else if let Some(ips) = self.overrides.get(host) {
            ips.clone()
        } else if is_localhost_name(host) {
            vec![LOCALHOST_ADDR]
        } else {
            getaddrinfo(host, port, timeout)?
        };
        let mut addrs: Vec<SocketAddr> = Vec::with_capacity(ips.len().min(MAX_ADDRS));
        for ip in ips {
            let a = SocketAddr::new(ip, port);
            if !addrs.contains(&a) && addrs.len() < MAX_ADDRS {
                addrs.push(a);
            }
        }
        if addrs.is_empty() {
            return Err(format!("{host} has no address"));
        }
        Ok(addrs)
    }
}

/// The ureq side of [`Lookup`].
#[derive(Debug, Clone)]
pub struct GuardedResolver(pub Arc<Lookup>);

/// The host of a request URI as [`TargetHost`] (brackets of IPv6 literals removed).
fn uri_host(uri: &Uri) -> Option<(TargetHost, u16)> {
    let authority = uri.authority()?;
    let raw = authority.host();
    let bare = raw.trim_start_matches('[').trim_end_matches(']');
    let host = match bare.parse::<IpAddr>() {
        Ok(ip) => TargetHost::Ip(ip),
        Err(_) => {
            let name = bare.strip_suffix('.').unwrap_or(bare);
            TargetHost::Name(name.to_ascii_lowercase())
        }
    };
    let port = authority.port_u16().or(match uri.scheme_str() {
        Some("https") => Some(443),
        Some("http") => Some(80),
        _ => None,
    })?;
    Some((host, port))
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        _config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let (host, port) = uri_host(uri).ok_or_else(|| ureq::Error::BadUri(uri.to_string()))?;
        let budget = crate::transport::io_bound(if timeout.after.is_not_happening() {
            None
        } else {
            Some(*timeout.after)
        });
        let addrs = self
            .0
            .resolve(&uri.to_string(), &host, port, budget)
            .map_err(|e| ureq::Error::Other(Box::new(e)))?;
        let mut out = self.empty();
        for a in addrs {
            out.push(a);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;
    use std::time::Instant;

    #[test]
    fn lookups_reuse_threads_and_resolve() {
        for _ in 0..20 {
            let ips = getaddrinfo("127.0.0.1", 80, Some(Duration::from_secs(5))).unwrap();
            assert_eq!(ips, vec![IpAddr::from([127, 0, 0, 1])]);
        }
        let handles: Vec<_> = (0..8)
            .map(|_| thread::spawn(|| getaddrinfo("127.0.0.2", 443, Some(Duration::from_secs(5)))))
            .collect();
        for h in handles {
            assert_eq!(
                h.join().unwrap().unwrap(),
                vec![IpAddr::from([127, 0, 0, 2])]
            );
        }
    }

    #[test]
    fn a_hung_lookup_holds_up_no_other() {
        // Two jobs that outlast their callers' budget, while the others wait on their threads.
        for _ in 0..2 {
            let (tx, rx) = mpsc::sync_channel::<()>(1);
            spawn_job(Box::new(move || {
                thread::sleep(Duration::from_millis(600));
                Box::new(move || {
                    let _ = tx.send(());
                })
            }))
            .unwrap();
            assert!(rx.recv_timeout(Duration::from_millis(20)).is_err());
        }
        let start = Instant::now();
        let ips = getaddrinfo("127.0.0.3", 80, Some(Duration::from_millis(500))).unwrap();
        assert_eq!(ips, vec![IpAddr::from([127, 0, 0, 3])]);
        assert!(
            start.elapsed() < Duration::from_millis(400),
            "{:?}",
            start.elapsed()
        );
    }
}
