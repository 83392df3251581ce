//! Pruning inside the chosen root: chrome, comment threads under articles, link-dense
//! blocks that are not a listing's items, teaser lists, and chrome-only blocks; a forum
//! poster's panel keeps the poster's name.

use super::flags::*;
use super::hashing::{fast_map, FastMap};
use super::outline::Table;
use super::{ARTICLE_OWN_BODY, NONE};
use crate::scope::NodeSet;

/// Longest poster name kept out of a poster panel: a longer "username" element holds a
/// profile menu ("View Profile View Forum Posts Private Message ...").
const USERNAME_TEXT: u32 = 40;

/// Longest cell of a data table or list; a longer one is a layout table's column (a
/// sidebar).
const CELL_TEXT: u32 = 600;

/// Plain (unlinked) text an article needs of its own, beside its teaser lists, for them to
/// be dropped (see `Table::teaser_lists`).
const TEASER_BODY: u32 = 1500;

/// A block that is mostly a linked heading is a title, not a menu, when at least this many
/// blocks of its kind repeat in the root (see `Table::prune`).
const TITLED_ITEMS: u32 = 4;

/// A linked card (see `Table::prune`): a heading and at least this much text beside it (a
/// sentence, not a date or a badge), ...
const CARD_BLURB: u32 = 40;

/// ... repeated at least this many times in the root.
const CARD_ITEMS: u32 = 3;

/// Link share of its text past which a paragraph among prose paragraphs is a promotion line,
/// and the link share of their group under which those paragraphs are prose (see
/// `Table::prune`).
const PROMO_LINE_LINK: f32 = 0.8;
const PROSE_GROUP_LINK: f32 = 0.2;
/// ... and the fewest words such a line has (a headline, not a bare address) ...
const PROMO_LINE_WORDS: u32 = 3;
/// ... and the most elements such a line holds ...
const PROMO_LINE_NODES: u32 = 16;
/// ... and the share (one in this many) of its group's paragraphs such lines may be at
/// most: more are the heads of a roundup's items.
const PROMO_LINE_PART: u32 = 4;

/// A list of links after a heading and the paragraph that introduces the section is the
/// section's body when it holds at least this many links (a tutorial's lessons, not a
/// banner's pair of calls to action; see `Table::prune`).
const INTRO_LIST_LINKS: u32 = 3;

/// Text, count, link text and promotion-shaped paragraphs of a group of blocks of one kind
/// (see `Table::prune`).
#[derive(Clone, Copy, Default)]
struct Group {
    text: u32,
    count: u32,
    link: u32,
    promo: u32,
}

/// In fallback mode, a link block named as chrome is skipped when it holds less than
/// 1/`FALLBACK_LINK_CHROME_PART` of the body's text (skip links, share buttons).
const FALLBACK_LINK_CHROME_PART: u32 = 50;

