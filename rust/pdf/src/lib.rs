//! PDF to text and Markdown for webgrip, on the `pdf_oxide` parser, with every limit enforced
//! here: input size, page count, output size, the call's deadline and cancel flag (the HTML
//! extractor's [`Budget`]), and no panic ever leaving [`extract`].
//!
//! Why a worker thread: the parser has no deadline hook inside a page, so a page that takes
//! too long cannot be stopped from outside. The parse runs on its own thread; [`extract`]
//! waits for it only until the deadline (or the cancel flag), then returns
//! [`PdfError::Interrupted`] and tells the worker to stop at its next page. What that last
//! page can cost is bounded before the parser runs: the Flate-bomb pre-pass (`bombs`), the
//! nesting pre-pass (`nesting`: the parser recurses once per level, and a stack overflow
//! kills the process), the page-tree walk (`pages`: the parser's own walk has no visited
//! set), and a per-page scan of the decoded content for nesting and the text it would draw
//! (`page_content`), the Form XObjects it paints included (`forms`). An encrypted file's
//! streams go through the same passes decrypted (`crypt`), or the file is not read.

// Private modules: the API is this file's items (`extract`, `Mode`, `Limits`, the errors).
mod bombs;
mod cmaps;
mod crypt;
mod filters;
mod forms;
mod info;
mod layout;
mod lengths;
mod markdown;
mod nesting;
mod pages;
mod reflow;
mod repeats;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use forms::Forms;
use pdf_oxide::object::Object;
use pdf_oxide::PdfDocument;

pub use webgrip_budget::{Budget, Interrupted};

/// The views of a PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Plain text: paragraphs separated by blank lines, pages by a blank line.
    Text,
    /// Markdown: the text's lines with headings from font size and weight, lists, `|`
    /// tables (`markdown.rs`), and a `<!-- page N of M -->` line before every page after the
    /// first.
    Markdown,
}

/// What one call may consume. Enforced inside [`extract`], whoever calls it.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Larger inputs are refused before parsing.
    pub max_input_bytes: usize,
    /// Pages after this many are not read (the output says so).
    pub max_pages: usize,
    /// Text past this many bytes is cut at a page boundary (the output says so).
    pub max_output_bytes: usize,
    /// A Flate stream (other than an image) inflating past this is a bomb: refused.
    pub max_stream_bytes: usize,
    /// All Flate streams (but images) together may inflate to this much.
    pub max_inflated_bytes: usize,
    /// The pages read together may read this much decoded content, each page paying for
    /// the streams it names (pages after are not read; the output says so). Many pages can
    /// name one stream: 50 pages naming one 4 MB stream of paths (a 17 KB file) took 9 s.
    pub max_content_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 * 1024 * 1024,
            max_pages: 2_000,
            max_output_bytes: 64 * 1024 * 1024,
            max_stream_bytes: 64 * 1024 * 1024,
            max_inflated_bytes: 512 * 1024 * 1024,
            // A dense page of text is 10 to 50 KB of content, a detailed map a few MB.
            max_content_bytes: 64 * 1024 * 1024,
        }
    }
}

/// Metadata from the document's `/Info` dictionary and page tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdfMetadata {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    pub creator: Option<String>,
    pub producer: Option<String>,
    /// ISO 8601.
    pub created: Option<String>,
    /// ISO 8601.
    pub modified: Option<String>,
    pub pages: usize,
}

/// The result of [`extract`].
#[derive(Debug, Clone, Default)]
pub struct PdfDocumentText {
    pub content: String,
    pub metadata: PdfMetadata,
    /// Pages read (fewer than `metadata.pages` when [`Limits::max_pages`] or
    /// [`Limits::max_output_bytes`] stopped the reading).
    pub pages_read: usize,
    /// No page had a text layer: a scanned or image-only document.
    pub no_text: bool,
}

/// Why a PDF could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PdfError {
    /// The input is larger than [`Limits::max_input_bytes`].
    TooLarge { limit: usize },
    /// Encrypted, and neither the empty password nor the given one opens it.
    PasswordProtected { password_given: bool },
    /// Not a PDF, or too damaged to read (the message says how).
    Malformed(String),
    /// The deadline passed or the cancel flag was raised.
    Interrupted(Interrupted),
}

impl std::fmt::Display for PdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PdfError::TooLarge { limit } => {
                write!(f, "the PDF is larger than the {limit}-byte limit")
            }
            PdfError::PasswordProtected {
                password_given: false,
            } => f.write_str("the PDF is password-protected"),
            PdfError::PasswordProtected {
                password_given: true,
            } => f.write_str("the PDF is password-protected and the password given is wrong"),
            PdfError::Malformed(why) => write!(f, "the PDF cannot be read: {why}"),
            PdfError::Interrupted(Interrupted::Deadline) => {
                f.write_str("reading the PDF took longer than the deadline")
            }
            PdfError::Interrupted(Interrupted::Cancelled) => {
                f.write_str("reading the PDF was cancelled")
            }
        }
    }
}

