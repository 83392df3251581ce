//! The readable (main-content) rule cases in `tests/readable/`: each `<case>.html` runs
//! through [`webgrip_extract::extract`] with `main_content`, and the views named in
//! `<case>.expect` must hold its `+` phrases and none of its `-` phrases (format:
//! `tests/readable/README.md`). `tests/extract/test_readable_cases.py` runs the same cases through
//! the Python API.
//!
//! Every case runs and every failure is listed, so one broken rule shows all it breaks.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use webgrip_extract::{extract, Budget, Modes, Options, ReadableScorer};

/// One `.expect` file.
struct Expect {
    url: Option<String>,
    markdown: bool,
    text: bool,
    /// `(must_appear, phrase)` in file order.
    phrases: Vec<(bool, String)>,
    /// `(times, phrase)`: the phrase appears exactly that many times.
    counts: Vec<(usize, String)>,
}

fn parse_expect(source: &str) -> Result<Expect, String> {
    let mut url = None;
    let mut view = None;
    let mut phrases = Vec::new();
    let mut counts = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let at = n + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(value) = line.strip_prefix("url: ") {
            if url.replace(value.to_owned()).is_some() {
                return Err(format!("line {at}: second url"));
            }
        } else if let Some(value) = line.strip_prefix("view: ") {
            if view.replace(value.to_owned()).is_some() {
                return Err(format!("line {at}: second view"));
            }
        } else if let Some((sign, phrase)) = line
            .strip_prefix("+ ")
            .map(|p| (true, p))
            .or_else(|| line.strip_prefix("- ").map(|p| (false, p)))
        {
            // Edges an editor may trim would silently change what the phrase matches.
            if phrase.is_empty() || phrase.trim() != phrase {
                return Err(format!(
                    "line {at}: a phrase is non-empty, with no space at either end"
                ));
            }
            phrases.push((sign, phrase.to_owned()));
        } else if let Some((times, phrase)) = line
            .strip_prefix('+')
            .and_then(|rest| rest.split_once(' '))
            .and_then(|(n, p)| Some((n.parse::<usize>().ok()?, p)))
        {
            if phrase.is_empty() || phrase.trim() != phrase || times == 0 {
                return Err(format!(
                    "line {at}: +N needs N of 1 or more and a phrase with no space at either end"
                ));
            }
            counts.push((times, phrase.to_owned()));
        } else {
            return Err(format!(
                "line {at}: not a comment, header or phrase: {line:?}"
            ));
        }
    }
    let (markdown, text) = match view.as_deref().unwrap_or("text") {
        "text" => (false, true),
        "markdown" => (true, false),
        "both" => (true, true),
        other => return Err(format!("view {other:?}: expected text, markdown or both")),
    };
    if phrases.is_empty() && counts.is_empty() {
        return Err("no phrase to check".to_owned());
    }
    Ok(Expect {
        url,
        markdown,
        text,
        phrases,
        counts,
    })
}

/// Every way `case` fails with `scorer` judging the rules' blocks, or nothing when it holds.
fn run_case(html: &str, expect: &Expect, scorer: ReadableScorer<'_>) -> Vec<String> {
    let mut failures = Vec::new();
    let modes = Modes {
        markdown: expect.markdown,
        text: expect.text,
        ..Modes::default()
    };
    let options = Options {
        main_content: true,
        readable: scorer,
        ..Options::default()
    };
    let url = expect.url.as_deref();
    let out = extract(html, url, modes, options, &Budget::unlimited()).expect("no deadline");
    let views = [("markdown", out.markdown), ("text", out.text)];
    for (name, view) in views.iter().filter_map(|(n, v)| Some((n, v.as_ref()?))) {
        for (must_appear, phrase) in &expect.phrases {
            if view.contains(phrase.as_str()) != *must_appear {
                let verb = if *must_appear { "lacks" } else { "holds" };
                failures.push(format!("{name} view {verb} {phrase:?}"));
            }
        }
        for (times, phrase) in &expect.counts {
            let found = view.matches(phrase.as_str()).count();
            if found != *times {
                failures.push(format!(
                    "{name} view holds {phrase:?} {found} times, not {times}"
                ));
            }
        }
    }
    for (must_appear, phrase) in &expect.phrases {
        // A phrase the page does not even hold can never appear: that check could not fail.
        if !must_appear && !html.contains(phrase.as_str()) {
            failures.push(format!(
                "- {phrase:?} is not in the page, so it cannot fail"
            ));
        }
    }
    failures
}

fn case_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/readable exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// The cases hold for the rules alone (the default) ...
#[test]
fn readable_cases_rules_alone() {
    check_cases(ReadableScorer::Rules);
}

/// ... and with the learned block scorer after them (`readable_model=True`).
#[test]
fn readable_cases_with_the_block_scorer() {
    check_cases(ReadableScorer::Model);
}

fn check_cases(scorer: ReadableScorer<'_>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/readable");
    let expects = case_files(&dir, "expect");
    let mut report = String::new();
    let mut failed = 0;
    for html_path in case_files(&dir, "html") {
        if !html_path.with_extension("expect").exists() {
            failed += 1;
            let name = html_path.file_name().unwrap().to_string_lossy();
            let _ = writeln!(report, "{name}: no .expect beside it");
        }
    }
    for path in &expects {
        let case = path.file_stem().unwrap().to_string_lossy();
        let html = std::fs::read_to_string(path.with_extension("html"));
        let expect = std::fs::read_to_string(path).map_err(|e| e.to_string());
        let failures = match (html, expect.and_then(|s| parse_expect(&s))) {
            (Ok(html), Ok(expect)) => run_case(&html, &expect, scorer),
            (Err(e), _) => vec![format!("reading the .html: {e}")],
            (_, Err(e)) => vec![format!("in the .expect, {e}")],
        };
        if !failures.is_empty() {
            failed += 1;
            let _ = writeln!(report, "{case}:");
            for f in failures {
                let _ = writeln!(report, "    {f}");
            }
        }
    }
    assert!(
        failed == 0,
        "{failed} failures among {} readable cases ({scorer:?}):\n{report}",
        expects.len()
    );
    assert!(!expects.is_empty(), "no cases in {}", dir.display());
}
