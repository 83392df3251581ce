//! The one tree walk behind the `text` and `markdown` views.
//!
//! Both views share structure (blocks, lists, tables, `pre`); Markdown adds inline syntax and
//! escaping. Every opened element pushes one [`Frame`] on an explicit stack so closing it
//! knows what to undo — no recursion anywhere. Its output buffer (`writer`: blocks, line
//! prefixes, whitespace) and Markdown escaping (`escape`) serve this walk alone.

pub(crate) mod escape;
mod writer;

use std::borrow::Cow;
use std::ops::Range;

use crate::tree::Element;
use crate::tree::NodeRef;
use crate::tree::{Html, Node};
use url::Url;
use webgrip_html::Dom;

use crate::element_facts::{self, attr, Facts, FactsByName, Flow, Role};
use crate::frames::FrameIndex;
use crate::grid::{self, RawCell, RawRow};
use crate::scope::Scope;
use crate::tracking::TrackingRules;
use crate::urls;
use crate::walk::{walk, Visitor};
use writer::{LineState, Writer};

/// Which view to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Text,
    Markdown,
}

/// Where to mark frames (see [`crate::frames`]): `{marker}{index}{marker}` for each frame
/// element `index` holds.
#[derive(Debug, Clone, Copy)]
pub struct FrameMarks<'m> {
    pub marker: &'m str,
    pub index: &'m FrameIndex,
}

/// Render the part of `doc` selected by `scope`.
pub fn render(
    doc: &Html,
    scope: &Scope,
    flavor: Flavor,
    base: Option<&Url>,
    tracking: Option<&TrackingRules>,
) -> String {
    render_marked(doc, scope, flavor, base, tracking, None)
}

/// [`render`] with the frames of `marks` marked where they stand.
pub fn render_marked(
    doc: &Html,
    scope: &Scope,
    flavor: Flavor,
    base: Option<&Url>,
    tracking: Option<&TrackingRules>,
    marks: Option<FrameMarks<'_>>,
) -> String {
    let mut e = Emitter::new(&doc.tree, scope, flavor, base, tracking);
    e.marks = marks;
    if let Some(extra) = scope.supplement.as_deref() {
        e.w.push_text(extra);
        e.w.request_break(2);
    }
    for root in scope.roots_in(doc) {
        if let Some(node) = doc.tree.get(root) {
            walk(node, &mut e);
            e.w.request_break(2);
        }
    }
    e.w.finish()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Strong,
    Em,
    Del,
    Code,
    Link,
}

#[derive(Debug)]
enum Frame {
    Inline,
    /// Block: request this many line breaks on close.
    Block(u8),
    Heading {
        prefixed: bool,
    },
    List,
    Item,
    Quote,
    Pre {
        fence_at: Option<usize>,
        body_at: usize,
    },
    Styled {
        style: Style,
        wrapped: bool,
    },
    DataTable,
    Row,
    Cell {
        start: usize,
        colspan: usize,
        rowspan: usize,
    },
    Caption {
        start: usize,
    },
}

/// A data table being captured cell by cell; rendered on `</table>`.
#[derive(Debug)]
struct Capture {
    saved: LineState,
    /// Every cell's text, one after the other: one buffer rather than a `String` per cell.
    cells: String,
    /// Every cell, row after row, its text a range of `cells`: one vector for the table
    /// rather than one per row.
    cell_list: Vec<RawCell<Range<usize>>>,
    rows: Vec<RowMark>,
    /// Whether a cell spans more than one column or row (then the table needs a
    /// [`grid::Grid`] to be written).
    spans: bool,
    caption: Option<String>,
    in_thead: bool,
}

/// A captured row: where its cells start in [`Capture::cell_list`] (they run to the next
/// row's start) and what [`RawRow`] says of it.
#[derive(Debug)]
struct RowMark {
    first: usize,
    in_thead: bool,
}

