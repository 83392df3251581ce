//! The user's upstream proxies (an HTTP CONNECT or SOCKS5 proxy that egress must go
//! through) and which one a host is routed to.
//!
//! Not to be confused with [`crate::egress_proxy`], the egress proxy webgrip itself runs for a
//! rendering browser. Pinning holds through an upstream proxy because the proxy is only ever
//! asked to connect to an address webgrip resolved and checked (see [`crate::tunnel`]):
//! `socks5h://`, which hands the proxy a name to resolve, is refused.
use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use url::Url;

use crate::error::NetError;
use crate::policy::normalize_host;

/// How webgrip talks to a proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyKind {
    /// HTTP `CONNECT` over plain TCP.
    Http,
    /// HTTP `CONNECT` over TLS to the proxy.
    Https,
    /// SOCKS5 with an IPv4/IPv6 address (never a name).
    Socks5,
}

/// Proxy credentials; `Debug` never shows them.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub user: String,
    pub password: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Credentials(<hidden>)")
    }
}

/// One upstream proxy. `Display` is `scheme://host:port`, without credentials: it is what
/// messages show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpstreamProxy {
    pub kind: ProxyKind,
    /// Name (lower-case) or IP literal, without brackets.
    pub host: String,
    pub port: u16,
    pub auth: Option<Credentials>,
}

impl fmt::Display for UpstreamProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = match self.kind {
            ProxyKind::Http => "http",
            ProxyKind::Https => "https",
            ProxyKind::Socks5 => "socks5",
        };
        if self.host.contains(':') {
            write!(f, "{scheme}://[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{scheme}://{}:{}", self.host, self.port)
        }
    }
}

/// Why `socks5h://` is refused (also said by the Python config).
pub const SOCKS5H_REFUSED: &str = "socks5h:// makes the proxy resolve host names, which would \
     defeat webgrip's pinned, checked address; use socks5:// (webgrip resolves and checks the \
     name, then gives the proxy the checked address)";

/// `%XX` escapes of a URL's user info decoded (the `url` crate keeps them encoded).
fn percent_decode(s: &str) -> Result<String, ()> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).ok_or(())?;
            let hex = std::str::from_utf8(hex).map_err(|_| ())?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| ())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| ())
}

impl UpstreamProxy {
    /// Parse `http://`, `https://` or `socks5://[user:pass@]host[:port]`. Errors never quote
    /// the URL: it may hold a password.
    pub fn parse(raw: &str) -> Result<UpstreamProxy, NetError> {
        let bad = |why: &str| NetError::invalid_input(format!("proxy: {why}"));
        let raw = raw.trim();
        let scheme = raw
            .split_once("://")
            .map(|(s, _)| s.to_ascii_lowercase())
            .ok_or_else(|| bad("expected a URL such as http://proxy.example:3128"))?;
        let (kind, default_port) = match scheme.as_str() {
            "http" => (ProxyKind::Http, 80),
            "https" => (ProxyKind::Https, 443),
            "socks5" => (ProxyKind::Socks5, 1080),
            "socks5h" => return Err(bad(SOCKS5H_REFUSED)),
            _ => {
                return Err(bad(
                    "the scheme must be http://, https:// or socks5:// (socks4 and others are \
                     not supported)",
                ))
            }
        };
        let url = Url::parse(raw).map_err(|e| bad(&format!("not a valid URL ({e})")))?;
        if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
            return Err(bad("a proxy URL has no path, query or fragment"));
        }
        let host = match url.host() {
            Some(url::Host::Domain(d)) => normalize_host(d).map_err(|e| bad(&e))?,
            Some(url::Host::Ipv4(ip)) => ip.to_string(),
            Some(url::Host::Ipv6(ip)) => ip.to_string(),
            None => return Err(bad("the URL has no host")),
        };
        if host.is_empty() {
            return Err(bad("the URL has no host"));
        }
        let port = url.port().unwrap_or(default_port);
        let auth = if url.username().is_empty() && url.password().is_none() {
            None
        } else {
            let user = percent_decode(url.username())
                .map_err(|()| bad("the user name is not valid percent-encoded UTF-8"))?;
            let password = percent_decode(url.password().unwrap_or(""))
                .map_err(|()| bad("the password is not valid percent-encoded UTF-8"))?;
            if kind == ProxyKind::Socks5 && (user.len() > 255 || password.len() > 255) {
                return Err(bad("SOCKS5 user names and passwords are at most 255 bytes"));
            }
            Some(Credentials { user, password })
        };
        Ok(UpstreamProxy {
            kind,
            host,
            port,
            auth,
        })
    }

    /// The proxy's address when its host is an IP literal.
    pub fn ip(&self) -> Option<IpAddr> {
        self.host.parse().ok()
    }
}

/// Which proxy each request goes through.
#[derive(Clone, Debug, Default)]
pub struct ProxyRoutes {
    /// For `http://` targets.
    http: Option<Arc<UpstreamProxy>>,
    /// For `https://` targets.
    https: Option<Arc<UpstreamProxy>>,
    /// Domain (normalised) -> proxy, or `None` for a direct connection; most specific wins.
    domains: Vec<(String, Option<Arc<UpstreamProxy>>)>,
}

