//! A byte-scanning HTML tokenizer that feeds the tree builder (`tree_builder/`).
//!
//! Why: html5ever's tokenizer takes input a character at a time through a buffer queue and
//! was about two thirds of the parse time on real pages. This module follows the WHATWG
//! tokenizer states, jumps over text with `memchr`, hands out text and lowercase names as
//! slices of the input (`Cow::Borrowed`: a copy only where a reference is decoded, a NUL
//! replaced or a name lowercased) and takes the tree builder's answers to switch into
//! RCDATA, RAWTEXT, script data and PLAINTEXT.
//!
//! With `guarded`, the lexer also does the pre-pass's work while it reads (one pass over
//! the input instead of two): the [`guard::Tracker`] drops tags past the depth and attribute
//! caps, and script/style content, comment text, plain SVG subtrees and attributes no view
//! reads never become tokens. `tests/lexer_identity.rs` checks that this builds the same
//! tree as html5ever's tokenizer over [`guard::defuse`]'s output.
//!
//! A `<!DOCTYPE ...>` (whose identifiers decide quirks mode) is read by [`super::doctype`]'s
//! state machine on its own slice. The trees this lexer and html5ever's tokenizer build
//! through the same tree builder are compared on the corpus and on generated input
//! (`tests/lexer_identity.rs`, the `lexer_diff` fuzz target).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use crate::token::{Attribute, RawKind, SinkResult, Tag, TagKind, Token, TokenSink};
use memchr::{memchr, memchr3};

use super::guard::{self, Start, Tracker};
use crate::tree_builder::{tag_ids, tag_sets::TagClass};
use webgrip_budget::{Budget, Interrupted};

/// The arena DOM addresses its text with `u32`: input past this is cut (at a character
/// boundary) before parsing. Two thousand times the default response cap.
pub const MAX_INPUT: usize = (u32::MAX / 2) as usize;

/// Elements the tree builder may hold open plus active formatting entries before the lexer
/// stops opening more. Why: misnested formatting tags (`<b><div>x</b>`, `<b><i>x</b>`)
/// make the adoption agency and the reconstruction of formatting elements leave elements
/// open that no end tag closes, so the builder's stack grows with the page and every scan of
/// it (scope checks, the adoption agency) turns tree building quadratic. Browsers bound the
/// same thing (Blink stops nesting at 512). Real pages stay far below it. The tree builder
/// applies the same cap to other tokenizers (`tree_builder/limits.rs`).
pub const MAX_OPEN: usize = 512;
/// Start tags between two counts of the tree builder's open elements (a count costs one
/// pass over them), and while above [`MAX_OPEN`].
const PROBE_EVERY: u32 = 16;
const PROBE_CROWDED: u32 = 4;
/// Loop turns (each a run of text and one piece of markup) between two budget checks.
const BUDGET_EVERY: u32 = 256;

/// What the tree builder holds, as [`tokenize`]'s probe reports it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pressure {
    /// Open elements plus active formatting entries (see `MAX_OPEN`).
    pub open: usize,
    /// Nodes in the tree so far.
    pub nodes: usize,
}

/// How the tokenizer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Complete,
    /// Stopped early (the tree holds what came before); why.
    Interrupted(Interrupted),
}

/// Tokenize `html` into `sink` (ending with EOF and `sink.end()`); with `guarded`, defuse and
/// strip as [`guard::defuse`] does, drop start tags that would open more elements while the
/// tree builder's open elements and active formatting entries (`probe`) are over
/// `MAX_OPEN`, and once the tree holds more than `max_nodes` nodes, drop every start tag
/// that is not void or raw text (the rest of the page is kept as text). Why the node cap:
/// dense markup (`<p><b><p>x` repeated, whose re-opened formatting copies add to its own
/// tags, or runs of `<br>`) makes a node every two bytes or so, at about 150 bytes a node;
/// the cap keeps the tree, and memory, proportional to the input. Stops early, still ending
/// the tree, when `budget` is spent.
///
/// `html` must be at most [`MAX_INPUT`] bytes.
pub fn tokenize<S: TokenSink>(
    html: &str,
    sink: &S,
    guarded: bool,
    budget: &Budget,
    probe: &dyn Fn() -> Pressure,
    max_nodes: usize,
) -> Outcome {
    let strip = guarded;
    tokenize_from(
        html,
        sink,
        (guarded, strip),
        budget,
        probe,
        max_nodes,
        Mode::Data,
        "",
    )
}

/// [`tokenize`] guarded (defused and capped alike) but stripping nothing: every attribute
/// and the text of scripts reach the sink. For readers that select on attributes no view
/// reads (the search result parsers' `data-testid`, `action`).
pub fn tokenize_unstripped<S: TokenSink>(
    html: &str,
    sink: &S,
    budget: &Budget,
    probe: &dyn Fn() -> Pressure,
    max_nodes: usize,
) -> Outcome {
    let guard = (true, false);
    tokenize_from(html, sink, guard, budget, probe, max_nodes, Mode::Data, "")
}

