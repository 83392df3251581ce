//! Making `href`/`src` values absolute: against `<base href>`, then the page URL.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use crate::tree::Html;
use crate::tree::NodeRef;
use url::Url;

use crate::element_facts::attr;
use crate::tracking::TrackingRules;

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

fn is_element_named(name: &'static str) -> impl Fn(&NodeRef<'_>) -> bool {
    move |n| n.value().as_element().is_some_and(|e| e.name() == name)
}

fn base_href<'a>(node: NodeRef<'a>) -> Option<&'a str> {
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
    if let Some(url) = plain_absolute(href) {
        return Some(url);
    }
    match base {
        Some(b) => b.join(href).ok().map(String::from),
        None => match Url::parse(href) {
            Ok(u) => Some(u.into()),
            Err(_) => Some(href.to_string()),
        },
    }
}

/// Most links on a page are absolute `http(s)` URLs already in the form the URL parser
/// would print. Recognising that form is a byte scan; parsing costs thousands of
/// instructions. `Some` only when the answer is exactly `Url::parse(href)`'s serialisation
/// (property-tested against it): lower-case scheme and host of letters, digits, `-` and
/// `.` (no port, user info, IP address or punycode), and a path, query and fragment of
/// characters the parser keeps as they are, with no dot segments.
fn plain_absolute(href: &str) -> Option<String> {
    let b = href.as_bytes();
    let rest = b
        .strip_prefix(b"https://")
        .or_else(|| b.strip_prefix(b"http://"))?;
    let host_len = rest
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let host = &rest[..host_len];
    let labels_ok = host.split(|&c| c == b'.').enumerate().all(|(i, label)| {
        let last = i + 1 == host.split(|&c| c == b'.').count();
        // An empty last label is a trailing dot, which the parser keeps.
        (label.is_empty() && last && i > 0)
            || (!label.is_empty()
                && label
                    .iter()
                    .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
                && !label.starts_with(b"xn--"))
    });
    // The last real label must start with a letter: otherwise the host may be read as an
    // IPv4 address (`1.2.3.4`, `0x7f.1`).
    let last_label = host
        .split(|&c| c == b'.')
        .rfind(|l| !l.is_empty())
        .unwrap_or_default();
    if host.is_empty() || !labels_ok || !last_label.first().is_some_and(u8::is_ascii_lowercase) {
        return None;
    }
    let tail = &rest[host_len..];
    let path_end = tail
        .iter()
        .position(|&c| matches!(c, b'?' | b'#'))
        .unwrap_or(tail.len());
    let path = &tail[..path_end];
    let kept = |c: &u8| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'?'
                    | b'#'
                    | b'%'
            )
    };
    let dot_segment = memchr::memmem::find(path, b"/.").is_some()
        || path.windows(3).any(|w| w.eq_ignore_ascii_case(b"%2e"));
    if !tail.iter().all(kept) || dot_segment {
        return None;
    }
    let mut out = String::with_capacity(href.len() + 1);
    out.push_str(&href[..href.len() - tail.len()]);
    if path.is_empty() {
        // Special URLs always have a path.
        out.push('/');
    }
    out.push_str(&href[href.len() - tail.len()..]);
    Some(out)
}

/// `resolve` with memory: pages repeat the same `href`/`src` many times (navigation,
/// product grids; a third of the references on the benchmark page), and joining costs
/// thousands of instructions where a lookup costs a hash. With tracking rules, each URL also
/// loses its tracking parameters here, once per distinct reference. Hashed with foldhash
/// under its per-process random seed (a page's references are its author's to choose, so
/// the seed keeps them from being made to collide): SipHash was a third of a lookup's cost
/// and 4% of a link-heavy page's Markdown.
pub struct Resolver<'b> {
    base: Option<&'b Url>,
    tracking: Option<&'b TrackingRules>,
    seen: HashMap<Box<str>, Option<String>, foldhash::fast::RandomState>,
}

impl<'b> Resolver<'b> {
    pub fn new(base: Option<&'b Url>) -> Self {
        Self::with_tracking(base, None)
    }

    /// A resolver that also strips the tracking parameters `tracking` names.
    pub fn with_tracking(base: Option<&'b Url>, tracking: Option<&'b TrackingRules>) -> Self {
        Resolver {
            base,
            tracking,
            seen: HashMap::default(),
        }
    }

