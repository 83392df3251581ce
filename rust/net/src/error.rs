//! The one error type of the crate: a kind (which Python class), a stable reason tag and a
//! message written for a human or an LLM to read.
use std::fmt;

/// Which failure this is; maps one-to-one onto the `webgrip.errors` classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The URL cannot be parsed.
    InvalidUrl,
    /// The policy refused the URL, an address or a redirect hop.
    Blocked,
    /// The call's deadline or the connect timeout passed.
    Timeout,
    /// The decoded body is larger than the cap.
    TooLarge,
    /// DNS, refused, reset, TLS, or a broken response.
    Connect,
    /// A non-2xx final status where one is required (downloads).
    HttpStatus,
    /// A download could not be written.
    Download,
    /// A caller mistake (bad header, method, CIDR): a plain `ValueError` in Python.
    InvalidInput,
    /// The progress callback asked to stop.
    Cancelled,
}

#[derive(Debug)]
pub struct NetError {
    pub kind: ErrorKind,
    pub message: String,
    /// The URL the failure concerns (the hop that failed, for redirects).
    pub url: Option<String>,
    /// Stable tag, e.g. `private-address`, `timeout`, `http-404`.
    pub reason: String,
    /// The byte cap, for [`ErrorKind::TooLarge`].
    pub limit: Option<u64>,
    /// The HTTP status, for [`ErrorKind::HttpStatus`].
    pub status: Option<u16>,
}

impl NetError {
    pub fn new(kind: ErrorKind, url: Option<&str>, reason: &str, message: String) -> NetError {
        NetError {
            kind,
            message,
            url: url.map(str::to_string),
            reason: reason.to_string(),
            limit: None,
            status: None,
        }
    }

    /// A policy refusal: "Refused <url>: <detail>".
    pub fn blocked(url: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Blocked,
            Some(url),
            reason,
            format!("Refused {url}: {detail}"),
        )
    }

    pub fn invalid_url(url: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::InvalidUrl,
            Some(url),
            "invalid-url",
            format!("Invalid URL {url:?}: {detail}"),
        )
    }

    pub fn timeout(url: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Timeout,
            Some(url),
            "timeout",
            format!("Timed out fetching {url}: {detail}"),
        )
    }

    pub fn too_large(url: &str, limit: u64, detail: impl fmt::Display) -> NetError {
        let mut e = NetError::new(
            ErrorKind::TooLarge,
            Some(url),
            "too-large",
            format!("Response from {url} is too large: {detail} (limit {limit} bytes)"),
        );
        e.limit = Some(limit);
        e
    }

    pub fn connect(url: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Connect,
            Some(url),
            reason,
            format!("Could not fetch {url}: {detail}"),
        )
    }

    pub fn http_status(url: &str, status: u16) -> NetError {
        let mut e = NetError::new(
            ErrorKind::HttpStatus,
            Some(url),
            &format!("http-{status}"),
            format!("HTTP {status} from {url}"),
        );
        e.status = Some(status);
        e
    }

    pub fn download(url: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Download,
            Some(url),
            reason,
            format!("Could not save {url}: {detail}"),
        )
    }

    pub fn invalid_input(detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::InvalidInput,
            None,
            "invalid-input",
            detail.to_string(),
        )
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NetError {}
