//! What the pre-pass needs to know about an element from its name alone.

use crate::tree_builder::tag_sets::TagClass;

pub(crate) type Name = [u8; 16];

pub(crate) fn name_key(name: &[u8]) -> Name {
    let mut k = [0u8; 16];
    for (d, s) in k.iter_mut().zip(name) {
        // A NUL in a name is U+FFFD to the parser; here it must not end the key early
        // (`script\0x` is not a script).
        *d = if *s == 0 {
            0xff
        } else {
            s.to_ascii_lowercase()
        };
    }
    k
}

/// [`name_key`] of the name `b[from..to]`, already read: `fold` says whether it holds an
/// ASCII capital or a NUL (the lexer's `tag_name_end` finds out on its way). Without either
/// the key is the bytes as written: the 16 bytes from `from` read as one word and those past
/// the name masked off, instead of lowercased a byte at a time (or copied by a call for
/// their variable length).
#[inline]
pub(crate) fn name_key_read(b: &[u8], from: usize, to: usize, fold: bool) -> Name {
    let Some(window) = b.get(from..from + 16).filter(|_| !fold) else {
        return name_key(&b[from..to]);
    };
    let mut k = [0u8; 16];
    k.copy_from_slice(window);
    let mask = KEEP_FIRST[(to - from).min(16)];
    (u128::from_le_bytes(k) & mask).to_le_bytes()
}

/// `KEEP_FIRST[n]`: the mask of the first `n` bytes of a little-endian 16-byte word (a table:
/// a shift by a variable amount of a `u128` is a branchy sequence of two-word shifts).
const KEEP_FIRST: [u128; 17] = {
    let mut masks = [u128::MAX; 17];
    let mut n = 0;
    while n < 16 {
        masks[n] = (1u128 << (8 * n)) - 1;
        n += 1;
    }
    masks
};

pub(super) fn is(name: &Name, s: &str) -> bool {
    let b = s.as_bytes();
    b.len() <= 16 && name[..b.len()] == *b && name.get(b.len()).is_none_or(|&c| c == 0)
}

pub(super) fn is_any(n: &Name, names: &[&str]) -> bool {
    names.iter().any(|v| is(n, v))
}

/// What the scanner needs to know about an element name, in one match: `tag_sets.rs`'s table,
/// which its tree builder's caps read too (one home for both sides of the parse).
pub(super) fn class(n: &Name) -> TagClass {
    let len = n.iter().position(|&c| c == 0).unwrap_or(n.len());
    TagClass::of(&n[..len])
}

/// How the tokenizer reads the content of an HTML element (scripting disabled, so
/// `<noscript>` is ordinary markup).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Content {
    Markup,
    /// RCDATA or RAWTEXT: text up to the matching end tag.
    Raw,
    Script,
    Plaintext,
}

/// How the content of an element of class `c` ([`class`]) is read.
pub(super) fn content_of(c: TagClass) -> Content {
    if c.is_script() {
        Content::Script
    } else if c.is_rawtext() {
        Content::Raw
    } else if c.is_plaintext() {
        Content::Plaintext
    } else {
        Content::Markup
    }
}

/// Start tags that leave SVG/MathML content for HTML (`font` only with color/face/size).
pub(super) fn breaks_out(n: &Name) -> bool {
    class(n).breaks_out()
}

/// Attributes some view reads (`element_facts`, `emit`, `links`, `metadata`, `readable`,
/// `urls`), or that change how the tree builder builds the tree. All others are removed before
/// parsing, so a view that starts reading a new attribute must add it here (the
/// `prepass_identity` test catches a forgotten one on the corpus).
pub(crate) fn attr_is_read(name: &[u8]) -> bool {
    read_attr_key(name).is_some()
}

/// [`attr_is_read`], with the name lowercased and zero-padded to 16 bytes (the key
/// [`crate::tree_builder::tag_ids::known_key`] reads) when it is read.
#[inline]
pub(crate) fn read_attr_key(name: &[u8]) -> Option<Name> {
    // Lowercased into a stack buffer and matched whole: one length switch and a compare,
    // where a scan of the list with `eq_ignore_ascii_case` cost 3% of parsing (one call per
    // entry for every attribute of a page).
    let mut lower = [0u8; 16];
    let buf = lower.get_mut(..name.len())?;
    for (to, from) in buf.iter_mut().zip(name) {
        *to = from.to_ascii_lowercase();
    }
    let read = matches!(
        &*buf,
        b"href"
            | b"src"
            | b"data-src"
            | b"alt"
            | b"title"
            | b"class"
            | b"id"
            | b"style"
            | b"rel"
            | b"type"
            | b"lang"
            | b"content"
            | b"name"
            | b"property"
            | b"itemprop"
            | b"itemtype"
            | b"datetime"
            | b"colspan"
            | b"rowspan"
            | b"hidden"
            | b"aria-hidden"
            | b"aria-controls"
            | b"popover"
            | b"http-equiv"
            | b"reversed"
            | b"start"
            | b"value"
            | b"role"
            | b"charset"
            | b"encoding"
            | b"color"
            | b"face"
            | b"size"
            // Frames: their inline document and their size (a 1x1 frame is a tracker).
            | b"srcdoc"
            | b"width"
            | b"height"
            // Changes how the tree builder builds a template.
            | b"shadowrootmode"
    );
    read.then_some(lower)
}

#[cfg(test)]
mod tests {
    use super::{attr_is_read, name_key, name_key_read};

    #[test]
    fn a_key_read_in_words_is_the_key() {
        let page = b"<div class=x><Span><a-very-long-custom-element-name><p>x\0y<br>";
        for from in 0..page.len() {
            for to in from..page.len().min(from + 24) {
                let name = &page[from..to];
                let fold = name.iter().any(|&c| c.is_ascii_uppercase() || c == 0);
                assert_eq!(name_key_read(page, from, to, fold), name_key(name));
            }
        }
    }

    #[test]
    fn read_attributes_match_in_any_case_and_nothing_else_does() {
        for name in [
            "href",
            "HREF",
            "Data-Src",
            "aria-hidden",
            "shadowRootMode",
            "ID",
        ] {
            assert!(attr_is_read(name.as_bytes()), "{name}");
        }
        for name in [
            "",
            "hre",
            "hrefs",
            "onclick",
            "data-srcset",
            "shadowrootmodes",
            "a-name-longer-than-the-buffer",
            "\u{130}d",
        ] {
            assert!(!attr_is_read(name.as_bytes()), "{name}");
        }
    }
}
