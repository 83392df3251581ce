//! The `text` view: readable plain text that keeps the page's structure.

use crate::tree::Html;

use crate::emit::{self, Flavor};
use crate::scope::Scope;

/// Plain text of the part of `doc` named by `scope` (headings and paragraphs on their own
/// lines, list markers, table rows as `a | b` lines, `pre` verbatim).
pub fn render(doc: &Html, scope: &Scope) -> String {
    emit::render(doc, scope, Flavor::Text, None, None)
}
