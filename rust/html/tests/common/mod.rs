//! The shared corpus for the identity tests: `<repo>/../shared/corpus/*/html/*.html.gz`, or
//! `$WEBGRIP_CORPUS`.

use std::io::Read;
use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<PathBuf> {
    let root = std::env::var_os("WEBGRIP_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    let mut files = Vec::new();
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return files;
    };
    for dir in dirs.flatten() {
        if let Ok(entries) = std::fs::read_dir(dir.path().join("html")) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.to_string_lossy().ends_with(".html.gz")),
            );
        }
    }
    files.sort();
    files
}

/// Call `check` with the first `limit` corpus pages (decompressed, lossily decoded), in name
/// order. Prints a notice and checks nothing when the corpus is absent.
pub fn for_each_page(limit: usize, mut check: impl FnMut(&Path, &str)) {
    let files = corpus_files();
    if files.is_empty() {
        eprintln!("corpus not found: skipped");
        return;
    }
    for path in files.iter().take(limit) {
        let mut raw = Vec::new();
        let Ok(file) = std::fs::File::open(path) else {
            continue;
        };
        if flate2::read::GzDecoder::new(file)
            .read_to_end(&mut raw)
            .is_err()
        {
            continue;
        }
        check(path, &String::from_utf8_lossy(&raw));
    }
}
