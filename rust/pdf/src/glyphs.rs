//! A page's glyphs from the parser handed to our own layout (`layout`, `markdown`), or the
//! parser's own text assembly where its glyph layer could not decode the page.

use std::cmp::Ordering;

use pdf_oxide::extractors::TextExtractor;
use pdf_oxide::layout::TextChar;
use pdf_oxide::PdfDocument;

use crate::{cmaps, layout, markdown, reflow};

/// Page `i`'s glyphs, its decoded content being `content`, exactly as
/// `PdfDocument::extract_chars` gives them (the same extractor, fonts and order), without its
/// copy: `extract_chars` keeps each page's glyphs in a cache
/// and hands out a clone, one allocation per glyph for its font name, which nothing here
/// reads twice (2 % of the instructions of reading pdf-dev).
pub(crate) fn glyph_layer(
    doc: &PdfDocument,
    i: usize,
    content: &[u8],
) -> pdf_oxide::Result<Vec<TextChar>> {
    let page = doc.get_page(i)?;
    let Some(dict) = page.as_dict() else {
        // Not a page: the parser's own error.
        return doc.extract_chars(i);
    };
    if !PdfDocument::may_contain_text_public(content) {
        return Ok(Vec::new());
    }
    let mut extractor = TextExtractor::new();
    extractor.set_page_index(i as u32);
    if let Some(resources) = dict.get("Resources") {
        extractor.set_resources(resources.clone());
        extractor.set_document(doc);
        // As `extract_chars`: a font that cannot be loaded reads with the defaults.
        let _ = doc.load_fonts_public(resources, &mut extractor);
    }
    let mut chars = extractor.extract_owned(content)?;
    chars.sort_by(|a, b| {
        float_order(b.bbox.y, a.bbox.y).then_with(|| float_order(a.bbox.x, b.bbox.x))
    });
    Ok(chars)
}

/// `pdf_oxide`'s order of coordinates (`utils::safe_float_cmp`): NaN after every number.
fn float_order(a: f32, b: f32) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// A Markdown page from our layout (see [`markdown`] for why), or `pdf_oxide`'s own Markdown
/// where the text view falls back to its text assembly; empty when the page cannot be read.
pub(crate) fn markdown_page(
    doc: &PdfDocument,
    i: usize,
    content: &[u8],
    options: &pdf_oxide::converters::ConversionOptions,
    cmap_forms: Option<&crate::forms::CmapForms>,
) -> Vec<markdown::Line> {
    match cmaps::page_chars(doc, i, content, cmap_forms) {
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
    // One pass: the glyphs converted while the undecoded ones are counted.
    let (mut inked, mut unknown) = (0usize, 0usize);
    // Glyphs come in runs of one font: its name is looked at once per run.
    let mut last: Option<(&str, bool)> = None;
    let placed = chars
        .iter()
        .map(|c| {
            inked += usize::from(!c.char.is_whitespace());
            unknown += usize::from(c.char == char::REPLACEMENT_CHARACTER);
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
    (unknown * 20 <= inked).then_some(placed)
}

/// A font whose name says it is bold (`Arial-BoldMT`, `Inter-Black`, `Lato-Heavy`,
/// `SourceSansPro-Semibold`): many fonts carry no weight of their own.
fn bold_name(name: &str) -> bool {
    ["Bold", "Black", "Heavy", "Semibold"]
        .iter()
        .any(|w| name.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every glyph of every page of the readable fixtures, as `Debug` prints it (position,
    /// size, font, …): `glyph_layer` and the parser's own `extract_chars` give the same.
    #[test]
    fn the_glyph_layer_is_extract_chars_without_its_copy() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/pdf");
        let (mut pages, mut glyphs) = (0, 0);
        for name in [
            "cid-identity-h.pdf",
            "columns.pdf",
            "hyphenation.pdf",
            "ligatures.pdf",
            "map-labels.pdf",
            "running.pdf",
            "structure.pdf",
            "tables.pdf",
            "zen_of_python_corrupted.pdf",
        ] {
            let data = std::fs::read(format!("{dir}/{name}")).expect(name);
            let doc = PdfDocument::from_bytes(data).expect(name);
            for i in 0..doc.page_count().expect(name) {
                let content = doc.get_page_content_data(i).unwrap_or_default();
                let ours = glyph_layer(&doc, i, &content).expect(name);
                let theirs = doc.extract_chars(i).expect(name);
                assert_eq!(
                    format!("{ours:?}"),
                    format!("{theirs:?}"),
                    "{name} page {i}"
                );
                pages += 1;
                glyphs += ours.len();
            }
        }
        assert!(
            pages >= 9 && glyphs > 1_000,
            "{pages} pages, {glyphs} glyphs"
        );
    }
}
