//! The URL and address policy: which URLs may be fetched and which addresses connected to.
//!
//! A URL is parsed once with the WHATWG parser (`url`), so every IPv4 spelling (`2130706433`,
//! `0x7f.1`, `0177.0.0.1`, `127.1`) becomes the same address before it is judged, and IDNA
//! names become their ASCII form before the domain lists are consulted.
use std::fmt;
use std::net::{IpAddr, Ipv4Addr};

use url::{Host, Url};

use crate::cidr::Cidr;
use crate::error::NetError;
use crate::iptable::{self, Denial};

/// Ports of services that must never be reachable from a fetch, even on a public host.
/// The one list: exported as `webgrip._core.DEFAULT_BLOCKED_PORTS`, which
/// `webgrip.config.DEFAULT_BLOCKED_PORTS` is.
pub const DEFAULT_BLOCKED_PORTS: &[u16] = &[
    0, 19, 21, 22, 23, 25, 110, 135, 137, 139, 143, 445, 465, 587, 993, 995, 1433, 1521, 2049,
    2375, 2376, 3306, 3389, 5432, 5900, 5984, 6379, 9200, 9300, 11211, 27017,
];

/// The settings a [`Policy`] is built from (strings as the user wrote them).
#[derive(Clone, Debug)]
pub struct PolicyConfig {
    pub allow_networks: Vec<String>,
    pub deny_networks: Vec<String>,
    pub allowed_domains: Vec<String>,
    pub blocked_domains: Vec<String>,
    pub blocked_ports: Vec<u16>,
    pub allow_http: bool,
    pub allow_https_downgrade: bool,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig {
            allow_networks: Vec::new(),
            deny_networks: Vec::new(),
            allowed_domains: Vec::new(),
            blocked_domains: Vec::new(),
            blocked_ports: DEFAULT_BLOCKED_PORTS.to_vec(),
            allow_http: true,
            allow_https_downgrade: false,
        }
    }
}

/// Why an address is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IpRefusal {
    /// A non-global block of the IANA registries.
    Table(Denial),
    /// A block the user listed in `deny_networks`.
    DenyNetwork(Cidr),
    /// An address the user listed in `blocked_domains`.
    BlockedAddress(Cidr),
}

impl IpRefusal {
    pub fn reason(&self) -> &'static str {
        match self {
            IpRefusal::Table(d) => d.reason,
            IpRefusal::DenyNetwork(_) => "denied-network",
            IpRefusal::BlockedAddress(_) => "blocked-domain",
        }
    }
}

impl fmt::Display for IpRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IpRefusal::Table(d) => d.fmt(f),
            IpRefusal::DenyNetwork(c) => write!(f, "in a network listed in deny_networks ({c})"),
            IpRefusal::BlockedAddress(c) => {
                write!(f, "an address listed in blocked_domains ({})", c.addr())
            }
        }
    }
}

/// The host of a checked URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetHost {
    Ip(IpAddr),
    /// Lower-case ASCII (IDNA applied), without a trailing dot.
    Name(String),
}

impl fmt::Display for TargetHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetHost::Ip(ip) => ip.fmt(f),
            TargetHost::Name(n) => f.write_str(n),
        }
    }
}

/// A URL that passed every check that needs no DNS.
#[derive(Clone, Debug)]
pub struct Target {
    pub url: Url,
    pub host: TargetHost,
    pub port: u16,
}

/// `localhost` and every `*.localhost` name (RFC 6761) always mean this machine: they are
/// answered here, never sent to DNS, so the loopback rule applies to them.
pub fn is_localhost_name(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost")
}

