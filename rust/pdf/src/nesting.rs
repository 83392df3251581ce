//! How deep a PDF's arrays and dictionaries nest, measured before the parser sees them.
//!
//! Why: pdf_oxide's `parse_object` recurses once per `[` or `<<` with no bound of its own, and
//! its content parser, after an operand it cannot read, starts again one byte further on. A
//! 721-byte file nesting 3,000 arrays overflowed the worker's stack: a stack overflow is no
//! panic, so it killed the whole process. This scanner follows the parser's lexer (the same
//! white space, comments, literal strings with nested parentheses and `\` escapes, hex
//! strings, names, `<<`/`>>`) one byte at a time, in one linear pass, and reports the deepest
//! nesting it reaches.
//!
//! A parse that starts elsewhere than the scanner did (the content parser's one-byte restarts,
//! an object stream's offsets, a forged cross-reference offset) can disagree with it about
//! where a string or a comment begins. Such a parse stays inside the scanner's string,
//! comment or hex region until it fails or the two lexings meet again, after which they agree
//! for good (both are the same state machine on the same bytes). So every `[` and `<` inside a
//! region is counted as a possible opening ("hidden"): a parse from any offset nests at most
//! [`Nesting::deepest`] + `Nesting::most_hidden`.

use memchr::memmem;

use crate::bombs;
use crate::crypt::Decryptor;

#[cfg(test)]
mod oracle;
mod scans;

pub use scans::{Figures, Scans};

/// Nesting between tokens past this is refused: no real document comes near (pdf_oxide's own
/// documentation names 100 as its limit, which it does not enforce).
pub const MAX_DEPTH: usize = 1_000;

/// The most a parse starting anywhere may nest ([`Nesting::bound`]). The worker's stack holds
/// many times this (see `WORKER_STACK` in lib.rs and its test); the allowance above
/// [`MAX_DEPTH`] is for `[` and `<` inside strings (a form's JavaScript, say).
pub const MAX_BOUND: usize = 10_000;

/// The filters whose output can be PDF syntax (the image codecs' cannot).
const TEXT_FILTERS: [&[u8]; 10] = [
    b"/ASCIIHexDecode",
    b"/AHx",
    b"/ASCII85Decode",
    b"/A85",
    b"/LZWDecode",
    b"/LZW",
    b"/RunLengthDecode",
    b"/RL",
    b"/FlateDecode",
    b"/Fl",
];

/// More tokens than this inside one outermost array or dictionary is refused (the parser keeps
/// about 200 bytes a token there; a real font's `/W` array has tens of thousands).
pub const MAX_NESTED_TOKENS: usize = 500_000;

/// A reread step through a hidden opening costs about four token steps (each one recursion
/// level and an array allocated): 8,647 openings hidden in an unclosed string took 0.8 s in
/// the optimised build and 24 s in the fuzzing one.
pub const HIDDEN_STEP_WEIGHT: u64 = 4;

/// Why one scan was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooDeep {
    /// Nesting this deep, past this limit: [`MAX_DEPTH`] between tokens, or [`MAX_BOUND`]
    /// from any offset.
    Depth(usize, usize),
    /// An array or a dictionary of this many tokens.
    Wide(usize),
}

/// Whether one scan stays inside the limits.
pub fn within(n: &Nesting) -> Result<(), TooDeep> {
    if n.deepest() > MAX_DEPTH {
        return Err(TooDeep::Depth(n.deepest(), MAX_DEPTH));
    }
    if n.bound() > MAX_BOUND {
        return Err(TooDeep::Depth(n.bound(), MAX_BOUND));
    }
    if n.most_nested_tokens() > MAX_NESTED_TOKENS {
        return Err(TooDeep::Wide(n.most_nested_tokens()));
    }
    Ok(())
}

/// Check every place of `data` the parser reads objects from: the file's own syntax (stream
/// bodies skipped), a parse that could start after an `obj` hidden in a stream body, and every
/// decoded stream that holds syntax (contents, forms, object streams; not images or font
/// programs), as it is and, with `crypt` (an encrypted file), decrypted. `max_stream` bounds
/// what one stream is decoded to here.
#[cfg(test)]
pub fn check_file(
    data: &[u8],
    max_stream: usize,
    crypt: Option<&Decryptor>,
) -> Result<(), TooDeep> {
    check_file_keeping(data, max_stream, crypt, &mut Scans::default())
}

/// [`check_file`], each decoded stream's figures kept in `scans` by its bytes, so the page or
/// form that names it later is not scanned again (see [`Scans`]).
pub fn check_file_keeping(
    data: &[u8],
    max_stream: usize,
    crypt: Option<&Decryptor>,
    scans: &mut Scans,
) -> Result<(), TooDeep> {
    let mut raw = Nesting::new();
    let mut scratch = vec![0u8; 64 * 1024];
    let mut from = 0;
    for stream in bombs::streams(data) {
        raw.push(&data[from.min(stream.start)..stream.start]);
        within(&raw)?;
        raw.restart();
        from = stream.start + stream.body.len();
        hidden_objects(stream.body)?;
        if !holds_syntax(stream.dict) {
            continue;
        }
        let mut decoded = scans.stream_scan();
        let whole = decode_into(stream, max_stream, &mut scratch, &mut |piece| {
            decoded.push(piece)
        });
        let kept = scans.keep(decoded)?;
        if let (Some(n), Some(kept), None) = (whole, kept, crypt) {
            scans.keep_flate(&stream.body[..n], kept);
        }
        for plain in crypt.map(|c| c.stream(&stream)).unwrap_or_default() {
            let mut decoded = scans.stream_scan();
            let plain_stream = bombs::RawStream {
                body: &plain,
                ..stream
            };
            decode_into(plain_stream, max_stream, &mut scratch, &mut |piece| {
                decoded.push(piece)
            });
            scans.keep(decoded)?;
        }
    }
    raw.push(&data[from.min(data.len())..]);
    within(&raw)
}

