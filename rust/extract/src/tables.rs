//! The `tables` view: every data table as header-keyed rows, plus its Markdown.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::tree::Element;
use crate::tree::NodeRef;
use crate::tree::{tag, Html, Node};

use crate::element_facts::{self, attr, FactsByName};
use crate::grid::{self, RawCell, RawRow};
use crate::plain::inline_text_append;
use crate::walk::{walk, Visitor};
use webgrip_html::Dom;

/// One extracted data table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub caption: Option<String>,
    /// Unique, non-empty column names.
    pub headers: Vec<String>,
    /// Every body cell's text, one after the other (a span's copies share one text): one
    /// buffer rather than a `String` per cell, which the binding turns into Python strings
    /// straight from its slices.
    text: String,
    /// Every body cell, row after row, as a range of `text`.
    cells: Vec<Range<usize>>,
    /// Where each body row ends in `cells` (it starts where the row before ends).
    row_ends: Vec<usize>,
    pub markdown: String,
}

impl Table {
    /// Body rows: cell `i` belongs to `headers[i]`. Rows are padded to every column unless
    /// a ragged hostile table would multiply its size (then short rows stay short).
    pub fn rows(&self) -> impl ExactSizeIterator<Item = Row<'_>> + '_ {
        let mut start = 0;
        self.row_ends.iter().map(move |&end| {
            let cells = self.cells.get(start..end).unwrap_or_default();
            start = end;
            Row {
                text: &self.text,
                cells,
            }
        })
    }

    /// How many body rows.
    pub fn row_count(&self) -> usize {
        self.row_ends.len()
    }

    /// How many body cells, padding included.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }
}

/// A body row of a [`Table`]: its cells' texts, in column order.
#[derive(Debug, Clone, Copy)]
pub struct Row<'t> {
    text: &'t str,
    cells: &'t [Range<usize>],
}

impl<'t> Row<'t> {
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells' texts.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = &'t str> + 't {
        let text = self.text;
        self.cells
            .iter()
            .map(move |r| text.get(r.clone()).unwrap_or_default())
    }
}

/// The rows of a table element: direct `tr` children and those of its row groups, in order,
/// with whether each sits in `<thead>`. Names are compared by their fixed ids (`tag::TR`):
/// this walk runs over every cell of every table, twice for a data table.
fn table_rows<'a>(table: NodeRef<'a>) -> impl Iterator<Item = (NodeRef<'a>, bool)> {
    table.children().flat_map(|child| {
        let name = child.element().map(|e| e.name_id());
        let (group, thead) = match name {
            Some(tag::THEAD) => (Some(child), true),
            Some(tag::TBODY | tag::TFOOT) => (Some(child), false),
            _ => (None, false),
        };
        let single = (name == Some(tag::TR)).then_some((child, false));
        let grouped = group.into_iter().flat_map(move |g| {
            g.children()
                .filter(|r| r.element().is_some_and(|e| e.name_id() == tag::TR))
                .map(move |r| (r, thead))
        });
        single.into_iter().chain(grouped)
    })
}

fn cells<'a>(row: NodeRef<'a>) -> impl Iterator<Item = (NodeRef<'a>, Element<'a>)> {
    row.children().filter_map(|c| {
        let el = c.element()?;
        matches!(el.name_id(), tag::TD | tag::TH).then_some((c, el))
    })
}

/// Data table or layout table? Layout: `role=presentation`, fewer than two rows, a table
/// nested directly in a cell, or a single column without any `<th>`.
pub fn is_data_table(el: Element<'_>, node: NodeRef<'_>) -> bool {
    if let Some(role) = attr(el, "role") {
        if role.eq_ignore_ascii_case("presentation") || role.eq_ignore_ascii_case("none") {
            return false;
        }
    }
    let mut rows = 0usize;
    let mut max_cols = 0usize;
    let mut has_th = false;
    for (row, _) in table_rows(node) {
        rows += 1;
        let mut cols = 0usize;
        for (cell, cel) in cells(row) {
            cols += 1;
            has_th |= cel.name_id() == tag::TH;
            let nested = cell
                .children()
                .any(|c| c.element().is_some_and(|e| e.name_id() == tag::TABLE));
            if nested {
                return false;
            }
        }
        max_cols = max_cols.max(cols);
    }
    rows >= 2 && (max_cols >= 2 || has_th)
}

