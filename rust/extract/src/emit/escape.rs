//! Escaping document text for Markdown: only what a CommonMark/GFM parser would otherwise
//! read as syntax, so the output stays pleasant for a language model to read.

/// Where a word lands.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context {
    /// First word on its line: block syntax (`#`, `>`, `- `, `1.`) is possible here.
    pub line_start: bool,
    /// Inside link text: brackets would end the link.
    pub in_link: bool,
    /// Inside a pipe-table cell: `|` would end the cell.
    pub in_cell: bool,
}

/// Bytes that may need a backslash somewhere; everything else is copied in bulk.
pub(crate) const fn special_table() -> [bool; 256] {
    let mut t = [false; 256];
    let s = b"\\`*_[]<&|~";
    let mut i = 0;
    while i < s.len() {
        t[s[i] as usize] = true;
        i += 1;
    }
    t
}
pub(super) static SPECIAL: [bool; 256] = special_table();

/// Append `word` (no whitespace inside) to `out`, escaped for `ctx`.
pub fn push_escaped(out: &mut String, word: &str, ctx: Context) {
    let bytes = word.as_bytes();
    let mut from = 0;
    if ctx.line_start {
        from = escape_line_start(out, word);
    }
    let mut copied = from;
    for i in from..bytes.len() {
        let b = bytes[i];
        if !SPECIAL[b as usize] {
            continue;
        }
        let prev = if i > 0 { Some(bytes[i - 1]) } else { None };
        let next = bytes.get(i + 1).copied();
        let escape = match b {
            b'\\' => next.is_some_and(|n| n.is_ascii_punctuation()),
            b'`' => true,
            // A lone `*` between spaces is literal; touching text it could open emphasis.
            b'*' => bytes.len() > 1,
            // Intraword underscores (snake_case) are never emphasis in CommonMark.
            b'_' => !(prev.is_some_and(is_word_byte) && next.is_some_and(is_word_byte)),
            b'[' => ctx.in_link,
            b']' => ctx.in_link || matches!(next, Some(b'(' | b'[' | b':')),
            b'<' => {
                next.is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?'))
            }
            b'&' => looks_like_entity(&bytes[i + 1..]),
            b'|' => ctx.in_cell,
            b'~' => prev == Some(b'~') || next == Some(b'~'),
            _ => false,
        };
        if escape {
            out.push_str(&word[copied..i]);
            out.push('\\');
            copied = i;
        }
    }
    out.push_str(&word[copied..]);
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

/// `&name;` or `&#123;` would be decoded again by a Markdown renderer.
fn looks_like_entity(rest: &[u8]) -> bool {
    let body_len = rest
        .iter()
        .take(33)
        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'#'))
        .unwrap_or(rest.len().min(33));
    body_len > 0 && rest.get(body_len) == Some(&b';')
}

/// Escape block syntax at the start of a line; returns how many bytes were consumed.
fn escape_line_start(out: &mut String, word: &str) -> usize {
    let bytes = word.as_bytes();
    let Some(&first) = bytes.first() else {
        return 0;
    };
    let all = |c: u8| bytes.iter().all(|&b| b == c);
    match first {
        // Heading: up to six '#' followed by a space (the word ends here).
        b'#' if bytes.len() <= 6 && all(b'#') => escape_first(out, word),
        b'>' => escape_first(out, word),
        // Bullet or thematic break / setext underline.
        b'-' | b'+' | b'*' if bytes.len() == 1 => escape_first(out, word),
        b'-' | b'=' | b'_' | b'*' if bytes.len() >= 2 && all(first) => escape_first(out, word),
        b'~' if bytes.len() >= 3 && all(b'~') => escape_first(out, word),
        b'0'..=b'9' => {
            // Ordered list marker: digits then '.' or ')' ending the word.
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits <= 9 && digits + 1 == bytes.len() && matches!(bytes[digits], b'.' | b')') {
                out.push_str(&word[..digits]);
                out.push('\\');
                out.push_str(&word[digits..]);
                bytes.len()
            } else {
                0
            }
        }
        _ => 0,
    }
}

fn escape_first(out: &mut String, word: &str) -> usize {
    out.push('\\');
    let first_len = word.chars().next().map_or(0, char::len_utf8);
    out.push_str(&word[..first_len]);
    first_len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(word: &str, ctx: Context) -> String {
        let mut s = String::new();
        push_escaped(&mut s, word, ctx);
        s
    }

    #[test]
    fn inline_rules() {
        let c = Context::default();
        assert_eq!(esc("snake_case_name", c), "snake_case_name");
        assert_eq!(esc("_emph_", c), "\\_emph\\_");
        assert_eq!(esc("2*3", c), "2\\*3");
        assert_eq!(esc("[1]", c), "[1]");
        assert_eq!(esc("[x](y)", c), "[x\\](y)");
        assert_eq!(esc("a<b", c), "a\\<b");
        assert_eq!(esc("a<3", c), "a<3");
        assert_eq!(esc("AT&T", c), "AT&T");
        assert_eq!(esc("&amp;", c), "\\&amp;");
        assert_eq!(esc("C:\\dir", c), "C:\\dir");
        assert_eq!(esc("a|b", c), "a|b");
        assert_eq!(esc("a|b", Context { in_cell: true, ..c }), "a\\|b");
        assert_eq!(esc("`x`", c), "\\`x\\`");
        assert_eq!(esc("~~x~~", c), "\\~\\~x\\~\\~");
    }

    #[test]
    fn line_start_rules() {
        let c = Context {
            line_start: true,
            ..Context::default()
        };
        assert_eq!(esc("#", c), "\\#");
        assert_eq!(esc("#hashtag", c), "#hashtag");
        assert_eq!(esc(">", c), "\\>");
        assert_eq!(esc("-", c), "\\-");
        assert_eq!(esc("---", c), "\\---");
        assert_eq!(esc("1.", c), "1\\.");
        assert_eq!(esc("2024.", c), "2024\\.");
        assert_eq!(esc("1.5", c), "1.5");
        assert_eq!(esc("*", c), "\\*");
    }
}
