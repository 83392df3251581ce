//! The outline: one pre-order pass over the parsed tree into a flat table of elements with
//! their subtree text statistics (`Table::build`), and the table's basic queries.

use std::collections::HashSet;

use crate::tree::{Edge, Element, Html, Node, NodeId, NodeRef};

use super::attrs::{AttrNames, Attrs};
use super::classify::{attr_flags, is_streamed_segment_id, tag_flags, SIG_BASIS, SIG_PRIME};
use super::docs_site::DocsNotes;
use super::flags::*;
use super::page_kind::{is_archive_body, is_product_body, product_marker, ProductSignal};
use super::scorer::{tag_code, TAGS};
use super::{ARTICLE_DESCEND_SHARE, NONE};
use crate::jsonld::{is_discussion_type, is_json_ld_type};
use crate::scope::NodeSet;

/// Text (alphanumeric characters) of a question that heads a folded answer (see
/// `Table::build`).
const QUESTION_TEXT: u32 = 160;

/// Link text (percent of its text) past which a streamed React segment is a late menu or
/// rail rather than content, and stays hidden (see `Table::build`, and `hide_link_dense` in
/// `readable/mod.rs` for segments the streaming pass placed).
pub(super) const STREAMED_LINK_PERCENT: u32 = 35;

/// The outline table: every element in pre-order with its subtree statistics (`items`), and
/// what the page says it is (set by `select` before the later steps read it).
pub(super) struct Table {
    pub(super) items: Vec<Item>,
    /// `og:type`, if it says product or article.
    pub(super) og: Option<ProductSignal>,
    /// Offer/price microdata seen.
    pub(super) offer: bool,
    /// An element classed as a price ("price", "a-price", "product-price") was seen.
    pub(super) priced: bool,
    /// Share of the weighted text one child must hold for the root to descend into it.
    pub(super) descend_share: f32,
    /// The page declares itself an article (see `select`).
    pub(super) article: bool,
    /// Text of comment threads left out of the selection (not a forum, see `select`).
    pub(super) comment_text: u32,
    /// On a forum page, its largest comment thread, and the text outside every thread (the
    /// opening post), see `Table::mark_thread`; `NONE` and 0 elsewhere.
    pub(super) thread: u32,
    pub(super) opening_text: u32,
    /// The page is shaped like a thread (comments outweigh the rest) but the rest is an
    /// article above them (see `Table::article_above_comments`): its comments stay out.
    pub(super) article_over_thread: bool,
    /// The page declares a discussion (forum thread, Q&A page) in microdata or JSON-LD.
    pub(super) discussion: bool,
    /// A shop page: declares itself a product page, or shows prices without calling itself
    /// an article (see `select`).
    pub(super) product: bool,
    /// The page declares itself a product page (shop body class, `og:type` product, Product
    /// JSON-LD or offer microdata), not merely one that shows prices.
    pub(super) declared_product: bool,
    /// `body` carries a shop platform's product-page class (see `is_product_body`).
    pub(super) shop_body: bool,
    /// `body` carries a blog platform's archive or search-results class (see
    /// `is_archive_body`).
    pub(super) archive_body: bool,
    /// The pane of the documentation generator that built the page (its title panel and
    /// text), `NONE` if none was recognised (see `Table::mark_docs_furniture`): the root
    /// starts there and descends no further.
    pub(super) docs_pane: u32,
    /// The documentation generators the page shows evidence of, as `docs_site`'s bit set
    /// (0: none), kept by `Table::mark_docs_furniture` for the block scorer's development
    /// features (`features::context_rows`).
    pub(super) docs_generators: u16,
    /// The page's JSON-LD blocks (`<script type="application/ld+json">`), in document order,
    /// noted on the walk so that reading them (`supplement::json_ld`) needs no second one.
    pub(super) json_ld: Vec<NodeId>,
    /// What the walk saw of documentation generators (see `Table::mark_docs_furniture`).
    pub(super) docs_notes: DocsNotes,
}

impl Table {
    /// The outline of `doc` (`host`: the page's own host, for internal links): one
    /// pre-order walk ([`Outliner`]) and the sweeps that finish it.
    pub(super) fn build(doc: &Html, host: Option<&str>) -> Self {
        let mut walk = Outliner::new(doc, host);
        // The text, comment or doctype node opened last: a leaf, closed by the very next
        // edge, which closes nothing of the walk's. Told apart by its id rather than by
        // reading the node again (for a text node that looks its text up a second time).
        let mut leaf = None;
        for edge in doc.tree.root().traverse() {
            match edge {
                Edge::Open(node) => match node.value() {
                    Node::Element(el) => walk.open_element(node, el),
                    Node::Document | Node::Fragment => walk.open_root(node.id()),
                    Node::Text(text) => {
                        walk.text(text);
                        leaf = Some(node.id());
                    }
                    Node::Comment(_) | Node::Doctype => leaf = Some(node.id()),
                },
                Edge::Close(node) => {
                    if leaf.take() != Some(node.id()) {
                        walk.close();
                    }
                }
            }
        }
        walk.finish()
    }

    pub(super) fn body(&self) -> u32 {
        self.items
            .iter()
            .position(|it| it.flags.has_any(F_BODY))
            .map(|i| i as u32)
            .unwrap_or(0)
    }

    /// Text weight used to locate the main block: prose counts fully, link text little.
    pub(super) fn weight(&self, i: u32) -> f32 {
        self.items[i as usize].wt
    }

