//! Is this HTML page a bot check (a challenge, a CAPTCHA, a firewall's block page) rather
//! than the page asked for? One cheap pass over the raw bytes, run on every fetched page.
//!
//! The pass first counts the page's readable characters (text outside tags, scripts, styles
//! and comments), stopping as soon as there are more than [`MAX_TEXT_CHARS`]: a page with
//! that much to read is content, whatever scripts it also loads (CDNs inject their challenge
//! and sensor scripts into ordinary pages too). Only a page that stays under it — a tiny
//! page, as every challenge page is — is searched for the vendors' markers, by one
//! case-insensitive Aho-Corasick automaton over its first [`SCAN_BYTES`].
//!
//! Markers come in two strengths (sources in docs/challenge-pages.md):
//! - **tokens** that only a vendor's challenge or block page carries (Cloudflare's
//!   `_cf_chl_opt`, DataDome's `captcha-delivery.com`, AWS WAF's `gokuProps`, ...): enough
//!   on a tiny page, whatever the status;
//! - **phrases** ("Access Denied", "Checking your browser", "unusual traffic") and generic
//!   CAPTCHA widgets, which ordinary short pages may also hold: they count only with a status
//!   that refuses (403, 429, 503, ...) or, for a widget, beside a "prove you are human" phrase.
//!
//! Login walls and consent interstitials are decided by the caller (they depend on the URL
//! and redirects); [`Scan`] gives it the page's size, forms and password fields for that.

use std::sync::OnceLock;

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Input, MatchKind};
use memchr::{memchr, memmem};

/// A page with more readable characters than this (whitespace not counted) is never a
/// challenge page. Real ones hold a few hundred (Sucuri's block page, the wordiest, about
/// a thousand).
pub const MAX_TEXT_CHARS: usize = 2000;
/// A CAPTCHA widget makes a page a CAPTCHA wall only on a page with less text than this:
/// ordinary pages embed one in their contact and comment forms.
pub const WIDGET_MAX_TEXT_CHARS: usize = 1000;
/// How much of a tiny page is searched for markers: challenge pages are a few KiB to some
/// tens of KiB, their markers in the first part.
pub const SCAN_BYTES: usize = 256 * 1024;

/// What a page is, when it is a bot check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A script or interstitial that checks the browser before letting it in.
    Challenge,
    /// A CAPTCHA to solve.
    Captcha,
    /// A firewall's refusal page ("Access Denied", "you have been blocked").
    Blocked,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Challenge => "challenge",
            Kind::Captcha => "captcha",
            Kind::Blocked => "blocked",
        }
    }
}

/// The verdict on a bot check: its kind and, when known, the vendor that served it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub kind: Kind,
    pub vendor: Option<&'static str>,
}

/// What the pass found on a tiny page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Readable characters (not whitespace), at most [`MAX_TEXT_CHARS`].
    pub text_chars: usize,
    /// `<form>` elements.
    pub forms: usize,
    /// `<input type=password>` fields.
    pub password_inputs: usize,
    /// The bot check the page is, if it is one (given the status it came with).
    pub verdict: Option<Verdict>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Strength {
    /// Only a challenge or block page carries it: enough on a tiny page.
    Token,
    /// Ordinary short pages may say it too: counts with a refusing status.
    Phrase,
    /// A CAPTCHA widget (reCAPTCHA, hCaptcha, Turnstile), embedded in ordinary forms too:
    /// counts on a page under [`WIDGET_MAX_TEXT_CHARS`], with a refusing status or beside a
    /// [`Strength::Human`] phrase.
    Widget,
    /// "Verify you are human" and the like: makes a widget a CAPTCHA wall, and on its own
    /// counts with a refusing status.
    Human,
}

struct Marker {
    text: &'static str,
    vendor: Option<&'static str>,
    kind: Kind,
    strength: Strength,
}

const fn m(
    text: &'static str,
    vendor: Option<&'static str>,
    kind: Kind,
    strength: Strength,
) -> Marker {
    Marker {
        text,
        vendor,
        kind,
        strength,
    }
}

