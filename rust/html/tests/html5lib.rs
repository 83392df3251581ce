//! The html5lib-tests tree-construction suite, scripting off, through webgrip's parse (the
//! byte lexer feeding the own tree builder: `parse_prepared` for documents, the builder's
//! fragment mode for fragments), asserted: every case passes, and html5ever's tokenizer
//! feeding the same builder (`parse_with_html5ever`) builds the same tree as the lexer on
//! every document (a difference is a lexer bug). html5ever's own tokenizer and tree builder
//! into scraper's tree run beside it as the reference, their figure printed, not asserted.
//! As html5ever's `rcdom/tests/html-tree-builder.rs` runs the suite against html5ever.
//!
//! The suite is `<repo>/../shared/html5lib-tests` (its `tree-construction` folder), or
//! `$WEBGRIP_HTML5LIB`; where neither is present the test prints why and checks nothing.
//! `HTML5LIB_FILE=tests20` runs one file, `HTML5LIB_VERBOSE=1` prints each failing case
//! (input, expected and built trees); `scripts/html5lib-conformance` wraps both:
//!
//!     cargo test --profile fastbuild -p webgrip-html --test html5lib -- --nocapture
//!
//! Why our own runner rather than html5ever's harness: the lexer is the part of the parse
//! html5ever's harness cannot reach, and the own tree builder is measured against the same
//! expectations.

use std::io::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use ego_tree::NodeRef;
use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ns, LocalName, Namespace, QualName};
use scraper::{Html, HtmlTreeSink, Node};
use webgrip_html::{
    html5lib_dump, parse_prepared, tokenize, tokenize_fragment, Budget, Ns, Pressure,
    TreeBuilder as OwnBuilder,
};

#[path = "support/reference.rs"]
mod reference;
use reference::parse_with_html5ever;

/// One test of a `.dat` file.
#[derive(Debug, Default)]
struct Case {
    /// Line of `#data` in the file, to find the case again.
    line: usize,
    data: String,
    /// `#document-fragment`'s context element, as written (`td`, `svg path`, `math mi`).
    fragment: Option<String>,
    /// `Some(true)` for `#script-on`, `Some(false)` for `#script-off`, `None`: both modes.
    scripting: Option<bool>,
    /// The `#document` dump, lines joined by `\n`, no trailing newline.
    expected: String,
}

/// What one parser made of one case.
enum Outcome {
    Pass,
    Fail(String),
    Panic(String),
    /// The parser offers no way to run this case (see [`webgrip_fragment`]).
    Unsupported(String),
}

impl Outcome {
    fn passed(&self) -> bool {
        matches!(self, Outcome::Pass)
    }
}

const HEADERS: [&str; 7] = [
    "#data",
    "#errors",
    "#new-errors",
    "#document-fragment",
    "#script-off",
    "#script-on",
    "#document",
];

/// Split a `.dat` file into cases (format: tree-construction/README.md). Why line by line
/// with lookahead rather than splitting on blank lines: `#data` and text nodes in the
/// `#document` dump may themselves hold blank lines and lines starting with `#`; a case
/// ends only at a blank line followed by `#data`, or at the end of the file.
fn parse_dat(text: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "#data" {
            i += 1;
            continue;
        }
        let mut case = Case {
            line: i + 1,
            ..Case::default()
        };
        i += 1;
        // #data: up to the `#errors` line; the newline before that line is not input.
        let start = i;
        while i < lines.len() && lines[i] != "#errors" {
            i += 1;
        }
        case.data = lines[start..i].join("\n");
        let mut document = Vec::new();
        let mut section = "";
        while i < lines.len() {
            let line = lines[i];
            if section == "#document" {
                // A blank line then `#data` (or the end of the file) ends the case.
                let rest_blank = lines[i..].iter().all(|l| l.is_empty());
                if line.is_empty() && (rest_blank || lines.get(i + 1) == Some(&"#data")) {
                    break;
                }
                document.push(line);
                i += 1;
                continue;
            }
            if HEADERS.contains(&line) {
                section = line;
                match line {
                    "#data" => break,
                    "#script-off" => case.scripting = Some(false),
                    "#script-on" => case.scripting = Some(true),
                    "#document-fragment" => {
                        case.fragment = lines.get(i + 1).map(|c| c.to_string());
                        i += 1;
                    }
                    _ => {}
                }
            }
            // Error lines are counted by nobody here: tree construction only.
            i += 1;
        }
        case.expected = document.join("\n");
        cases.push(case);
    }
    cases
}

