//! Main-content selection ("readable mode").
//!
//! One pass over the parsed tree builds a flat, pre-order table of elements with their
//! subtree text statistics; every later step works on that table with index ranges, so
//! nothing recurses (100k nested elements must not overflow the stack) and every step is
//! linear in the number of nodes.
//!
//! The selection works in four steps:
//! 1. *Chrome*: elements that are page furniture by their tag, ARIA role or class/id
//!    (navigation, headers, footers, sidebars, cookie banners, share bars, related posts,
//!    newsletter boxes, pagination, filter panels, ...) are marked, unless they hold most
//!    of the page's readable text (a wrapper called `page-with-sidebar` is not a sidebar).
//! 2. *Root*: starting from a semantic hint (`main`, `[role=main]`, a dominant `article`,
//!    `itemprop=articleBody`) or from `body`, descend while one child holds nearly all of
//!    the remaining weighted text. Link text weighs little, so link farms do not attract
//!    the descent, while repeated items of a listing keep their common container. On a
//!    page that is not an article, a grid of linked tiles before a root of prose (a shop
//!    category's products above its blurb) joins the selection.
//! 3. *Pruning* inside the root: chrome (a forum poster's panel keeps the poster's name),
//!    link-dense blocks that are not part of a repeated item group nor a list under its own
//!    heading (on a declared article, only where the article goes on after it) nor a panel of
//!    a tab set with code in it, trailing "related"/"comments" sections, an article's
//!    all-link "read next" lines set between its paragraphs, its closing calls to follow
//!    or subscribe and its author box after the story, and later copies of a block shipped
//!    twice; comment threads are kept when they are what the page is about (forums, Q&A).
//! 4. *Safety*: if the selection is implausibly small for the page (and beside what the
//!    fallback itself would keep), fall back to the whole body minus chrome; JSON-LD
//!    `articleBody`/`description` becomes the `supplement` when the visible selection is thin
//!    and does not already contain it.
//!
//! What the page says it is steers a few of these steps: a product page (a shop platform's
//! product body class, `og:type`, Product JSON-LD, offer microdata, or prices on a page that
//! is not an article) leaves its customer reviews out, and a declared one trusts a small root
//! over the fallback; a page that is not a declared article descends less readily into one
//! block of short lines (shops and landing pages spread content over sibling blocks), nor
//! into one of several headed sections of a kind, and,
//! when link-dense blocks dominate the root, keeps them as a listing's teasers. Collapsed
//! accordion, FAQ and tab panels are content, hidden or not.
//!
//! Where each step lives: `outline` builds the table, `classify` (with the class/id
//! vocabularies of `words`) sets each element's `flags`, `page_kind` reads what the page says
//! it is, `docs_site` recognises a documentation generator from the page's markup and marks
//! its furniture and content container, `story_lists` finds a declared article's lists of
//! the site's stories that link to the page itself, `furniture` decides which marked page furniture
//! (chrome) stays furniture, `root` chooses the root and the fallback, `prune`,
//! `boilerplate` and `edit_links` drop what does not belong inside it, `comments` tells an
//! article over its comment thread from a forum's opening post, `unclassed_comments` finds
//! comment threads that carry no comment class, and `supplement` adds JSON-LD text (read by
//! `crate::jsonld`). `features` reads the finished table and scope back as one row of
//! features per text block, and `scorer` (the default `Scorer::Model`; `readable_model=False`
//! turns it off) scores the in-scope ones with a learned model and takes out those it judges
//! boilerplate.

mod attrs;
mod boilerplate;
mod classify;
mod comments;
mod docs_site;
mod edit_links;
mod features;
mod flags;
mod furniture;
mod hashing;
mod outline;
mod page_kind;
mod prune;
mod root;
mod scorer;
mod story_lists;
mod supplement;
#[cfg(test)]
mod tests;
mod unclassed_comments;
mod vocab;
mod words;

use std::borrow::Cow;

use crate::streamed::Placed;
use crate::tree::{Html, Kind};

use crate::Scope;
pub use features::{blocks, context_rows, Block, CONTEXT_NAMES, FLAG_NAMES};
use flags::*;
use furniture::opens_with_admonition;
use outline::{url_host, Table, STREAMED_LINK_PERCENT};
use page_kind::ProductSignal;
pub use scorer::{
    builtin as builtin_model, feature_names, rows as feature_rows, Model, FEATURES, TAGS,
};
use supplement::{json_ld, shell_summary, supplement};

