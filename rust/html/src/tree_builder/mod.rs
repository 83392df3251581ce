//! The WHATWG tree builder (HTML standard §13.2.6) over the arena DOM, scripting off, with
//! the 2025 select parser ("customizable select": no in-select modes) that html5lib-tests
//! and html5ever 0.40 follow. This
//! module holds the state, the `TokenSink` face and the dispatcher; the insertion modes,
//! the open-element stack, active formatting elements, insertion places and foreign content
//! each live in their own module, and what an element is from its name (the caps' classes,
//! void, raw text, SPECIAL and the scope boundaries, the headings) in `tag_sets.rs`, the one
//! home of those facts for the tokenizer, the tree builder and the views.

mod foreign;
mod formatting;
mod insert;
mod limits;
mod modes_body;
mod modes_head;
mod modes_other;
mod modes_table;
mod quirks;
mod selectedcontent;
mod stack;
pub(crate) mod tag_ids;
pub(crate) mod tag_sets;

use std::cell::RefCell;

use std::borrow::Cow;

use crate::token::{drop_front, Doctype, RawKind, SinkResult, Tag, TagKind, Token, TokenSink};

use crate::arena::{Dom, NodeId, Ns};

pub use limits::{Limits, BYTES_PER_NODE, MAX_ATTRS, MAX_DEPTH, MAX_OPEN, SPARE_NODES};

/// The start tags in-cell handles itself, and the end tags: the others it passes to in-body
/// (`modes_table.rs`).
const CELL_STARTS: u128 = tag_ids::set(&[
    tag_ids::tag::CAPTION,
    tag_ids::tag::COL,
    tag_ids::tag::COLGROUP,
    tag_ids::tag::TBODY,
    tag_ids::tag::TD,
    tag_ids::tag::TFOOT,
    tag_ids::tag::TH,
    tag_ids::tag::THEAD,
    tag_ids::tag::TR,
]);
const CELL_ENDS: u128 = tag_ids::set(&[
    tag_ids::tag::TD,
    tag_ids::tag::TH,
    tag_ids::tag::BODY,
    tag_ids::tag::CAPTION,
    tag_ids::tag::COL,
    tag_ids::tag::COLGROUP,
    tag_ids::tag::HTML,
    tag_ids::tag::TABLE,
    tag_ids::tag::TBODY,
    tag_ids::tag::TFOOT,
    tag_ids::tag::THEAD,
    tag_ids::tag::TR,
]);

/// The insertion modes (§13.2.4.1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    InTemplate,
    AfterBody,
    InFrameset,
    AfterFrameset,
    AfterAfterBody,
    AfterAfterFrameset,
}

/// The document's mode from its doctype; only no-quirks changes tree construction (a
/// `<table>` start tag closes an open `<p>`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum QuirksMode {
    NoQuirks,
    LimitedQuirks,
    Quirks,
}

/// A token as the builder sees it: start and end tags apart, NULs as characters (each mode
/// decides whether to drop or replace them). The doctype comes boxed ([`Token::Doctype`]),
/// so that every token, moved through the dispatcher and the modes, is the size of a tag.
pub(crate) enum Tok<'a> {
    Doctype(Box<Doctype>),
    Start(TagTok<'a>),
    End(TagTok<'a>),
    Comment(Cow<'a, str>),
    Chars(Cow<'a, str>),
    Eof,
}

/// A tag token with the known id of its name ([`tag_ids::known`]), which the tag brings
/// (the lexer looks it up once, as it reads the name): a token may pass through several
/// insertion modes, each matching it against names, and the arena takes the id instead of
/// interning the name again. It reads
/// as the [`Tag`] it holds; the name only changes through [`TagTok::rename`], which keeps
/// the id true.
pub(crate) struct TagTok<'a> {
    tag: Tag<'a>,
}

impl<'a> TagTok<'a> {
    pub(crate) fn new(tag: Tag<'a>) -> TagTok<'a> {
        TagTok { tag }
    }

    /// Give the tag another name (foreign content's adjusted case).
    pub(crate) fn rename(&mut self, name: Cow<'a, str>) {
        self.tag.id = tag_ids::known(&name);
        self.tag.name = name;
    }

    pub(crate) fn into_tag(self) -> Tag<'a> {
        self.tag
    }

    /// The tag, to adjust its attributes in place (foreign content); its name changes only
    /// through [`TagTok::rename`].
    pub(crate) fn tag_mut(&mut self) -> &mut Tag<'a> {
        &mut self.tag
    }
}

impl<'a> std::ops::Deref for TagTok<'a> {
    type Target = Tag<'a>;

    fn deref(&self) -> &Tag<'a> {
        &self.tag
    }
}