impl Capture {
    /// The cells of row `i`.
    fn row_cells(&self, i: usize) -> &[RawCell<Range<usize>>] {
        let first = self.rows.get(i).map_or(0, |r| r.first);
        let end = self
            .rows
            .get(i + 1)
            .map_or(self.cell_list.len(), |r| r.first);
        self.cell_list.get(first..end).unwrap_or_default()
    }

    /// A cell's text.
    fn text(&self, cell: &RawCell<Range<usize>>) -> &str {
        self.cells.get(cell.text.clone()).unwrap_or_default()
    }
}

struct ListState {
    ordered: bool,
    next: i64,
    step: i64,
}

struct Emitter<'s> {
    /// The tree walked (its attributes read off the arena: [`element_facts::is_hidden_in`]).
    dom: &'s Dom,
    w: Writer,
    marks: Option<FrameMarks<'s>>,
    md: bool,
    scope: &'s Scope,
    urls: urls::Resolver<'s>,
    frames: Vec<Frame>,
    lists: Vec<ListState>,
    /// Data-table captures currently open (only the innermost is active).
    captures: Vec<Capture>,
    /// Depth inside captured cells (nested tables there are flattened).
    cell_depth: u32,
    strong: u32,
    em: u32,
    del: u32,
    code: u32,
    link: u32,
    pre: u32,
    /// Where the last highlighter line (`span.line`) of the open listing began.
    code_line_at: Option<usize>,
    /// What each element name is to this walk, looked up once per name.
    facts: FactsByName,
}

impl<'s> Emitter<'s> {
    fn new(
        dom: &'s Dom,
        scope: &'s Scope,
        flavor: Flavor,
        base: Option<&'s Url>,
        tracking: Option<&'s TrackingRules>,
    ) -> Self {
        Emitter {
            dom,
            w: Writer::new(flavor == Flavor::Markdown, 4096),
            marks: None,
            md: flavor == Flavor::Markdown,
            scope,
            urls: urls::Resolver::with_tracking(base, tracking),
            frames: Vec::with_capacity(64),
            lists: Vec::new(),
            captures: Vec::new(),
            cell_depth: 0,
            strong: 0,
            em: 0,
            del: 0,
            code: 0,
            link: 0,
            pre: 0,
            code_line_at: None,
            facts: FactsByName::default(),
        }
    }

    fn sync_flags(&mut self) {
        self.w.verbatim = self.code > 0 || self.pre > 0;
        self.w.in_link = self.link > 0;
        self.w.in_cell = self.cell_depth > 0;
    }

