//! Tables found in a page's segments, for the Markdown view.
//!
//! The layout's XY cut reads a table's columns apart when a column's cells are far from the
//! next, and a right-aligned column of numbers starts at a different x on every row, so the
//! Markdown view's run-of-rows test ([`crate::markdown`]) missed most tables. Here tables are
//! found before the cut, from the segments (runs of glyphs without a gap over 0.6 em) of
//! the whole page:
//!
//! - a row is a baseline with two segments or more; three rows or more in a row, each within
//!   2.5 line heights of the one before, are a candidate;
//! - columns are the x-ranges the rows' segments cover: overlapping ranges are one column
//!   (a left-aligned header over right-aligned numbers overlaps them, or, if it does not,
//!   two neighbouring ranges never used by the same row are one column); a segment that
//!   overlaps two segments of another row is a merged cell, left out of the ranges and
//!   repeated in every column it covers (as webgrip's HTML tables repeat a spanning cell);
//! - prose set in two columns is not a table: a candidate whose median segment holds 30
//!   characters or more, or with a column fewer than two rows use, is left to the layout.
//!
//! The text view never calls this: its words and order are unchanged.

use super::{Line, Segment};

/// A table taken out of the page's segments, to go back among the paragraphs where the
/// layout put its stand-in.
pub(super) struct Found {
    /// The text of the stand-in segment.
    mark: String,
    rows: Vec<Line>,
}

/// The page's segments without the tables' own, each table replaced by one stand-in segment
/// over its top row (so the XY cut orders it among the rest), and the tables found.
///
/// A table across the page's gutter (the column cut the XY cut makes first) is left to the
/// layout: rows found there are two columns of text sharing baselines, and a stand-in across
/// the gutter would merge the columns' reading.
pub(super) fn pull(segments: Vec<Segment>, em: f32) -> (Vec<Segment>, Vec<Found>) {
    let pieces: Vec<Piece> = segments
        .iter()
        .map(|s| Piece {
            x0: s.x0,
            x1: s.x1,
            y: s.y,
            size: s.size,
            text: &s.text,
        })
        .collect();
    let mut tables = find(&pieces);
    if !tables.is_empty() {
        if let Some(gutter) = super::column_cut(&segments, em) {
            tables.retain(|t| {
                let x0 = t
                    .members
                    .iter()
                    .map(|&m| segments[m].x0)
                    .fold(f32::INFINITY, f32::min);
                let x1 = t
                    .members
                    .iter()
                    .map(|&m| segments[m].x1)
                    .fold(f32::NEG_INFINITY, f32::max);
                !(x0 < gutter && gutter < x1)
            });
        }
        // Side-by-side boxes (a seller beside a buyer) share rows only by chance: each is
        // read whole by the layout ([`super::boxes`]).
        tables.retain(|t| {
            let members = t.members.iter().map(|&m| &segments[m]);
            super::boxes::cut(members, em).is_none()
        });
    }
    if tables.is_empty() {
        return (segments, Vec::new());
    }
    let mut taken = vec![false; segments.len()];
    let mut found = Vec::with_capacity(tables.len());
    let mut marks = Vec::with_capacity(tables.len());
    for (n, table) in tables.iter().enumerate() {
        for &m in &table.members {
            taken[m] = true;
        }
        let rows = table
            .rows
            .iter()
            .zip(&table.row_members)
            .map(|(cells, members)| row_line(cells, &table.columns, members, &segments))
            .collect();
        // A noncharacter no font maps a glyph to, numbered per table.
        let mark = format!("\u{FFFF}{n}");
        let top = &segments[table.row_members[0][0]];
        let x0 = table
            .members
            .iter()
            .map(|&m| segments[m].x0)
            .fold(f32::INFINITY, f32::min);
        let x1 = table
            .members
            .iter()
            .map(|&m| segments[m].x1)
            .fold(f32::NEG_INFINITY, f32::max);
        marks.push(Segment {
            text: mark.clone(),
            x0,
            x1,
            y: top.y,
            size: top.size,
            chars: 0,
            bold: 0,
            size_sum: 0.0,
        });
        found.push(Found { mark, rows });
    }
    let mut rest: Vec<Segment> = segments
        .into_iter()
        .zip(taken)
        .filter_map(|(s, t)| (!t).then_some(s))
        .collect();
    rest.extend(marks);
    (rest, found)
}

