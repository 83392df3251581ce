//! The list of active formatting elements (§13.2.4.3): pushing with the Noah's Ark clause,
//! reconstruction, markers, and the adoption agency algorithm (§13.2.6.4.7) that mends
//! misnested formatting tags such as `<a><p>x</a>y`.

use super::stack::Scope;
use super::{Builder, Entry};
use crate::arena::{Attr, NodeId};

/// The adoption agency's loop bounds, as the standard fixes them: they cap the work a
/// hostile document can cause.
const OUTER_LOOP: usize = 8;
const INNER_LOOP: usize = 3;

impl Builder {
    /// Same name, namespace and attribute set (the Noah's Ark comparison).
    fn same_element(&self, a: NodeId, b: NodeId) -> bool {
        let (na, nb) = (self.dom.node(a), self.dom.node(b));
        if na.name != nb.name || na.ns != nb.ns {
            return false;
        }
        let (aa, ab) = (self.dom.attrs(a), self.dom.attrs(b));
        aa.len() == ab.len()
            && aa.iter().all(|x: &Attr| {
                ab.iter().any(|y| {
                    x.name == y.name
                        && x.ns == y.ns
                        && self.dom.attr_value(x) == self.dom.attr_value(y)
                })
            })
    }

    /// Push onto the list; with three identical elements already after the last marker,
    /// the earliest goes (Noah's Ark).
    ///
    /// No list of the identical entries is built: the earliest of them is the only one
    /// read, and only when there are three or more.
    pub(crate) fn push_formatting(&mut self, node: NodeId) {
        let mut same = 0usize;
        let mut earliest = 0;
        for (i, e) in self.afe.iter().enumerate().rev() {
            match *e {
                Entry::Marker => break,
                Entry::Element(n) if self.same_element(n, node) => {
                    same += 1;
                    earliest = i;
                }
                Entry::Element(_) => {}
            }
        }
        if same >= 3 {
            self.afe.remove(earliest);
        }
        self.afe.push(Entry::Element(node));
    }

    pub(crate) fn push_marker(&mut self) {
        self.afe.push(Entry::Marker);
    }

    pub(crate) fn clear_formatting_to_marker(&mut self) {
        while let Some(e) = self.afe.pop() {
            if e == Entry::Marker {
                break;
            }
        }
    }

    fn afe_position(&self, node: NodeId) -> Option<usize> {
        self.afe.iter().position(|&e| e == Entry::Element(node))
    }

    /// Reconstruct the active formatting elements: reopen those closed implicitly, so that
    /// `<b><p>x</b>y` keeps y bold-free but `<p><b>x<p>y` keeps y bold.
    ///
    /// Inlined up to the first test: it runs before every run of text and most start tags,
    /// and nearly always finds nothing to do (no entry, or a marker, last), where the call
    /// cost more than the test (1% of the table page's parse).
    #[inline(always)]
    pub(crate) fn reconstruct_formatting(&mut self) {
        if let Some(&Entry::Element(last)) = self.afe.last() {
            self.reconstruct_from(last);
        }
    }

    /// [`Builder::reconstruct_formatting`] when the last entry is the element `last`.
    fn reconstruct_from(&mut self, last: NodeId) {
        // From the top: an entry still open is usually the current node or near it.
        if self.open.iter().rev().any(|&n| n == last) {
            return;
        }
        let mut i = self.afe.len() - 1;
        while i > 0 {
            match self.afe[i - 1] {
                Entry::Element(n) if !self.open.contains(&n) => i -= 1,
                _ => break,
            }
        }
        for j in i..self.afe.len() {
            let Entry::Element(old) = self.afe[j] else {
                continue;
            };
            let new = self.dom.clone_element(old);
            self.insert_element(new);
            self.afe[j] = Entry::Element(new);
        }
    }