    fn open_element(&mut self, el: Element<'_>, node: NodeRef<'_>, facts: Facts) -> bool {
        match facts.role {
            Role::Br => {
                if self.pre > 0 {
                    self.w.raw_newline();
                } else {
                    self.w.line_break();
                }
                return false;
            }
            Role::Hr => {
                self.w.request_break(2);
                if self.md && !self.w.is_inline_only() {
                    self.w.push_literal("---");
                }
                self.w.request_break(2);
                return false;
            }
            Role::Img => {
                if self.md {
                    self.image(el);
                }
                return false;
            }
            Role::Wbr => return false,
            Role::Span if self.pre > 0 && is_code_line(el) => self.open_code_line(),
            _ => {}
        }
        let frame = if let Role::Heading(level) = facts.role {
            self.w.request_break(2);
            let prefixed = self.md && !self.w.is_inline_only();
            if prefixed {
                const MARKERS: [&str; 6] = ["# ", "## ", "### ", "#### ", "##### ", "###### "];
                let marker = MARKERS[usize::from(level.clamp(1, 6)) - 1];
                self.w.push_prefix(Some(Cow::Borrowed(marker)), "");
            }
            self.w.begin_inline_only();
            Frame::Heading { prefixed }
        } else {
            match facts.role {
                Role::List => self.open_list(el),
                Role::Item => self.open_item(el),
                Role::Quote => {
                    self.w.request_break(2);
                    self.w.push_prefix(None, if self.md { "> " } else { "  " });
                    Frame::Quote
                }
                Role::Pre => self.open_pre(el, node),
                Role::Strong => self.open_style(Style::Strong, el),
                Role::Em => self.open_style(Style::Em, el),
                Role::Del => self.open_style(Style::Del, el),
                Role::Code => self.open_style(Style::Code, el),
                Role::Link => self.open_style(Style::Link, el),
                Role::Table => self.open_table(el, node),
                Role::Thead => {
                    if let Some(c) = self.active_capture() {
                        c.in_thead = true;
                    }
                    Frame::Block(1)
                }
                Role::RowGroup => {
                    if let Some(c) = self.active_capture() {
                        c.in_thead = false;
                    }
                    Frame::Block(1)
                }
                Role::Tr if self.captures_here() => {
                    if let Some(c) = self.captures.last_mut() {
                        c.rows.push(RowMark {
                            first: c.cell_list.len(),
                            in_thead: c.in_thead,
                        });
                    }
                    Frame::Row
                }
                Role::Cell if self.captures_here() => self.open_cell(el),
                Role::Caption if self.captures_here() => {
                    self.cell_depth += 1;
                    self.w.reset_capture_line();
                    self.sync_flags();
                    Frame::Caption {
                        start: self.w.out.len(),
                    }
                }
                _ => match facts.flow {
                    Flow::Inline => Frame::Inline,
                    Flow::Line => {
                        self.w.request_break(1);
                        Frame::Block(1)
                    }
                    Flow::Paragraph => {
                        self.w.request_break(2);
                        Frame::Block(2)
                    }
                },
            }
        };
        self.frames.push(frame);
        true
    }

    fn close_element(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        match frame {
            Frame::Inline => {}
            Frame::Block(n) => self.w.request_break(n),
            Frame::Heading { prefixed } => {
                self.w.end_inline_only();
                if prefixed {
                    self.w.pop_prefix();
                }
                self.w.request_break(2);
            }
            Frame::List => {
                self.lists.pop();
                self.w
                    .request_break(if self.lists.is_empty() { 2 } else { 1 });
            }
            Frame::Item => {
                self.w.pop_prefix();
                self.w.request_break(1);
            }
            Frame::Quote => {
                self.w.pop_prefix();
                self.w.request_break(2);
            }
            Frame::Pre { fence_at, body_at } => self.close_pre(fence_at, body_at),
            Frame::Styled { style, wrapped } => self.close_style(style, wrapped),
            Frame::DataTable => self.close_table(),
            Frame::Row => {}
            Frame::Cell {
                start,
                colspan,
                rowspan,
            } => self.close_cell(start, colspan, rowspan),
            Frame::Caption { start } => {
                let text = self.take_captured(start);
                self.cell_depth -= 1;
                self.sync_flags();
                if let Some(c) = self.captures.last_mut() {
                    if !text.is_empty() {
                        c.caption = Some(text);
                    }
                }
            }
        }
    }

    /// A frame's mark, a paragraph of its own (the caller replaces it with a document).
    fn mark_frame(&mut self, marker: &str, index: usize) {
        self.w.request_break(2);
        self.w.push_literal(&format!("{marker}{index}{marker}"));
        self.w.request_break(2);
    }

    fn open_list(&mut self, el: Element<'_>) -> Frame {
        self.w
            .request_break(if self.lists.is_empty() { 2 } else { 1 });
        let ordered = el.name() == "ol";
        let reversed = ordered && attr(el, "reversed").is_some();
        let start = attr(el, "start")
            .and_then(|s| s.trim().parse::<i64>().ok())
            .map(|s| s.clamp(0, 999_999_999))
            .unwrap_or(1);
        self.lists.push(ListState {
            ordered,
            next: start,
            step: if reversed { -1 } else { 1 },
        });
        Frame::List
    }