/// An entry of the list of active formatting elements.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Entry {
    Marker,
    Element(NodeId),
}

/// What the tokenizer is told after a token.
#[derive(Clone, Copy)]
enum Switch {
    Raw(RawKind),
    Plaintext,
}

pub(crate) struct Builder {
    pub(crate) dom: Dom,
    mode: Mode,
    /// Where the text and table text modes return.
    orig_mode: Mode,
    template_modes: Vec<Mode>,
    open: Vec<NodeId>,
    /// Every HTML `<p>` on `open` is at this index or above (`usize::MAX`: none is). Why: a
    /// block's start tag asks for a `<p>` in button scope, and with none open that walk
    /// went down the whole stack (4% of the body-only bench page's parse); a stack no
    /// higher than this holds none. Kept by `insert_html` and `insert_html_named` (the ways
    /// a `<p>` is pushed) and the two removals from inside the stack; pops only lower it.
    p_floor: usize,
    afe: Vec<Entry>,
    head: Option<NodeId>,
    form: Option<NodeId>,
    frameset_ok: bool,
    /// Foster parenting on (in-table "anything else" and table text).
    foster: bool,
    /// Drop a newline right after `<pre>`, `<listing>`, `<textarea>`.
    ignore_lf: bool,
    quirks: QuirksMode,
    pending_table_text: String,
    /// The fragment parsing algorithm's context element (detached, in the arena).
    context: Option<NodeId>,
    switch: Option<Switch>,
    /// A `<selectedcontent>` was inserted: option pops need watching from then on.
    has_selectedcontent: bool,
    /// `<selectedcontent>` elements inserted so far, and the last select's first one as
    /// found when that count held (see `selectedcontent.rs`).
    selectedcontents: usize,
    selectedcontent_cache: Option<(NodeId, usize, Option<NodeId>)>,
    /// The caps on hostile input (see `limits.rs`), and the model of open elements that
    /// applies them.
    limits: Limits,
    /// Which of `limits` apply ([`Limits::caps`]), set with them.
    caps: limits::Caps,
    /// Nodes the arena may hold ([`Limits::max_nodes`], at most the arena's ids), set with
    /// them: [`Builder::room_for_token`] reads it for every token.
    node_cap: usize,
    guard: limits::Guard,
    /// Parsing stopped (end of input, or the arena is full): later tokens are ignored.
    stopped: bool,
}

