//! The arena DOM: every node in one `Vec<Node>` linked by `u32` indices, names interned
//! into a small table, text and attribute values as ranges into one append-only `String`,
//! each element's attributes as a range into one shared `Vec<Attr>`. Why: building a node
//! allocates nothing of its own (scraper's tree costs ~150 bytes and several allocations a
//! node), and a whole document is a handful of vectors to free.

use std::collections::HashMap;

use crate::tree_builder::tag_ids::{known_id, tag, CLASSES, KNOWN, NO_NAME};

/// Index of a node in [`Dom::nodes`]; the document is node 0.
pub type NodeId = u32;

/// "No node" in the link fields; `u32::MAX` so that a real index never collides with it.
pub const NONE: u32 = u32::MAX;

/// The name of an unused slot in [`Dom::attrs`]: room a merged element's attributes grow
/// into (see [`Dom::add_missing_attrs`]). No interned name reaches it.
pub const FREE_ATTR: u32 = u32::MAX;

/// What a node is.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Document,
    /// A `<template>`'s contents (the node right after its template, see
    /// [`Dom::template_contents`]).
    Fragment,
    Doctype,
    Element,
    Text,
    Comment,
}

/// Namespaces of elements and attributes; `None` is the null namespace of plain attributes.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Ns {
    None,
    Html,
    Svg,
    MathMl,
    XLink,
    Xml,
    Xmlns,
}

/// One node. `name` and the range `a..b` mean, by kind: Element: name id and attribute
/// range in [`Dom::attrs`]; Text and Comment: `a..b` in the text buffer (for Text, a
/// `name` other than 0 means the text moved to [`Dom::grown`], at `name - 1`); Doctype:
/// `name` indexes [`Dom::doctypes`].
#[derive(Clone, Debug)]
pub struct Node {
    pub parent: u32,
    pub first_child: u32,
    pub last_child: u32,
    pub prev: u32,
    pub next: u32,
    pub name: u32,
    pub a: u32,
    pub b: u32,
    pub kind: Kind,
    pub ns: Ns,
}

/// One attribute: interned name, namespace (for `xlink:href` and kin) and value range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr {
    pub name: u32,
    pub start: u32,
    pub end: u32,
    pub ns: Ns,
}

/// A doctype's three strings as ranges; `None` keeps "missing" apart from "empty", which
/// quirks-mode detection and the html5lib dump both need.
#[derive(Clone, Copy, Debug)]
pub struct DoctypeData {
    pub name: (u32, u32),
    pub public: Option<(u32, u32)>,
    pub system: Option<(u32, u32)>,
}

/// The interned names of elements and attributes. Why a table and not `string_cache`
/// atoms: a `u32` id fits the node layout, and the table dies with the document. The known
/// names (`tag_ids::KNOWN`: the elements the tree builder treats apart, common attributes)
/// have the same ids in every document, found without hashing; the others are numbered
/// after them in the document's own table, hashed with foldhash's per-process random seed:
/// names are page data, so a fixed hash could be flooded with colliding names, and SipHash
/// cost a tenth of tree building.
#[derive(Default, Debug)]
pub struct Names {
    ids: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
    /// The names other than the known ones, name `KNOWN.len() + i` at `i`.
    names: Vec<Box<str>>,
}

impl Names {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(id) = known_id(name) {
            return id;
        }
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        // Fewer names than input bytes, so far below `u32::MAX`.
        let id = u32::try_from(KNOWN.len() + self.names.len()).unwrap_or(u32::MAX);
        self.names.push(name.into());
        self.ids.insert(name.into(), id);
        id
    }

    pub fn get(&self, id: u32) -> &str {
        let id = id as usize;
        match KNOWN.get(id) {
            Some(known) => known,
            None => self.names.get(id - KNOWN.len()).map_or("", |n| n),
        }
    }

    /// The class bits (`tag_sets::SPECIAL`, `tag_sets::SCOPE_BOUNDARY`, ...) of name `id` as an
    /// HTML element.
    #[inline]
    pub fn class(&self, id: u32) -> u8 {
        CLASSES.get(id as usize).copied().unwrap_or(0)
    }

    /// The id of a name that is not a known one, if this document interned it.
    #[inline]
    pub fn other(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    #[inline]
    pub fn lookup(&self, name: &str) -> Option<u32> {
        known_id(name).or_else(|| self.ids.get(name).copied())
    }
}

