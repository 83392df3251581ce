//! Authoring links: "Edit this page", "Edit on GitHub", "Suggest an edit", a wiki's "[edit]"
//! beside each heading. They open the page's source in an editor; a reader of the page has
//! no use for them, on documentation sites least of all, where every page carries one.

use crate::tree::Html;

use super::flags::*;
use super::outline::Table;
use crate::scope::NodeSet;

/// Longest text (alphanumeric characters) of an authoring link: a label, not a sentence
/// that mentions editing.
const EDIT_LINK_TEXT: u32 = 30;

/// What an authoring link's text opens with (lower-cased, brackets and spaces trimmed);
/// "edit" alone is a wiki's section link.
const EDIT_LABELS: &[&str] = &[
    "edit this",
    "edit on ",
    "edit page",
    "edit source",
    "edit in ",
    "edit the page",
    "suggest an edit",
    "suggest edits",
    "suggest changes",
    "improve this page",
    "view page source",
];

impl Table {
    /// Skip the links inside `root` whose whole text is an authoring label. Each link's text
    /// is read once, and only for short links.
    pub(super) fn drop_edit_links(&self, doc: &Html, root: u32, skip: &mut NodeSet) {
        let r = &self.items[root as usize];
        let mut i = root + 1;
        while i < r.end {
            let it = &self.items[i as usize];
            if skip.contains(&it.id) {
                i = it.end;
                continue;
            }
            if it.flags.has_none(F_LINK) || it.text == 0 || it.text > EDIT_LINK_TEXT {
                i += 1;
                continue;
            }
            if self
                .short_text(doc, i, " ")
                .is_some_and(|t| is_edit_label(&t))
            {
                skip.insert(it.id);
            }
            i = it.end;
        }
    }
}

/// Whether a lower-cased link text is an authoring label (see `EDIT_LABELS`).
fn is_edit_label(text: &str) -> bool {
    let t = text.trim_matches(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | '(' | ')'));
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    t == "edit" || EDIT_LABELS.iter().any(|l| t.starts_with(l))
}

#[cfg(test)]
mod tests {
    use super::is_edit_label;

    #[test]
    fn edit_labels() {
        for t in [
            "edit this page",
            " [edit] ",
            "edit on github",
            "suggest an edit",
            "edit",
        ] {
            assert!(is_edit_label(t), "{t}");
        }
        for t in [
            "editorial",
            "edition 2",
            "edit distance",
            "editing tips",
            "edits",
        ] {
            assert!(!is_edit_label(t), "{t}");
        }
    }
}
