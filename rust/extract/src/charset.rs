//! Turning a response body into text the way a browser would.
//!
//! Order (HTML spec "determining the character encoding", simplified to what a fetcher knows):
//! byte-order mark, then the Content-Type `charset`, then a `<meta>` prescan of the first
//! 1024 bytes, then valid UTF-8, then statistical detection (`chardetng`). Decoding never
//! fails: malformed sequences become U+FFFD.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// How many bytes the `<meta>` prescan looks at (HTML spec: 1024).
const PRESCAN_BYTES: usize = 1024;
/// How much of the body the detector sees; enough for a confident guess, bounded cost.
const DETECT_BYTES: usize = 256 * 1024;

/// Decode `bytes` to text; returns the text and the WHATWG name of the encoding used.
pub fn decode(bytes: &[u8], content_type: Option<&str>) -> (String, &'static str) {
    let (text, name) = decode_borrowed(bytes, content_type);
    (text.into_owned(), name)
}

/// As [`decode`], but a body that is already valid text in its encoding (most pages: UTF-8)
/// is borrowed, not copied: one body-sized allocation less per extraction.
pub fn decode_borrowed<'a>(
    bytes: &'a [u8],
    content_type: Option<&str>,
) -> (Cow<'a, str>, &'static str) {
    let (encoding, skip) = choose(bytes, content_type);
    let (text, _had_errors) = encoding.decode_without_bom_handling(&bytes[skip..]);
    (text, encoding.name())
}

/// The encoding to use and how many leading bytes (a BOM) to skip.
pub fn choose(bytes: &[u8], content_type: Option<&str>) -> (&'static Encoding, usize) {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return (enc, bom_len);
    }
    if let Some(enc) = content_type.and_then(charset_param).and_then(label) {
        return (enc, 0);
    }
    if let Some(enc) = prescan(&bytes[..bytes.len().min(PRESCAN_BYTES)]) {
        // A page cannot declare itself UTF-16 in ASCII-compatible bytes (spec: use UTF-8).
        let enc = if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
            UTF_8
        } else if enc == encoding_rs::X_USER_DEFINED {
            WINDOWS_1252
        } else {
            enc
        };
        return (enc, 0);
    }
    if std::str::from_utf8(bytes).is_ok() {
        return (UTF_8, 0);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    let sample = &bytes[..bytes.len().min(DETECT_BYTES)];
    detector.feed(sample, sample.len() == bytes.len());
    (detector.guess(None, chardetng::Utf8Detection::Allow), 0)
}

fn label(name: &str) -> Option<&'static Encoding> {
    Encoding::for_label(name.trim().as_bytes())
}

/// The `charset` parameter of a Content-Type value (`text/html; charset="utf-8"`).
pub fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        if !key.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        (!value.is_empty()).then_some(value)
    })
}

/// The HTML spec's prescan for `<meta charset>` / `<meta http-equiv content>`.
fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        if rest.starts_with(b"<!--") {
            i = find(bytes, i + 4, b"-->").map_or(bytes.len(), |end| end + 3);
        } else if starts_with_ci(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            let (found, next) = meta_charset(bytes, i + 5);
            if found.is_some() {
                return found;
            }
            i = next;
        } else if rest.len() > 1
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Any other tag: skip its name and attributes so values can't fake a <meta>.
            let mut j = i + 1;
            while j < bytes.len() && !is_space(bytes[j]) && bytes[j] != b'>' {
                j += 1;
            }
            while let Some((_, _, next)) = attribute(bytes, j) {
                j = next;
            }
            i = j + 1;
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            i = find(bytes, i + 2, b">").map_or(bytes.len(), |end| end + 1);
        } else {
            i += 1;
        }
    }
    None
}

/// Read a `<meta>`'s attributes from `start`; the declared encoding and where parsing stopped.
fn meta_charset(bytes: &[u8], start: usize) -> (Option<&'static Encoding>, usize) {
    let mut pos = start;
    let mut http_equiv_ct = false;
    let mut content_charset: Option<&'static Encoding> = None;
    let mut charset: Option<&'static Encoding> = None;
    let mut seen_charset_attr = false;
    while let Some((name, value, next)) = attribute(bytes, pos) {
        pos = next;
        match name.as_slice() {
            b"http-equiv" => http_equiv_ct = value.eq_ignore_ascii_case(b"content-type"),
            b"content" if content_charset.is_none() => {
                content_charset = charset_from_content(&value);
            }
            b"charset" if !seen_charset_attr => {
                seen_charset_attr = true;
                charset = std::str::from_utf8(&value).ok().and_then(label);
            }
            _ => {}
        }
    }
    let found = if seen_charset_attr {
        charset
    } else if http_equiv_ct {
        content_charset
    } else {
        None
    };
    (found, pos + 1)
}

