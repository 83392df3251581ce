//! The PDF reader (`webgrip_pdf::extract`, both views) on hostile bytes, with the limits
//! the tools use shrunk to fuzzing scale. `extract` runs the parser on a worker thread
//! under `catch_unwind` and turns a parser panic into `PdfError::Malformed`: by design, so a
//! panic inside pdf_oxide is reported (once per source location) and not counted as a
//! crash. Any other panic (in webgrip's own code), an abort, a stack overflow, a hang or
//! runaway memory is a finding.
//!
//! Input: one flag byte (bit 0: Markdown; bit 1: try a password), then the PDF.
#![no_main]

use std::collections::HashSet;
use std::sync::{Mutex, Once};

use libfuzzer_sys::fuzz_target;
use webgrip_pdf::{extract, Budget, Limits, Mode};

/// After libFuzzer's hook (abort on every panic) is installed: let panics inside pdf_oxide
/// unwind to the reader's `catch_unwind`, noting each location once.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let abort_hook = std::panic::take_hook();
        let seen: Mutex<HashSet<String>> = Mutex::new(HashSet::new());
        std::panic::set_hook(Box::new(move |info| {
            let place = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            // The registry's crate (`pdf_oxide-0.3.78/`) or our patched copy of it
            // (`rust/vendor/pdf_oxide/`): either is pdf_oxide's code.
            if place.contains("/pdf_oxide-") || place.contains("/vendor/pdf_oxide/") {
                if seen.lock().is_ok_and(|mut s| s.insert(place.clone())) {
                    eprintln!("caught pdf_oxide panic at {place}: {info}");
                }
                return;
            }
            abort_hook(info);
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    install_hook();
    let Some((&flags, pdf)) = data.split_first() else {
        return;
    };
    let mode = if flags & 1 == 0 {
        Mode::Text
    } else {
        Mode::Markdown
    };
    let password = (flags & 2 != 0).then_some("secret");
    // One input's work is bounded by the document's budgets (content read, text drawn, output
    // held), whatever it does; these sizes keep that bound well under libFuzzer's 20 s timeout
    // in this build, where every comparison is traced (about 60% of the time in a profile):
    // a page drawing 100,000 glyphs takes about 0.9 s here, five times its release time, and
    // 4 MB of page content about 0.5 s.
    let limits = Limits {
        max_input_bytes: 1 << 20,
        max_pages: 50,
        max_output_bytes: 256 << 10,
        max_stream_bytes: 8 << 20,
        max_inflated_bytes: 16 << 20,
        max_content_bytes: 8 << 20,
    };
    let _ = extract(pdf, mode, password, &limits, &Budget::unlimited());
});
