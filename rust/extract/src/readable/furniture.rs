//! Page furniture ("chrome": menus, sidebars, footers) in tiers: which marked furniture stays
//! furniture given how much of the page it holds (`Table::decide_chrome`), repeated content
//! items that only look like chrome, product-page reviews, and the text left outside chrome
//! (`Table::accumulate_good`).

use crate::tree::NodeId;
use crate::tree::{Html, Node};

use super::flags::*;
use super::hashing::{fast_map, FastMap};
use super::outline::Table;
use super::root::{GRID_ITEMS, GRID_ITEM_TEXT};
use super::NONE;

/// Repeated items whose class names a furniture token only (see
/// `Table::repeated_items_not_chrome`): at least this many of one signature, ...
const RI_MIN: u32 = 3;

/// ... together this share of the page's text, ...
const RI_SHARE: f32 = 0.1;

/// ... and this much text each on average (a line of their own, not a date or a badge).
const RI_AVG: u32 = 80;

/// Share of the page's text a review block may hold and still be left out of a product page
/// (see `Table::drop_reviews`); a bigger one is the page itself.
const REVIEW_PAGE_SHARE: f32 = 0.5;

/// Chrome tiers (see `Table::decide_chrome`). Link density above which chrome is navigation
/// however big it is.
const NAV_LINK_DENSITY: f32 = 0.5;
/// Text past which a form without a box to write in is a page wrapper or a thread of posts.
const FORM_WRAPPER_TEXT: u32 = 400;
/// Share of the page's text past which any wrapper is content, links or not.
const WRAPPER_SHARE: f32 = 0.8;
/// Share of the page's text past which chrome that reads as prose is content.
const PROSE_SHARE: f32 = 0.5;
/// Most text per sentence punctuation mark for a block to read as prose.
const PROSE_TEXT_PER_PUNCT: u32 = 150;
/// Share of the page's text past which a block that is chrome by class alone, with link
/// density below `CLASSED_LINK_DENSITY`, is content.
const CLASSED_SHARE: f32 = 0.25;
const CLASSED_LINK_DENSITY: f32 = 0.35;
/// A navigation-like-classed box ("dropdown", "menu") of sentences is content: at least this
/// much text, below `NAVLIKE_PROSE_LINK_DENSITY`, and prose by its punctuation.
const NAVLIKE_PROSE_TEXT: u32 = 120;
const NAVLIKE_PROSE_LINK_DENSITY: f32 = 0.25;

impl Table {
    /// On a product page, customer reviews are opinions about the product, not its
    /// description: mark them to be left out, and take back the main-content hint an
    /// `itemprop=reviewBody` inside them carries. A review block holding most of the page is
    /// left alone (a page that *is* a review, whatever its markup says).
    pub(super) fn drop_reviews(&mut self, body: u32) {
        let total = self.items[body as usize].text.max(1) as f32;
        let mut i = body as usize;
        let end = self.items[body as usize].end as usize;
        while i < end {
            let it = &mut self.items[i];
            if it.flags.has_any(F_REVIEW) && (it.text as f32) < REVIEW_PAGE_SHARE * total {
                it.flags |= F_REVIEW_DROP;
                let sub_end = it.end as usize;
                for d in &mut self.items[i..sub_end] {
                    d.flags &= !F_MAIN_HINT;
                }
                i = sub_end;
                continue;
            }
            i += 1;
        }
    }

