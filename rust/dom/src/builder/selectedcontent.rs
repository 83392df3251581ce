//! `<selectedcontent>` (the 2025 select parser): when an `<option>` leaves the stack of open
//! elements and is its select's selected option, its children are deep-cloned into the
//! select's `<selectedcontent>`, so the button shows the chosen option before any script
//! runs. Why after each token rather than at each pop: pops happen in dozens of places, the
//! clone only reads the option's finished children, and no token adds to an option after
//! popping it, so running the steps once the token is done gives the same tree.

use super::Builder;
use crate::arena::{Kind, NodeId};

impl Builder {
    /// The open `<option>` elements, before a token, when any `<selectedcontent>` exists.
    pub(crate) fn open_options(&self) -> Vec<NodeId> {
        if !self.has_selectedcontent {
            return Vec::new();
        }
        self.open
            .iter()
            .copied()
            .filter(|&n| self.dom.is_html(n, "option"))
            .collect()
    }

    /// Run the option popping steps for those of `before` no longer open.
    pub(crate) fn options_popped(&mut self, before: Vec<NodeId>) {
        for option in before {
            if !self.open.contains(&option) {
                self.maybe_clone_option(option);
            }
        }
    }

    /// "Maybe clone an option into selectedcontent".
    fn maybe_clone_option(&mut self, option: NodeId) {
        let Some(select) = self
            .dom
            .ancestors(option)
            .find(|&a| self.dom.is_html(a, "select"))
        else {
            return;
        };
        if self.dom.get_attr(select, "multiple").is_some() {
            return;
        }
        let mut target = None;
        let mut selected = None;
        let mut first = None;
        let mut walk = self.dom.descendants(select);
        while let Some(n) = walk.next() {
            if n != select && self.dom.is_html(n, "select") {
                walk.skip_subtree();
                continue;
            }
            if target.is_none() && self.dom.is_html(n, "selectedcontent") {
                target = Some(n);
            }
            if self.dom.is_html(n, "option") {
                if self.dom.get_attr(n, "selected").is_some() {
                    selected = Some(n);
                }
                if first.is_none() && self.dom.get_attr(n, "disabled").is_none() {
                    first = Some(n);
                }
            }
        }
        // The selectedness algorithm: the last option marked selected, else the first
        // enabled one.
        let Some(target) = target else {
            return;
        };
        if selected.or(first) != Some(option) {
            return;
        }
        while let Some(child) = self.dom.first_child(target) {
            self.dom.detach(child);
        }
        let children: Vec<NodeId> = self.dom.children(option).collect();
        for child in children {
            let copy = self.deep_clone(child);
            self.dom.append(target, copy);
        }
    }

    /// A copy of `node` and its subtree; iterative, as option content can nest deep.
    fn deep_clone(&mut self, node: NodeId) -> NodeId {
        let root = self.shallow_clone(node);
        let mut todo = vec![(node, root)];
        while let Some((src, dst)) = todo.pop() {
            let children: Vec<NodeId> = self.dom.children(src).collect();
            for child in children {
                let copy = self.shallow_clone(child);
                self.dom.append(dst, copy);
                todo.push((child, copy));
            }
        }
        root
    }

    fn shallow_clone(&mut self, node: NodeId) -> NodeId {
        match self.dom.kind(node) {
            Kind::Text => {
                let s = self.dom.text(node).to_string();
                self.dom.new_text(&s)
            }
            Kind::Comment => {
                let s = self.dom.text(node).to_string();
                self.dom.new_comment(&s)
            }
            _ => self.dom.clone_element(node),
        }
    }
}
