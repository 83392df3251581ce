//! The Markdown view of a PDF, from the same lines as the text view ([`crate::layout`]).
//!
//! Why our own: `pdf_oxide`'s `to_markdown` works on its span layer, which costs about five
//! times the glyph layer, interprets every page twice and has the faults the layout avoids
//! (see `layout.rs`). The layout keeps each line's font size and boldness; from those:
//!
//! - the body size is the size most characters of the whole document are set in;
//! - a short block (at most 3 lines and 200 characters, not ending like a sentence) set at
//!   least 1.15 times the body size is a heading, its level from the distinct heading sizes
//!   of the document (largest `#`, at most `###`); one or two bold lines at body size that
//!   open a block followed by plain text are a heading one level below those;
//! - a line opening with a bullet glyph is a `- ` item, one opening with `1.`, `2)`, `a)` an
//!   item as it stands; the indented lines after it continue it;
//! - three or more rows in a row of two or more cells each, every cell starting at the x of
//!   a column that at least two rows share, are a `|` table (the first row its header);
//! - other lines are joined into paragraphs as in the text view
//!   ([`reflow::join_paragraphs`]), with a Markdown-active character at the start escaped.
//!
//! Being wrong costs more than missing: a false heading misleads a reader (or an agent
//! skimming the `#` lines) more than a heading left as a paragraph, so every test is strict.

use std::collections::HashMap;

use crate::{layout, reflow};

/// A block is a heading by size when its characters are set this much larger than the body.
const HEADING_RATIO: f32 = 1.15;

/// One line of a page for the Markdown view.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub text: String,
    /// Font size, the mean over the line's glyphs (a drop cap does not make a line large).
    pub size: f32,
    /// Most of its glyphs are bold.
    pub bold: bool,
    /// Where the line starts along its direction.
    pub x0: f32,
    /// Runs of text with a wide gap between them: more than one is a row of cells.
    pub segments: usize,
    /// With more than one segment, each one's x and text.
    pub cells: Vec<(f32, String)>,
    /// Already Markdown: `pdf_oxide`'s own, for a page the glyph layer could not decode.
    pub raw: bool,
}

impl AsRef<str> for Line {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl Line {
    fn blank() -> Line {
        Line {
            text: String::new(),
            size: 0.0,
            bold: false,
            x0: 0.0,
            segments: 1,
            cells: Vec::new(),
            raw: false,
        }
    }

    /// A line of `pdf_oxide`'s Markdown.
    pub fn raw(text: &str) -> Line {
        Line {
            text: text.to_owned(),
            raw: true,
            ..Line::blank()
        }
    }
}

/// A page's lines from the layout's paragraphs: characters normalized as in the text view, a
/// blank line between paragraphs.
pub fn from_layout(paras: Vec<Vec<layout::Line>>) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, para) in paras.into_iter().enumerate() {
        if i > 0 {
            out.push(Line::blank());
        }
        out.extend(para.into_iter().map(|l| {
            let ends = l.cells.iter().skip(1).map(|(_, at)| at.saturating_sub(1));
            let cells = l
                .cells
                .iter()
                .zip(ends.chain([l.text.len()]))
                .map(|(&(x, from), to)| {
                    let cell = l.text.get(from..to).unwrap_or("");
                    (x, reflow::normalize_chars(cell).trim().to_owned())
                })
                .collect();
            Line {
                text: reflow::normalize_chars(&l.text),
                size: l.mean_size,
                bold: l.bold,
                x0: l.x0,
                segments: l.segments,
                cells,
                raw: false,
            }
        }));
    }
    out
}

/// One rendered piece of a page.
enum Part {
    /// Heading text; `Some(size)` for a heading by size, `None` for a bold one at body size.
    Heading(String, Option<f32>),
    /// A list item with its marker, and the number of its block on the page (items of one
    /// block are one list).
    Item(String, usize),
    Paragraph(String),
    /// A `|` table.
    Table(String),
    /// A page already in Markdown.
    Raw(String),
}