    pub(super) fn children(&self, i: u32) -> ChildIter<'_> {
        ChildIter {
            items: &self.items,
            next: i + 1,
            end: self.items[i as usize].end,
        }
    }

    /// A value per element of `root`'s subtree, indexed from `root`: `own` for the element,
    /// with each child's value folded into its parent's by `merge(parent, parent's, child's)`.
    /// One backward sweep, since children follow their parent in pre-order.
    pub(super) fn subtree_fold<T: Copy>(
        &self,
        root: u32,
        own: impl Fn(&Item) -> T,
        merge: impl Fn(&Item, T, T) -> T,
    ) -> Vec<T> {
        let end = self.items[root as usize].end;
        let mut acc: Vec<T> = (root..end).map(|i| own(&self.items[i as usize])).collect();
        for i in (root + 1..end).rev() {
            let p = self.items[i as usize].parent;
            if p == NONE || p < root {
                continue;
            }
            let k = (p - root) as usize;
            acc[k] = merge(&self.items[p as usize], acc[k], acc[(i - root) as usize]);
        }
        acc
    }

    /// Text in `root` outside elements the emitters drop.
    pub(super) fn visible_text(&self, root: u32) -> u32 {
        let r = &self.items[root as usize];
        let mut dropped = 0u32;
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if it.flags.has_any(F_DROPPED) {
                dropped += it.text;
                i = it.end;
            } else {
                i += 1;
            }
        }
        r.text.saturating_sub(dropped)
    }

    /// Visible text left in `root` after skipping.
    pub(super) fn kept_text(&self, root: u32, skip: &NodeSet) -> u32 {
        let r = &self.items[root as usize];
        let mut removed = 0u32;
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                removed += it.text;
                i = it.end;
            } else {
                i += 1;
            }
        }
        r.text.saturating_sub(removed)
    }
}

/// Host of an absolute URL, without "www.": after the first "://" (or a leading "//"), up to
/// the first '/', '?' or '#', after the last '@', before the first ':'. Byte scans: every
/// delimiter is ASCII, so each cut is on a character boundary (a substring search per link
/// cost more than the rest of the link's judgement).
pub(super) fn url_host(url: &str) -> Option<&str> {
    let bytes = url.as_bytes();
    let start = match scheme_end(bytes) {
        Some(i) => i + 3,
        None if bytes.starts_with(b"//") => 2,
        None => return None,
    };
    let rest = url.get(start..)?;
    let end = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let host = rest.get(..end)?;
    let host = match host.bytes().rposition(|b| b == b'@') {
        Some(at) => host.get(at + 1..)?,
        None => host,
    };
    let host = match host.bytes().position(|b| b == b':') {
        Some(colon) => host.get(..colon)?,
        None => host,
    };
    Some(host.strip_prefix("www.").unwrap_or(host))
}

/// Where the first "://" of `bytes` starts: each ':' tried in turn (a scheme's colon is the
/// first one in nearly every URL), where comparing every three-byte window cost about as
/// much as the rest of a link's judgement.
fn scheme_end(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = bytes.get(from..)?.iter().position(|&b| b == b':') {
        let colon = from + at;
        if bytes.get(colon + 1..colon + 3) == Some(b"//") {
            return Some(colon);
        }
        from = colon + 1;
    }
    None
}

/// Whether `href` points into the page's own site (relative, or the same host).
fn is_internal(href: &str, host: Option<&str>) -> bool {
    let h = href.trim();
    if h.is_empty() || h.starts_with('#') {
        return false;
    }
    let scheme = h
        .bytes()
        .position(|b| b == b':')
        .is_some_and(|c| h.as_bytes()[..c].iter().all(u8::is_ascii_alphabetic));
    if !h.starts_with("//") && !scheme {
        return true;
    }
    match (url_host(h), host) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    }
}

/// One element (or the document root) in pre-order.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub(super) id: NodeId,
    pub(super) parent: u32,
    /// One past the last descendant's index: the subtree is `index..end`.
    pub(super) end: u32,
    pub(super) flags: Flags,
    /// Alphanumeric characters of visible text in the subtree.
    pub(super) text: u32,
    /// ... of which inside links.
    pub(super) link: u32,
    /// Number of `<a>` elements in the subtree.
    pub(super) links: u32,
    /// Sentence punctuation in the subtree (a cheap "is prose" signal).
    pub(super) punct: u32,
    /// Subtree text outside chrome (filled after chrome is decided).
    pub(super) good: u32,
    pub(super) good_link: u32,
    /// Weighted `good` used to locate the main block (see `Table::weight`).
    pub(super) wt: f32,
    /// Alphanumeric characters of the element's own (direct) text ...
    pub(super) own: u32,
    /// ... of which inside links.
    pub(super) own_link: u32,
    /// Sentence punctuation and words (whitespace-separated runs holding an alphanumeric
    /// character, counted per text node) of the own text: the block scorer's features
    /// (`features::blocks_of`), counted here so that it needs no second walk.
    pub(super) own_punct: u32,
    pub(super) own_words: u32,
    /// Text of the element's own line of flow: its direct text plus that of inline
    /// descendants (spans, links, emphasis), excluding nested blocks.
    pub(super) line: u32,
    /// Heading level 1-6, 0 otherwise.
    pub(super) level: u8,
    /// The block scorer's number for the tag (`scorer::tag_code`, read once per name; the
    /// document root's `#document`, like any tag outside `TAGS`, numbers `TAGS.len()`).
    pub(super) tag_code: u8,
    /// Hash of tag + class, for spotting repeated siblings (listing items, posts).
    pub(super) sig: u64,
    /// Hash of the subtree's visible alphanumeric text, lower-cased (see `Table::build`).
    pub(super) text_hash: u64,
}

