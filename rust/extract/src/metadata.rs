//! The `metadata` view: title, description, canonical URL, language, author, published date
//! and site name from `<meta>` tags, OpenGraph, JSON-LD and a few markup fallbacks.
//!
//! Title preference: `og:title` (publishers set it to the bare headline), then `<title>`
//! (often suffixed with " | Site"), then JSON-LD `headline`, then the first `<h1>`.

use crate::tree::{Html, Kind, Node, Ns};
use serde_json::Value;
use url::Url;

use crate::element_facts::attr;
use crate::jsonld;
use crate::plain::inline_text;
use crate::urls;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<String>,
    pub description: Option<String>,
    pub canonical_url: Option<String>,
    pub language: Option<String>,
    pub author: Option<String>,
    pub published: Option<String>,
    pub site_name: Option<String>,
}

/// Candidates per field, filled from every source; the first non-empty in priority order wins.
#[derive(Default)]
struct Found {
    og_title: Option<String>,
    title_tag: Option<String>,
    ld_headline: Option<String>,
    h1: Option<String>,
    description: Option<String>,
    og_description: Option<String>,
    ld_description: Option<String>,
    canonical: Option<String>,
    og_url: Option<String>,
    lang: Option<String>,
    meta_lang: Option<String>,
    author: Option<String>,
    article_author: Option<String>,
    ld_author: Option<String>,
    published: Option<String>,
    meta_date: Option<String>,
    ld_published: Option<String>,
    time: Option<String>,
    og_site: Option<String>,
    ld_site: Option<String>,
    app_name: Option<String>,
}

/// Set `slot` once, to a trimmed, whitespace-collapsed, non-empty value.
fn set(slot: &mut Option<String>, value: &str) {
    if slot.is_none() {
        // Joined as it goes: no list of the words first.
        let mut v = String::with_capacity(value.len());
        for word in value.split_whitespace() {
            if !v.is_empty() {
                v.push(' ');
            }
            v.push_str(word);
        }
        if !v.is_empty() {
            *slot = Some(v);
        }
    }
}

/// The elements [`extract`] reads (HTML namespace only).
const READ: [&str; 7] = ["html", "title", "h1", "meta", "link", "time", "script"];

