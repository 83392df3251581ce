//! The own tree builder's identity oracle (issue 30): the same input through the shipped
//! parse (`parse_prepared`: the byte lexer feeding html5ever's tree builder, unguarded) and
//! through the lexer feeding `webgrip_dom::TreeBuilder`, each dumped in html5lib-tests'
//! `#document` format with the quirks mode on a first line.
//!
//! Shared by `rust/extract/tests/own_builder_identity.rs` and the `tree_diff` fuzz target
//! (`fuzz/fuzz_targets/tree_diff.rs` includes this file by path), so it uses only what both
//! crates have: scraper, ego-tree, webgrip-extract and webgrip-dom.

use ego_tree::iter::Edge;
use scraper::{Html, Node};
use webgrip_dom::{html5lib_dump, Limits, TreeBuilder};
use webgrip_extract::lexer::{self, Pressure};
use webgrip_extract::{parse_prepared, Budget};

/// Whether `html` may reach a construct html5ever 0.40's tree builder gets wrong, where
/// the own builder follows the standard and html5lib-tests, so that the trees legitimately
/// differ: the construct, or `None`. Checked on the text, ASCII case-insensitively, and broad
/// on purpose (what it lets through must build the same tree):
/// - `selectedcontent`: html5ever does not clone the selected `<option>` into it;
/// - `annotation-xml`: html5ever misses `<annotation-xml encoding="text/html">` as an
///   HTML integration point;
/// - `<select`: html5ever's select parsing (`<input>` and kin in a select);
/// - a `<!doctype` after a `<table` or `<template` (the only ways into table text):
///   html5ever drops a DOCTYPE token outside the initial mode before any insertion mode
///   sees it, so in table text it does not flush the pending characters (§13.2.6.4.11,
///   "anything else"), and text after it joins them;
/// - a start tag of SVG `foreignObject`, `desc`, `title` or MathML `mi`, `mo`, `mn`, `ms`,
///   `mtext` after an `<svg` or `<math`: html5ever's special category holds HTML elements
///   only, so an in-body end tag (or `<li>`, `<dd>`, `<dt>`) closes through these, where the
///   standard stops at them;
/// - a table part (`<td`, `<th`, `<tr`, `<tbody`, `<thead`, `<tfoot`, `<caption`, `<col`)
///   after a `<template`: in the table modes html5ever sends characters to table text only
///   under a `table`, `tbody`, `tfoot`, `thead` or `tr` (the standard: or `template`), so
///   with the template as the current node it reconstructs formatting elements first;
/// - a `<search` or `<isindex` start tag: html5ever's special category lacks `search` and
///   still holds the obsolete `isindex` (the adoption agency's furthest block, and the walks
///   above, differ).
pub fn html5ever_known_wrong(html: &str) -> Option<&'static str> {
    let lower = html.to_ascii_lowercase();
    for (word, why) in [
        ("selectedcontent", "<selectedcontent> cloning"),
        ("annotation-xml", "<annotation-xml> integration point"),
        ("<select", "select parsing"),
    ] {
        if lower.contains(word) {
            return Some(why);
        }
    }
    let after = |starts: &[&str], then: &[&str]| {
        starts
            .iter()
            .filter_map(|w| lower.find(w))
            .min()
            .is_some_and(|at| then.iter().any(|w| lower[at..].contains(w)))
    };
    if after(&["<table", "<template"], &["<!doctype"]) {
        return Some("a DOCTYPE token in table text");
    }
    let special_foreign = [
        "<foreignobject",
        "<desc",
        "<title",
        "<mi",
        "<mo",
        "<mn",
        "<ms",
        "<mtext",
    ];
    if after(&["<svg", "<math"], &special_foreign) {
        return Some("a foreign element of the special category");
    }
    let table_in_template = [
        "<td", "<th", "<tr", "<tbody", "<thead", "<tfoot", "<caption", "<col",
    ];
    if after(&["<template"], &table_in_template) {
        return Some("characters in a table mode with a <template> as the current node");
    }
    if lower.contains("<search") || lower.contains("<isindex") {
        return Some("<search> or <isindex> in the special category");
    }
    None
}

/// The lexer's node cap as `document::build` sets it for `parse_prepared` (4 input bytes a
/// node plus 65,536): past it the shipped parse reads the rest of the page flat on purpose,
/// while the own builder (fed without a cap) builds it all.
pub fn node_cap(input_len: usize) -> usize {
    input_len / 4 + (1 << 16)
}