/// A table's row as a layout line: its cells joined by a space, one cell per column (empty
/// ones too), each at its column's left edge.
fn row_line(cells: &[String], columns: &[f32], members: &[usize], segments: &[Segment]) -> Line {
    let mut text = String::new();
    let mut starts = Vec::with_capacity(cells.len());
    for (k, (cell, x)) in cells.iter().zip(columns).enumerate() {
        if k > 0 {
            text.push(' ');
        }
        starts.push((*x, text.len()));
        text.push_str(cell);
    }
    let segs = members.iter().map(|&m| &segments[m]);
    let size = segs.clone().map(|s| s.size).fold(0.0, f32::max);
    let chars: usize = segs.clone().map(|s| s.chars).sum();
    let bold: usize = segs.clone().map(|s| s.bold).sum();
    let size_sum: f32 = segs.map(|s| s.size_sum).sum();
    Line {
        text,
        size,
        mean_size: if chars > 0 {
            size_sum / chars as f32
        } else {
            size
        },
        bold: 2 * bold > chars,
        x0: columns.first().copied().unwrap_or(0.0),
        segments: cells.len(),
        cells: starts,
    }
}

/// The paragraphs with each table's rows, a paragraph of their own, where its stand-in is.
pub(super) fn put_back(paras: Vec<Vec<Line>>, mut found: Vec<Found>) -> Vec<Vec<Line>> {
    let mut out = Vec::with_capacity(paras.len() + 2 * found.len());
    for para in paras {
        let mut current = Vec::new();
        for line in para {
            match found.iter().position(|f| f.mark == line.text) {
                Some(k) => {
                    if !current.is_empty() {
                        out.push(std::mem::take(&mut current));
                    }
                    out.push(std::mem::take(&mut found[k].rows));
                }
                None => current.push(line),
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// A segment as the table finder sees it.
#[derive(Debug, Clone, Copy)]
pub struct Piece<'a> {
    pub x0: f32,
    pub x1: f32,
    /// Baseline, larger is higher on the page.
    pub y: f32,
    pub size: f32,
    pub text: &'a str,
}

/// A table found: the pieces it is made of and its rows of cells, top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Indices into the pieces given to [`find`].
    pub members: Vec<usize>,
    /// Each row's cells, one per column (empty where the row has none).
    pub rows: Vec<Vec<String>>,
    /// Each column's left edge.
    pub columns: Vec<f32>,
    /// The pieces of each row (indices into the pieces).
    pub row_members: Vec<Vec<usize>>,
}

/// Rows a candidate needs.
const MIN_ROWS: usize = 3;
/// Columns a table may have (more is a chart's labels or a scattered form).
const MAX_COLUMNS: usize = 12;
/// A candidate whose median segment is this long is prose in columns.
const PROSE_CHARS: usize = 30;
/// A merged cell this long is a line of prose, not a cell to repeat.
const MERGED_PROSE_CHARS: usize = 48;
/// Pieces of one candidate checked pairwise for merged cells at most (bounds the work).
const MAX_PIECES: usize = 1000;

/// The tables among `pieces`, top to bottom; a piece belongs to one table at most.
pub fn find(pieces: &[Piece]) -> Vec<Table> {
    let mut order: Vec<usize> = (0..pieces.len())
        .filter(|&i| {
            pieces[i].x0.is_finite() && pieces[i].x1.is_finite() && pieces[i].y.is_finite()
        })
        .collect();
    order.sort_by(|&a, &b| {
        pieces[b]
            .y
            .total_cmp(&pieces[a].y)
            .then(pieces[a].x0.total_cmp(&pieces[b].x0))
    });
    // Baselines: pieces within 0.4 em of the first one's baseline.
    let mut lines: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let first = pieces[order[i]];
        let mut j = i + 1;
        while j < order.len() && first.y - pieces[order[j]].y <= 0.4 * first.size {
            j += 1;
        }
        let mut line = order[i..j].to_vec();
        line.sort_by(|&a, &b| pieces[a].x0.total_cmp(&pieces[b].x0));
        lines.push(line);
        i = j;
    }
    let line_size = |l: &[usize]| l.iter().map(|&p| pieces[p].size).fold(1.0, f32::max);
    let mut tables = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].len() < 2 {
            k += 1;
            continue;
        }
        let close = |a: usize, b: usize| {
            let pitch = pieces[lines[a][0]].y - pieces[lines[b][0]].y;
            pitch <= 2.5 * line_size(&lines[a]).max(line_size(&lines[b]))
        };
        let mut end = k + 1;
        // The last row of several cells: rows with only their first cell filled sit at its
        // first cell's x and end before its second.
        let mut last = k;
        let first_only = |l: usize, last: usize| {
            let (p, row) = (pieces[lines[l][0]], &lines[last]);
            lines[l].len() == 1
                && (p.x0 - pieces[row[0]].x0).abs() <= 0.6 * p.size
                && p.x1 < pieces[row[1]].x0
        };
        let one_cell = |l: usize, next: usize| {
            let p = pieces[lines[l][0]];
            let under = lines[next]
                .iter()
                .filter(|&&q| p.x0 < pieces[q].x1 && pieces[q].x0 < p.x1)
                .count();
            under <= 1
        };
        while end < lines.len() && close(end - 1, end) {
            if lines[end].len() >= 2 {
                last = end;
                end += 1;
            } else if end + 1 < lines.len()
                && lines[end + 1].len() >= 2
                && close(end, end + 1)
                && one_cell(end, end + 1)
            {
                // A row with one cell filled, between rows of several (a line across the
                // columns is a note between rows, not a row).
                last = end + 1;
                end += 2;
            } else {
                // Up to three rows with only their first cell filled, inside the table or
                // closing it.
                let mut j = end;
                while j < lines.len() && j - end < 3 && close(j - 1, j) && first_only(j, last) {
                    j += 1;
                }
                if j > end && j < lines.len() && lines[j].len() >= 2 && close(j - 1, j) {
                    last = j;
                    end = j + 1;
                    continue;
                }
                end = j;
                break;
            }
        }
        if end - k >= MIN_ROWS {
            if let Some(table) = grid(pieces, &lines[k..end]) {
                // Text running on at the pitch just above or below, inside one column, is a
                // column of prose that happens to share baselines with its neighbour.
                let beside = |l: usize, r: usize| {
                    close(l.min(r), l.max(r))
                        && lines[l].len() == 1
                        && inside_one(pieces[lines[l][0]], &table.columns)
                };
                let above = k > 0 && beside(k - 1, k);
                let below = end < lines.len() && beside(end, end - 1);
                if !above && !below {
                    tables.push(table);
                }
            }
        }
        k = end;
    }
    tables
}

