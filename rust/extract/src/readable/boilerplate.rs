//! Pruning passes that drop boilerplate by what it says or repeats: sections under a
//! boilerplate heading ("Related articles", "Comments"), a product page's shelves of priced
//! tiles, shipping/returns panels, loading placeholders, and later copies of a line or block
//! shipped twice.

use crate::tree::NodeId;
use crate::tree::{Html, Node};

use super::flags::*;
use super::furniture::visible_texts;
use super::hashing::{fast_map, FastMap};
use super::outline::Table;
use super::root::is_table_part;
use super::NONE;
use crate::element_facts::html_attr;
use crate::scope::NodeSet;

/// Largest share of the root a product page's shelf of priced tiles may hold (see
/// `Table::drop_price_shelves`).
const SHELF_SHARE: f32 = 0.6;
/// Most text of one tile on such a shelf: name, price, rating and delivery lines, and the
/// variant details some shops ship inside each tile for a hover card.
const SHELF_CARD: u32 = 1000;

/// Longest label (alphanumeric characters) read as a shipping/returns panel's title (see
/// `Table::drop_policy_panels`).
const POLICY_LABEL: u32 = 40;

/// Text a block needs (alphanumeric characters, a sentence or two) for a later identical copy
/// to be dropped (see `Table::drop_repeated_blocks`); short labels and table cells repeat on
/// purpose.
const REPEAT_BLOCK: u32 = 100;

/// Longest paragraph (alphanumeric characters) read as a label heading a run of link
/// teasers ("You may also like...", see `Table::drop_boilerplate_sections`).
const TEASER_LABEL_TEXT: u32 = 40;
/// Longest text (bytes) `Table::short_text` reads: a label or heading is short, and a long
/// one is not read through.
const SHORT_TEXT_BYTES: usize = 200;
/// Most words of a heading that is a short label around a boilerplate phrase ("Our
/// newsletter"); a longer heading must open with the phrase.
const SHORT_HEADING_WORDS: usize = 4;
/// Shortest leaf block (alphanumeric characters) whose later identical copies are dropped
/// (see `Table::drop_repeated_lines`).
const REPEAT_LINE: u32 = 40;
/// Most words of a shop shelf's heading (see `is_shop_shelf_heading`).
const SHELF_HEADING_WORDS: usize = 8;
/// Text blocks at a declared article's end read for closing calls to follow or subscribe
/// (see `Table::drop_closing_calls`) ...
const CLOSING_BLOCKS: usize = 3;
/// ... and the longest such call (alphanumeric characters): a line or two, not a paragraph
/// of the story that mentions a network.
const CLOSING_CALL_TEXT: u32 = 160;

/// Fewest alphanumeric characters and words of a promotion line in capitals (see
/// `Table::drop_shouted_promos`): a headline, not an acronym.
const SHOUT_TEXT: u32 = 20;
const SHOUT_WORDS: usize = 4;

/// An author box's name link (alphanumeric characters): a person's name, not a sentence
/// (see `Table::drop_author_boxes`) ...
const AUTHOR_NAME_MIN: u32 = 3;
const AUTHOR_NAME_MAX: u32 = 60;
/// ... the text labels before the name may hold ("Written by", an "Author | Recent Posts"
/// tab bar, "Follow Sarah") ...
const AUTHOR_LEAD_TEXT: u32 = 40;
/// ... what the box says about the author besides the name: a role and a sentence ...
const AUTHOR_BIO_TEXT: u32 = 60;
/// ... and the most the box may hold, in characters and as a share of the root: a bio,
/// not a section of the story.
const AUTHOR_BOX_TEXT: u32 = 1200;
const AUTHOR_BOX_SHARE: f32 = 0.3;
/// Most elements of an author box: a few lines of markup, which also bounds the climb to it
/// and the look back for a heading inside it, so the pass stays linear.
const AUTHOR_BOX_NODES: u32 = 400;

