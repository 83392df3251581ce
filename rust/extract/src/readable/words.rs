//! The class/id vocabularies the classifier matches (substrings of the lower-cased
//! `class id` string, unless a list says whole tokens), and one scan that counts them all.

use std::sync::OnceLock;

use super::vocab::{Vocab, WordSet};

/// Poster-detail panels beside forum posts (a subset of `NEG_ALWAYS`).
pub(super) const POSTER_WORDS: &[&str] = &[
    "userinfo",
    "user-info",
    "user_info",
    "userextras",
    "user-extras",
    "user-details",
    "userdetails",
    "postprofile",
    "post-profile",
    "member-info",
    "memberinfo",
    "poster-info",
];

/// Negative vocabulary: substrings of lower-cased class/id that mark page furniture.
pub(super) const NEG_ALWAYS: &[&str] = &[
    // Poster details beside forum posts (join date, post counts, badges).
    "userinfo",
    "user-info",
    "user_info",
    "userextras",
    "user-extras",
    "user-details",
    "userdetails",
    "usertitle",
    "user-title",
    "userbanner",
    "user-banner",
    "user-stats",
    "userstats",
    "postprofile",
    "post-profile",
    "author-info",
    "authorinfo",
    "member-info",
    "memberinfo",
    "poster-info",
    "signature",
    // Page furniture.
    "sidebar",
    "side-bar",
    "cookie",
    "consent",
    "gdpr",
    "newsletter",
    "subscribe",
    "signup",
    "sign-up",
    "footer",
    "skip-link",
    "skiplink",
    "skip-to",
    // Not "sr-only" / "visually-hidden" / "screen-reader": that text is what assistive
    // technology reads out ("4.5 out of 5 stars", "Price:"), and it describes the content
    // it sits in (measured on the WCXB dev set: keeping it raised collection and product F1).
    "advert",
    "sponsor",
    "popup",
    "modal",
    "share",
    "sharing",
    "social",
    "related",
    "recommend",
    "you-may",
    "also-like",
    "more-stories",
    "read-more-links",
    "promo",
    "toc-sidebar",
    "author-bio",
    "about-author",
    "disqus",
    "trending",
    // Webflow's form state messages ("Thank you! Your submission has been received!",
    // "Oops! Something went wrong ..."): its stylesheet keeps them hidden until the form is
    // submitted. Never part of the page's content (measured on WCXB dev: 0 of 78 in ground truth).
    "w-form-done",
    "w-form-fail",
];

/// Navigation-like furniture: trusted only when the element also looks like navigation
/// (link-dense or without prose); an accordion "dropdown" full of sentences is content.
pub(super) const NEG_NAVLIKE: &[&str] = &[
    "breadcrumb",
    "navbar",
    "navigation",
    "nav-",
    "-nav",
    "_nav",
    "nav_",
    "menu",
    "masthead",
    "pagination",
    "pager",
    "toolbar",
    "site-header",
    "page-header-nav",
    "global-header",
    "top-bar",
    "topbar",
    "offcanvas",
    "off-canvas",
    "drawer",
    "filter",
    "facet",
    "version-select",
    "version-switch",
    "login",
];

/// Exact class/id tokens that mark furniture (too short to match as substrings).
pub(super) const NEG_TOKENS_ALWAYS: &[&str] = &["ad", "ads", "adv", "print", "noprint"];
/// ... navigation-like ones.
///
/// Not "tag" (WordPress marks posts `tag-<name>`, code docs name HTML tags), and
/// "hidden"/"search" only as whole class names (see `NEG_WORDS`): as parts of compound names ("overflow-hidden",
/// "field--label-hidden", "search-results") they mark content at least as often as chrome.
pub(super) const NEG_TOKENS: &[&str] = &[
    "nav", "ad", "ads", "adv", "aside", "hide", "print", "noprint", "tags", "byline", "meta",
    "subnav", "crumbs", "foot", "dropdown",
];
/// ... navigation-like whole class names / ids. Utility-CSS variants of "hidden"
/// ("md:hidden", "group-[.pdf]:hidden") hide the element in some state, usually the desktop
/// view or print, and count too.
pub(super) const NEG_WORDS: &[&str] = &["hidden", "search"];