/// No index: the parent of the document root in the outline table.
const NONE: u32 = u32::MAX;

/// Own (non-comment) text past which a page's body outweighs the comment thread under it
/// (see `select` and `Table::prune`).
const ARTICLE_OWN_BODY: u32 = 1500;

/// Own (non-comment) text below which a page whose comment-classed posts hold any text is a
/// thread (forum, Q&A): its opening post is a line or two (see `select`).
const THREAD_OWN_BODY: u32 = 300;

/// Share of the weighted text one child must hold for the root to descend into it on a page
/// that declares itself an article (see `Table::descend`) ...
const ARTICLE_DESCEND_SHARE: f32 = 0.72;
/// ... and on any other page: shops, service and landing pages spread their content over
/// sibling blocks, so the descent needs a more dominant child.
const PAGE_DESCEND_SHARE: f32 = 0.85;

/// Visible text (alphanumeric characters) below which a page is a script-rendered shell
/// whose own summary is worth adding (see `select`).
const SHELL_TEXT: u32 = 100;

/// Longest live region read as an interface message. WCXB dev: 231 of the 260 visible
/// regions are this short, 2 of them in the ground truth.
const LIVE_TEXT: u32 = 80;

/// Nodes past which a tree gets no readable selection (its text and Markdown are the whole
/// page, and `main_content` says so). Why: the outline keeps about 90 bytes a node beside
/// the tree's 36, so the densest markup a 10 MiB body can hold (2.7 million nodes, at the
/// parse's node cap) took the call to 257 MiB of peak memory, past the 200 MiB every body
/// under the size cap is promised. Real pages stay far below: the corpus's densest uses
/// 14.7 bytes a node (`examples/node_density.rs`), so a 14 MiB page of that density still
/// gets its selection.
pub const MAX_OUTLINE_NODES: usize = 1 << 20;

/// Whether `doc` is small enough for [`select`] (see [`MAX_OUTLINE_NODES`]).
pub fn selectable(doc: &Html) -> bool {
    doc.tree.len() <= MAX_OUTLINE_NODES
}

/// Choose the part of `doc` that is the page's main content (the rules, then the learned
/// block scorer: [`Scorer::Model`], the default).
pub fn select(doc: &Html, url: Option<&str>) -> Scope {
    select_with(doc, url, Scorer::default())
}

/// [`select`] with the block scorer of your choice.
pub fn select_with(doc: &Html, url: Option<&str>, scorer: Scorer<'_>) -> Scope {
    select_with_table(doc, url, scorer).scope
}

/// [`select_with`] of a tree the React streaming pass finished (`streamed::finish`), which
/// placed `placed`: a placed run judged link-dense is left out (see [`hide_link_dense`]).
pub(crate) fn select_placed(
    doc: &Html,
    url: Option<&str>,
    scorer: Scorer<'_>,
    placed: &[Placed],
) -> Scope {
    select_placed_table(doc, url, scorer, placed).scope
}

/// React streaming brings late menus, recommendation rails and product grids by the same
/// channel as late article sections. The outline keeps a segment no instruction placed out
/// when it is link-dense (`STREAMED_LINK_PERCENT`); content the pass placed is judged by
/// the same test, run by run (one instruction's moved children), and a link-dense run's
/// elements are hidden from the selection (the whole-page views keep them). Linear: the
/// runs together are as long as the moves the pass made.
fn hide_link_dense(t: &mut Table, doc: &Html, placed: &[Placed]) {
    if placed.is_empty() {
        return;
    }
    let dom = &doc.tree;
    let mut item_of = vec![NONE; dom.nodes.len()];
    for (i, it) in t.items.iter().enumerate() {
        item_of[it.id as usize] = i as u32;
    }
    let mut run = Vec::new();
    for p in placed {
        run.clear();
        let (mut text, mut link) = (0u64, 0u64);
        let mut at = Some(p.first);
        for _ in 0..p.count {
            let Some(node) = at else { break };
            match item_of[node as usize] {
                NONE if dom.kind(node) == Kind::Text => {
                    let alnum = dom.text(node).chars().filter(|c| c.is_alphanumeric());
                    text += alnum.count() as u64;
                }
                NONE => {}
                i => {
                    let it = &t.items[i as usize];
                    (text, link) = (text + u64::from(it.text), link + u64::from(it.link));
                    run.push(i);
                }
            }
            at = dom.next_sibling(node);
        }
        if link * 100 > text * u64::from(STREAMED_LINK_PERCENT) {
            for &i in &run {
                let it = &mut t.items[i as usize];
                it.flags = (it.flags & !F_COLLAPSED) | F_HIDDEN;
            }
        }
    }
}

