//! webgrip's own HTML parse back end (issue 30, "own the parse"): an arena DOM, the token
//! types and a WHATWG tree builder that a tokenizer feeds (webgrip-extract's byte lexer; in
//! development also html5ever's tokenizer, through [`html5ever_driver`]), plus the html5lib
//! dump the conformance runner compares.

// No panics on any input: hostile markup ends in a tree, never an abort.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod arena;
pub mod builder;
mod dump;
#[cfg(any(test, feature = "html5ever"))]
pub mod html5ever_driver;
pub mod token;
pub mod view;

pub use arena::{Attr, Dom, Kind, NodeId, Ns};
pub use builder::{Limits, QuirksMode, TreeBuilder};
pub use dump::html5lib_dump;
pub use token::{Attribute, Doctype, RawKind, SinkResult, Tag, TagKind, Token, TokenSink};
pub use view::{Edge, Element, Node, NodeRef};
