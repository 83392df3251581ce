//! Parse and render one view of a file, for callgrind or perf on the whole-page path.
//! `cargo build --profile fastbuild -p webgrip-extract --example view_profile`, then
//! `valgrind --tool=callgrind target/fastbuild/examples/view_profile FILE markdown|text|tables|parse [N]`
//! (`parse` alone gives the parse's share: a view's render is the difference.)
use webgrip_extract::{document_base, extract_tables, render_markdown, render_text, Scope};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let view = args.next().unwrap_or_else(|| "markdown".into());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let html = std::fs::read_to_string(&path).unwrap_or_default();
    let mut total = 0;
    for _ in 0..times {
        let doc = webgrip_extract::parse(&html);
        total += match view.as_str() {
            "markdown" => {
                let base = document_base(&doc, Some("https://example.com/"));
                render_markdown(&doc, &Scope::whole(), base.as_ref()).len()
            }
            "text" => render_text(&doc, &Scope::whole()).len(),
            "tables" => extract_tables(&doc)
                .iter()
                .map(|t| t.markdown.len() + t.row_count())
                .sum(),
            _ => doc.tree.len(),
        };
    }
    println!("{total}");
}