pub fn extract(doc: &Html, base: Option<&Url>) -> Metadata {
    let mut f = Found::default();
    let dom = &doc.tree;
    // The only elements read, by their arena name ids: the flat scan below compares integers
    // and looks no further at the other elements (nearly all of a page's).
    // As a table by name id: one load a node rather than seven comparisons.
    let mut read: Vec<bool> = Vec::new();
    for id in READ.iter().filter_map(|name| dom.name_id(name)) {
        let id = id as usize;
        if read.len() <= id {
            read.resize(id + 1, false);
        }
        read[id] = true;
    }
    // The JSON-LD blocks and `<h1>`s, read after the scan and only when a field could still
    // take their value (see `ld_wanted`): parsing a block is most of this view's work, and most
    // pages name their title, author and date in `<meta>` tags that win over JSON-LD.
    let mut scripts: Vec<u32> = Vec::new();
    let mut h1s: Vec<u32> = Vec::new();
    // Arena order is parse (source) order, and a flat scan needs no traversal state.
    for (id, n) in dom.nodes.iter().enumerate() {
        // SVG/MathML `<title>`, `<a>`, ... are not document metadata.
        let named = read.get(n.name as usize).copied().unwrap_or(false);
        if !named || n.kind != Kind::Element || n.ns != Ns::Html {
            continue;
        }
        let Ok(id) = u32::try_from(id) else {
            break;
        };
        let Some(node) = dom.get(id) else {
            break;
        };
        let Node::Element(el) = node.value() else {
            continue;
        };
        match el.name() {
            "html" => set(&mut f.lang, attr(el, "lang").unwrap_or("")),
            "title" if f.title_tag.is_none() => set(&mut f.title_tag, &inline_text_of(node)),
            "h1" => h1s.push(id),
            "meta" => meta(&mut f, el),
            "link" => {
                let is_canonical = attr(el, "rel").is_some_and(|r| {
                    r.split_ascii_whitespace()
                        .any(|t| t.eq_ignore_ascii_case("canonical"))
                });
                if is_canonical {
                    if let Some(u) = attr(el, "href").and_then(|h| urls::resolve(base, h)) {
                        set(&mut f.canonical, &u);
                    }
                }
            }
            "time" if f.time.is_none() => {
                set(&mut f.time, attr(el, "datetime").unwrap_or(""));
            }
            "script" if attr(el, "type").is_some_and(jsonld::is_json_ld_type) => {
                scripts.push(id);
            }
            _ => {}
        }
    }
    // JSON-LD fills only its own `ld_*` slots, each first-come: read in document order after
    // the scan, it leaves them as reading it during the scan did. A field whose `<meta>`
    // candidate ranks first and is present shows that, whatever the blocks hold.
    let ld_wanted = |f: &Found| {
        (f.og_title.is_none() && f.title_tag.is_none())
            || (f.description.is_none() && f.og_description.is_none())
            || f.author.is_none()
            || f.published.is_none()
            || f.og_site.is_none()
    };
    if ld_wanted(&f) {
        for node in scripts.iter().filter_map(|&id| dom.get(id)) {
            json_ld(&mut f, &jsonld::script_text(node));
        }
    }
    // The first `<h1>` with text: the title's last resort.
    if f.og_title.is_none() && f.title_tag.is_none() && f.ld_headline.is_none() {
        for node in h1s.iter().filter_map(|&id| dom.get(id)) {
            set(&mut f.h1, &inline_text(node));
            if f.h1.is_some() {
                break;
            }
        }
    }
    let og_url = f.og_url.as_deref().and_then(|u| urls::resolve(base, u));
    let pick = |xs: [Option<String>; 4]| xs.into_iter().flatten().next();
    Metadata {
        title: pick([f.og_title, f.title_tag, f.ld_headline, f.h1]),
        description: pick([f.description, f.og_description, f.ld_description, None]),
        canonical_url: pick([f.canonical, og_url, None, None]),
        language: pick([f.lang, f.meta_lang, None, None]),
        author: pick([f.author, f.ld_author, f.article_author, None]),
        published: pick([f.published, f.ld_published, f.meta_date, f.time]),
        site_name: pick([f.og_site, f.ld_site, f.app_name, None]),
    }
}

/// `<title>` text (raw text, so no element walk needed).
fn inline_text_of(node: crate::tree::NodeRef<'_>) -> String {
    node.children()
        .filter_map(|c| c.value().as_text().map(|t| t.to_string()))
        .collect()
}

fn meta(f: &mut Found, el: crate::tree::Element<'_>) {
    let Some(content) = attr(el, "content") else {
        return;
    };
    let key = attr(el, "property")
        .or_else(|| attr(el, "name"))
        .or_else(|| attr(el, "itemprop"))
        .or_else(|| attr(el, "http-equiv"))
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match key.as_str() {
        "og:title" | "twitter:title" => set(&mut f.og_title, content),
        "description" => set(&mut f.description, content),
        "og:description" | "twitter:description" => set(&mut f.og_description, content),
        "og:url" => set(&mut f.og_url, content),
        "og:site_name" => set(&mut f.og_site, content),
        "application-name" => set(&mut f.app_name, content),
        "content-language" | "dc.language" => set(&mut f.meta_lang, content),
        "author" | "dc.creator" | "byl" | "parsely-author" | "sailthru.author" => {
            // "By Jane Doe" bylines: keep the name.
            let name = content.trim();
            let name = name
                .strip_prefix("By ")
                .or_else(|| name.strip_prefix("by "))
                .unwrap_or(name);
            set(&mut f.author, name);
        }
        // Often a profile URL rather than a name; only used when nothing better exists.
        "article:author" if !content.trim_start().starts_with("http") => {
            set(&mut f.article_author, content)
        }
        "article:published_time" | "datepublished" | "og:published_time" => {
            set(&mut f.published, content)
        }
        "date" | "pubdate" | "publish-date" | "dc.date" | "dc.date.issued" | "parsely-pub-date"
        | "sailthru.date" => set(&mut f.meta_date, content),
        _ => {}
    }
}

