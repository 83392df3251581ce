//! A linear pre-pass over the input, before the tree builder sees it.
//!
//! Two jobs:
//!
//! * **Defuse** input that would make tree building quadratic. A tree builder scans its stack of open
//!   elements for many start tags (e.g. every `<div>` checks for an open `<p>` "in button
//!   scope"), and checks each new attribute against all earlier ones. So 100,000 nested
//!   `<div>`s take a minute and a tag with 100,000 attributes longer. Start tags (and their
//!   matching end tags) beyond [`MAX_DEPTH`] are dropped, and so are tags with more than
//!   [`MAX_ATTRS`] attributes. Their text is kept.
//! * **Strip** what every view throws away, so the lexer does not emit it: the contents of
//!   `<script>` (except JSON-LD, which metadata reads) and `<style>`, the text of comments,
//!   the inside of `<svg>` subtrees, and long values of attributes no view reads.
//!   The elements themselves stay (empty), so the tree keeps its shape and every view its
//!   output.
//!
//! The scanner follows the HTML tokenizer's states closely enough to know where the tree
//! builder will be: attribute values (quoted values may hold `<script>` or `>`), RCDATA / RAWTEXT
//! elements (`<title>`, `<textarea>`, `<xmp>`, ...), the script-data escape states
//! (`<!--` ... `<script>` inside a script), comments including their odd endings, CDATA in
//! SVG/MathML, and breakout tags that leave foreign content. Wherever it is unsure it cuts
//! nothing: an `<svg>` holding anything unusual (a breakout tag, `<foreignObject>`, markup in
//! `<title>`, a stray end tag) is left whole, and a document that may hold a `<frameset>` is
//! not stripped at all. Ordinary pages that need neither job are returned borrowed.
//!
//! The same [`Tracker`] drives the lexer (`tokenizer/lexer.rs`), which does this work while it reads;
//! [`defuse`] is the string form (the reference for tests, and the path for inputs too
//! large for the lexer).
//!
//! Layout: `names.rs` classes element names (void, raw text, breakout, ...); `scan.rs` reads
//! tags, attributes, comments and raw text as byte ranges; `tracker.rs` keeps the model of
//! open elements that decides what to drop and whether stripping is still safe; `svg.rs`
//! finds how far an `<svg>` can be emptied; `prepass.rs` turns all of that into the edited
//! string.

use std::borrow::Cow;

mod names;
mod prepass;
mod scan;
mod svg;
#[cfg(test)]
mod tests;
mod tracker;

pub(crate) use names::{name_key_read, read_attr_key};
#[cfg(test)]
pub(crate) use scan::scan_guarded;
pub use scan::{
    comment_extent, raw_end, scan_tag, scan_tag_keeping, scan_tag_with, script_end, tag_name_len,
    Attr, KEPT_ATTRS,
};
pub(crate) use tracker::{mentions_frameset, Cdata, Start, Tracker};

/// Open elements (as the [`Tracker`] models them) before start tags are dropped: deeper than
/// any real page nests; the tree builder's scans stay cheap below it. The tree builder
/// applies the same cap to other tokenizers (`tree_builder/limits.rs`).
pub const MAX_DEPTH: usize = 256;
/// Attributes a tag may carry (more: the tag is dropped), and a merged `<html>` or `<body>`
/// may collect: real tags carry a few dozen at most.
pub const MAX_ATTRS: usize = 256;
/// `data:` URLs at least this long are shortened to `data:`.
pub const LONG_ATTR: usize = 64;

/// Return `html` defused and stripped (see the module docs); borrowed if nothing changed.
pub fn defuse(html: &str) -> Cow<'_, str> {
    prepass::prepass(html, true)
}

/// Only the defusing half of [`defuse`]: over-deep and over-attributed tags. The output of
/// every view is the same either way; this exists to check that.
pub fn defuse_only(html: &str) -> Cow<'_, str> {
    prepass::prepass(html, false)
}