    fn open_item(&mut self, el: Element<'_>) -> Frame {
        self.w.request_break(1);
        let marker = match self.lists.last_mut() {
            Some(list) if list.ordered => {
                if let Some(v) = attr(el, "value").and_then(|v| v.trim().parse::<i64>().ok()) {
                    list.next = v.clamp(0, 999_999_999);
                }
                let n = list.next.max(0);
                list.next = (list.next + list.step).clamp(0, 999_999_999);
                Cow::Owned(format!("{n}. "))
            }
            _ => Cow::Borrowed("- "),
        };
        let indent = indent_for(marker.len());
        self.w.push_prefix(Some(marker), indent);
        Frame::Item
    }

    /// Highlighters such as Shiki wrap each line of a listing in `<span class="line">`;
    /// where the page drops the newlines between them, CSS (`display: block`) alone shows
    /// the lines apart, so the view starts each on a line of its own, empty ones too. A
    /// newline already in the markup since the last such line leaves nothing to add.
    fn open_code_line(&mut self) {
        // The break before the listing is written first, or the newlines it becomes would
        // read as the markup's own.
        self.w.ensure_content_flush_only();
        let at = self.w.out.len();
        if let Some(last) = self.code_line_at.replace(at) {
            if self.w.out.get(last..).is_some_and(|s| !s.contains('\n')) {
                self.w.raw_newline();
                self.code_line_at = Some(self.w.out.len());
            }
        }
    }

    fn open_pre(&mut self, el: Element<'_>, node: NodeRef<'_>) -> Frame {
        self.pre += 1;
        self.code_line_at = None;
        self.sync_flags();
        if self.pre > 1 || self.w.is_inline_only() {
            return Frame::Pre {
                fence_at: None,
                body_at: self.w.out.len(),
            };
        }
        self.w.request_break(2);
        if !self.md {
            return Frame::Pre {
                fence_at: None,
                body_at: self.w.out.len(),
            };
        }
        let lang = code_language(el).or_else(|| {
            node.children()
                .find_map(|c| c.value().as_element())
                .filter(|c| c.name() == "code")
                .and_then(code_language)
        });
        self.w.push_literal("```");
        let fence_at = self.w.out.len() - 3;
        if let Some(lang) = lang {
            self.w.push_literal(lang);
        }
        self.w.raw_newline();
        Frame::Pre {
            fence_at: Some(fence_at),
            body_at: self.w.out.len(),
        }
    }

    fn close_pre(&mut self, fence_at: Option<usize>, body_at: usize) {
        self.pre -= 1;
        self.code_line_at = None;
        self.sync_flags();
        // Drop trailing blank lines of the block (the fence or the next block follows).
        let keep = self.w.out[body_at..].trim_end().len();
        if self.pre == 0 && !self.w.is_inline_only() && body_at + keep < self.w.out.len() {
            self.w.out.truncate(body_at + keep);
            if keep > 0 {
                self.w.mark_line_open();
            }
        }
        if let Some(fence_at) = fence_at {
            let longest = longest_run(&self.w.out[body_at..], b'`');
            let fence = "`".repeat(longest.max(2) + 1);
            if fence.len() > 3 {
                self.w.out.insert_str(fence_at, &fence[3..]);
            }
            if self.w.out.len() > body_at {
                self.w.out.push('\n');
            }
            self.w.mark_line_ended();
            self.w.push_literal(&fence);
        }
        if self.pre == 0 {
            self.w.request_break(2);
        }
    }