/// A whole document (or fragment parse): node 0 is the document node.
#[derive(Debug)]
pub struct Dom {
    pub nodes: Vec<Node>,
    /// Every element's attributes, each a range of this vector; between ranges it may hold
    /// unused slots ([`FREE_ATTR`]).
    pub attrs: Vec<Attr>,
    pub text: String,
    pub names: Names,
    pub doctypes: Vec<DoctypeData>,
    /// The text of text nodes that had to grow away from the end of [`Dom::text`] (see
    /// `Dom::extend_text`); such a node's `name` is 1 + its index here.
    pub grown: Vec<String>,
}

impl Default for Dom {
    fn default() -> Self {
        Self::new()
    }
}

impl Dom {
    pub fn new() -> Dom {
        let mut dom = Dom {
            nodes: Vec::new(),
            attrs: Vec::new(),
            text: String::new(),
            names: Names::default(),
            doctypes: Vec::new(),
            grown: Vec::new(),
        };
        dom.push(Kind::Document, Ns::None, 0, 0, 0);
        dom
    }

    pub const DOCUMENT: NodeId = 0;

    /// Room for `nodes` nodes, `text` bytes of text and `attrs` attributes, so that building
    /// the tree does not copy the vectors as they double (and touch twice the memory).
    /// Capacity never written costs no memory: the pages are not touched.
    pub fn reserve(&mut self, nodes: usize, text: usize, attrs: usize) {
        self.nodes.reserve(nodes);
        self.text.reserve(text);
        self.attrs.reserve(attrs);
    }

    /// Add a node. The tree builder stops before the arena could fill (its
    /// `Limits::max_nodes`); should a caller go on, the ids saturate at the last one rather
    /// than wrap to `NONE`.
    fn push(&mut self, kind: Kind, ns: Ns, name: u32, a: u32, b: u32) -> NodeId {
        let id = u32::try_from(self.nodes.len())
            .unwrap_or(NONE)
            .min(NONE - 1);
        debug_assert!(self.nodes.len() < NONE as usize, "arena full");
        self.nodes.push(Node {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            name,
            a,
            b,
            kind,
            ns,
        });
        id
    }

    /// Append `s` to the text buffer; its range. Ranges are `u32`: text that would end past
    /// `u32::MAX` bytes is left out (an empty range) rather than wrap.
    fn push_str(&mut self, s: &str) -> (u32, u32) {
        let start = Self::offset(self.text.len());
        if Self::fits(self.text.len(), s.len()) {
            self.text.push_str(s);
        }
        (start, Self::offset(self.text.len()))
    }

    /// Whether `add` more bytes (or entries) after `len` still have `u32` offsets.
    fn fits(len: usize, add: usize) -> bool {
        len.checked_add(add).is_some_and(|n| n <= u32::MAX as usize)
    }

    /// A buffer offset as `u32` ([`Dom::fits`] keeps every one in range).
    fn offset(len: usize) -> u32 {
        u32::try_from(len).unwrap_or(u32::MAX)
    }

    fn slice(&self, (a, b): (u32, u32)) -> &str {
        &self.text[a as usize..b as usize]
    }

