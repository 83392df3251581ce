//! A page's glyphs from the parser handed to our own layout (`layout`, `markdown`), or the
//! parser's own text assembly where its glyph layer could not decode the page.

use pdf_oxide::PdfDocument;

use crate::{cmaps, layout, markdown, reflow};

/// A Markdown page from our layout (see [`markdown`] for why), or `pdf_oxide`'s own Markdown
/// where the text view falls back to its text assembly; empty when the page cannot be read.
pub(crate) fn markdown_page(
    doc: &PdfDocument,
    i: usize,
    options: &pdf_oxide::converters::ConversionOptions,
) -> Vec<markdown::Line> {
    match cmaps::page_chars(doc, i) {
        Ok(chars) => match placed(&chars) {
            Some(glyphs) => markdown::from_layout(layout::page_lines(&glyphs)),
            None => {
                let md = doc.to_markdown(i, options).unwrap_or_default();
                reflow::normalize_chars(&md)
                    .lines()
                    .map(markdown::Line::raw)
                    .collect()
            }
        },
        Err(_) => Vec::new(),
    }
}

/// The parser's glyphs for our own layout (see [`layout`] for why). `None` when its glyph
/// layer could not decode the page's characters (U+FFFD for more than one glyph in twenty,
/// seen with some CID fonts whose span layer decodes them): the caller then asks the parser's
/// own text assembly.
pub(crate) fn placed(chars: &[pdf_oxide::layout::TextChar]) -> Option<Vec<layout::Placed>> {
    let inked = chars.iter().filter(|c| !c.char.is_whitespace()).count();
    let unknown = chars
        .iter()
        .filter(|c| c.char == char::REPLACEMENT_CHARACTER)
        .count();
    if unknown * 20 > inked {
        return None;
    }
    // Glyphs come in runs of one font: its name is looked at once per run.
    let mut last: Option<(&str, bool)> = None;
    let placed = chars
        .iter()
        .map(|c| {
            let named_bold = match last {
                Some((name, bold)) if name == c.font_name => bold,
                _ => {
                    let bold = bold_name(&c.font_name);
                    last = Some((&c.font_name, bold));
                    bold
                }
            };
            layout::Placed {
                c: c.char,
                x: c.origin_x,
                y: c.origin_y,
                w: c.advance_width,
                size: c.font_size,
                rotation: c.rotation_degrees,
                bold: named_bold || c.font_weight.is_bold(),
            }
        })
        .collect();
    Some(placed)
}

/// A font whose name says it is bold (`Arial-BoldMT`, `Inter-Black`, `Lato-Heavy`,
/// `SourceSansPro-Semibold`): many fonts carry no weight of their own.
fn bold_name(name: &str) -> bool {
    ["Bold", "Black", "Heavy", "Semibold"]
        .iter()
        .any(|w| name.contains(w))
}
