//! HTML as a flat list of start tags, end tags and text, in one linear pass: the event
//! source of the small result-page tree in `webgrip.search._html`.
//!
//! Why here and not Python's `html.parser`: that parser re-reads an unclosed construct from
//! its start each time more input arrives or it looks for the construct's end, so 64 KiB of
//! `<a ` took 46 s and 1 MiB of `<!` 13 s, holding the GIL where no deadline reaches.
//! This pass reads the page with the guard's byte scanners ([`scan::script_end`],
//! [`scan::raw_end`], [`scan::comment_extent`], [`scan::tag_name_len`]) and the tag
//! scanner's streaming form ([`scan::scan_tag_with`]), which hands over each attribute as it
//! ends instead of collecting them all: every byte is looked at a bounded number of times and a tag
//! keeps at most [`MAX_ATTRS`] attributes (the first value of a repeated name, as the HTML
//! tokenizer keeps), so neither time nor memory grows with the attributes of one tag.
//! It does not run `webgrip_html::tokenize`: unguarded, that checks each attribute
//! against the tag's earlier ones (quadratic in a tag with 10⁵ distinct attributes), and
//! guarded it drops the attributes result pages are read by.
//!
//! The tokenizer states followed are the WHATWG ones a result page needs: tags and
//! attributes (quoted values may hold `>`), comments with their odd endings, bogus comments
//! and DOCTYPEs (dropped), script data with its escaped states and RAWTEXT (`<style>`,
//! `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`: content skipped for scripts and styles,
//! kept as undecoded text otherwise), RCDATA (`<title>`, `<textarea>`: text, character
//! references decoded), `<plaintext>` (the rest is text). A tag the input ends inside is
//! dropped, as browsers drop it. Character references are decoded in text and attribute
//! values with the HTML rules (named references from the WHATWG table in `entities`, the attribute-value
//! exception for `&amp=`, numeric references with the C1 replacements). No tree is built:
//! nesting, implied end tags and depth are the consumer's.

use memchr::memchr;

use webgrip_html::scan;

/// Attributes kept per start tag (the first ones, distinct names); the rest are read past.
pub const MAX_ATTRS: usize = 64;

/// One piece of markup or text, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A start tag: name (ASCII lower case), attributes (names lower case, values decoded;
    /// a name without a value has `""`), self-closing flag (`<br/>`).
    Start(String, Vec<(String, String)>, bool),
    /// An end tag: name (ASCII lower case).
    End(String),
    /// Text, references decoded; never empty. Consecutive text (across comments) is one
    /// event.
    Text(String),
}

/// The events of `html` (see the module docs). Linear in the length of the input.
pub fn events(html: &str) -> Vec<Event> {
    let mut p = Pass {
        src: html,
        b: html.as_bytes(),
        out: Vec::new(),
        text: String::new(),
    };
    p.run();
    p.flush();
    p.out
}

/// RAWTEXT elements whose content is kept as text (undecoded).
const RAW_TEXT_KEPT: &[&[u8]] = &[b"xmp", b"iframe", b"noembed", b"noframes"];

struct Pass<'a> {
    src: &'a str,
    b: &'a [u8],
    out: Vec<Event>,
    /// Text not yet emitted (one event per run of text between tags).
    text: String,
}

