//! The visible text of a subtree on one line: for link text, table cells, captions.

use crate::tree::Node;
use crate::tree::NodeRef;

use crate::element_facts;
use crate::walk::{walk, Visitor};

/// Visible text under `node`, whitespace collapsed to single spaces, trimmed. Block
/// boundaries and `<br>` count as spaces.
pub fn inline_text(node: NodeRef<'_>) -> String {
    let mut v = Collect {
        out: String::new(),
        space: false,
    };
    walk(node, &mut v);
    v.out
}

struct Collect {
    out: String,
    space: bool,
}

impl Collect {
    fn push(&mut self, s: &str) {
        for (i, word) in s.split(element_facts::is_collapsible).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            if self.space && !self.out.is_empty() {
                self.out.push(' ');
            }
            self.space = false;
            self.out.push_str(word);
        }
    }
}

impl<'a> Visitor<'a> for Collect {
    fn open(&mut self, node: NodeRef<'a>) -> bool {
        match node.value() {
            Node::Text(t) => {
                self.push(t);
                false
            }
            Node::Element(el) => {
                if element_facts::is_dropped(el) {
                    return false;
                }
                if el.name() == "br"
                    || element_facts::flow(el.name()) != element_facts::Flow::Inline
                {
                    self.space = true;
                }
                true
            }
            Node::Document | Node::Fragment => true,
            _ => false,
        }
    }

    fn close(&mut self, node: NodeRef<'a>) {
        if let Some(el) = node.value().as_element() {
            if element_facts::flow(el.name()) != element_facts::Flow::Inline {
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
}
