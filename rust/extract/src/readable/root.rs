//! Root choice: from a semantic hint or `body`, descend while one child holds nearly all of
//! the weighted text, widen back where the descent went too far, and add grids and prose
//! beside the root; then prune and fall back to the whole body when the result is too small.

use std::collections::HashSet;

use super::hashing::{fast_map, FastMap};

use crate::tree::NodeId;
use crate::tree::{Html, Node};

use super::flags::*;
use super::outline::Table;
use super::NONE;
use crate::scope::NodeSet;
use crate::Scope;

/// Weight per plain character above which a block reads as running prose (short lines
/// weigh 0.25, see `accumulate_good`).
const PROSE_WT: f32 = 0.8;

/// Share of a node's weight in paragraphs beside its heaviest child that keeps the root from
/// descending into that child (see `Table::descend`).
const LEFT_PARAS: f32 = 0.05;

/// A root keeping less than this share of the page's visible text, ...
const MIN_ROOT_SHARE: f32 = 0.08;
/// ... or less than this much text (or the whole page's, if smaller), is implausibly small
/// (see `Table::choose`), ...
const MIN_ROOT_TEXT: u32 = 30;
/// ... unless it holds at least 1/`TRUSTED_ROOT_PART` of what the fallback would keep.
const TRUSTED_ROOT_PART: u32 = 4;

/// A grid of items beside the root (see `Table::grids_beside`): at least this many children
/// of one signature, ...
pub(super) const GRID_ITEMS: u32 = 4;

/// ... with this much text each on average, ...
pub(super) const GRID_ITEM_TEXT: u32 = 25;
/// ... and together this much text, and this share of what the root keeps.
const GRID_TEXT: u32 = 200;

const GRID_SHARE: f32 = 0.15;

/// Prose beside a grid root (see `Table::prose_beside_grid`): levels above the root searched,
/// ...
const PB_LEVELS: u32 = 8;

/// ... unlinked text a block needs, ...
const PB_TEXT: u32 = 100;

/// ... and its weight per plain character (long lines, not labels).
const PB_PROSE: f32 = 0.25;

/// Text of a title block (an h1 in its banner) taken beside a grid root.
const PB_TITLE_TEXT: u32 = 200;

/// Text a boilerplate-headed section of prose needs to be kept off articles and products
/// (see `Table::prose_section`).
const PROSE_SECTION_TEXT: u32 = 200;

/// ... and this much text per link (a rail of teaser cards has a link every line or two).
const PROSE_SECTION_PER_LINK: u32 = 250;
/// ... and at least this many sentence punctuation marks.
const PROSE_SECTION_PUNCT: u32 = 3;

/// Weight, against the heaviest section's, that its headed siblings of the same kind need
/// for the descent to keep them together (see `Table::descend`).
const SERIES_SHARE: f32 = 0.05;

/// Longest heading text asked whether the page's table of contents lists it (see
/// `Table::listed_headings`): the boilerplate pass reads no longer heading either.
const LISTED_HEADING_TEXT: u32 = 80;

/// Text of the prose paragraphs after an `h1` that make a block before the heavy child the
/// page's title block with its lead, off declared articles (see `Table::descend`).
const TITLE_LEAD_TEXT: u32 = 100;

/// Text of the lead in a block after the one holding the `h1` (see `Table::descend`): a
/// sentence, not a filter's "Display:" label.
const SPLIT_LEAD_TEXT: u32 = 40;

