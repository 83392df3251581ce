//! The `links` view: every `<a href>` as an absolute URL with its text and `rel`.

use std::collections::HashMap;

use ego_tree::NodeRef;
use scraper::{Html, Node};
use url::Url;

use crate::dom::{self, attr};
use crate::plain::inline_text;
use crate::urls;
use crate::walk::{walk, Visitor};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub url: String,
    pub text: String,
    pub rel: Option<String>,
}

/// Links in document order; `javascript:`/`data:`/`vbscript:` dropped; one entry per URL
/// (its first non-empty text and `rel` kept). Links inside hidden elements are kept (menus
/// are often hidden until opened), those in script/template/svg are not.
pub fn extract(doc: &Html, base: Option<&Url>) -> Vec<Link> {
    let mut v = Finder {
        urls: urls::Resolver::new(base),
        links: Vec::new(),
        index: HashMap::new(),
    };
    walk(doc.tree.root(), &mut v);
    v.links
}

struct Finder<'b> {
    urls: urls::Resolver<'b>,
    links: Vec<Link>,
    index: HashMap<String, usize>,
}

impl<'a> Visitor<'a> for Finder<'_> {
    fn open(&mut self, node: NodeRef<'a, Node>) -> bool {
        let el = match node.value() {
            Node::Element(el) => el,
            Node::Document | Node::Fragment => return true,
            _ => return false,
        };
        let name = el.name();
        if dom::is_invisible_tag(name) {
            return false;
        }
        if name != "a" && name != "area" {
            return true;
        }
        let Some(url) = attr(el, "href").and_then(|h| self.urls.resolve(h)) else {
            return true;
        };
        let text = if name == "a" {
            inline_text(node)
        } else {
            attr(el, "alt").unwrap_or("").trim().to_string()
        };
        let rel = attr(el, "rel")
            .map(|r| r.split_ascii_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|r| !r.is_empty());
        match self.index.get(&url) {
            Some(&i) => {
                let link = &mut self.links[i];
                if link.text.is_empty() && !text.is_empty() {
                    link.text = text;
                }
                if link.rel.is_none() {
                    link.rel = rel;
                }
            }
            None => {
                self.index.insert(url.clone(), self.links.len());
                self.links.push(Link { url, text, rel });
            }
        }
        // The link's text is taken; nested anchors are impossible in parsed HTML.
        false
    }

    fn close(&mut self, _node: NodeRef<'a, Node>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_merges_and_drops() {
        let doc = Html::parse_document(
            "<base href='https://cdn.ex/'><a href='/a'><img alt=''></a> <a href=/a rel='nofollow  ugc'>A</a>\
             <a href='javascript:void(0)'>js</a><a href='data:,x'>d</a><a href='mailto:x@y.z'>Mail</a>\
             <a>no href</a><a href='b#top'> B <b>bold</b> </a>",
        );
        let base = urls::document_base(&doc, Some("https://ex.com/p"));
        let links = extract(&doc, base.as_ref());
        let got: Vec<(&str, &str, Option<&str>)> = links
            .iter()
            .map(|l| (l.url.as_str(), l.text.as_str(), l.rel.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("https://cdn.ex/a", "A", Some("nofollow ugc")),
                ("mailto:x@y.z", "Mail", None),
                ("https://cdn.ex/b#top", "B bold", None),
            ]
        );
    }
}
