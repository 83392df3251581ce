//! The WHATWG HTML tokenizer's DOCTYPE states (13.2.5.53 DOCTYPE to 13.2.5.68 bogus DOCTYPE)
//! as one pure function over the `<!DOCTYPE ...>` slice that the lexer has already found.
//! The token's name and identifiers decide quirks mode, so they must be exact; running
//! html5ever's tokenizer on this one slice was the last runtime use of its tokenizer.
//! Each DOCTYPE state ends the token at the first `>`, so the slice up to it holds the token.
//! The tests compare every DOCTYPE of html5lib-tests, and generated ones, with html5ever 0.40.

pub use crate::token::Doctype;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Id {
    Public,
    System,
}

/// The spec's states. Some are folded where the spec tells them apart only by the parse
/// error they report (no error is reported here):
/// - 13.2.5.53 DOCTYPE is [`State::BeforeName`]: it switches there on whitespace and
///   reconsumes anything else there, and before-name ignores whitespace;
/// - the double- and single-quoted identifier states are `Quoted(_, quote)`.
///
/// The states that "reconsume in the bogus DOCTYPE state" do so only for a character that is
/// not `>`, which that state ignores, so here they consume it and switch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    BeforeName,
    Name,
    AfterName,
    AfterKeyword(Id),
    BeforeId(Id),
    Quoted(Id, char),
    AfterPublicId,
    BetweenIds,
    AfterSystemId,
    Bogus,
}

/// The DOCTYPE token of `s`, which starts with `<!` + "DOCTYPE" in any case and runs to its
/// first `>` inclusive, or to the end of the input when it has none.
pub fn tokenize(s: &str) -> Doctype {
    use State::*;
    debug_assert!(s.len() >= 9 && s.as_bytes()[..9].eq_ignore_ascii_case(b"<!doctype"));
    let mut rest = s.get(9..).unwrap_or("");
    // The lexer's input is newline-normalised already; do it again for any other caller.
    let normalised;
    if rest.contains('\r') {
        normalised = rest.replace("\r\n", "\n").replace('\r', "\n");
        rest = &normalised;
    }
    let mut d = Doctype::default();
    let mut state = BeforeName;
    loop {
        // After DOCTYPE name: "PUBLIC" / "SYSTEM", ASCII case-insensitive, looked at before
        // consuming (they start with letters, so no other branch of the state could apply).
        if state == AfterName {
            let six = rest.as_bytes().get(..6);
            let kind = match six {
                Some(b) if b.eq_ignore_ascii_case(b"public") => Some(Id::Public),
                Some(b) if b.eq_ignore_ascii_case(b"system") => Some(Id::System),
                _ => None,
            };
            if let Some(kind) = kind {
                rest = &rest[6..];
                state = AfterKeyword(kind);
                continue;
            }
        }
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        rest = chars.as_str();
        // Every DOCTYPE state that treats U+0000 apart appends U+FFFD for it (names,
        // identifiers) or ignores it (bogus); the others treat it as "anything else".
        let c = if c == '\0' { '\u{FFFD}' } else { c };
        let space = matches!(c, '\t' | '\n' | '\x0C' | ' ');
        state = match state {
            BeforeName if space => BeforeName,
            BeforeName if c == '>' => {
                // missing-doctype-name
                d.force_quirks = true;
                return d;
            }
            BeforeName => {
                d.name = Some(String::from(c.to_ascii_lowercase()));
                Name
            }
            Name if space => AfterName,
            Name if c == '>' => return d,
            Name => {
                d.name
                    .get_or_insert_with(String::new)
                    .push(c.to_ascii_lowercase());
                Name
            }
            AfterName if space => AfterName,
            AfterName if c == '>' => return d,
            AfterName => {
                // invalid-character-sequence-after-doctype-name
                d.force_quirks = true;
                Bogus
            }
            // After the keyword (13.2.5.57 / .63) and before the identifier (.58 / .64) differ
            // only in the errors for a missing whitespace.
            AfterKeyword(id) | BeforeId(id) => match c {
                _ if space => BeforeId(id),
                '"' | '\'' => {
                    *slot(&mut d, id) = Some(String::new());
                    Quoted(id, c)
                }
                _ => {
                    // missing-doctype-*-identifier ('>') or missing-quote-before-*
                    d.force_quirks = true;
                    if c == '>' {
                        return d;
                    }
                    Bogus
                }
            },
            Quoted(id, quote) if c == quote => match id {
                Id::Public => AfterPublicId,
                Id::System => AfterSystemId,
            },
            Quoted(..) if c == '>' => {
                // abrupt-doctype-*-identifier
                d.force_quirks = true;
                return d;
            }
            Quoted(id, _) => {
                slot(&mut d, id).get_or_insert_with(String::new).push(c);
                state
            }
            // After the public identifier (13.2.5.60) and between the identifiers (.61) differ
            // only in the error for a missing whitespace.
            AfterPublicId | BetweenIds => match c {
                _ if space => BetweenIds,
                '>' => return d,
                '"' | '\'' => {
                    d.system_id = Some(String::new());
                    Quoted(Id::System, c)
                }
                _ => {
                    // missing-quote-before-doctype-system-identifier
                    d.force_quirks = true;
                    Bogus
                }
            },
            AfterSystemId if space => AfterSystemId,
            AfterSystemId if c == '>' => return d,
            // unexpected-character-after-doctype-system-identifier: no force-quirks.
            AfterSystemId => Bogus,
            Bogus if c == '>' => return d,
            Bogus => Bogus,
        };
    }
    // End of input: eof-in-doctype in every state but bogus DOCTYPE; in the DOCTYPE and
    // before-name states it creates the token first (the default one, with force-quirks).
    if state != Bogus {
        d.force_quirks = true;
    }
    d
}