impl Table {
    pub(super) fn choose(&self, doc: &Html, body: u32) -> Scope {
        let start = self
            .docs_start(body)
            .or_else(|| self.semantic_start(body))
            .unwrap_or(body);
        let root = match self.chunked_body(start, body) {
            Some(whole) => whole,
            None => self.descend(start),
        };
        let root = self.widen(root, body);
        let root = self.with_opening_post(root, body);
        let mut skip = NodeSet::default();
        let (link_pruned, titled) = self.prune(root, &mut skip, false);
        // A root whose link-dense blocks outweigh the rest twice over is a listing (unless
        // the page declares itself an article): its teasers are the content, so prune again
        // leaving link density alone (chrome by tag, role and class still goes).
        // Title blocks kept by `prune` count as link-dense here: a listing of linked titles
        // with link-dense details is still a listing.
        let plain = self.kept_text(root, &skip).saturating_sub(titled);
        if !self.article && link_pruned + titled > 2 * plain {
            skip.clear();
            self.prune(root, &mut skip, true);
        }
        // A section the page's own table of contents lists is one of its parts, whatever its
        // heading says ("See also" on a reference page): it stays out of the boilerplate
        // pass, which sees its heading as already decided.
        let listed: Vec<NodeId> = self
            .listed_headings(doc, root)
            .into_iter()
            .filter(|&id| skip.insert(id))
            .collect();
        self.drop_boilerplate_sections(doc, root, &mut skip);
        for id in &listed {
            skip.remove(id);
        }
        if self.declared_product {
            self.drop_price_shelves(doc, root, &mut skip);
        }
        if self.product {
            self.drop_policy_panels(doc, root, &mut skip);
        }
        self.drop_loading_placeholders(doc, root, &mut skip);
        self.drop_edit_links(doc, root, &mut skip);
        self.drop_repeated_lines(doc, root, &mut skip);
        self.drop_repeated_blocks(doc, root, &mut skip);
        self.drop_phone_copies(doc, root, &mut skip);
        let kept = self.kept_text(root, &skip);
        // Compare with what a whole-page view would show (hidden menus and modals excluded),
        // unless the page keeps its text inside a hidden wrapper.
        let raw = self.items[body as usize].text;
        let vis = self.visible_text(body);
        let page = if vis * 4 < raw { raw } else { vis };
        // A comment thread under an article is no part of what the selection should hold:
        // a short story under hundreds of comments is not an implausibly small selection.
        let page = page.saturating_sub(self.comment_text);
        // Implausibly small: a root with almost nothing of a page with real text.
        if (kept as f32) < MIN_ROOT_SHARE * page as f32 || kept < MIN_ROOT_TEXT.min(page) {
            let mut fb_skip = NodeSet::default();
            self.prune_chrome_only(body, &mut fb_skip);
            let fallback = self.kept_text(body, &fb_skip);
            // ... unless the root holds a good share of what the fallback would keep: then the
            // page's bulk is furniture the fallback keeps too (mega-menus, shop footers) and
            // the root is the content. A product page trusts any root with a few lines: its
            // description is small beside the shop around it, and the whole-page view is
            // mostly that shop.
            let trusted = kept >= MIN_ROOT_TEXT.min(page)
                && (TRUSTED_ROOT_PART * kept >= fallback || self.product);
            if !trusted {
                if fallback == 0 {
                    return Scope::whole();
                }
                let roots = self.emit_roots(body, &fb_skip);
                return Scope {
                    roots: self.whole_structures(doc, &roots),
                    skip: fb_skip,
                    supplement: None,
                };
            }
        }
        let mut roots = self.emit_roots(root, &skip);
        if !self.article {
            for g in self.grids_beside(root, body, kept) {
                self.prune(g, &mut skip, true);
                let extra = self.emit_roots(g, &skip);
                roots.extend(extra);
            }
            for c in self.prose_beside_grid(root, start, kept) {
                self.prune(c, &mut skip, false);
                roots.extend(self.emit_roots(c, &skip));
            }
            roots.sort_unstable();
            roots.dedup();
        }
        Scope {
            roots: self.whole_structures(doc, &roots),
            skip,
            supplement: None,
        }
    }

    /// Elements in `from..to` with a link and kept text, grouped by parent and signature:
    /// each group's size and text. The candidate item grids of `grids_beside` and
    /// `prose_beside_grid`.
    fn linked_item_groups(&self, from: u32, to: u32) -> FastMap<(u32, u64), (u32, u32)> {
        let mut kids: FastMap<(u32, u64), (u32, u32)> = fast_map(0);
        for it in &self.items[from as usize..to as usize] {
            if it.good > 0 && it.links > 0 && it.parent != NONE {
                let g = kids.entry((it.parent, it.sig)).or_insert((0, 0));
                g.0 += 1;
                g.1 += it.good;
            }
        }
        kids
    }

