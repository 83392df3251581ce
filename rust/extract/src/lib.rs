//! HTML extraction for webgrip: parse once with scraper (html5ever), then derive every view
//! (text, Markdown, links, tables, metadata, main content) from that one tree.

pub mod readable;
pub mod scope;

pub use scope::Scope;