/// What judges the rules' selection block by block after the rules chose it (`scorer`).
/// The shipped model is the default (issue 33); `Rules` keeps the selection as the rules
/// chose it (`readable_model=False`), for comparison and for callers who want no model.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Scorer<'a> {
    /// The selection as the rules chose it (`readable_model=False`).
    Rules,
    /// The shipped model takes out the in-scope blocks it scores low (the default).
    #[default]
    Model,
    /// Scores computed elsewhere, one per block of [`blocks`] in its order, with the
    /// threshold below which a block leaves: how the training script measures a model out
    /// of fold through this very path. Ignored when the count differs from the page's blocks.
    Given { scores: &'a [f32], low: f32 },
}

/// What [`select`] decided, with the outline table as the selection left it (flags after
/// the chrome and thread decisions) and the page-level facts it read: the block features
/// (`features`) are read from these, so they describe the very selection `select` returns.
struct Selection {
    scope: Scope,
    table: Table,
    /// The page's comment thread is its content (forum, Q&A), see `select_with_table`.
    forum: bool,
}

/// [`select`], keeping the table and the page-level facts (see [`Selection`]).
fn select_with_table(doc: &Html, url: Option<&str>, scorer: Scorer<'_>) -> Selection {
    select_placed_table(doc, url, scorer, &[])
}