impl Table {
    /// Sections introduced by a boilerplate heading ("Related articles", "Comments",
    /// "You may also like", ...): the smallest wrapper the heading opens, or else the heading
    /// and the siblings that follow it up to the next heading of the same or higher rank.
    pub(super) fn drop_boilerplate_sections(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let root_text = r.text as f32;
        let (start, end) = (root as usize, r.end as usize);
        // Own text before each index, to ask "is the heading the first text of this
        // wrapper" in O(1).
        let prefix = self.own_text_prefix(start, end);
        let pre = |i: u32| prefix[(i as usize) - start];
        let mut top_heading: Option<Vec<u8>> = None;
        let mut i = root + 1;
        while (i as usize) < end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            // A paragraph that is only a label ("You may also like...") heads a run of
            // link teasers: drop it and the link-dense siblings that follow it.
            let label = it.level == 0
                && it.flags.has_any(F_PARA)
                && it.text <= TEASER_LABEL_TEXT
                && it.text == it.line
                && it.link * 2 < it.text.max(1);
            if label && self.is_boilerplate_heading(doc, i) {
                let mut marks = vec![it.id];
                let mut s = it.end;
                let pend = self.items[it.parent as usize].end;
                while s < pend {
                    let si = &self.items[s as usize];
                    if si.text > 0 && si.link * 2 <= si.text {
                        break;
                    }
                    marks.push(si.id);
                    s = si.end;
                }
                if marks.len() > 1 {
                    skip.extend(marks);
                    i = s;
                    continue;
                }
            }
            if it.level == 0 || it.text > 80 || !self.is_boilerplate_heading(doc, i) {
                i += 1;
                continue;
            }
            // Largest small wrapper that starts with this heading.
            let mut wrapper = NONE;
            let mut a = it.parent;
            while a != NONE && a != root && a > root {
                let ai = &self.items[a as usize];
                let before = pre(i) - pre(a + 1);
                if before > 0 || ai.text as f32 > 0.4 * root_text {
                    break;
                }
                wrapper = a;
                a = ai.parent;
            }
            if wrapper != NONE {
                // A wrapper of prose under the heading is a guide, not a rail: it stays.
                if !self.prose_section(&[wrapper]) {
                    skip.insert(self.items[wrapper as usize].id);
                }
                i = self.items[wrapper as usize].end;
                continue;
            }
            // Heading in the flow: drop it and what follows, up to the next peer heading.
            let level = it.level;
            let parent = it.parent;
            let mut dropped = 0u32;
            let mut s = it.end;
            let pend = if parent == NONE {
                r.end
            } else {
                self.items[parent as usize].end
            };
            let mut marks = Vec::new();
            while s < pend {
                let si = &self.items[s as usize];
                // The section ends at the next heading of its rank or above, also when a
                // wrapper holds it (a "Recommended courses" label followed by boxes that
                // each open with a course's own h3 heads those boxes, not the rest of the
                // page).
                let top = top_heading
                    .get_or_insert_with(|| self.top_heading_levels(root))
                    .get((s - root) as usize)
                    .copied()
                    .unwrap_or(0);
                if top != 0 && top <= level {
                    break;
                }
                dropped += si.text;
                marks.push(s);
                s = si.end;
            }
            // Prose, not a rail: the section stays, its heading too.
            if !self.prose_section(&marks) {
                skip.insert(it.id);
                if (dropped as f32) < 0.4 * root_text {
                    skip.extend(marks.iter().map(|&k| self.items[k as usize].id));
                }
            }
            i = it.end;
        }
        self.drop_closing_calls(doc, root, skip);
        self.drop_shouted_promos(doc, root, skip);
        self.drop_author_boxes(doc, root, skip);
    }

    /// A declared article's author box in its second half: a block that opens with a link
    /// to an author's page (`/author/…`, `rel=author`) standing alone as the name, followed
    /// by a line or two about them ("Associate Editor", "Emmet White has a passion for …").
    /// A story paragraph that opens with such a link is one block with the name inside it
    /// and stays; so does a box before the story's middle (a byline with a date).
    fn drop_author_boxes(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        if !self.article {
            return;
        }
        let r = &self.items[root as usize];
        let (start, end) = (root as usize, r.end as usize);
        let mut prefix: Option<Vec<u32>> = None;
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            // The name link or its line may already be out (a `vcard author` class, a line
            // all link): its box is still read from it.
            let named = it.flags.has_any(F_LINK)
                && (AUTHOR_NAME_MIN..=AUTHOR_NAME_MAX).contains(&it.text)
                && links_to_author(doc, it.id);
            if !named {
                let out = skip.contains(&it.id) && it.text > AUTHOR_NAME_MAX;
                i = if out { it.end } else { i + 1 };
                continue;
            }
            let prefix = prefix.get_or_insert_with(|| self.kept_text_prefix(start, end, skip));
            let pre = |k: u32| prefix[(k as usize) - start];
            let total = pre(r.end);
            // The name's own block: the highest ancestor holding nothing but the name.
            let mut name = i;
            while self.items[name as usize].parent > root
                && self.items[self.items[name as usize].parent as usize].text == it.text
            {
                name = self.items[name as usize].parent;
            }
            // The box: the largest ancestor that opens with the name (a label such as
            // "Follow Sarah" before it at most) and stays a small part of the story.
            // A name inside a paragraph is part of its sentence: no box.
            let mut bx = NONE;
            let mut a = self.items[name as usize].parent;
            while a != NONE && a > root {
                let ai = &self.items[a as usize];
                if ai.flags.has_any(F_PARA) {
                    bx = NONE;
                    break;
                }
                if pre(name) - pre(a) > AUTHOR_LEAD_TEXT
                    || ai.end - a > AUTHOR_BOX_NODES
                    || ai.text > AUTHOR_BOX_TEXT
                    || ai.text as f32 > AUTHOR_BOX_SHARE * r.text as f32
                {
                    break;
                }
                bx = a;
                a = ai.parent;
            }
            // A heading before the name heads a teaser card (a story's title, then its
            // byline and excerpt), not an author box.
            if bx != NONE && (bx..name).any(|k| self.items[k as usize].level > 0) {
                bx = NONE;
            }
            if bx != NONE {
                let b = &self.items[bx as usize];
                let about = b.text - it.text;
                if about >= AUTHOR_BIO_TEXT && b.punct > 0 && 2 * pre(bx) >= total {
                    skip.insert(b.id);
                    i = b.end;
                    continue;
                }
            }
            i = it.end;
        }
    }

    /// A declared article's paragraphs that are one link shouting in capitals ("GET FOX
    /// BUSINESS ON THE GO BY CLICKING HERE", a video's headline) set between its paragraphs:
    /// promotion lines, however many (the promotion lines of `prune` stop at a quarter of the
    /// paragraphs, where a roundup's item heads begin; those are not written in capitals).
    fn drop_shouted_promos(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        if !self.article {
            return;
        }
        let r = &self.items[root as usize];
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            let in_structure = it.flags.has_any(F_CELL)
                || (it.parent != NONE && self.items[it.parent as usize].flags.has_any(F_STRUCT));
            if it.flags & (F_PARA | F_CODE | F_HEADING) == F_PARA
                && !in_structure
                && it.links == 1
                && it.text >= SHOUT_TEXT
                && 10 * it.link >= 9 * it.text
            {
                let node = doc.tree.get(it.id);
                let shouted = node.is_some_and(|n| {
                    let mut upper = 0usize;
                    let mut words = 0usize;
                    for t in visible_texts(n) {
                        if t.chars().any(|c| c.is_lowercase()) {
                            return false;
                        }
                        upper += t.chars().filter(|c| c.is_uppercase()).count();
                        words += t.split_whitespace().count();
                    }
                    upper > 0 && words >= SHOUT_WORDS
                });
                if shouted {
                    skip.insert(it.id);
                }
                i = it.end;
                continue;
            }
            i += 1;
        }
    }

    /// A declared article's closing calls to follow its author or publisher or to subscribe
    /// ("Follow AP on Facebook, X and Instagram", "Get the latest updates in your inbox.
    /// Subscribe to our newsletters."): the last few text blocks still kept, read back from
    /// the end while each is such a call. Earlier in the story the same words are content.
    fn drop_closing_calls(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        if !self.article {
            return;
        }
        let r = &self.items[root as usize];
        // The last `CLOSING_BLOCKS` kept paragraphs and headings, oldest first.
        let mut last: Vec<u32> = Vec::with_capacity(CLOSING_BLOCKS);
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            if it.flags.has_any(F_PARA | F_HEADING) && it.text > 0 {
                if last.len() == CLOSING_BLOCKS {
                    last.remove(0);
                }
                last.push(i);
                i = it.end;
                continue;
            }
            i += 1;
        }
        for &k in last.iter().rev() {
            let it = &self.items[k as usize];
            // A list's item or a table's cell is a point of the story ("Sign up for the
            // bundle with the same email"), not a call under it.
            let in_structure = it.flags.has_any(F_CELL)
                || (it.parent != NONE && self.items[it.parent as usize].flags.has_any(F_STRUCT));
            if it.text > CLOSING_CALL_TEXT || in_structure {
                break;
            }
            match self.short_text(doc, k, " ") {
                Some(text) if is_closing_call(&text) => {
                    skip.insert(it.id);
                }
                _ => break,
            }
        }
    }

    /// Own text before each index of `start..end` (one more entry for `end`), counting only
    /// what `skip` keeps: where a block stands in the text a reader gets, a comment thread
    /// or a dropped rail after it not counted.
    fn kept_text_prefix(&self, start: usize, end: usize, skip: &NodeSet) -> Vec<u32> {
        let mut prefix = Vec::with_capacity(end - start + 1);
        let (mut acc, mut out_until) = (0u32, 0usize);
        for (k, it) in self.items[start..end].iter().enumerate() {
            prefix.push(acc);
            if start + k >= out_until && skip.contains(&it.id) {
                out_until = it.end as usize;
            }
            if start + k >= out_until {
                acc += it.own;
            }
        }
        prefix.push(acc);
        prefix
    }

    /// A product page's shelves of other products ("you may also like", "similar items",
    /// carousels of tiles), when no heading the vocabulary knows labels them: a container
    /// after the page's h1 (the product's name) whose children are mostly small tiles that
    /// each show a price (linked or, on script-driven shops, clickable without a link), and
    /// which holds a minor share of the root. A shop's category grid is the bulk of its page
    /// and has no product name above it; a shelf under one product is a minority of it.
    pub(super) fn drop_price_shelves(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let root_text = r.text as f32;
        // Whether each subtree shows a price: a price-classed element, or own text with a
        // currency sign by a digit (each text node is read once, by its parent).
        let priced = self.subtree_fold(
            root,
            |it| {
                it.flags.has_any(F_PRICE)
                    || (it.flags.has_none(F_INVISIBLE) && own_text_shows_price(doc, it.id))
            },
            |_, a, c| a || c,
        );
        let mut h1 = (0..root)
            .find(|&k| self.items[k as usize].level == 1)
            .unwrap_or(NONE);
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            if it.level == 1 && h1 == NONE {
                h1 = i;
            }
            if h1 == NONE || it.text == 0 || (it.text as f32) > SHELF_SHARE * root_text {
                i += 1;
                continue;
            }
            let (mut cards, mut others) = (0u32, 0u32);
            for c in self.children(i) {
                let ci = &self.items[c as usize];
                if ci.text == 0 {
                    continue;
                }
                if ci.text <= SHELF_CARD && priced[(c - root) as usize] {
                    cards += 1;
                } else {
                    others += 1;
                }
            }
            if cards >= 3 && cards >= 2 * others {
                skip.insert(it.id);
                i = it.end;
                continue;
            }
            i += 1;
        }
    }

    /// A product page's shipping and returns panel ("Shipping & Returns", "Delivery and
    /// returns", "Free shipping over $50"): the shop's terms, the same under every product,
    /// not the product's description (WCXB dev product pages: left out of the ground truth on
    /// most sites that have one). Labels are short headings, `summary`/`button` elements,
    /// disclosure triggers (`aria-expanded`), tabs (`role=tab`) and accordion-classed titles
    /// (`accordion-title`); the label goes with the largest wrapper it opens that holds no
    /// other label (an accordion item, not the accordion), or, when it opens none, with the
    /// siblings after it up to the next one holding a label. A wrapper or run holding a large
    /// share of the root (a page about shipping) stays. Also on priced pages without product
    /// markup (their collections' shipping banners go too).
    pub(super) fn drop_policy_panels(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let max_drop = 0.4 * r.text as f32;
        let (start, end) = (root as usize, r.end as usize);
        let lab: Vec<bool> = (root..r.end)
            .map(|i| {
                let it = &self.items[i as usize];
                // A short line that titles what follows: a long "label" is a panel itself.
                (1..=POLICY_LABEL).contains(&it.text)
                    && (it.level > 0
                        || it.flags.has_any(F_COLLAPSIBLE)
                        || doc
                            .tree
                            .get(it.id)
                            .and_then(|n| n.value().as_element())
                            .is_some_and(|el| {
                                matches!(el.name(), "summary" | "button")
                                    || html_attr(el, "aria-expanded").is_some()
                                    || html_attr(el, "role").is_some_and(|r| r.trim() == "tab")
                            }))
            })
            .collect();
        // Labels per subtree (one backward sweep) and own text before each index (prefix
        // sums), to ask "does this wrapper open with the label and hold no other" in O(1).
        let mut count: Vec<u32> = lab.iter().map(|&l| u32::from(l)).collect();
        for i in (root + 1..r.end).rev() {
            let p = self.items[i as usize].parent;
            if p != NONE && p >= root {
                count[(p - root) as usize] += count[(i - root) as usize];
            }
        }
        let prefix = self.own_text_prefix(start, end);
        let pre = |i: u32| prefix[(i as usize) - start];
        let cnt = |i: u32| count[(i - root) as usize];
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            if !lab[(i - root) as usize] {
                i += 1;
                continue;
            }
            // Each label's text is read once: the sweep then moves past its subtree.
            if !self.is_policy_label(doc, i) {
                i = it.end;
                continue;
            }
            let mut wrapper = NONE;
            let mut a = it.parent;
            while a != NONE && a > root {
                let ai = &self.items[a as usize];
                if pre(i) > pre(a + 1) || cnt(a) > cnt(i) || ai.text as f32 > max_drop {
                    break;
                }
                wrapper = a;
                a = ai.parent;
            }
            if wrapper != NONE {
                skip.insert(self.items[wrapper as usize].id);
                i = self.items[wrapper as usize].end;
                continue;
            }
            // A label in the flow: it and its siblings up to the next one holding a label.
            let pend = if it.parent == NONE {
                r.end
            } else {
                self.items[it.parent as usize].end
            };
            let mut marks = vec![it.id];
            let mut dropped = it.text;
            let mut s = it.end;
            while s < pend && cnt(s) == 0 {
                let si = &self.items[s as usize];
                dropped += si.text;
                marks.push(si.id);
                s = si.end;
            }
            if (dropped as f32) <= max_drop {
                skip.extend(marks);
            }
            i = s;
        }
    }

    /// Placeholders a script fills in ("Loading...", "LOADING"): a block whose whole text is
    /// the word "loading" shows that a widget (shipping estimate, price history, sound sample,
    /// a shelf of recommendations) has not been rendered, which is no content of the page
    /// (WCXB dev: such lines left out of the ground truth on 11 pages of five kinds, kept on
    /// one). Each candidate's text is read once and the sweep moves past it.
    pub(super) fn drop_loading_placeholders(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            // "loading" is seven alphanumeric characters.
            if it.text != 7 || it.flags.has_none(F_BLOCK | F_PARA | F_HEADING) {
                i += 1;
                continue;
            }
            let loading = self.short_text(doc, i, "").is_some_and(|text| {
                text.trim().trim_end_matches(['.', '…']).trim_end() == "loading"
            });
            if loading {
                skip.insert(it.id);
            }
            i = it.end;
        }
    }

    /// Whether a short label names a shop's shipping or returns terms: its first word is
    /// "shipping", "delivery", "returns", "dispatch", or "free" before one of those.
    fn is_policy_label(&self, doc: &Html, i: u32) -> bool {
        let Some(text) = self.short_text(doc, i, " ") else {
            return false;
        };
        let words: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let policy = |w: &str| matches!(w, "shipping" | "delivery" | "returns" | "dispatch");
        match words.as_slice() {
            [] => false,
            w if w.len() > 6 => false,
            [first, rest @ ..] => {
                policy(first) || (*first == "free" && rest.first().is_some_and(|w| policy(w)))
            }
        }
    }

    /// The highest-ranked heading level (1 = h1) in each subtree of `root`, 0 for none;
    /// indexed from `root`. One backward pass: children follow their parents.
    pub(super) fn top_heading_levels(&self, root: u32) -> Vec<u8> {
        self.subtree_fold(
            root,
            |it| it.level,
            |_, a, c| if c != 0 && (a == 0 || c < a) { c } else { a },
        )
    }

    /// The visible text of item `i`, its text nodes joined with `sep`, lower-cased; `None`
    /// past 200 bytes (a label or heading is short, and a long one is not read through).
    pub(super) fn short_text(&self, doc: &Html, i: u32, sep: &str) -> Option<String> {
        let node = doc.tree.get(self.items[i as usize].id)?;
        let mut text = String::new();
        for t in visible_texts(node) {
            text.push_str(t);
            text.push_str(sep);
            if text.len() > SHORT_TEXT_BYTES {
                return None;
            }
        }
        Some(text.to_lowercase())
    }

    fn is_boilerplate_heading(&self, doc: &Html, i: u32) -> bool {
        let Some(text) = self.short_text(doc, i, "") else {
            return false;
        };
        let text = text.trim();
        // The phrase opens the heading ("Related articles", "Sign up for our newsletter") or
        // the heading is a short label around it ("Our newsletter"); a longer heading that
        // merely mentions the word ("What this means for newsletter writers") is content.
        let short = text.split_whitespace().count() <= SHORT_HEADING_WORDS;
        // A phrase that opens the text is in it: a short heading asks for any phrase in it
        // (one automaton scan rather than a substring search per phrase), a long one for a
        // phrase it opens with.
        let listed = if short {
            heading_phrases().map_or_else(
                || BOILERPLATE_HEADINGS.iter().any(|h| text.contains(h)),
                |ac| ac.is_match(text),
            )
        } else {
            BOILERPLATE_HEADINGS.iter().any(|h| text.starts_with(h))
        };
        listed || (self.product && is_shop_shelf_heading(text))
    }

    /// Responsive layouts often ship the same block twice (desktop and mobile variants,
    /// one hidden by a stylesheet we do not apply): keep the first copy of a substantial
    /// leaf block, skip later identical ones.
    pub(super) fn drop_repeated_lines(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let panels = self.panels(root);
        // First copy of each text: its parent, and itself.
        let mut seen: FastMap<u64, (u32, u32)> = fast_map(0);
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) || it.flags.has_any(F_INVISIBLE) {
                i = it.end;
                continue;
            }
            let is_block = it.flags.has_any(F_BLOCK | F_PARA | F_HEADING);
            if is_block && it.text == it.line && it.line >= REPEAT_LINE {
                // Leaf block: its subtree is inline, so hashing it costs its own size.
                let mut h: u64 = 0xcbf29ce484222325;
                if let Some(node) = doc.tree.get(it.id) {
                    for t in visible_texts(node) {
                        for ch in t.chars() {
                            // ASCII first: the same characters, without the Unicode tables.
                            if ch.is_ascii() {
                                if ch.is_ascii_alphanumeric() {
                                    h ^= ch.to_ascii_lowercase() as u64;
                                    h = h.wrapping_mul(0x100000001b3);
                                }
                            } else if super::outline::is_alphanumeric(ch) {
                                for lc in ch.to_lowercase() {
                                    h ^= lc as u64;
                                    h = h.wrapping_mul(0x100000001b3);
                                }
                            }
                        }
                    }
                }
                match seen.get(&h) {
                    Some(&(parent, first))
                        if !self.prose_repeat(parent, i)
                            && !self.sibling_panels(&panels, root, first, i) =>
                    {
                        skip.insert(it.id);
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(h, (it.parent, i));
                    }
                }
                i = it.end;
                continue;
            }
            i += 1;
        }
    }

    /// Whole blocks shipped twice (a slide deck's cloned slides, desktop and mobile copies of
    /// a feature grid): keep the first copy of a block with some text, skip later blocks with
    /// the same text. An element only repeats its own single child's text, so the earlier copy
    /// must have ended before the later one starts.
    pub(super) fn drop_repeated_blocks(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        // Code is exempt: API references repeat the same example object on purpose.
        let code = self.subtree_fold(root, |it| it.flags.has_any(F_CODE), |_, a, c| a || c);
        let panels = self.panels(root);
        // First copy of each text: where it ends, its parent, and itself.
        let mut seen: FastMap<(u64, u32), (u32, u32, u32)> = fast_map(0);
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) || it.flags.has_any(F_INVISIBLE) {
                i = it.end;
                continue;
            }
            if it.flags.has_any(F_BLOCK) && it.text >= REPEAT_BLOCK && !code[(i - root) as usize] {
                let key = (it.text_hash, it.text);
                match seen.get(&key) {
                    // A table's rows repeat on purpose (and a row gone breaks its shape).
                    Some(&(end, parent, first))
                        if i >= end
                            && !is_table_part(doc, it.id)
                            && !self.prose_repeat(parent, i)
                            && !self.sibling_panels(&panels, root, first, i) =>
                    {
                        skip.insert(it.id);
                        i = it.end;
                        continue;
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(key, (it.end, it.parent, i));
                    }
                }
            }
            i += 1;
        }
    }

    /// A block whose class names it hidden on desktops ("hidden-desktop", "hide-on-desktop")
    /// is the phone layout's copy of one the desktop page shows (a wide table's narrow
    /// variants): skipped when nearly every word it says is said elsewhere in what the root
    /// keeps, and whatever it says when its class hides it on phones too. One
    /// that says words nothing else does (a comparison the desktop layout draws as icons) is
    /// the page's only copy of them, and stays. Near copies, not identical ones: a narrow
    /// variant splits or rewords its table (see `drop_repeated_blocks` for exact copies).
    pub(super) fn drop_phone_copies(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let mut marked = Vec::new();
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) || it.text == 0 {
                i = it.end;
                continue;
            }
            let class = if it.flags.has_any(F_CLASSED) {
                doc.tree
                    .get(it.id)
                    .and_then(|n| n.value().as_element())
                    .and_then(|el| html_attr(el, "class"))
            } else {
                None
            };
            if let Some(class) = class.filter(|c| hidden_on_desktops(c)) {
                // Hidden on phones as well, no layout shows it: out whatever it says.
                if hidden_on_phones(class) {
                    skip.insert(it.id);
                } else {
                    marked.push(i);
                }
                i = it.end;
                continue;
            }
            i += 1;
        }
        if marked.is_empty() {
            return;
        }
        let words_of = |i: u32| {
            let mut counts: FastMap<String, i32> = fast_map(0);
            if let Some(node) = doc.tree.get(self.items[i as usize].id) {
                for t in visible_texts(node) {
                    for w in t
                        .split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty())
                    {
                        *counts.entry(w.to_lowercase()).or_insert(0) += 1;
                    }
                }
            }
            counts
        };
        // The words the root keeps outside every marked block: its words less those of the
        // blocks already skipped (a copy that is not kept does not cover) and the marked.
        let mut elsewhere = words_of(root);
        let mut less = |words: &FastMap<String, i32>| {
            for (w, n) in words {
                if let Some(e) = elsewhere.get_mut(w) {
                    *e -= n;
                }
            }
        };
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                less(&words_of(i));
                i = it.end;
                continue;
            }
            i += 1;
        }
        let blocks: Vec<_> = marked.iter().map(|&m| (m, words_of(m))).collect();
        for (_, words) in &blocks {
            less(words);
        }
        for (m, words) in &blocks {
            let total: i32 = words.values().sum();
            // Counted: a word said once elsewhere covers one use of it here.
            let said: i32 = words
                .iter()
                .map(|(w, &n)| n.min(elsewhere.get(w).map_or(0, |&e| e.max(0))))
                .sum();
            if total > 0 && said as f32 >= PHONE_COPY_SAID * total as f32 {
                skip.insert(self.items[*m as usize].id);
            }
        }
    }

    /// The innermost accordion, FAQ or tab panel (`F_COLLAPSIBLE`) around each element of
    /// `root` (itself included; `NONE` outside any), indexed from `root`; empty when `root`
    /// holds none, as on most pages.
    fn panels(&self, root: u32) -> Vec<u32> {
        let end = self.items[root as usize].end;
        let any = (root..end).any(|i| self.items[i as usize].flags.has_any(F_COLLAPSIBLE));
        if !any {
            return Vec::new();
        }
        let mut panels = vec![NONE; (end - root) as usize];
        for i in root..end {
            let it = &self.items[i as usize];
            panels[(i - root) as usize] = if it.flags.has_any(F_COLLAPSIBLE) {
                i
            } else if it.parent != NONE && it.parent >= root && i > root {
                panels[(it.parent - root) as usize]
            } else {
                NONE
            };
        }
        panels
    }

    /// Whether `first` and its copy `i` stand in two sibling panels of one tab set (or
    /// accordion): each panel is a whole variant of the same step (one language's code and the
    /// warning under it, then the next language's), so a line both say is said in each, not
    /// shipped twice.
    fn sibling_panels(&self, panels: &[u32], root: u32, first: u32, i: u32) -> bool {
        let at = |x: u32| panels.get((x - root) as usize).copied().unwrap_or(NONE);
        let (a, b) = (at(first), at(i));
        a != NONE
            && b != NONE
            && a != b
            && self.items[a as usize].parent == self.items[b as usize].parent
    }

    /// A paragraph repeated within one run of prose (the same parent as its first copy: a
    /// chorus, a refrain, a clause a text repeats, a page of identical paragraphs) is the
    /// text's own, kept as often as it stands there. Repetition marks furniture shipped
    /// twice (desktop and mobile variants, cloned slides, teasers), which sits in separate
    /// wrappers.
    fn prose_repeat(&self, first_parent: u32, i: u32) -> bool {
        let it = &self.items[i as usize];
        it.parent == first_parent && it.flags & (F_PARA | F_CELL) == F_PARA
    }
}

