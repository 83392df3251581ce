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

    /// Flush pending breaks, the line prefix, the pending space and open wrappers, so that
    /// content can be appended to `out`.
    pub fn ensure_content(&mut self) {
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
    pub fn push_text(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let ws_start = i;
            while i < bytes.len() {
                match bytes[i] {
                    b' ' | b'\t' | b'\n' | b'\r' | 0x0c => i += 1,
                    0xC2 if bytes.get(i + 1) == Some(&0xA0) => i += 2,
                    _ => break,
                }
            }
            if i > ws_start {
                self.soft_space();
            }
            let word_start = i;
            while i < bytes.len() {
                match bytes[i] {
                    b' ' | b'\t' | b'\n' | b'\r' | 0x0c => break,
                    0xC2 if bytes.get(i + 1) == Some(&0xA0) => break,
                    _ => i += 1,
                }
            }
            if i > word_start {
                self.push_word(&s[word_start..i]);
            }
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
    fn ensure_content_flush_only(&mut self) {
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
