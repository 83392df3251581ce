//! Headers the caller adds: which names are refused, and the per-site table.
//!
//! A hop's headers are built in `client.rs`, highest priority first: the call's own headers
//! (dropped, for the credentials among them, once a redirect leaves the first origin), then
//! the headers of the most specific `site_headers` domain the hop's host matches (so a
//! site's `Authorization` or `Cookie` goes to that site's hosts and no other, whatever
//! redirect led there), then the client's headers for every request.
use std::fmt;

use ureq::http::{header, HeaderName, HeaderValue};
use url::{Host, Url};

use crate::error::NetError;
use crate::policy::normalize_host;

/// Headers webgrip frames or negotiates itself; a caller's value would break the exchange
/// (request smuggling, a body the decoder cannot read, a connection left in a wrong state).
/// The second item says why, for the error.
const REFUSED: &[(&str, &str)] = &[
    ("host", "it is set from the URL"),
    ("content-length", "the body's framing is set by webgrip"),
    ("transfer-encoding", "the body's framing is set by webgrip"),
    ("te", "it is a hop-by-hop header"),
    ("trailer", "it is a hop-by-hop header"),
    ("connection", "it is a hop-by-hop header"),
    ("keep-alive", "it is a hop-by-hop header"),
    ("proxy-connection", "it is a hop-by-hop header"),
    ("upgrade", "it is a hop-by-hop header"),
    ("expect", "webgrip does not wait for 100-continue"),
    (
        "accept-encoding",
        "webgrip asks only for the encodings it can decode",
    ),
    (
        "proxy-authorization",
        "it is meant for a proxy, not for the site",
    ),
];

/// Why the header `name` may not be set by a caller, or `None` if it may.
pub fn refused_reason(name: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    REFUSED
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|(_, why)| *why)
}

/// `headers` as checked name/value pairs; `where_` says where they came from in errors.
/// Values never appear in an error (they may be secrets).
pub fn checked_headers(
    headers: &[(String, String)],
    where_: &str,
) -> Result<Vec<(HeaderName, HeaderValue)>, NetError> {
    headers
        .iter()
        .map(|(k, v)| {
            if let Some(why) = refused_reason(k) {
                return Err(NetError::invalid_input(format!(
                    "{where_}: the header {k:?} cannot be set: {why}"
                )));
            }
            let name = HeaderName::from_bytes(k.trim().as_bytes()).map_err(|_| {
                NetError::invalid_input(format!("{where_}: invalid header name {k:?}"))
            })?;
            let value = HeaderValue::from_str(v).map_err(|_| {
                NetError::invalid_input(format!(
                    "{where_}: the value of header {k:?} is not a valid single-line value"
                ))
            })?;
            Ok((name, value))
        })
        .collect()
}

/// The client's headers for every request. Credentials are refused there: they would go to
/// every site (`site_headers` is where a token or cookie for one site goes).
pub fn every_request_headers(headers: &[(String, String)]) -> Result<HeaderList, NetError> {
    let checked = checked_headers(headers, "headers")?;
    if let Some((k, _)) = checked
        .iter()
        .find(|(k, _)| k == header::AUTHORIZATION || k == header::COOKIE)
    {
        return Err(NetError::invalid_input(format!(
            "headers: {:?} would be sent to every site; put it in site_headers under the \
             domain it is for",
            k.as_str()
        )));
    }
    Ok(HeaderList(checked))
}

/// Headers whose `Debug` shows names only (values may be secrets).
#[derive(Clone, Default)]
pub struct HeaderList(pub Vec<(HeaderName, HeaderValue)>);

impl fmt::Debug for HeaderList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(k, _)| k.as_str()))
            .finish()
    }
}

/// The host of `url` as `normalize_host` spells it (IPv6 without brackets).
fn host_key(url: &Url) -> Option<String> {
    Some(match url.host()? {
        Host::Domain(d) => d.trim_end_matches('.').to_ascii_lowercase(),
        Host::Ipv4(ip) => ip.to_string(),
        Host::Ipv6(ip) => ip.to_string(),
    })
}

/// Per-domain headers: a domain matches itself and its subdomains, the longest match wins.
#[derive(Clone, Default)]
pub struct SiteHeaders {
    /// Longest domain first.
    sites: Vec<(String, Vec<(HeaderName, HeaderValue)>)>,
}