    /// Drop the chrome mark from elements that hold most of the page's text (a mislabelled
    /// wrapper), and from hidden elements that carry the page's only substantial text.
    pub(super) fn decide_chrome(&mut self, body: u32) {
        // A class name does not outvote a semantic main-content marker: the marker and its
        // ancestors are not chrome by class ("box article modal-enabled" around role=main).
        let n = self.items.len();
        let mut cleared = vec![false; n];
        for i in 0..n {
            if self.items[i].flags.has_none(F_MAIN_HINT) || self.items[i].text == 0 {
                continue;
            }
            let mut a = i as u32;
            while a != NONE && !cleared[a as usize] {
                cleared[a as usize] = true;
                let it = &mut self.items[a as usize];
                it.flags &= !F_CHROME_CLASS;
                if it.flags.has_any(F_FORM) {
                    it.flags &= !F_CHROME_TAG;
                }
                a = it.parent;
            }
        }
        let total = self.items[body as usize].text.max(1) as f32;
        let b = &self.items[body as usize];
        let (start, end) = (body as usize, b.end as usize);
        self.repeated_items_not_chrome(start, end, total);
        for i in start..end {
            let it = &mut self.items[i];
            let chrome = it.flags & (F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN);
            if chrome.is_empty() {
                continue;
            }
            let share = it.text as f32 / total;
            let link_density = it.link as f32 / it.text.max(1) as f32;
            // Navigation stays navigation however big it is; anything else that holds the
            // bulk of the page's prose is content whatever its class says.
            let is_nav_like = link_density > NAV_LINK_DENSITY;
            // A big form is a page wrapper (ASP.NET) or a thread of posts with moderation
            // checkboxes, unless it has a box to write in: a comment, answer or contact form
            // with its instructions and policies is still furniture.
            if it.flags & (F_FORM | F_WRITE) == F_FORM
                && it.text > FORM_WRAPPER_TEXT
                && !is_nav_like
            {
                it.flags &= !F_CHROME_TAG;
            }
            // Nor is a wrapper of (nearly) the whole page chrome, links or not.
            if share > WRAPPER_SHARE {
                it.flags &= !(F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN);
            } else if it.flags.has_any(F_STRONG) {
                // A consent dialog's legal prose is not the page, even when it is half of it.
            } else if it.flags.has_any(F_HIDE_CLASS) && self.product {
                // A product page's block hidden by a "hide"/"hidden" class stays out however
                // big: shop themes park the raw product record there (field dumps, price
                // tiers, image URLs) for their scripts, which a shopper never sees.
            } else if share > PROSE_SHARE
                && !is_nav_like
                && it.punct * PROSE_TEXT_PER_PUNCT >= it.text
            {
                // Half the page, but prose: a lone list of names (cities served, brands) in
                // a footer is still the footer.
                it.flags &= !(F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN);
            } else if share > CLASSED_SHARE
                && link_density < CLASSED_LINK_DENSITY
                && chrome == F_CHROME_CLASS
                && !(self.product && it.flags.has_any(F_SIDEBAR))
            {
                // A class name alone does not make a quarter of the page's prose chrome. Except
                // a sidebar on a product page: a shop's sidebar holds store widgets (review
                // feeds, promotions), which can outweigh a short product description.
                it.flags &= !F_CHROME_CLASS;
            } else if chrome == F_CHROME_CLASS
                && it.flags.has_any(F_NAVLIKE)
                && it.text >= NAVLIKE_PROSE_TEXT
                && link_density < NAVLIKE_PROSE_LINK_DENSITY
                && it.punct * PROSE_TEXT_PER_PUNCT >= it.text
            {
                // A "dropdown"/"menu"-named box of sentences (accordions, FAQ panels).
                it.flags &= !F_CHROME_CLASS;
            }
        }
    }

    /// A furniture token in the class of a block repeated down the page ("meta" on every
    /// search result, "hide-read-more-ad" on every story card) names a detail or a state of
    /// each item, not a box of furniture: the items, each with a line of text of its own and
    /// not mostly links, together a good share of the page, are the page's content.
    /// Furniture is one box (a sidebar, a footer, a share bar), or repeats inside a box that
    /// is itself chrome (menu items, footer columns), which still excludes them; furniture
    /// words ("menu", "sidebar", "userinfo") are not tokens (see `F_TOKEN_NEG`). Classed
    /// blocks group by signature across the page, as in `prune`. Linear: two sweeps and
    /// one pass over the groups.
    fn repeated_items_not_chrome(&mut self, start: usize, end: usize, total: f32) {
        let cand = |f: Flags| {
            f & (F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN | F_STRONG | F_TOKEN_NEG)
                == F_CHROME_CLASS | F_TOKEN_NEG
        };
        let mut groups: FastMap<u64, (u32, u32, u32, u32)> = fast_map(0);
        for it in &self.items[start..end] {
            if cand(it.flags) && it.text > 0 {
                let g = groups.entry(it.sig).or_insert((0, 0, 0, 0));
                g.0 += 1;
                g.1 += it.text;
                g.2 += it.link;
                g.3 = g.3.max(it.text);
            }
        }
        // The same token on the container of such items ("products hide-compare"): a grid
        // of linked tiles, as in `grids_beside`, that holds a good share of the page.
        let mut kids: FastMap<(u32, u64), (u32, u32)> = fast_map(0);
        for it in &self.items[start..end] {
            let p = it.parent;
            if p != NONE && cand(self.items[p as usize].flags) && it.text > 0 && it.links > 0 {
                let g = kids.entry((p, it.sig)).or_insert((0, 0));
                g.0 += 1;
                g.1 += it.text;
            }
        }
        for (&(p, _), &(n, text)) in &kids {
            let c = &mut self.items[p as usize];
            if n >= GRID_ITEMS
                && text as f32 >= RI_SHARE * total
                && 10 * text >= 6 * c.text
                && text >= GRID_ITEM_TEXT * n
            {
                c.flags &= !(F_CHROME_CLASS | F_NAVLIKE);
            }
        }
        for it in &mut self.items[start..end] {
            if !cand(it.flags) {
                continue;
            }
            let Some(&(n, text, link, max)) = groups.get(&it.sig) else {
                continue;
            };
            if n >= RI_MIN
                && text as f32 >= RI_SHARE * total
                && text >= RI_AVG * n
                && 2 * link < text
                && 2 * max <= text
            {
                it.flags &= !(F_CHROME_CLASS | F_NAVLIKE);
            }
        }
    }