/// The shipped parse's tree, or `None` when the comparison does not apply: the input is
/// past `lexer::MAX_INPUT` (`parse_prepared` then uses html5ever's tokenizer) or the tree
/// reached the node cap.
pub fn shipped(html: &str) -> Option<String> {
    if html.len() > lexer::MAX_INPUT {
        return None;
    }
    let doc = parse_prepared(html);
    if doc.tree.nodes().len() >= node_cap(html.len()) {
        return None;
    }
    Some(scraper_dump(&doc))
}

/// The own builder behind the lexer, as `examples/html5lib_conformance.rs` wires it:
/// unguarded, unlimited budget, no pressure reported, no node cap, and the builder's own
/// caps off ([`Limits::unlimited`]), so that it builds what html5ever's builder builds from
/// the same tokens however deep the page. `html` must be at most `lexer::MAX_INPUT` bytes.
pub fn own(html: &str) -> String {
    own_with(html, Limits::unlimited())
}

/// [`own`] with the builder's caps `limits` (`Limits::for_input(html.len())`: the shipped
/// parse's).
pub fn own_with(html: &str, limits: Limits) -> String {
    let builder = TreeBuilder::with_limits(limits);
    let probe = || Pressure { open: 0, nodes: 0 };
    lexer::tokenize(
        html,
        &builder,
        false,
        &Budget::unlimited(),
        &probe,
        usize::MAX,
    );
    let quirks = builder.quirks_mode();
    let root = builder.root();
    let tree = html5lib_dump(&builder.into_dom(), root);
    if tree.is_empty() {
        format!("quirks {quirks:?}")
    } else {
        format!("quirks {quirks:?}\n{tree}")
    }
}

/// A scraper document in html5lib's `#document` format, the quirks mode first: the same
/// lines as `webgrip_dom::html5lib_dump` (and as the conformance example's serialiser), but
/// iterative, so that a deeply nested page cannot overflow the stack.
pub fn scraper_dump(doc: &Html) -> String {
    let mut out = vec![format!("quirks {:?}", doc.quirks_mode)];
    let mut depth = 0usize;
    for edge in doc.tree.root().traverse() {
        let node = match edge {
            Edge::Open(node) => node,
            Edge::Close(node) => {
                if node.parent().is_some() {
                    depth -= 1;
                }
                continue;
            }
        };
        // The document itself is not printed; its children are at depth 0.
        if node.parent().is_none() {
            continue;
        }
        let pad = format!("| {}", "  ".repeat(depth));
        depth += 1;
        match node.value() {
            Node::Document => out.push(format!("{pad}#document")),
            // scraper keeps a template's contents in a fragment node, its first child.
            Node::Fragment => out.push(format!("{pad}content")),
            Node::Doctype(d) => {
                let ids = if d.public_id().is_empty() && d.system_id().is_empty() {
                    String::new()
                } else {
                    format!(" \"{}\" \"{}\"", d.public_id(), d.system_id())
                };
                out.push(format!("{pad}<!DOCTYPE {}{ids}>", d.name()));
            }
            Node::Comment(c) => out.push(format!("{pad}<!-- {} -->", &**c)),
            Node::Text(t) => out.push(format!("{pad}\"{}\"", &**t)),
            Node::ProcessingInstruction(p) => {
                out.push(format!("{pad}<?{} {}>", &*p.target, &*p.data))
            }
            Node::Element(e) => {
                let prefix = match &*e.name.ns {
                    "http://www.w3.org/2000/svg" => "svg ",
                    "http://www.w3.org/1998/Math/MathML" => "math ",
                    _ => "",
                };
                out.push(format!("{pad}<{prefix}{}>", &*e.name.local));
                let mut attrs: Vec<(String, &str)> = e
                    .attrs
                    .iter()
                    .map(|(k, v)| {
                        let prefix = match &*k.ns {
                            "http://www.w3.org/1999/xlink" => "xlink ",
                            "http://www.w3.org/XML/1998/namespace" => "xml ",
                            "http://www.w3.org/2000/xmlns/" => "xmlns ",
                            _ => "",
                        };
                        (format!("{prefix}{}", &*k.local), &**v)
                    })
                    .collect();
                // By UTF-16 code unit, as the format asks.
                attrs.sort_by_cached_key(|(name, _)| name.encode_utf16().collect::<Vec<u16>>());
                let apad = format!("| {}", "  ".repeat(depth));
                for (name, value) in attrs {
                    out.push(format!("{apad}{name}=\"{value}\""));
                }
            }
        }
    }
    out.join("\n")
}