/// A forged cross-reference offset can start the parser after an `obj` inside a stream's
/// body; the parser then reads up to the next `endobj`. Each such stretch is scanned on its
/// own (bodies rarely hold the word; compressed ones by chance about once in 16 MiB).
fn hidden_objects(body: &[u8]) -> Result<(), TooDeep> {
    let end_finder = memmem::Finder::new(b"endobj");
    for at in memmem::find_iter(body, b"obj") {
        let rest = &body[at + 3..];
        let stretch = end_finder.find(rest).map_or(rest, |e| &rest[..e]);
        let mut n = Nesting::new();
        n.push(stretch);
        within(&n)?;
    }
    Ok(())
}

/// Whether a stream's decoded bytes are PDF syntax the parser reads: not an image, a font
/// program, an ICC profile, XMP metadata, an embedded file or a cross-reference stream.
fn holds_syntax(dict: &[u8]) -> bool {
    const BINARY: [&[u8]; 12] = [
        b"/Image",
        b"/Length1",
        b"/Length2",
        b"/Length3",
        b"/Type1C",
        b"/CIDFontType0C",
        b"/OpenType",
        b"/XRef",
        b"/Metadata",
        b"/EmbeddedFile",
        b"/DCTDecode",
        b"/JPXDecode",
    ];
    !BINARY.iter().any(|k| memmem::find(dict, k).is_some())
}

/// Feed the stream's decoded bytes to `n`: Flate alone is inflated in pieces; other text
/// filters (hex, ASCII85, LZW, run length, or a chain) go through the parser's own decoders,
/// bounded; an unfiltered stream is its body. `Some(n)` when Flate alone read a zlib stream
/// whole from the body's first `n` bytes ([`bombs::Inflated::whole`]).
fn decode_into(
    stream: bombs::RawStream,
    max_stream: usize,
    scratch: &mut [u8],
    sink: &mut impl FnMut(&[u8]),
) -> Option<usize> {
    let filters: Vec<&[u8]> = TEXT_FILTERS
        .iter()
        .copied()
        .filter(|f| {
            memmem::find_iter(stream.dict, f).any(|i| {
                stream
                    .dict
                    .get(i + f.len())
                    .is_none_or(|&b| !b.is_ascii_alphanumeric())
            })
        })
        .collect();
    if !stream_has_filter(stream.dict) {
        sink(stream.body);
        return None;
    }
    if filters.is_empty() {
        // A filter the parser may not know: it may read the body as it is.
        sink(stream.body);
        return None;
    }
    if !other_than_flate(&filters) {
        return bombs::inflate(stream.body, max_stream, scratch, sink).whole;
    }
    if filters
        .iter()
        .all(|f| *f == b"/RunLengthDecode" || *f == b"/RL")
    {
        bombs::run_length(stream.body, max_stream, scratch, sink);
        return None;
    }
    // A chain, or another filter (LZW, hex, ASCII85): the parser's own decoder, which bounds
    // its output at 100:1. Past 16 MiB of input the stream is left to the per-page scan in
    // page_cost.rs (which sees a page's decoded content whatever its filters) and the stack's margin.
    if stream.body.len() > 16 << 20 {
        return None;
    }
    let names = ordered_filters(stream.dict);
    if let Ok(out) = pdf_oxide::decoders::decode_stream(stream.body, &names) {
        sink(&out[..out.len().min(max_stream)]);
    }
    None
}

fn other_than_flate(filters: &[&[u8]]) -> bool {
    filters
        .iter()
        .any(|f| *f != b"/FlateDecode" && *f != b"/Fl")
}

fn stream_has_filter(dict: &[u8]) -> bool {
    memmem::find(dict, b"/Filter").is_some()
}

/// The filter names after `/Filter`, in order (a name or an array of names).
fn ordered_filters(dict: &[u8]) -> Vec<String> {
    let Some(at) = memmem::find(dict, b"/Filter") else {
        return Vec::new();
    };
    let rest = &dict[at + 7..];
    let mut names = Vec::new();
    let mut i = 0;
    while i < rest.len() && is_space(rest[i]) {
        i += 1;
    }
    let array = rest.get(i) == Some(&b'[');
    if array {
        i += 1;
    }
    loop {
        while i < rest.len() && is_space(rest[i]) {
            i += 1;
        }
        if rest.get(i) != Some(&b'/') {
            break;
        }
        let start = i + 1;
        i = start;
        while i < rest.len() && !is_space(rest[i]) && !is_delimiter(rest[i]) {
            i += 1;
        }
        names.push(String::from_utf8_lossy(&rest[start..i]).into_owned());
        if !array {
            break;
        }
    }
    names
}

/// Feed a content stream to `n` without its inline images' data (`BI` … `ID` data `EI`): the
/// parser reads that data as bytes, not syntax, and ASCII85 image data is full of `[` and `(`.
pub fn push_content(n: &mut Nesting, data: &[u8]) {
    let mut at = 0;
    while let Some(bi) = operator(data, at, b"BI") {
        let Some(id) = operator(data, bi + 2, b"ID") else {
            break;
        };
        n.push(&data[at..id + 2]);
        // A parse that fails on the image's dictionary restarts one byte on and may read the
        // data as syntax after all: its openings count as hidden ones.
        let Some(ei) = operator(data, id + 2, b"EI") else {
            n.push_opaque(&data[id + 2..]);
            return;
        };
        n.push_opaque(&data[id + 2..ei]);
        at = ei;
    }
    n.push(&data[at..]);
}

/// The next `op` at or after `from` standing alone (white space or the buffer's ends around it).
fn operator(data: &[u8], from: usize, op: &[u8; 2]) -> Option<usize> {
    memmem::find_iter(data.get(from..)?, op)
        .map(|i| from + i)
        .find(|&i| {
            (i == 0 || is_space(data[i - 1])) && data.get(i + 2).is_none_or(|&b| is_space(b))
        })
}

/// The scanner's state between two pushes (within a push, most of it is where the scan is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between tokens, or inside a regular token (a number, an operator; see
    /// `Nesting::in_token`).
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