/// An element the walk has open, and what the rules read of it when its children open and
/// close.
struct Open {
    /// Its index in the table.
    idx: u32,
    /// The running text hash and its inverse power when it opened (see [`TextHash`]).
    hash_at: (u64, u64),
    /// Its last closed child element was a short question (see `Outliner::close`).
    after_question: bool,
    /// Its last closed child was a paragraph ending in a colon.
    after_colon: bool,
    /// The page's visible text count when it opened.
    seen_at: u32,
}

/// A position-weighted sum over the stream of visible text (character k weighs B^k,
/// wrapping): a subtree's text hash is the sum's growth between its open and its close,
/// shifted back to position 0 by B^-start (B is odd, so invertible). One pass, O(1) per
/// character and per node, no rescans.
struct TextHash {
    sum: u64,
    pow: u64,
    inv: u64,
}

impl TextHash {
    /// Append a text node's own hash over `fed` characters (see `TextCounts`).
    fn feed(&mut self, hash: u64, fed: u64) {
        if fed == 0 {
            return;
        }
        let (pow, inv) = (hash_pow(fed), hash_inv_pow(fed));
        self.sum = self.sum.wrapping_add(
            hash.wrapping_mul(pow.wrapping_mul(TEXT_HASH_INV))
                .wrapping_mul(self.pow),
        );
        self.pow = self.pow.wrapping_mul(pow);
        self.inv = self.inv.wrapping_mul(inv);
    }
}

/// Counts of open elements of a kind, as the walk enters and leaves them.
#[derive(Default)]
struct Depths {
    /// Invisible (text inside counts for nothing).
    invisible: u32,
    /// Links (text inside is link text).
    link: u32,
    /// Code (a "comment" class there is a highlighter's token).
    code: u32,
    /// `<main>`/`<article>` hints (a `<header>` inside one is not the page's chrome).
    semantic: u32,
}

impl Depths {
    fn enter(&mut self, flags: Flags) {
        self.invisible += u32::from(flags.has_any(F_INVISIBLE));
        self.link += u32::from(flags.has_any(F_LINK));
        self.code += u32::from(flags.has_any(F_CODE));
        self.semantic += u32::from(flags.has_any(F_MAIN_HINT | F_ARTICLE));
    }

    fn leave(&mut self, flags: Flags) {
        self.invisible = self
            .invisible
            .saturating_sub(u32::from(flags.has_any(F_INVISIBLE)));
        self.link = self.link.saturating_sub(u32::from(flags.has_any(F_LINK)));
        self.code = self.code.saturating_sub(u32::from(flags.has_any(F_CODE)));
        self.semantic = self
            .semantic
            .saturating_sub(u32::from(flags.has_any(F_MAIN_HINT | F_ARTICLE)));
    }
}

/// What the page says about itself, gathered on the way ([`Table`]'s fields of the same
/// names).
#[derive(Default)]
struct PageFacts {
    og: Option<ProductSignal>,
    offer: bool,
    priced: bool,
    discussion: bool,
    shop_body: bool,
    archive_body: bool,
}

/// What an element's name says to the walk, the same for every element of that name (kept
/// per page by interned name id, see `Outliner::tag_facts`).
#[derive(Clone, Copy)]
struct TagFacts {
    /// [`tag_flags`], with what the walk adds by name alone (a text field writes).
    flags: Flags,
    /// Heading level 1-6, 0 otherwise.
    level: u8,
    /// The block scorer's number for it (`scorer::tag_code`).
    code: u8,
    /// The name's part of the element's signature (see [`signature`]).
    sig: u64,
    /// The names the walk asks about, as bits (`TagFacts::SCRIPT`, ...).
    kind: u8,
}

impl TagFacts {
    const SCRIPT: u8 = 1;
    const INPUT: u8 = 2;
    const NOSCRIPT: u8 = 4;
    const BODY: u8 = 8;
    /// `ul` or `ol`.
    const LIST: u8 = 16;
    /// `element_facts::is_invisible_tag`.
    const INVISIBLE: u8 = 32;

    fn of(name: &str) -> TagFacts {
        let mut flags = tag_flags(name);
        if name == "textarea" {
            flags |= F_WRITE;
        }
        let kind = match name {
            "script" => Self::SCRIPT,
            "input" => Self::INPUT,
            "noscript" => Self::NOSCRIPT,
            "body" => Self::BODY,
            "ul" | "ol" => Self::LIST,
            _ => 0,
        } | if crate::element_facts::is_invisible_tag(name) {
            Self::INVISIBLE
        } else {
            0
        };
        TagFacts {
            flags,
            level: webgrip_html::heading_level(name).unwrap_or(0),
            code: tag_code(name),
            sig: signature(name, 0),
            kind,
        }
    }

    fn is(&self, kind: u8) -> bool {
        self.kind & kind != 0
    }
}

