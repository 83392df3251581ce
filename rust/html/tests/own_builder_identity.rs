//! Issue 30's identity requirement: the own tree builder (`webgrip_html::TreeBuilder` behind
//! the byte lexer, the shipped parse) must build exactly the tree html5ever's tree builder
//! builds from the same tokens (the parse webgrip shipped before), both dumped in
//! html5lib-tests' `#document` format with the quirks mode (`support/tree_dump.rs`).
//!
//! Where html5ever is known wrong (docs/conformance.md: `<selectedcontent>` cloning,
//! `<math><annotation-xml encoding="text/html">` integration points, `<input>` and kin in a
//! select; and what this oracle found: a late DOCTYPE in table text, the special category's
//! foreign elements, `search` and `isindex`, table text under a `<template>`) the trees legitimately differ. Such cases are
//! listed in [`KNOWN_DIFFERENT`] with the reason, and a test checks they still differ, so
//! that the list cannot go stale silently. The generated soup leaves `select` and
//! `annotation-xml` out of its pieces; a generated input that still reaches a known deficit
//! (`tree_dump::html5ever_known_wrong`) is skipped and counted; a corpus page that differs
//! fails unless it reaches one, and is then listed on stderr with the reason.
//!
//! `cargo test -p webgrip-html --test own_builder_identity` runs the hand-written and
//! generated cases and a sample of the shared corpus (`../shared/corpus` or
//! `$WEBGRIP_CORPUS`; skipped when absent); every corpus page:
//! `cargo test --profile fastbuild -p webgrip-html --test own_builder_identity -- --ignored`.
//! The `tree_diff` fuzz target (fuzz/) runs the same oracle driven by coverage.

mod common;
mod support;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use support::tree_dump;
use webgrip_html::Limits;

/// The own builder's tree must be html5ever's, uncapped and as shipped (`parse_prepared`,
/// whose caps small inputs never reach).
fn check(html: &str) {
    let Some(reference) = tree_dump::html5ever(html) else {
        return;
    };
    let own = tree_dump::own(html);
    assert!(
        own == reference,
        "trees differ for {html:?}\nown builder:\n{own}\nhtml5ever's builder:\n{reference}"
    );
    assert_eq!(tree_dump::shipped(html, false), own, "{html:?}");
}