    pub fn base(&self) -> Option<&'b Url> {
        self.base
    }

    /// The same answer as [`resolve`]`(base, href)`, then without tracking parameters.
    pub fn resolve(&mut self, href: &str) -> Option<String> {
        if let Some(known) = self.seen.get(href) {
            return known.clone();
        }
        let url = resolve(self.base, href).map(|url| match self.tracking {
            Some(rules) => match rules.strip(&url) {
                Cow::Borrowed(_) => url,
                Cow::Owned(stripped) => stripped,
            },
            None => url,
        });
        self.seen.insert(href.into(), url.clone());
        url
    }
}

/// `markdown` with every image whose target `refused` judges reduced to its alt text as
/// written (escaped); `Cow::Borrowed` when nothing changed.
///
/// A pass over the finished text rather than a decision in the emitter, so that what is
/// reduced is exactly what a renderer would read as an image syntax (inside a link, a table
/// cell or a code span alike) and the text around it stays byte for byte. It finds what the
/// regular expression `!\[((?:\\.|[^\\\]\n])*)\]\((<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))+)\)`
/// (Python `re`, Unicode `\s`) finds, left to right without overlap, and gives `refused` the
/// second group with its `<` and `>` trimmed. No part of that expression can backtrack
/// into a different match, so one forward scan per `![` gives the same answer
/// (property-tested against it in tests/security/test_image_refusal_core.py). A page
/// without images costs one `memmem` scan.
pub fn reduce_images<'a>(markdown: &'a str, mut refused: impl FnMut(&str) -> bool) -> Cow<'a, str> {
    let mut out = String::new();
    let mut copied = 0; // markdown[..copied] is in `out`, once anything was reduced
    let mut from = 0;
    while let Some(found) = memchr::memmem::find(&markdown.as_bytes()[from..], b"![") {
        let start = from + found;
        let Some((alt, target, end)) = markdown_image(markdown, start) else {
            from = start + 1;
            continue;
        };
        if refused(markdown[target].trim_matches(['<', '>'])) {
            if out.is_empty() {
                out.reserve(markdown.len());
            }
            out.push_str(&markdown[copied..start]);
            out.push_str(&markdown[alt]);
            copied = end;
        }
        from = end;
    }
    if copied == 0 {
        return Cow::Borrowed(markdown);
    }
    out.push_str(&markdown[copied..]);
    Cow::Owned(out)
}

/// The image syntax starting at `markdown[start..]` (which starts with `![`) if the
/// expression of [`reduce_images`] matches there: the ranges of its alt text and its target,
/// and where it ends.
fn markdown_image(markdown: &str, start: usize) -> Option<(Range<usize>, Range<usize>, usize)> {
    let alt_start = start + 2;
    // The alt text: `\` with the character after it (not a newline), or any character but
    // `\`, `]` and a newline.
    let mut alt_end = alt_start;
    let mut chars = markdown[alt_start..].chars();
    while let Some(c) = chars.next() {
        match c {
            ']' | '\n' => break,
            '\\' => match chars.next() {
                Some(next) if next != '\n' => alt_end += 1 + next.len_utf8(),
                _ => break,
            },
            _ => alt_end += c.len_utf8(),
        }
    }
    let target_start = alt_end + 2;
    if markdown.get(alt_end..target_start) != Some("](") {
        return None;
    }
    let rest = &markdown[target_start..];
    // `<...>` (no `>` or newline inside) followed by `)`; else the bare form.
    if let Some(inner) = rest.strip_prefix('<') {
        if let Some(close) = inner.find(['>', '\n']) {
            if inner[close..].starts_with(">)") {
                let target_end = target_start + close + 2;
                return Some((alt_start..alt_end, target_start..target_end, target_end + 1));
            }
        }
    }
    let len = bare_target_len(rest);
    (len > 0 && rest[len..].starts_with(')')).then(|| {
        let target_end = target_start + len;
        (alt_start..alt_end, target_start..target_end, target_end + 1)
    })
}