    /// Grids of repeated items outside `root` (before it; also after it on archive pages):
    /// containers whose children repeat one signature at least four times, each child with a
    /// link and a line of text, together a good share of what the root keeps. On shop and
    /// listing pages the tiles (linked name, price) weigh little beside a block of prose (a
    /// category blurb), which then wins the root alone.
    fn grids_beside(&self, root: u32, body: u32, kept: u32) -> Vec<u32> {
        let b = &self.items[body as usize];
        let r_end = self.items[root as usize].end;
        let kids = self.linked_item_groups(body + 1, b.end);
        let mut grid: FastMap<u32, u32> = fast_map(0);
        for (&(p, _), &(n, good)) in &kids {
            if n >= GRID_ITEMS && good >= GRID_ITEM_TEXT * n {
                let e = grid.entry(p).or_insert(0);
                *e = (*e).max(good);
            }
        }
        let need = GRID_TEXT.max((GRID_SHARE * kept as f32) as u32);
        // A root that is itself a listing (its own grid of items) already has the page's
        // items: grids elsewhere are recommendations and recently viewed.
        let own_grid = (root..r_end).any(|i| grid.get(&i).is_some_and(|&g| g >= need));
        if own_grid {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut i = body + 1;
        while i < b.end {
            let it = &self.items[i as usize];
            let inside_root = i >= root && i < r_end;
            let holds_root = root > i && root < it.end;
            // After the root too on a blog's archive page, which is a listing by its own
            // account: posts under the category's description are the page, not "related".
            if inside_root {
                if !self.archive_body {
                    break;
                }
                i = r_end;
                continue;
            }
            if !holds_root {
                if let Some(&g) = grid.get(&i) {
                    if g >= need && 10 * g >= 6 * it.good {
                        out.push(i);
                        i = it.end;
                        continue;
                    }
                }
            }
            i += 1;
        }
        out
    }

    /// Collection pages whose root is the product grid itself: blocks of prose beside it
    /// (a category blurb above the tiles, buying advice and FAQ under them) are the
    /// category's own text, which the descent into the heavy grid leaves behind. Siblings of
    /// the root and of its ancestors (up to `PB_LEVELS` levels, not above `start`) that hold
    /// sentences in long lines and few links join the selection, and so does a small block
    /// before the grid holding the page's h1 (the category title in its banner). Linear:
    /// each level looks at one node's children; the grid test is one sweep over the root,
    /// the heading ranks one backward sweep over `start`.
    fn prose_beside_grid(&self, root: u32, start: u32, kept: u32) -> Vec<u32> {
        if !self.product {
            return Vec::new();
        }
        let r_end = self.items[root as usize].end;
        let kids = self.linked_item_groups(root + 1, r_end);
        let need = GRID_TEXT.max((GRID_SHARE * kept as f32) as u32);
        let own_grid = kids
            .values()
            .any(|&(n, good)| n >= GRID_ITEMS && good >= GRID_ITEM_TEXT * n && good >= need);
        if !own_grid {
            return Vec::new();
        }
        let heads = self.top_heading_levels(start);
        let mut out = Vec::new();
        let mut node = root;
        for _ in 0..PB_LEVELS {
            if node == start {
                break;
            }
            let p = self.items[node as usize].parent;
            if p == NONE {
                break;
            }
            for c in self.children(p) {
                if c == node {
                    continue;
                }
                let it = &self.items[c as usize];
                let plain = it.good.saturating_sub(it.good_link);
                // The category's title: a small block before the grid that holds an h1
                // (a banner wrapper around it), mostly unlinked.
                // `widen` may have lifted the root above `start`, so a block before `start`
                // has no rank here (c - start overflowed: found by the html fuzz target).
                let top = c
                    .checked_sub(start)
                    .and_then(|i| heads.get(i as usize))
                    .copied()
                    .unwrap_or(0);
                if c < node
                    && top == 1
                    && it.good > 0
                    && it.good <= PB_TITLE_TEXT
                    && 2 * it.good_link < it.good
                {
                    out.push(c);
                    continue;
                }
                if plain >= PB_TEXT
                    && 3 * it.good_link < it.good
                    && it.punct >= 2
                    && self.weight(c) >= PB_PROSE * plain as f32
                {
                    out.push(c);
                }
            }
            node = p;
        }
        out
    }

    /// The headings inside `root` that an in-page link outside them names (`href="#see_also"`
    /// for `<h2 id="see_also">`, or for an element with that id inside the heading, as
    /// MediaWiki writes `<span class="mw-headline" id="See_also">`): the page's table of
    /// contents lists them as its own sections. A heading's own permalink does not count.
    /// Only headings short enough to be a boilerplate label are asked; the links are read
    /// only when such a heading has an id, so most pages pay one pass over the root.
    fn listed_headings(&self, doc: &Html, root: u32) -> Vec<NodeId> {
        if self.article {
            return Vec::new();
        }
        let end = self.items[root as usize].end;
        let id_of = |j: u32| {
            doc.tree
                .get(self.items[j as usize].id)
                .and_then(|n| n.value().as_element())
                .and_then(|el| el.attr("id"))
                .filter(|v| !v.is_empty())
        };
        // (heading, its subtree's end, the id naming it).
        let mut named: Vec<(u32, u32, &str)> = Vec::new();
        let mut i = root + 1;
        while i < end {
            let it = &self.items[i as usize];
            if it.level == 0 || it.text > LISTED_HEADING_TEXT {
                i += 1;
                continue;
            }
            for j in i..it.end {
                if let Some(v) = id_of(j) {
                    named.push((i, it.end, v));
                }
            }
            i = it.end;
        }
        if named.is_empty() {
            return Vec::new();
        }
        let mut listed: Vec<NodeId> = Vec::new();
        for (k, it) in self.items.iter().enumerate() {
            if !it.flags.has_any(F_FRAGMENT) {
                continue;
            }
            let k = k as u32;
            let Some(target) = doc
                .tree
                .get(it.id)
                .and_then(|n| n.value().as_element())
                .and_then(|el| el.attr("href"))
                .and_then(|h| h.trim().strip_prefix('#'))
            else {
                continue;
            };
            for &(h, h_end, v) in &named {
                let outside = k < h || k >= h_end;
                let id = self.items[h as usize].id;
                if outside && v == target && !listed.contains(&id) {
                    listed.push(id);
                }
            }
        }
        listed
    }

    /// A section under a boilerplate heading ("Related advice", "Read more") is kept on a
    /// page that declares itself neither an article nor a product when it is prose, not
    /// teasers: mostly unlinked text with sentences and few links. Shop category pages put
    /// their buying guides there (accordions of advice under "Related articles"); the
    /// heading rule is for link rails (recently viewed, more stories), which have a link
    /// every line or two. `idx` are the section's top-level elements (their subtree counts
    /// are summed, no rescans).
    pub(super) fn prose_section(&self, idx: &[u32]) -> bool {
        if self.article || self.declared_product {
            return false;
        }
        let (mut text, mut link, mut links, mut punct) = (0u32, 0u32, 0u32, 0u32);
        for &i in idx {
            let it = &self.items[i as usize];
            text += it.text;
            link += it.link;
            links += it.links;
            punct += it.punct;
        }
        text >= PROSE_SECTION_TEXT
            && 3 * link < text
            && punct >= PROSE_SECTION_PUNCT
            && links * PROSE_SECTION_PER_LINK <= text
    }

    /// Roots as node ids, each lifted out of table and list internals: a cell, row or list
    /// item emitted on its own loses its table or list structure (and a wide table would
    /// become one block per cell). Duplicates after lifting are merged, order kept.
    fn whole_structures(&self, doc: &Html, roots: &[u32]) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::with_capacity(roots.len());
        let mut seen = NodeSet::default();
        let mut last_lifted: Option<u32> = None;
        for &r in roots {
            let mut node = r;
            loop {
                let p = self.items[node as usize].parent;
                if p == NONE || !is_structure_part(doc, self.items[node as usize].id) {
                    break;
                }
                node = p;
            }
            // A root inside an already-emitted lifted root is covered by it.
            if let Some(l) = last_lifted {
                if node > l && node < self.items[l as usize].end {
                    continue;
                }
            }
            if node != r {
                last_lifted = Some(node);
            }
            let id = self.items[node as usize].id;
            if seen.insert(id) {
                out.push(id);
            }
        }
        out
    }