/// The cases of `lexer_identity.rs`'s `hand_written_cases` (tokenizer states), copied.
const LEXER_CASES: &[&str] = &[
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

/// Tree-construction cases: one group per part of the tree builder.
const TREE_CASES: &[&str] = &[
    // Adoption agency.
    "<a>1<p>2</a>3</p>",
    "<b>1<p>2</b>3</p>",
    "<b><i><u>x</b>y</i>z</u>",
    "<a href=1><div><a href=2>x</a></div></a>",
    "<b>1<div>2<i>3</b>4</i>5</div>",
    "<p><b><i><u><s><strike><em><strong>x</p>y",
    "<b><b><b><b>x</b></b></b></b>",
    "<b id=1><b id=2><b id=3><b id=4>x<p>y",
    "<nobr>a<nobr>b</nobr>c",
    "<div><b>a<div>b</div>c</b>d</div>",
    "<a><div><div><div><div><div><div><div><div><div>x</a>y",
    "<font color=red><table><tr><td>x</font>y</td></tr></table>z",
    "<b><table><td></b><i></table>x",
    "<code><code><code>x</code>y",
    // Tables and foster parenting.
    "<table>text<tr><td>x</table>",
    "<table><b>x</b><tr><td>y</td></tr></table>",
    "<table><caption>c<td>x</table>",
    "<table><colgroup><col span=2><col></colgroup><tbody><tr><td>1</td></tr></tbody></table>",
    "<table><col><tr><td>x</table>",
    "<table><thead><tr><th>h<tbody><tr><td>d<tfoot><tr><td>f</table>",
    "<table><tr><td><table><tr><td>inner</table>outer</table>",
    "<table><form><tr><td>x</td></tr></form></table>",
    "<table><input type=hidden><input type=text></table>",
    "<table><style>s</style><script>x</script><tr><td>y</table>",
    "<table><div>foster<table>nested</table></div></table>",
    "<table><tr>\n<td>a</td>\n</tr> b </table>",
    "<table><td>1<th>2<tr><td>3</table>",
    "<table><tr><td>a</tr></td></table>",
    "<table><caption><table></caption></table>",
    "<td>no table</td><tr>x</tr>",
    "<table><a>x<tr><td>y</a>z</table>",
    "<table></tbody></thead></tfoot></body></html></table>",
    "<table><tr><td><p>x</table>y",
    "<p><table></table>",
    "<!DOCTYPE html><p><table></table>",
    // Templates.
    "<template><td>x</td></template>",
    "<template><tr><td>x</template>",
    "<template><col></template>",
    "<template><caption>c</caption></template>",
    "<template><template><p>x</template></template>",
    "<head><template><meta></template></head>",
    "<table><template><td>x</template></table>",
    "<template>text<div>d</div></template>after",
    "<body><template><frameset></template>",
    "<template><html><body>x</template>",
    "<template></div>x</template>",
    "<template><option>a</template>",
    // Foreign content.
    "<svg><g><circle r=1/></g></svg>x",
    "<svg viewbox=0 definitionurl=x><lineargradient/><foreignobject>f</foreignobject></svg>",
    "<svg><p>breakout</p></svg>",
    "<svg><font color=x>out</font></svg>",
    "<svg><font>stays</font></svg>",
    "<math><mi><b>x</b></mi><mo>+</mo></math>",
    "<math><mtext><mglyph/><malignmark/></mtext></math>",
    "<math><ms><svg><desc><div>x</div></desc></svg></ms></math>",
    "<svg><desc><svg><title><p>x</title></svg></desc></svg>",
    "<math definitionURL=x xlink:href=y xml:lang=en xmlns:xlink=z></math>",
    "<svg><script>a<b</script></svg>",
    "<svg><style>a<b</style></svg>",
    "<svg><![CDATA[<p>]]></svg>",
    "<svg></p></svg>x",
    "<svg><tr><td>x</svg>",
    "<table><svg><g>x</g></svg></table>",
    "<math><mi><svg><foreignObject><p>x</p></foreignObject></svg></mi></math>",
    "<svg><clipPath><feBlend/><fecolormatrix/></clipPath></svg>",
    "<p><svg><b>x</svg>",
    // Forms.
    "<form><form>x</form></form>",
    "<form id=a><div></form>x</div><input>",
    "<form><input name=a><button>b<button>c</button></form>",
    "<form><table><tr><td><input></form></td></table>",
    "<button><p>x</button>y",
    "<label><input type=checkbox>l</label><textarea>t</textarea><keygen><isindex>",
    "<form><fieldset><legend>l</legend><input></fieldset></form>",
    // Lists, headings, `<p>` closing.
    "<ul><li>a<li>b<ul><li>c</ul><li>d</ul>",
    "<ol><li>a<div>b<li>c</ol>",
    "<dl><dt>a<dd>b<dt>c<dd>d</dl>",
    "<li>a<li>b",
    "<ul><li><p>a<li>b</ul>",
    "<h1>a<h2>b</h1>c",
    "<h1><p>a</h1>b",
    "<h3>a</h4>b</h2>",
    "<p>a<div>b</div><p>c<p>d</p></p>",
    "<p>a<h1>b</h1><p><ul><li>c</ul><p><pre>d</pre><p><hr><p><address>e</address>",
    "</p>x",
    "<p><button><p>x</button>",
    "<p><listing>\nx</listing><p><xmp>y</xmp><p><plaintext>z",
    "<rb>a<rt>b<ruby><rb>c<rtc>d<rp>e</ruby>",
    "<p><image src=x><br></br><hr/><wbr><embed><area>",
    "<applet><b>x</applet>y",
    "<object><p>x</object>y",
    "<marquee><b>x</marquee>y",
    "<dialog><p>x</dialog>",
    "<menu><li>a</menu><search><p>b</search>",
    "<center><p>x</center>",
    "<body a=1><body b=2 a=3>x",
    "<html a=1><html b=2>x",
    "</br></p></html>x",
    "<frame>x<frameset>",
    // noscript, scripting off: its content is markup.
    "<noscript><p>x</noscript>",
    "<head><noscript><link><style>s</style><meta></noscript><title>t</title>",
    "<head><noscript><p>x</noscript></head>",
    "<head><noscript>text</noscript>",
    "<head><noscript><noscript></noscript>",
    "<noscript><!-- c --></noscript><p>x",
    // Frameset.
    "<frameset><frameset><frame></frameset><noframes>n</noframes></frameset>",
    "<frameset cols=50%><frame src=a><frame src=b></frameset>after",
    "<p>x<frameset><frame>",
    "<frameset></frameset><!-- c --> <frameset>",
    "<div><frameset>",
    "<!DOCTYPE html><frameset> \n<frame></frameset></html> ",
    // Quirks: doctypes that choose each mode.
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\"><p><table>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p><table>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\"><p><table>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\"><p><table>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Frameset//EN\"><p><table>",
    "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\"><p><table>",
    "<!DOCTYPE html PUBLIC \"-//W3O//DTD W3 HTML Strict 3.0//EN//\"><p>",
    "<!DOCTYPE html SYSTEM \"http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd\">",
    "<!DOCTYPE htm><p><table>",
    "<!DOCTYPE html PUBLIC \"html\">",
    "<!doctype HTML>",
    "<p><!doctype html>late",
    "x<!DOCTYPE html>",
    // Text, whitespace and comments in odd places.
    "<!-- before --><html><!-- in --><head></head><!-- between --><body></body><!-- after --></html><!-- end -->",
    " \n <html> \n <head> \n </head> \n <body> x </body> \n </html> \n ",
    "</head>x</body>y</html>z<p>",
    "<head></head><meta><title>t</title><style>s</style>",
    "<title><b>not a tag</b></title><textarea><p></textarea>",
    "a\0b<table>\0<tr>\0<td>\0</table>",
];

/// Inputs whose trees legitimately differ, with why: html5ever 0.40 is wrong, the own
/// builder follows the standard and html5lib-tests. Each must still differ (if html5ever
/// is fixed, the entry goes).
const KNOWN_DIFFERENT: &[(&str, &str)] = &[
    ("<span><svg><title><path></span>x", SPECIAL_FOREIGN),
    ("<ul><li><math><mi><li>x", SPECIAL_FOREIGN),
    (
        "<template><td></td><l><a></l>\n",
        "in the table modes html5ever sends characters to table text only when the current \
         node is a table, tbody, tfoot, thead or tr; the standard also when it is a \
         template, and whitespace-only table text goes in as is, without reconstructing the \
         active formatting elements (html5ever clones the `<a>` for the newline; found by \
         tree_diff)",
    ),
    ("<a>1<search>2</a>3", SPECIAL_HTML),
    ("<a>1<isindex>2</a>3", SPECIAL_HTML),
    (
        "<table>&<!DOCTYPE html> ",
        "html5ever drops a DOCTYPE token outside the initial mode before the insertion modes see \
     it, so in table text it does not flush the pending `&` (the standard: \"anything else\" \
     flushes, the DOCTYPE is then ignored in table); the own builder fosters `&` before the \
     table and puts the space in it, html5ever fosters `& `",
    ),
];

/// Why the trees differ around `<search>` and `<isindex>`.
const SPECIAL_HTML: &str =
    "html5ever's special category lacks `search` (and `keygen`, void, so never walked past) \
     and still holds the obsolete `isindex`: the standard's adoption agency takes an open \
     `<search>` as the furthest block and not an `<isindex>`, html5ever the other way round \
     (found by tree_diff)";

/// Why the trees differ where a foreign element of the special category is open.
const SPECIAL_FOREIGN: &str =
    "html5ever's special category holds HTML elements only; the standard's also holds MathML \
     mi, mo, mn, ms, mtext, annotation-xml and SVG foreignObject, desc, title, which stop an \
     in-body end tag's walk up the stack and the <li>/<dd>/<dt> walk (html5ever closes \
     through them; found by tree_diff)";

#[test]
fn lexer_identity_cases() {
    for case in LEXER_CASES {
        if !KNOWN_DIFFERENT.iter().any(|(known, _)| known == case) {
            check(case);
        }
    }
}

#[test]
fn tree_construction_cases() {
    for case in TREE_CASES {
        if !KNOWN_DIFFERENT.iter().any(|(known, _)| known == case) {
            check(case);
        }
    }
}

#[test]
fn known_differences_still_differ() {
    for (html, why) in KNOWN_DIFFERENT {
        let reference = tree_dump::html5ever(html).expect("under the node cap");
        assert_ne!(
            tree_dump::own(html),
            reference,
            "listed as html5ever's deficit ({why}) but the trees agree: {html:?}"
        );
    }
}

/// Fragments that exercise the tokenizer's states and the tree builder's modes: those of
/// `lexer_identity.rs` without `select` and `annotation-xml` (html5ever's known deficits,
/// see the module comment; nor can the pieces spell `selectedcontent`), plus the elements
/// the tree builder treats specially. A generated input that still reaches one of
/// html5ever's deficits (a `<!doctype` after a table, see
/// `tree_dump::html5ever_known_wrong`) is skipped.
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
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
    "a",
    "x",
    "é",
    "😀",
    "div",
    "p",
    "b",
    "i",
    "u",
    "a href=",
    "table",
    "tr",
    "td",
    "th",
    "tbody",
    "thead",
    "caption",
    "colgroup",
    "col",
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
    "option",
    "optgroup",
    "template",
    "noscript",
    "iframe",
    "li",
    "ul",
    "ol",
    "dd",
    "dt",
    "h1",
    "h2",
    "br",
    "img",
    "input",
    "input type=hidden",
    "form",
    "button",
    "html",
    "body",
    "head",
    "frameset",
    "frame",
    "font color=x",
    "desc",
    "mi",
    "mtext",
    "mglyph",
    "nobr",
    "object",
    "applet",
    "marquee",
    "hr",
    "image",
    "ruby",
    "rt",
    "center",
    "listing",
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<table>",
    "</table>",
    "<td>",
    "<tr>",
    "<caption>",
    "<col>",
    "<title>",
    "</title>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<svg>",
    "</svg>",
    "<math>",
    "</math>",
    "<pre>",
    "<textarea>",
    "</textarea>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a href='x'>",
    "</a>",
    "<plaintext>",
    "<template>",
    "</template>",
    "<form>",
    "</form>",
    "<li>",
    "<h1>",
    "</h1>",
    "<frameset>",
    "<noscript>",
    "</noscript>",
    "<head>",
    "<body>",
    "</body>",
    "</html>",
];