/// [`tokenize`] for the fragment parsing algorithm (html5lib-tests' fragment cases):
/// unguarded and uncapped, starting in the state the context element sets (`start`, as
/// `TreeBuilder::fragment_raw_kind` gives it; `Some(None)`: PLAINTEXT). No start
/// tag has been emitted, so no end tag is "appropriate" (§13.2.5): the context's raw text
/// runs to the end (`tests4.dat`: `<!-- inside </script> -->` in `<script>` is all text).
pub fn tokenize_fragment<S: TokenSink>(
    html: &str,
    sink: &S,
    start: Option<Option<RawKind>>,
) -> Outcome {
    let mode = match start {
        None => Mode::Data,
        Some(None) => Mode::Plaintext,
        Some(Some(RawKind::Rcdata)) => Mode::Rcdata {
            strip: false,
            in_noscript: false,
        },
        Some(Some(RawKind::Rawtext)) => Mode::Rawtext {
            strip: false,
            in_noscript: false,
        },
        Some(Some(RawKind::ScriptData)) => Mode::Script { strip: false },
    };
    let probe = Pressure::default;
    let budget = Budget::unlimited();
    tokenize_from(
        html,
        sink,
        (false, false),
        &budget,
        &probe,
        usize::MAX,
        mode,
        "",
    )
}

#[allow(clippy::too_many_arguments)]
fn tokenize_from<S: TokenSink>(
    html: &str,
    sink: &S,
    (guarded, strip): (bool, bool),
    budget: &Budget,
    probe: &dyn Fn() -> Pressure,
    max_nodes: usize,
    mode: Mode,
    last_start: &str,
) -> Outcome {
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    // Newline normalisation first, so every later state sees only `\n`.
    let normalised;
    let src: &str = if memchr(b'\r', html.as_bytes()).is_some() {
        normalised = html.replace("\r\n", "\n").replace('\r', "\n");
        &normalised
    } else {
        html
    };
    let lexer = Lexer {
        b: src.as_bytes(),
        src,
        sink,
        tracker: guarded.then(|| {
            RefCell::new(Tracker::new(
                strip && !guard::mentions_frameset(src.as_bytes()),
            ))
        }),
        attrs: RefCell::new(Vec::new()),
        tag_attrs: RefCell::new(Vec::new()),
        untracked_end: Cell::new(usize::MAX),
        raw_open: RefCell::new(None),
        closing_raw: Cell::new(false),
        budget,
        probe,
        max_nodes,
        until_probe: Cell::new(0),
        crowded: Cell::new(false),
        flat: Cell::new(false),
    };
    let outcome = lexer.run(mode, last_start.to_owned());
    let _ = sink.process_token(Token::Eof);
    sink.end();
    outcome
}

/// What the tree builder asked the tokenizer to read next; `strip`: read it without
/// emitting it.
enum Mode {
    Data,
    /// `in_noscript`: see [`Start::Raw`].
    Rcdata {
        strip: bool,
        in_noscript: bool,
    },
    Rawtext {
        strip: bool,
        in_noscript: bool,
    },
    Script {
        strip: bool,
    },
    Plaintext,
}

struct Lexer<'a, S> {
    src: &'a str,
    b: &'a [u8],
    sink: &'a S,
    /// The pre-pass's open-element model, when guarding.
    tracker: Option<RefCell<Tracker>>,
    /// Attribute ranges of the tag being read (reused).
    attrs: RefCell<Vec<guard::Attr>>,
    /// The attributes of the start tag being emitted (reused: its token borrows them).
    tag_attrs: RefCell<Vec<Attribute<'a>>>,
    /// Where the end tag of a stripped SVG subtree starts: the tracker never saw that
    /// subtree open, so it must not see it close.
    untracked_end: Cell<usize>,
    /// The raw text element (title, style, script, …) the tree builder is reading the text
    /// of: until an end tag closes it, the tree builder's text mode takes only text and end
    /// tags, so [`Lexer::emit`] closes it before any other token.
    raw_open: RefCell<Option<String>>,
    /// The next end tag closes a raw text section (see [`Tracker::end_raw`]).
    closing_raw: Cell<bool>,
    budget: &'a Budget,
    /// What the tree builder holds (see [`Pressure`]).
    probe: &'a dyn Fn() -> Pressure,
    max_nodes: usize,
    /// Start tags until the next probe, and its verdicts: over [`MAX_OPEN`]; over
    /// `max_nodes` (latched: from then on the page is read flat).
    until_probe: Cell<u32>,
    crowded: Cell<bool>,
    flat: Cell<bool>,
}

/// One decoded character reference: up to two characters.
pub struct CharRef {
    pub chars: [char; 2],
    pub len: usize,
}

impl CharRef {
    fn push_to(&self, out: &mut String) {
        for c in &self.chars[..self.len] {
            out.push(*c);
        }
    }
}

impl<'a, S: TokenSink> Lexer<'a, S> {
    /// Hand `token` to the tree builder. Inlined into each caller (a tag, a run of text,
    /// ...): every token passes here, and as a call of its own the token was copied once
    /// more and the call's frame set up for it (4% of the table page's parse).
    #[inline(always)]
    fn emit(&self, token: Token<'_>) -> SinkResult {
        if self.raw_open.borrow().is_some() {
            self.close_raw_before(&token);
        }
        self.sink.process_token(token)
    }

