//! What one page costs before the parser reads it: its decoded content scanned for nesting,
//! the text it would draw and the tokens it holds, the forms it paints counted with it, and
//! the caps past which a page is left empty.

use std::collections::HashMap;

use pdf_oxide::object::Object;
use pdf_oxide::PdfDocument;

use crate::crypt;
use crate::forms::Forms;

/// A page whose content would draw more text than this many string bytes is left empty (the
/// output says so): the parser keeps about 1 KiB per glyph while it reads a page, so a page of
/// a million one-byte `Tj` strings (18 KiB compressed) took 1.1 GiB. A dense real page draws a
/// few thousand.
pub const MAX_PAGE_TEXT_BYTES: usize = 200_000;

/// A page whose content holds more tokens (operands and operators) than this is left empty:
/// the parser keeps every one while it reads the page (188 KiB inflating to 63 MiB of
/// content took 1.7 GiB, about 55 bytes a token). A detailed map page has a few hundred
/// thousand.
pub const MAX_PAGE_TOKENS: usize = 2_000_000;

/// A page whose broken operations would cost the content parser more than this many token
/// steps of rereading (`Nesting::restart_cost`; about 5 ns a step optimised, some
/// 30 times that in the fuzzing build) is left empty: 160,000 operands with no operator after
/// them kept a worker busy for 41 s, past any deadline. A failed operation of 4,000 tokens,
/// or 3,100 openings hidden in one string, stays under it.
pub const MAX_PAGE_RESTART_COST: u64 = 20_000_000;

/// Whether page `i`'s decoded content (all its streams, joined as the parser joins them) is
/// safe to hand to the parser: nesting within [`crate::nesting::MAX_BOUND`] from any offset (the
/// content parser restarts one byte on after an operand it cannot read), and no more text to
/// draw than [`MAX_PAGE_TEXT_BYTES`], no more tokens than [`MAX_PAGE_TOKENS`], no rereading past
/// [`MAX_PAGE_RESTART_COST`], counting the forms it paints once per painting (`forms`).
/// This covers what the file pre-pass cannot see: filters it does not decode, `/Contents`
/// arrays naming one stream many times, and one form painted many times.
///
/// `Ok` carries what the document's budgets count of the page (see [`PageCost`]) and the
/// content itself (empty when the parser has none for the page), which the glyph layer reads
/// in turn: the parser hands out a copy of it on each asking.
pub(crate) fn page_content(
    doc: &PdfDocument,
    crypt: Option<&crypt::Decryptor>,
    i: usize,
    forms: &mut Forms,
) -> Result<(PageCost, Vec<u8>), &'static str> {
    let data = match (crypt, doc.is_encrypted()) {
        (None, false) => kept_content(doc, i, forms).map(Ok),
        _ => None,
    };
    let Ok(data) = data.unwrap_or_else(|| doc.get_page_content_data(i)) else {
        return Ok((PageCost::default(), Vec::new()));
    };
    // Scanned once per document: the pre-pass's figures when it scanned these very bytes.
    let own = forms.scan(&data);
    if !own.within {
        return Err("its content nests arrays or dictionaries too deep or too wide");
    }
    // The forms it paints count as its own content, once per painting (see `forms`).
    let painted = forms.charge(doc, crypt, i, &data);
    let total = |own: usize, forms: u64| (own as u64).saturating_add(forms);
    if total(own.string_bytes, painted.text_bytes) > MAX_PAGE_TEXT_BYTES as u64 {
        return Err("it draws more text than a page can hold");
    }
    if total(own.tokens, painted.tokens) > MAX_PAGE_TOKENS as u64 {
        return Err("it holds more drawing operations than a page can");
    }
    if own.restart_cost.saturating_add(painted.restart) > MAX_PAGE_RESTART_COST {
        return Err("its content is broken in a way the parser would reread without end");
    }
    let cost = PageCost {
        content: data.len(),
        text: total(own.string_bytes, painted.text_bytes),
    };
    Ok((cost, data))
}

/// Page `i`'s decoded content as the parser joins it (`PdfDocument::get_page_content_data`
/// of an unencrypted document: its `/Contents` stream, or each stream of its array followed
/// by a newline), from the Flate streams the file pre-pass already inflated; `None` when a
/// stream is not one of those, or not Flate alone without parameters, and the parser is
/// asked. Why: the parser inflated every page's content a second time (3 % of the
/// instructions of reading pdf-dev).
fn kept_content(doc: &PdfDocument, i: usize, forms: &Forms) -> Option<Vec<u8>> {
    let page = doc.get_page(i).ok()?;
    let contents = page.as_dict()?.get("Contents")?;
    let kept = |o: &Object| match o {
        Object::Stream { dict, data } if flate_alone(dict) => forms.flate(data),
        _ => None,
    };
    let join = |items: &[Object]| {
        let mut joined = Vec::new();
        for item in items {
            if matches!(item, Object::Null) {
                continue;
            }
            let stream = doc.load_object(item.as_reference()?).ok()?;
            joined.extend_from_slice(kept(&stream)?);
            joined.push(b'\n');
        }
        Some(joined)
    };
    match contents {
        Object::Reference(r) => match doc.load_object(*r).ok()? {
            Object::Array(items) => join(&items),
            stream => kept(&stream).map(<[u8]>::to_vec),
        },
        Object::Array(items) => join(items),
        _ => None,
    }
}

/// Whether a stream's only filter is Flate, without `/DecodeParms` (no predictor).
fn flate_alone(dict: &HashMap<String, Object>) -> bool {
    let flate = |o: &Object| matches!(o.as_name(), Some("FlateDecode" | "Fl"));
    let filter = match dict.get("Filter") {
        Some(Object::Array(names)) if names.len() == 1 => flate(&names[0]),
        Some(name) => flate(name),
        None => false,
    };
    filter && !dict.contains_key("DecodeParms")
}

/// What one page costs the document's budgets in `read`.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct PageCost {
    /// Bytes of its own decoded content (the page scan's and the parser's pass).
    pub(crate) content: usize,
    /// String bytes it draws, the forms it paints counted once per painting.
    pub(crate) text: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nesting::{check_file_keeping, Scans};

    /// Every page of the fixtures whose content the pre-pass inflated reads the parser's own
    /// bytes from it (one stream, an array, one stream named many times, corrupt streams and
    /// forms among them), and most pages do.
    #[test]
    fn kept_content_is_the_parsers_content() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/pdf");
        let (mut pages, mut kept) = (0, 0);
        for name in [
            "cid-identity-h.pdf",
            "columns.pdf",
            "hostile-form-repeat.pdf",
            "hostile-gutters.pdf",
            "hostile-shared-content-varied.pdf",
            "hostile-shared-content.pdf",
            "hyphenation.pdf",
            "ligatures.pdf",
            "map-labels.pdf",
            "running.pdf",
            "structure.pdf",
            "tables.pdf",
            "zen_of_python_corrupted.pdf",
        ] {
            let data = std::fs::read(format!("{dir}/{name}")).expect(name);
            let mut scans = Scans::default();
            check_file_keeping(&data, 64 << 20, None, &mut scans).expect(name);
            let forms = Forms::new(scans);
            let doc = PdfDocument::from_bytes(data).expect(name);
            for i in 0..doc.page_count().expect(name) {
                pages += 1;
                if let Some(ours) = kept_content(&doc, i, &forms) {
                    let theirs = doc.get_page_content_data(i).expect(name);
                    assert!(ours == theirs, "{name} page {i}");
                    kept += 1;
                }
            }
        }
        assert!(kept * 4 >= pages * 3, "{kept} of {pages} pages");
    }
}
