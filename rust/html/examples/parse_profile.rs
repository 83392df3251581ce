//! Parse files for callgrind or perf, or print a hash of each one's tree to check that a change
//! to the parse builds the same trees.
//! `cargo build --release -p webgrip-html --example parse_profile`, then
//! `valgrind --tool=callgrind target/release/examples/parse_profile parse N FILE|DIR...`
//! (each file parsed N times; a directory's `*.html` and `*.html.gz`, sorted), or
//! `parse_profile dump 1 FILE|DIR... > trees.txt` before and after a change and `cmp` the two
//! (`dump-unstripped`: the trees of `parse_unstripped`, which `_core.html_tree` reads).
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "parse".into());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut files = Vec::new();
    for arg in args {
        collect(Path::new(&arg), &mut files);
    }
    let pages: Vec<(PathBuf, String)> = files.into_iter().map(|f| (f.clone(), read(&f))).collect();
    let mut nodes = 0;
    for (path, html) in &pages {
        for _ in 0..times {
            // `dump-unstripped`: the parse `_core.html_tree` reads (every attribute kept).
            let doc = if mode == "dump-unstripped" {
                webgrip_html::parse_unstripped(html)
            } else {
                webgrip_html::parse(html)
            };
            nodes += doc.tree.len();
            if mode.starts_with("dump") {
                let dump = webgrip_html::html5lib_dump(&doc.tree, webgrip_html::Dom::DOCUMENT);
                let mut hasher = DefaultHasher::new();
                dump.hash(&mut hasher);
                format!("{:?}", doc.quirks_mode).hash(&mut hasher);
                println!("{:016x} {}", hasher.finish(), path.display());
            }
        }
    }
    eprintln!("{} pages, {nodes} nodes", pages.len());
}

/// `path`, or the `*.html` and `*.html.gz` files of the directory `path` (sorted).
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|dir| dir.flatten().map(|entry| entry.path()).collect())
            .unwrap_or_default();
        found.sort();
        for file in found {
            let name = file.to_string_lossy();
            if name.ends_with(".html") || name.ends_with(".html.gz") {
                files.push(file);
            }
        }
    } else {
        files.push(path.to_path_buf());
    }
}

/// The text of `path`, gunzipped if its name ends in `.gz`, lossily decoded as UTF-8.
fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_default();
    let mut raw = Vec::new();
    if path.extension().is_some_and(|ext| ext == "gz") {
        let _ = flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut raw);
    } else {
        raw = bytes;
    }
    String::from_utf8_lossy(&raw).into_owned()
}
