//! The cookie jar of one client (RFC 6265 storage and matching, with the 6265bis rules a
//! careful client adds: Secure cookies only from and to https, `__Secure-`/`__Host-`
//! prefixes, SameSite).
//!
//! The redirect walk (`client.rs`) stores every hop's `Set-Cookie` and asks for the `Cookie`
//! header of every hop, so a cookie set by a redirect reaches the next hop of its site.
//!
//! - A cookie goes only to hosts that domain-match it (exactly its host when it had no
//!   `Domain`), on paths under its path, over https when it is Secure, until it expires.
//! - `Domain` on a public suffix (Mozilla's list, compiled into the `psl` crate) is refused,
//!   unless it is the request's own host (then the cookie is host-only, as RFC 6265 5.3 says);
//!   so is a `Domain` the request host does not domain-match, and any `Domain` set by an IP
//!   address other than that address.
//! - SameSite, for a client without pages or frames: each call is a top-level navigation the
//!   caller chose, so its first URL is same-site. A hop is cross-site when some URL earlier in
//!   the call's redirect chain has another site (registrable domain, see [`site_of`]). There
//!   `Strict` cookies are withheld, and `Lax` ones (the default when the attribute is absent,
//!   as in browsers) are sent only for GET and HEAD.
//! - Values are never logged nor put in error messages.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use cookie::{Cookie as RawCookie, SameSite};
use url::{Host, Url};

/// Name and value together longer than this are ignored (RFC 6265 6.1's minimum to support).
pub const MAX_COOKIE_BYTES: usize = 4096;
/// Cookies kept for one domain; the least recently set go first beyond it.
pub const MAX_PER_DOMAIN: usize = 50;
/// Cookies kept for one site (registrable domain, all its hosts and `Domain`s together), as
/// browsers cap them: a site answering from many hosts cannot fill the jar alone.
pub const MAX_PER_SITE: usize = 180;
/// Cookies kept in one jar; beyond it the site holding the most gives up its oldest.
pub const MAX_COOKIES: usize = 3000;
/// A `Path` longer than this is not kept (6265bis 5.6 ignores longer attribute values).
pub const MAX_PATH_BYTES: usize = 1024;
/// The most the jar puts in one request's `Cookie` header (its `name=value` pairs and their
/// `; ` separators). Common servers refuse a request header line over 8 KiB (nginx's
/// `large_client_header_buffers`, Apache's 8,190-byte `LimitRequestFieldSize`, which counts
/// the `Cookie: ` too), so a bigger header would only be refused by the site; and without a
/// bound, a sibling host setting 45 cookies of 3 KB for the parent domain made every later
/// request to the site fail before it was sent (ureq's 128 KiB request buffer overflowed).
/// Past it, the most specific cookies (longest domain, host-only, longest path) and then the
/// most recently created ones are sent; the jar also trims on storing (see `trim_for`).
pub const MAX_COOKIE_HEADER_BYTES: usize = 8000;

/// The `SameSite` rule of a stored cookie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameSiteRule {
    Strict,
    Lax,
    None,
}

impl SameSiteRule {
    pub fn as_str(self) -> &'static str {
        match self {
            SameSiteRule::Strict => "strict",
            SameSiteRule::Lax => "lax",
            SameSiteRule::None => "none",
        }
    }

    pub fn parse(s: &str) -> Option<SameSiteRule> {
        match s.to_ascii_lowercase().as_str() {
            "strict" => Some(SameSiteRule::Strict),
            "lax" => Some(SameSiteRule::Lax),
            "none" => Some(SameSiteRule::None),
            _ => None,
        }
    }
}

/// One stored cookie (what RFC 6265 5.3 keeps, less the access time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredCookie {
    pub name: String,
    pub value: String,
    /// Lower-case host or domain, without a leading dot.
    pub domain: String,
    /// Sent only to exactly `domain` (no `Domain` attribute was given).
    pub host_only: bool,
    pub path: String,
    pub secure: bool,
    pub http_only: bool,
    pub same_site: SameSiteRule,
    /// Unix seconds; `None` for a session cookie (kept while the client lives).
    pub expires: Option<i64>,
    /// Unix microseconds of the first time it was set: orders the `Cookie` header.
    pub created: i64,
}

