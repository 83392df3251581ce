//! Read-only views of a finished [`Dom`]: a node handle ([`NodeRef`]) that walks the tree by
//! its links, what a node holds ([`Node`], [`Element`]) and the walks every reader repeats
//! (children, descendants, ancestors, open/close edges). Handles are a reference and a `u32`,
//! `Copy`, and allocate nothing. Why these names: they are the ones scraper and ego-tree gave
//! the readers before this tree replaced theirs, so the readers changed in types, not logic.

use crate::arena::{Dom, Kind, NodeId, Ns};

/// A node of `dom`, with the links to walk from it.
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    dom: &'a Dom,
    id: NodeId,
}

impl PartialEq for NodeRef<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.dom, other.dom)
    }
}

impl Eq for NodeRef<'_> {}

impl std::fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NodeRef({}: {:?})", self.id, self.value())
    }
}

/// What a node is and holds.
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    Document,
    /// A `<template>`'s contents (not a child of the template: see [`Dom::template_contents`]).
    Fragment,
    Doctype,
    Comment(&'a str),
    Text(&'a str),
    Element(Element<'a>),
}

impl<'a> Node<'a> {
    #[inline]
    pub fn as_element(&self) -> Option<Element<'a>> {
        match *self {
            Node::Element(el) => Some(el),
            _ => None,
        }
    }

    #[inline]
    pub fn as_text(&self) -> Option<&'a str> {
        match *self {
            Node::Text(t) => Some(t),
            _ => None,
        }
    }

    #[inline]
    pub fn is_element(&self) -> bool {
        matches!(self, Node::Element(_))
    }

    #[inline]
    pub fn is_text(&self) -> bool {
        matches!(self, Node::Text(_))
    }
}

/// An element: its name, namespace and attributes.
#[derive(Clone, Copy)]
pub struct Element<'a> {
    dom: &'a Dom,
    id: NodeId,
}

impl std::fmt::Debug for Element<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{}", self.name())?;
        for (name, value) in self.attrs() {
            write!(f, " {name}={value:?}")?;
        }
        write!(f, ">")
    }
}

impl<'a> Element<'a> {
    /// The local name (lower case for HTML elements; SVG's camel case where the standard
    /// adjusts it).
    #[inline]
    pub fn name(&self) -> &'a str {
        self.dom.names.get(self.dom.node(self.id).name)
    }

    /// The interned id of [`Element::name`] (compare with [`Dom::name_id`]).
    #[inline]
    pub fn name_id(&self) -> u32 {
        self.dom.node(self.id).name
    }

    #[inline]
    pub fn ns(&self) -> Ns {
        self.dom.node(self.id).ns
    }

    /// Whether the element has any attribute.
    #[inline]
    pub fn has_attrs(&self) -> bool {
        let n = self.dom.node(self.id);
        n.b > n.a
    }

    /// `(local name, value)` of every attribute, in source order (the first of a repeated
    /// name only: the tokenizer drops the rest).
    pub fn attrs(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let dom = self.dom;
        dom.attrs(self.id)
            .iter()
            .map(move |a| (dom.attr_name(a), dom.attr_value(a)))
    }

    /// `(local name, namespace, value)` of every attribute, in source order.
    pub fn attrs_ns(&self) -> impl Iterator<Item = (&'a str, Ns, &'a str)> + 'a {
        let dom = self.dom;
        dom.attrs(self.id)
            .iter()
            .map(move |a| (dom.attr_name(a), a.ns, dom.attr_value(a)))
    }

    /// `(interned name id, namespace, value)` of every attribute, in source order: for
    /// readers that compare many names (see [`Dom::name_id`]).
    pub fn attr_ids(&self) -> impl Iterator<Item = (u32, Ns, &'a str)> + 'a {
        let dom = self.dom;
        dom.attrs(self.id)
            .iter()
            .map(move |a| (a.name, a.ns, dom.attr_value(a)))
    }

    /// The value of the attribute `name` in no namespace (what `getAttribute` finds on an
    /// HTML element).
    #[inline]
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        self.dom.get_attr(self.id, name)
    }

    /// The value of an attribute by local name in any namespace, the null namespace first
    /// (`href` before `xlink:href`).
    pub fn attr_any(&self, name: &str) -> Option<&'a str> {
        // One pass: the first match in no namespace wins, else the first in any.
        let dom = self.dom;
        let mut other = None;
        for a in dom.attrs(self.id) {
            if dom.attr_name(a) == name {
                if a.ns == Ns::None {
                    return Some(dom.attr_value(a));
                }
                other = other.or(Some(dom.attr_value(a)));
            }
        }
        other
    }
}

