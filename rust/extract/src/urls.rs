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

/// Schemes whose "links" run code or embed data rather than point somewhere: the reference's
/// first 11 characters that are neither ASCII whitespace nor controls, ASCII lower-cased,
/// start with one of them. Read in place (every link and image asks, so no string is built),
/// and a first character that starts none of them answers at once.
pub fn is_unsafe_scheme(href: &str) -> bool {
    const UNSAFE: [&[u8]; 3] = [b"javascript:", b"data:", b"vbscript:"];
    let mut head = [0u8; 11];
    let mut n = 0;
    for c in href.chars() {
        if c.is_ascii_whitespace() || c.is_control() {
            continue;
        }
        // A non-ASCII character stays itself in the lower-casing: no scheme byte matches it.
        head[n] = if c.is_ascii() {
            (c as u8).to_ascii_lowercase()
        } else {
            0xFF
        };
        n += 1;
        if n == 1 && !matches!(head[0], b'j' | b'd' | b'v') {
            return false;
        }
        if n == head.len() {
            break;
        }
    }
    UNSAFE.iter().any(|scheme| head[..n].starts_with(scheme))
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
        Some(b) => on_origin(b, href).or_else(|| b.join(href).ok().map(String::from)),
        None => match Url::parse(href) {
            Ok(u) => Some(u.into()),
            Err(_) => Some(href.to_string()),
        },
    }
}

/// A path-absolute reference (`/a/b?q`, a third of a page's links) against an `http(s)`
/// base: the base's scheme and authority as the parser printed them, then the reference,
/// when that is a [`plain_tail`] (the join would give exactly that: a path-absolute
/// reference keeps the base's authority, user info, port and address spelling included).
fn on_origin(base: &Url, href: &str) -> Option<String> {
    let rest = href.strip_prefix('/')?;
    if rest.starts_with(['/', '\\']) || !matches!(base.scheme(), "http" | "https") {
        return None;
    }
    if !plain_tail(href.as_bytes()) {
        return None;
    }
    let origin = &base[..url::Position::BeforePath];
    let mut joined = String::with_capacity(origin.len() + href.len());
    joined.push_str(origin);
    joined.push_str(href);
    Some(joined)
}

/// Bytes the URL parser keeps as they are in a path, query and fragment (see
/// [`plain_absolute`]): one lookup a byte.
static KEPT: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric()
            || matches!(
                b,
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
            );
        c += 1;
    }
    t
};

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
    let host_len = memchr::memchr3(b'/', b'?', b'#', rest).unwrap_or(rest.len());
    let host = &rest[..host_len];
    // One pass over the labels: each of letters, digits and `-`, not punycode; an empty
    // label only last and after another (a trailing dot, which the parser keeps); the last
    // real label starting with a letter (else the host may read as an IPv4 address:
    // `1.2.3.4`, `0x7f.1`).
    let mut labels = host.split(|&c| c == b'.').peekable();
    let mut first = true;
    let mut last_real_start = None;
    while let Some(label) = labels.next() {
        if label.is_empty() {
            if first || labels.peek().is_some() {
                return None;
            }
        } else if label.starts_with(b"xn--")
            || !label
                .iter()
                .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
        {
            return None;
        } else {
            last_real_start = label.first().copied();
        }
        first = false;
    }
    if !last_real_start.is_some_and(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let tail = &rest[host_len..];
    if !plain_tail(tail) {
        return None;
    }
    // The tail starts at the path's `/`, or at `?`, `#` or its end when there is no path.
    let no_path = !tail.starts_with(b"/");
    let mut out = String::with_capacity(href.len() + usize::from(no_path));
    out.push_str(&href[..href.len() - tail.len()]);
    if no_path {
        // Special URLs always have a path.
        out.push('/');
    }
    out.push_str(&href[href.len() - tail.len()..]);
    Some(out)
}