/// Whether `p` starts at a column's left edge and ends before the next column's: a line of
/// that column running on.
fn inside_one(p: Piece, lefts: &[f32]) -> bool {
    let slack = 0.6 * p.size;
    (0..lefts.len()).any(|c| {
        (p.x0 - lefts[c]).abs() <= slack && lefts.get(c + 1).is_none_or(|&next| p.x1 < next)
    })
}

/// The table a candidate run of rows makes, if its columns hold.
fn grid(pieces: &[Piece], rows: &[Vec<usize>]) -> Option<Table> {
    let all: Vec<usize> = rows.iter().flatten().copied().collect();
    let mut chars: Vec<usize> = all
        .iter()
        .map(|&p| pieces[p].text.chars().count())
        .collect();
    chars.sort_unstable();
    if chars[chars.len() / 2] >= PROSE_CHARS {
        return None;
    }
    let overlaps = |p: usize, a: f32, b: f32| pieces[p].x0 < b && a < pieces[p].x1;
    // A merged cell: it covers two pieces of one other row.
    let spanning = |p: usize| {
        all.len() <= MAX_PIECES
            && rows.iter().any(|row| {
                !row.contains(&p)
                    && row
                        .iter()
                        .filter(|&&q| overlaps(p, pieces[q].x0, pieces[q].x1))
                        .count()
                        >= 2
            })
    };
    // Rows with fewer than half the cells of the fullest (a group row over the header, whose
    // centred cell may fall short of its columns' text) place their cells by overlap but do
    // not shape the columns, as merged cells do not.
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
    let span: Vec<bool> = rows
        .iter()
        .flat_map(|row| row.iter().map(move |&p| (p, 2 * row.len() < widest)))
        .map(|(p, sparse)| sparse || spanning(p))
        .collect();
    // Column ranges: the union of the other pieces' x-ranges.
    let mut ranges: Vec<(f32, f32)> = all
        .iter()
        .zip(&span)
        .filter(|(_, s)| !**s)
        .map(|(&p, _)| (pieces[p].x0, pieces[p].x1))
        .collect();
    ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut columns: Vec<(f32, f32)> = Vec::new();
    for (a, b) in ranges {
        match columns.last_mut() {
            Some(last) if a < last.1 => last.1 = last.1.max(b),
            _ => columns.push((a, b)),
        }
    }
    // Which rows use each column; neighbours no row uses both of are one column.
    // (Merged cells and sparse rows left out: they cover both neighbours by nature.) More
    // ranges than a table could merge down to: not a table, and the merging stays linear.
    if columns.len() > 4 * MAX_COLUMNS {
        return None;
    }
    let mut at = 0;
    let shaping: Vec<Vec<usize>> = rows
        .iter()
        .map(|row| {
            let keep = row
                .iter()
                .zip(&span[at..at + row.len()])
                .filter_map(|(&p, s)| (!s).then_some(p))
                .collect();
            at += row.len();
            keep
        })
        .collect();
    let used = |col: (f32, f32)| -> Vec<bool> {
        shaping
            .iter()
            .map(|row| row.iter().any(|&p| overlaps(p, col.0, col.1)))
            .collect()
    };
    let mut c = 0;
    while c + 1 < columns.len() {
        let (a, b) = (used(columns[c]), used(columns[c + 1]));
        if a.iter().zip(&b).all(|(x, y)| !(x & y)) {
            columns[c].1 = columns[c + 1].1;
            columns.remove(c + 1);
        } else {
            c += 1;
        }
    }
    if !(2..=MAX_COLUMNS).contains(&columns.len()) {
        return None;
    }
    if columns
        .iter()
        .any(|&col| used(col).iter().filter(|u| **u).count() < 2)
    {
        return None;
    }
    let mut out_rows = Vec::with_capacity(rows.len());
    for row in rows {
        let mut cells = vec![String::new(); columns.len()];
        for &p in row {
            let mut hits = 0;
            for (cell, col) in cells.iter_mut().zip(&columns) {
                if overlaps(p, col.0, col.1) {
                    if !cell.is_empty() {
                        cell.push(' ');
                    }
                    cell.push_str(pieces[p].text.trim());
                    hits += 1;
                }
            }
            let hit = hits > 0;
            if !hit || (hits > 1 && pieces[p].text.chars().count() >= MERGED_PROSE_CHARS) {
                // A line of prose across columns: the table is a column of prose beside
                // another's short lines, or a note too long to repeat.
                return None;
            }
        }
        out_rows.push(cells);
    }
    Some(Table {
        members: all,
        rows: out_rows,
        columns: columns.iter().map(|c| c.0).collect(),
        row_members: rows.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces of a grid: `cells[r][c]` at row r (14 pt apart), column x from `xs`, 5 pt a
    /// character; a cell starting with `>` is right-aligned to the column's `right`.
    fn pieces<'a>(cells: &'a [&'a [&'a str]], xs: &[f32], right: &[f32]) -> Vec<Piece<'a>> {
        let mut out = Vec::new();
        for (r, row) in cells.iter().enumerate() {
            for (c, text) in row.iter().enumerate() {
                if text.is_empty() {
                    continue;
                }
                let (text, x0) = match text.strip_prefix('>') {
                    Some(t) => (t, right[c] - 5.0 * t.len() as f32),
                    None => (*text, xs[c]),
                };
                out.push(Piece {
                    x0,
                    x1: x0 + 5.0 * text.len() as f32,
                    y: 700.0 - 14.0 * r as f32,
                    size: 10.0,
                    text,
                });
            }
        }
        out
    }

    #[test]
    fn right_aligned_numbers_stay_under_their_header() {
        let cells: &[&[&str]] = &[
            &["Item", "Qty", "Price"],
            &["apple", ">3", ">1.50"],
            &["pear", ">12", ">10.25"],
            &["plum", ">7", ">100.00"],
        ];
        let found = find(&pieces(cells, &[50.0, 150.0, 250.0], &[0.0, 200.0, 300.0]));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].rows,
            vec![
                vec!["Item", "Qty", "Price"],
                vec!["apple", "3", "1.50"],
                vec!["pear", "12", "10.25"],
                vec!["plum", "7", "100.00"],
            ]
        );
    }

    #[test]
    fn a_merged_cell_is_repeated_in_the_columns_it_covers() {
        let cells: &[&[&str]] = &[
            &["Region", "Totals across both halves", ""],
            &["north", "10", "20"],
            &["south", "30", "40"],
        ];
        let found = find(&pieces(cells, &[50.0, 150.0, 200.0], &[]));
        assert_eq!(found.len(), 1);
        let header = &found[0].rows[0];
        assert_eq!(header[1], "Totals across both halves");
        assert_eq!(header[2], "Totals across both halves");
        assert_eq!(found[0].rows[2], vec!["south", "30", "40"]);
    }

    #[test]
    fn rows_with_one_cell_filled_stay_in_the_table() {
        let cells: &[&[&str]] = &[
            &["a", "b", "c"],
            &["d", "", ""],
            &["g", "h", "i"],
            &["j", "", ""],
            &["k", "", ""],
            &["m", "n", "o"],
            &["p", "", ""],
        ];
        let found = find(&pieces(cells, &[50.0, 150.0, 250.0], &[]));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rows.len(), 7);
        assert_eq!(found[0].rows[3], vec!["j", "", ""]);
    }

    #[test]
    fn a_note_across_the_columns_ends_the_table() {
        let cells: &[&[&str]] = &[
            &["a", "b", "c"],
            &["d", "e", "f"],
            &["a note on the row above, as wide as the table", "", ""],
            &["g", "h", "i"],
            &["j", "k", "l"],
        ];
        let found = find(&pieces(cells, &[50.0, 150.0, 250.0], &[]));
        let mut cells = found.iter().flat_map(|t| t.rows.iter().flatten());
        assert!(!cells.any(|c| c.starts_with("a note")));
    }

    #[test]
    fn a_group_cell_short_of_its_columns_text_still_covers_both() {
        // The group cell starts after `Bridge` ends: it covers no two cells of one row.
        let mut p = pieces(
            &[
                &["Gamma", "Bridge", "North", "East", "Delta"],
                &["engine", "", ">10", "alpha orchard", ">3,801"],
                &[
                    "gamma",
                    "bridge market river",
                    ">4,159",
                    "orchard gamma",
                    ">4.1",
                ],
                &[
                    "market",
                    "stone meadow",
                    ">51",
                    "south silver",
                    ">12,376.57",
                ],
            ],
            &[50.0, 150.0, 250.0, 310.0, 400.0],
            &[0.0, 0.0, 295.0, 0.0, 450.0],
        );
        for q in &mut p {
            q.y -= 14.0;
        }
        p.push(Piece {
            x0: 50.0,
            x1: 75.0,
            y: 700.0,
            size: 10.0,
            text: "Group",
        });
        p.push(Piece {
            x0: 185.0,
            x1: 270.0,
            y: 700.0,
            size: 10.0,
            text: "Cedar totals",
        });
        let found = find(&p);
        assert_eq!(found.len(), 1);
        let t = &found[0];
        assert_eq!(t.rows[0][..3], ["Group", "Cedar totals", "Cedar totals"]);
        assert_eq!(t.rows[3][..3], ["gamma", "bridge market river", "4,159"]);
    }

    #[test]
    fn a_line_of_prose_across_the_columns_is_no_merged_cell() {
        let prose = "of conciseness, we focus on the commonly used Laplace distribution";
        let cells: &[&[&str]] = &[
            &["a", "b", "c"],
            &[prose, "", ""],
            &["d", "e", "f"],
            &["g", "h", "i"],
        ];
        let mut p = pieces(cells, &[50.0, 150.0, 250.0], &[]);
        // The prose line shares its baseline with a short cell on the right, as does a row.
        for y in [686.0, 672.0] {
            p.push(Piece {
                x0: 450.0,
                x1: 470.0,
                y,
                size: 10.0,
                text: "m+2",
            });
        }
        let found = find(&p);
        let mut cells = found.iter().flat_map(|t| t.rows.iter().flatten());
        assert!(!cells.any(|c| c.contains("conciseness")));
    }

    #[test]
    fn an_empty_cell_stays_empty() {
        let cells: &[&[&str]] = &[
            &["a", "b", "c"],
            &["d", "", "f"],
            &["g", "h", "i"],
            &["j", "k", "l"],
        ];
        let found = find(&pieces(cells, &[50.0, 150.0, 250.0], &[]));
        assert_eq!(found[0].rows[1], vec!["d", "", "f"]);
    }

    #[test]
    fn prose_in_two_columns_is_not_a_table() {
        let left = "a line of prose in the left column of a page";
        let right = "and its neighbour line in the right column";
        let row = [left, right];
        let cells: Vec<&[&str]> = vec![&row; 8];
        assert!(find(&pieces(&cells, &[50.0, 320.0], &[])).is_empty());
    }

    #[test]
    fn short_lines_of_two_columns_sharing_baselines_are_not_a_table() {
        // Three baselines where both columns have a short line, the left column running on
        // above and below.
        let cells: &[&[&str]] = &[
            &["4) Blade Runner The Final Cut", ""],
            &["Ray) http://a.to/2", "18) Hasbro Gaming"],
            &["http://a.to/2hWE", "http://a.to/3"],
            &["5) I Cavalieri", "http://a.to/4"],
            &["Dodici Case (12 Dvd)", ""],
            &["http://a.to/5", ""],
        ];
        assert!(find(&pieces(cells, &[50.0, 320.0], &[])).is_empty());
    }

    #[test]
    fn two_rows_or_a_gap_are_no_table() {
        let cells: &[&[&str]] = &[&["a", "b"], &["c", "d"]];
        assert!(find(&pieces(cells, &[50.0, 150.0], &[])).is_empty());
        let mut spaced = pieces(
            &[&["a", "b"], &["c", "d"], &["e", "f"]],
            &[50.0, 150.0],
            &[],
        );
        for p in &mut spaced[4..] {
            p.y -= 100.0;
        }
        assert!(find(&spaced).is_empty());
    }
}
