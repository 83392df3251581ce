//! The "in body" insertion mode (§13.2.6.4.7), where most markup lands, and the "text"
//! mode for RCDATA, raw text and script contents.

use std::borrow::Cow;

use crate::token::RawKind;
use crate::token::{Tag, TagKind};

use super::foreign::{adjust_foreign_attrs, adjust_mathml_attrs, adjust_svg_attrs};
use super::stack::Scope;
use super::tag_ids::{contains, set, tag, HEADINGS};
use super::{is_ws, Builder, Mode, QuirksMode, TagTok, Tok};
use crate::arena::Ns;

/// Block-level start tags that close an open `<p>` and are then plain inserts.
const BLOCKS: u128 = set(&[
    tag::ADDRESS,
    tag::ARTICLE,
    tag::ASIDE,
    tag::BLOCKQUOTE,
    tag::CENTER,
    tag::DETAILS,
    tag::DIALOG,
    tag::DIR,
    tag::DIV,
    tag::DL,
    tag::FIELDSET,
    tag::FIGCAPTION,
    tag::FIGURE,
    tag::FOOTER,
    tag::HEADER,
    tag::HGROUP,
    tag::MAIN,
    tag::MENU,
    tag::NAV,
    tag::OL,
    tag::P,
    tag::SEARCH,
    tag::SECTION,
    tag::SUMMARY,
    tag::UL,
]);

/// End tags closing a block: implied end tags, then pop through the element.
const BLOCK_ENDS: u128 = set(&[
    tag::ADDRESS,
    tag::ARTICLE,
    tag::ASIDE,
    tag::BLOCKQUOTE,
    tag::BUTTON,
    tag::CENTER,
    tag::DETAILS,
    tag::DIALOG,
    tag::DIR,
    tag::DIV,
    tag::DL,
    tag::FIELDSET,
    tag::FIGCAPTION,
    tag::FIGURE,
    tag::FOOTER,
    tag::HEADER,
    tag::HGROUP,
    tag::LISTING,
    tag::MAIN,
    tag::MENU,
    tag::NAV,
    tag::OL,
    tag::PRE,
    tag::SEARCH,
    tag::SECTION,
    tag::SELECT,
    tag::SUMMARY,
    tag::UL,
]);

const FORMATTING: u128 = set(&[
    tag::B,
    tag::BIG,
    tag::CODE,
    tag::EM,
    tag::FONT,
    tag::I,
    tag::S,
    tag::SMALL,
    tag::STRIKE,
    tag::STRONG,
    tag::TT,
    tag::U,
]);

