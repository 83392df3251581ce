//! HTML extraction for webgrip: parse once with scraper (html5ever), then derive every view
//! (text, Markdown, links, tables, metadata, main content) from that one tree.
//!
//! Every traversal is iterative ([`walk`]), so hostile nesting cannot overflow the stack.

pub mod charset;
pub mod document;
pub mod dom;
mod emit;
mod escape;
pub mod grid;
pub mod guard;
pub mod links;
pub mod markdown;
pub mod metadata;
pub mod plain;
pub mod readable;
pub mod scope;
pub mod tables;
pub mod text;
pub mod urls;
pub mod walk;
mod writer;

pub use document::{extract, extract_parsed, parse, parse_prepared, Extracted, Modes};
pub use emit::Flavor;
pub use scope::Scope;