impl Pass<'_> {
    fn flush(&mut self) {
        if !self.text.is_empty() {
            self.out.push(Event::Text(std::mem::take(&mut self.text)));
        }
    }

    /// `src[from..to]`, or `""` if that is not on character boundaries (it always is: every
    /// range ends at ASCII bytes).
    fn s(&self, from: usize, to: usize) -> &str {
        self.src.get(from..to).unwrap_or("")
    }

    fn run(&mut self) {
        let b = self.b;
        let len = b.len();
        let mut pos = 0;
        while pos < len {
            let Some(off) = memchr(b'<', &b[pos..]) else {
                decode_into(self.src, pos, len, false, &mut self.text);
                return;
            };
            let lt = pos + off;
            decode_into(self.src, pos, lt, false, &mut self.text);
            pos = match b.get(lt + 1) {
                Some(c) if c.is_ascii_alphabetic() => match self.start_tag(lt) {
                    Some(next) => next,
                    None => return, // the input ends inside the tag: dropped
                },
                Some(b'/') => match b.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let name_end = lt + 2 + scan::tag_name_len(b, lt + 2);
                        let Some((end, _)) = scan_attrs(b, name_end, |_, _| {}) else {
                            return;
                        };
                        self.flush();
                        let name = self.s(lt + 2, name_end).to_ascii_lowercase();
                        self.out.push(Event::End(name));
                        end
                    }
                    Some(b'>') => lt + 3,
                    Some(_) => bogus_end(b, lt + 2),
                    None => {
                        self.text.push_str("</");
                        return;
                    }
                },
                Some(b'!') if b[lt + 2..].starts_with(b"--") => scan::comment_extent(b, lt).1,
                Some(b'!' | b'?') => bogus_end(b, lt + 2),
                _ => {
                    self.text.push('<');
                    lt + 1
                }
            };
        }
    }

    /// The start tag whose `<` is at `lt`: emit it (and the text of a raw text element);
    /// return where reading goes on, `None` when the input ends inside the tag.
    fn start_tag(&mut self, lt: usize) -> Option<usize> {
        let b = self.b;
        let src = self.src;
        let name_end = lt + 1 + scan::tag_name_len(b, lt + 1);
        let name = self.s(lt + 1, name_end).to_ascii_lowercase();
        let mut attrs: Vec<(String, String)> = Vec::new();
        let (end, self_closing) = scan_attrs(b, name_end, |n, v| {
            if attrs.len() >= MAX_ATTRS {
                return;
            }
            let Some(raw) = src.get(n.0..n.1) else { return };
            let key = raw.to_ascii_lowercase();
            if attrs.iter().any(|(k, _)| *k == key) {
                return;
            }
            let mut value = String::new();
            if let Some((s, e)) = v {
                decode_into(src, s, e, true, &mut value);
            }
            attrs.push((key, value));
        })?;
        self.flush();
        let raw: &[u8] = name.as_bytes();
        let next = if raw == b"script" {
            scan::script_end(b, end)
        } else if raw == b"style" {
            scan::raw_end(b, end, raw, false).0
        } else if RAW_TEXT_KEPT.contains(&raw) {
            let stop = scan::raw_end(b, end, raw, false).0;
            self.text.push_str(src.get(end..stop).unwrap_or(""));
            stop
        } else if raw == b"title" || raw == b"textarea" {
            let stop = scan::raw_end(b, end, raw, false).0;
            decode_into(src, end, stop, false, &mut self.text);
            stop
        } else if raw == b"plaintext" {
            self.text.push_str(src.get(end..).unwrap_or(""));
            b.len()
        } else {
            end
        };
        // The start tag goes before the text its raw content made.
        let text = std::mem::take(&mut self.text);
        self.out.push(Event::Start(name, attrs, self_closing));
        self.text = text;
        Some(next)
    }
}

/// A byte range of the input.
type Range = (usize, usize);

/// A bogus comment (`<!x`, `<?x`, `</0`) or DOCTYPE whose text starts at `from`: where it
/// ends (after the next `>`, or at the end of input).
fn bogus_end(b: &[u8], from: usize) -> usize {
    let from = from.min(b.len());
    memchr(b'>', &b[from..]).map_or(b.len(), |e| from + e + 1)
}

/// Read a tag's attributes from just after its name ([`scan::scan_tag_with`]), calling
/// `on_attr(name range, value range)` as each attribute ends (so nothing is kept per
/// attribute). Where the tag ends (after `>`) and whether it is self-closing; `None` if the
/// input ends inside the tag.
fn scan_attrs(
    b: &[u8],
    i: usize,
    mut on_attr: impl FnMut(Range, Option<Range>),
) -> Option<(usize, bool)> {
    let tag = scan::scan_tag_with(b, i, |a| {
        on_attr(a.name, a.value.map(|(from, to, _)| (from, to)))
    })?;
    Some((tag.end, tag.self_closing))
}