/// Read the fields we use from a JSON-LD block: an object, an array, or an `@graph`.
fn json_ld(f: &mut Found, body: &str) {
    let Ok(value) = serde_json::from_str::<Value>(body.trim()) else {
        return;
    };
    // Explicit stack: `@graph`s and arrays nest, and input is untrusted.
    let mut stack = vec![&value];
    let mut visited = 0;
    while let Some(v) = stack.pop() {
        visited += 1;
        if visited > 10_000 {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(obj) => {
                if let Some(g) = obj.get("@graph") {
                    stack.push(g);
                }
                if let Some(h) = obj.get("headline").and_then(Value::as_str) {
                    set(&mut f.ld_headline, h);
                }
                if let Some(d) = obj.get("datePublished").and_then(Value::as_str) {
                    set(&mut f.ld_published, d);
                }
                if is_article(obj) {
                    if let Some(d) = obj.get("description").and_then(Value::as_str) {
                        set(&mut f.ld_description, d);
                    }
                }
                if let Some(a) = obj.get("author") {
                    if let Some(name) = person_name(a) {
                        set(&mut f.ld_author, &name);
                    }
                }
                if let Some(p) = obj.get("publisher") {
                    if let Some(name) = person_name(p) {
                        set(&mut f.ld_site, &name);
                    }
                }
            }
            _ => {}
        }
    }
}

fn is_article(obj: &serde_json::Map<String, Value>) -> bool {
    obj.contains_key("headline") || obj.contains_key("datePublished")
}

/// `"Jane"`, `{"name": "Jane"}` or a list of those (names joined with ", ").
fn person_name(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("name").and_then(Value::as_str).map(str::to_string),
        Value::Array(items) => {
            let names: Vec<String> = items
                .iter()
                .take(20)
                .filter_map(|i| match i {
                    Value::String(s) => Some(s.clone()),
                    Value::Object(o) => o.get("name").and_then(Value::as_str).map(str::to_string),
                    _ => None,
                })
                .filter(|n| !n.trim().is_empty())
                .collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_sources() {
        let doc = crate::parse(
            r#"<html lang="en-GB"><head><title> Story | Daily </title>
            <meta name="description" content=" A  story. ">
            <link rel="canonical" href="/story">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"NewsArticle","headline":"H","datePublished":"2024-05-01T10:00:00Z",
               "author":[{"@type":"Person","name":"Ann"},{"name":"Bob"}],
               "publisher":{"@type":"Organization","name":"Daily News"}}]}</script>
            </head><body><h1>Big</h1><time datetime="2020-01-01">x</time></body></html>"#,
        );
        let base = Url::parse("https://news.ex/a/b").ok();
        let m = extract(&doc, base.as_ref());
        assert_eq!(m.title.as_deref(), Some("Story | Daily"));
        assert_eq!(m.description.as_deref(), Some("A story."));
        assert_eq!(m.canonical_url.as_deref(), Some("https://news.ex/story"));
        assert_eq!(m.language.as_deref(), Some("en-GB"));
        assert_eq!(m.author.as_deref(), Some("Ann, Bob"));
        assert_eq!(m.published.as_deref(), Some("2024-05-01T10:00:00Z"));
        assert_eq!(m.site_name.as_deref(), Some("Daily News"));
    }

    #[test]
    fn opengraph_wins_and_fallbacks() {
        let doc = crate::parse(
            r#"<head><title>T | S</title><meta property="og:title" content="T">
            <meta property="og:site_name" content="S"><meta name="author" content="By Jo">
            <meta property="article:published_time" content="2023-02-03">
            <script type="application/ld+json">not json</script></head>"#,
        );
        let m = extract(&doc, None);
        assert_eq!(m.title.as_deref(), Some("T"));
        assert_eq!(m.site_name.as_deref(), Some("S"));
        assert_eq!(m.author.as_deref(), Some("Jo"));
        assert_eq!(m.published.as_deref(), Some("2023-02-03"));
        assert_eq!(m.description, None);
        let empty = extract(&crate::parse(""), None);
        assert_eq!(empty, Metadata::default());
    }

    #[test]
    fn time_fallback() {
        let doc = crate::parse("<p><time datetime='2021-09-09'>Sep 9</time>");
        assert_eq!(extract(&doc, None).published.as_deref(), Some("2021-09-09"));
    }
}
