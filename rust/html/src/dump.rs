//! The html5lib-tests `#document` dump of an arena DOM (tree-construction/README.md in the
//! suite): the format the conformance runner compares, and a readable tree for tests.

use crate::arena::{Dom, Kind, NodeId, Ns};

/// The children of `root` (the document, or for a fragment parse the `<html>` element the
/// fragment algorithm puts them in), one line each, `| ` plus two spaces per level, lines
/// joined by `\n` with no trailing newline. Iterative, so that a deeply nested document
/// cannot overflow the stack.
pub fn html5lib_dump(dom: &Dom, root: NodeId) -> String {
    let mut out = Vec::new();
    let mut todo: Vec<Item> = Vec::new();
    push_children(dom, root, 0, &mut todo);
    while let Some(item) = todo.pop() {
        match item {
            Item::Content(depth) => out.push(format!("{}content", pad(depth))),
            Item::Node(id, depth) => {
                line(dom, id, depth, &mut out);
                push_children(dom, id, depth + 1, &mut todo);
                // Pushed last, popped first: the `content` line and the template's
                // contents come before the template's own children.
                if let Some(contents) = dom.template_contents(id) {
                    push_children(dom, contents, depth + 2, &mut todo);
                    todo.push(Item::Content(depth + 1));
                }
            }
        }
    }
    out.join("\n")
}

/// What is left to print: a node at a depth, or a template's `content` line.
enum Item {
    Node(NodeId, usize),
    Content(usize),
}

/// Queue `parent`'s children so that they pop first to last.
fn push_children(dom: &Dom, parent: NodeId, depth: usize, todo: &mut Vec<Item>) {
    let start = todo.len();
    todo.extend(dom.children(parent).map(|c| Item::Node(c, depth)));
    todo[start..].reverse();
}

fn pad(depth: usize) -> String {
    format!("| {}", "  ".repeat(depth))
}

/// The node's own line, and an element's attribute lines.
fn line(dom: &Dom, id: NodeId, depth: usize, out: &mut Vec<String>) {
    let pad = pad(depth);
    match dom.kind(id) {
        Kind::Document => out.push(format!("{pad}#document")),
        Kind::Fragment => out.push(format!("{pad}content")),
        Kind::Doctype => {
            let (name, public, system) = dom.doctype(id).unwrap_or_default();
            if public.is_none() && system.is_none() {
                out.push(format!("{pad}<!DOCTYPE {name}>"));
            } else {
                out.push(format!(
                    "{pad}<!DOCTYPE {name} \"{}\" \"{}\">",
                    public.unwrap_or(""),
                    system.unwrap_or("")
                ));
            }
        }
        Kind::Comment => out.push(format!("{pad}<!-- {} -->", dom.text(id))),
        Kind::Text => out.push(format!("{pad}\"{}\"", dom.text(id))),
        Kind::Element => {
            let (ns, name) = dom.element_name(id).unwrap_or((Ns::Html, ""));
            let prefix = match ns {
                Ns::Svg => "svg ",
                Ns::MathMl => "math ",
                _ => "",
            };
            out.push(format!("{pad}<{prefix}{name}>"));
            let mut attrs: Vec<(String, &str)> = dom
                .attrs(id)
                .iter()
                .map(|a| {
                    let prefix = match a.ns {
                        Ns::XLink => "xlink ",
                        Ns::Xml => "xml ",
                        Ns::Xmlns => "xmlns ",
                        _ => "",
                    };
                    (format!("{prefix}{}", dom.attr_name(a)), dom.attr_value(a))
                })
                .collect();
            // By UTF-16 code unit, as the format asks (byte order differs past the BMP).
            attrs.sort_by_cached_key(|(name, _)| name.encode_utf16().collect::<Vec<u16>>());
            let apad = self::pad(depth + 1);
            for (name, value) in attrs {
                out.push(format!("{apad}{name}=\"{value}\""));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dumps_every_kind() {
        let mut dom = Dom::new();
        let dt = dom.new_doctype("html", None, None);
        dom.append(Dom::DOCUMENT, dt);
        let html = dom.new_element(Ns::Html, "html", []);
        dom.append(Dom::DOCUMENT, html);
        let svg = dom.new_element(
            Ns::Svg,
            "svg",
            [
                (Ns::XLink, "href", "#a"),
                (Ns::None, "b", "2"),
                (Ns::None, "a", "1"),
            ],
        );
        dom.append(html, svg);
        let c = dom.new_comment("c");
        dom.append(svg, c);
        let t = dom.new_element(Ns::Html, "template", []);
        dom.append(html, t);
        let contents = dom.template_contents(t).unwrap();
        dom.append_text(contents, "x");
        let p = dom.new_element(Ns::Html, "p", []);
        dom.append(html, p);
        let got = html5lib_dump(&dom, Dom::DOCUMENT);
        let want = "| <!DOCTYPE html>\n| <html>\n|   <svg svg>\n|     a=\"1\"\n|     b=\"2\"\n|     xlink href=\"#a\"\n|     <!-- c -->\n|   <template>\n|     content\n|       \"x\"\n|   <p>";
        assert_eq!(got, want);
    }

    #[test]
    fn doctype_ids_when_present() {
        let mut dom = Dom::new();
        let dt = dom.new_doctype("html", Some(""), None);
        dom.append(Dom::DOCUMENT, dt);
        assert_eq!(
            html5lib_dump(&dom, Dom::DOCUMENT),
            "| <!DOCTYPE html \"\" \"\">"
        );
    }
}
