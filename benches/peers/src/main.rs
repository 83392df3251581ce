//! Run the Rust main-content extractors we compare against over corpus pages.
//!
//! Reads JSON lines `{"id", "path", "url"}` (gzipped HTML files) on stdin and writes one
//! JSON line per page: each extractor's text and its extraction time in seconds. Pages are
//! decoded as `benches/quality.py` decodes them (UTF-8, invalid bytes replaced), and the
//! clock covers the extraction call only, as quality.py times webgrip and trafilatura.
use std::error::Error;
use std::io::{BufRead, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Time one extraction; a panic or an error counts as empty output, as in quality.py.
fn timed(f: impl FnOnce() -> Option<String>) -> (String, f64) {
    let start = Instant::now();
    let text = catch_unwind(AssertUnwindSafe(f)).ok().flatten();
    (text.unwrap_or_default(), start.elapsed().as_secs_f64())
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in std::io::stdin().lock().lines() {
        let page: serde_json::Value = serde_json::from_str(&line?)?;
        let id = page["id"].as_str().ok_or("page without id")?;
        let path = page["path"].as_str().ok_or("page without path")?;
        let url = page["url"].as_str().filter(|u| u.starts_with("http"));
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(path)?).read_to_end(&mut bytes)?;
        let html = String::from_utf8_lossy(&bytes).into_owned();

        let (ds, t_ds) = timed(|| {
            let mut r = dom_smoothie::Readability::new(html.as_str(), url, None).ok()?;
            Some(r.parse().ok()?.text_content.to_string())
        });
        let (rt, t_rt) = timed(|| {
            let opts = rs_trafilatura::Options {
                url: url.map(str::to_string),
                ..Default::default()
            };
            Some(
                rs_trafilatura::extract_with_options(&html, &opts)
                    .ok()?
                    .content_text,
            )
        });
        let rec = serde_json::json!({
            "id": id, "bytes": html.len(),
            "dom_smoothie": ds, "t_dom_smoothie": t_ds,
            "rs_trafilatura": rt, "t_rs_trafilatura": t_rt,
        });
        writeln!(out, "{rec}")?;
    }
    Ok(())
}
