//! Making `href`/`src` values absolute: against `<base href>`, then the page URL.

use std::collections::HashMap;

use ego_tree::NodeRef;
use scraper::{Html, Node};
use url::Url;

use crate::dom::attr;

/// The URL relative references on this page resolve against: the first `<base href>`
/// (itself resolved against the page URL), else the page URL.
pub fn document_base(doc: &Html, page_url: Option<&str>) -> Option<Url> {
    let page = page_url.and_then(|u| Url::parse(u.trim()).ok());
    match first_base_href(doc) {
        Some(href) => match &page {
            Some(p) => p.join(href).ok().or(page),
            None => Url::parse(href).ok(),
        },
        None => page,
    }
}

/// `<base href>` lives in `<head>`; look there first and only fall back to a full scan when
/// the head is missing (the common case touches a handful of nodes).
fn first_base_href(doc: &Html) -> Option<&str> {
    let html = doc.tree.root().children().find(is_element_named("html"))?;
    let head = html.children().find(is_element_named("head"))?;
    head.children().find_map(base_href)
}

fn is_element_named(name: &'static str) -> impl Fn(&NodeRef<'_, Node>) -> bool {
    move |n| n.value().as_element().is_some_and(|e| e.name() == name)
}

fn base_href<'a>(node: NodeRef<'a, Node>) -> Option<&'a str> {
    let el = node.value().as_element()?;
    if el.name() != "base" {
        return None;
    }
    attr(el, "href").map(str::trim).filter(|h| !h.is_empty())
}

/// Schemes whose "links" run code or embed data rather than point somewhere.
pub fn is_unsafe_scheme(href: &str) -> bool {
    let head: String = href
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .take(11)
        .collect::<String>()
        .to_ascii_lowercase();
    head.starts_with("javascript:") || head.starts_with("data:") || head.starts_with("vbscript:")
}

/// Resolve `href` against `base`; `None` for empty or unsafe references. Without a base the
/// trimmed reference is returned as written.
pub fn resolve(base: Option<&Url>, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || is_unsafe_scheme(href) {
        return None;
    }
    match base {
        Some(b) => b.join(href).ok().map(String::from),
        None => match Url::parse(href) {
            Ok(u) => Some(u.into()),
            Err(_) => Some(href.to_string()),
        },
    }
}

/// [`resolve`] with memory: pages repeat the same `href`/`src` many times (navigation,
/// product grids; a third of the references on the benchmark page), and joining costs
/// thousands of instructions where a lookup costs a hash.
pub struct Resolver<'b> {
    base: Option<&'b Url>,
    seen: HashMap<Box<str>, Option<String>>,
}

impl<'b> Resolver<'b> {
    pub fn new(base: Option<&'b Url>) -> Self {
        Resolver {
            base,
            seen: HashMap::new(),
        }
    }

    pub fn base(&self) -> Option<&'b Url> {
        self.base
    }

    /// The same answer as [`resolve`]`(base, href)`.
    pub fn resolve(&mut self, href: &str) -> Option<String> {
        if let Some(known) = self.seen.get(href) {
            return known.clone();
        }
        let url = resolve(self.base, href);
        self.seen.insert(href.into(), url.clone());
        url
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_then_page() {
        let doc = Html::parse_document(
            "<html><head><base href='/docs/'></head><body><a href='x'>x</a></body></html>",
        );
        let base = document_base(&doc, Some("https://ex.com/a/b.html"));
        assert_eq!(base.as_ref().map(Url::as_str), Some("https://ex.com/docs/"));
        assert_eq!(
            resolve(base.as_ref(), "x?q=1#f").as_deref(),
            Some("https://ex.com/docs/x?q=1#f")
        );
    }

    #[test]
    fn unsafe_schemes_dropped() {
        assert_eq!(resolve(None, " JavaScript:alert(1)"), None);
        assert_eq!(resolve(None, "java\tscript:alert(1)"), None);
        assert_eq!(resolve(None, "data:text/html,hi"), None);
        assert_eq!(resolve(None, ""), None);
        assert_eq!(
            resolve(None, "mailto:a@b.c").as_deref(),
            Some("mailto:a@b.c")
        );
        assert_eq!(resolve(None, "rel/path").as_deref(), Some("rel/path"));
    }
}
