//! The caps that keep tree building linear on hostile input, applied to the tokens before
//! the insertion modes see them: the same rules as the tokenizer's guard
//! (`guard::Tracker`) and lexer, so that a page past the caps builds the tree the shipped
//! parse builds from it. The caps are the tokenizer's ([`MAX_DEPTH`] and [`MAX_ATTRS`] in
//! `tokenizer/guard/`, [`MAX_OPEN`] in `tokenizer/lexer.rs`), the node budget
//! ([`BYTES_PER_NODE`], [`SPARE_NODES`]) lives here, and the element classes in
//! `tag_sets.rs`: tokenizer and builder read the same values, so they cannot drift apart.
//!
//! Why: the stack of open elements is scanned for many tokens (every `<div>` checks for a
//! `<p>` in button scope, every end tag walks it), the adoption agency and the
//! reconstruction of the active formatting elements walk it and the list, so 100,000 nested
//! `<div>`s or misnested `<b>`s would make the build quadratic; and each attribute is
//! checked against the earlier ones.
//!
//! * **Depth** ([`Limits::max_depth`]): a model of the open elements (the guard's: elements
//!   that can stay open, not those closed by their next sibling like `<p>`, `<li>`, `<td>`,
//!   nor void or raw-text ones) decides; a start tag that would open one more past the cap
//!   is dropped, and so is its matching end tag later. Their text is kept.
//! * **Attributes** ([`Limits::max_attrs`]): a tag with more is dropped (a non-void one's
//!   end tag too), as is any attribute a second `<html>`/`<body>` would add past the cap.
//!   The shipped parse keeps this cap on behind its lexer ([`Limits::behind_guard`]): only
//!   the builder sees what a merge adds up to.
//! * **Open elements** ([`Limits::max_open`]): while the builder holds more open elements
//!   and active formatting entries than this (counted as html5ever's `trace_handles` counts
//!   them, every 16 start tags, every 4 while over, as the lexer probes), a start tag that
//!   could open an element is dropped (with its end tag, unless self-closing). Misnested
//!   formatting tags leave elements open that no end tag closes; this bounds them.
//! * **Read flat** ([`Limits::flat_after`]): once the tree holds more nodes (seen at the
//!   same probes), every start tag but void and raw-text ones is dropped, so the rest of the
//!   page adds text, not elements: the lexer's node cap, which keeps the tree proportional
//!   to the input ([`Limits::for_input`] sets it as the shipped parse does).
//! * **Nodes** ([`Limits::max_nodes`]): node ids are `u32`; before the arena could run out,
//!   parsing stops (every later token is ignored) rather than wrap or panic.

use std::collections::HashMap;

use super::tag_sets::TagClass;
use crate::token::Tag;

use super::{Builder, Entry, Mode};

// The caps the tokenizer applies while it reads (the guard's depth and attributes, the
// lexer's open elements): one definition, which the builder applies to other tokenizers.
pub use crate::tokenizer::{MAX_ATTRS, MAX_DEPTH, MAX_OPEN};
/// Input bytes per tree node a page may use before the rest is read flat, plus a floor for
/// small pages ([`Limits::for_input`]; why these figures: `document.rs`).
pub const BYTES_PER_NODE: usize = 4;
pub const SPARE_NODES: usize = 1 << 16;

/// The builder's caps; [`Limits::default`] holds the shipped guard's values
/// ([`MAX_DEPTH`], [`MAX_ATTRS`], [`MAX_OPEN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open elements (as the guard models them) before start tags are dropped: the guard's
    /// `MAX_DEPTH`.
    pub max_depth: usize,
    /// Attributes a tag may carry (more: the tag is dropped), and a merged `<html>` or
    /// `<body>` may collect: the guard's `MAX_ATTRS`.
    pub max_attrs: usize,
    /// Open elements plus active formatting entries before start tags that open elements
    /// are dropped: the lexer's `MAX_OPEN`.
    pub max_open: usize,
    /// Nodes in the tree before the rest of the page is read flat (the lexer's
    /// `max_nodes`; unlimited by default, as the builder does not know the input's size:
    /// see [`Limits::for_input`]).
    pub flat_after: usize,
    /// Nodes in the arena before parsing stops (at most the arena's `u32` ids allow).
    pub max_nodes: usize,
}

