//! How far an `<svg>` subtree can be emptied without changing anything outside it.

use memchr::memchr;

use super::names::{breaks_out, is, is_any, name_key, Name};
use super::scan::{bogus_end, comment_extent, scan_guarded, tag_name_len, Attr};

/// From just after an `<svg ...>` start tag in HTML content: the `<` of the end tag that
/// closes it (or the end of input), if its content is plain SVG whose removal cannot change
/// anything outside it. `None` (keep it whole) for anything unusual.
pub(super) fn svg_extent(b: &[u8], from: usize, attrs: &mut Vec<Attr>) -> Option<usize> {
    let mut stack: Vec<Name> = vec![name_key(b"svg")];
    // Inside an SVG `<title>`/`<desc>` (HTML integration points): only text is accepted.
    let mut text_only = false;
    let mut i = from;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        let rest = &b[lt..];
        match rest.get(1) {
            Some(b'/') if rest.get(2).is_some_and(u8::is_ascii_alphabetic) => {
                let n = tag_name_len(b, lt + 2);
                let key = name_key(&b[lt + 2..lt + 2 + n]);
                if n > 16 || is(&key, "br") || is(&key, "p") {
                    return None;
                }
                let tag = scan_guarded(b, lt + 2 + n, attrs)?;
                // The tree builder pops to the nearest open element of that name; past the root it
                // would reach HTML elements and act on them.
                let at = stack.iter().rposition(|k| *k == key)?;
                if at == 0 {
                    return Some(lt);
                }
                stack.truncate(at);
                text_only = false;
                i = tag.end;
            }
            _ if text_only => return None,
            Some(b'!') if rest.starts_with(b"<!--") => i = comment_extent(b, lt).1,
            Some(b'!') if rest.starts_with(b"<![CDATA[") => {
                i = memchr::memmem::find(&b[lt + 9..], b"]]>").map_or(b.len(), |e| lt + 9 + e + 3);
            }
            Some(b'!' | b'?') => i = bogus_end(b, lt + 1),
            Some(b'/') => return None,
            Some(c) if c.is_ascii_alphabetic() => {
                let n = tag_name_len(b, lt + 1);
                let key = name_key(&b[lt + 1..lt + 1 + n]);
                if n > 16 || breaks_out(&key) || is(&key, "font") {
                    return None;
                }
                let tag = scan_guarded(b, lt + 1 + n, attrs)?;
                if !tag.self_closing {
                    if is(&key, "title") || is(&key, "desc") {
                        text_only = true;
                    } else if is_any(&key, &["foreignobject", "math"]) {
                        return None;
                    }
                    stack.push(key);
                }
                i = tag.end;
            }
            _ => i = lt + 1,
        }
        if i >= b.len() {
            break;
        }
    }
    (!text_only).then_some(b.len())
}