/// The Markdown of each page (running headers and footers already dropped).
pub fn render(pages: &[Vec<Line>]) -> Vec<String> {
    let body = body_size(pages);
    let parts: Vec<Vec<Part>> = pages.iter().map(|p| page_parts(p, body)).collect();
    // Heading levels: the distinct sizes of the document's headings, largest first.
    let mut sizes: Vec<i32> = parts
        .iter()
        .flatten()
        .filter_map(|p| match p {
            Part::Heading(_, Some(size)) => Some(size_bin(*size)),
            _ => None,
        })
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    let level = |size: Option<f32>| -> usize {
        let rank = match size {
            Some(s) => sizes.iter().position(|b| *b == size_bin(s)).unwrap_or(0),
            None => sizes.len(),
        };
        (rank + 1).min(3)
    };
    parts
        .iter()
        .map(|page| {
            let mut out = String::new();
            for (i, part) in page.iter().enumerate() {
                if i > 0 {
                    let tight = match (part, &page[i - 1]) {
                        (Part::Item(_, a), Part::Item(_, b)) => a == b,
                        _ => false,
                    };
                    out.push_str(if tight { "\n" } else { "\n\n" });
                }
                match part {
                    Part::Heading(text, size) => {
                        out.push_str(&"#".repeat(level(*size)));
                        out.push(' ');
                        out.push_str(text);
                    }
                    Part::Item(text, _)
                    | Part::Paragraph(text)
                    | Part::Table(text)
                    | Part::Raw(text) => out.push_str(text),
                }
            }
            out
        })
        .collect()
}

/// Sizes compared in half points: 10.0 and 10.02 are one size.
fn size_bin(size: f32) -> i32 {
    (size * 2.0).round() as i32
}

/// The size most of the document's characters are set in (0 when it has no laid-out text).
pub fn body_size(pages: &[Vec<Line>]) -> f32 {
    let mut weight: HashMap<i32, usize> = HashMap::new();
    for line in pages.iter().flatten().filter(|l| !l.raw && l.size > 0.0) {
        let inked = line.text.chars().filter(|c| !c.is_whitespace()).count();
        *weight.entry(size_bin(line.size)).or_default() += inked;
    }
    // Ties go to the smaller size: a document half title, half text is read as text.
    weight
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map_or(0.0, |(bin, _)| bin as f32 / 2.0)
}

fn page_parts(page: &[Line], body: f32) -> Vec<Part> {
    if page.iter().any(|l| l.raw) {
        let lines: Vec<String> = page.iter().map(|l| l.text.clone()).collect();
        let md = reflow::tidy_markdown(&lines);
        return if md.is_empty() {
            Vec::new()
        } else {
            vec![Part::Raw(md)]
        };
    }
    let blocks: Vec<&[Line]> = page
        .split(|l| l.text.trim().is_empty())
        .filter(|b| !b.is_empty())
        .collect();
    let mut parts = Vec::new();
    for (k, block) in blocks.iter().enumerate() {
        if let Some(text) = size_heading(block, body) {
            parts.push(Part::Heading(text, Some(block[0].size)));
            continue;
        }
        let lead = block.iter().take_while(|l| l.bold).count();
        // Bold lines must be followed by running text (plain, a line of 40 characters or
        // more), so bold labels over their values (a form, an invoice) or a run of bold
        // lines do not turn into headings.
        let running = |lines: &[Line]| {
            !lines.first().is_some_and(|l| l.bold)
                && lines.iter().any(|l| l.text.chars().count() >= 40)
        };
        let plain_after = if lead < block.len() {
            running(&block[lead..])
        } else {
            blocks.get(k + 1).is_some_and(|next| running(next))
        };
        let mut rest: &[Line] = block;
        if (1..=2).contains(&lead) && plain_after {
            if let Some(text) = bold_heading(&block[..lead], body) {
                parts.push(Part::Heading(text, None));
                rest = &block[lead..];
            }
        }
        body_parts(rest, k, &mut parts);
    }
    parts
}

