//! Development aid: print the readable selection of HTML files as JSON lines
//! (`{"file": ..., "text": ...}`) with a plain text walk, for scoring outside Python.
use std::io::Write;

use webgrip_extract::Html;
use webgrip_html::{Node, NodeId};

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "section"
            | "article"
            | "main"
            | "li"
            | "ul"
            | "ol"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "pre"
            | "blockquote"
            | "tr"
            | "table"
            | "br"
            | "dd"
            | "dt"
            | "header"
            | "footer"
            | "nav"
            | "aside"
            | "figure"
            | "figcaption"
            | "form"
            | "td"
            | "th"
    )
}

fn walk(doc: &Html, scope: &webgrip_extract::Scope, out: &mut String) {
    if let Some(s) = &scope.supplement {
        out.push_str(s);
        out.push_str("\n\n");
    }
    for root in scope.roots_in(doc) {
        let mut stack: Vec<(NodeId, bool)> = vec![(root, false)];
        while let Some((id, closing)) = stack.pop() {
            let Some(node) = doc.tree.get(id) else {
                continue;
            };
            match node.value() {
                Node::Text(t) => out.push_str(t),
                Node::Element(el) => {
                    let name = el.name();
                    if closing {
                        if is_block(name) {
                            out.push('\n');
                        }
                        continue;
                    }
                    if scope.skips(id)
                        || matches!(
                            name,
                            "script"
                                | "style"
                                | "template"
                                | "head"
                                | "svg"
                                | "iframe"
                                | "select"
                                | "button"
                                | "option"
                                | "textarea"
                        )
                    {
                        continue;
                    }
                    if is_block(name) {
                        out.push('\n');
                    }
                    stack.push((id, true));
                    let kids: Vec<NodeId> = node.children().map(|c| c.id()).collect();
                    for k in kids.into_iter().rev() {
                        stack.push((k, false));
                    }
                }
                Node::Document | Node::Fragment => {
                    let kids: Vec<NodeId> = node.children().map(|c| c.id()).collect();
                    for k in kids.into_iter().rev() {
                        stack.push((k, false));
                    }
                }
                _ => {}
            }
        }
    }
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

fn main() {
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    let mut secs = 0.0f64;
    let mut bytes = 0usize;
    for path in std::env::args().skip(1) {
        let Ok(html) = std::fs::read_to_string(&path) else {
            continue;
        };
        let t0 = std::time::Instant::now();
        let doc = webgrip_extract::parse(&html);
        if std::env::var_os("PARSE_ONLY").is_some() {
            continue;
        }
        let scope = webgrip_extract::select_main_content(&doc, None);
        let text = if std::env::var_os("OWN_WALK").is_some() {
            let mut text = String::new();
            walk(&doc, &scope, &mut text);
            text
        } else {
            webgrip_extract::render_text(&doc, &scope)
        };
        secs += t0.elapsed().as_secs_f64();
        bytes += html.len();
        let _ = writeln!(
            w,
            "{{\"file\": \"{}\", \"text\": \"{}\"}}",
            esc(&path),
            esc(&text)
        );
    }
    eprintln!("{:.1} MB/s", bytes as f64 / 1e6 / secs.max(1e-9));
}