    /// The emitters drop hidden elements (and `noscript`) wherever they are. When the
    /// selection's text lives inside such a wrapper, hand them the wrapper's visible
    /// descendants as roots instead, so the content survives.
    fn emit_roots(&self, root: u32, skip: &NodeSet) -> Vec<u32> {
        let r = &self.items[root as usize];
        let floor = (r.text / 5).max(1);
        // Mark every ancestor (within root) of a big dropped element; the walk up stops at
        // the first already-marked node, so this is linear.
        let mut covers = vec![false; (r.end - root) as usize];
        let mut any = false;
        for i in root..r.end {
            let it = &self.items[i as usize];
            let big = it.text >= floor || it.flags.has_any(F_COLLAPSED);
            if it.flags.has_none(F_DROPPED) || !big || skip.contains(&it.id) {
                continue;
            }
            any = true;
            let mut a = i;
            while a >= root && a != NONE {
                let k = (a - root) as usize;
                if covers[k] {
                    break;
                }
                covers[k] = true;
                if a == root {
                    break;
                }
                a = self.items[a as usize].parent;
            }
        }
        if !any {
            return vec![root];
        }
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(x) = stack.pop() {
            let it = &self.items[x as usize];
            if skip.contains(&it.id) || it.flags.has_any(F_INVISIBLE) {
                continue;
            }
            if covers[(x - root) as usize] {
                let kids: Vec<u32> = self.children(x).collect();
                stack.extend(kids.into_iter().rev());
            } else {
                out.push(x);
            }
        }
        if out.is_empty() {
            out.push(root);
        }
        out
    }

