//! Text from outside the visible selection: JSON-LD `articleBody` / product `description`
//! when the selection is thin, and a script-rendered shell's own summary.

use std::collections::HashSet;

use crate::tree::{Html, Node, NodeId};

use super::flags::*;
use super::outline::Table;
use crate::jsonld;
use crate::Scope;

/// Fewest alphanumeric characters a JSON-LD text needs to be worth adding.
const SUPPLEMENT_TEXT: usize = 80;
/// Words longer than this (bytes) are compared to tell whether the selection already shows
/// the JSON-LD text; shorter ones are too common to say.
const SAMPLE_WORD_LEN: usize = 3;
/// Share of the JSON-LD text's words the selection must show for the text to count as
/// already visible.
const SUPPLEMENT_SEEN_SHARE: f32 = 0.6;

/// The text a script-rendered page's empty shell carries about itself: its JSON-LD main
/// text, else its meta / OpenGraph / JSON-LD description.
pub(super) fn shell_summary(doc: &Html, ld: Option<&str>) -> Option<String> {
    let text = ld
        .map(|ld| strip_markup(ld.trim()))
        .filter(|s| !s.is_empty())
        .or_else(|| crate::metadata::extract(doc, None).description)?;
    text.chars().any(char::is_alphanumeric).then_some(text)
}

/// JSON-LD `articleBody` / product `description`, when the selection is thin and does not
/// already contain it.
pub(super) fn supplement(doc: &Html, t: &Table, scope: &Scope, ld: Option<&str>) -> Option<String> {
    let text = strip_markup(ld?.trim());
    if text.chars().filter(|c| c.is_alphanumeric()).count() < SUPPLEMENT_TEXT {
        return None;
    }
    // Already visible in the selection? Compare a sample of its words.
    let visible = visible_words(doc, t, scope);
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > SAMPLE_WORD_LEN)
        .map(|w| w.to_lowercase())
        .collect();
    if words.is_empty() {
        return None;
    }
    let present = words
        .iter()
        .filter(|w| visible.contains(w.as_str()))
        .count();
    if present as f32 > SUPPLEMENT_SEEN_SHARE * words.len() as f32 {
        return None;
    }
    Some(text)
}

/// What the page's JSON-LD blocks (`scripts`, noted by `Table::build`'s walk) say: the
/// longest `articleBody` / product `description`, and the kinds of object the blocks declare
/// (see `jsonld::main_text`).
pub(super) fn json_ld(doc: &Html, scripts: &[NodeId]) -> (Option<String>, jsonld::Seen) {
    let mut best: Option<String> = None;
    let mut kinds = jsonld::Seen::default();
    for node in scripts.iter().filter_map(|&id| doc.tree.get(id)) {
        let (found, seen) = jsonld::main_text(&jsonld::script_text(node));
        kinds.product |= seen.product;
        kinds.article |= seen.article;
        kinds.discussion |= seen.discussion;
        if let Some(found) = found {
            if best.as_ref().is_none_or(|b| found.len() > b.len()) {
                best = Some(found);
            }
        }
    }
    (best, kinds)
}

/// JSON-LD descriptions sometimes carry HTML: keep the text between tags and decode the
/// few entities that matter for reading.
fn strip_markup(s: &str) -> String {
    if !s.contains('<') && !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for ch in s.chars() {
        match ch {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&nbsp;", " ")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn visible_words(doc: &Html, t: &Table, scope: &Scope) -> HashSet<String> {
    let mut out = HashSet::new();
    for root in scope.roots_in(doc) {
        let Some(start) = t.items.iter().position(|it| it.id == root) else {
            continue;
        };
        let end = t.items[start].end as usize;
        let mut i = start;
        while i < end {
            let it = &t.items[i];
            if scope.skips(it.id) || it.flags.has_any(F_INVISIBLE) {
                i = it.end as usize;
                continue;
            }
            if let Some(node) = doc.tree.get(it.id) {
                for c in node.children() {
                    if let Node::Text(txt) = c.value() {
                        for w in txt.split(|c: char| !c.is_alphanumeric()) {
                            if w.len() > SAMPLE_WORD_LEN {
                                out.insert(w.to_lowercase());
                            }
                        }
                    }
                }
            }
            i += 1;
        }
    }
    out
}
