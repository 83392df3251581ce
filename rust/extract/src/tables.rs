//! The `tables` view: every data table as header-keyed rows, plus its Markdown.

use std::collections::{HashMap, HashSet};

use crate::tree::Element;
use crate::tree::NodeRef;
use crate::tree::{tag, Html, Node};

use crate::element_facts::{self, attr, FactsByName};
use crate::grid::{self, RawCell, RawRow};
use crate::plain::inline_text_with;
use crate::walk::{walk, Visitor};
use webgrip_html::Dom;

/// One extracted data table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub caption: Option<String>,
    /// Unique, non-empty column names.
    pub headers: Vec<String>,
    /// Body rows: cell `i` belongs to `headers[i]`. Rows are padded to every column unless
    /// a ragged hostile table would multiply its size (then short rows stay short).
    pub rows: Vec<Vec<String>>,
    pub markdown: String,
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
                    if let Some(t) = build(node, &mut self.facts) {
                        self.tables.push(t);
                    }
                }
                true
            }
            Node::Document | Node::Fragment => true,
            _ => false,
        }
    }

    fn close(&mut self, _node: NodeRef<'a>) {}
}

fn build(table: NodeRef<'_>, facts: &mut FactsByName) -> Option<Table> {
    let caption = table
        .children()
        .find(|c| c.element().is_some_and(|e| e.name_id() == tag::CAPTION))
        .map(|c| {
            let mut text = String::new();
            inline_text_with(c, &mut text, facts);
            text
        })
        .filter(|c| !c.is_empty());
    let mut raw = Vec::new();
    // One buffer for every cell's text, each copied out at its size (see `inline_text_into`).
    let mut text = String::new();
    // Rows of a table are mostly as wide as the one before: each row's cells are allocated
    // at that width once, rather than grown through every small capacity (up to a width
    // that bounds what a narrow row after a hostile wide one holds unused).
    const WIDTH_AHEAD: usize = 64;
    let mut width = 0;
    for (row, in_thead) in table_rows(table) {
        let mut r = RawRow {
            cells: Vec::with_capacity(width.min(WIDTH_AHEAD)),
            in_thead,
            header: true,
        };
        for (cell, el) in cells(row) {
            r.header &= el.name_id() == tag::TH;
            inline_text_with(cell, &mut text, facts);
            // Most cells have no attribute: no span to look up.
            let (colspan, rowspan) = if el.has_attrs() {
                (
                    grid::colspan(attr(el, "colspan")),
                    grid::rowspan(attr(el, "rowspan")),
                )
            } else {
                (1, 1)
            };
            r.cells.push(RawCell {
                text: text.as_str().to_owned(),
                colspan,
                rowspan,
            });
        }
        if !r.cells.is_empty() {
            width = r.cells.len();
            raw.push(r);
        }
    }
    if raw.len() < 2 {
        return None;
    }
    let real_cells: usize = raw.iter().map(|r| r.cells.len()).sum();
    let real_bytes: usize = raw
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| c.text.len())
        .sum();
    let grid = grid::build(raw);
    let headers = unique_headers(grid.header.as_deref().unwrap_or(&[]), grid.columns);

    // Cells escaped straight into the Markdown: no escaped copy of the grid.
    let mut markdown = String::with_capacity(real_bytes + real_bytes / 8 + 4 * real_cells + 64);
    grid::markdown_lines(&grid, true, |line| {
        markdown.push_str(line);
        markdown.push('\n');
    });

    // Padding every row to the full width is what callers want, unless a ragged hostile
    // table would multiply its size.
    let pad = grid.rows.len().saturating_mul(headers.len()) <= 4 * real_cells + 100_000;
    let width = headers.len();
    let rows = grid
        .rows
        .into_iter()
        .map(|mut cells| {
            cells.truncate(width);
            if pad {
                cells.resize(width, String::new());
            }
            cells
        })
        .collect();
    Some(Table {
        caption,
        headers,
        rows,
        markdown,
    })
}

/// Header names for `columns` columns: empty ones become `col_N` (1-based), repeats get
/// `_2`, `_3`, ...
pub fn unique_headers(cells: &[String], columns: usize) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::with_capacity(columns);
    let mut next_suffix: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(columns);
    for i in 0..columns {
        let base = cells
            .get(i)
            .map(|c| c.trim())
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
        let h = unique_headers(&["Name".into(), "".into(), "Name".into(), "Name".into()], 5);
        assert_eq!(h, vec!["Name", "col_2", "Name_2", "Name_3", "col_5"]);
        let h = unique_headers(&["col_2".into(), "".into()], 2);
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
        assert_eq!(t[0].rows[1], vec!["n/a", "n/a"]);
        assert_eq!(
            t[0].markdown,
            "| Item | Cost |\n| --- | --- |\n| Tea | 3 \\| 4 |\n| n/a | n/a |\n"
        );
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
