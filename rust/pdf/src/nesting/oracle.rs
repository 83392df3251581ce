//! The nesting meter as it was before its runs were read whole (issue 50): one byte at a time
//! through the lexer's state machine. Kept as the tests' oracle: the meter's figures must be
//! exactly this one's, for any bytes fed in any pieces.

use super::HIDDEN_STEP_WEIGHT;

/// The scanner's state between two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between tokens.
    Structure,
    /// After one `<`: a dictionary's `<<` or a hex string.
    Angle,
    /// After one `>`: a dictionary's `>>` or a stray `>`.
    CloseAngle,
    /// Inside a name (`/Type`), up to a delimiter.
    Name,
    /// Inside `%` … end of line.
    Comment,
    /// Inside `(` … `)` at this parenthesis depth.
    Literal(u32),
    /// Right after a `\` in a literal string at this depth: the next byte is escaped.
    Escape(u32),
    /// Inside `<` … `>`.
    Hex,
}

/// A byte-at-a-time nesting meter; feed it with [`Oracle::push`] in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oracle {
    state: State,
    depth: usize,
    deepest: usize,
    hidden: usize,
    most_hidden: usize,
    string_bytes: usize,
    tokens: usize,
    nested_tokens: usize,
    most_nested_tokens: usize,
    after_space: bool,
    /// Tokens since the last operator (a content stream's operation so far).
    run: usize,
    /// The operation so far in bytes, and in bytes a restart can begin at (all but white
    /// space, which the parser skips before it starts again), and whether it holds a long
    /// token (see [`Oracle::end_operation`]).
    op_bytes: u64,
    op_starts: u64,
    op_long: bool,
    /// The bare word being read (its first bytes), if one is.
    word: Option<([u8; 5], usize)>,
    /// Bytes of the token being read (a number, an operator, a name).
    token_len: usize,
    /// The literal string being read: its bytes so far, the `(` inside it and the sum of
    /// their offsets (see [`Oracle::unclosed_string_cost`]).
    string_len: u64,
    string_opens: u64,
    string_open_offsets: u64,
    restart_cost: u64,
}

impl Default for Oracle {
    fn default() -> Self {
        Self::new()
    }
}

impl Oracle {
    pub fn new() -> Self {
        Oracle {
            state: State::Structure,
            depth: 0,
            deepest: 0,
            hidden: 0,
            most_hidden: 0,
            string_bytes: 0,
            tokens: 0,
            nested_tokens: 0,
            most_nested_tokens: 0,
            after_space: true,
            run: 0,
            op_bytes: 0,
            op_starts: 0,
            op_long: false,
            word: None,
            token_len: 0,
            string_len: 0,
            string_opens: 0,
            string_open_offsets: 0,
            restart_cost: 0,
        }
    }

    /// The deepest nesting of `[` and `<<` seen between tokens.
    pub fn deepest(&self) -> usize {
        self.deepest
    }

    /// The most `[` and `<` bytes inside one string, comment or hex region (the tests read it;
    /// the parse reads only its sum with `deepest`).
    #[cfg(test)]
    pub fn most_hidden(&self) -> usize {
        self.most_hidden
    }

    /// Bytes inside literal and hex strings: in a content stream, an upper bound on the glyphs
    /// it draws.
    pub fn string_bytes(&self) -> usize {
        self.string_bytes
    }

    /// Tokens between regions (numbers, names, operators, delimiters; a string counts once): in
    /// a content stream, what the parser turns into operands and operators.
    pub fn tokens(&self) -> usize {
        self.tokens
    }

    /// The most tokens inside one outermost array or dictionary: the parser holds them all at
    /// once (a 7.6 MiB `/Widths` array took 448 MiB).
    pub fn most_nested_tokens(&self) -> usize {
        self.most_nested_tokens
    }

    /// What the content parser's restarts could cost, in token steps: after an operation it
    /// cannot read (a stray `)`, an operator inside an array, the stream's end before an
    /// operator) it starts again one byte after the operation's start, so an operation of k
    /// tokens that fails is read about k times (k² steps; 160,000 trailing operands kept a
    /// worker busy 41 s). Call [`Oracle::finish`] first.
    pub fn restart_cost(&self) -> u64 {
        self.restart_cost
    }

    /// The content stream ended: an operation still open fails at the end.
    pub fn finish(&mut self) {
        self.end_token();
        self.unclosed_string_cost();
        self.end_word();
        self.fail();
        self.hidden_cost();
        self.hidden = 0;
    }

    /// A token ended. The parser reads a token byte by byte, and after a failed operation
    /// it restarts one byte on, inside the token: a token of `L` bytes can be read again
    /// from each of its bytes, up to the parser's [`MAX_PARSER_RETRIES`] in a row (a fuzzed
    /// page's 1.25 MB run of digits took 3.6 s). Real tokens are short: only long ones are
    /// charged, one step a byte.
    fn end_token(&mut self) {
        let len = std::mem::take(&mut self.token_len);
        if len > LONG_TOKEN {
            self.op_long = true;
            let steps = (len as u64).saturating_mul(len.min(MAX_PARSER_RETRIES) as u64);
            self.restart_cost = self.restart_cost.saturating_add(steps);
        }
    }

