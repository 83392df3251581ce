//! Block-aware output buffer shared by the text and Markdown emitters.
//!
//! Everything that depends on "what comes next" is kept pending until real content arrives:
//! line breaks (so empty elements add no blank lines), the collapsed space between words, list
//! markers and heading hashes (so empty items vanish), and inline wrappers such as `**` or
//! `[`…`](url)` (so emphasis never surrounds nothing, and spaces end up outside the markers).
//! A wrapper open when a line ends is closed before the newline and reopened on the next line,
//! so Markdown inline syntax never spans lines.

use std::borrow::Cow;

/// Prefixes written at the start of a line: the innermost ones. Why: every line repeats
/// its prefixes, so lists nested a few hundred deep (the parser allows 256 levels) would turn
/// a line of one character into a few hundred, and a 10 MiB page into gigabytes of
/// indentation. No reader follows more than a handful of levels.
const MAX_PREFIXES: usize = 16;

/// A per-line prefix: a list marker or heading hashes on its first line, then an indent (list
/// continuation, or `> ` for quotes) on every following line.
#[derive(Debug, Clone)]
struct Prefix {
    marker: Option<Cow<'static, str>>,
    indent: &'static str,
    /// Identity, to tell which prefixes two lines share.
    id: u64,
}

/// Inline syntax around content, written lazily.
#[derive(Debug, Clone)]
struct Wrap {
    open: &'static str,
    close: Cow<'static, str>,
    /// Position in the output just after the open marker, while it is written on this line.
    written_at: Option<usize>,
}

/// Everything that describes "where we are in the current line"; swapped out while a table
/// cell is captured so cell text starts clean and the outer state resumes afterwards.
#[derive(Debug, Default)]
pub struct LineState {
    prefixes: Vec<Prefix>,
    wraps: Vec<Wrap>,
    pending_nl: u8,
    hard_break: bool,
    pending_space: bool,
    line_started: bool,
    unwritten_marker: bool,
    inline_only: u32,
    /// The prefixes of the last content line: blank lines between blocks only carry the
    /// prefixes shared by the lines around them.
    content_prefixes: Vec<u64>,
    next_id: u64,
}

#[derive(Debug)]
pub struct Writer {
    pub out: String,
    markdown: bool,
    st: LineState,
    /// Inside inline code or `pre`: no Markdown escaping.
    pub verbatim: bool,
    /// Inside link text: brackets must be escaped.
    pub in_link: bool,
    /// Inside a captured table cell: `|` must be escaped, breaks become spaces or `<br>`.
    pub in_cell: bool,
    /// True until the first word of the current line has been written (line-start escapes).
    first_word: bool,
}

impl Writer {
    pub fn new(markdown: bool, capacity: usize) -> Self {
        Writer {
            out: String::with_capacity(capacity),
            markdown,
            st: LineState::default(),
            verbatim: false,
            in_link: false,
            in_cell: false,
            first_word: true,
        }
    }

    pub fn finish(mut self) -> String {
        self.close_written_wraps();
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out
    }

    /// Ask for the next content to start on a new line (`1`) or after a blank line (`2`).
    pub fn request_break(&mut self, lines: u8) {
        if self.st.inline_only > 0 {
            self.soft_space();
            return;
        }
        if self.st.unwritten_marker {
            // Nothing written since the list marker / heading: stay on the marker's line.
            return;
        }
        if lines > self.st.pending_nl {
            self.st.pending_nl = lines;
        }
    }

    /// `<br>`: a hard line break; two in a row make a paragraph break.
    pub fn line_break(&mut self) {
        if self.st.inline_only > 0 {
            if self.in_cell && self.markdown && self.st.line_started {
                self.ensure_content();
                self.out.push_str("<br>");
            } else {
                self.soft_space();
            }
            return;
        }
        if self.st.pending_nl >= 1 && self.st.hard_break {
            self.st.pending_nl = 2;
        } else if self.st.pending_nl == 0 {
            self.st.pending_nl = 1;
            self.st.hard_break = self.st.line_started;
        }
    }