/// The context element named by `#document-fragment`.
fn context_name(spec: &str) -> QualName {
    let (ns, local) = if let Some(local) = spec.strip_prefix("svg ") {
        (ns!(svg), local)
    } else if let Some(local) = spec.strip_prefix("math ") {
        (ns!(mathml), local)
    } else {
        (ns!(html), spec)
    };
    QualName::new(None, ns, LocalName::from(local))
}

/// Scripting disabled, as `tree_options` in rust/extract/src/document.rs sets it for both
/// document parsers (so `<noscript>` content is markup).
fn tree_options() -> TreeBuilderOpts {
    TreeBuilderOpts {
        scripting_enabled: false,
        ..Default::default()
    }
}

/// html5ever's fragment parsing algorithm into a scraper fragment, as scraper's
/// `Html::parse_fragment` does but with the case's context element and scripting off.
fn html5ever_fragment(data: &str, context: &str) -> Html {
    let opts = html5ever::ParseOpts {
        tree_builder: tree_options(),
        ..Default::default()
    };
    html5ever::driver::parse_fragment(
        HtmlTreeSink::new(Html::new_fragment()),
        opts,
        context_name(context),
        Vec::new(),
        false,
    )
    .one(data)
}

/// html5ever's tokenizer and tree builder into a scraper document, scripting off.
fn html5ever_document(data: &str) -> Html {
    let opts = html5ever::ParseOpts {
        tree_builder: tree_options(),
        ..Default::default()
    };
    html5ever::driver::parse_document(HtmlTreeSink::new(Html::new_document()), opts).one(data)
}

/// A shipped parse's tree in html5lib's format.
fn own_dump(doc: &webgrip_html::Html) -> String {
    html5lib_dump(&doc.tree, 0)
}

/// The own tree builder fed by the lexer (unguarded, unlimited budget, the builder's default
/// caps, which no case reaches), for a document (`context` `None`) or a fragment, the lexer
/// started in the state the context sets (`tokenize_fragment`); returns the html5lib
/// dump.
fn own_parse(data: &str, context: Option<&str>) -> Result<String, String> {
    let builder = match context {
        None => {
            let builder = OwnBuilder::new();
            let probe = || Pressure { open: 0, nodes: 0 };
            tokenize(
                data,
                &builder,
                false,
                &Budget::unlimited(),
                &probe,
                usize::MAX,
            );
            builder
        }
        Some(spec) => {
            let (ns, local) = if let Some(local) = spec.strip_prefix("svg ") {
                (Ns::Svg, local)
            } else if let Some(local) = spec.strip_prefix("math ") {
                (Ns::MathMl, local)
            } else {
                (Ns::Html, spec)
            };
            let builder = OwnBuilder::new_fragment(local, ns);
            let start = OwnBuilder::fragment_raw_kind(local, ns);
            tokenize_fragment(data, &builder, start);
            builder
        }
    };
    let root = builder.root();
    Ok(html5lib_dump(&builder.into_dom(), root))
}

/// The tree in html5lib's `#document` format: for a document, the root's children; for a
/// fragment, the children of the `<html>` element the fragment algorithm puts them in.
fn serialize(doc: &Html) -> String {
    let root = doc.tree.root();
    let mut out = Vec::new();
    if matches!(root.value(), Node::Fragment) {
        for top in root.children() {
            match top.value() {
                Node::Element(e) if e.name.ns == ns!(html) && &*e.name.local == "html" => {
                    for child in top.children() {
                        dump(child, 0, &mut out);
                    }
                }
                _ => dump(top, 0, &mut out),
            }
        }
    } else {
        for child in root.children() {
            dump(child, 0, &mut out);
        }
    }
    out.join("\n")
}

