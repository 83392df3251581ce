//! Comment threads: whether the text outside them is an article the thread sits under (its
//! comments are then no part of the content) or a thread's opening post (forum, Q&A: the
//! replies are the content).

use crate::tree::Html;

use super::flags::*;
use super::hashing::{fast_map, FastMap};
use super::outline::Table;
use super::NONE;

/// Paragraphs of one article body: at least this many `<p>` siblings, ...
const BODY_PARAS: u32 = 3;
/// ... holding at least 1/`BODY_PART` of the text outside the comment threads.
const BODY_PART: u32 = 2;

/// A forum's opening post (see `Table::with_opening_post`): at least 1/`OPENING_PART` of the
/// text outside the comment threads, ...
const OPENING_PART: u32 = 2;
/// ... and at least this much (a title and a link are no opening post), ...
const OPENING_TEXT: u32 = 150;
/// ... within this many levels above the thread.
const OPENING_LEVELS: u32 = 2;

impl Table {
    /// Whether the text outside the comment threads (`own`, see `select`) is an article's
    /// body: a run of at least three prose `<p>` siblings outside the threads holding half
    /// of that text or more. A forum's opening post or a link aggregator's submission is a
    /// line, a link or one block of text whatever its length (WCXB dev: every forum page
    /// whose thread outweighs its opening post has at most one such paragraph outside its
    /// thread, and a news aggregator's story of one block in an `article` element has its
    /// discussion as the content); an article is written in paragraphs. Linear: one pass
    /// that steps over the threads.
    pub(super) fn article_above_comments(&self, doc: &Html, own: u32) -> bool {
        // Paragraphs and their text per parent.
        let mut per_parent: FastMap<u32, (u32, u32)> = fast_map(0);
        let mut i = 0usize;
        while i < self.items.len() {
            let it = &self.items[i];
            if it.flags.has_any(F_COMMENTS) {
                i = it.end as usize;
                continue;
            }
            i += 1;
            // Text outside chrome (`good`), with a sentence in it.
            let prose = it.flags & (F_PARA | F_CELL | F_CODE) == F_PARA
                && it.good > 0
                && it.punct > 0
                && it.parent != NONE
                && doc
                    .tree
                    .get(it.id)
                    .and_then(|n| n.value().as_element())
                    .is_some_and(|el| el.name() == "p");
            if !prose {
                continue;
            }
            let e = per_parent.entry(it.parent).or_insert((0, 0));
            e.0 += 1;
            e.1 += it.good;
        }
        per_parent
            .values()
            .any(|&(n, text)| n >= BODY_PARAS && BODY_PART * text >= own)
    }

    /// On a forum page (before its comment marks are cleared): remember its largest comment
    /// thread (the outermost comment-marked element with the most text outside chrome) and
    /// the text outside every thread, the opening post and its title (`own`), when that
    /// is more than a line or two.
    pub(super) fn mark_thread(&mut self, own: u32) {
        let mut best = (NONE, 0u32);
        let mut i = 0usize;
        while i < self.items.len() {
            let it = &self.items[i];
            if it.flags.has_any(F_COMMENTS) {
                if it.good > best.1 {
                    best = (i as u32, it.good);
                }
                i = it.end as usize;
                continue;
            }
            i += 1;
        }
        self.thread = best.0;
        self.opening_text = own;
    }

    /// A forum root that went down into the comment thread (the replies outweigh the rest)
    /// leaves the opening post behind: a thread is read from its question. Step up from the
    /// thread to the nearest ancestor that also holds, before the thread, half of the text
    /// outside the threads. Linear in the ancestors' children.
    pub(super) fn with_opening_post(&self, root: u32, body: u32) -> u32 {
        let t = self.thread;
        if t == NONE || root < t || root >= self.items[t as usize].end {
            return root;
        }
        // A root on one part of the thread (a page of posts among the thread's widgets) is
        // not the thread.
        if 2 * self.items[root as usize].good < self.items[t as usize].good {
            return root;
        }
        // Text before the thread inside each ancestor: the opening post comes first, next
        // to the thread (a sidebar or banner further up is no opening post).
        let mut before = 0u32;
        let mut node = t;
        for _ in 0..OPENING_LEVELS {
            let p = self.items[node as usize].parent;
            // The whole body is the fallback's business, not a thread's.
            if p == body || p == NONE {
                break;
            }
            before += self
                .children(p)
                .take_while(|&c| c != node)
                .map(|c| self.items[c as usize].good)
                .sum::<u32>();
            if before >= OPENING_TEXT && OPENING_PART * before >= self.opening_text {
                return p;
            }
            node = p;
        }
        root
    }
}
