//! A walk of the page tree that refuses a tree the parser's own walks cannot finish.
//!
//! Why: pdf_oxide counts pages with a recursive walk that keeps no visited set (only a depth
//! limit of 50), and it counts before anything can stop it. A 724-byte file whose `/Kids`
//! name their own parent twice made that walk take 2^50 steps: the call returned at its
//! deadline, but the worker kept one core busy for good. This walk runs first, iteratively,
//! with a visited set and a node budget, and the document is refused when a page-tree node
//! is reached twice (a loop, or a node shared by two parents, which the PDF format does not
//! allow and which multiplies every recursive walk) or when the tree is larger than any real
//! document's.

use std::collections::HashSet;

use pdf_oxide::object::{Object, ObjectRef};
use pdf_oxide::PdfDocument;
use webgrip_budget::Budget;

/// More page-tree nodes than this (pages and their intermediate nodes) is refused.
pub const MAX_NODES: usize = 200_000;

/// Why a page tree was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadTree {
    /// A node is reached twice.
    Repeated,
    /// More than [`MAX_NODES`] nodes.
    TooLarge,
    /// The budget ran out during the walk.
    Interrupted,
}

/// Walk the tree from the catalog's `/Pages`; `Ok` when every node is reached once.
pub fn check(doc: &PdfDocument, budget: &Budget) -> Result<(), BadTree> {
    let Some(root) = pages_root(doc) else {
        // No tree to walk: the parser's own fallbacks scan for page objects, without
        // recursion.
        return Ok(());
    };
    let mut seen: HashSet<ObjectRef> = HashSet::new();
    let mut todo = vec![root];
    while let Some(node) = todo.pop() {
        if !seen.insert(node) {
            return Err(BadTree::Repeated);
        }
        if seen.len() > MAX_NODES {
            return Err(BadTree::TooLarge);
        }
        if seen.len().is_multiple_of(1024) && budget.check().is_err() {
            return Err(BadTree::Interrupted);
        }
        let Ok(Object::Dictionary(dict)) = doc.load_object(node) else {
            continue;
        };
        let kids = match dict.get("Kids") {
            Some(Object::Array(kids)) => kids.clone(),
            Some(Object::Reference(r)) => match doc.load_object(*r) {
                Ok(Object::Array(kids)) => kids,
                _ => continue,
            },
            _ => continue,
        };
        todo.extend(kids.iter().filter_map(Object::as_reference));
    }
    Ok(())
}

/// The catalog's `/Pages` reference.
fn pages_root(doc: &PdfDocument) -> Option<ObjectRef> {
    let trailer = doc.trailer();
    let root = trailer.as_dict()?.get("Root")?;
    let catalog = match root.as_reference() {
        Some(r) => doc.load_object(r).ok()?,
        None => root.clone(),
    };
    catalog.as_dict()?.get("Pages")?.as_reference()
}