fn dump(node: NodeRef<'_, Node>, depth: usize, out: &mut Vec<String>) {
    let pad = format!("| {}", "  ".repeat(depth));
    match node.value() {
        Node::Document => out.push(format!("{pad}#document")),
        // scraper keeps a template's contents in a fragment node, the template's first child.
        Node::Fragment => out.push(format!("{pad}content")),
        Node::Doctype(d) => {
            let ids = if d.public_id().is_empty() && d.system_id().is_empty() {
                String::new()
            } else {
                format!(" \"{}\" \"{}\"", d.public_id(), d.system_id())
            };
            out.push(format!("{pad}<!DOCTYPE {}{ids}>", d.name()));
        }
        Node::Comment(c) => out.push(format!("{pad}<!-- {} -->", &**c)),
        Node::Text(t) => out.push(format!("{pad}\"{}\"", &**t)),
        Node::ProcessingInstruction(p) => out.push(format!("{pad}<?{} {}>", &*p.target, &*p.data)),
        Node::Element(e) => {
            out.push(format!(
                "{pad}<{}{}>",
                element_prefix(&e.name.ns),
                e.name.local
            ));
            let mut attrs: Vec<(String, &str)> = e
                .attrs
                .iter()
                .map(|(k, v)| (format!("{}{}", attribute_prefix(&k.ns), k.local), &**v))
                .collect();
            // Sorted by UTF-16 code unit, as the format asks (differs from byte order only
            // past the BMP).
            attrs.sort_by_cached_key(|(name, _)| name.encode_utf16().collect::<Vec<u16>>());
            let apad = format!("| {}", "  ".repeat(depth + 1));
            for (name, value) in attrs {
                out.push(format!("{apad}{name}=\"{value}\""));
            }
        }
    }
    for child in node.children() {
        dump(child, depth + 1, out);
    }
}

fn element_prefix(ns: &Namespace) -> &'static str {
    if *ns == ns!(svg) {
        "svg "
    } else if *ns == ns!(mathml) {
        "math "
    } else {
        ""
    }
}

fn attribute_prefix(ns: &Namespace) -> &'static str {
    if *ns == ns!(xlink) {
        "xlink "
    } else if *ns == ns!(xml) {
        "xml "
    } else if *ns == ns!(xmlns) {
        "xmlns "
    } else {
        ""
    }
}

/// Run one parse (to its dump), turning a panic into a failure rather than the end of the
/// run.
fn run(expected: &str, parse: impl FnOnce() -> Result<String, String>) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(parse)) {
        Ok(Ok(got)) if got == expected => Outcome::Pass,
        Ok(Ok(got)) => Outcome::Fail(got),
        Ok(Err(why)) => Outcome::Unsupported(why),
        Err(payload) => Outcome::Panic(
            payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into()),
        ),
    }
}

fn show(label: &str, outcome: &Outcome) {
    match outcome {
        Outcome::Pass => println!("  {label}: pass"),
        Outcome::Fail(got) => println!("  {label}: got\n{got}"),
        Outcome::Panic(msg) => println!("  {label}: PANIC: {msg}"),
        Outcome::Unsupported(why) => {
            println!("  {label}: fragment: not supported by webgrip's lexer ({why})")
        }
    }
}

#[derive(Default)]
struct Tally {
    total: usize,
    webgrip: usize,
    html5ever: usize,
    unsupported: usize,
    panics: usize,
    /// Documents the lexer and html5ever's tokenizer (both into the shipped builder) built
    /// different trees for: the lexer is meant to be token-identical to html5ever's
    /// tokenizer, so each is a lexer bug.
    divergent: usize,
}

/// Where the suite is: `$WEBGRIP_HTML5LIB`, else `../shared/html5lib-tests` beside the
/// repository; its `tree-construction` folder if it has one.
fn suite_dir() -> PathBuf {
    let dir = std::env::var_os("WEBGRIP_HTML5LIB").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/html5lib-tests"),
        PathBuf::from,
    );
    if dir.join("tree-construction").is_dir() {
        dir.join("tree-construction")
    } else {
        dir
    }
}

