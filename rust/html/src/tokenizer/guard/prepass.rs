//! The string form of the pre-pass: one scan that collects cuts, then one copy.

use std::borrow::Cow;

use memchr::memchr;

use super::names::{attr_is_read, class, name_key};
use super::scan::{
    bogus_end, comment_extent, raw_end, scan_guarded, script_end, tag_name_len, Attr,
};
use super::tracker::{mentions_frameset, Cdata, Start, Tracker};
use super::LONG_ATTR;

/// A byte range to remove from the input.
type Cut = (usize, usize);
/// A cut, or (empty range) an insertion of the end tag whose name is at the given range.
type Edit = (usize, usize, Option<(usize, usize)>);

pub(super) fn prepass(html: &str, strip: bool) -> Cow<'_, str> {
    let b = html.as_bytes();
    let mut t = Tracker::new(strip && !mentions_frameset(b));
    let mut cuts: Vec<Cut> = Vec::new();
    let mut strips: Vec<Cut> = Vec::new();
    // End tags to insert: where, and the element name's bytes (see `Start::Raw`).
    let mut closes: Vec<(usize, (usize, usize))> = Vec::new();
    let mut attrs: Vec<Attr> = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        let rest = &b[lt..];
        match rest.get(1) {
            Some(b'!') if rest.starts_with(b"<!--") => {
                let (text_end, end) = comment_extent(b, lt);
                if t.stripping && text_end > lt + 4 {
                    strips.push((lt + 4, text_end));
                }
                i = end;
            }
            // CDATA is read whenever the current node is not HTML (integration points too).
            Some(b'!') if rest.starts_with(b"<![CDATA[") && t.cdata() != Cdata::No => {
                if t.cdata() == Cdata::Unsure {
                    // Read on as a bogus comment, so defusing goes on, but cut nothing more:
                    // what follows may be text.
                    t.stripping = false;
                    i = bogus_end(b, lt + 1);
                } else {
                    i = memchr::memmem::find(&b[lt + 9..], b"]]>")
                        .map_or(b.len(), |e| lt + 9 + e + 3);
                }
            }
            Some(b'!' | b'?') => i = bogus_end(b, lt + 1),
            Some(b'/') if rest.get(2).is_some_and(u8::is_ascii_alphabetic) => {
                let name_len = tag_name_len(b, lt + 2);
                let key = name_key(&b[lt + 2..lt + 2 + name_len]);
                let Some(tag) = scan_guarded(b, lt + 2 + name_len, &mut attrs) else {
                    break;
                };
                if t.end_tag(key) {
                    cuts.push((lt, tag.end));
                }
                i = tag.end;
            }
            Some(b'/') => {
                // `</>` is dropped; `</` + anything else is a bogus comment.
                i = if rest.get(2) == Some(&b'>') {
                    lt + 3
                } else if rest.len() > 2 {
                    bogus_end(b, lt + 2)
                } else {
                    b.len()
                };
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name_len = tag_name_len(b, lt + 1);
                let name = &b[lt + 1..lt + 1 + name_len];
                let key = name_key(name);
                let Some(tag) = scan_guarded(b, lt + 1 + name_len, &mut attrs) else {
                    break;
                };
                i = tag.end;
                let start = t.start_tag(b, i, (key, class(&key)), tag.self_closing, &attrs);
                if start == Start::Drop {
                    cuts.push((lt, tag.end));
                    continue;
                }
                if t.stripping {
                    strip_attrs(b, &attrs, &mut strips);
                }
                match start {
                    Start::Drop | Start::Markup => {}
                    Start::Plaintext => break,
                    Start::Script { strip } => {
                        let end = script_end(b, i);
                        if strip && end > i {
                            strips.push((i, end));
                        }
                        match closing_raw(b, end, &mut t, &mut attrs) {
                            Some(after) => i = after,
                            None => break,
                        }
                    }
                    Start::Raw { strip, in_noscript } => {
                        let (end, unclosed) = raw_end(b, i, name, in_noscript);
                        if strip && end > i {
                            strips.push((i, end));
                        }
                        if unclosed {
                            closes.push((end, (lt + 1, lt + 1 + name_len)));
                            i = end;
                        } else {
                            match closing_raw(b, end, &mut t, &mut attrs) {
                                Some(after) => i = after,
                                None => break,
                            }
                        }
                    }
                    Start::Svg { end } => {
                        if end > i {
                            strips.push((i, end));
                        }
                        // Step over the end tag too: it closes this svg, nothing we track.
                        i = end;
                        if end < b.len() {
                            match scan_guarded(b, end + 2 + tag_name_len(b, end + 2), &mut attrs) {
                                Some(tag) => i = tag.end,
                                None => break,
                            }
                        }
                    }
                }
            }
            _ => i = lt + 1,
        }
        if i >= b.len() {
            break;
        }
    }
    cuts.append(&mut strips);
    if cuts.is_empty() && closes.is_empty() {
        return Cow::Borrowed(html);
    }
    // One sorted list of edits: a cut removes `start..end`; an insertion (empty range,
    // sorted before a cut at the same place) adds an end tag there.
    let mut edits: Vec<Edit> = cuts.into_iter().map(|(s, e)| (s, e, None)).collect();
    edits.extend(closes.into_iter().map(|(at, name)| (at, at, Some(name))));
    edits.sort_unstable();
    let mut out = String::with_capacity(html.len() + 16);
    let mut from = 0;
    for (start, end, close) in edits {
        // Cuts never overlap and fall on ASCII bytes; stay safe if that were ever wrong.
        if start < from || !html.is_char_boundary(start) || !html.is_char_boundary(end) {
            continue;
        }
        out.push_str(&html[from..start]);
        if let Some((n0, n1)) = close {
            if let Some(name) = html.get(n0..n1) {
                out.push_str("</");
                out.push_str(name);
                out.push('>');
            }
        }
        from = end;
    }
    out.push_str(&html[from..]);
    Cow::Owned(out)
}

