//! Which part of a parsed document a view is built from.
//!
//! The readable-content selector (`readable`) decides *what* to emit; the emitters
//! (`text`, `markdown`, ...) decide *how*. They meet here: a `Scope` names the subtrees to
//! walk, in order, and the nodes inside them to leave out.

use std::collections::HashSet;

use ego_tree::NodeId;
use scraper::Html;

/// A selection of the document tree to emit.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Subtree roots to emit, in document order. Empty means the whole document.
    pub roots: Vec<NodeId>,
    /// Nodes whose whole subtree is skipped.
    pub skip: HashSet<NodeId>,
    /// Text the DOM does not show well but that is main content (e.g. a product description
    /// only present in JSON-LD); emitted as a paragraph before the walked content.
    pub supplement: Option<String>,
}

impl Scope {
    /// The whole document.
    pub fn whole() -> Self {
        Self::default()
    }

    /// The roots to walk for `doc`.
    pub fn roots_in(&self, doc: &Html) -> Vec<NodeId> {
        if self.roots.is_empty() {
            vec![doc.tree.root().id()]
        } else {
            self.roots.clone()
        }
    }

    /// Whether the subtree at `id` is excluded.
    #[inline]
    pub fn skips(&self, id: NodeId) -> bool {
        self.skip.contains(&id)
    }
}
