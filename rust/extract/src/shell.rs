//! Is this HTML page an app shell that its scripts build (so `render="auto"` should render
//! it), and why? One linear pass over the raw bytes.
//!
//! Why here and not in Python: the test used to be three regular expressions over the first
//! 512 KiB of the body (`<script\b[^>]*\bsrc\s*=` and two alike). Python's `re` backtracks,
//! so 1 MiB of `<script ` or of `<a ` after a script tag took minutes while holding the GIL,
//! where no deadline reaches. This pass reads the page with the webgrip-html lexer's own byte
//! scanners ([`scan::scan_tag`], [`scan::script_end`], [`scan::raw_end`],
//! [`scan::comment_extent`]): every byte is looked at a bounded number of times, nothing is
//! allocated per tag, and the pass stops as soon as it has its answer (or after
//! [`SCAN_BYTES`]). It does not run `webgrip_html::tokenize` itself: unguarded, that
//! checks each attribute against the tag's earlier ones (quadratic in a tag with 10⁵ distinct attributes), and guarded it
//! empties scripts and drops the attributes this test reads (`ng-version`, ...).
//!
//! A page is a shell when it **has scripts** — a `<script src>`, a `type=module` script, a
//! `<link rel=modulepreload>`, or an inline JavaScript block of some length (SvelteKit's
//! SPA fallback, Trunk-built wasm apps and inline Preact/Vue boot that way) — **and** one
//! of, in the order reported:
//! - an **app root**: an element whose `id` starts with a framework's mount point (`root`,
//!   `app`, `__next`, `__nuxt`, ...), `<app-root>`, or an `ng-version`, `data-reactroot`,
//!   `ng-app` or `v-scope` attribute;
//! - a **custom element** (a tag name with a hyphen: Lit, Polymer, Stencil) as the body's
//!   first element;
//! - a **`<noscript>`** that mentions JavaScript ("You need to enable JavaScript to run
//!   this app.");
//! - an **empty body**: no text and no element that shows something (image, media, frame,
//!   form control, canvas, SVG) anywhere outside scripts, styles and `<noscript>` (Ember,
//!   Flutter web and the webpack and rollup defaults mount into a bare `<body>`);
//! - a **placeholder body**: the same, but with a line of text such as "Loading..." (at
//!   most [`PLACEHOLDER_BYTES`]), on a page that boots as an ES module app (a module script
//!   or a module preload): React Router's and Remix's SPA mode render their
//!   `HydrateFallback` so. Why modules only: a short server-rendered page ("Hello", a
//!   redirect notice) with a classic analytics script is no app.
//!
//! An app root or custom element counts only while it is **unfilled**: at most
//! [`PLACEHOLDER_BYTES`] of text between its start and end tags (a spinner's SVG or a
//! "Loading..." line). A server-rendered app (VitePress, Nuxt, Angular SSR, Next.js) ships
//! the same root and scripts with its text already inside; a thin page of ~150 characters
//! is under the caller's [`MAX_TEXT_CHARS`] and was rendered for nothing before this. Why
//! the text inside the root and not the page's: a shell may have server-rendered chrome
//! (Blazor's error banner) outside its empty root. The end tag is found by counting start
//! and end tags of the root's name, which misnested markup can fool; the text found up to
//! the end of the input decides then.
//!
//! The caller adds the other half of the decision: the page's extracted text is tiny
//! ([`MAX_TEXT_CHARS`]). This pass alone would call a long server-rendered page whose
//! root holds the text in a sibling (or a placeholder-sized one with scripts) a shell.

use memchr::memchr;
use webgrip_html::TagClass;

use webgrip_html::scan::{self, Attr};

/// How much of a page is read: an app shell is small (its markup is a few KiB; inlined state
/// comes after the root or inside scripts, which are skipped quickly). Why a cap at all: a
/// tag that never ends (`<a <a <a ...`) is read attribute by attribute, about 28 bytes of
/// bookkeeping per input byte, so the cap bounds memory (about 14 MiB) as well as time.
/// The regexes this replaces read the same first 512 KiB.
pub const SCAN_BYTES: usize = 512 * 1024;

/// A page whose extracted text (the main-content selection, trimmed) is longer than this is
/// never a shell, whatever this pass says: the scripts did not have to build it.
pub const MAX_TEXT_CHARS: usize = 200;

