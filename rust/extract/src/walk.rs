//! Iterative depth-first traversal over the parsed tree.
//!
//! No recursion and no stack: the walk follows the arena's parent/sibling links, so a page of
//! 100,000 nested elements costs no more native stack than a flat one.
//!
//! A walk also stops early once the call's [`crate::budget`] is spent (checked every
//! [`CHECK_EVERY`] nodes); the caller then discards what it built.

use crate::tree::NodeRef;

/// Receives the nodes of a walk in document order.
pub trait Visitor<'a> {
    /// Called when the walk reaches `node`; return `false` to skip its subtree (then
    /// [`Visitor::close`] is not called for it).
    fn open(&mut self, node: NodeRef<'a>) -> bool;
    /// Called after the subtree of an opened node has been walked.
    fn close(&mut self, node: NodeRef<'a>);
}

/// Nodes visited between two checks of the budget: a clock read per ~1,000 nodes is noise.
pub const CHECK_EVERY: u32 = 1024;

/// Walk the subtree rooted at `root` (inclusive).
pub fn walk<'a, V: Visitor<'a>>(root: NodeRef<'a>, visitor: &mut V) {
    let mut node = root;
    let mut until_check = CHECK_EVERY;
    loop {
        until_check -= 1;
        if until_check == 0 {
            until_check = CHECK_EVERY;
            if crate::budget::spent() {
                return;
            }
        }
        if visitor.open(node) {
            if let Some(child) = node.first_child() {
                node = child;
                continue;
            }
            visitor.close(node);
        }
        // Climb until a next sibling exists, closing every finished ancestor on the way.
        loop {
            if node == root {
                return;
            }
            if let Some(sibling) = node.next_sibling() {
                node = sibling;
                break;
            }
            match node.parent() {
                Some(parent) => {
                    node = parent;
                    visitor.close(node);
                }
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Names(Vec<String>);
    impl<'a> Visitor<'a> for Names {
        fn open(&mut self, node: NodeRef<'a>) -> bool {
            if let Some(el) = node.value().as_element() {
                self.0.push(format!("<{}>", el.name()));
                return el.name() != "skip";
            }
            true
        }
        fn close(&mut self, node: NodeRef<'a>) {
            if let Some(el) = node.value().as_element() {
                self.0.push(format!("</{}>", el.name()));
            }
        }
    }

    #[test]
    fn order_and_skip() {
        let doc = crate::parse("<a><b></b><skip><c></c></skip></a><d></d>");
        let mut v = Names(Vec::new());
        walk(doc.tree.root(), &mut v);
        let got = v.0.join("");
        assert_eq!(
            got,
            "<html><head></head><body><a><b></b><skip></a><d></d></body></html>"
        );
    }

    #[test]
    fn subtree_only() {
        let doc = crate::parse("<a><b></b></a><d></d>");
        let a = doc
            .tree
            .root()
            .descendants()
            .find(|n| n.value().as_element().is_some_and(|e| e.name() == "a"))
            .expect("a");
        let mut v = Names(Vec::new());
        walk(a, &mut v);
        assert_eq!(v.0.join(""), "<a><b></b></a>");
    }
}
