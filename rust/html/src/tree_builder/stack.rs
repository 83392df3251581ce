//! The stack of open elements: the element-in-scope checks (§13.2.4.2), implied end tags,
//! popping, and the "special" category the in-body rules and the adoption agency use (the
//! element sets themselves are in `tag_sets.rs`).

use super::tag_sets::{
    BUTTON_SCOPE_BOUNDARY, LIST_SCOPE_BOUNDARY, SCOPE_BOUNDARY, SPECIAL, TABLE_SCOPE_BOUNDARY,
};
use super::Builder;
use crate::arena::{Dom, Kind, NodeId, Ns};

/// The kinds of scope; each adds its own boundary elements to the default list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

impl Builder {
    /// The current node. The stack is empty only before `<html>` is inserted and after
    /// parsing stopped, where [`Builder::dispatch`] processes no token that needs one; should
    /// that ever fail, the document node stands in (nothing is inserted into it but
    /// comments and `<html>`: see `insert_text`), rather than a panic.
    pub(crate) fn current(&self) -> NodeId {
        self.open.last().copied().unwrap_or(Dom::DOCUMENT)
    }

    pub(crate) fn current_is(&self, name: &str) -> bool {
        self.open.last().is_some_and(|&n| self.dom.is_html(n, name))
    }

    pub(crate) fn current_is_one_of(&self, names: &[&str]) -> bool {
        self.open
            .last()
            .is_some_and(|&n| self.is_html_one_of(n, names))
    }

    pub(crate) fn is_html_one_of(&self, node: NodeId, names: &[&str]) -> bool {
        matches!(self.dom.element_name(node), Some((Ns::Html, n)) if names.contains(&n))
    }

    pub(crate) fn is_special(&self, node: NodeId) -> bool {
        let n = self.dom.node(node);
        if n.kind == Kind::Element && n.ns == Ns::Html {
            return self.dom.names.class(n.name) & SPECIAL != 0;
        }
        match self.dom.element_name(node) {
            Some((Ns::MathMl, n)) => {
                matches!(n, "mi" | "mo" | "mn" | "ms" | "mtext" | "annotation-xml")
            }
            Some((Ns::Svg, n)) => matches!(n, "foreignObject" | "desc" | "title"),
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
            Ns::Html => {
                let class = self.dom.names.class(n.name);
                let bits = match scope {
                    Scope::Table => TABLE_SCOPE_BOUNDARY,
                    Scope::Default => SCOPE_BOUNDARY,
                    Scope::ListItem => SCOPE_BOUNDARY | LIST_SCOPE_BOUNDARY,
                    Scope::Button => SCOPE_BOUNDARY | BUTTON_SCOPE_BOUNDARY,
                };
                class & bits != 0
            }
            Ns::MathMl if scope != Scope::Table => matches!(
                self.dom.names.get(n.name),
                "mi" | "mo" | "mn" | "ms" | "mtext" | "annotation-xml"
            ),
            Ns::Svg if scope != Scope::Table => matches!(
                self.dom.names.get(n.name),
                "foreignObject" | "desc" | "title"
            ),
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

    pub(crate) fn in_scope(&self, name: &str, scope: Scope) -> bool {
        // A name no element carries is in no scope; otherwise compare ids, not strings.
        let Some(id) = self.dom.names.lookup(name) else {
            return false;
        };
        self.in_scope_by(scope, |n| {
            let node = self.dom.node(n);
            node.kind == Kind::Element && node.ns == Ns::Html && node.name == id
        })
    }

    pub(crate) fn in_scope_any(&self, names: &[&str], scope: Scope) -> bool {
        self.in_scope_by(scope, |n| self.is_html_one_of(n, names))
    }

    pub(crate) fn open_has(&self, name: &str) -> bool {
        self.open.iter().any(|&n| self.dom.is_html(n, name))
    }

    /// Generate implied end tags, except for `except` (§13.2.6.3).
    pub(crate) fn implied_end_tags(&mut self, except: Option<&str>) {
        const IMPLIED: &[&str] = &[
            "dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc",
        ];
        while let Some(&n) = self.open.last() {
            match self.dom.element_name(n) {
                Some((Ns::Html, name)) if IMPLIED.contains(&name) && Some(name) != except => {
                    self.open.pop();
                }
                _ => break,
            }
        }
    }

    /// Generate all implied end tags thoroughly (template end, caption and cells).
    pub(crate) fn implied_end_tags_thoroughly(&mut self) {
        const IMPLIED: &[&str] = &[
            "caption", "colgroup", "dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt",
            "rtc", "tbody", "td", "tfoot", "th", "thead", "tr",
        ];
        while self.current_is_one_of(IMPLIED) {
            self.open.pop();
        }
    }

    /// Pop until an HTML element named one of `names` has been popped.
    pub(crate) fn pop_until(&mut self, names: &[&str]) {
        while let Some(n) = self.open.pop() {
            if self.is_html_one_of(n, names) {
                break;
            }
        }
    }

    pub(crate) fn remove_from_stack(&mut self, node: NodeId) {
        if let Some(i) = self.open.iter().rposition(|&n| n == node) {
            self.open.remove(i);
        }
    }

    /// Close a p element: implied end tags but `p`, then pop through the `<p>`.
    pub(crate) fn close_p(&mut self) {
        self.implied_end_tags(Some("p"));
        self.pop_until(&["p"]);
    }

    /// Close a `<p>` in button scope, before a block opens.
    pub(crate) fn close_p_in_button_scope(&mut self) {
        if self.in_scope("p", Scope::Button) {
            self.close_p();
        }
    }

    /// Clear the stack back to a table / table body / table row context.
    pub(crate) fn clear_to(&mut self, names: &[&str]) {
        while !self.current_is_one_of(names) && !self.current_is("html") {
            self.open.pop();
        }
    }
}
