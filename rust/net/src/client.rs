//! The guarded client: one ureq agent per configuration, and the redirect walk every call
//! goes through (fetch and download alike).
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::http::{self, header, HeaderName, HeaderValue, Method};
use ureq::Agent;
use url::Url;

use crate::cookies::{site_of_url, CookieJar, RequestContext};
use crate::error::{shown_url, ErrorKind, NetError};
use crate::headers::{
    add_missing, checked_headers, every_request_headers, HeaderList, SiteHeaders,
};
use crate::policy::{normalize_host, Policy, PolicyConfig, Target};
use crate::resolve::{GuardedResolver, Lookup};
use crate::tls::{tls_config, TlsTrust};
use crate::transport::{clear_last_peer, last_peer, GuardedConnector};
use crate::upstream::ProxyRoutes;
use crate::ureq_error::from_ureq;

/// Redirect hops followed by default. The defaults below are exported to Python as
/// `webgrip._core.DEFAULT_*` and are `webgrip.Config`'s defaults: they are kept only here.
pub const DEFAULT_MAX_REDIRECTS: u32 = 5;
/// Total deadline of one call by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Connect (and DNS) timeout by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Cap on a decoded body by default: 10 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 10 * 1024 * 1024;
/// The longest timeout a client uses: a week. Longer ones (a config's `1e19`) are cut to it,
/// because adding a duration to the clock panics once the sum leaves the platform's range:
/// ureq and the deadline below add the timeouts to `Instant::now()`.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(7 * 24 * 3600);

/// `start + d`, with `d` cut to [`MAX_TIMEOUT`]: never panics, whatever `d`.
pub fn deadline_after(start: Instant, d: Duration) -> Instant {
    // A week always fits; should it not (a clock near its end), the deadline is `start`:
    // the call times out rather than the process aborting.
    start.checked_add(d.min(MAX_TIMEOUT)).unwrap_or(start)
}

/// Everything a [`Client`] is built from.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub policy: PolicyConfig,
    /// Host -> addresses overrides; the addresses still pass the policy.
    pub resolve: Vec<(String, Vec<String>)>,
    pub max_redirects: u32,
    /// Total deadline of one call, across every redirect hop.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Cap on the decoded body.
    pub max_response_bytes: u64,
    pub user_agent: String,
    /// Extra trusted CA certificates (PEM file).
    pub ca_bundle: Option<String>,
    /// Which roots are trusted before `ca_bundle` (see [`TlsTrust`]).
    pub tls_trust: TlsTrust,
    /// Sent on every request (below the call's and the site's headers).
    pub headers: Vec<(String, String)>,
    /// Domain -> headers sent to that domain and its subdomains (the longest match wins).
    pub site_headers: Vec<(String, Vec<(String, String)>)>,
    /// Keep a cookie jar (see [`CookieJar`](crate::CookieJar)).
    pub cookies: bool,
    /// Which upstream proxy each request goes through (none by default). Parsed already,
    /// so that this config's `Debug` cannot show a proxy password.
    pub proxies: ProxyRoutes,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            policy: PolicyConfig::default(),
            resolve: Vec::new(),
            max_redirects: DEFAULT_MAX_REDIRECTS,
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            user_agent: concat!("webgrip/", env!("CARGO_PKG_VERSION")).to_string(),
            ca_bundle: None,
            tls_trust: TlsTrust::WebPki,
            headers: Vec::new(),
            site_headers: Vec::new(),
            cookies: true,
            proxies: ProxyRoutes::default(),
        }
    }
}

/// One call: what to send, and per-call overrides of the client's limits.
#[derive(Clone, Debug, Default)]
pub struct RequestSpec {
    pub url: String,
    /// Defaults to GET.
    pub method: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
    pub timeout: Option<Duration>,
    pub max_bytes: Option<u64>,
    pub max_redirects: Option<u32>,
}

/// The final response of a redirect walk, body not read yet.
pub(crate) struct Opened {
    pub response: http::Response<ureq::Body>,
    pub url: Url,
    pub walk: Walk,
}

/// What the redirect walk itself reports, whatever the body becomes.
pub(crate) struct Walk {
    pub redirects: Vec<String>,
    pub remote_addr: Option<SocketAddr>,
    pub started: Instant,
    /// Some hop carried cookies from the jar: the answer belongs to this client's session.
    pub sent_cookies: bool,
}

