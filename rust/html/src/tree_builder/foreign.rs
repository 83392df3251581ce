//! Foreign content (SVG and MathML, §13.2.6.5): the name and attribute adjustments, the
//! integration points where HTML rules come back, and the breakout tags that close foreign
//! elements.

use std::borrow::Cow;

use crate::token::Tag;

use super::tag_ids::{self, tag};
use super::{is_ws, Builder, Tok};
use crate::arena::{NodeId, Ns};

/// SVG element names with capitals; the tokenizer lowercases, these restore the case.
const SVG_TAGS: &[&str] = &[
    "altGlyph",
    "altGlyphDef",
    "altGlyphItem",
    "animateColor",
    "animateMotion",
    "animateTransform",
    "clipPath",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
    "foreignObject",
    "glyphRef",
    "linearGradient",
    "radialGradient",
    "textPath",
];

/// SVG attribute names with capitals.
const SVG_ATTRS: &[&str] = &[
    "attributeName",
    "attributeType",
    "baseFrequency",
    "baseProfile",
    "calcMode",
    "clipPathUnits",
    "diffuseConstant",
    "edgeMode",
    "filterUnits",
    "glyphRef",
    "gradientTransform",
    "gradientUnits",
    "kernelMatrix",
    "kernelUnitLength",
    "keyPoints",
    "keySplines",
    "keyTimes",
    "lengthAdjust",
    "limitingConeAngle",
    "markerHeight",
    "markerUnits",
    "markerWidth",
    "maskContentUnits",
    "maskUnits",
    "numOctaves",
    "pathLength",
    "patternContentUnits",
    "patternTransform",
    "patternUnits",
    "pointsAtX",
    "pointsAtY",
    "pointsAtZ",
    "preserveAlpha",
    "preserveAspectRatio",
    "primitiveUnits",
    "refX",
    "refY",
    "repeatCount",
    "repeatDur",
    "requiredExtensions",
    "requiredFeatures",
    "specularConstant",
    "specularExponent",
    "spreadMethod",
    "startOffset",
    "stdDeviation",
    "stitchTiles",
    "surfaceScale",
    "systemLanguage",
    "tableValues",
    "targetX",
    "targetY",
    "textLength",
    "viewBox",
    "viewTarget",
    "xChannelSelector",
    "yChannelSelector",
    "zoomAndPan",
];

/// Start tags that end foreign content (with `font` when it has color, face or size).
const BREAKOUT: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

fn recase(list: &[&'static str], name: &str) -> Option<Cow<'static, str>> {
    list.iter()
        .find(|c| c.eq_ignore_ascii_case(name))
        .map(|c| Cow::Borrowed(*c))
}

pub(crate) fn adjust_svg_attrs(t: &mut Tag) {
    for a in t.attrs.to_mut() {
        if let Some(name) = recase(SVG_ATTRS, &a.name) {
            a.id = tag_ids::known(&name);
            a.name = name;
        }
    }
}

pub(crate) fn adjust_mathml_attrs(t: &mut Tag) {
    for a in t.attrs.to_mut() {
        if &*a.name == "definitionurl" {
            a.name = Cow::Borrowed("definitionURL");
            a.id = tag_ids::known(&a.name);
        }
    }
}

/// The attributes with the foreign-attribute adjustment applied: `xlink:href` and kin go
/// into their namespace under their local name.
pub(crate) fn adjust_foreign_attrs<'t>(t: &'t Tag<'_>) -> Vec<(Ns, &'t str, &'t str)> {
    t.attrs
        .iter()
        .map(|a| {
            let name: &str = &a.name;
            let (ns, local) = match name {
                "xlink:actuate" | "xlink:arcrole" | "xlink:href" | "xlink:role" | "xlink:show"
                | "xlink:title" | "xlink:type" => (Ns::XLink, &name[6..]),
                "xml:lang" | "xml:space" => (Ns::Xml, &name[4..]),
                "xmlns" => (Ns::Xmlns, name),
                "xmlns:xlink" => (Ns::Xmlns, &name[6..]),
                _ => (Ns::None, name),
            };
            (ns, local, &*a.value)
        })
        .collect()
}

impl Builder {
    pub(crate) fn is_mathml_text_integration(&self, node: NodeId) -> bool {
        matches!(
            self.dom.element_name(node),
            Some((Ns::MathMl, "mi" | "mo" | "mn" | "ms" | "mtext"))
        )
    }

    pub(crate) fn is_html_integration(&self, node: NodeId) -> bool {
        match self.dom.element_name(node) {
            Some((Ns::Svg, n)) => matches!(n, "foreignObject" | "desc" | "title"),
            Some((Ns::MathMl, "annotation-xml")) => {
                self.dom.get_attr(node, "encoding").is_some_and(|e| {
                    e.eq_ignore_ascii_case("text/html")
                        || e.eq_ignore_ascii_case("application/xhtml+xml")
                })
            }
            _ => false,
        }
    }

    /// The rules for parsing tokens in foreign content.
    pub(crate) fn foreign(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => {
                // A NUL becomes U+FFFD but, unlike other characters, leaves frameset-ok.
                if !s.chars().all(|c| is_ws(c) || c == '\0') {
                    self.frameset_ok = false;
                }
                let s = s.replace('\0', "\u{fffd}");
                self.insert_text(&s);
            }
            Tok::Comment(c) => self.insert_comment(&c),
            Tok::Doctype(_) => {}
            Tok::Start(t)
                if BREAKOUT.contains(&&*t.name)
                    || (t.id == tag::FONT
                        && t.attrs
                            .iter()
                            .any(|a| matches!(&*a.name, "color" | "face" | "size"))) =>
            {
                self.break_out(Tok::Start(t))
            }
            Tok::End(t) if matches!(t.id, tag::BR | tag::P) => self.break_out(Tok::End(t)),
            Tok::Start(mut t) => {
                let ns = self
                    .adjusted_current()
                    .map_or(Ns::Html, |n| self.dom.node(n).ns);
                match ns {
                    Ns::MathMl => adjust_mathml_attrs(t.tag_mut()),
                    Ns::Svg => {
                        if let Some(name) = recase(SVG_TAGS, &t.name) {
                            t.rename(name);
                        }
                        adjust_svg_attrs(t.tag_mut());
                    }
                    _ => {}
                }
                self.insert_foreign(&t, ns);
            }
            Tok::End(t) => {
                let Some(mut i) = self.open.len().checked_sub(1) else {
                    return;
                };
                loop {
                    let node = self.open[i];
                    if i == 0 {
                        return;
                    }
                    let matches = self
                        .dom
                        .element_name(node)
                        .is_some_and(|(_, n)| n.eq_ignore_ascii_case(&t.name));
                    if matches {
                        self.open.truncate(i);
                        return;
                    }
                    i -= 1;
                    if self.dom.node(self.open[i]).ns == Ns::Html {
                        self.step(self.mode, Tok::End(t));
                        return;
                    }
                }
            }
            Tok::Eof => self.step(self.mode, Tok::Eof),
        }
    }

    /// A breakout tag: pop foreign elements back to HTML (or an integration point), then
    /// let the current mode's HTML rules handle the token.
    fn break_out(&mut self, tok: Tok) {
        while let Some(&n) = self.open.last() {
            if self.dom.node(n).ns == Ns::Html
                || self.is_mathml_text_integration(n)
                || self.is_html_integration(n)
                || self.open.len() == 1
            {
                break;
            }
            self.open.pop();
        }
        self.step(self.mode, tok);
    }
}