/// Non-blank bytes of text an unfilled root, or a placeholder body, may hold ("Loading...",
/// "Please wait while the app starts"). Why 64: every framework's loading text fits with
/// room to spare, while the thin server-rendered pages of `tests/fixtures/shells/static/`
/// (about 120 to 165 characters of text) hold 100 to 135 non-blank bytes.
pub const PLACEHOLDER_BYTES: usize = 64;

/// Ids frameworks mount their app into (Create React App, Vite, Vue CLI, Blazor and Expo use
/// `root` or `app`; Next.js, Nuxt, Gatsby, Svelte templates, Quasar the others). An id
/// counts when it starts with one of these followed by the end or a character that is not
/// a letter, digit or `_` (`app-container` counts, `application` does not), as the regex
/// this replaces matched.
const ROOT_IDS: &[&str] = &[
    "root",
    "app",
    "__next",
    "__nuxt",
    "___gatsby",
    "svelte",
    "main-app",
    "q-app",
];

/// Attributes only a script-built root carries (Angular, React 16-17, AngularJS, petite-vue).
const ROOT_ATTRS: &[&str] = &[
    "ng-version",
    "data-reactroot",
    "ng-app",
    "data-ng-app",
    "v-scope",
];

/// Elements no framework mounts into, whose id alone does not make them a root: links,
/// list items, headings and other phrasing content. Why: ids are matched by prefix, and a
/// footer link `<a id="app-security">App security</a>` (postman.com in the corpus) is as
/// short as an unfilled root. Markers ([`ROOT_ATTRS`]) still count on any element.
const NOT_ID_ROOTS: &[&str] = &[
    "a", "abbr", "b", "button", "caption", "code", "dd", "dt", "em", "h1", "h2", "h3", "h4", "h5",
    "h6", "i", "label", "legend", "li", "option", "p", "small", "span", "strong", "td", "th", "tr",
];

/// Elements that show something without text: a body holding one is not empty.
const CONTENT_TAGS: &[&str] = &[
    "img",
    "image",
    "picture",
    "video",
    "audio",
    "iframe",
    "frame",
    "frameset",
    "embed",
    "object",
    "canvas",
    "svg",
    "math",
    "input",
    "select",
    "textarea",
    "button",
    "xmp",
    "plaintext",
];

/// Elements allowed before `<body>` (an implied body starts at any other start tag), and
/// that are not "the body's first element" either when they come first in it.
const HEAD_TAGS: &[&str] = &[
    "html", "head", "title", "meta", "link", "style", "script", "noscript", "base", "template",
];

/// Non-blank bytes an inline script needs to count as a boot script. Why: one-liners such
/// as `document.body.className='js'` set up a server-rendered page; every framework's
/// inline boot code is far longer.
const MIN_INLINE_SCRIPT: usize = 40;

/// Why a page is a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// An element with one of [`ROOT_IDS`] as its id.
    RootId(&'static str),
    /// `<app-root>` or one of [`ROOT_ATTRS`].
    RootMarker(&'static str),
    /// A custom element (its name) as the body's first element.
    CustomElement(String),
    /// A `<noscript>` mentioning JavaScript.
    Noscript,
    /// Nothing in the body but scripts.
    EmptyBody,
    /// Nothing in the body but scripts and a line of placeholder text.
    Placeholder,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::RootId(id) => write!(f, "app-root #{id}"),
            Reason::RootMarker(m) if m.starts_with('<') => write!(f, "app-root {m}"),
            Reason::RootMarker(m) => write!(f, "app-root [{m}]"),
            Reason::CustomElement(name) => write!(f, "custom element <{name}>"),
            Reason::Noscript => f.write_str("noscript"),
            Reason::EmptyBody => f.write_str("empty body with scripts"),
            Reason::Placeholder => f.write_str("placeholder body with scripts"),
        }
    }
}

/// Why `html` looks like an app shell its scripts build, or `None` (see the module docs).
/// Linear, over the first `SCAN_BYTES` of the input; reads raw bytes (the markup it looks
/// for is ASCII in every ASCII-compatible encoding).
pub fn reason(html: &[u8]) -> Option<Reason> {
    let mut s = Scan::default();
    s.run(&html[..html.len().min(SCAN_BYTES)]);
    // A root still open where the input (or the scan) ends is judged on its text so far.
    s.close_candidate();
    if !s.scripts {
        return None;
    }
    if let Some(root) = s.root {
        return Some(root);
    }
    if let Some(name) = s.custom {
        return Some(Reason::CustomElement(name));
    }
    if s.noscript {
        return Some(Reason::Noscript);
    }
    if s.shows {
        return None;
    }
    match s.text {
        0 => Some(Reason::EmptyBody),
        n if n <= PLACEHOLDER_BYTES && s.modules => Some(Reason::Placeholder),
        _ => None,
    }
}

