//! Per-block features of the readable selection, for training a block scorer (issue 33).
//!
//! [`blocks`] runs the very selection `select` runs and reads its outline table and scope back
//! as one row per *text block*. Blocks partition the page's visible text without counting any
//! of it twice: every text node belongs to its nearest enclosing element that the outline marks
//! as a block (`F_BLOCK`: p, li, td, headings, div, section, nav, ...) or to `body` (or, for
//! text outside `body`, to the document), and a block's *own* text is the text it holds outside
//! its nested blocks. Blocks with no alphanumeric character of their own are left out. Text the
//! outline never counts (scripts, styles, templates: `F_INVISIBLE`) belongs to no block; text of
//! hidden elements does (their flags say they are hidden), since accordion panels are content.
//!
//! `in_scope` is the rules' verdict: whether the text view of `select`'s scope would walk into
//! the block, i.e. the block lies in the subtree of one of the scope's roots (the whole document
//! when there are none) with no element on the way down, itself included, that the scope skips
//! or the emitters drop (`element_facts::is_dropped`, the outline's `F_DROPPED`). Text the selection adds
//! from JSON-LD (`Scope::supplement`) is no block, and `document`'s fallback to the whole page
//! for a tiny selection (`MIN_MAIN_CONTENT_CHARS`) happens after `select`, so neither shows here.
//!
//! The counts come from the outline table (`Table::build` counts each element's own text,
//! words and punctuation in its one walk), so the block scorer (`scorer`) reads these blocks
//! inside the selection (`blocks_of`, without their text) for the cost of a sweep over the
//! table; only `blocks` walks the tree again, for the blocks' text. Exposed to Python as
//! `webgrip._core.readable_blocks` and `readable_features` for `training/readable.py`,
//! which trains the scorer. [`context_rows`] adds development columns (issue 51) read off the
//! blocks in one sweep: the blocks before and after each, the runs it is part of, and what
//! the rules read of the page's kind (docs generator and pane, archive, shop, discussion).

use crate::element_facts::{flow, Flow};
use crate::scope::NodeSet;
use crate::tree::{Edge, Html, Node};
use crate::Scope;

use super::flags::*;
use super::hashing::fast_map;
use super::outline::Table;
use super::{select_with_table, selectable, Scorer, Selection, NONE};

/// The names of the flag bits in [`Block::flags`] and [`Block::ancestor_flags`], bit k at
/// index k (the `F_*` constants of `flags`).
pub const FLAG_NAMES: [&str; 42] = [
    "invisible",
    "chrome_tag",
    "chrome_class",
    "hidden",
    "comments",
    "link",
    "heading",
    "para",
    "main_hint",
    "positive",
    "code",
    "article",
    "block",
    "header",
    "body",
    "control",
    "struct",
    "dropped",
    "classed",
    "navlike",
    "form",
    "review",
    "review_drop",
    "strong",
    "collapsible",
    "collapsed",
    "caption",
    "internal",
    "role_chrome",
    "write",
    "cell",
    "sidebar",
    "token_neg",
    "hide_class",
    "disclaimer",
    "price",
    "poster",
    "username",
    "list",
    "fragment",
    "live",
    "introduced",
];

// The last flag is the last name: a flag added to `flags` without a name here fails to build.
const _: () = assert!(F_INTRODUCED.bits() == 1 << (FLAG_NAMES.len() - 1));