    /// A collapsible space between words (dropped at line start and before a break).
    #[inline]
    pub fn soft_space(&mut self) {
        if self.st.line_started {
            self.st.pending_space = true;
        }
    }

    pub fn push_prefix(&mut self, marker: Option<Cow<'static, str>>, indent: &'static str) {
        self.st.unwritten_marker = marker.is_some();
        self.st.next_id += 1;
        let id = self.st.next_id;
        self.st.prefixes.push(Prefix { marker, indent, id });
    }

    pub fn pop_prefix(&mut self) {
        self.st.prefixes.pop();
        self.st.unwritten_marker = false;
    }

    pub fn push_wrap(&mut self, open: &'static str, close: Cow<'static, str>) {
        self.st.wraps.push(Wrap {
            open,
            close,
            written_at: None,
        });
    }

    /// Close the innermost wrapper; returns where its content started if it was written.
    pub fn pop_wrap(&mut self) -> Option<usize> {
        let wrap = self.st.wraps.pop()?;
        let at = wrap.written_at?;
        self.out.push_str(&wrap.close);
        Some(at)
    }

    pub fn begin_inline_only(&mut self) {
        self.st.inline_only += 1;
    }

    pub fn end_inline_only(&mut self) {
        self.st.inline_only = self.st.inline_only.saturating_sub(1);
    }

    /// Start capturing: the caller later takes `out[start..]`. Returns the saved line state.
    pub fn begin_capture(&mut self) -> LineState {
        let fresh = LineState {
            line_started: true,
            inline_only: 1,
            ..LineState::default()
        };
        std::mem::replace(&mut self.st, fresh)
    }

    /// Reset the per-cell state inside a capture (each cell starts a fresh "line").
    pub fn reset_capture_line(&mut self) {
        self.st.pending_space = false;
        self.st.pending_nl = 0;
        self.st.line_started = true;
        self.first_word = false;
    }

    pub fn end_capture(&mut self, saved: LineState) {
        self.st = saved;
    }

    /// Whether content can be appended to `out` as it is: no break, prefix, space or
    /// wrapper pending. Wrappers are written in order and unwritten from the last, so the
    /// written ones are always the first ones: the last one tells for all.
    #[inline]
    fn is_flushed(&self) -> bool {
        self.st.pending_nl == 0
            && self.st.line_started
            && !self.st.pending_space
            && self.st.wraps.last().is_none_or(|w| w.written_at.is_some())
    }

    /// Flush pending breaks, the line prefix, the pending space and open wrappers, so that
    /// content can be appended to `out`.
    pub fn ensure_content(&mut self) {
        if !self.is_flushed() {
            self.flush();
        }
    }

    /// [`Writer::ensure_content`]'s work when something is pending.
    fn flush(&mut self) {
        if self.st.pending_nl > 0 {
            if !self.out.is_empty() {
                self.close_written_wraps();
                if self.st.hard_break && self.st.pending_nl == 1 && self.markdown {
                    self.out.push_str("  ");
                }
                self.out.push('\n');
                for _ in 1..self.st.pending_nl {
                    self.push_blank_prefix();
                    self.out.push('\n');
                }
                self.st.line_started = false;
            }
            self.st.pending_nl = 0;
            self.st.hard_break = false;
            self.st.pending_space = false;
        }
        if !self.st.line_started {
            let skip = self.st.prefixes.len().saturating_sub(MAX_PREFIXES);
            for (i, p) in self.st.prefixes.iter_mut().enumerate() {
                match p.marker.take() {
                    _ if i < skip => {}
                    Some(m) => self.out.push_str(&m),
                    None => self.out.push_str(p.indent),
                }
            }
            self.st.unwritten_marker = false;
            self.st.line_started = true;
            self.st.pending_space = false;
            self.st.content_prefixes.clear();
            self.st
                .content_prefixes
                .extend(self.st.prefixes.iter().map(|p| p.id));
            self.first_word = true;
        } else if self.st.pending_space {
            self.out.push(' ');
            self.st.pending_space = false;
        }
        for w in self.st.wraps.iter_mut() {
            if w.written_at.is_none() {
                self.out.push_str(w.open);
                w.written_at = Some(self.out.len());
            }
        }
    }