impl StoredCookie {
    fn expired(&self, now: i64) -> bool {
        self.expires.is_some_and(|e| e <= now)
    }

    fn same_slot(&self, other: &StoredCookie) -> bool {
        self.name == other.name && self.domain == other.domain && self.path == other.path
    }

    /// What it adds to a `Cookie` header: `name=value` and a `; ` separator.
    fn header_cost(&self) -> usize {
        self.name.len() + 1 + self.value.len() + 2
    }

    /// Most specific first: longest domain, host-only before `Domain`, longest path; then
    /// the most recently created. The order in which cookies keep their place under
    /// [`MAX_COOKIE_HEADER_BYTES`]: a host's own session outranks what a sibling host set
    /// for the whole site.
    fn precedence(&self, other: &StoredCookie) -> std::cmp::Ordering {
        other
            .domain
            .len()
            .cmp(&self.domain.len())
            .then(other.host_only.cmp(&self.host_only))
            .then(other.path.len().cmp(&self.path.len()))
            .then(other.created.cmp(&self.created))
    }
}

/// Where a request is going, as the jar needs to know it.
#[derive(Clone, Copy, Debug)]
pub struct RequestContext {
    /// Some URL before this hop in the call was of another site.
    pub cross_site: bool,
    /// GET or HEAD.
    pub safe_method: bool,
}

/// A stored cookie with its site, worked out once (the caps count cookies per site on every
/// insert, and the Public Suffix List lookup is the costly part).
struct Kept {
    site: String,
    cookie: StoredCookie,
}

impl std::ops::Deref for Kept {
    type Target = StoredCookie;
    fn deref(&self) -> &StoredCookie {
        &self.cookie
    }
}

/// A client's cookies. Thread-safe: calls of one client share it.
#[derive(Default)]
pub struct CookieJar {
    cookies: Mutex<Vec<Kept>>,
    /// Bumped by every change, so that a persisting caller saves only when needed.
    changes: AtomicU64,
}

impl std::fmt::Debug for CookieJar {
    /// The count only: cookie values are secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CookieJar({} cookies)", self.lock().len())
    }
}

fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

/// The request host as cookies see it: lower-case name, or the address literal.
fn cookie_host(url: &Url) -> Option<(String, bool)> {
    match url.host()? {
        Host::Domain(d) => Some((d.trim_end_matches('.').to_ascii_lowercase(), false)),
        // The URL's own spelling of the address: what `Ipv4Addr`'s `Display` writes (the url
        // crate serialises it that way), without formatting it again on every request.
        Host::Ipv4(_) => Some((url.host_str()?.to_string(), true)),
        Host::Ipv6(ip) => Some((format!("[{ip}]"), true)),
    }
}

/// RFC 6265 5.1.3: `host` is `domain` or a name ending in `.domain` (never for an address).
pub fn domain_match(host: &str, domain: &str, host_is_ip: bool) -> bool {
    host == domain
        || (!host_is_ip
            && host.len() > domain.len()
            && host.ends_with(domain)
            && host.as_bytes()[host.len() - domain.len() - 1] == b'.')
}

/// RFC 6265 5.1.4.
fn path_match(request_path: &str, cookie_path: &str) -> bool {
    request_path == cookie_path
        || (request_path.starts_with(cookie_path)
            && (cookie_path.ends_with('/')
                || request_path.as_bytes().get(cookie_path.len()) == Some(&b'/')))
}

/// RFC 6265 5.1.4: the directory of the request path.
fn default_path(url: &Url) -> String {
    let path = url.path();
    if !path.starts_with('/') {
        return "/".into();
    }
    match path.rfind('/') {
        Some(0) | None => "/".into(),
        Some(i) => path[..i].to_string(),
    }
}

/// Whether `domain` is a public suffix (`com`, `co.uk`, `github.io`, or a TLD the list does
/// not know): nobody may set a cookie for all of it.
pub fn is_public_suffix(domain: &str) -> bool {
    psl::suffix_str(domain).is_some_and(|s| s.eq_ignore_ascii_case(domain))
}

