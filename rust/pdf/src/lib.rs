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
//! (`page_cost`), the Form XObjects it paints included (`forms`). An encrypted file's
//! streams go through the same passes decrypted (`crypt`), or the file is not read.

// Private modules: the API is this file's items (`extract`, `Mode`, `Limits`, the errors).
mod adobe_cmaps;
mod bombs;
mod cmaps;
mod crypt;
mod filters;
mod forms;
mod glyphs;
mod info;
mod layout;
mod lengths;
mod markdown;
mod nesting;
mod page_cost;
mod pages;
mod read;
mod reflow;
mod repeats;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use read::read;

pub use page_cost::{MAX_PAGE_RESTART_COST, MAX_PAGE_TEXT_BYTES, MAX_PAGE_TOKENS};
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

/// A parser error as one short line.
pub(crate) fn short(e: &impl std::fmt::Display) -> String {
    let s = e.to_string();
    let line = s.lines().next().unwrap_or("").trim();
    line.chars().take(200).collect()
}

#[cfg(test)]
mod tests;