/// How much of `rest` the bare target form takes: characters that are neither whitespace
/// nor a parenthesis, and `(...)` groups of such characters.
fn bare_target_len(rest: &str) -> usize {
    let mut at = 0;
    while let Some(c) = rest[at..].chars().next() {
        if c == '(' {
            let group = &rest[at + 1..];
            match group.find(|c: char| c == '(' || c == ')' || is_python_space(c)) {
                Some(close) if group[close..].starts_with(')') => at += close + 2,
                _ => break,
            }
        } else if c == ')' || is_python_space(c) {
            break;
        } else {
            at += c.len_utf8();
        }
    }
    at
}

/// Python's `\s` (`str.isspace`): Unicode White_Space plus the four information
/// separators U+001C..U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_images_become_their_alt_text() {
        let refuse = |t: &str| t.contains("10.0.0.1");
        let cases = [
            ("a ![x \\] y](http://10.0.0.1/p.png) b", "a x \\] y b"),
            ("![k](https://ex.com/k.png)", "![k](https://ex.com/k.png)"),
            (
                "[![L](http://10.0.0.1/l.png)](https://ex.com)",
                "[L](https://ex.com)",
            ),
            ("![s](<http://10.0.0.1/a b.png>)", "s"),
            ("![p](http://10.0.0.1/a(1).png)", "p"),
            (
                "![p](http://10.0.0.1/a(1 b).png)",
                "![p](http://10.0.0.1/a(1 b).png)",
            ),
            ("![n\n](http://10.0.0.1/x)", "![n\n](http://10.0.0.1/x)"),
            ("!![a](http://10.0.0.1/x)![b](http://10.0.0.1/y)", "!ab"),
            (
                "![é](http://10.0.0.1/\u{a0}x)",
                "![é](http://10.0.0.1/\u{a0}x)",
            ),
            ("![", "!["),
            ("![]()", "![]()"),
        ];
        for (md, want) in cases {
            assert_eq!(reduce_images(md, refuse), want, "{md:?}");
        }
        assert!(matches!(
            reduce_images("no images ![x](https://ex.com/)", refuse),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn base_then_page() {
        let doc = crate::parse(
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
    fn plain_absolute_urls_skip_the_parser() {
        for (href, want) in [
            (
                "https://ex.com/a/b?q=1&r=2#top",
                Some("https://ex.com/a/b?q=1&r=2#top"),
            ),
            ("http://ex.com", Some("http://ex.com/")),
            ("https://a-b.ex.co.uk.?x", Some("https://a-b.ex.co.uk./?x")),
            ("HTTPS://ex.com/", None),
            ("https://Ex.com/", None),
            ("https://ex.com:443/", None),
            ("https://1.2.3.4/", None),
            ("https://ex.com/a/../b", None),
            ("https://ex.com/a b", None),
            ("https://ex.com/?q='x'", None),
            ("https://xn--nxasmq6b.com/", None),
            ("https://u@ex.com/", None),
        ] {
            assert_eq!(plain_absolute(href).as_deref(), want, "{href}");
        }
    }

    /// URL tails built from the pieces the parser treats specially (mostly ones it keeps, so
    /// the shortcut answers often).
    const TAIL_PIECES: &[&str] = &[
        "/", "/a", "/.", "/..", ".", "..", "%2e", "%2E", "%", "%41", "?", "#", "a", "Z", "0", ":",
        "@", "&", "=", "-", "_", "~", "!", "$", "(", ")", "*", "+", ",", ";", "/b/", "?q=1", "#f",
        "'", " ", "\\", "\"", "<", "`", "{", "|", "\t", "é",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Whenever the shortcut answers, it answers what the parser would.
        #[test]
        fn plain_absolute_agrees_with_the_parser(
            tail in proptest::collection::vec(proptest::sample::select(TAIL_PIECES), 0..8),
            host in proptest::prop_oneof![
                "[a-z][a-z0-9-]{0,5}(\\.[a-z0-9-]{1,5}){0,2}\\.?",
                "[a-z0-9.-]{0,12}",
                "(xn--[a-z0-9-]{1,6}\\.)?[a-z]{1,4}\\.xn--[a-z0-9]{1,6}",
            ],
            scheme in "(http|https|HTTP)://",
        ) {
            let href = format!("{scheme}{host}{}", tail.concat());
            if let Some(fast) = plain_absolute(&href) {
                let parsed = Url::parse(&href).map(String::from);
                proptest::prop_assert_eq!(Ok(fast), parsed, "{}", href);
            }
        }
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
