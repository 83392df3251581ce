//! The model of open elements the pre-pass and the lexer share: which tags to drop, and
//! whether stripping is still safe.

use std::collections::HashMap;

use memchr::memchr;

use super::names::{content_of, is, is_any, Content, Name};
use super::scan::{is_space, Attr};
use super::svg::svg_extent;
use super::{MAX_ATTRS, MAX_DEPTH};
use crate::tree_builder::tag_sets::TagClass;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

/// An open element as the scanner tracks it.
#[derive(Clone, Copy)]
struct Open {
    name: Name,
    /// The element's namespace.
    ns: Ns,
    /// Whether the tree builder reads this element's content as SVG/MathML (foreign elements other
    /// than integration points).
    foreign: bool,
}

/// What to do with a start tag (see [`Tracker::start_tag`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Start {
    /// Remove the tag: over the depth or attribute cap.
    Drop,
    /// Keep it; markup follows.
    Markup,
    /// Keep it; script data follows, to be emptied if `strip`.
    Script { strip: bool },
    /// Keep it; RCDATA/RAWTEXT follows, to be emptied if `strip` (`<style>`).
    ///
    /// `in_noscript`: the element opens inside a `<noscript>`, and its text then ends at
    /// `</noscript>` too, where its own end tag is supplied. Why: we parse with scripting
    /// off (so noscript fallbacks are readable), and pages write tag-manager snippets as
    /// `<noscript><iframe ... /></noscript>`. The `/>` does not close an iframe, so its
    /// raw text would swallow the rest of the page, up to a `</iframe>` that never comes.
    /// A browser (scripting on) reads the whole noscript as text and shows the page;
    /// ending the raw text where the noscript ends does the same.
    Raw { strip: bool, in_noscript: bool },
    /// Keep it; the rest of the input is text.
    Plaintext,
    /// Keep it; its SVG content up to `end` (where its end tag starts) can go, and that end
    /// tag is not tracked.
    Svg { end: usize },
}

/// See [`Tracker::cdata`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cdata {
    Yes,
    No,
    Unsure,
}

/// The open-element model both the pre-pass and the lexer keep: which tags to drop so
/// the tree builder's stack scans stay bounded, and whether stripping is still safe.
pub(crate) struct Tracker {
    stack: Vec<Open>,
    /// End tags to drop, by name, for start tags dropped earlier.
    dropped: HashMap<Name, usize>,
    /// Cleared when the scanner can no longer be sure it is where the tree builder is (an end tag
    /// reaching into or out of SVG/MathML in a way it does not model): no more stripping.
    pub stripping: bool,
    scratch: Vec<Attr>,
}

impl Tracker {
    pub(crate) fn new(strip: bool) -> Self {
        Tracker {
            stack: Vec::new(),
            dropped: HashMap::new(),
            stripping: strip,
            scratch: Vec::new(),
        }
    }

    /// Whether a `<![CDATA[` here opens a CDATA section (read when the current node is not
    /// HTML). Inside an SVG/MathML integration point the answer is unsure: the current node
    /// may be an HTML element the model does not keep (`<p>`, `<li>`, ... close themselves).
    pub(crate) fn cdata(&self) -> Cdata {
        match self.stack.last() {
            Some(o) if o.foreign => Cdata::Yes,
            Some(o) if o.ns != Ns::Html => Cdata::Unsure,
            _ => Cdata::No,
        }
    }

    /// An end tag named `key`; `true` to drop it.
    pub(crate) fn end_tag(&mut self, key: Name) -> bool {
        let foreign = self.stack.last().is_some_and(|o| o.foreign);
        if foreign && (is(&key, "br") || is(&key, "p")) {
            // `</br>` and `</p>` leave foreign content like breakout start tags.
            while self.stack.last().is_some_and(|o| o.foreign) {
                self.stack.pop();
            }
        }
        if let Some(n) = self.dropped.get_mut(&key) {
            if *n > 0 {
                *n -= 1;
                return true;
            }
        }
        self.close(key, foreign);
        false
    }

    /// The end tag that closes a raw text section (`</title>` after a title's text): always
    /// kept. The tree builder reads nothing but text and end tags until it comes, so it
    /// must not stand for the end tag of an earlier dropped start tag of the same name.
    pub(crate) fn end_raw(&mut self, key: Name) {
        let foreign = self.stack.last().is_some_and(|o| o.foreign);
        self.close(key, foreign);
    }

    /// An end tag the tree builder sees: the open elements it closes (`foreign`: whether the
    /// current node was foreign when the tag came).
    fn close(&mut self, key: Name, foreign: bool) {
        let at = self.stack.iter().rposition(|k| k.name == key);
        let exact = at.is_some_and(|at| at + 1 == self.stack.len() && self.stack[at].foreign);
        let crosses = match at {
            Some(at) => self.stack[at..].iter().any(|o| o.ns != Ns::Html),
            None => foreign,
        };
        if crosses && !exact {
            self.stripping = false;
        }
        if let Some(at) = at {
            self.stack.truncate(at);
        }
    }

    fn drop_tag(&mut self, key: Name) -> Start {
        *self.dropped.entry(key).or_insert(0) += 1;
        Start::Drop
    }

    /// Drop a start tag because the tree builder is crowded (see [`crate::tokenizer::MAX_OPEN`]);
    /// its end tag goes too, unless it closes itself (`<x/>` has none to wait for).
    pub(crate) fn drop_crowded(&mut self, key: Name, self_closing: bool) -> Start {
        if self_closing {
            return Start::Drop;
        }
        self.drop_tag(key)
    }

