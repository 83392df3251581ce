//! The "in body" insertion mode (§13.2.6.4.7), where most markup lands, and the "text"
//! mode for RCDATA, raw text and script contents.

use crate::token::RawKind;
use crate::token::{Tag, TagKind};

use super::foreign::{adjust_foreign_attrs, adjust_mathml_attrs, adjust_svg_attrs};
use super::stack::Scope;
use super::tag_sets::HEADINGS;
use super::{is_ws, Builder, Mode, QuirksMode, Tok};
use crate::arena::Ns;

/// Block-level start tags that close an open `<p>` and are then plain inserts.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "search",
    "section",
    "summary",
    "ul",
];

/// End tags closing a block: implied end tags, then pop through the element.
const BLOCK_ENDS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "button",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "pre",
    "search",
    "section",
    "select",
    "summary",
    "ul",
];

const FORMATTING: &[&str] = &[
    "b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u",
];

impl Builder {
    pub(crate) fn in_body(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => {
                let text: String;
                let s: &str = if s.contains('\0') {
                    text = s.replace('\0', "");
                    &text
                } else {
                    &s
                };
                if s.is_empty() {
                    return;
                }
                self.reconstruct_formatting();
                self.insert_text(s);
                if !s.chars().all(is_ws) {
                    self.frameset_ok = false;
                }
            }
            Tok::Comment(c) => self.insert_comment(&c),
            Tok::Doctype(_) => {}
            Tok::Start(t) => self.body_start(t),
            Tok::End(t) => self.body_end(t),
            Tok::Eof => {
                if !self.template_modes.is_empty() {
                    self.in_template(Tok::Eof);
                } else {
                    self.stop();
                }
            }
        }
    }

    fn body_start(&mut self, t: Tag) {
        let name: &str = &t.name.clone();
        match name {
            "html" => {
                if let (false, Some(&html)) = (self.open_has("template"), self.open.first()) {
                    let attrs = t.attrs.iter().map(|a| (&*a.name, &*a.value));
                    self.dom
                        .add_missing_attrs(html, attrs, self.limits.max_attrs);
                }
            }
            "base" | "basefont" | "bgsound" | "link" | "meta" | "noframes" | "script" | "style"
            | "template" | "title" => self.in_head(Tok::Start(t)),
            "body" => {
                if self.open.len() < 2
                    || !self.dom.is_html(self.open[1], "body")
                    || self.open_has("template")
                {
                    return;
                }
                self.frameset_ok = false;
                let attrs = t.attrs.iter().map(|a| (&*a.name, &*a.value));
                self.dom
                    .add_missing_attrs(self.open[1], attrs, self.limits.max_attrs);
            }
            "frameset" => {
                if self.open.len() < 2
                    || !self.dom.is_html(self.open[1], "body")
                    || !self.frameset_ok
                {
                    return;
                }
                self.dom.detach(self.open[1]);
                self.open.truncate(1);
                self.insert_html(&t);
                self.mode = Mode::InFrameset;
            }
            _ if BLOCKS.contains(&name) => {
                self.close_p_in_button_scope();
                self.insert_html(&t);
            }
            _ if HEADINGS.contains(&name) => {
                self.close_p_in_button_scope();
                if self.current_is_one_of(&HEADINGS) {
                    self.open.pop();
                }
                self.insert_html(&t);
            }
            "pre" | "listing" => {
                self.close_p_in_button_scope();
                self.insert_html(&t);
                self.ignore_lf = true;
                self.frameset_ok = false;
            }
            "form" => {
                let in_template = self.open_has("template");
                if self.form.is_some() && !in_template {
                    return;
                }
                self.close_p_in_button_scope();
                let form = self.insert_html(&t);
                if !in_template {
                    self.form = Some(form);
                }
            }
            "li" | "dd" | "dt" => {
                self.frameset_ok = false;
                let closes: &[&str] = if name == "li" { &["li"] } else { &["dd", "dt"] };
                for i in (0..self.open.len()).rev() {
                    let node = self.open[i];
                    if let Some(&close) = closes.iter().find(|&&c| self.dom.is_html(node, c)) {
                        self.implied_end_tags(Some(close));
                        self.pop_until(&[close]);
                        break;
                    }
                    if self.is_special(node) && !self.is_html_one_of(node, &["address", "div", "p"])
                    {
                        break;
                    }
                }
                self.close_p_in_button_scope();
                self.insert_html(&t);
            }
            "plaintext" => {
                self.close_p_in_button_scope();
                self.insert_html(&t);
                self.plaintext();
            }
            "button" => {
                if self.in_scope("button", Scope::Default) {
                    self.implied_end_tags(None);
                    self.pop_until(&["button"]);
                }
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.frameset_ok = false;
            }
            "a" => {
                let open_a = self.afe.iter().rev().find_map(|e| match *e {
                    super::Entry::Marker => Some(None),
                    super::Entry::Element(n) if self.dom.is_html(n, "a") => Some(Some(n)),
                    _ => None,
                });
                if let Some(Some(a)) = open_a {
                    if !self.adoption_agency("a") {
                        self.any_other_end("a");
                    }
                    self.afe.retain(|&e| e != super::Entry::Element(a));
                    self.remove_from_stack(a);
                }
                self.reconstruct_formatting();
                let node = self.insert_html(&t);
                self.push_formatting(node);
            }
            _ if FORMATTING.contains(&name) => {
                self.reconstruct_formatting();
                let node = self.insert_html(&t);
                self.push_formatting(node);
            }
            "nobr" => {
                self.reconstruct_formatting();
                if self.in_scope("nobr", Scope::Default) {
                    if !self.adoption_agency("nobr") {
                        self.any_other_end("nobr");
                    }
                    self.reconstruct_formatting();
                }
                let node = self.insert_html(&t);
                self.push_formatting(node);
            }
            "applet" | "marquee" | "object" => {
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.push_marker();
                self.frameset_ok = false;
            }
            "table" => {
                if self.quirks != QuirksMode::Quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_html(&t);
                self.frameset_ok = false;
                self.mode = Mode::InTable;
            }
            "area" | "br" | "embed" | "img" | "keygen" | "wbr" => {
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.open.pop();
                self.frameset_ok = false;
            }
            "input" => {
                // An input closes an open select (the select parser of 2025, "customizable
                // select", which parses select content in body); in a select fragment it is
                // dropped.
                if self.context.is_some_and(|c| self.dom.is_html(c, "select")) {
                    return;
                }
                if self.in_scope("select", Scope::Default) {
                    self.pop_until(&["select"]);
                }
                self.reconstruct_formatting();
                let hidden = t
                    .attrs
                    .iter()
                    .any(|a| &*a.name == "type" && a.value.eq_ignore_ascii_case("hidden"));
                self.insert_html(&t);
                self.open.pop();
                if !hidden {
                    self.frameset_ok = false;
                }
            }
            "param" | "source" | "track" => {
                self.insert_html(&t);
                self.open.pop();
            }
            "hr" => {
                self.close_p_in_button_scope();
                if self.in_scope("select", Scope::Default) {
                    self.implied_end_tags(None);
                }
                self.insert_html(&t);
                self.open.pop();
                self.frameset_ok = false;
            }
            "image" => {
                let mut t = t;
                t.name = "img".into();
                self.body_start(t);
            }
            "textarea" => {
                self.insert_html(&t);
                self.ignore_lf = true;
                self.frameset_ok = false;
                self.switch = Some(super::Switch::Raw(RawKind::Rcdata));
                self.orig_mode = self.mode;
                self.mode = Mode::Text;
            }
            "xmp" => {
                self.close_p_in_button_scope();
                self.reconstruct_formatting();
                self.frameset_ok = false;
                self.raw_element(&t, RawKind::Rawtext);
            }
            "iframe" => {
                self.frameset_ok = false;
                self.raw_element(&t, RawKind::Rawtext);
            }
            "noembed" => self.raw_element(&t, RawKind::Rawtext),
            // Select content is parsed in body (the 2025 select parser): a nested select
            // only closes the open one, options close options.
            "select" => {
                let context_is_select = self.context.is_some_and(|c| self.dom.is_html(c, "select"));
                if context_is_select {
                    return;
                }
                if self.in_scope("select", Scope::Default) {
                    self.pop_until(&["select"]);
                    return;
                }
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.frameset_ok = false;
            }
            "optgroup" | "option" => {
                if self.in_scope("select", Scope::Default) {
                    self.implied_end_tags((name == "option").then_some("optgroup"));
                } else if self.current_is("option") {
                    self.open.pop();
                }
                self.reconstruct_formatting();
                self.insert_html(&t);
            }
            "rb" | "rtc" => {
                if self.in_scope("ruby", Scope::Default) {
                    self.implied_end_tags(None);
                }
                self.insert_html(&t);
            }
            "rp" | "rt" => {
                if self.in_scope("ruby", Scope::Default) {
                    self.implied_end_tags(Some("rtc"));
                }
                self.insert_html(&t);
            }
            "math" | "svg" => {
                self.reconstruct_formatting();
                let ns = if name == "math" { Ns::MathMl } else { Ns::Svg };
                let mut t = t;
                if ns == Ns::MathMl {
                    adjust_mathml_attrs(&mut t);
                } else {
                    adjust_svg_attrs(&mut t);
                }
                self.insert_foreign(&t, ns);
            }
            "caption" | "col" | "colgroup" | "frame" | "head" | "tbody" | "td" | "tfoot" | "th"
            | "thead" | "tr" => {}
            _ => {
                self.reconstruct_formatting();
                self.insert_html(&t);
                if name == "selectedcontent" {
                    self.has_selectedcontent = true;
                    self.selectedcontents += 1;
                }
            }
        }
    }

    /// Insert a foreign element (attributes already adjusted); a self-closing one is
    /// popped at once.
    pub(crate) fn insert_foreign(&mut self, t: &Tag, ns: Ns) {
        let attrs = adjust_foreign_attrs(t);
        let node = self
            .dom
            .new_element(ns, &t.name, attrs.iter().map(|(ns, n, v)| (*ns, *n, *v)));
        self.insert_element(node);
        if t.self_closing {
            self.open.pop();
        }
    }

    fn body_end(&mut self, t: Tag) {
        let name: &str = &t.name.clone();
        match name {
            "template" => self.in_head(Tok::End(t)),
            "body" | "html" => {
                if !self.in_scope("body", Scope::Default) {
                    return;
                }
                self.mode = Mode::AfterBody;
                if name == "html" {
                    self.step(Mode::AfterBody, Tok::End(t));
                }
            }
            _ if BLOCK_ENDS.contains(&name) => {
                if !self.in_scope(name, Scope::Default) {
                    return;
                }
                self.implied_end_tags(None);
                self.pop_until(&[name]);
            }
            "form" => {
                if !self.open_has("template") {
                    let node = self.form.take();
                    let Some(node) = node.filter(|&f| self.in_scope_by(Scope::Default, |n| n == f))
                    else {
                        return;
                    };
                    self.implied_end_tags(None);
                    self.remove_from_stack(node);
                } else {
                    if !self.in_scope("form", Scope::Default) {
                        return;
                    }
                    self.implied_end_tags(None);
                    self.pop_until(&["form"]);
                }
            }
            "p" => {
                if !self.in_scope("p", Scope::Button) {
                    self.insert_html_named("p");
                }
                self.close_p();
            }
            "li" => {
                if self.in_scope("li", Scope::ListItem) {
                    self.implied_end_tags(Some("li"));
                    self.pop_until(&["li"]);
                }
            }
            "dd" | "dt" => {
                if self.in_scope(name, Scope::Default) {
                    self.implied_end_tags(Some(name));
                    self.pop_until(&[name]);
                }
            }
            _ if HEADINGS.contains(&name) => {
                if self.in_scope_any(&HEADINGS, Scope::Default) {
                    self.implied_end_tags(None);
                    self.pop_until(&HEADINGS);
                }
            }
            "a" | "nobr" => {
                if !self.adoption_agency(name) {
                    self.any_other_end(name);
                }
            }
            _ if FORMATTING.contains(&name) => {
                if !self.adoption_agency(name) {
                    self.any_other_end(name);
                }
            }
            "applet" | "marquee" | "object" => {
                if self.in_scope(name, Scope::Default) {
                    self.implied_end_tags(None);
                    self.pop_until(&[name]);
                    self.clear_formatting_to_marker();
                }
            }
            "br" => {
                let t = Tag {
                    kind: TagKind::StartTag,
                    attrs: Vec::new(),
                    self_closing: false,
                    ..t
                };
                self.body_start(t);
            }
            _ => self.any_other_end(name),
        }
    }

    /// "Any other end tag" in body: close the nearest open element of that name unless a
    /// special element comes first.
    pub(crate) fn any_other_end(&mut self, name: &str) {
        for i in (0..self.open.len()).rev() {
            let node = self.open[i];
            if self.dom.is_html(node, name) {
                self.implied_end_tags(Some(name));
                self.open.truncate(i);
                return;
            }
            if self.is_special(node) {
                return;
            }
        }
    }

    pub(crate) fn text(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => self.insert_text(&s),
            Tok::Eof => {
                self.open.pop();
                let mode = self.orig_mode;
                self.reprocess(mode, Tok::Eof);
            }
            Tok::End(_) => {
                self.open.pop();
                self.mode = self.orig_mode;
            }
            _ => {}
        }
    }
}
