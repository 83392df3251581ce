//! The insertion modes before the body: initial, before html, before head, in head, in
//! head noscript (scripting off makes `<noscript>` in the head markup) and after head.

use crate::token::RawKind;

use super::quirks::quirks_for;
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
            Tok::Start(t) if &*t.name == "html" => {
                let html = self
                    .dom
                    .new_element(Ns::Html, "html", super::html_attrs(&t));
                self.dom.append(Dom::DOCUMENT, html);
                self.open.push(html);
                self.mode = Mode::BeforeHead;
                return;
            }
            Tok::End(t) if !matches!(&*t.name, "head" | "body" | "html" | "br") => return,
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
            Tok::Start(t) if &*t.name == "html" => return self.in_body(Tok::Start(t)),
            Tok::Start(t) if &*t.name == "head" => {
                self.head = Some(self.insert_html(&t));
                self.mode = Mode::InHead;
                return;
            }
            Tok::End(t) if !matches!(&*t.name, "head" | "body" | "html" | "br") => return,
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
            Tok::Start(t) => match &*t.name {
                "html" => return self.in_body(Tok::Start(t)),
                "base" | "basefont" | "bgsound" | "link" | "meta" => {
                    self.insert_html(&t);
                    self.open.pop();
                    return;
                }
                "title" => return self.raw_element(&t, RawKind::Rcdata),
                // Scripting off: the noscript's content is parsed as markup.
                "noscript" => {
                    self.insert_html(&t);
                    self.mode = Mode::InHeadNoscript;
                    return;
                }
                "noframes" | "style" => return self.raw_element(&t, RawKind::Rawtext),
                "script" => return self.raw_element(&t, RawKind::ScriptData),
                "template" => {
                    self.insert_html(&t);
                    self.push_marker();
                    self.frameset_ok = false;
                    self.mode = Mode::InTemplate;
                    self.template_modes.push(Mode::InTemplate);
                    return;
                }
                "head" => return,
                _ => Tok::Start(t),
            },
            Tok::End(t) => match &*t.name {
                "head" => {
                    self.open.pop();
                    self.mode = Mode::AfterHead;
                    return;
                }
                "body" | "html" | "br" => Tok::End(t),
                "template" => {
                    if !self.open_has("template") {
                        return;
                    }
                    self.implied_end_tags_thoroughly();
                    self.pop_until(&["template"]);
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
            Tok::Start(t) if &*t.name == "html" => return self.in_body(Tok::Start(t)),
            Tok::End(t) if &*t.name == "noscript" => {
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
                    &*t.name,
                    "basefont" | "bgsound" | "link" | "meta" | "noframes" | "style"
                ) =>
            {
                return self.in_head(Tok::Start(t))
            }
            Tok::Start(t) if matches!(&*t.name, "head" | "noscript") => return,
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
            Tok::Start(t) => match &*t.name {
                "html" => return self.in_body(Tok::Start(t)),
                "body" => {
                    self.insert_html(&t);
                    self.frameset_ok = false;
                    self.mode = Mode::InBody;
                    return;
                }
                "frameset" => {
                    self.insert_html(&t);
                    self.mode = Mode::InFrameset;
                    return;
                }
                "base" | "basefont" | "bgsound" | "link" | "meta" | "noframes" | "script"
                | "style" | "template" | "title" => {
                    // Misplaced head content goes back into the head.
                    let Some(head) = self.head else {
                        return;
                    };
                    self.open.push(head);
                    self.in_head(Tok::Start(t));
                    self.remove_from_stack(head);
                    return;
                }
                "head" => return,
                _ => Tok::Start(t),
            },
            Tok::End(t) => match &*t.name {
                "template" => return self.in_head(Tok::End(t)),
                "body" | "html" | "br" => Tok::End(t),
                _ => return,
            },
            Tok::Eof => Tok::Eof,
        };
        self.insert_html_named("body");
        self.reprocess(Mode::InBody, tok);
    }
}
