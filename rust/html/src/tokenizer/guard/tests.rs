//! Unit tests of the pre-pass, through [`defuse`] and [`defuse_only`].

use super::*;

fn strip(html: &str) -> String {
    defuse(html).into_owned()
}

#[test]
fn ordinary_pages_borrowed() {
    let page = "<html><head><title>t</title></head><body>\
                <div class='a>b'><p>x<p>y<svg/></div></body></html>";
    assert!(matches!(defuse(page), Cow::Borrowed(_)));
    let page = "<html><head><script>if (a<b) x='<div>'</script></head><body>\
                <div class='a>b'><p>x<p>y<svg><path/><path/></svg></div></body></html>";
    assert!(matches!(defuse_only(page), Cow::Borrowed(_)));
}

#[test]
fn deep_nesting_capped() {
    let n = 10_000;
    let page = format!("{}x{}", "<div>".repeat(n), "</div>".repeat(n));
    let out = defuse(&page);
    assert_eq!(out.matches("<div>").count(), MAX_DEPTH);
    assert_eq!(out.matches("</div>").count(), MAX_DEPTH);
    assert!(out.contains('x'));
}

#[test]
fn attribute_bombs_dropped() {
    let page = format!("<p>a<span {}>b</span>c", "x=1 ".repeat(1000));
    assert_eq!(defuse(&page), "<p>ab</span>c".replace("</span>", ""));
}

#[test]
fn script_and_style_emptied() {
    assert_eq!(
        strip("<p>a<script>if (a<b) x='</div>'</script>b<style>p>a{}</style>c"),
        "<p>a<script></script>b<style></style>c"
    );
    // Case and whitespace in the end tag; attributes on it.
    assert_eq!(
        strip("<SCRIPT src=x>x</SCRIPT >y<Style>z</sTyle\t>"),
        "<SCRIPT src=x></SCRIPT >y<Style></sTyle\t>"
    );
    assert_eq!(strip("<script>a</script/>b"), "<script></script/>b");
    // `</scripts>` does not end a script.
    assert_eq!(
        strip("<script>a</scripts>b</script>c"),
        "<script></script>c"
    );
}

#[test]
fn json_ld_kept() {
    let page = r#"<script type=" Application/LD+JSON ">{"a":"<b>"}</script><script type="text/javascript">x</script>"#;
    assert_eq!(
        strip(page),
        r#"<script type=" Application/LD+JSON ">{"a":"<b>"}</script><script type="text/javascript"></script>"#
    );
}

#[test]
fn script_at_eof_dropped() {
    assert_eq!(strip("<p>a<script>var x = '<p>b"), "<p>a<script>");
    assert_eq!(strip("<p>a<style>p{"), "<p>a<style>");
    // `</script` at EOF without its `>` is not an end tag either.
    assert_eq!(strip("a<script>x</script"), "a<script>");
}

#[test]
fn script_escape_states() {
    // `<!--` then `<script>` inside a script: its `</script>` does not end the outer one.
    let page = "<script><!-- document.write('<script>x</script>') --></script><p>after";
    assert_eq!(strip(page), "<script></script><p>after");
    // Leaving the escape with `-->` before the end tag.
    let page = "<script><!-- a --> <script> </script>b";
    assert_eq!(strip(page), "<script></script>b");
    // `<!-->` opens and closes the escape at once.
    let page = "<script><!--><script></script>b";
    assert_eq!(strip(page), "<script></script>b");
    // Inside the escape (not double-escaped), `</script>` ends the script.
    let page = "<script><!-- x </script>b";
    assert_eq!(strip(page), "<script></script>b");
}

#[test]
fn raw_text_inside_noscript_ends_with_it() {
    // A self-closed iframe does not close; its raw text stops at `</noscript>`.
    assert_eq!(
        strip("<noscript><iframe src=x /></noscript><p>page</p>"),
        "<noscript><iframe src=x /></iframe></noscript><p>page</p>"
    );
    // Closed in time, or outside any noscript: untouched.
    for page in [
        "<noscript><iframe></iframe></noscript><p>x</p>",
        "<iframe></noscript><p>x</p></iframe>",
    ] {
        assert_eq!(strip(page), page);
    }
}

