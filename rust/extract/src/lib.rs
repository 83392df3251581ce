//! HTML extraction for webgrip: parse once into webgrip-dom's arena tree (its WHATWG tree
//! builder, fed by the byte-scanning [`lexer`]; see [`tree`]), then derive every view (text, Markdown, links, tables,
//! metadata, main content) from that one tree.
//!
//! Every traversal is iterative ([`walk`]), so hostile nesting cannot overflow the stack.

pub mod challenge;
pub mod charset;
mod doctype;
mod document;
pub mod dom;
mod emit;
mod entities;
pub mod events;
mod frames;
mod grid;
pub mod guard;
mod jsonld;
pub mod lexer;
pub mod links;
pub mod markdown;
pub mod metadata;
mod plain;
pub mod readable;
mod scope;
pub mod shell;
pub mod tables;
pub mod text;
pub mod tracking;
pub mod tree;
pub mod urls;
mod vocab;
mod walk;

pub use document::{
    extract, extract_parsed, extract_parsed_with, extract_within, parse, parse_prepared,
    parse_within, Extracted, Modes, Options, MIN_MAIN_CONTENT_CHARS,
};
pub use emit::Flavor;
pub use frames::Frame;
pub use scope::Scope;
pub use tracking::TrackingRules;
pub use webgrip_budget::{Budget, Interrupted};

// `crate::budget::spent` and kin, as when the module lived here.
use webgrip_budget as budget;
