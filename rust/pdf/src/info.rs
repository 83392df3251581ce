//! Document metadata from the trailer's `/Info` dictionary: title, author, subject, dates.

use pdf_oxide::object::Object;
use pdf_oxide::PdfDocument;

use crate::PdfMetadata;

/// The document's `/Info` strings, its dates as ISO 8601; `pages` is left for the caller.
pub fn metadata(doc: &PdfDocument) -> PdfMetadata {
    let info = doc
        .trailer()
        .as_dict()
        .and_then(|t| t.get("Info"))
        .map(|o| resolve(doc, o));
    let Some(Object::Dictionary(dict)) = info else {
        return PdfMetadata::default();
    };
    let field = |key: &str| -> Option<String> {
        let value = resolve(doc, dict.get(key)?);
        let text = decode_text_string(value.as_string()?);
        (!text.is_empty()).then_some(text)
    };
    PdfMetadata {
        title: field("Title"),
        author: field("Author"),
        subject: field("Subject"),
        keywords: field("Keywords"),
        creator: field("Creator"),
        producer: field("Producer"),
        created: field("CreationDate").and_then(|d| iso_date(&d)),
        modified: field("ModDate").and_then(|d| iso_date(&d)),
        pages: 0,
    }
}

/// One level of indirection resolved (the `/Info` values are direct or one reference away).
fn resolve(doc: &PdfDocument, obj: &Object) -> Object {
    match obj.as_reference() {
        Some(r) => doc.load_object(r).unwrap_or(Object::Null),
        None => obj.clone(),
    }
}

/// Decode a PDF text string: UTF-16 (BE or LE, with its BOM), UTF-8 with its BOM, or
/// PDFDocEncoding (treated as Latin-1, which it matches for the printable range).
pub fn decode_text_string(bytes: &[u8]) -> String {
    let s = if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    };
    let clean: String = s.chars().filter(|c| !c.is_control()).collect();
    clean.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`) as ISO 8601 (`YYYY-MM-DD`, with `THH:MM:SS` and the
/// zone when given); `None` when it does not start with a year.
pub fn iso_date(raw: &str) -> Option<String> {
    let s = raw.trim().strip_prefix("D:").unwrap_or(raw.trim());
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 4 {
        return None;
    }
    let part = |from: usize, default: &'static str| digits.get(from..from + 2).unwrap_or(default);
    let mut out = format!("{}-{}-{}", &digits[..4], part(4, "01"), part(6, "01"));
    if digits.len() >= 12 {
        out.push_str(&format!(
            "T{}:{}:{}",
            part(8, "00"),
            part(10, "00"),
            part(12, "00")
        ));
        let zone = &s[digits.len()..];
        if zone.starts_with('Z') {
            out.push('Z');
        } else if let Some(sign) = zone.chars().next().filter(|c| *c == '+' || *c == '-') {
            let z: String = zone[1..].chars().filter(char::is_ascii_digit).collect();
            if z.len() >= 4 {
                out.push_str(&format!("{sign}{}:{}", &z[..2], &z[2..4]));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_strings_in_each_encoding() {
        assert_eq!(decode_text_string(b"Plain  title\n"), "Plain title");
        assert_eq!(
            decode_text_string(&[0xFE, 0xFF, 0x00, b'H', 0x00, 0xE9]),
            "H\u{e9}"
        );
        assert_eq!(decode_text_string(&[0xE9]), "\u{e9}");
    }

    #[test]
    fn pdf_dates_become_iso() {
        assert_eq!(
            iso_date("D:20240131120502+01'00'").as_deref(),
            Some("2024-01-31T12:05:02+01:00")
        );
        assert_eq!(iso_date("D:2019").as_deref(), Some("2019-01-01"));
        assert_eq!(
            iso_date("D:20200102030405Z").as_deref(),
            Some("2020-01-02T03:04:05Z")
        );
        assert_eq!(iso_date("yesterday"), None);
    }
}