/// [`BOILERPLATE_HEADINGS`] as one automaton (built once; `None` if it could not be).
fn heading_phrases() -> Option<&'static aho_corasick::AhoCorasick> {
    static PHRASES: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    PHRASES
        .get_or_init(|| aho_corasick::AhoCorasick::new(BOILERPLATE_HEADINGS).ok())
        .as_ref()
}

/// Headings that open page furniture rather than content.
const BOILERPLATE_HEADINGS: &[&str] = &[
    "related",
    "you may also like",
    "you might also like",
    "you may like",
    "recommended",
    "more from",
    "more stories",
    "more articles",
    "more news",
    "read next",
    "read more",
    "most popular",
    "most read",
    "trending",
    "leave a reply",
    "leave a comment",
    "post a comment",
    "add a comment",
    "share this",
    "share on",
    "follow us",
    "newsletter",
    "subscribe",
    "sign up for",
    "customers also",
    "customers who",
    "people who viewed",
    "people who bought",
    "similar items",
    "similar products",
    "recently viewed",
    "frequently bought",
    "people also",
    "you may also",
    "more like this",
    "complete the look",
    "shop the look",
    "pairs well with",
    "best sellers",
    "bestsellers",
    "sponsored",
    "latest news",
    "latest posts",
    "recent posts",
    "popular posts",
    "about the author",
    "don't miss",
    "editor's picks",
    "also read",
    "see also",
];

