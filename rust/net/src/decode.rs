//! Content-Encoding decoding, done here rather than by ureq: ureq 3.5 only knows a single
//! exact `gzip` or `br` token and passes anything else through undecoded (so `deflate` or
//! `gzip, gzip` bodies arrived as compressed bytes, and unknown codings went unnoticed).
//!
//! Supported: `gzip` / `x-gzip` (multi-member), `deflate` (zlib-wrapped, or raw deflate as
//! browsers tolerate), `br`, `identity`, stacked in any order up to [`MAX_CODINGS`]. Anything
//! else is refused with a `ConnectError` (`unsupported-encoding`) instead of handing the
//! caller bytes it cannot interpret. The cap on the *decoded* size stays the caller's
//! (`take` on the returned reader), so a bomb in any layer stops at the same limit.
use std::io::{self, Cursor, Read};

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};
use ureq::http::{header, HeaderMap};

use crate::error::NetError;
use crate::ureq_error::from_body_io;

/// Sent on every request: exactly what [`decoded`] can undo.
pub const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// Most codings one body may stack: real servers use one (rarely two by mistake); each layer
/// costs a decoder's window, so a long list is refused rather than decoded.
pub const MAX_CODINGS: usize = 3;

/// Buffer size of the brotli decoder (its window is allocated separately, up to 16 MiB).
const BROTLI_BUFFER: usize = 8 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Gzip,
    Deflate,
    Brotli,
}

impl Coding {
    fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
        }
    }
}

/// The codings of `headers`, in the order they were applied (every Content-Encoding line,
/// comma-separated, case-insensitive; `identity` and empty items dropped).
fn codings(headers: &HeaderMap, url: &str) -> Result<Vec<Coding>, NetError> {
    let mut out = Vec::new();
    for value in headers.get_all(header::CONTENT_ENCODING) {
        let text = String::from_utf8_lossy(value.as_bytes());
        for token in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let coding = match token.to_ascii_lowercase().as_str() {
                "identity" => continue,
                "gzip" | "x-gzip" => Coding::Gzip,
                "deflate" => Coding::Deflate,
                "br" => Coding::Brotli,
                _ => return Err(unsupported(url, &format!("{token:?}"))),
            };
            out.push(coding);
        }
    }
    if out.len() > MAX_CODINGS {
        let list: Vec<_> = out.iter().map(|c| c.name()).collect();
        return Err(unsupported(
            url,
            &format!("{} stacked codings ({})", out.len(), list.join(", ")),
        ));
    }
    Ok(out)
}

fn unsupported(url: &str, what: &str) -> NetError {
    NetError::connect(
        url,
        "unsupported-encoding",
        format!(
            "the response uses Content-Encoding {what}, which cannot be decoded \
             (supported: gzip, deflate, br, at most {MAX_CODINGS} stacked)"
        ),
    )
}

/// Read up to `want` bytes (fewer only at the end of the stream).
fn peek(reader: &mut dyn Read, want: usize) -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; want];
    let mut len = 0;
    while len < want {
        match reader.read(&mut head[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    head.truncate(len);
    Ok(head)
}

/// A zlib header (RFC 1950): deflate method, a window up to 32 KiB, and a valid check.
fn is_zlib_header(head: &[u8]) -> bool {
    match head {
        [cmf, flg, ..] => {
            cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0
        }
        _ => false,
    }
}

/// A body that does not decode as its Content-Encoding says (mapped to `bad-encoding`).
#[derive(Debug)]
pub(crate) struct DecodeError {
    pub coding: &'static str,
    pub source: io::Error,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} body could not be decoded ({})",
            self.coding, self.source
        )
    }
}

impl std::error::Error for DecodeError {}

/// Errors of a decoder become [`DecodeError`]s, except errors of the network read
/// underneath (timeouts, resets), which pass through unchanged.
struct Labelled<R> {
    inner: R,
    coding: Coding,
}

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let from_network = e
                .get_ref()
                .is_some_and(|inner| inner.is::<ureq::Error>() || inner.is::<NetError>());
            if from_network {
                e
            } else {
                io::Error::other(DecodeError {
                    coding: self.coding.name(),
                    source: e,
                })
            }
        })
    }
}