impl std::error::Error for PdfError {}

/// The worker's stack. The parser recurses once per nesting level of an array or a
/// dictionary (about 0.5–1 KiB a level); the pre-passes bound a parse's depth at
/// `nesting::MAX_BOUND`, and this holds many times that. Only the pages a parse touches are
/// ever committed: the rest is address space.
pub const WORKER_STACK: usize = 256 * 1024 * 1024;

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

/// Read `data` as a PDF into `mode`'s view, within `limits` and `budget`.
pub fn extract(
    data: &[u8],
    mode: Mode,
    password: Option<&str>,
    limits: &Limits,
    budget: &Budget,
) -> Result<PdfDocumentText, PdfError> {
    if data.len() > limits.max_input_bytes {
        return Err(PdfError::TooLarge {
            limit: limits.max_input_bytes,
        });
    }
    budget.check().map_err(PdfError::Interrupted)?;
    let stop = Arc::new(AtomicBool::new(false));
    let worker_budget = Budget {
        deadline: budget.deadline,
        cancel: Some(stop.clone()),
    };
    let (tx, rx) = mpsc::sync_channel(1);
    let owned = data.to_vec();
    let password = password.map(str::to_owned);
    let limits = *limits;
    let spawned = std::thread::Builder::new()
        .name("webgrip-pdf".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let out = catch_unwind(AssertUnwindSafe(|| {
                read(owned, mode, password.as_deref(), &limits, &worker_budget)
            }))
            .unwrap_or_else(|_| Err(PdfError::Malformed("the parser failed".into())));
            // The caller may have stopped waiting: nobody to tell then.
            let _ = tx.send(out);
        });
    if spawned.is_err() {
        return Err(PdfError::Malformed("no thread to read it on".into()));
    }
    loop {
        // Poll the caller's cancel flag between waits; the deadline bounds the whole wait.
        let wait = match budget.deadline {
            Some(d) => d
                .saturating_duration_since(std::time::Instant::now())
                .min(Duration::from_millis(20)),
            None => Duration::from_millis(20),
        };
        match rx.recv_timeout(wait) {
            Ok(out) => return out,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PdfError::Malformed("the parser failed".into()))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(why) = budget.check() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(PdfError::Interrupted(why));
                }
            }
        }
    }
}