/// Accordions, FAQs and tab panels (see `F_COLLAPSED`).
pub(super) const COLLAPSIBLE: &[&str] = &[
    "accordion",
    "collapsible",
    "faq",
    "answer",
    "tab-pane",
    "tab-panel",
    "tabpanel",
    "tab-content",
];

/// Consent machinery (see `F_STRONG`).
pub(super) const STRONG: &[&str] = &["cookie", "consent", "gdpr"];

pub(super) const COMMENT_WORDS: &[&str] = &["comment", "respond", "reply-form", "discussion"];

pub(super) const POS: &[&str] = &[
    "content",
    "article",
    "main",
    "post",
    "entry",
    "story",
    "body",
    "text",
    "blog",
    "description",
    "answer",
    "question",
    "thread",
    "message",
    "prose",
    "markdown",
    "documentation",
    "docs",
    "product",
];

/// Forum user-name fields (see `F_USERNAME`).
pub(super) const USERNAME_WORDS: &[&str] = &["username", "user-name", "user_name", "message-name"];

/// Class names of an article's body container (see `F_MAIN_HINT`).
pub(super) const MAIN_HINT_WORDS: &[&str] = &[
    "articlebody",
    "article-body",
    "article__body",
    "post-body",
    "entry-content",
];

/// How many distinct words of each substring vocabulary a lower-cased `class id` string holds.
pub(super) struct WordCounts {
    /// [`NEG_NAVLIKE`]: navigation-like furniture.
    pub navlike: u32,
    /// [`COMMENT_WORDS`]: comment threads.
    pub comment: u32,
    /// [`COLLAPSIBLE`]: accordions, FAQs, tab panels.
    pub collapsible: u32,
    /// [`STRONG`]: cookie and consent machinery.
    pub consent: u32,
    /// [`POS`]: content containers.
    pub positive: u32,
    /// [`NEG_ALWAYS`]: furniture whatever it holds.
    pub furniture: u32,
    /// [`POSTER_WORDS`]: a forum poster's panel.
    pub poster: u32,
    /// [`USERNAME_WORDS`]: a forum user-name field.
    pub username: u32,
    /// [`MAIN_HINT_WORDS`]: an article body container.
    pub main_hint: u32,
    /// Single words the classifier asks about: "sidebar", "disclaimer", "caption", "embed".
    pub sidebar: u32,
    pub disclaimer: u32,
    pub caption: u32,
    pub embed: u32,
}

impl WordCounts {
    /// One scan of `s` for every vocabulary (see `super::vocab`).
    #[cfg(test)]
    pub(super) fn of(s: &str) -> Self {
        Self::from_counts(&vocabularies().counts(s))
    }

    /// The vocabulary words `s` holds, to be joined with another string's in
    /// [`WordCounts::of_joined`].
    pub(super) fn found(s: &str) -> WordSet {
        vocabularies().found(s)
    }

    /// The counts of `a + " " + b` from the words each holds (no vocabulary word holds a
    /// space, so none spans the join).
    pub(super) fn of_joined(a: &WordSet, b: &WordSet) -> Self {
        Self::from_counts(&vocabularies().counts_of(&[a, b]))
    }

    /// Whether `found` (from [`WordCounts::found`]) holds "social" or "promo".
    pub(super) fn holds_social(found: &WordSet) -> bool {
        vocabularies().holds(found, SOCIAL_LIST)
    }
    pub(super) fn holds_promo(found: &WordSet) -> bool {
        vocabularies().holds(found, PROMO_LIST)
    }