/// One text block of a page and its features (see the module documentation for what a block
/// is). Text amounts are alphanumeric characters, as everywhere in the outline.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The block's own text, whitespace collapsed (roughly what the text view shows of it).
    pub text: String,
    /// Tag name (`#document` for text outside `body`).
    pub tag: String,
    /// Own text (alphanumeric characters) ...
    pub chars: u32,
    /// ... of which inside links.
    pub link_chars: u32,
    /// Whitespace-separated words of the own text that hold an alphanumeric character, counted
    /// per text node (a word split by an inline element, "bold<b>er</b>", counts twice).
    pub words: u32,
    /// Sentence punctuation in the own text.
    pub punct: u32,
    /// Ancestors in the outline (the document is depth 0).
    pub depth: u32,
    /// The block's flags as the selection left them (bits named by [`FLAG_NAMES`]).
    pub flags: u64,
    /// The OR of its ancestors' flags (inside a nav, a comment thread, a sidebar, ...).
    pub ancestor_flags: u64,
    /// The whole subtree's text, its link text and its number of links.
    pub subtree_chars: u32,
    pub subtree_link_chars: u32,
    pub subtree_links: u32,
    /// Subtree text outside chrome, as the selection last accumulated it.
    pub subtree_good: u32,
    /// The parent's subtree text (0 for the document).
    pub parent_chars: u32,
    /// Heading level 1-6, 0 otherwise.
    pub level: u8,
    /// Siblings (itself included) of the same tag and class signature: listing items, posts.
    pub same_kind_siblings: u32,
    /// Its index among the page's blocks over their number, in [0, 1).
    pub position: f32,
    /// Share of the page's block text before it, in [0, 1). Neither this nor `position` is
    /// a column of the block scorer, which judges a block by what it is, not where it sits
    /// (`scorer::NUMERIC`).
    pub text_before: f32,
    /// Page-level facts `select` read: the page declares an article, is a shop page, or its
    /// comment thread is its content (forum, Q&A).
    pub article: bool,
    pub product: bool,
    pub forum: bool,
    /// What else the page says it is, as the rules read it: the documentation generators it
    /// shows evidence of (`docs_site`'s bit set, 0 for none), whether the block lies in the
    /// generator's pane (`Table::docs_pane`), and the page's blog archive `body` class, shop
    /// declaration and declared discussion. Development features ([`context_rows`]), not
    /// columns of the shipped scorer.
    pub docs_generators: u16,
    pub in_docs_pane: bool,
    pub archive: bool,
    pub declared_product: bool,
    pub discussion: bool,
    /// The rules' verdict: the selection's text view includes the block.
    pub in_scope: bool,
    /// Its index in the selection's outline table (where the block scorer's verdict goes).
    pub(super) item: u32,
    /// The scorer's number for its tag (`scorer::tag_code`; `tag` is left empty on the
    /// scorer's own path).
    pub(super) tag_code: u8,
}

/// A block's own counts, summed from the outline items whose text it owns.
#[derive(Default, Clone, Copy)]
struct Counts {
    chars: u32,
    link_chars: u32,
    words: u32,
    punct: u32,
}

/// An element the walk is inside.
struct Frame {
    /// The block its text belongs to (itself if it is one).
    owner: usize,
    invisible: bool,
}

/// The text blocks of `doc` with their features, in document order (see the module
/// documentation). Empty for a tree past the outline's cap (`selectable`), which gets no
/// selection either.
pub fn blocks(doc: &Html, url: Option<&str>) -> Vec<Block> {
    if !selectable(doc) {
        return Vec::new();
    }
    let Selection {
        scope,
        table,
        forum,
    } = select_with_table(doc, url, Scorer::Rules);
    blocks_of(doc, &table, &scope, forum, true)
}