/// The pre-order walk behind [`Table::build`]: the table so far, the open elements, and what
/// the rules carry from one node to the next.
struct Outliner<'a> {
    host: Option<&'a str>,
    items: Vec<Item>,
    open: Vec<Open>,
    depths: Depths,
    facts: PageFacts,
    hash: TextHash,
    /// Ids that a disclosure control names in `aria-controls` (an accordion header or a
    /// "read more" button): the hidden element with that id is a panel a reader expands.
    /// The control may come after its panel, so hidden elements with an id that nothing
    /// else unhides wait in `undecided` until the walk has seen every control.
    controlled: HashSet<&'a str>,
    undecided: Vec<(u32, &'a str)>,
    /// React streaming segments unhidden on the way (see `Outliner::finish`).
    streamed_at: Vec<u32>,
    /// The document's ids of the attribute names the walk reads (see [`AttrNames`]).
    attr_names: AttrNames,
    /// What each element name says, by its interned id, read at its first element (see
    /// [`TagFacts`]).
    tags: Vec<Option<TagFacts>>,
    /// JSON-LD script elements seen, and documentation-generator marks (see [`Table`]'s
    /// fields).
    json_ld: Vec<NodeId>,
    docs_notes: DocsNotes,
    /// Visible text so far, and whether the last non-blank text ended in a question mark or
    /// a colon. A hidden block right after a short question ("Is my dog covered?") is its
    /// answer, folded away; a list right after a paragraph ending in a colon ("For more
    /// information, see:") is what that sentence introduces.
    seen: u32,
    last_question: bool,
    last_colon: bool,
}

impl<'a> Outliner<'a> {
    fn new(doc: &Html, host: Option<&'a str>) -> Self {
        Outliner {
            host,
            // Every element and the document root: at most the tree's node count, which it
            // knows (one allocation instead of a dozen doublings and copies).
            items: Vec::with_capacity(doc.tree.len()),
            open: Vec::new(),
            depths: Depths::default(),
            facts: PageFacts::default(),
            hash: TextHash {
                sum: 0,
                pow: 1,
                inv: 1,
            },
            controlled: HashSet::new(),
            undecided: Vec::new(),
            streamed_at: Vec::new(),
            attr_names: AttrNames::of(doc),
            tags: Vec::new(),
            json_ld: Vec::new(),
            docs_notes: DocsNotes::default(),
            seen: 0,
            last_question: false,
            last_colon: false,
        }
    }

    fn push(&mut self, item: Item) {
        self.open.push(Open {
            idx: item.end - 1,
            hash_at: (self.hash.sum, self.hash.inv),
            after_question: false,
            after_colon: false,
            seen_at: self.seen,
        });
        self.items.push(item);
    }

    /// The document (or fragment) node: the table's first entry.
    fn open_root(&mut self, id: NodeId) {
        let idx = self.items.len() as u32;
        self.push(Item::new(id, NONE, idx, Flags::EMPTY));
    }

    /// The [`TagFacts`] of the element name `id` (`name`), read once a page.
    fn tag_facts(&mut self, id: u32, name: &str) -> TagFacts {
        let slot = id as usize;
        if let Some(Some(facts)) = self.tags.get(slot) {
            return *facts;
        }
        let facts = TagFacts::of(name);
        if self.tags.len() <= slot {
            self.tags.resize(slot + 1, None);
        }
        self.tags[slot] = Some(facts);
        facts
    }

    fn open_element(&mut self, node: NodeRef<'a>, el: Element<'a>) {
        let name = el.name();
        let tag = self.tag_facts(el.name_id(), name);
        let attrs = Attrs::of(el, &self.attr_names);
        if let Some(c) = attrs.aria_controls {
            self.controlled.extend(c.split_ascii_whitespace());
        }
        if tag.is(TagFacts::SCRIPT) && attrs.kind.is_some_and(is_json_ld_type) {
            self.json_ld.push(node.id());
        }
        let mut flags = tag.flags;
        // A hidden input is form state, not a control anyone sees or fills.
        if tag.is(TagFacts::INPUT)
            && attrs
                .kind
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden"))
        {
            flags = F_INVISIBLE;
        }
        // Raw-text noscript (scripting-enabled parse): markup as text.
        if tag.is(TagFacts::NOSCRIPT) && !node.children().any(|c| c.value().is_element()) {
            flags |= F_INVISIBLE;
        }
        // Looked up once: several rules below read them.
        let class = attrs.class;
        let href = attrs.href;
        let el_id = attrs.id;
        let (attr, class_facts) = attr_flags(&attrs, name);
        // Chrome by its role (a search or consent dialog), not merely a form.
        if attr.has_any(F_CHROME_TAG) {
            flags |= F_ROLE_CHROME;
        }
        flags |= attr;
        let facts = &mut self.facts;
        if class_facts.price {
            facts.priced = true;
            flags |= F_PRICE;
        }
        facts.discussion = facts.discussion
            || attrs.itemtype.is_some_and(|t| {
                t.split_ascii_whitespace()
                    .any(|t| is_discussion_type(t.rsplit('/').next().unwrap_or(t)))
            });
        match product_marker(&attrs, name) {
            Some(ProductSignal::Offer) => facts.offer = true,
            Some(sig) => facts.og = facts.og.or(Some(sig)),
            None => {}
        }
        if !class_facts.blank {
            flags |= F_CLASSED;
        }
        if tag.is(TagFacts::BODY) {
            facts.shop_body = class.is_some_and(is_product_body);
            facts.archive_body = class.is_some_and(is_archive_body);
        }
        if flags.has_any(F_LINK) && href.is_some_and(|h| is_internal(h, self.host)) {
            flags |= F_INTERNAL;
        }
        if flags.has_any(F_LINK) && href.is_some_and(|h| h.trim_start().starts_with('#')) {
            flags |= F_FRAGMENT;
        }
        let parent_open = self.open.last();
        if tag.is(TagFacts::LIST) {
            flags |= F_LIST;
            if parent_open.is_some_and(|o| o.after_colon) {
                flags |= F_INTRODUCED;
            }
        }
        // `element_facts::is_dropped`, without its attribute scan when no attribute it reads is there.
        if tag.is(TagFacts::INVISIBLE) || (attrs.may_hide() && crate::element_facts::is_hidden(el))
        {
            flags |= F_DROPPED;
        }
        if flags.has_any(F_HEADER) && self.depths.semantic == 0 {
            flags |= F_CHROME_TAG;
        }
        // Inside code, "comment" in a class name is a syntax highlighter's token kind
        // (`hljs-comment`, `token comment`): a code comment, part of the code, not a comment
        // thread.
        if self.depths.code > 0 {
            flags &= !F_COMMENTS;
        }
        let idx = self.items.len() as u32;
        self.docs_notes
            .note(idx, el, name, class, el_id, class_facts.docs);
        let parent = parent_open.map_or(NONE, |o| o.idx);
        // A collapsed accordion / FAQ panel is hidden until a click: content a reader
        // expands, not furniture (its own class or its parent's says what it is).
        let in_collapsible =
            parent != NONE && self.items[parent as usize].flags.has_any(F_COLLAPSIBLE);
        let answer = parent_open.is_some_and(|o| o.after_question);
        // React's streaming renderer sends late parts of the page (often the article body
        // itself) as `<div hidden id="S:n">` segments at the end of `<body>`, which a script
        // moves into place: shown content.
        let streamed = flags.has_any(F_HIDDEN) && el_id.is_some_and(is_streamed_segment_id);
        if streamed {
            self.streamed_at.push(idx);
        }
        if flags.has_any(F_HIDDEN) && flags.has_none(F_CHROME_CLASS) {
            if flags.has_any(F_COLLAPSIBLE) || in_collapsible || answer || streamed {
                flags = (flags & !F_HIDDEN) | F_COLLAPSED;
            } else if let Some(i) = el_id {
                self.undecided.push((idx, i.trim()));
            }
        }
        let mut item = Item::new(node.id(), parent, idx, flags);
        item.links = u32::from(flags.has_any(F_LINK));
        item.level = tag.level;
        item.tag_code = tag.code;
        item.sig = tag.sig ^ class_facts.sig;
        self.push(item);
        self.depths.enter(flags);
    }