    /// A new detached element. For an HTML `<template>` the contents fragment is created
    /// right after it, so it is always `id + 1` and needs no field of its own.
    pub fn new_element<'a>(
        &mut self,
        ns: Ns,
        name: &str,
        attrs: impl IntoIterator<Item = (Ns, &'a str, &'a str)>,
    ) -> NodeId {
        let name_id = self.names.intern(name);
        let attrs = attrs.into_iter().map(|(ns, n, v)| (ns, NO_NAME, n, v));
        self.new_element_id(ns, name_id, attrs)
    }

    /// [`Dom::new_element`] for a name already interned as `name_id`, and attributes each
    /// with its name's known id ([`NO_NAME`]: interned from the name, known or not).
    pub(crate) fn new_element_id<'a>(
        &mut self,
        ns: Ns,
        name_id: u32,
        attrs: impl IntoIterator<Item = (Ns, u32, &'a str, &'a str)>,
    ) -> NodeId {
        let a = Self::offset(self.attrs.len());
        for (ans, known, aname, value) in attrs {
            if !Self::fits(self.attrs.len(), 1) {
                break;
            }
            let name = match known {
                NO_NAME => self.names.intern(aname),
                known => known,
            };
            let (start, end) = self.push_str(value);
            self.attrs.push(Attr {
                name,
                start,
                end,
                ns: ans,
            });
        }
        let b = Self::offset(self.attrs.len());
        let id = self.push(Kind::Element, ns, name_id, a, b);
        if ns == Ns::Html && name_id == tag::TEMPLATE {
            let frag = self.push(Kind::Fragment, Ns::None, 0, 0, 0);
            // The fragment points up to its template without being one of its children.
            self.nodes[frag as usize].parent = id;
        }
        id
    }

    /// A new element with the same name and attributes as `src` (the adoption agency's and
    /// reconstruction's "create an element for the token"): attributes are shared, since
    /// ranges never change once written.
    pub fn clone_element(&mut self, src: NodeId) -> NodeId {
        let n = &self.nodes[src as usize];
        let (ns, name, a, b) = (n.ns, n.name, n.a, n.b);
        let id = self.push(Kind::Element, ns, name, a, b);
        if ns == Ns::Html && self.names.get(name) == "template" {
            let frag = self.push(Kind::Fragment, Ns::None, 0, 0, 0);
            self.nodes[frag as usize].parent = id;
        }
        id
    }

    pub fn new_text(&mut self, s: &str) -> NodeId {
        let (a, b) = self.push_str(s);
        self.push(Kind::Text, Ns::None, 0, a, b)
    }

    pub fn new_comment(&mut self, s: &str) -> NodeId {
        let (a, b) = self.push_str(s);
        self.push(Kind::Comment, Ns::None, 0, a, b)
    }

    pub fn new_doctype(
        &mut self,
        name: &str,
        public: Option<&str>,
        system: Option<&str>,
    ) -> NodeId {
        let data = DoctypeData {
            name: self.push_str(name),
            public: public.map(|s| self.push_str(s)),
            system: system.map(|s| self.push_str(s)),
        };
        self.doctypes.push(data);
        self.push(
            Kind::Doctype,
            Ns::None,
            Self::offset(self.doctypes.len()).saturating_sub(1),
            0,
            0,
        )
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn kind(&self, id: NodeId) -> Kind {
        self.nodes[id as usize].kind
    }

    fn link(id: u32) -> Option<NodeId> {
        (id != NONE).then_some(id)
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        // A template fragment's parent link names its template but it is no child of it.
        if self.kind(id) == Kind::Fragment {
            return None;
        }
        Self::link(self.nodes[id as usize].parent)
    }

    pub fn first_child(&self, id: NodeId) -> Option<NodeId> {
        Self::link(self.nodes[id as usize].first_child)
    }

    pub fn last_child(&self, id: NodeId) -> Option<NodeId> {
        Self::link(self.nodes[id as usize].last_child)
    }

    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        Self::link(self.nodes[id as usize].next)
    }

    pub fn prev_sibling(&self, id: NodeId) -> Option<NodeId> {
        Self::link(self.nodes[id as usize].prev)
    }

    /// An element's namespace and local name (`None` for other kinds).
    pub fn element_name(&self, id: NodeId) -> Option<(Ns, &str)> {
        let n = &self.nodes[id as usize];
        (n.kind == Kind::Element).then(|| (n.ns, self.names.get(n.name)))
    }

    /// Whether `id` is an HTML element named `name`.
    pub fn is_html(&self, id: NodeId, name: &str) -> bool {
        self.element_name(id) == Some((Ns::Html, name))
    }

    pub fn attrs(&self, id: NodeId) -> &[Attr] {
        let n = &self.nodes[id as usize];
        if n.kind != Kind::Element {
            return &[];
        }
        &self.attrs[n.a as usize..n.b as usize]
    }

    pub fn attr_name(&self, attr: &Attr) -> &str {
        self.names.get(attr.name)
    }

    pub fn attr_value(&self, attr: &Attr) -> &str {
        self.slice((attr.start, attr.end))
    }

    /// The value of the null-namespace attribute `name` of element `id`.
    /// A linear scan comparing names: elements carry few attributes, and hashing `name`
    /// to look it up would cost more than the scan.
    pub fn get_attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.attrs(id)
            .iter()
            .find(|a| a.ns == Ns::None && self.names.get(a.name) == name)
            .map(|a| self.attr_value(a))
    }

    /// Text of a text or comment node.
    pub fn text(&self, id: NodeId) -> &str {
        let n = &self.nodes[id as usize];
        match n.kind {
            Kind::Text if n.name != 0 => self
                .grown
                .get(n.name as usize - 1)
                .map_or("", String::as_str),
            Kind::Text | Kind::Comment => self.slice((n.a, n.b)),
            _ => "",
        }
    }

    /// A doctype's name, public id and system id.
    pub fn doctype(&self, id: NodeId) -> Option<(&str, Option<&str>, Option<&str>)> {
        let n = &self.nodes[id as usize];
        (n.kind == Kind::Doctype).then(|| {
            let d = self.doctypes[n.name as usize];
            (
                self.slice(d.name),
                d.public.map(|r| self.slice(r)),
                d.system.map(|r| self.slice(r)),
            )
        })
    }

    /// A `<template>`'s contents fragment.
    pub fn template_contents(&self, id: NodeId) -> Option<NodeId> {
        // By id (`template` is a known name, interned as `tag::TEMPLATE` in every document):
        // the tree builder asks this at every insertion.
        let n = &self.nodes[id as usize];
        (n.kind == Kind::Element && n.ns == Ns::Html && n.name == tag::TEMPLATE).then_some(id + 1)
    }

    /// Take `id` out of its parent's children (no-op when detached).
    pub fn detach(&mut self, id: NodeId) {
        let n = &self.nodes[id as usize];
        let (parent, prev, next) = (n.parent, n.prev, n.next);
        if parent == NONE || n.kind == Kind::Fragment {
            return;
        }
        if prev == NONE {
            self.nodes[parent as usize].first_child = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NONE {
            self.nodes[parent as usize].last_child = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
        let n = &mut self.nodes[id as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    /// Make `child` the last child of `parent` (detaching it first).
    pub fn append(&mut self, parent: NodeId, child: NodeId) {
        self.detach(child);
        self.append_new(parent, child);
    }

    /// [`Dom::append`] for a node never attached (just created): nothing to detach first.
    /// Why: the tree builder appends every new node, and the detach read each one for
    /// nothing (1% of the table page's parse).
    #[inline]
    pub(crate) fn append_new(&mut self, parent: NodeId, child: NodeId) {
        debug_assert!(self.nodes[child as usize].parent == NONE);
        let last = self.nodes[parent as usize].last_child;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = last;
        }
        if last == NONE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[last as usize].next = child;
        }
        self.nodes[parent as usize].last_child = child;
    }

    /// Put `child` just before `before`, a child of `parent`.
    pub fn insert_before(&mut self, parent: NodeId, child: NodeId, before: NodeId) {
        self.detach(child);
        let prev = self.nodes[before as usize].prev;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = before;
        }
        self.nodes[before as usize].prev = child;
        if prev == NONE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[prev as usize].next = child;
        }
    }

    /// Add `s` to the text node `id`. The buffer is append-only: a node whose text is at its
    /// end grows in place; one whose text is not (rare: text inserted somewhere other than
    /// where parsing just was, as with foster parenting) moves to a string of its own in
    /// [`Dom::grown`] and grows there. Why not copy it to the buffer's end: fostered text
    /// alternating with cell text (`<td>b</td>a`, repeated) would copy the growing node
    /// each time, quadratic in time and in memory.
    fn extend_text(&mut self, id: NodeId, s: &str) {
        let n = &self.nodes[id as usize];
        let (a, b, grown) = (n.a, n.b, n.name);
        if grown != 0 {
            if let Some(g) = self.grown.get_mut(grown as usize - 1) {
                g.push_str(s);
            }
            return;
        }
        if b as usize == self.text.len() {
            if Self::fits(self.text.len(), s.len()) {
                self.text.push_str(s);
                self.nodes[id as usize].b = Self::offset(self.text.len());
            }
            return;
        }
        let Ok(index) = u32::try_from(self.grown.len() + 1) else {
            return;
        };
        let mut own = self.text[a as usize..b as usize].to_string();
        own.push_str(s);
        self.grown.push(own);
        self.nodes[id as usize].name = index;
    }

    /// Insert text at the end of `parent`, merging with a text node already there.
    pub fn append_text(&mut self, parent: NodeId, s: &str) {
        match self.last_child(parent) {
            Some(last) if self.kind(last) == Kind::Text => self.extend_text(last, s),
            _ => {
                let t = self.new_text(s);
                self.append_new(parent, t);
            }
        }
    }

    /// Insert text just before `before`, merging with a text node right before it.
    pub fn insert_text_before(&mut self, parent: NodeId, before: NodeId, s: &str) {
        match self.prev_sibling(before) {
            Some(prev) if self.kind(prev) == Kind::Text => self.extend_text(prev, s),
            _ => {
                let t = self.new_text(s);
                self.insert_before(parent, t, before);
            }
        }
    }

    /// Move all children of `from` to the end of `to`, in order.
    pub fn move_children(&mut self, from: NodeId, to: NodeId) {
        while let Some(child) = self.first_child(from) {
            self.append(to, child);
        }
    }

    /// Add to element `id` the attributes it does not have yet (a second `<html>` or
    /// `<body>` tag), up to `max` in all.
    ///
    /// In place: attribute ranges are contiguous, so a set that cannot grow where it is
    /// moves once to the end of the shared vector with as much room again behind it (up to
    /// `max`), marked [`FREE_ATTR`], and later merges fill that room. Why: writing the
    /// merged set anew for every tag made one attribute per repeated `<body>`/`<html>` tag
    /// copy a growing set each time, quadratic in the page (issue 45, F1); with the room
    /// doubling, each attribute is copied a bounded number of times whatever `max` is. The
    /// names already there are compared one by one: `max` bounds that scan.
    pub fn add_missing_attrs<'a>(
        &mut self,
        id: NodeId,
        attrs: impl IntoIterator<Item = (&'a str, &'a str)>,
        max: usize,
    ) {
        let n = &self.nodes[id as usize];
        if n.kind != Kind::Element {
            return;
        }
        let (mut a, mut b) = (n.a as usize, n.b as usize);
        for (name, value) in attrs {
            if b - a >= max {
                break;
            }
            let name = self.names.intern(name);
            if self.attrs[a..b]
                .iter()
                .any(|x| x.ns == Ns::None && x.name == name)
            {
                continue;
            }
            if !self.room_at(b) {
                let Some(at) = self.move_attrs(a, b, max) else {
                    break;
                };
                (a, b) = (at, at + (b - a));
            }
            let (start, end) = self.push_str(value);
            let attr = Attr {
                name,
                start,
                end,
                ns: Ns::None,
            };
            if b == self.attrs.len() {
                self.attrs.push(attr);
            } else {
                self.attrs[b] = attr;
            }
            b += 1;
            let n = &mut self.nodes[id as usize];
            n.a = Self::offset(a);
            n.b = Self::offset(b);
        }
    }

    /// Whether an attribute range ending at `b` can take one more where it is: at the end
    /// of the vector, or before room left by [`Dom::move_attrs`].
    fn room_at(&self, b: usize) -> bool {
        match self.attrs.get(b) {
            None => Self::fits(b, 1),
            Some(next) => next.name == FREE_ATTR,
        }
    }

    /// Copy the attribute range `a..b` to the end of the vector followed by as many free
    /// slots (at least one, and no more than `max` in all); where it starts now. `None`
    /// when the `u32` offsets would run out.
    fn move_attrs(&mut self, a: usize, b: usize, max: usize) -> Option<usize> {
        let len = b - a;
        let room = (2 * len).max(4).min(max).max(len + 1);
        let at = self.attrs.len();
        if !Self::fits(at, room) {
            return None;
        }
        self.attrs.extend_from_within(a..b);
        let free = Attr {
            name: FREE_ATTR,
            start: 0,
            end: 0,
            ns: Ns::None,
        };
        self.attrs.resize(at + room, free);
        Some(at)
    }

    /// The children of `id`, first to last.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            dom: self,
            next: self.nodes[id as usize].first_child,
        }
    }

    /// `id` and everything under it, preorder; see `Descendants::skip_subtree`.
    pub fn descendants(&self, id: NodeId) -> Descendants<'_> {
        Descendants {
            dom: self,
            root: id,
            last: NONE,
            skip: false,
            done: false,
        }
    }

    /// The parent of `id`, its parent, and so on up to the root.
    pub fn ancestors(&self, id: NodeId) -> Ancestors<'_> {
        Ancestors {
            dom: self,
            next: self.parent(id).unwrap_or(NONE),
        }
    }
}