/// `value` of a per-domain route: a proxy URL, or `direct`.
fn route_value(value: &str) -> Result<Option<Arc<UpstreamProxy>>, NetError> {
    if value.trim().eq_ignore_ascii_case("direct") {
        return Ok(None);
    }
    UpstreamProxy::parse(value).map(|p| Some(Arc::new(p)))
}

impl ProxyRoutes {
    /// `http`/`https`: the proxy for targets of that scheme (`None`: direct). `per_domain`:
    /// domain -> proxy URL or `direct`; a domain matches itself and its subdomains.
    pub fn new(
        http: Option<&str>,
        https: Option<&str>,
        per_domain: &[(String, String)],
    ) -> Result<ProxyRoutes, NetError> {
        let parse = |v: Option<&str>| -> Result<Option<Arc<UpstreamProxy>>, NetError> {
            v.filter(|s| !s.trim().is_empty())
                .map(|s| UpstreamProxy::parse(s).map(Arc::new))
                .transpose()
        };
        let http = parse(http)?;
        // One parse (and one `Arc`) when both schemes share a proxy.
        let https = match (https, &http) {
            (Some(s), Some(h)) if UpstreamProxy::parse(s).ok().as_ref() == Some(h.as_ref()) => {
                Some(h.clone())
            }
            _ => parse(https)?,
        };
        let mut domains = Vec::with_capacity(per_domain.len());
        for (domain, value) in per_domain {
            let key = domain
                .trim()
                .trim_start_matches("*.")
                .trim_start_matches('.');
            let key = normalize_host(key).map_err(|e| {
                NetError::invalid_input(format!("proxy_for: {domain:?} is not a domain ({e})"))
            })?;
            let route = route_value(value).map_err(|e| {
                NetError::invalid_input(format!("proxy_for {domain:?}: {}", e.message))
            })?;
            domains.push((key, route));
        }
        // Longest first: the first match is the most specific.
        domains.sort_by_key(|(d, _)| std::cmp::Reverse(d.len()));
        Ok(ProxyRoutes {
            http,
            https,
            domains,
        })
    }

    /// Whether every request goes direct.
    pub fn is_direct(&self) -> bool {
        self.http.is_none() && self.https.is_none() && self.domains.iter().all(|(_, p)| p.is_none())
    }

    /// The proxy for a request to `host` (normalised: lower-case, no trailing dot, IPv6
    /// without brackets) over `https` or plain http; `None` for a direct connection.
    pub fn route(&self, host: &str, https: bool) -> Option<&UpstreamProxy> {
        let by_domain = self.domains.iter().find(|(d, _)| {
            host == d
                || (host.len() > d.len()
                    && host.ends_with(d.as_str())
                    && host.as_bytes()[host.len() - d.len() - 1] == b'.')
        });
        match by_domain {
            Some((_, route)) => route.as_deref(),
            None if https => self.https.as_deref(),
            None => self.http.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_schemes_and_hides_credentials() {
        let p = UpstreamProxy::parse("http://user:p%40ss@Proxy.Example:3128").unwrap();
        assert_eq!(p.kind, ProxyKind::Http);
        assert_eq!(p.host, "proxy.example");
        assert_eq!(p.port, 3128);
        let auth = p.auth.clone().unwrap();
        assert_eq!(
            (auth.user.as_str(), auth.password.as_str()),
            ("user", "p@ss")
        );
        assert_eq!(p.to_string(), "http://proxy.example:3128");
        assert!(!format!("{p:?}").contains("p@ss"));
        assert_eq!(
            UpstreamProxy::parse("socks5://[::1]").unwrap().to_string(),
            "socks5://[::1]:1080"
        );
        assert_eq!(UpstreamProxy::parse("https://10.0.0.1").unwrap().port, 443);
    }

    #[test]
    fn refuses_socks5h_and_other_schemes_without_quoting_the_url() {
        let e = UpstreamProxy::parse("socks5h://u:secret@p:1080").unwrap_err();
        assert!(e.message.contains("pinned"), "{}", e.message);
        assert!(!e.message.contains("secret"));
        for bad in [
            "socks4://p:1",
            "ftp://u:secret@p",
            "p:3128",
            "http://u:secret@p/x?y",
        ] {
            let e = UpstreamProxy::parse(bad).unwrap_err();
            assert!(!e.message.contains("secret"), "{}", e.message);
        }
    }

    #[test]
    fn the_most_specific_domain_wins() {
        let routes = ProxyRoutes::new(
            Some("http://all:1"),
            Some("http://all:1"),
            &[
                ("example.com".into(), "socks5://ex:2".into()),
                ("intra.example.com".into(), "direct".into()),
            ],
        )
        .unwrap();
        let host = |h: &str| routes.route(h, true).map(|p| p.host.clone());
        assert_eq!(host("example.com").as_deref(), Some("ex"));
        assert_eq!(host("www.example.com").as_deref(), Some("ex"));
        assert_eq!(host("intra.example.com"), None);
        assert_eq!(host("a.intra.example.com"), None);
        assert_eq!(host("notexample.com").as_deref(), Some("all"));
        assert!(!routes.is_direct());
        assert!(ProxyRoutes::default().is_direct());
    }
}
