//! The own tree builder's identity oracle (issue 30): the same input through the byte lexer
//! feeding html5ever's tree builder into scraper's tree (the parse webgrip shipped before
//! it owned its tree builder; the reference) and through the lexer feeding
//! `webgrip_html::TreeBuilder` (the shipped parse), each dumped in html5lib-tests'
//! `#document` format with the quirks mode on a first line.
//!
//! Shared by `rust/html/tests/own_builder_identity.rs` and the `tree_diff` fuzz target
//! (`fuzz/fuzz_targets/tree_diff.rs` includes this file by path), so it uses only what both
//! crates have: html5ever, scraper, ego-tree, and webgrip-html.

use std::cell::Cell;

use ego_tree::iter::Edge;
use ego_tree::NodeId;
use html5ever::interface::{Tracer, TreeSink};
use html5ever::tree_builder::{TreeBuilder as Html5everBuilder, TreeBuilderOpts};
use scraper::{Html, HtmlTreeSink, Node};
use webgrip_html::Budget;
use webgrip_html::Pressure;
use webgrip_html::ToHtml5ever;
use webgrip_html::{html5lib_dump, Limits, TreeBuilder};

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

/// The node cap the parse applies (`Limits::for_input`: 4 input bytes a node plus 65,536):
/// past it the rest of the page is read flat on purpose, while the own builder fed without a
/// cap builds it all.
pub fn node_cap(input_len: usize) -> usize {
    input_len / 4 + (1 << 16)
}

/// The byte lexer feeding html5ever's tree builder into scraper's tree, scripting off, with
/// the lexer's probe of html5ever's open elements and its node cap: the parse webgrip
/// shipped before issue 30 (`guarded`: `parse`; unguarded: `parse_prepared`).
pub fn html5ever_parse(html: &str, guarded: bool) -> Html {
    let mut doc = Html::new_document();
    let tags = memchr::memchr_iter(b'<', html.as_bytes()).count();
    doc.tree = ego_tree::Tree::with_capacity(Node::Document, 2 * tags + 8);
    let opts = TreeBuilderOpts {
        scripting_enabled: false,
        ..Default::default()
    };
    let builder = Html5everBuilder::new(HtmlTreeSink::new(doc), opts);
    let probe = || {
        let count = Count(Cell::new(0));
        builder.trace_handles(&count);
        Pressure {
            open: count.0.get(),
            nodes: builder.sink.0.borrow().tree.nodes().len(),
        }
    };
    webgrip_html::tokenize(
        html,
        &ToHtml5ever(&builder),
        guarded,
        &Budget::unlimited(),
        &probe,
        node_cap(html.len()),
    );
    builder.sink.finish()
}

/// Counts the handles html5ever's tree builder holds (its open elements, active formatting
/// elements and the document, `<head>` and form pointers): the lexer's probe.
struct Count(Cell<usize>);

impl Tracer for Count {
    type Handle = NodeId;
    fn trace_handle(&self, _: &NodeId) {
        self.0.set(self.0.get() + 1);
    }
}

/// html5ever's tree (the reference, [`html5ever_parse`] unguarded), or `None` when the
/// comparison does not apply: the input is past `webgrip_html::MAX_INPUT` or the tree reached the
/// node cap.
pub fn html5ever(html: &str) -> Option<String> {
    if html.len() > webgrip_html::MAX_INPUT {
        return None;
    }
    let doc = html5ever_parse(html, false);
    if doc.tree.nodes().len() >= node_cap(html.len()) {
        return None;
    }
    Some(scraper_dump(&doc))
}

/// The shipped parse's tree in the same format ([`webgrip_html::parse`] with `guarded`,
/// else [`webgrip_html::parse_prepared`]).
pub fn shipped(html: &str, guarded: bool) -> String {
    let doc = if guarded {
        webgrip_html::parse(html)
    } else {
        webgrip_html::parse_prepared(html)
    };
    let tree = html5lib_dump(&doc.tree, 0);
    if tree.is_empty() {
        format!("quirks {:?}", doc.quirks_mode)
    } else {
        format!("quirks {:?}\n{tree}", doc.quirks_mode)
    }
}

/// The own builder behind the lexer, as `tests/html5lib.rs` wires it:
/// unguarded, unlimited budget, no pressure reported, no node cap, and the builder's own
/// caps off ([`Limits::unlimited`]), so that it builds what html5ever's builder builds from
/// the same tokens however deep the page. `html` must be at most `webgrip_html::MAX_INPUT` bytes.
pub fn own(html: &str) -> String {
    own_with(html, Limits::unlimited())
}

/// [`own`] with the builder's caps `limits` (`Limits::for_input(html.len())`: the shipped
/// parse's).
pub fn own_with(html: &str, limits: Limits) -> String {
    let builder = TreeBuilder::with_limits(limits);
    let probe = || Pressure { open: 0, nodes: 0 };
    webgrip_html::tokenize(
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
/// lines as `webgrip_html::html5lib_dump` (and as the conformance example's serialiser), but
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