#[derive(Debug)]
pub struct Client {
    agent: Agent,
    lookup: Arc<Lookup>,
    pub(crate) max_redirects: u32,
    pub(crate) timeout: Duration,
    pub(crate) connect_timeout: Duration,
    pub(crate) max_response_bytes: u64,
    headers: HeaderList,
    site_headers: SiteHeaders,
    jar: Option<Arc<CookieJar>>,
}

fn parse_overrides(
    list: &[(String, Vec<String>)],
) -> Result<HashMap<String, Vec<IpAddr>>, NetError> {
    let mut out: HashMap<String, Vec<IpAddr>> = HashMap::new();
    for (host, addrs) in list {
        let key =
            normalize_host(host).map_err(|e| NetError::invalid_input(format!("resolve: {e}")))?;
        let entry = out.entry(key).or_default();
        for a in addrs {
            let ip: IpAddr = a
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse()
                .map_err(|_| {
                    NetError::invalid_input(format!("resolve: {a:?} is not an IP address"))
                })?;
            entry.push(ip);
        }
    }
    Ok(out)
}

fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Headers that identify the user to one origin; never sent on to another.
fn is_credential(name: &HeaderName) -> bool {
    name == header::AUTHORIZATION || name == header::COOKIE || name == header::PROXY_AUTHORIZATION
}

/// Headers that describe a body; dropped when a redirect turns the request into a GET.
fn is_body_header(name: &HeaderName) -> bool {
    name == header::CONTENT_TYPE
        || name == header::CONTENT_LENGTH
        || name == header::CONTENT_ENCODING
        || name == header::TRANSFER_ENCODING
}

/// Add "(redirected from ...)" to a refusal of a redirect hop, so the reader knows where it
/// came from.
fn from_hop(mut e: NetError, previous: &Url) -> NetError {
    e.message = format!(
        "{} (redirected from {})",
        e.message,
        shown_url(previous.as_str())
    );
    e
}

impl Client {
    pub fn new(cfg: ClientConfig) -> Result<Client, NetError> {
        let policy = Arc::new(Policy::new(&cfg.policy)?);
        let lookup = Arc::new(Lookup::new(policy, parse_overrides(&cfg.resolve)?));
        if cfg.user_agent.trim().is_empty() || cfg.user_agent.contains(['\r', '\n']) {
            return Err(NetError::invalid_input(
                "user_agent must be a non-empty single line",
            ));
        }
        let config = Agent::config_builder()
            // ureq's own proxy support would let the proxy resolve the name and skip every
            // address check: upstream proxies are the connector's job (`routes`).
            .proxy(None)
            // Redirects are walked by hand so that every hop is checked.
            .max_redirects(0)
            .http_status_as_error(false)
            // WebDAV and other extension methods are the caller's business.
            .allow_non_standard_methods(true)
            .user_agent(cfg.user_agent.as_str())
            // What `decode.rs` can undo (ureq, built without its decoders, would send none).
            .accept_encoding(crate::decode::ACCEPT_ENCODING)
            .timeout_global(Some(cfg.timeout.min(MAX_TIMEOUT)))
            .timeout_connect(Some(cfg.connect_timeout.min(MAX_TIMEOUT)))
            .tls_config(tls_config(cfg.tls_trust, cfg.ca_bundle.as_deref())?)
            .build();
        let agent = Agent::with_parts(
            config,
            GuardedConnector::new(lookup.clone(), cfg.proxies),
            GuardedResolver(lookup.clone()),
        );
        Ok(Client {
            agent,
            lookup,
            max_redirects: cfg.max_redirects,
            timeout: cfg.timeout.min(MAX_TIMEOUT),
            connect_timeout: cfg.connect_timeout.min(MAX_TIMEOUT),
            max_response_bytes: cfg.max_response_bytes,
            headers: every_request_headers(&cfg.headers)?,
            site_headers: SiteHeaders::new(&cfg.site_headers)?,
            jar: cfg.cookies.then(|| Arc::new(CookieJar::new())),
        })
    }

    pub fn policy(&self) -> &Policy {
        &self.lookup.policy
    }