pub struct Children<'a> {
    dom: &'a Dom,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = Dom::link(self.next)?;
        self.next = self.dom.nodes[id as usize].next;
        Some(id)
    }
}

pub struct Descendants<'a> {
    dom: &'a Dom,
    root: NodeId,
    /// The node returned last (`NONE` before the first call).
    last: u32,
    skip: bool,
    done: bool,
}

impl Descendants<'_> {
    /// Do not descend into the node returned last: the next call goes to its next sibling
    /// (or an ancestor's). Why: walkers that drop whole subtrees (`<script>`, hidden
    /// elements) should not pay for visiting them.
    pub fn skip_subtree(&mut self) {
        self.skip = true;
    }
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.done {
            return None;
        }
        if self.last == NONE {
            self.last = self.root;
            return Some(self.root);
        }
        let nodes = &self.dom.nodes;
        let mut cur = self.last;
        if !std::mem::take(&mut self.skip) && nodes[cur as usize].first_child != NONE {
            self.last = nodes[cur as usize].first_child;
            return Some(self.last);
        }
        loop {
            if cur == self.root || cur == NONE {
                self.done = true;
                return None;
            }
            let n = &nodes[cur as usize];
            if n.next != NONE {
                self.last = n.next;
                return Some(n.next);
            }
            cur = n.parent;
        }
    }
}