fn html_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|v| v.concat())
}

/// A fixed generator: the same inputs on every run, whatever `PROPTEST_*` says (a
/// failure is reported with its shrunk input; nothing is persisted).
fn deterministic_runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Run `cases` generated inputs through [`check`], skipping those that reach one of
/// html5ever's known deficits; the skipped share is printed, and must stay a minority.
fn check_generated<S: Strategy<Value = String>>(strategy: S, cases: u32) {
    let skipped = std::cell::Cell::new(0u32);
    let result = deterministic_runner(cases).run(&strategy, |html| {
        if tree_dump::html5ever_known_wrong(&html).is_some() {
            skipped.set(skipped.get() + 1);
        } else {
            check(&html);
        }
        Ok(())
    });
    if let Err(err) = result {
        panic!("{err}");
    }
    eprintln!(
        "{cases} generated inputs, {} skipped (html5ever_known_wrong)",
        skipped.get()
    );
    assert!(skipped.get() < cases / 2, "the exclusions eat most inputs");
}

#[test]
fn generated_soup_builds_the_same_tree() {
    check_generated(
        html_soup(),
        if cfg!(debug_assertions) { 3000 } else { 10000 },
    );
}

/// Arbitrary short strings (mostly text; they rarely reach an excluded construct).
#[test]
fn arbitrary_strings_build_the_same_tree() {
    check_generated("\\PC{0,60}", 2000);
}

