//! The stack of open elements: the element-in-scope checks (§13.2.4.2), implied end tags,
//! popping, and the "special" category the in-body rules and the adoption agency use (the
//! element sets themselves are in `tag_sets.rs`).

use super::tag_ids::{contains, set, tag, NO_NAME};
use super::tag_sets::{
    BUTTON_SCOPE_BOUNDARY, LIST_SCOPE_BOUNDARY, SCOPE_BOUNDARY, SPECIAL, TABLE_SCOPE_BOUNDARY,
};
use super::{Builder, TagTok};
use crate::arena::{Dom, Kind, NodeId, Ns};

/// The kinds of scope; each adds its own boundary elements to the default list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// The class bits (`tag_sets`) of the HTML elements that bound `scope`.
#[inline]
fn scope_bits(scope: Scope) -> u8 {
    match scope {
        Scope::Table => TABLE_SCOPE_BOUNDARY,
        Scope::Default => SCOPE_BOUNDARY,
        Scope::ListItem => SCOPE_BOUNDARY | LIST_SCOPE_BOUNDARY,
        Scope::Button => SCOPE_BOUNDARY | BUTTON_SCOPE_BOUNDARY,
    }
}

impl Builder {
    /// The current node. The stack is empty only before `<html>` is inserted and after
    /// parsing stopped, where [`Builder::dispatch`] processes no token that needs one; should
    /// that ever fail, the document node stands in (nothing is inserted into it but
    /// comments and `<html>`: see `insert_text`), rather than a panic.
    pub(crate) fn current(&self) -> NodeId {
        self.open.last().copied().unwrap_or(Dom::DOCUMENT)
    }

    /// The name id of `node` if it is an HTML element.
    #[inline]
    pub(crate) fn html_name(&self, node: NodeId) -> Option<u32> {
        let n = self.dom.node(node);
        (n.kind == Kind::Element && n.ns == Ns::Html).then_some(n.name)
    }

    /// Whether `node` is the HTML element with name id `id` (`tag::TD`, or
    /// [`Builder::tag_id`] of a token's name).
    #[inline]
    pub(crate) fn is_el(&self, node: NodeId, id: u32) -> bool {
        self.html_name(node) == Some(id)
    }

    /// Whether `node` is an HTML element named one of `set` (a `tag_ids::set` mask).
    #[inline]
    pub(crate) fn is_el_in(&self, node: NodeId, set: u128) -> bool {
        self.html_name(node).is_some_and(|id| contains(set, id))
    }

    /// The id of a tag's name as the arena interned it, or `NO_NAME` when no element carries
    /// that name (then no open element matches it either).
    #[inline]
    pub(crate) fn tag_id(&self, t: &TagTok) -> u32 {
        if t.id != NO_NAME {
            return t.id;
        }
        self.dom.names.other(&t.name).unwrap_or(NO_NAME)
    }

    pub(crate) fn current_is(&self, id: u32) -> bool {
        self.open.last().is_some_and(|&n| self.is_el(n, id))
    }

    pub(crate) fn current_in(&self, set: u128) -> bool {
        self.open.last().is_some_and(|&n| self.is_el_in(n, set))
    }

    pub(crate) fn is_special(&self, node: NodeId) -> bool {
        let n = self.dom.node(node);
        if n.kind == Kind::Element && n.ns == Ns::Html {
            return self.dom.names.class(n.name) & SPECIAL != 0;
        }
        match n.ns {
            _ if n.kind != Kind::Element => false,
            Ns::MathMl => matches!(
                n.name,
                tag::MI | tag::MO | tag::MN | tag::MS | tag::MTEXT | tag::ANNOTATION_XML
            ),
            Ns::Svg => matches!(n.name, tag::FOREIGN_OBJECT | tag::DESC | tag::TITLE),
            _ => false,
        }
    }

    /// Whether `node` bounds `scope`: HTML elements by their name's class bits (one lookup,
    /// no string compares: this runs for every open element a scope check walks past).
    fn is_scope_boundary(&self, node: NodeId, scope: Scope) -> bool {
        let n = self.dom.node(node);
        if n.kind != Kind::Element {
            return false;
        }
        match n.ns {
            Ns::Html => self.dom.names.class(n.name) & scope_bits(scope) != 0,
            Ns::MathMl if scope != Scope::Table => matches!(
                n.name,
                tag::MI | tag::MO | tag::MN | tag::MS | tag::MTEXT | tag::ANNOTATION_XML
            ),
            Ns::Svg if scope != Scope::Table => {
                matches!(n.name, tag::FOREIGN_OBJECT | tag::DESC | tag::TITLE)
            }
            _ => false,
        }
    }

    /// Whether a node matching `target` is in scope: found walking down from the current
    /// node before any boundary of `scope`.
    pub(crate) fn in_scope_by(&self, scope: Scope, target: impl Fn(NodeId) -> bool) -> bool {
        for &node in self.open.iter().rev() {
            if target(node) {
                return true;
            }
            if self.is_scope_boundary(node, scope) {
                return false;
            }
        }
        false
    }