/// The address `localhost` names stand for.
pub const LOCALHOST_ADDR: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) are the IPv4 host: judge them as such, so
/// `allow_networks`/`deny_networks` written in IPv4 apply to them too.
pub fn canonical_ip(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The host a URL names, in the one spelling every other spelling of it maps to (no DNS):
/// `0x7f.1`, `2130706433`, `127.0.0.1.` and `[::ffff:127.0.0.1]` all give `127.0.0.1`, a name
/// is lower-cased IDNA without trailing dots. The URL is parsed as the fetch parses it, so
/// `http://a\@b/` names `a`. `None` when the URL does not parse or has no host. Used to key
/// per-host state (the rate limit) and to judge a link's host without resolving it.
pub fn url_host(raw: &str) -> Option<String> {
    let url = Url::parse(raw).ok()?;
    Some(match url.host()? {
        Host::Ipv4(ip) => ip.to_string(),
        Host::Ipv6(ip) => canonical_ip(IpAddr::V6(ip)).to_string(),
        Host::Domain(d) => d.trim_end_matches('.').to_ascii_lowercase(),
    })
}

/// Normalise a domain from a list or an override: trim, drop a `*.`/`.` prefix and a
/// trailing dot, IDNA to ASCII, lower-case. IP literals are accepted too.
pub fn normalize_host(raw: &str) -> Result<String, String> {
    let s = raw.trim();
    let s = s.strip_prefix("*.").unwrap_or(s);
    let s = s.strip_prefix('.').unwrap_or(s);
    // Every trailing dot: `example.com..` in a list must still mean example.com.
    let s = s.trim_end_matches('.');
    if s.is_empty() {
        return Err(format!("{raw:?} is not a host name"));
    }
    if let Ok(ip) = s
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        return Ok(ip.to_string());
    }
    match Host::parse(s) {
        Ok(Host::Domain(d)) => Ok(d),
        Ok(Host::Ipv4(ip)) => Ok(ip.to_string()),
        Ok(Host::Ipv6(ip)) => Ok(ip.to_string()),
        Err(e) => Err(format!("{raw:?} is not a host name ({e})")),
    }
}

/// Exact-or-subdomain: `a.example.com` matches `example.com`; `badexample.com` does not.
fn domain_matches(host: &str, domain: &str) -> bool {
    host == domain
        || (host.len() > domain.len()
            && host.ends_with(domain)
            && host.as_bytes()[host.len() - domain.len() - 1] == b'.')
}

#[derive(Clone, Debug)]
pub struct Policy {
    allow_networks: Vec<Cidr>,
    deny_networks: Vec<Cidr>,
    allowed_domains: Vec<String>,
    blocked_domains: Vec<String>,
    /// The IP literals of `blocked_domains`, as single-host networks (see [`Policy::new`]).
    blocked_addresses: Vec<Cidr>,
    /// Sorted, for binary search.
    blocked_ports: Vec<u16>,
    pub allow_http: bool,
    pub allow_https_downgrade: bool,
}

impl Default for Policy {
    fn default() -> Self {
        // The default configuration has no user input to reject.
        Policy::new(&PolicyConfig::default()).unwrap_or_else(|_| Policy {
            allow_networks: Vec::new(),
            deny_networks: Vec::new(),
            allowed_domains: Vec::new(),
            blocked_domains: Vec::new(),
            blocked_addresses: Vec::new(),
            blocked_ports: DEFAULT_BLOCKED_PORTS.to_vec(),
            allow_http: true,
            allow_https_downgrade: false,
        })
    }
}

/// A network written in IPv4-mapped form (`::ffff:10.0.0.0/104`) as the IPv4 network it
/// stands for (`10.0.0.0/8`). [`Policy::check_ip`] judges mapped addresses as IPv4, so a
/// mapped network left as IPv6 would never match anything: a `deny_networks` entry written
/// that way was silently ignored.
fn canonical_cidr(c: Cidr) -> Cidr {
    match c.addr() {
        IpAddr::V6(v6) if c.prefix() >= 96 => v6
            .to_ipv4_mapped()
            .and_then(|v4| Cidr::new(IpAddr::V4(v4), c.prefix() - 96))
            .unwrap_or(c),
        _ => c,
    }
}

fn parse_networks(list: &[String], what: &str) -> Result<Vec<Cidr>, NetError> {
    list.iter()
        .map(|s| {
            s.parse::<Cidr>()
                .map(canonical_cidr)
                .map_err(|e| NetError::invalid_input(format!("{what}: {e}")))
        })
        .collect()
}

