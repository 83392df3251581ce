//! Small facts about elements shared by every view: attribute lookup, what is never shown,
//! what is a block.

use crate::tree::Element;

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
pub fn is_hidden(el: Element<'_>) -> bool {
    el.attrs().any(|(name, value)| match name {
        "hidden" => true,
        "aria-hidden" => value.trim().eq_ignore_ascii_case("true"),
        "style" => style_hides(value),
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
