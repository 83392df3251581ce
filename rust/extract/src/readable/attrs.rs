//! The attributes the outline reads, found in one pass over an element's attribute list.
//!
//! `Table::build` asks every element for a dozen attributes; a lookup per name scanned the
//! whole list each time. One pass matches each attribute's name against the names wanted
//! (one `match`) and keeps the first of each, which is what [`crate::element_facts::html_attr`]
//! answers.

use crate::element_facts::style_hides;
use crate::tree::{tag, Element, Html, Ns};

/// The attributes in no namespace that the outline reads (see [`Attrs::of`]).
#[derive(Default)]
pub(super) struct Attrs<'a> {
    pub(super) class: Option<&'a str>,
    pub(super) id: Option<&'a str>,
    pub(super) href: Option<&'a str>,
    /// `type`.
    pub(super) kind: Option<&'a str>,
    pub(super) role: Option<&'a str>,
    pub(super) itemprop: Option<&'a str>,
    pub(super) itemtype: Option<&'a str>,
    pub(super) style: Option<&'a str>,
    pub(super) aria_hidden: Option<&'a str>,
    pub(super) aria_controls: Option<&'a str>,
    pub(super) property: Option<&'a str>,
    pub(super) content: Option<&'a str>,
    /// `hidden` and `popover` are present.
    pub(super) hidden: bool,
    pub(super) popover: bool,
    /// An attribute in any namespace that [`crate::element_facts::is_hidden`] reads (`hidden`,
    /// `aria-hidden`), or a `style` in a namespace: without one, or a `style` in no namespace
    /// that hides (see [`Attrs::may_hide`]), it answers no.
    pub(super) hiding_attr: bool,
    /// The `style` hides the element ([`style_hides`], the rule every view applies), read
    /// once here.
    pub(super) style_hides: bool,
}

/// The interned ids of the attribute names [`Attrs::of`] reads that have no fixed id
/// (`tag`): `None` when no element of the document carries the name. Looked up once a page,
/// so that each attribute is matched by comparing integers, not strings.
pub(super) struct AttrNames {
    style: Option<u32>,
    aria_controls: Option<u32>,
    popover: Option<u32>,
}

impl AttrNames {
    pub(super) fn of(doc: &Html) -> Self {
        let id = |name| doc.tree.name_id(name);
        AttrNames {
            style: id("style"),
            aria_controls: id("aria-controls"),
            popover: id("popover"),
        }
    }
}

impl<'a> Attrs<'a> {
    /// One pass over `el`'s attributes; each slot holds the first attribute of its name in
    /// no namespace, as `element_facts::html_attr` would find it (`names`: the document's, see
    /// [`AttrNames`]).
    pub(super) fn of(el: Element<'a>, names: &AttrNames) -> Self {
        let mut a = Attrs::default();
        let is = |id: u32, name: Option<u32>| name == Some(id);
        for (local, ns, v) in el.attr_ids() {
            if local == tag::HIDDEN || local == tag::ARIA_HIDDEN {
                a.hiding_attr = true;
            }
            if ns != Ns::None {
                a.hiding_attr |= is(local, names.style);
                continue;
            }
            let slot = match local {
                tag::CLASS => &mut a.class,
                tag::ID => &mut a.id,
                tag::HREF => &mut a.href,
                tag::TYPE => &mut a.kind,
                tag::ROLE => &mut a.role,
                tag::ITEMPROP => &mut a.itemprop,
                tag::ITEMTYPE => &mut a.itemtype,
                tag::ARIA_HIDDEN => &mut a.aria_hidden,
                tag::PROPERTY => &mut a.property,
                tag::CONTENT => &mut a.content,
                tag::HIDDEN => {
                    a.hidden = true;
                    continue;
                }
                id if is(id, names.style) => &mut a.style,
                id if is(id, names.aria_controls) => &mut a.aria_controls,
                id if is(id, names.popover) => {
                    a.popover = true;
                    continue;
                }
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(v);
            }
        }
        a.style_hides = a.style.is_some_and(style_hides);
        a
    }

    /// Whether [`crate::element_facts::is_hidden`] may answer yes: a hiding attribute, or the
    /// `style` in no namespace hides by the same rule ([`style_hides`]), so an element with
    /// neither needs no second look.
    pub(super) fn may_hide(&self) -> bool {
        self.hiding_attr || self.style_hides
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element_facts::html_attr;

    #[test]
    fn one_pass_finds_what_each_lookup_finds() {
        let html = r##"<div class="a b" id="x" role="main" itemprop="articleBody" style="display:none"
            aria-hidden="true" aria-controls="p q" hidden popover data-x="1">t</div>
            <a href="/h" type="text/html" itemtype="https://schema.org/Offer">l</a>
            <meta property="og:type" content="product"><svg><a xlink:href="#s">s</a></svg>
            <p CLASS="up" class="dup">d</p><span>none</span>
            <i style="DISPLAY : none !important">1</i><i style="color:red;visibility: Hidden">2</i>
            <i style=" display :	none;">3</i><i style="display:block">4</i><i aria-hidden=" TRUE ">5</i>"##;
        let doc = crate::parse(html);
        let (mut seen, mut hidden) = (0, 0);
        let names = AttrNames::of(&doc);
        for node in doc.tree.all_nodes().map(|n| n.value()) {
            let Some(el) = node.as_element() else {
                continue;
            };
            seen += 1;
            let a = Attrs::of(el, &names);
            let pairs = [
                (a.class, "class"),
                (a.id, "id"),
                (a.href, "href"),
                (a.kind, "type"),
                (a.role, "role"),
                (a.itemprop, "itemprop"),
                (a.itemtype, "itemtype"),
                (a.style, "style"),
                (a.aria_hidden, "aria-hidden"),
                (a.aria_controls, "aria-controls"),
                (a.property, "property"),
                (a.content, "content"),
            ];
            for (got, name) in pairs {
                assert_eq!(got, html_attr(el, name), "{name} on {}", el.name());
            }
            assert_eq!(a.hidden, html_attr(el, "hidden").is_some());
            assert_eq!(a.popover, html_attr(el, "popover").is_some());
            if crate::element_facts::is_hidden(el) {
                hidden += 1;
                assert!(a.may_hide());
            }
        }
        assert!(seen > 12);
        // The first div and the four hidden <i>.
        assert_eq!(hidden, 5);
    }
}
