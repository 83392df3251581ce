//! The insertion modes before the body: initial, before html, before head, in head, in
//! head noscript (scripting off makes `<noscript>` in the head markup) and after head.

use crate::token::RawKind;

use super::quirks::quirks_for;
use super::tag_ids::tag;
use super::{Builder, Mode, QuirksMode, Tok};
use crate::arena::{Dom, Ns};

impl Builder {
    pub(crate) fn initial(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Chars(s) => match self.split_chars(s, |_, _| {}) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Comment(c) => return self.append_comment_to_document(&c),
            Tok::Doctype(d) => {
                let node = self.dom.new_doctype(
                    d.name.as_deref().unwrap_or(""),
                    d.public_id.as_deref(),
                    d.system_id.as_deref(),
                );
                self.dom.append(Dom::DOCUMENT, node);
                self.quirks = quirks_for(&d);
                self.mode = Mode::BeforeHtml;
                return;
            }
            tok => tok,
        };
        self.quirks = QuirksMode::Quirks;
        self.reprocess(Mode::BeforeHtml, tok);
    }

    pub(crate) fn before_html(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Doctype(_) => return,
            Tok::Comment(c) => return self.append_comment_to_document(&c),
            Tok::Chars(s) => match self.split_chars(s, |_, _| {}) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Start(t) if t.id == tag::HTML => {
                let html = self
                    .dom
                    .new_element(Ns::Html, "html", super::html_attrs(&t));
                self.dom.append(Dom::DOCUMENT, html);
                self.open.push(html);
                self.mode = Mode::BeforeHead;
                return;
            }
            Tok::End(t) if !matches!(t.id, tag::HEAD | tag::BODY | tag::HTML | tag::BR) => return,
            tok => tok,
        };
        let html = self.dom.new_element(Ns::Html, "html", []);
        self.dom.append(Dom::DOCUMENT, html);
        self.open.push(html);
        self.reprocess(Mode::BeforeHead, tok);
    }

    pub(crate) fn before_head(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Chars(s) => match self.split_chars(s, |_, _| {}) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Comment(c) => return self.insert_comment(&c),
            Tok::Doctype(_) => return,
            Tok::Start(t) if t.id == tag::HTML => return self.in_body(Tok::Start(t)),
            Tok::Start(t) if t.id == tag::HEAD => {
                self.head = Some(self.insert_html(&t));
                self.mode = Mode::InHead;
                return;
            }
            Tok::End(t) if !matches!(t.id, tag::HEAD | tag::BODY | tag::HTML | tag::BR) => return,
            tok => tok,
        };
        self.head = Some(self.insert_html_named("head"));
        self.reprocess(Mode::InHead, tok);
    }

    pub(crate) fn in_head(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Chars(s) => match self.split_chars(s, |b, ws| b.insert_text(ws)) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Comment(c) => return self.insert_comment(&c),
            Tok::Doctype(_) => return,
            Tok::Start(t) => match t.id {
                tag::HTML => return self.in_body(Tok::Start(t)),
                tag::BASE | tag::BASEFONT | tag::BGSOUND | tag::LINK | tag::META => {
                    self.insert_html(&t);
                    self.open.pop();
                    return;
                }
                tag::TITLE => return self.raw_element(&t, RawKind::Rcdata),
                // Scripting off: the noscript's content is parsed as markup.
                tag::NOSCRIPT => {
                    self.insert_html(&t);
                    self.mode = Mode::InHeadNoscript;
                    return;
                }
                tag::NOFRAMES | tag::STYLE => return self.raw_element(&t, RawKind::Rawtext),
                tag::SCRIPT => return self.raw_element(&t, RawKind::ScriptData),
                tag::TEMPLATE => {
                    self.insert_html(&t);
                    self.push_marker();
                    self.frameset_ok = false;
                    self.mode = Mode::InTemplate;
                    self.template_modes.push(Mode::InTemplate);
                    return;
                }
                tag::HEAD => return,
                _ => Tok::Start(t),
            },
            Tok::End(t) => match t.id {
                tag::HEAD => {
                    self.open.pop();
                    self.mode = Mode::AfterHead;
                    return;
                }
                tag::BODY | tag::HTML | tag::BR => Tok::End(t),
                tag::TEMPLATE => {
                    if !self.open_has(tag::TEMPLATE) {
                        return;
                    }
                    self.implied_end_tags_thoroughly();
                    self.pop_until_id(tag::TEMPLATE);
                    self.clear_formatting_to_marker();
                    self.template_modes.pop();
                    self.reset_mode();
                    return;
                }
                _ => return,
            },
            Tok::Eof => Tok::Eof,
        };
        self.open.pop();
        self.reprocess(Mode::AfterHead, tok);
    }

    pub(crate) fn in_head_noscript(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Doctype(_) => return,
            Tok::Start(t) if t.id == tag::HTML => return self.in_body(Tok::Start(t)),
            Tok::End(t) if t.id == tag::NOSCRIPT => {
                self.open.pop();
                self.mode = Mode::InHead;
                return;
            }
            Tok::Chars(s) => match self.split_chars(s, |b, ws| b.insert_text(ws)) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Comment(_) => return self.in_head(tok),
            Tok::Start(t)
                if matches!(
                    t.id,
                    tag::BASEFONT
                        | tag::BGSOUND
                        | tag::LINK
                        | tag::META
                        | tag::NOFRAMES
                        | tag::STYLE
                ) =>
            {
                return self.in_head(Tok::Start(t))
            }
            Tok::Start(t) if matches!(t.id, tag::HEAD | tag::NOSCRIPT) => return,
            Tok::End(t) if &*t.name != "br" => return,
            tok => tok,
        };
        self.open.pop();
        self.reprocess(Mode::InHead, tok);
    }

    pub(crate) fn after_head(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Chars(s) => match self.split_chars(s, |b, ws| b.insert_text(ws)) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Comment(c) => return self.insert_comment(&c),
            Tok::Doctype(_) => return,
            Tok::Start(t) => match t.id {
                tag::HTML => return self.in_body(Tok::Start(t)),
                tag::BODY => {
                    self.insert_html(&t);
                    self.frameset_ok = false;
                    self.mode = Mode::InBody;
                    return;
                }
                tag::FRAMESET => {
                    self.insert_html(&t);
                    self.mode = Mode::InFrameset;
                    return;
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
                | tag::TITLE => {
                    // Misplaced head content goes back into the head.
                    let Some(head) = self.head else {
                        return;
                    };
                    self.open.push(head);
                    self.in_head(Tok::Start(t));
                    self.remove_from_stack(head);
                    return;
                }
                tag::HEAD => return,
                _ => Tok::Start(t),
            },
            Tok::End(t) => match t.id {
                tag::TEMPLATE => return self.in_head(Tok::End(t)),
                tag::BODY | tag::HTML | tag::BR => Tok::End(t),
                _ => return,
            },
            Tok::Eof => Tok::Eof,
        };
        self.insert_html_named("body");
        self.reprocess(Mode::InBody, tok);
    }
}
