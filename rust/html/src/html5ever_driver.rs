//! html5ever's tokenizer driving any [`TokenSink`] (the tree builder): the reference side of
//! the differential tests, the html5lib suite and fuzzing, which compare webgrip's own
//! lexer against html5ever's tokenizer feeding the same builder. Development only: built
//! for this crate's unit tests and, with the `html5ever` feature, for its integration tests,
//! webgrip-extract's `parse_probe` example and the fuzz targets; the shipped module never links html5ever.

use std::borrow::Cow;

use html5ever::tokenizer::states::{RawKind as HRawKind, State};
use html5ever::tokenizer::{self as h, BufferQueue, TagKind as HTagKind, Tokenizer, TokenizerOpts};

use crate::token::{Attribute, Doctype, RawKind, SinkResult, Tag, TagKind, Token, TokenSink};

/// `sink` behind html5ever's `TokenSink` face, each token converted (borrowing).
pub struct Html5everSink<S>(pub S);

impl<S: TokenSink> h::TokenSink for Html5everSink<S> {
    type Handle = ();

    fn process_token(&self, token: h::Token, _line: u64) -> h::TokenSinkResult<()> {
        let answer = match token {
            h::Token::DoctypeToken(d) => self.0.process_token(Token::Doctype(Box::new(Doctype {
                name: d.name.map(|s| s.to_string()),
                public_id: d.public_id.map(|s| s.to_string()),
                system_id: d.system_id.map(|s| s.to_string()),
                force_quirks: d.force_quirks,
            }))),
            h::Token::TagToken(t) => self.0.process_token(Token::Tag(Tag::new(
                match t.kind {
                    HTagKind::StartTag => TagKind::StartTag,
                    HTagKind::EndTag => TagKind::EndTag,
                },
                Cow::Borrowed(&t.name),
                t.self_closing,
                t.attrs
                    .iter()
                    .map(|a| Attribute::new(Cow::Borrowed(&a.name.local), Cow::Borrowed(&a.value)))
                    .collect::<Vec<_>>(),
            ))),
            h::Token::CommentToken(c) => self.0.process_token(Token::Comment(Cow::Borrowed(&c))),
            // A run of characters never holds a U+0000 (`Token::Chars`): html5ever's may (in
            // CDATA), so each is handed on as the lexer hands it, a `Token::Null` of its own.
            h::Token::CharacterTokens(s) if s.contains('\0') => {
                let mut answer = SinkResult::Continue;
                for (i, run) in s.split('\0').enumerate() {
                    if i > 0 {
                        answer = self.0.process_token(Token::Null);
                    }
                    if !run.is_empty() {
                        answer = self.0.process_token(Token::Chars(Cow::Borrowed(run)));
                    }
                }
                answer
            }
            h::Token::CharacterTokens(s) => self.0.process_token(Token::Chars(Cow::Borrowed(&s))),
            h::Token::NullCharacterToken => self.0.process_token(Token::Null),
            h::Token::EOFToken => self.0.process_token(Token::Eof),
            h::Token::ParseError(_) => SinkResult::Continue,
        };
        match answer {
            SinkResult::Continue => h::TokenSinkResult::Continue,
            SinkResult::Raw(RawKind::Rcdata) => h::TokenSinkResult::RawData(HRawKind::Rcdata),
            SinkResult::Raw(RawKind::Rawtext) => h::TokenSinkResult::RawData(HRawKind::Rawtext),
            SinkResult::Raw(RawKind::ScriptData) => {
                h::TokenSinkResult::RawData(HRawKind::ScriptData)
            }
            SinkResult::Plaintext => h::TokenSinkResult::Plaintext,
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.0
            .adjusted_current_node_present_but_not_in_html_namespace()
    }

    fn end(&self) {
        self.0.end();
    }
}

/// Run html5ever's tokenizer over `html` into `sink` and return the sink. `initial`: the
/// state a fragment context starts in (`Some(None)`: PLAINTEXT), with `last_start` its
/// element's name (what ends its raw text).
pub fn tokenize<S: TokenSink>(
    html: &str,
    sink: S,
    initial: Option<Option<RawKind>>,
    last_start: Option<&str>,
) -> S {
    let mut opts = TokenizerOpts::default();
    match initial {
        Some(Some(kind)) => {
            opts.initial_state = Some(State::RawData(match kind {
                RawKind::Rcdata => HRawKind::Rcdata,
                RawKind::Rawtext => HRawKind::Rawtext,
                RawKind::ScriptData => HRawKind::ScriptData,
            }))
        }
        Some(None) => opts.initial_state = Some(State::Plaintext),
        None => {}
    }
    opts.last_start_tag_name = last_start.map(str::to_owned);
    let tok = Tokenizer::new(Html5everSink(sink), opts);
    let input = BufferQueue::default();
    input.push_back(html.into());
    let _ = tok.feed(&input);
    tok.end();
    tok.sink.0
}

/// The other way round: an html5ever `TokenSink` (html5ever's own tree builder) behind this
/// crate's [`TokenSink`] face, so webgrip's lexer can feed it (the reference parse of the
/// tree builder's identity tests).
pub struct ToHtml5ever<'s, S>(pub &'s S);

impl<S: h::TokenSink> TokenSink for ToHtml5ever<'_, S> {
    fn process_token(&self, token: Token<'_>) -> SinkResult {
        use html5ever::tendril::StrTendril;
        use html5ever::{ns, LocalName, QualName};
        let token = match token {
            Token::Doctype(d) => h::Token::DoctypeToken(h::Doctype {
                name: d.name.map(|s| StrTendril::from_slice(&s)),
                public_id: d.public_id.map(|s| StrTendril::from_slice(&s)),
                system_id: d.system_id.map(|s| StrTendril::from_slice(&s)),
                force_quirks: d.force_quirks,
            }),
            Token::Tag(t) => h::Token::TagToken(h::Tag {
                kind: match t.kind {
                    TagKind::StartTag => HTagKind::StartTag,
                    TagKind::EndTag => HTagKind::EndTag,
                },
                name: LocalName::from(&*t.name),
                self_closing: t.self_closing,
                attrs: t
                    .attrs
                    .iter()
                    .map(|a| html5ever::Attribute {
                        name: QualName::new(None, ns!(), LocalName::from(&*a.name)),
                        value: StrTendril::from_slice(&a.value),
                    })
                    .collect(),
                had_duplicate_attributes: false,
            }),
            Token::Comment(c) => h::Token::CommentToken(StrTendril::from_slice(&c)),
            Token::Chars(s) => h::Token::CharacterTokens(StrTendril::from_slice(&s)),
            Token::Null => h::Token::NullCharacterToken,
            Token::Eof => h::Token::EOFToken,
        };
        match self.0.process_token(token, 1) {
            h::TokenSinkResult::RawData(HRawKind::Rcdata) => SinkResult::Raw(RawKind::Rcdata),
            h::TokenSinkResult::RawData(HRawKind::Rawtext) => SinkResult::Raw(RawKind::Rawtext),
            h::TokenSinkResult::RawData(_) => SinkResult::Raw(RawKind::ScriptData),
            h::TokenSinkResult::Plaintext => SinkResult::Plaintext,
            _ => SinkResult::Continue,
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.0
            .adjusted_current_node_present_but_not_in_html_namespace()
    }

    fn end(&self) {
        self.0.end();
    }
}