/// Parse, authenticate and read page by page (on the worker thread).
fn read(
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
    let mut metadata = metadata(&doc);
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
        match page_content(&doc, crypt.as_ref(), i, &mut forms) {
            Err(why) => {
                skipped.push((i + 1, why));
                match mode {
                    Mode::Text => pages.push(Vec::new()),
                    Mode::Markdown => md_pages.push(Vec::new()),
                }
                continue;
            }
            Ok(cost) => {
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
            }
        }
        match mode {
            Mode::Text => {
                let page = cmaps::page_chars(&doc, i)
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
                let page = markdown_page(&doc, i, &options);
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

/// Whether page `i`'s decoded content (all its streams, joined as the parser joins them) is
/// safe to hand to the parser: nesting within [`nesting::MAX_BOUND`] from any offset (the
/// content parser restarts one byte on after an operand it cannot read), and no more text to
/// draw than [`MAX_PAGE_TEXT_BYTES`], no more tokens than [`MAX_PAGE_TOKENS`], no rereading past
/// [`MAX_PAGE_RESTART_COST`], counting the forms it paints once per painting (`forms`).
/// This covers what the file pre-pass cannot see: filters it does not decode, `/Contents`
/// arrays naming one stream many times, and one form painted many times.
///
/// `Ok` carries what the document's budgets count of the page (see [`PageCost`]).
fn page_content(
    doc: &PdfDocument,
    crypt: Option<&crypt::Decryptor>,
    i: usize,
    forms: &mut Forms,
) -> Result<PageCost, &'static str> {
    let Ok(data) = doc.get_page_content_data(i) else {
        return Ok(PageCost::default());
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
    Ok(PageCost {
        content: data.len(),
        text: total(own.string_bytes, painted.text_bytes),
    })
}

/// What one page costs the document's budgets in `read`.
#[derive(Debug, Default, Clone, Copy)]
struct PageCost {
    /// Bytes of its own decoded content (the page scan's and the parser's pass).
    content: usize,
    /// String bytes it draws, the forms it paints counted once per painting.
    text: u64,
}

/// A Markdown page from our layout (see [`markdown`] for why), or `pdf_oxide`'s own Markdown
/// where the text view falls back to its text assembly; empty when the page cannot be read.
fn markdown_page(
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
fn placed(chars: &[pdf_oxide::layout::TextChar]) -> Option<Vec<layout::Placed>> {
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

fn metadata(doc: &PdfDocument) -> PdfMetadata {
    let info = doc
        .trailer()
        .as_dict()
        .and_then(|t| t.get("Info"))
        .map(|o| resolve(doc, o));
    let Some(Object::Dictionary(dict)) = info else {
        return PdfMetadata::default();
    };
    let field = |key: &str| -> Option<String> {
        let value = resolve(doc, dict.get(key)?);
        let text = info::decode_text_string(value.as_string()?);
        (!text.is_empty()).then_some(text)
    };
    PdfMetadata {
        title: field("Title"),
        author: field("Author"),
        subject: field("Subject"),
        keywords: field("Keywords"),
        creator: field("Creator"),
        producer: field("Producer"),
        created: field("CreationDate").and_then(|d| info::iso_date(&d)),
        modified: field("ModDate").and_then(|d| info::iso_date(&d)),
        pages: 0,
    }
}

/// One level of indirection resolved (the `/Info` values are direct or one reference away).
fn resolve(doc: &PdfDocument, obj: &Object) -> Object {
    match obj.as_reference() {
        Some(r) => doc.load_object(r).unwrap_or(Object::Null),
        None => obj.clone(),
    }
}

/// A byte count as people read it: whole MiB, else whole KiB, else bytes.
fn size_text(n: usize) -> String {
    match n {
        n if n >= 1 << 20 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// A parser error as one short line.
pub(crate) fn short(e: &impl std::fmt::Display) -> String {
    let s = e.to_string();
    let line = s.lines().next().unwrap_or("").trim();
    line.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A one-page PDF drawing `text` in Helvetica, with a valid xref table and an `/Info`.
    fn tiny_pdf(text: &str) -> Vec<u8> {
        let content = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
        let stream = format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        );
        assemble(&[stream.into_bytes()])
    }

    /// Catalog, pages, one Helvetica page whose contents are object 4, `/Info` (object 5),
    /// then `extra` from object 4 on; a valid xref table.
    fn assemble(extra: &[Vec<u8>]) -> Vec<u8> {
        let mut objs: Vec<Vec<u8>> = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
             /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
             >> >> >> >>",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        objs.push(extra[0].clone());
        objs.push(
            b"<< /Title (Tiny) /Author <FEFF00C900760065> /CreationDate (D:20240131120502Z) >>"
                .to_vec(),
        );
        objs.extend(extra[1..].iter().cloned());
        pdf_of(&objs, "/Info 5 0 R")
    }

    /// A page whose Flate-compressed contents name their filter through object 6.
    fn indirect_filter_pdf(content: &[u8]) -> Vec<u8> {
        use flate2::{write::ZlibEncoder, Compression};
        use std::io::Write;
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        let _ = e.write_all(content);
        let packed = e.finish().unwrap_or_default();
        let mut stream =
            format!("<< /Filter 6 0 R /Length {} >>\nstream\n", packed.len()).into_bytes();
        stream.extend_from_slice(&packed);
        stream.extend_from_slice(b"\nendstream");
        assemble(&[stream, b"[/FlateDecode]".to_vec()])
    }

    #[test]
    fn a_filter_given_by_reference_is_decoded() {
        let pdf = indirect_filter_pdf(b"BT /F1 12 Tf 72 720 Td (Behind a reference) Tj ET");
        let doc = read_text(&pdf).expect("reads");
        assert!(
            doc.content.contains("Behind a reference"),
            "{:?}",
            doc.content
        );
        assert!(!doc.no_text);
    }

    #[test]
    fn a_bomb_behind_a_filter_reference_is_refused() {
        let limits = Limits {
            max_stream_bytes: 1 << 20,
            ..Limits::default()
        };
        let pdf = indirect_filter_pdf(&vec![b' '; 4 << 20]);
        let got = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited());
        assert!(
            matches!(&got, Err(PdfError::Malformed(m)) if m.contains("expands past")),
            "{got:?}"
        );
    }

    #[test]
    fn a_content_stream_with_a_short_length_is_read_to_its_end() {
        let content = "BT /F1 12 Tf 72 720 Td (First line) Tj 0 -20 Td (Second line) Tj ET";
        let stream = format!("<< /Length 30  >>\nstream\n{content}\nendstream");
        let pdf = assemble(&[stream.into_bytes()]);
        let doc = read_text(&pdf).expect("reads");
        assert!(doc.content.contains("Second line"), "{:?}", doc.content);
    }

    fn read_text(data: &[u8]) -> Result<PdfDocumentText, PdfError> {
        extract(
            data,
            Mode::Text,
            None,
            &Limits::default(),
            &Budget::unlimited(),
        )
    }

    #[test]
    fn text_and_metadata() {
        let doc = read_text(&tiny_pdf("Hello PDF world")).expect("reads");
        assert!(doc.content.contains("Hello PDF world"), "{:?}", doc.content);
        assert_eq!(doc.metadata.title.as_deref(), Some("Tiny"));
        assert_eq!(doc.metadata.author.as_deref(), Some("\u{c9}ve"));
        assert_eq!(
            doc.metadata.created.as_deref(),
            Some("2024-01-31T12:05:02Z")
        );
        assert_eq!((doc.metadata.pages, doc.pages_read), (1, 1));
        assert!(!doc.no_text);
    }

    #[test]
    fn size_limit_is_checked_first() {
        let limits = Limits {
            max_input_bytes: 10,
            ..Limits::default()
        };
        let err = extract(
            &tiny_pdf("x"),
            Mode::Text,
            None,
            &limits,
            &Budget::unlimited(),
        );
        assert_eq!(err.err(), Some(PdfError::TooLarge { limit: 10 }));
    }

    #[test]
    fn garbage_is_malformed_not_a_panic() {
        for data in [
            &b""[..],
            b"%PDF-1.7",
            b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>",
            b"not a pdf at all",
        ] {
            match read_text(data) {
                Ok(doc) => assert!(doc.content.len() < 1000),
                Err(PdfError::Malformed(why)) => assert!(!why.is_empty()),
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        let full = tiny_pdf("Truncated somewhere");
        for cut in (0..full.len()).step_by(37) {
            let _ = read_text(&full[..cut]);
        }
    }

    #[test]
    fn an_expired_deadline_interrupts() {
        let budget = Budget {
            deadline: Some(Instant::now()),
            cancel: None,
        };
        let err = extract(
            &tiny_pdf("x"),
            Mode::Text,
            None,
            &Limits::default(),
            &budget,
        );
        assert_eq!(
            err.err(),
            Some(PdfError::Interrupted(Interrupted::Deadline))
        );
    }

    #[test]
    fn markdown_headings_come_from_the_glyphs_font_size() {
        let content = "BT /F1 24 Tf 72 720 Td (Quarterly Results) Tj ET \
                       BT /F1 11 Tf 72 680 Td (The body paragraph is set in eleven point type, \
                       the size most characters have.) Tj 0 -14 Td (It wraps onto a second \
                       line of the same size.) Tj ET";
        let stream = format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        );
        let pdf = assemble(&[stream.into_bytes()]);
        let md = extract(
            &pdf,
            Mode::Markdown,
            None,
            &Limits::default(),
            &Budget::unlimited(),
        )
        .expect("reads")
        .content;
        assert_eq!(
            md,
            "# Quarterly Results\n\nThe body paragraph is set in eleven point type, the size \
             most characters have. It wraps onto a second line of the same size.\n"
        );
        let text = read_text(&pdf).expect("reads").content;
        assert!(text.starts_with("Quarterly Results\n\nThe body"), "{text}");
    }

    /// A PDF of `objects` (object 1 first) with a valid xref table and `trailer` entries.
    fn pdf_of(objects: &[Vec<u8>], trailer: &str) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
        );
        for off in offsets {
            out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R {trailer} >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

    fn stream(content: &[u8]) -> Vec<u8> {
        let mut s = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
        s.extend_from_slice(content);
        s.extend_from_slice(b"\nendstream");
        s
    }

    fn zlib(content: &[u8]) -> Vec<u8> {
        use flate2::{write::ZlibEncoder, Compression};
        use std::io::Write;
        let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
        let _ = e.write_all(content);
        e.finish().unwrap_or_default()
    }

    /// One page whose content is `content` (object 4) and whose page dictionary ends with
    /// `page_extra`.
    fn one_page(content: Vec<u8>, page_extra: &str) -> Vec<u8> {
        pdf_of(
            &[
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
                     /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont \
                     /Helvetica >> >> >> {page_extra} >>"
                )
                .into_bytes(),
                content,
            ],
            "",
        )
    }

    /// A page showing each `(cmap, ordering, bytes)` in a CID font with no `/ToUnicode` whose
    /// `/Encoding` is that predefined CMap (not embedded, as Adobe's Asian font packs are).
    fn cid_page(lines: &[(&str, &str, Vec<u8>)]) -> Vec<u8> {
        let mut fonts = String::new();
        let mut content = b"BT /F1 12 Tf 72 740 Td (Latin line) Tj ET\n".to_vec();
        let mut objs: Vec<Vec<u8>> = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            Vec::new(),
            Vec::new(),
        ];
        for (i, (cmap, ordering, bytes)) in lines.iter().enumerate() {
            let n = objs.len() + 1;
            fonts.push_str(&format!(" /C{i} {n} 0 R"));
            objs.push(
                format!(
                    "<< /Type /Font /Subtype /Type0 /BaseFont /CJK{i} /Encoding /{cmap} \
                     /DescendantFonts [{} 0 R] >>",
                    n + 1
                )
                .into_bytes(),
            );
            objs.push(
                format!(
                    "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /CJK{i} /CIDSystemInfo \
                     << /Registry (Adobe) /Ordering ({ordering}) /Supplement 2 >> /DW 1000 >>"
                )
                .into_bytes(),
            );
            let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
            content.extend_from_slice(
                format!("BT /C{i} 12 Tf 72 {} Td <{hex}> Tj ET\n", 700 - 40 * i).as_bytes(),
            );
        }
        objs[2] = format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
             /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\
             {fonts} >> >> >>"
        )
        .into_bytes();
        objs[3] = stream(&content);
        pdf_of(&objs, "")
    }

    #[test]
    fn legacy_predefined_cmaps_read_as_the_text_drawn() {
        let bytes = |enc: &'static encoding_rs::Encoding, s: &str| enc.encode(s).0.into_owned();
        let cases = [
            (
                "EUC-H",
                "Japan1",
                bytes(encoding_rs::EUC_JP, "Tokyo 東京都 ひらがな"),
            ),
            (
                "90ms-RKSJ-H",
                "Japan1",
                bytes(encoding_rs::SHIFT_JIS, "Osaka 大阪 カタカナ"),
            ),
            ("B5pc-H", "CNS1", bytes(encoding_rs::BIG5, "Taipei 臺北市")),
            (
                "GBK-EUC-H",
                "GB1",
                bytes(encoding_rs::GBK, "Beijing 北京市"),
            ),
            (
                "KSCms-UHC-H",
                "Korea1",
                bytes(encoding_rs::EUC_KR, "Seoul 서울"),
            ),
            // One byte per code: an odd count of bytes read in pairs would lose the last.
            (
                "Hankaku",
                "Japan1",
                bytes(encoding_rs::SHIFT_JIS, "Kobe ｺｳﾍﾞ"),
            ),
        ];
        let pdf = cid_page(&cases);
        let text = read_text(&pdf).map(|d| d.content).unwrap_or_default();
        for want in [
            "Latin line",
            "東京都 ひらがな",
            "大阪 カタカナ",
            "臺北市",
            "北京市",
            "서울",
            "Kobe ｺｳﾍﾞ",
        ] {
            assert!(text.contains(want), "{want:?} not in {text:?}");
        }
        // Surrogate pairs under a UTF-16 CMap: one character, not two codes.
        let utf16: Vec<u8> = "𠮷野家"
            .encode_utf16()
            .flat_map(|u| u.to_be_bytes())
            .collect();
        let text = read_text(&cid_page(&[("UniJIS-UTF16-H", "Japan1", utf16)]))
            .map(|d| d.content)
            .unwrap_or_default();
        assert!(text.contains("𠮷野家"), "{text:?}");
    }

    #[test]
    fn identity_cid_fonts_read_through_their_ordering() {
        // CIDs under `Identity-H` with no `/ToUnicode`: the character collection's own
        // CID → Unicode table (pdf_oxide's); the expected text is pdftotext's for these pages.
        let cases = [
            ("Japan1", [0x03, 0x4A, 0x03, 0x4B], "ぁあ"),
            ("GB1", [0x0F, 0x00, 0x0F, 0x01], "务悟"),
            ("CNS1", [0x0F, 0x00, 0x0F, 0x01], "裝裡"),
            ("Korea1", [0x0F, 0x00, 0x0F, 0x01], "光匡"),
        ];
        for (ordering, cids, want) in cases {
            let pdf = cid_page(&[("Identity-H", ordering, cids.to_vec())]);
            let text = read_text(&pdf).map(|d| d.content).unwrap_or_default();
            assert!(text.contains(want), "{ordering}: {want:?} not in {text:?}");
        }
    }

    fn refused(pdf: &[u8]) -> String {
        match read_text(pdf) {
            Err(PdfError::Malformed(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn deep_nesting_anywhere_is_refused_not_a_crash() {
        let deep = "[".repeat(30_000);
        // A content-stream operand, plain and compressed.
        let plain = one_page(stream(format!("BT {deep} ET").as_bytes()), "");
        assert!(refused(&plain).contains("nest"), "{}", refused(&plain));
        let body = zlib(format!("BT /F1 12 Tf {deep} ET").as_bytes());
        let mut packed = format!(
            "<< /Filter /FlateDecode /Length {} >>\nstream\n",
            body.len()
        )
        .into_bytes();
        packed.extend_from_slice(&body);
        packed.extend_from_slice(b"\nendstream");
        assert!(refused(&one_page(packed, "")).contains("nest"));
        // The page dictionary, the catalog's neighbour, the trailer.
        let dicts = "<< /A ".repeat(20_000);
        assert!(refused(&one_page(stream(b"BT ET"), &format!("/X {dicts}"))).contains("nest"));
        let trailer = pdf_of(
            &[b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()],
            &format!("/X {deep}"),
        );
        assert!(refused(&trailer).contains("nest"));
        // Hidden in an unclosed string: the content parser reads past its failure.
        let hidden = one_page(stream(format!("BT ({deep} ET").as_bytes()), "");
        assert!(refused(&hidden).contains("nest"));
    }

    #[test]
    fn the_worker_stack_holds_the_deepest_nesting_let_through() {
        // Behind an unclosed string the content parser fails on and then reads one byte on,
        // as many openings as the reread budget lets through: the parser recurses this deep
        // (the old 2 MiB stack died near 3,000 levels) and must return with the page read.
        // The budget pays w/2·d² for the openings and 1,024·d for the failed operation's
        // bytes (each restart reads them again): the largest d it covers.
        let (budget, w) = (
            MAX_PAGE_RESTART_COST as f64,
            nesting::HIDDEN_STEP_WEIGHT as f64,
        );
        let depth = ((1024f64.powi(2) + 2.0 * w * budget).sqrt() - 1024.0) / w;
        let depth = depth as usize - 10;
        let content = format!(
            "BT /F1 12 Tf 72 720 Td (Still read) Tj ({} ET",
            "[".repeat(depth)
        );
        let got = read_text(&one_page(stream(content.as_bytes()), "")).expect("reads");
        assert!(got.content.contains("Still read"), "{}", got.content);
    }

    #[test]
    fn a_parse_as_deep_as_the_prepasses_let_through_fits_the_worker_stack() {
        // The parser's object reader recurses once per level: nesting at the bound the
        // pre-passes allow from any offset must parse on the worker's stack, in whatever
        // stream (encrypted or not) it was found. (10,000 levels crashed a 4 MiB stack and
        // parsed on 8 MiB in the fastbuild profile: the 256 MiB stack holds 32 times that.)
        let depth = nesting::MAX_BOUND;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let parsed = std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn(move || pdf_oxide::parser::parse_object(deep.as_bytes()).is_ok())
            .expect("a thread")
            .join();
        assert_eq!(parsed.ok(), Some(true));
    }

    fn fixture(name: &str) -> Vec<u8> {
        let path = format!(
            "{}/../../tests/fixtures/pdf/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn encrypted_documents_are_metered_like_plain_ones() {
        // Nesting in an RC4-40 form and in an RC4-40 object stream (these killed the process).
        for name in [
            "hostile-encrypted-nested-form.pdf",
            "hostile-encrypted-nested-objstm.pdf",
            "hostile-encrypted-nested-100k.pdf",
        ] {
            let why = refused(&fixture(name));
            assert!(
                why.contains("nest") && why.contains("the limit is 1000)"),
                "{name}: {why}"
            );
        }
        // The object stream's header renumbered: the parser decrypts it under the number its
        // cross-reference table files it as (and only warns about the header).
        let mut renumbered = fixture("hostile-encrypted-nested-objstm.pdf");
        let at = renumbered
            .windows(7)
            .position(|w| w == b"5 0 obj")
            .expect("the object stream");
        renumbered[at] = b'9';
        let why = refused(&renumbered);
        assert!(why.contains("nest 1000000 deep"), "{why}");
        let why = refused(&fixture("hostile-encrypted-bomb.pdf"));
        assert!(why.contains("expands past the 64 MiB limit"), "{why}");
        // A form painted 599 times is charged to its page.
        let doc = read_text(&fixture("hostile-encrypted-form-repeat.pdf")).expect("reads");
        assert!(
            doc.content
                .contains("[Page 1 was not read: it draws more text"),
            "{}",
            &doc.content[..200.min(doc.content.len())]
        );
    }

    #[test]
    fn benign_encrypted_documents_still_read() {
        for name in [
            "encrypted-rc4-128.pdf",
            "encrypted-aes-128.pdf",
            "encrypted-aes-256.pdf",
            "encrypted-empty-password.pdf",
        ] {
            let doc = read_text(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                !doc.no_text && doc.content.len() > 20,
                "{name}: {}",
                doc.content
            );
        }
        let doc = read_text(&fixture("encrypted-aes-256.pdf")).expect("reads");
        assert!(
            doc.content.contains("An encrypted document that reads"),
            "{}",
            doc.content
        );
        let doc = read_text(&fixture("encrypted-objstm-rc4-40.pdf")).expect("reads");
        assert!(doc.content.contains("Page text"), "{}", doc.content);
        let with = |p| {
            extract(
                &fixture("rc4-40-user-baz.pdf"),
                Mode::Text,
                p,
                &Limits::default(),
                &Budget::unlimited(),
            )
        };
        assert_eq!(
            with(None).err(),
            Some(PdfError::PasswordProtected {
                password_given: false
            })
        );
        assert!(with(Some("baz")).is_ok());
    }

    #[test]
    fn the_nesting_refusal_quotes_the_limit_that_applied() {
        let between_tokens = one_page(
            stream(format!("BT {} ET", "[".repeat(3_000)).as_bytes()),
            "",
        );
        let why = refused(&between_tokens);
        assert!(why.contains("nest 3000 deep (the limit is 1000)"), "{why}");
        let hidden = one_page(
            stream(format!("BT ({} ET", "[".repeat(12_000)).as_bytes()),
            "",
        );
        let why = refused(&hidden);
        assert!(why.contains("deep (the limit is 10000)"), "{why}");
    }

    #[test]
    fn a_page_tree_that_loops_is_refused_quickly() {
        let looped = pdf_of(
            &[
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [2 0 R 2 0 R 3 0 R] /Count 3 >>".to_vec(),
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>".to_vec(),
            ],
            "",
        );
        let start = Instant::now();
        assert!(
            refused(&looped).contains("page tree"),
            "{}",
            refused(&looped)
        );
        assert!(start.elapsed().as_secs() < 30);
        let shared = pdf_of(
            &[
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [4 0 R 4 0 R] /Count 4 >>".to_vec(),
                b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 10 10] >>".to_vec(),
                b"<< /Type /Pages /Parent 2 0 R /Kids [3 0 R 3 0 R] /Count 2 >>".to_vec(),
            ],
            "",
        );
        assert!(refused(&shared).contains("page tree"));
    }

    #[test]
    fn a_page_the_content_parser_would_reread_without_end_is_left_empty() {
        for tail in [" ", ") m ET", "] m ET", "{ m ET"] {
            let content = format!(
                "BT /F1 12 Tf 72 720 Td (Kept page) Tj {}{tail}",
                "1 ".repeat(200_000)
            );
            let start = Instant::now();
            let doc = read_text(&one_page(stream(content.as_bytes()), "")).expect("reads");
            assert!(
                doc.content.contains("reread without end"),
                "{tail}: {}",
                doc.content
            );
            assert!(start.elapsed().as_secs() < 20, "{tail}");
        }
        // Long operations that end in their operator are read as usual.
        let fine = format!(
            "BT /F1 12 Tf 72 720 Td (Kept page) Tj [{}] TJ ET",
            "(a) -20 ".repeat(5_000)
        );
        let doc = read_text(&one_page(stream(fine.as_bytes()), "")).expect("reads");
        assert!(doc.content.contains("Kept page"), "{}", &doc.content[..100]);
    }

    /// One page painting Form XObject `/X` with `page`; the form draws `form` in Helvetica.
    fn with_form(page: &[u8], form: &[u8]) -> Vec<u8> {
        let font = "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>";
        let mut form_object = format!(
            "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << {font} >> \
             /Length {} >>\nstream\n",
            form.len()
        )
        .into_bytes();
        form_object.extend_from_slice(form);
        form_object.extend_from_slice(b"\nendstream");
        pdf_of(
            &[
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
                     /Resources << {font} /XObject << /X 5 0 R >> >> >>"
                )
                .into_bytes(),
                stream(page),
                form_object,
            ],
            "",
        )
    }

    #[test]
    fn text_in_a_form_is_read_and_charged_to_its_page_once_per_painting() {
        let form = b"BT /F1 12 Tf 72 720 Td (Inside the form) Tj ET";
        let page = b"q 1 0 0 1 0 0 cm /X Do Q q 1 0 0 1 0 -100 cm /X Do Q";
        let pdf = with_form(page, form);
        let doc = read_text(&pdf).expect("reads");
        assert!(doc.content.contains("Inside the form"), "{}", doc.content);
        let parsed = PdfDocument::from_bytes(pdf).expect("parses");
        let content = parsed.get_page_content_data(0).expect("content");
        let mut own = nesting::Nesting::new();
        nesting::push_content(&mut own, form);
        own.finish();
        let charged = Forms::default().charge(&parsed, None, 0, &content);
        assert_eq!(charged.tokens, 2 * own.tokens() as u64);
        assert_eq!(charged.text_bytes, 2 * own.string_bytes() as u64);
    }

    /// The page's own content is 20 paintings; the form they paint draws 20,000 strings, and
    /// the parser reads it once per matrix (600 paintings of it ran the fuzzing build out of
    /// memory before forms were charged to their page).
    #[test]
    fn a_form_painted_under_many_matrices_is_charged_to_its_page() {
        let paint: String = (1..=20)
            .map(|i| format!("q 1 0 0 1 {i} 0 cm /X Do Q "))
            .collect();
        let form = format!("BT /F1 1 Tf {}ET", "(x) Tj ".repeat(20_000));
        let doc = read_text(&with_form(paint.as_bytes(), form.as_bytes())).expect("reads");
        assert!(
            doc.content
                .contains("[Page 1 was not read: it draws more text"),
            "{}",
            &doc.content[..200.min(doc.content.len())]
        );
    }

    #[test]
    fn a_flood_of_text_in_a_form_is_refused_as_on_the_page() {
        let form = format!(
            "BT /F1 1 Tf {}ET",
            "(x) Tj ".repeat(MAX_PAGE_TEXT_BYTES + 1)
        );
        let doc = read_text(&with_form(b"/X Do", form.as_bytes())).expect("reads");
        assert!(
            doc.content
                .contains("[Page 1 was not read: it draws more text"),
            "{}",
            &doc.content[..200.min(doc.content.len())]
        );
    }

    #[test]
    fn a_page_drawing_a_flood_of_text_is_left_empty_and_said_so() {
        let flood = "(x) Tj ".repeat(MAX_PAGE_TEXT_BYTES + 1);
        let content = format!("BT /F1 12 Tf 72 720 Td {flood} ET");
        let doc = read_text(&one_page(stream(content.as_bytes()), "")).expect("reads");
        assert!(
            doc.content
                .contains("[Page 1 was not read: it draws more text"),
            "{}",
            &doc.content[..200.min(doc.content.len())]
        );
    }

    #[test]
    fn markdown_marks_pages() {
        let doc = extract(
            &tiny_pdf("Only page"),
            Mode::Markdown,
            None,
            &Limits::default(),
            &Budget::unlimited(),
        )
        .expect("reads");
        assert!(doc.content.contains("Only page"));
        assert!(!doc.content.contains("<!-- page"), "one page: no marks");
    }

    /// Pages 3.. of a document whose page objects are `dicts` (each ends a page dictionary
    /// naming content object 3 + len(dicts) + k for `contents[k]`).
    fn pages_pdf(dicts: &[(&str, usize)], contents: &[Vec<u8>]) -> Vec<u8> {
        let first_content = 3 + dicts.len();
        let kids: Vec<String> = (0..dicts.len()).map(|k| format!("{} 0 R", 3 + k)).collect();
        let mut objs = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!(
                "<< /Type /Pages /Kids [{}] /Count {} >>",
                kids.join(" "),
                dicts.len()
            )
            .into_bytes(),
        ];
        for (extra, content) in dicts {
            objs.push(
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                     /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont \
                     /Helvetica >> >> >> {extra} >>",
                    first_content + content
                )
                .into_bytes(),
            );
        }
        objs.extend(contents.iter().map(|c| stream(c)));
        pdf_of(&objs, "")
    }

    /// A content of about `size` bytes (path operators pad it) drawing `word`.
    fn padded(word: &str, size: usize) -> Vec<u8> {
        let mut c = format!("BT /F1 12 Tf 72 700 Td ({word}) Tj ET\n").into_bytes();
        while c.len() < size {
            c.extend_from_slice(b"10 10 m 20 20 l S\n");
        }
        c
    }

    /// Four pages, the first and the last naming one 40 KB content drawing "Alpha" (the last
    /// page's dictionary ends with `fourth`), and limits whose content budget holds it once.
    fn alpha_twice(fourth: &str) -> (Vec<u8>, Limits) {
        let contents = [
            padded("Alpha", 40_000),
            padded("Beta", 0),
            padded("Gamma", 0),
        ];
        let pdf = pages_pdf(&[("", 0), ("", 1), ("", 2), (fourth, 0)], &contents);
        let limits = Limits {
            max_content_bytes: 50_000,
            ..Limits::default()
        };
        (pdf, limits)
    }

    #[test]
    fn a_page_that_is_an_earlier_page_again_is_read_as_it_was_at_no_cost() {
        // Pages 1 and 4 are two page objects alike entry for entry: the second costs the
        // content budget nothing, so all four pages fit.
        let (pdf, limits) = alpha_twice("");
        let md = extract(&pdf, Mode::Markdown, None, &limits, &Budget::unlimited())
            .expect("reads")
            .content;
        assert_eq!(md.matches("Alpha").count(), 2, "{md}");
        assert!(
            md.contains("<!-- page 4 of 4 -->") && !md.contains("Only the first"),
            "{md}"
        );
        let text = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited()).expect("reads");
        assert_eq!(text.pages_read, 4);
        assert_eq!(text.content.matches("Alpha").count(), 2, "{}", text.content);
    }

    #[test]
    fn pages_past_the_documents_content_budget_are_not_read_and_the_text_says_so() {
        // The same 40 KB content under a page that differs (its `/Rotate`) is paid again.
        let (pdf, limits) = alpha_twice("/Rotate 0");
        let doc = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited()).expect("reads");
        assert_stopped(
            &doc,
            3,
            "together they draw from more than the 48 KiB of content a document may hold",
        );
        assert_eq!(doc.content.matches("Alpha").count(), 1, "{}", doc.content);
        // With the default limits every page is read.
        let all = extract(
            &pdf,
            Mode::Text,
            None,
            &Limits::default(),
            &Budget::unlimited(),
        )
        .expect("reads");
        assert_eq!(all.pages_read, 4);
    }

    #[test]
    fn pages_drawing_more_text_than_the_output_could_show_are_not_read() {
        // Each page draws 1,500 spaces (no output) and a word: past twice the 2 KiB the
        // output may hold, the third page is not read, however little it would show.
        let page = |word: &str| {
            format!(
                "BT /F1 12 Tf 72 700 Td ({}) Tj 0 -20 Td ({word}) Tj ET\n",
                " ".repeat(1500)
            )
            .into_bytes()
        };
        let contents = [page("One"), page("Two"), page("Three"), page("Four")];
        let pdf = pages_pdf(&[("", 0), ("", 1), ("", 2), ("", 3)], &contents);
        let limits = Limits {
            max_output_bytes: 2048,
            ..Limits::default()
        };
        let doc = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited()).expect("reads");
        assert_stopped(
            &doc,
            2,
            "together they draw more than twice the 2 KiB of text the output may hold",
        );
        assert!(doc.content.contains("One") && !doc.content.contains("Three"));
    }

    /// `doc` read `pages` of its 4 pages and says why the rest were not read.
    fn assert_stopped(doc: &PdfDocumentText, pages: usize, why: &str) {
        assert_eq!(doc.pages_read, pages, "{}", doc.content);
        let note = format!("[Only the first {pages} of 4 pages were read: {why}.]");
        assert!(doc.content.contains(&note), "{}", doc.content);
    }
}
