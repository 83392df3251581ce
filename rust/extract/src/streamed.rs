//! React streaming server rendering, finished the way the page's own scripts would finish it.
//!
//! A page rendered with React 18/19 streaming (Next.js' app router, GitBook, many shops)
//! sends each unfinished Suspense boundary's fallback in place,
//! `<!--$?--><template id="B:0"></template>…fallback…<!--/$-->`, and the real content later
//! in the body as a hidden segment, `<div hidden id="S:0">…</div>`, followed by an
//! instruction: `$RC("B:0","S:0")` in an inline script (complete the boundary: its fallback
//! is replaced by the segment's children), or `$RS("S:1","P:1")` (the segment's children
//! take the place of the placeholder `<template id="P:1">`). React 19 may send the same
//! instructions as data instead, `<template data-rci data-bid="B:0" data-sid="S:0">` and
//! `<template data-rsi data-sid="S:1" data-pid="P:1">`. A browser runs them and the
//! content moves into place; webgrip runs no scripts, so without this pass the content
//! stays in the hidden segment, which every view drops (a GitBook page's code blocks, an
//! article's later sections).
//!
//! [`finish`] performs those moves on the parsed tree before any view reads it, and nothing
//! else: each instruction is read by a fixed-shape scan (no regex), applied in document
//! order only when every id it names is on exactly one element still in the document, and
//! skipped otherwise; no other hidden content is touched. The emptied segment and the
//! fallback leave the tree, as they leave the browser's document. A segment no instruction
//! places stays where it is, hidden; the readable selection still reads such segments as
//! shown unless they are link-dense (`readable/outline.rs`), and judges the content the
//! pass placed by the same test ([`Finished::placed`], `readable::select_placed`): a late
//! menu or recommendation rail arrives by the same channel as a late article section.
//!
//! Cost: pages without a pending boundary ([`marked`], one `memchr` over the raw bytes) are
//! parsed and read exactly as before. A marked page is parsed without stripping
//! (the instructions live in script text and comment text the stripping parse empties,
//! see `document.rs`) and read in one walk. The moves are linear in the page: at most
//! [`MAX_INSTRUCTIONS`] are read, and all of them together may take at most
//! [`work_allowed`] steps (sibling scans, ancestor checks, moved nodes) before the rest are
//! skipped, so a hostile page cannot make them quadratic (a chain of segments each moving
//! the previous one's children, or many boundaries sharing one long sibling list).

use std::collections::HashMap;

use memchr::memmem;
use webgrip_html::Dom;

use crate::tree::{Html, Kind, NodeId, Ns};

/// At most this many instructions are read from a page; the rest are ignored. The busiest
/// streamed page of the corpus sends 59.
pub const MAX_INSTRUCTIONS: usize = 10_000;

/// The longest id an instruction may name (React's are a letter, a colon and a few digits,
/// after an optional prefix).
const MAX_ID_BYTES: usize = 64;

/// Whether `html` holds a boundary still waiting for its content (`<!--$?-->`): only then
/// can an instruction change what a view shows ([`finish`] is worth running). Every `$RC`
/// completes such a boundary, and every `$RS` fills a placeholder inside a segment that
/// only a `$RC` brings out of hiding. One `memchr` for `$` (rare in most pages, and each
/// one checked in constant time): a pass over the raw bytes far cheaper than the parse.
pub fn marked(html: &str) -> bool {
    let b = html.as_bytes();
    memchr::memchr_iter(b'$', b)
        .any(|at| b[..at].ends_with(b"<!--") && b[at..].starts_with(b"$?-->"))
}

/// One instruction, by the node ids its element ids resolved to.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// `$RC(boundary, segment)`: the boundary's fallback replaced by the segment's children.
    Complete { boundary: NodeId, segment: NodeId },
    /// `$RS(segment, placeholder)`: the placeholder replaced by the segment's children.
    Place {
        segment: NodeId,
        placeholder: NodeId,
    },
}