impl Table {
    /// Skip chrome, comment threads under articles, and (unless `listing`) link-dense blocks
    /// inside `root`. Returns the text of the link-dense blocks skipped, and of those kept as
    /// an item's title block (mostly a heading, repeated: see `TITLED_ITEMS`).
    /// On a declared article, blocks inside `root` that are lists of teaser cards for other
    /// pages of the site ("more stories", blog carousels): at least three children each
    /// holding a heading that is mostly a link into the same site, together most of the
    /// block's text, the block under half the root's, and trailing the article. A "best of"
    /// roundup's cards look the same but link out to shops; a docs overview's feature cards
    /// have the page going on after them. Indexed from `root`; linear (two sweeps, prefix
    /// sums, one pass over the candidates).
    fn teaser_lists(&self, root: u32) -> Vec<bool> {
        let r = &self.items[root as usize];
        let n = (r.end - root) as usize;
        // Inside an internal link (a card wrapped in one) ...
        let mut in_internal = vec![false; n];
        for i in root + 1..r.end {
            let it = &self.items[i as usize];
            let k = (i - root) as usize;
            let p = it.parent;
            in_internal[k] = it.flags & (F_LINK | F_INTERNAL) == F_LINK | F_INTERNAL
                || (p != NONE && p > root && in_internal[(p - root) as usize]);
        }
        // ... or holding one.
        let mut has_internal = vec![false; n];
        let mut linked = vec![false; n];
        for i in (root + 1..r.end).rev() {
            let it = &self.items[i as usize];
            let k = (i - root) as usize;
            if it.flags & (F_LINK | F_INTERNAL) == F_LINK | F_INTERNAL {
                has_internal[k] = true;
            }
            if it.flags.has_any(F_HEADING)
                && it.text > 0
                && 2 * it.link > it.text
                && (in_internal[k] || has_internal[k])
            {
                linked[k] = true;
            }
            let p = it.parent;
            if p != NONE && p > root {
                let pk = (p - root) as usize;
                has_internal[pk] |= has_internal[k];
                linked[pk] |= linked[k];
            }
        }
        let mut cards = vec![0u32; n];
        let mut card_text = vec![0u32; n];
        for i in root + 1..r.end {
            let it = &self.items[i as usize];
            let p = it.parent;
            if p == NONE || p <= root || it.flags.has_any(F_HEADING) {
                continue;
            }
            if linked[(i - root) as usize] {
                cards[(p - root) as usize] += 1;
                card_text[(p - root) as usize] += it.text;
            }
        }
        // Own text outside chrome before each index (pre-order prefix sums).
        let mut prefix = Vec::with_capacity(n + 1);
        let mut acc = 0u32;
        let mut chrome_end = 0u32;
        for i in root..r.end {
            let it = &self.items[i as usize];
            if i >= chrome_end && it.flags.has_any(F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN) {
                chrome_end = it.end;
            }
            prefix.push(acc);
            if i >= chrome_end {
                acc += it.own;
            }
        }
        prefix.push(acc);
        let pre = |i: u32| prefix[(i - root) as usize];
        let mut found: Vec<u32> = Vec::new();
        let mut i = root + 1;
        while i < r.end {
            let k = (i - root) as usize;
            let it = &self.items[i as usize];
            if cards[k] >= 3
                && it.flags.has_any(F_BLOCK)
                && 2 * it.text < r.text
                && 10 * card_text[k] >= 6 * it.text
            {
                found.push(i);
                i = it.end;
                continue;
            }
            i += 1;
        }
        // Teasers trail the article: less text after them (other teaser lists aside) than
        // they hold. Cards with the article's sections going on after them are its own.
        let mut out = vec![false; n];
        let mut later = 0u32;
        for &c in found.iter().rev() {
            let it = &self.items[c as usize];
            let own = pre(it.end) - pre(c);
            let after = pre(r.end) - pre(it.end) - later;
            if after < own {
                out[(c - root) as usize] = true;
                later += own;
            }
        }
        // Card lists anywhere in the root count towards "is this a listing".
        let teaser_plain: u32 = found
            .iter()
            .map(|&c| {
                let it = &self.items[c as usize];
                it.good.saturating_sub(it.good_link)
            })
            .sum();
        // An article has a body of its own beside its teasers, at least half their unlinked
        // text; a category or awards page that calls itself an article (WordPress) is cards
        // and little else.
        let own_plain = r
            .good
            .saturating_sub(r.good_link)
            .saturating_sub(teaser_plain);
        if teaser_plain == 0 || own_plain < TEASER_BODY || 2 * own_plain < teaser_plain {
            out.clear();
        }
        out
    }

