//! What one element is, from its tag, attributes and class/id words: the flags every later
//! step reads (see `flags`).

use std::borrow::Cow;

use super::attrs::Attrs;
use super::docs_site::has_class_role;
use super::flags::*;
use super::hashing::{fast_map, FastMap};
use super::vocab::WordSet;
use super::words::{WordCounts, NEG_ALWAYS, NEG_TOKENS, NEG_TOKENS_ALWAYS, NEG_WORDS};

/// Flags an element has by its tag alone.
pub(super) fn tag_flags(name: &str) -> Flags {
    match name {
        "script" | "style" | "template" | "head" | "title" | "meta" | "link" | "svg" | "canvas"
        | "iframe" | "object" | "embed" | "audio" | "video" | "map" | "dialog" | "math"
        | "datalist" | "source" | "track" | "param" => F_INVISIBLE,
        "select" | "option" | "optgroup" | "button" | "input" | "textarea" | "label" => F_CONTROL,
        "nav" | "footer" | "aside" | "menu" => F_CHROME_TAG | F_BLOCK,
        // Parsed as markup only when scripting is off; then it is a hidden block that can
        // still be the page's content (forum software serves whole threads in it).
        "noscript" => F_HIDDEN | F_BLOCK,
        "header" => F_HEADER | F_BLOCK,
        "a" => F_LINK,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => F_HEADING | F_BLOCK,
        "p" | "blockquote" | "address" | "summary" => F_PARA | F_BLOCK,
        "dd" | "dt" => F_PARA | F_BLOCK | F_CELL,
        // Photo captions are not main content (WCXB dev set: captions of 25+ characters
        // found in the ground truth 111 times, left out 859 times; the article corpus agrees).
        // A page of nothing but captions still falls back to the whole page.
        "figcaption" => F_PARA | F_BLOCK | F_CHROME_TAG,
        "li" => F_PARA | F_BLOCK,
        "td" | "th" => F_PARA | F_BLOCK | F_CELL,
        "pre" => F_PARA | F_CODE | F_BLOCK,
        "code" | "kbd" | "samp" => F_CODE,
        "main" => F_MAIN_HINT | F_BLOCK,
        "article" => F_ARTICLE | F_BLOCK,
        "body" => F_BODY,
        "ul" | "ol" | "dl" | "table" => F_BLOCK | F_STRUCT,
        // Sign-in, search and newsletter forms; a page-wide form wrapper (ASP.NET) holds most
        // of the text and is let off in `decide_chrome`.
        "form" => F_CHROME_TAG | F_BLOCK | F_FORM,
        "div" | "section" | "tbody" | "tr" | "figure" | "details" | "fieldset" | "center" => {
            F_BLOCK
        }
        _ => Flags::EMPTY,
    }
}

/// What the outline reads from a class string besides its words, kept in the memo with them
/// (computed once per distinct string, not once per element).
#[derive(Clone, Copy)]
pub(super) struct ClassFacts {
    /// A class name with a token (split at anything not ASCII alphanumeric) "price", any case.
    pub(super) price: bool,
    /// Nothing but whitespace.
    pub(super) blank: bool,
    /// The class names' part of the element's signature (see `outline::signature`).
    pub(super) sig: u64,
    /// A class name, as written, has a documentation generator's role
    /// (`docs_site::has_class_role`): judged once per class string here, so that
    /// `DocsNotes::note` splits no other element's class string.
    pub(super) docs: bool,
}

impl ClassFacts {
    /// The facts of no class (or an empty one).
    pub(super) const NONE: ClassFacts = ClassFacts {
        price: false,
        blank: true,
        sig: SIG_BASIS,
        docs: false,
    };
}

impl Default for ClassFacts {
    fn default() -> Self {
        ClassFacts::NONE
    }
}

/// FNV-1a's offset basis and prime, for the signatures.
pub(super) const SIG_BASIS: u64 = 0xcbf29ce484222325;
pub(super) const SIG_PRIME: u64 = 0x100000001b3;