/// An instruction as read, by the element ids it names.
enum Named<'a> {
    Complete(&'a str, &'a str),
    Place(&'a str, &'a str),
}

/// What [`finish`] did: the content it placed (for the readable selection, which still
/// judges what arrived by streaming, see `readable::select_placed`), and its counts, for
/// the tests.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Instructions read from the page (at most [`MAX_INSTRUCTIONS`]).
    pub read: usize,
    /// Instructions applied.
    pub applied: usize,
    /// Steps spent (see [`work_allowed`]).
    pub work: usize,
    /// Each applied instruction's moved children, in the order applied (none for an empty
    /// segment). Their total length is the number of moves, within the work allowed.
    pub placed: Vec<Placed>,
}

/// The children one instruction moved out of a segment: `count` siblings from `first`, in
/// place when it was applied (a later instruction moves a run placed inside its own
/// segment along with it, whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub first: NodeId,
    pub count: u32,
}

/// The steps all of a page's moves may take: a few per node of the tree, far above what a
/// real page needs (each node moved or removed about once, each check a short ancestor
/// walk), and linear in the page whatever it sends.
pub fn work_allowed(nodes: usize) -> usize {
    4 * nodes + 4096
}

/// Apply the streaming instructions of `doc`, in document order (see the module comment).
pub fn finish(doc: &mut Html) -> Finished {
    let steps = read(&doc.tree);
    let mut done = Finished {
        read: steps.1,
        ..Finished::default()
    };
    let allowed = work_allowed(doc.tree.nodes.len());
    let mut left = allowed;
    for step in steps.0 {
        if left == 0 {
            break;
        }
        let placed = match step {
            Step::Complete { boundary, segment } => {
                complete(&mut doc.tree, boundary, segment, &mut left)
            }
            Step::Place {
                segment,
                placeholder,
            } => place(&mut doc.tree, segment, placeholder, &mut left),
        };
        if let Some(run) = placed {
            done.applied += 1;
            done.placed.extend(run);
        }
    }
    done.work = allowed - left;
    done
}

/// The page's instructions with their ids resolved (those naming an id no element or
/// several elements have are left out), and how many were read.
fn read(dom: &Dom) -> (Vec<Step>, usize) {
    let mut named = Vec::new();
    // Each id with its element and how many elements have it.
    let mut ids: HashMap<&str, (NodeId, u32)> = HashMap::new();
    for id in dom.descendants(0) {
        if dom.kind(id) != Kind::Element {
            continue;
        }
        if let Some(value) = dom.get_attr(id, "id") {
            ids.entry(value).or_insert((id, 0)).1 += 1;
        }
        if named.len() >= MAX_INSTRUCTIONS {
            continue;
        }
        if dom.is_html(id, "script") && dom.get_attr(id, "src").is_none() {
            for child in dom.children(id) {
                if dom.kind(child) == Kind::Text {
                    scan_script(dom.text(child), &mut named);
                }
            }
        } else if dom.is_html(id, "template") {
            let attr = |name| dom.get_attr(id, name);
            if attr("data-rci").is_some() {
                if let (Some(b), Some(s)) = (attr("data-bid"), attr("data-sid")) {
                    named.push(Named::Complete(b, s));
                }
            } else if attr("data-rsi").is_some() {
                if let (Some(s), Some(p)) = (attr("data-sid"), attr("data-pid")) {
                    named.push(Named::Place(s, p));
                }
            }
        }
    }
    named.truncate(MAX_INSTRUCTIONS);
    let count = named.len();
    let one = |name: &str| match ids.get(name) {
        Some(&(node, 1)) => Some(node),
        _ => None,
    };
    let steps = named
        .into_iter()
        .filter_map(|n| match n {
            Named::Complete(b, s) => Some(Step::Complete {
                boundary: one(b)?,
                segment: one(s)?,
            }),
            Named::Place(s, p) => Some(Step::Place {
                segment: one(s)?,
                placeholder: one(p)?,
            }),
        })
        .collect();
    (steps, count)
}