impl<'a> NodeRef<'a> {
    #[inline]
    pub fn id(&self) -> NodeId {
        self.id
    }

    #[inline]
    fn at(&self, id: Option<NodeId>) -> Option<NodeRef<'a>> {
        id.map(|id| NodeRef { dom: self.dom, id })
    }

    /// What the node holds.
    #[inline]
    pub fn value(&self) -> Node<'a> {
        let dom = self.dom;
        match dom.kind(self.id) {
            Kind::Document => Node::Document,
            Kind::Fragment => Node::Fragment,
            Kind::Doctype => Node::Doctype,
            Kind::Comment => Node::Comment(dom.text(self.id)),
            Kind::Text => Node::Text(dom.text(self.id)),
            Kind::Element => Node::Element(Element { dom, id: self.id }),
        }
    }

    /// The element this node is, if it is one.
    #[inline]
    pub fn element(&self) -> Option<Element<'a>> {
        (self.dom.kind(self.id) == Kind::Element).then_some(Element {
            dom: self.dom,
            id: self.id,
        })
    }

    #[inline]
    pub fn parent(&self) -> Option<NodeRef<'a>> {
        self.at(self.dom.parent(self.id))
    }

    #[inline]
    pub fn first_child(&self) -> Option<NodeRef<'a>> {
        self.at(self.dom.first_child(self.id))
    }

    #[inline]
    pub fn last_child(&self) -> Option<NodeRef<'a>> {
        self.at(self.dom.last_child(self.id))
    }

    #[inline]
    pub fn next_sibling(&self) -> Option<NodeRef<'a>> {
        self.at(self.dom.next_sibling(self.id))
    }

    #[inline]
    pub fn prev_sibling(&self) -> Option<NodeRef<'a>> {
        self.at(self.dom.prev_sibling(self.id))
    }

    #[inline]
    pub fn has_children(&self) -> bool {
        self.dom.first_child(self.id).is_some()
    }

    /// The children, first to last.
    #[inline]
    pub fn children(&self) -> Children<'a> {
        Children {
            next: self.first_child(),
        }
    }

    /// The ancestors, parent first (the node itself not included).
    pub fn ancestors(&self) -> Ancestors<'a> {
        Ancestors {
            next: self.parent(),
        }
    }

    /// The node and every node below it, in document order.
    pub fn descendants(&self) -> Descendants<'a> {
        Descendants(self.traverse())
    }

    /// The subtree at this node as open and close edges, in document order: every node
    /// opens, then its subtree, then closes. Iterative: no recursion, whatever the depth.
    pub fn traverse(&self) -> Traverse<'a> {
        Traverse {
            root: *self,
            next: Some(Edge::Open(*self)),
        }
    }
}

/// See [`NodeRef::children`].
pub struct Children<'a> {
    next: Option<NodeRef<'a>>,
}

impl<'a> Iterator for Children<'a> {
    type Item = NodeRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.next?;
        self.next = node.next_sibling();
        Some(node)
    }
}

/// See [`NodeRef::ancestors`].
pub struct Ancestors<'a> {
    next: Option<NodeRef<'a>>,
}

impl<'a> Iterator for Ancestors<'a> {
    type Item = NodeRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.next?;
        self.next = node.parent();
        Some(node)
    }
}

/// One step of [`NodeRef::traverse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge<'a> {
    Open(NodeRef<'a>),
    Close(NodeRef<'a>),
}

/// See [`NodeRef::traverse`].
pub struct Traverse<'a> {
    root: NodeRef<'a>,
    next: Option<Edge<'a>>,
}

