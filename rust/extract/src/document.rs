//! One parse, every requested view.

// The parse is webgrip-html's; named here beside the views built from it.
pub use webgrip_html::{parse, Html};
use webgrip_html::{parse_unstripped_within, parse_within};

use crate::budget::{Budget, Interrupted};

use crate::emit::{self, Flavor, FrameMarks};
use crate::frames::{self, Frame};
use crate::links::{self, Link};
use crate::metadata::{self, Metadata};
use crate::readable::Scorer as ReadableScorer;
use crate::scope::Scope;
use crate::tables::{self, Table};
use crate::tracking::TrackingRules;
use crate::{readable, streamed, urls};

/// Which views to build.
#[derive(Debug, Clone, Copy, Default)]
pub struct Modes {
    pub markdown: bool,
    pub text: bool,
    pub links: bool,
    pub tables: bool,
    pub metadata: bool,
}

impl Modes {
    /// Every view.
    pub const ALL: Modes = Modes {
        markdown: true,
        text: true,
        links: true,
        tables: true,
        metadata: true,
    };

    /// Parse a mode name; `None` if unknown.
    pub fn add(&mut self, name: &str) -> Option<()> {
        match name {
            "markdown" => self.markdown = true,
            "text" => self.text = true,
            "links" => self.links = true,
            "tables" => self.tables = true,
            "metadata" => self.metadata = true,
            _ => return None,
        }
        Some(())
    }
}

#[derive(Debug, Clone, Default)]
pub struct Extracted {
    pub markdown: Option<String>,
    pub text: Option<String>,
    pub links: Option<Vec<Link>>,
    pub tables: Option<Vec<Table>>,
    pub metadata: Option<Metadata>,
    /// With main content asked for (and a text or Markdown view), whether those views are
    /// narrowed to it: false when the selection was too short and the whole page says more.
    pub main_content: Option<bool>,
    /// With a frame marker asked for: the page's visible frames, in the order (and with the
    /// indexes) the text and Markdown views mark them (see `frames.rs`).
    pub frames: Option<Vec<Frame>>,
}

/// Below this many characters (trimmed), a main-content view gives way to the whole page's
/// view when that is longer: a selection that short is a miss (a shell, a stub), and the
/// whole page is the better answer.
pub const MIN_MAIN_CONTENT_CHARS: usize = 100;

/// What a caller may ask of [`extract`] beyond the views.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// Narrow text and Markdown to the readable main content.
    pub main_content: bool,
    /// Remove these tracking parameters from the URLs of the Markdown and links views.
    pub tracking: Option<&'a TrackingRules>,
    /// List the page's frames and mark each one's position in the text and Markdown views
    /// as `{marker}{index}{marker}` (a paragraph of its own), for the caller to fill in.
    /// Pick a marker no page can guess (a random one per call).
    pub frame_marker: Option<&'a str>,
    /// What judges the readable selection after the rules chose it: the learned block scorer
    /// (`ReadableScorer::Model`, the default), or nothing (`ReadableScorer::Rules`). Read only
    /// with `main_content`.
    pub readable: ReadableScorer<'a>,
}

/// Parse `html` once and build the views in `modes`, within `budget`. With
/// `options.main_content`, text and Markdown are narrowed to the readable selection; links,
/// tables and metadata always cover the whole page.
///
/// Parsing and every view stop once `budget` is spent, and the result is then an error rather
/// than a page cut at an arbitrary point (a truncated page passed off as whole would mislead
/// the reader more than a clear timeout). With [`Budget::unlimited`] it is always `Ok`.
pub fn extract(
    html: &str,
    url: Option<&str>,
    modes: Modes,
    options: Options<'_>,
    budget: &Budget,
) -> Result<Extracted, Interrupted> {
    budget.enter(|| {
        // A page streamed by React keeps its instructions in script and comment text,
        // which the stripping parse empties: parsed unstripped (the same tree otherwise,
        // under the same budget), then finished as its scripts would finish it.
        // What it placed goes on to the readable selection (see `readable::select_placed`).
        let (doc, placed) = if streamed::marked(html) {
            let mut doc = parse_unstripped_within(html, budget)?;
            let placed = streamed::finish(&mut doc).placed;
            (doc, placed)
        } else {
            (parse_within(html, budget)?, Vec::new())
        };
        budget.check()?;
        let out = extract_placed(&doc, url, modes, options, &placed);
        // Walks stop early once the budget is spent, so a view built past it is incomplete.
        budget.check()?;
        Ok(out)
    })
}