/// What the pass has seen so far.
#[derive(Default)]
struct Scan {
    scripts: bool,
    /// A module script or a module preload: the page boots as an ES module app.
    modules: bool,
    root: Option<Reason>,
    custom: Option<String>,
    noscript: bool,
    /// A root or custom element whose end tag has not been seen yet.
    candidate: Option<Candidate>,
    /// A [`CONTENT_TAGS`] element outside scripts, styles and `<noscript>`.
    shows: bool,
    /// Non-blank bytes of text outside scripts, styles and `<noscript>`, counted up to
    /// just past [`PLACEHOLDER_BYTES`].
    text: usize,
    /// Inside the body (after `<body>`, or after the first start tag that implies it).
    in_body: bool,
    /// The body's first element has been seen.
    first_child_seen: bool,
}

/// An app root or custom element being read: whether it stays unfilled decides whether it
/// counts.
struct Candidate {
    reason: Reason,
    /// Its tag name, as a range of the input.
    name: (usize, usize),
    /// Open elements of the same name, itself included.
    depth: usize,
    /// Non-blank bytes of text inside it (capped as [`Scan::text`]).
    text: usize,
}

/// Non-blank bytes in `t`, counted until `have` reaches just past [`PLACEHOLDER_BYTES`] (all
/// any caller needs to know): bounded work per call beyond a scan of blanks.
fn add_text(have: usize, t: &[u8]) -> usize {
    let mut n = have;
    for &c in t {
        if n > PLACEHOLDER_BYTES {
            break;
        }
        n += usize::from(!is_blank(c));
    }
    n
}

/// The classes of an element named `name` in any case ([`TagClass::of`] reads lowercase).
fn class_of(name: &[u8]) -> TagClass {
    let mut lower = [0u8; 16];
    let Some(buf) = lower.get_mut(..name.len()) else {
        return TagClass::of(b"");
    };
    for (to, from) in buf.iter_mut().zip(name) {
        *to = from.to_ascii_lowercase();
    }
    TagClass::of(buf)
}

/// Elements that cannot be an app root whatever their id: void elements hold no children and
/// those whose content is text no markup (`<link id="app-css">`, `<script id="app-data">`),
/// nor do `<noscript>` (text to a browser that runs scripts), `<template>` and `<head>`.
fn cannot_be_root(name: &[u8]) -> bool {
    let class = class_of(name);
    class.is_void() || class.is_text() || is_any(name, &["noscript", "template", "head"])
}

fn is_any(name: &[u8], names: &[&str]) -> bool {
    names
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n.as_bytes()))
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// The [`ROOT_IDS`] entry `id` starts with, if any.
fn root_id(id: &[u8]) -> Option<&'static str> {
    ROOT_IDS.iter().copied().find(|r| {
        id.len() >= r.len()
            && id[..r.len()].eq_ignore_ascii_case(r.as_bytes())
            && id.get(r.len()).is_none_or(|&c| !is_word(c))
    })
}

/// Whether `name` is a custom element's name as a page would write one: a letter first,
/// then letters, digits, `-`, `_` or `.`, with a hyphen. Only such names are reported, so
/// the reason string holds nothing the page could use to inject text.
fn custom_element(name: &[u8]) -> bool {
    name.len() <= 64
        && name.first().is_some_and(u8::is_ascii_alphabetic)
        && name.contains(&b'-')
        && name
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// Whether `text` mentions JavaScript (ASCII case ignored). Linear: each `j` starts one
/// comparison of ten bytes.
fn mentions_javascript(text: &[u8]) -> bool {
    const WORD: &[u8] = b"javascript";
    let mut i = 0;
    while let Some(p) = memchr::memchr2(b'j', b'J', &text[i..]) {
        let at = i + p;
        if text
            .get(at..at + WORD.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(WORD))
        {
            return true;
        }
        i = at + 1;
    }
    false
}

/// The value of attribute `name` among `attrs` (the first one, as the tokenizer keeps).
fn attr<'a>(b: &'a [u8], attrs: &[Attr], name: &str) -> Option<&'a [u8]> {
    attrs
        .iter()
        .find(|a| b[a.name.0..a.name.1].eq_ignore_ascii_case(name.as_bytes()))
        .map(|a| a.value.map_or(&b[0..0], |(s, e, _)| &b[s..e]))
}