const CLOUDFLARE: Option<&str> = Some("Cloudflare");
const AKAMAI: Option<&str> = Some("Akamai");
const DATADOME: Option<&str> = Some("DataDome");
const PERIMETERX: Option<&str> = Some("PerimeterX");
const IMPERVA: Option<&str> = Some("Imperva");
const AWS: Option<&str> = Some("AWS WAF");
const SUCURI: Option<&str> = Some("Sucuri");
const KASADA: Option<&str> = Some("Kasada");
const DDOS_GUARD: Option<&str> = Some("DDoS-Guard");
const GOOGLE: Option<&str> = Some("Google");
const RECAPTCHA: Option<&str> = Some("reCAPTCHA");
const HCAPTCHA: Option<&str> = Some("hCaptcha");
const TURNSTILE: Option<&str> = Some("Turnstile");

use Kind::{Blocked, Captcha, Challenge};
use Strength::{Human, Phrase, Token, Widget};

/// Every marker, lower-case (the search ignores ASCII case). The first token found decides
/// the verdict, so the more specific markers of a vendor come first.
#[rustfmt::skip] // a table: one marker a line
const MARKERS: &[Marker] = &[
    // Cloudflare: the challenge page's options object, its form and its orchestration
    // script (`/cdn-cgi/challenge-platform/h/*/orchestrate/...`; the `scripts/jsd` path under
    // the same folder is injected into ordinary pages, so the folder alone is no marker).
    m("_cf_chl_opt", CLOUDFLARE, Challenge, Token),
    m("__cf_chl_f_tk", CLOUDFLARE, Challenge, Token),
    m("__cf_chl_rt_tk", CLOUDFLARE, Challenge, Token),
    m("/orchestrate/chl_page/", CLOUDFLARE, Challenge, Token),
    m("/orchestrate/managed/", CLOUDFLARE, Challenge, Token),
    m("/orchestrate/jsch/", CLOUDFLARE, Challenge, Token),
    m("/orchestrate/captcha/", CLOUDFLARE, Captcha, Token),
    m("cf-browser-verification", CLOUDFLARE, Challenge, Token),
    m("cf-challenge-running", CLOUDFLARE, Challenge, Token),
    m("cf_captcha_kind", CLOUDFLARE, Captcha, Token),
    // The block page ("Sorry, you have been blocked") has the CAPTCHA page's title too: its
    // phrase comes first (the old CAPTCHA page is told apart by `cf_captcha_kind` above).
    m("used cloudflare to restrict access", CLOUDFLARE, Blocked, Phrase),
    m("you have been blocked", CLOUDFLARE, Blocked, Phrase),
    m("attention required! | cloudflare", CLOUDFLARE, Captcha, Phrase),
    // Akamai: the block page's reference number (written with entities) and its link to
    // errors.edgesuite.net.
    m("errors.edgesuite.net", AKAMAI, Blocked, Token),
    m("reference&#32;&#35;", AKAMAI, Blocked, Token),
    // DataDome: the CAPTCHA and block pages load their frame from captcha-delivery.com.
    m("captcha-delivery.com", DATADOME, Captcha, Token),
    // PerimeterX / HUMAN: the CAPTCHA element and CDN ("Press & Hold"); the block title.
    m("px-captcha", PERIMETERX, Captcha, Token),
    m("captcha.px-cdn.net", PERIMETERX, Captcha, Token),
    m("access to this page has been denied", PERIMETERX, Blocked, Phrase),
    // Imperva / Incapsula: the incident ID of its block page; its resource path (injected
    // into ordinary pages too, hence a phrase); Distil's (now Imperva's) block title.
    m("incapsula incident id", IMPERVA, Blocked, Token),
    m("_incapsula_resource", IMPERVA, Challenge, Phrase),
    m("request unsuccessful. incapsula", IMPERVA, Blocked, Token),
    m("pardon our interruption", IMPERVA, Challenge, Phrase),
    // AWS WAF: the challenge and CAPTCHA interstitials set `window.gokuProps`.
    m("gokuprops", AWS, Challenge, Token),
    // Sucuri: the firewall's block page and its JavaScript challenge.
    m("sucuri website firewall", SUCURI, Blocked, Token),
    m("cloudproxy@sucuri.net", SUCURI, Blocked, Token),
    m("sucuri_cloudproxy_js", SUCURI, Challenge, Token),
    // Kasada: the block page starts its proof-of-work script this way.
    m("kpsdk.scriptstart", KASADA, Challenge, Token),
    // DDoS-Guard: its check page.
    m("ddos-guard", DDOS_GUARD, Challenge, Phrase),
    // Google's "unusual traffic" page (google.com/sorry).
    m("unusual traffic from your computer network", GOOGLE, Captcha, Phrase),
    // Generic CAPTCHA widgets.
    m("g-recaptcha", RECAPTCHA, Captcha, Widget),
    m("google.com/recaptcha/", RECAPTCHA, Captcha, Widget),
    m("recaptcha.net/recaptcha/", RECAPTCHA, Captcha, Widget),
    m("h-captcha", HCAPTCHA, Captcha, Widget),
    m("hcaptcha.com/1/api.js", HCAPTCHA, Captcha, Widget),
    m("cf-turnstile", TURNSTILE, Captcha, Widget),
    m("challenges.cloudflare.com/turnstile", TURNSTILE, Captcha, Widget),
    // What challenge pages say (and block pages with a refusing status).
    m("checking your browser", None, Challenge, Human),
    m("verify you are human", None, Challenge, Human),
    m("verifying you are human", None, Challenge, Human),
    m("verify you are a human", None, Challenge, Human),
    m("are you a robot", None, Challenge, Human),
    m("not a robot", None, Challenge, Human),
    m("are you human", None, Challenge, Human),
    m("human verification", None, Challenge, Human),
    m("enable javascript and cookies to continue", None, Challenge, Human),
    m("<title>just a moment...</title>", CLOUDFLARE, Challenge, Human),
];

