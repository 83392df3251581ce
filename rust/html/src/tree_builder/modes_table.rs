//! The table insertion modes: in table, in table text (where stray text is foster
//! parented out of the table), in caption, in column group, in table body, in row, in cell.

use crate::token::Tag;

use super::stack::Scope;
use super::tag_ids::{set, tag};
use super::tok_id;
use super::{is_ws, Builder, Mode, Tok};

const TABLE_CONTEXT: u128 = set(&[tag::TABLE, tag::TEMPLATE]);
const BODY_CONTEXT: u128 = set(&[tag::TBODY, tag::TFOOT, tag::THEAD, tag::TEMPLATE]);
const ROW_CONTEXT: u128 = set(&[tag::TR, tag::TEMPLATE]);

impl Builder {
    pub(crate) fn in_table(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(_)
                if self.current_in(
                    const {
                        set(&[
                            tag::TABLE,
                            tag::TBODY,
                            tag::TEMPLATE,
                            tag::TFOOT,
                            tag::THEAD,
                            tag::TR,
                        ])
                    },
                ) =>
            {
                self.pending_table_text.clear();
                self.orig_mode = self.mode;
                self.reprocess(Mode::InTableText, tok);
            }
            Tok::Comment(c) => self.insert_comment(&c),
            Tok::Doctype(_) => {}
            Tok::Start(t) => match t.id {
                tag::CAPTION => {
                    self.clear_to(TABLE_CONTEXT);
                    self.push_marker();
                    self.insert_html(&t);
                    self.mode = Mode::InCaption;
                }
                tag::COLGROUP => {
                    self.clear_to(TABLE_CONTEXT);
                    self.insert_html(&t);
                    self.mode = Mode::InColumnGroup;
                }
                tag::COL => {
                    self.clear_to(TABLE_CONTEXT);
                    self.insert_html_named("colgroup");
                    self.reprocess(Mode::InColumnGroup, Tok::Start(t));
                }
                tag::TBODY | tag::TFOOT | tag::THEAD => {
                    self.clear_to(TABLE_CONTEXT);
                    self.insert_html(&t);
                    self.mode = Mode::InTableBody;
                }
                tag::TD | tag::TH | tag::TR => {
                    self.clear_to(TABLE_CONTEXT);
                    self.insert_html_named("tbody");
                    self.reprocess(Mode::InTableBody, Tok::Start(t));
                }
                tag::TABLE => {
                    if self.in_scope(tag::TABLE, Scope::Table) {
                        self.pop_until_id(tag::TABLE);
                        self.reset_mode();
                        self.step(self.mode, Tok::Start(t));
                    }
                }
                tag::STYLE | tag::SCRIPT | tag::TEMPLATE => self.in_head(Tok::Start(t)),
                tag::INPUT if is_hidden_input(&t) => {
                    self.insert_html(&t);
                    self.open.pop();
                }
                tag::FORM => {
                    if self.open_has(tag::TEMPLATE) || self.form.is_some() {
                        return;
                    }
                    self.form = Some(self.insert_html(&t));
                    self.open.pop();
                }
                _ => self.foster_in_body(Tok::Start(t)),
            },
            Tok::End(t) => match t.id {
                tag::TABLE => {
                    if self.in_scope(tag::TABLE, Scope::Table) {
                        self.pop_until_id(tag::TABLE);
                        self.reset_mode();
                    }
                }
                tag::BODY
                | tag::CAPTION
                | tag::COL
                | tag::COLGROUP
                | tag::HTML
                | tag::TBODY
                | tag::TD
                | tag::TFOOT
                | tag::TH
                | tag::THEAD
                | tag::TR => {}
                tag::TEMPLATE => self.in_head(Tok::End(t)),
                _ => self.foster_in_body(Tok::End(t)),
            },
            Tok::Eof => self.in_body(Tok::Eof),
            Tok::Chars(_) => self.foster_in_body(tok),
        }
    }

    /// In table's "anything else": the in-body rules with foster parenting on.
    fn foster_in_body(&mut self, tok: Tok) {
        self.foster = true;
        self.in_body(tok);
        self.foster = false;
    }

    pub(crate) fn in_table_text(&mut self, tok: Tok) {
        if let Tok::Chars(s) = &tok {
            // NULs are dropped here (a parse error each).
            self.pending_table_text
                .extend(s.chars().filter(|&c| c != '\0'));
            return;
        }
        let pending = std::mem::take(&mut self.pending_table_text);
        if pending.chars().all(is_ws) {
            self.insert_text(&pending);
        } else {
            self.foster_in_body(Tok::Chars(pending.as_str().into()));
        }
        let mode = self.orig_mode;
        self.reprocess(mode, tok);
    }

    /// Close the caption (in-caption "end caption" steps); false when none is in scope.
    fn close_caption(&mut self) -> bool {
        if !self.in_scope(tag::CAPTION, Scope::Table) {
            return false;
        }
        self.implied_end_tags(None);
        self.pop_until_id(tag::CAPTION);
        self.clear_formatting_to_marker();
        self.mode = Mode::InTable;
        true
    }

    pub(crate) fn in_caption(&mut self, tok: Tok) {
        let id = tok_id(&tok);
        match &tok {
            Tok::End(t) if id == tag::CAPTION => {
                self.close_caption();
            }
            Tok::Start(t)
                if matches!(
                    id,
                    tag::CAPTION
                        | tag::COL
                        | tag::COLGROUP
                        | tag::TBODY
                        | tag::TD
                        | tag::TFOOT
                        | tag::TH
                        | tag::THEAD
                        | tag::TR
                ) =>
            {
                if self.close_caption() {
                    self.step(Mode::InTable, tok);
                }
            }
            Tok::End(t) if id == tag::TABLE => {
                if self.close_caption() {
                    self.step(Mode::InTable, tok);
                }
            }
            Tok::End(t)
                if matches!(
                    id,
                    tag::BODY
                        | tag::COL
                        | tag::COLGROUP
                        | tag::HTML
                        | tag::TBODY
                        | tag::TD
                        | tag::TFOOT
                        | tag::TH
                        | tag::THEAD
                        | tag::TR
                ) => {}
            _ => self.in_body(tok),
        }
    }

    pub(crate) fn in_column_group(&mut self, tok: Tok) {
        let tok = match tok {
            Tok::Chars(s) => match self.split_chars(s, |b, ws| b.insert_text(ws)) {
                Some(rest) => rest,
                None => return,
            },
            Tok::Comment(c) => return self.insert_comment(&c),
            Tok::Doctype(_) => return,
            Tok::Start(t) => match t.id {
                tag::HTML => return self.in_body(Tok::Start(t)),
                tag::COL => {
                    self.insert_html(&t);
                    self.open.pop();
                    return;
                }
                tag::TEMPLATE => return self.in_head(Tok::Start(t)),
                _ => Tok::Start(t),
            },
            Tok::End(t) => match t.id {
                tag::COLGROUP => {
                    if self.current_is(tag::COLGROUP) {
                        self.open.pop();
                        self.mode = Mode::InTable;
                    }
                    return;
                }
                tag::COL => return,
                tag::TEMPLATE => return self.in_head(Tok::End(t)),
                _ => Tok::End(t),
            },
            Tok::Eof => return self.in_body(Tok::Eof),
        };
        if !self.current_is(tag::COLGROUP) {
            // Ignored, a character at a time: the whitespace later in the run still goes
            // in (a template's `<col>`s, or a `colgroup` fragment).
            if let Tok::Chars(s) = &tok {
                let ws: String = s.chars().filter(|&c| is_ws(c)).collect();
                if !ws.is_empty() {
                    self.insert_text(&ws);
                }
            }
            return;
        }
        self.open.pop();
        self.reprocess(Mode::InTable, tok);
    }

    pub(crate) fn in_table_body(&mut self, tok: Tok) {
        let id = tok_id(&tok);
        match &tok {
            Tok::Start(t) if id == tag::TR => {
                self.clear_to(BODY_CONTEXT);
                self.insert_html(t);
                self.mode = Mode::InRow;
            }
            Tok::Start(t) if matches!(id, tag::TH | tag::TD) => {
                self.clear_to(BODY_CONTEXT);
                self.insert_html_named("tr");
                self.reprocess(Mode::InRow, tok);
            }
            Tok::End(t) if matches!(id, tag::TBODY | tag::TFOOT | tag::THEAD) => {
                if self.in_scope(id, Scope::Table) {
                    self.clear_to(BODY_CONTEXT);
                    self.open.pop();
                    self.mode = Mode::InTable;
                }
            }
            Tok::Start(t)
                if matches!(
                    id,
                    tag::CAPTION | tag::COL | tag::COLGROUP | tag::TBODY | tag::TFOOT | tag::THEAD
                ) =>
            {
                self.leave_table_body(tok)
            }
            Tok::End(t) if id == tag::TABLE => self.leave_table_body(tok),
            Tok::End(t)
                if matches!(
                    id,
                    tag::BODY
                        | tag::CAPTION
                        | tag::COL
                        | tag::COLGROUP
                        | tag::HTML
                        | tag::TD
                        | tag::TH
                        | tag::TR
                ) => {}
            _ => self.in_table(tok),
        }
    }

    fn leave_table_body(&mut self, tok: Tok) {
        if !self.in_scope_any(
            const { set(&[tag::TBODY, tag::THEAD, tag::TFOOT]) },
            Scope::Table,
        ) {
            return;
        }
        self.clear_to(BODY_CONTEXT);
        self.open.pop();
        self.reprocess(Mode::InTable, tok);
    }

    /// Close the row; false when no `<tr>` is in table scope.
    fn close_row(&mut self) -> bool {
        if !self.in_scope(tag::TR, Scope::Table) {
            return false;
        }
        self.clear_to(ROW_CONTEXT);
        self.open.pop();
        self.mode = Mode::InTableBody;
        true
    }

    pub(crate) fn in_row(&mut self, tok: Tok) {
        match tok {
            Tok::Start(t) => match t.id {
                tag::TH | tag::TD => {
                    self.clear_to(ROW_CONTEXT);
                    self.insert_html(&t);
                    self.mode = Mode::InCell;
                    self.push_marker();
                }
                tag::CAPTION
                | tag::COL
                | tag::COLGROUP
                | tag::TBODY
                | tag::TFOOT
                | tag::THEAD
                | tag::TR => {
                    if self.close_row() {
                        self.step(Mode::InTableBody, Tok::Start(t));
                    }
                }
                _ => self.in_table(Tok::Start(t)),
            },
            Tok::End(t) => match t.id {
                tag::TR => {
                    self.close_row();
                }
                tag::TABLE => {
                    if self.close_row() {
                        self.step(Mode::InTableBody, Tok::End(t));
                    }
                }
                id @ (tag::TBODY | tag::TFOOT | tag::THEAD) => {
                    if self.in_scope(id, Scope::Table) && self.close_row() {
                        self.step(Mode::InTableBody, Tok::End(t));
                    }
                }
                tag::BODY
                | tag::CAPTION
                | tag::COL
                | tag::COLGROUP
                | tag::HTML
                | tag::TD
                | tag::TH => {}
                _ => self.in_table(Tok::End(t)),
            },
            tok => self.in_table(tok),
        }
    }

    fn close_cell(&mut self) {
        self.implied_end_tags(None);
        self.pop_until(const { set(&[tag::TD, tag::TH]) });
        self.clear_formatting_to_marker();
        self.mode = Mode::InRow;
    }

    /// In cell. Matched on the token itself, and what goes on to the in-body rules goes
    /// straight to their handler for its kind: every token of a cell's content passes here
    /// (the 10,000 x 8 table page: 400,000 tokens).
    pub(crate) fn in_cell(&mut self, tok: Tok) {
        match tok {
            Tok::Chars(s) => self.body_chars(&s),
            Tok::Start(t) => match t.id {
                tag::CAPTION
                | tag::COL
                | tag::COLGROUP
                | tag::TBODY
                | tag::TD
                | tag::TFOOT
                | tag::TH
                | tag::THEAD
                | tag::TR => {
                    if self.in_scope_any(const { set(&[tag::TD, tag::TH]) }, Scope::Table) {
                        self.close_cell();
                        self.step(Mode::InRow, Tok::Start(t));
                    }
                }
                _ => self.body_start(t),
            },
            Tok::End(t) => match t.id {
                id @ (tag::TD | tag::TH) => {
                    if self.in_scope(id, Scope::Table) {
                        self.implied_end_tags(None);
                        self.pop_until_id(id);
                        self.clear_formatting_to_marker();
                        self.mode = Mode::InRow;
                    }
                }
                tag::BODY | tag::CAPTION | tag::COL | tag::COLGROUP | tag::HTML => {}
                id @ (tag::TABLE | tag::TBODY | tag::TFOOT | tag::THEAD | tag::TR) => {
                    if self.in_scope(id, Scope::Table) {
                        self.close_cell();
                        self.step(Mode::InRow, Tok::End(t));
                    }
                }
                _ => self.body_end(t),
            },
            tok => self.in_body(tok),
        }
    }
}

/// `<input type=hidden>` stays inside a table; any other input is foster parented.
fn is_hidden_input(t: &Tag) -> bool {
    t.attrs
        .iter()
        .any(|a| &*a.name == "type" && a.value.eq_ignore_ascii_case("hidden"))
}