impl fmt::Debug for SiteHeaders {
    /// Domains and header names only: the values are often secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = f.debug_map();
        for (domain, headers) in &self.sites {
            let names: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
            m.entry(domain, &names);
        }
        m.finish()
    }
}

impl SiteHeaders {
    pub fn new(table: &[(String, Vec<(String, String)>)]) -> Result<SiteHeaders, NetError> {
        let mut sites = Vec::with_capacity(table.len());
        for (domain, headers) in table {
            let key = normalize_host(domain)
                .map_err(|e| NetError::invalid_input(format!("site_headers: {e}")))?;
            if sites.iter().any(|(d, _)| *d == key) {
                return Err(NetError::invalid_input(format!(
                    "site_headers: {key:?} is given twice"
                )));
            }
            let checked = checked_headers(headers, &format!("site_headers[{key:?}]"))?;
            sites.push((key, checked));
        }
        sites.sort_by_key(|(d, _)| std::cmp::Reverse(d.len()));
        Ok(SiteHeaders { sites })
    }

    /// The headers of the most specific domain `url`'s host matches.
    pub fn for_url(&self, url: &Url) -> &[(HeaderName, HeaderValue)] {
        if self.sites.is_empty() {
            return &[]; // no site headers configured: no host key to build per request
        }
        let Some(host) = host_key(url) else {
            return &[];
        };
        let is_ip = url.host().is_some_and(|h| !matches!(h, Host::Domain(_)));
        self.sites
            .iter()
            .find(|(d, _)| crate::cookies::domain_match(&host, d, is_ip))
            .map_or(&[], |(_, h)| h.as_slice())
    }
}

/// Append the `extra` headers whose names `headers` does not have yet.
pub fn add_missing(
    headers: &mut Vec<(HeaderName, HeaderValue)>,
    extra: &[(HeaderName, HeaderValue)],
) {
    let present: Vec<HeaderName> = headers.iter().map(|(k, _)| k.clone()).collect();
    headers.extend(extra.iter().filter(|(k, _)| !present.contains(k)).cloned());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn framing_and_hop_by_hop_headers_are_refused_by_name() {
        for name in [
            "Host",
            "content-length",
            "Transfer-Encoding",
            "Connection",
            "TE",
        ] {
            let err = checked_headers(&pairs(&[(name, "x")]), "headers").unwrap_err();
            assert!(err.message.contains(name), "{}", err.message);
        }
        assert!(checked_headers(&pairs(&[("Authorization", "Bearer t")]), "h").is_ok());
    }

    #[test]
    fn credentials_are_refused_for_every_site() {
        for name in ["Authorization", "cookie"] {
            let err = every_request_headers(&pairs(&[(name, "secret")])).unwrap_err();
            assert!(err.message.contains("site_headers"), "{}", err.message);
        }
        let ok = every_request_headers(&pairs(&[("Accept-Language", "fr")])).unwrap();
        assert_eq!(format!("{ok:?}"), "[\"accept-language\"]");
    }

    #[test]
    fn values_stay_out_of_errors() {
        let err = checked_headers(&pairs(&[("X-Token", "sec\nret")]), "h").unwrap_err();
        assert!(!err.message.contains("sec"), "{}", err.message);
    }

    #[test]
    fn the_most_specific_domain_wins_and_others_get_nothing() {
        let table = vec![
            (
                "example.com".to_string(),
                pairs(&[("Authorization", "outer")]),
            ),
            (
                "api.example.com".to_string(),
                pairs(&[("Authorization", "inner")]),
            ),
        ];
        let sites = SiteHeaders::new(&table).unwrap();
        let value = |u: &str| {
            sites
                .for_url(&Url::parse(u).unwrap())
                .first()
                .map(|(_, v)| v.to_str().unwrap().to_string())
        };
        assert_eq!(
            value("https://v2.api.example.com/").as_deref(),
            Some("inner")
        );
        assert_eq!(value("https://www.example.com/").as_deref(), Some("outer"));
        assert_eq!(value("https://EXAMPLE.com./").as_deref(), Some("outer"));
        assert_eq!(value("https://badexample.com/"), None);
        assert_eq!(value("https://example.org/"), None);
        assert!(!format!("{sites:?}").contains("outer"));
    }
}