    fn open_style(&mut self, style: Style, el: Element<'_>) -> Frame {
        let wrapped = self.md && self.pre == 0 && self.code == 0 && {
            match style {
                Style::Strong => self.strong == 0,
                Style::Em => self.em == 0,
                Style::Del => self.del == 0,
                Style::Code => true,
                Style::Link => self.link == 0,
            }
        };
        let mut pushed = false;
        if wrapped {
            match style {
                Style::Strong => self.w.push_wrap("**", Cow::Borrowed("**")),
                Style::Em => self.w.push_wrap("*", Cow::Borrowed("*")),
                Style::Del => self.w.push_wrap("~~", Cow::Borrowed("~~")),
                Style::Code => self.w.push_wrap("`", Cow::Borrowed("`")),
                Style::Link => {
                    if let Some(url) = attr(el, "href").and_then(|h| self.urls.lookup(h)) {
                        let mut close = String::with_capacity(url.len() + 3);
                        close.push_str("](");
                        push_link_destination(&mut close, url);
                        close.push(')');
                        self.w.push_wrap("[", Cow::Owned(close));
                        pushed = true;
                    }
                }
            }
            pushed |= style != Style::Link;
        }
        match style {
            Style::Strong => self.strong += 1,
            Style::Em => self.em += 1,
            Style::Del => self.del += 1,
            Style::Code => self.code += 1,
            Style::Link => self.link += 1,
        }
        self.sync_flags();
        Frame::Styled {
            style,
            wrapped: pushed,
        }
    }

    fn close_style(&mut self, style: Style, wrapped: bool) {
        match style {
            Style::Strong => self.strong -= 1,
            Style::Em => self.em -= 1,
            Style::Del => self.del -= 1,
            Style::Code => self.code -= 1,
            Style::Link => self.link -= 1,
        }
        if wrapped {
            if style == Style::Code {
                self.close_code_span();
            } else {
                self.w.pop_wrap();
            }
        }
        self.sync_flags();
    }

    /// Inline code: the fence must be longer than any backtick run inside, and padded when
    /// the content starts or ends with a backtick.
    fn close_code_span(&mut self) {
        let before = self.w.out.len();
        let Some(at) = self.w.pop_wrap() else {
            return;
        };
        let body = &self.w.out[at..before];
        if !body.contains('`') {
            return;
        }
        let body = body.to_string();
        let fence = "`".repeat(longest_run(&body, b'`') + 1);
        let pad = if body.starts_with('`') || body.ends_with('`') {
            " "
        } else {
            ""
        };
        self.w.out.truncate(at - 1);
        self.w.out.push_str(&fence);
        self.w.out.push_str(pad);
        self.w.out.push_str(&body);
        self.w.out.push_str(pad);
        self.w.out.push_str(&fence);
    }

    fn image(&mut self, el: Element<'_>) {
        let alt = attr(el, "alt").unwrap_or("").trim();
        let src = ["src", "data-src"]
            .iter()
            .filter_map(|k| attr(el, k))
            .find(|s| !s.trim().is_empty() && !urls::is_unsafe_scheme(s));
        let Some(src) = src.and_then(|s| self.urls.lookup(s)) else {
            if !alt.is_empty() {
                self.w.push_text(alt);
            }
            return;
        };
        let mut md = String::with_capacity(alt.len() + src.len() + 6);
        md.push_str("![");
        for (i, word) in alt.split_whitespace().enumerate() {
            if i > 0 {
                md.push(' ');
            }
            escape::push_escaped(
                &mut md,
                word,
                escape::Context {
                    line_start: false,
                    in_link: true,
                    in_cell: self.cell_depth > 0,
                },
            );
        }
        md.push_str("](");
        push_link_destination(&mut md, src);
        md.push(')');
        self.w.push_literal(&md);
    }

    /// The innermost capture, if we are directly in its structure (not inside one of its cells).
    fn active_capture(&mut self) -> Option<&mut Capture> {
        if self.cell_depth == 0 {
            self.captures.last_mut()
        } else {
            None
        }
    }

    fn captures_here(&self) -> bool {
        self.cell_depth == 0 && !self.captures.is_empty()
    }

    fn open_table(&mut self, el: Element<'_>, node: NodeRef<'_>) -> Frame {
        if self.cell_depth > 0 || self.w.is_inline_only() || !crate::tables::is_data_table(el, node)
        {
            // Layout tables and tables inside captured cells flow as ordinary blocks.
            self.w.request_break(2);
            return Frame::Block(2);
        }
        self.w.request_break(2);
        let saved = self.w.begin_capture();
        self.captures.push(Capture {
            saved,
            cells: String::new(),
            cell_list: Vec::new(),
            rows: Vec::new(),
            spans: false,
            caption: None,
            in_thead: false,
        });
        // The capture lives in `self.captures`; the frame only marks where it ends.
        Frame::DataTable
    }