    fn close_written_wraps(&mut self) {
        for w in self.st.wraps.iter_mut().rev() {
            if w.written_at.take().is_some() {
                self.out.push_str(&w.close);
            }
        }
    }

    fn push_blank_prefix(&mut self) {
        let start = self.out.len();
        let shared = self
            .st
            .prefixes
            .iter()
            .zip(&self.st.content_prefixes)
            .take_while(|(p, id)| p.id == **id)
            .count();
        let skip = self.st.prefixes.len().saturating_sub(MAX_PREFIXES);
        for p in &self.st.prefixes[skip.min(shared)..shared] {
            self.out.push_str(p.indent);
        }
        let trimmed = self.out[start..].trim_end().len();
        self.out.truncate(start + trimmed);
    }

    /// Text from the document: whitespace collapsed, Markdown-escaped when needed.
    ///
    /// After the first word the line is started, nothing is pending and every wrapper is
    /// written (that is what [`Writer::ensure_content`] leaves), so each later word is one
    /// space and the word: copied here as whole spans of the input wherever its words are
    /// already one space apart and hold no byte that may need escaping (most text), rather
    /// than a word at a time through `ensure_content`.
    pub fn push_text(&mut self, s: &str) {
        let bytes = s.as_bytes();
        if bytes.first().is_some_and(|&c| !starts_ws(bytes, 0, c)) {
            // Content starts here whatever follows, so pending breaks, spaces and wrappers
            // are written now (the paths below would do it first too).
            self.ensure_content();
            if !self.first_word && bytes.len() <= SHORT_TEXT {
                if let Some(end) = plain_end(bytes, self.plain_classes()) {
                    // Most short texts (a table cell's): written as they are in one copy.
                    self.out.push_str(&s[..end]);
                    if end < s.len() {
                        self.soft_space();
                    }
                    return;
                }
            }
        }
        let i = skip_ws(bytes, 0);
        if i > 0 {
            self.soft_space();
        }
        if i == bytes.len() {
            return;
        }
        let special = self.special();
        let end = word_end(bytes, i);
        // `s[span..end]` is written by the spans below.
        let span = if i == 0 && !self.first_word && self.is_flushed() {
            // Mid-line with nothing pending (the second text of a cell or a paragraph): the
            // first word is one more word of the span, escaped on its own as a later one.
            if !std::ptr::eq(special, &NOTHING) && bytes[..end].iter().any(|&c| special[c as usize])
            {
                self.push_later_word(&s[..end]);
                end
            } else {
                0
            }
        } else {
            self.push_word(&s[i..end]);
            end
        };
        if std::ptr::eq(special, &NOTHING) {
            self.push_plain_spans(s, span, end);
        } else {
            self.push_spans(s, span, end, special);
        }
    }