/// A line the test harness does not capture: the skip notice and the totals show in a plain
/// `cargo test` run.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn tree_construction() {
    let tree_dir = suite_dir();
    let verbose = std::env::var_os("HTML5LIB_VERBOSE").is_some_and(|v| v != "0");
    let only = std::env::var("HTML5LIB_FILE").ok();
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&tree_dir) {
        // Top-level files only: `scripted/` holds cases that need a script engine.
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dat"))
            .collect(),
        Err(err) => {
            say(&format!(
                "html5lib: skipped, the suite is not at {} ({err}; set WEBGRIP_HTML5LIB)",
                tree_dir.display()
            ));
            return;
        }
    };
    files.sort();
    if let Some(name) = &only {
        let name = name.trim_end_matches(".dat");
        files.retain(|p| p.file_stem().is_some_and(|s| s == name));
    }

    // Panics are reported as failures; the default hook would print each one mid-table.
    panic::set_hook(Box::new(|_| {}));
    let mut all = Tally::default();
    for path in &files {
        let tally = run_file(path, verbose);
        all.total += tally.total;
        all.webgrip += tally.webgrip;
        all.html5ever += tally.html5ever;
        all.unsupported += tally.unsupported;
        all.panics += tally.panics;
        all.divergent += tally.divergent;
    }
    // The default hook back, so that a failed assertion below is reported.
    drop(panic::take_hook());
    say(&format!(
        "html5lib tree-construction: {} passed, {} failed of {} (html5ever: {} passed); \
         the lexer and html5ever's tokenizer built different trees in {} documents; \
         {} fragment cases unsupported, {} parses panicked",
        all.webgrip,
        all.total - all.webgrip,
        all.total,
        all.html5ever,
        all.divergent,
        all.unsupported,
        all.panics
    ));
    assert!(
        all.total > 0,
        "no case ran (looked in {})",
        tree_dir.display()
    );
    assert_eq!(
        all.webgrip, all.total,
        "webgrip's parse failed cases (HTML5LIB_VERBOSE=1 -- --nocapture shows them)"
    );
    assert_eq!(
        all.divergent, 0,
        "the lexer and html5ever's tokenizer differ"
    );
}

fn run_file(path: &Path, verbose: bool) -> Tally {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) => {
            println!("{name}: unreadable: {err}");
            return Tally::default();
        }
    };
    let mut tally = Tally::default();
    for case in parse_dat(&text) {
        // Scripting off: `#script-on` cases expect the other tree.
        if case.scripting == Some(true) {
            continue;
        }
        tally.total += 1;
        let (ours, reference, tokenizers_differ) = match &case.fragment {
            Some(context) => (
                run(&case.expected, || own_parse(&case.data, Some(context))),
                run(&case.expected, || {
                    Ok(serialize(&html5ever_fragment(&case.data, context)))
                }),
                false,
            ),
            None => {
                let ours = run(&case.expected, || Ok(own_dump(&parse_prepared(&case.data))));
                // The lexer against html5ever's tokenizer, both into the shipped builder.
                let other = run(&case.expected, || {
                    Ok(own_dump(&parse_with_html5ever(&case.data)))
                });
                let differ = match (&ours, &other) {
                    (Outcome::Pass, Outcome::Pass) => false,
                    (Outcome::Fail(a), Outcome::Fail(b)) => a != b,
                    _ => true,
                };
                (
                    ours,
                    run(&case.expected, || {
                        Ok(serialize(&html5ever_document(&case.data)))
                    }),
                    differ,
                )
            }
        };
        tally.webgrip += usize::from(ours.passed());
        tally.html5ever += usize::from(reference.passed());
        tally.unsupported += usize::from(matches!(ours, Outcome::Unsupported(_)));
        tally.panics += usize::from(matches!(ours, Outcome::Panic(_)))
            + usize::from(matches!(reference, Outcome::Panic(_)));
        let divergent = tokenizers_differ;
        tally.divergent += usize::from(divergent);
        let panicked = matches!(ours, Outcome::Panic(_)) || matches!(reference, Outcome::Panic(_));
        // Divergences and panics always: they are what the runner is for.
        if (verbose && !(ours.passed() && reference.passed())) || panicked || divergent {
            let mark = if divergent {
                " (the lexer and html5ever's tokenizer built different trees)"
            } else {
                ""
            };
            let context = case
                .fragment
                .as_deref()
                .map_or(String::new(), |c| format!(", fragment in <{c}>"));
            println!(
                "--- {name}:{}{context}{mark}\n#data\n{}",
                case.line, case.data
            );
            println!("#document (expected)\n{}", case.expected);
            show("webgrip", &ours);
            show("html5ever", &reference);
        }
    }
    let mut line = format!(
        "{name}: webgrip {}/{}, html5ever {}/{}",
        tally.webgrip, tally.total, tally.html5ever, tally.total
    );
    if tally.divergent > 0 {
        line += &format!(" ({} with different trees)", tally.divergent);
    }
    if tally.unsupported > 0 {
        line += &format!(
            " ({} fragment: not supported by webgrip's lexer path)",
            tally.unsupported
        );
    }
    println!("{line}");
    tally
}
