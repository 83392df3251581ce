//! The guarded network core of webgrip.
//!
//! - `policy`: which URLs and addresses may be fetched (WHATWG parsing, IANA tables).
//! - `resolve`: one checked lookup per hop; ureq connects only to what it returns.
//! - `transport`: the connector (re-checks addresses, records the peer, adds TLS).
//! - `client`: the agent and the hand-walked redirect loop with one deadline.
//! - `headers` / `cookies`: the caller's headers per site and the cookie jar, per hop.
//! - `fetch` / `download`: reading the final body, capped after decoding.
//! - `pace`: a download's stall rule and overall limit, checked as its bytes are read.
//! - `egress_proxy`: the egress proxy a rendering browser goes through, under the same policy.
//! - `upstream` / `tunnel`: the user's upstream proxies, asked only for checked addresses.
//! - `workers`: kept threads for DNS lookups and for each request's exchange.
//!
//! Every module is private and the API is the `pub use` list below (what the binding, the fuzz
//! targets, the tests and the benches call), so rustc reports an item nobody uses.
mod cidr;
mod client;
mod cookies;
mod decode;
mod download;
mod egress_proxy;
mod error;
mod fetch;
mod headers;
mod iptable;
mod pace;
mod policy;
mod resolve;
mod tcp;
mod tls;
mod transport;
mod tunnel;
mod upstream;
mod ureq_error;
mod workers;

pub use client::{
    deadline_after, Client, ClientConfig, RequestSpec, DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_REDIRECTS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT, MAX_TIMEOUT,
};
pub use cookies::{site_of, CookieJar, SameSiteRule, StoredCookie};
pub use download::{cancelled, DestDir, DownloadResult, Progress};
pub use egress_proxy::{EgressProxy, ProxyConfig, ProxyStats, PROXY_USER};
pub use error::{shown_url, ErrorKind, NetError, MAX_SHOWN_URL_CHARS};
pub use fetch::{Exchange, FetchResponse};
pub use headers::{checked_headers, every_request_headers, SiteHeaders};
pub use pace::{
    DownloadLimits, DEFAULT_DOWNLOAD_MIN_SPEED, DEFAULT_DOWNLOAD_STALL_WINDOW,
    DEFAULT_DOWNLOAD_TIMEOUT,
};
pub use policy::{
    is_localhost_name, url_host, Policy, PolicyConfig, Target, TargetHost, DEFAULT_BLOCKED_PORTS,
};
pub use tls::TlsTrust;
pub use upstream::ProxyRoutes;
pub use workers::{on_idle, on_worker, on_worker_then};