/// A block of at most three short lines, all set clearly larger than the body, none a row of
/// cells.
fn size_heading(block: &[Line], body: f32) -> Option<String> {
    if body <= 0.0
        || block.len() > 3
        || block
            .iter()
            .any(|l| l.size < HEADING_RATIO * body || l.segments > 1)
    {
        return None;
    }
    let text = join_lines(block.iter().map(|l| l.text.trim()));
    heading_like(&text, 200).then_some(text)
}

/// One or two bold lines at (about) body size, none a row of cells (a form's labels, a
/// table's header).
fn bold_heading(lines: &[Line], body: f32) -> Option<String> {
    if body <= 0.0
        || lines
            .iter()
            .any(|l| l.size < 0.95 * body || l.size >= HEADING_RATIO * body || l.segments > 1)
    {
        return None;
    }
    let text = join_lines(lines.iter().map(|l| l.text.trim()));
    heading_like(&text, 120).then_some(text)
}

/// Short, with a letter, not ending like a sentence or a clause, not a bullet item.
fn heading_like(text: &str, max_chars: usize) -> bool {
    text.chars().count() <= max_chars
        && text.chars().any(char::is_alphabetic)
        && !text.ends_with(['.', ',', ';', ':'])
        && bullet(text).is_none()
}

/// Lines joined with a space, a word split by a line-end hyphen joined again (as
/// [`reflow::join_paragraphs`] does).
fn join_lines<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for line in lines.filter(|l| !l.is_empty()) {
        if out.is_empty() {
            out.push_str(line);
        } else if let Some(stem) =
            reflow::split_word_end(&out).filter(|_| reflow::continues_word(line))
        {
            let keep = stem.len();
            out.truncate(keep);
            out.push_str(line);
        } else {
            out.push(' ');
            out.push_str(line);
        }
    }
    out
}

/// The lines of a block that are not a heading: list items and paragraphs.
fn body_parts(lines: &[Line], block: usize, parts: &mut Vec<Part>) {
    let mut prose: Vec<&str> = Vec::new();
    // The open item: its text so far, where its marker starts, its size.
    let mut item: Option<(String, f32, f32)> = None;
    let flush_prose = |prose: &mut Vec<&str>, parts: &mut Vec<Part>| {
        if !prose.is_empty() {
            let joined = reflow::join_paragraphs(&prose.join("\n"));
            parts.extend(
                joined
                    .split("\n\n")
                    .filter(|p| !p.is_empty())
                    .map(|p| Part::Paragraph(escape(p))),
            );
            prose.clear();
        }
    };
    let flush_item = |item: &mut Option<(String, f32, f32)>, parts: &mut Vec<Part>| {
        if let Some((text, _, _)) = item.take() {
            parts.push(Part::Item(text, block));
        }
    };
    // Whether the line before may end a paragraph or item, so that a line opening with a dash
    // can be an item (a dash also opens a wrapped line of prose: `... as long as` / `- at 195
    // inches`). A bullet glyph is an item wherever it stands.
    let mut may_end = true;
    let mut k = 0;
    while k < lines.len() {
        let line = &lines[k];
        k += 1;
        if line.cells.len() >= 2 {
            let run = lines[k - 1..]
                .iter()
                .take_while(|l| l.cells.len() >= 2)
                .count();
            if let Some(table) = table(&lines[k - 1..k - 1 + run]) {
                flush_prose(&mut prose, parts);
                flush_item(&mut item, parts);
                parts.push(Part::Table(table));
                may_end = true;
                k += run - 1;
                continue;
            }
        }
        let t = line.text.trim();
        let glyph_bullet = !t.starts_with(['-', '–', '*']);
        let after_end = std::mem::replace(&mut may_end, t.ends_with([':', '.', '!', '?', ';']));
        let start = if let Some(content) =
            bullet(t).filter(|_| glyph_bullet || after_end || item.is_some() || prose.is_empty())
        {
            Some(format!("- {}", escape(content)))
        } else {
            numbered(t).then(|| t.to_owned())
        };
        if let Some(start) = start {
            flush_prose(&mut prose, parts);
            flush_item(&mut item, parts);
            item = Some((start, line.x0, line.size));
            continue;
        }
        if let Some((text, x0, size)) = item.as_mut() {
            // A marker that stood alone on its line takes the next line as its text; else a
            // continuation is indented past the marker.
            if text == "- " {
                *text = format!("- {}", escape(t));
                continue;
            }
            if line.x0 > *x0 + 0.3 * *size {
                *text = join_lines([text.as_str(), t].into_iter());
                continue;
            }
        }
        flush_item(&mut item, parts);
        prose.push(t);
    }
    flush_prose(&mut prose, parts);
    flush_item(&mut item, parts);
}