/// A URL's path, query and fragment (`tail`, from the first `/`, `?` or `#` after the host)
/// that the parser prints as written: every byte one it keeps ([`KEPT`]), and no dot segment
/// in the path (`/.`, or `%2e` in either case), which ends at the first `?` or `#`. Three
/// passes that each go many bytes at a time (most links have no `%` and few dots).
fn plain_tail(tail: &[u8]) -> bool {
    // No early exit: the table lookups of a whole link run without a branch each.
    let kept = tail.iter().fold(true, |ok, &c| ok & KEPT[usize::from(c)]);
    if !kept {
        return false;
    }
    let path = &tail[..memchr::memchr2(b'?', b'#', tail).unwrap_or(tail.len())];
    let dot_segment = memchr::memchr_iter(b'.', path).any(|i| i > 0 && path[i - 1] == b'/');
    let encoded_dot = memchr::memchr_iter(b'%', path).any(|i| {
        path.get(i + 1) == Some(&b'2') && path.get(i + 2).is_some_and(|&e| e | 0x20 == b'e')
    });
    !dot_segment && !encoded_dot
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
    /// Each reference seen, to its answer's index in `answers`.
    seen: HashMap<Box<str>, usize, foldhash::fast::RandomState>,
    /// The answers, kept apart from the keys so that a lookup can lend one out.
    answers: Vec<Option<Box<str>>>,
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
            answers: Vec::new(),
        }
    }

    pub fn base(&self) -> Option<&'b Url> {
        self.base
    }

    /// The same answer as [`resolve`]`(base, href)`, then without tracking parameters.
    pub fn resolve(&mut self, href: &str) -> Option<String> {
        self.lookup(href).map(str::to_owned)
    }

    /// [`Resolver::resolve`] lent from the memo: a caller that only writes the URL out
    /// (the emitter's links and images) copies it once, not through a `String` of its own.
    pub fn lookup(&mut self, href: &str) -> Option<&str> {
        let index = match self.seen.get(href) {
            Some(&index) => index,
            None => {
                let url = resolve(self.base, href).map(|url| match self.tracking {
                    // Only a query can hold tracking parameters: most links have none, and
                    // one search for `?` costs less than the query's parse.
                    Some(rules) if memchr::memchr(b'?', url.as_bytes()).is_some() => {
                        match rules.strip(&url) {
                            Cow::Borrowed(_) => url,
                            Cow::Owned(stripped) => stripped,
                        }
                    }
                    _ => url,
                });
                let index = self.answers.len();
                self.answers.push(url.map(String::into_boxed_str));
                self.seen.insert(href.into(), index);
                index
            }
        };
        self.answers.get(index)?.as_deref()
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
    // `\`, `]` and a newline. Read a byte at a time: the three are ASCII, and no byte of a
    // multi-byte character is (an escaped one's later bytes are then read as plain ones).
    let bytes = markdown.as_bytes();
    let mut alt_end = alt_start;
    while let Some(&b) = bytes.get(alt_end) {
        match b {
            b']' | b'\n' => break,
            b'\\' => match bytes.get(alt_end + 1) {
                Some(&next) if next != b'\n' => alt_end += 2,
                _ => break,
            },
            _ => alt_end += 1,
        }
    }
    let target_start = alt_end + 2;
    if markdown.get(alt_end..target_start) != Some("](") {
        return None;
    }
    let rest = &markdown[target_start..];
    // `<...>` (no `>` or newline inside) followed by `)`; else the bare form.
    if let Some(inner) = rest.strip_prefix('<') {
        if let Some(close) = memchr::memchr2(b'>', b'\n', inner.as_bytes()) {
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
    loop {
        match stop_at(rest, at) {
            Some((open, b'(')) => {
                let group = open + 1;
                match stop_at(rest, group) {
                    Some((close, b')')) => at = close + 1,
                    _ => return open,
                }
            }
            Some((end, _)) => return end,
            None => return rest.len(),
        }
    }
}

/// The first character of `text[from..]` that is a parenthesis or whitespace (Python's
/// `\s`), as its offset and its first byte; `None` if there is none. ASCII is judged a byte
/// at a time (URLs are nearly all ASCII); a non-ASCII character is decoded and judged whole.
fn stop_at(text: &str, from: usize) -> Option<(usize, u8)> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(&b) = bytes.get(at) {
        if b.is_ascii() {
            // `(`, `)`, and the ASCII characters `str.isspace` accepts: \t..\r, \x1c..\x1f
            // and the space.
            if matches!(b, b'(' | b')' | b'\t'..=b'\r' | 0x1c..=b' ') {
                return Some((at, b));
            }
            at += 1;
        } else {
            let c = text.get(at..)?.chars().next()?;
            if is_python_space(c) {
                return Some((at, b));
            }
            at += c.len_utf8();
        }
    }
    None
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

    /// The check as it was written first: a lower-cased copy of the first 11 characters kept.
    fn unsafe_scheme_by_copy(href: &str) -> bool {
        let head: String = href
            .chars()
            .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
            .take(11)
            .collect::<String>()
            .to_ascii_lowercase();
        head.starts_with("javascript:")
            || head.starts_with("data:")
            || head.starts_with("vbscript:")
    }

    const SCHEME_PIECES: &[&str] = &[
        "javascript:",
        "JavaScript:",
        "java",
        "SCRIPT",
        "script:",
        "data:",
        "DATA",
        "vbscript:",
        "vb",
        "d",
        "j",
        "v",
        "a",
        ":",
        " ",
        "\t",
        "\n",
        "\u{0}",
        "\u{7f}",
        "\u{85}",
        "\u{9f}",
        "\u{a0}",
        "\u{2003}",
        "é",
        "K",
        "/",
        "http://x",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// The in-place check answers what the copy answered.
        #[test]
        fn unsafe_scheme_agrees_with_the_copy(
            pieces in proptest::collection::vec(proptest::sample::select(SCHEME_PIECES), 0..8),
        ) {
            let href = pieces.concat();
            proptest::prop_assert_eq!(is_unsafe_scheme(&href), unsafe_scheme_by_copy(&href), "{:?}", href);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// A path-absolute reference resolves as the parser joins it, whatever the base.
        #[test]
        fn on_origin_agrees_with_the_join(
            tail in proptest::collection::vec(proptest::sample::select(TAIL_PIECES), 0..8),
            base in proptest::sample::select(&[
                "https://ex.com/a/b.html?q#f",
                "http://ex.com",
                "https://a-b.ex.co.uk./x/",
                "https://EX.com/",
                "https://ex.com:8443/a",
                "http://ex.com:80/a",
                "http://127.0.0.1:8080/p/1",
                "http://[2001:db8::1]:81/",
                "https://U@127.0.0.1:8/",
                "https://u:p@ex.com/",
                "https://1.2.3.4/",
                "https://[::1]/",
                "https://xn--nxasmq6b.com/",
                "ftp://ex.com/",
                "file:///tmp/x",
                "mailto:a@b.c",
            ][..]),
        ) {
            let href = format!("/{}", tail.concat());
            let base = Url::parse(base).expect("base");
            let joined = base.join(href.trim()).ok().map(String::from);
            proptest::prop_assert_eq!(resolve(Some(&base), &href), joined, "{}", href);
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