    /// The content ended inside a literal string: the parser fails on it, and its restarts,
    /// one byte on each time, reach every `(` inside it, each opening a string that runs on
    /// towards the end (a fuzzed page: 100,000 `(` in 170 KB took 20 s). Charged the bytes
    /// from each of those `(` to the end, one step a byte.
    fn unclosed_string_cost(&mut self) {
        if matches!(self.state, State::Literal(_) | State::Escape(_)) {
            let steps = self
                .string_opens
                .saturating_mul(self.string_len)
                .saturating_sub(self.string_open_offsets);
            self.restart_cost = self.restart_cost.saturating_add(steps);
        }
    }

    /// Restarts inside a region reach its hidden openings one after another, each parse
    /// nesting through the rest of them.
    fn hidden_cost(&mut self) {
        let h = self.hidden as u64;
        let steps = h.saturating_mul(h) / 2;
        self.restart_cost = self
            .restart_cost
            .saturating_add(steps.saturating_mul(HIDDEN_STEP_WEIGHT));
    }

    fn fail(&mut self) {
        let k = self.run as u64;
        self.restart_cost = self.restart_cost.saturating_add(k.saturating_mul(k));
        self.run = 0;
        self.op_long = true;
        self.end_operation();
    }

    /// An operation ended. If it failed, or holds a long token (which pdf_oxide's slower
    /// parser may refuse where its fast one read on), the parser starts again one byte after
    /// each byte a restart can begin at, up to [`MAX_PARSER_RETRIES`] in a row, and each
    /// restart reads on to the same failure: every byte of the operation again, white space
    /// included. A fuzzed page of 1,000 numbers, 1 MiB of spaces and a stray `)` took 2.6 s
    /// (1,000 rereadings of the spaces); its tokens alone (`k²`, [`Oracle::fail`]) cost 10⁶.
    fn end_operation(&mut self) {
        if std::mem::take(&mut self.op_long) {
            let restarts = self.op_starts.min(MAX_PARSER_RETRIES as u64);
            let steps = restarts.saturating_mul(self.op_bytes);
            self.restart_cost = self.restart_cost.saturating_add(steps);
        }
        self.op_bytes = 0;
        self.op_starts = 0;
    }

