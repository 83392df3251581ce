//! Table cells → a rectangular grid, with `colspan`/`rowspan` expanded.
//!
//! Span expansion copies cell text, so a hostile table could ask for billions of copies
//! (`rowspan=65534` on 50,000 columns). A budget proportional to the real cells bounds the
//! work; spans beyond it are left empty rather than expanded.

/// HTML caps colspan at 1000 and rowspan at 65534.
const MAX_COLSPAN: usize = 1000;
const MAX_ROWSPAN: usize = 65534;

/// A cell as read, its text a `String` (the tables view, which hands cells out) or a `&str`
/// into one shared buffer (the Markdown view, which only writes them: no allocation per
/// cell, and span copies are pointer copies).
#[derive(Debug, Clone)]
pub struct RawCell<T = String> {
    pub text: T,
    pub colspan: usize,
    pub rowspan: usize,
}

#[derive(Debug, Clone)]
pub struct RawRow<T = String> {
    pub cells: Vec<RawCell<T>>,
    pub in_thead: bool,
}

impl<T> Default for RawRow<T> {
    fn default() -> Self {
        RawRow {
            cells: Vec::new(),
            in_thead: false,
        }
    }
}

/// Parse a span attribute the way browsers do (leading digits; 0 or junk → 1), capped.
pub fn span(value: Option<&str>, max: usize) -> usize {
    let Some(v) = value else { return 1 };
    let n = v
        .trim()
        .bytes()
        .take_while(u8::is_ascii_digit)
        .take(6)
        .fold(0usize, |n, d| n * 10 + usize::from(d - b'0'));
    match n {
        0 => 1,
        n => n.min(max),
    }
}

pub fn colspan(value: Option<&str>) -> usize {
    span(value, MAX_COLSPAN)
}

pub fn rowspan(value: Option<&str>) -> usize {
    span(value, MAX_ROWSPAN)
}

/// A cell's text as [`build`] sees it: only its length counts (the budget of copies).
pub trait CellText: Clone + Default {
    fn text_len(&self) -> usize;
}

impl CellText for String {
    fn text_len(&self) -> usize {
        self.len()
    }
}

impl CellText for &str {
    fn text_len(&self) -> usize {
        self.len()
    }
}

/// A range of a buffer holding every cell's text (the tables view's).
impl CellText for std::ops::Range<usize> {
    fn text_len(&self) -> usize {
        self.len()
    }
}

/// The expanded table: the header row (if any) and the body rows, in order.
#[derive(Debug)]
pub struct Grid<T = String> {
    pub header: Option<Vec<T>>,
    pub rows: Vec<Vec<T>>,
    /// Widest row, header included.
    pub columns: usize,
}

/// A span still covering cells of the rows below: (column, rows left, text).
struct Active<T> {
    col: usize,
    left: usize,
    text: T,
}