    /// Before `token`, the end tag of the raw text element still open, if `token` is one
    /// the tree builder's text mode does not take.
    #[cold]
    fn close_raw_before(&self, token: &Token<'_>) {
        match token {
            Token::Tag(tag) if tag.kind == TagKind::EndTag => {
                self.raw_open.replace(None);
            }
            // A stripped raw text section's markup: the tree builder reads only text and
            // end tags in the text mode, so its element is closed first.
            Token::Tag(_) | Token::Comment(_) | Token::Null => {
                if let Some(name) = self.raw_open.take() {
                    let _ = self.sink.process_token(Token::Tag(Tag::new(
                        TagKind::EndTag,
                        Cow::Owned(name),
                        false,
                        Vec::new(),
                    )));
                }
            }
            // Text, end of input and doctypes: taken in any mode.
            _ => {}
        }
    }

    /// A slice of the input.
    fn slice(&self, from: usize, to: usize) -> Cow<'a, str> {
        Cow::Borrowed(&self.src[from..to])
    }

    /// Text borrowed from the input: the tree builder's own way for it
    /// ([`TokenSink::process_text`]). No raw text element to close first: the text mode
    /// takes text.
    fn emit_text(&self, from: usize, to: usize) {
        if to > from {
            let _ = self.sink.process_text(&self.src[from..to]);
        }
    }

    /// Read from the start in `mode`; `last_start`: the name of the last start tag that
    /// opened raw text (for a fragment, the context element's), whose end tag ends RCDATA,
    /// RAWTEXT and script data.
    fn run(&self, mut mode: Mode, mut last_start: String) -> Outcome {
        let len = self.b.len();
        let mut pos = 0;
        let mut until_check = BUDGET_EVERY;
        while pos < len {
            until_check -= 1;
            if until_check == 0 {
                until_check = BUDGET_EVERY;
                if let Err(why) = self.budget.check() {
                    return Outcome::Interrupted(why);
                }
            }
            match mode {
                Mode::Data => {}
                Mode::Rcdata { strip, in_noscript } | Mode::Rawtext { strip, in_noscript } => {
                    // No last start tag (a fragment's context): no end tag ends it.
                    let (end, unclosed) = if last_start.is_empty() {
                        (len, false)
                    } else {
                        guard::raw_end(self.b, pos, last_start.as_bytes(), in_noscript)
                    };
                    if strip {
                    } else if matches!(mode, Mode::Rcdata { .. }) {
                        self.rcdata_text(pos, end);
                    } else {
                        self.text_replacing_nul(pos, end);
                    }
                    if unclosed {
                        // The end tag the pre-pass inserts before `</noscript>`.
                        let _ = self.emit(Token::Tag(Tag::new(
                            TagKind::EndTag,
                            Cow::Borrowed(&last_start),
                            false,
                            Vec::new(),
                        )));
                    }
                    pos = end;
                    self.closing_raw.set(!unclosed && end < len);
                    mode = Mode::Data;
                    continue;
                }
                Mode::Script { strip } => {
                    let end = if last_start.is_empty() {
                        len
                    } else {
                        guard::script_end(self.b, pos)
                    };
                    if !strip {
                        self.text_replacing_nul(pos, end);
                    }
                    pos = end;
                    self.closing_raw.set(end < len);
                    mode = Mode::Data;
                    continue;
                }
                Mode::Plaintext => {
                    self.text_replacing_nul(pos, len);
                    return Outcome::Complete;
                }
            }
            pos = self.data(pos);
            if pos >= len {
                return Outcome::Complete;
            }
            // `data` stops only at a `<` that starts markup.
            let (next, switch, start) = self.markup(pos, &mut last_start);
            pos = next;
            // Content is emptied only where the tree builder and the tracker agree on what
            // it is.
            let (strip, in_noscript) = match start {
                Start::Raw { strip, in_noscript } => (strip, in_noscript),
                _ => (false, false),
            };
            mode = match switch {
                SinkResult::Raw(RawKind::Rcdata) => Mode::Rcdata { strip, in_noscript },
                SinkResult::Raw(RawKind::Rawtext) => Mode::Rawtext { strip, in_noscript },
                SinkResult::Raw(RawKind::ScriptData) => Mode::Script {
                    strip: matches!(start, Start::Script { strip: true }),
                },
                SinkResult::Plaintext => Mode::Plaintext,
                SinkResult::Continue => Mode::Data,
            };
            if matches!(
                mode,
                Mode::Rcdata { .. } | Mode::Rawtext { .. } | Mode::Script { .. }
            ) {
                self.raw_open.replace(Some(last_start.clone()));
            }
        }
        Outcome::Complete
    }

    /// Whether the tree builder holds more than [`MAX_OPEN`] open elements and formatting
    /// entries, probed every [`PROBE_EVERY`] start tags (every [`PROBE_CROWDED`] while
    /// over): between probes a few more can open, never an unbounded number. The same probe
    /// latches [`Lexer::flat`].
    fn crowded(&self) -> bool {
        let left = self.until_probe.get();
        if left > 0 {
            self.until_probe.set(left - 1);
            return self.crowded.get();
        }
        let p = (self.probe)();
        let crowded = p.open > MAX_OPEN;
        self.crowded.set(crowded);
        if p.nodes > self.max_nodes {
            self.flat.set(true);
        }
        self.until_probe
            .set(if crowded { PROBE_CROWDED } else { PROBE_EVERY });
        crowded
    }

    /// Whether the `<` at `at` starts a tag, comment, doctype or bogus comment (otherwise it
    /// is text).
    fn starts_markup(&self, at: usize) -> bool {
        match self.b.get(at + 1) {
            Some(c) if c.is_ascii_alphabetic() => true,
            Some(b'!' | b'?') => true,
            // `</` then end of input is text; `</>` and `</x` are markup.
            Some(b'/') => at + 2 < self.b.len(),
            _ => false,
        }
    }

    /// Data state: emit text from `pos` up to the next markup `<` (or the end); return where
    /// that `<` is.
    fn data(&self, mut pos: usize) -> usize {
        let b = self.b;
        let mut seg = pos;
        let mut owned: Option<String> = None;
        loop {
            let Some(at) = find_any(b, pos, [b'<', b'&', 0]) else {
                pos = b.len();
                break;
            };
            match b[at] {
                b'<' => {
                    if self.starts_markup(at) {
                        pos = at;
                        break;
                    }
                    pos = at + 1;
                }
                b'&' => match self.char_ref_in(at, self.b.len(), false) {
                    Some((r, next)) => {
                        let o = owned.get_or_insert_with(String::new);
                        o.push_str(&self.src[seg..at]);
                        r.push_to(o);
                        seg = next;
                        pos = next;
                    }
                    None => pos = at + 1,
                },
                _ => {
                    // NUL: its own token (the tree builder drops or replaces it by context).
                    self.flush(&mut owned, seg, at);
                    let _ = self.emit(Token::Null);
                    seg = at + 1;
                    pos = at + 1;
                }
            }
        }
        self.flush(&mut owned, seg, pos);
        pos
    }

    /// Emit pending decoded text plus `src[seg..to]`. Inlined: it ends every run of text,
    /// most of them short or empty, where the call cost more than the work.
    #[inline(always)]
    fn flush(&self, owned: &mut Option<String>, seg: usize, to: usize) {
        match owned.take() {
            Some(mut o) => {
                o.push_str(&self.src[seg..to]);
                if !o.is_empty() {
                    // Text, as `emit_text`'s: the tree builder copies what it keeps.
                    let _ = self.sink.process_text(&o);
                }
            }
            None => self.emit_text(seg, to),
        }
    }

    /// RCDATA text: character references decoded, NUL replaced.
    fn rcdata_text(&self, from: usize, to: usize) {
        let t = self.decode(from, to, false);
        if !t.is_empty() {
            let _ = self.emit(Token::Chars(t));
        }
    }

    /// RAWTEXT / script / PLAINTEXT text: NUL replaced by U+FFFD.
    fn text_replacing_nul(&self, from: usize, to: usize) {
        if memchr(0, &self.b[from..to]).is_none() {
            self.emit_text(from, to);
        } else {
            let t = self.src[from..to].replace('\0', "\u{fffd}");
            let _ = self.emit(Token::Chars(Cow::Owned(t)));
        }
    }

    /// `src[from..to]` with NUL replaced and (if `refs`) character references decoded; a
    /// zero-copy slice when there is nothing to change.
    fn decode(&self, from: usize, to: usize, in_attr: bool) -> Cow<'a, str> {
        let b = &self.b[..to];
        let mut pos = from;
        let mut seg = from;
        let mut owned: Option<String> = None;
        while let Some(off) = memchr3(b'&', 0, 0, &b[pos..]) {
            let at = pos + off;
            let o = owned.get_or_insert_with(String::new);
            if b[at] == 0 {
                o.push_str(&self.src[seg..at]);
                o.push('\u{fffd}');
                seg = at + 1;
                pos = at + 1;
                continue;
            }
            match self.char_ref_in(at, to, in_attr) {
                Some((r, next)) => {
                    o.push_str(&self.src[seg..at]);
                    r.push_to(o);
                    seg = next;
                    pos = next;
                }
                None => pos = at + 1,
            }
        }
        match owned {
            Some(mut o) => {
                o.push_str(&self.src[seg..to]);
                Cow::Owned(o)
            }
            None => self.slice(from, to),
        }
    }

    /// The character reference whose `&` is at `at`, read no further than `end` ([`char_ref`]).
    fn char_ref_in(&self, at: usize, end: usize, in_attr: bool) -> Option<(CharRef, usize)> {
        char_ref(self.src, &self.b[..end], at, in_attr)
    }

    /// Whether a `<![CDATA[` here opens a CDATA section: the tree builder knows. Where the
    /// tracker is unsure, stripping stops (as in the pre-pass).
    fn cdata_here(&self) -> bool {
        if let Some(t) = &self.tracker {
            let mut t = t.borrow_mut();
            if t.cdata() == guard::Cdata::Unsure {
                t.stripping = false;
            }
        }
        self.sink
            .adjusted_current_node_present_but_not_in_html_namespace()
    }

    fn stripping(&self) -> bool {
        self.tracker.as_ref().is_some_and(|t| t.borrow().stripping)
    }

    /// The markup starting with the `<` at `at`: emit its token; return where reading goes
    /// on, the tree builder's answer and the tracker's verdict (for start tags).
    fn markup(&self, at: usize, last_start: &mut String) -> (usize, SinkResult, Start) {
        let b = self.b;
        let cont = SinkResult::Continue;
        let keep = Start::Markup;
        // Only the markup right after a raw text section can close it.
        let closing_raw = self.closing_raw.replace(false);
        match b[at + 1] {
            b'/' => {
                let c = b[at + 2];
                if c.is_ascii_alphabetic() {
                    match self.end_tag(at, closing_raw) {
                        Some((Some(tag), end)) => (end, self.emit(Token::Tag(tag)), keep),
                        Some((None, end)) => (end, cont, keep),
                        None => (b.len(), cont, keep),
                    }
                } else if c == b'>' {
                    (at + 3, cont, keep)
                } else {
                    (self.bogus_comment(at + 2), cont, keep)
                }
            }
            b'!' => {
                let rest = &b[at + 2..];
                if rest.starts_with(b"--") {
                    (self.comment(at), cont, keep)
                } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                    (self.doctype(at), cont, keep)
                } else if rest.starts_with(b"[CDATA[") && self.cdata_here() {
                    (self.cdata(at + 9), cont, keep)
                } else {
                    (self.bogus_comment(at + 2), cont, keep)
                }
            }
            b'?' => (self.bogus_comment(at + 1), cont, keep),
            _ => match self.start_tag(at) {
                Some((Some(tag), end, start)) => {
                    // The name is read only by the raw text that may follow (its end tag):
                    // kept when the tree builder answers so, not copied for every tag. A
                    // lowercased name goes with the token, so it is kept before.
                    let name = match &tag.name {
                        Cow::Borrowed(name) => Some(*name),
                        Cow::Owned(name) => {
                            last_start.clear();
                            last_start.push_str(name);
                            None
                        }
                    };
                    let attrs = self.tag_attrs.borrow();
                    let tag = Tag {
                        attrs: Cow::Borrowed(&attrs),
                        ..tag
                    };
                    let answer = self.emit(Token::Tag(tag));
                    if let (Some(name), SinkResult::Raw(_)) = (name, answer) {
                        last_start.clear();
                        last_start.push_str(name);
                    }
                    match start {
                        // Skip the subtree's content; its end tag is read next.
                        Start::Svg { end: content_end } => {
                            self.untracked_end.set(content_end);
                            (content_end, answer, start)
                        }
                        _ => (end, answer, start),
                    }
                }
                Some((None, end, start)) => (end, cont, start),
                None => (b.len(), cont, keep),
            },
        }
    }

    /// The end tag whose `<` is at `at`: the token (`None` if the tracker drops it) and
    /// where it ends; `None` if the input ends inside it. `closing_raw`: it closes a raw text
    /// section, and is never dropped.
    fn end_tag(&self, at: usize, closing_raw: bool) -> Option<(Option<Tag<'a>>, usize)> {
        let b = self.b;
        let from = at + 2;
        let (name_end, fold) = tag_name_end(b, from);
        // An end tag's attributes are read past, never kept.
        let tag = guard::scan_tag_keeping(b, name_end, &mut self.attrs.borrow_mut(), 0)?;
        let name = self.tag_name(from, name_end, fold);
        let id = match &self.tracker {
            Some(t) => {
                let key = guard::name_key_read(b, from, name_end, fold);
                if self.untracked_end.get() == at {
                    self.untracked_end.set(usize::MAX);
                } else if closing_raw {
                    t.borrow_mut().end_raw(key);
                } else if t.borrow_mut().end_tag(key) {
                    return Some((None, tag.end));
                }
                tag_ids::known_key(&key, name_end - from)
            }
            None => tag_ids::known(&name),
        };
        let token = Tag {
            kind: TagKind::EndTag,
            name,
            self_closing: tag.self_closing,
            attrs: Cow::Borrowed(&[]),
            id,
        };
        Some((Some(token), tag.end))
    }

    /// The start tag whose `<` is at `at`: the token (`None` if the tracker drops it) with
    /// its attributes left in [`Lexer::tag_attrs`], for the token to borrow, where it ends
    /// and the tracker's verdict; `None` if the input ends inside it (the tag is then
    /// dropped, as the tokenizer does at end of input).
    fn start_tag(&self, at: usize) -> Option<(Option<Tag<'a>>, usize, Start)> {
        let b = self.b;
        let from = at + 1;
        let (name_end, fold) = tag_name_end(b, from);
        let mut ranges = self.attrs.borrow_mut();
        // Guarded, no more than the cap decides on are kept (a tag past it is dropped);
        // without the guard (trusted input), all.
        let keep = if self.tracker.is_some() {
            guard::KEPT_ATTRS
        } else {
            usize::MAX
        };
        let tag = guard::scan_tag_keeping(b, name_end, &mut ranges, keep)?;
        // The name's id, looked up once here for the guard's classes and the tree builder.
        let (start, strip, id) = match &self.tracker {
            Some(t) => {
                let mut t = t.borrow_mut();
                let key = guard::name_key_read(b, from, name_end, fold);
                let id = tag_ids::known_key(&key, name_end - from);
                let class = TagClass::of_id(id);
                // `crowded` first: it also probes for `flat`.
                let crowded = self.crowded();
                let start = if (crowded && class.opens_element())
                    || (self.flat.get() && class.flattens())
                {
                    t.drop_crowded(key, tag.self_closing)
                } else {
                    t.start_tag(b, tag.end, (key, class), tag.self_closing, &ranges)
                };
                (start, t.stripping, id)
            }
            None => (Start::Markup, false, tag_ids::NO_NAME),
        };
        if start == Start::Drop {
            return Some((None, tag.end, start));
        }
        let mut attrs = self.tag_attrs.borrow_mut();
        attrs.clear();
        for a in ranges.iter() {
            let (n0, n1) = a.name;
            // An attribute no view reads is left out, wherever it stands (the pre-pass cuts
            // one right after a `/` with its slashes: see `guard::slash_run`). One that is
            // read has its name's id from the key that tells.
            let key = if strip {
                match guard::read_attr_key(&b[n0..n1]) {
                    Some(key) => Some(key),
                    None => continue,
                }
            } else {
                None
            };
            let value = match a.value {
                None => Cow::Borrowed(""),
                // Long `data:` URLs are cut to their scheme, as the pre-pass does: every
                // view treats them alike.
                Some((s, e, true))
                    if strip
                        && e - s >= guard::LONG_ATTR
                        && b[s..s + 5].eq_ignore_ascii_case(b"data:") =>
                {
                    self.decode(s, s + 5, true)
                }
                // Nothing to decode (the scanner found no `&` and no NUL in it).
                Some((s, e, _)) if a.clean => self.slice(s, e),
                Some((s, e, _)) => self.decode(s, e, true),
            };
            let name = self.name(n0, n1);
            let id = match key {
                Some(key) => tag_ids::known_key(&key, n1 - n0),
                None => tag_ids::known(&name),
            };
            // The first of each name counts; later duplicates are dropped.
            if !attrs.iter().any(|x| x.name == name) {
                attrs.push(Attribute { name, value, id });
            }
        }
        let name = self.tag_name(from, name_end, fold);
        let id = match self.tracker {
            Some(_) => id,
            None => tag_ids::known(&name),
        };
        let token = Tag {
            kind: TagKind::StartTag,
            name,
            self_closing: tag.self_closing,
            attrs: Cow::Borrowed(&[]),
            id,
        };
        Some((Some(token), tag.end, start))
    }

    /// A tag or attribute name: ASCII lowercased, NUL replaced.
    fn name(&self, from: usize, to: usize) -> Cow<'a, str> {
        let raw = &self.src[from..to];
        if raw.bytes().any(|c| c.is_ascii_uppercase() || c == 0) {
            Cow::Owned(raw.to_ascii_lowercase().replace('\0', "\u{fffd}"))
        } else {
            Cow::Borrowed(raw)
        }
    }

    /// A tag's name read by [`tag_name_end`]: [`Lexer::name`] without a second pass over it
    /// when `fold` says it holds no capital and no NUL.
    fn tag_name(&self, from: usize, to: usize, fold: bool) -> Cow<'a, str> {
        if fold {
            self.name(from, to)
        } else {
            self.slice(from, to)
        }
    }

    /// `<!--` at `at`: emit the comment, return where it ends.
    fn comment(&self, at: usize) -> usize {
        let (text_end, end) = guard::comment_extent(self.b, at);
        let body = at + 4;
        let mut text_end = text_end.max(body);
        if text_end == self.b.len() {
            // End of input inside the comment: a trailing `--!`, `--` or `-` was the start
            // of a closing sequence, not text.
            let t = &self.b[body..];
            text_end -= if t.ends_with(b"--!") {
                3
            } else if t.ends_with(b"--") {
                2
            } else {
                usize::from(t.ends_with(b"-"))
            };
        }
        let text = if self.stripping() {
            Cow::Borrowed("")
        } else {
            self.decode_nul_only(body, text_end)
        };
        let _ = self.emit(Token::Comment(text));
        end
    }

    /// A bogus comment whose text starts at `from` and runs to the next `>`.
    fn bogus_comment(&self, from: usize) -> usize {
        let end = memchr(b'>', &self.b[from..]).map_or(self.b.len(), |e| from + e);
        let text = self.decode_nul_only(from, end);
        let _ = self.emit(Token::Comment(text));
        (end + 1).min(self.b.len())
    }

    fn decode_nul_only(&self, from: usize, to: usize) -> Cow<'a, str> {
        if memchr(0, &self.b[from..to]).is_none() {
            self.slice(from, to)
        } else {
            Cow::Owned(self.src[from..to].replace('\0', "\u{fffd}"))
        }
    }

    /// CDATA in SVG/MathML: text to `]]>`.
    fn cdata(&self, from: usize) -> usize {
        let (end, next) = match memchr::memmem::find(&self.b[from..], b"]]>") {
            Some(e) => (from + e, from + e + 3),
            None => (self.b.len(), self.b.len()),
        };
        let mut seg = from;
        while let Some(off) = memchr(0, &self.b[seg..end]) {
            self.emit_text(seg, seg + off);
            let _ = self.emit(Token::Null);
            seg += off + 1;
        }
        self.emit_text(seg, end);
        next
    }

    /// `<!DOCTYPE` at `at`: every DOCTYPE state ends at the next `>` (or the end of input).
    fn doctype(&self, at: usize) -> usize {
        let end = memchr(b'>', &self.b[at..]).map_or(self.b.len(), |e| at + e + 1);
        let doctype = super::doctype::tokenize(&self.src[at..end]);
        let _ = self.emit(Token::Doctype(Box::new(doctype)));
        end
    }
}