/// The site of a host: its registrable domain (`a.b.example.co.uk` -> `example.co.uk`), or
/// the host itself for an address, a single label or a public suffix.
pub fn site_of(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.starts_with('[') || host.parse::<std::net::IpAddr>().is_ok() {
        return host;
    }
    psl::domain_str(&host).map_or_else(|| host.clone(), str::to_string)
}

/// The site of `url`'s host (see [`site_of`]).
pub fn site_of_url(url: &Url) -> String {
    cookie_host(url)
        .map(|(h, _)| site_of(&h))
        .unwrap_or_default()
}

impl CookieJar {
    pub fn new() -> CookieJar {
        CookieJar::default()
    }

    /// How many changes the jar has seen (set, replaced, expired, evicted, loaded).
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Kept>> {
        // A panic while holding the lock leaves a consistent Vec: keep using it.
        self.cookies.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Store the `Set-Cookie` header values of a response to `url`; ones breaking a rule
    /// are ignored, as RFC 6265 says.
    pub fn store<'a>(&self, url: &Url, set_cookies: impl Iterator<Item = &'a str>) {
        let now = now_micros() / 1_000_000;
        let https = url.scheme() == "https";
        for line in set_cookies {
            if let Some(cookie) = parse_set_cookie(line, url, now) {
                if !https && self.shadows_secure(&cookie) {
                    continue;
                }
                self.insert(cookie, now);
            }
        }
    }

    /// 6265bis 5.7 step 16: whether `cookie`, from a plain-http response, would overwrite,
    /// delete or shadow a Secure cookie of the same name (cookies ignore ports, so any http
    /// answer on the host could otherwise fix an https session's value).
    fn shadows_secure(&self, cookie: &StoredCookie) -> bool {
        self.lock().iter().any(|c| {
            c.secure
                && c.name == cookie.name
                && (domain_match(&c.domain, &cookie.domain, false)
                    || domain_match(&cookie.domain, &c.domain, false))
                && path_match(&cookie.path, &c.path)
        })
    }

    fn insert(&self, mut cookie: StoredCookie, now: i64) {
        let mut all = self.lock();
        let old = all.iter().position(|c| c.same_slot(&cookie));
        if let Some(i) = old {
            let previous = all.remove(i);
            cookie.created = previous.cookie.created;
        }
        if cookie.expired(now) {
            // The server's way to delete a cookie.
            if old.is_some() {
                self.changes.fetch_add(1, Ordering::Relaxed);
            }
            return;
        }
        all.retain(|c| !c.expired(now));
        trim_for(&mut all, &cookie);
        let same_domain: Vec<usize> = (0..all.len())
            .filter(|&i| all[i].domain == cookie.domain)
            .collect();
        if same_domain.len() >= MAX_PER_DOMAIN {
            let oldest = same_domain.into_iter().min_by_key(|&i| all[i].created);
            if let Some(i) = oldest {
                all.remove(i);
            }
        }
        let site = site_of(&cookie.domain);
        let of_site: Vec<usize> = (0..all.len()).filter(|&i| all[i].site == site).collect();
        if of_site.len() >= MAX_PER_SITE {
            if let Some(i) = of_site.into_iter().min_by_key(|&i| all[i].created) {
                all.remove(i);
            }
        }
        if all.len() >= MAX_COOKIES {
            // RFC 6265 5.3 step 12: the site with the most cookies gives up its oldest, so
            // one busy site cannot evict everybody else's sessions.
            let mut counts: std::collections::HashMap<String, usize> =
                std::collections::HashMap::new();
            for c in all.iter() {
                *counts.entry(c.site.clone()).or_default() += 1;
            }
            let biggest = counts
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
                .map(|(s, _)| s);
            let victim = (0..all.len())
                .filter(|&i| Some(&all[i].site) == biggest.as_ref())
                .min_by_key(|&i| all[i].created);
            if let Some(i) = victim {
                all.remove(i);
            }
        }
        all.push(Kept { site, cookie });
        self.changes.fetch_add(1, Ordering::Relaxed);
    }