    pub(super) fn prune(&self, root: u32, skip: &mut NodeSet, listing: bool) -> (u32, u32) {
        let r = &self.items[root as usize];
        let mut link_pruned = 0u32;
        let mut titled_text = 0u32;
        let root_text = r.text.max(1) as f32;
        // Comment threads are the content when nothing else is (forums, Q&A).
        let rest = self.weight(root);
        // ... but not under a declared article with a body of its own (the size `select`
        // already trusts over a long thread): a blog post under hundreds of comments.
        // Nor under an article written in paragraphs (see `Table::article_above_comments`).
        let keep_comments = (rest < 0.35 * (r.text.saturating_sub(r.link) as f32) || rest < 200.0)
            && !(self.article && rest >= ARTICLE_OWN_BODY as f32)
            && !self.article_over_thread;
        // Text per signature: repeated items of one kind (listing cards, posts). Classed
        // elements group across the whole root (cards often sit in wrappers of their own);
        // bare tags only among siblings, or every `div` would be one group.
        // With their link text (a group of prose paragraphs is not a listing's teasers) and
        // how many of them read as promotion lines (see `promo_line` below).
        let mut groups: FastMap<(u32, u64), Group> = fast_map(0);
        // How many tab / accordion panels each parent holds, and whether any of them holds
        // code: a set of panels with code in it (one step of a guide, one panel per language
        // or platform) is kept whole (see the link-dense blocks below). Open panels as
        // (parent, end), innermost last.
        let mut panel_sets: FastMap<u32, (u32, bool)> = fast_map(0);
        let mut open_panels: Vec<(u32, u32)> = Vec::new();
        for i in root + 1..r.end {
            let it = &self.items[i as usize];
            while open_panels.last().is_some_and(|&(_, end)| i >= end) {
                open_panels.pop();
            }
            if it.flags.has_any(F_COLLAPSIBLE) {
                panel_sets.entry(it.parent).or_insert((0, false)).0 += 1;
                open_panels.push((it.parent, it.end));
            } else if it.flags.has_any(F_CODE) {
                if let Some(&(set, _)) = open_panels.last() {
                    if let Some(s) = panel_sets.get_mut(&set) {
                        s.1 = true;
                    }
                }
            }
            // Links too: a card may be one `<a>` around its heading and text.
            if it.flags.has_any(F_BLOCK | F_LINK) {
                let promo = self.article && self.promo_shaped(i);
                let g = groups.entry(self.group_key(i)).or_default();
                g.text += it.text;
                g.count += 1;
                g.link += it.link;
                g.promo += u32::from(promo);
            }
        }
        let teasers = if self.article && !listing {
            self.teaser_lists(root)
        } else {
            Vec::new()
        };
        // Heading text per block (outermost headings): a wrapper that is mostly a heading is
        // an item's title block (`<div class=title><a><h3>`), exempt like the heading itself.
        // Indexed from `root`; children follow their parent, so one reverse sweep sums them.
        let head = self.subtree_fold(
            root,
            |it| {
                if it.flags.has_any(F_HEADING) {
                    it.text
                } else {
                    0
                }
            },
            |parent, acc, child| {
                if parent.flags.has_any(F_HEADING) {
                    acc
                } else {
                    acc + child
                }
            },
        );
        // On a declared article, own text before each index: whether the article goes on
        // after a list (see the headed lists below).
        let own_prefix = if self.article {
            self.own_text_prefix(root as usize, r.end as usize)
        } else {
            Vec::new()
        };
        let goes_on_after = |i: u32| {
            let end = self.items[i as usize].end;
            let pre = |j: u32| own_prefix[(j - root) as usize];
            pre(r.end) - pre(end) >= pre(end) - pre(i)
        };
        let mut cell_end = 0u32;
        let mut list_end = 0u32;
        let mut prev_head = (NONE, NONE);
        // Where the paragraph right after the last heading ends, and its parent (see the
        // headed lists below).
        let mut prev_intro = (NONE, NONE);
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            let f = it.flags;
            let titled = 10 * head[(i - root) as usize] >= 8 * it.text;
            let teaser = !teasers.is_empty() && teasers[(i - root) as usize];
            let chrome = f
                .has_any(F_CHROME_TAG | F_CHROME_CLASS | F_HIDDEN | F_CONTROL | F_REVIEW_DROP)
                || (f.has_any(F_COMMENTS) && !keep_comments)
                || teaser;
            if chrome {
                let poster_only = f.has_none(F_CHROME_TAG | F_HIDDEN | F_CONTROL | F_REVIEW_DROP)
                    && f.has_any(F_POSTER)
                    && !teaser
                    && (f.has_none(F_COMMENTS) || keep_comments);
                if !(poster_only && self.keep_poster_names(i, skip)) {
                    skip.insert(it.id);
                }
                i = it.end;
                continue;
            }
            // Where the last heading seen ends, and its parent: a sibling starting there
            // follows the heading directly.
            if it.level > 0 {
                prev_head = (it.parent, it.end);
            } else if f & (F_PARA | F_CELL | F_CODE) == F_PARA
                && prev_head == (it.parent, i)
                && it.text > 0
                && 2 * it.link < it.text
            {
                prev_intro = (it.parent, it.end);
            }
            // A table cell is kept or dropped with its row (see `F_CELL`).
            if f.has_any(F_CELL) && i >= cell_end && it.text <= CELL_TEXT {
                cell_end = it.end;
            }
            // A card that is one link around a heading and a sentence (teaser grids of
            // landing pages: "Advanced ticketing / Resolve issues faster with ...", each tile
            // clickable) is the page's content, not a menu, when its kind repeats. Not on a
            // declared article, where such cards are "read next" teasers. It counts as a title
            // block for the listing switch. (A card whose block is a wrapper of the link is
            // caught the same way below.)
            let card = |i: u32, links: u32| {
                let it = &self.items[i as usize];
                let h = head[(i - root) as usize];
                !self.article
                    && h > 0
                    && it.text.saturating_sub(h) >= CARD_BLURB
                    && links <= 2
                    && groups
                        .get(&self.group_key(i))
                        .is_some_and(|g| g.count >= CARD_ITEMS)
            };
            if f & (F_LINK | F_BLOCK | F_HEADING) == F_LINK && i >= cell_end && card(i, 1) {
                titled_text += it.text;
                i = it.end;
                continue;
            }
            // Headings are exempt: a linked heading is an item's title, not a menu.
            if f.has_any(F_BLOCK) && f.has_none(F_CODE | F_HEADING) && it.text > 0 && i >= cell_end
            {
                let ld = it.link as f32 / it.text as f32;
                let g = groups.get(&self.group_key(i)).copied().unwrap_or(Group {
                    text: it.text,
                    count: 1,
                    link: it.link,
                    promo: 0,
                });
                let (group, count) = (g.text, g.count);
                let titled = (titled && count >= TITLED_ITEMS) || card(i, it.links);
                // A paragraph that is all link among an article's paragraphs of prose is a
                // "read next" line set into the story ("SEAN SPICER ELIMINATED FROM ...",
                // "Read more: ..."), not one of a listing's teasers, when such lines are few
                // among the paragraphs: where they are many, each heads an item of a roundup
                // ("Dataminr acquires ThreatConnect" and a paragraph on the deal).
                let promo_line = self.article
                    && (g.link as f32) < PROSE_GROUP_LINK * group as f32
                    && g.promo * PROMO_LINE_PART <= count
                    && self.promo_shaped(i);
                let repeated_main = group as f32 > 0.3 * root_text && !promo_line;
                let small = (it.text as f32) < 0.25 * root_text;
                // A list right after its own heading is that section's body: a list of links
                // under "Resources", "Data types", "Changes" is what the section says (link
                // indexes of docs and wikis, a release's changelog). On a declared article only
                // where the article goes on after it, at least as much text again: its
                // trailing headed link lists are teasers ("More stories"), one in the middle
                // is a tutorial's section ("1. Data Preprocessing" and its lessons). Never for a
                // table of contents (links into the page); boilerplate headings ("Related
                // posts") are dropped with their sections later (`drop_boilerplate_sections`).
                // Likewise a list the paragraph before it introduces ("For more information,
                // see:"), with the same exceptions (an article's trailing "Read more:").
                if f.has_any(F_LIST)
                    && i >= list_end
                    && (prev_head == (it.parent, i)
                        || (prev_intro == (it.parent, i) && it.links >= INTRO_LIST_LINKS)
                        || f.has_any(F_INTRODUCED))
                    && (!self.article || goes_on_after(i))
                    && !self.first_link_is_fragment(i)
                {
                    list_end = it.end;
                }
                // Every panel of a tab set with code in it is kept: one language's panel of
                // install links beside another's of prose and code is the same step of a
                // guide (which panel shows is the reader's choice), not a menu.
                if f.has_any(F_COLLAPSIBLE) && i >= list_end {
                    let (count, code) = panel_sets.get(&it.parent).copied().unwrap_or_default();
                    if count >= 2 && code {
                        list_end = it.end;
                    }
                }
                if ld > 0.6 && small && !repeated_main && !listing && i >= list_end {
                    if titled {
                        titled_text += it.text;
                    } else {
                        link_pruned += it.text;
                        skip.insert(it.id);
                    }
                    i = it.end;
                    continue;
                }
            }
            i += 1;
        }
        (link_pruned, titled_text)
    }

    /// Whether the first link under `i` points into the same page (a table of contents).
    /// The scan stops at the first link; a list without any is kept whole, and the lists
    /// inside a kept list are not asked again.
    fn first_link_is_fragment(&self, i: u32) -> bool {
        let end = self.items[i as usize].end;
        (i..end)
            .map(|j| self.items[j as usize].flags)
            .find(|f| f.has_any(F_LINK))
            .is_some_and(|f| f.has_any(F_FRAGMENT))
    }

    /// Drops a poster-detail panel (`F_POSTER`) but for the poster's name: forum threads are
    /// read as "who said what", and the name sits in the same panel as the avatar, rank, join
    /// date and post count (XenForo `message-userDetails > h4.message-name`, phpBB
    /// `postprofile > a.username`). Skips every part of the panel that holds no name element;
    /// returns false (nothing done) when the panel has none. Linear in the panel's size.
    fn keep_poster_names(&self, block: u32, skip: &mut NodeSet) -> bool {
        let end = self.items[block as usize].end;
        let is_name = |j: u32| {
            let it = &self.items[j as usize];
            it.flags.has_any(F_USERNAME)
                && it.flags.has_none(F_CHROME_TAG | F_HIDDEN | F_CONTROL)
                && it.text > 0
                && it.text <= USERNAME_TEXT
        };
        // Outermost name elements, in document order.
        let mut names = Vec::new();
        let mut j = block + 1;
        while j < end {
            if is_name(j) {
                names.push(j);
                j = self.items[j as usize].end;
            } else {
                j += 1;
            }
        }
        if names.is_empty() {
            return false;
        }
        let mut next = 0usize;
        let mut j = block + 1;
        while j < end {
            let it = &self.items[j as usize];
            if next < names.len() && names[next] == j {
                next += 1;
                j = it.end;
            } else if next < names.len() && names[next] < it.end {
                j += 1;
            } else {
                skip.insert(it.id);
                j = it.end;
            }
        }
        true
    }

    /// Own text of the items before each index of `start..end` (pre-order prefix sums, one
    /// more entry for `end`): the text between two items in O(1).
    pub(super) fn own_text_prefix(&self, start: usize, end: usize) -> Vec<u32> {
        let mut prefix = Vec::with_capacity(end - start + 1);
        let mut acc = 0u32;
        for it in &self.items[start..end] {
            prefix.push(acc);
            acc += it.own;
        }
        prefix.push(acc);
        prefix
    }

    /// Whether `i` is shaped like a promotion line: a paragraph nearly all link, of a few
    /// words at least (a bare address, "http://example.com/report.html", one word, is the
    /// story's cited source), and not into the page itself (a table of contents written as
    /// paragraphs). A line is a few elements (a link, its emphasis), which bounds
    /// the word count's walk on nested lists.
    fn promo_shaped(&self, i: u32) -> bool {
        let it = &self.items[i as usize];
        it.flags.has_any(F_PARA)
            && it.text > 0
            && it.end - i <= PROMO_LINE_NODES
            && it.link as f32 > PROMO_LINE_LINK * it.text as f32
            && self.words_in(i) >= PROMO_LINE_WORDS
            && !self.first_link_is_fragment(i)
    }

    /// Words of the subtree of `i` (read only for the few blocks a rule asks about).
    fn words_in(&self, i: u32) -> u32 {
        let end = self.items[i as usize].end;
        self.items[i as usize..end as usize]
            .iter()
            .map(|it| it.own_words)
            .sum()
    }

    fn group_key(&self, i: u32) -> (u32, u64) {
        let it = &self.items[i as usize];
        if it.flags.has_any(F_CLASSED) {
            (NONE, it.sig)
        } else {
            (it.parent, it.sig)
        }
    }

    /// Skip only the unambiguous chrome (fallback mode): by tag, role or hiding, and tiny
    /// link blocks whose class names furniture outright (skip links, share buttons).
    pub(super) fn prune_chrome_only(&self, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let small = r.text / FALLBACK_LINK_CHROME_PART;
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            let named = it.flags.has_any(F_CHROME_CLASS)
                && it.flags.has_none(F_NAVLIKE)
                && it.link * 2 > it.text;
            if it.flags.has_any(F_CHROME_TAG | F_HIDDEN | F_CONTROL) || (named && it.text < small) {
                skip.insert(it.id);
                i = it.end;
                continue;
            }
            i += 1;
        }
    }
}