/// Rows of cells as a `|` table: at least three rows, the cells' x-starts falling into
/// columns (within 0.6 em) that each at least two rows use, at most one cell per row and
/// column. The first row is the header (Markdown has no table without one).
fn table(rows: &[Line]) -> Option<String> {
    if rows.len() < 3 {
        return None;
    }
    let tol = 0.6 * rows.iter().map(|r| r.size).fold(0.0, f32::max).max(1.0);
    let mut xs: Vec<f32> = rows
        .iter()
        .flat_map(|r| r.cells.iter().map(|c| c.0))
        .collect();
    xs.sort_by(f32::total_cmp);
    // Columns: x-starts within `tol` of the column's first.
    let mut columns: Vec<f32> = Vec::new();
    for x in xs {
        if columns.last().is_none_or(|c| x - c > tol) {
            columns.push(x);
        }
    }
    if columns.len() > 12 {
        return None;
    }
    let mut grid: Vec<Vec<Option<&str>>> = Vec::with_capacity(rows.len());
    let mut used = vec![0usize; columns.len()];
    for row in rows {
        let mut cells: Vec<Option<&str>> = vec![None; columns.len()];
        for (x, text) in &row.cells {
            let col = columns.iter().rposition(|c| *x >= c - 0.01)?;
            if cells[col].is_some() {
                return None;
            }
            cells[col] = Some(text.as_str());
            used[col] += 1;
        }
        grid.push(cells);
    }
    if used.iter().any(|n| *n < 2) {
        return None;
    }
    let line = |cells: &[Option<&str>]| -> String {
        let inner: Vec<String> = cells
            .iter()
            .map(|c| c.unwrap_or("").replace('|', "\\|"))
            .collect();
        format!("| {} |", inner.join(" | "))
    };
    let mut out = line(&grid[0]);
    out.push('\n');
    out.push_str(&line(&vec![Some("---"); columns.len()]));
    for row in &grid[1..] {
        out.push('\n');
        out.push_str(&line(row));
    }
    Some(out)
}

/// The text after a bullet: a bullet glyph (with or without a space after it), or `-`, `–`,
/// `*` followed by a space. `Some("")` for a marker alone on its line.
fn bullet(t: &str) -> Option<&str> {
    let mut chars = t.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    match first {
        '•' | '●' | '▪' | '◦' | '‣' => Some(rest.trim_start()),
        '-' | '–' | '*' if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
            Some(rest.trim_start())
        }
        _ => None,
    }
}

/// A numbered item: one to three digits and `.` or `)`, or one lowercase letter and `)`,
/// then a space and text.
fn numbered(t: &str) -> bool {
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let rest = if (1..=3).contains(&digits) {
        &t[digits..]
    } else if t.starts_with(|c: char| c.is_ascii_lowercase()) && t[1..].starts_with(')') {
        &t[1..]
    } else {
        return false;
    };
    let after = if digits > 0 {
        rest.strip_prefix(['.', ')'])
    } else {
        rest.strip_prefix(')')
    };
    after.is_some_and(|a| a.starts_with(' ') && !a.trim().is_empty())
}