/// Headings over a shop page's shelves of other products beside those
/// `BOILERPLATE_HEADINGS` knows: "Others like you also bought", "Guests also viewed",
/// "Get the look", "Ideas based on your recently viewed products", "Explore related items".
/// Only on shop pages (see `Table::is_boilerplate_heading`): elsewhere "based on your" opens
/// a sentence of content. Eight words at most: a label, not a sentence that mentions one.
fn is_shop_shelf_heading(text: &str) -> bool {
    const PHRASES: &[&str] = &[
        "also bought",
        "also viewed",
        "also purchased",
        "get the look",
        "based on your",
        "explore related",
    ];
    text.split_whitespace().count() <= SHELF_HEADING_WORDS
        && PHRASES.iter().any(|p| text.contains(p))
}

/// Whether a block's lower-cased text is a call to follow on a social network ("Follow her
/// on Twitter @...", "follow us on Instagram"), to subscribe or sign up ("Subscribe to STAT+"), to get a newsletter
/// ("... delivered to your inbox. Subscribe to our newsletters") or to share the story.
fn is_closing_call(text: &str) -> bool {
    const NETWORKS: &[&str] = &[
        "facebook",
        "twitter",
        "instagram",
        "tiktok",
        "youtube",
        "linkedin",
        "pinterest",
        "bluesky",
        "mastodon",
    ];
    let opening = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    // A call opens a sentence ("Follow her on Twitter") or names its reader ("and follow us
    // on Instagram"); "asked fishermen to follow the works on Facebook" reports one.
    let called = opening.starts_with("follow ")
        || [
            ". follow ",
            "? follow ",
            "! follow ",
            "follow us",
            "follow me",
        ]
        .iter()
        .any(|p| text.contains(p));
    let follow = called && NETWORKS.iter().any(|n| text.contains(n));
    let subscribe = opening.starts_with("subscribe") || opening.starts_with("sign up");
    // A call to pass the story on ("Like this story? Share it with a friend!", "Share this
    // article"): a sentence that opens with "share" and names the story or a friend.
    let shared = (opening.starts_with("share ")
        || ["? share ", ". share ", "! share "]
            .iter()
            .any(|p| text.contains(p)))
        && ["friend", "this story", "this article", "this post"]
            .iter()
            .any(|p| text.contains(p));
    let newsletter = text.contains("newsletter")
        && (text.contains("subscribe") || text.contains("sign up") || text.contains("inbox"));
    follow || subscribe || newsletter || shared
}