/// The tree builder as a [`TokenSink`]. `process_token` takes `&self`, hence the
/// `RefCell`; no method re-enters it.
pub struct TreeBuilder {
    inner: RefCell<Builder>,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeBuilder {
    /// A builder for a whole document, with the shipped guard's caps ([`Limits::default`]).
    pub fn new() -> TreeBuilder {
        Self::with_limits(Limits::default())
    }

    /// A builder for a whole document with the given caps.
    pub fn with_limits(limits: Limits) -> TreeBuilder {
        let mut b = Builder::new();
        b.set_limits(limits);
        TreeBuilder {
            inner: RefCell::new(b),
        }
    }

    /// A builder for the fragment parsing algorithm with context element `name` in `ns`
    /// (`Ns::Html`, `Ns::Svg` or `Ns::MathMl`). The parsed nodes end up as the children of
    /// [`TreeBuilder::root`]. The caller starts its tokenizer in the state the context asks
    /// for (see [`TreeBuilder::fragment_raw_kind`]).
    pub fn new_fragment(name: &str, ns: Ns) -> TreeBuilder {
        Self::new_fragment_with_limits(name, ns, Limits::default())
    }

    /// [`TreeBuilder::new_fragment`] with the given caps.
    pub fn new_fragment_with_limits(name: &str, ns: Ns, limits: Limits) -> TreeBuilder {
        let mut b = Builder::new();
        b.set_limits(limits);
        let html = b.dom.new_element(Ns::Html, "html", []);
        b.dom.append(Dom::DOCUMENT, html);
        b.open.push(html);
        let context = b.dom.new_element(ns, name, []);
        b.context = Some(context);
        if ns == Ns::Html && name == "template" {
            b.template_modes.push(Mode::InTemplate);
        }
        b.reset_mode();
        TreeBuilder {
            inner: RefCell::new(b),
        }
    }

    /// The tokenizer state a fragment context starts in, as the fragment algorithm sets it
    /// (`None`: data state; `Some(None)`: PLAINTEXT).
    pub fn fragment_raw_kind(name: &str, ns: Ns) -> Option<Option<RawKind>> {
        if ns != Ns::Html {
            return None;
        }
        match name {
            "title" | "textarea" => Some(Some(RawKind::Rcdata)),
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(Some(RawKind::Rawtext)),
            "script" => Some(Some(RawKind::ScriptData)),
            "plaintext" => Some(None),
            _ => None,
        }
    }

    /// The node whose children are the parse: the document, or a fragment's `<html>`.
    pub fn root(&self) -> NodeId {
        let b = self.inner.borrow();
        if b.context.is_some() {
            b.dom.first_child(Dom::DOCUMENT).unwrap_or(Dom::DOCUMENT)
        } else {
            Dom::DOCUMENT
        }
    }

    pub fn quirks_mode(&self) -> QuirksMode {
        self.inner.borrow().quirks
    }

    /// Reserve room in the arena before building (see [`Dom::reserve`]).
    pub fn reserve(&self, nodes: usize, text: usize, attrs: usize) {
        self.inner.borrow_mut().dom.reserve(nodes, text, attrs);
    }

    /// Open elements plus active formatting entries (as html5ever's `trace_handles` counts
    /// them) and nodes built so far: what a tokenizer that applies the caps itself probes.
    pub fn pressure(&self) -> (usize, usize) {
        let b = self.inner.borrow();
        (b.pressure(), b.dom.nodes.len())
    }

    /// The finished tree.
    pub fn into_dom(self) -> Dom {
        self.inner.into_inner().dom
    }
}

impl TokenSink for TreeBuilder {
    // Inlined into the tokenizer's one call site for most tokens (the lexer's `emit`): the
    // token is then built where the builder reads it, not copied into a call (1% of the
    // table page's parse).
    #[inline(always)]
    fn process_token(&self, token: Token<'_>) -> SinkResult {
        let tok = match token {
            Token::Doctype(d) => Tok::Doctype(d),
            Token::Tag(t) => {
                // A tag in body or in a cell goes to its mode's rules without the
                // dispatcher (see `takes_body_tag`).
                let mut b = self.inner.borrow_mut();
                if b.takes_body_tag(&t) {
                    b.body_tag(t);
                    return match b.switch.take() {
                        None => SinkResult::Continue,
                        Some(Switch::Raw(kind)) => SinkResult::Raw(kind),
                        Some(Switch::Plaintext) => SinkResult::Plaintext,
                    };
                }
                drop(b);
                if t.kind == TagKind::StartTag {
                    Tok::Start(TagTok::new(t))
                } else {
                    Tok::End(TagTok::new(t))
                }
            }
            Token::Comment(c) => Tok::Comment(c),
            Token::Chars(s) => Tok::Chars(s),
            Token::Null => Tok::Chars(Cow::Borrowed("\0")),
            Token::Eof => Tok::Eof,
        };
        let mut b = self.inner.borrow_mut();
        // Option pops are watched only once a `<selectedcontent>` exists (nearly never):
        // no list to build, walk and drop for every token until then.
        let options = b.has_selectedcontent.then(|| b.open_options());
        b.dispatch(tok);
        if let Some(options) = options {
            b.options_popped(options);
        }
        match b.switch.take() {
            None => SinkResult::Continue,
            Some(Switch::Raw(kind)) => SinkResult::Raw(kind),
            Some(Switch::Plaintext) => SinkResult::Plaintext,
        }
    }