/// Whether a `type` attribute's value names JavaScript (classic or module): inline blocks
/// of JSON, JSON-LD, templates or import maps are data, not boot code.
fn is_javascript_type(t: &[u8]) -> bool {
    let t = t.trim_ascii();
    let essence = t[..memchr(b';', t).unwrap_or(t.len())].trim_ascii();
    essence.is_empty()
        || is_any(
            essence,
            &[
                "module",
                "text/javascript",
                "application/javascript",
                "text/ecmascript",
                "application/ecmascript",
                "application/x-javascript",
                "text/jsx",
                "text/babel",
            ],
        )
}

impl Scan {
    /// Whether the verdict can no longer change: scripts and an app root (the strongest
    /// reason) are both found.
    fn decided(&self) -> bool {
        self.scripts && self.root.is_some()
    }

    fn run(&mut self, b: &[u8]) {
        let len = b.len();
        let mut attrs: Vec<Attr> = Vec::new();
        let mut pos = 0;
        while pos < len && !self.decided() {
            let Some(off) = memchr(b'<', &b[pos..]) else {
                self.text(&b[pos..]);
                return;
            };
            let lt = pos + off;
            self.text(&b[pos..lt]);
            pos = match b.get(lt + 1) {
                Some(c) if c.is_ascii_alphabetic() => {
                    let Some(next) = self.start_tag(b, lt, &mut attrs) else {
                        // The input ends inside the tag: the tokenizer drops it.
                        return;
                    };
                    next
                }
                Some(b'/') => match b.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let name_end = lt + 2 + scan::tag_name_len(b, lt + 2);
                        match scan::scan_tag(b, name_end, &mut attrs) {
                            Some(tag) => {
                                self.end_tag(b, &b[lt + 2..name_end]);
                                tag.end
                            }
                            None => return,
                        }
                    }
                    Some(b'>') => lt + 3,
                    Some(_) => bogus_comment_end(b, lt + 2),
                    // `</` at the end of input is text.
                    None => {
                        self.text(b"</");
                        return;
                    }
                },
                Some(b'!') if b[lt + 2..].starts_with(b"--") => scan::comment_extent(b, lt).1,
                // DOCTYPE, CDATA and bogus comments: up to the next `>`.
                Some(b'!' | b'?') => bogus_comment_end(b, lt + 2),
                // A `<` that starts no markup is text.
                _ => {
                    self.text(b"<");
                    lt + 1
                }
            };
        }
    }

    /// Text in the data state: counted for the body and for the open candidate. Why the
    /// check first: past the cap, text costs nothing more.
    fn text(&mut self, t: &[u8]) {
        if self.text <= PLACEHOLDER_BYTES {
            self.text = add_text(self.text, t);
        }
        if let Some(c) = self
            .candidate
            .as_mut()
            .filter(|c| c.text <= PLACEHOLDER_BYTES)
        {
            c.text = add_text(c.text, t);
        }
    }

    /// An end tag named `name`: it may close the candidate.
    fn end_tag(&mut self, b: &[u8], name: &[u8]) {
        let Some(c) = self.candidate.as_mut() else {
            return;
        };
        if name.eq_ignore_ascii_case(&b[c.name.0..c.name.1]) {
            c.depth -= 1;
            if c.depth == 0 {
                self.close_candidate();
            }
        }
    }

    /// The candidate is over: an unfilled one becomes the page's root or custom element, a
    /// filled one (server-rendered) is forgotten.
    fn close_candidate(&mut self) {
        let Some(c) = self.candidate.take() else {
            return;
        };
        if c.text > PLACEHOLDER_BYTES {
            return;
        }
        match c.reason {
            Reason::CustomElement(name) => self.custom = self.custom.take().or(Some(name)),
            root => self.root = self.root.take().or(Some(root)),
        }
    }

    /// Start reading a candidate whose start tag named `name` (a range of `b`) was just
    /// read. An element that cannot hold children ([`cannot_be_root`]) is none.
    fn open_candidate(&mut self, b: &[u8], name: (usize, usize), reason: Reason) {
        if cannot_be_root(&b[name.0..name.1]) {
            return;
        }
        self.candidate = Some(Candidate {
            reason,
            name,
            depth: 1,
            text: 0,
        });
    }

    /// The start tag whose `<` is at `lt`: note what it says; return where reading goes on
    /// (past its raw text content for scripts, styles, `<noscript>`, ...), `None` when the
    /// input ends inside the tag.
    fn start_tag(&mut self, b: &[u8], lt: usize, attrs: &mut Vec<Attr>) -> Option<usize> {
        let from = lt + 1;
        let name_end = from + scan::tag_name_len(b, from);
        let name = &b[from..name_end];
        let tag = scan::scan_tag(b, name_end, attrs)?;
        // Another element of the candidate's name nests inside it; any other candidate is
        // inside it or after a root already found, and is not looked at.
        let mut candidate = match self.candidate.as_mut() {
            Some(c) => {
                if name.eq_ignore_ascii_case(&b[c.name.0..c.name.1]) {
                    c.depth += 1;
                }
                None
            }
            None if self.root.is_some() => None,
            None => self.root_of(b, name, attrs),
        };
        if name.eq_ignore_ascii_case(b"body") {
            self.in_body = true;
        } else if !is_any(name, HEAD_TAGS) {
            // The body's first element (an implied body starts here).
            self.in_body = true;
            if !self.first_child_seen {
                self.first_child_seen = true;
                if candidate.is_none() && self.candidate.is_none() && custom_element(name) {
                    let name = name.to_ascii_lowercase().escape_ascii().to_string();
                    candidate = Some(Reason::CustomElement(name));
                }
            }
        }
        if let Some(reason) = candidate {
            self.open_candidate(b, (from, name_end), reason);
        }
        if is_any(name, CONTENT_TAGS) {
            self.shows = true;
        }
        if name.eq_ignore_ascii_case(b"script") {
            let end = scan::script_end(b, tag.end);
            self.script(b, attrs, &b[tag.end..end]);
            return Some(end);
        }
        if name.eq_ignore_ascii_case(b"link") {
            let modulepreload = attr(b, attrs, "rel").is_some_and(|rel| {
                rel.split(|&c| is_blank(c))
                    .any(|t| t.eq_ignore_ascii_case(b"modulepreload"))
            });
            self.scripts |= modulepreload;
            self.modules |= modulepreload;
        }
        if name.eq_ignore_ascii_case(b"noscript") {
            // Scripting is on in the browser that would render the page: the content is
            // text up to `</noscript>`, and never shown.
            let (end, _) = scan::raw_end(b, tag.end, b"noscript", false);
            self.noscript |= mentions_javascript(&b[tag.end..end]);
            return Some(end);
        }
        if name.eq_ignore_ascii_case(b"plaintext") {
            return Some(b.len());
        }
        // RCDATA and RAWTEXT: text up to the end tag, as the tokenizer reads them with
        // scripting on (`<noscript>` is handled above).
        if class_of(name).is_rawtext() {
            return Some(scan::raw_end(b, tag.end, name, false).0);
        }
        Some(tag.end)
    }

    /// Whether a start tag named `name` is an app root: its name or its attributes (ids
    /// and markers).
    fn root_of(&self, b: &[u8], name: &[u8], attrs: &[Attr]) -> Option<Reason> {
        if name.eq_ignore_ascii_case(b"app-root") {
            return Some(Reason::RootMarker("<app-root>"));
        }
        attrs.iter().find_map(|a| {
            let attr = &b[a.name.0..a.name.1];
            if attr.eq_ignore_ascii_case(b"id") {
                if is_any(name, NOT_ID_ROOTS) {
                    return None;
                }
                let value = a.value.map_or(&b[0..0], |(s, e, _)| &b[s..e]);
                root_id(value).map(Reason::RootId)
            } else {
                ROOT_ATTRS
                    .iter()
                    .copied()
                    .find(|m| attr.eq_ignore_ascii_case(m.as_bytes()))
                    .map(Reason::RootMarker)
            }
        })
    }

    /// A `<script>` with its attributes and content.
    fn script(&mut self, b: &[u8], attrs: &[Attr], content: &[u8]) {
        let kind = attr(b, attrs, "type");
        if kind.is_some_and(|t| t.trim_ascii().eq_ignore_ascii_case(b"module")) {
            self.scripts = true;
            self.modules = true;
            return;
        }
        if self.scripts {
            return;
        }
        if !kind.is_none_or(is_javascript_type) {
            return;
        }
        if attr(b, attrs, "src").is_some_and(|s| !s.trim_ascii().is_empty()) {
            self.scripts = true;
            return;
        }
        let code = content.iter().filter(|&&c| !is_blank(c)).count();
        self.scripts = code >= MIN_INLINE_SCRIPT;
    }
}

