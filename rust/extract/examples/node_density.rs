//! Bytes per parsed node over a set of HTML files (gzip-compressed or not): the density the
//! node cap in `document::build` must leave room for.
//!
//! `cargo run --release --example node_density -- FILE...`
use std::io::Read;

fn main() {
    let mut rows: Vec<(f64, usize, String)> = Vec::new();
    for path in std::env::args().skip(1) {
        let raw = std::fs::read(&path).expect("read");
        let bytes = if path.ends_with(".gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&raw[..])
                .read_to_end(&mut out)
                .expect("gunzip");
            out
        } else {
            raw
        };
        let html = String::from_utf8_lossy(&bytes);
        let doc = webgrip_extract::parse(&html);
        let nodes = doc.tree.len();
        rows.push((html.len() as f64 / nodes as f64, nodes, path));
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (density, nodes, path) in rows.iter().take(10) {
        println!("{density:8.1} bytes/node {nodes:8} nodes  {path}");
    }
    if let Some(median) = rows.get(rows.len() / 2) {
        println!(
            "median {:.1} bytes/node over {} files",
            median.0,
            rows.len()
        );
    }
}
