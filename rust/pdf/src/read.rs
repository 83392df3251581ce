//! One document read on the worker thread: the pre-passes, the parse, the password, then
//! page by page within the document's budgets, and the pages joined into one text with notes
//! on what was not read.

use std::collections::HashMap;

use pdf_oxide::PdfDocument;

use crate::forms::Forms;
use crate::glyphs::{markdown_page, placed};
use crate::page_cost::page_content;
use crate::{
    bombs, cmaps, crypt, filters, info, layout, lengths, markdown, nesting, pages, reflow, repeats,
    short,
};
use crate::{Budget, Interrupted, Limits, Mode, PdfDocumentText, PdfError};

/// Parse, authenticate and read page by page (on the worker thread).
pub(crate) fn read(
    mut data: Vec<u8>,
    mode: Mode,
    password: Option<&str>,
    limits: &Limits,
    budget: &Budget,
) -> Result<PdfDocumentText, PdfError> {
    filters::inline_indirect(&mut data);
    lengths::fix_short_lengths(&mut data);
    // The file as it is first: the encryption dictionary is read through the parser's
    // object reader, which the nesting pass makes safe.
    // Between passes the worker stops if its caller has stopped waiting: each pass over a
    // large file takes a while, and nobody is left to use it.
    let stopped = || {
        budget
            .check()
            .map_err(|_| PdfError::Interrupted(Interrupted::Deadline))
    };
    // The pre-pass's scans of content streams, kept for the pages and forms that name them.
    let mut scans = nesting::Scans::default();
    prepass(&data, limits, None, &mut scans)?;
    stopped()?;
    // Encrypted: the same passes over the streams decrypted as the parser will decrypt them,
    // before the parser reads any of them; what cannot be decrypted is not read at all.
    let crypt = crypt::Decryptor::open(&data, password).map_err(|l| locked(l, password))?;
    if crypt.is_some() {
        stopped()?;
        prepass(&data, limits, crypt.as_ref(), &mut scans)?;
    }
    stopped()?;
    let doc = PdfDocument::from_bytes(data).map_err(|e| PdfError::Malformed(short(&e)))?;
    stopped()?;
    open_encrypted(&doc, password)?;
    match &crypt {
        Some(c) => c.check_parser_agrees(&doc),
        None if doc.is_encrypted() => Err(crypt::unmetered()),
        None => Ok(()),
    }
    .map_err(|l| locked(l, password))?;
    pages::check(&doc, budget).map_err(|bad| match bad {
        pages::BadTree::Interrupted => PdfError::Interrupted(Interrupted::Deadline),
        pages::BadTree::Repeated => {
            PdfError::Malformed("its page tree reaches one node twice (a loop)".into())
        }
        pages::BadTree::TooLarge => PdfError::Malformed(format!(
            "its page tree has more than {} nodes",
            pages::MAX_NODES
        )),
    })?;
    let total = doc
        .page_count()
        .map_err(|e| PdfError::Malformed(short(&e)))?;
    let mut metadata = info::metadata(&doc);
    metadata.pages = total;
    let wanted = total.min(limits.max_pages);
    // Text pages as lines, or Markdown pages as lines with their fonts: one of the two fills.
    let mut pages: Vec<Vec<String>> = Vec::new();
    let mut md_pages: Vec<Vec<markdown::Line>> = Vec::new();
    let mut bytes = 0usize;
    let mut any_text = false;
    let mut skipped: Vec<(usize, &'static str)> = Vec::new();
    // Tables only for Markdown (a page `pdf_oxide` reads for us), where they become `|` rows.
    // In text, pdf_oxide's table pass prints a table's first-column cells twice (once as lines
    // above the table, once in its rows), and rows read as lines already keep their cells in
    // order.
    let options = pdf_oxide::converters::ConversionOptions {
        extract_tables: mode == Mode::Markdown,
        ..Default::default()
    };
    let mut forms = Forms::new(scans);
    // Pages that are an earlier page again (`repeats`): canonical dictionary → that page.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut content_read = 0u64;
    let mut text_drawn = 0u64;
    // Why the pages past the budget were not read.
    let mut over_budget: Option<String> = None;
    for i in 0..wanted {
        budget.check().map_err(|_| {
            // The worker's flag is only raised by a caller that stopped waiting.
            PdfError::Interrupted(Interrupted::Deadline)
        })?;
        // A page the parser cannot find reads as empty, as it always has; every later step
        // would ask for it again, and in a damaged file each asking is a scan of every object
        // (a 228 KB file of 12 pages that says it has more spent 0.9 s, 6.6 s in the fuzzing
        // build, asking).
        if doc.get_page(i).is_err() {
            match mode {
                Mode::Text => pages.push(Vec::new()),
                Mode::Markdown => md_pages.push(Vec::new()),
            }
            continue;
        }
        let key = repeats::page_key(&doc, i);
        if let Some(&earlier) = key.as_ref().and_then(|k| seen.get(k)) {
            // Read as that page was: its lines, or its note.
            if let Some(&(_, why)) = skipped.iter().find(|(page, _)| *page == earlier + 1) {
                skipped.push((i + 1, why));
            }
            match mode {
                Mode::Text => {
                    let lines = pages[earlier].clone();
                    bytes += lines.iter().map(|l| l.len() + 1).sum::<usize>();
                    pages.push(lines);
                }
                Mode::Markdown => {
                    let lines = md_pages[earlier].clone();
                    bytes += lines.iter().map(|l| l.text.len() + 1).sum::<usize>();
                    md_pages.push(lines);
                }
            }
            if bytes > limits.max_output_bytes {
                break;
            }
            continue;
        }
        if let Some(k) = key {
            seen.insert(k, i);
        }
        // A page the parser cannot read is left empty rather than failing the document; so is
        // one whose content the parser could not read safely.
        let content = match page_content(&doc, crypt.as_ref(), i, &mut forms) {
            Err(why) => {
                skipped.push((i + 1, why));
                match mode {
                    Mode::Text => pages.push(Vec::new()),
                    Mode::Markdown => md_pages.push(Vec::new()),
                }
                continue;
            }
            Ok((cost, content)) => {
                // The document's pages together read no more content than the limit (pages
                // that name the same streams pay for them each time), and draw no more than
                // twice the text the output may hold: text drawn past that could not be
                // shown, and the parser's work follows the text it places.
                content_read = content_read.saturating_add(cost.content as u64);
                text_drawn = text_drawn.saturating_add(cost.text);
                if content_read > limits.max_content_bytes as u64 {
                    over_budget = Some(format!(
                        "together they draw from more than the {} of content a document may \
                         hold",
                        size_text(limits.max_content_bytes)
                    ));
                    break;
                }
                if text_drawn > 2 * limits.max_output_bytes as u64 {
                    over_budget = Some(format!(
                        "together they draw more than twice the {} of text the output may hold",
                        size_text(limits.max_output_bytes)
                    ));
                    break;
                }
                content
            }
        };
        match mode {
            Mode::Text => {
                let page = cmaps::page_chars(&doc, i, &content, forms.cmap_forms())
                    .and_then(|chars| match placed(&chars) {
                        Some(glyphs) => Ok(layout::page_text(&glyphs)),
                        None => doc.extract_text_with_options(i, &options),
                    })
                    .unwrap_or_default();
                let page = reflow::normalize_chars(&page);
                any_text |= page.chars().any(char::is_alphanumeric);
                bytes += page.len();
                pages.push(page.lines().map(str::to_owned).collect());
            }
            Mode::Markdown => {
                let page = markdown_page(&doc, i, &content, &options, forms.cmap_forms());
                for line in &page {
                    any_text |= line.text.chars().any(char::is_alphanumeric);
                    bytes += line.text.len() + 1;
                }
                md_pages.push(page);
            }
        }
        if bytes > limits.max_output_bytes {
            break;
        }
    }
    let pages_read = pages.len() + md_pages.len();
    // Running lines go before the Markdown view measures its body size and headings.
    reflow::drop_running_lines(&mut pages);
    reflow::drop_running_lines(&mut md_pages);
    let bodies: Vec<String> = match mode {
        Mode::Text => pages
            .iter()
            .map(|lines| reflow::join_paragraphs(&lines.join("\n")))
            .collect(),
        Mode::Markdown => markdown::render(&md_pages),
    };
    let mut content = String::with_capacity(bytes);
    for (i, body) in bodies.iter().enumerate() {
        if i > 0 && mode == Mode::Markdown {
            // Every page is marked, even an empty one, so the marks count pages truly.
            content.push_str(&format!("\n\n<!-- page {} of {} -->", i + 1, total));
        }
        if !body.is_empty() {
            if !content.is_empty() {
                content.push_str("\n\n");
            }
            content.push_str(body);
        }
    }
    for (page, why) in &skipped {
        content.push_str(&format!("\n\n[Page {page} was not read: {why}.]"));
    }
    if let Some(why) = &over_budget {
        content.push_str(&format!(
            "\n\n[Only the first {pages_read} of {total} pages were read: {why}.]"
        ));
    } else if pages_read < total {
        content.push_str(&format!(
            "\n\n[Only the first {pages_read} of {total} pages were read.]"
        ));
    }
    content.push('\n');
    // Pages left unread are no sign of a scan: the notes above say why they are empty.
    let no_text = !any_text && skipped.is_empty();
    if no_text {
        // Scanned or image-only: say so rather than answer with nothing.
        content = format!(
            "[No text found: the PDF's {total} page(s) have no text layer, so it is probably \
             scanned images. Text would need OCR, which webgrip does not do.]\n"
        );
    }
    Ok(PdfDocumentText {
        content,
        metadata,
        pages_read,
        no_text,
    })
}

/// The bomb and nesting pre-passes over the file, its streams decrypted with `crypt`.
fn prepass(
    data: &[u8],
    limits: &Limits,
    crypt: Option<&crypt::Decryptor>,
    scans: &mut nesting::Scans,
) -> Result<(), PdfError> {
    bombs::check(
        data,
        limits.max_stream_bytes,
        limits.max_inflated_bytes,
        crypt,
    )
    .map_err(|b| {
        PdfError::Malformed(match b {
            bombs::Bomb::Stream(n) => {
                format!("a compressed stream expands past the {} MiB limit", n >> 20)
            }
            bombs::Bomb::Total(n) => {
                format!(
                    "its compressed streams expand past the {} MiB limit",
                    n >> 20
                )
            }
        })
    })?;
    nesting::check_file_keeping(data, limits.max_stream_bytes, crypt, scans).map_err(|refused| {
        PdfError::Malformed(match refused {
            nesting::TooDeep::Depth(n, limit) => {
                format!("its arrays or dictionaries nest {n} deep (the limit is {limit})")
            }
            nesting::TooDeep::Wide(n) => format!(
                "one of its arrays or dictionaries holds {n} items (the limit is {})",
                nesting::MAX_NESTED_TOKENS
            ),
        })
    })
}

/// An encrypted file the pre-passes cannot open, as the caller's error.
fn locked(why: crypt::Locked, password: Option<&str>) -> PdfError {
    match why {
        crypt::Locked::Password => PdfError::PasswordProtected {
            password_given: password.is_some(),
        },
        crypt::Locked::Unsupported(how) => PdfError::Malformed(format!(
            "it is encrypted in a way webgrip cannot check: {how}"
        )),
    }
}

/// Unlock an encrypted document: the empty user password first, then `password`.
fn open_encrypted(doc: &PdfDocument, password: Option<&str>) -> Result<(), PdfError> {
    if !doc.is_encrypted() {
        return Ok(());
    }
    let mut tries: Vec<&[u8]> = vec![b""];
    if let Some(p) = password {
        tries.insert(0, p.as_bytes());
    }
    for p in tries {
        if doc.authenticate(p).unwrap_or(false) && doc.is_authenticated() {
            return Ok(());
        }
    }
    Err(PdfError::PasswordProtected {
        password_given: password.is_some(),
    })
}

/// A byte count as people read it: whole MiB, else whole KiB, else bytes.
fn size_text(n: usize) -> String {
    match n {
        n if n >= 1 << 20 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}
