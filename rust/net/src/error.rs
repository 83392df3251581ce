//! The one error type of the crate: a kind (which Python class), a stable reason tag and a
//! message written for a human or an LLM to read.
use std::borrow::Cow;
use std::fmt;

/// The longest URL quoted in an error message, in characters: a longer one is cut and ends
/// with "…" (a 1 MB URL must not flood an LLM's context). [`NetError::url`] keeps it whole.
/// Exported as `webgrip._core.MAX_SHOWN_URL_CHARS`, which `webgrip.messages.MAX_URL_CHARS`
/// is, so the URLs Python quotes are cut at the same length.
pub const MAX_SHOWN_URL_CHARS: usize = 200;

/// `url` as quoted in a message: at most [`MAX_SHOWN_URL_CHARS`] characters.
pub fn shown_url(url: &str) -> Cow<'_, str> {
    if url.chars().nth(MAX_SHOWN_URL_CHARS).is_none() {
        return Cow::Borrowed(url);
    }
    let end = url
        .char_indices()
        .nth(MAX_SHOWN_URL_CHARS - 1)
        .map_or(url.len(), |(i, _)| i);
    Cow::Owned(format!("{}…", &url[..end]))
}

/// `HTTP 404 Not Found`: the status and its reason phrase (when it has a standard one).
pub fn status_label(status: u16) -> String {
    let phrase = ureq::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason());
    match phrase {
        Some(p) => format!("HTTP {status} {p}"),
        None => format!("HTTP {status}"),
    }
}

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
    /// The configured upstream proxy could not be reached, refused the credentials or the
    /// tunnel (a kind of connection failure: `ProxyError(ConnectError)` in Python).
    Proxy,
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

    /// A policy refusal: `Refused <url>: <detail>`.
    pub fn blocked(url: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Blocked,
            Some(url),
            reason,
            format!("Refused {}: {detail}", shown_url(url)),
        )
    }

    pub fn invalid_url(url: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::InvalidUrl,
            Some(url),
            "invalid-url",
            format!("Invalid URL {:?}: {detail}", shown_url(url)),
        )
    }

    pub fn timeout(url: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Timeout,
            Some(url),
            "timeout",
            format!("Timed out fetching {}: {detail}", shown_url(url)),
        )
    }

    pub fn too_large(url: &str, limit: u64, detail: impl fmt::Display) -> NetError {
        let mut e = NetError::new(
            ErrorKind::TooLarge,
            Some(url),
            "too-large",
            format!(
                "Response from {} is too large: {detail} (limit {limit} bytes)",
                shown_url(url)
            ),
        );
        e.limit = Some(limit);
        e
    }

    /// Refuse a body whose declared length is already over `cap`, before reading any of it.
    pub fn check_declared_length(
        url: &str,
        declared: Option<u64>,
        cap: u64,
    ) -> Result<(), NetError> {
        match declared.filter(|len| *len > cap) {
            Some(len) => Err(NetError::too_large(
                url,
                cap,
                format!("its Content-Length is {len} bytes"),
            )),
            None => Ok(()),
        }
    }

    pub fn connect(url: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Connect,
            Some(url),
            reason,
            format!("Could not fetch {}: {detail}", shown_url(url)),
        )
    }

    /// A failure of the upstream proxy `proxy` (shown as `scheme://host:port`, never with
    /// its credentials).
    pub fn proxy(url: &str, proxy: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Proxy,
            Some(url),
            reason,
            format!(
                "Could not fetch {} through the proxy {proxy}: {detail}",
                shown_url(url)
            ),
        )
    }

    pub fn http_status(url: &str, status: u16) -> NetError {
        let mut e = NetError::new(
            ErrorKind::HttpStatus,
            Some(url),
            &format!("http-{status}"),
            format!("{} for {}", status_label(status), shown_url(url)),
        );
        e.status = Some(status);
        e
    }

    pub fn download(url: &str, reason: &str, detail: impl fmt::Display) -> NetError {
        NetError::new(
            ErrorKind::Download,
            Some(url),
            reason,
            format!("Could not save {}: {detail}", shown_url(url)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_urls_are_cut_in_messages_but_kept_whole() {
        let url = format!("https://example.com/{}", "a".repeat(1_000_000));
        for e in [
            NetError::blocked(&url, "private-address", "no"),
            NetError::invalid_url(&url, "no"),
            NetError::timeout(&url, "no"),
            NetError::too_large(&url, 10, "no"),
            NetError::connect(&url, "dns", "no"),
            NetError::http_status(&url, 404),
            NetError::download(&url, "io", "no"),
        ] {
            let shown = e.to_string();
            assert!(
                shown.chars().count() < 300,
                "{} chars",
                shown.chars().count()
            );
            assert!(shown.contains("https://example.com/aaa"));
            assert!(shown.contains("a…"));
            assert_eq!(e.url.as_deref(), Some(url.as_str()));
        }
    }

    #[test]
    fn shown_url_counts_characters_not_bytes() {
        let short = format!("https://x/{}", "é".repeat(MAX_SHOWN_URL_CHARS - 10));
        assert_eq!(shown_url(&short), short.as_str());
        let long = format!("https://x/{}", "é".repeat(MAX_SHOWN_URL_CHARS));
        let cut = shown_url(&long);
        assert_eq!(cut.chars().count(), MAX_SHOWN_URL_CHARS);
        assert!(cut.ends_with("é…"));
        let exact: String = "u".repeat(MAX_SHOWN_URL_CHARS);
        assert_eq!(shown_url(&exact), exact.as_str());
    }

    #[test]
    fn http_status_names_the_reason_phrase() {
        let e = NetError::http_status("https://example.com/x", 404);
        assert_eq!(
            e.to_string(),
            "HTTP 404 Not Found for https://example.com/x"
        );
        assert_eq!(e.reason, "http-404");
        let odd = NetError::http_status("https://example.com/x", 599);
        assert_eq!(odd.to_string(), "HTTP 599 for https://example.com/x");
    }
}