    /// The adoption agency algorithm for an end tag named `subject`. Returns false when
    /// the caller is to act as for "any other end tag".
    pub(crate) fn adoption_agency(&mut self, subject: u32) -> bool {
        // The common case: the element closed is the current node and the last active
        // formatting entry. The loop below would find it there, in scope, with no furthest
        // block above it, and take it off both lists; so do that at once.
        if let (Some(&Entry::Element(last)), Some(&current)) = (self.afe.last(), self.open.last()) {
            if last == current && self.is_el(current, subject) {
                self.open.pop();
                self.afe.pop();
                return true;
            }
        }
        if self.current_is(subject) && self.afe_position(self.current()).is_none() {
            self.open.pop();
            return true;
        }
        for _ in 0..OUTER_LOOP {
            // The last element named `subject` after the last marker.
            let mut found = None;
            for (i, e) in self.afe.iter().enumerate().rev() {
                match *e {
                    Entry::Marker => break,
                    Entry::Element(n) if self.is_el(n, subject) => {
                        found = Some((i, n));
                        break;
                    }
                    Entry::Element(_) => {}
                }
            }
            let Some((fe_afe, fe)) = found else {
                return false;
            };
            let Some(fe_stack) = self.open.iter().position(|&n| n == fe) else {
                self.afe.remove(fe_afe);
                return true;
            };
            if !self.in_scope_by(Scope::Default, |n| n == fe) {
                return true;
            }
            let furthest = (fe_stack + 1..self.open.len()).find(|&i| self.is_special(self.open[i]));
            let Some(fb_stack) = furthest else {
                self.open.truncate(fe_stack);
                self.afe.remove(fe_afe);
                return true;
            };
            let furthest_block = self.open[fb_stack];
            // The formatting element has the common ancestor above it (`<html>` at least: a
            // formatting element is never the bottom of the stack); if not, nothing to do.
            let Some(&common_ancestor) = fe_stack.checked_sub(1).and_then(|i| self.open.get(i))
            else {
                return true;
            };
            let mut bookmark = fe_afe;
            let mut node_index = fb_stack;
            let mut last_node = furthest_block;
            let mut inner = 0;
            loop {
                inner += 1;
                // The walk ends at the formatting element, below the furthest block; the
                // checks only keep hostile state from panicking.
                let Some(i) = node_index.checked_sub(1) else {
                    break;
                };
                node_index = i;
                let Some(&node) = self.open.get(node_index) else {
                    break;
                };
                if node == fe {
                    break;
                }
                let mut pos = self.afe_position(node);
                if inner > INNER_LOOP {
                    if let Some(p) = pos {
                        self.afe.remove(p);
                        if p < bookmark {
                            bookmark -= 1;
                        }
                        pos = None;
                    }
                }
                let Some(pos) = pos else {
                    self.open.remove(node_index);
                    // What stood above it moved down one.
                    self.p_floor = self.p_floor.min(node_index);
                    continue;
                };
                let new = self.dom.clone_element(node);
                self.afe[pos] = Entry::Element(new);
                self.open[node_index] = new;
                if last_node == furthest_block {
                    bookmark = pos + 1;
                }
                self.dom.append(new, last_node);
                last_node = new;
            }
            self.dom.detach(last_node);
            let place = self.place(Some(common_ancestor));
            self.insert_at(place, last_node);
            let new = self.dom.clone_element(fe);
            self.dom.move_children(furthest_block, new);
            self.dom.append(furthest_block, new);
            // The inner loop removes other entries only, so the formatting element is still
            // listed.
            if let Some(fe_afe) = self.afe_position(fe) {
                self.afe.remove(fe_afe);
                if fe_afe < bookmark {
                    bookmark -= 1;
                }
            }
            self.afe
                .insert(bookmark.min(self.afe.len()), Entry::Element(new));
            self.remove_from_stack(fe);
            // The inner loop works below the furthest block, so it is still open.
            match self.open.iter().position(|&n| n == furthest_block) {
                Some(fb) => self.open.insert(fb + 1, new),
                None => self.open.push(new),
            }
        }
        true
    }
}