/// The text blocks of `doc` as the selection's `table` and `scope` left them (see
/// [`blocks`]); what the block scorer reads inside `select`, which needs neither `text` nor
/// `tag` (left empty without `keep_text`: the counts and the tag's number are the same).
pub(super) fn blocks_of(
    doc: &Html,
    table: &Table,
    scope: &Scope,
    forum: bool,
    keep_text: bool,
) -> Vec<Block> {
    let own = own_counts(table);
    let texts = if keep_text {
        match own_texts(doc, table) {
            Some(texts) => Some(texts),
            None => return Vec::new(),
        }
    } else {
        None
    };
    let items = &table.items;
    let emitted = emitted(table, scope);
    let n = items.len();
    // Pre-order: a parent's row is final before its children read it.
    let mut ancestors = vec![Flags::EMPTY; n];
    let mut depth = vec![0u32; n];
    for i in 0..n {
        let p = items[i].parent;
        if p != NONE && (p as usize) < i {
            let p = p as usize;
            ancestors[i] = ancestors[p] | items[p].flags;
            depth[i] = depth[p] + 1;
        }
    }
    // Siblings of one kind are blocks when one of them is (the tag is part of the kind).
    let mut kinds = fast_map::<(u32, u64), u32>(n);
    for it in items.iter().filter(|it| it.flags.has_any(F_BLOCK | F_BODY)) {
        *kinds.entry((it.parent, it.sig)).or_default() += 1;
    }
    let chosen: Vec<usize> = (0..n).filter(|&i| own[i].chars > 0).collect();
    let total: u64 = chosen.iter().map(|&i| u64::from(own[i].chars)).sum();
    let count = chosen.len();
    let mut before = 0u64;
    let pane = match table.docs_pane {
        NONE => None,
        p => items
            .get(p as usize)
            .map(|it| (p as usize, (it.end as usize).max(p as usize + 1))),
    };
    let mut out = Vec::with_capacity(count);
    for (k, &i) in chosen.iter().enumerate() {
        let (it, o) = (&items[i], &own[i]);
        let text = match &texts {
            Some(texts) => texts[i].split_whitespace().collect::<Vec<_>>().join(" "),
            None => String::new(),
        };
        let parent_chars = match it.parent {
            NONE => 0,
            p => items.get(p as usize).map_or(0, |p| p.text),
        };
        out.push(Block {
            tag: if keep_text {
                tag_name(doc, it.id).to_string()
            } else {
                String::new()
            },
            tag_code: it.tag_code,
            chars: o.chars,
            link_chars: o.link_chars,
            words: o.words,
            punct: o.punct,
            depth: depth[i],
            flags: it.flags.bits(),
            ancestor_flags: ancestors[i].bits(),
            subtree_chars: it.text,
            subtree_link_chars: it.link,
            subtree_links: it.links,
            subtree_good: it.good,
            parent_chars,
            level: it.level,
            same_kind_siblings: kinds.get(&(it.parent, it.sig)).copied().unwrap_or(1),
            position: k as f32 / count as f32,
            text_before: if total == 0 {
                0.0
            } else {
                before as f32 / total as f32
            },
            article: table.article,
            product: table.product,
            forum,
            docs_generators: table.docs_generators,
            in_docs_pane: pane.is_some_and(|(p, end)| (p..end).contains(&i)),
            archive: table.archive_body,
            declared_product: table.declared_product,
            discussion: table.discussion,
            in_scope: emitted[i],
            item: i as u32,
            text,
        });
        before += u64::from(o.chars);
    }
    out
}

/// The names of [`context_rows`]' columns: for the block before and the block after
/// (`prev_*`, `next_*`; -1 in `scope` and 0 elsewhere past the page's ends) the rules'
/// verdict, size (log of its characters), link share, tag number, depth relative to the
/// block and whether it is chrome (by tag, class or role, or inside such); then the runs the
/// block is part of (consecutive blocks with its verdict: their number, log, and the block's
/// place in it; consecutive blocks of its tag: their number, log); then what the page says
/// it is (see [`Block::docs_generators`]).
pub const CONTEXT_NAMES: [&str; 21] = [
    "prev_scope",
    "prev_log_chars",
    "prev_link_share",
    "prev_tag",
    "prev_depth",
    "prev_chrome",
    "next_scope",
    "next_log_chars",
    "next_link_share",
    "next_tag",
    "next_depth",
    "next_chrome",
    "scope_run",
    "scope_run_at",
    "tag_run",
    "docs",
    "docs_generators",
    "in_docs_pane",
    "archive",
    "declared_product",
    "discussion",
];

/// Columns of a [`context_rows`] row.
pub const CONTEXT: usize = CONTEXT_NAMES.len();