/// Expand spans and pick the header: the first `<thead>` row, else the first row.
pub fn build<T: CellText>(rows: Vec<RawRow<T>>) -> Grid<T> {
    let real: usize = rows.iter().map(|r| r.cells.len()).sum();
    let real_bytes: usize = rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| c.text.text_len())
        .sum();
    // Cells and bytes we are willing to create by copying.
    let mut budget_cells = 4 * real + 100_000;
    let mut budget_bytes = 4 * real_bytes + (1 << 20);

    let header_index = rows.iter().position(|r| r.in_thead).unwrap_or(0);
    let mut out_rows: Vec<Vec<T>> = Vec::with_capacity(rows.len());
    let mut active: Vec<Active<T>> = Vec::new();
    for row in rows {
        let mut line: Vec<T> = Vec::with_capacity(row.cells.len());
        let mut next_active: Vec<Active<T>> = Vec::new();
        let mut spans = std::mem::take(&mut active).into_iter().peekable();
        for cell in row.cells {
            while let Some(a) = spans.next_if(|a| a.col <= line.len()) {
                fill_span(&mut line, &mut next_active, a);
            }
            let col = line.len();
            let copies = cell.colspan.saturating_sub(1);
            let text_len = cell.text.text_len();
            let cost = copies * text_len;
            let expand = copies <= budget_cells && cost <= budget_bytes;
            if expand {
                budget_cells -= copies;
                budget_bytes -= cost;
            }
            let width = if expand { cell.colspan } else { 1 };
            if cell.rowspan > 1 {
                let below = (cell.rowspan - 1).saturating_mul(width);
                let below_cost = below.saturating_mul(text_len.max(1));
                if below <= budget_cells && below_cost <= budget_bytes {
                    budget_cells -= below;
                    budget_bytes -= below_cost;
                    for c in col..col + width {
                        next_active.push(Active {
                            col: c,
                            left: cell.rowspan - 1,
                            text: cell.text.clone(),
                        });
                    }
                }
            }
            for _ in 1..width {
                line.push(cell.text.clone());
            }
            line.push(cell.text);
            // Spans are consumed in column order; keep the rest aligned after this cell.
        }
        // Spans past the last real cell still fill their columns.
        for a in spans {
            fill_span(&mut line, &mut next_active, a);
        }
        next_active.sort_by_key(|a| a.col);
        active = next_active;
        out_rows.push(line);
    }
    let columns = out_rows.iter().map(Vec::len).max().unwrap_or(0);
    let header = if out_rows.is_empty() {
        None
    } else {
        Some(out_rows.remove(header_index.min(out_rows.len() - 1)))
    };
    Grid {
        header,
        rows: out_rows,
        columns,
    }
}

/// Put a span from the row above into its column of `line` (padding the columns before it),
/// and keep it for the next row while it covers more.
fn fill_span<T: CellText>(line: &mut Vec<T>, next_active: &mut Vec<Active<T>>, a: Active<T>) {
    while line.len() < a.col {
        line.push(T::default());
    }
    line.push(a.text.clone());
    if a.left > 1 {
        next_active.push(Active {
            col: a.col,
            left: a.left - 1,
            text: a.text,
        });
    }
}

/// A GFM pipe table, one line at a time into `line` (reused, so no allocation per line or
/// cell). With `escape`, cells are plain text and escaped here ([`push_escaped_cell`]);
/// without, they must already be escaped for Markdown (`|` included) and be on one line.
/// Only the header row is padded to the full width (renderers pad short body rows
/// themselves), so a ragged hostile table costs no more than its cells.
pub fn markdown_lines<T: AsRef<str>>(grid: &Grid<T>, escape: bool, line_out: impl FnMut(&str)) {
    let header = grid.header.as_deref().unwrap_or(&[]);
    pipe_lines(
        header.iter().map(AsRef::as_ref),
        grid.columns,
        grid.rows.iter().map(|row| row.iter().map(AsRef::as_ref)),
        escape,
        line_out,
    );
}

/// [`markdown_lines`] from the header's cells, the width and the body rows' cells as they
/// come: a table without spans needs no [`Grid`] (no vector per row) to be written.
pub fn pipe_lines<'c, C: Iterator<Item = &'c str>>(
    header: C,
    columns: usize,
    rows: impl Iterator<Item = C>,
    escape: bool,
    mut line_out: impl FnMut(&str),
) {
    if columns == 0 {
        return;
    }
    let push_cell = |line: &mut String, cell: &str| {
        line.push(' ');
        if escape {
            push_escaped_cell(line, cell);
        } else {
            line.push_str(cell);
        }
        line.push_str(" |");
    };
    let mut line = String::with_capacity(64);
    line.push('|');
    let mut written = 0;
    for cell in header.take(columns) {
        push_cell(&mut line, cell);
        written += 1;
    }
    for _ in written..columns {
        push_cell(&mut line, "");
    }
    line_out(&line);
    line.clear();
    line.push('|');
    for _ in 0..columns {
        line.push_str(" --- |");
    }
    line_out(&line);
    for row in rows {
        line.clear();
        line.push('|');
        for cell in row {
            push_cell(&mut line, cell);
        }
        line_out(&line);
    }
}

