//! Where and how nodes go in: the appropriate place for inserting a node (§13.2.6.1), with
//! foster parenting and template contents, and the insert-element/text/comment helpers.

use super::tag_ids::{set, tag, NO_NAME};
use super::{html_attr_ids, Builder, TagTok};
use crate::arena::{Dom, Kind, NodeId, Ns, NONE};

/// A place in the tree: a parent, and the child to insert before (`NONE`: at the end).
#[derive(Clone, Copy)]
pub(crate) struct Place {
    parent: NodeId,
    before: NodeId,
}

impl Builder {
    /// The appropriate place for inserting a node, with `target` (default: the current
    /// node) as the override target.
    ///
    /// Inlined up to foster parenting (off but in a table's "anything else"): every insert
    /// asks, and the call cost about as much as the answer.
    #[inline(always)]
    pub(crate) fn place(&self, target: Option<NodeId>) -> Place {
        let target = target.unwrap_or_else(|| self.current());
        if self.foster {
            return self.place_fostering(target);
        }
        // Into a template goes into its contents.
        Place {
            parent: self.dom.template_contents(target).unwrap_or(target),
            before: NONE,
        }
    }

    /// [`Builder::place`] with foster parenting on.
    fn place_fostering(&self, target: NodeId) -> Place {
        let mut place = Place {
            parent: target,
            before: NONE,
        };
        if self.is_el_in(
            target,
            const { set(&[tag::TABLE, tag::TBODY, tag::TFOOT, tag::THEAD, tag::TR]) },
        ) {
            let last_template = self
                .open
                .iter()
                .rposition(|&n| self.is_el(n, tag::TEMPLATE));
            let last_table = self.open.iter().rposition(|&n| self.is_el(n, tag::TABLE));
            place = match (last_template, last_table) {
                (Some(t), tb) if tb.is_none_or(|tb| t > tb) => Place {
                    parent: self.open[t],
                    before: NONE,
                },
                (_, None) => Place {
                    parent: self.open.first().copied().unwrap_or(Dom::DOCUMENT),
                    before: NONE,
                },
                (_, Some(tb)) => {
                    let table = self.open[tb];
                    match self.dom.parent(table) {
                        Some(parent) => Place {
                            parent,
                            before: table,
                        },
                        // The element above the table (a fragment's detached table
                        // sits above `<html>`, never at the bottom).
                        None => Place {
                            parent: tb
                                .checked_sub(1)
                                .and_then(|i| self.open.get(i))
                                .copied()
                                .unwrap_or(table),
                            before: NONE,
                        },
                    }
                }
            };
        }
        // Into a template goes into its contents.
        if let Some(contents) = self.dom.template_contents(place.parent) {
            place.parent = contents;
        }
        place
    }

    pub(crate) fn insert_at(&mut self, place: Place, node: NodeId) {
        if place.before == NONE {
            self.dom.append(place.parent, node);
        } else {
            self.dom.insert_before(place.parent, node, place.before);
        }
    }

    /// [`Builder::insert_at`] for a node just created (never attached).
    fn insert_new_at(&mut self, place: Place, node: NodeId) {
        if place.before == NONE {
            self.dom.append_new(place.parent, node);
        } else {
            self.dom.insert_before(place.parent, node, place.before);
        }
    }

    /// Insert a foreign element for a new element `node`: at the appropriate place, then
    /// pushed on the stack.
    pub(crate) fn insert_element(&mut self, node: NodeId) -> NodeId {
        let place = self.place(None);
        self.insert_new_at(place, node);
        self.open.push(node);
        node
    }

    /// Insert an HTML element for the token.
    pub(crate) fn insert_html(&mut self, tag: &TagTok) -> NodeId {
        let name_id = match tag.id {
            NO_NAME => self.dom.names.intern(&tag.name),
            known => known,
        };
        let node = self
            .dom
            .new_element_id(Ns::Html, name_id, html_attr_ids(tag));
        self.insert_element(node);
        if name_id == tag::P {
            self.p_pushed();
        }
        node
    }

    /// A `<p>` was just pushed: keep `p_floor` (see [`Builder`]) at or below it. The inserts
    /// of HTML elements by name are the only ways a `<p>` is pushed (the adoption agency and
    /// the reconstruction push copies of formatting elements).
    fn p_pushed(&mut self) {
        self.p_floor = self.p_floor.min(self.open.len() - 1);
    }

    /// Insert an HTML element with no attributes, for an implied tag.
    pub(crate) fn insert_html_named(&mut self, name: &str) -> NodeId {
        let node = self.dom.new_element(Ns::Html, name, []);
        self.insert_element(node);
        if name == "p" {
            self.p_pushed();
        }
        node
    }

    /// Insert characters at the appropriate place (nothing goes straight into the
    /// document).
    pub(crate) fn insert_text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let place = self.place(None);
        if self.dom.kind(place.parent) == Kind::Document {
            return;
        }
        if place.before == NONE {
            self.dom.append_text(place.parent, s);
        } else {
            self.dom.insert_text_before(place.parent, place.before, s);
        }
    }

    /// Insert a comment at the appropriate place.
    pub(crate) fn insert_comment(&mut self, s: &str) {
        let node = self.dom.new_comment(s);
        let place = self.place(None);
        self.insert_new_at(place, node);
    }

    /// Insert a comment as the last child of `parent` (document, `<html>`).
    pub(crate) fn append_comment(&mut self, parent: NodeId, s: &str) {
        let node = self.dom.new_comment(s);
        self.dom.append(parent, node);
    }

    pub(crate) fn append_comment_to_document(&mut self, s: &str) {
        self.append_comment(Dom::DOCUMENT, s);
    }
}
