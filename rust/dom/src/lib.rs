//! webgrip's own HTML parse back end (issue 30, "own the parse"): an arena DOM and a
//! WHATWG tree builder that any html5ever `TokenSink` driver feeds (webgrip-extract's byte
//! lexer or html5ever's `Tokenizer`), plus the html5lib dump the conformance runner compares.

// No panics on any input: hostile markup ends in a tree, never an abort.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod arena;
pub mod builder;
mod dump;
pub mod view;

pub use arena::{Attr, Dom, Kind, NodeId, Ns};
pub use builder::{Limits, QuirksMode, TreeBuilder};
pub use dump::html5lib_dump;
pub use view::{Edge, Element, Node, NodeRef};
