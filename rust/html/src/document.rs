//! The parse: a document's text to its tree (`Html`), the tokenizer feeding the tree builder
//! under the caps that keep both linear.

use webgrip_budget::{Budget, Interrupted};

use crate::arena::Dom;
use crate::tokenizer::{self as lexer, Outcome, Pressure};
use crate::tree_builder::{Limits, QuirksMode, TreeBuilder};

/// A parsed document.
#[derive(Debug)]
pub struct Html {
    /// The tree; node 0 is the document.
    pub tree: Dom,
    /// What the DOCTYPE (or its absence) set.
    pub quirks_mode: QuirksMode,
}

impl Html {
    /// A document with nothing in it but the document node.
    pub fn new_document() -> Html {
        Html {
            tree: Dom::new(),
            quirks_mode: QuirksMode::NoQuirks,
        }
    }

    /// The finished tree of `builder` (which a tokenizer has fed to the end).
    pub fn built(builder: TreeBuilder) -> Html {
        let quirks_mode = builder.quirks_mode();
        Html {
            tree: builder.into_dom(),
            quirks_mode,
        }
    }
}

/// Parse a document after defusing input that would make tree building quadratic and
/// stripping what no view reads (see `tokenizer/guard/`; the lexer does both while it reads).
/// Everything that parses untrusted HTML should go through this.
///
/// Scripting is off, as in a browser without scripts: `<noscript>` content is markup rather
/// than raw text. An agent's fetch runs no scripts, and some sites (forum software in
/// particular) serve their whole content inside `<noscript>` for exactly such readers. The
/// emitters still drop `noscript` on whole-page views; readable mode may select inside it
/// when that is where the page's text is.
pub fn parse(html: &str) -> Html {
    build(html, true, true, &Budget::unlimited()).0
}

/// [`parse`] under the same caps, stripping nothing: every attribute of every element is
/// in the tree, and the text of scripts and styles. For readers that select on attributes
/// no view reads (the search result parsers: `data-testid`, a form's `action`).
pub fn parse_unstripped(html: &str) -> Html {
    build(html, true, false, &Budget::unlimited()).0
}

/// [`parse_unstripped`] that gives up once `budget` is spent.
pub fn parse_unstripped_within(html: &str, budget: &Budget) -> Result<Html, Interrupted> {
    match build(html, true, false, budget) {
        (doc, Outcome::Complete) => Ok(doc),
        (_, Outcome::Interrupted(why)) => Err(why),
    }
}

/// [`parse`] that gives up once `budget` is spent.
pub fn parse_within(html: &str, budget: &Budget) -> Result<Html, Interrupted> {
    match build(html, true, true, budget) {
        (doc, Outcome::Complete) => Ok(doc),
        (_, Outcome::Interrupted(why)) => Err(why),
    }
}

/// Parse `html` as it is (no `guard/` pre-pass), the way [`parse`] does: scripting disabled,
/// so `<noscript>` content is markup. Only for input that is already defused (by
/// [`crate::defuse`]) or trusted: deep nesting and huge attribute lists make a tree builder's
/// scans quadratic (the open-element and node caps still hold).
pub fn parse_prepared(html: &str) -> Html {
    build(html, false, false, &Budget::unlimited()).0
}

/// Tokens from [`lexer`], the tree from the tree builder. The lexer applies the caps
/// that keep tree building linear (with `guarded`: depth and attributes, while it strips
/// what no view reads; always: open elements and formatting entries over [`lexer::MAX_OPEN`]
/// as the builder reports them, and the node cap past which the rest of the page is read
/// flat), all with the same values ([`Limits::for_input`]). Guarded, the builder keeps
/// the caps only it can apply ([`Limits::behind_guard`]): the attributes a repeated `<html>` or
/// `<body>` merges into the first, which add up past any one tag's cap (issue 45, F1: run
/// uncapped, one attribute per repeated tag grew memory quadratically). The others applied
/// twice would count start tags the lexer already dropped and move where the builder's
/// probes fall; the builder keeps them for other tokenizers (the tests drive it with
/// html5ever's).
///
/// Input past [`lexer::MAX_INPUT`] is cut there (at a character boundary): the arena
/// addresses text with `u32`, and no response cap comes near it.
fn build(html: &str, guarded: bool, strip: bool, budget: &Budget) -> (Html, Outcome) {
    let html = within_max_input(html);
    // Unguarded (trusted or already defused input, the conformance runner) the builder
    // builds what the standard says, uncapped: merged attributes still grow in place.
    let limits = if guarded {
        Limits::behind_guard()
    } else {
        Limits::unlimited()
    };
    let builder = TreeBuilder::with_limits(limits);
    // The arena sized up front: growing it by doubling copies it several times and touches
    // twice the memory (page faults dominated large pages). Each `<` makes at most one
    // element and one text node after it, and text is at most the input. Capacity never
    // touched costs nothing.
    let tags = memchr::memchr_iter(b'<', html.as_bytes()).count();
    builder.reserve(2 * tags + 8, html.len(), tags + 8);
    let probe = || {
        let (open, nodes) = builder.pressure();
        Pressure { open, nodes }
    };
    // The node cap: `BYTES_PER_NODE` input bytes per tree node a page may use
    // up before the rest is read flat, plus `SPARE_NODES` for small pages. Why: dense markup
    // (`<p><b><p>x` makes six nodes per ten bytes, re-opened formatting elements included)
    // would otherwise turn a 10 MiB page into millions of nodes. The densest of the 1,585
    // corpus pages uses 14.7 bytes per node (median 64; webgrip-extract's `examples/node_density.rs`), and a
    // table of one-character cells (`<td>1</td>`) 5: one node per 4 bytes builds those in
    // full and bounds the tree at a node per 4 input bytes.
    let max_nodes = Limits::for_input(html.len()).flat_after;
    let outcome = if guarded && !strip {
        lexer::tokenize_unstripped(html, &builder, budget, &probe, max_nodes)
    } else {
        lexer::tokenize(html, &builder, guarded, budget, &probe, max_nodes)
    };
    (Html::built(builder), outcome)
}

/// The longest prefix of `html` that is at most [`lexer::MAX_INPUT`] bytes and ends on a
/// character boundary.
fn within_max_input(html: &str) -> &str {
    if html.len() <= lexer::MAX_INPUT {
        return html;
    }
    let mut end = lexer::MAX_INPUT;
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    &html[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// Both budgeted entry points stop inside the lexer once the budget is spent, and finish
    /// with the unlimited one; the unstripped one keeps script text (React's streaming
    /// instructions live there, and `webgrip-extract` parses such pages with it).
    #[test]
    fn budgeted_parses_stop_when_the_budget_is_spent() {
        let page = "<p>a<b>b</b></p>".repeat(5_000) + "<script>$RC(\"B:0\",\"S:0\")</script>";
        let cancelled = Budget {
            deadline: None,
            cancel: Some(Arc::new(AtomicBool::new(true))),
        };
        assert_eq!(
            parse_within(&page, &cancelled).err(),
            Some(Interrupted::Cancelled)
        );
        assert_eq!(
            parse_unstripped_within(&page, &cancelled).err(),
            Some(Interrupted::Cancelled)
        );
        let whole = parse_unstripped_within(&page, &Budget::unlimited());
        assert!(
            whole.is_ok_and(|doc| crate::html5lib_dump(&doc.tree, Dom::DOCUMENT).contains("$RC("))
        );
    }
}
