//! Criterion benches of the extraction core: parse, whole-page Markdown and text, main-content
//! selection and URL resolution, over three small real pages (see `pages/README.md`) and two
//! generated ones (a wide table, deep nesting).
//!
//! `cargo bench -p webgrip-extract -- --quick` for a quick look; see docs/benchmarks.md.
use std::hint::black_box;
use std::io::Read;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use webgrip_extract::internals::{element_facts::attr, urls::Resolver};
use webgrip_extract::{
    document_base, render_markdown, render_text, select_main_content, Scope, TrackingRules,
};

const PAGES: &[(&str, &[u8], &str)] = &[
    (
        "article",
        include_bytes!("pages/article.html.gz"),
        "https://www.bluecart.com/blog/what-is-catering",
    ),
    (
        "product",
        include_bytes!("pages/product.html.gz"),
        "https://maelstromdirect.com/products/maelstrom-hiking-backpack-40l",
    ),
    (
        "forum",
        include_bytes!("pages/forum.html.gz"),
        "https://bbs.archlinux.org/viewtopic.php?id=298271",
    ),
];

fn gunzip(bytes: &[u8]) -> String {
    let mut out = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut out)
        .expect("a checked-in page is gzipped UTF-8");
    out
}

/// A `rows` x `cols` data table with a header row.
fn table_page(rows: usize, cols: usize) -> String {
    let head: String = (0..cols).map(|c| format!("<th>col {c}</th>")).collect();
    let mut body = String::new();
    for r in 0..rows {
        body.push_str("<tr>");
        for c in 0..cols {
            body.push_str(&format!(
                "<td>r{r} c{c} <a href=\"/r/{r}?utm_source=x\">{c}</a></td>"
            ));
        }
        body.push_str("</tr>");
    }
    format!("<html><body><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></body></html>")
}

/// `depth` nested `div`s around a paragraph, each with a line of its own.
fn deep_page(depth: usize) -> String {
    let mut html = String::from("<html><body>");
    for d in 0..depth {
        html.push_str(&format!("<div class=\"level-{d}\">line {d} "));
    }
    html.push_str("<p>the innermost paragraph</p>");
    html.push_str(&"</div>".repeat(depth));
    html.push_str("</body></html>");
    html
}

/// Every page under test: the real ones, then the generated ones.
fn pages() -> Vec<(String, String, &'static str)> {
    let mut all: Vec<(String, String, &'static str)> = PAGES
        .iter()
        .map(|(name, gz, url)| (name.to_string(), gunzip(gz), *url))
        .collect();
    all.push((
        "table-500x8".into(),
        table_page(500, 8),
        "https://example.com/t",
    ));
    all.push(("deep-2000".into(), deep_page(2000), "https://example.com/d"));
    all
}

fn views(c: &mut Criterion) {
    for (name, html, url) in pages() {
        let mut group = c.benchmark_group(name.as_str());
        group.throughput(Throughput::Bytes(html.len() as u64));
        let doc = webgrip_extract::parse(&html);
        let base = document_base(&doc, Some(url));
        let whole = Scope::whole();
        group.bench_function("parse", |b| {
            b.iter(|| webgrip_extract::parse(black_box(&html)))
        });
        group.bench_function("markdown", |b| {
            b.iter(|| render_markdown(&doc, &whole, base.as_ref()))
        });
        group.bench_function("text", |b| b.iter(|| render_text(&doc, &whole)));
        group.bench_function("readable-select", |b| {
            b.iter(|| select_main_content(&doc, Some(url)))
        });
        let scope = select_main_content(&doc, Some(url));
        group.bench_function("readable-markdown", |b| {
            b.iter(|| render_markdown(&doc, &scope, base.as_ref()))
        });
        group.finish();
    }
}

fn url_resolution(c: &mut Criterion) {
    let mut group = c.benchmark_group("urls");
    let rules = TrackingRules::default();
    for (name, html, url) in pages().into_iter().take(PAGES.len()) {
        let doc = webgrip_extract::parse(&html);
        let base = document_base(&doc, Some(url));
        let hrefs: Vec<String> = doc
            .tree
            .all_nodes()
            .filter_map(|n| attr(n.element()?, "href").map(str::to_string))
            .collect();
        group.throughput(Throughput::Elements(hrefs.len() as u64));
        group.bench_with_input(BenchmarkId::new("resolve", &name), &hrefs, |b, hrefs| {
            b.iter(|| {
                let mut resolver = Resolver::new(base.as_ref());
                hrefs.iter().filter_map(|h| resolver.resolve(h)).count()
            })
        });
        group.bench_with_input(
            BenchmarkId::new("resolve-strip-tracking", &name),
            &hrefs,
            |b, hrefs| {
                b.iter(|| {
                    let mut resolver = Resolver::with_tracking(base.as_ref(), Some(&rules));
                    hrefs.iter().filter_map(|h| resolver.resolve(h)).count()
                })
            },
        );
    }
    let tracked =
        "https://shop.example.com/p/item?id=7&utm_source=news&utm_medium=mail&fbclid=x#top";
    group.throughput(Throughput::Elements(1));
    group.bench_function("strip-tracking", |b| {
        b.iter(|| rules.strip(black_box(tracked)).len())
    });
    group.finish();
}

criterion_group!(benches, views, url_resolution);
criterion_main!(benches);