    // Text in body or in a cell (most of a page's text) goes straight to the in-body rules,
    // not through the builder's token, the dispatcher and the mode's match.
    #[inline(always)]
    fn process_text(&self, s: &str) -> SinkResult {
        {
            let mut b = self.inner.borrow_mut();
            if b.takes_body_text() {
                b.body_chars(s);
                return SinkResult::Continue;
            }
        }
        self.process_token(Token::Chars(Cow::Borrowed(s)))
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        let b = self.inner.borrow();
        b.adjusted_current()
            .is_some_and(|n| b.dom.node(n).ns != Ns::Html)
    }
}

/// The known id of a tag token's name ([`tag_ids::known`]), `NO_NAME` for other tokens.
pub(crate) fn tok_id(tok: &Tok) -> u32 {
    match tok {
        Tok::Start(t) | Tok::End(t) => t.id,
        _ => tag_ids::NO_NAME,
    }
}

/// HTML whitespace as the tree builder means it (tab, LF, FF, CR, space).
pub(crate) fn is_ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ')
}

/// The leading whitespace of `s` and the rest.
pub(crate) fn split_ws(s: &str) -> (&str, &str) {
    let n = s.len() - s.trim_start_matches(is_ws).len();
    s.split_at(n)
}

impl Builder {
    fn new() -> Builder {
        Builder {
            dom: Dom::new(),
            mode: Mode::Initial,
            orig_mode: Mode::Initial,
            template_modes: Vec::new(),
            open: Vec::new(),
            p_floor: usize::MAX,
            afe: Vec::new(),
            head: None,
            form: None,
            frameset_ok: true,
            foster: false,
            ignore_lf: false,
            quirks: QuirksMode::NoQuirks,
            pending_table_text: String::new(),
            context: None,
            switch: None,
            has_selectedcontent: false,
            selectedcontents: 0,
            selectedcontent_cache: None,
            limits: Limits::default(),
            caps: Limits::default().caps(),
            node_cap: Limits::default().node_cap(),
            guard: limits::Guard::default(),
            stopped: false,
        }
    }