    /// The bytes that may need escaping in text written now.
    #[inline]
    fn special(&self) -> &'static [bool; 256] {
        if self.markdown && !self.verbatim {
            &super::escape::SPECIAL
        } else if self.markdown && self.in_cell {
            &PIPE
        } else {
            &NOTHING
        }
    }

    /// [`Writer::special`] as a [`plain_end`] table.
    #[inline]
    fn plain_classes(&self) -> &'static [u8; 256] {
        if self.markdown && !self.verbatim {
            &MARKDOWN_CLASSES
        } else if self.markdown && self.in_cell {
            &PIPE_CLASSES
        } else {
            &PLAIN_CLASSES
        }
    }

    /// [`Writer::push_spans`] for text that needs no escaping: the words are skipped eight
    /// bytes at a time ([`next_space_or_nbsp`]), stopping only where whitespace may start.
    fn push_plain_spans(&mut self, s: &str, span: usize, at: usize) {
        let bytes = s.as_bytes();
        let mut span = span;
        let mut i = at;
        loop {
            i = next_space_or_nbsp(bytes, i);
            let Some(&c) = bytes.get(i) else {
                break;
            };
            if !starts_ws(bytes, i, c) {
                i += 1;
                continue;
            }
            if c == b' '
                && bytes
                    .get(i + 1)
                    .is_some_and(|&n| !starts_ws(bytes, i + 1, n))
            {
                // One space before a word: kept in the span.
                i += 2;
                continue;
            }
            self.out.push_str(&s[span..i]);
            i = skip_ws(bytes, i);
            if i == bytes.len() {
                self.soft_space();
                return;
            }
            self.out.push(' ');
            span = i;
        }
        // Often nothing is left (a text of one word): no call to copy nothing.
        if span < s.len() {
            self.out.push_str(&s[span..]);
        }
    }

    /// The rest of [`Writer::push_text`]'s text from `at` (the end of its first word), with
    /// `s[span..at]` not yet written: runs of words one space apart copied as they are, a
    /// word with a byte `special` marks escaped on its own.
    fn push_spans(&mut self, s: &str, span: usize, at: usize, special: &[bool; 256]) {
        let bytes = s.as_bytes();
        let mut span = span;
        let mut i = at;
        while i < bytes.len() {
            let single = bytes[i] == b' '
                && bytes
                    .get(i + 1)
                    .is_some_and(|&c| !starts_ws(bytes, i + 1, c));
            let word = if single {
                i + 1
            } else {
                self.out.push_str(&s[span..i]);
                i = skip_ws(bytes, i);
                if i == bytes.len() {
                    self.soft_space();
                    return;
                }
                self.out.push(' ');
                span = i;
                i
            };
            let mut marked = false;
            i = word;
            while let Some(&c) = bytes.get(i) {
                if starts_ws(bytes, i, c) {
                    break;
                }
                marked |= special[c as usize];
                i += 1;
            }
            if marked {
                self.out.push_str(&s[span..word]);
                self.push_later_word(&s[word..i]);
                span = i;
            }
        }
        // Often nothing is left (a text of one word): no call to copy nothing.
        if span < s.len() {
            self.out.push_str(&s[span..]);
        }
    }

    /// A word after the first of a text, whose bytes may need escaping.
    fn push_later_word(&mut self, word: &str) {
        if self.markdown && !self.verbatim {
            let ctx = super::escape::Context {
                line_start: false,
                in_link: self.in_link,
                in_cell: self.in_cell,
            };
            super::escape::push_escaped(&mut self.out, word, ctx);
        } else {
            self.push_verbatim(word);
        }
    }

    fn push_word(&mut self, word: &str) {
        self.ensure_content();
        let line_start = std::mem::replace(&mut self.first_word, false);
        if !self.markdown || self.verbatim {
            self.push_verbatim(word);
            return;
        }
        super::escape::push_escaped(
            &mut self.out,
            word,
            super::escape::Context {
                line_start,
                in_link: self.in_link,
                in_cell: self.in_cell,
            },
        );
    }

    /// Already-formatted Markdown (image syntax, a rule, a table row): no escaping.
    pub fn push_literal(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.ensure_content();
        self.first_word = false;
        self.out.push_str(s);
    }

    /// Verbatim text (`pre`): spaces and newlines kept, each line prefixed.
    pub fn push_raw(&mut self, s: &str) {
        for (n, line) in s.split('\n').enumerate() {
            if n > 0 {
                self.raw_newline();
            }
            let line = line.strip_suffix('\r').unwrap_or(line);
            if !line.is_empty() {
                self.ensure_content();
                self.first_word = false;
                self.push_verbatim(line);
            }
        }
    }

    /// Unescaped text, except that a pipe-table cell still needs its `|` escaped (GFM
    /// requires it even inside code spans).
    fn push_verbatim(&mut self, s: &str) {
        if self.markdown && self.in_cell && s.contains('|') {
            self.out.push_str(&s.replace('|', "\\|"));
        } else {
            self.out.push_str(s);
        }
    }

    /// A newline inside verbatim text; a blank line still carries the quote prefix.
    pub fn raw_newline(&mut self) {
        if self.st.inline_only > 0 {
            self.soft_space();
            return;
        }
        self.ensure_content_flush_only();
        if !self.st.line_started {
            self.push_blank_prefix();
        }
        self.out.push('\n');
        self.st.line_started = false;
    }

    /// Flush pending breaks without starting the line (used before verbatim newlines).
    pub fn ensure_content_flush_only(&mut self) {
        if self.st.pending_nl > 0 {
            self.ensure_content();
        }
    }

    /// The caller trimmed the output back to the end of a content line.
    pub fn mark_line_open(&mut self) {
        self.st.line_started = true;
        self.st.pending_space = false;
    }

    /// The caller ended the current line by hand (closing a fenced block).
    pub fn mark_line_ended(&mut self) {
        self.st.line_started = false;
        self.st.pending_space = false;
    }

    pub fn is_inline_only(&self) -> bool {
        self.st.inline_only > 0
    }
}