    /// The pane of the page's documentation generator (its title panel and text), when it
    /// holds a good share of the page's weighted text (see `Table::mark_docs_furniture`).
    fn docs_start(&self, body: u32) -> Option<u32> {
        let c = self.docs_pane;
        let b = &self.items[body as usize];
        let inside = c != NONE && c >= body && c < b.end;
        (inside && self.weight(c) >= 0.4 * self.weight(body).max(1.0)).then_some(c)
    }

    /// A semantic element that holds a good share of the page's weighted text.
    fn semantic_start(&self, body: u32) -> Option<u32> {
        let total = self.weight(body).max(1.0);
        let b = &self.items[body as usize];
        let mut best: Option<(u32, f32)> = None;
        let mut articles = 0usize;
        for i in body..b.end {
            let it = &self.items[i as usize];
            if it.flags.has_any(F_ARTICLE) && self.weight(i) > 0.1 * total {
                articles += 1;
            }
        }
        for i in body..b.end {
            let it = &self.items[i as usize];
            let hint =
                it.flags.has_any(F_MAIN_HINT) || (it.flags.has_any(F_ARTICLE) && articles == 1);
            if !hint {
                continue;
            }
            let w = self.weight(i);
            if w < 0.4 * total {
                continue;
            }
            // Prefer the innermost qualifying hint (nested hints come later in pre-order);
            // between unrelated ones, the heavier.
            best = match best {
                Some((b, bw)) if i >= self.items[b as usize].end && bw >= w => Some((b, bw)),
                _ => Some((i, w)),
            };
        }
        best.map(|(i, _)| i)
    }

    /// An article body split into chunks (ads between them): other main-content hints of the
    /// chosen one's kind, outside it, that carry real text. Their common ancestor with it is
    /// the body, to be taken whole. Linear: each walk up stops at the first node already seen.
    fn chunked_body(&self, start: u32, body: u32) -> Option<u32> {
        let s = &self.items[start as usize];
        if s.flags.has_none(F_MAIN_HINT) {
            return None;
        }
        let total = self.weight(body).max(1.0);
        let b = &self.items[body as usize];
        let mut seen: HashSet<u32> = HashSet::new();
        let mut a = start;
        while a != NONE && a >= body {
            seen.insert(a);
            a = self.items[a as usize].parent;
        }
        let mut lca = NONE;
        let mut i = body;
        while i < b.end {
            let it = &self.items[i as usize];
            let inside = i >= start && i < s.end;
            if inside || it.flags.has_none(F_MAIN_HINT) || it.sig != s.sig {
                i += 1;
                continue;
            }
            if self.weight(i) < 0.05 * total {
                i = it.end;
                continue;
            }
            let mut a = i;
            while a != NONE && !seen.contains(&a) {
                seen.insert(a);
                a = self.items[a as usize].parent;
            }
            // Ancestors come first in pre-order: the shallowest meeting point is the lowest
            // index among the start's ancestors reached.
            if a != NONE
                && self.items[a as usize].end >= s.end
                && a <= start
                && (lca == NONE || a < lca)
            {
                lca = a;
            }
            i = it.end;
        }
        (lca != NONE && lca >= body).then_some(lca)
    }

