//! Main-content selection alone, over a corpus, for a profiler:
//! `cargo run --profile fastbuild -p webgrip-extract --example readable_profile -- DIR [STEP] [REPEAT] [model]`
//! reads every STEP-th `*.html.gz` under DIR (default 1), parses each once, then runs
//! `select_main_content` REPEAT times (default 3) over them and prints ms per page for
//! parsing, whole-page Markdown and the selection (with `model`: the rules and then the
//! learned block scorer, `readable_model=True`).
use std::io::Read;
use std::time::{Duration, Instant};

use webgrip_extract::{render_markdown, select_main_content_with, ReadableScorer, Scope};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "../shared/corpus".into());
    let step: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let repeat: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let scorer = match args.next().as_deref() {
        Some("model") => ReadableScorer::Model,
        _ => ReadableScorer::Rules,
    };
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(".html.gz") {
                files.push(path);
            }
        }
    }
    files.sort();
    let pages: Vec<String> = files
        .iter()
        .step_by(step.max(1))
        .filter_map(|p| {
            let mut s = String::new();
            flate2::read::GzDecoder::new(std::fs::File::open(p).ok()?)
                .read_to_string(&mut s)
                .ok()?;
            Some(s)
        })
        .collect();
    let t = Instant::now();
    let docs: Vec<_> = pages.iter().map(|p| webgrip_extract::parse(p)).collect();
    let parse = t.elapsed();
    let t = Instant::now();
    for doc in &docs {
        std::hint::black_box(render_markdown(doc, &Scope::whole(), None));
    }
    let md = t.elapsed();
    let mut select = Duration::MAX;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        for doc in &docs {
            std::hint::black_box(select_main_content_with(
                doc,
                Some("https://example.com/"),
                scorer,
            ));
        }
        select = select.min(t.elapsed());
    }
    let per = |d: Duration| d.as_secs_f64() * 1e3 / docs.len().max(1) as f64;
    println!(
        "{} pages: parse {:.3} ms, whole-page markdown {:.3} ms, select_main_content ({:?}) {:.3} ms per page",
        docs.len(),
        per(parse),
        per(md),
        scorer,
        per(select)
    );
}