/// Undo one coding on top of `reader`. Only the network read of a peek can fail here.
fn layer<'a>(coding: Coding, mut reader: Box<dyn Read + 'a>) -> io::Result<Box<dyn Read + 'a>> {
    let inner: Box<dyn Read + 'a> = match coding {
        Coding::Gzip => Box::new(MultiGzDecoder::new(reader)),
        Coding::Brotli => Box::new(brotli_decompressor::Decompressor::new(
            reader,
            BROTLI_BUFFER,
        )),
        Coding::Deflate => {
            // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate, which
            // browsers accept: look at the first two bytes to tell them apart.
            let head = peek(&mut reader, 2)?;
            let zlib = is_zlib_header(&head);
            let whole = Cursor::new(head).chain(reader);
            if zlib {
                Box::new(ZlibDecoder::new(whole))
            } else {
                Box::new(DeflateDecoder::new(whole))
            }
        }
    };
    Ok(Box::new(Labelled { inner, coding }))
}

/// Whether `headers` name any coding besides `identity` (then the declared Content-Length
/// is that of the encoded body and says nothing about the decoded size).
pub(crate) fn is_encoded(headers: &HeaderMap) -> bool {
    headers.get_all(header::CONTENT_ENCODING).iter().any(|v| {
        String::from_utf8_lossy(v.as_bytes())
            .split(',')
            .map(str::trim)
            .any(|t| !t.is_empty() && !t.eq_ignore_ascii_case("identity"))
    })
}

/// `raw` (the body as received) decoded per `headers`' Content-Encoding. An empty body is
/// returned as is whatever its codings (HEAD, 204 and 304 answers carry the header too).
/// Content-Encoding and Content-Length describe the encoded body: they are removed from
/// `headers` when the body is decoded (as ureq does when it decodes).
pub(crate) fn decoded<'a>(
    headers: &mut HeaderMap,
    raw: Box<dyn Read + 'a>,
    url: &str,
) -> Result<Box<dyn Read + 'a>, NetError> {
    if !is_encoded(headers) {
        return Ok(raw);
    }
    // Refused only once the body proves non-empty: a HEAD or 304 answer has nothing to decode.
    let list = codings(headers, url);
    headers.remove(header::CONTENT_ENCODING);
    headers.remove(header::CONTENT_LENGTH);
    let mut raw = raw;
    let head = peek(&mut raw, 1).map_err(|e| from_body_io(e, url))?;
    if head.is_empty() {
        return Ok(Box::new(io::empty()));
    }
    let mut reader: Box<dyn Read + 'a> = Box::new(Cursor::new(head).chain(raw));
    // Applied first is listed first: undo them from the last.
    for coding in list?.into_iter().rev() {
        reader = layer(coding, reader).map_err(|e| from_body_io(e, url))?;
    }
    Ok(reader)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
    use flate2::Compression;
    use std::io::Write;

    fn headers(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_ENCODING, value.parse().unwrap());
        h
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn decode(value: &str, body: Vec<u8>) -> Result<Vec<u8>, NetError> {
        let mut h = headers(value);
        let mut r = decoded(&mut h, Box::new(Cursor::new(body)), "http://x.test/")?;
        // They described the encoded body.
        assert!(h.get(header::CONTENT_ENCODING).is_none());
        let mut out = Vec::new();
        r.read_to_end(&mut out)
            .map_err(|e| from_body_io(e, "http://x.test/"))?;
        Ok(out)
    }

    #[test]
    fn each_coding_and_stacks_decode() {
        let text = b"hello hello hello hello".to_vec();
        assert_eq!(decode("deflate", zlib(&text)).unwrap(), text);
        assert_eq!(decode("Deflate", raw_deflate(&text)).unwrap(), text);
        assert_eq!(decode("gzip, gzip", gzip(&gzip(&text))).unwrap(), text);
        assert_eq!(decode("deflate, gzip", gzip(&zlib(&text))).unwrap(), text);
        assert_eq!(decode("identity, x-gzip", gzip(&text)).unwrap(), text);
    }

    #[test]
    fn unknown_and_too_many_codings_are_refused() {
        for value in ["compress", "gzip, zstd", "gzip, gzip, gzip, gzip"] {
            let err = decode(value, b"abc".to_vec()).unwrap_err();
            assert_eq!(err.reason, "unsupported-encoding", "{value}");
        }
        // An empty body (HEAD, 304) has nothing to decode, whatever its coding.
        assert_eq!(decode("compress", Vec::new()).unwrap(), b"");
        assert_eq!(decode("gzip", Vec::new()).unwrap(), b"");
    }

    #[test]
    fn corrupt_data_is_a_bad_encoding() {
        let err = decode("gzip", b"not gzip at all".to_vec()).unwrap_err();
        assert_eq!(err.reason, "bad-encoding");
    }
}
