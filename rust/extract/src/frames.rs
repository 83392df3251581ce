//! The frames of a page: every visible `<iframe>` and `<frame>` in document order, so the
//! caller can fetch the documents they show and put them where they stood.
//!
//! Found only when asked for (a frame marker in [`crate::Options`]): then the text and
//! Markdown views hold `{marker}{index}{marker}` as a paragraph at each frame's position,
//! `index` being the frame's place in [`find`]'s list. Frames inside hidden or never-shown
//! subtrees (`<noscript>`, `display:none`, `hidden`, …) are left out, as the views leave
//! them out: those are tracking pixels and fallbacks, not content.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::tree::{Html, Kind, Node};
use crate::tree::{NodeId, NodeRef};
use url::Url;

use crate::element_facts::{self, attr};
use crate::scope::NodeIdHasher;
use crate::tracking::TrackingRules;
use crate::urls;
use crate::walk::{walk, Visitor};

/// Frames listed at most; the rest of a page of thousands of iframes is not even marked (the
/// caller fetches only a handful and lists a few more as links anyway).
pub const MAX_FRAMES: usize = 256;

/// One frame element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// `iframe` or `frame`.
    pub tag: &'static str,
    /// `src` resolved against the document's base; `None` when absent, empty or a
    /// `javascript:`/`data:` reference (those make no request worth making).
    pub src: Option<String>,
    /// The `srcdoc` attribute (an iframe's inline document), as written.
    pub srcdoc: Option<String>,
    pub title: Option<String>,
    pub name: Option<String>,
    pub width: Option<String>,
    pub height: Option<String>,
}

/// Frame element ids to their index in [`find`]'s list (what the emitter marks).
pub type FrameIndex = HashMap<NodeId, usize, BuildHasherDefault<NodeIdHasher>>;

/// The visible frames of `doc` in document order (at most [`MAX_FRAMES`]), with the index
/// the emitter looks them up in; `src` loses the tracking parameters `tracking` names, as
/// links do.
pub fn find(
    doc: &Html,
    base: Option<&Url>,
    tracking: Option<&TrackingRules>,
) -> (Vec<Frame>, FrameIndex) {
    let Some(holds_frame) = frame_paths(doc) else {
        return (Vec::new(), FrameIndex::default());
    };
    let mut finder = Finder {
        urls: urls::Resolver::with_tracking(base, tracking),
        frames: Vec::new(),
        index: FrameIndex::default(),
        holds_frame,
    };
    walk(doc.tree.root(), &mut finder);
    (finder.frames, finder.index)
}

/// By node id, whether the node is an element named as a frame or holds one below it
/// (detached ones too, any namespace); `None` when the page has no such element. A flat pass
/// over the node array finds them, and each one's ancestors are marked up to the first one
/// already marked (so no node is marked twice: linear in the page). The ordered walk that
/// lists the frames then goes only into marked nodes: most pages hold no frame and skip it
/// (it was about 4% of a whole-page fetch's instructions), and on a page with frames it
/// passes over the subtrees that hold none, nearly all of the page.
fn frame_paths(doc: &Html) -> Option<Vec<bool>> {
    let dom = &doc.tree;
    let ids = [dom.name_id("iframe"), dom.name_id("frame")];
    let [Some(iframe), Some(frame)] = ids else {
        // Not interned (never the case for these known names): let the walk decide.
        return Some(vec![true; dom.nodes.len()]);
    };
    let mut marked = vec![false; dom.nodes.len()];
    let mut any = false;
    for (id, n) in dom.nodes.iter().enumerate() {
        if n.kind != Kind::Element || (n.name != iframe && n.name != frame) {
            continue;
        }
        any = true;
        // The root's parent is none (`u32::MAX`, past the array): the climb ends there.
        let mut at = id;
        while let Some(slot) = marked.get_mut(at).filter(|m| !**m) {
            *slot = true;
            match dom.nodes.get(at) {
                Some(node) => at = node.parent as usize,
                None => break,
            }
        }
    }
    any.then_some(marked)
}

/// Whether an element is a frame (the emitter asks before its drop test: an iframe is an
/// invisible tag there).
#[inline]
pub fn is_frame_tag(name: &str) -> bool {
    matches!(name, "iframe" | "frame")
}

struct Finder<'b> {
    urls: urls::Resolver<'b>,
    frames: Vec<Frame>,
    index: FrameIndex,
    /// From [`frame_paths`]: a subtree whose root is not marked holds no frame.
    holds_frame: Vec<bool>,
}

