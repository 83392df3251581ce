//! HTML extraction for webgrip: parse once with webgrip-html (its byte-scanning tokenizer
//! feeding its WHATWG tree builder into an arena tree), then derive every view (text,
//! Markdown, links, tables, metadata, main content) from that one tree; and the checks that
//! read a page's raw bytes (charset, bot check, app shell).
//!
//! Every traversal is iterative (`walk.rs`), so hostile nesting cannot overflow the stack.

// Every module is private: the crate's API is the `pub use` list below, so rustc sees an item
// nobody uses (a `pub` item in a private module that is neither re-exported nor called) as
// dead code, which a `pub mod` hid.
mod challenge;
mod charset;
mod document;
mod element_facts;
mod emit;
mod frames;
mod grid;
mod jsonld;
mod links;
mod markdown;
mod metadata;
mod plain;
mod readable;
mod scope;
mod shell;
mod streamed;
mod tables;
mod text;
mod tracking;
mod tree;
mod urls;
mod walk;

// Parse once and build every view the caller asks for (`extract`), or the tree itself for
// callers that parse once and choose views one at a time (`parse`).
pub use document::{extract, parse, Extracted, Html, Modes, Options, MIN_MAIN_CONTENT_CHARS};
pub use emit::Flavor;
pub use frames::Frame;
pub use scope::Scope;
pub use webgrip_budget::{Budget, Interrupted};

// One view of a parsed tree each, for callers that parse once and choose (benches, examples).
pub use links::{extract as extract_links, Link};
pub use markdown::render as render_markdown;
pub use metadata::{extract as extract_metadata, Metadata};
/// The readable selection's per-block features, for training a block scorer (development
/// tooling, see `readable::features`).
#[doc(hidden)]
pub use readable::{
    blocks as readable_blocks, builtin_model as readable_builtin_model,
    context_rows as readable_context_rows, feature_names as readable_feature_names,
    feature_rows as readable_feature_rows, Block as ReadableBlock, Model as ReadableModel,
    CONTEXT_NAMES as READABLE_CONTEXT_NAMES, FEATURES as READABLE_FEATURES,
    FLAG_NAMES as READABLE_FLAG_NAMES, TAGS as READABLE_TAGS,
};
pub use readable::{
    select as select_main_content, select_with as select_main_content_with,
    Scorer as ReadableScorer,
};
pub use tables::{extract as extract_tables, Table};
pub use text::render as render_text;
pub use urls::{document_base, reduce_images};

// Before the parse: the body's text, and what kind of page the bytes are.
pub use challenge::{scan as scan_challenge, MAX_TEXT_CHARS as CHALLENGE_MAX_TEXT_CHARS};
pub use charset::{decode as decode_body, decode_borrowed as decode_body_borrowed};
pub use shell::{reason as shell_reason, MAX_TEXT_CHARS as SHELL_MAX_TEXT_CHARS};
pub use tracking::{TrackingRules, DOMAIN_TRACKING_PARAMS, TRACKING_PARAMS};

// The void elements, from the parse's one home for element names (for the Python search
// parser, through the binding).
pub use webgrip_html::VOID_ELEMENTS;

/// Inner steps of the views, named one item at a time for the fuzz targets, the benches and tests
/// (the parse's own steps are webgrip-html's API). Not part of this crate's API: the shipped
/// extension uses none of it.
#[doc(hidden)]
pub mod internals {
    pub mod document {
        /// The views of a tree parsed without the guard: the guard's identity test compares
        /// them with the guarded parse's (`tests/prepass_identity.rs`).
        pub use crate::document::extract_parsed;
    }
    pub mod charset {
        pub use crate::charset::{charset_param, choose};
    }
    pub mod element_facts {
        pub use crate::element_facts::attr;
    }
    pub mod urls {
        pub use crate::urls::Resolver;
    }
}

// `crate::budget::spent` and kin, as when the module lived here.
use webgrip_budget as budget;