/// [`extract`]'s views over a tree already parsed, with no budget of its own (the caller's,
/// if it entered one, still stops the walks). For tests that build the tree another way
/// (`internals`); the API parses and extracts in one call.
pub fn extract_parsed(
    doc: &Html,
    url: Option<&str>,
    modes: Modes,
    options: Options<'_>,
) -> Extracted {
    extract_placed(doc, url, modes, options, &[])
}

/// [`extract_parsed`] of a tree the streaming pass finished, `placed` being what it placed.
fn extract_placed(
    doc: &Html,
    url: Option<&str>,
    modes: Modes,
    options: Options<'_>,
    placed: &[streamed::Placed],
) -> Extracted {
    let Options {
        main_content,
        tracking,
        frame_marker,
        readable,
    } = options;
    let base = urls::document_base(doc, url);
    let found = frame_marker.map(|_| frames::find(doc, base.as_ref(), tracking));
    let marks = match (frame_marker, found.as_ref()) {
        (Some(marker), Some((_, index))) => Some(FrameMarks { marker, index }),
        _ => None,
    };
    let asked = main_content && (modes.text || modes.markdown);
    // A tree past the readable outline's cap is shown whole (see `readable::selectable`).
    let narrowed = asked && readable::selectable(doc);
    let scope = if narrowed {
        readable::select_placed(doc, url, readable, placed)
    } else {
        Scope::whole()
    };
    // Between views, so a spent budget (see `extract`) skips the rest.
    let live = || !crate::budget::spent();
    let views = |scope: &Scope| {
        (
            (modes.markdown && live()).then(|| {
                emit::render_marked(doc, scope, Flavor::Markdown, base.as_ref(), tracking, marks)
            }),
            (modes.text && live())
                .then(|| emit::render_marked(doc, scope, Flavor::Text, None, None, marks)),
        )
    };
    let (mut markdown, mut text) = views(&scope);
    let mut main_content = narrowed;
    if narrowed {
        // Decided on this one parse: the Markdown when asked for, else the text.
        let shown = |md: &Option<String>, tx: &Option<String>| {
            md.as_deref()
                .or(tx.as_deref())
                .map_or(0, |v| v.trim().chars().count())
        };
        let selected = shown(&markdown, &text);
        if selected < MIN_MAIN_CONTENT_CHARS {
            let (whole_md, whole_text) = views(&Scope::whole());
            if shown(&whole_md, &whole_text) > selected {
                (markdown, text, main_content) = (whole_md, whole_text, false);
            }
        }
    }
    Extracted {
        markdown,
        text,
        links: (modes.links && live()).then(|| links::extract_with(doc, base.as_ref(), tracking)),
        tables: (modes.tables && live()).then(|| tables::extract(doc)),
        metadata: (modes.metadata && live()).then(|| metadata::extract(doc, base.as_ref())),
        main_content: asked.then_some(main_content),
        frames: found.map(|(list, _)| list),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use webgrip_html::{Limits, MAX_ATTRS, MAX_OPEN};

    fn repeat(unit: &str, times: usize) -> String {
        format!("<html><body>{}</body></html>", unit.repeat(times))
    }

    fn max_depth(doc: &Html) -> usize {
        doc.tree
            .all_nodes()
            .map(|n| n.ancestors().count())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn misnested_formatting_keeps_the_tree_shallow_and_the_text_whole() {
        for unit in ["<b><div>x</b>", "<b><i><u><s>x</b>", "<a href=#><div>x</a>"] {
            let html = repeat(unit, 20_000);
            let doc = parse(&html);
            // Nested without the cap: 20,000+ levels.
            assert!(max_depth(&doc) < 2 * MAX_OPEN, "{unit}");
            let text = crate::text::render(&doc, &Scope::whole());
            assert_eq!(text.matches('x').count(), 20_000, "{unit}");
        }
    }

    #[test]
    fn dense_markup_cannot_multiply_the_nodes() {
        // Dense markup: six nodes per ten bytes without the cap.
        let html = repeat("<p><b><p>x", 200_000);
        let doc = parse(&html);
        let nodes = doc.tree.len();
        let cap = Limits::for_input(html.len()).flat_after;
        // A probe every few start tags lets a few more through.
        assert!(nodes <= cap + 1024, "{nodes} nodes, cap {cap}");
        let text = crate::text::render(&doc, &Scope::whole());
        assert_eq!(text.matches('x').count(), 200_000);
    }

    /// The first element named `name` and its attribute count.
    fn attrs_of(doc: &Html, name: &str) -> usize {
        let dom = &doc.tree;
        (0..dom.nodes.len() as u32)
            .find(|&n| dom.is_html(n, name))
            .map_or(0, |n| dom.attrs(n).len())
    }

    /// Issue 45, F1: each repeated `<body>`/`<html>` adding one attribute to the first. The
    /// builder ran uncapped behind the lexer, and each merge wrote the merged set anew: a
    /// 386 KiB page aborted the process. Now the merged sets stop at the cap, whether the
    /// attributes are read (`id`-like names kept while stripping) or not (a page that
    /// mentions a frameset is not stripped, so every attribute reaches the builder).
    #[test]
    fn repeated_body_and_html_tags_merge_within_the_cap() {
        let tags = |n: usize, name: &str| -> String {
            (0..n)
                .map(|i| format!("<body/{name}{}><html/{name}{}>", 2 * i, 2 * i + 1))
                .collect()
        };
        for html in [
            tags(20_000, "a"),
            format!("<!-- <frameset> -->{}", tags(20_000, "a")),
        ] {
            let doc = parse(&html);
            let body = attrs_of(&doc, "body");
            let root = attrs_of(&doc, "html");
            assert!(body <= MAX_ATTRS && root <= MAX_ATTRS, "{body} {root}");
            assert!(
                doc.tree.attrs.len() < 4 * 2 * MAX_ATTRS,
                "{}",
                doc.tree.attrs.len()
            );
        }
        // Not stripped: the attributes are there, up to the cap.
        let doc = parse(&format!("<!-- <frameset> -->{}", tags(20_000, "a")));
        assert_eq!(attrs_of(&doc, "body"), MAX_ATTRS);
        // Stripped: an attribute no view reads is left out, even right after a `/`.
        let doc = parse(&tags(20_000, "a"));
        assert_eq!(attrs_of(&doc, "body"), 0);
    }

    /// Issue 45, F5: one start tag with a million attributes. All were collected before the
    /// cap dropped the tag (+440-485 MiB for a 9.5 MiB page); now no more than the cap
    /// decides on are kept, and the tag is dropped as before, its text kept.
    #[test]
    fn a_tag_with_a_million_attributes_is_dropped() {
        let html = format!(
            "<p>before<div {}>inside</div><p>after",
            "a ".repeat(1_000_000)
        );
        let doc = parse(&html);
        assert_eq!(attrs_of(&doc, "div"), 0);
        let text = crate::text::render(&doc, &Scope::whole());
        assert!(text.contains("before") && text.contains("inside") && text.contains("after"));
        assert!(doc.tree.attrs.len() < 16, "{}", doc.tree.attrs.len());
    }

    #[test]
    fn a_tree_past_the_outline_cap_is_shown_whole() {
        const MAIN: Options = Options {
            main_content: true,
            tracking: None,
            frame_marker: None,
            readable: ReadableScorer::Rules,
        };
        let modes = Modes {
            text: true,
            ..Modes::default()
        };
        // An article and a long tail of navigation: selected while the tree is small...
        let article = format!(
            "<nav>menu</nav><article><h1>T</h1><p>{}</p></article>",
            "Real words in a real sentence. ".repeat(40)
        );
        let small = format!(
            "<html><body>{article}{}</body></html>",
            "<a href=/x>n</a> ".repeat(10)
        );
        let out = extract(&small, None, modes, MAIN, &Budget::unlimited()).unwrap();
        assert_eq!(out.main_content, Some(true));
        assert!(!out.text.unwrap().contains("menu"));
        // ...whole past the cap (each `<a>` with its text is two nodes), and said so.
        let links = (readable::MAX_OUTLINE_NODES / 2) + 1000;
        let big = format!(
            "<html><body>{article}{}</body></html>",
            "<a>n</a>".repeat(links)
        );
        let doc = parse(&big);
        assert!(!readable::selectable(&doc));
        let out = extract(&big, None, modes, MAIN, &Budget::unlimited()).unwrap();
        assert_eq!(out.main_content, Some(false));
        assert!(out.text.unwrap().starts_with("menu"));
    }

    #[test]
    fn a_spent_budget_stops_the_parse() {
        const MAIN: Options = Options {
            main_content: true,
            tracking: None,
            frame_marker: None,
            readable: ReadableScorer::Rules,
        };
        let html = repeat("<p>x</p>", 100_000);
        let past = Budget {
            deadline: Some(std::time::Instant::now()),
            cancel: None,
        };
        assert_eq!(
            extract(&html, None, Modes::ALL, MAIN, &past).err(),
            Some(Interrupted::Deadline)
        );
        let out = extract(&html, None, Modes::ALL, MAIN, &Budget::unlimited());
        assert_eq!(
            out.map(|o| o.text.unwrap().matches('x').count()),
            Ok(100_000)
        );
    }
}
