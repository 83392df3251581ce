//! Differential: the byte-scanning lexer against html5ever's own tokenizer. Both feed the
//! same tree builder (webgrip-html's, the shipped one), so the trees must be identical: unguarded, lexer vs html5ever on the
//! input; guarded, lexer (defusing while it reads) vs html5ever on the guard's pre-pass
//! output (`guard::defuse`). The same oracle as `rust/html/tests/lexer_identity.rs`,
//! driven by coverage instead of a grammar.
#![no_main]

use libfuzzer_sys::fuzz_target;
use webgrip_html::Html;
use webgrip_html::defuse;
use webgrip_html::{parse, parse_prepared};

#[path = "../../rust/html/tests/support/lexer_dump.rs"]
mod lexer_dump;
use lexer_dump::dump;
#[path = "../../rust/html/tests/support/reference.rs"]
mod reference;
use reference::{parse_defused_with_html5ever, parse_with_html5ever};

/// The lexer's node cap (`document::build`: 4 input bytes a node plus 65,536) reads the
/// rest of a page flat on purpose; trees that big are outside this oracle.
fn under_node_cap(doc: &Html, input_len: usize) -> bool {
    doc.tree.len() < input_len / 4 + (1 << 16)
}

fuzz_target!(|data: &[u8]| {
    // U+FEFF is left out: html5ever's tokenizer drops one at the start of every chunk it is
    // fed, and its driver feeds the rest of the page again after each `</script>`, so a
    // U+FEFF right after a script's end tag vanishes there (found by this target:
    // `<script></script>\u{feff}`). The lexer keeps it as text, as the standard does
    // (only a leading byte-order mark is dropped); the trees differ by html5ever's quirk.
    let html = String::from_utf8_lossy(data).replace('\u{feff}', "");
    let reference = parse_with_html5ever(&html);
    if under_node_cap(&reference, html.len()) {
        let ours = dump(&parse_prepared(&html));
        assert_eq!(ours, dump(&reference), "unguarded trees differ");
    }
    let defused = defuse(&html);
    let reference = parse_defused_with_html5ever(&defused);
    if under_node_cap(&reference, html.len()) {
        let ours = dump(&parse(&html));
        assert_eq!(ours, dump(&reference), "guarded trees differ");
    }
});
