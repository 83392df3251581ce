//! Small facts about elements shared by every view: attribute lookup, what is never shown,
//! what is a block.

use crate::tree::{tag, Element, NodeId};
use webgrip_html::Dom;

/// An attribute value by (lower-case) local name, in any namespace (the null namespace
/// first, so `href` before `xlink:href`).
#[inline]
pub fn attr<'a>(el: Element<'a>, name: &str) -> Option<&'a str> {
    el.attr_any(name)
}

/// The attribute `name` in no namespace (what `getAttribute` finds on an HTML element).
#[inline]
pub fn html_attr<'a>(el: Element<'a>, name: &str) -> Option<&'a str> {
    el.attr(name)
}

/// Elements whose content a reader never sees as text.
#[inline]
pub fn is_invisible_tag(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "template"
            | "noscript"
            | "svg"
            | "head"
            | "iframe"
            | "object"
            | "embed"
            | "canvas"
            | "audio"
            | "video"
            | "map"
            | "datalist"
            | "select"
            | "button"
            | "input"
            | "textarea"
            | "annotation"
            | "annotation-xml"
            | "title"
    )
}

/// `hidden`, `aria-hidden="true"` or an inline `display:none` / `visibility:hidden`.
/// The three names have fixed ids (`tag::HIDDEN`): compared as integers, every attribute
/// of every element the views open costs no string compare.
pub fn is_hidden(el: Element<'_>) -> bool {
    el.attr_ids().any(|(name, _, value)| match name {
        tag::HIDDEN => true,
        tag::ARIA_HIDDEN => value.trim().eq_ignore_ascii_case("true"),
        tag::STYLE => style_hides(value),
        _ => false,
    })
}

/// [`is_hidden`] of element `id` of `dom`, reading the attributes off the arena: a value is
/// sliced out only for one of the three names, where the element's attribute iterators
/// slice every value (a checked cut of the document's text each) before its name is read.
pub fn is_hidden_in(dom: &Dom, id: NodeId) -> bool {
    dom.attrs(id).iter().any(|a| match a.name {
        tag::HIDDEN => true,
        tag::ARIA_HIDDEN => dom.attr_value(a).trim().eq_ignore_ascii_case("true"),
        tag::STYLE => style_hides(dom.attr_value(a)),
        _ => false,
    })
}

/// Whether an inline style declares `display: none` or `visibility: hidden`: one of its
/// declarations (split at `;`, then at the first `:`), property and value trimmed and in any
/// ASCII case, an `!important` flag allowed. The one rule for every view and for the readable
/// selection's hidden flag, so both agree on what is hidden; a property name or value with
/// anything else in it (`content: 'display:none'`, `d isplay:none`) is not these.
pub(crate) fn style_hides(style: &str) -> bool {
    style.split(';').any(|decl| {
        let Some((prop, value)) = decl.split_once(':') else {
            return false;
        };
        let prop = prop.trim();
        let value = without_important(value.trim());
        (prop.eq_ignore_ascii_case("display") && value.eq_ignore_ascii_case("none"))
            || (prop.eq_ignore_ascii_case("visibility") && value.eq_ignore_ascii_case("hidden"))
    })
}

/// A trimmed declaration value without its `!important` flag (any case, space allowed after
/// the `!`, as CSS reads it).
fn without_important(value: &str) -> &str {
    const FLAG: &str = "important";
    let Some(cut) = value.len().checked_sub(FLAG.len()) else {
        return value;
    };
    match (value.get(..cut), value.get(cut..)) {
        (Some(rest), Some(flag)) if flag.eq_ignore_ascii_case(FLAG) => rest
            .trim_end()
            .strip_suffix('!')
            .map_or(value, str::trim_end),
        _ => value,
    }
}

/// Whether an element should not be emitted at all (tag or hiding attributes).
#[inline]
pub fn is_dropped(el: Element<'_>) -> bool {
    is_invisible_tag(el.name()) || (el.has_attrs() && is_hidden(el))
}

/// How an element breaks the flow of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Inline,
    /// Starts on a new line.
    Line,
    /// Separated by a blank line (paragraph-like).
    Paragraph,
}

/// What the text and Markdown views do on opening an element, by its name: the names the
/// emitter treats apart (everything else flows as [`Flow`] says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Br,
    Hr,
    Img,
    Wbr,
    Span,
    /// `h1`..`h6`, with the level.
    Heading(u8),
    List,
    Item,
    Quote,
    Pre,
    Strong,
    Em,
    Del,
    Code,
    Link,
    Table,
    Thead,
    /// `tbody` or `tfoot`.
    RowGroup,
    Tr,
    /// `td` or `th`.
    Cell,
    Caption,
    /// `iframe` or `frame` (see [`crate::frames::is_frame_tag`]).
    Frame,
    Other,
}

/// Everything the views ask of an element's name: its [`Role`], its [`Flow`] and whether
/// it is never shown ([`is_invisible_tag`]). Looked up once per name ([`FactsByName`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    pub role: Role,
    pub flow: Flow,
    pub invisible: bool,
}

impl Facts {
    /// The facts of the element name `name`.
    pub fn of(name: &str) -> Facts {
        let role = match name {
            "br" => Role::Br,
            "hr" => Role::Hr,
            "img" => Role::Img,
            "wbr" => Role::Wbr,
            "span" => Role::Span,
            "ul" | "ol" | "menu" => Role::List,
            "li" => Role::Item,
            "blockquote" => Role::Quote,
            "pre" => Role::Pre,
            "strong" | "b" => Role::Strong,
            "em" | "i" => Role::Em,
            "del" | "s" | "strike" => Role::Del,
            "code" | "kbd" | "samp" | "tt" => Role::Code,
            "a" => Role::Link,
            "table" => Role::Table,
            "thead" => Role::Thead,
            "tbody" | "tfoot" => Role::RowGroup,
            "tr" => Role::Tr,
            "td" | "th" => Role::Cell,
            "caption" => Role::Caption,
            _ if crate::frames::is_frame_tag(name) => Role::Frame,
            _ => webgrip_html::heading_level(name).map_or(Role::Other, Role::Heading),
        };
        Facts {
            role,
            flow: flow(name),
            invisible: is_invisible_tag(name),
        }
    }
}