    fn open_cell(&mut self, el: Element<'_>) -> Frame {
        self.cell_depth += 1;
        self.w.reset_capture_line();
        self.sync_flags();
        // Most cells have no attribute: no span to look up.
        let (colspan, rowspan) = if el.has_attrs() {
            (
                grid::colspan(attr(el, "colspan")),
                grid::rowspan(attr(el, "rowspan")),
            )
        } else {
            (1, 1)
        };
        Frame::Cell {
            start: self.w.out.len(),
            colspan,
            rowspan,
        }
    }

    fn close_cell(&mut self, start: usize, colspan: usize, rowspan: usize) {
        self.cell_depth -= 1;
        self.sync_flags();
        if let Some(c) = self.captures.last_mut() {
            let from = c.cells.len();
            c.cells.push_str(trim_cell(&self.w.out[start..]));
            let text = from..c.cells.len();
            if c.rows.is_empty() {
                c.rows.push(RowMark {
                    first: c.cell_list.len(),
                    in_thead: false,
                });
            }
            c.spans |= colspan > 1 || rowspan > 1;
            c.cell_list.push(RawCell {
                text,
                colspan,
                rowspan,
            });
        }
        self.w.out.truncate(start);
    }

    /// Take what was written since `start` (a cell or caption), trimmed, out of the buffer.
    fn take_captured(&mut self, start: usize) -> String {
        let text = self.w.out[start..].trim().to_string();
        self.w.out.truncate(start);
        text
    }

    fn close_table(&mut self) {
        let Some(mut capture) = self.captures.pop() else {
            return;
        };
        self.w.end_capture(std::mem::take(&mut capture.saved));
        self.sync_flags();
        // Rows without cells are left out.
        let rows: Vec<usize> = (0..capture.rows.len())
            .filter(|&i| !capture.row_cells(i).is_empty())
            .collect();
        if let Some(caption) = &capture.caption {
            self.w.request_break(2);
            self.w.push_literal(caption);
            self.w.request_break(2);
        }
        if self.md {
            if rows.is_empty() {
                return;
            }
            let w = &mut self.w;
            let line_out = |line: &str| {
                w.request_break(1);
                w.push_literal(line);
            };
            if capture.spans {
                let raw = rows
                    .iter()
                    .map(|&i| RawRow {
                        cells: capture
                            .row_cells(i)
                            .iter()
                            .map(|c| RawCell {
                                text: capture.text(c),
                                colspan: c.colspan,
                                rowspan: c.rowspan,
                            })
                            .collect(),
                        in_thead: capture.rows[i].in_thead,
                    })
                    .collect();
                let mut grid = grid::build(raw);
                // A header of empty cells still has to exist for GFM; keep it.
                if grid.columns == 0 {
                    grid.columns = 1;
                }
                grid::markdown_lines(&grid, false, line_out);
            } else {
                // No spans: the grid would be the rows as they are, the header the first
                // `<thead>` row (else the first row) taken out of them.
                let header = rows
                    .iter()
                    .position(|&i| capture.rows[i].in_thead)
                    .unwrap_or(0);
                let columns = rows
                    .iter()
                    .map(|&i| capture.row_cells(i).len())
                    .max()
                    .unwrap_or(0);
                let texts = |i: usize| capture.row_cells(i).iter().map(|c| capture.text(c));
                let body = rows
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != header)
                    .map(|(_, &i)| texts(i));
                grid::pipe_lines(texts(rows[header]), columns, body, false, line_out);
            }
        } else {
            let mut line = String::new();
            for &i in &rows {
                line.clear();
                for cell in capture.row_cells(i) {
                    let text = capture.text(cell);
                    if text.is_empty() {
                        continue;
                    }
                    if !line.is_empty() {
                        line.push_str(" | ");
                    }
                    line.push_str(text);
                }
                if !line.is_empty() {
                    self.w.request_break(1);
                    self.w.push_literal(&line);
                }
            }
        }
        self.w.request_break(2);
    }
}