impl<'a> Iterator for Traverse<'a> {
    type Item = Edge<'a>;
    fn next(&mut self) -> Option<Edge<'a>> {
        let edge = self.next?;
        self.next = match edge {
            Edge::Open(node) => Some(match node.first_child() {
                Some(child) => Edge::Open(child),
                None => Edge::Close(node),
            }),
            Edge::Close(node) if node == self.root => None,
            Edge::Close(node) => match node.next_sibling() {
                Some(sibling) => Some(Edge::Open(sibling)),
                None => node.parent().map(Edge::Close),
            },
        };
        Some(edge)
    }
}

/// See [`NodeRef::descendants`].
pub struct Descendants<'a>(Traverse<'a>);

impl<'a> Iterator for Descendants<'a> {
    type Item = NodeRef<'a>;
    fn next(&mut self) -> Option<NodeRef<'a>> {
        loop {
            match self.0.next()? {
                Edge::Open(node) => return Some(node),
                Edge::Close(_) => continue,
            }
        }
    }
}

impl Dom {
    /// The document node.
    #[inline]
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef {
            dom: self,
            id: Dom::DOCUMENT,
        }
    }

    /// The node `id`, if the arena holds one.
    #[inline]
    pub fn get(&self, id: NodeId) -> Option<NodeRef<'_>> {
        ((id as usize) < self.nodes.len()).then_some(NodeRef { dom: self, id })
    }

    /// Every node of the arena in creation order, including nodes the parse detached
    /// (moved by the adoption agency, a `<template>`'s contents).
    pub fn all_nodes(&self) -> impl ExactSizeIterator<Item = NodeRef<'_>> + '_ {
        (0..self.nodes.len()).map(move |i| NodeRef {
            dom: self,
            id: i as NodeId,
        })
    }

    /// Nodes in the arena.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: the document node is always there.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The interned id of an element or attribute name: `None` when no node carries it (a
    /// known name, `tag_ids::KNOWN`, always has its fixed id). Then [`Element::name_id`] and
    /// [`Element::attr_ids`] can be compared by integer.
    #[inline]
    pub fn name_id(&self, name: &str) -> Option<u32> {
        self.names.lookup(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `<a><b>t</b><c/></a>` built by hand.
    fn small() -> Dom {
        let mut dom = Dom::new();
        let a = dom.new_element(Ns::Html, "a", [(Ns::None, "href", "x")]);
        let b = dom.new_element(Ns::Html, "b", []);
        let c = dom.new_element(Ns::Html, "c", []);
        dom.append(Dom::DOCUMENT, a);
        dom.append(a, b);
        dom.append_text(b, "t");
        dom.append(a, c);
        dom
    }

    fn label(n: NodeRef<'_>) -> String {
        match n.value() {
            Node::Document => "#doc".into(),
            Node::Element(el) => el.name().into(),
            Node::Text(t) => format!("'{t}'"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn traverse_opens_and_closes_every_node_once() {
        let dom = small();
        let got: Vec<String> = dom
            .root()
            .traverse()
            .map(|e| match e {
                Edge::Open(n) => format!("+{}", label(n)),
                Edge::Close(n) => format!("-{}", label(n)),
            })
            .collect();
        assert_eq!(got.join(" "), "+#doc +a +b +'t' -'t' -b +c -c -a -#doc");
    }

    #[test]
    fn a_subtree_walk_stays_inside_it() {
        let dom = small();
        let b = dom.root().descendants().find(|n| label(*n) == "b").unwrap();
        let names: Vec<String> = b.descendants().map(label).collect();
        assert_eq!(names, ["b", "'t'"]);
        let up: Vec<String> = b.ancestors().map(label).collect();
        assert_eq!(up, ["a", "#doc"]);
        assert_eq!(b.next_sibling().map(label).as_deref(), Some("c"));
    }

    #[test]
    fn attributes_by_name() {
        let dom = small();
        let a = dom.root().first_child().unwrap().element().unwrap();
        assert_eq!(a.attr("href"), Some("x"));
        assert_eq!(a.attr("rel"), None);
        assert!(a.has_attrs());
        assert_eq!(a.attrs().collect::<Vec<_>>(), [("href", "x")]);
        assert_eq!(a.name_id(), dom.name_id("a").unwrap());
    }
}
