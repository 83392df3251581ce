//! Issue 45 F1/F5 probe: one hostile page through `extract` (Markdown, main content,
//! as fetch_page runs it); prints seconds and the growth of the peak resident set (VmHWM).
//! `cargo run --profile fastbuild -p webgrip-extract --example attribute_storms -- SHAPE KIB`
//! SHAPE: merges (`<body/aN><html/aN+1>`), merges-unstripped (the same after a `<frameset>`
//! mention), one-tag (one tag with distinct attributes `a0 a1 ...` filling KIB), one-tag-short
//! (one tag of ` a` repeated: two bytes an attribute). Each case in its own process: the peak
//! is the process's.
use std::time::Instant;

use webgrip_extract::{extract, Budget, Modes, Options, ReadableScorer};

fn hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let shape = args.get(1).map_or("merges", |s| s.as_str());
    let kib: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(92);
    let size = kib * 1024;
    let mut html = String::new();
    match shape {
        // A real page, to see that the caps cost ordinary pages nothing: the best of 20.
        path if path.starts_with("file:") => {
            html = std::fs::read_to_string(&path[5..]).unwrap_or_default();
            let best = (0..20)
                .map(|_| {
                    let t = Instant::now();
                    let _ = webgrip_extract::parse(&html);
                    t.elapsed().as_secs_f64()
                })
                .fold(f64::MAX, f64::min);
            println!("{path}: parse best of 20 {:.2} ms", best * 1000.0);
            return;
        }
        "one-tag" | "one-tag-short" => {
            html.push_str("<p>before</p><div");
            let mut i = 0;
            while html.len() < size {
                if shape == "one-tag" {
                    html.push_str(&format!(" a{i}"));
                } else {
                    html.push_str(" a");
                }
                i += 1;
            }
            html.push_str(">inside</div><p>after</p>");
        }
        _ => {
            if shape == "merges-unstripped" {
                html.push_str("<!-- <frameset> -->");
            }
            let mut i = 0;
            while html.len() < size {
                html.push_str(&format!("<body/a{i}><html/a{}>", i + 1));
                i += 2;
            }
            html.push_str("<p>end of page</p>");
        }
    }
    let modes = Modes {
        markdown: true,
        ..Modes::default()
    };
    let options = Options {
        main_content: true,
        tracking: None,
        frame_marker: None,
        readable: ReadableScorer::Model,
    };
    let before = hwm_kib();
    let t = Instant::now();
    let out = extract(&html, None, modes, options, &Budget::unlimited());
    let secs = t.elapsed().as_secs_f64();
    let grown = hwm_kib().saturating_sub(before) as f64 / 1024.0;
    let chars = out.ok().and_then(|o| o.markdown).map_or(0, |m| m.len());
    println!("{shape} {kib} KiB: {secs:.3} s, peak RSS +{grown:.1} MiB, {chars} chars");
}