/// [`markdown_lines`] collected.
#[cfg(test)]
pub fn to_markdown(grid: &Grid) -> Vec<String> {
    let mut lines = Vec::with_capacity(grid.rows.len() + 2);
    markdown_lines(grid, false, |l| lines.push(l.to_string()));
    lines
}

/// Escape a plain-text cell for a pipe table.
#[cfg(test)]
pub fn escape_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped_cell(&mut out, text);
    out
}

/// A plain-text cell escaped for a pipe table, appended to `out`.
pub fn push_escaped_cell(out: &mut String, text: &str) {
    if is_written_as_is(text) {
        out.push_str(text);
        return;
    }
    // On ASCII text, `char::is_whitespace` is `u8::is_ascii_whitespace` plus the vertical
    // tab: without either, the byte splitter cuts where the Unicode one does, without
    // decoding a character (most cells are ASCII).
    if text.bytes().all(|b| b.is_ascii() && b != 0x0b) {
        push_escaped_words(out, text.split_ascii_whitespace());
    } else {
        push_escaped_words(out, text.split_whitespace());
    }
}

/// How a byte of a cell's text bears on [`is_written_as_is`].
const KEPT: u8 = 0;
const SPACE: u8 = 1;
const OTHER: u8 = 2;

/// [`KEPT`] for the bytes a cell writes as they are: not a byte Markdown escaping looks at
/// (`escape::SPECIAL`), not whitespace, not the lead byte of a Unicode space (U+0085 and
/// U+00A0 start with `C2`, U+1680 with `E1`, U+2000..U+205F with `E2`, U+3000 with `E3`).
const fn cell_bytes() -> [u8; 256] {
    let special = crate::emit::escape::special_table();
    let mut t = [KEPT; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_whitespace() || c == 0x0b {
            t[b] = OTHER;
        }
        if special[b] || matches!(c, 0xC2 | 0xE1 | 0xE2 | 0xE3) {
            t[b] = OTHER;
        }
        b += 1;
    }
    t[b' ' as usize] = SPACE;
    t
}
static CELL_BYTES: [u8; 256] = cell_bytes();

/// Whether [`push_escaped_cell`] writes `text` unchanged: words one space apart, no space
/// at either end, no byte that escaping or the split looks at. Text a view collapsed
/// (`plain::inline_text`) nearly always is: one pass over it then replaces a split into
/// words and an escape per word.
fn is_written_as_is(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ') {
        return false;
    }
    let mut after_space = false;
    for &b in bytes {
        match CELL_BYTES[b as usize] {
            KEPT => after_space = false,
            SPACE if !after_space => after_space = true,
            _ => return false,
        }
    }
    true
}