fn slot(d: &mut Doctype, id: Id) -> &mut Option<String> {
    match id {
        Id::Public => &mut d.public_id,
        Id::System => &mut d.system_id,
    }
}

#[cfg(test)]
mod tests {
    use super::{tokenize, Doctype};
    use html5ever::tokenizer::{
        BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };
    use proptest::prelude::*;
    use std::cell::RefCell;

    struct Collect(RefCell<Vec<Doctype>>);

    impl TokenSink for Collect {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            if let Token::DoctypeToken(d) = token {
                self.0.borrow_mut().push(Doctype {
                    name: d.name.map(|t| t.to_string()),
                    public_id: d.public_id.map(|t| t.to_string()),
                    system_id: d.system_id.map(|t| t.to_string()),
                    force_quirks: d.force_quirks,
                });
            }
            TokenSinkResult::Continue
        }
    }

    /// html5ever's DOCTYPE token for the slice, as the lexer used to get it.
    fn reference(s: &str) -> Doctype {
        let tok = Tokenizer::new(Collect(RefCell::new(Vec::new())), TokenizerOpts::default());
        let queue = BufferQueue::default();
        queue.push_back(s.into());
        let _ = tok.feed(&queue);
        tok.end();
        let mut found = tok.sink.0.take();
        assert_eq!(found.len(), 1, "html5ever gave {found:?} for {s:?}");
        found.remove(0)
    }

    #[test]
    #[rustfmt::skip]
    fn spec_examples() {
        const NO: Option<&str> = None;
        const HTML: Option<&str> = Some("html");
        let cases = [
            // input, name, public id, system id, force-quirks
            ("<!DOCTYPE", NO, NO, NO, true),
            ("<!doctype>", NO, NO, NO, true),
            ("<!DOCTYPE html>", HTML, NO, NO, false),
            ("<!DOCTYPEHtMl>", HTML, NO, NO, false),
            ("<!DOCTYPE \0É\0>", Some("\u{FFFD}É\u{FFFD}"), NO, NO, false),
            ("<!DOCTYPE html public\"\">", HTML, Some(""), NO, false),
            ("<!DOCTYPE html SyStEm '\0'>", HTML, NO, Some("\u{FFFD}"), false),
            ("<!DOCTYPE html PUBLIC 'a'\"b\">", HTML, Some("a"), Some("b"), false),
            ("<!DOCTYPE html PUBLIC \"a>", HTML, Some("a"), NO, true),
            ("<!DOCTYPE html PUBLIC>", HTML, NO, NO, true),
            ("<!DOCTYPE html PUBLIC x>", HTML, NO, NO, true),
            ("<!DOCTYPE html SYSTEM 'a' x>", HTML, NO, Some("a"), false),
            ("<!DOCTYPE html SYSTEM 'a' x", HTML, NO, Some("a"), false),
            ("<!DOCTYPE html pub", HTML, NO, NO, true),
            ("<!DOCTYPE html\r\nPUBLIC 'a\r\nb\rc'>", HTML, Some("a\nb\nc"), NO, false),
        ];
        for (s, name, public, system, force_quirks) in cases {
            let want = Doctype {
                name: name.map(String::from),
                public_id: public.map(String::from),
                system_id: system.map(String::from),
                force_quirks,
            };
            assert_eq!(tokenize(s), want, "{s:?}");
        }
    }

    #[test]
    fn html5lib_tests_inputs_match_html5ever() {
        let cases = cases();
        assert_eq!(cases.len(), 894, "doctype_cases.txt was cut short");
        for s in &cases {
            assert_eq!(tokenize(s), reference(s), "{s:?}");
        }
    }

    /// Pieces of the generated inputs: the DOCTYPE grammar's words in both cases, a prefix of
    /// each keyword, every whitespace (and CR), both quotes, `>`, NUL and non-ASCII letters.
    #[rustfmt::skip]
    const PIECES: &[&str] = &[
        "<!DOCTYPE", "<!doctype", "html", "HTML", " ", "\t", "\n", "\x0C", "\r", "\r\n",
        "PUBLIC", "public", "PuB", "SYSTEM", "system", "sYs", "\"", "'", ">", "\0",
        "-//W3C//DTD HTML 4.01//EN", "x", "é", "É",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn generated_inputs_match_html5ever(
            start in prop::sample::select(&["<!DOCTYPE", "<!doctype", "<!DocType"][..]),
            body in prop::collection::vec(prop::sample::select(PIECES), 0..16),
            close in any::<bool>(),
        ) {
            let mut s = format!("{start}{}{}", body.concat(), if close { ">" } else { "" });
            if let Some(end) = s[9..].find('>') {
                s.truncate(9 + end + 1);
            }
            prop_assert_eq!(tokenize(&s), reference(&s), "{:?}", s);
        }
    }

    /// Every `<!DOCTYPE` (any case) in html5lib-tests, kept as data in `doctype_cases.txt`
    /// (its header says where they come from): one input a line, escaped as Rust writes a
    /// string's characters.
    fn cases() -> Vec<String> {
        include_str!("doctype_cases.txt")
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(unescape)
            .collect()
    }

    /// `\n`, `\r`, `\t`, `\0` and `\u{...}` to their characters (the file holds no other
    /// backslash).
    fn unescape(line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('0') => out.push('\0'),
                Some('u') => {
                    let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                    let code = u32::from_str_radix(&hex, 16).expect("a hex code point");
                    out.push(char::from_u32(code).expect("a character"));
                }
                other => panic!("unexpected escape {other:?} in {line:?}"),
            }
        }
        out
    }
}