/// Hostile pages past the guard's caps (depth, attributes, open elements, nodes): the own
/// builder with its own caps (`Limits::for_input`) behind the unguarded lexer, and the
/// shipped guarded parse (`webgrip_html::parse`: the guarded lexer and the builder's
/// caps, both), must build the tree the guarded lexer builds in front of html5ever (the
/// parse shipped before, whose lexer applied the caps). Inputs hold nothing the guarded parse
/// strips (scripts, styles, comments, SVG, attributes no view reads), so only the caps can
/// tell them apart.
#[test]
fn hostile_inputs_build_the_shipped_tree() {
    const N: usize = 100_000;
    let attrs: String = (0..10_000).map(|i| format!(" class{i}=v")).collect();
    let cases = [
        "<div>x".repeat(N),
        "<b><p>x</b>".repeat(N),
        "<b><div>x</b>".repeat(N),
        "<b><i>x</b>".repeat(N),
        "<table><tr><td>x".repeat(N),
        "<table>".repeat(N),
        "<a>x".repeat(N),
        "<a href=1><div>x</a>".repeat(N),
        "<p><b><p>x".repeat(N),
        "<math><mrow>x".repeat(1_000),
        "<math><mi><b>x".repeat(1_000),
        format!("<div{attrs}>a</div>b<br{attrs}>c<p class=x>d"),
        format!("<ul>{}", "<li><ul>".repeat(1_000)),
    ];
    for html in &cases {
        let t = std::time::Instant::now();
        let reference = tree_dump::scraper_dump(&tree_dump::html5ever_parse(html, true));
        let reference_s = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        let own = tree_dump::own_with(html, Limits::for_input(html.len()));
        eprintln!(
            "{:?}...: html5ever's parse and dump {reference_s:.2} s, own builder and dump {:.2} s",
            &html[..24.min(html.len())],
            t.elapsed().as_secs_f64()
        );
        assert!(
            tree_dump::shipped(html, true) == reference,
            "the shipped guarded parse differs from html5ever's for {:?}...",
            &html[..40.min(html.len())]
        );
        if own != reference {
            let at = own
                .lines()
                .zip(reference.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(own.lines().count().min(reference.lines().count()));
            let window = |s: &str| -> String {
                let lines: Vec<&str> = s.lines().skip(at.saturating_sub(4)).take(8).collect();
                lines.join("\n")
            };
            panic!(
                "trees differ for {:?}... at line {at}\nown builder:\n{}\nhtml5ever's:\n{}",
                &html[..40.min(html.len())],
                window(&own),
                window(&reference)
            );
        }
    }
}

/// The first `limit` corpus pages (in name order) build the same tree both ways, unguarded
/// (`parse_prepared` against html5ever's builder behind the same lexer) and guarded (`parse`
/// against html5ever's builder behind the guarded lexer: the two shipped parses). A page
/// that differs and reaches one of html5ever's known deficits (`html5ever_known_wrong`) is
/// listed on stderr rather than failed; any other difference fails. Skips when the corpus is
/// absent.
fn check_corpus(limit: usize) {
    let (mut same, mut known) = (0, Vec::new());
    common::for_each_page(limit, |path, html| {
        let Some(reference) = tree_dump::html5ever(html) else {
            eprintln!("{}: at the node cap, not compared", path.display());
            return;
        };
        // The shipped parse, with the builder's own caps on: real pages stay below them.
        let own = tree_dump::shipped(html, false);
        let guarded = tree_dump::shipped(html, true);
        let guarded_reference = tree_dump::scraper_dump(&tree_dump::html5ever_parse(html, true));
        if tree_dump::html5ever_known_wrong(html).is_none() {
            assert!(
                guarded == guarded_reference,
                "guarded trees differ for {}",
                path.display()
            );
        }
        if own == reference {
            same += 1;
            return;
        }
        let at = own
            .lines()
            .zip(reference.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(own.lines().count().min(reference.lines().count()));
        let window = |s: &str| -> String {
            s.lines()
                .skip(at.saturating_sub(5))
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        };
        let report = format!(
            "trees differ for {} at line {at}\nown builder:\n{}\nhtml5ever's:\n{}",
            path.display(),
            window(&own),
            window(&reference)
        );
        let why = tree_dump::html5ever_known_wrong(html);
        assert!(why.is_some(), "{report}");
        eprintln!("html5ever's known deficit ({why:?}): {report}");
        known.push(path.display().to_string());
    });
    eprintln!(
        "{same} corpus pages built the same tree; {} differ where html5ever is known wrong: {known:?}",
        known.len()
    );
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
