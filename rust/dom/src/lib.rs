//! webgrip's own HTML parse back end (issue 30, "own the parse"): an arena DOM, the token
//! types and a WHATWG tree builder that a tokenizer feeds (webgrip-extract's byte lexer; in
//! development also html5ever's tokenizer, through `html5ever_driver.rs`), plus the html5lib
//! dump the conformance runner compares.

// No panics on any input: hostile markup ends in a tree, never an abort.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

// Private modules, the API re-exported below: rustc then reports what no caller uses.
mod arena;
mod builder;
mod dump;
#[cfg(any(test, feature = "html5ever"))]
mod html5ever_driver;
mod tag_sets;
mod token;
mod view;

pub use arena::{Attr, Dom, Kind, NodeId, Ns};
pub use builder::{
    Limits, QuirksMode, TreeBuilder, BYTES_PER_NODE, MAX_ATTRS, MAX_DEPTH, MAX_OPEN, SPARE_NODES,
};
pub use dump::html5lib_dump;
pub use tag_sets::{heading_level, TagClass, VOID_ELEMENTS};
pub use token::{Attribute, Doctype, RawKind, SinkResult, Tag, TagKind, Token, TokenSink};
pub use view::{Edge, Element, Node, NodeRef};

/// html5ever's tokenizer driving this builder, and this lexer's tokens into html5ever's builder:
/// the identity tests, the conformance runner and the differential fuzz targets only.
#[cfg(any(test, feature = "html5ever"))]
pub use html5ever_driver::{tokenize as tokenize_with_html5ever, ToHtml5ever};