    /// A start tag named `key`, of class `class` (its name's [`TagClass`], which the lexer
    /// has from the name's id), with `attrs`, whose content starts at `i`.
    pub(crate) fn start_tag(
        &mut self,
        b: &[u8],
        i: usize,
        (key, class): (Name, TagClass),
        self_closing: bool,
        attrs: &[Attr],
    ) -> Start {
        if attrs.len() > MAX_ATTRS {
            if class.is_void() {
                return Start::Drop;
            }
            return self.drop_tag(key);
        }
        let mut foreign = self.stack.last().is_some_and(|o| o.foreign);
        if foreign
            && (class.breaks_out()
                || (is(&key, "font") && attrs.iter().any(|a| font_breakout(b, a))))
        {
            // Back to HTML: the tree builder pops the foreign elements.
            while self.stack.last().is_some_and(|o| o.foreign) {
                self.stack.pop();
            }
            foreign = false;
        }
        // In a MathML text integration point, `mglyph`/`malignmark` stay MathML. (The
        // stack first: the names are compared only inside MathML, not for every tag.)
        if !foreign
            && self.stack.last().is_some_and(|o| o.ns == Ns::Math)
            && is_any(&key, &["mglyph", "malignmark"])
        {
            foreign = true;
        }
        if foreign {
            if self_closing {
                return Start::Markup;
            }
            let ns = self.stack.last().map_or(Ns::Html, |o| o.ns);
            let inner = !integration_point(&key, ns, b, attrs);
            if self.stack.len() >= MAX_DEPTH {
                return self.drop_tag(key);
            }
            self.stack.push(Open {
                name: key,
                ns,
                foreign: inner,
            });
            return Start::Markup;
        }
        if class.is_void() || class.closes_itself() {
            return Start::Markup;
        }
        match content_of(class) {
            Content::Plaintext => return Start::Plaintext,
            Content::Script => {
                return Start::Script {
                    strip: self.stripping && !is_json_ld(b, attrs),
                }
            }
            Content::Raw => {
                return Start::Raw {
                    strip: self.stripping && is(&key, "style"),
                    in_noscript: self
                        .stack
                        .iter()
                        .any(|o| o.ns == Ns::Html && is(&o.name, "noscript")),
                }
            }
            Content::Markup => {}
        }
        if self.stack.len() >= MAX_DEPTH {
            return self.drop_tag(key);
        }
        let svg = is(&key, "svg");
        if svg && self.stripping && !self_closing {
            if let Some(end) = svg_extent(b, i, &mut self.scratch) {
                return Start::Svg { end };
            }
        }
        let math = is(&key, "math");
        if (svg || math) && self_closing {
            return Start::Markup;
        }
        self.stack.push(Open {
            name: key,
            ns: if svg {
                Ns::Svg
            } else if math {
                Ns::Math
            } else {
                Ns::Html
            },
            foreign: svg || math,
        });
        Start::Markup
    }
}

/// Whether `b` may hold a `<frameset>` start tag (anywhere, even inside a comment or an
/// attribute value: a conservative test made before reading). Such a document is not
/// stripped at all: a frameset replaces the body only if no text came before it (text in an
/// SVG counts), and in frameset mode `<script>`/`<style>` are ignored, so their "content" is
/// markup.
pub(crate) fn mentions_frameset(b: &[u8]) -> bool {
    let at = |i: usize| {
        b.get(i + 2..i + 9)
            .is_some_and(|n| n.eq_ignore_ascii_case(b"rameset"))
            && b.get(i + 9)
                .is_none_or(|&c| is_space(c) || c == b'/' || c == b'>')
    };
    // Two-byte needles: SIMD scans that rarely stop, where visiting every `<` did.
    memchr::memmem::find_iter(b, b"<f").any(at) || memchr::memmem::find_iter(b, b"<F").any(at)
}

/// Foreign elements whose content is HTML again (SVG and MathML integration points).
fn integration_point(n: &Name, ns: Ns, b: &[u8], attrs: &[Attr]) -> bool {
    match ns {
        Ns::Svg => is_any(n, &["foreignobject", "desc", "title"]),
        Ns::Math => {
            is_any(n, &["mi", "mo", "mn", "ms", "mtext"])
                || (is(n, "annotation-xml")
                    && attrs.iter().any(|a| {
                        b[a.name.0..a.name.1].eq_ignore_ascii_case(b"encoding")
                            && a.value.is_some_and(|(s, e, _)| {
                                let v = &b[s..e];
                                v.eq_ignore_ascii_case(b"text/html")
                                    || v.eq_ignore_ascii_case(b"application/xhtml+xml")
                            })
                    }))
        }
        Ns::Html => false,
    }
}

/// `<font color|face|size>` leaves foreign content.
fn font_breakout(b: &[u8], a: &Attr) -> bool {
    let name = &b[a.name.0..a.name.1];
    [&b"color"[..], b"face", b"size"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
}

/// `type="application/ld+json"` on a script (the first `type` attribute, as the tokenizer keeps).
/// A value with character references is treated as JSON-LD, to be safe.
fn is_json_ld(b: &[u8], attrs: &[Attr]) -> bool {
    let Some(a) = attrs
        .iter()
        .find(|a| b[a.name.0..a.name.1].eq_ignore_ascii_case(b"type"))
    else {
        return false;
    };
    let Some((s, e, _)) = a.value else {
        return false;
    };
    let v = &b[s..e];
    let trimmed = v.trim_ascii();
    trimmed.eq_ignore_ascii_case(b"application/ld+json") || memchr(b'&', v).is_some()
}