    /// [`Builder::in_scope_by`] for the HTML element with name id `id`, reading each node
    /// once: an HTML element is told by its id and then its class bits, other nodes by
    /// [`Builder::is_scope_boundary`]. Why: a block's start tag asks for a `<p>` in button
    /// scope, and with none open the walk goes down the whole stack (3.7% of the body-only
    /// bench page's parse, reading each node twice).
    pub(crate) fn in_scope(&self, id: u32, scope: Scope) -> bool {
        let bits = scope_bits(scope);
        for &node in self.open.iter().rev() {
            let n = self.dom.node(node);
            if n.kind == Kind::Element && n.ns == Ns::Html {
                if n.name == id {
                    return true;
                }
                if self.dom.names.class(n.name) & bits != 0 {
                    return false;
                }
            } else if self.is_scope_boundary(node, scope) {
                return false;
            }
        }
        false
    }

    pub(crate) fn in_scope_any(&self, set: u128, scope: Scope) -> bool {
        self.in_scope_by(scope, |n| self.is_el_in(n, set))
    }

    pub(crate) fn open_has(&self, id: u32) -> bool {
        self.open.iter().any(|&n| self.is_el(n, id))
    }

    /// Generate implied end tags, except for `except` (§13.2.6.3).
    pub(crate) fn implied_end_tags(&mut self, except: Option<u32>) {
        const IMPLIED: u128 = set(&[
            tag::DD,
            tag::DT,
            tag::LI,
            tag::OPTGROUP,
            tag::OPTION,
            tag::P,
            tag::RB,
            tag::RP,
            tag::RT,
            tag::RTC,
        ]);
        while let Some(&n) = self.open.last() {
            match self.html_name(n) {
                Some(id) if contains(IMPLIED, id) && Some(id) != except => {
                    self.open.pop();
                }
                _ => break,
            }
        }
    }

    /// Generate all implied end tags thoroughly (template end, caption and cells).
    pub(crate) fn implied_end_tags_thoroughly(&mut self) {
        const IMPLIED: u128 = set(&[
            tag::CAPTION,
            tag::COLGROUP,
            tag::DD,
            tag::DT,
            tag::LI,
            tag::OPTGROUP,
            tag::OPTION,
            tag::P,
            tag::RB,
            tag::RP,
            tag::RT,
            tag::RTC,
            tag::TBODY,
            tag::TD,
            tag::TFOOT,
            tag::TH,
            tag::THEAD,
            tag::TR,
        ]);
        while self.current_in(IMPLIED) {
            self.open.pop();
        }
    }

    /// Pop until an HTML element named one of `set` has been popped.
    pub(crate) fn pop_until(&mut self, set: u128) {
        while let Some(n) = self.open.pop() {
            if self.is_el_in(n, set) {
                break;
            }
        }
    }

    /// Pop until the HTML element with name id `id` has been popped (a name that need not be
    /// known: an end tag's).
    pub(crate) fn pop_until_id(&mut self, id: u32) {
        while let Some(n) = self.open.pop() {
            if self.is_el(n, id) {
                break;
            }
        }
    }

    pub(crate) fn remove_from_stack(&mut self, node: NodeId) {
        if let Some(i) = self.open.iter().rposition(|&n| n == node) {
            self.open.remove(i);
            // What stood above it moved down one.
            self.p_floor = self.p_floor.min(i);
        }
    }

    /// Close a p element: implied end tags but `p`, then pop through the `<p>`.
    pub(crate) fn close_p(&mut self) {
        self.implied_end_tags(Some(tag::P));
        self.pop_until_id(tag::P);
    }

    /// Whether a `<p>` is in button scope: [`Builder::in_scope`] walking no lower than
    /// `p_floor`, below which no `<p>` is open. A walk that gets there finds none on the
    /// stack at all, and says so for the next ones.
    pub(crate) fn p_in_button_scope(&mut self) -> bool {
        let bits = scope_bits(Scope::Button);
        for i in (self.p_floor..self.open.len()).rev() {
            let node = self.open[i];
            let n = self.dom.node(node);
            if n.kind == Kind::Element && n.ns == Ns::Html {
                if n.name == tag::P {
                    return true;
                }
                if self.dom.names.class(n.name) & bits != 0 {
                    return false;
                }
            } else if self.is_scope_boundary(node, Scope::Button) {
                return false;
            }
        }
        self.p_floor = usize::MAX;
        false
    }

    /// Close a `<p>` in button scope, before a block opens.
    pub(crate) fn close_p_in_button_scope(&mut self) {
        if self.p_in_button_scope() {
            self.close_p();
        }
    }

    /// Clear the stack back to a table / table body / table row context.
    pub(crate) fn clear_to(&mut self, set: u128) {
        while !self.current_in(set) && !self.current_is(tag::HTML) {
            self.open.pop();
        }
    }
}
