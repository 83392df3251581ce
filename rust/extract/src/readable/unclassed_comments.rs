//! Comment threads without a comment class or id: an "N Comments" (or "Responses",
//! "Discussion", "Leave a reply", ...) heading over a run of short posts, each carrying a
//! time and/or a "Reply" link. Hand-written blogs and small CMSs mark their threads up this
//! way; recognised by shape, such a thread is then treated like a classed one (`F_COMMENTS`:
//! kept off an article, kept as the content of a forum page, see `select`).

use crate::tree::Html;

use super::flags::*;
use super::outline::Table;
use super::NONE;

/// Longest heading text (alphanumeric characters) read as a thread's title.
const THREAD_HEADING_TEXT: u32 = 60;
/// Posts a thread needs under its heading: one "Reply" link is a form's, not a thread's.
const MIN_POSTS: usize = 2;
/// Longest post (alphanumeric characters): a comment, not a section of the article.
const POST_TEXT: u32 = 3000;
/// Longest link text read as a reply label.
const REPLY_LINK_TEXT: u32 = 14;

/// A thread heading's words once digits and punctuation are gone ("12 Comments",
/// "Comments (12)", "Kommentare: 3").
const THREAD_TITLES: &[&str] = &[
    "comments",
    "comment",
    "responses",
    "response",
    "replies",
    "discussion",
    "reader comments",
    "user comments",
    "join the discussion",
    "leave a reply",
    "leave a comment",
    "kommentare",
    "kommentar",
    "commentaires",
    "commentaire",
    "comentarios",
    "comentario",
    "comentários",
    "comentário",
    "commenti",
    "commento",
    "reacties",
    "reactie",
    "komentarze",
    "komentarz",
    "kommentarer",
    "kommentit",
    "комментарии",
    "комментариев",
    "комментария",
    "коментарі",
    "コメント",
    "评论",
    "評論",
    "댓글",
];

/// What a thread heading may open with ("3 thoughts on “Title”", "One response to ...").
const THREAD_TITLE_OPENINGS: &[&str] = &[
    "thoughts on ",
    "thought on ",
    "responses to ",
    "response to ",
    "replies to ",
    "reply to ",
    "comments on ",
    "comments to ",
    "comment on ",
];

/// A post's reply link text (lower-cased, alphanumerics only).
const REPLY_LABELS: &[&str] = &[
    "reply",
    "antworten",
    "répondre",
    "repondre",
    "responder",
    "rispondi",
    "beantwoorden",
    "reageer",
    "reageren",
    "odpowiedz",
    "svara",
    "svar",
    "vastaa",
    "ответить",
    "відповісти",
    "返信",
    "回复",
    "回覆",
    "답글",
];

impl Table {
    /// Mark unclassed comment threads `F_COMMENTS`: after a heading titled like a thread,
    /// the siblings in its section that are posts (at least two), or else the next sibling
    /// whose children are posts (at least two, and most of its children). Only headings whose short
    /// text reads like a thread's title are looked at; each then reads its siblings' subtrees
    /// once.
    pub(super) fn mark_unclassed_threads(&mut self, doc: &Html) {
        let mut marks: Vec<u32> = Vec::new();
        for h in 0..self.items.len() as u32 {
            let it = &self.items[h as usize];
            if it.level == 0
                || it.text == 0
                || it.text > THREAD_HEADING_TEXT
                || it.parent == NONE
                || it.flags.has_any(F_COMMENTS)
            {
                continue;
            }
            if !self
                .short_text(doc, h, " ")
                .is_some_and(|t| is_thread_title(&t))
            {
                continue;
            }
            // The heading's section: its later siblings up to the next heading of its rank.
            let level = it.level;
            let after: Vec<u32> = self
                .children(it.parent)
                .skip_while(|&c| c != h)
                .skip(1)
                .take_while(|&c| {
                    let l = self.items[c as usize].level;
                    l == 0 || l > level
                })
                .filter(|&c| self.items[c as usize].text > 0)
                .collect();
            let before = marks.len();
            // The posts as the heading's own siblings ...
            let posts: Vec<u32> = after
                .iter()
                .copied()
                .filter(|&c| self.is_post(doc, c))
                .collect();
            if posts.len() >= MIN_POSTS {
                marks.extend(posts);
            } else if let Some(&next) = after.first() {
                // ... or in one list or wrapper right after it.
                let kids: Vec<u32> = self
                    .children(next)
                    .filter(|&c| self.items[c as usize].text > 0)
                    .collect();
                let posts = kids.iter().filter(|&&c| self.is_post(doc, c)).count();
                if posts >= MIN_POSTS && 2 * posts > kids.len() {
                    marks.push(next);
                }
            }
            if marks.len() > before {
                marks.push(h);
            }
        }
        for m in marks {
            self.items[m as usize].flags |= F_COMMENTS;
        }
    }

    /// Whether element `i` is one post of a thread: short, with a `<time>` or a reply link
    /// in it.
    fn is_post(&self, doc: &Html, i: u32) -> bool {
        let it = &self.items[i as usize];
        if it.text > POST_TEXT {
            return false;
        }
        let mut j = i;
        while j < it.end {
            let c = &self.items[j as usize];
            if c.flags.has_any(F_LINK) {
                if c.text <= REPLY_LINK_TEXT
                    && self
                        .short_text(doc, j, "")
                        .is_some_and(|t| is_reply_label(&t))
                {
                    return true;
                }
                j = c.end;
                continue;
            }
            if doc
                .tree
                .get(c.id)
                .and_then(|n| n.value().as_element())
                .is_some_and(|el| el.name() == "time")
            {
                return true;
            }
            j += 1;
        }
        false
    }
}

/// Whether a lower-cased heading text titles a comment thread (see `THREAD_TITLES`).
fn is_thread_title(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let t = words.join(" ");
    let t = t.strip_prefix("one ").unwrap_or(&t);
    THREAD_TITLES.contains(&t)
        || THREAD_TITLE_OPENINGS
            .iter()
            .any(|o| t.starts_with(o) && t.len() > o.len())
}

/// Whether a lower-cased link text is a reply label (see `REPLY_LABELS`).
fn is_reply_label(text: &str) -> bool {
    let t: String = text.chars().filter(|c| c.is_alphanumeric()).collect();
    REPLY_LABELS.contains(&t.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_titles() {
        for t in [
            "12 comments",
            "comments (12)",
            "one response to “a title”",
            "3 thoughts on “bus network”",
            "kommentare: 4",
            "leave a reply",
            "7 комментариев",
        ] {
            assert!(is_thread_title(t), "{t}");
        }
        for t in ["comments policy and moderation", "responses", "history"] {
            assert_eq!(is_thread_title(t), t == "responses", "{t}");
        }
        assert!(is_reply_label("reply"));
        assert!(is_reply_label(" ↪ reply "));
        assert!(!is_reply_label("reply all"));
    }
}