/// A nesting meter; feed it with [`Nesting::push`] in order.
///
/// It reads a run of bytes that cannot change its state (a token's letters and digits, white
/// space, a string's or a comment's plain bytes) in a tight loop over a class table, and keeps
/// what a byte-at-a-time machine counted for every byte as positions: an operation's bytes
/// are counted only when the operation is charged (it failed, or holds a long token), a
/// token's length and a word's first bytes are read from where it starts and ends, and the
/// tokens of an operation or of an outermost array are the difference of two token counts.
/// Its figures are exactly those of the byte-at-a-time machine it replaced (issue 50; the
/// tests keep that machine, `oracle.rs`, and compare the two on random and hostile bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nesting {
    state: State,
    /// Inside a regular token (between tokens otherwise), with [`State::Structure`].
    in_token: bool,
    depth: usize,
    deepest: usize,
    hidden: usize,
    most_hidden: usize,
    string_bytes: usize,
    tokens: usize,
    /// `tokens` when the last operation ended: the operation so far holds the rest.
    run_from: usize,
    /// `tokens` when the outermost array or dictionary opened: it holds the rest.
    nested_from: usize,
    /// The most tokens of an outermost array or dictionary closed (or cut by a restart).
    most_nested_tokens: usize,
    /// The operation so far in bytes, and in bytes a restart can begin at (all but white
    /// space, which the parser skips before it starts again), counted up to the start of the
    /// current push; the current push's share starts at `op_from`. And whether it holds a long
    /// token (see [`Nesting::end_operation`]).
    op_bytes: u64,
    op_starts: u64,
    op_from: usize,
    op_long: bool,
    /// The bare word being read when a push ended inside it (its first bytes and length); or,
    /// after a [`Nesting::restart`] inside one, the word left over.
    word: Option<([u8; 5], usize)>,
    /// Bytes of the token (a number, an operator, a name) being read when a push ended.
    token_len: usize,
    /// The literal string being read: its bytes so far, the `(` inside it and the sum of
    /// their offsets (see [`Nesting::unclosed_string_cost`]).
    string_len: u64,
    string_opens: u64,
    string_open_offsets: u64,
    restart_cost: u64,
}

impl Default for Nesting {
    fn default() -> Self {
        Self::new()
    }
}

