//! Time the reference parses (scraper, html5ever's tokenizer) alone versus each view on a file or a generated hostile input.
//! `cargo run --profile fastbuild -p webgrip-extract --example parse_probe -- <file | gen:KIND:N>`
use std::time::Instant;

use webgrip_extract::{
    document_base, extract_links, extract_metadata, extract_tables, render_markdown, render_text,
    Scope,
};

#[path = "../../html/tests/support/reference.rs"]
mod reference;

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
    // Best of a few runs: the machine is shared.
    let reps: usize = std::env::var("PROBE_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let best = |f: &mut dyn FnMut()| {
        (0..reps.max(1))
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    // PROBE_VIEWS_ONLY=1 skips the reference parses (for profiling the production path).
    if std::env::var_os("PROBE_VIEWS_ONLY").is_none() {
        let mut defused = 0;
        let t_guard = best(&mut || defused = webgrip_html::defuse(&html).len());
        let t_raw = best(&mut || drop(scraper::Html::parse_document(&html)));
        println!(
            "guard {t_guard:?} ({defused} B kept) | scraper::Html::parse_document alone {t_raw:?}"
        );
        let stripped = webgrip_html::defuse(&html).into_owned();
        let t_a = best(&mut || drop(webgrip_html::parse_prepared(&html)));
        let t_b = best(&mut || drop(webgrip_html::parse_prepared(&stripped)));
        let t_c = best(&mut || drop(reference::parse_with_html5ever(&stripped)));
        println!("parse_prepared: unstripped {t_a:?} stripped {t_b:?} | html5ever tokenizer on stripped {t_c:?}");
    }
    let parse = best(&mut || drop(webgrip_extract::parse(&html)));
    let doc = webgrip_extract::parse(&html);
    let base = document_base(&doc, Some("https://ex.com/"));
    let scope = Scope::whole();
    let (mut md, mut tx, mut ln, mut tb) = (String::new(), String::new(), Vec::new(), Vec::new());
    let t_md = best(&mut || md = render_markdown(&doc, &scope, base.as_ref()));
    let t_tx = best(&mut || tx = render_text(&doc, &scope));
    let t_ln = best(&mut || ln = extract_links(&doc, base.as_ref()));
    let t_tb = best(&mut || tb = extract_tables(&doc));
    let t_meta = best(&mut || drop(extract_metadata(&doc, base.as_ref())));
    let mb = html.len() as f64 / 1e6;
    let rate = |d: std::time::Duration| mb / (parse + d).as_secs_f64();
    println!(
        "{:.2} MB nodes={} parse {:?} ({:.0} MB/s) | markdown {:?} ({} B) text {:?} ({} B) links {:?} ({}) tables {:?} ({}) meta {:?}",
        mb,
        doc.tree.len(),
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
    println!(
        "end-to-end MB/s (parse + view + metadata): markdown {:.0} text {:.0} links {:.0} tables {:.0}",
        rate(t_md + t_meta),
        rate(t_tx + t_meta),
        rate(t_ln + t_meta),
        rate(t_tb + t_meta)
    );
}