pub struct Ancestors<'a> {
    dom: &'a Dom,
    next: u32,
}

impl Iterator for Ancestors<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = Dom::link(self.next)?;
        self.next = self.dom.parent(id).unwrap_or(NONE);
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_small() {
        // 5 links + name + range (8 × u32) + kind + ns, padded to 4.
        assert_eq!(std::mem::size_of::<Node>(), 36);
        assert_eq!(std::mem::size_of::<Attr>(), 16);
    }

    fn tree() -> (Dom, [NodeId; 5]) {
        let mut dom = Dom::new();
        let html = dom.new_element(Ns::Html, "html", []);
        let body = dom.new_element(Ns::Html, "body", [(Ns::None, "class", "x")]);
        let p = dom.new_element(Ns::Html, "p", []);
        let b = dom.new_element(Ns::Html, "b", []);
        dom.append(Dom::DOCUMENT, html);
        dom.append(html, body);
        dom.append(body, p);
        dom.append_text(p, "a");
        dom.append(p, b);
        dom.append_text(p, "c");
        (dom, [html, body, p, b, 0])
    }

    #[test]
    fn links_and_iterators() {
        let (dom, [html, body, p, b, _]) = tree();
        assert_eq!(dom.children(p).count(), 3);
        assert_eq!(dom.get_attr(body, "class"), Some("x"));
        let all: Vec<_> = dom.descendants(Dom::DOCUMENT).collect();
        assert_eq!(all.len(), 7);
        assert_eq!(&all[..4], &[Dom::DOCUMENT, html, body, p]);
        let up: Vec<_> = dom.ancestors(b).collect();
        assert_eq!(up, vec![p, body, html, Dom::DOCUMENT]);
        // Skipping <p>'s subtree leaves nothing after it.
        let mut it = dom.descendants(Dom::DOCUMENT);
        let mut seen = Vec::new();
        while let Some(n) = it.next() {
            seen.push(n);
            if n == p {
                it.skip_subtree();
            }
        }
        assert_eq!(seen, vec![Dom::DOCUMENT, html, body, p]);
        // A subtree walk stops at its root, and stays exhausted.
        assert_eq!(dom.descendants(b).count(), 1);
        let mut it = dom.descendants(p);
        assert_eq!(it.by_ref().count(), 4);
        assert_eq!(it.next(), None);
    }

    #[test]
    fn text_merges_and_moves() {
        let (mut dom, [_, body, p, b, _]) = tree();
        dom.detach(b);
        // "a" and "c" are now adjacent but separate nodes; appending merges into the last.
        dom.append_text(p, "d");
        let texts: Vec<_> = dom.children(p).map(|c| dom.text(c).to_string()).collect();
        assert_eq!(texts, vec!["a", "cd"]);
        // Extending a node whose text is not at the buffer's end copies it first.
        let first = dom.first_child(p).unwrap();
        dom.insert_text_before(p, dom.next_sibling(first).unwrap(), "b");
        assert_eq!(dom.text(first), "ab");
        dom.move_children(p, body);
        assert_eq!(dom.first_child(p), None);
        assert_eq!(dom.children(body).count(), 3);
        dom.add_missing_attrs(body, [("class", "y"), ("id", "z")], usize::MAX);
        assert_eq!(dom.get_attr(body, "class"), Some("x"));
        assert_eq!(dom.get_attr(body, "id"), Some("z"));
    }

    /// Merges alternating between two elements, each adding one attribute and a new
    /// element after it (`<body a0><i><html a1><i>...`): each set moves to the end of the
    /// vector a few times, with room to grow, and is otherwise written in place. Before,
    /// every merge wrote its whole set anew: 2 x 10,000 merges copied 100 million
    /// attributes.
    #[test]
    fn merged_attributes_grow_in_place() {
        let (mut dom, [html, body, ..]) = tree();
        const N: usize = 10_000;
        let names: Vec<String> = (0..2 * N).map(|i| format!("a{i}")).collect();
        for pair in names.chunks(2) {
            dom.add_missing_attrs(body, [(&*pair[0], "v")], usize::MAX);
            dom.new_element(Ns::Html, "i", [(Ns::None, "k", "v")]);
            dom.add_missing_attrs(html, [(&*pair[1], "w")], usize::MAX);
            dom.new_element(Ns::Html, "i", []);
        }
        assert_eq!(dom.attrs(body).len(), N + 1);
        assert_eq!(dom.attrs(html).len(), N);
        assert_eq!(dom.get_attr(body, "class"), Some("x"));
        assert_eq!(dom.get_attr(body, &names[2 * N - 2]), Some("v"));
        assert_eq!(dom.get_attr(html, &names[2 * N - 1]), Some("w"));
        // Each set and its room at most four times its size, plus one per `<i>`.
        assert!(dom.attrs.len() < 4 * (2 * N + 1) + N, "{}", dom.attrs.len());
        // A clone shares its source's range and keeps it when the source grows.
        let copy = dom.clone_element(body);
        dom.add_missing_attrs(body, [("late", "1")], usize::MAX);
        assert_eq!(dom.get_attr(copy, "late"), None);
        assert_eq!(dom.get_attr(body, "late"), Some("1"));
        dom.add_missing_attrs(copy, [("own", "2")], usize::MAX);
        assert_eq!(dom.get_attr(copy, "own"), Some("2"));
        assert_eq!(dom.get_attr(body, "own"), None);
        assert_eq!(dom.get_attr(copy, "late"), None);
    }

    /// Up to `max` in all, a repeated name not added, the first value kept.
    #[test]
    fn merged_attributes_stop_at_the_cap() {
        let (mut dom, [_, body, ..]) = tree();
        dom.add_missing_attrs(
            body,
            [("a", "1"), ("a", "2"), ("class", "y"), ("b", "3")],
            3,
        );
        assert_eq!(dom.attrs(body).len(), 3);
        assert_eq!(dom.get_attr(body, "a"), Some("1"));
        assert_eq!(dom.get_attr(body, "class"), Some("x"));
        let before = dom.attrs.len();
        dom.add_missing_attrs(body, [("c", "4")], 3);
        assert_eq!(dom.attrs.len(), before, "a full set is not touched");
        assert_eq!(dom.get_attr(body, "c"), None);
    }

    #[test]
    fn template_contents_follow_the_template() {
        let mut dom = Dom::new();
        let t = dom.new_element(Ns::Html, "template", []);
        let c = dom.template_contents(t).unwrap();
        assert_eq!(dom.kind(c), Kind::Fragment);
        assert_eq!(dom.parent(c), None);
        let t2 = dom.clone_element(t);
        assert_eq!(dom.kind(t2 + 1), Kind::Fragment);
    }
}