impl Nesting {
    pub fn new() -> Self {
        Nesting {
            state: State::Structure,
            in_token: false,
            depth: 0,
            deepest: 0,
            hidden: 0,
            most_hidden: 0,
            string_bytes: 0,
            tokens: 0,
            run_from: 0,
            nested_from: 0,
            most_nested_tokens: 0,
            op_bytes: 0,
            op_starts: 0,
            op_from: 0,
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
        self.most_nested_tokens.max(self.nested_tokens())
    }

    /// Tokens inside the outermost array or dictionary open now.
    fn nested_tokens(&self) -> usize {
        if self.depth > 0 {
            self.tokens - self.nested_from
        } else {
            0
        }
    }

    /// What the content parser's restarts could cost, in token steps: after an operation it
    /// cannot read (a stray `)`, an operator inside an array, the stream's end before an
    /// operator) it starts again one byte after the operation's start, so an operation of k
    /// tokens that fails is read about k times (k² steps; 160,000 trailing operands kept a
    /// worker busy 41 s). Call [`Nesting::finish`] first.
    pub fn restart_cost(&self) -> u64 {
        self.restart_cost
    }

    /// The content stream ended: an operation still open fails at the end.
    pub fn finish(&mut self) {
        self.end_token();
        self.unclosed_string_cost();
        if let Some((bytes, len)) = self.word.take() {
            if !is_operand_word(&bytes[..len.min(bytes.len())]) {
                self.operator(&[], 0);
            }
        }
        self.fail(&[], 0);
        self.hidden_cost();
        self.hidden = 0;
    }

    /// A token ended whose bytes were counted in `token_len`.
    fn end_token(&mut self) {
        let len = std::mem::take(&mut self.token_len);
        if len > LONG_TOKEN {
            self.long_token(len);
        }
    }

    /// A token of `len` bytes, past [`LONG_TOKEN`], ended. The parser reads a token byte by
    /// byte, and after a failed operation it restarts one byte on, inside the token: a token of
    /// `len` bytes can be read again from each of its bytes, up to the parser's
    /// [`MAX_PARSER_RETRIES`] in a row (a fuzzed page's 1.25 MB run of digits took 3.6 s).
    /// Real tokens are short: only long ones are charged, one step a byte.
    #[cold]
    fn long_token(&mut self, len: usize) {
        self.op_long = true;
        let steps = (len as u64).saturating_mul(len.min(MAX_PARSER_RETRIES) as u64);
        self.restart_cost = self.restart_cost.saturating_add(steps);
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

    /// The operation failed at `at` in the pushed `bytes` (the byte before it the last one
    /// it read): its k tokens are read again k times (k² steps), and its bytes once a restart.
    #[cold]
    fn fail(&mut self, bytes: &[u8], at: usize) {
        let k = (self.tokens - self.run_from) as u64;
        self.restart_cost = self.restart_cost.saturating_add(k.saturating_mul(k));
        self.run_from = self.tokens;
        self.op_long = true;
        self.end_operation(bytes, at);
    }

    /// An operation ended at `at` in the pushed `bytes`. If it failed, or holds a long token
    /// (which pdf_oxide's slower parser may refuse where its fast one read on), the parser
    /// starts again one byte after each byte a restart can begin at, up to
    /// [`MAX_PARSER_RETRIES`] in a row, and each restart reads on to the same failure: every
    /// byte of the operation again, white space included. A fuzzed page of 1,000 numbers,
    /// 1 MiB of spaces and a stray `)` took 2.6 s (1,000 rereadings of the spaces); its tokens
    /// alone (`k²`, [`Nesting::fail`]) cost 10⁶.
    #[inline]
    fn end_operation(&mut self, bytes: &[u8], at: usize) {
        if self.op_long {
            self.charge_operation(&bytes[self.op_from..at]);
        }
        self.op_bytes = 0;
        self.op_starts = 0;
        self.op_from = at;
    }

    /// [`Nesting::end_operation`] for an operation charged, whose bytes in this push are `run`.
    #[cold]
    fn charge_operation(&mut self, run: &[u8]) {
        self.op_long = false;
        let bytes = self.op_bytes + run.len() as u64;
        let starts = self.op_starts + non_space(run);
        let restarts = starts.min(MAX_PARSER_RETRIES as u64);
        let steps = restarts.saturating_mul(bytes);
        self.restart_cost = self.restart_cost.saturating_add(steps);
    }

    /// A bare word other than `true`, `false`, `null` and `R` (operands) ended at `at`: an
    /// operator ends the operation (at the top level), and an operator inside an array fails
    /// it.
    #[inline]
    fn operator(&mut self, bytes: &[u8], at: usize) {
        if self.depth == 0 {
            self.run_from = self.tokens;
            self.end_operation(bytes, at);
        } else {
            self.fail(bytes, at);
        }
    }

    /// How deep a parse starting anywhere in what was pushed could nest, at most.
    pub fn bound(&self) -> usize {
        self.deepest.saturating_add(self.most_hidden)
    }

    /// Forget the structure (a new, independent buffer follows) but keep the maxima.
    pub fn restart(&mut self) {
        self.end_token();
        self.most_nested_tokens = self.most_nested_tokens();
        self.state = State::Structure;
        self.in_token = false;
        self.depth = 0;
        self.hidden = 0;
        self.op_bytes = 0;
        self.op_starts = 0;
        self.op_long = false;
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.op_from = 0;
        let mut i = 0;
        if self.word.is_some() && !self.in_token && self.state == State::Structure {
            self.left_over_word(bytes);
        }
        while i < bytes.len() {
            i = match self.state {
                State::Structure => self.structure(bytes, i),
                State::Name => self.name(bytes, i),
                State::Angle => self.angle(bytes, i),
                State::CloseAngle => self.close_angle(bytes, i),
                State::Comment => self.comment(bytes, i),
                State::Literal(_) | State::Escape(_) => self.literal(bytes, i),
                State::Hex => self.hex(bytes, i),
            };
        }
        // The operation's bytes in this push, counted before they go.
        let tail = &bytes[self.op_from..];
        self.op_bytes += tail.len() as u64;
        self.op_starts += non_space(tail);
        self.op_from = 0;
    }

    /// The first byte of a push after a [`Nesting::restart`] cut a bare word: white space or
    /// a delimiter ends the word left over, and a regular byte starts a token that carries it
    /// on unless the byte starts a word of its own (as the byte-at-a-time machine read it).
    #[cold]
    fn left_over_word(&mut self, bytes: &[u8]) {
        let Some(&b) = bytes.first() else {
            return;
        };
        let class = CLASS[b as usize];
        if class & (SPACE | DELIMITER) != 0 {
            if let Some((kept, len)) = self.word.take() {
                if !is_operand_word(&kept[..len.min(kept.len())]) {
                    self.operator(bytes, 1);
                }
            }
            return;
        }
        self.tokens += 1;
        if class & WORD != 0 {
            self.word = Some(([0; 5], 0));
        } else if class & OPERAND == 0 {
            self.fail(bytes, 1);
        }
        // `token_rest` reads the token from this byte on.
        self.in_token = true;
    }

    /// Between tokens or inside a regular one, from `i`: white space and regular tokens read
    /// in tight loops, delimiters acted on; returns where another state begins (or the end).
    fn structure(&mut self, bytes: &[u8], mut i: usize) -> usize {
        if self.in_token {
            i = self.token_rest(bytes, i);
            if self.in_token {
                return i;
            }
        }
        while let Some(&b) = bytes.get(i) {
            let class = CLASS[b as usize];
            if class & SPACE != 0 {
                i += 1;
                continue;
            }
            // Every other byte starts a token.
            self.tokens += 1;
            if class & DELIMITER == 0 {
                // A number, an operator, `true`, …, up to white space or a delimiter.
                let start = i;
                if class & (WORD | OPERAND) == 0 {
                    // No token starts with this byte: the operation fails here.
                    self.fail(bytes, i + 1);
                }
                i += 1;
                i = first_of(bytes, i, SPACE | DELIMITER);
                if i == bytes.len() {
                    // The push ends inside it: kept for the next.
                    self.in_token = true;
                    self.token_len = i - start;
                    if class & WORD != 0 {
                        let mut kept = [0u8; 5];
                        let n = (i - start).min(kept.len());
                        kept[..n].copy_from_slice(&bytes[start..start + n]);
                        self.word = Some((kept, i - start));
                    }
                    return i;
                }
                if i - start > LONG_TOKEN {
                    self.long_token(i - start);
                }
                // The byte that ends a word ends its operation with it.
                if class & WORD != 0
                    && (class & OPERAND_WORD == 0
                        || !is_operand_word(&bytes[start..i.min(start + 5)]))
                {
                    self.operator(bytes, i + 1);
                }
                // That byte is read next, between tokens (white space at once).
                if CLASS[bytes[i] as usize] & SPACE != 0 {
                    i += 1;
                }
                continue;
            }
            i += 1;
            match b {
                b'[' => self.open(),
                b']' if self.depth == 0 => self.fail(bytes, i),
                b']' => self.close(),
                b')' | b'{' | b'}' => self.fail(bytes, i),
                // A hex string or a dictionary's `<<` (CID text is `[<0012>-3<0034>]TJ` over
                // and over: read here rather than through `push`).
                b'<' => match bytes.get(i) {
                    Some(b'<') => {
                        self.open();
                        i += 1;
                    }
                    Some(_) => {
                        self.enter_region(State::Hex);
                        i = self.hex(bytes, i);
                        if self.state != State::Structure {
                            return i;
                        }
                    }
                    None => {
                        self.state = State::Angle;
                        return i;
                    }
                },
                b'>' => {
                    self.state = State::CloseAngle;
                    return i;
                }
                b'(' => {
                    self.enter_region(State::Literal(1));
                    self.string_len = 0;
                    self.string_opens = 0;
                    self.string_open_offsets = 0;
                    return i;
                }
                b'%' => {
                    self.enter_region(State::Comment);
                    return i;
                }
                // `/`: a name (`/F4 12 Tf`).
                _ => {
                    self.state = State::Name;
                    i = self.name(bytes, i);
                    if self.state != State::Structure {
                        return i;
                    }
                }
            }
        }
        i
    }

    /// The rest of a regular token an earlier push (or `left_over_word`) began, from `i`: its
    /// length and word kept while the push ends inside it, ended (as in `structure`) otherwise.
    fn token_rest(&mut self, bytes: &[u8], i: usize) -> usize {
        let start = i;
        let i = first_of(bytes, i, SPACE | DELIMITER);
        self.token_len += i - start;
        if let Some((kept, len)) = &mut self.word {
            for (k, &b) in bytes[start..i].iter().enumerate() {
                match kept.get_mut(*len + k) {
                    Some(slot) => *slot = b,
                    None => break,
                }
            }
            *len += i - start;
        }
        if i == bytes.len() {
            return i;
        }
        self.in_token = false;
        self.end_token();
        if let Some((kept, len)) = self.word.take() {
            if !is_operand_word(&kept[..len.min(kept.len())]) {
                self.operator(bytes, i + 1);
            }
        }
        i
    }

    /// A name's bytes after its `/`, from `i`, up to white space or a delimiter (read next,
    /// between tokens).
    fn name(&mut self, bytes: &[u8], i: usize) -> usize {
        let start = i;
        let i = first_of(bytes, i, SPACE | DELIMITER);
        self.token_len += i - start;
        if i < bytes.len() {
            self.state = State::Structure;
            self.end_token();
        }
        i
    }

    /// The byte after a `<` that ended the push before.
    fn angle(&mut self, bytes: &[u8], i: usize) -> usize {
        if bytes[i] == b'<' {
            self.state = State::Structure;
            self.open();
            i + 1
        } else {
            // `<` then anything else: a hex string, which this byte is part of.
            self.enter_region(State::Hex);
            self.hex(bytes, i)
        }
    }

    /// The byte after a `>`: a dictionary's end, or a stray `>` the parser fails on (and a
    /// byte other than `>` then starts afresh).
    fn close_angle(&mut self, bytes: &[u8], i: usize) -> usize {
        self.state = State::Structure;
        if bytes[i] != b'>' {
            self.fail(bytes, i + 1);
            return i;
        }
        if self.depth > 0 {
            self.close();
        } else {
            self.fail(bytes, i + 1);
        }
        i + 1
    }

    /// A comment's bytes from `i` up to and including its end of line.
    fn comment(&mut self, bytes: &[u8], i: usize) -> usize {
        let end = memchr::memchr2(b'\r', b'\n', &bytes[i..]).map_or(bytes.len(), |e| i + e);
        self.hide(count_opens(&bytes[i..end]));
        if end < bytes.len() {
            self.state = State::Structure;
            return end + 1;
        }
        end
    }

    /// A hex string's bytes from `i` up to and including its `>`.
    fn hex(&mut self, bytes: &[u8], mut i: usize) -> usize {
        let start = i;
        let mut opens = 0;
        loop {
            i = first_of(bytes, i, HEX_STOP);
            match bytes.get(i) {
                Some(b'>') | None => break,
                Some(_) => {
                    opens += 1;
                    i += 1;
                }
            }
        }
        self.string_bytes += i - start;
        self.hide(opens);
        if i < bytes.len() {
            self.state = State::Structure;
            return i + 1;
        }
        i
    }

    /// A literal string's bytes from `i`: plain runs up to a `\`, `(` or `)` counted whole,
    /// those three read one at a time (nesting, escapes), up to and including its last `)`.
    fn literal(&mut self, bytes: &[u8], mut i: usize) -> usize {
        while i < bytes.len() {
            let level = match self.state {
                State::Literal(level) => level,
                State::Escape(level) => {
                    // The escaped byte, or an octal escape's first digit: the digits that
                    // follow are neither parentheses nor backslashes, so reading them as plain
                    // bytes keeps the same parenthesis count as the parser's lexer.
                    self.string_bytes += 1;
                    self.string_len += 1;
                    self.hide(usize::from(bytes[i] == b'[' || bytes[i] == b'<'));
                    self.state = State::Literal(level);
                    i += 1;
                    continue;
                }
                _ => return i,
            };
            let end =
                memchr::memchr3(b'\\', b'(', b')', &bytes[i..]).map_or(bytes.len(), |e| i + e);
            let run = &bytes[i..end];
            self.string_bytes += run.len();
            self.string_len += run.len() as u64;
            self.hide(count_opens(run));
            let Some(&b) = bytes.get(end) else {
                return end;
            };
            i = end + 1;
            self.string_bytes += 1;
            self.string_len += 1;
            self.state = match b {
                b'\\' => State::Escape(level),
                b'(' => {
                    self.string_opens += 1;
                    self.string_open_offsets += self.string_len;
                    State::Literal(level + 1)
                }
                _ if level == 1 => State::Structure,
                _ => State::Literal(level - 1),
            };
        }
        i
    }

    /// `opens` more `[` and `<` in the region being read.
    #[inline]
    fn hide(&mut self, opens: usize) {
        self.hidden += opens;
        self.most_hidden = self.most_hidden.max(self.hidden);
    }

    /// Bytes the parser reads as data, not syntax, unless a parse goes astray: every `[` and
    /// `<` in them is a possible opening, as in a string.
    pub fn push_opaque(&mut self, bytes: &[u8]) {
        let opens = count_opens(bytes);
        self.most_hidden = self.most_hidden.max(opens);
        // Rereading costs what a parse of the data as syntax would nest: the openings in a
        // row, not all of them (ASCII85 image data holds many, scattered and closed again).
        let mut as_syntax = Nesting::new();
        as_syntax.push(bytes);
        let d = as_syntax.deepest() as u64;
        let steps = d.saturating_mul(d) / 2;
        self.restart_cost = self
            .restart_cost
            .saturating_add(steps.saturating_mul(HIDDEN_STEP_WEIGHT));
    }

    fn open(&mut self) {
        if self.depth == 0 {
            self.nested_from = self.tokens;
        }
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }

    fn close(&mut self) {
        if self.depth == 1 {
            self.most_nested_tokens = self.most_nested_tokens();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    fn enter_region(&mut self, state: State) {
        if self.hidden > 0 {
            self.hidden_cost();
            self.hidden = 0;
        }
        self.state = state;
    }
}

/// Whether a bare word (its first five bytes at most) is an operand, not an operator.
#[inline]
fn is_operand_word(word: &[u8]) -> bool {
    matches!(word, b"true" | b"false" | b"null" | b"R")
}

/// Consecutive failed operations pdf_oxide's content parser tries, one byte on each time,
/// before it gives up on a stream (`MAX_CONSECUTIVE_ERRORS` in its `content/parser.rs`).
const MAX_PARSER_RETRIES: usize = 1024;
/// Tokens longer than this are charged their rereading ([`Nesting::long_token`]).
const LONG_TOKEN: usize = 256;

/// A byte's classes for the lexer, looked up once per byte: the scan reads every byte of
/// every syntax stream. White space and delimiters end a token; a regular byte (neither)
/// starts a word (a letter, `'` or `"`), an operand (a digit, `+`, `-`, `.`, `*`) or nothing
/// the parser reads (the operation fails there); `>`, `[` and `<` stop a hex string's run.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
const WORD: u8 = 4;
const OPERAND: u8 = 8;
const HEX_STOP: u8 = 16;
/// The first bytes of `true`, `false`, `null` and `R`: a word starting otherwise is an
/// operator, whatever follows.
const OPERAND_WORD: u8 = 32;
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        if (b as u8).is_ascii_alphabetic() || b == b'\'' as usize || b == b'"' as usize {
            class[b] = WORD;
        }
        b += 1;
    }
    let sets: [(&[u8], u8); 5] = [
        (b" \t\r\n\x00\x0C", SPACE),
        (b"/%()<>[]{}", DELIMITER),
        (b"0123456789+-.*", OPERAND),
        (b">[<", HEX_STOP),
        (b"tfnR", OPERAND_WORD),
    ];
    let mut s = 0;
    while s < sets.len() {
        let (bytes, flag) = sets[s];
        let mut i = 0;
        while i < bytes.len() {
            class[bytes[i] as usize] |= flag;
            i += 1;
        }
        s += 1;
    }
    class
};

/// The first byte of `bytes` at or after `i` of one of the classes `stop` (or the end): eight
/// bytes at a time with no bounds check between them, since most tokens and hex strings are
/// short and a byte-at-a-time loop spent half its steps checking the end.
#[inline(always)]
fn first_of(bytes: &[u8], mut i: usize, stop: u8) -> usize {
    while let Some(chunk) = bytes
        .get(i..i + 8)
        .and_then(|c| <&[u8; 8]>::try_from(c).ok())
    {
        for (k, &c) in chunk.iter().enumerate() {
            if CLASS[c as usize] & stop != 0 {
                return i + k;
            }
        }
        i += 8;
    }
    while let Some(&c) = bytes.get(i) {
        if CLASS[c as usize] & stop != 0 {
            break;
        }
        i += 1;
    }
    i
}

/// The bytes of `run` other than white space (where a restart can begin).
fn non_space(run: &[u8]) -> u64 {
    run.iter()
        .filter(|&&b| CLASS[b as usize] & SPACE == 0)
        .count() as u64
}

/// The `[` and `<` bytes of `run`, eight bytes at a time.
fn count_opens(run: &[u8]) -> usize {
    let mut words = run.chunks_exact(8);
    let mut opens = 0;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        opens += (equal_bytes(w, b'[') | equal_bytes(w, b'<')).count_ones() as usize;
    }
    opens
        + words
            .remainder()
            .iter()
            .filter(|&&b| b == b'[' || b == b'<')
            .count()
}

/// The high bit of each byte of `w` that equals `c`, and no other bit (exact per byte, unlike
/// the borrow-based test: "Bit Twiddling Hacks", `haszero` without its false positives).
#[inline]
fn equal_bytes(w: u64, c: u8) -> u64 {
    const LOW7: u64 = u64::from_le_bytes([0x7F; 8]);
    let v = w ^ u64::from_le_bytes([c; 8]);
    !(((v & LOW7) + LOW7) | v | LOW7)
}

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

#[inline]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

#[cfg(test)]
mod tests {
    use super::oracle::Oracle;
    use super::*;