/// Where a bogus comment (or DOCTYPE) whose text starts at `from` ends: after the next `>`.
fn bogus_comment_end(b: &[u8], from: usize) -> usize {
    memchr(b'>', &b[from.min(b.len())..]).map_or(b.len(), |e| from + e + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn why(html: &str) -> Option<String> {
        reason(html.as_bytes()).map(|r| r.to_string())
    }

    #[test]
    fn framework_shells_are_shells() {
        let cases: &[(&str, &str)] = &[
            // Create React App (public/index.html as served, bundle injected).
            (
                r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React App</title>
<script defer="defer" src="/static/js/main.1a2b.js"></script></head><body>
<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>"#,
                "app-root #root",
            ),
            // Vite + Vue.
            (
                r#"<!DOCTYPE html><html><head><script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="stylesheet" href="/assets/index.css"></head><body><div id="app"></div></body></html>"#,
                "app-root #app",
            ),
            // Angular CLI.
            (
                r#"<!doctype html><html><head><base href="/"></head><body><app-root></app-root>
<script src="runtime.js" type="module"></script><script src="main.js" type="module"></script></body></html>"#,
                "app-root <app-root>",
            ),
            // Next.js without server-rendered content.
            (
                r#"<html><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{}</script>
<script src="/_next/static/chunks/main.js" async=""></script></body></html>"#,
                "app-root #__next",
            ),
            // Lit / Polymer starter: a custom element as the root.
            (
                r#"<!doctype html><html><head><script type="module" src="./my-app.js"></script></head>
<body><my-app></my-app></body></html>"#,
                "custom element <my-app>",
            ),
            // Flutter web: nothing in the body but the bootstrap script.
            (
                r#"<!DOCTYPE html><html><head><base href="/"><meta charset="UTF-8"><title>app</title>
<link rel="manifest" href="manifest.json"></head><body><script src="flutter_bootstrap.js" async></script>
</body></html>"#,
                "empty body with scripts",
            ),
            // webpack's html-webpack-plugin default: scripts in the head, a bare body.
            (
                r#"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Webpack App</title>
<script defer src="main.js"></script></head><body></body></html>"#,
                "empty body with scripts",
            ),
            // SvelteKit's SPA fallback: an inline boot script in a bare wrapper.
            (
                r#"<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="modulepreload" href="/_app/immutable/entry/start.js"></head>
<body data-sveltekit-preload-data="hover"><div style="display: contents">
<script>{ __sveltekit_1 = { base: "" }; const element = document.currentScript.parentElement;
Promise.all([import("/_app/immutable/entry/start.js"), import("/_app/immutable/entry/app.js")])
.then(([kit, app]) => { kit.start(app, element); }); }</script></div></body></html>"#,
                "empty body with scripts",
            ),
            // Trunk-built wasm (Yew, Leptos, Dioxus): an inline module in the head.
            (
                r#"<!DOCTYPE html><html><head><script type="module">import init from '/app-9f.js';
init('/app-9f_bg.wasm');</script></head><body></body></html>"#,
                "empty body with scripts",
            ),
            // A noscript warning and a root the regex never knew.
            (
                r#"<html><head><script src="/bundle.js"></script></head><body>
<noscript><p>Please turn on JavaScript.</p></noscript><div id="mount"></div></body></html>"#,
                "noscript",
            ),
            // AngularJS and React 16 markers.
            (
                r#"<html ng-app="shop"><head><script src="angular.js"></script></head><body>x</body></html>"#,
                "app-root [ng-app]",
            ),
            (
                r#"<div data-reactroot=""></div><script src="/b.js"></script>"#,
                "app-root [data-reactroot]",
            ),
        ];
        for (html, want) in cases {
            assert_eq!(why(html).as_deref(), Some(*want), "{html}");
        }
    }

    #[test]
    fn what_the_regexes_matched_still_matches() {
        // The test page of the render tests, and ids the old pattern accepted.
        let shell = r#"<!doctype html><html><head><title>Shell</title></head>
<body><div id="app"></div><script src="/app.js"></script></body></html>"#;
        assert_eq!(why(shell).as_deref(), Some("app-root #app"));
        for id in [
            "ROOT",
            "app-container",
            "__nuxt",
            "___gatsby",
            "svelte",
            "main-app",
        ] {
            let html = format!("<SCRIPT SRC=x></SCRIPT><div ID='{id}'>hi</div>");
            assert!(
                why(&html).is_some_and(|r| r.starts_with("app-root #")),
                "{id}"
            );
        }
        assert!(why(r#"<script type=module>x</script><div id=root></div>"#).is_some());
        assert!(why(r#"<span ng-version="17.0.0"></span><script src=a></script>"#).is_some());
    }

    #[test]
    fn server_rendered_pages_are_not_shells() {
        let cases = [
            // Content and no root.
            r#"<html><head><script src="/analytics.js"></script></head><body><h1>Hello</h1>
<p>An article.</p></body></html>"#,
            // No scripts at all.
            r#"<html><body><div id="root"></div></body></html>"#,
            // A root, but only data blocks and a one-liner for scripts.
            r#"<html><head><script type="application/ld+json">{"@context": "https://schema.org", "@type": "Article", "headline": "x"}</script>
<script>document.documentElement.className='js'</script></head><body><div id="app"></div></body></html>"#,
            // `id="application"` is not `app`; a noscript without a word on JavaScript.
            r#"<script src=a></script><div id="application">x</div><noscript><img src="/px.gif"></noscript>"#,
            // A form the scripts did not build (the challenge tests' Discourse-like page).
            r#"<html><head><title>Forum</title><script src="/app.js"></script></head><body>
<section id="main"></section><form id="hidden-login-form" style="display: none;">
<input name="username"></form></body></html>"#,
            // The markers only inside a script, a comment or an attribute value.
            r#"<script src=a></script><script>var s = '<div id="root">';</script>
<!-- <div id="app"> --><a title='<div id="app">'>text</a>"#,
            // An image-only page is content.
            r#"<script src=a></script><body><img src="cat.png"></body>"#,
        ];
        for html in cases {
            assert_eq!(why(html), None, "{html}");
        }
    }

    /// Issue 31: a root or custom element that already holds the page's text is a
    /// server-rendered app, however thin the page; a loading line or a spinner leaves it
    /// unfilled.
    #[test]
    fn only_an_unfilled_root_counts() {
        let thin = "Acme: fast widgets for the web. Build, test and ship widgets in \
                    minutes. Get Started. GitHub.";
        for (open, close) in [
            (r#"<div id="app">"#, "</div>"),
            (r#"<app-root ng-version="18.2.4">"#, "</app-root>"),
            (r#"<div id="__nuxt"><div id="root">"#, "</div></div>"),
            ("<my-app>", "</my-app>"),
        ] {
            let html = format!(
                r#"<script type="module" src="/app.js"></script><body>{open}<div><p>{thin}</p></div>{close}</body>"#
            );
            assert_eq!(why(&html), None, "{html}");
        }
        let unfilled = [
            (
                r#"<div id="app"><svg class="spinner"><circle r="4"/></svg><div>Loading...</div></div><script src="/a.js"></script>"#,
                "app-root #app",
            ),
            // Server-rendered chrome beside the root does not fill it.
            (
                r#"<header><p>Acme's long site header with links to every section of the site</p></header><div id="root"></div><script src="/a.js"></script>"#,
                "app-root #root",
            ),
            // A root with no end tag is judged on its text up to the end.
            (
                r#"<script src="/a.js"></script><div id="root"><div class="x">"#,
                "app-root #root",
            ),
            (
                r#"<script src="https://unpkg.com/petite-vue" defer init></script><div v-scope="{ n: 0 }">{{ n }} <button>inc</button></div>"#,
                "app-root [v-scope]",
            ),
        ];
        for (html, want) in unfilled {
            assert_eq!(why(html).as_deref(), Some(want), "{html}");
        }
        // A link or list item is no root by its id (a marker still counts on it).
        let footer = r#"<script src="/a.js"></script><p>Text</p><ul><li id="app-store"><a id="app-security">App security</a></li></ul>"#;
        assert_eq!(why(footer), None);
        // A void or raw-text element is no root, whatever its id.
        let html = r#"<link id="app-css" rel="stylesheet" href="a.css"><script id="app-data" src="a.js"></script><h1>Hi</h1>"#;
        assert_eq!(why(html), None);
    }

    #[test]
    fn a_placeholder_line_counts_on_a_module_app_only() {
        let remix = r#"<head><link rel="modulepreload" href="/assets/root.js"></head><body><p>Loading...</p>
<script type="module" async="">import("/assets/entry.client.js");</script></body>"#;
        assert_eq!(why(remix).as_deref(), Some("placeholder body with scripts"));
        // The same line with a classic script, or a longer text, is a page.
        let classic = r#"<body><p>Loading...</p><script src="/analytics.js"></script></body>"#;
        assert_eq!(why(classic), None);
        let text = "word ".repeat(20);
        let long =
            format!(r#"<body><p>{text}</p><script type="module" src="/a.js"></script></body>"#);
        assert_eq!(why(&long), None);
    }

    #[test]
    fn a_custom_element_counts_only_as_the_first_element() {
        let late = r#"<script src=a></script><body><p>Hello</p><my-widget></my-widget></body>"#;
        assert_eq!(why(late), None);
        // An unsafe name is not reported (nor taken as a root).
        let odd = "<script src=a></script><body><x-\u{e9}l>hi</x-\u{e9}l></body>";
        assert_eq!(why(odd), None);
    }

    #[test]
    fn truncated_and_odd_markup_ends_quietly() {
        for html in [
            "",
            "<",
            "</",
            "<!",
            "<!--",
            "<script",
            "<script src=",
            "<div id='",
            "<a",
            "<noscript>",
            "<title>",
            "<![CDATA[",
            "<?x",
            "</x",
            "\0<\0>",
        ] {
            let _ = reason(html.as_bytes());
        }
        assert_eq!(why("<script src=a></script></"), None); // `</` at the end is text
    }

    /// Every prefix the pass looks for, repeated to 1 MiB with and without `>` (and to
    /// 10 MiB for the issue's target), after a script tag, reads in linear time. The old
    /// regexes took minutes on several of these.
    #[test]
    fn hostile_repetitions_finish_quickly() {
        let prefixes = [
            "<script ",
            "<script src=",
            "<script type=",
            "<script type=module ",
            "<div id=",
            "<div id=\"",
            "<a ",
            "<a",
            "<noscript>",
            "<noscript",
            "<iframe ",
            "<meta ",
            "<title>",
            "<link rel=",
            "<my-app ",
            "<!--",
            "</",
            "<",
            "id=",
            " a",
        ];
        let mut worst = Duration::ZERO;
        for prefix in prefixes {
            for close in ["", ">"] {
                let unit = format!("{prefix}{close}");
                for size in [1 << 20, 10 << 20] {
                    let mut html = String::from("<script src=x></script>");
                    while html.len() < size {
                        html.push_str(&unit);
                    }
                    let start = Instant::now();
                    let _ = reason(html.as_bytes());
                    worst = worst.max(start.elapsed());
                }
            }
        }
        // Linear runs take milliseconds (debug build included); quadratic ones, minutes.
        assert!(worst < Duration::from_secs(5), "worst case {worst:?}");
    }

    /// A tag with a very large number of distinct attributes: one pass over them. Past
    /// [`SCAN_BYTES`] the tag is cut, and dropped as the tokenizer drops an unended tag.
    #[test]
    fn many_attributes_in_one_tag() {
        for (size, want) in [
            (SCAN_BYTES - 1024, Reason::RootId("root")),
            (4 * SCAN_BYTES, Reason::EmptyBody),
        ] {
            let mut html = String::from("<script src=x></script><div");
            let mut i = 0;
            while html.len() < size {
                html.push_str(&format!(" a{i}"));
                i += 1;
            }
            html.push_str(" id=root>");
            let start = Instant::now();
            assert_eq!(reason(html.as_bytes()), Some(want));
            assert!(start.elapsed() < Duration::from_secs(5));
        }
    }
}