/// No byte needs escaping (plain text, verbatim text outside a table cell).
static NOTHING: [bool; 256] = [false; 256];

/// Verbatim text in a pipe-table cell: only `|` needs escaping.
static PIPE: [bool; 256] = {
    let mut t = [false; 256];
    t[b'|' as usize] = true;
    t
};

/// The longest text [`Writer::push_text`] first tries to copy whole ([`plain_end`]): its
/// checks cost one table look-up per byte, which pays on short texts (a table cell, a word
/// between tags) where the span paths' set-up dominates; longer texts go straight to the
/// span paths, which skip eight bytes at a time and never read a byte twice.
const SHORT_TEXT: usize = 64;

/// [`plain_end`]'s class of a byte that is copied as it is.
const ORDINARY: u8 = 0;
/// [`plain_end`]'s class of a space (kept when single and between words).
const SPACE: u8 = 1;
/// [`plain_end`]'s class of a byte that may need escaping or collapsing: other whitespace,
/// the lead byte of U+00A0 (and of other characters, which is only slower), and whatever
/// the escape table marks.
const STOP: u8 = 2;

/// [`plain_end`]'s table for text whose escaped bytes `special` marks.
const fn plain_class_table(special: &[bool; 256]) -> [u8; 256] {
    let mut t = [ORDINARY; 256];
    let mut c = 0;
    while c < 256 {
        if special[c] {
            t[c] = STOP;
        }
        c += 1;
    }
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = STOP;
    t[b'\n' as usize] = STOP;
    t[b'\r' as usize] = STOP;
    t[0x0c] = STOP;
    t[0xC2] = STOP;
    t
}

static MARKDOWN_CLASSES: [u8; 256] = plain_class_table(&super::escape::special_table());
static PIPE_CLASSES: [u8; 256] = plain_class_table(&{
    let mut t = [false; 256];
    t[b'|' as usize] = true;
    t
});
static PLAIN_CLASSES: [u8; 256] = plain_class_table(&[false; 256]);

/// The length of `bytes` without its trailing spaces if that part is already in its final
/// form: no byte of class [`STOP`], no space but single ones between words. `None` when
/// something needs escaping or collapsing (or the text is only spaces).
#[inline]
fn plain_end(bytes: &[u8], classes: &[u8; 256]) -> Option<usize> {
    let mut end = bytes.len();
    while end > 0 && bytes[end - 1] == b' ' {
        end -= 1;
    }
    let mut prev_space = true;
    for &c in &bytes[..end] {
        match classes[c as usize] {
            ORDINARY => prev_space = false,
            SPACE if !prev_space => prev_space = true,
            _ => return None,
        }
    }
    Some(end).filter(|&e| e > 0)
}

/// Whether collapsible whitespace starts at `i`, whose byte is `c`: ASCII whitespace or
/// U+00A0 (which the text views collapse too).
#[inline]
fn starts_ws(bytes: &[u8], i: usize, c: u8) -> bool {
    match c {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0c => true,
        0xC2 => bytes.get(i + 1) == Some(&0xA0),
        _ => false,
    }
}

/// The end of the run of collapsible whitespace at `i`.
#[inline]
fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&c) = bytes.get(i) {
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0c => i += 1,
            0xC2 if bytes.get(i + 1) == Some(&0xA0) => i += 2,
            _ => break,
        }
    }
    i
}