    /// Walk down while one child holds nearly all of the weighted text.
    fn descend(&self, start: u32) -> u32 {
        let mut node = start;
        // Which subtrees hold a heading (one backward pass; not needed on articles).
        let heads = if self.article {
            Vec::new()
        } else {
            self.top_heading_levels(start)
        };
        let headed = |i: u32| heads.get((i - start) as usize).is_some_and(|&l| l != 0);
        loop {
            let total = self.weight(node);
            // A documentation generator's pane is the content, title panel and all.
            if total <= 0.0 || node == self.docs_pane {
                return node;
            }
            let mut best = NONE;
            let mut best_w = 0.0f32;
            for c in self.children(node) {
                let w = self.weight(c);
                if w > best_w {
                    best_w = w;
                    best = c;
                }
            }
            // The root is a container: descending into one paragraph would drop its
            // siblings, however short.
            if best == NONE || self.items[best as usize].flags.has_any(F_PARA | F_HEADING) {
                return node;
            }
            // A child of running prose (its weight close to its plain text: long lines) is
            // an article body and may leave more behind than a child of short lines (specs,
            // feature blurbs), whose siblings are usually more of the same.
            let b = &self.items[best as usize];
            let plain = b.good.saturating_sub(b.good_link) as f32;
            let prose = best_w >= PROSE_WT * plain;
            let share = if prose { 0.72 } else { self.descend_share };
            // Paragraphs standing beside the heavy child are the article's own text (an
            // intro before a steps list, a body split around a wrapped block of the editor):
            // descending would drop them, however heavy the child. On a declared article, so
            // is a lead written as a block of its own before it (`lead_block`).
            let left: f32 = self
                .children(node)
                .filter(|&c| {
                    c != best
                        && (self.items[c as usize].flags.has_any(F_PARA)
                            || (self.article && c < best && self.lead_block(c)))
                })
                .map(|c| self.weight(c))
                .sum();
            if best_w < share * total || left >= LEFT_PARAS * total {
                return node;
            }
            // The page's title block standing before the heavy child, its `h1` followed by
            // the lead (an intro paragraph, the prerequisites: a docs page's header block
            // before the block of its sections), is the text's opening: stay above when the
            // block weighs like paragraphs beside the child would, or, off declared articles
            // (whose headers carry standfirsts and bylines the body repeats), when its lead
            // is a real paragraph. Not on shop pages, where the `h1` heads the buy box.
            if !self.product {
                // The `h1` may stand in a block of its own with the lead in a later block (a
                // docs page's title row, then its lead paragraph): the first later block that
                // is not links counts when it is mostly one real sentence or more of prose.
                let mut titled = false;
                let mut title = None;
                for c in self.children(node).take_while(|&c| c < best) {
                    let text = self.items[c as usize].text;
                    if text == 0 {
                        continue;
                    }
                    let (h1, lead) = self.title_lead(c, titled);
                    if lead > 0 && (h1 > 0 || (lead >= SPLIT_LEAD_TEXT && 2 * lead >= text)) {
                        title = Some((c, lead));
                        break;
                    }
                    // Links between (breadcrumbs) leave the title waiting for its lead;
                    // anything else (a filter bar, a reviews pane) is not the lead.
                    titled = h1 > 0 || (titled && 2 * self.items[c as usize].link >= text);
                }
                if let Some((c, lead)) = title {
                    // A bare paragraph is already counted among those beside the child.
                    let own = if self.items[c as usize].flags.has_any(F_PARA) {
                        0.0
                    } else {
                        self.weight(c)
                    };
                    if (!self.article && lead >= TITLE_LEAD_TEXT)
                        || left + own >= LEFT_PARAS * total
                    {
                        return node;
                    }
                }
            }
            // The page's title standing just before the heavy child, with nothing else
            // beside them, in a block that says it is an article (`<div role="article">
            // <h1>…</h1><article>…`), is that text's title.
            if self.items[node as usize].flags.has_any(F_ARTICLE) && self.titles(node, best) {
                return node;
            }
            // A landing page (not a declared article) spreads its content over sibling
            // sections of one kind, each under its own heading ("Benefits", "Use cases",
            // "Get started"): the longest holding most of the text does not make the others
            // furniture. Stay above when another headed sibling of the same tag and class
            // carries a little of the text too.
            if !self.article && headed(best) {
                let series: f32 = self
                    .children(node)
                    .filter(|&c| c != best && self.items[c as usize].sig == b.sig && headed(c))
                    .map(|c| self.weight(c))
                    .sum();
                if series > 0.0 && series >= SERIES_SHARE * best_w {
                    return node;
                }
            }
            node = best;
        }
    }