/// Whether an element's own text (its text children, not its descendants') shows a price: a
/// currency sign next to a digit ("$19.99", "€ 25", "19,99 €").
fn own_text_shows_price(doc: &Html, id: NodeId) -> bool {
    let Some(node) = doc.tree.get(id) else {
        return false;
    };
    node.children().any(|c| {
        let Node::Text(t) = c.value() else {
            return false;
        };
        let (mut prev_digit, mut prev_sign) = (false, false);
        for ch in t.chars() {
            let sign = matches!(ch, '$' | '€' | '£' | '¥' | '₹');
            let digit = ch.is_ascii_digit();
            if (sign && prev_digit) || (digit && prev_sign) {
                return true;
            }
            if !ch.is_whitespace() {
                prev_digit = digit;
                prev_sign = sign;
            }
        }
        false
    })
}

/// Share of a phone-layout block's words said elsewhere in the root that makes it a copy
/// (see `Table::drop_phone_copies`).
const PHONE_COPY_SAID: f32 = 0.8;

/// Whether a class string names the element hidden on desktops: a class name with "hide" or
/// "hidden" right before "desktop" ("hidden-desktop", "is-hidden-desktop",
/// "hide-on-desktop"). A name hiding it on phones ("hidden-mobile") is the desktop's copy.
fn hidden_on_desktops(class: &str) -> bool {
    (class.contains("desktop") || class.contains("Desktop")) && hides_on(class, &["desktop"])
}

