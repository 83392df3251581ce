//! The pre-parse strip (`guard::defuse`) must not change any view: every output with it is
//! identical to the output with only the defusing half (`guard::defuse_only`).
//!
//! * random tag soup built from tricky fragments (proptest);
//! * the shared corpus (`<repo>/../shared/corpus/*/html/*.html.gz`, or `$WEBGRIP_CORPUS`),
//!   when present: the first 15 pages (60 optimised) by default, every page with
//!   `cargo test --profile fastbuild -p webgrip-extract --test prepass_identity -- --ignored`.
//!   Skips cleanly when the corpus is absent.

// The corpus reader the parse's identity tests use (webgrip-html's tests/common).
#[path = "../../html/tests/common/mod.rs"]
mod common;

use proptest::prelude::*;
use webgrip_extract::internals::document::extract_parsed;
use webgrip_extract::{Modes, Options};
use webgrip_html::{defuse, defuse_only, parse_prepared};

const URL: &str = "https://example.com/dir/page.html";

/// Every view (and main-content text/Markdown) of `html` parsed after `prepass`.
fn views(html: &str, prepass: fn(&str) -> std::borrow::Cow<'_, str>) -> String {
    let doc = parse_prepared(&prepass(html));
    let main_content = Options {
        main_content: true,
        ..Options::default()
    };
    let whole = extract_parsed(&doc, Some(URL), Modes::ALL, Options::default());
    let main = extract_parsed(&doc, Some(URL), Modes::ALL, main_content);
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        whole.markdown,
        whole.text,
        whole.links,
        whole.tables,
        whole.metadata,
        main.markdown,
        main.text
    )
}

fn assert_same(html: &str, what: &str) {
    let stripped = views(html, defuse);
    let plain = views(html, defuse_only);
    if stripped != plain {
        let at = stripped
            .bytes()
            .zip(plain.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let lo = at.saturating_sub(200);
        panic!(
            "{what}: views differ at byte {at}\n with strip: {:?}\n without:    {:?}",
            stripped.get(lo..(at + 200).min(stripped.len())),
            plain.get(lo..(at + 200).min(plain.len()))
        );
    }
}

const FRAGMENTS: &[&str] = &[
    "<script>", "</script>", "<script type=\"application/ld+json\">", "{\"headline\":\"H\"}",
    "<SCRIPT>", "</script >", "<style>", "</style>", "<!--", "-->", "--!>", "<!-->", "<svg>",
    "</svg>", "<svg/>", "<path d=\"M0 0\"/>", "<g>", "</g>", "<title>", "</title>", "<desc>",
    "<foreignObject>", "</foreignObject>", "<math>", "<mi>", "</mi>", "</math>", "<![CDATA[",
    "]]>", "<textarea>", "</textarea>", "<xmp>", "</xmp>", "<noscript>", "</noscript>",
    "<template>", "</template>", "<p>", "</p>", "<b>", "</b>", "<div>", "</div>", "<h1>",
    "</h1>", "<table>", "<tr>", "<td>", "<th>", "</table>", "<a href=\"/x\">", "</a>",
    "<a href='/y' title=\"<script>\">", "<img src=x alt=\"A\">", "<font color=red>", "<ul>",
    "<li>", "<pre>", "<select>", "<frameset>", "<plaintext>", "<iframe>", "</iframe>", "x",
    "hello world", " ", "\n", "<", ">", "\"", "'", "=", "/", "&amp;", "</", "<!DOCTYPE html>",
    "<?php ?>", "<meta name=description content=D>", "<html lang=en>",
    "<div data-x=\"0123456789012345678901234567890123456789012345678901234567890123456789\">",
    "<img src=\"data:image/png;base64,0123456789012345678901234567890123456789012345678901234567\">",
    "é", "<a x=1/ href=/z>", "<p data-a = 'q' hidden>", "<span aria-hidden=true x>",
    "<div style='display:none' y=\"2\"z>", "<svg viewBox=0/>", "<body>", "<head>", "</head>", "<time datetime=2020-01-02>",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 400 } else { 3000 }))]
    #[test]
    fn random_soup_same_views(parts in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..48)) {
        let html = parts.concat();
        assert_same(&html, &html);
    }

    #[test]
    fn random_strings_never_panic(s in "\\PC*") {
        let _ = defuse(&s);
    }
}

fn check_corpus(limit: usize) {
    common::for_each_page(limit, |path, html| {
        assert_same(html, &path.display().to_string())
    });
}

#[test]
fn corpus_sample_same_views() {
    check_corpus(if cfg!(debug_assertions) { 15 } else { 60 });
}

#[test]
#[ignore = "the whole corpus: run with --ignored (fastbuild profile recommended)"]
fn corpus_all_same_views() {
    check_corpus(usize::MAX);
}