/// `allow_networks`, stricter than `deny_networks` because each entry opens addresses:
/// - host bits set are refused (`127.0.0.1/0` would silently open all of IPv4), naming the
///   two networks that may have been meant;
/// - an IPv6 entry never opens IPv4 addresses. [`Policy::check_ip`] judges an IPv4-mapped
///   address as its IPv4 host, so `::/0` opens no IPv4 address; an entry written in the mapped
///   form (`::ffff:0:0/96`, inside the range `::/0` covers) opening all of IPv4 would be the
///   opposite answer for a smaller range. It is refused with its IPv4 spelling named: an IPv4
///   opening is written in IPv4.
fn parse_allow_networks(list: &[String]) -> Result<Vec<Cidr>, NetError> {
    let refuse = |msg: String| NetError::invalid_input(format!("allow_networks: {msg}"));
    list.iter()
        .map(|s| {
            let net = Cidr::parse_exact(s).map_err(refuse)?;
            let mapped = canonical_cidr(net);
            if mapped != net {
                return Err(refuse(format!(
                    "{:?} is written as IPv4-mapped IPv6; an IPv6 network never opens IPv4 \
                     addresses. Write it as IPv4: {mapped}",
                    s.trim()
                )));
            }
            Ok(net)
        })
        .collect()
}

fn parse_domains(list: &[String], what: &str) -> Result<Vec<String>, NetError> {
    list.iter()
        .map(|s| normalize_host(s).map_err(|e| NetError::invalid_input(format!("{what}: {e}"))))
        .collect()
}

impl Policy {
    pub fn new(cfg: &PolicyConfig) -> Result<Policy, NetError> {
        let mut blocked_ports = cfg.blocked_ports.clone();
        blocked_ports.sort_unstable();
        blocked_ports.dedup();
        let blocked_domains = parse_domains(&cfg.blocked_domains, "blocked_domains")?;
        // An address in blocked_domains is matched as a string against the URL's host only,
        // so `[::ffff:8.8.8.8]`, `[64:ff9b::808:808]` or a name resolving to 8.8.8.8 got past
        // `blocked_domains=["8.8.8.8"]`. Also judge it as an address, like deny_networks.
        let blocked_addresses = blocked_domains
            .iter()
            .filter_map(|d| d.parse::<IpAddr>().ok())
            .map(canonical_ip)
            .filter_map(|ip| Cidr::new(ip, if ip.is_ipv4() { 32 } else { 128 }))
            .collect();
        Ok(Policy {
            allow_networks: parse_allow_networks(&cfg.allow_networks)?,
            deny_networks: parse_networks(&cfg.deny_networks, "deny_networks")?,
            allowed_domains: parse_domains(&cfg.allowed_domains, "allowed_domains")?,
            blocked_domains,
            blocked_addresses,
            blocked_ports,
            allow_http: cfg.allow_http,
            allow_https_downgrade: cfg.allow_https_downgrade,
        })
    }

    /// The address rule: `deny_networks` first, then `allow_networks`, then the built-in
    /// table. An explicit deny always wins over an explicit allow.
    ///
    /// `deny_networks` are matched against the address as written, its IPv4 form if it is
    /// IPv4-mapped, and every IPv4 address it embeds (NAT64, 6to4, Teredo, ...): a denied
    /// IPv4 host stays denied whichever IPv6 spelling reaches it. `allow_networks` only
    /// match the address itself (IPv4-mapped counts as the IPv4 host): opening
    /// `127.0.0.0/8` opens `::ffff:127.0.0.1` (the same socket peer) but not
    /// `64:ff9b::7f00:1` or `2002:7f00:1::`, which the table keeps judging; an IPv6 entry
    /// (`::/0` included) opens no IPv4 address, mapped or not.
    pub fn check_ip(&self, ip: IpAddr) -> Result<(), IpRefusal> {
        let embedded = match ip {
            IpAddr::V6(v6) => iptable::embedded_ipv4s(v6),
            IpAddr::V4(_) => Vec::new(),
        };
        let spellings = || std::iter::once(ip).chain(embedded.iter().copied().map(IpAddr::V4));
        if let Some(c) = spellings().find_map(|a| self.deny_networks.iter().find(|c| c.contains(a)))
        {
            return Err(IpRefusal::DenyNetwork(*c));
        }
        // After deny_networks, before allow_networks: a user's block beats a user's opening.
        if let Some(c) =
            spellings().find_map(|a| self.blocked_addresses.iter().find(|c| c.contains(a)))
        {
            return Err(IpRefusal::BlockedAddress(*c));
        }
        let ip = canonical_ip(ip);
        if self.allow_networks.iter().any(|c| c.contains(ip)) {
            return Ok(());
        }
        match iptable::classify(ip) {
            Some(d) => Err(IpRefusal::Table(d)),
            None => Ok(()),
        }
    }

