//! A whole response read into memory, with the decoded body capped.
use std::io::Read;

use ureq::http::{header, HeaderMap};

use crate::client::{Client, Opened, RequestSpec, Walk};
use crate::decode::{decoded, is_encoded};
use crate::error::NetError;
use crate::ureq_error::from_body_io;

/// A completed exchange: any status, redirects already walked.
#[derive(Debug, Clone)]
pub struct FetchResponse {
    pub exchange: Exchange,
    /// Decoded from Content-Encoding, at most the cap.
    pub content: Vec<u8>,
    pub charset: Option<String>,
    /// The body came with a Content-Encoding that was undone (decoder state and windows
    /// were allocated to read it).
    pub decoded: bool,
}

/// What every guarded exchange reports, a fetched page and a download alike.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The final URL, after redirects.
    pub url: String,
    pub status: u16,
    /// Names lower-case, repeated headers kept, grouped by name in order of appearance.
    pub headers: Vec<(String, String)>,
    /// The media type of `Content-Type`, lower-case, without parameters.
    pub content_type: Option<String>,
    /// Every URL redirected from, in order.
    pub redirects: Vec<String>,
    /// `ip:port` of the final hop's connection (empty if unknown).
    pub remote_addr: String,
    /// Seconds for the whole call.
    pub elapsed: f64,
    /// Some hop carried cookies from the client's jar: what came back may be this session's
    /// alone (a shared cache must not keep it).
    pub sent_cookies: bool,
}

impl Exchange {
    /// The report of the exchange that ended at `url` with `status` and `headers`.
    pub(crate) fn new(url: &str, status: u16, headers: &HeaderMap, walk: Walk) -> Self {
        Exchange {
            url: url.to_string(),
            status,
            headers: header_list(headers),
            content_type: content_type(headers).0,
            redirects: walk.redirects,
            remote_addr: walk.remote_addr.map(|a| a.to_string()).unwrap_or_default(),
            elapsed: walk.started.elapsed().as_secs_f64(),
            sent_cookies: walk.sent_cookies,
        }
    }
}

fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect()
}

/// The media type (lower-cased) and `charset` parameter of the Content-Type header.
fn content_type(headers: &HeaderMap) -> (Option<String>, Option<String>) {
    let Some(raw) = headers.get(header::CONTENT_TYPE) else {
        return (None, None);
    };
    let raw = String::from_utf8_lossy(raw.as_bytes());
    let mut parts = raw.split(';');
    let media = parts
        .next()
        .map(|m| m.trim().to_ascii_lowercase())
        .filter(|m| !m.is_empty());
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').trim().to_string())
            .filter(|v| !v.is_empty())
    });
    (media, charset)
}

impl Client {
    /// One guarded request; 4xx/5xx are returned with their body, not raised.
    pub fn request(&self, spec: &RequestSpec) -> Result<FetchResponse, NetError> {
        let cap = spec.max_bytes.unwrap_or(self.max_response_bytes);
        let Opened {
            response,
            url,
            walk,
        } = self.open(spec)?;
        let shown = url.as_str();
        let (mut parts, body) = response.into_parts();
        let encoded = is_encoded(&parts.headers);
        // Known only for an identity-encoded, length-delimited body.
        let declared = body.content_length().filter(|_| !encoded);
        NetError::check_declared_length(shown, declared, cap)?;
        // `take` sits on the *decoded* stream: ureq's own limit counts wire bytes, which a
        // gzip, deflate or brotli bomb (in any layer) multiplies by a thousand. One byte over
        // the cap proves excess.
        let raw = Box::new(body.into_reader());
        let mut reader = decoded(&mut parts.headers, raw, shown)?.take(cap.saturating_add(1));
        let initial = declared.unwrap_or(0).min(cap).min(1 << 20);
        let mut content = Vec::with_capacity(usize::try_from(initial).unwrap_or(0));
        reader
            .read_to_end(&mut content)
            .map_err(|e| from_body_io(e, shown))?;
        if content.len() as u64 > cap {
            return Err(NetError::too_large(
                shown,
                cap,
                "the decoded body is larger than the limit",
            ));
        }
        let status = parts.status.as_u16();
        Ok(FetchResponse {
            exchange: Exchange::new(url.as_str(), status, &parts.headers, walk),
            content,
            charset: content_type(&parts.headers).1,
            decoded: encoded,
        })
    }
}