/// Flags from role, itemprop, hidden-ness and class/id tokens, and what the class string
/// says besides (see [`ClassFacts`]).
pub(super) fn attr_flags(a: &Attrs<'_>, name: &str) -> (Flags, ClassFacts) {
    let mut f = Flags::EMPTY;
    if let Some(role) = a.role {
        // Lower-cased on the stack: roles are short words (a longer one matches none).
        let role = role.trim();
        let mut buf = [0u8; 16];
        let lower = buf.get_mut(..role.len()).map(|b| {
            b.copy_from_slice(role.as_bytes());
            b.make_ascii_lowercase();
            &*b
        });
        match lower
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
        {
            "navigation" | "banner" | "contentinfo" | "complementary" | "search" | "menu"
            | "menubar" | "toolbar" => f |= F_CHROME_TAG,
            // Not "tablist": widgets put it on the whole tab set, panels included, while the
            // tab labels it is meant for are a few words.
            "dialog" | "alertdialog" => f |= F_CHROME_TAG | F_STRONG,
            // Live status and error messages ("Loading...", "Please try again", "Added to
            // your cart", form validation): interface state, not the page's text, when short
            // (see `F_LIVE`).
            "alert" | "status" => f |= F_LIVE,
            "main" => f |= F_MAIN_HINT,
            // An inactive tab's panel is hidden like a collapsed accordion's.
            "tabpanel" => f |= F_COLLAPSIBLE,
            "article" => f |= F_ARTICLE,
            _ => {}
        }
    }
    if let Some(prop) = a.itemprop {
        if prop.contains("articleBody") || prop.contains("reviewBody") {
            f |= F_MAIN_HINT;
        }
        if prop
            .split_ascii_whitespace()
            .any(|p| p == "review" || p == "reviewBody")
        {
            f |= F_REVIEW;
        }
    }
    // A `popover` element is hidden until something opens it (app-install prompts,
    // notification settings, user cards, dropdown menus of forum software).
    if a.hidden
        || a.popover
        || a.aria_hidden
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        f |= F_HIDDEN;
    }
    if a.style_hides {
        f |= F_HIDDEN;
    }
    // Class and id share one vocabulary.
    let class = a.class.unwrap_or("");
    let id = a.id.unwrap_or("");
    if class.is_empty() && id.is_empty() {
        return (f, ClassFacts::NONE);
    }
    let (class_flags, facts) = class_flags_memo(class, id, name);
    (f | class_flags, facts)
}

/// `S:` followed by hex digits: the id React's streaming server renderer gives a hidden segment
/// of late-arriving content (`<div hidden id="S:0">`).
pub(super) fn is_streamed_segment_id(id: &str) -> bool {
    id.strip_prefix("S:")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A utility-CSS class that hides the element itself in some state ("md:hidden",
/// "group-[.pdf]:hidden"). Not a pseudo-element variant: "marker:hidden" hides a list item's
/// bullet (FAQ `<summary>` rows carry it), "before:hidden" a decoration.
fn hides_in_some_state(w: &str) -> bool {
    w.strip_suffix(":hidden").is_some_and(|v| {
        let last = after_last_colon(v);
        !PSEUDO_VARIANTS.contains(&last)
    })
}

/// The runs of ASCII letters and digits in `s`, in order, each with its offset: its pieces
/// split at every other character, empty ones left out. A byte scan (the cuts fall next to
/// ASCII bytes or inside no character), where a split on a `char` predicate decoded every
/// character.
fn alnum_tokens_at(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = s.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        (at > start)
            .then(|| s.get(start..at).map(|t| (start, t)))
            .flatten()
    })
}

/// What follows the last ':' of a class name (all of it without one): its utility part
/// after any variant prefixes. A byte scan (':' is ASCII, so the cut is on a character
/// boundary): a class name is a few bytes, where `rsplit` set up a reverse memchr for each.
fn after_last_colon(name: &str) -> &str {
    match name.bytes().rposition(|b| b == b':') {
        Some(at) => name.get(at + 1..).unwrap_or(name),
        None => name,
    }
}

/// Bootstrap's `d-none` (display: none) prefixes: with a breakpoint variant other than
/// "none" ("d-none d-md-block" is shown from tablets up: a desktop reader sees it), the
/// element is shown again (see `ClassWords::d_shown`).
const DISPLAY_BREAKPOINTS: &[&str] = &["d-sm-", "d-md-", "d-lg-", "d-xl-", "d-xxl-"];

