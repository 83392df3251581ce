//! The lexer must build exactly the tree html5ever's own tokenizer builds (both feeding the
//! shipped tree builder): same nodes, namespaces, attributes (in order),
//! text, comments, doctype and quirks mode.
//!
//! `cargo test -p webgrip-html --test lexer_identity` runs the hand-written and generated
//! cases (`PROPTEST_CASES=1000000` for a longer hunt) and a sample of the shared corpus
//! (`../shared/corpus` or `$WEBGRIP_CORPUS`; skipped when absent); every corpus page:
//! `cargo test --profile fastbuild -p webgrip-html --test lexer_identity -- --ignored`.

mod common;
mod support;

use proptest::prelude::*;
use support::lexer_dump::dump;
use support::reference::{parse_defused_with_html5ever, parse_with_html5ever};
use webgrip_html::defuse;
use webgrip_html::{parse, parse_prepared};

/// Unguarded, the lexer builds html5ever's tree; guarded, the tree html5ever builds from the
/// pre-pass's output.
fn check(html: &str) {
    let ours = dump(&parse_prepared(html));
    let reference = dump(&parse_with_html5ever(html));
    assert_eq!(ours, reference, "trees differ for {html:?}");
    let ours = dump(&parse(html));
    let reference = dump(&parse_defused_with_html5ever(&defuse(html)));
    assert_eq!(ours, reference, "guarded trees differ for {html:?}");
}

/// A start tag the guard drops (too many attributes) leaves its end tag to be dropped; the
/// end tag that closes a later raw text element of the same name must not be the one dropped,
/// in the pre-pass as in the lexer (a CI fuzz run found the pre-pass dropping `</script>`).
#[test]
fn raw_text_after_a_dropped_start_tag_of_its_name() {
    let attrs: String = (0..300).map(|i| format!(" a{i}")).collect();
    for name in [
        "script", "title", "textarea", "style", "xmp", "iframe", "noembed", "noframes",
    ] {
        for between in ["", "x", "</x>", "<{name}>y</{name}>"] {
            let between = between.replace("{name}", name);
            check(&format!("<{name}{attrs}>{between}<{name}></{name}>l"));
            check(&format!(
                "<p><{name}{attrs}>{between}<{name}>a</{name} x=1>b</{name}>c"
            ));
        }
    }
}

/// Issue 45's attribute storms. F1: repeated `<body>`/`<html>` tags each adding an
/// attribute, stripped or not (a `<frameset>` mention turns stripping off); past 256 the
/// merged sets stop growing, in the guarded parse as in the builder behind the pre-pass.
#[test]
fn attribute_storms() {
    let merges: String = (0..300)
        .map(|i| format!("<body/a{}><html/b{} c{}>", i, i, i))
        .collect();
    check(&format!("{merges}<p>x"));
    check(&format!("<!-- <frameset> -->{merges}<p>x"));
    check("<body a><html b><p><body/c id=1><html//d/><body e f g>x");
    // F5: tags with thousands of attributes (no more than the cap decides on are kept), in
    // HTML and in SVG content the pre-pass empties, on a start tag and on an end tag.
    let storm: String = (0..5_000).map(|i| format!(" a{i}")).collect();
    check(&format!("<p>a<div{storm}>b</div>c"));
    check(&format!("<svg><g{storm}/><path/></svg></div{storm}>x"));
}

