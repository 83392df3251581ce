//! The guarded network core of webgrip.
//!
//! - [`policy`]: which URLs and addresses may be fetched (WHATWG parsing, IANA tables).
//! - [`resolve`]: one checked lookup per hop; ureq connects only to what it returns.
//! - [`transport`]: the connector (re-checks addresses, records the peer, adds TLS).
//! - [`client`]: the agent and the hand-walked redirect loop with one deadline.
//! - [`headers`] / [`cookies`]: the caller's headers per site and the cookie jar, per hop.
//! - [`fetch`] / [`download`]: reading the final body, capped after decoding.
//! - [`proxy`]: the egress proxy a rendering browser goes through, under the same policy.
//! - [`upstream`] / [`tunnel`]: the user's upstream proxies, asked only for checked addresses.
pub mod cidr;
pub mod client;
pub mod cookies;
mod decode;
pub mod download;
pub mod error;
pub mod fetch;
pub mod headers;
pub mod iptable;
pub mod policy;
pub mod proxy;
pub mod resolve;
pub mod tls;
pub mod transport;
mod tunnel;
pub mod upstream;
mod ureq_error;

pub use client::{
    Client, ClientConfig, RequestSpec, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT,
};
pub use cookies::{CookieJar, SameSiteRule, StoredCookie};
pub use download::{DownloadResult, Progress};
pub use error::{shown_url, ErrorKind, NetError, MAX_SHOWN_URL_CHARS};
pub use fetch::{Exchange, FetchResponse};
pub use policy::{Policy, PolicyConfig, DEFAULT_BLOCKED_PORTS};
pub use proxy::{EgressProxy, ProxyConfig, ProxyStats};