/// Tailwind variants that style a pseudo-element rather than the element.
const PSEUDO_VARIANTS: &[&str] = &[
    "marker",
    "before",
    "after",
    "placeholder",
    "file",
    "backdrop",
    "first-letter",
    "first-line",
    "selection",
];

/// What one lower-cased class string or id says before the tag is known. The class string
/// and the id are judged apart and joined in [`joined_flags`], which gives what one judgement
/// of `class id` gives: pages repeat the same class strings on every list item, card and menu
/// entry, while unique ids would make every `class id` pair a new key.
#[derive(Default, Clone, Copy)]
struct ClassWords {
    /// The substring vocabularies' words it holds (see `WordCounts::of_joined`).
    found: WordSet,
    /// A token of [`NEG_TOKENS_ALWAYS`].
    neg_token_always: bool,
    /// A token of [`NEG_TOKENS`], a whole name of [`NEG_WORDS`] or a state-hiding utility.
    neg_token: bool,
    /// Bootstrap's `d-none`, and a breakpoint variant showing the element again.
    d_none: bool,
    d_shown: bool,
    /// "fixed" and "inset-0", the names of a box pinned over the whole viewport.
    fixed: bool,
    inset_0: bool,
    /// A whole name "hide" or "hidden".
    hide_word: bool,
    /// A token naming reviews (see `F_REVIEW`).
    review: bool,
    /// Holds "social".
    social: bool,
    /// How often "promo" and "promoted" occur.
    promo: usize,
    promoted: usize,
    /// What the string says besides its words, read when it is a class string.
    facts: ClassFacts,
    /// Set in the memo: the flags of an element with these classes and no id,
    /// unless it is `body`, `html` or `main` (the only tags [`joined_flags`] asks about): most
    /// elements, answered without joining anything.
    plain: Flags,
}