/// Features of each block's neighbours and of its page's kind, in the order of
/// [`CONTEXT_NAMES`]: development columns (`_core.readable_features(..., context=True)`) that
/// the training script compares with the shipped scorer's own. Linear in the blocks: two
/// sweeps mark the runs, one writes the rows; nothing walks the page again.
pub fn context_rows(blocks: &[Block]) -> Vec<[f32; CONTEXT]> {
    let scope_runs = runs(blocks, |a, b| a.in_scope == b.in_scope);
    let tag_runs = runs(blocks, |a, b| a.tag_code == b.tag_code);
    let chrome = (F_CHROME_TAG | F_CHROME_CLASS | F_ROLE_CHROME | F_SIDEBAR | F_NAVLIKE).bits();
    let side = |b: &Block, n: Option<&Block>| -> [f32; 6] {
        match n {
            None => [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            Some(n) => [
                f32::from(u8::from(n.in_scope)),
                f64::from(n.chars).ln_1p() as f32,
                if n.chars > 0 {
                    (f64::from(n.link_chars) / f64::from(n.chars)) as f32
                } else {
                    0.0
                },
                f32::from(n.tag_code),
                (f64::from(n.depth) - f64::from(b.depth)) as f32,
                f32::from(u8::from((n.flags | n.ancestor_flags) & chrome != 0)),
            ],
        }
    };
    let flag = |v: bool| f32::from(u8::from(v));
    blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let prev = i.checked_sub(1).map(|j| &blocks[j]);
            let next = blocks.get(i + 1);
            let (scope_len, scope_at) = scope_runs[i];
            let (tag_len, _) = tag_runs[i];
            let mut row = [0f32; CONTEXT];
            row[..6].copy_from_slice(&side(b, prev));
            row[6..12].copy_from_slice(&side(b, next));
            row[12..].copy_from_slice(&[
                (scope_len as f64).ln_1p() as f32,
                (scope_at as f64 / scope_len as f64) as f32,
                (tag_len as f64).ln_1p() as f32,
                flag(b.docs_generators != 0),
                f32::from(b.docs_generators),
                flag(b.in_docs_pane),
                flag(b.archive),
                flag(b.declared_product),
                flag(b.discussion),
            ]);
            row
        })
        .collect()
}

/// Per block: the length of the run of consecutive blocks `same` joins it to, and its index
/// in that run.
fn runs(blocks: &[Block], same: impl Fn(&Block, &Block) -> bool) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0); blocks.len()];
    let mut start = 0;
    for i in 0..=blocks.len() {
        if i == blocks.len() || (i > start && !same(&blocks[i - 1], &blocks[i])) {
            for (k, slot) in out[start..i].iter_mut().enumerate() {
                *slot = (i - start, k);
            }
            start = i;
        }
    }
    out
}

/// Per outline item: the counts of the text it owns as a block (zero for an item that is no
/// block). Every item's own (direct) text, as the outline counted it, goes to its nearest
/// block: itself, or its parent's block. Pre-order, so a parent's block is known first.
fn own_counts(table: &Table) -> Vec<Counts> {
    let items = &table.items;
    let mut owner = vec![0usize; items.len()];
    let mut out = vec![Counts::default(); items.len()];
    for (i, it) in items.iter().enumerate() {
        let p = it.parent;
        owner[i] = if it.flags.has_any(F_BLOCK | F_BODY) || p == NONE || p as usize >= i {
            i
        } else {
            owner[p as usize]
        };
        let c = &mut out[owner[i]];
        c.chars += it.own;
        c.link_chars += it.own_link;
        c.words += it.own_words;
        c.punct += it.own_punct;
    }
    out
}

/// The tag name of the outline item `id` (`#document` for the document and template
/// contents).
fn tag_name(doc: &Html, id: crate::tree::NodeId) -> &str {
    match doc.tree.get(id).map(|n| n.value()) {
        Some(Node::Element(el)) => el.name(),
        _ => "#document",
    }
}