/// A paragraph with a backslash before a character at its start that would otherwise make
/// it a heading, quote, table row, HTML block, code fence, list item or rule.
fn escape(p: &str) -> String {
    let digits = p.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        // `1990. ` would start an ordered list (items we keep have three digits at most and
        // are not paragraphs).
        let rest = &p[digits..];
        // A marker needs a space or the end after it (`3.` alone is an empty item too).
        let marker = rest.starts_with(['.', ')'])
            && rest[1..].chars().next().is_none_or(char::is_whitespace);
        if marker && digits <= 9 {
            return format!("{}\\{}", &p[..digits], rest);
        }
        return p.to_owned();
    }
    let rule = p.chars().count() >= 3
        && p.chars().all(|c| matches!(c, '-' | '*' | '_' | '=' | ' '))
        && p.chars().any(|c| c != ' ');
    // `#Browns` is a hashtag, `# Browns` and `##` headings.
    let hashes = p.chars().take_while(|c| *c == '#').count();
    let heading = (1..=6).contains(&hashes) && p[hashes..].chars().next().is_none_or(|c| c == ' ');
    // `- x`, `* x`, `+ x` or a lone marker would open a list: a dash line kept as prose can
    // open a paragraph when the line before it was short.
    let bullet_marker =
        p.starts_with(['-', '*', '+']) && p[1..].chars().next().is_none_or(char::is_whitespace);
    let active = heading
        || p.starts_with(['>', '|', '<'])
        || bullet_marker
        || p.starts_with("```")
        || p.starts_with("~~~")
        || rule;
    if active {
        format!("\\{p}")
    } else {
        p.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, size: f32, bold: bool, x0: f32) -> Line {
        Line {
            text: text.into(),
            size,
            bold,
            x0,
            segments: 1,
            cells: Vec::new(),
            raw: false,
        }
    }

    /// A row of cells starting at the given x.
    fn row(cells: &[(f32, &str)]) -> Line {
        let text: Vec<&str> = cells.iter().map(|c| c.1).collect();
        Line {
            segments: cells.len(),
            cells: cells.iter().map(|(x, t)| (*x, t.to_string())).collect(),
            ..line(&text.join(" "), 10.0, false, cells[0].0)
        }
    }

    fn body(text: &str) -> Line {
        line(text, 10.0, false, 50.0)
    }

    /// Paragraph lines long enough to make 10 pt the body size.
    fn prose(n: usize) -> Vec<Line> {
        (0..n)
            .map(|i| {
                body(&format!(
                    "running text of the body line {i}, set at ten points wide"
                ))
            })
            .collect()
    }

    #[test]
    fn headings_by_size_take_levels_from_the_distinct_sizes() {
        let mut page = vec![line("Annual Report", 24.0, true, 50.0), Line::blank()];
        page.push(line("Results", 16.0, true, 50.0));
        page.push(Line::blank());
        page.extend(prose(3));
        page.push(Line::blank());
        page.push(line("Outlook", 16.0, false, 50.0));
        page.push(Line::blank());
        page.extend(prose(2));
        let md = render(&[page]).join("");
        assert!(
            md.starts_with("# Annual Report\n\n## Results\n\nrunning"),
            "{md}"
        );
        assert!(md.contains("\n\n## Outlook\n\nrunning"), "{md}");
    }

    #[test]
    fn levels_stop_at_three() {
        let mut page = Vec::new();
        for (text, size) in [
            ("One", 30.0),
            ("Two", 24.0),
            ("Three", 18.0),
            ("Four", 14.0),
        ] {
            page.push(line(text, size, false, 50.0));
            page.push(Line::blank());
            page.extend(prose(3));
            page.push(Line::blank());
        }
        let md = render(&[page]).join("");
        for h in ["# One", "## Two", "### Three", "### Four"] {
            assert!(md.contains(&format!("{h}\n")), "{h}: {md}");
        }
    }

    #[test]
    fn a_bold_line_opening_a_block_is_a_lower_heading() {
        let mut page = vec![line("Title", 20.0, false, 50.0), Line::blank()];
        page.push(line("Method and materials", 10.0, true, 50.0));
        page.extend(prose(3));
        let md = render(&[page]).join("");
        assert!(
            md.starts_with("# Title\n\n## Method and materials\n\nrunning"),
            "{md}"
        );
    }

    #[test]
    fn bold_lines_without_plain_text_after_them_stay_text() {
        let mut page = prose(3);
        page.push(Line::blank());
        page.push(line("Name", 10.0, true, 50.0));
        page.push(Line::blank());
        page.push(line("Address", 10.0, true, 50.0));
        let md = render(&[page]).join("");
        assert!(!md.contains('#'), "{md}");
        // And a bold sentence is emphasis, not a heading.
        let mut page = vec![line("This is important.", 10.0, true, 50.0)];
        page.extend(prose(3));
        assert!(!render(&[page]).join("").contains('#'));
    }

    #[test]
    fn a_long_paragraph_in_a_large_font_is_not_a_heading() {
        let mut page = prose(6);
        page.push(Line::blank());
        for i in 0..4 {
            page.push(line(
                &format!("a pull quote set large, line {i} of a long paragraph that runs on"),
                14.0,
                false,
                50.0,
            ));
        }
        page.push(Line::blank());
        page.push(line("Ends like a sentence.", 14.0, false, 50.0));
        page.push(Line::blank());
        page.push(line(
            &"a single large line too long to be any heading at all ".repeat(5),
            14.0,
            false,
            50.0,
        ));
        let md = render(&[page]).join("");
        assert!(!md.contains('#'), "{md}");
    }

    #[test]
    fn body_size_is_weighted_by_characters_over_the_document() {
        // Page one has more lines at 14 pt, the document more characters at 9 pt.
        let one = vec![
            line("Big", 14.0, false, 0.0),
            line("Big", 14.0, false, 0.0),
            line("Big", 14.0, false, 0.0),
        ];
        let two = vec![line(&"small text ".repeat(20), 9.0, false, 0.0)];
        assert_eq!(body_size(&[one.clone(), two.clone()]), 9.0);
        // Per page, page one would be its own body: across the document its lines are headings.
        let md = render(&[one, two]);
        assert!(md[0].starts_with("# Big"), "{md:?}");
    }

    #[test]
    fn bullets_become_items_and_numbers_stay() {
        let mut page = prose(2);
        page.push(Line::blank());
        page.push(body("• first item"));
        page.push(line("wraps onto a second line", 10.0, false, 62.0));
        page.push(body("●second item"));
        page.push(body("– third item"));
        page.push(body("•"));
        page.push(body("a bullet drawn apart from its text"));
        page.push(Line::blank());
        page.push(body("1. numbered one"));
        page.push(body("2) numbered two"));
        page.push(body("a) lettered"));
        page.push(Line::blank());
        page.push(body("-5 degrees is cold, and *this* is not an item"));
        let md = render(&[page]).join("");
        assert!(
            md.contains(
                "\n\n- first item wraps onto a second line\n- second item\n- third item\n\
                 - a bullet drawn apart from its text\n\n\
                 1. numbered one\n2) numbered two\na) lettered\n\n-5 degrees"
            ),
            "{md}"
        );
    }

    #[test]
    fn a_dash_opening_a_wrapped_line_of_prose_is_not_an_item() {
        let page = vec![
            body("the new model is longer than the old one, measuring in"),
            body("- at 195 inches - about as long as a family estate car, and"),
            body("wider too. The list of changes follows:"),
            body("- a new engine"),
            body("- new seats"),
        ];
        let md = render(&[page]).join("");
        assert!(md.contains("measuring in - at 195 inches"), "{md}");
        assert!(
            md.ends_with("follows:\n\n- a new engine\n- new seats"),
            "{md}"
        );
    }

    #[test]
    fn a_row_of_labels_is_not_a_heading() {
        let mut labels = line("Invoice no. Date", 10.0, true, 50.0);
        labels.segments = 2;
        let mut page = vec![labels, body("2056981 2024-01-31")];
        page.push(Line::blank());
        page.extend(prose(4));
        let md = render(&[page]).join("");
        assert!(!md.contains('#'), "{md}");
        // Nor a bold label over its short value.
        let mut page = vec![line("Ordered by", 10.0, true, 50.0), body("J. Jansen")];
        page.push(Line::blank());
        page.extend(prose(4));
        let md = render(&[page]).join("");
        assert!(!md.contains('#'), "{md}");
    }

    #[test]
    fn aligned_rows_of_cells_are_a_table() {
        let mut page = prose(3);
        page.push(Line::blank());
        page.push(row(&[(50.0, "Item"), (200.0, "Price"), (300.0, "Note")]));
        page.push(row(&[(50.0, "Tea"), (200.0, "3,00")]));
        page.push(row(&[(50.0, "Coffee"), (200.3, "4,50"), (300.0, "a|b")]));
        let md = render(&[page]).join("");
        assert!(
            md.ends_with(
                "\n\n| Item | Price | Note |\n| --- | --- | --- |\n| Tea | 3,00 |  |\n\
                 | Coffee | 4,50 | a\\|b |"
            ),
            "{md}"
        );
        // Two rows, or cells that do not line up, stay lines.
        let two = vec![
            row(&[(50.0, "Item"), (200.0, "Price")]),
            row(&[(50.0, "Tea"), (200.0, "3,00")]),
        ];
        // (joined as the text view joins short lines)
        assert_eq!(render(&[two]), vec!["Item Price Tea 3,00"]);
        let ragged = vec![
            row(&[(50.0, "a"), (120.0, "b")]),
            row(&[(50.0, "c"), (200.0, "d")]),
            row(&[(50.0, "e"), (280.0, "f")]),
        ];
        assert!(!render(&[ragged]).join("").contains('|'));
    }

    #[test]
    fn wrapped_lines_join_and_active_starts_are_escaped() {
        let page = vec![
            body("a paragraph that wraps and splits a word at the exam-"),
            body("ple here, then ends."),
            Line::blank(),
            body("# not a heading in the PDF"),
            Line::blank(),
            body("> not a quote"),
            Line::blank(),
            body("#hashtag stays"),
            Line::blank(),
            body("1990. A year, not an item"),
        ];
        let md = render(&[page]).join("");
        assert_eq!(
            md,
            "a paragraph that wraps and splits a word at the example here, then ends.\n\n\
             \\# not a heading in the PDF\n\n\\> not a quote\n\n#hashtag stays\n\n1990\\. A year, not an item"
        );
    }

    #[test]
    fn list_markers_opening_a_paragraph_are_escaped() {
        for (p, want) in [
            (
                "- at 195 inches - about as long as a car",
                "\\- at 195 inches - about as long as a car",
            ),
            ("* starred note", "\\* starred note"),
            ("-", "\\-"),
            ("+", "\\+"),
            ("3.", "3\\."),
            ("12) twelve", "12\\) twelve"),
            ("-5 degrees", "-5 degrees"),
            ("3.5 kg", "3.5 kg"),
        ] {
            assert_eq!(escape(p), want, "{p:?}");
        }
    }

    #[test]
    fn a_page_already_in_markdown_is_kept() {
        let page = vec![Line::raw("# From the span layer"), Line::raw("text")];
        assert_eq!(render(&[page]), vec!["# From the span layer\n\ntext"]);
    }
}