/// Whether a class string hides the element on phones too ("hidden-mobile" beside
/// "hidden-desktop"): then no layout shows it.
fn hidden_on_phones(class: &str) -> bool {
    hides_on(class, &["mobile", "phone"])
}

/// Whether a class name has "hide" or "hidden" (then "on") right before one of `screens`.
fn hides_on(class: &str, screens: &[&str]) -> bool {
    class.split_ascii_whitespace().any(|name| {
        let mut hiding = false;
        for t in name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|t| !t.is_empty())
        {
            if hiding && screens.iter().any(|s| t.eq_ignore_ascii_case(s)) {
                return true;
            }
            hiding = t.eq_ignore_ascii_case("hide")
                || t.eq_ignore_ascii_case("hidden")
                || (hiding && t.eq_ignore_ascii_case("on"));
        }
        false
    })
}

/// Whether link `id` leads to an author's page: `rel="author"`, or an address with an
/// `author`/`authors` path segment.
fn links_to_author(doc: &Html, id: NodeId) -> bool {
    let Some(el) = doc.tree.get(id).and_then(|n| n.value().as_element()) else {
        return false;
    };
    if html_attr(el, "rel").is_some_and(|r| {
        r.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case("author"))
    }) {
        return true;
    }
    let Some(href) = html_attr(el, "href") else {
        return false;
    };
    let path = href.split(['?', '#']).next().unwrap_or("");
    path.split('/')
        .skip(1)
        .any(|seg| seg.eq_ignore_ascii_case("author") || seg.eq_ignore_ascii_case("authors"))
}