impl ClassWords {
    /// One scan of the class names for everything but the vocabulary (which the automaton
    /// finds in its own scan): the signature, "price", and each utility part's tokens, where
    /// separate passes read every byte of a long utility-CSS class string five times.
    fn of(raw: &str) -> Self {
        let s = if raw.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(raw.to_ascii_lowercase())
        } else {
            Cow::Borrowed(raw)
        };
        let found = WordCounts::found(&s);
        // Counted only where the scan saw "promo" ("promoted" holds it).
        let (promo, promoted) = if WordCounts::holds_promo(&found) {
            (s.matches("promo").count(), s.matches("promoted").count())
        } else {
            (0, 0)
        };
        let mut w = ClassWords {
            facts: ClassFacts {
                price: false,
                blank: raw.trim().is_empty(),
                sig: SIG_BASIS,
                docs: false,
            },
            social: WordCounts::holds_social(&found),
            found,
            promo,
            promoted,
            ..ClassWords::default()
        };
        // Lower-casing moves no byte, so `s` and `raw` split at the same offsets.
        let (lower, bytes) = (&*s, raw.as_bytes());
        let mut at = 0;
        let mut k = 0;
        while at < bytes.len() {
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let start = at;
            // The name's end, its signature (`sign_name`'s, fed as it goes) and its last ':'
            // in one scan.
            let mut sig = w.facts.sig;
            let mut colon = None;
            while at < bytes.len() && !bytes[at].is_ascii_whitespace() {
                let b = bytes[at];
                if !b.is_ascii_digit() {
                    sig = (sig ^ u64::from(b)).wrapping_mul(SIG_PRIME);
                }
                if b == b':' {
                    colon = Some(at);
                }
                at += 1;
            }
            // Cut next to ASCII whitespace: on character boundaries.
            let (Some(raw_name), Some(name)) = (raw.get(start..at), lower.get(start..at)) else {
                break;
            };
            if name.is_empty() {
                break;
            }
            if !skips_signature(raw_name, k) {
                w.facts.sig = (sig ^ u64::from(b' ')).wrapping_mul(SIG_PRIME);
            }
            w.facts.docs |= has_class_role(raw_name);
            k += 1;
            // Lower-casing moves no byte: the ':' is at the same offset in `name`.
            w.judge_name(name, colon.map_or(0, |c| c + 1 - start));
        }
        w
    }

    /// What one lower-cased class name says: "price" among its tokens; the tokens of its
    /// utility part (after the last ':'), where a utility-CSS variant prefix names a state or
    /// a medium, not the element ("print:break-inside-avoid" is content that prints well,
    /// not a print-only block); and the whole-name words. "hide" before a small-screen word
    /// ("hide-mobile", "hide-sm") hides the element on phones only, and before "from"
    /// ("hide-from-toc" on a docs landing page's card titles) keeps it out of a generated list
    /// only: a desktop reader sees both.
    /// `utility_at`: where its utility part starts (after its last ':', 0 without one).
    fn judge_name(&mut self, name: &str, utility_at: usize) {
        // The utility token before the current one, judged once the next shows whether a
        // small-screen word follows it.
        let mut pending: Option<&str> = None;
        for (at, t) in alnum_tokens_at(name) {
            self.facts.price |= t == "price";
            if at < utility_at {
                continue;
            }
            if let Some(p) = pending.take() {
                let seen = matches!(
                    t,
                    "mobile" | "phone" | "xs" | "sm" | "small" | "tablet" | "from"
                );
                if !(p == "hide" && seen) {
                    self.judge_token(p);
                }
            }
            pending = Some(t);
        }
        if let Some(p) = pending {
            self.judge_token(p);
        }
        self.neg_token |= NEG_WORDS.contains(&name) || hides_in_some_state(name);
        self.d_none |= name == "d-none";
        self.d_shown |= name.starts_with("d-")
            && DISPLAY_BREAKPOINTS
                .iter()
                .any(|p| name.strip_prefix(p).is_some_and(|v| v != "none"));
        self.fixed |= name == "fixed";
        self.inset_0 |= name == "inset-0";
        self.hide_word |= name == "hide" || name == "hidden";
    }

    /// One token of a utility part against the token lists.
    fn judge_token(&mut self, t: &str) {
        // Packed as a word: the lists' tokens are a few ASCII letters, compared as integers
        // rather than string by string.
        if let Some(p) = pack_token(t) {
            self.neg_token_always |= NEG_TOKENS_ALWAYS_PACKED.contains(&p);
            self.neg_token |= NEG_TOKENS_PACKED.contains(&p);
        }
        // "review", "reviews", "customerreviews", "review-card" (not "preview").
        self.review |= t
            .strip_suffix('s')
            .unwrap_or(t)
            .strip_suffix("review")
            .is_some_and(|rest| !rest.ends_with('p'));
    }
}

/// A class name the signature leaves out: a post's own taxonomy terms after its kind
/// (WordPress `post_class`: "post-12 post ... category-recipes tag-vegan") differ from post
/// to post of one listing.
fn skips_signature(tok: &str, k: usize) -> bool {
    k > 0 && (tok.starts_with("category-") || tok.starts_with("tag-"))
}

/// The signature `h` so far fed with class name number `k`: FNV-1a over the class names
/// with digits dropped (item-1, item-2 are one kind of item), each followed by a space (the
/// scan in [`ClassWords::of`] computes it as it splits; the tests compare).
#[cfg(test)]
fn sign_name(mut h: u64, tok: &str, k: usize) -> u64 {
    if skips_signature(tok, k) {
        return h;
    }
    for b in tok.bytes() {
        if !b.is_ascii_digit() {
            h ^= b as u64;
            h = h.wrapping_mul(SIG_PRIME);
        }
    }
    h ^= b' ' as u64;
    h.wrapping_mul(SIG_PRIME)
}

/// The bytes of a token of at most 8 bytes as one little-endian word, zero-padded (tokens
/// are ASCII letters and digits, never a zero byte, so the word names the token).
const fn pack(t: &[u8]) -> Option<u64> {
    if t.len() > 8 {
        return None;
    }
    let mut word = 0u64;
    let mut i = 0;
    while i < t.len() {
        word |= (t[i] as u64) << (8 * i);
        i += 1;
    }
    Some(word)
}

fn pack_token(t: &str) -> Option<u64> {
    pack(t.as_bytes())
}