/// Every data table of the document, in document order (nested ones included).
pub fn extract(doc: &Html) -> Vec<Table> {
    let mut v = Finder {
        dom: &doc.tree,
        tables: Vec::new(),
        facts: FactsByName::default(),
    };
    walk(doc.tree.root(), &mut v);
    v.tables
}

struct Finder<'d> {
    /// The tree walked (attributes read off its arena: [`element_facts::is_hidden_in`]).
    dom: &'d Dom,
    tables: Vec<Table>,
    /// Element names looked up once per name, for the walk and every cell's text.
    facts: FactsByName,
}

impl<'a> Visitor<'a> for Finder<'_> {
    fn open(&mut self, node: NodeRef<'a>) -> bool {
        match node.value() {
            Node::Element(el) => {
                if self.facts.get(el).invisible
                    || (el.has_attrs() && element_facts::is_hidden_in(self.dom, node.id()))
                {
                    return false;
                }
                if el.name_id() == tag::TABLE && is_data_table(el, node) {
                    let (table, nested) = build(node, &mut self.facts);
                    self.tables.extend(table);
                    // `build` walked every cell and the caption as this walk would (the
                    // same elements skipped): below them, it met every table there is.
                    return nested || !only_cells(node);
                }
                true
            }
            Node::Document | Node::Fragment => true,
            _ => false,
        }
    }

    fn close(&mut self, _node: NodeRef<'a>) {}
}