/// [`Facts`] by interned name id (`Element::name_id`), each name's worked out from its
/// spelling the first time it is met: a walk asks for every element, and matching the
/// name against a few dozen strings per element cost more than the rest of the dispatch.
/// One per walk (ids are the document's own past the fixed ones).
#[derive(Debug, Default)]
pub struct FactsByName {
    by_id: Vec<Option<Facts>>,
}

/// Ids up to this are kept; a name past it (a page of more distinct names than this) is
/// worked out each time, so a hostile page cannot grow the table past its size.
const MAX_CACHED_ID: usize = 1 << 16;

impl FactsByName {
    /// The facts of `el`'s name.
    #[inline]
    pub fn get(&mut self, el: Element<'_>) -> Facts {
        let id = el.name_id() as usize;
        match self.by_id.get(id) {
            Some(Some(facts)) => *facts,
            _ => self.fill(id, el.name()),
        }
    }

    #[cold]
    fn fill(&mut self, id: usize, name: &str) -> Facts {
        let facts = Facts::of(name);
        if id < MAX_CACHED_ID {
            if self.by_id.len() <= id {
                self.by_id.resize(id + 1, None);
            }
            self.by_id[id] = Some(facts);
        }
        facts
    }
}

/// The flow class of an element by name.
pub fn flow(name: &str) -> Flow {
    match name {
        "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "pre" | "ul" | "ol"
        | "table" | "hr" | "dl" | "figure" | "address" | "article" | "section" | "aside"
        | "header" | "footer" | "nav" | "main" | "details" | "fieldset" | "form" | "menu"
        | "hgroup" | "dialog" | "center" | "search" => Flow::Paragraph,
        "div" | "li" | "tr" | "dt" | "dd" | "figcaption" | "caption" | "summary" | "legend"
        | "option" | "optgroup" | "body" | "html" | "tbody" | "thead" | "tfoot" | "frameset"
        | "noframes" | "label" | "output" | "picture" | "td" | "th" => Flow::Line,
        _ => Flow::Inline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_by_name_are_the_facts_of_the_name() {
        // Known names, names this document interns, a foreign element, repeats.
        let doc = crate::parse(
            "<div><h2>t</h2><canvas></canvas><x-card><b>b</b></x-card><frame>\
             <svg><a>s</a><annotation>m</annotation></svg><iframe></iframe><map></map>\
             <table><caption>c</caption><tr><th>h</th><td>d</td></tr></table>\
             <menu><li>i</li></menu><tt>t</tt><search>s</search><x-card>again</x-card></div>",
        );
        let mut facts = FactsByName::default();
        let mut seen = 0;
        for _ in 0..2 {
            for node in doc.tree.root().descendants() {
                if let Some(el) = node.element() {
                    assert_eq!(facts.get(el), Facts::of(el.name()), "{}", el.name());
                    seen += 1;
                }
            }
        }
        assert!(seen > 40);
        assert_eq!(Facts::of("h3").role, Role::Heading(3));
        assert_eq!(Facts::of("iframe").role, Role::Frame);
        assert!(Facts::of("canvas").invisible);
        assert_eq!(Facts::of("x-card").role, Role::Other);
    }

    #[test]
    fn hidden_by_attribute_ids() {
        let doc = crate::parse(
            "<p hidden>a</p><p aria-hidden=' TRUE '>b</p><p style='display:none'>c</p>\
             <p aria-hidden=false class=hidden data-hidden>d</p><g HIDDEN></g>",
        );
        let hidden: Vec<bool> = doc
            .tree
            .root()
            .descendants()
            .filter_map(|n| n.element())
            .filter(|e| matches!(e.name(), "p" | "g"))
            .map(is_hidden)
            .collect();
        assert_eq!(hidden, [true, true, true, false, true]);
        let in_arena: Vec<bool> = doc
            .tree
            .root()
            .descendants()
            .filter(|n| n.element().is_some_and(|e| matches!(e.name(), "p" | "g")))
            .map(|n| is_hidden_in(&doc.tree, n.id()))
            .collect();
        assert_eq!(in_arena, hidden);
    }

    #[test]
    fn styles() {
        assert!(style_hides("color:red; display : NONE"));
        assert!(style_hides("DISPLAY : None;color:red"));
        assert!(style_hides("visibility:hidden !important"));
        assert!(style_hides("visibility: Hidden!IMPORTANT;"));
        assert!(style_hides("display:none ! important"));
        assert!(style_hides(" display :\tnone;"));
        assert!(!style_hides("display:block"));
        assert!(!style_hides("visibility: visible"));
        assert!(!style_hides("display:none important"));
        assert!(!style_hides("display:nonvisibility:hidde"));
        assert!(!style_hides("display:\u{e9}none"));
        // Not a declaration of either property: inside another value, a longer name, words
        // broken by spaces.
        assert!(!style_hides("content: 'display:none'x"));
        assert!(!style_hides("-webkit-display:none"));
        assert!(!style_hides("ddisplay:displaydisplay:none"));
        assert!(!style_hides("color:red;d i s p l a y\t:\nNONE"));
        assert!(!style_hides(""));
        assert!(!style_hides("important"));
    }
}
