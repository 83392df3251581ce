//! Time html5ever parsing alone versus each view on a file or a generated hostile input.
//! `cargo run --profile fastbuild -p webgrip-extract --example parse_probe -- <file | gen:KIND:N>`
use std::time::Instant;

use webgrip_extract::{links, markdown, metadata, tables, text, urls, Scope};

fn main() {
    let arg = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "gen:div:100000".into());
    let html = if let Some(spec) = arg.strip_prefix("gen:") {
        let mut parts = spec.splitn(2, ':');
        let tag = parts.next().unwrap_or("div");
        let n: usize = parts.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
        format!("<{tag}>").repeat(n) + "x"
    } else {
        std::fs::read_to_string(&arg).unwrap_or_default()
    };
    let t = Instant::now();
    let defused = webgrip_extract::guard::defuse(&html).len();
    let t_guard = t.elapsed();
    let t = Instant::now();
    let raw = scraper::Html::parse_document(&html);
    let t_raw = t.elapsed();
    drop(raw);
    println!(
        "guard {t_guard:?} ({defused} B kept) | scraper::Html::parse_document alone {t_raw:?}"
    );
    let t = Instant::now();
    let doc = webgrip_extract::parse(&html);
    let parse = t.elapsed();
    let base = urls::document_base(&doc, Some("https://ex.com/"));
    let scope = Scope::whole();
    let t = Instant::now();
    let md = markdown::render(&doc, &scope, base.as_ref());
    let t_md = t.elapsed();
    let t = Instant::now();
    let tx = text::render(&doc, &scope);
    let t_tx = t.elapsed();
    let t = Instant::now();
    let ln = links::extract(&doc, base.as_ref());
    let t_ln = t.elapsed();
    let t = Instant::now();
    let tb = tables::extract(&doc);
    let t_tb = t.elapsed();
    let t = Instant::now();
    let _m = metadata::extract(&doc, base.as_ref());
    let t_meta = t.elapsed();
    let mb = html.len() as f64 / 1e6;
    println!(
        "{:.2} MB nodes={} parse {:?} ({:.0} MB/s) | markdown {:?} ({} B) text {:?} ({} B) links {:?} ({}) tables {:?} ({}) meta {:?}",
        mb,
        doc.tree.nodes().count(),
        parse,
        mb / parse.as_secs_f64(),
        t_md,
        md.len(),
        t_tx,
        tx.len(),
        t_ln,
        ln.len(),
        t_tb,
        tb.len(),
        t_meta
    );
}