/// Where the tag name starting at `from` ends (at whitespace, `/`, `>` or the end of input, as
/// [`guard::tag_name_len`]), and whether it holds an ASCII capital or a NUL, which
/// [`Lexer::name`] replaces: one pass over the name for both (a tag's name was read once for
/// its end and once more for its case).
#[inline]
fn tag_name_end(b: &[u8], from: usize) -> (usize, bool) {
    let mut i = from;
    let mut fold = false;
    while let Some(&c) = b.get(i) {
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>') {
            break;
        }
        fold |= c.is_ascii_uppercase() || c == 0;
        i += 1;
    }
    (i, fold)
}

/// The first of the bytes `stops` in `b` from `from`: how the data state finds the end of a
/// run of text (`<`, `&`, NUL; a `\r` is gone by then, normalised before the lexer starts).
///
/// Why not `memchr3` alone: most runs are short (on the body-only bench page 45% of the runs
/// of text between two tags are empty and three in four under 8 bytes), and `memchr3`'s call
/// and setup cost more than such a run. The first [`SHORT_TEXT`] bytes are read 8 at a time
/// as a word (html5ever PR #601's technique, without SIMD intrinsics); a longer run goes on
/// in `memchr3`'s vector loop. (Measured in the release build: parse 3–4% faster on the 5 MB
/// bench pages; a byte-at-a-time loop in place of the words was no faster than `memchr3`,
/// and the same front in [`Lexer::decode`], whose attribute values are longer, cost more
/// than it saved.)
#[inline]
fn find_any(b: &[u8], from: usize, stops: [u8; 3]) -> Option<usize> {
    let [x, y, z] = stops;
    let short = b.len().min(from + SHORT_TEXT);
    let mut i = from;
    while i + 8 <= short {
        let word = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let hits =
            zero_bytes(word ^ splat(x)) | zero_bytes(word ^ splat(y)) | zero_bytes(word ^ splat(z));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    while i < short {
        if b[i] == x || b[i] == y || b[i] == z {
            return Some(i);
        }
        i += 1;
    }
    memchr3(x, y, z, &b[i..]).map(|off| i + off)
}

/// Bytes of a run read a word at a time before [`find_any`] hands over to
/// `memchr3`.
const SHORT_TEXT: usize = 32;

/// `byte` in every byte of a word.
const fn splat(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// A word with the high bit set in the lowest zero byte of `word` (bits above it may be set
/// too, by the subtraction's borrow; only the lowest is read).
const fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(splat(0x01)) & !word & splat(0x80)
}

/// Longer than the longest named character reference without its `;`
/// ("CounterClockwiseContourIntegral", 31): the longest with it.
const MAX_REF_NAME: usize = super::entities::LONGEST;

/// The character reference whose `&` is at `at` in `src` (read no further than `b`, a prefix
/// of `src`'s bytes): the characters and where the reference ends. `None` when the `&` is
/// literal text. The lexer decodes with it; the crate exports it for other readers of raw HTML.
pub fn char_ref(src: &str, b: &[u8], at: usize, in_attr: bool) -> Option<(CharRef, usize)> {
    match b.get(at + 1) {
        Some(b'#') => numeric_ref(b, at + 2),
        Some(c) if c.is_ascii_alphanumeric() => {
            let mut best: Option<((u32, u32), usize)> = None;
            // Fast path: a name ending in `;` that the table holds whole is the longest match
            // there can be (names are alphanumeric up to their `;`), found with one lookup
            // instead of one per prefix (the per-prefix walk was 8% of parsing).
            let run = b[at + 1..]
                .iter()
                .take(MAX_REF_NAME + 1)
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
            let semi = at + 1 + run;
            if run <= MAX_REF_NAME && b.get(semi) == Some(&b';') {
                if let Some(m) = super::entities::lookup(&src[at + 1..=semi]) {
                    if m.0 != 0 {
                        best = Some((m, semi + 1));
                    }
                }
            }
            let mut j = if best.is_some() { b.len() } else { at + 1 };
            while j < b.len() {
                let c = b[j];
                if !(c.is_ascii_alphanumeric() || c == b';') {
                    break;
                }
                match super::entities::lookup(&src[at + 1..=j]) {
                    Some(m) => {
                        if m.0 != 0 {
                            best = Some((m, j + 1));
                        }
                    }
                    None => break,
                }
                j += 1;
                if c == b';' {
                    break;
                }
            }
            let ((c1, c2), next) = best?;
            // Historical rule: in attribute values, `&amp=` and `&ampx` without the
            // semicolon stay literal (they are usually URL query strings).
            if in_attr
                && b[next - 1] != b';'
                && b.get(next)
                    .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())
            {
                return None;
            }
            let first = char::from_u32(c1).unwrap_or('\u{fffd}');
            let second = char::from_u32(c2).unwrap_or('\u{fffd}');
            Some((
                CharRef {
                    chars: [first, second],
                    len: if c2 == 0 { 1 } else { 2 },
                },
                next,
            ))
        }
        _ => None,
    }
}