/// `words` escaped for a pipe table, one space between them.
fn push_escaped_words<'a>(out: &mut String, words: impl Iterator<Item = &'a str>) {
    for (i, word) in words.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        crate::emit::escape::push_escaped(
            out,
            word,
            crate::emit::escape::Context {
                line_start: false,
                in_link: false,
                in_cell: true,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_written_as_is_are_what_escaping_writes() {
        let pieces = [
            "a",
            "bc",
            " ",
            "  ",
            "\t",
            "\n",
            "\x0b",
            "|",
            "*",
            "_",
            "x_y",
            "[",
            "]",
            "<p",
            "&amp;",
            "~",
            "\\",
            "`",
            "\u{a0}",
            "\u{85}",
            "\u{2003}",
            "\u{3000}",
            "\u{1680}",
            "\u{e9}",
            "\u{4e2d}",
            "\u{1f600}",
            "-",
            "#",
            "1.",
        ];
        let mut texts = vec![String::new()];
        for a in pieces {
            for b in pieces {
                texts.push(format!("{a}{b}"));
                for c in pieces {
                    texts.push(format!("{a}{b}{c}"));
                }
            }
        }
        for text in &texts {
            let mut slow = String::new();
            push_escaped_words(&mut slow, text.split_whitespace());
            let mut fast = String::new();
            push_escaped_cell(&mut fast, text);
            assert_eq!(fast, slow, "{text:?}");
            if is_written_as_is(text) {
                assert_eq!(&slow, text, "{text:?}");
            }
        }
    }

    #[test]
    fn ascii_cells_split_as_unicode_ones() {
        for text in [
            "",
            "  a  b\t\nc\r\x0cd ",
            "a\x0bb",
            "a\u{a0}b \u{2003}c",
            "x | *y* _z_",
            "\x1fa\x1cb",
        ] {
            let mut by_unicode = String::new();
            push_escaped_words(&mut by_unicode, text.split_whitespace());
            let mut out = String::new();
            push_escaped_cell(&mut out, text);
            assert_eq!(out, by_unicode, "{text:?}");
        }
    }

    fn row(cells: &[(&str, usize, usize)]) -> RawRow {
        RawRow {
            cells: cells
                .iter()
                .map(|&(t, c, r)| RawCell {
                    text: t.to_string(),
                    colspan: c,
                    rowspan: r,
                })
                .collect(),
            ..RawRow::default()
        }
    }

    #[test]
    fn spans_expand() {
        let g = build(vec![
            row(&[("A", 2, 1), ("B", 1, 2)]),
            row(&[("c", 1, 1), ("d", 1, 1)]),
            row(&[("e", 1, 1), ("f", 1, 1), ("g", 1, 1)]),
        ]);
        assert_eq!(g.header, Some(vec!["A".into(), "A".into(), "B".into()]));
        assert_eq!(g.rows[0], vec!["c", "d", "B"]);
        assert_eq!(g.rows[1], vec!["e", "f", "g"]);
        assert_eq!(g.columns, 3);
    }

    #[test]
    fn rowspan_in_middle_column() {
        let g = build(vec![
            row(&[("a", 1, 1), ("b", 1, 3), ("c", 1, 1)]),
            row(&[("d", 1, 1), ("e", 1, 1)]),
            row(&[("f", 1, 1), ("g", 1, 1)]),
        ]);
        assert_eq!(g.rows[0], vec!["d", "b", "e"]);
        assert_eq!(g.rows[1], vec!["f", "b", "g"]);
    }

    #[test]
    fn thead_row_is_header() {
        let mut rows = vec![row(&[("x", 1, 1)]), row(&[("H", 1, 1)])];
        rows[1].in_thead = true;
        let g = build(rows);
        assert_eq!(g.header, Some(vec!["H".to_string()]));
        assert_eq!(g.rows, vec![vec!["x".to_string()]]);
    }

    #[test]
    fn hostile_spans_are_bounded() {
        let wide: Vec<(&str, usize, usize)> = (0..50_000).map(|_| ("x", 1, 65534)).collect();
        let mut rows = vec![row(&wide)];
        for _ in 0..10_000 {
            rows.push(row(&[("y", 1000, 1)]));
        }
        let g = build(rows);
        let total: usize = g.rows.iter().map(Vec::len).sum();
        assert!(total < 5_000_000, "expanded to {total} cells");
    }

    #[test]
    fn span_parsing() {
        assert_eq!(colspan(Some("3")), 3);
        assert_eq!(colspan(Some(" 2x")), 2);
        assert_eq!(colspan(Some("0")), 1);
        assert_eq!(colspan(Some("-1")), 1);
        assert_eq!(colspan(Some("999999999")), 1000);
        assert_eq!(rowspan(None), 1);
    }

    #[test]
    fn markdown_pads_header_only() {
        let g = build(vec![row(&[("h", 1, 1)]), row(&[("a", 1, 1), ("b", 1, 1)])]);
        assert_eq!(
            to_markdown(&g),
            vec!["| h |  |", "| --- | --- |", "| a | b |"]
        );
        assert_eq!(escape_cell("a | b\n c"), "a \\| b c");
    }
}