    fn scan(input: &[u8]) -> Nesting {
        let mut n = Nesting::new();
        n.push(input);
        n
    }

    #[test]
    fn an_unclosed_string_costs_the_strings_its_restarts_open() {
        // A fuzzed page: a string never closed, holding 100,000 `(` in 170 KB.
        let mut page = b"BT /F1 1 Tf (x) Tj ".to_vec();
        for _ in 0..20_000 {
            page.extend_from_slice(b"((((( x");
        }
        let mut n = scan(&page);
        n.finish();
        assert!(
            n.restart_cost() > crate::MAX_PAGE_RESTART_COST,
            "{}",
            n.restart_cost()
        );
        // Closed strings, parentheses inside them included, cost nothing for it.
        let mut n =
            scan(&b"BT (a (nested) string) Tj (and \\( an escaped one) Tj ET ".repeat(20_000));
        n.finish();
        assert_eq!(n.restart_cost(), 0);
    }

    #[test]
    fn a_long_token_costs_its_rereading() {
        // A fuzzed page: 1.25 MB of digits the parser read again from each of 1,024 bytes.
        let mut digits = b"BT /F1 1 Tf (x) Tj ".to_vec();
        digits.extend(std::iter::repeat_n(b'1', 1_250_000));
        digits.extend_from_slice(b"T  f ET");
        let mut n = scan(&digits);
        n.finish();
        assert!(n.restart_cost() >= 1_250_000 * 1024, "{}", n.restart_cost());
        // The same for a long name and a long operator.
        for long in [&b"/"[..], &b"f"[..]] {
            let mut page = long.to_vec();
            page.extend(std::iter::repeat_n(b'f', 100_000));
            let mut n = scan(&page);
            n.finish();
            assert!(n.restart_cost() >= 100_000 * 1024, "{}", n.restart_cost());
        }
        // Ordinary operands and operators cost nothing for their length.
        let mut n =
            scan(&b"BT /F1 12 Tf 72 712 Td (Hello) Tj 0.5 0 0 0.5 10 10 cm ET ".repeat(10_000));
        n.finish();
        assert_eq!(n.restart_cost(), 0);
    }