/// Statuses with which a phrase counts: the refusals bot managers answer with (AWS WAF's
/// challenge comes as 202, its CAPTCHA as 405).
fn refusing(status: u16) -> bool {
    matches!(status, 202 | 401 | 403 | 405 | 406 | 429 | 503)
}

/// The markers' automaton: a DFA held as its own type (not behind `AhoCorasick`'s trait
/// object), so that the search's step from byte to byte is inlined rather than a dynamic call
/// per byte (about 4 ns a byte, a millisecond on a 230 KiB page with little text).
fn automaton() -> Option<&'static DFA> {
    static AC: OnceLock<Option<DFA>> = OnceLock::new();
    AC.get_or_init(|| {
        DFA::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(MARKERS.iter().map(|m| m.text))
            .ok()
    })
    .as_ref()
}

/// Scan `html` (raw bytes, any ASCII-compatible encoding) that came with HTTP `status`.
/// `None` when the page has more than [`MAX_TEXT_CHARS`] readable characters (most pages,
/// decided after reading only as far as that text).
pub fn scan(html: &[u8], status: u16) -> Option<Scan> {
    let mut scan = measure(html)?;
    let head = html.get(..SCAN_BYTES).unwrap_or(html);
    scan.verdict = verdict(head, status, scan.text_chars <= WIDGET_MAX_TEXT_CHARS);
    Some(scan)
}

