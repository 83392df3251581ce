//! The tree dump of the lexer's identity oracle: every node of a parsed document, one per
//! line, indented by depth, with everything a tokenizer difference could change (namespaces,
//! attributes in source order, text, comments, doctype, quirks mode). Shared by
//! `rust/html/tests/lexer_identity.rs` and the `lexer_diff` fuzz target (which includes
//! this file by path).

use std::fmt::Write;

use webgrip_html::Html;
use webgrip_html::{Edge, Node};

/// Every node of the tree, one per line, indented by depth (attributes in source order,
/// each with its namespace).
pub fn dump(doc: &Html) -> String {
    let mut out = format!("quirks {:?}\n", doc.quirks_mode);
    for edge in doc.tree.root().traverse() {
        let Edge::Open(node) = edge else {
            continue;
        };
        let depth = node.ancestors().count();
        let pad = "  ".repeat(depth);
        let _ = match node.value() {
            Node::Document => writeln!(out, "{pad}#document"),
            Node::Fragment => writeln!(out, "{pad}#fragment"),
            Node::Doctype => writeln!(out, "{pad}{:?}", doc.tree.doctype(node.id())),
            Node::Comment(c) => writeln!(out, "{pad}<!-- {c:?} -->"),
            Node::Text(t) => writeln!(out, "{pad}{t:?}"),
            Node::Element(e) => {
                let attrs: Vec<String> = e
                    .attrs_ns()
                    .map(|(name, ns, value)| format!("{ns:?}:{name}={value:?}"))
                    .collect();
                writeln!(out, "{pad}<{:?} {}> {:?}", e.ns(), e.name(), attrs)
            }
        };
        // A template's contents hang beside it, not under it.
        if let Some(contents) = doc.tree.template_contents(node.id()) {
            for inner in doc
                .tree
                .get(contents)
                .into_iter()
                .flat_map(|c| c.descendants())
            {
                let depth = depth + 1 + inner.ancestors().count();
                let _ = writeln!(out, "{}{:?}", "  ".repeat(depth), inner.value());
            }
        }
    }
    out
}