    /// The `Cookie` header value for a request to `url`, if any cookie goes there.
    pub fn header_for(&self, url: &Url, ctx: RequestContext) -> Option<String> {
        let all = self.lock();
        if all.is_empty() {
            return None; // most calls: nothing to match, so no host to spell out
        }
        let (host, is_ip) = cookie_host(url)?;
        let secure = url.scheme() == "https";
        let now = now_micros() / 1_000_000;
        let path = url.path();
        let mut chosen: Vec<&StoredCookie> = all
            .iter()
            .map(|k| &k.cookie)
            .filter(|c| {
                !c.expired(now)
                    && (if c.host_only {
                        host == c.domain
                    } else {
                        domain_match(&host, &c.domain, is_ip)
                    })
                    && path_match(path, &c.path)
                    && (secure || !c.secure)
                    && match c.same_site {
                        SameSiteRule::None => true,
                        SameSiteRule::Lax => !ctx.cross_site || ctx.safe_method,
                        SameSiteRule::Strict => !ctx.cross_site,
                    }
            })
            .collect();
        if chosen.is_empty() {
            return None;
        }
        // Within MAX_COOKIE_HEADER_BYTES, the most specific (then the newest) cookies that
        // fit; one that does not fit is skipped and smaller ones may still take the room.
        chosen.sort_by(|a, b| a.precedence(b));
        let mut room = MAX_COOKIE_HEADER_BYTES + 2; // the last pair has no separator
        chosen.retain(|c| {
            let fits = c.header_cost() <= room;
            if fits {
                room -= c.header_cost();
            }
            fits
        });
        // RFC 6265 5.4: longer paths first, then the earliest set.
        chosen.sort_by(|a, b| {
            b.path
                .len()
                .cmp(&a.path.len())
                .then(a.created.cmp(&b.created))
        });
        let pairs: Vec<String> = chosen
            .iter()
            .map(|c| format!("{}={}", c.name, c.value))
            .collect();
        Some(pairs.join("; "))
    }

    /// Every unexpired cookie; only those with an expiry date when `persistent_only`.
    pub fn cookies(&self, persistent_only: bool) -> Vec<StoredCookie> {
        let now = now_micros() / 1_000_000;
        self.lock()
            .iter()
            .filter(|c| !c.expired(now) && (!persistent_only || c.expires.is_some()))
            .map(|k| k.cookie.clone())
            .collect()
    }

    /// Add cookies saved earlier (expired ones are dropped); they replace cookies of the same
    /// name, domain and path.
    pub fn load(&self, cookies: Vec<StoredCookie>) {
        let now = now_micros() / 1_000_000;
        for c in cookies {
            if !c.expired(now) {
                self.insert(c, now);
            }
        }
    }

    /// Forget every cookie.
    pub fn clear(&self) {
        self.lock().clear();
        self.changes.fetch_add(1, Ordering::Relaxed);
    }
}

/// Make room for `cookie` (about to be stored) among the cookies sent along with it to its
/// own domain — those of that domain and, unless host-only, of its parent domains — so that
/// together they stay within [`MAX_COOKIE_HEADER_BYTES`]: the least specific (shortest
/// domain) and then the oldest go first. Paths are not looked at (every path shares the
/// budget), so the jar never holds more for a domain than one header can carry. A flood set
/// by a sibling host for the parent domain thus evicts only parent-domain cookies, never a
/// host's own.
fn trim_for(all: &mut Vec<Kept>, cookie: &StoredCookie) {
    let is_ip = cookie.domain.starts_with('[') || cookie.domain.parse::<std::net::IpAddr>().is_ok();
    let mut group: Vec<usize> = (0..all.len())
        .filter(|&i| {
            let c = &all[i];
            c.domain == cookie.domain
                || (!c.host_only && domain_match(&cookie.domain, &c.domain, is_ip))
        })
        .collect();
    let mut total =
        cookie.header_cost() + group.iter().map(|&i| all[i].header_cost()).sum::<usize>();
    let limit = MAX_COOKIE_HEADER_BYTES + 2;
    if total <= limit {
        return;
    }
    group.sort_by_key(|&i| (all[i].domain.len(), all[i].host_only, all[i].created));
    let mut evict = Vec::new();
    for i in group {
        if total <= limit {
            break;
        }
        total -= all[i].header_cost();
        evict.push(i);
    }
    evict.sort_unstable_by(|a, b| b.cmp(a));
    for i in evict {
        all.remove(i);
    }
}