    /// The `good` that [`Table::accumulate_good`] with `exclude_comments` would give `root`,
    /// read without writing the table: the own text of every element of its subtree that
    /// neither it nor an ancestor excludes. One forward sweep, where `accumulate_good` makes
    /// two and writes every entry: `select` weighs the page with and without its comments
    /// this way and keeps the table as the choice that follows reads it.
    pub(super) fn good_text(&self, root: u32, exclude_comments: bool) -> u32 {
        let Some(end) = self.items.get(root as usize).map(|it| it.end as usize) else {
            return 0;
        };
        let mut excluded = vec![false; end];
        let mut good = 0u32;
        for (i, it) in self.items[..end].iter().enumerate() {
            let p = it.parent;
            excluded[i] =
                (p != NONE && excluded[p as usize]) || leaves_good(it.flags, exclude_comments);
            if i >= root as usize && !excluded[i] {
                good += it.own;
            }
        }
        good
    }

    /// `good`/`good_link`: subtree text outside chrome (and comment threads if asked).
    pub(super) fn accumulate_good(&mut self, exclude_comments: bool) {
        for it in &mut self.items {
            it.good = 0;
            it.good_link = 0;
            it.wt = 0.0;
        }
        // Own text per element (its text minus its children's), counted by `Table::build`.
        let n = self.items.len();
        // Exclusion propagates downwards; so does the enclosing block, whose line length
        // decides how much its text weighs (long paragraphs are prose, short lines teasers
        // and labels).
        let mut excluded = vec![false; n];
        let mut block = vec![0u32; n];
        for i in 0..n {
            let p = self.items[i].parent;
            let is_block = self.items[i]
                .flags
                .has_any(F_BLOCK | F_PARA | F_HEADING | F_BODY);
            block[i] = if is_block || p == NONE {
                i as u32
            } else {
                block[p as usize]
            };
            let inherited = p != NONE && excluded[p as usize];
            excluded[i] = inherited || leaves_good(self.items[i].flags, exclude_comments);
            if !excluded[i] {
                let (own, own_link) = (self.items[i].own, self.items[i].own_link);
                self.items[i].good = own;
                self.items[i].good_link = own_link;
                let line = self.items[block[i] as usize].line as f32;
                let factor = (line / 150.0).clamp(0.25, 1.0);
                let plain = own.saturating_sub(own_link) as f32;
                self.items[i].wt = (plain + 0.5 * own_link as f32) * factor;
            }
        }
        for i in (1..n).rev() {
            let p = self.items[i].parent;
            if p == NONE {
                continue;
            }
            let (g, gl, w) = (
                self.items[i].good,
                self.items[i].good_link,
                self.items[i].wt,
            );
            let par = &mut self.items[p as usize];
            par.good += g;
            par.good_link += gl;
            par.wt += w;
        }
    }
}

/// Whether an element's text counts for nothing in `good` (nor does its subtree's): chrome,
/// hidden, a control, a review left out, and a comment thread when comments are excluded.
fn leaves_good(f: Flags, exclude_comments: bool) -> bool {
    f.has_any(F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN | F_CONTROL | F_REVIEW_DROP)
        || (exclude_comments && f.has_any(F_COMMENTS))
}

/// Whether the text under `id` opens with an admonition label ("Note:", "Warning", "Tip")
/// the way documentation themes head their callout boxes. Reads at most the first word.
pub(super) fn opens_with_admonition(doc: &Html, id: NodeId) -> bool {
    let Some(node) = doc.tree.get(id) else {
        return false;
    };
    let mut word = String::new();
    for t in visible_texts(node) {
        for c in t.chars() {
            if c.is_alphanumeric() {
                if word.len() > 12 {
                    return false;
                }
                word.extend(c.to_lowercase());
            } else if !word.is_empty() {
                return ADMONITIONS.contains(&word.as_str());
            }
        }
    }
    ADMONITIONS.contains(&word.as_str())
}

/// Labels that head a documentation callout.
const ADMONITIONS: &[&str] = &[
    "note",
    "warning",
    "important",
    "tip",
    "caution",
    "danger",
    "attention",
    "hint",
    "notice",
];

/// The text under `node` a reader sees: not inside `<style>`, `<script>`, `<svg>` and the
/// other never-shown elements (`element_facts::is_invisible_tag`). Their content is stripped before
/// parsing anyway; judging by it would make the choice depend on that stripping (inline
/// CSS-in-JS `<style>` blocks made identical tab bars look different).
pub(super) fn visible_texts(node: crate::tree::NodeRef<'_>) -> impl Iterator<Item = &str> {
    let top = node.id();
    node.descendants().filter_map(move |d| match d.value() {
        Node::Text(t)
            if !d.ancestors().take_while(|a| a.id() != top).any(|a| {
                a.value()
                    .as_element()
                    .is_some_and(|e| crate::element_facts::is_invisible_tag(e.name()))
            }) =>
        {
            Some(t)
        }
        _ => None,
    })
}
