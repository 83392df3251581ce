//! Text and Markdown emitters on small hand-made pages.

use url::Url;
use webgrip_extract::{document_base, render_markdown, render_text, Scope};

fn md(html: &str) -> String {
    let doc = webgrip_extract::parse(html);
    let base = document_base(&doc, Some("https://ex.com/dir/page.html"));
    render_markdown(&doc, &Scope::whole(), base.as_ref())
}

fn txt(html: &str) -> String {
    render_text(&webgrip_extract::parse(html), &Scope::whole())
}

#[test]
fn headings_paragraphs_emphasis() {
    assert_eq!(
        md("<h1>Title</h1><p>Some <b> bold </b>and<i>it</i>  <em></em>x</p><h3>Sub</h3><p>end</p>"),
        "# Title\n\nSome **bold** and*it* x\n\n### Sub\n\nend\n"
    );
    assert_eq!(
        txt("<h1>Title</h1><p>Some <b> bold </b>and<i>it</i></p><h3>Sub</h3><p>end</p>"),
        "Title\n\nSome bold andit\n\nSub\n\nend\n"
    );
}

#[test]
fn links_and_images() {
    assert_eq!(
        md("<p><a href='/x'>home</a> <a href='javascript:alert(1)'>js</a> <a href='q?a=1'><img src='i.png' alt='pic [1]'></a> <a href='#'></a></p>"),
        "[home](https://ex.com/x) js [![pic \\[1\\]](https://ex.com/dir/i.png)](https://ex.com/dir/q?a=1)\n"
    );
    assert_eq!(
        md("<a href='/a b(c'>t</a>"),
        "[t](<https://ex.com/a%20b(c>)\n"
    );
}

#[test]
fn code() {
    assert_eq!(
        md("<p>Use <code>a`b</code> or <code>x</code>.</p><pre class='language-rust'><code>fn main() {\n    let x = 1;\n}\n</code></pre>"),
        "Use ``a`b`` or `x`.\n\n```rust\nfn main() {\n    let x = 1;\n}\n```\n"
    );
    assert_eq!(
        md("<pre><code class='lang-py'>a\n```\nb</code></pre>"),
        "````py\na\n```\nb\n````\n"
    );
    assert_eq!(txt("<p>a</p><pre>  x  y\n z</pre>"), "a\n\n  x  y\n z\n");
}

#[test]
fn highlighter_lines_without_newlines_stay_lines() {
    // Shiki's markup with the newlines between lines minified away: CSS shows them apart.
    let joined = "<pre class='shiki'><code><span class='line'><span>x = 1</span></span>\
                  <span class='line'><span>y = 2</span></span><span class='line'></span>\
                  <span class='line'>z</span></code></pre>";
    assert_eq!(md(joined), "```\nx = 1\ny = 2\n\nz\n```\n");
    assert_eq!(txt(joined), "x = 1\ny = 2\n\nz\n");
    // With the newlines in the markup, nothing is added; other spans and `line` outside a
    // listing are text as before.
    let spaced = "<pre><code><span class='line'>a</span>\n<span class='line'>b</span></code></pre>";
    assert_eq!(md(spaced), "```\na\nb\n```\n");
    assert_eq!(
        txt(&format!("<p>a</p>{spaced}<p>b</p>{joined}")),
        "a\n\na\nb\n\nb\n\nx = 1\ny = 2\n\nz\n"
    );
    let empty_first = "<pre><span class='line'></span>\n<span class='line'>b</span></pre>";
    assert_eq!(txt(&format!("<p>a</p>{empty_first}")), "a\n\n\nb\n");
    assert_eq!(
        txt("<pre><span class='tok'>a</span><span class='lines'>b</span></pre><p><span class='line'>c</span><span class='line'>d</span></p>"),
        "ab\n\ncd\n"
    );
}

#[test]
fn lists_nested() {
    let html = "<ul><li>a<ul><li>b</li><li>c<ol start=3><li>d</li><li>e</li></ol></li></ul></li><li>f</li></ul>";
    assert_eq!(md(html), "- a\n  - b\n  - c\n    3. d\n    4. e\n- f\n");
    assert_eq!(txt(html), "- a\n  - b\n  - c\n    3. d\n    4. e\n- f\n");
    assert_eq!(
        md("<ol><li><p>p1</p><p>p2</p></li><li>q</li></ol>"),
        "1. p1\n\n   p2\n\n2. q\n"
    );
}

#[test]
fn blockquotes() {
    assert_eq!(
        md("<blockquote><p>a</p><blockquote><p>b</p></blockquote><p>c</p></blockquote><p>d</p>"),
        "> a\n>\n> > b\n>\n> c\n\nd\n"
    );
}

#[test]
fn tables_markdown_and_text() {
    let html = "<table><thead><tr><th>A</th><th>B|x</th></tr></thead><tbody>\
        <tr><td colspan=2>wide</td></tr><tr><td>1<br>2</td><td><b>3</b></td></tr></tbody></table>";
    assert_eq!(
        md(html),
        "| A | B\\|x |\n| --- | --- |\n| wide | wide |\n| 1<br>2 | **3** |\n"
    );
    assert_eq!(txt(html), "A | B|x\nwide\n1 2 | 3\n");
}

#[test]
fn breaks_rules_and_hidden() {
    assert_eq!(md("<p>a<br>b</p><hr><p>c</p>"), "a  \nb\n\n---\n\nc\n");
    assert_eq!(
        txt("<p>a<script>S</script><style>T</style><span hidden>H</span><span aria-hidden=true>A</span><span style='display: none'>D</span>b</p><noscript>N</noscript>"),
        "ab\n"
    );
}

#[test]
fn escaping_is_minimal() {
    assert_eq!(
        md("<p>snake_case *star* 2 * 3 [1] # not heading</p><p># hash</p><p>1. not a list</p>"),
        "snake_case \\*star\\* 2 * 3 [1] # not heading\n\n\\# hash\n\n1\\. not a list\n"
    );
}

#[test]
fn whitespace_collapses_like_a_browser() {
    assert_eq!(
        txt("<p>  a \n\n b&nbsp;&nbsp;c </p>\n\n<div> d </div>"),
        "a b c\n\nd\n"
    );
}

#[test]
fn scope_roots_and_skip() {
    let doc =
        webgrip_extract::parse("<nav>menu</nav><article><p>keep</p><aside>drop</aside></article>");
    let find = |name: &str| {
        doc.tree
            .all_nodes()
            .find(|n| n.value().as_element().is_some_and(|e| e.name() == name))
            .map(|n| n.id())
            .expect("element")
    };
    let mut scope = Scope::whole();
    scope.roots.push(find("article"));
    scope.skip.insert(find("aside"));
    scope.supplement = Some("Lead.".into());
    assert_eq!(render_text(&doc, &scope), "Lead.\n\nkeep\n");
    let base = Url::parse("https://ex.com/").ok();
    assert_eq!(
        render_markdown(&doc, &scope, base.as_ref()),
        "Lead.\n\nkeep\n"
    );
}