/// Each outline item's own block text, for [`blocks`] (the counts come from the outline).
/// The walk is `Table::build`'s (the same pre-order over elements, the document and template
/// fragments), so the k-th element it opens is item k; a mismatch (which would be a bug)
/// answers `None` rather than wrong rows.
fn own_texts(doc: &Html, table: &Table) -> Option<Vec<String>> {
    let items = &table.items;
    let mut own = vec![String::new(); items.len()];
    let mut stack: Vec<Frame> = Vec::new();
    let mut next = 0usize;
    for edge in doc.tree.root().traverse() {
        match edge {
            Edge::Open(node) => {
                let name = match node.value() {
                    Node::Element(el) => Some(el.name()),
                    Node::Document | Node::Fragment => None,
                    Node::Text(text) => {
                        if let Some(top) = stack.last() {
                            if !top.invisible {
                                own[top.owner].push_str(text);
                            }
                        }
                        continue;
                    }
                    _ => continue,
                };
                let idx = next;
                next += 1;
                let it = items.get(idx).filter(|it| it.id == node.id())?;
                let top = stack.last();
                let block = it.flags.has_any(F_BLOCK | F_BODY);
                let frame = Frame {
                    owner: match top {
                        Some(t) if !block => t.owner,
                        _ => idx,
                    },
                    invisible: top.is_some_and(|t| t.invisible) || it.flags.has_any(F_INVISIBLE),
                };
                // A line break or a block boundary separates words the text view shows apart
                // ("one<br>two", "A<div>B</div>C"): the enclosing block's text gets a space.
                if let (Some(t), Some(name)) = (top, name) {
                    if name == "br" || flow(name) != Flow::Inline {
                        own[t.owner].push(' ');
                    }
                }
                stack.push(frame);
            }
            Edge::Close(node) => {
                let name = match node.value() {
                    Node::Element(el) => Some(el.name()),
                    Node::Document | Node::Fragment => None,
                    _ => continue,
                };
                stack.pop();
                if let (Some(t), Some(name)) = (stack.last(), name) {
                    if flow(name) != Flow::Inline {
                        own[t.owner].push(' ');
                    }
                }
            }
        }
    }
    Some(own)
}