/// A token list packed by [`pack`] (a word too long to pack would be a 0 that no token packs
/// to; a test checks every word fits).
const fn pack_list<const N: usize>(list: &[&str]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = match pack(list[i].as_bytes()) {
            Some(p) => p,
            None => 0,
        };
        i += 1;
    }
    out
}

const NEG_TOKENS_ALWAYS_PACKED: [u64; NEG_TOKENS_ALWAYS.len()] = pack_list(NEG_TOKENS_ALWAYS);
const NEG_TOKENS_PACKED: [u64; NEG_TOKENS.len()] = pack_list(NEG_TOKENS);

/// The class-word memo: class strings and ids are page data, hashed on every element that
/// has one, in a keyed foldhash map (see `hashing`), reseeded each time the memo is cleared;
/// the memo never holds more than [`MEMO_ENTRIES`] keys, which bounds a lookup even if a
/// page did collide.
type Memo = FastMap<String, ClassWords>;

/// Entries past which the memo is cleared (they depend on the string alone, so clearing
/// changes nothing but speed). A page has a few hundred distinct class strings and ids.
const MEMO_ENTRIES: usize = 4096;

fn new_memo() -> Memo {
    // Room for a page's strings from the start, rather than growing through every size.
    fast_map(512)
}

thread_local! {
    /// [`ClassWords`] by class string or id (the words of a string do not depend on which
    /// it is).
    static CLASS_WORDS: std::cell::RefCell<Memo> = std::cell::RefCell::new(new_memo());
}

fn class_flags_memo(class: &str, id: &str, name: &str) -> (Flags, ClassFacts) {
    CLASS_WORDS.with(|memo| {
        let memo = &mut *memo.borrow_mut();
        let plain_tag = !matches!(name, "body" | "html" | "main");
        // Most elements have no id: one lookup answers them.
        if id.is_empty() && plain_tag {
            if let Some(c) = memo.get(class) {
                return (c.plain, c.facts);
            }
        }
        let c = words_of(memo, class);
        let flags = if id.is_empty() {
            if plain_tag {
                c.plain
            } else {
                joined_flags(&c, &ClassWords::default(), name)
            }
        } else {
            joined_flags(&c, &words_of(memo, &id_key(id)), name)
        };
        (flags, c.facts)
    })
}

/// The memo's key for an id: its digits 1 to 9 read as '1'. Ids number what they name
/// ("comment-4711", "post-815"), so nearly every id missed the memo; no word, token or name
/// the judgement looks for holds one of those digits (a test checks), so an id and its key
/// are judged alike, and one judgement serves every number of a width. '0' is kept:
/// "inset-0" is a name.
fn id_key(id: &str) -> Cow<'_, str> {
    let numbered = |b: u8| b.is_ascii_digit() && b != b'0';
    if !id.bytes().any(numbered) {
        return Cow::Borrowed(id);
    }
    let key: Vec<u8> = id
        .bytes()
        .map(|b| if numbered(b) { b'1' } else { b })
        .collect();
    // ASCII digits replaced by an ASCII digit: still UTF-8.
    String::from_utf8(key).map_or(Cow::Borrowed(id), Cow::Owned)
}

/// The words of `s`, from the memo or judged and put there.
fn words_of(memo: &mut Memo, s: &str) -> ClassWords {
    if let Some(w) = memo.get(s) {
        return *w;
    }
    let mut words = ClassWords::of(s);
    words.plain = joined_flags(&words, &ClassWords::default(), "div");
    if memo.len() >= MEMO_ENTRIES {
        *memo = new_memo();
    }
    memo.insert(s.to_owned(), words);
    words
}

#[cfg(test)]
fn class_flags(class: &str, id: &str, name: &str) -> Flags {
    joined_flags(&ClassWords::of(class), &ClassWords::of(id), name)
}

