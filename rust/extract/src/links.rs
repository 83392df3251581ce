//! The `links` view: every `<a href>` as an absolute URL with its text and `rel`.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::tree::NodeRef;
use crate::tree::{Html, Node};
use url::Url;

use crate::element_facts::{attr, FactsByName};
use crate::plain::inline_text_with;
use crate::tracking::TrackingRules;
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
    extract_with(doc, base, None)
}

/// [`extract`] with the tracking parameters `tracking` names removed from every URL; links
/// that differ only in those are then one entry (the first, with the first non-blank text).
pub fn extract_with(doc: &Html, base: Option<&Url>, tracking: Option<&TrackingRules>) -> Vec<Link> {
    let mut v = Finder {
        urls: urls::Resolver::new(base),
        links: Vec::new(),
        index: HashMap::new(),
        facts: FactsByName::default(),
    };
    walk(doc.tree.root(), &mut v);
    // The walk's index (a copy of every URL) goes before the merge builds its own.
    let Finder { links, .. } = v;
    match tracking {
        Some(rules) => merge_stripped(links, rules),
        None => links,
    }
}

/// Strip after merging by the full URL, not in the resolver: each distinct URL is stripped
/// once all the same, and the entries (their `rel` in particular) stay those the full URLs
/// gave, as when Python stripped the finished list. Merged in place: the entries kept move
/// to the front of `links` (a second list would double a page of 300,000 links).
fn merge_stripped(mut links: Vec<Link>, rules: &TrackingRules) -> Vec<Link> {
    let blank = |t: &str| t.chars().all(crate::tracking::is_python_space);
    let mut index: HashMap<String, usize> = HashMap::with_capacity(links.len());
    let mut kept = 0;
    for i in 0..links.len() {
        let mut link = std::mem::replace(
            &mut links[i],
            Link {
                url: String::new(),
                text: String::new(),
                rel: None,
            },
        );
        if let Cow::Owned(stripped) = rules.strip(&link.url) {
            link.url = stripped;
        }
        match index.get(&link.url) {
            Some(&k) => {
                let first = &mut links[k];
                if blank(&first.text) && !blank(&link.text) {
                    first.text = link.text;
                }
            }
            None => {
                // `kept <= i`: the slot is one already emptied (or this link's own).
                index.insert(link.url.clone(), kept);
                links[kept] = link;
                kept += 1;
            }
        }
    }
    links.truncate(kept);
    links
}

struct Finder<'b> {
    urls: urls::Resolver<'b>,
    links: Vec<Link>,
    index: HashMap<String, usize>,
    /// Element names looked up once per name, for the walk and every link's text.
    facts: FactsByName,
}

impl<'a> Visitor<'a> for Finder<'_> {
    fn open(&mut self, node: NodeRef<'a>) -> bool {
        let el = match node.value() {
            Node::Element(el) => el,
            Node::Document | Node::Fragment => return true,
            _ => return false,
        };
        if self.facts.get(el).invisible {
            return false;
        }
        let name = el.name();
        if name != "a" && name != "area" {
            return true;
        }
        let Some(url) = attr(el, "href").and_then(|h| self.urls.resolve(h)) else {
            return true;
        };
        let text = if name == "a" {
            let mut text = String::new();
            inline_text_with(node, &mut text, &mut self.facts);
            text
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

    fn close(&mut self, _node: NodeRef<'a>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_merges_and_drops() {
        let doc = crate::parse(
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

    #[test]
    fn tracking_variants_merge_into_the_first() {
        let doc = crate::parse(
            "<a href='/p?utm_source=x'></a><a href='/p?id=1&fbclid=y' rel=nofollow>P1</a>\
             <a href='/p' rel=ugc>P</a><a href='/p?id=1'>again</a>",
        );
        let base = Url::parse("https://ex.com/").ok();
        let rules = TrackingRules::default();
        let links = extract_with(&doc, base.as_ref(), Some(&rules));
        let got: Vec<(&str, &str, Option<&str>)> = links
            .iter()
            .map(|l| (l.url.as_str(), l.text.as_str(), l.rel.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("https://ex.com/p", "P", None),
                ("https://ex.com/p?id=1", "P1", Some("nofollow")),
            ]
        );
    }
}