/// The arena's ids are `u32` and `u32::MAX` means "no node".
pub(crate) const ARENA_NODES: usize = u32::MAX as usize - 1;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: MAX_DEPTH,
            max_attrs: MAX_ATTRS,
            max_open: MAX_OPEN,
            flat_after: usize::MAX,
            max_nodes: ARENA_NODES,
        }
    }
}

impl Limits {
    /// No caps but the arena's own (for trusted input, and for a tokenizer that applies the
    /// guard itself).
    pub fn unlimited() -> Self {
        Limits {
            max_depth: usize::MAX,
            max_attrs: usize::MAX,
            max_open: usize::MAX,
            flat_after: usize::MAX,
            max_nodes: ARENA_NODES,
        }
    }

    /// The caps a tokenizer that applies the others itself leaves to the builder (the
    /// shipped parse: the lexer drops tags past the depth, attribute,
    /// open-element and node caps while it reads): the attributes a second `<html>` or
    /// `<body>` merges into the first, which only the builder sees add up (issue 45, F1),
    /// and the arena's node cap. A tag with more than [`MAX_ATTRS`] attributes is dropped
    /// here too, which such a tokenizer never emits. Depth, open elements and the node cap
    /// stay with the tokenizer: counted twice they would count start tags it already
    /// dropped and move where the builder's probes fall.
    pub fn behind_guard() -> Self {
        Limits {
            max_attrs: MAX_ATTRS,
            ..Limits::unlimited()
        }
    }

    /// Which caps apply, as the builder reads them for every tag.
    pub(crate) fn caps(&self) -> Caps {
        if self.caps_nothing() {
            Caps::Nothing
        } else if self.attrs_only() {
            Caps::AttrsOnly
        } else {
            Caps::All
        }
    }

    /// Nodes the arena may hold: [`Limits::max_nodes`], at most what its `u32` ids allow.
    pub(crate) fn node_cap(&self) -> usize {
        self.max_nodes.min(ARENA_NODES)
    }

    /// Whether the attribute cap is the only one ([`Limits::behind_guard`]).
    pub(crate) fn attrs_only(&self) -> bool {
        self.max_depth == usize::MAX && self.max_open == usize::MAX && self.flat_after == usize::MAX
    }

    /// Whether no cap applies but the arena's own ([`Limits::unlimited`]).
    pub fn caps_nothing(&self) -> bool {
        self.max_depth == usize::MAX
            && self.max_attrs == usize::MAX
            && self.max_open == usize::MAX
            && self.flat_after == usize::MAX
    }

    /// The default caps plus the shipped parse's node cap for an input of `len` bytes
    /// ([`BYTES_PER_NODE`] bytes a node plus [`SPARE_NODES`]: what the lexer
    /// applies).
    pub fn for_input(len: usize) -> Self {
        Limits {
            flat_after: (len / BYTES_PER_NODE).saturating_add(SPARE_NODES),
            ..Limits::default()
        }
    }
}

/// Which of the caps a builder applies ([`Limits::caps`]): read for every tag, so decided
/// once, when the caps are set, rather than from the limits' fields each time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Caps {
    /// [`Limits::caps_nothing`]: nothing is dropped.
    Nothing,
    /// Only the attribute cap ([`Limits::behind_guard`]).
    AttrsOnly,
    /// The model of open elements decides.
    All,
}

/// Start tags between two counts of the open elements, and while over [`Limits::max_open`]
/// (the lexer's `PROBE_EVERY` and `PROBE_CROWDED`).
const PROBE_EVERY: u32 = 16;
const PROBE_CROWDED: u32 = 4;

#[derive(Clone, Copy, PartialEq, Eq)]
enum ModelNs {
    Html,
    Svg,
    Math,
}

/// An open element as the model tracks it (the guard's `Open`).
struct Open {
    name: Box<str>,
    ns: ModelNs,
    /// Content read as SVG/MathML (foreign, not an integration point).
    foreign: bool,
}