/// Append `src[from..to]` to `out` with character references decoded (`in_attr`: the
/// attribute-value rules). Linear: a named reference is looked up one character at a time
/// and only while some entity name starts that way (at most 32 characters).
fn decode_into(src: &str, from: usize, to: usize, in_attr: bool, out: &mut String) {
    let b = &src.as_bytes()[..to];
    let mut seg = from;
    let mut pos = from;
    while let Some(off) = memchr(b'&', &b[pos..]) {
        let at = pos + off;
        match scan::char_ref(src, b, at, in_attr) {
            Some((r, next)) => {
                out.push_str(&src[seg..at]);
                out.extend(&r.chars[..r.len]);
                seg = next;
                pos = next;
            }
            None => pos = at + 1,
        }
    }
    out.push_str(&src[seg..to]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn start(name: &str, attrs: &[(&str, &str)], sc: bool) -> Event {
        Event::Start(
            name.into(),
            attrs
                .iter()
                .map(|(k, v)| ((*k).into(), (*v).into()))
                .collect(),
            sc,
        )
    }

    #[test]
    fn tags_text_and_references() {
        let got = events(
            "<!doctype html><DIV Class=\"a &amp; b\" id=x data-q='&amp=1' hidden>T&lt;&amp;<!-- c --> \
             &#x41;&eacute;<br/></div><script>if (a<b) x()</script><p>&notit;",
        );
        assert_eq!(
            got,
            vec![
                start(
                    "div",
                    &[
                        ("class", "a & b"),
                        ("id", "x"),
                        ("data-q", "&amp=1"),
                        ("hidden", "")
                    ],
                    false
                ),
                Event::Text("T<& Aé".into()),
                start("br", &[], true),
                Event::End("div".into()),
                start("script", &[], false),
                Event::End("script".into()),
                start("p", &[], false),
                Event::Text("¬it;".into()),
            ]
        );
    }

    #[test]
    fn raw_text_and_odd_markup() {
        assert_eq!(
            events("<title>a &amp; <b></title>x < y</ z><?pi>"),
            vec![
                start("title", &[], false),
                Event::Text("a & <b>".into()),
                Event::End("title".into()),
                Event::Text("x < y".into()),
            ]
        );
        // An unended tag is dropped; the first value of a repeated name is kept.
        assert_eq!(
            events("<a href=1 HREF=2>t</a><a href='x"),
            vec![
                start("a", &[("href", "1")], false),
                Event::Text("t".into()),
                Event::End("a".into()),
            ]
        );
    }

    #[test]
    fn attributes_are_capped() {
        let mut html = String::from("<div");
        for i in 0..100_000 {
            html.push_str(&format!(" a{i}"));
        }
        html.push_str(" id=last>x");
        let got = events(&html);
        let Event::Start(_, attrs, _) = &got[0] else {
            panic!("{got:?}")
        };
        assert_eq!(attrs.len(), MAX_ATTRS);
        assert_eq!(attrs[0].0, "a0");
    }

    #[test]
    fn hostile_prefixes_are_linear() {
        let mut worst = Duration::ZERO;
        for prefix in [
            "<a ",
            "<a href='",
            "<!--",
            "<!",
            "<div ",
            "<script ",
            "&",
            "&#1",
            "</a ",
        ] {
            for close in ["", ">"] {
                let unit = format!("{prefix}{close}");
                let html = unit.repeat((1 << 20) / unit.len());
                let start = Instant::now();
                let _ = events(&html);
                worst = worst.max(start.elapsed());
            }
        }
        assert!(worst < Duration::from_secs(5), "worst case {worst:?}");
    }
}