/// The verdict from the markers in `head` (the page's first bytes).
fn verdict(head: &[u8], status: u16, widget_counts: bool) -> Option<Verdict> {
    let ac = automaton()?;
    let mut found = [false; MARKERS.len()];
    // Overlapping: a marker inside another ("captcha" in a vendor's host name) counts too.
    // The search cannot fail: standard match semantics, an unanchored search.
    for hit in ac.try_find_overlapping_iter(Input::new(head)).ok()? {
        if let Some(slot) = found.get_mut(hit.pattern().as_usize()) {
            *slot = true;
        }
    }
    let hits = || {
        MARKERS
            .iter()
            .zip(found.iter())
            .filter(|(_, f)| **f)
            .map(|(m, _)| m)
    };
    let pick = |m: &Marker| Verdict {
        kind: m.kind,
        vendor: m.vendor,
    };
    if let Some(token) = hits().find(|m| m.strength == Token) {
        return Some(pick(token));
    }
    let refused = refusing(status);
    // A vendor's phrase first: it names who refused (Google's "unusual traffic" page holds
    // a reCAPTCHA widget too).
    if refused {
        if let Some(phrase) = hits().find(|m| m.strength == Phrase && m.vendor.is_some()) {
            return Some(pick(phrase));
        }
    }
    let human = hits().find(|m| m.strength == Human);
    if let Some(widget) = hits().find(|m| m.strength == Widget) {
        if widget_counts && (refused || human.is_some()) {
            return Some(pick(widget));
        }
    }
    if refused {
        if let Some(human) = human {
            return Some(pick(human));
        }
    }
    // Anything else ("Access Denied" alone, a bare 403) is the server's own refusal, an
    // HTTP error: the caller reports the status, not a bot check.
    None
}

/// Elements whose content is not readable text.
const SKIPPED: &[&[u8]] = &[b"script", b"style", b"template", b"svg"];

/// Text is searched for the next `<` this much at a time, so that a huge run of text stops
/// the pass once it is over the budget instead of after a search to its end.
const TEXT_WINDOW: usize = 16 * 1024;

/// Count the readable characters, forms and password fields; `None` past the text budget.
fn measure(html: &[u8]) -> Option<Scan> {
    let mut scan = Scan::default();
    let mut at = 0;
    while at < html.len() {
        let rest = html.get(at..)?;
        let window = rest.get(..TEXT_WINDOW).unwrap_or(rest);
        let lt = memchr(b'<', window).map(|i| at + i);
        let text_end = lt.unwrap_or(at + window.len());
        scan.text_chars += readable_chars(html.get(at..text_end)?);
        if scan.text_chars > MAX_TEXT_CHARS {
            return None;
        }
        at = match lt {
            Some(lt) => skip_markup(html, lt, &mut scan),
            None => text_end,
        };
    }
    Some(scan)
}

/// Characters that are not whitespace (UTF-8 continuation bytes not counted apart).
fn readable_chars(text: &[u8]) -> usize {
    // Comparisons and a byte-sized sum per chunk, without a branch: the compiler turns the
    // inner loop into vector code (a filtered count went a byte at a time).
    text.chunks(255)
        .map(|chunk| {
            let mut n = 0u8;
            for &b in chunk {
                // ASCII whitespace: space, and \t \n \x0C \r (9..=13 less \x0B).
                let space = (b == b' ') | ((b.wrapping_sub(b'\t') < 5) & (b != 0x0B));
                let continuation = (b & 0xC0) == 0x80;
                n += u8::from(!(space | continuation));
            }
            usize::from(n)
        })
        .sum()
}