impl Builder {
    pub(crate) fn in_body(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => self.body_chars(&s),
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

    /// In-body characters. Also called straight from the table modes' "process using the
    /// in body rules" for the tokens they pass on (`in_cell`), without a second dispatch.
    #[inline]
    pub(crate) fn body_chars(&mut self, s: &str) {
        // A U+0000 comes alone, as the builder's token for `Token::Null` (a run of
        // characters never holds one: `token.rs`), and is dropped here. Why not
        // search each run for one: that search was 1.7% of the body-only bench
        // page's parse.
        if s.is_empty() || s == "\0" {
            return;
        }
        self.reconstruct_formatting();
        self.insert_text(s);
        // Read only while it can still change: once off, it stays off.
        if self.frameset_ok && !s.chars().all(is_ws) {
            self.frameset_ok = false;
        }
    }

    pub(crate) fn body_start(&mut self, t: TagTok) {
        let id = t.id;
        match id {
            tag::HTML => {
                if let (false, Some(&html)) = (self.open_has(tag::TEMPLATE), self.open.first()) {
                    let attrs = t.attrs.iter().map(|a| (&*a.name, &*a.value));
                    self.dom
                        .add_missing_attrs(html, attrs, self.limits.max_attrs);
                }
            }
            tag::BASE
            | tag::BASEFONT
            | tag::BGSOUND
            | tag::LINK
            | tag::META
            | tag::NOFRAMES
            | tag::SCRIPT
            | tag::STYLE
            | tag::TEMPLATE
            | tag::TITLE => self.in_head(Tok::Start(t)),
            tag::BODY => {
                if self.open.len() < 2
                    || !self.is_el(self.open[1], tag::BODY)
                    || self.open_has(tag::TEMPLATE)
                {
                    return;
                }
                self.frameset_ok = false;
                let attrs = t.attrs.iter().map(|a| (&*a.name, &*a.value));
                self.dom
                    .add_missing_attrs(self.open[1], attrs, self.limits.max_attrs);
            }
            tag::FRAMESET => {
                if self.open.len() < 2 || !self.is_el(self.open[1], tag::BODY) || !self.frameset_ok
                {
                    return;
                }
                self.dom.detach(self.open[1]);
                self.open.truncate(1);
                self.insert_html(&t);
                self.mode = Mode::InFrameset;
            }
            _ if contains(BLOCKS, id) => {
                self.close_p_in_button_scope();
                self.insert_html(&t);
            }
            _ if contains(HEADINGS, id) => {
                self.close_p_in_button_scope();
                if self.current_in(HEADINGS) {
                    self.open.pop();
                }
                self.insert_html(&t);
            }
            tag::PRE | tag::LISTING => {
                self.close_p_in_button_scope();
                self.insert_html(&t);
                self.ignore_lf = true;
                self.frameset_ok = false;
            }
            tag::FORM => {
                let in_template = self.open_has(tag::TEMPLATE);
                if self.form.is_some() && !in_template {
                    return;
                }
                self.close_p_in_button_scope();
                let form = self.insert_html(&t);
                if !in_template {
                    self.form = Some(form);
                }
            }
            tag::LI | tag::DD | tag::DT => {
                self.frameset_ok = false;
                let closes: &[u32] = if id == tag::LI {
                    &[tag::LI]
                } else {
                    &[tag::DD, tag::DT]
                };
                for i in (0..self.open.len()).rev() {
                    let node = self.open[i];
                    if let Some(&close) = closes.iter().find(|&&c| self.is_el(node, c)) {
                        self.implied_end_tags(Some(close));
                        self.pop_until_id(close);
                        break;
                    }
                    if self.is_special(node)
                        && !self.is_el_in(node, const { set(&[tag::ADDRESS, tag::DIV, tag::P]) })
                    {
                        break;
                    }
                }
                self.close_p_in_button_scope();
                self.insert_html(&t);
            }
            tag::PLAINTEXT => {
                self.close_p_in_button_scope();
                self.insert_html(&t);
                self.plaintext();
            }
            tag::BUTTON => {
                if self.in_scope(tag::BUTTON, Scope::Default) {
                    self.implied_end_tags(None);
                    self.pop_until_id(tag::BUTTON);
                }
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.frameset_ok = false;
            }
            tag::A => {
                let open_a = self.afe.iter().rev().find_map(|e| match *e {
                    super::Entry::Marker => Some(None),
                    super::Entry::Element(n) if self.is_el(n, tag::A) => Some(Some(n)),
                    _ => None,
                });
                if let Some(Some(a)) = open_a {
                    if !self.adoption_agency(tag::A) {
                        self.any_other_end(tag::A);
                    }
                    self.afe.retain(|&e| e != super::Entry::Element(a));
                    self.remove_from_stack(a);
                }
                self.reconstruct_formatting();
                let node = self.insert_html(&t);
                self.push_formatting(node);
            }
            _ if contains(FORMATTING, id) => {
                self.reconstruct_formatting();
                let node = self.insert_html(&t);
                self.push_formatting(node);
            }
            tag::NOBR => {
                self.reconstruct_formatting();
                if self.in_scope(tag::NOBR, Scope::Default) {
                    if !self.adoption_agency(tag::NOBR) {
                        self.any_other_end(tag::NOBR);
                    }
                    self.reconstruct_formatting();
                }
                let node = self.insert_html(&t);
                self.push_formatting(node);
            }
            tag::APPLET | tag::MARQUEE | tag::OBJECT => {
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.push_marker();
                self.frameset_ok = false;
            }
            tag::TABLE => {
                if self.quirks != QuirksMode::Quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_html(&t);
                self.frameset_ok = false;
                self.mode = Mode::InTable;
            }
            tag::AREA | tag::BR | tag::EMBED | tag::IMG | tag::KEYGEN | tag::WBR => {
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.open.pop();
                self.frameset_ok = false;
            }
            tag::INPUT => {
                // An input closes an open select (the select parser of 2025, "customizable
                // select", which parses select content in body); in a select fragment it is
                // dropped.
                if self.context.is_some_and(|c| self.is_el(c, tag::SELECT)) {
                    return;
                }
                if self.in_scope(tag::SELECT, Scope::Default) {
                    self.pop_until_id(tag::SELECT);
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
            tag::PARAM | tag::SOURCE | tag::TRACK => {
                self.insert_html(&t);
                self.open.pop();
            }
            tag::HR => {
                self.close_p_in_button_scope();
                if self.in_scope(tag::SELECT, Scope::Default) {
                    self.implied_end_tags(None);
                }
                self.insert_html(&t);
                self.open.pop();
                self.frameset_ok = false;
            }
            tag::IMAGE => {
                let mut t = t;
                t.rename("img".into());
                self.body_start(t);
            }
            tag::TEXTAREA => {
                self.insert_html(&t);
                self.ignore_lf = true;
                self.frameset_ok = false;
                self.switch = Some(super::Switch::Raw(RawKind::Rcdata));
                self.orig_mode = self.mode;
                self.mode = Mode::Text;
            }
            tag::XMP => {
                self.close_p_in_button_scope();
                self.reconstruct_formatting();
                self.frameset_ok = false;
                self.raw_element(&t, RawKind::Rawtext);
            }
            tag::IFRAME => {
                self.frameset_ok = false;
                self.raw_element(&t, RawKind::Rawtext);
            }
            tag::NOEMBED => self.raw_element(&t, RawKind::Rawtext),
            // Select content is parsed in body (the 2025 select parser): a nested select
            // only closes the open one, options close options.
            tag::SELECT => {
                let context_is_select = self.context.is_some_and(|c| self.is_el(c, tag::SELECT));
                if context_is_select {
                    return;
                }
                if self.in_scope(tag::SELECT, Scope::Default) {
                    self.pop_until_id(tag::SELECT);
                    return;
                }
                self.reconstruct_formatting();
                self.insert_html(&t);
                self.frameset_ok = false;
            }
            tag::OPTGROUP | tag::OPTION => {
                if self.in_scope(tag::SELECT, Scope::Default) {
                    self.implied_end_tags((id == tag::OPTION).then_some(tag::OPTGROUP));
                } else if self.current_is(tag::OPTION) {
                    self.open.pop();
                }
                self.reconstruct_formatting();
                self.insert_html(&t);
            }
            tag::RB | tag::RTC => {
                if self.in_scope(tag::RUBY, Scope::Default) {
                    self.implied_end_tags(None);
                }
                self.insert_html(&t);
            }
            tag::RP | tag::RT => {
                if self.in_scope(tag::RUBY, Scope::Default) {
                    self.implied_end_tags(Some(tag::RTC));
                }
                self.insert_html(&t);
            }
            tag::MATH | tag::SVG => {
                self.reconstruct_formatting();
                let ns = if id == tag::MATH { Ns::MathMl } else { Ns::Svg };
                let mut t = t;
                if ns == Ns::MathMl {
                    adjust_mathml_attrs(t.tag_mut());
                } else {
                    adjust_svg_attrs(t.tag_mut());
                }
                self.insert_foreign(&t, ns);
            }
            tag::CAPTION
            | tag::COL
            | tag::COLGROUP
            | tag::FRAME
            | tag::HEAD
            | tag::TBODY
            | tag::TD
            | tag::TFOOT
            | tag::TH
            | tag::THEAD
            | tag::TR => {}
            _ => {
                self.reconstruct_formatting();
                self.insert_html(&t);
                if id == tag::SELECTEDCONTENT {
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

    pub(crate) fn body_end(&mut self, t: TagTok) {
        let id = self.tag_id(&t);
        match id {
            tag::TEMPLATE => self.in_head(Tok::End(t)),
            tag::BODY | tag::HTML => {
                if !self.in_scope(tag::BODY, Scope::Default) {
                    return;
                }
                self.mode = Mode::AfterBody;
                if id == tag::HTML {
                    self.step(Mode::AfterBody, Tok::End(t));
                }
            }
            _ if contains(BLOCK_ENDS, id) => {
                if !self.in_scope(id, Scope::Default) {
                    return;
                }
                self.implied_end_tags(None);
                self.pop_until_id(id);
            }
            tag::FORM => {
                if !self.open_has(tag::TEMPLATE) {
                    let node = self.form.take();
                    let Some(node) = node.filter(|&f| self.in_scope_by(Scope::Default, |n| n == f))
                    else {
                        return;
                    };
                    self.implied_end_tags(None);
                    self.remove_from_stack(node);
                } else {
                    if !self.in_scope(tag::FORM, Scope::Default) {
                        return;
                    }
                    self.implied_end_tags(None);
                    self.pop_until_id(tag::FORM);
                }
            }
            tag::P => {
                if !self.p_in_button_scope() {
                    self.insert_html_named("p");
                }
                self.close_p();
            }
            tag::LI => {
                if self.in_scope(tag::LI, Scope::ListItem) {
                    self.implied_end_tags(Some(tag::LI));
                    self.pop_until_id(tag::LI);
                }
            }
            tag::DD | tag::DT => {
                if self.in_scope(id, Scope::Default) {
                    self.implied_end_tags(Some(id));
                    self.pop_until_id(id);
                }
            }
            _ if contains(HEADINGS, id) => {
                if self.in_scope_any(HEADINGS, Scope::Default) {
                    self.implied_end_tags(None);
                    self.pop_until(HEADINGS);
                }
            }
            tag::A | tag::NOBR => {
                if !self.adoption_agency(id) {
                    self.any_other_end(id);
                }
            }
            _ if contains(FORMATTING, id) => {
                if !self.adoption_agency(id) {
                    self.any_other_end(id);
                }
            }
            tag::APPLET | tag::MARQUEE | tag::OBJECT => {
                if self.in_scope(id, Scope::Default) {
                    self.implied_end_tags(None);
                    self.pop_until_id(id);
                    self.clear_formatting_to_marker();
                }
            }
            tag::BR => {
                let t = Tag {
                    kind: TagKind::StartTag,
                    attrs: Cow::Borrowed(&[]),
                    self_closing: false,
                    ..t.into_tag()
                };
                self.body_start(TagTok::new(t));
            }
            _ => self.any_other_end(id),
        }
    }

    /// "Any other end tag" in body: close the nearest open element of that name unless a
    /// special element comes first.
    pub(crate) fn any_other_end(&mut self, id: u32) {
        for i in (0..self.open.len()).rev() {
            let node = self.open[i];
            if self.is_el(node, id) {
                self.implied_end_tags(Some(id));
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