    #[test]
    fn arrays_and_dictionaries_count_strings_and_names_do_not() {
        let n = scan(b"<< /Kids [ [1 2] << /A (x[y) >> ] /Name[ >>");
        assert_eq!(n.deepest(), 3);
        assert_eq!(n.most_hidden(), 1);
        assert_eq!(scan(b"<48656C6C6F> [ ] % [[[[\n").deepest(), 1);
        assert_eq!(scan(b"(a \\( [ b) [").deepest(), 1);
        assert_eq!(scan(b"(a (nested [) still) [").deepest(), 1);
    }

    #[test]
    fn deep_nesting_is_measured_in_one_pass() {
        let deep = "[".repeat(100_000);
        assert_eq!(scan(deep.as_bytes()).deepest(), 100_000);
        let dicts = "<< /A ".repeat(5_000);
        assert_eq!(scan(dicts.as_bytes()).deepest(), 5_000);
    }

    #[test]
    fn openings_hidden_in_a_region_count_toward_the_bound() {
        // An unclosed string: the content parser fails on it and reads the `[`s one byte on.
        let hidden = format!("({}", "[".repeat(10_000));
        let n = scan(hidden.as_bytes());
        assert_eq!(n.deepest(), 0);
        assert!(n.bound() >= 10_000);
        // Strings that close between the openings cannot hide them: the openings are seen.
        let chain = "[ (]) ".repeat(1_000);
        assert_eq!(scan(chain.as_bytes()).deepest(), 1_000);
    }