    fn text(&mut self, text: &str) {
        if self.depths.invisible > 0 {
            return;
        }
        // Trailing ASCII whitespace counts for nothing, and a node of nothing else
        // (indentation between tags, most text nodes) changes nothing.
        let text = trim_ascii_whitespace_end(text);
        if text.is_empty() {
            return;
        }
        if let Some(c) = last_visible_char(text) {
            self.last_question = c == '?';
            self.last_colon = c == ':';
        }
        let TextCounts {
            alnum,
            punct,
            words,
            fed,
            hash,
        } = TextCounts::of(text);
        self.hash.feed(hash, fed);
        if let Some(top) = self.open.last() {
            self.seen += alnum;
            let it = &mut self.items[top.idx as usize];
            it.text += alnum;
            it.own += alnum;
            it.punct += punct;
            it.own_punct += punct;
            it.own_words += words;
            it.line += alnum;
            if self.depths.link > 0 {
                it.link += alnum;
                it.own_link += alnum;
            }
        }
    }

    fn close(&mut self) {
        let Some(closed) = self.open.pop() else {
            return;
        };
        let idx = closed.idx as usize;
        let own = self.seen - closed.seen_at;
        let paragraph = self.items[idx].flags & (F_PARA | F_CELL) == F_PARA;
        if let Some(parent) = self.open.last_mut() {
            parent.after_question = self.last_question && (4..=QUESTION_TEXT).contains(&own);
            parent.after_colon = self.last_colon && paragraph;
        }
        let end = self.items.len() as u32;
        let it = &mut self.items[idx];
        it.end = end;
        let (h0, inv0) = closed.hash_at;
        it.text_hash = self.hash.sum.wrapping_sub(h0).wrapping_mul(inv0);
        let flags = it.flags;
        self.depths.leave(flags);
    }

    /// The sweeps after the walk: hidden panels a control names unhidden, subtree totals,
    /// link-dense streamed segments hidden again.
    fn finish(self) -> Table {
        let Outliner {
            mut items,
            facts,
            controlled,
            undecided,
            streamed_at,
            json_ld,
            docs_notes,
            ..
        } = self;
        // Hidden panels whose id a disclosure control names (see `controlled`).
        if !controlled.is_empty() {
            for &(i, id) in &undecided {
                if controlled.contains(id) {
                    let it = &mut items[i as usize];
                    it.flags = (it.flags & !F_HIDDEN) | F_COLLAPSED;
                }
            }
        }
        sum_subtrees(&mut items);
        // React streaming segments were unhidden above, but the same channel carries late
        // menus, recommendation rails and product grids: a link-dense segment stays hidden
        // (what a reader sees of it in place is navigation, not content).
        for &i in &streamed_at {
            let it = &mut items[i as usize];
            if it.flags.has_any(F_COLLAPSED) && it.link * 100 > it.text * STREAMED_LINK_PERCENT {
                it.flags = (it.flags & !F_COLLAPSED) | F_HIDDEN;
            }
        }
        Table {
            items,
            og: facts.og,
            offer: facts.offer,
            priced: facts.priced,
            descend_share: ARTICLE_DESCEND_SHARE,
            article: false,
            comment_text: 0,
            thread: NONE,
            opening_text: 0,
            article_over_thread: false,
            discussion: facts.discussion,
            product: false,
            declared_product: false,
            shop_body: facts.shop_body,
            archive_body: facts.archive_body,
            docs_pane: NONE,
            docs_generators: 0,
            json_ld,
            docs_notes,
        }
    }
}

