//! Which part of a parsed document a view is built from.
//!
//! The readable-content selector (`readable`) decides *what* to emit; the emitters
//! (`text`, `markdown`, ...) decide *how*. They meet here: a `Scope` names the subtrees to
//! walk, in order, and the nodes inside them to leave out.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::tree::Html;
use crate::tree::NodeId;

/// A set of tree nodes. Node ids are arena indices the parser hands out, not page data, so a
/// multiplicative hash serves (no flooding to fear) and costs a multiply where SipHash cost
/// ~20 ns: the emitters ask it for every node of a main-content view.
pub type NodeSet = HashSet<NodeId, BuildHasherDefault<NodeIdHasher>>;

/// The hasher of [`NodeSet`] (Fibonacci hashing of the id).
#[derive(Default)]
pub struct NodeIdHasher(u64);

impl Hasher for NodeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A selection of the document tree to emit.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Subtree roots to emit, in document order. Empty means the whole document.
    pub roots: Vec<NodeId>,
    /// Nodes whose whole subtree is skipped.
    pub skip: NodeSet,
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

    /// Whether the subtree at `id` is excluded. Asked for every node a view walks; the
    /// whole page's scope skips nothing, and a look-up in an empty set still hashes and
    /// probes, so that case is answered first.
    #[inline]
    pub fn skips(&self, id: NodeId) -> bool {
        !self.skip.is_empty() && self.skip.contains(&id)
    }
}