    /// A bare word ended: an operator ends the operation (at the top level), `true`, `false`,
    /// `null` and `R` are operands, and an operator inside an array fails the operation.
    #[inline(always)]
    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            self.ended_word(word);
        }
    }

    /// [`Oracle::end_word`] for a word that was being read (most calls find none).
    fn ended_word(&mut self, (bytes, len): ([u8; 5], usize)) {
        let word = &bytes[..len.min(bytes.len())];
        if matches!(word, b"true" | b"false" | b"null" | b"R") {
            return;
        }
        if self.depth == 0 {
            self.run = 0;
            self.end_operation();
        } else {
            self.fail();
        }
    }

    /// How deep a parse starting anywhere in what was pushed could nest, at most.
    pub fn bound(&self) -> usize {
        self.deepest.saturating_add(self.most_hidden)
    }

    /// Forget the structure (a new, independent buffer follows) but keep the maxima.
    pub fn restart(&mut self) {
        self.end_token();
        self.state = State::Structure;
        self.depth = 0;
        self.hidden = 0;
        self.nested_tokens = 0;
        self.after_space = true;
        self.op_bytes = 0;
        self.op_starts = 0;
        self.op_long = false;
    }

    /// Every byte, one at a time.
    pub fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    /// Bytes the parser reads as data, not syntax, unless a parse goes astray: every `[` and
    /// `<` in them is a possible opening, as in a string.
    pub fn push_opaque(&mut self, bytes: &[u8]) {
        let opens = bytes.iter().filter(|&&b| b == b'[' || b == b'<').count();
        self.most_hidden = self.most_hidden.max(opens);
        // Rereading costs what a parse of the data as syntax would nest: the openings in a
        // row, not all of them (ASCII85 image data holds many, scattered and closed again).
        let mut as_syntax = Oracle::new();
        as_syntax.push(bytes);
        let d = as_syntax.deepest() as u64;
        let steps = d.saturating_mul(d) / 2;
        self.restart_cost = self
            .restart_cost
            .saturating_add(steps.saturating_mul(HIDDEN_STEP_WEIGHT));
    }

    fn open(&mut self) {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth == 0 {
            self.nested_tokens = 0;
        }
    }

    /// A token starts here.
    fn token(&mut self) {
        self.tokens += 1;
        self.run += 1;
        if self.depth > 0 {
            self.nested_tokens += 1;
            self.most_nested_tokens = self.most_nested_tokens.max(self.nested_tokens);
        }
    }

    /// A byte inside a region: an opening the region might hide from this lexing.
    #[inline]
    fn region_byte(&mut self, b: u8) {
        if !matches!(self.state, State::Comment) {
            self.string_bytes += 1;
        }
        if b == b'[' || b == b'<' {
            self.hidden += 1;
            self.most_hidden = self.most_hidden.max(self.hidden);
        }
    }

    fn enter_region(&mut self, state: State) {
        self.hidden_cost();
        self.hidden = 0;
        self.state = state;
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.op_bytes += 1;
        if !is_space(b) {
            self.op_starts += 1;
        }
        match self.state {
            State::Structure => self.structure_byte(b),
            State::Angle => {
                if b == b'<' {
                    self.state = State::Structure;
                    self.open();
                } else {
                    // `<` then anything else: a hex string, which this byte is part of.
                    self.enter_region(State::Hex);
                    self.hex_byte(b);
                }
            }
            State::CloseAngle => {
                self.state = State::Structure;
                if b == b'>' && self.depth > 0 {
                    self.close();
                } else if b == b'>' {
                    self.fail();
                } else {
                    self.fail();
                    // A stray `>` (the parser fails on it and moves one byte on): this byte
                    // starts afresh.
                    self.structure_byte(b);
                }
            }
            State::Name => {
                if is_space(b) || is_delimiter(b) {
                    self.state = State::Structure;
                    self.structure_byte(b);
                } else {
                    self.token_len += 1;
                }
            }
            State::Comment => {
                if b == b'\r' || b == b'\n' {
                    self.state = State::Structure;
                } else {
                    self.region_byte(b);
                }
            }
            State::Literal(level) => {
                self.region_byte(b);
                self.string_len += 1;
                if b == b'(' {
                    self.string_opens += 1;
                    self.string_open_offsets += self.string_len;
                }
                self.state = match b {
                    b'\\' => State::Escape(level),
                    b'(' => State::Literal(level + 1),
                    b')' if level == 1 => State::Structure,
                    b')' => State::Literal(level - 1),
                    _ => State::Literal(level),
                };
            }
            State::Escape(level) => {
                // The escaped byte, or an octal escape's first digit: the digits that follow
                // are neither parentheses nor backslashes, so reading them as plain bytes
                // keeps the same parenthesis count as the parser's lexer.
                self.region_byte(b);
                self.string_len += 1;
                self.state = State::Literal(level);
            }
            State::Hex => self.hex_byte(b),
        }
    }

    fn hex_byte(&mut self, b: u8) {
        if b == b'>' {
            self.state = State::Structure;
        } else {
            self.region_byte(b);
        }
    }

    #[inline(always)]
    fn structure_byte(&mut self, b: u8) {
        let class = CLASS[b as usize];
        let space = class == SPACE;
        let delimiter = class == DELIMITER;
        let starts = !space && (self.after_space || delimiter);
        if space || delimiter {
            self.end_token();
            self.end_word();
        } else if let Some((bytes, len)) = &mut self.word {
            if let Some(slot) = bytes.get_mut(*len) {
                *slot = b;
            }
            *len += 1;
        }
        if class == 0 {
            self.token_len += 1;
        }
        if starts {
            self.token();
            if b.is_ascii_alphabetic() || b == b'\'' || b == b'"' {
                self.word = Some(([b, 0, 0, 0, 0], 1));
            } else if !STARTS_OPERAND[b as usize] {
                // No token starts with this byte: the operation fails here.
                self.fail();
            }
        }
        self.after_space = class != 0;
        if !delimiter {
            return;
        }
        match b {
            b'[' => self.open(),
            b']' if self.depth == 0 => self.fail(),
            b']' => self.close(),
            b')' | b'{' | b'}' => self.fail(),
            b'<' => self.state = State::Angle,
            b'>' => self.state = State::CloseAngle,
            b'(' => {
                self.enter_region(State::Literal(1));
                self.string_len = 0;
                self.string_opens = 0;
                self.string_open_offsets = 0;
            }
            b'%' => self.enter_region(State::Comment),
            b'/' => self.state = State::Name,
            _ => {}
        }
    }
}

/// Consecutive failed operations pdf_oxide's content parser tries, one byte on each time,
/// before it gives up on a stream (`MAX_CONSECUTIVE_ERRORS` in its `content/parser.rs`).
const MAX_PARSER_RETRIES: usize = 1024;
/// Tokens longer than this are charged their rereading ([`Nesting::end_token`]).
const LONG_TOKEN: usize = 256;

/// A byte's class for the lexer, looked up once per byte: the scan reads every byte of every
/// syntax stream, and the tests of the two classes were a fifth of its time.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let spaces = b" \t\r\n\x00\x0C";
    let mut i = 0;
    while i < spaces.len() {
        class[spaces[i] as usize] = SPACE;
        i += 1;
    }
    let delimiters = b"/%()<>[]{}";
    let mut i = 0;
    while i < delimiters.len() {
        class[delimiters[i] as usize] = DELIMITER;
        i += 1;
    }
    class
};

/// Bytes other than a letter, `'` or `"` that may start an operand (a number, a name, a
/// string, an array, a dictionary) or a comment: any other starts no token.
const STARTS_OPERAND: [bool; 256] = {
    let mut starts = [false; 256];
    let bytes = b"0123456789+-./([<>]%*";
    let mut i = 0;
    while i < bytes.len() {
        starts[bytes[i] as usize] = true;
        i += 1;
    }
    starts
};

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] == SPACE
}

#[inline]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] == DELIMITER
}