/// The data table `table`, unless fewer than two rows have cells, and whether its cells or
/// caption hold a `<table>`.
fn build(table: NodeRef<'_>, facts: &mut FactsByName) -> (Option<Table>, bool) {
    let mut nested = false;
    let caption = first_caption(table)
        .map(|c| {
            let mut text = String::new();
            nested |= inline_text_append(c, &mut text, facts);
            text
        })
        .filter(|c| !c.is_empty());
    // Every cell's text in one buffer, each cell a range of it: no allocation per cell, and
    // the body cells' ranges stay valid in the table handed out.
    let mut text = String::new();
    let mut texts: Vec<Range<usize>> = Vec::new();
    // Each cell's (colspan, rowspan), and whether one spans more than one.
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    let mut spans = false;
    let mut rows: Vec<RowMark> = Vec::new();
    for (row, in_thead) in table_rows(table) {
        let first = texts.len();
        for (cell, el) in cells(row) {
            let from = text.len();
            nested |= inline_text_append(cell, &mut text, facts);
            texts.push(from..text.len());
            // Most cells have no attribute: no span to look up.
            let size = if el.has_attrs() {
                (
                    grid::colspan(attr(el, "colspan")),
                    grid::rowspan(attr(el, "rowspan")),
                )
            } else {
                (1, 1)
            };
            spans |= size != (1, 1);
            sizes.push(size);
        }
        if texts.len() > first {
            rows.push(RowMark { first, in_thead });
        }
    }
    if rows.len() < 2 {
        return (None, nested);
    }
    let real_cells = texts.len();
    let real_bytes = text.len();
    let bounds = |i: usize| rows[i].first..rows.get(i + 1).map_or(texts.len(), |r| r.first);

    // The header row and the body rows, spans expanded, as ranges of `text`.
    let grid;
    let (header, columns, body): (Cells<'_>, usize, Vec<Cells<'_>>) = if !spans {
        // No spans: the grid would be the rows as they are, the header the first
        // `<thead>` row (else the first row) taken out of them.
        let at = rows.iter().position(|r| r.in_thead).unwrap_or(0);
        let columns = (0..rows.len()).map(|i| bounds(i).len()).max().unwrap_or(0);
        let body = (0..rows.len())
            .filter(|&i| i != at)
            .map(|i| texts.get(bounds(i)).unwrap_or_default())
            .collect();
        (texts.get(bounds(at)).unwrap_or_default(), columns, body)
    } else {
        let raw = (0..rows.len())
            .map(|i| {
                let b = bounds(i);
                RawRow {
                    cells: texts[b.clone()]
                        .iter()
                        .zip(&sizes[b])
                        .map(|(t, &(colspan, rowspan))| RawCell {
                            text: t.clone(),
                            colspan,
                            rowspan,
                        })
                        .collect(),
                    in_thead: rows[i].in_thead,
                }
            })
            .collect();
        grid = grid::build(raw);
        (
            grid.header.as_deref().unwrap_or_default(),
            grid.columns,
            grid.rows.iter().map(Vec::as_slice).collect(),
        )
    };
    let cell_text = |r: &Range<usize>| text.get(r.clone()).unwrap_or_default();
    let header_texts: Vec<&str> = header.iter().map(cell_text).collect();
    let headers = unique_headers(&header_texts, columns);

    // Cells escaped straight into the Markdown: no escaped copy of the grid.
    let mut markdown = String::with_capacity(real_bytes + real_bytes / 8 + 4 * real_cells + 64);
    grid::pipe_lines(
        header.iter().map(&cell_text),
        columns,
        body.iter().map(|row| row.iter().map(&cell_text)),
        true,
        |line| {
            markdown.push_str(line);
            markdown.push('\n');
        },
    );

    // Padding every row to the full width is what callers want, unless a ragged hostile
    // table would multiply its size.
    let width = headers.len();
    let pad = body.len().saturating_mul(width) <= 4 * real_cells + 100_000;
    let mut cells = Vec::with_capacity(if pad { body.len() * width } else { real_cells });
    let mut row_ends = Vec::with_capacity(body.len());
    for row in &body {
        let start = cells.len();
        cells.extend_from_slice(row.get(..width).unwrap_or(row));
        if pad {
            cells.resize(start + width, 0..0);
        }
        row_ends.push(cells.len());
    }
    let table = Table {
        caption,
        headers,
        text,
        cells,
        row_ends,
        markdown,
    };
    (Some(table), nested)
}

fn first_caption(table: NodeRef<'_>) -> Option<NodeRef<'_>> {
    table
        .children()
        .find(|c| c.element().is_some_and(|e| e.name_id() == tag::CAPTION))
}

/// Whether everything under `table` with children is what [`build`] walks: its first
/// caption, and the cells of its rows (those of its row groups included).
fn only_cells(table: NodeRef<'_>) -> bool {
    let caption = first_caption(table);
    let childless = |n: NodeRef<'_>| n.first_child().is_none();
    let row_of_cells = |row: NodeRef<'_>| {
        row.children().all(|c| {
            childless(c)
                || c.element()
                    .is_some_and(|e| matches!(e.name_id(), tag::TD | tag::TH))
        })
    };
    table
        .children()
        .all(|child| match child.element().map(|e| e.name_id()) {
            _ if childless(child) || Some(child) == caption => true,
            Some(tag::TR) => row_of_cells(child),
            Some(tag::THEAD | tag::TBODY | tag::TFOOT) => child.children().all(|r| {
                childless(r)
                    || (r.element().is_some_and(|e| e.name_id() == tag::TR) && row_of_cells(r))
            }),
            _ => false,
        })
}

/// A row's cells as ranges of a table's text.
type Cells<'t> = &'t [Range<usize>];

/// A row of [`build`]'s cells: where its cells start (they run to the next row's start)
/// and what [`RawRow`] says of it.
struct RowMark {
    first: usize,
    in_thead: bool,
}