/// Where the cut of an unread attribute starts: at its name, or, for one written right
/// after a `/` (`<a/x>`), at the first of the slashes before it. Why: cutting the name
/// alone would leave `<a/>`, self-closing (which matters in SVG/MathML); a `/` not followed
/// by `>` is no more than a space to the tokenizer, so `<a/x>` and `<a>` are one tag. The
/// attribute used to be kept instead, so that a page could carry any attribute into the
/// tree, one per repeated `<body/x>` (issue 45, F1); the lexer now leaves it out too.
fn slash_run(b: &[u8], a: &Attr) -> usize {
    let mut from = a.name.0;
    while from > 0 && b[from - 1] == b'/' {
        from -= 1;
    }
    from
}

/// Step over the end tag at `at` that closes a raw text section (`</script>`, `</title>`),
/// keeping it: it must not stand for the end tag of an earlier dropped start tag of the same
/// name ([`Tracker::end_raw`], as the lexer does). `Some(at)` at the end of the input (the
/// section was never closed); `None` if the input ends inside the tag.
fn closing_raw(b: &[u8], at: usize, t: &mut Tracker, attrs: &mut Vec<Attr>) -> Option<usize> {
    if at >= b.len() {
        return Some(at);
    }
    let name_len = tag_name_len(b, at + 2);
    let tag = scan_guarded(b, at + 2 + name_len, attrs)?;
    t.end_raw(name_key(&b[at + 2..at + 2 + name_len]));
    Some(tag.end)
}

/// Remove attributes no view reads (name, `=` and value; the whitespace before stays, and
/// so do the slashes before one that follows them: [`slash_run`]), and shorten long
/// `data:` URLs in those some view does (to `data:`, which every view treats the same as
/// the full URL).
fn strip_attrs(b: &[u8], attrs: &[Attr], cuts: &mut Vec<Cut>) {
    for a in attrs {
        if !attr_is_read(&b[a.name.0..a.name.1]) {
            cuts.push((slash_run(b, a), a.end));
            continue;
        }
        if let Some((s, e, true)) = a.value {
            if e - s >= LONG_ATTR && b[s..s + 5].eq_ignore_ascii_case(b"data:") {
                cuts.push((s + 5, e));
            }
        }
    }
}