    /// Whether block `c` reads as a paragraph written as a `div` (a story's lead sentence in
    /// a summary block of its own before the block of its paragraphs): a block that is no
    /// list, table, heading or code, holds no nested block with text, is mostly plain text
    /// and has sentence punctuation. On a declared article, such a block before the heavy
    /// child is the story's own text, as a paragraph beside it is (see `Table::descend`).
    fn lead_block(&self, c: u32) -> bool {
        let it = &self.items[c as usize];
        it.flags & (F_BLOCK | F_STRUCT | F_HEADING | F_CODE) == F_BLOCK
            && it.text > 0
            && it.line == it.text
            && 2 * it.link < it.text
            && it.punct > 0
    }

    /// The text of the prose paragraphs (plain, punctuated, not cells or code) that follow an
    /// `h1` in block `c`, or from its start when `titled` (the `h1` stood in an earlier
    /// sibling): a page's lead under its title; 0 when no `h1` comes first. Also the text of
    /// the first `h1` in `c` (at least 1; 0 when it holds none). Reads `c`'s subtree once; the descent calls it on the children
    /// before the heavy one, which it leaves behind, so no subtree is read twice.
    fn title_lead(&self, c: u32, titled: bool) -> (u32, u32) {
        let end = self.items[c as usize].end;
        let mut titled = titled;
        let mut h1 = 0;
        let mut lead = 0;
        let mut i = c;
        while i < end {
            let it = &self.items[i as usize];
            if it.level == 1 {
                if h1 == 0 {
                    h1 = it.text.max(1);
                }
                titled = true;
            } else if titled
                && it.flags & (F_PARA | F_CELL | F_CODE) == F_PARA
                && it.punct > 0
                && 2 * it.link < it.text
            {
                lead += it.text;
                i = it.end;
                continue;
            }
            i += 1;
        }
        (h1, lead)
    }

    /// Whether `node`'s children are an `h1` and then `best`, and nothing else with text.
    fn titles(&self, node: u32, best: u32) -> bool {
        let mut title = false;
        for c in self.children(node) {
            let it = &self.items[c as usize];
            if c == best {
                return title;
            }
            if it.level == 1 && !title {
                title = true;
            } else if it.text > 0 {
                return false;
            }
        }
        false
    }

    /// If the root is a lone item among repeated siblings that carry comparable text (a
    /// post among posts), step up to include them all.
    fn widen(&self, root: u32, body: u32) -> u32 {
        let mut node = root;
        'up: while node != body {
            // The post's text often sits a few wrappers below the repeated element (post
            // body in a content box in a post row beside the poster's panel): look at the
            // node and up to four of its ancestors. Above the node itself, a run of at least
            // two more of a kind is needed (a main column beside one sidebar column of the
            // same class is not a series), and not on a declared article (generated CSS
            // classes repeat on an article's body and its reference list).
            let mut a = node;
            for depth in 0..5 {
                if a == body {
                    break;
                }
                let it = &self.items[a as usize];
                let p = it.parent;
                if p == NONE {
                    break;
                }
                let mut same = 0.0f32;
                let mut count = 0u32;
                for c in self.children(p) {
                    if c != a && self.items[c as usize].sig == it.sig {
                        same += self.weight(c);
                        count += 1;
                    }
                }
                if same > 0.3 * self.weight(a) && (depth == 0 || (count >= 2 && !self.article)) {
                    node = p;
                    continue 'up;
                }
                a = p;
            }
            break;
        }
        node
    }
}

/// A row, cell or row group of a table.
pub(super) fn is_table_part(doc: &Html, id: NodeId) -> bool {
    doc.tree
        .get(id)
        .and_then(|n| n.value().as_element())
        .is_some_and(|el| matches!(el.name(), "td" | "th" | "tr" | "tbody" | "thead" | "tfoot"))
}

/// Elements that only make sense inside their table or list.
fn is_structure_part(doc: &Html, id: NodeId) -> bool {
    let Some(node) = doc.tree.get(id) else {
        return false;
    };
    match node.value() {
        Node::Element(el) => matches!(
            el.name(),
            "td" | "th"
                | "tr"
                | "tbody"
                | "thead"
                | "tfoot"
                | "caption"
                | "colgroup"
                | "col"
                | "li"
                | "dt"
                | "dd"
        ),
        _ => false,
    }
}