/// Header names for `columns` columns: empty ones become `col_N` (1-based), repeats get
/// `_2`, `_3`, ...
pub fn unique_headers<S: AsRef<str>>(cells: &[S], columns: usize) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::with_capacity(columns);
    let mut next_suffix: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(columns);
    for i in 0..columns {
        let base = cells
            .get(i)
            .map(|c| c.as_ref().trim())
            .filter(|c| !c.is_empty())
            .map_or_else(|| format!("col_{}", i + 1), str::to_string);
        let name = if used.contains(&base) {
            let n = next_suffix.entry(base.clone()).or_insert(2);
            loop {
                let candidate = format!("{base}_{n}");
                *n += 1;
                if !used.contains(&candidate) {
                    break candidate;
                }
            }
        } else {
            base
        };
        used.insert(name.clone());
        out.push(name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_made_unique() {
        let h = unique_headers(&["Name", "", "Name", "Name"], 5);
        assert_eq!(h, vec!["Name", "col_2", "Name_2", "Name_3", "col_5"]);
        let h = unique_headers(&["col_2", ""], 2);
        assert_eq!(h, vec!["col_2", "col_2_2"]);
    }

    #[test]
    fn data_table_extracted() {
        let doc = crate::parse(
            "<table><caption> Prices </caption><thead><tr><th>Item</th><th>Cost</th></tr></thead>\
             <tbody><tr><td>Tea</td><td>3 | 4</td></tr><tr><td colspan=2>n/a</td></tr></tbody></table>\
             <table><tr><td>layout</td></tr></table>",
        );
        let t = extract(&doc);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].caption.as_deref(), Some("Prices"));
        assert_eq!(t[0].headers, vec!["Item", "Cost"]);
        let rows: Vec<Vec<&str>> = t[0].rows().map(|r| r.cells().collect()).collect();
        assert_eq!(rows, vec![vec!["Tea", "3 | 4"], vec!["n/a", "n/a"]]);
        assert_eq!(
            t[0].markdown,
            "| Item | Cost |\n| --- | --- |\n| Tea | 3 \\| 4 |\n| n/a | n/a |\n"
        );
    }

    #[test]
    fn first_cell_spans() {
        let doc = crate::parse(
            "<table><tr><th colspan=2>H</th></tr><tr><td>a</td><td rowspan=2>b</td></tr>\
             <tr><td>c</td></tr></table>",
        );
        let t = extract(&doc);
        assert_eq!(t[0].headers, vec!["H", "H_2"]);
        let rows: Vec<Vec<&str>> = t[0].rows().map(|r| r.cells().collect()).collect();
        assert_eq!(rows, vec![vec!["a", "b"], vec!["c", "b"]]);
    }

    #[test]
    fn tables_below_cells_found() {
        // A data table in a data table's cell (below a `div`), and one beside the rows.
        let doc = crate::parse(
            "<table><tr><th>A</th><th>B</th></tr><tr><td>x</td><td><div><table>\
             <tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table></div></td></tr>\
             <caption>first</caption><caption><table><tr><th>C</th><th>D</th></tr>\
             <tr><td>5</td><td>6</td></tr></table></caption></table>",
        );
        let t = extract(&doc);
        let headers: Vec<&[String]> = t.iter().map(|t| t.headers.as_slice()).collect();
        assert_eq!(headers, vec![&["A", "B"][..], &["1", "2"], &["C", "D"]]);
        assert_eq!(t[0].caption.as_deref(), Some("first"));
        let rows: Vec<Vec<&str>> = t[0].rows().map(|r| r.cells().collect()).collect();
        assert_eq!(rows, vec![vec!["x", "1 2 3 4"]]);
    }

    #[test]
    fn layout_tables_skipped() {
        let doc = crate::parse(
            "<table role=presentation><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>\
             <table><tr><td>a</td></tr><tr><td>b</td></tr></table>",
        );
        assert!(extract(&doc).is_empty());
    }
}