#[test]
fn tags_inside_attribute_values_ignored() {
    let page = r#"<a title="<script>" href='x>'>t</a><div class=<style>>u</div>"#;
    assert_eq!(strip(page), page);
    // An `=` before an attribute name starts a name, so the quote is not a value.
    let page = r#"<p =">" x><script>s</script>"#;
    assert_eq!(strip(page), r#"<p >" x><script></script>"#);
    // Unquoted value ending in `/` is not self-closing.
    let page = "<svg viewBox=0/><path d=1></path></svg>x";
    assert_eq!(strip(page), "<svg ></svg>x");
}

#[test]
fn raw_text_elements_hide_tags() {
    for page in [
        "<textarea><script>x</script></textarea>",
        "<title><style>x</style></title>",
        "<xmp><!-- <script>a</script> --></xmp>",
        "<iframe><svg><path/></svg></iframe>",
        "<noembed><script>a</script></noembed>",
        "<noframes><style>a</style></noframes>",
    ] {
        assert_eq!(strip(page), page, "{page}");
    }
    assert_eq!(
        strip("<textarea>a</textarea ><script>b</script>"),
        "<textarea>a</textarea ><script></script>"
    );
    // Plaintext: nothing after it is markup.
    let page = "<plaintext><script>a</script>";
    assert_eq!(strip(page), page);
}

#[test]
fn noscript_is_markup() {
    // Scripting is disabled, so noscript content is parsed (and kept): only its script
    // contents go.
    assert_eq!(
        strip("<noscript><p>x<script>y</script></noscript>"),
        "<noscript><p>x<script></script></noscript>"
    );
}

#[test]
fn comments() {
    assert_eq!(strip("a<!-- x -->b"), "a<!---->b");
    assert_eq!(strip("a<!-->b<!--->c"), "a<!-->b<!--->c");
    assert_eq!(strip("a<!-- x --!>b"), "a<!----!>b");
    assert_eq!(strip("a<!-- x -- >y--->b"), "a<!---->b");
    assert_eq!(strip("a<!-- <script> -->b"), "a<!---->b");
    assert_eq!(strip("a<!-- never closed <p>"), "a<!--");
    // Bogus comments and doctypes end at the first `>`.
    assert_eq!(
        strip("<!DOCTYPE html><?x <script>?>a<script>b</script>"),
        "<!DOCTYPE html><?x <script>?>a<script></script>"
    );
}

#[test]
fn svg_emptied() {
    assert_eq!(
        strip("a<svg viewBox='0 0 1 1'><g><path d='M0'/><title>T</title></g></svg>b"),
        "a<svg ></svg>b"
    );
    // Nested svg, `</svg>` in CDATA and comments.
    assert_eq!(
        strip("<svg><svg><g/></svg><![CDATA[</svg>]]><!--</svg>--><style>x</style></svg>b"),
        "<svg></svg>b"
    );
    // Unclosed: the rest of the document is SVG.
    assert_eq!(strip("a<svg><path>"), "a<svg>");
    // Self-closing svg has no content.
    assert_eq!(strip("<svg/><p>x"), "<svg/><p>x");
}

#[test]
fn svg_left_whole_when_unusual() {
    for page in [
        // Breakout tags end the SVG early; their text is visible.
        "<svg><path/><div>visible</div></svg>",
        "<svg><p>x</svg>",
        "<svg><font color=red>x</font></svg>",
        // HTML inside foreignObject, or markup inside an SVG title.
        "<svg><foreignObject><p>x</p></foreignObject></svg>",
        "<svg><title><b>x</b></title></svg>",
        // An end tag matching nothing inside acts on HTML elements outside.
        "<div><svg><g></div>x</svg>",
        "<svg></p></svg>",
    ] {
        assert_eq!(strip(page), page, "{page}");
    }
}

#[test]
fn scripts_inside_foreign_content_are_markup() {
    // An SVG <script>/<style> is tokenized as markup: not cut by the script rule (the
    // whole svg is left as is because of the breakout).
    let page = "<svg><script>a<b>c</b></script></svg>";
    assert_eq!(strip(page), page);
    // After a breakout, HTML again.
    let page = "<svg><b>x</b><script>y</script>";
    assert_eq!(strip(page), "<svg><b>x</b><script></script>");
    // Integration points read HTML: a script there is a real script.
    let page = "<math><mi><script>y</script></mi></math>";
    assert_eq!(strip(page), "<math><mi><script></script></mi></math>");
}

#[test]
fn template_content_kept() {
    let page = "<template><p>x</p></template>";
    assert_eq!(strip(page), page);
}

#[test]
fn frameset_disables_stripping() {
    let page = "<svg>text</svg><FrameSet><script>a</script>";
    assert_eq!(strip(page), page);
    assert_eq!(
        strip("<svg>text</svg><framesets>"),
        "<svg></svg><framesets>"
    );
}

#[test]
fn unread_attributes_removed() {
    let long = "x".repeat(100);
    let page =
        format!(r#"<div data-big="{long}" class="{long}" :v='{long}' u={long} k>a</div><a x=1/>"#);
    assert_eq!(
        strip(&page),
        format!(r#"<div  class="{long}"   >a</div><a >"#)
    );
    let page = format!(r#"<img src="data:image/png;base64,{long}" alt=x>"#);
    assert_eq!(strip(&page), r#"<img src="data:" alt=x>"#);
    // Adjacent attributes, `=` with spaces, a dangling `=`.
    assert_eq!(
        strip(r#"<a x="1"href="y" z = '2' w= >t</a>"#),
        r#"<a href="y"   >t</a>"#
    );
    // Attributes that steer the parser stay.
    let page = "<font color=red face=x size=2><input type=hidden><math><annotation-xml encoding=text/html>";
    assert_eq!(strip(page), page);
}

/// An unread attribute right after a `/` goes with its slashes: `<a/x>` and `<a>` are one
/// tag, where `<a/>` is self-closing. Kept instead, it let a page carry any attribute into
/// the tree, one per repeated `<body/x>` (issue 45, F1).
#[test]
fn unread_attributes_after_a_slash_removed_with_it() {
    assert_eq!(
        strip("<body/a1><html//a2/>x<a b/c d='1'/e>"),
        "<body><html/>x<a  >"
    );
    // Read ones stay, slashes and all; a `/` inside an unquoted value is the value's.
    assert_eq!(strip("<a/href=x/y/>"), "<a/href=x/y/>");
    assert_eq!(strip("<a href=x/y>"), "<a href=x/y>");
}

/// Issue 45, F5: a tag's attributes are read to its end, but no more than one past the cap
/// are kept (a tag past it is dropped whatever the rest say).
#[test]
fn a_scan_keeps_one_attribute_past_the_cap() {
    let tag = format!("<div {}>after", "a ".repeat(100_000));
    let b = tag.as_bytes();
    let mut attrs = Vec::new();
    let scanned = scan_guarded(b, 4, &mut attrs).expect("a tag");
    assert_eq!(&tag[scanned.end..], "after");
    assert_eq!(attrs.len(), KEPT_ATTRS);
    assert_eq!(KEPT_ATTRS, MAX_ATTRS + 1);
    let scanned = scan_tag_keeping(b, 4, &mut attrs, 0).expect("a tag");
    assert_eq!(&tag[scanned.end..], "after");
    assert!(attrs.is_empty());
    let _ = scan_tag(b, 4, &mut attrs);
    assert_eq!(attrs.len(), 100_000);
    assert_eq!(defuse(&tag), "after");
}

#[test]
fn never_panics_on_odd_input() {
    let cases = [
        "<",
        "</",
        "<!",
        "<!-",
        "<!--",
        "<!---",
        "<a",
        "<a b",
        "<a b=",
        "<a b=\"",
        "<a/",
        "<script",
        "<script>",
        "<script><!--",
        "<script><!--<script",
        "<svg",
        "<svg>",
        "<svg><![CDATA[",
        "</a",
        "<?",
        "<é>",
        "<sçript>é</sçript>",
        "<a b='é'>",
        "<svg><é",
        "<script>é</script\u{e9}>",
    ];
    for c in cases {
        let _ = defuse(c);
        let _ = defuse_only(c);
    }
}
