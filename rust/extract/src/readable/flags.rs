//! The per-element flag bits of the outline table, in bit order.

/// Never rendered as text: scripts, styles, form controls, embedded media.
pub(super) const F_INVISIBLE: u64 = 1 << 0;
/// Chrome by tag or role (nav, footer, aside, banner, ...).
pub(super) const F_CHROME_TAG: u64 = 1 << 1;
/// Chrome by class/id tokens.
pub(super) const F_CHROME_CLASS: u64 = 1 << 2;
/// Hidden by attribute or inline style.
pub(super) const F_HIDDEN: u64 = 1 << 3;
/// Comment-thread container by class/id (kept on forums, dropped under articles).
pub(super) const F_COMMENTS: u64 = 1 << 4;
/// `<a>` element.
pub(super) const F_LINK: u64 = 1 << 5;
/// Heading (`h1`–`h6`).
pub(super) const F_HEADING: u64 = 1 << 6;
/// A block that holds running text (p, pre, blockquote, li, td, dd, ...).
pub(super) const F_PARA: u64 = 1 << 7;
/// Semantic main-content hint (main, role=main, article, itemprop=articleBody, ...).
pub(super) const F_MAIN_HINT: u64 = 1 << 8;
/// Positive content class (content, article, post, entry, answer, ...).
pub(super) const F_POSITIVE: u64 = 1 << 9;
/// Code (`pre`, `code`): documentation keeps it whatever its link density.
pub(super) const F_CODE: u64 = 1 << 10;
/// `<article>` element.
pub(super) const F_ARTICLE: u64 = 1 << 11;
/// Block-level container that can be pruned as a unit.
pub(super) const F_BLOCK: u64 = 1 << 12;
/// `<header>` element (chrome only outside main/article).
pub(super) const F_HEADER: u64 = 1 << 13;
/// `<body>`.
pub(super) const F_BODY: u64 = 1 << 14;
/// Form controls/buttons: their labels are interface text, not content.
pub(super) const F_CONTROL: u64 = 1 << 15;
// Lists and tables: structure whose short lines are content.
pub(super) const F_STRUCT: u64 = 1 << 16;
/// Dropped by the emitters whatever the scope says (`dom::is_dropped`): a root must never
/// be one of these, or the whole selection vanishes.
pub(super) const F_DROPPED: u64 = 1 << 17;
/// Has a class attribute (its signature names a kind of block, not just a tag).
pub(super) const F_CLASSED: u64 = 1 << 18;
/// Chrome by a navigation-like class only (see `NEG_NAVLIKE`).
pub(super) const F_NAVLIKE: u64 = 1 << 19;
/// `<form>`: chrome when small (sign-in, newsletter), not when it wraps posts.
pub(super) const F_FORM: u64 = 1 << 20;
/// Customer reviews by class/id or `itemprop=review`.
pub(super) const F_REVIEW: u64 = 1 << 21;
/// A review block on a product page: not the product's content (see `Table::drop_reviews`).
pub(super) const F_REVIEW_DROP: u64 = 1 << 22;
/// Chrome that is never the page's subject however much prose it holds: cookie/consent
/// notices and dialogs (consent managers ship pages of legal text).
pub(super) const F_STRONG: u64 = 1 << 23;
/// Accordion / FAQ / tab-panel machinery by class, id or role (see `F_COLLAPSED`).
pub(super) const F_COLLAPSIBLE: u64 = 1 << 24;
/// A hidden panel of an accordion, FAQ or tab set: content a reader expands, which the
/// emitters (dropping every hidden element) only show when handed its children as roots
/// (see `Table::emit_roots`).
pub(super) const F_COLLAPSED: u64 = 1 << 25;
/// Class/id names a caption ("wp-caption-text", "image-caption", slider captions): chrome on
/// pages that declare themselves articles (see `select`).
pub(super) const F_CAPTION: u64 = 1 << 26;
/// A link to another page of the same site.
pub(super) const F_INTERNAL: u64 = 1 << 27;
/// Chrome by its ARIA role (navigation, search, dialog, ...), whatever its tag.
pub(super) const F_ROLE_CHROME: u64 = 1 << 28;
/// A `textarea`, or an element holding one: a box to write a message in.
pub(super) const F_WRITE: u64 = 1 << 29;
/// Table cell, or term / description of a description list: kept or dropped with its row,
/// table or list, never on its own (a cell of linked names is a table's data, a linked term
/// an entry's title, and a table missing cells is garbled).
pub(super) const F_CELL: u64 = 1 << 30;
/// Class/id names a sidebar outright: stays chrome on product pages however much text it
/// holds (see `Table::decide_chrome`).
pub(super) const F_SIDEBAR: u64 = 1 << 31;
/// Chrome by class through short tokens only ("meta", "hide", "ad", "hidden", "search"), not
/// through a furniture word ("menu", "sidebar", "footer"): such tokens often name a detail
/// or a state of a content item ("hide-compare", "meta" on each search result), see
/// `Table::repeated_items_not_chrome`.
pub(super) const F_TOKEN_NEG: u64 = 1 << 32;
/// A whole class name "hide" / "hidden": the element is hidden by the site's stylesheet
/// (a state class, not a kind of box), see `Table::decide_chrome`.
pub(super) const F_HIDE_CLASS: u64 = 1 << 33;
/// Class/id names a disclaimer: chrome on declared articles and products (see `select`).
pub(super) const F_DISCLAIMER: u64 = 1 << 34;
/// Class names a price ("price", "product-price", "price__sale"): marks the product tiles of
/// a shop's shelves (see `Table::drop_price_shelves`).
pub(super) const F_PRICE: u64 = 1 << 35;
/// Class/id names a poster-detail panel beside a forum post (`POSTER_WORDS`): the avatar,
/// rank, join date and post count are furniture, but the poster's name is part of the post
/// (see `Table::keep_poster_names`).
pub(super) const F_POSTER: u64 = 1 << 36;
/// Class names the poster's name ("username", "message-name").
pub(super) const F_USERNAME: u64 = 1 << 37;
/// `<ul>` / `<ol>`.
pub(super) const F_LIST: u64 = 1 << 38;
/// A link to a place in the same page (`href="#..."`): tables of contents.
pub(super) const F_FRAGMENT: u64 = 1 << 39;
/// ARIA live region (`role="alert"` / `role="status"`): chrome when it holds at most
/// `LIVE_TEXT` characters (an interface message: "Please try again", "Added to your cart")
/// and does not open with an admonition label (documentation themes put `role="alert"` on
/// their "Note:" and "Warning:" boxes, which are the text's own), see `select`.
pub(super) const F_LIVE: u64 = 1 << 40;