impl<'a> Visitor<'a> for Finder<'_> {
    fn open(&mut self, node: NodeRef<'a>) -> bool {
        if !self
            .holds_frame
            .get(node.id() as usize)
            .copied()
            .unwrap_or(true)
        {
            return false;
        }
        let el = match node.value() {
            Node::Element(el) => el,
            Node::Document | Node::Fragment => return true,
            _ => return false,
        };
        if self.frames.len() >= MAX_FRAMES {
            return false;
        }
        let name = el.name();
        if is_frame_tag(name) {
            if !el.has_attrs() || element_facts::is_hidden(el) {
                return false;
            }
            let tag = if name == "iframe" { "iframe" } else { "frame" };
            let text = |key: &str| {
                attr(el, key)
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(str::to_string)
            };
            let frame = Frame {
                tag,
                src: attr(el, "src").and_then(|s| self.urls.resolve(s)),
                srcdoc: attr(el, "srcdoc").map(str::to_string),
                title: text("title"),
                name: text("name"),
                width: text("width"),
                height: text("height"),
            };
            self.index.insert(node.id(), self.frames.len());
            self.frames.push(frame);
            return false;
        }
        !element_facts::is_dropped(el)
    }

    fn close(&mut self, _: NodeRef<'a>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(html: &str) -> Vec<Frame> {
        let doc = crate::parse(html);
        let base = Url::parse("https://example.com/docs/index.html").ok();
        find(&doc, base.as_ref(), None).0
    }

    #[test]
    fn iframes_in_order_resolved() {
        let got = frames(
            "<p>a<iframe src='one.html' title=' One '></iframe>\
             <iframe srcdoc='<p>x</p>' name=n></iframe>\
             <iframe src='javascript:alert(1)'></iframe>",
        );
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0].src.as_deref(),
            Some("https://example.com/docs/one.html")
        );
        assert_eq!(got[0].title.as_deref(), Some("One"));
        assert_eq!(got[1].srcdoc.as_deref(), Some("<p>x</p>"));
        assert_eq!(got[1].name.as_deref(), Some("n"));
        assert_eq!(got[2].src, None);
    }

    #[test]
    fn frameset_frames() {
        let got = frames(
            "<html><frameset cols='20%,*'><frame src='nav.html' name=nav>\
             <frame src='/content.html' name=main></frameset></html>",
        );
        let srcs: Vec<_> = got.iter().map(|f| f.src.as_deref()).collect();
        assert_eq!(
            srcs,
            [
                Some("https://example.com/docs/nav.html"),
                Some("https://example.com/content.html")
            ]
        );
        assert!(got.iter().all(|f| f.tag == "frame"));
    }

    #[test]
    fn hidden_frames_left_out() {
        let got = frames(
            // In the body: a `<noscript>` in the head cannot hold an iframe (the parser
            // closes it and the iframe goes to the body, as in browsers).
            "<p>x</p><noscript><iframe src='a.html'></iframe></noscript>\
             <div style='display:none'><iframe src='b.html'></iframe></div>\
             <iframe hidden src='c.html'></iframe><iframe></iframe>\
             <iframe src='d.html'></iframe>",
        );
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].src.as_deref(),
            Some("https://example.com/docs/d.html")
        );
    }

    #[test]
    fn marks_where_frames_stand_only_when_asked() {
        let html = "<p>before</p><iframe src=a.html></iframe><p>after</p>\
                    <noscript><iframe src=b.html></iframe></noscript>";
        let modes = crate::Modes {
            text: true,
            markdown: true,
            ..Default::default()
        };
        let marked = crate::Options {
            frame_marker: Some("@@"),
            ..Default::default()
        };
        let doc = crate::parse(html);
        let out = crate::document::extract_parsed(&doc, None, modes, marked);
        assert_eq!(out.text.as_deref(), Some("before\n\n@@0@@\n\nafter\n"));
        assert_eq!(out.markdown.as_deref(), Some("before\n\n@@0@@\n\nafter\n"));
        assert_eq!(out.frames.map(|f| f.len()), Some(1));
        let plain = crate::document::extract_parsed(&doc, None, modes, crate::Options::default());
        assert_eq!(plain.text.as_deref(), Some("before\n\nafter\n"));
        assert!(plain.frames.is_none());
    }

    #[test]
    fn capped() {
        let html = "<iframe src=x.html></iframe>".repeat(MAX_FRAMES + 50);
        assert_eq!(frames(&html).len(), MAX_FRAMES);
    }
}
