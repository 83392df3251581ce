//! `<selectedcontent>` (the 2025 select parser): when an `<option>` leaves the stack of open
//! elements and is its select's selected option, its children are deep-cloned into the
//! select's `<selectedcontent>`, so the button shows the chosen option before any script
//! runs. Why after each token rather than at each pop: pops happen in dozens of places, the
//! clone only reads the option's finished children, and no token adds to an option after
//! popping it, so running the steps once the token is done gives the same tree.

use super::tag_ids::tag;
use super::Builder;
use crate::arena::{Kind, NodeId};

impl Builder {
    /// The open `<option>` elements, before a token (asked only once a `<selectedcontent>`
    /// exists).
    pub(crate) fn open_options(&self) -> Vec<NodeId> {
        self.open
            .iter()
            .copied()
            .filter(|&n| self.is_el(n, tag::OPTION))
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
    ///
    /// The standard's steps read the select's whole subtree (its selected option, its first
    /// enabled option, its first `<selectedcontent>`); done for every popped option, 10,000
    /// options took over a minute. The same answer from less reading: an option marked
    /// `selected` is the chosen one when no option after it is marked; an unmarked one only
    /// when it is the first enabled option (found from the select's start, usually at once)
    /// and no option is marked; the `<selectedcontent>` is remembered per select until
    /// another is inserted or it leaves the select.
    fn maybe_clone_option(&mut self, option: NodeId) {
        let Some(select) = self
            .dom
            .ancestors(option)
            .find(|&a| self.is_el(a, tag::SELECT))
        else {
            return;
        };
        if self.dom.get_attr(select, "multiple").is_some() {
            return;
        }
        let marked = |b: &Builder, n: NodeId| {
            b.is_el(n, tag::OPTION) && b.dom.get_attr(n, "selected").is_some()
        };
        let chosen = if marked(self, option) {
            !self.following_in_select(select, option, |b, n| marked(b, n))
        } else if self.dom.get_attr(option, "disabled").is_some() {
            false
        } else {
            let first = self.first_in_select(select, |b, n| {
                b.is_el(n, tag::OPTION) && b.dom.get_attr(n, "disabled").is_none()
            });
            first == Some(option) && self.first_in_select(select, marked).is_none()
        };
        if !chosen {
            return;
        }
        let Some(target) = self.selectedcontent_of(select) else {
            return;
        };
        while let Some(child) = self.dom.first_child(target) {
            self.dom.detach(child);
        }
        let children: Vec<NodeId> = self.dom.children(option).collect();
        for child in children {
            let copy = self.deep_clone(child);
            self.dom.append(target, copy);
        }
    }

    /// The first node under `select` (in tree order, nested selects left out) that `test`
    /// accepts.
    fn first_in_select(
        &self,
        select: NodeId,
        test: impl Fn(&Builder, NodeId) -> bool,
    ) -> Option<NodeId> {
        let mut walk = self.dom.descendants(select);
        while let Some(n) = walk.next() {
            if n != select && self.is_el(n, tag::SELECT) {
                walk.skip_subtree();
                continue;
            }
            if n != select && test(self, n) {
                return Some(n);
            }
        }
        None
    }

    /// Whether a node after `node` in tree order, still under `select` (nested selects left
    /// out), passes `test`.
    fn following_in_select(
        &self,
        select: NodeId,
        node: NodeId,
        test: impl Fn(&Builder, NodeId) -> bool,
    ) -> bool {
        // Everything under `node`, then its following siblings' subtrees and its ancestors',
        // up to the select.
        let mut from = Some(node);
        let mut first = true;
        while let Some(at) = from {
            if at == select {
                return false;
            }
            let mut start = if first {
                self.dom.first_child(at)
            } else {
                self.dom.next_sibling(at)
            };
            while let Some(sub) = start {
                let mut walk = self.dom.descendants(sub);
                while let Some(n) = walk.next() {
                    if self.is_el(n, tag::SELECT) {
                        walk.skip_subtree();
                        continue;
                    }
                    if test(self, n) {
                        return true;
                    }
                }
                start = self.dom.next_sibling(sub);
            }
            if first {
                first = false;
                continue;
            }
            from = self.dom.parent(at);
        }
        false
    }

    /// The select's first `<selectedcontent>` (cached: see [`Builder::maybe_clone_option`]).
    fn selectedcontent_of(&mut self, select: NodeId) -> Option<NodeId> {
        if let Some((s, count, target)) = self.selectedcontent_cache {
            let still_inside = target.is_none_or(|t| self.dom.ancestors(t).any(|a| a == select));
            if s == select && count == self.selectedcontents && still_inside {
                return target;
            }
        }
        let target = self.first_in_select(select, |b, n| b.is_el(n, tag::SELECTEDCONTENT));
        self.selectedcontent_cache = Some((select, self.selectedcontents, target));
        target
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
