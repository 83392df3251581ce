//! Defusing input that would make html5ever quadratic, before it is parsed.
//!
//! html5ever scans its stack of open elements for many start tags (e.g. every `<div>` checks
//! for an open `<p>` "in button scope"), and checks each new attribute against all earlier
//! ones. So 100,000 nested `<div>`s take a minute and a tag with 100,000 attributes longer.
//! This linear pre-pass tracks an approximate nesting depth with a lightweight tokenizer and
//! drops start tags (and their matching end tags) beyond [`MAX_DEPTH`], and drops tags with
//! more than [`MAX_ATTRS`] attributes. Their text is kept. Ordinary pages are returned
//! untouched and borrowed.

use std::borrow::Cow;
use std::collections::HashMap;

use memchr::{memchr, memmem};

/// Deeper than any real page nests; html5ever's scans stay cheap below it.
pub const MAX_DEPTH: usize = 256;
/// Real tags carry a few dozen attributes at most.
pub const MAX_ATTRS: usize = 256;

type Name = [u8; 16];

fn name_key(name: &[u8]) -> Name {
    let mut k = [0u8; 16];
    for (d, s) in k.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    k
}

fn is(name: &Name, s: &str) -> bool {
    let b = s.as_bytes();
    b.len() <= 16 && name[..b.len()] == *b && name.get(b.len()).is_none_or(|&c| c == 0)
}

fn is_void(n: &Name) -> bool {
    [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "param", "keygen", "frame", "basefont", "bgsound", "image",
    ]
    .iter()
    .any(|v| is(n, v))
}

/// Elements whose end tag is optional: the parser closes them itself, they don't nest.
fn closes_itself(n: &Name) -> bool {
    [
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot",
        "colgroup", "caption", "rb", "rt", "rp", "rtc", "html", "head", "body",
    ]
    .iter()
    .any(|v| is(n, v))
}

/// Elements whose content is raw text up to the matching end tag.
fn raw_text(n: &Name) -> bool {
    [
        "script",
        "style",
        "textarea",
        "title",
        "xmp",
        "iframe",
        "noembed",
        "noframes",
        "noscript",
        "plaintext",
    ]
    .iter()
    .any(|v| is(n, v))
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Return `html` with over-deep start tags and attribute bombs removed (borrowed if none).
pub fn defuse(html: &str) -> Cow<'_, str> {
    let b = html.as_bytes();
    let mut stack: Vec<Name> = Vec::new();
    let mut foreign = 0usize;
    let mut dropped: HashMap<Name, usize> = HashMap::new();
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        let rest = &b[lt..];
        if rest.starts_with(b"<!--") {
            i = memmem::find(&b[lt + 4..], b"-->").map_or(b.len(), |e| lt + 4 + e + 3);
            continue;
        }
        match rest.get(1) {
            Some(b'/') => {
                let name_len = rest[2..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
                    .count();
                let end = memchr(b'>', &b[lt..]).map_or(b.len(), |e| lt + e + 1);
                if name_len > 0 {
                    let key = name_key(&rest[2..2 + name_len]);
                    match dropped.get_mut(&key) {
                        Some(n) if *n > 0 => {
                            *n -= 1;
                            cuts.push((lt, end));
                        }
                        _ => {
                            if let Some(at) = stack.iter().rposition(|k| *k == key) {
                                foreign -= stack[at..]
                                    .iter()
                                    .filter(|k| is(k, "svg") || is(k, "math"))
                                    .count();
                                stack.truncate(at);
                            }
                        }
                    }
                }
                i = end;
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name_len = rest[1..]
                    .iter()
                    .take_while(|c| !is_space(**c) && **c != b'>' && **c != b'/')
                    .count();
                let key = name_key(&rest[1..1 + name_len]);
                let (end, attrs, self_closing) = scan_tag(b, lt + 1 + name_len);
                i = end;
                if attrs > MAX_ATTRS {
                    cuts.push((lt, end));
                    if !is_void(&key) {
                        *dropped.entry(key).or_insert(0) += 1;
                    }
                    continue;
                }
                if is_void(&key) || closes_itself(&key) || (self_closing && foreign > 0) {
                    continue;
                }
                if raw_text(&key) {
                    if is(&key, "plaintext") {
                        break;
                    }
                    i = find_end_tag(b, end, &rest[1..1 + name_len]);
                    continue;
                }
                if stack.len() >= MAX_DEPTH {
                    cuts.push((lt, end));
                    *dropped.entry(key).or_insert(0) += 1;
                    continue;
                }
                if is(&key, "svg") || is(&key, "math") {
                    foreign += 1;
                }
                stack.push(key);
            }
            Some(b'!' | b'?') => {
                i = memchr(b'>', &b[lt..]).map_or(b.len(), |e| lt + e + 1);
            }
            _ => i = lt + 1,
        }
        if i >= b.len() {
            break;
        }
    }
    if cuts.is_empty() {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut from = 0;
    for (start, end) in cuts {
        out.push_str(&html[from..start]);
        from = end;
    }
    out.push_str(&html[from..]);
    Cow::Owned(out)
}

/// From just after a tag name: the index after the closing `>`, the number of attributes
/// and whether the tag ends with `/>`. Quoted values may contain `>`.
fn scan_tag(b: &[u8], mut i: usize) -> (usize, usize, bool) {
    let mut attrs = 0;
    let mut after_eq = false;
    let mut prev_space = true;
    let mut last = 0u8;
    while i < b.len() {
        let c = b[i];
        match c {
            b'>' => return (i + 1, attrs, last == b'/'),
            b'"' | b'\'' if after_eq => {
                i = memchr(c, &b[i + 1..]).map_or(b.len(), |e| i + 1 + e + 1);
                after_eq = false;
                prev_space = false;
                last = c;
                continue;
            }
            b'=' => after_eq = true,
            c if is_space(c) => {
                prev_space = true;
                i += 1;
                continue;
            }
            b'/' => {}
            _ => {
                if prev_space && !after_eq {
                    attrs += 1;
                }
                after_eq = false;
            }
        }
        prev_space = false;
        last = c;
        i += 1;
    }
    (b.len(), attrs, false)
}

/// Where the raw-text element ending at `</name` starts (or the end of input).
fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        let after = lt + 2 + name.len();
        if b.get(lt + 1) == Some(&b'/')
            && after <= b.len()
            && b[lt + 2..after].eq_ignore_ascii_case(name)
            && b.get(after)
                .is_none_or(|&c| is_space(c) || c == b'>' || c == b'/')
        {
            return lt;
        }
        i = lt + 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_pages_borrowed() {
        let page = "<html><head><script>if (a<b) x='<div>'</script></head><body>\
                    <div class='a>b'><p>x<p>y<svg><path/><path/></svg></div></body></html>";
        assert!(matches!(defuse(page), Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_capped() {
        let n = 10_000;
        let page = format!("{}x{}", "<div>".repeat(n), "</div>".repeat(n));
        let out = defuse(&page);
        assert_eq!(out.matches("<div>").count(), MAX_DEPTH);
        assert_eq!(out.matches("</div>").count(), MAX_DEPTH);
        assert!(out.contains('x'));
    }

    #[test]
    fn attribute_bombs_dropped() {
        let page = format!("<p>a<span {}>b</span>c", "x=1 ".repeat(1000));
        assert_eq!(defuse(&page), "<p>ab</span>c".replace("</span>", ""));
    }
}