    fn check_port(&self, url: &str, port: u16) -> Result<(), NetError> {
        if port == 0 {
            return Err(NetError::blocked(
                url,
                "blocked-port",
                "port 0 is not a usable port",
            ));
        }
        if self.blocked_ports.binary_search(&port).is_ok() {
            return Err(NetError::blocked(
                url,
                "blocked-port",
                format!("port {port} is blocked (it belongs to a service that is not the web)"),
            ));
        }
        Ok(())
    }

    fn check_domain_lists(&self, url: &str, host: &str) -> Result<(), NetError> {
        if let Some(d) = self
            .blocked_domains
            .iter()
            .find(|d| domain_matches(host, d))
        {
            let detail = if d == host {
                format!("{host} is in blocked_domains")
            } else {
                format!("{host} is under {d}, which is in blocked_domains")
            };
            return Err(NetError::blocked(url, "blocked-domain", detail));
        }
        if !self.allowed_domains.is_empty()
            && !self.allowed_domains.iter().any(|d| domain_matches(host, d))
        {
            return Err(NetError::blocked(
                url,
                "not-allowed-domain",
                format!("{host} is not in allowed_domains"),
            ));
        }
        Ok(())
    }

    /// Parse and check a URL string (no DNS).
    pub fn check_url(&self, raw: &str) -> Result<Target, NetError> {
        let url = Url::parse(raw).map_err(|e| NetError::invalid_url(raw, e))?;
        self.check_parsed(url)
    }

    /// Every rule that needs no DNS: scheme, userinfo, port, domain lists, literal addresses.
    pub fn check_parsed(&self, url: Url) -> Result<Target, NetError> {
        let shown = url.as_str();
        match url.scheme() {
            "https" => {}
            "http" if self.allow_http => {}
            "http" => {
                return Err(NetError::blocked(
                    shown,
                    "scheme",
                    "only https URLs are allowed (allow_http is off)",
                ))
            }
            other => {
                return Err(NetError::blocked(
                    shown,
                    "scheme",
                    format!("only http and https URLs are fetched, not {other}:"),
                ))
            }
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(NetError::blocked(
                shown,
                "userinfo",
                "URLs carrying a user name or password are refused",
            ));
        }
        let port = url
            .port_or_known_default()
            .ok_or_else(|| NetError::invalid_url(shown, "no port"))?;
        self.check_port(shown, port)?;
        let host = match url.host() {
            Some(Host::Ipv4(ip)) => TargetHost::Ip(IpAddr::V4(ip)),
            Some(Host::Ipv6(ip)) => TargetHost::Ip(IpAddr::V6(ip)),
            Some(Host::Domain(d)) => {
                let d = d.strip_suffix('.').unwrap_or(d);
                if d.is_empty() {
                    return Err(NetError::invalid_url(shown, "empty host name"));
                }
                // An empty label (`example.com..`, `a..b`, `.a`) is no DNS name. Refuse it:
                // `example.com..` minus one dot is `example.com.`, which matched no entry of
                // `blocked_domains` yet resolves to example.com (the resolver strips one dot).
                if d.split('.').any(str::is_empty) {
                    return Err(NetError::invalid_url(
                        shown,
                        "the host name has an empty label (two dots in a row, or a leading dot)",
                    ));
                }
                TargetHost::Name(d.to_ascii_lowercase())
            }
            None => return Err(NetError::invalid_url(shown, "no host")),
        };
        self.check_domain_lists(shown, &host.to_string())?;
        match &host {
            TargetHost::Ip(ip) => self
                .check_ip(*ip)
                .map_err(|r| NetError::blocked(shown, r.reason(), format!("{ip} is {r}")))?,
            TargetHost::Name(n) if is_localhost_name(n) => {
                self.check_ip(LOCALHOST_ADDR).map_err(|r| {
                    let detail = format!("{n} always means this machine ({LOCALHOST_ADDR}), {r}");
                    NetError::blocked(shown, r.reason(), detail)
                })?
            }
            TargetHost::Name(_) => {}
        }
        Ok(Target { url, host, port })
    }
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