/// Subtree totals: children come after parents in pre-order, so a reverse sweep adds every
/// finished child into its parent (and carries "holds a control" and "holds a text field"
/// up).
fn sum_subtrees(items: &mut [Item]) {
    let mut controls = vec![false; items.len()];
    let mut writes = vec![false; items.len()];
    for i in (1..items.len()).rev() {
        // A form without a single visible control is nothing a reader fills in: forum and
        // comment software wraps each post's text in one (for in-place editing). Shops wrap
        // product grids in "compare" forms too: those are link lists.
        let it = &items[i];
        if it.flags & (F_FORM | F_ROLE_CHROME) == F_FORM && !controls[i] && 2 * it.link < it.text {
            items[i].flags &= !F_CHROME_TAG;
        }
        let p = items[i].parent;
        if p == NONE {
            continue;
        }
        if controls[i] || items[i].flags.has_any(F_CONTROL) {
            controls[p as usize] = true;
        }
        if writes[i] {
            items[i].flags |= F_WRITE;
        }
        if items[i].flags.has_any(F_WRITE) {
            writes[p as usize] = true;
        }
        let (text, link, punct) = (items[i].text, items[i].link, items[i].punct);
        let links = items[i].links;
        let inline = items[i]
            .flags
            .has_none(F_BLOCK | F_PARA | F_HEADING | F_BODY)
            && items[i].flags.has_none(F_INVISIBLE);
        let line = items[i].line;
        let par = &mut items[p as usize];
        par.text += text;
        par.link += link;
        par.punct += punct;
        par.links += links;
        if inline {
            par.line += line;
        }
    }
}

impl Item {
    /// A fresh entry at `idx` (its subtree so far only itself), no text counted yet.
    fn new(id: NodeId, parent: u32, idx: u32, flags: Flags) -> Item {
        Item {
            id,
            parent,
            end: idx + 1,
            flags,
            text: 0,
            link: 0,
            links: 0,
            punct: 0,
            good: 0,
            good_link: 0,
            wt: 0.0,
            own: 0,
            own_link: 0,
            own_punct: 0,
            own_words: 0,
            line: 0,
            level: 0,
            tag_code: TAGS.len() as u8,
            sig: 0,
            text_hash: 0,
        }
    }
}

/// The children of one outline entry, in order (see `Table::children`).
pub(super) struct ChildIter<'a> {
    items: &'a [Item],
    next: u32,
    end: u32,
}

impl Iterator for ChildIter<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next >= self.end {
            return None;
        }
        let c = self.next;
        self.next = self.items[c as usize].end;
        Some(c)
    }
}

/// Base of the running text hash (odd, so invertible modulo 2^64; arithmetic wraps).
const TEXT_HASH_BASE: u64 = 0x100000001b3;
/// Its inverse modulo 2^64 (see `inverse_mod_2_64`).
const TEXT_HASH_INV: u64 = inverse_mod_2_64(TEXT_HASH_BASE);
const TEXT_HASH_INV_2: u64 = TEXT_HASH_INV.wrapping_mul(TEXT_HASH_INV);

