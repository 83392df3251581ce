//! ureq's errors, and I/O errors from reading a body, turned into [`NetError`]s.
use std::io;

use ureq::Timeout;

use crate::decode::DecodeError;
use crate::error::{shown_url, NetError};

fn timeout_detail(t: Timeout) -> &'static str {
    match t {
        Timeout::Connect => "could not connect within connect_timeout",
        Timeout::Resolve => "the DNS lookup took too long",
        _ => "no complete response within the call's deadline",
    }
}

fn from_io(e: &io::Error, url: &str) -> NetError {
    use io::ErrorKind as K;
    // A failed handshake surfaces as an I/O error carrying the rustls error.
    if let Some(tls) = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
        return NetError::connect(url, "tls", format!("TLS error: {tls}"));
    }
    match e.kind() {
        K::TimedOut | K::WouldBlock => {
            NetError::timeout(url, "no complete response within the call's deadline")
        }
        K::ConnectionRefused => NetError::connect(url, "connection-refused", "connection refused"),
        K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe => {
            NetError::connect(url, "connection-reset", "the connection was reset")
        }
        K::UnexpectedEof => NetError::connect(
            url,
            "incomplete-response",
            "the server closed the connection before the response was complete",
        ),
        _ => NetError::connect(url, "io", e),
    }
}

/// Map a ureq error for the request to `url`. Our own refusals travel through ureq as
/// `Error::Other` and come back out unchanged.
pub fn from_ureq(e: ureq::Error, url: &str) -> NetError {
    use ureq::Error as E;
    match e {
        E::Other(inner) => match inner.downcast::<NetError>() {
            Ok(ne) => *ne,
            Err(other) => NetError::connect(url, "error", other),
        },
        E::Timeout(t) => NetError::timeout(url, timeout_detail(t)),
        E::Io(io) => from_io(&io, url),
        E::HostNotFound => NetError::connect(url, "dns", "the host name does not resolve"),
        E::ConnectionFailed => NetError::connect(url, "connect-failed", "could not connect"),
        E::Tls(msg) => NetError::connect(url, "tls", format!("TLS error: {msg}")),
        E::Rustls(r) => NetError::connect(url, "tls", format!("TLS error: {r}")),
        E::Pem(p) => NetError::connect(url, "tls", format!("TLS error: {p}")),
        E::TlsRequired => NetError::connect(url, "tls", "TLS was required but not set up"),
        E::BadUri(u) => {
            NetError::invalid_url(url, format!("not a usable request URI ({})", shown_url(&u)))
        }
        E::Http(h) => NetError::invalid_url(url, h),
        E::Protocol(p) => NetError::connect(url, "bad-response", format!("malformed HTTP: {p}")),
        E::LargeResponseHeader(_, limit) => NetError::connect(
            url,
            "bad-response",
            format!("the response headers are larger than {limit} bytes"),
        ),
        E::BodyExceedsLimit(n) => NetError::too_large(url, n, "the body is larger than the limit"),
        other => NetError::connect(url, "error", other),
    }
}

/// Map an error from reading the body (ureq wraps its own errors in `io::Error`).
pub fn from_body_io(e: io::Error, url: &str) -> NetError {
    if let Some(bad) = e.get_ref().and_then(|i| i.downcast_ref::<DecodeError>()) {
        return NetError::connect(url, "bad-encoding", bad);
    }
    from_ureq(ureq::Error::from(e), url)
}