/// The end of the word at `i` (the next collapsible whitespace, or the end).
#[inline]
fn word_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&c) = bytes.get(i) {
        if starts_ws(bytes, i, c) {
            break;
        }
        i += 1;
    }
    i
}

/// The first byte from `i` that may start collapsible whitespace (below `!`, or 0xC2, the
/// lead byte of U+00A0), or the end: eight bytes at a time, then byte by byte.
#[inline]
fn next_space_or_nbsp(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // Bytes below 0x21, and bytes equal to 0xC2 (zero after the xor); the borrow may set
        // bits above the first hit, so only the lowest is read.
        let below = word.wrapping_sub(ONES * 0x21) & !word & HIGH;
        let nbsp = (word ^ (ONES * 0xC2)).wrapping_sub(ONES) & !(word ^ (ONES * 0xC2)) & HIGH;
        let hits = below | nbsp;
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = bytes.get(i) {
        if c < 0x21 || c == 0xC2 {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time `push_text` the spans replaced: every word through `push_word`.
    fn push_text_by_words(w: &mut Writer, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let ws = i;
            i = skip_ws(bytes, i);
            if i > ws {
                w.soft_space();
            }
            let word = i;
            i = word_end(bytes, i);
            if i > word {
                w.push_word(&s[word..i]);
            }
        }
    }

    fn writer(markdown: bool, verbatim: bool, in_cell: bool, in_link: bool) -> Writer {
        let mut w = Writer::new(markdown, 0);
        w.verbatim = verbatim;
        w.in_cell = in_cell;
        w.in_link = in_link;
        w
    }

    #[test]
    fn spans_write_what_words_one_at_a_time_write() {
        let pieces = [
            "a",
            "bc",
            "snake_case",
            "*",
            "**x**",
            "a|b",
            "[x]",
            "<p>",
            "&amp;",
            "~~",
            "\\*",
            "1.",
            "#",
            "é",
            "©",
            "\u{a0}",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\x0c",
            "\u{a0} ",
            "longer-than-eight-bytes",
            "x\u{a0}y",
            "\x01",
        ];
        let mut texts = vec![String::new()];
        // Every pair and a sampled set of longer mixes of the pieces.
        for a in pieces {
            for b in pieces {
                texts.push(format!("{a}{b}"));
                texts.push(format!("{a} {b} {a}"));
            }
        }
        for (n, a) in pieces.iter().enumerate() {
            let mix: String = (0..12)
                .map(|k| pieces[(n * 7 + k * 5) % pieces.len()])
                .collect();
            texts.push(format!("{a}{mix}{a}"));
        }
        for markdown in [false, true] {
            for verbatim in [false, true] {
                for in_cell in [false, true] {
                    for in_link in [false, true] {
                        for t in &texts {
                            let mut new = writer(markdown, verbatim, in_cell, in_link);
                            let mut old = writer(markdown, verbatim, in_cell, in_link);
                            // Twice, so the second text starts mid-line after the first.
                            for _ in 0..2 {
                                new.push_text(t);
                                push_text_by_words(&mut old, t);
                            }
                            new.push_literal("|");
                            old.push_literal("|");
                            assert_eq!(
                                new.out, old.out,
                                "{t:?} md={markdown} verbatim={verbatim} cell={in_cell}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn next_space_or_nbsp_stops_at_the_first_candidate() {
        for len in 0..40 {
            for at in 0..=len {
                for stop in [b' ', b'\n', 0x01, 0xC2] {
                    let mut b = vec![b'a'; len];
                    // Bytes just above a stop must not count as one.
                    b.iter_mut().step_by(3).for_each(|c| *c = b'!');
                    b.iter_mut().skip(1).step_by(5).for_each(|c| *c = 0xC3);
                    if at < len {
                        b[at] = stop;
                    }
                    for from in 0..=at {
                        assert_eq!(
                            next_space_or_nbsp(&b, from),
                            at,
                            "len {len} at {at} from {from}"
                        );
                    }
                }
            }
        }
    }
}
