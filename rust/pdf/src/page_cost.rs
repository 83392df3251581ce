//! What one page costs before the parser reads it: its decoded content scanned for nesting,
//! the text it would draw and the tokens it holds, the forms it paints counted with it, and
//! the caps past which a page is left empty.

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
    let Ok(data) = doc.get_page_content_data(i) else {
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

/// What one page costs the document's budgets in `read`.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct PageCost {
    /// Bytes of its own decoded content (the page scan's and the parser's pass).
    pub(crate) content: usize,
    /// String bytes it draws, the forms it paints counted once per painting.
    pub(crate) text: u64,
}