/// The instructions in a script's text: `$RC("a","b")` and `$RS("a","b")` calls, each at
/// the start of a statement (the text's start, or after `;`, `}` or white space), with two
/// string literals and nothing more. A `$RC` with a third argument (an error digest: the
/// boundary is left to client rendering, its fallback stays) is not one.
fn scan_script<'a>(text: &'a str, out: &mut Vec<Named<'a>>) {
    let b = text.as_bytes();
    for at in memmem::find_iter(b, b"$R") {
        if out.len() >= MAX_INSTRUCTIONS {
            return;
        }
        let op = match b.get(at + 2..at + 4) {
            Some(b"C(") => b'C',
            Some(b"S(") => b'S',
            _ => continue,
        };
        if at > 0 && !matches!(b[at - 1], b';' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        let Some((first, rest)) = literal(&text[at + 4..]) else {
            continue;
        };
        let Some((second, rest)) = rest.strip_prefix(',').and_then(literal) else {
            continue;
        };
        if !rest.starts_with(')') {
            continue;
        }
        out.push(if op == b'C' {
            Named::Complete(first, second)
        } else {
            Named::Place(first, second)
        });
    }
}

/// A double-quoted string literal without escapes at the start of `s`, and what follows it.
fn literal(s: &str) -> Option<(&str, &str)> {
    let body = s.strip_prefix('"')?;
    let end = memchr::memchr2(b'"', b'\\', body.as_bytes())?;
    (end > 0 && end <= MAX_ID_BYTES && body.as_bytes()[end] == b'"')
        .then(|| (&body[..end], &body[end + 1..]))
}

/// No node (the arena's link value for none).
const NONE: u32 = u32::MAX;

/// Whether `id` is in the document (its ancestors reach the document node) and not inside
/// `outside` (moving `outside`'s children next to it would make a cycle). `None` once the
/// work allowed is spent.
fn in_document(dom: &Dom, id: NodeId, outside: NodeId, left: &mut usize) -> Option<bool> {
    let mut at = id;
    loop {
        *left = left.checked_sub(1)?;
        if at == outside {
            return Some(false);
        }
        let parent = dom.nodes[at as usize].parent;
        if parent == NONE {
            return Some(at == 0);
        }
        at = parent;
    }
}

fn is_html_element(dom: &Dom, id: NodeId, name: &str) -> bool {
    dom.kind(id) == Kind::Element && dom.element_name(id) == Some((Ns::Html, name))
}

/// `$RC`: the comment `$?` before the boundary's template opens the fallback, which runs to
/// its matching `/$` comment among the following siblings (boundaries nested in it open
/// with `$`, `$?` or `$!`); the template and the fallback leave the tree, the segment's
/// children go where they were, and the emptied segment leaves too. `None` when not
/// applied, else what moved.
fn complete(
    dom: &mut Dom,
    boundary: NodeId,
    segment: NodeId,
    left: &mut usize,
) -> Option<Option<Placed>> {
    if !is_html_element(dom, boundary, "template") || dom.kind(segment) != Kind::Element {
        return None;
    }
    let open = dom.prev_sibling(boundary)?;
    if dom.kind(open) != Kind::Comment || dom.text(open) != "$?" {
        return None;
    }
    let placed = in_document(dom, boundary, segment, left) == Some(true)
        && in_document(dom, segment, NONE, left) == Some(true);
    if !placed {
        return None;
    }
    // The fallback's end, found before anything moves: without one the page is left as is.
    let mut depth = 0u32;
    let mut end = None;
    let mut at = dom.next_sibling(open);
    while let Some(node) = at {
        *left = left.checked_sub(1)?;
        if dom.kind(node) == Kind::Comment {
            match dom.text(node) {
                "/$" if depth == 0 => {
                    end = Some(node);
                    break;
                }
                "/$" => depth -= 1,
                "$" | "$?" | "$!" => depth += 1,
                _ => {}
            }
        }
        at = dom.next_sibling(node);
    }
    let (end, parent) = (end?, dom.parent(open)?);
    dom.detach(segment);
    while let Some(node) = dom.next_sibling(open).filter(|&n| n != end) {
        dom.detach(node);
    }
    Some(move_before(dom, segment, parent, end, left))
}