    #[test]
    fn failed_operations_cost_their_tokens_squared_and_their_rereading() {
        let cost = |input: &str| {
            let mut n = scan(input.as_bytes());
            n.finish();
            n.restart_cost()
        };
        assert_eq!(cost("BT /F1 12 Tf 72 720 Td (x) Tj [(a) 1 (b)] TJ ET"), 0);
        assert_eq!(cost("q 1 0 0 1 0 0 cm true null Q"), 0);
        // Trailing operands, a stray `)`, an operator inside an array, a byte no token starts:
        // k² for the tokens, and (bytes a restart begins at) × (bytes) for the rereading.
        assert_eq!(cost("1 2 3"), 9 + 3 * 5);
        assert_eq!(cost("1 2 ) m"), 9 + 3 * 5);
        assert_eq!(cost("[1 m] TJ"), 9 + 4 * 5);
        assert_eq!(cost("1 \x01 m"), 4 + 2 * 3);
        // Openings hidden in an unclosed string: each restart inside nests through the rest.
        assert_eq!(
            cost(&format!("BT ({}", "[".repeat(1000))),
            1 + 4 * 500_000 + 1001 * 1001
        );
    }

    #[test]
    fn a_failed_operation_costs_its_bytes_once_per_restart() {
        let cost = |page: &[u8]| {
            let mut n = scan(page);
            n.finish();
            n.restart_cost()
        };
        let spaces = vec![b' '; 1 << 20];
        // A fuzzed page's shape: operands, a MiB of spaces, then what fails the operation (a
        // stray `)` or `]`, the stream's end); each of 1,000 restarts read the spaces again.
        for failure in [&b" )"[..], b" ] ", b""] {
            let page = [&b"BT (x) Tj "[..], &b"1 ".repeat(1_000), &spaces, failure].concat();
            let got = cost(&page);
            assert!(got >= 1_000 * (1 << 20), "{failure:?}: {got}");
            assert!(got > crate::MAX_PAGE_RESTART_COST);
        }
        // A long number the fast parser reads and the slow one refuses: its restarts run on
        // through the spaces to the operator.
        let page = [&b"BT (x) Tj "[..], &b"1".repeat(10_000), &spaces, b" T ET"].concat();
        assert!(cost(&page) >= 1_024 * (1 << 20), "{}", cost(&page));
        // Spaces in operations that do not fail cost nothing.
        let page = [&b"BT 1 2 "[..], &spaces, b" Td (x) Tj ", &spaces, b"ET"].concat();
        assert_eq!(cost(&page), 0);
    }

    /// A page's figures from a scan now, as `page_content` always took them.
    fn page_figures(data: &[u8]) -> Figures {
        let mut n = Nesting::new();
        push_content(&mut n, data);
        n.finish();
        Figures::of(&n)
    }

    #[test]
    fn a_stream_the_prepass_scanned_gives_the_page_its_figures_unscanned() {
        // Text, a broken operation (restart cost) and trailing operands, fed in odd pieces as
        // the inflater hands them over.
        let content =
            b"BT /F1 12 Tf 72 720 Td (Hello [world]) Tj ] 1 2 3 Td [(a) 1 (b)] TJ ET 4 5 6"
                .repeat(9);
        let mut scans = Scans::default();
        let mut scan = scans.stream_scan();
        for piece in content.chunks(7) {
            scan.push(piece);
        }
        scans.keep(scan).expect("within the limits");
        assert_eq!(scans.kept.len(), 1);
        let expected = page_figures(&content);
        assert!(expected.restart_cost > 0 && expected.within);
        assert_eq!(scans.content(&content), expected);
        // Found, not scanned and kept again.
        assert_eq!(scans.kept.len(), 1);
        // Other bytes of the same length are scanned.
        let mut other = content.clone();
        other[3] = b'(';
        assert_eq!(scans.content(&other), page_figures(&other));
        assert_eq!(scans.kept.len(), 2);
    }

    #[test]
    fn a_stream_that_may_hold_an_inline_image_is_scanned_by_its_page() {
        // The image data holds openings the page scan reads as opaque and the file scan as
        // syntax: the two disagree, so the file scan's figures are not kept.
        let content = [
            &b"BT (x) Tj ET q BI /W 4 /H 4 /F /A85 ID "[..],
            &b"[[[[<<".repeat(20),
            b" EI Q",
        ]
        .concat();
        let mut scans = Scans::default();
        let mut scan = scans.stream_scan();
        for piece in content.chunks(13) {
            scan.push(piece);
        }
        scans.keep(scan).expect("within the limits");
        assert!(scans.kept.is_empty());
        assert_eq!(scans.content(&content), page_figures(&content));
    }

    /// Every figure the meter's users read (the nesting limits, the page charges), from the
    /// meter.
    fn figures(n: &Nesting) -> [u64; 7] {
        [
            n.deepest() as u64,
            n.most_hidden() as u64,
            n.bound() as u64,
            n.string_bytes() as u64,
            n.tokens() as u64,
            n.most_nested_tokens() as u64,
            n.restart_cost(),
        ]
    }

    /// The same figures from the byte-at-a-time machine the meter replaced.
    fn oracle_figures(o: &Oracle) -> [u64; 7] {
        [
            o.deepest() as u64,
            o.most_hidden() as u64,
            o.bound() as u64,
            o.string_bytes() as u64,
            o.tokens() as u64,
            o.most_nested_tokens() as u64,
            o.restart_cost(),
        ]
    }

