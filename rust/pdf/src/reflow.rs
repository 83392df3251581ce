//! From the lines a PDF page yields to the text a person reads.
//!
//! PDFs position glyphs line by line: a paragraph arrives as wrapped lines, words split at a
//! line end keep their hyphen, ligature glyphs (`ﬁ`) and soft hyphens stay as code points.
//! These passes work on plain lines, so they apply to any extractor's output.

use std::collections::HashMap;

/// Ligature code points (U+FB00..U+FB06) spelled out, soft hyphens dropped, no-break and other
/// odd spaces made plain spaces, control characters (but tab/newline) removed.
pub fn normalize_chars(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while !rest.is_empty() {
        // Printable ASCII, tabs and newlines stay as they are: copied a run at a time (most
        // text is such runs), the rest a character at a time.
        let plain = rest
            .bytes()
            .position(|b| !matches!(b, b' '..=b'~' | b'\t' | b'\n'))
            .unwrap_or(rest.len());
        out.push_str(&rest[..plain]);
        rest = &rest[plain..];
        let Some(c) = rest.chars().next() else {
            break;
        };
        rest = &rest[c.len_utf8()..];
        match c {
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
            '\u{00AD}' | '\u{200B}' | '\u{FEFF}' | '\u{FFFD}' => {}
            '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
                out.push(' ')
            }
            '\t' | '\n' => out.push(c),
            '\r' => out.push('\n'),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Whether a line ends in a hyphen that splits a word: a letter before it, the hyphen the last
/// character. (U+2010 HYPHEN and the ASCII hyphen-minus both occur; a dash does not split.)
pub(crate) fn split_word_end(line: &str) -> Option<&str> {
    let stripped = line
        .strip_suffix('-')
        .or_else(|| line.strip_suffix('\u{2010}'))?;
    let before = stripped.chars().next_back()?;
    before.is_alphabetic().then_some(stripped)
}

/// Whether `word` starts a continuation of a hyphen-split word: a lowercase letter.
pub(crate) fn continues_word(next: &str) -> bool {
    next.chars().next().is_some_and(char::is_lowercase)
}

/// Join the wrapped lines of each paragraph (paragraphs are separated by blank lines) into
/// one line, removing line-end hyphens that split a word (`exam-` + `ple` → `example`).
/// A line much shorter than its block's longest also ends the paragraph, so headings, lists
/// and short lines are not run together when the extractor gives no blank lines.
pub fn join_paragraphs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut para = String::new();
    let flush = |para: &mut String, out: &mut String| {
        if !para.is_empty() {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(para.trim_end());
            para.clear();
        }
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    // The widest line of each block (lines between blank lines): a column's lines are measured
    // against their column, not against a title or a full-width line elsewhere on the page.
    let mut widest_of = vec![0usize; lines.len()];
    let mut start = 0;
    for i in 0..=lines.len() {
        if i == lines.len() || lines[i].is_empty() {
            let widest = lines[start..i]
                .iter()
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0);
            widest_of[start..i].fill(widest);
            start = i + 1;
        }
    }
    for (i, line) in lines.into_iter().enumerate() {
        let widest = widest_of[i];
        if line.is_empty() {
            flush(&mut para, &mut out);
            continue;
        }
        if para.is_empty() {
            para.push_str(line);
        } else if let Some(stem) = split_word_end(&para).filter(|_| continues_word(line)) {
            let keep = stem.len();
            para.truncate(keep);
            para.push_str(line);
        } else {
            para.push(' ');
            para.push_str(line);
        }
        // A line well short of the widest ends its paragraph: the last line of a paragraph, a
        // heading, a list item. Wrapped lines inside a paragraph run nearly full width.
        let n = line.chars().count();
        if widest >= 40 && n * 10 < widest * 7 {
            flush(&mut para, &mut out);
        }
    }
    flush(&mut para, &mut out);
    out
}

/// Whether a Markdown line is structure (heading, list item, table row, quote, fence) that
/// must keep its own line.
fn is_markdown_structure(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with(['#', '|', '>', '-', '*', '+']) || t.starts_with("```") {
        return true;
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with(['.', ')'])
}

/// Markdown lines with the wrapped lines of each plain paragraph joined (as
/// [`join_paragraphs`] does), structure lines kept as they are.
pub fn tidy_markdown(lines: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut prose: Vec<&str> = Vec::new();
    let flush = |prose: &mut Vec<&str>, out: &mut Vec<String>| {
        if !prose.is_empty() {
            out.push(join_paragraphs(&prose.join("\n")));
            prose.clear();
        }
    };
    for line in lines {
        if line.trim().is_empty() {
            flush(&mut prose, &mut out);
        } else if is_markdown_structure(line) {
            flush(&mut prose, &mut out);
            out.push(line.trim_end().to_string());
        } else {
            prose.push(line);
        }
    }
    flush(&mut prose, &mut out);
    // Structure lines of one block (list items, table rows) stay together.
    let mut joined = String::new();
    for (i, block) in out.iter().enumerate() {
        if i > 0 {
            let tight = is_markdown_structure(block)
                && is_markdown_structure(&out[i - 1])
                && !block.starts_with('#')
                && !out[i - 1].starts_with('#');
            joined.push_str(if tight { "\n" } else { "\n\n" });
        }
        joined.push_str(block);
    }
    joined
}

/// A line's identity for header/footer detection: digits (page numbers) folded to `#`,
/// whitespace removed.
fn running_key(line: &str) -> String {
    line.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

/// Drop headers and footers repeated across pages: the first or last non-blank line of a
/// page, when the same line is first (or last) on at least half the pages, with at least
/// three pages. A page-number line (at most four words: "Page 3 of 9", "- 3 -") also
/// matches with its digits changed; a longer one must repeat exactly, so body text that
/// differs only in its figures stays. Each page is its list of lines (any line type that reads
/// as text: the Markdown view keeps each line's font beside it).
pub fn drop_running_lines<L: AsRef<str>>(pages: &mut [Vec<L>]) {
    // A line matched with its digits folded: a page number, not a sentence.
    let short = |line: &str| line.chars().count() <= 40 && line.split_whitespace().count() <= 4;
    if pages.len() < 3 {
        return;
    }
    let threshold = pages.len().div_ceil(2).max(3);
    for from_top in [true, false] {
        // Up to two header (footer) lines: a running title and a page number.
        for _ in 0..2 {
            let edge = |lines: &Vec<L>| -> Option<usize> {
                if from_top {
                    lines.iter().position(|l| !l.as_ref().trim().is_empty())
                } else {
                    lines.iter().rposition(|l| !l.as_ref().trim().is_empty())
                }
            };
            let lines: Vec<Option<String>> = pages
                .iter()
                .map(|p| edge(p).map(|i| p[i].as_ref().trim().to_string()))
                .collect();
            let mut exact: HashMap<&str, usize> = HashMap::new();
            let mut folded: HashMap<String, usize> = HashMap::new();
            for line in lines.iter().flatten() {
                *exact.entry(line.as_str()).or_default() += 1;
                if short(line) {
                    *folded.entry(running_key(line)).or_default() += 1;
                }
            }
            let running = |line: &str| {
                exact.get(line).is_some_and(|n| *n >= threshold)
                    || (short(line)
                        && folded
                            .get(&running_key(line))
                            .is_some_and(|n| *n >= threshold))
            };
            let drop: Vec<bool> = lines
                .iter()
                .map(|l| l.as_deref().is_some_and(running))
                .collect();
            if !drop.iter().any(|d| *d) {
                break;
            }
            for (page, dropped) in pages.iter_mut().zip(drop) {
                if let (true, Some(i)) = (dropped, edge(page)) {
                    page.remove(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ligatures_soft_hyphens_and_spaces() {
        assert_eq!(
            normalize_chars("e\u{FB03}cient o\u{FB03}ce\u{00A0}re\u{00AD}use\u{0007}"),
            "efficient office reuse"
        );
        // Runs of plain ASCII between the characters that change, at either end too.
        assert_eq!(
            normalize_chars(
                "\u{0}Tab\there,\r\nnaïve caf\u{E9}\u{7F}~ \u{FB02}ow\u{2009}end\u{1F}"
            ),
            "Tab\there,\n\nnaïve café~ flow end"
        );
    }

    #[test]
    fn wrapped_lines_and_split_words_are_joined() {
        let text = "The quick brown fox jumps over the lazy dog and then exam-\n\
                    ines the result of the jump with great care.\n\nNext paragraph.";
        assert_eq!(
            join_paragraphs(text),
            "The quick brown fox jumps over the lazy dog and then examines the result of the \
             jump with great care.\n\nNext paragraph."
        );
    }

    #[test]
    fn column_lines_are_measured_against_their_own_block() {
        // A full-width title block, then a narrow column: its wrapped lines still join.
        let text = "A Title Line That Runs Across The Whole Width Of The Page, Both Columns\n\n\
                    the column text wraps on narrow lines in this\n\
                    block and a word split at a line end, engi-\n\
                    neering, is joined again here.";
        assert_eq!(
            join_paragraphs(text),
            "A Title Line That Runs Across The Whole Width Of The Page, Both Columns\n\n\
             the column text wraps on narrow lines in this block and a word split at a line \
             end, engineering, is joined again here."
        );
    }

    #[test]
    fn a_capitalised_continuation_keeps_its_hyphen() {
        assert_eq!(join_paragraphs("pre-\nWar"), "pre- War");
        assert_eq!(join_paragraphs("1990 -\nthen"), "1990 - then");
    }

    #[test]
    fn a_short_heading_line_stands_alone() {
        let text = "Results of the Quarter\nBody paragraph of page one tells the story in plain\n\
                    words, with figures that differ on every page of it.";
        let out = join_paragraphs(text);
        assert!(
            out.starts_with("Results of the Quarter\n\nBody paragraph"),
            "{out:?}"
        );
    }

    #[test]
    fn a_short_sentence_end_closes_the_paragraph() {
        let text = "A long line of running text that wraps over several lines of the page\n\
                    and ends here.\nA new paragraph starts on the next line of the page.";
        let out = join_paragraphs(text);
        assert!(out.contains("ends here.\n\nA new paragraph"), "{out:?}");
    }

    #[test]
    fn running_headers_and_page_numbers_are_dropped() {
        let mut pages: Vec<Vec<String>> = (1..=4)
            .map(|n| {
                vec![
                    "Annual Report 2024".to_string(),
                    format!("Body text of page {n}."),
                    format!("Page {n} of 4"),
                ]
            })
            .collect();
        drop_running_lines(&mut pages);
        for (i, p) in pages.iter().enumerate() {
            assert_eq!(p, &vec![format!("Body text of page {}.", i + 1)]);
        }
    }

    #[test]
    fn long_lines_differing_in_figures_are_body_text() {
        let mut pages: Vec<Vec<String>> = (1..=4)
            .map(|n| {
                vec![
                    format!("Body paragraph of page {n} tells the story of the quarter."),
                    format!("With figures that differ on every page: {n} units sold."),
                ]
            })
            .collect();
        let before = pages.clone();
        drop_running_lines(&mut pages);
        assert_eq!(pages, before);
    }

    #[test]
    fn two_pages_are_too_few_to_call_a_line_running() {
        let mut pages = vec![vec!["Title".to_string()], vec!["Title".to_string()]];
        drop_running_lines(&mut pages);
        assert_eq!(pages[0], vec!["Title".to_string()]);
    }
}