/// The guard's model of open elements, over tokens.
#[derive(Default)]
pub(crate) struct Guard {
    stack: Vec<Open>,
    /// End tags to drop, by name, for start tags dropped earlier.
    dropped: HashMap<Box<str>, usize>,
    until_probe: u32,
    crowded: bool,
    /// Past [`Limits::flat_after`] (latched).
    flat: bool,
}

/// What the guard knows of an element from its name (`tag_sets.rs`, shared with the guard).
fn class(n: &str) -> TagClass {
    TagClass::of(n.as_bytes())
}

fn has_attr(t: &Tag, name: &str) -> bool {
    t.attrs.iter().any(|a| &*a.name == name)
}

/// Foreign elements whose content is HTML again.
fn integration_point(t: &Tag, ns: ModelNs) -> bool {
    match ns {
        ModelNs::Svg => matches!(&*t.name, "foreignobject" | "desc" | "title"),
        ModelNs::Math => {
            matches!(&*t.name, "mi" | "mo" | "mn" | "ms" | "mtext")
                || (&*t.name == "annotation-xml"
                    && t.attrs.iter().any(|a| {
                        &*a.name == "encoding"
                            && (a.value.eq_ignore_ascii_case("text/html")
                                || a.value.eq_ignore_ascii_case("application/xhtml+xml"))
                    }))
        }
        ModelNs::Html => false,
    }
}

impl Guard {
    /// No end tag is waiting to be dropped (for a start tag dropped before).
    pub(crate) fn dropped_none(&self) -> bool {
        self.dropped.is_empty()
    }

    fn drop_tag(&mut self, name: &str) -> bool {
        match self.dropped.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                self.dropped.insert(name.into(), 1);
            }
        }
        false
    }

    fn pop_foreign(&mut self) {
        while self.stack.last().is_some_and(|o| o.foreign) {
            self.stack.pop();
        }
    }

    /// A start tag (the guard's `Tracker::start_tag`): whether to keep it.
    fn start(&mut self, t: &Tag, limits: &Limits, crowded: bool) -> bool {
        let name = &*t.name;
        // The class only where a cap asks for it: behind the lexer's guard (the shipped
        // parse) no cap here reads it for a tag within the attribute cap, and classifying
        // every start tag's name cost about 4% of the table page's parse.
        if (crowded && class(name).opens_element()) || (self.flat && class(name).flattens()) {
            // The lexer's `drop_crowded`: a self-closing tag has no end tag to wait for.
            if !t.self_closing {
                self.drop_tag(&t.name);
            }
            return false;
        }
        if t.attrs.len() > limits.max_attrs {
            if class(name).is_void() {
                return false;
            }
            return self.drop_tag(&t.name);
        }
        // The model of open elements serves the depth cap alone.
        if limits.max_depth == usize::MAX {
            return true;
        }
        let class = class(name);
        let mut foreign = self.stack.last().is_some_and(|o| o.foreign);
        if foreign
            && (class.breaks_out()
                || (name == "font"
                    && (has_attr(t, "color") || has_attr(t, "face") || has_attr(t, "size"))))
        {
            self.pop_foreign();
            foreign = false;
        }
        if !foreign
            && matches!(name, "mglyph" | "malignmark")
            && self.stack.last().is_some_and(|o| o.ns == ModelNs::Math)
        {
            foreign = true;
        }
        if foreign {
            if t.self_closing {
                return true;
            }
            let ns = self.stack.last().map_or(ModelNs::Html, |o| o.ns);
            let inner = !integration_point(t, ns);
            if self.stack.len() >= limits.max_depth {
                return self.drop_tag(&t.name);
            }
            self.stack.push(Open {
                name: (*t.name).into(),
                ns,
                foreign: inner,
            });
            return true;
        }
        if !class.opens_element() {
            return true;
        }
        if self.stack.len() >= limits.max_depth {
            return self.drop_tag(&t.name);
        }
        let (svg, math) = (name == "svg", name == "math");
        if (svg || math) && t.self_closing {
            return true;
        }
        self.stack.push(Open {
            name: (*t.name).into(),
            ns: if svg {
                ModelNs::Svg
            } else if math {
                ModelNs::Math
            } else {
                ModelNs::Html
            },
            foreign: svg || math,
        });
        true
    }

    /// An end tag (the guard's `Tracker::end_tag`; `raw`: it closes raw text, and is never
    /// dropped): whether to keep it.
    fn end(&mut self, t: &Tag, raw: bool) -> bool {
        let foreign = self.stack.last().is_some_and(|o| o.foreign);
        if !raw && foreign && matches!(&*t.name, "br" | "p") {
            self.pop_foreign();
        }
        if !raw {
            if let Some(n) = self.dropped.get_mut(&*t.name) {
                if *n > 0 {
                    *n -= 1;
                    return false;
                }
            }
        }
        if let Some(at) = self.stack.iter().rposition(|o| *o.name == *t.name) {
            self.stack.truncate(at);
        }
        true
    }
}