/// Past the markup that starts at `lt` (a `<`): a comment, or a tag and, for the elements
/// in [`SKIPPED`], everything up to their end tag. Counts forms and password fields.
fn skip_markup(html: &[u8], lt: usize, scan: &mut Scan) -> usize {
    let after = html.get(lt + 1..).unwrap_or_default();
    if after.starts_with(b"!--") {
        return memmem::find(after, b"-->").map_or(html.len(), |i| lt + 1 + i + 3);
    }
    let Some(gt) = memchr(b'>', after).map(|i| lt + 1 + i) else {
        return html.len();
    };
    let tag = html.get(lt + 1..gt).unwrap_or_default();
    // Most tags are none of the names below: their first letter says so without comparing,
    // or even reading the rest of the name.
    if !matches!(
        tag.first().map(u8::to_ascii_lowercase),
        Some(b'f' | b'i' | b's' | b't')
    ) {
        return gt + 1;
    }
    let name_len = tag
        .iter()
        .position(|b| !b.is_ascii_alphanumeric())
        .unwrap_or(tag.len());
    let name = tag.get(..name_len).unwrap_or_default();
    if name.eq_ignore_ascii_case(b"form") {
        scan.forms += 1;
    } else if name.eq_ignore_ascii_case(b"input") && is_password_input(tag) {
        scan.password_inputs += 1;
    } else if let Some(skipped) = SKIPPED.iter().find(|s| name.eq_ignore_ascii_case(s)) {
        // `<svg ... />` is a whole (foreign) element: skipping to a `</svg` that may never
        // come would hide the rest of the page from the count. `<script/>`, `<style/>` and
        // `<template/>` are not self-closing in HTML: their content follows.
        if *skipped == b"svg" && self_closing(tag.get(name_len..).unwrap_or_default()) {
            return gt + 1;
        }
        return end_tag(html, gt + 1, skipped);
    }
    gt + 1
}

/// Whether a start tag whose attributes are `attrs` (what follows the name, up to the `>`)
/// ends in `/>` as the HTML tokenizer reads it: the `/` stands outside any attribute value
/// (`<svg a=b/>` is an unquoted value `b/`, not a self-closing tag).
fn self_closing(attrs: &[u8]) -> bool {
    #[derive(Clone, Copy)]
    enum State {
        /// Between attributes, or after a name: a `/` here may close the tag.
        Between,
        Name,
        BeforeValue,
        Quoted(u8),
        Unquoted,
    }
    let mut state = State::Between;
    for (i, &b) in attrs.iter().enumerate() {
        let last = i + 1 == attrs.len();
        state = match (state, b) {
            (State::Quoted(q), _) if b == q => State::Between,
            (State::Quoted(q), _) => State::Quoted(q),
            (State::Unquoted, _) if b.is_ascii_whitespace() => State::Between,
            (State::Unquoted, _) => State::Unquoted,
            (State::BeforeValue, b'"' | b'\'') => State::Quoted(b),
            (State::BeforeValue, _) if b.is_ascii_whitespace() => State::BeforeValue,
            (State::BeforeValue, _) => State::Unquoted,
            (State::Between | State::Name, b'/') if last => return true,
            (State::Between | State::Name, b'/') => State::Between,
            (State::Between | State::Name, b'=') => State::BeforeValue,
            (State::Between | State::Name, _) if b.is_ascii_whitespace() => State::Between,
            (State::Between | State::Name, _) => State::Name,
        };
    }
    false
}

/// Whether an `<input ...` tag's attributes say `type=password` (any quoting, any case).
fn is_password_input(tag: &[u8]) -> bool {
    let mut rest = tag;
    while let Some(i) = find_ignore_case(rest, b"type") {
        rest = rest.get(i + 4..).unwrap_or_default();
        let value = trim_start(rest, |b| b.is_ascii_whitespace());
        if let Some(value) = value.strip_prefix(b"=") {
            let value = trim_start(value, |b| {
                b.is_ascii_whitespace() || b == b'"' || b == b'\''
            });
            if value
                .get(..8)
                .is_some_and(|v| v.eq_ignore_ascii_case(b"password"))
            {
                return true;
            }
        }
    }
    false
}

fn trim_start(bytes: &[u8], skip: impl Fn(u8) -> bool) -> &[u8] {
    let start = bytes.iter().position(|&b| !skip(b)).unwrap_or(bytes.len());
    bytes.get(start..).unwrap_or_default()
}