/// `$RS`: the segment's children take the placeholder's place; the placeholder and the
/// emptied segment leave the tree. `None` when not applied, else what moved.
fn place(
    dom: &mut Dom,
    segment: NodeId,
    placeholder: NodeId,
    left: &mut usize,
) -> Option<Option<Placed>> {
    if !is_html_element(dom, placeholder, "template") || dom.kind(segment) != Kind::Element {
        return None;
    }
    let placed = in_document(dom, placeholder, segment, left) == Some(true)
        && in_document(dom, segment, NONE, left) == Some(true);
    let parent = dom.parent(placeholder).filter(|_| placed)?;
    dom.detach(segment);
    let run = move_before(dom, segment, parent, placeholder, left);
    dom.detach(placeholder);
    Some(run)
}

/// Move every child of `from` before `before` (a child of `parent`), each costing a step,
/// and say which moved (`None` if none). The move finishes even past the work allowed (an
/// instruction is applied whole or not at all); [`finish`] then stops.
fn move_before(
    dom: &mut Dom,
    from: NodeId,
    parent: NodeId,
    before: NodeId,
    left: &mut usize,
) -> Option<Placed> {
    let first = dom.first_child(from)?;
    let mut count = 0u32;
    while let Some(child) = dom.first_child(from) {
        dom.insert_before(parent, child, before);
        *left = left.saturating_sub(1);
        count += 1;
    }
    Some(Placed { first, count })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{extract, Budget, Modes, Options};

    /// The whole-page text view of `body`, as the API builds it.
    fn text(body: &str) -> String {
        let html =
            format!("<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>");
        let modes = Modes {
            text: true,
            ..Modes::default()
        };
        let out = extract(&html, None, modes, Options::default(), &Budget::unlimited());
        out.unwrap().text.unwrap_or_default().trim().to_string()
    }

    const DEFINE: &str =
        "<script>$RC=function(b,c,e){/* React's own */};$RS=function(a,b){}</script>";

    #[test]
    fn a_completed_boundary_shows_its_content_in_place_of_the_fallback() {
        let page = format!(
            "<p>Before.</p><!--$?--><template id=\"B:0\"></template><div>Loading <!-- -->paragraph<!-- -->...</div><!--/$--><p>After.</p>\
             {DEFINE}<div hidden id=\"S:0\"><p>The streamed paragraph.</p></div><script>$RC(\"B:0\",\"S:0\")</script>"
        );
        let t = text(&page);
        assert_eq!(t, "Before.\n\nThe streamed paragraph.\n\nAfter.", "{t:?}");
    }

    #[test]
    fn a_segment_takes_its_placeholders_place_inside_another_segment() {
        let page = format!(
            "<!--$?--><template id=\"B:0\"></template><p>Loading...</p><!--/$--><p>End.</p>{DEFINE}\
             <div hidden id=\"S:0\"><p>First part.</p><template id=\"P:1\"></template><p>Third part.</p></div>\
             <div hidden id=\"S:1\"><p>Second part.</p></div><script>$RS(\"S:1\",\"P:1\")</script>\
             <script>$RC(\"B:0\",\"S:0\")</script>"
        );
        let t = text(&page);
        assert_eq!(
            t, "First part.\n\nSecond part.\n\nThird part.\n\nEnd.",
            "{t:?}"
        );
    }

    #[test]
    fn a_fallback_holding_nested_boundaries_is_removed_to_its_own_end() {
        let page = format!(
            "<section><!--$?--><template id=\"B:0\"></template><div>Outer skeleton</div>\
             <!--$--><p>Inner done</p><!--/$--><!--$!--><p>Inner failed</p><!--/$-->\
             <!--$?--><template id=\"B:1\"></template><p>Inner loading</p><!--/$--><!--/$-->\
             <p>Kept after.</p></section>{DEFINE}\
             <div hidden id=\"S:0\"><p>Outer content.</p><!--$?--><template id=\"B:2\"></template><p>Nested loading</p><!--/$--></div>\
             <script>$RC(\"B:0\",\"S:0\")</script>\
             <div hidden id=\"S:2\"><p>Nested content.</p></div><script>$RC(\"B:2\",\"S:2\")</script>"
        );
        let t = text(&page);
        assert_eq!(
            t, "Outer content.\n\nNested content.\n\nKept after.",
            "{t:?}"
        );
    }

    #[test]
    fn react_19_instruction_templates_are_applied_too() {
        let page = "<!--$?--><template id=\"B:0\"></template><p>Loading</p><!--/$-->\
             <div hidden id=\"S:0\"><p>Content.</p><template id=\"P:1\"></template></div>\
             <div hidden id=\"S:1\"><p>More.</p></div>\
             <template data-rsi=\"\" data-sid=\"S:1\" data-pid=\"P:1\"></template>\
             <template data-rci=\"\" data-bid=\"B:0\" data-sid=\"S:0\"></template>";
        assert_eq!(text(page), "Content.\n\nMore.");
    }

    /// Everything the page does not ask for, or asks for with ids that do not resolve to
    /// one element each, stays as it was: the fallback shown, the segments hidden.
    #[test]
    fn an_instruction_that_does_not_resolve_changes_nothing() {
        let boundary = "<!--$?--><template id=\"B:0\"></template><p>Loading</p><!--/$-->";
        let segment = "<div hidden id=\"S:0\"><p>Streamed.</p></div>";
        for (case, page) in [
            ("missing boundary", format!("{boundary}{segment}<script>$RC(\"B:9\",\"S:0\")</script>")),
            ("missing segment", format!("{boundary}{segment}<script>$RC(\"B:0\",\"S:9\")</script>")),
            (
                "repeated segment id",
                format!("{boundary}{segment}<div id=\"S:0\">Other.</div><script>$RC(\"B:0\",\"S:0\")</script>"),
            ),
            ("error digest", format!("{boundary}{segment}<script>$RC(\"B:0\",\"S:0\",\"d1\")</script>")),
            ("not a statement", format!("{boundary}{segment}<script>x$RC(\"B:0\",\"S:0\")</script>")),
            ("page text", format!("{boundary}{segment}<p>Call $RC(\"B:0\",\"S:0\") to finish.</p>")),
            (
                "no fallback end",
                format!("<!--$?--><template id=\"B:0\"></template><p>Loading</p>{segment}<script>$RC(\"B:0\",\"S:0\")</script>"),
            ),
            (
                "placeholder inside its own segment",
                format!(
                    "{boundary}<div hidden id=\"S:0\"><p>Streamed.</p><template id=\"P:0\"></template></div>\
                     <script>$RS(\"S:0\",\"P:0\")</script>"
                ),
            ),
        ] {
            let t = text(&page);
            assert!(t.contains("Loading") && !t.contains("Streamed."), "{case}: {t:?}");
        }
    }

    #[test]
    fn other_hidden_content_stays_hidden() {
        let page = "<!--$?--><template id=\"B:0\"></template><p>Loading</p><!--/$-->\
             <div hidden id=\"S:0\"><p>Streamed.</p></div><div hidden id=\"S:1\"><p>Secret.</p></div>\
             <script>$RC(\"B:0\",\"S:0\")</script>";
        assert_eq!(text(page), "Streamed.");
    }

    #[test]
    fn only_pages_with_a_pending_boundary_are_marked() {
        assert!(marked("<!--$?--><template id=\"B:0\"></template>"));
        assert!(marked("<p>$</p><!--$?-->"));
        assert!(!marked(
            "<script>$RC(\"B:0\",\"S:0\")</script><!--$--><!--/$-->"
        ));
        assert!(!marked("$?--><!--"));
        assert!(!marked("<!--$?->"));
    }

    /// Each applied instruction's moved children, as placed: a nested segment's run sits
    /// inside the run of the segment that carried it into place.
    #[test]
    fn the_placed_runs_are_told_to_the_readable_selection() {
        let html = "<body><!--$?--><template id=\"B:0\"></template><p>Loading</p><!--/$-->\
             <div hidden id=\"S:0\"><p>One.</p><template id=\"P:1\"></template><p>Two.</p><template id=\"P:9\"></template></div>\
             <div hidden id=\"S:1\"><b>x</b><i>y</i></div><div hidden id=\"S:2\"></div>\
             <script>$RS(\"S:1\",\"P:1\");$RS(\"S:2\",\"P:9\");$RC(\"B:0\",\"S:0\")</script>";
        let mut doc = webgrip_html::parse_unstripped(html);
        let done = finish(&mut doc);
        let dom = &doc.tree;
        let names = |p: &Placed| {
            let mut at = Some(p.first);
            let mut names = Vec::new();
            for _ in 0..p.count {
                let node = at.unwrap();
                names.push(dom.element_name(node).map(|(_, n)| n.to_string()));
                at = dom.next_sibling(node);
            }
            names
        };
        let got: Vec<_> = done.placed.iter().map(names).collect();
        let el = |n: &str| Some(n.to_string());
        assert_eq!(
            got,
            [
                vec![el("b"), el("i")],
                vec![el("p"), el("b"), el("i"), el("p")]
            ],
            "{done:?}"
        );
        // The empty segment S:2 was applied (its placeholder left) but moved nothing.
        assert_eq!(done.applied, 3);
    }

    fn finished(html: &str) -> (Finished, usize) {
        let mut doc = webgrip_html::parse_unstripped(html);
        let nodes = doc.tree.nodes.len();
        (finish(&mut doc), nodes)
    }

    /// 100,000 instructions whose naive application is quadratic: every boundary scans one
    /// shared sibling list for a fallback end that never comes, and a chain of segments
    /// each moves all the children the previous one moved into it. The instructions read
    /// stop at the cap and the work at its linear bound.
    #[test]
    fn a_hostile_page_of_instructions_stays_linear() {
        const N: usize = 100_000;
        let mut open_ended = String::new();
        for i in 0..N {
            open_ended.push_str(&format!(
                "<!--$?--><template id=\"B:{i}\"></template><i>x</i>"
            ));
        }
        open_ended.push_str("<div hidden id=\"S:0\">y</div><script>");
        for i in 0..N {
            open_ended.push_str(&format!("$RC(\"B:{i}\",\"S:0\");"));
        }
        open_ended.push_str("</script>");
        let (done, nodes) = finished(&open_ended);
        assert_eq!((done.read, done.applied), (MAX_INSTRUCTIONS, 0));
        assert!(done.work <= work_allowed(nodes), "{done:?} {nodes}");

        // Segment k holds the placeholder P:k-1 and is moved into P:k by the next step, so
        // the many children of S:0 would move once per link of the chain.
        let mut chain = String::from("<template id=\"P:0\"></template><div hidden id=\"S:0\">");
        chain.push_str(&"<b>c</b>".repeat(N));
        chain.push_str("</div>");
        let links = N / 10;
        for k in 1..links {
            chain.push_str(&format!(
                "<div hidden id=\"S:{k}\"><template id=\"P:{}\"></template></div>",
                k - 1
            ));
        }
        chain.push_str("<script>");
        for k in 0..links - 1 {
            chain.push_str(&format!("$RS(\"S:{k}\",\"P:{}\");", k + 1));
        }
        chain.push_str("</script>");
        let (done, nodes) = finished(&chain);
        // Stopped at the allowance, a few links in.
        assert!(done.applied > 0 && done.applied < links / 100, "{done:?}");
        // Past the allowance by at most the one instruction that crossed it.
        assert!(done.work <= work_allowed(nodes) + nodes, "{done:?} {nodes}");
    }
}