impl<'a> Visitor<'a> for Emitter<'_> {
    fn open(&mut self, node: NodeRef<'a>) -> bool {
        if self.scope.skips(node.id()) {
            return false;
        }
        match node.value() {
            Node::Text(t) => {
                if self.pre > 0 {
                    self.w.push_raw(t);
                } else {
                    self.w.push_text(t);
                }
                false
            }
            Node::Element(el) => {
                let facts = self.facts.get(el);
                if let Some(marks) = self.marks {
                    if facts.role == Role::Frame {
                        if let Some(i) = marks.index.get(&node.id()) {
                            self.mark_frame(marks.marker, *i);
                        }
                        return false;
                    }
                }
                if facts.invisible
                    || (el.has_attrs() && element_facts::is_hidden_in(self.dom, node.id()))
                {
                    return false;
                }
                self.open_element(el, node, facts)
            }
            Node::Document | Node::Fragment => true,
            _ => false,
        }
    }

    fn close(&mut self, node: NodeRef<'a>) {
        if node.value().is_element() {
            self.close_element();
        }
    }
}

/// `text.trim()`, answered from the two end bytes when both are ASCII and not whitespace
/// (most cells: nothing to trim, no character decoded).
#[inline]
fn trim_cell(text: &str) -> &str {
    let solid =
        |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && !b.is_ascii_whitespace() && b != 0x0b);
    let bytes = text.as_bytes();
    if solid(bytes.first()) && solid(bytes.last()) {
        text
    } else {
        text.trim()
    }
}

/// Spaces that line continuation lines up with a list item's content.
fn indent_for(marker_len: usize) -> &'static str {
    const SPACES: &str = "            ";
    &SPACES[..marker_len.min(SPACES.len())]
}

/// `language-x` / `lang-x` in a `class` attribute.
fn code_language<'a>(el: Element<'a>) -> Option<&'a str> {
    attr(el, "class")?.split_ascii_whitespace().find_map(|c| {
        c.strip_prefix("language-")
            .or_else(|| c.strip_prefix("lang-"))
            .filter(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_graphic() && b != b'`'))
    })
}

fn longest_run(s: &str, byte: u8) -> usize {
    let mut best = 0;
    let mut run = 0;
    for &b in s.as_bytes() {
        if b == byte {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// A URL as a Markdown link destination, appended to `out`: `<...>` when spaces or
/// unbalanced parentheses would end it early.
fn push_link_destination(out: &mut String, url: &str) {
    // Most URLs hold none of the bytes that matter here: two vector scans, then a copy.
    let bytes = url.as_bytes();
    if memchr::memchr3(b'(', b')', b' ', bytes).is_none()
        && memchr::memchr3(b'<', b'>', b'\n', bytes).is_none()
    {
        out.push_str(url);
        return;
    }
    let mut depth: i32 = 0;
    let mut balanced = true;
    for b in url.bytes() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    balanced = false;
                }
            }
            b' ' | b'<' | b'>' | b'\n' => balanced = false,
            _ => {}
        }
    }
    if balanced && depth == 0 {
        out.push_str(url);
    } else {
        out.push('<');
        for c in url.chars() {
            match c {
                '<' => out.push_str("%3C"),
                '>' => out.push_str("%3E"),
                ' ' => out.push_str("%20"),
                c => out.push(c),
            }
        }
        out.push('>');
    }
}

/// A `span` that a syntax highlighter made one line of a listing: the class `line`.
fn is_code_line(el: Element<'_>) -> bool {
    element_facts::html_attr(el, "class")
        .is_some_and(|c| c.split_ascii_whitespace().any(|t| t == "line"))
}