fn find_ignore_case(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The position after `</name ...>` from `from` on (the end of the page when missing).
///
/// Only `</` can start the end tag: searched for as a pair, the `<` of a script's
/// comparisons and an SVG's own tags are passed over without stopping at each.
fn end_tag(html: &[u8], from: usize, name: &[u8]) -> usize {
    let finder = end_tag_finder();
    let mut at = from;
    while let Some(i) = html.get(at..).and_then(|rest| finder.find(rest)) {
        // `start` is the `/` after the `<`.
        let start = at + i + 1;
        let candidate = html
            .get(start + 1..start + 1 + name.len())
            .unwrap_or_default();
        if candidate.eq_ignore_ascii_case(name) {
            let tail = html.get(start..).unwrap_or_default();
            return memchr(b'>', tail).map_or(html.len(), |j| start + j + 1);
        }
        at = start;
    }
    html.len()
}

/// The searcher for `</`, built once.
fn end_tag_finder() -> &'static memmem::Finder<'static> {
    static FINDER: OnceLock<memmem::Finder<'static>> = OnceLock::new();
    FINDER.get_or_init(|| memmem::Finder::new(b"</"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(html: &str, status: u16) -> Option<(&'static str, Option<&'static str>)> {
        scan(html.as_bytes(), status)
            .and_then(|s| s.verdict)
            .map(|v| (v.kind.as_str(), v.vendor))
    }

    #[test]
    fn cloudflare_challenge_any_status() {
        let page = "<html><head><title>Just a moment...</title></head><body>\
            <noscript>Enable JavaScript and cookies to continue</noscript>\
            <script>window._cf_chl_opt={cvId:'3'};</script></body></html>";
        assert_eq!(kind(page, 403), Some(("challenge", CLOUDFLARE)));
        assert_eq!(kind(page, 200), Some(("challenge", CLOUDFLARE)));
    }

    #[test]
    fn long_pages_are_never_scanned() {
        let body = "word ".repeat(MAX_TEXT_CHARS);
        let page = format!("<script>_cf_chl_opt</script><p>{body}</p>");
        assert_eq!(scan(page.as_bytes(), 403), None);
    }

    #[test]
    fn script_text_is_not_readable() {
        let script = "x".repeat(10 * MAX_TEXT_CHARS);
        let page = format!("<script>{script}</SCRIPT ><p>hello</p>");
        let s = scan(page.as_bytes(), 200).expect("tiny");
        assert_eq!(s.text_chars, 5);
    }

    #[test]
    fn a_script_ends_only_at_its_own_end_tag() {
        // `<` and other end tags inside the script, `</` at its very end, `</scrip` short.
        let script = "if (a<b && c </d) { s = '</div><p>' + x } </scrip </";
        let page = format!("<script>{script}</script><p>hello</p><svg><g></g></svg>ok");
        let s = scan(page.as_bytes(), 200).expect("tiny");
        assert_eq!(s.text_chars, 7);
        // Never closed: the rest of the page is script.
        let open = format!("<p>hi</p><script>{script}<p>{}</p>", "x".repeat(5000));
        assert_eq!(scan(open.as_bytes(), 200).map(|s| s.text_chars), Some(2));
    }

    #[test]
    fn phrases_need_a_refusing_status() {
        let page = "<h1>Checking your browser</h1>";
        assert_eq!(kind(page, 200), None);
        assert_eq!(kind(page, 503), Some(("challenge", None)));
        // "Access Denied" alone is an HTTP error, not a bot check.
        assert_eq!(kind("<h1>Access Denied</h1>", 403), None);
    }

    #[test]
    fn widgets_need_a_refusal_or_a_human_check() {
        let form = "<form><div class=\"g-recaptcha\"></div></form>";
        assert_eq!(kind(form, 200), None);
        assert_eq!(kind(form, 429), Some(("captcha", RECAPTCHA)));
        let wall = "<p>Please verify you are human</p><div class=\"h-captcha\"></div>";
        assert_eq!(kind(wall, 200), Some(("captcha", HCAPTCHA)));
        let contact = format!("<p>{}</p>{form}", "x".repeat(WIDGET_MAX_TEXT_CHARS + 1));
        assert_eq!(kind(&contact, 403), None);
    }

    #[test]
    fn cloudflare_block_page_is_blocked_not_captcha() {
        // Cloudflare's WAF block page: the CAPTCHA page's title, the block heading.
        let block = "<html><head><title>Attention Required! | Cloudflare</title></head><body>\
            <h1>Sorry, you have been blocked</h1>\
            <h2>You are unable to access shop.example</h2></body></html>";
        assert_eq!(kind(block, 403), Some(("blocked", CLOUDFLARE)));
        // The old CAPTCHA page with the same title is still a CAPTCHA, by its token.
        let captcha = "<html><head><title>Attention Required! | Cloudflare</title></head>\
            <body><form id=\"challenge-form\"><input type=\"hidden\" name=\"cf_captcha_kind\" \
            value=\"h\"></form></body></html>";
        assert_eq!(kind(captcha, 403), Some(("captcha", CLOUDFLARE)));
        assert_eq!(kind(captcha, 200), Some(("captcha", CLOUDFLARE)));
    }

    #[test]
    fn self_closing_svg_hides_nothing() {
        let article = format!(
            "<p>The challenge page sets window._cf_chl_opt.</p><p>{}</p>",
            "Lorem ipsum dolor sit amet. ".repeat(200)
        );
        for icon in [
            "<svg/>",
            "<svg class='icon'/>",
            "<svg width=\"0\" height=\"0\" />",
            "<SVG viewBox='0 0 1 1' aria-hidden/>",
        ] {
            // Long text after the icon: counted, so the page is content, never scanned.
            let page = format!("<header>{icon}</header>{article}");
            assert_eq!(scan(page.as_bytes(), 200), None, "{icon}");
        }
        // Not self-closing: the `/` is part of an unquoted value, or the element has content.
        for open in ["<svg data-x=a/>", "<svg class='icon'>"] {
            let page = format!("{open}<text>{}</text></svg><p>short</p>", "x".repeat(3000));
            let s = scan(page.as_bytes(), 200).expect("svg content is not text");
            assert_eq!(s.text_chars, 5, "{open}");
        }
    }

    #[test]
    fn password_fields_and_forms() {
        let page = "<form><INPUT name=p TYPE = 'Password'><input type=text></form>\
            <input type=\"password\"/>";
        let s = scan(page.as_bytes(), 200).expect("tiny");
        assert_eq!((s.forms, s.password_inputs), (1, 2));
    }

    proptest::proptest! {
        /// Any bytes, any status: an answer, never a panic; a verdict only on a tiny page.
        #[test]
        fn any_input_is_scanned(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4096),
                                status in 100u16..600) {
            if let Some(s) = scan(&bytes, status) {
                proptest::prop_assert!(s.text_chars <= MAX_TEXT_CHARS);
            }
        }

        /// The vector count agrees with its definition, a byte at a time.
        #[test]
        fn readable_chars_counts_what_is_not_whitespace_or_a_continuation(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2048)) {
            let plain = bytes
                .iter()
                .filter(|&&b| !b.is_ascii_whitespace() && (b & 0xC0) != 0x80)
                .count();
            proptest::prop_assert_eq!(readable_chars(&bytes), plain);
        }

        /// Markup-shaped input (tags, comments, markers, quotes) cut anywhere.
        #[test]
        fn markup_fragments_are_scanned(parts in proptest::collection::vec(proptest::sample::select(vec![
            "<", ">", "</", "<!--", "-->", "<script>", "</script", "<input type=", "password",
            "'", "\"", "<form", "_cf_chl_opt", "px-captcha", "verify you are human", "text ",
            "<svg", "</svg>", "/>", "=", " ",
        ]), 0..200), status in 100u16..600) {
            let page = parts.concat();
            let _ = scan(page.as_bytes(), status);
        }
    }

    #[test]
    fn comments_and_unclosed_markup_end_the_scan() {
        assert!(scan(b"<!-- _cf_chl_opt", 403).is_some());
        assert!(scan(b"<script>never closed", 200).is_some());
        assert!(scan(b"<p", 200).is_some());
        assert_eq!(scan(b"", 200).map(|s| s.text_chars), Some(0));
    }
}