    /// The checked resolver of this client (its policy and `resolve` overrides), which the
    /// render proxy shares so that a browser's requests meet exactly the fetch's rules.
    pub fn lookup(&self) -> Arc<Lookup> {
        self.lookup.clone()
    }

    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// Whether a GET of `url`, as the first URL of a call, would carry cookies from the jar
    /// (false for an unparseable URL or with cookies off).
    pub fn has_cookies_for(&self, url: &str) -> bool {
        let (Some(jar), Ok(url)) = (self.jar.as_deref(), Url::parse(url)) else {
            return false;
        };
        let ctx = RequestContext {
            cross_site: false,
            safe_method: true,
        };
        jar.header_for(&url, ctx).is_some()
    }

    /// This client's cookie jar (`None` when cookies are off).
    pub fn cookie_jar(&self) -> Option<&CookieJar> {
        self.jar.as_deref()
    }

    /// The headers of one hop to `url`: the call's (as left by the redirects so far), then
    /// the site's, then the client's, then the jar's cookies joined to any `Cookie` given;
    /// and whether the jar gave any.
    fn hop_headers(
        &self,
        call: &[(HeaderName, HeaderValue)],
        url: &Url,
        ctx: RequestContext,
    ) -> (Vec<(HeaderName, HeaderValue)>, bool) {
        let mut out = call.to_vec();
        add_missing(&mut out, self.site_headers.for_url(url));
        add_missing(&mut out, &self.headers.0);
        let jar = self.jar.as_ref().and_then(|j| j.header_for(url, ctx));
        let from_jar = jar.is_some();
        let given: Vec<String> = out
            .iter()
            .filter(|(k, _)| k == header::COOKIE)
            .map(|(_, v)| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect();
        if given.len() > 1 || jar.is_some() {
            // One Cookie header (RFC 6265 5.4), the caller's pairs first.
            let joined = given.into_iter().chain(jar).collect::<Vec<_>>().join("; ");
            out.retain(|(k, _)| k != header::COOKIE);
            if let Ok(v) = HeaderValue::from_str(&joined) {
                out.push((header::COOKIE, v));
            }
        }
        (out, from_jar)
    }

    /// The policy decision for `url`, resolving its host but never connecting: the
    /// normalised URL, or why it is refused.
    pub fn check_url(&self, url: &str) -> Result<String, NetError> {
        let target = self.lookup.policy.check_url(url)?;
        self.lookup.resolve(
            target.url.as_str(),
            &target.host,
            target.port,
            Some(self.connect_timeout),
        )?;
        Ok(target.url.into())
    }

    /// Send one hop. The hop's global timeout is what is left of the call's deadline.
    fn send(
        &self,
        url: &Url,
        method: &Method,
        headers: &[(HeaderName, HeaderValue)],
        body: Option<&[u8]>,
        remaining: Duration,
    ) -> Result<http::Response<ureq::Body>, NetError> {
        let mut builder = http::Request::builder()
            .method(method.clone())
            .uri(url.as_str());
        for (k, v) in headers {
            builder = builder.header(k, v);
        }
        let shown = url.as_str();
        let bad = |e: http::Error| NetError::invalid_url(shown, e);
        let result = match body {
            Some(b) => {
                let req = builder.body(b.to_vec()).map_err(bad)?;
                let req = self
                    .agent
                    .configure_request(req)
                    .timeout_global(Some(remaining))
                    .build();
                self.agent.run(req)
            }
            None => {
                let req = builder.body(()).map_err(bad)?;
                let req = self
                    .agent
                    .configure_request(req)
                    .timeout_global(Some(remaining))
                    .build();
                self.agent.run(req)
            }
        };
        result.map_err(|e| from_ureq(e, shown))
    }

    /// Walk redirects by hand: every hop is checked like the first URL, methods and
    /// credentials are adjusted, and all hops share one deadline.
    pub(crate) fn open(&self, spec: &RequestSpec) -> Result<Opened, NetError> {
        self.open_until(spec, None)
    }

    /// [`Client::open`], with ureq's deadline for each hop (which also bounds reading the
    /// body) at `body_deadline` instead of the call's: a download's body has limits of its
    /// own, and its head is held to the call's deadline by an [`IoDeadline`] instead.
    ///
    /// [`IoDeadline`]: crate::transport::IoDeadline
    pub(crate) fn open_until(
        &self,
        spec: &RequestSpec,
        body_deadline: Option<Instant>,
    ) -> Result<Opened, NetError> {
        let started = Instant::now();
        let deadline = deadline_after(started, spec.timeout.unwrap_or(self.timeout));
        let max_redirects = spec.max_redirects.unwrap_or(self.max_redirects);
        let mut method = match &spec.method {
            Some(m) => Method::from_bytes(m.to_ascii_uppercase().as_bytes())
                .map_err(|_| NetError::invalid_input(format!("invalid HTTP method {m:?}")))?,
            None => Method::GET,
        };
        let mut headers = checked_headers(&spec.headers, "headers")?;
        let mut body = spec.body.clone();
        let mut target: Target = self.lookup.policy.check_url(&spec.url)?;
        let mut redirects: Vec<String> = Vec::new();
        // The sites this call has been through: a hop after another site is cross-site.
        // The last one is the site of `target` (pushed with it below).
        let mut sites: Vec<String> = vec![site_of_url(&target.url)];
        let mut sent_cookies = false;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(NetError::timeout(
                    target.url.as_str(),
                    "the call's deadline passed before this redirect hop",
                ));
            }
            let site = sites.last().map_or("", String::as_str);
            let ctx = RequestContext {
                cross_site: sites.iter().any(|s| s != site),
                safe_method: method == Method::GET || method == Method::HEAD,
            };
            let (hop, from_jar) = self.hop_headers(&headers, &target.url, ctx);
            sent_cookies |= from_jar;
            clear_last_peer();
            let hop_budget =
                body_deadline.map_or(remaining, |at| at.saturating_duration_since(Instant::now()));
            let sent = self.send(&target.url, &method, &hop, body.as_deref(), hop_budget);
            drop(hop);
            let response = match (sent, redirects.last()) {
                (Ok(r), _) => r,
                // An address refused at this hop: say which page redirected here.
                (Err(mut e), Some(prev)) if e.kind == ErrorKind::Blocked => {
                    e.message = format!("{} (redirected from {})", e.message, shown_url(prev));
                    return Err(e);
                }
                (Err(e), _) => return Err(e),
            };
            if let Some(jar) = &self.jar {
                // Every hop's cookies count, a redirect's included.
                let set = response.headers().get_all(header::SET_COOKIE);
                jar.store(
                    &target.url,
                    set.iter()
                        .filter_map(|v| std::str::from_utf8(v.as_bytes()).ok()),
                );
            }
            let status = response.status().as_u16();
            let location = response
                .headers()
                .get(header::LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            let (true, Some(location)) = (is_redirect(status), location) else {
                return Ok(Opened {
                    response,
                    url: target.url,
                    walk: Walk {
                        redirects,
                        remote_addr: last_peer(),
                        started,
                        sent_cookies,
                    },
                });
            };
            drop(response);
            let here = target.url.as_str();
            let next = target
                .url
                .join(location.trim())
                .map_err(|e| from_hop(NetError::invalid_url(&location, e), &target.url))?;
            if next == target.url || redirects.iter().any(|r| r == next.as_str()) {
                return Err(NetError::blocked(
                    here,
                    "redirect-loop",
                    format!(
                        "redirect loop: it sends back to {}, which was already visited",
                        shown_url(next.as_str())
                    ),
                ));
            }
            if redirects.len() >= max_redirects as usize {
                return Err(NetError::blocked(
                    here,
                    "too-many-redirects",
                    format!(
                        "too many redirects (the limit is {max_redirects}); the next one was to {}",
                        shown_url(next.as_str())
                    ),
                ));
            }
            if target.url.scheme() == "https"
                && next.scheme() == "http"
                && !self.lookup.policy.allow_https_downgrade
            {
                return Err(from_hop(
                    NetError::blocked(
                        next.as_str(),
                        "https-downgrade",
                        "a redirect from https to plain http is refused",
                    ),
                    &target.url,
                ));
            }
            let next_target = self
                .lookup
                .policy
                .check_parsed(next)
                .map_err(|e| from_hop(e, &target.url))?;
            if next_target.url.origin() != target.url.origin() {
                headers.retain(|(k, _)| !is_credential(k));
            }
            // 301/302/303 become a GET without body (what browsers do); 307/308 resend as is.
            if matches!(status, 301..=303) && method != Method::HEAD {
                method = Method::GET;
                body = None;
                headers.retain(|(k, _)| !is_body_header(k));
            }
            sites.push(site_of_url(&next_target.url));
            redirects.push(target.url.into());
            target = next_target;
        }
    }
}