/// `&#` ... with digits from `from`: the character and where the reference ends; `None` (a
/// literal `&`) without digits.
fn numeric_ref(b: &[u8], from: usize) -> Option<(CharRef, usize)> {
    let hex = matches!(b.get(from), Some(b'x' | b'X'));
    let mut i = from + usize::from(hex);
    let digits_start = i;
    let mut n: u32 = 0;
    while let Some(&c) = b.get(i) {
        let d = match (hex, c) {
            (_, b'0'..=b'9') => u32::from(c - b'0'),
            (true, b'a'..=b'f') => u32::from(c - b'a' + 10),
            (true, b'A'..=b'F') => u32::from(c - b'A' + 10),
            _ => break,
        };
        // Saturate past the Unicode range; the value is replaced below anyway.
        n = n
            .saturating_mul(if hex { 16 } else { 10 })
            .saturating_add(d)
            .min(0x11_0000);
        i += 1;
    }
    if i == digits_start {
        return None;
    }
    let terminated = b.get(i) == Some(&b';');
    if terminated {
        i += 1;
    }
    let c = match n {
        0 | 0xD800..=0xDFFF | 0x11_0000.. => '\u{fffd}',
        0x80..=0x9F => super::entities::C1_REPLACEMENTS[(n - 0x80) as usize]
            .unwrap_or_else(|| char::from_u32(n).unwrap_or('\u{fffd}')),
        _ => char::from_u32(n).unwrap_or('\u{fffd}'),
    };
    Some((
        CharRef {
            chars: [c, '\0'],
            len: 1,
        },
        i,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start tag as the name tests see it: name, attributes, whether the name was borrowed.
    type Seen = (String, Vec<(String, String)>, bool);

    /// Collects start tags for the name tests.
    #[derive(Default)]
    struct Tags(RefCell<Vec<Seen>>);

    impl TokenSink for Tags {
        fn process_token(&self, token: Token<'_>) -> SinkResult {
            if let Token::Tag(t) = token {
                if t.kind == TagKind::StartTag {
                    let borrowed = matches!(t.name, Cow::Borrowed(_));
                    let attrs = t
                        .attrs
                        .iter()
                        .map(|a| (a.name.to_string(), a.value.to_string()))
                        .collect();
                    self.0
                        .borrow_mut()
                        .push((t.name.into_owned(), attrs, borrowed));
                }
            }
            SinkResult::Continue
        }
    }

    fn start_tags(html: &str) -> Vec<Seen> {
        let sink = Tags::default();
        let budget = Budget::unlimited();
        let probe = || Pressure::default();
        tokenize(html, &sink, false, &budget, &probe, usize::MAX);
        sink.0.into_inner()
    }

    #[test]
    fn names_are_lowercased_and_borrowed_when_they_already_are() {
        let tags = start_tags("<div><DIV Data-Src=A><x\0y A=1 a=2 b=&amp;>");
        assert_eq!(tags[0], ("div".into(), vec![], true));
        assert_eq!(
            tags[1],
            ("div".into(), vec![("data-src".into(), "A".into())], false)
        );
        // NUL replaced; the first of two attributes of one name kept; references decoded.
        assert_eq!(
            tags[2],
            (
                "x\u{fffd}y".into(),
                vec![("a".into(), "1".into()), ("b".into(), "&".into())],
                false
            )
        );
    }

    #[test]
    fn find_any_finds_the_first_stop_wherever_it_stands() {
        // Stops before, inside and past the words read before `memchr3` takes over, at every
        // offset of a word, and none at all.
        for len in 0..80 {
            for stop in 0..=len {
                for byte in [b'<', b'&', 0] {
                    let mut b = vec![b'a'; len];
                    // A byte one above a stop: the word trick must not take it for one.
                    b.iter_mut().step_by(3).for_each(|c| *c = b'=');
                    if stop < len {
                        b[stop] = byte;
                    }
                    for from in 0..=stop.min(len) {
                        let want = (stop < len).then_some(stop);
                        assert_eq!(
                            find_any(&b, from, [b'<', b'&', 0]),
                            want,
                            "{len} {stop} {from}"
                        );
                    }
                }
            }
        }
        // Bytes past 0x80 (UTF-8) and a later second stop.
        let s = "ééé\u{80}x&y<".as_bytes();
        assert_eq!(
            find_any(s, 0, [b'<', b'&', 0]),
            s.iter().position(|&c| c == b'&')
        );
    }

    /// Collects the text a fragment's tokens carry.
    #[derive(Default)]
    struct Text(RefCell<String>);

    impl TokenSink for Text {
        fn process_token(&self, token: Token<'_>) -> SinkResult {
            match token {
                Token::Chars(t) => self.0.borrow_mut().push_str(&t),
                Token::Tag(t) => self.0.borrow_mut().push_str(&format!("[{}]", t.name)),
                _ => {}
            }
            SinkResult::Continue
        }
    }

    fn fragment_text(html: &str, start: Option<Option<RawKind>>) -> String {
        let sink = Text::default();
        tokenize_fragment(html, &sink, start);
        sink.0.into_inner()
    }

    #[test]
    fn a_fragment_starts_in_its_contexts_state_and_no_end_tag_ends_it() {
        let script = Some(Some(RawKind::ScriptData));
        assert_eq!(
            fragment_text("<!-- a </script> -->", script),
            "<!-- a </script> -->"
        );
        let rcdata = Some(Some(RawKind::Rcdata));
        assert_eq!(fragment_text("<b>&amp;</title>", rcdata), "<b>&</title>");
        let rawtext = Some(Some(RawKind::Rawtext));
        assert_eq!(
            fragment_text("<b>&amp;</style>", rawtext),
            "<b>&amp;</style>"
        );
        assert_eq!(
            fragment_text("<b>&amp;</plaintext>", Some(None)),
            "<b>&amp;</plaintext>"
        );
        assert_eq!(fragment_text("<b>&amp;</b>", None), "[b]&[b]");
    }
}