    fn from_counts(counts: &[u32]) -> Self {
        WordCounts {
            navlike: counts[0],
            comment: counts[1],
            collapsible: counts[2],
            consent: counts[3],
            positive: counts[4],
            furniture: counts[5],
            poster: counts[6],
            username: counts[7],
            main_hint: counts[8],
            sidebar: counts[9],
            disclaimer: counts[10],
            caption: counts[11],
            embed: counts[12],
        }
    }
}

/// Positions of the single-word lists asked by [`WordCounts::holds_social`] and
/// [`WordCounts::holds_promo`] in [`vocabularies`].
const SOCIAL_LIST: usize = 13;
const PROMO_LIST: usize = 14;

/// The substring vocabularies, compiled once, in the order [`WordCounts::of`] reads them.
fn vocabularies() -> &'static Vocab {
    static VOCAB: OnceLock<Vocab> = OnceLock::new();
    VOCAB.get_or_init(|| {
        Vocab::new(&[
            NEG_NAVLIKE,
            COMMENT_WORDS,
            COLLAPSIBLE,
            STRONG,
            POS,
            NEG_ALWAYS,
            // Asked as "contains any" (a count above zero), in the same scan.
            POSTER_WORDS,
            USERNAME_WORDS,
            MAIN_HINT_WORDS,
            &["sidebar"],
            &["disclaimer"],
            &["caption"],
            &["embed"],
            // Asked alone, by `WordCounts::holds_social` and `WordCounts::holds_promo`.
            &["social"],
            &["promo"],
        ])
    })
}

#[cfg(test)]
mod tests {
    use super::super::vocab::MAX_WORDS;
    use super::*;

    #[test]
    fn vocabularies_have_no_duplicate_words() {
        // `WordCounts::of` counts distinct words; POS's count is compared with the negatives.
        for list in WORD_LISTS {
            let mut words = list.to_vec();
            words.sort_unstable();
            let n = words.len();
            words.dedup();
            assert_eq!(words.len(), n, "duplicate word in {list:?}");
        }
    }

    /// Every word list the vocabulary is built from.
    const WORD_LISTS: [&[&str]; 9] = [
        NEG_ALWAYS,
        NEG_NAVLIKE,
        POS,
        COMMENT_WORDS,
        COLLAPSIBLE,
        STRONG,
        POSTER_WORDS,
        USERNAME_WORDS,
        MAIN_HINT_WORDS,
    ];

    #[test]
    fn every_word_fits_the_word_sets() {
        // `Vocab::new` leaves words past `MAX_WORDS` out: room to spare for all of them.
        let extra: &[&str] = &[
            "sidebar",
            "disclaimer",
            "caption",
            "embed",
            "social",
            "promo",
        ];
        let listed: std::collections::HashSet<&str> = WORD_LISTS
            .iter()
            .chain([&extra])
            .flat_map(|l| l.iter().copied())
            .collect();
        assert!(listed.len() < MAX_WORDS);
        assert_eq!(vocabularies().words(), listed.len());
    }

    #[test]
    fn no_word_holds_whitespace() {
        // `WordCounts::of_joined` relies on it: no word spans the space joining class and id.
        for list in WORD_LISTS {
            assert!(list.iter().all(|w| !w.contains(char::is_whitespace)));
        }
    }

    #[test]
    fn joined_counts_match_one_scan() {
        let (a, b) = ("post-body main-nav social", "content-sidebar promo");
        let joined = WordCounts::of_joined(&WordCounts::found(a), &WordCounts::found(b));
        let whole = WordCounts::of(&format!("{a} {b}"));
        assert_eq!(joined.positive, whole.positive);
        assert_eq!(joined.navlike, whole.navlike);
        assert_eq!(joined.furniture, whole.furniture);
        assert_eq!(joined.main_hint, whole.main_hint);
        assert_eq!(joined.sidebar, whole.sidebar);
    }
}