/// One `Set-Cookie` value received from `url`, as RFC 6265 5.3 would store it, or `None`
/// when it must be ignored.
fn parse_set_cookie(line: &str, url: &Url, now: i64) -> Option<StoredCookie> {
    let raw = RawCookie::parse(line).ok()?;
    let (host, is_ip) = cookie_host(url)?;
    if raw.name().len() + raw.value().len() > MAX_COOKIE_BYTES {
        return None;
    }
    let https = url.scheme() == "https";
    let secure = raw.secure().unwrap_or(false);
    // 6265bis 5.6: a plain-http response may not set (or overwrite) a Secure cookie.
    if secure && !https {
        return None;
    }
    let (domain, host_only) = match raw
        .domain()
        .map(|d| d.trim_end_matches('.').to_ascii_lowercase())
    {
        None => (host.clone(), true),
        Some(d) if d.is_empty() => (host.clone(), true),
        Some(d) if is_ip => {
            // An address may only name itself.
            let bare = host.trim_start_matches('[').trim_end_matches(']');
            if d != host && d != bare {
                return None;
            }
            (host.clone(), true)
        }
        Some(d) if is_public_suffix(&d) => {
            if d != host {
                return None;
            }
            (host.clone(), true)
        }
        Some(d) => {
            if !domain_match(&host, &d, false) {
                return None;
            }
            (d, false)
        }
    };
    let path = match raw.path() {
        Some(p) if p.starts_with('/') => p.to_string(),
        _ => default_path(url),
    };
    if path.len() > MAX_PATH_BYTES {
        // Counted apart from name and value: a long path would otherwise let one cookie
        // hold 16 times the size cap.
        return None;
    }
    // 6265bis 4.1.3: the prefixes promise what the cookie's attributes must hold.
    let name = raw.name();
    if name.starts_with("__Secure-") && !secure {
        return None;
    }
    if name.starts_with("__Host-") && !(secure && host_only && path == "/") {
        return None;
    }
    let expires = match (raw.max_age(), raw.expires_datetime()) {
        (Some(age), _) => Some(now.saturating_add(age.whole_seconds().max(0))),
        (None, Some(at)) => Some(at.unix_timestamp()),
        (None, None) => None,
    };
    let same_site = match raw.same_site() {
        Some(SameSite::Strict) => SameSiteRule::Strict,
        Some(SameSite::None) => SameSiteRule::None,
        Some(SameSite::Lax) | None => SameSiteRule::Lax,
    };
    Some(StoredCookie {
        name: name.to_string(),
        value: raw.value().to_string(),
        domain,
        host_only,
        path,
        secure,
        http_only: raw.http_only().unwrap_or(false),
        same_site,
        expires,
        created: now_micros(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    const SAME: RequestContext = RequestContext {
        cross_site: false,
        safe_method: true,
    };

    fn jar_with(from: &str, lines: &[&str]) -> CookieJar {
        let jar = CookieJar::new();
        jar.store(&url(from), lines.iter().copied());
        jar
    }

    #[test]
    fn host_only_cookies_go_to_their_host_alone() {
        let jar = jar_with("http://a.example.com/x", &["s=1"]);
        assert_eq!(
            jar.header_for(&url("http://a.example.com/"), SAME)
                .as_deref(),
            Some("s=1")
        );
        assert_eq!(jar.header_for(&url("http://b.a.example.com/"), SAME), None);
        assert_eq!(jar.header_for(&url("http://example.com/"), SAME), None);
    }

    #[test]
    fn domain_cookies_go_to_subdomains_but_not_to_other_sites() {
        let jar = jar_with("http://a.example.com/", &["s=1; Domain=.example.com"]);
        assert!(jar.header_for(&url("http://example.com/"), SAME).is_some());
        assert!(jar
            .header_for(&url("http://x.y.example.com/"), SAME)
            .is_some());
        assert_eq!(jar.header_for(&url("http://badexample.com/"), SAME), None);
        assert_eq!(jar.header_for(&url("http://example.org/"), SAME), None);
    }

    #[test]
    fn public_suffix_and_foreign_domains_are_refused() {
        for line in [
            "s=1; Domain=com",
            "s=1; Domain=co.uk",
            "s=1; Domain=github.io",
            "s=1; Domain=other.com",
        ] {
            let from = if line.contains("github") {
                "http://me.github.io/"
            } else if line.contains("co.uk") {
                "http://a.b.co.uk/"
            } else {
                "http://a.example.com/"
            };
            assert!(jar_with(from, &[line]).cookies(false).is_empty(), "{line}");
        }
        // Naming its own host (a suffix itself) makes a host-only cookie.
        let jar = jar_with("http://github.io/", &["s=1; Domain=github.io"]);
        let stored = jar.cookies(false);
        assert!(stored.len() == 1 && stored[0].host_only);
    }

    #[test]
    fn addresses_may_only_name_themselves() {
        assert!(jar_with("http://127.0.0.1/", &["s=1; Domain=0.0.1"])
            .cookies(false)
            .is_empty());
        let jar = jar_with("http://127.0.0.1/", &["s=1; Domain=127.0.0.1"]);
        assert!(jar.header_for(&url("http://127.0.0.1/"), SAME).is_some());
    }

    #[test]
    fn paths_match_on_segment_boundaries() {
        let jar = jar_with("http://e.com/docs/page", &["a=1; Path=/docs", "b=2"]);
        assert_eq!(
            jar.header_for(&url("http://e.com/docs/x"), SAME).as_deref(),
            Some("a=1; b=2")
        );
        assert_eq!(
            jar.header_for(&url("http://e.com/docs"), SAME).as_deref(),
            Some("a=1; b=2")
        );
        assert_eq!(jar.header_for(&url("http://e.com/docsx"), SAME), None);
        assert_eq!(jar.header_for(&url("http://e.com/"), SAME), None);
    }

    #[test]
    fn longer_paths_come_first() {
        let jar = jar_with("http://e.com/", &["a=1; Path=/", "b=2; Path=/x/y"]);
        assert_eq!(
            jar.header_for(&url("http://e.com/x/y/z"), SAME).as_deref(),
            Some("b=2; a=1")
        );
    }

    #[test]
    fn secure_cookies_need_https_both_ways() {
        assert!(jar_with("http://e.com/", &["s=1; Secure"])
            .cookies(false)
            .is_empty());
        let jar = jar_with("https://e.com/", &["s=1; Secure", "p=2"]);
        assert_eq!(
            jar.header_for(&url("http://e.com/"), SAME).as_deref(),
            Some("p=2")
        );
        assert_eq!(
            jar.header_for(&url("https://e.com/"), SAME).as_deref(),
            Some("s=1; p=2")
        );
    }

    #[test]
    fn prefixes_are_enforced() {
        assert!(jar_with("https://e.com/", &["__Secure-a=1"])
            .cookies(false)
            .is_empty());
        assert!(
            jar_with("https://a.e.com/", &["__Host-a=1; Secure; Domain=e.com"])
                .cookies(false)
                .is_empty()
        );
        assert_eq!(
            jar_with("https://e.com/", &["__Host-a=1; Secure; Path=/"])
                .cookies(false)
                .len(),
            1
        );
    }

    #[test]
    fn expiry_deletes_and_persistence_needs_a_date() {
        let jar = jar_with("http://e.com/", &["a=1; Max-Age=3600", "b=2"]);
        assert_eq!(jar.cookies(true).len(), 1);
        assert_eq!(jar.cookies(false).len(), 2);
        jar.store(&url("http://e.com/"), ["a=gone; Max-Age=0"].into_iter());
        jar.store(
            &url("http://e.com/"),
            ["b=x; Expires=Thu, 01 Jan 1970 00:00:01 GMT"].into_iter(),
        );
        assert!(jar.cookies(false).is_empty());
        assert_eq!(jar.header_for(&url("http://e.com/"), SAME), None);
    }

    #[test]
    fn same_site_rules_on_cross_site_hops() {
        let jar = jar_with(
            "http://e.com/",
            &[
                "s=1; SameSite=Strict",
                "l=2; SameSite=Lax",
                "n=3; SameSite=None",
                "d=4",
            ],
        );
        let cross_get = RequestContext {
            cross_site: true,
            safe_method: true,
        };
        let cross_post = RequestContext {
            cross_site: true,
            safe_method: false,
        };
        assert_eq!(
            jar.header_for(&url("http://e.com/"), cross_get).as_deref(),
            Some("l=2; n=3; d=4")
        );
        assert_eq!(
            jar.header_for(&url("http://e.com/"), cross_post).as_deref(),
            Some("n=3")
        );
    }

    #[test]
    fn replacing_keeps_one_cookie_and_caps_hold() {
        let jar = jar_with("http://e.com/", &["a=1", "a=2"]);
        assert_eq!(
            jar.header_for(&url("http://e.com/"), SAME).as_deref(),
            Some("a=2")
        );
        let lines: Vec<String> = (0..MAX_PER_DOMAIN + 5).map(|i| format!("c{i}=v")).collect();
        jar.store(&url("http://e.com/"), lines.iter().map(String::as_str));
        assert_eq!(jar.cookies(false).len(), MAX_PER_DOMAIN);
        let big = format!("big={}", "x".repeat(MAX_COOKIE_BYTES));
        jar.store(&url("http://f.com/"), [big.as_str()].into_iter());
        assert!(jar.header_for(&url("http://f.com/"), SAME).is_none());
    }

    #[test]
    fn plain_http_cannot_overwrite_delete_or_shadow_a_secure_cookie() {
        let jar = jar_with("https://e.com/", &["sid=good; Secure; Path=/"]);
        let http = url("http://e.com:8080/x");
        jar.store(&http, ["sid=attacker"].into_iter());
        jar.store(&http, ["sid=; Max-Age=0"].into_iter());
        jar.store(&url("http://a.e.com/"), ["sid=x; Domain=e.com"].into_iter());
        assert_eq!(
            jar.header_for(&url("https://e.com/account"), SAME)
                .as_deref(),
            Some("sid=good")
        );
        // Another name is fine, and https may still replace its own cookie.
        jar.store(&http, ["other=1"].into_iter());
        jar.store(&url("https://e.com/"), ["sid=new; Secure"].into_iter());
        assert_eq!(
            jar.header_for(&url("https://e.com/"), SAME).as_deref(),
            Some("sid=new; other=1")
        );
    }

    #[test]
    fn one_site_cannot_evict_another_sites_cookies() {
        let jar = jar_with("https://bank.test/", &["session=1; Secure"]);
        // A site answering from many hosts, each filling its own per-domain cap.
        for h in 0..MAX_COOKIES / MAX_PER_DOMAIN + 10 {
            let lines: Vec<String> = (0..MAX_PER_DOMAIN).map(|i| format!("c{i}=v")).collect();
            jar.store(
                &url(&format!("http://h{h}.evil.test/")),
                lines.iter().map(String::as_str),
            );
        }
        let all = jar.cookies(false);
        let evil = all
            .iter()
            .filter(|c| c.domain.ends_with("evil.test"))
            .count();
        assert_eq!(evil, MAX_PER_SITE);
        assert_eq!(
            jar.header_for(&url("https://bank.test/"), SAME).as_deref(),
            Some("session=1")
        );
    }

    #[test]
    fn the_biggest_site_gives_way_when_the_jar_is_full() {
        let jar = CookieJar::new();
        jar.store(&url("http://first.test/"), ["keep=1"].into_iter());
        // Many sites, each under its own cap, together past the jar's.
        for h in 0..MAX_COOKIES / 40 + 5 {
            let count = if h == 3 { 120 } else { 40 };
            let lines: Vec<String> = (0..count).map(|i| format!("c{i}=v")).collect();
            let host = format!("http://s{h}.test/");
            for chunk in lines.chunks(MAX_PER_DOMAIN - 1) {
                let sub = format!("http://x{}.s{h}.test/", chunk.len());
                let target = if chunk.len() < MAX_PER_DOMAIN - 1 {
                    &host
                } else {
                    &sub
                };
                jar.store(&url(target), chunk.iter().map(String::as_str));
            }
        }
        assert!(jar.cookies(false).len() <= MAX_COOKIES);
        assert!(jar.header_for(&url("http://first.test/"), SAME).is_some());
    }

    #[test]
    fn a_long_path_is_not_kept() {
        let long = format!("p=1; Path=/{}", "a".repeat(MAX_PATH_BYTES));
        assert!(jar_with("http://e.com/", &[long.as_str()])
            .cookies(false)
            .is_empty());
        let deep = format!("http://e.com/{}/page", "d".repeat(MAX_PATH_BYTES));
        assert!(jar_with(&deep, &["q=1"]).cookies(false).is_empty());
        assert_eq!(
            jar_with("http://e.com/a/b", &["r=1"]).cookies(false).len(),
            1
        );
    }

    #[test]
    fn a_sibling_flood_is_trimmed_and_the_header_stays_bounded() {
        let value = "v".repeat(3000);
        // The host's own cookies first, then a sibling floods the parent domain.
        let own: Vec<String> = (0..2).map(|i| format!("own{i}={value}")).collect();
        let jar = jar_with("http://www.victim.test/", &[]);
        jar.store(
            &url("http://www.victim.test/"),
            own.iter().map(String::as_str),
        );
        let flood: Vec<String> = (0..45)
            .map(|i| format!("f{i}={value}; Domain=victim.test"))
            .collect();
        jar.store(
            &url("http://att.victim.test/"),
            flood.iter().map(String::as_str),
        );
        // Storing trimmed the parent domain to what one header carries, newest kept.
        let parent: Vec<StoredCookie> = jar
            .cookies(false)
            .into_iter()
            .filter(|c| c.domain == "victim.test")
            .collect();
        let bytes: usize = parent.iter().map(|c| c.header_cost()).sum();
        assert!(bytes <= MAX_COOKIE_HEADER_BYTES + 2, "{bytes}");
        assert!(parent.iter().any(|c| c.name == "f44"));
        // The host's own cookies survive and come first; the header is bounded.
        let header = jar
            .header_for(&url("http://www.victim.test/"), SAME)
            .unwrap();
        assert!(header.len() <= MAX_COOKIE_HEADER_BYTES, "{}", header.len());
        assert!(header.contains("own0=") && header.contains("own1="));
        // The sibling still gets the newest parent-domain cookies that fit.
        let sibling = jar
            .header_for(&url("http://att.victim.test/"), SAME)
            .unwrap();
        assert!(sibling.len() <= MAX_COOKIE_HEADER_BYTES && sibling.contains("f44="));
    }

    #[test]
    fn the_header_prefers_specific_then_recent_cookies_and_skips_what_does_not_fit() {
        let jar = CookieJar::new();
        // More than one header can carry: the host's own cookie first, then the parent
        // domain's (storing those trims only the parent domain's own group).
        let mk =
            |name: &str, domain: &str, host_only: bool, len: usize, created: i64| StoredCookie {
                name: name.into(),
                value: "v".repeat(len),
                domain: domain.into(),
                host_only,
                path: "/".into(),
                secure: false,
                http_only: false,
                same_site: SameSiteRule::Lax,
                expires: None,
                created,
            };
        jar.load(vec![
            mk("mine", "www.e.test", true, 3000, 3),
            mk("old", "e.test", false, 3000, 1),
            mk("new", "e.test", false, 3000, 2),
            mk("tiny", "e.test", false, 5, 0),
        ]);
        assert_eq!(jar.cookies(false).len(), 4);
        let header = jar.header_for(&url("http://www.e.test/"), SAME).unwrap();
        assert!(header.len() <= MAX_COOKIE_HEADER_BYTES);
        // Host-only first, then the newest parent cookie; "old" no longer fits but "tiny"
        // does. Sent in RFC order (equal paths: earliest created first).
        let names: Vec<&str> = header
            .split("; ")
            .map(|p| p.split('=').next().unwrap())
            .collect();
        assert_eq!(names, ["tiny", "new", "mine"]);
    }

    #[test]
    fn sites_are_registrable_domains() {
        assert_eq!(site_of("a.b.example.co.uk"), "example.co.uk");
        assert_eq!(site_of("Example.COM."), "example.com");
        assert_eq!(site_of("127.0.0.1"), "127.0.0.1");
        assert_eq!(site_of("localhost"), "localhost");
        assert_eq!(site_of("x.github.io"), "x.github.io");
    }
}
