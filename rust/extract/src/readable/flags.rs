//! The per-element flag bits of the outline table, in bit order.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of the `F_*` flags below: combine with `|`, test with [`Flags::has_any`] and
/// [`Flags::has_none`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Flags(u64);

impl Flags {
    /// No flag set.
    pub(super) const EMPTY: Flags = Flags(0);

    /// Whether at least one flag of `other` is set.
    pub(super) const fn has_any(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no flag of `other` is set.
    pub(super) const fn has_none(self, other: Flags) -> bool {
        self.0 & other.0 == 0
    }

    /// Whether no flag at all is set.
    pub(super) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The bits, in the order of the `F_*` constants below (bit k is `FLAG_NAMES[k]` of
    /// `features`): what the block features hand to a learner.
    pub(super) const fn bits(self) -> u64 {
        self.0
    }
}

impl BitOr for Flags {
    type Output = Flags;
    fn bitor(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
}

impl BitAnd for Flags {
    type Output = Flags;
    fn bitand(self, other: Flags) -> Flags {
        Flags(self.0 & other.0)
    }
}

impl Not for Flags {
    type Output = Flags;
    fn not(self) -> Flags {
        Flags(!self.0)
    }
}

impl BitOrAssign for Flags {
    fn bitor_assign(&mut self, other: Flags) {
        self.0 |= other.0
    }
}

impl BitAndAssign for Flags {
    fn bitand_assign(&mut self, other: Flags) {
        self.0 &= other.0
    }
}

/// Never rendered as text: scripts, styles, form controls, embedded media.
pub(super) const F_INVISIBLE: Flags = Flags(1 << 0);
/// Chrome by tag or role (nav, footer, aside, banner, ...).
pub(super) const F_CHROME_TAG: Flags = Flags(1 << 1);
/// Chrome by class/id tokens.
pub(super) const F_CHROME_CLASS: Flags = Flags(1 << 2);
/// Hidden by attribute or inline style.
pub(super) const F_HIDDEN: Flags = Flags(1 << 3);
/// Comment-thread container by class/id (kept on forums, dropped under articles).
pub(super) const F_COMMENTS: Flags = Flags(1 << 4);
/// `<a>` element.
pub(super) const F_LINK: Flags = Flags(1 << 5);
/// Heading (`h1`–`h6`).
pub(super) const F_HEADING: Flags = Flags(1 << 6);
/// A block that holds running text (p, pre, blockquote, li, td, dd, ...).
pub(super) const F_PARA: Flags = Flags(1 << 7);
/// Semantic main-content hint (main, role=main, article, itemprop=articleBody, ...).
pub(super) const F_MAIN_HINT: Flags = Flags(1 << 8);
/// Positive content class (content, article, post, entry, answer, ...).
pub(super) const F_POSITIVE: Flags = Flags(1 << 9);
/// Code (`pre`, `code`): documentation keeps it whatever its link density.
pub(super) const F_CODE: Flags = Flags(1 << 10);
/// `<article>` element.
pub(super) const F_ARTICLE: Flags = Flags(1 << 11);
/// Block-level container that can be pruned as a unit.
pub(super) const F_BLOCK: Flags = Flags(1 << 12);
/// `<header>` element (chrome only outside main/article).
pub(super) const F_HEADER: Flags = Flags(1 << 13);
/// `<body>`.
pub(super) const F_BODY: Flags = Flags(1 << 14);
/// Form controls/buttons: their labels are interface text, not content.
pub(super) const F_CONTROL: Flags = Flags(1 << 15);
// Lists and tables: structure whose short lines are content.
pub(super) const F_STRUCT: Flags = Flags(1 << 16);
/// Dropped by the emitters whatever the scope says (`element_facts::is_dropped`): a root must never
/// be one of these, or the whole selection vanishes.
pub(super) const F_DROPPED: Flags = Flags(1 << 17);
/// Has a class attribute (its signature names a kind of block, not just a tag).
pub(super) const F_CLASSED: Flags = Flags(1 << 18);
/// Chrome by a navigation-like class only (see `NEG_NAVLIKE`).
pub(super) const F_NAVLIKE: Flags = Flags(1 << 19);
/// `<form>`: chrome when small (sign-in, newsletter), not when it wraps posts.
pub(super) const F_FORM: Flags = Flags(1 << 20);
/// Customer reviews by class/id or `itemprop=review`.
pub(super) const F_REVIEW: Flags = Flags(1 << 21);
/// A review block on a product page: not the product's content (see `Table::drop_reviews`).
pub(super) const F_REVIEW_DROP: Flags = Flags(1 << 22);
/// Chrome that is never the page's subject however much prose it holds: cookie/consent
/// notices and dialogs (consent managers ship pages of legal text), and a declared
/// article's lists of stories that hold the story itself (`story_lists`).
pub(super) const F_STRONG: Flags = Flags(1 << 23);
/// Accordion / FAQ / tab-panel machinery by class, id or role (see `F_COLLAPSED`).
pub(super) const F_COLLAPSIBLE: Flags = Flags(1 << 24);
/// A hidden panel of an accordion, FAQ or tab set: content a reader expands, which the
/// emitters (dropping every hidden element) only show when handed its children as roots
/// (see `Table::emit_roots`).
pub(super) const F_COLLAPSED: Flags = Flags(1 << 25);
/// Class/id names a caption ("wp-caption-text", "image-caption", slider captions): chrome on
/// pages that declare themselves articles (see `select`).
pub(super) const F_CAPTION: Flags = Flags(1 << 26);
/// A link to another page of the same site.
pub(super) const F_INTERNAL: Flags = Flags(1 << 27);
/// Chrome by its ARIA role (navigation, search, dialog, ...), whatever its tag.
pub(super) const F_ROLE_CHROME: Flags = Flags(1 << 28);
/// A `textarea`, or an element holding one: a box to write a message in.
pub(super) const F_WRITE: Flags = Flags(1 << 29);
/// Table cell, or term / description of a description list: kept or dropped with its row,
/// table or list, never on its own (a cell of linked names is a table's data, a linked term
/// an entry's title, and a table missing cells is garbled).
pub(super) const F_CELL: Flags = Flags(1 << 30);
/// Class/id names a sidebar outright: stays chrome on product pages however much text it
/// holds (see `Table::decide_chrome`).
pub(super) const F_SIDEBAR: Flags = Flags(1 << 31);
/// Chrome by class through short tokens only ("meta", "hide", "ad", "hidden", "search"), not
/// through a furniture word ("menu", "sidebar", "footer"): such tokens often name a detail
/// or a state of a content item ("hide-compare", "meta" on each search result), see
/// `Table::repeated_items_not_chrome`.
pub(super) const F_TOKEN_NEG: Flags = Flags(1 << 32);
/// A whole class name "hide" / "hidden": the element is hidden by the site's stylesheet
/// (a state class, not a kind of box), see `Table::decide_chrome`.
pub(super) const F_HIDE_CLASS: Flags = Flags(1 << 33);
/// Class/id names a disclaimer: chrome on declared articles and products (see `select`).
pub(super) const F_DISCLAIMER: Flags = Flags(1 << 34);
/// Class names a price ("price", "product-price", "price__sale"): marks the product tiles of
/// a shop's shelves (see `Table::drop_price_shelves`).
pub(super) const F_PRICE: Flags = Flags(1 << 35);
/// Class/id names a poster-detail panel beside a forum post (`POSTER_WORDS`): the avatar,
/// rank, join date and post count are furniture, but the poster's name is part of the post
/// (see `Table::keep_poster_names`).
pub(super) const F_POSTER: Flags = Flags(1 << 36);
/// Class names the poster's name ("username", "message-name").
pub(super) const F_USERNAME: Flags = Flags(1 << 37);
/// `<ul>` / `<ol>`.
pub(super) const F_LIST: Flags = Flags(1 << 38);
/// A link to a place in the same page (`href="#..."`): tables of contents.
pub(super) const F_FRAGMENT: Flags = Flags(1 << 39);
/// ARIA live region (`role="alert"` / `role="status"`): chrome when it holds at most
/// `LIVE_TEXT` characters (an interface message: "Please try again", "Added to your cart")
/// and does not open with an admonition label (documentation themes put `role="alert"` on
/// their "Note:" and "Warning:" boxes, which are the text's own), see `select`.
pub(super) const F_LIVE: Flags = Flags(1 << 40);
/// A list right after a paragraph that ends in a colon ("For more information, see:"): the
/// paragraph introduces it, so it is that paragraph's text, not a menu (see `Table::prune`).
pub(super) const F_INTRODUCED: Flags = Flags(1 << 41);