/// The spec's "get an attribute" step: `(lower-cased name, value, next position)`, or `None`
/// at the end of the tag.
fn attribute(bytes: &[u8], mut pos: usize) -> Option<(Vec<u8>, Vec<u8>, usize)> {
    while pos < bytes.len() && (is_space(bytes[pos]) || bytes[pos] == b'/') {
        pos += 1;
    }
    if pos >= bytes.len() || bytes[pos] == b'>' {
        return None;
    }
    let mut name = Vec::new();
    while pos < bytes.len() {
        let b = bytes[pos];
        if b == b'=' && !name.is_empty() {
            break;
        }
        if is_space(b) || b == b'/' || b == b'>' {
            break;
        }
        name.push(b.to_ascii_lowercase());
        pos += 1;
    }
    while pos < bytes.len() && is_space(bytes[pos]) {
        pos += 1;
    }
    if pos >= bytes.len() || bytes[pos] != b'=' {
        return Some((name, Vec::new(), pos));
    }
    pos += 1;
    while pos < bytes.len() && is_space(bytes[pos]) {
        pos += 1;
    }
    let mut value = Vec::new();
    match bytes.get(pos) {
        Some(&q @ (b'"' | b'\'')) => {
            pos += 1;
            while pos < bytes.len() && bytes[pos] != q {
                value.push(bytes[pos].to_ascii_lowercase());
                pos += 1;
            }
            pos += 1;
        }
        _ => {
            while pos < bytes.len() && !is_space(bytes[pos]) && bytes[pos] != b'>' {
                value.push(bytes[pos].to_ascii_lowercase());
                pos += 1;
            }
        }
    }
    Some((name, value, pos))
}

/// `charset=...` inside a `content="text/html; charset=..."` value.
fn charset_from_content(value: &[u8]) -> Option<&'static Encoding> {
    let at = find(value, 0, b"charset")?;
    let mut pos = at + 7;
    while pos < value.len() && is_space(value[pos]) {
        pos += 1;
    }
    if value.get(pos) != Some(&b'=') {
        return None;
    }
    pos += 1;
    while pos < value.len() && is_space(value[pos]) {
        pos += 1;
    }
    let rest = &value[pos..];
    let name = match rest.first() {
        Some(&q @ (b'"' | b'\'')) => {
            let end = rest[1..].iter().position(|&b| b == q)?;
            &rest[1..1 + end]
        }
        _ => {
            let end = rest
                .iter()
                .position(|&b| is_space(b) || b == b';')
                .unwrap_or(rest.len());
            &rest[..end]
        }
    };
    Encoding::for_label(name)
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn starts_with_ci(hay: &[u8], prefix: &[u8]) -> bool {
    hay.len() >= prefix.len() && hay[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_wins() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice("héllo".as_bytes());
        let (text, enc) = decode(&bytes, Some("text/html; charset=iso-8859-1"));
        assert_eq!((text.as_str(), enc), ("héllo", "UTF-8"));
        let utf16: Vec<u8> = [0xFF, 0xFE, b'h', 0, b'i', 0].to_vec();
        assert_eq!(decode(&utf16, None), ("hi".to_string(), "UTF-16LE"));
    }

    #[test]
    fn valid_text_is_borrowed() {
        let page = "<p>héllo</p>".as_bytes();
        let (text, enc) = decode_borrowed(page, Some("text/html; charset=utf-8"));
        assert!(matches!(text, Cow::Borrowed("<p>héllo</p>")));
        assert_eq!(enc, "UTF-8");
        // A BOM is skipped, still without a copy; a body needing decoding is owned.
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(page);
        assert!(matches!(
            decode_borrowed(&bom, None).0,
            Cow::Borrowed("<p>héllo</p>")
        ));
        let (text, enc) = decode_borrowed(b"caf\xe9", Some("text/html; charset=iso-8859-1"));
        assert!(matches!(text, Cow::Owned(ref s) if s == "café"));
        assert_eq!(enc, "windows-1252");
    }

    #[test]
    fn header_charset() {
        let (text, enc) = decode(b"caf\xe9", Some("text/html; Charset=\"ISO-8859-1\""));
        assert_eq!((text.as_str(), enc), ("café", "windows-1252"));
        assert_eq!(charset_param("text/html"), None);
        assert_eq!(charset_param("text/html;charset=utf-8"), Some("utf-8"));
    }

    #[test]
    fn meta_charset_shift_jis() {
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語のページです");
        let mut page =
            b"<html><head><meta charset=\"shift_jis\"><title>t</title></head><body>".to_vec();
        page.extend_from_slice(&sjis);
        let (text, enc) = decode(&page, None);
        assert_eq!(enc, "Shift_JIS");
        assert!(text.contains("日本語のページです"));
    }

    #[test]
    fn meta_http_equiv() {
        let page = b"<!-- <meta charset=utf-8> --><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"><p>\xcf\xf0\xe8\xe2\xe5\xf2";
        let (text, enc) = decode(page, None);
        assert_eq!(enc, "windows-1251");
        assert!(text.ends_with("Привет"));
    }

    #[test]
    fn meta_inside_attribute_ignored() {
        let page = b"<div title='<meta charset=koi8-r>'>caf\xc3\xa9</div>";
        assert_eq!(decode(page, None).1, "UTF-8");
    }

    #[test]
    fn meta_utf16_means_utf8() {
        assert_eq!(decode(b"<meta charset=utf-16le>x", None).1, "UTF-8");
    }

    #[test]
    fn latin1_without_declaration_is_detected() {
        let page =
            "<p>Le café est très bon, déjà servi à la française. Où est la crème brûlée ?</p>";
        let (latin1, _, _) = WINDOWS_1252.encode(page);
        let (text, enc) = decode(&latin1, None);
        assert_eq!(enc, "windows-1252");
        assert_eq!(text, page);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_an_error() {
        let (text, enc) = decode(b"ok \xff\xfe\xc3 end", Some("text/html; charset=utf-8"));
        assert_eq!(enc, "UTF-8");
        assert!(text.starts_with("ok ") && text.ends_with(" end"));
        assert!(text.contains('\u{FFFD}'));
    }

    #[test]
    fn unknown_label_falls_through() {
        assert_eq!(
            decode(b"plain", Some("text/html; charset=bogus")).1,
            "UTF-8"
        );
        assert_eq!(decode(b"", None), (String::new(), "UTF-8"));
    }
}