/// [`select_with_table`] of a tree the streaming pass finished (see [`select_placed`]).
fn select_placed_table(
    doc: &Html,
    url: Option<&str>,
    scorer: Scorer<'_>,
    placed: &[Placed],
) -> Selection {
    let mut t = Table::build(doc, url.and_then(url_host));
    hide_link_dense(&mut t, doc, placed);
    let body = t.body();
    let (ld_text, ld_kinds) = json_ld(doc, &t.json_ld);
    if t.items.get(body as usize).is_none_or(|b| b.text == 0) {
        // Nothing visible: a page whose content a script would render (forum and shop
        // front-ends serve an empty shell). What the page says about itself in its markup
        // (JSON-LD body, meta description) is then the only content a reader without
        // scripts gets, and it beats an empty answer.
        let scope = Scope {
            supplement: shell_summary(doc, ld_text.as_deref()),
            ..Scope::whole()
        };
        return Selection {
            scope,
            table: t,
            forum: false,
        };
    }
    // A product page: the shop platform's body class or `og:type` says so, or product
    // JSON-LD / offer microdata on a page that does not call itself an article (buying guides
    // embed products too). `og:type` product.group names a group of products (a shop's
    // collection page), which is no declaration of a product page: its markup decides.
    let product = t.shop_body
        || match t.og {
            Some(ProductSignal::Declared) => true,
            Some(ProductSignal::Article) => false,
            Some(ProductSignal::Group) | Some(ProductSignal::Offer) | None => {
                ld_kinds.product || t.offer
            }
        };
    // An article says so (og:type, JSON-LD Article/BlogPosting); anything else (shops,
    // service and landing pages, listings) spreads its content over sibling blocks.
    // A blog platform's archive (category, tag, author, date) or search-results page lists
    // posts, whatever the SEO plugin's JSON-LD or `og:type` says about the site.
    let article = !t.shop_body
        && !t.archive_body
        && (t.og == Some(ProductSignal::Article) || ld_kinds.article);
    // Reviews are not the content of a shop page: a declared product page, or a page that
    // shows prices without calling itself an article (stores without product markup).
    if product || (t.priced && !article) {
        t.drop_reviews(body);
    }
    t.descend_share = if article {
        ARTICLE_DESCEND_SHARE
    } else {
        PAGE_DESCEND_SHARE
    };
    t.article = article;
    // The shop-page rules below (trusted root, sidebars, hidden product records) hold for
    // shops without product markup too, as reviews do.
    t.product = product || (t.priced && !article);
    t.declared_product = product && t.og != Some(ProductSignal::Group);
    // Caption-classed elements are chrome on articles only (see `F_CAPTION`).
    if article {
        for it in &mut t.items {
            if it.flags.has_any(F_CAPTION) {
                it.flags |= F_CHROME_CLASS;
            }
        }
    }
    // Disclaimer-classed blocks are chrome on declared articles and products: there they are
    // the site's boilerplate (affiliate notes, "results may vary", regulatory statements under
    // every product). A service page's disclaimer (a financial offer's terms) is part of what
    // it offers, and such pages rarely declare themselves either.
    if article || product {
        for it in &mut t.items {
            if it.flags.has_any(F_DISCLAIMER) {
                it.flags |= F_CHROME_CLASS;
            }
        }
    }
    // A documentation generator's furniture (edit links, version badges, an API
    // reference's "Source" links), once the page shows which generator built it.
    t.mark_docs_furniture(doc);
    // A declared article's lists of the site's stories that hold the story itself (a
    // headline ticker beside it): furniture, however much text their excerpts carry.
    if article {
        t.mark_story_lists(doc, url);
    }
    // Live regions: a short one is an interface message; one that opens with an admonition
    // label is a documentation theme's note or warning box.
    for it in &mut t.items {
        if it.flags.has_any(F_LIVE) && it.text <= LIVE_TEXT && !opens_with_admonition(doc, it.id) {
            it.flags |= F_CHROME_TAG;
        }
    }
    // A page that declares a discussion is its thread: nothing to tell apart there.
    let discussion = t.discussion || ld_kinds.discussion;
    if !discussion {
        t.mark_unclassed_threads(doc);
    }
    t.decide_chrome(body);
    t.accumulate_good(true);
    // Forums and Q&A: when comment-classed posts outweigh everything else, they are what the
    // page is about (a long article with a long thread under it keeps only the article; a
    // page declaring itself an article keeps it whenever it has a few lines of its own).
    // The table keeps the weights without comments, what most pages go on with; the total
    // with them is read without rewriting it.
    let without = t.items[body as usize].good;
    let with = t.good_text(body, false);
    let comments = with.saturating_sub(without);
    // A page that declares itself a discussion (forum thread, Q&A) keeps a thread that
    // outweighs its opening post however long that post is (`discussion`, above).
    // An article written in paragraphs keeps its comments out however short it is, unless
    // the page declares a discussion.
    let thread_shaped = comments > 0
        && (without < THREAD_OWN_BODY
            || (comments > 3 * without / 2
                && (without < ARTICLE_OWN_BODY || discussion)
                && !article));
    // A thread-shaped page is weighed with its comments: telling an article above them from
    // a forum's opening post, and finding the thread, read those weights.
    if thread_shaped {
        t.accumulate_good(false);
    }
    t.article_over_thread = thread_shaped && !discussion && t.article_above_comments(doc, without);
    let forum = thread_shaped && !t.article_over_thread;
    if forum {
        t.mark_thread(without);
        for it in &mut t.items {
            it.flags &= !F_COMMENTS;
        }
    } else {
        if thread_shaped {
            t.accumulate_good(true);
        }
        t.comment_text = comments;
    }
    let mut scope = t.choose(doc, body);
    if scorer != Scorer::Rules {
        let blocks = features::blocks_of(doc, &t, &scope, forum, false);
        let judged = match scorer {
            Scorer::Given { scores, low } => Some((Cow::Borrowed(scores), low)),
            _ => scorer::builtin().map(|m| (Cow::Owned(m.in_scope_scores(&blocks)), m.low)),
        };
        if let Some((scores, low)) = judged {
            scorer::drop_low(&t, &mut scope, &blocks, &scores, low);
        }
    }
    scope.supplement = supplement(doc, &t, &scope, ld_text.as_deref());
    // A shell with a line or two of furniture (site name, a donate link) around where the
    // script would render the page: the page's own summary says more than that.
    let shown = t.items[body as usize].text;
    if scope.supplement.is_none() && shown < SHELL_TEXT {
        scope.supplement = shell_summary(doc, ld_text.as_deref())
            .filter(|s| s.chars().filter(|c| c.is_alphanumeric()).count() > 2 * shown as usize);
    }
    Selection {
        scope,
        table: t,
        forum,
    }
}
