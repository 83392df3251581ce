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
            if place.contains("/pdf_oxide-") {
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
    let limits = Limits {
        max_input_bytes: 1 << 20,
        max_pages: 50,
        max_output_bytes: 1 << 20,
        max_stream_bytes: 8 << 20,
        max_inflated_bytes: 32 << 20,
    };
    let _ = extract(pdf, mode, password, &limits, &Budget::unlimited());
});