impl Builder {
    /// Open elements plus active formatting elements and the few other handles, as
    /// html5ever's `trace_handles` counts them (what the lexer's probe reports).
    pub(crate) fn pressure(&self) -> usize {
        let formatting = self
            .afe
            .iter()
            .filter(|e| matches!(e, Entry::Element(_)))
            .count();
        1 + self.open.len()
            + formatting
            + usize::from(self.head.is_some())
            + usize::from(self.form.is_some())
            + usize::from(self.context.is_some())
    }

    /// Whether the builder is over [`Limits::max_open`], probed as the lexer probes.
    fn crowded(&mut self) -> bool {
        if self.limits.max_open == usize::MAX && self.limits.flat_after == usize::MAX {
            return false;
        }
        let left = self.guard.until_probe;
        if left > 0 {
            self.guard.until_probe = left - 1;
            return self.guard.crowded;
        }
        let crowded = self.pressure() > self.limits.max_open;
        self.guard.crowded = crowded;
        if self.dom.nodes.len() > self.limits.flat_after {
            self.guard.flat = true;
        }
        self.guard.until_probe = if crowded { PROBE_CROWDED } else { PROBE_EVERY };
        crowded
    }

    /// Whether to pass a start tag to the insertion modes.
    pub(crate) fn keep_start(&mut self, t: &Tag) -> bool {
        // Without caps (a tokenizer that applies them itself) nothing is ever dropped, so
        // the model of open elements need not be kept either.
        match self.caps {
            Caps::Nothing => return true,
            // Behind the lexer's guard only the attribute cap is left: a tag within it is
            // kept (what the model below answers then, without reading the tag's name).
            Caps::AttrsOnly if t.attrs.len() <= self.limits.max_attrs => return true,
            _ => {}
        }
        let crowded = self.crowded();
        let limits = self.limits;
        self.guard.start(t, &limits, crowded)
    }

    /// Whether to pass an end tag to the insertion modes.
    pub(crate) fn keep_end(&mut self, t: &Tag) -> bool {
        match self.caps {
            Caps::Nothing => return true,
            // With only the attribute cap, the model holds no open elements: an end tag is
            // dropped only for a start tag dropped before.
            Caps::AttrsOnly if self.guard.dropped.is_empty() => return true,
            _ => {}
        }
        let raw = self.mode == Mode::Text;
        self.guard.end(t, raw)
    }

    /// Room for the nodes one token can create, at most: the reconstruction of the active
    /// formatting elements clones each entry, the adoption agency at most four elements in
    /// each of its eight rounds, a `<selectedcontent>` a copy of its option (bounded by the
    /// nodes so far, checked apart), a template element its contents; plus implied tags.
    pub(crate) fn room_for_token(&self) -> bool {
        let worst = 2 * (self.afe.len() + 8 * 4) + 16;
        let copies = if self.has_selectedcontent {
            self.dom.nodes.len()
        } else {
            0
        };
        // Saturated sums stay past the cap, which is below `usize::MAX`.
        self.dom
            .nodes
            .len()
            .saturating_add(worst)
            .saturating_add(copies)
            <= self.node_cap
    }
}