#[test]
fn hand_written_cases() {
    let cases = [
        "",
        "plain text",
        "<",
        "a < b",
        "</",
        "</>x",
        "<//x>",
        "</3 x>y",
        "<?php echo 1 ?>after",
        "<!x>y",
        "<!-->a",
        "<!--->a",
        "<!-- a -- b -->c",
        "<!--a--!>b",
        "<!--a--!-->b",
        "<!--<!-->x",
        "<!--abc--",
        "<!--abc-",
        "<!--abc--!",
        "<!--abc---",
        "<!--",
        "<!---",
        "<!DOCTYPE html><p>x",
        "<!doctype html public \"-//W3C//DTD HTML 4.01 Transitional//EN\"><table><p>x",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\">x",
        "<!DOCTYPE>x",
        "<!DOCTYPE html",
        "<!DOCTY",
        "<p>&amp; &lt;b&gt; &notit; &not &notin; &#65;&#x42;&#X43 &#; &#x; &#0; &#x80; &#x81; &#xD800; &#x110000; &#99999999999;",
        "<p>&AMP &Amp; &amp &ampx &Eacute &eacute; &acE; &NotEqualTilde;",
        "<a href='?a=1&amp;b=2&lang=en&copy=3&copy;&not=1&notx'>x</a>",
        "<a href=x&amp;y title=\"&quot;q&quot\">x</a>",
        "<div CLASS=A id=b class=c>x</div>",
        "<div a b=c d = 'e' f= \"g\" =h i=>j",
        "<div a/b/>x</div>",
        "<br/><img src=x />",
        "<div \"a\"='b' <c=d>x",
        "<div a='unterminated>x",
        "<div a=\"x",
        "<div a",
        "<div",
        "<title>a <b> &amp; </title>x",
        "<title>a</titlex></TITLE >y",
        "<textarea>\nline</textarea>",
        "<pre>\nx</pre><pre>&#10;y</pre><listing>\n\nz</listing>",
        "<style>a < b { } </style >x",
        "<xmp><b>&amp;</b></xmp>",
        "<iframe><p>x</iframe>",
        "<noscript><p>x</p></noscript>",
        // A raw-text element opened inside noscript ends where the noscript ends.
        "<body><noscript><iframe src=x /></noscript><p>page</p><iframe></iframe>",
        "<noscript><IFRAME src=x/></NOSCRIPT ><p>a</p></noscript>b",
        "<noscript><div><noembed>a<b></noscript>c</noembed>d",
        "<noscript><style>p{}</noscript>x",
        "<noscript><textarea>&amp;</noscript>x</textarea>",
        "<head><noscript><iframe/></noscript></head><p>x",
        "<select><noscript><iframe></noscript>x",
        "<noscript><iframe></iframe></noscript><xmp></noscript>x",
        "<noembed><b></noembed>",
        "<script type=application/ld+json>{\"a\": \"</b>\"}</script>x",
        "<script><!--<script></script>--></script>y",
        "<script>a</script",
        "<plaintext><b>&amp;</b>",
        "<svg><![CDATA[a<b]]>c</svg>",
        "<![CDATA[x]]>y",
        "<math><![CDATA[x",
        "<svg><title>a</title><foreignObject><p>b</p></foreignObject></svg>",
        "<svg viewBox='0 0 1 1' xlink:href=x><path d=M0/></svg>",
        "<table><tr><td>a</td>b<td>c</table>",
        "<table> x <tr> </tr></table>",
        "<table>\n<tr><td>1\n</table>",
        "<select><option>a<option>b</select>",
        "<b><i>x</b>y</i>",
        "<a><p><a>x</a></p></a>",
        "<p>a\0b</p><title>c\0d</title><div a\0=\"b\0\">e</div>",
        "<ta\0g>x</ta\0g>",
        "<!--a\0b-->",
        "x\r\ny\rz",
        "<pre>\r\nx</pre>",
        "\u{feff}<p>bom</p>",
        "<frameset><frame></frameset>",
        "<template><p>x</p></template>",
        "<p>é <b>ü</b> 😀 &eacute;</p>",
        "<html lang=en><head><meta charset=utf-8><title>t</title></head><body><p>b</p></body></html>",
    ];
    for case in cases {
        check(case);
    }
}

/// Fragments that exercise the tokenizer's states and the tree builder's answers.
const PIECES: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "/",
    "=",
    "\"",
    "'",
    " ",
    "\n",
    "\r",
    "\t",
    "\0",
    "&",
    "&amp",
    "&amp;",
    "&lt",
    "&#",
    "&#x",
    "&#65",
    "&#x41;",
    "&not",
    "&notin;",
    "&ampx",
    ";",
    "-",
    "--",
    "!",
    "?",
    "<!--",
    "-->",
    "--!>",
    "<!",
    "<?",
    "<![CDATA[",
    "]]>",
    "<!DOCTYPE html>",
    "<!doctype",
    "a",
    "x",
    "é",
    "😀",
    "div",
    "p",
    "b",
    "i",
    "a href=",
    "table",
    "tr",
    "td",
    "th",
    "title",
    "textarea",
    "script",
    "style",
    "xmp",
    "plaintext",
    "svg",
    "math",
    "foreignObject",
    "pre",
    "select",
    "option",
    "template",
    "noscript",
    "iframe",
    "li",
    "ul",
    "br",
    "img",
    "html",
    "body",
    "head",
    "frameset",
    "font color=x",
    "desc",
    "mi",
    "annotation-xml",
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<table>",
    "<td>",
    "<tr>",
    "<title>",
    "</title>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<svg>",
    "</svg>",
    "<math>",
    "<pre>",
    "<textarea>",
    "</textarea>",
    "<b>",
    "</b>",
    "<a href='x'>",
    "</a>",
    "<select>",
    "<plaintext>",
];

fn html_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|v| v.concat())
}

proptest! {
    // PROPTEST_CASES raises the count for a longer hunt.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_soup_builds_the_same_tree(html in html_soup()) {
        check(&html);
    }

    #[test]
    fn arbitrary_strings_build_the_same_tree(html in "\\PC{0,60}") {
        check(&html);
    }
}

/// The first `limit` corpus pages, raw and after the guard's pre-pass, build the same tree
/// both ways, and the guarded lexer builds the pre-passed tree from the raw page. Skips when
/// the corpus is absent.
fn check_corpus(limit: usize) {
    common::for_each_page(limit, |path, html| {
        let prepared = defuse(html);
        for input in [html, &*prepared] {
            let ours = dump(&parse_prepared(input));
            let reference = dump(&parse_with_html5ever(input));
            assert!(ours == reference, "trees differ for {}", path.display());
        }
        let guarded = dump(&parse(html));
        let reference = dump(&parse_defused_with_html5ever(&prepared));
        assert!(
            guarded == reference,
            "guarded trees differ for {}",
            path.display()
        );
    });
}

#[test]
fn corpus_sample_builds_the_same_tree() {
    check_corpus(if cfg!(debug_assertions) { 15 } else { 60 });
}

#[test]
#[ignore = "every corpus page: run with an optimised build"]
fn corpus_pages_build_the_same_tree() {
    check_corpus(usize::MAX);
}
