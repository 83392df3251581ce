//! The remaining insertion modes: in template (with its stack of template insertion
//! modes), and the frameset and after-body modes. (The in-select modes are gone from the
//! standard since the 2025 select parser; select content is parsed in body.)

use super::tag_ids::tag;
use super::{is_ws, Builder, Mode, Tok};
use crate::arena::Dom;

impl Builder {
    /// Replace the current template insertion mode with `mode` and reprocess there.
    fn template_switch(&mut self, mode: Mode, tok: Tok) {
        self.template_modes.pop();
        self.template_modes.push(mode);
        self.reprocess(mode, tok);
    }

    pub(crate) fn in_template(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(_) | Tok::Comment(_) | Tok::Doctype(_) => self.in_body(tok),
            Tok::Start(t) => match t.id {
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
                tag::CAPTION | tag::COLGROUP | tag::TBODY | tag::TFOOT | tag::THEAD => {
                    self.template_switch(Mode::InTable, Tok::Start(t))
                }
                tag::COL => self.template_switch(Mode::InColumnGroup, Tok::Start(t)),
                tag::TR => self.template_switch(Mode::InTableBody, Tok::Start(t)),
                tag::TD | tag::TH => self.template_switch(Mode::InRow, Tok::Start(t)),
                _ => self.template_switch(Mode::InBody, Tok::Start(t)),
            },
            Tok::End(t) if t.id == tag::TEMPLATE => self.in_head(Tok::End(t)),
            Tok::End(_) => {}
            Tok::Eof => {
                if !self.open_has(tag::TEMPLATE) {
                    return self.stop();
                }
                self.pop_until_id(tag::TEMPLATE);
                self.clear_formatting_to_marker();
                self.template_modes.pop();
                self.reset_mode();
                self.step(self.mode, Tok::Eof);
            }
        }
    }

    pub(crate) fn after_body(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(ref s) if s.chars().all(is_ws) => self.in_body(tok),
            Tok::Comment(c) => {
                // The first element on the stack, `<html>` (the document should the stack
                // ever be empty).
                let html = self.open.first().copied().unwrap_or(Dom::DOCUMENT);
                self.append_comment(html, &c);
            }
            Tok::Doctype(_) => {}
            Tok::Start(ref t) if t.id == tag::HTML => self.in_body(tok),
            Tok::End(ref t) if t.id == tag::HTML => {
                if self.context.is_none() {
                    self.mode = Mode::AfterAfterBody;
                }
            }
            Tok::Eof => self.stop(),
            Tok::Chars(s) => {
                // Leading whitespace goes by the in-body rules as well; the rest reopens body.
                self.reprocess(Mode::InBody, Tok::Chars(s));
            }
            tok => self.reprocess(Mode::InBody, tok),
        }
    }

    /// The whitespace of `s` only: frameset modes drop every other character.
    fn frameset_ws(&mut self, s: &str) {
        let ws: String = s.chars().filter(|&c| is_ws(c)).collect();
        self.insert_text(&ws);
    }

    pub(crate) fn in_frameset(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => self.frameset_ws(&s),
            Tok::Comment(c) => self.insert_comment(&c),
            Tok::Doctype(_) => {}
            Tok::Start(t) => match t.id {
                tag::HTML => self.in_body(Tok::Start(t)),
                tag::FRAMESET => {
                    self.insert_html(&t);
                }
                tag::FRAME => {
                    self.insert_html(&t);
                    self.open.pop();
                }
                tag::NOFRAMES => self.in_head(Tok::Start(t)),
                _ => {}
            },
            Tok::End(t) if t.id == tag::FRAMESET => {
                if self.open.len() == 1 {
                    return;
                }
                self.open.pop();
                if self.context.is_none() && !self.current_is(tag::FRAMESET) {
                    self.mode = Mode::AfterFrameset;
                }
            }
            Tok::End(_) => {}
            Tok::Eof => self.stop(),
        }
    }

    pub(crate) fn after_frameset(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => self.frameset_ws(&s),
            Tok::Comment(c) => self.insert_comment(&c),
            Tok::Start(ref t) if t.id == tag::HTML => self.in_body(tok),
            Tok::Start(ref t) if t.id == tag::NOFRAMES => self.in_head(tok),
            Tok::End(ref t) if t.id == tag::HTML => self.mode = Mode::AfterAfterFrameset,
            Tok::Eof => self.stop(),
            _ => {}
        }
    }

    pub(crate) fn after_after_body(&mut self, tok: Tok) {
        match tok {
            Tok::Comment(c) => self.append_comment(Dom::DOCUMENT, &c),
            Tok::Doctype(_) => self.in_body(tok),
            Tok::Chars(ref s) if s.chars().all(is_ws) => self.in_body(tok),
            Tok::Start(ref t) if t.id == tag::HTML => self.in_body(tok),
            Tok::Eof => self.stop(),
            tok => self.reprocess(Mode::InBody, tok),
        }
    }

    pub(crate) fn after_after_frameset(&mut self, tok: Tok) {
        match tok {
            Tok::Comment(c) => self.append_comment(Dom::DOCUMENT, &c),
            Tok::Doctype(_) => self.in_body(tok),
            Tok::Chars(s) => {
                let ws: String = s.chars().filter(|&c| is_ws(c)).collect();
                if !ws.is_empty() {
                    self.in_body(Tok::Chars(ws.as_str().into()));
                }
            }
            Tok::Start(ref t) if t.id == tag::HTML => self.in_body(tok),
            Tok::Start(ref t) if t.id == tag::NOFRAMES => self.in_head(tok),
            Tok::Eof => self.stop(),
            _ => {}
        }
    }
}
