//! html5ever's tokenizer feeding the tree builder: the reference the lexer's
//! differential tests compare with (`tests/lexer_identity.rs`, the conformance runner, and
//! by path the `lexer_diff` fuzz target). Development only: the shipped module has no
//! html5ever in it.

use webgrip_html::tokenize_with_html5ever as tokenize;
use webgrip_html::Html;
use webgrip_html::{Limits, TreeBuilder, MAX_ATTRS};

/// `webgrip_html::parse_prepared` with html5ever's tokenizer in place of the lexer. The
/// builder applies the caps the unguarded lexer applies there (open elements and formatting
/// entries, the node cap); depth and attributes are the guard's, applied before
/// (`guard::defuse`) where the input is untrusted.
pub fn parse_with_html5ever(html: &str) -> Html {
    let limits = Limits {
        max_depth: usize::MAX,
        max_attrs: usize::MAX,
        ..Limits::for_input(html.len())
    };
    Html::built(tokenize(html, TreeBuilder::with_limits(limits), None, None))
}

/// `webgrip_html::parse` with html5ever's tokenizer in place of the lexer, for input the
/// guard's pre-pass (`guard::defuse`) has made: [`parse_with_html5ever`] plus the cap the
/// builder keeps behind the guarded lexer (`Limits::behind_guard`), on the attributes a
/// repeated `<html>`/`<body>` merges into the first (issue 45, F1).
#[allow(dead_code)] // tests/html5lib.rs and examples/parse_probe.rs compare unguarded parses only
pub fn parse_defused_with_html5ever(defused: &str) -> Html {
    let limits = Limits {
        max_depth: usize::MAX,
        max_attrs: MAX_ATTRS,
        ..Limits::for_input(defused.len())
    };
    Html::built(tokenize(
        defused,
        TreeBuilder::with_limits(limits),
        None,
        None,
    ))
}