    /// Apply the caps `limits`.
    fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.caps = limits.caps();
        self.node_cap = limits.node_cap();
    }

    /// Whether a run of characters now goes to the in-body rules for characters and
    /// nowhere else: what [`Builder::dispatch`] would decide for it, answered without it.
    /// In body and in cell (whose characters are in-body's) with the current node an HTML
    /// element (so the HTML rules apply), not stopped, room for the token, no newline to
    /// drop and no option pops to watch. Not for a fragment (its adjusted current node).
    #[inline(always)]
    fn takes_body_text(&self) -> bool {
        matches!(self.mode, Mode::InBody | Mode::InCell)
            && !self.stopped
            && !self.ignore_lf
            && !self.has_selectedcontent
            && self.context.is_none()
            && self
                .open
                .last()
                .is_some_and(|&n| self.dom.node(n).ns == Ns::Html)
            && self.room_for_token()
    }

    /// Whether [`Builder::dispatch`] would hand the tag `t` to the HTML rules of the current
    /// mode, in body or in cell: the checks of [`Builder::takes_body_text`], and the caps
    /// keep the tag without reading it (no cap, or only the attribute cap with `t` within it
    /// and no end tag waiting to be dropped).
    #[inline(always)]
    fn takes_body_tag(&self, t: &Tag) -> bool {
        matches!(self.mode, Mode::InBody | Mode::InCell)
            && !self.stopped
            && !self.has_selectedcontent
            && self.context.is_none()
            && match self.caps {
                limits::Caps::Nothing => true,
                limits::Caps::AttrsOnly => {
                    if t.kind == TagKind::StartTag {
                        t.attrs.len() <= self.limits.max_attrs
                    } else {
                        self.guard.dropped_none()
                    }
                }
                limits::Caps::All => false,
            }
            && self
                .open
                .last()
                .is_some_and(|&n| self.dom.node(n).ns == Ns::Html)
            && self.room_for_token()
    }

    /// [`Builder::dispatch`] for a tag [`Builder::takes_body_tag`] answered for.
    #[inline(never)]
    fn body_tag(&mut self, t: Tag) {
        self.ignore_lf = false;
        let start = t.kind == TagKind::StartTag;
        let t = TagTok::new(t);
        // In cell, the tags it does not handle itself are in-body's (`in_cell`).
        let in_body = self.mode == Mode::InBody
            || !tag_ids::contains(if start { CELL_STARTS } else { CELL_ENDS }, t.id);
        match (in_body, start) {
            (true, true) => self.body_start(t),
            (true, false) => self.body_end(t),
            (false, true) => self.in_cell(Tok::Start(t)),
            (false, false) => self.in_cell(Tok::End(t)),
        }
    }

    /// The tree construction dispatcher (§13.2.6): HTML rules of the current mode, or the
    /// rules for foreign content.
    fn dispatch(&mut self, mut tok: Tok) {
        if self.stopped {
            return;
        }
        if !self.room_for_token() {
            // The arena is (nearly) full: stop here, keeping the tree built so far.
            self.stop();
            return;
        }
        let keep = match &tok {
            Tok::Start(t) => self.keep_start(t),
            Tok::End(t) => self.keep_end(t),
            _ => true,
        };
        if !keep {
            return;
        }
        // Past the initial modes the stack holds `<html>` until parsing stops; a token that
        // finds it empty has nothing to go into.
        if self.open.is_empty() && !matches!(self.mode, Mode::Initial | Mode::BeforeHtml) {
            return;
        }
        if std::mem::take(&mut self.ignore_lf) {
            if let Tok::Chars(s) = tok {
                if let Some(rest) = s.strip_prefix('\n') {
                    if rest.is_empty() {
                        return;
                    }
                    tok = Tok::Chars(drop_front(s, 1));
                } else {
                    tok = Tok::Chars(s);
                }
            }
        }
        if self.use_html_rules(&tok) {
            self.step(self.mode, tok);
        } else {
            self.foreign(tok);
        }
    }

    fn use_html_rules(&self, tok: &Tok) -> bool {
        let Some(node) = self.adjusted_current() else {
            return true;
        };
        let ns = self.dom.node(node).ns;
        if ns == Ns::Html || matches!(tok, Tok::Eof) {
            return true;
        }
        let start = match tok {
            Tok::Start(t) => Some(&*t.name),
            _ => None,
        };
        let chars = matches!(tok, Tok::Chars(_));
        if self.is_mathml_text_integration(node)
            && (chars || start.is_some_and(|n| n != "mglyph" && n != "malignmark"))
        {
            return true;
        }
        if self.dom.element_name(node) == Some((Ns::MathMl, "annotation-xml"))
            && start == Some("svg")
        {
            return true;
        }
        self.is_html_integration(node) && (chars || start.is_some())
    }

    /// Process `tok` by the rules of `mode` (which need not be the current one: "using the
    /// rules for" another mode).
    ///
    /// Always inlined: every token passes here, and as a call of its own the token was
    /// copied once more on its way to the mode (2% of the parse of both bench pages; the
    /// copy in each caller is a jump table).
    #[inline(always)]
    fn step(&mut self, mode: Mode, tok: Tok) {
        match mode {
            Mode::Initial => self.initial(tok),
            Mode::BeforeHtml => self.before_html(tok),
            Mode::BeforeHead => self.before_head(tok),
            Mode::InHead => self.in_head(tok),
            Mode::InHeadNoscript => self.in_head_noscript(tok),
            Mode::AfterHead => self.after_head(tok),
            Mode::InBody => self.in_body(tok),
            Mode::Text => self.text(tok),
            Mode::InTable => self.in_table(tok),
            Mode::InTableText => self.in_table_text(tok),
            Mode::InCaption => self.in_caption(tok),
            Mode::InColumnGroup => self.in_column_group(tok),
            Mode::InTableBody => self.in_table_body(tok),
            Mode::InRow => self.in_row(tok),
            Mode::InCell => self.in_cell(tok),
            Mode::InTemplate => self.in_template(tok),
            Mode::AfterBody => self.after_body(tok),
            Mode::InFrameset => self.in_frameset(tok),
            Mode::AfterFrameset => self.after_frameset(tok),
            Mode::AfterAfterBody => self.after_after_body(tok),
            Mode::AfterAfterFrameset => self.after_after_frameset(tok),
        }
    }

    /// Switch to `mode` and process `tok` there.
    fn reprocess(&mut self, mode: Mode, tok: Tok) {
        self.mode = mode;
        self.step(mode, tok);
    }

    /// For modes where whitespace and other characters go different ways: handle the
    /// leading whitespace with `ws`, and return the rest (if any) as a token for the
    /// mode's "anything else".
    fn split_chars<'a>(&mut self, s: Cow<'a, str>, ws: fn(&mut Builder, &str)) -> Option<Tok<'a>> {
        let (lead, rest) = split_ws(&s);
        if !lead.is_empty() {
            ws(self, lead);
        }
        if rest.is_empty() {
            return None;
        }
        let n = lead.len();
        Some(Tok::Chars(drop_front(s, n)))
    }

    /// The adjusted current node: the context element when parsing a fragment and only
    /// `<html>` is open, else the current node.
    fn adjusted_current(&self) -> Option<NodeId> {
        match (self.context, self.open.len()) {
            (Some(ctx), 1) => Some(ctx),
            _ => self.open.last().copied(),
        }
    }

    /// Reset the insertion mode appropriately (§13.2.4.1).
    fn reset_mode(&mut self) {
        for i in (0..self.open.len()).rev() {
            let last = i == 0;
            let node = match (last, self.context) {
                (true, Some(ctx)) => ctx,
                _ => self.open[i],
            };
            let Some((Ns::Html, name)) = self.dom.element_name(node) else {
                if last {
                    self.mode = Mode::InBody;
                    return;
                }
                continue;
            };
            self.mode = match name {
                "td" | "th" if !last => Mode::InCell,
                "tr" => Mode::InRow,
                "tbody" | "thead" | "tfoot" => Mode::InTableBody,
                "caption" => Mode::InCaption,
                "colgroup" => Mode::InColumnGroup,
                "table" => Mode::InTable,
                "template" => *self.template_modes.last().unwrap_or(&Mode::InTemplate),
                "head" if !last => Mode::InHead,
                "body" => Mode::InBody,
                "frameset" => Mode::InFrameset,
                "html" => {
                    if self.head.is_none() {
                        Mode::BeforeHead
                    } else {
                        Mode::AfterHead
                    }
                }
                _ if last => Mode::InBody,
                _ => continue,
            };
            return;
        }
        self.mode = Mode::InBody;
    }

    /// The generic RCDATA / raw text element parsing algorithms, and script data.
    fn raw_element(&mut self, tag: &TagTok, kind: RawKind) {
        self.insert_html(tag);
        self.switch = Some(Switch::Raw(kind));
        self.orig_mode = self.mode;
        self.mode = Mode::Text;
    }

    fn plaintext(&mut self) {
        self.switch = Some(Switch::Plaintext);
    }

    /// "Stop parsing": pop everything (scripting off, nothing else to run); later tokens
    /// are ignored.
    fn stop(&mut self) {
        self.open.clear();
        self.stopped = true;
    }
}

/// A tag's attributes as (name, value) pairs, for HTML elements.
pub(crate) fn html_attrs<'t>(tag: &'t Tag<'_>) -> impl Iterator<Item = (Ns, &'t str, &'t str)> {
    tag.attrs.iter().map(|a| (Ns::None, &*a.name, &*a.value))
}

/// [`html_attrs`] with each name's known id (the token's), for [`Dom::new_element_id`].
pub(crate) fn html_attr_ids<'t>(
    tag: &'t Tag<'_>,
) -> impl Iterator<Item = (Ns, u32, &'t str, &'t str)> {
    tag.attrs
        .iter()
        .map(|a| (Ns::None, a.id, &*a.name, &*a.value))
}

#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
mod tests;