/// Multiplicative inverse of an odd number modulo 2^64, by Newton's iteration (each step
/// doubles the number of correct low bits; an odd `b` is its own inverse modulo 8).
const fn inverse_mod_2_64(b: u64) -> u64 {
    let mut x = b;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(b.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// `TEXT_HASH_BASE^k` and `TEXT_HASH_INV^k` for the exponents most text nodes need.
const HASH_POWS: [u64; 256] = powers(TEXT_HASH_BASE);
const HASH_INV_POWS: [u64; 256] = powers(TEXT_HASH_INV);

const fn powers(b: u64) -> [u64; 256] {
    let mut out = [1u64; 256];
    let mut k = 1;
    while k < 256 {
        out[k] = out[k - 1].wrapping_mul(b);
        k += 1;
    }
    out
}

/// `b^e` (wrapping), `b^e` for `e < 256` taken from `table`.
fn pow_with(table: &[u64; 256], b: u64, e: u64) -> u64 {
    if e < 256 {
        return table[e as usize];
    }
    let (mut acc, mut base, mut e) = (1u64, b, e);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    acc
}

fn hash_pow(e: u64) -> u64 {
    pow_with(&HASH_POWS, TEXT_HASH_BASE, e)
}

fn hash_inv_pow(e: u64) -> u64 {
    pow_with(&HASH_INV_POWS, TEXT_HASH_INV, e)
}

/// What one text node adds to the outline: its alphanumeric characters, sentence punctuation
/// and words, and its lower-cased alphanumerics as a hash.
///
/// The running hash of `Table::build` weighs the k-th character fed since the page began by
/// `B^k`: a node feeding `c_0 .. c_{n-1}` from position `p` adds `B^p * sum c_j B^j`. The sum
/// is read here by Horner's rule in the inverse base, one multiply per character:
/// `hash = sum c_j INV^(n-1-j)`, so `sum c_j B^j = hash * B^(n-1)`; the caller shifts it to
/// position `p`. (Feeding each character at its position took three multiplies each.)
struct TextCounts {
    alnum: u32,
    punct: u32,
    /// Whitespace-separated runs holding an alphanumeric character.
    words: u32,
    /// Characters fed to the hash (a lower-cased letter may be several).
    fed: u64,
    hash: u64,
}

/// Per byte: its lower case if an ASCII letter or digit (all at least `b'0'`), [`PUNCT`] if
/// ASCII sentence punctuation (see `is_punct`), [`SPACE`] if ASCII whitespace (as
/// `char::is_whitespace` has it), [`NON_ASCII`] for a byte of a longer character, else 0.
const BYTE_KIND: [u8; 256] = byte_kinds();
const PUNCT: u8 = 1;
const NON_ASCII: u8 = 2;
const SPACE: u8 = 3;

const fn byte_kinds() -> [u8; 256] {
    let mut out = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        out[i] = if b >= 0x80 {
            NON_ASCII
        } else if b.is_ascii_alphanumeric() {
            b.to_ascii_lowercase()
        } else if matches!(b, b'.' | b',' | b';' | b'?' | b'!') {
            PUNCT
        } else if matches!(b, b' ' | b'\t'..=b'\r') {
            SPACE
        } else {
            0
        };
        i += 1;
    }
    out
}

impl TextCounts {
    /// Kept out of line: inlined into the walk, its counters lived on the stack (the walk
    /// holds many values), a load and a store per byte.
    #[inline(never)]
    fn of(text: &str) -> Self {
        let (mut alnum, mut punct, mut hash) = (0u32, 0u32, 0u64);
        // Words ended so far, and whether the run of non-whitespace being read holds an
        // alphanumeric character.
        let (mut words, mut word_alnum) = (0u32, false);
        // Lower-cased characters beyond one per alphanumeric (a letter may lower-case to
        // several): `fed` is `alnum` plus these.
        let mut extra = 0u64;
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let kind = BYTE_KIND[b as usize];
            if kind >= b'0' {
                word_alnum = true;
                let next = bytes.get(i + 1).map_or(0, |&n| BYTE_KIND[n as usize]);
                if next >= b'0' {
                    // Two ASCII letters or digits at once: `(h·I + a)·I + b` as `h·I² + a·I + b`
                    // (the same value, wrapping), one multiply on the hash's chain, not two.
                    alnum += 2;
                    hash = hash
                        .wrapping_mul(TEXT_HASH_INV_2)
                        .wrapping_add(u64::from(kind).wrapping_mul(TEXT_HASH_INV))
                        .wrapping_add(u64::from(next));
                    i += 2;
                } else {
                    alnum += 1;
                    hash = hash
                        .wrapping_mul(TEXT_HASH_INV)
                        .wrapping_add(u64::from(kind));
                    i += 1;
                }
            } else if kind != NON_ASCII {
                punct += u32::from(kind == PUNCT);
                if kind == SPACE {
                    words += u32::from(word_alnum);
                    word_alnum = false;
                }
                i += 1;
            } else {
                // `i` is on a character boundary: every step moves by whole characters.
                let Some(ch) = text.get(i..).and_then(|t| t.chars().next()) else {
                    break;
                };
                i += ch.len_utf8();
                if is_alphanumeric(ch) {
                    alnum += 1;
                    word_alnum = true;
                    let mut n = 0u64;
                    for lc in ch.to_lowercase() {
                        n += 1;
                        hash = hash.wrapping_mul(TEXT_HASH_INV).wrapping_add(lc as u64);
                    }
                    extra += n.saturating_sub(1);
                } else if is_punct(ch) {
                    punct += 1;
                } else if ch.is_whitespace() {
                    words += u32::from(word_alnum);
                    word_alnum = false;
                }
            }
        }
        TextCounts {
            alnum,
            punct,
            words: words + u32::from(word_alnum),
            fed: u64::from(alnum) + extra,
            hash,
        }
    }
}

/// `text` without trailing ASCII whitespace (whitespace in `char::is_whitespace`'s sense).
fn trim_ascii_whitespace_end(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    // Eight bytes a step while all eight are whitespace (the indentation between tags, most
    // text nodes, runs to dozens of bytes), then byte by byte.
    while let Some(chunk) = end.checked_sub(8).and_then(|at| bytes.get(at..end)) {
        if !chunk
            .iter()
            .fold(true, |all, &b| all & (BYTE_KIND[b as usize] == SPACE))
        {
            break;
        }
        end -= 8;
    }
    while end > 0 && BYTE_KIND[bytes[end - 1] as usize] == SPACE {
        end -= 1;
    }
    // ASCII bytes end characters: `end` is a boundary.
    text.get(..end).unwrap_or(text)
}

/// The last character of `text` that is not whitespace (`str::trim_end`'s sense), for text
/// that [`trim_ascii_whitespace_end`] has trimmed.
fn last_visible_char(text: &str) -> Option<char> {
    match text.as_bytes().last() {
        None => None,
        Some(&b) if b < 0x80 => Some(b as char),
        Some(_) => text.trim_end().chars().next_back(),
    }
}

/// Sentence punctuation, counted per element (prose has it, menus and tiles do not).
/// `char::is_alphanumeric`, answered for a character of the Basic Multilingual Plane from a
/// bit table filled 256 characters at a time on first use, from `char::is_alphanumeric`
/// itself (so every answer is the same). The standard library's table search costs about 150
/// instructions a non-ASCII character, and a page in another script, or with typographic
/// quotes and dashes in every line, holds thousands: on 60 corpus pages that search was 4.6%
/// of a readable fetch's instructions.
pub(super) fn is_alphanumeric(ch: char) -> bool {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    static FILLED: [AtomicBool; 256] = [const { AtomicBool::new(false) }; 256];
    static BITS: [AtomicU64; 1024] = [const { AtomicU64::new(0) }; 1024];
    let cp = ch as u32;
    if ch.is_ascii() {
        return ch.is_ascii_alphanumeric();
    }
    let (Some(filled), Some(bits)) = (FILLED.get((cp >> 8) as usize), BITS.get((cp >> 6) as usize))
    else {
        return ch.is_alphanumeric(); // past the BMP
    };
    if !filled.load(Ordering::Acquire) {
        let page = cp & !0xff;
        for (w, word) in BITS.iter().skip((page >> 6) as usize).take(4).enumerate() {
            let first = page + 64 * w as u32;
            let set = (0..64u32)
                .filter(|bit| char::from_u32(first + bit).is_some_and(char::is_alphanumeric))
                .fold(0u64, |acc, bit| acc | 1 << bit);
            // Racing threads store the same bits.
            word.store(set, Ordering::Relaxed);
        }
        filled.store(true, Ordering::Release);
    }
    bits.load(Ordering::Relaxed) >> (cp & 63) & 1 == 1
}