/// The flags of an element named `name` with class words `c` and id words `i`.
fn joined_flags(c: &ClassWords, i: &ClassWords, name: &str) -> Flags {
    let found = WordCounts::of_joined(&c.found, &i.found);
    let mut f = Flags::EMPTY;
    let mut neg = 0i32;
    let mut always = false;
    // An embedded post ("social-media-embed", "embed-social") quotes what the article is
    // about; "social" names share bars and follow links otherwise.
    let embed = found.embed > 0;
    let social_excused =
        u32::from(embed && NEG_ALWAYS.contains(&"social") && (c.social || i.social));
    // "Promoted" is a publishing state (Drupal's `node--promoted`: promoted to the front
    // page), set on the article or service node itself; "promo" names promotion boxes.
    let promoted = c.promoted + i.promoted;
    let promo_excused =
        u32::from(NEG_ALWAYS.contains(&"promo") && promoted > 0 && c.promo + i.promo == promoted);
    if found.furniture > social_excused + promo_excused || c.neg_token_always || i.neg_token_always
    {
        neg += 2;
        always = true;
    }
    let display_none = (c.d_none || i.d_none) && !(c.d_shown || i.d_shown);
    if found.navlike > 0 || c.neg_token || i.neg_token {
        neg += 2;
    }
    // Utility classes that take a box out of the page outright, like the "always"
    // vocabulary (not a menu that opens): `d-none` hides it; "fixed inset-0" pins it over
    // the whole viewport (Tailwind's modal, drawer and takeover idiom: a sign-up takeover, a
    // cart drawer, a form's success and error states open over the page, they are not it).
    let overlay = (c.fixed || i.fixed) && (c.inset_0 || i.inset_0);
    if display_none || overlay {
        neg += 2;
        always = true;
    }
    let pos = found.positive as i32;
    let comments = found.comment > 0;
    if comments && name != "body" {
        f |= F_COMMENTS;
    }
    if found.collapsible > 0 {
        f |= F_COLLAPSIBLE;
    }
    if found.sidebar > 0 {
        f |= F_SIDEBAR;
    }
    if found.poster > 0 {
        f |= F_POSTER;
    }
    if found.username > 0 {
        f |= F_USERNAME;
    }
    if found.disclaimer > 0 && name != "body" && name != "html" && name != "main" {
        f |= F_DISCLAIMER;
    }
    if name != "body" && name != "html" && name != "main" && (c.hide_word || i.hide_word) {
        f |= F_HIDE_CLASS;
    }
    if found.consent > 0 && name != "body" && name != "html" {
        f |= F_STRONG | F_CHROME_CLASS;
    }
    // Photo captions and credits: the annotated main content of an article leaves them out
    // (WCXB dev set, elements classed "caption": out of the ground truth on 39 article pages,
    // in on 3), but on shop and listing pages a "caption" is often an item's own text.
    if found.caption > 0 && name != "body" && name != "html" && name != "main" {
        f |= F_CAPTION;
    }
    if c.review || i.review {
        f |= F_REVIEW;
    }
    if neg > 0 && neg > pos && name != "body" && name != "html" && name != "main" {
        f |= F_CHROME_CLASS;
        if !always {
            f |= F_NAVLIKE;
        }
        // No furniture word in the names, only short tokens ("meta", "hide", "ad", "hidden"):
        // see `F_TOKEN_NEG`.
        // Not `d-none`: it says "not displayed" outright, on every tile it is on.
        if found.navlike == 0 && found.furniture == 0 && !display_none {
            f |= F_TOKEN_NEG;
        }
    }
    if pos > 0 && neg == 0 {
        f |= F_POSITIVE;
    }
    if found.main_hint > 0 {
        f |= F_MAIN_HINT;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn alnum_tokens(s: &str) -> impl Iterator<Item = &str> {
        alnum_tokens_at(s).map(|(_, t)| t)
    }

    /// The class facts by the separate passes [`ClassWords::of`]'s one scan replaced.
    fn facts_by_passes(raw: &str) -> (bool, bool, u64) {
        let mut h = SIG_BASIS;
        for (k, tok) in raw.split_ascii_whitespace().enumerate() {
            h = sign_name(h, tok, k);
        }
        let price = alnum_tokens(raw).any(|t| t.eq_ignore_ascii_case("price"));
        (price, raw.trim().is_empty(), h)
    }

    /// The token judgements by the separate passes [`ClassWords::of`]'s one scan replaced.
    fn tokens_by_passes(raw: &str) -> [bool; 8] {
        let s = raw.to_ascii_lowercase();
        let mut w = [false; 8];
        for name in s.split_ascii_whitespace() {
            let utility = after_last_colon(name);
            let mut parts = alnum_tokens(utility).peekable();
            while let Some(t) = parts.next() {
                let seen = parts.peek().is_some_and(|n| {
                    matches!(
                        *n,
                        "mobile" | "phone" | "xs" | "sm" | "small" | "tablet" | "from"
                    )
                });
                if t == "hide" && seen {
                    continue;
                }
                w[0] |= NEG_TOKENS_ALWAYS.contains(&t);
                w[1] |= NEG_TOKENS.contains(&t);
                w[2] |= t
                    .strip_suffix('s')
                    .unwrap_or(t)
                    .strip_suffix("review")
                    .is_some_and(|rest| !rest.ends_with('p'));
            }
            w[1] |= NEG_WORDS.contains(&name) || hides_in_some_state(name);
            w[3] |= name == "d-none";
            w[4] |= name.starts_with("d-")
                && DISPLAY_BREAKPOINTS
                    .iter()
                    .any(|p| name.strip_prefix(p).is_some_and(|v| v != "none"));
            w[5] |= name == "fixed";
            w[6] |= name == "inset-0";
            w[7] |= name == "hide" || name == "hidden";
        }
        w
    }

    fn one_scan(raw: &str) -> ((bool, bool, u64), [bool; 8]) {
        let c = ClassWords::of(raw);
        let f = c.facts;
        (
            (f.price, f.blank, f.sig),
            [
                c.neg_token_always,
                c.neg_token,
                c.review,
                c.d_none,
                c.d_shown,
                c.fixed,
                c.inset_0,
                c.hide_word,
            ],
        )
    }

    #[test]
    fn hiding_from_a_generated_list_is_not_hiding() {
        // A docs landing page's card title: out of the "on this page" list, not out of view.
        assert!(!ClassWords::of("hide-from-toc no-link").neg_token);
        assert!(ClassWords::of("hide-on-print").neg_token);
        assert!(ClassWords::of("hide-title").neg_token);
    }

    #[test]
    fn every_token_word_packs() {
        for t in NEG_TOKENS_ALWAYS.iter().chain(NEG_TOKENS) {
            assert!(pack_token(t).is_some_and(|p| p != 0), "{t}");
        }
    }

    #[test]
    fn one_scan_reads_what_the_passes_read() {
        for raw in [
            "",
            " \u{a0} ",
            "Price-tag PRICE x",
            "post-12 post category-recipes tag-vegan",
            "hide-mobile hide sm:hide print:break-inside-avoid md:hidden marker:hidden",
            "d-none d-md-block fixed inset-0 customer-Reviews preview ads AD",
            "caf\u{e9}-price\u{2014}x nav",
            "group-[.pdf]:hidden hide hidden-xs hide\tsmall",
            "hide-from-toc no-link hide-from",
        ] {
            assert_eq!(
                one_scan(raw),
                (facts_by_passes(raw), tokens_by_passes(raw)),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn no_judged_word_holds_a_digit_but_zero() {
        // `id_key` relies on it.
        use super::super::words::*;
        let lists: [&[&str]; 14] = [
            NEG_ALWAYS,
            NEG_NAVLIKE,
            POS,
            COMMENT_WORDS,
            COLLAPSIBLE,
            STRONG,
            POSTER_WORDS,
            USERNAME_WORDS,
            MAIN_HINT_WORDS,
            NEG_TOKENS_ALWAYS,
            NEG_TOKENS,
            NEG_WORDS,
            DISPLAY_BREAKPOINTS,
            PSEUDO_VARIANTS,
        ];
        for w in lists.iter().flat_map(|l| l.iter()) {
            assert!(!w.bytes().any(|b| (b'1'..=b'9').contains(&b)), "{w}");
        }
    }

    /// Everything [`ClassWords`] holds but `plain` (set in the memo).
    type Judged = (WordSet, usize, usize, bool, ((bool, bool, u64), [bool; 8]));

    fn judged(raw: &str) -> Judged {
        let c = ClassWords::of(raw);
        (c.found, c.promo, c.promoted, c.social, one_scan(raw))
    }

    proptest! {
        #[test]
        fn an_id_and_its_key_are_judged_alike(parts in prop::collection::vec(
            prop::sample::select(&[
                "comment", "-", "4711", "9", "0", "inset-", "hide", "sm", "ad", "promo", "ted",
                "social", "d-md-", "none", " ", ":", "s", "review", "side", "bar", "Nav", "_",
            ][..]),
            0..12,
        )) {
            let raw = parts.concat();
            prop_assert_eq!(judged(&raw), judged(&id_key(&raw)));
        }

        #[test]
        fn one_scan_matches_the_passes(parts in prop::collection::vec(
            prop::sample::select(&[
                "hide", "-", " ", ":", "sm", "mobile", "price", "PRICE", "ad", "Ads", "nav",
                "d-", "none", "md-", "block", "fixed", "inset-0", "review", "s", "p", "7", "\t",
                "hidden", "tag-", "category-", "\u{e9}", "print", "marker", "\u{a0}",
            ][..]),
            0..14,
        )) {
            let raw = parts.concat();
            prop_assert_eq!(one_scan(&raw), (facts_by_passes(&raw), tokens_by_passes(&raw)));
        }
    }

    #[test]
    fn class_vocabulary() {
        // Whole-word "hidden" and utility variants hide; compound names do not.
        assert!(class_flags("hidden", "", "div").has_any(F_CHROME_CLASS));
        assert!(class_flags("lg:hidden", "", "div").has_any(F_CHROME_CLASS));
        // Bootstrap's display utility: hidden unless a breakpoint shows it again.
        assert!(class_flags("d-none", "", "dl").has_any(F_CHROME_CLASS));
        assert!(class_flags("d-none", "", "dl").has_none(F_NAVLIKE | F_TOKEN_NEG));
        assert!(class_flags("d-none d-md-block", "", "div").has_none(F_CHROME_CLASS));
        assert!(class_flags("overflow-hidden", "", "div").has_none(F_CHROME_CLASS));
        assert!(class_flags("search-results", "", "div").has_none(F_CHROME_CLASS));
        assert!(class_flags("card-header", "", "div").has_none(F_CHROME_CLASS));
        assert!(class_flags("post tag-budget", "", "article").has_none(F_CHROME_CLASS));
        // Reviews, not previews.
        assert!(class_flags("customer-reviews", "", "div").has_any(F_REVIEW));
        assert!(class_flags("review-card", "", "div").has_any(F_REVIEW));
        assert!(class_flags("link-preview", "", "div").has_none(F_REVIEW));
        // Consent machinery is strong chrome; accordions are collapsible.
        assert!(class_flags("cookie-consent", "", "div").has_any(F_STRONG));
        assert!(class_flags("faq-answer", "", "div").has_any(F_COLLAPSIBLE));
    }

    #[test]
    fn alnum_tokens_are_the_split_pieces() {
        for s in [
            "",
            "a",
            "--x_y9--",
            "caf\u{e9}-price\u{2014}Price",
            "\u{e9}\u{e9}",
            "a b:c-d",
        ] {
            let split: Vec<&str> = s
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|t| !t.is_empty())
                .collect();
            assert_eq!(alnum_tokens(s).collect::<Vec<_>>(), split, "{s:?}");
        }
    }

    #[test]
    fn class_words_join_with_an_id() {
        // Judged apart and joined, class and id give the flags their joined string gives.
        assert_eq!(
            class_flags("node--promoted", "promo-box", "div"),
            class_flags("node--promoted promo-box", "", "div")
        );
        assert!(class_flags("d-none", "x", "div").has_any(F_CHROME_CLASS));
        assert!(class_flags("d-none", "d-md-block", "div").has_none(F_CHROME_CLASS));
        assert!(class_flags("fixed", "inset-0", "div").has_any(F_CHROME_CLASS));
        assert!(class_flags("post", "comments", "body").has_none(F_COMMENTS));
        // The no-id answer stands for every tag but body, html and main.
        for class in ["sidebar", "hidden", "post-body", "site-nav menu", "caption"] {
            let plain = class_flags(class, "", "div");
            assert_eq!(class_flags_memo(class, "", "li").0, plain);
            assert_eq!(plain, class_flags(class, "", "li"));
            assert_eq!(plain, class_flags(class, "", "section"));
        }
    }
}
