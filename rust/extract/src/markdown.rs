//! The `markdown` view: GitHub-flavoured Markdown.

use crate::tree::Html;
use url::Url;

use crate::emit::{self, Flavor};
use crate::scope::Scope;

/// Markdown of the part of `doc` named by `scope`; links and images are resolved against
/// `base` (see [`crate::urls::document_base`]).
pub fn render(doc: &Html, scope: &Scope, base: Option<&Url>) -> String {
    emit::render(doc, scope, Flavor::Markdown, base, None)
}