fn is_punct(ch: char) -> bool {
    matches!(ch, '.' | ',' | ';' | '?' | '!' | '。' | '、' | '，')
}

/// Hash of tag and class names, equal for elements of one kind: FNV-1a over the tag name,
/// joined with the class part read once per distinct class string (`ClassFacts::sig`: the
/// class tokens with digits dropped, a post's taxonomy terms left out).
pub(super) fn signature(name: &str, class_sig: u64) -> u64 {
    let mut h = SIG_BASIS;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(SIG_PRIME);
    }
    h.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29) ^ class_sig
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `url_host` as it read with `str` splitting, before the byte scans.
    fn url_host_by_splits(url: &str) -> Option<&str> {
        let rest = url
            .split_once("://")
            .map(|(_, r)| r)
            .or_else(|| url.strip_prefix("//"))?;
        let host = rest.split(['/', '?', '#']).next()?;
        let host = host.rsplit('@').next()?.split(':').next()?;
        Some(host.strip_prefix("www.").unwrap_or(host))
    }

    #[test]
    fn url_host_cuts_where_the_splits_cut() {
        for url in [
            "https://www.example.com/a/b",
            "http://user:pw@host.org:8080/x?y#z",
            "//cdn.example.net",
            "/relative/path",
            "mailto:a@b.c",
            "https://a@b@c.d:1",
            "https://h\u{e9}st.example/?q",
            "x://",
            "a://b://c",
            "",
            "//",
            "https://www.",
            "a:b://c",
            "::://x",
            "x:/",
            "x:",
            "mailto:x@y.z?u=https://h.example/p",
        ] {
            assert_eq!(url_host(url), url_host_by_splits(url), "{url}");
        }
    }

    #[test]
    fn the_alphanumeric_table_answers_as_the_standard_library() {
        // Twice over the BMP: the first pass fills the table, the second reads it.
        for _ in 0..2 {
            for ch in (0..=0x10ffffu32).step_by(7).filter_map(char::from_u32) {
                assert_eq!(is_alphanumeric(ch), ch.is_alphanumeric(), "{:x}", ch as u32);
            }
            for ch in (0..0x10000u32).filter_map(char::from_u32) {
                assert_eq!(is_alphanumeric(ch), ch.is_alphanumeric(), "{:x}", ch as u32);
            }
        }
    }

    #[test]
    fn text_counts_match_a_character_walk() {
        for text in [
            "Hello, World! Is it 42?",
            "  \n\t ",
            "Stra\u{df}e \u{130}stanbul \u{3002}\u{3001}\u{ff0c} caf\u{e9}.",
            "a",
            "",
            " -- one\u{a0}two\u{3000}three ... ",
        ] {
            let c = TextCounts::of(text);
            let alnum = text.chars().filter(|c| c.is_alphanumeric()).count() as u32;
            let words = text
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count() as u32;
            assert_eq!(c.words, words, "{text:?}");
            let punct = text.chars().filter(|&c| is_punct(c)).count() as u32;
            let lower: Vec<char> = text
                .chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect();
            // The per-character weighting the running hash used: sum c_k B^k.
            let mut want = 0u64;
            let mut pow = 1u64;
            for &lc in &lower {
                want = want.wrapping_add((lc as u64).wrapping_mul(pow));
                pow = pow.wrapping_mul(TEXT_HASH_BASE);
            }
            assert_eq!(
                (c.alnum, c.punct, c.fed),
                (alnum, punct, lower.len() as u64)
            );
            let got = if c.fed == 0 {
                0
            } else {
                c.hash
                    .wrapping_mul(hash_pow(c.fed).wrapping_mul(TEXT_HASH_INV))
            };
            assert_eq!(got, want, "{text:?}");
            assert_eq!(hash_pow(c.fed), pow);
            assert_eq!(
                hash_pow(300),
                (0..300).fold(1u64, |a, _| a.wrapping_mul(TEXT_HASH_BASE))
            );
            assert_eq!(hash_pow(300).wrapping_mul(hash_inv_pow(300)), 1);
        }
    }

    #[test]
    fn last_visible_character() {
        assert_eq!(
            last_visible_char(trim_ascii_whitespace_end("Why? \n")),
            Some('?')
        );
        assert_eq!(
            last_visible_char(trim_ascii_whitespace_end("see:\u{a0}\t")),
            Some(':')
        );
        assert_eq!(
            last_visible_char(trim_ascii_whitespace_end(" \u{3000} ")),
            None
        );
        assert_eq!(trim_ascii_whitespace_end(" \r\n\x0b\x0c"), "");
        for text in [
            "",
            "a",
            "x\u{a0}",
            "ab  \n\t\t\t\t\t\t\t\t\t\t\t",
            "\n        \n    ",
            "a b\x0c\x0b\r\n\t c  ",
        ] {
            assert_eq!(
                trim_ascii_whitespace_end(text),
                text.trim_end_matches([' ', '\t', '\n', '\x0B', '\x0C', '\r']),
                "{text:?}"
            );
        }
    }
}