/// Per outline item: whether the text view of `scope` walks into it (see the module
/// documentation). One sweep over each root's subtree.
fn emitted(table: &Table, scope: &Scope) -> Vec<bool> {
    let items = &table.items;
    let mut out = vec![false; items.len()];
    let roots: Vec<usize> = if scope.roots.is_empty() {
        if items.is_empty() {
            Vec::new()
        } else {
            vec![0]
        }
    } else {
        let wanted: NodeSet = scope.roots.iter().copied().collect();
        (0..items.len())
            .filter(|&i| wanted.contains(&items[i].id))
            .collect()
    };
    let mut blocked = vec![false; items.len()];
    for r in roots {
        let end = (items[r].end as usize).clamp(r + 1, items.len());
        for i in r..end {
            let it = &items[i];
            let from_above = i != r && {
                let p = it.parent as usize;
                p >= r && p < i && blocked[p]
            };
            blocked[i] = from_above || it.flags.has_any(F_DROPPED) || scope.skips(it.id);
            out[i] |= !blocked[i];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The [`context_rows`] of `html`'s blocks, by block text.
    fn context(html: &str) -> Vec<(String, [f32; CONTEXT])> {
        let doc = crate::document::parse(html);
        let blocks = blocks(&doc, None);
        let rows = context_rows(&blocks);
        assert_eq!(rows.len(), blocks.len());
        blocks.into_iter().map(|b| b.text).zip(rows).collect()
    }

    fn column(name: &str) -> usize {
        CONTEXT_NAMES.iter().position(|n| *n == name).unwrap()
    }

    fn row<'a>(rows: &'a [(String, [f32; CONTEXT])], text: &str) -> &'a [f32; CONTEXT] {
        &rows.iter().find(|(t, _)| t.starts_with(text)).unwrap().1
    }

    const PAGE: &str = "<html><body><nav><a href=/>Home</a> <a href=/b>Blog</a></nav><main>\
        <h1>The title</h1><p>One paragraph of the article, with words enough to count.</p>\
        <p>A second paragraph, and then a third below it.</p><p>The third paragraph ends \
        it.</p></main><footer><a href=/c>Contact us</a></footer></body></html>";

    #[test]
    fn neighbours_are_the_blocks_before_and_after() {
        let rows = context(PAGE);
        let (first, last) = (&rows[0].1, &rows[rows.len() - 1].1);
        // Past the page's ends: no verdict (-1), nothing else.
        assert_eq!(first[column("prev_scope")], -1.0);
        assert_eq!(first[column("prev_log_chars")], 0.0);
        assert_eq!(last[column("next_scope")], -1.0);
        // The title follows the menu: a chrome block of links, out of scope.
        let title = row(&rows, "The title");
        assert_eq!(title[column("prev_scope")], 0.0);
        assert_eq!(title[column("prev_link_share")], 1.0);
        assert_eq!(title[column("prev_chrome")], 1.0);
        assert_eq!(
            title[column("prev_tag")],
            f32::from(super::super::scorer::tag_code("nav"))
        );
        assert_eq!(title[column("next_scope")], 1.0);
        assert_eq!(
            title[column("next_tag")],
            f32::from(super::super::scorer::tag_code("p"))
        );
        assert_eq!(title[column("next_chrome")], 0.0);
        let chars = "Oneparagraphofthearticlewithwordsenoughtocount".len() as f64;
        assert_eq!(title[column("next_log_chars")], chars.ln_1p() as f32);
        // The last paragraph comes before the footer's link.
        let third = row(&rows, "The third");
        assert_eq!(third[column("next_scope")], 0.0);
        assert_eq!(third[column("next_link_share")], 1.0);
    }

    #[test]
    fn a_block_knows_its_runs() {
        let rows = context(PAGE);
        // Title and three paragraphs: one run of kept blocks, of which the second paragraph
        // is the third; the three paragraphs are one run of `p`.
        let second = row(&rows, "A second");
        assert_eq!(second[column("scope_run")], 4f32.ln_1p());
        assert_eq!(second[column("scope_run_at")], 0.5);
        assert_eq!(second[column("tag_run")], 3f32.ln_1p());
        let title = row(&rows, "The title");
        assert_eq!(title[column("scope_run_at")], 0.0);
        assert_eq!(title[column("tag_run")], 1f32.ln_1p());
        assert_eq!(
            runs(&[], |_: &Block, _: &Block| true),
            Vec::<(usize, usize)>::new()
        );
    }

    #[test]
    fn the_page_kind_comes_from_the_rules_evidence() {
        let plain = context(PAGE);
        assert!(plain
            .iter()
            .all(|(_, r)| r[column("docs")..].iter().all(|v| *v == 0.0)));
        // A generator's own mark: the page is a docs page, whatever its address.
        let docs = PAGE.replace(
            "<html>",
            "<html><head><meta name=generator content=\"Docusaurus v3.1\"></head>",
        );
        let rows = context(&docs);
        for (_, r) in &rows {
            assert_eq!(r[column("docs")], 1.0);
            assert!(r[column("docs_generators")] > 0.0);
        }
        // Starlight's pane holds the title and the text; the menu before it lies outside.
        let pane = PAGE
            .replace("<main>", "<main><div class=\"main-pane\">")
            .replace("</main>", "</div></main>");
        let rows = context(&pane);
        assert_eq!(row(&rows, "The title")[column("docs")], 1.0);
        assert_eq!(row(&rows, "The title")[column("in_docs_pane")], 1.0);
        assert_eq!(row(&rows, "Home")[column("in_docs_pane")], 0.0);
        // A blog platform's archive class on `body`.
        let archive = PAGE.replace("<body>", "<body class=\"archive category\">");
        assert_eq!(context(&archive)[0].1[column("archive")], 1.0);
    }
}
