//! webgrip's HTML parse, laid out as html5ever lays out its crate: the tokenizer
//! (`tokenizer/`: the byte lexer, DOCTYPEs, character references, and the guard that keeps
//! tree building linear and leaves out what no view reads), the tokens it hands on
//! (`token.rs`), the WHATWG tree builder (`tree_builder/`, with `tag_sets.rs`, the one home
//! of what an element is from its name), the arena DOM it builds into (`arena.rs`) and the
//! read-only handles over it (`view.rs`). [`parse`] is the whole of it: text in, [`Html`]
//! out. webgrip-extract derives every view from that tree.
//!
//! For development: the html5lib-tests dump (`dump.rs`), and with the `html5ever` feature
//! html5ever's tokenizer driving this builder (`html5ever_driver.rs`), for the differential
//! tests, the conformance suite and fuzzing.

// No panics on any input: hostile markup ends in a tree, never an abort.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

// Private modules, the API re-exported below: rustc then reports what no caller uses.
mod arena;
mod document;
mod dump;
#[cfg(any(test, feature = "html5ever"))]
mod html5ever_driver;
mod token;
mod tokenizer;
mod tree_builder;
mod view;

// The parse.
pub use document::{
    parse, parse_prepared, parse_unstripped, parse_unstripped_within, parse_within, Html,
};
pub use webgrip_budget::{Budget, Interrupted};

// The tree and its handles.
pub use arena::{Attr, Dom, Kind, NodeId, Ns};
pub use view::{Edge, Element, Node, NodeRef};

// What an element is from its name (the void list also for the Python search parser).
pub use tree_builder::tag_sets::{heading_level, TagClass, VOID_ELEMENTS};
// The fixed name ids: [`Element::name_id`] of a `td` is `tag::TD` in every document, so a view
// that tests element names often compares integers (the tables' row and cell walks).
pub use tree_builder::tag_ids::tag;

// The steps of the parse, for callers that drive them (the identity tests, the conformance
// suite, the fuzz targets).
pub use token::{Attribute, Doctype, RawKind, SinkResult, Tag, TagKind, Token, TokenSink};
pub use tokenizer::guard::{defuse, defuse_only};
pub use tokenizer::{tokenize, tokenize_fragment, Outcome, Pressure, MAX_INPUT};
pub use tree_builder::{
    Limits, QuirksMode, TreeBuilder, BYTES_PER_NODE, MAX_ATTRS, MAX_DEPTH, MAX_OPEN, SPARE_NODES,
};

/// The tokenizer's byte scanners, for checks that read a page's raw bytes without building a
/// tree (webgrip-extract's app-shell check and event list): tags and their attributes as byte
/// ranges, comments, raw text and script data, character references.
pub mod scan {
    pub use crate::tokenizer::guard::{
        comment_extent, raw_end, scan_tag, scan_tag_with, script_end, tag_name_len, Attr,
    };
    pub use crate::tokenizer::{char_ref, CharRef};
}

pub use dump::html5lib_dump;

/// html5ever's tokenizer driving this builder, and this lexer's tokens into html5ever's builder:
/// the identity tests, the conformance suite and the differential fuzz targets only.
#[cfg(any(test, feature = "html5ever"))]
pub use html5ever_driver::{tokenize as tokenize_with_html5ever, ToHtml5ever};