    /// `input` fed to the meter in pieces of `piece` bytes (a restart before the piece that
    /// starts at `restart_at`, as the file pre-pass restarts between the file's stretches) and
    /// to the oracle one byte at a time: the figures agree after every piece and at the end.
    fn agrees_with_oracle(input: &[u8], piece: usize, restart_at: Option<usize>) {
        let mut n = Nesting::new();
        let mut o = Oracle::new();
        for (k, chunk) in input.chunks(piece.max(1)).enumerate() {
            if restart_at == Some(k) {
                n.restart();
                o.restart();
            }
            n.push(chunk);
            o.push(chunk);
            assert_eq!(figures(&n), oracle_figures(&o), "after piece {k}");
        }
        n.finish();
        o.finish();
        assert_eq!(figures(&n), oracle_figures(&o), "finished");
        assert_eq!(within(&n).is_ok(), {
            o.deepest() <= MAX_DEPTH
                && o.bound() <= MAX_BOUND
                && o.most_nested_tokens() <= MAX_NESTED_TOKENS
        });
    }

    /// [`push_content`] for the oracle: the same inline-image cuts.
    fn oracle_content(o: &mut Oracle, data: &[u8]) {
        let mut at = 0;
        while let Some(bi) = operator(data, at, b"BI") {
            let Some(id) = operator(data, bi + 2, b"ID") else {
                break;
            };
            o.push(&data[at..id + 2]);
            let Some(ei) = operator(data, id + 2, b"EI") else {
                o.push_opaque(&data[id + 2..]);
                return;
            };
            o.push_opaque(&data[id + 2..ei]);
            at = ei;
        }
        o.push(&data[at..]);
    }

    /// Pieces of PDF syntax a hostile stream is made of: every delimiter, white space, words
    /// the meter tells apart (`false` and `falsey` read alike), bytes no token starts with,
    /// escapes, inline-image operators and tokens past [`LONG_TOKEN`].
    fn fragments() -> Vec<Vec<u8>> {
        let mut f: Vec<Vec<u8>> = [
            " ", "  ", "\n", "\r", "\t", "\x00", "\x0c", "(", ")", "\\", "\\(", "[", "]", "<", ">",
            "<<", ">>", "{", "}", "/", "/F1", "%", "% c [<\n", "true", "false", "falsey", "null",
            "nullx", "R", "Rx", "Tj", "TJ", "Td", "BT", "ET", "'", "\"", "12", "-3.5", "+.", "*",
            "#", "\x01", "\u{80}", "<0035>", "<00[3<5>", "BI", "ID", "EI", "q", "Q",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        f.push(vec![0xFF, 0x80]);
        f.push(vec![b'1'; 300]);
        f.push(vec![b'x'; 300]);
        f.push([&b"/"[..], &[b'N'; 300]].concat());
        f.push(vec![b' '; 300]);
        f.push(vec![b'('; 40]);
        f.push(vec![b'['; 40]);
        f
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        #[test]
        fn the_meter_agrees_with_the_byte_machine_on_any_bytes(
            input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..1_500),
            piece in 1usize..80,
            restart_at in proptest::option::of(0usize..20),
        ) {
            agrees_with_oracle(&input, piece, restart_at);
        }

        #[test]
        fn the_meter_agrees_with_the_byte_machine_on_hostile_syntax(
            picks in proptest::collection::vec(0usize..64, 0..300),
            piece in 1usize..600,
            restart_at in proptest::option::of(0usize..8),
        ) {
            let fragments = fragments();
            let input: Vec<u8> = picks
                .iter()
                .flat_map(|&k| fragments[k % fragments.len()].iter().copied())
                .collect();
            agrees_with_oracle(&input, piece, restart_at);
            // A page's content, inline images cut out, as the page charge reads it.
            let mut n = Nesting::new();
            push_content(&mut n, &input);
            n.finish();
            let mut o = Oracle::new();
            oracle_content(&mut o, &input);
            o.finish();
            proptest::prop_assert_eq!(figures(&n), oracle_figures(&o));
        }
    }

    #[test]
    fn the_meter_agrees_with_the_byte_machine_on_content() {
        // Content-like bytes drawn from the lexer's alphabet (a fixed generator), and hex
        // strings of CID text, some with white space or openings among their digits; fed
        // whole, in pieces and with a restart.
        let alphabet = b"  \n\r\t%()[]<>{}/\\0123456789.-BTETjfmqQabcdefghijklmnopqrstuvwxyz";
        let hex = b"<<>>0123456789ABCDEFabcdef0123456789ABCDEF0123456789abcdef \n[]Tj";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let lengths = [0usize, 1, 7, 64, 1_000, 20_000];
        for (alphabet, len) in lengths
            .iter()
            .map(|&len| (&alphabet[..], len))
            .chain(lengths.iter().map(|&len| (&hex[..], len)))
        {
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            for piece in [len.max(1), 5, 1] {
                agrees_with_oracle(&input, piece, None);
                agrees_with_oracle(&input, piece, Some(3));
            }
        }
        // Long words and names keep their first bytes only.
        agrees_with_oracle(b"BT /LongFontName 12 Tf operatorword 1 2 3 ET", 64, None);
        // A word cut by a restart is read on by the next stretch's first byte.
        for next in [
            &b" 1 2"[..],
            b"e 1 ]",
            b"1 ) x",
            b"x y",
            b"[1 2]",
            b"\x01 Tj",
        ] {
            let mut n = Nesting::new();
            let mut o = Oracle::new();
            for (chunk, restart) in [(&b"[ 1 tru"[..], false), (next, true)] {
                if restart {
                    n.restart();
                    o.restart();
                }
                n.push(chunk);
                o.push(chunk);
            }
            n.finish();
            o.finish();
            assert_eq!(figures(&n), oracle_figures(&o), "{next:?}");
        }
    }

    #[test]
    fn restart_keeps_the_maxima() {
        let mut n = scan(b"[[[ (");
        n.restart();
        n.push(b"[");
        assert_eq!((n.deepest(), n.most_hidden()), (3, 0));
    }
}
