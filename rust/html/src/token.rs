//! The tokens the tree builder consumes, and the face a tokenizer feeds them through.
//!
//! Why types of our own rather than html5ever's: names and text borrow from the input
//! (`Cow::Borrowed` for the common case, a lowercase name or a run of text with nothing to
//! decode), where html5ever's tokens intern every name into a global atom table and wrap
//! every run of text in a reference-counted tendril. With these, html5ever is only a
//! development dependency: the reference of the differential tests and the conformance
//! runner, driving the builder through `html5ever_driver.rs` (feature `html5ever`).

use std::borrow::Cow;

/// Start or end tag.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TagKind {
    StartTag,
    EndTag,
}

/// An attribute of a tag as the tokenizer read it: name ASCII-lowercased, value decoded;
/// `id` the fixed id of its name, as [`Tag::id`] (build one with [`Attribute::new`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Attribute<'a> {
    pub name: Cow<'a, str>,
    pub value: Cow<'a, str>,
    pub id: u32,
}

impl<'a> Attribute<'a> {
    /// An attribute named `name` (already lowercased), its id looked up.
    pub fn new(name: Cow<'a, str>, value: Cow<'a, str>) -> Attribute<'a> {
        let id = crate::tree_builder::tag_ids::known(&name);
        Attribute { name, value, id }
    }
}

/// A start or end tag. `name` is ASCII-lowercased (U+0000 replaced by U+FFFD); `attrs`
/// holds the first of each name only (the tokenizer drops duplicates, as the spec does).
///
/// `id` is the fixed id of `name` ([`crate::tag`]; `u32::MAX` for any other name), looked
/// up once where the tag is read: the lexer has it from the key its guard reads the name by,
/// and the guard's classes and the tree builder's insertion modes match the integer. Build a
/// tag with [`Tag::new`], which looks it up; one whose `id` is not its name's builds a wrong
/// tree.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag<'a> {
    pub kind: TagKind,
    pub name: Cow<'a, str>,
    pub self_closing: bool,
    /// Borrowed from the lexer, which reads every tag's attributes into one buffer: no
    /// vector allocated and freed for each tag.
    pub attrs: Cow<'a, [Attribute<'a>]>,
    pub id: u32,
}

impl<'a> Tag<'a> {
    /// A tag named `name` (already lowercased), its id looked up.
    pub fn new(
        kind: TagKind,
        name: Cow<'a, str>,
        self_closing: bool,
        attrs: impl Into<Cow<'a, [Attribute<'a>]>>,
    ) -> Tag<'a> {
        let id = crate::tree_builder::tag_ids::known(&name);
        Tag {
            kind,
            name,
            self_closing,
            attrs: attrs.into(),
            id,
        }
    }
}

/// A DOCTYPE token. `None` keeps "missing" apart from "empty": quirks-mode detection
/// (§13.2.6.4.1) needs both.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Doctype {
    pub name: Option<String>,
    pub public_id: Option<String>,
    pub system_id: Option<String>,
    pub force_quirks: bool,
}

/// One token. The rare doctype is boxed, so that a token, moved from the lexer into the
/// tree builder, is the size of a tag rather than of three optional strings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Token<'a> {
    Doctype(Box<Doctype>),
    Tag(Tag<'a>),
    Comment(Cow<'a, str>),
    /// A run of characters (never containing U+0000: that is [`Token::Null`]).
    Chars(Cow<'a, str>),
    /// One U+0000 in data: each insertion mode decides whether to drop or replace it.
    Null,
    Eof,
}

/// The text-reading states a tree builder can switch its tokenizer to (§13.2.5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RawKind {
    Rcdata,
    Rawtext,
    ScriptData,
}

/// What the tokenizer reads next, as the tree builder answers a token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SinkResult {
    Continue,
    /// The start tag just given opened an element whose text is read in this state, up to
    /// its end tag.
    Raw(RawKind),
    /// `<plaintext>`: the rest of the input is text.
    Plaintext,
}

/// A consumer of tokens (the tree builder). `&self`, as a tokenizer holds its sink shared
/// while it asks it questions between tokens.
pub trait TokenSink {
    fn process_token(&self, token: Token<'_>) -> SinkResult;

    /// A run of characters borrowed from the input (never holding U+0000): the same as
    /// [`Token::Chars`], which a sink may take by a shorter way.
    fn process_text(&self, s: &str) -> SinkResult {
        self.process_token(Token::Chars(Cow::Borrowed(s)))
    }

    /// Whether the adjusted current node is an element outside the HTML namespace: a
    /// `<![CDATA[` opens a CDATA section only then (§13.2.5.42).
    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        false
    }

    /// The end of input has been processed.
    fn end(&self) {}
}

/// `s` without its first `n` bytes (a char boundary), borrowing where `s` borrows.
pub fn drop_front(s: Cow<'_, str>, n: usize) -> Cow<'_, str> {
    match s {
        Cow::Borrowed(b) => Cow::Borrowed(&b[n..]),
        Cow::Owned(mut o) => {
            o.drain(..n);
            Cow::Owned(o)
        }
    }
}
