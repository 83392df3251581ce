//! The visible text of a subtree on one line: for link text, table cells, captions.

use crate::tree::NodeRef;
use crate::tree::{tag, Node};

use crate::element_facts::{self, FactsByName, Flow, Role};
use crate::walk::{walk, Visitor};

/// Visible text under `node`, whitespace collapsed to single spaces, trimmed. Block
/// boundaries and `<br>` count as spaces.
pub fn inline_text(node: NodeRef<'_>) -> String {
    let mut out = String::new();
    inline_text_into(node, &mut out);
    out
}

/// [`inline_text`] into `out` (cleared first): a caller collecting many short texts (a
/// table's cells) reuses one buffer and copies each text out at its exact size, rather
/// than growing a new string through every small capacity per cell.
pub fn inline_text_into(node: NodeRef<'_>, out: &mut String) {
    inline_text_with(node, out, &mut FactsByName::default());
}

/// [`inline_text_into`] with the element facts of the caller's walk (`facts`), so a caller
/// collecting many texts (a table's cells) looks each element name up once, not per text.
pub fn inline_text_with(node: NodeRef<'_>, out: &mut String, facts: &mut FactsByName) {
    out.clear();
    inline_text_append(node, out, facts);
}

/// [`inline_text_with`] appended to what `out` holds (which the text neither joins nor
/// trims against): a caller collecting many texts keeps them all in one buffer. Returns
/// whether the walk met a `<table>` (the tables view need not look for one there again).
pub fn inline_text_append(node: NodeRef<'_>, out: &mut String, facts: &mut FactsByName) -> bool {
    let mut v = Collect {
        start: out.len(),
        out: std::mem::take(out),
        space: false,
        table: false,
        facts,
    };
    walk(node, &mut v);
    *out = v.out;
    v.table
}

struct Collect<'f> {
    /// Where this text starts in `out`.
    start: usize,
    out: String,
    space: bool,
    /// Whether a (visible) `<table>` was walked.
    table: bool,
    facts: &'f mut FactsByName,
}

impl Collect<'_> {
    /// `s` split at collapsible whitespace (ASCII whitespace as HTML collapses it, plus
    /// no-break space, shown as a plain space), words joined by one space.
    /// A byte scan: every separator is an ASCII byte or no-break space's two bytes
    /// (`C2 A0`, a lead byte then a continuation byte, so the pair is never inside another
    /// character), and every cut falls on a character boundary; a split on a `char`
    /// predicate decoded every character of every cell.
    fn push(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let (mut i, mut start) = (0, 0);
        while i < bytes.len() {
            let separator = match bytes[i] {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => 1,
                0xC2 if bytes.get(i + 1) == Some(&0xA0) => 2,
                _ => 0,
            };
            if separator == 0 {
                i += 1;
                continue;
            }
            self.word(&s[start..i]);
            self.space = true;
            i += separator;
            start = i;
        }
        self.word(&s[start..]);
    }

    fn word(&mut self, word: &str) {
        if word.is_empty() {
            return;
        }
        if self.space && self.out.len() > self.start {
            self.out.push(' ');
        }
        self.space = false;
        self.out.push_str(word);
    }
}

impl<'a> Visitor<'a> for Collect<'_> {
    fn open(&mut self, node: NodeRef<'a>) -> bool {
        match node.value() {
            Node::Text(t) => {
                self.push(t);
                false
            }
            Node::Element(el) => {
                let facts = self.facts.get(el);
                if facts.invisible || (el.has_attrs() && element_facts::is_hidden(el)) {
                    return false;
                }
                if facts.role == Role::Br || facts.flow != Flow::Inline {
                    self.space = true;
                    self.table |= el.name_id() == tag::TABLE;
                }
                true
            }
            Node::Document | Node::Fragment => true,
            _ => false,
        }
    }

    fn close(&mut self, node: NodeRef<'a>) {
        if let Some(el) = node.element() {
            if self.facts.get(el).flow != Flow::Inline {
                self.space = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_and_skips() {
        let doc = crate::parse(
            "<div> a\n\t<b>b</b><script>x</script><p>c</p>d<br>e&nbsp;&amp; <span hidden>h</span></div>",
        );
        assert_eq!(inline_text(doc.tree.root()), "a b c d e &");
    }

    #[test]
    fn byte_split_matches_the_char_split() {
        // The words and spaces of a split on a `char` predicate, as `push` made them before.
        fn by_chars(s: &str) -> String {
            let collapsible = |c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c' | '\u{a0}');
            let mut out = String::new();
            let mut space = false;
            for (i, word) in s.split(collapsible).enumerate() {
                space |= i > 0;
                if word.is_empty() {
                    continue;
                }
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push_str(word);
            }
            out
        }
        for s in [
            "",
            " ",
            "a",
            " a\u{a0}\u{a0}b\t\r\n\x0cc ",
            "\u{a0}",
            "caf\u{e9} \u{c2a0}\u{2003}x",
            "\u{e0}\u{a0}",
            "x\u{a0}",
        ] {
            let mut facts = FactsByName::default();
            let mut c = Collect {
                start: 0,
                out: String::new(),
                space: false,
                table: false,
                facts: &mut facts,
            };
            c.push(s);
            assert_eq!(c.out, by_chars(s), "{s:?}");
        }
    }
}
