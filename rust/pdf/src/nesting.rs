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

/// A byte-at-a-time nesting meter; feed it with [`Nesting::push`] in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nesting {
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
    /// token (see [`Nesting::end_operation`]).
    op_bytes: u64,
    op_starts: u64,
    op_long: bool,
    /// The bare word being read (its first bytes), if one is.
    word: Option<([u8; 5], usize)>,
    /// Bytes of the token being read (a number, an operator, a name).
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
    /// worker busy 41 s). Call [`Nesting::finish`] first.
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
    /// (1,000 rereadings of the spaces); its tokens alone (`k²`, [`Nesting::fail`]) cost 10⁶.
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

    /// [`Nesting::end_word`] for a word that was being read (most calls find none).
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

    pub fn push(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            // Runs that change nothing but counters are counted whole: the rest of a token
            // (a number's digits, an operator's or a name's letters) and a region's plain
            // bytes. Each step below is what `byte` does to every byte of the run.
            let run = match self.state {
                // Between tokens, no token or word left over from before a `restart`.
                State::Structure
                    if !self.after_space || (self.token_len == 0 && self.word.is_none()) =>
                {
                    self.structure_run(&bytes[i..])
                }
                State::Name => self.token_run(&bytes[i..], false),
                State::Literal(_) => {
                    let end = memchr::memchr3(b'\\', b'(', b')', &bytes[i..]);
                    self.region_run(&bytes[i..i + end.unwrap_or(bytes.len() - i)], true)
                }
                State::Comment => {
                    let end = memchr::memchr2(b'\r', b'\n', &bytes[i..]);
                    self.region_run(&bytes[i..i + end.unwrap_or(bytes.len() - i)], false)
                }
                State::Hex => self.hex_run(&bytes[i..]),
                _ => 0,
            };
            i += run;
            if let Some(&b) = bytes.get(i) {
                self.byte(b);
                i += 1;
            }
        }
    }

    /// The regular bytes (neither white space nor a delimiter) at the start of `bytes`,
    /// inside a token already started: counted, and the first of them kept in the word being
    /// read when `word`.
    fn token_run(&mut self, bytes: &[u8], word: bool) -> usize {
        let run = bytes
            .iter()
            .position(|&b| CLASS[b as usize] != 0)
            .unwrap_or(bytes.len());
        if run == 0 {
            return 0;
        }
        self.op_bytes += run as u64;
        self.op_starts += run as u64;
        self.token_len += run;
        if word {
            if let Some((kept, len)) = &mut self.word {
                for (k, &b) in bytes[..run].iter().enumerate() {
                    match kept.get_mut(*len + k) {
                        Some(slot) => *slot = b,
                        None => break,
                    }
                }
                *len += run;
            }
        }
        run
    }

    /// The white space and regular tokens (numbers, operators, `true`, …) at the start of
    /// `bytes`, up to the first delimiter: what [`Nesting::structure_byte`] does to each of
    /// them, a token at a time. Most of a content stream is such runs (`0 0 1 rg 72 712 Td`),
    /// and stepping through them byte by byte was most of the scan's time.
    fn structure_run(&mut self, bytes: &[u8]) -> usize {
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            match CLASS[b as usize] {
                SPACE => {
                    // Counted before the operation it may end is charged.
                    self.op_bytes += 1;
                    if !self.after_space {
                        self.end_token();
                        self.end_word();
                        self.after_space = true;
                    }
                    i += 1;
                }
                0 => {
                    if self.after_space {
                        // A token starts (no token or word was being read: see `push`).
                        self.op_bytes += 1;
                        self.op_starts += 1;
                        self.token_len += 1;
                        self.token();
                        if b.is_ascii_alphabetic() || b == b'\'' || b == b'"' {
                            self.word = Some(([b, 0, 0, 0, 0], 1));
                        } else if !STARTS_OPERAND[b as usize] {
                            self.fail();
                        }
                        self.after_space = false;
                        i += 1;
                    }
                    i += self.token_run(&bytes[i..], true);
                }
                // A hex string (`<` not followed by `<`) read whole, and a `TJ` array's
                // brackets, without leaving the run: what `byte` does to each of their bytes
                // (CID text is `[<0012>-3<0034>]TJ` over and over, and each delimiter sent
                // back to `push` was a round through the state machine).
                _ if b == b'<' && bytes.get(i + 1).is_some_and(|&c| c != b'<') => {
                    i += 1 + self.hex_string(&bytes[i + 1..]);
                    if self.state != State::Structure {
                        break;
                    }
                }
                _ if b == b'[' || b == b']' => {
                    self.byte(b);
                    i += 1;
                }
                // A name (`/F4 12 Tf`, `/P <</MCID 3>> BDC`) and the byte that ends it, as
                // `push` and `byte` read them.
                _ if b == b'/' => {
                    self.byte(b);
                    i += 1;
                    i += self.token_run(&bytes[i..], false);
                    let Some(&end) = bytes.get(i) else {
                        break;
                    };
                    self.byte(end);
                    i += 1;
                    if self.state != State::Structure {
                        break;
                    }
                }
                _ => break,
            }
        }
        i
    }

    /// After a `<` read between tokens whose next byte (the first of `after`) is not `<`: the
    /// `<` as [`Nesting::structure_byte`] reads it, then the hex string up to and including
    /// its `>` (or to the end of `after`, the string still open). Returns the bytes of `after`
    /// read.
    fn hex_string(&mut self, after: &[u8]) -> usize {
        // `byte(b'<')`, then the angle's next byte entering the hex region.
        self.op_bytes += 1;
        self.op_starts += 1;
        self.end_token();
        self.end_word();
        self.token();
        self.after_space = true;
        self.enter_region(State::Hex);
        let run = self.hex_run(after);
        if after.get(run) == Some(&b'>') {
            // `hex_byte(b'>')`.
            self.op_bytes += 1;
            self.op_starts += 1;
            self.state = State::Structure;
            return run + 1;
        }
        run
    }

    /// A run of a region's bytes that neither end it nor change its state (`strings`: they
    /// count as string bytes, as in literal and hex strings but not comments).
    fn region_run(&mut self, run: &[u8], strings: bool) -> usize {
        if run.is_empty() {
            return 0;
        }
        let (spaces, opens) = spaces_and_opens(run);
        self.count_region(run.len(), spaces, opens, strings);
        run.len()
    }

    /// [`Nesting::region_run`] for a hex string's bytes up to its `>`, found in the same pass
    /// that counts them: a content stream of CID text is mostly short hex strings, and a
    /// search for the end, then a count, was two passes and a call for each.
    fn hex_run(&mut self, bytes: &[u8]) -> usize {
        let (mut i, mut spaces, mut opens) = (0, 0, 0);
        'words: while let Some(word) = bytes.get(i..i + 8) {
            let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
            if !has_space_open_or(w, b'>') {
                i += 8;
                continue;
            }
            for &b in word {
                if b == b'>' {
                    break 'words;
                }
                spaces += usize::from(CLASS[b as usize] == SPACE);
                opens += usize::from(b == b'[' || b == b'<');
                i += 1;
            }
        }
        if bytes.get(i).is_some_and(|&b| b != b'>') {
            let end = memchr::memchr(b'>', &bytes[i..]).map_or(bytes.len(), |e| i + e);
            let (s, o) = spaces_and_opens(&bytes[i..end]);
            (spaces, opens, i) = (spaces + s, opens + o, end);
        }
        self.count_region(i, spaces, opens, true);
        i
    }

    /// What a region's run of `len` bytes, `spaces` of them white space and `opens` of them
    /// `[` or `<`, does to the counters (see [`Nesting::region_run`]).
    fn count_region(&mut self, len: usize, spaces: usize, opens: usize, strings: bool) {
        let run = len;
        self.op_bytes += run as u64;
        self.op_starts += (run - spaces) as u64;
        if strings {
            self.string_bytes += run;
        }
        if matches!(self.state, State::Literal(_)) {
            self.string_len += run as u64;
        }
        self.hidden += opens;
        self.most_hidden = self.most_hidden.max(self.hidden);
    }

    /// Bytes the parser reads as data, not syntax, unless a parse goes astray: every `[` and
    /// `<` in them is a possible opening, as in a string.
    pub fn push_opaque(&mut self, bytes: &[u8]) {
        let opens = bytes.iter().filter(|&&b| b == b'[' || b == b'<').count();
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

/// The white space bytes of `run` and its `[` and `<` bytes, eight bytes at a time where
/// none of the eight is either (a hex string's digits, most of a literal string's text).
fn spaces_and_opens(run: &[u8]) -> (usize, usize) {
    let (mut spaces, mut opens) = (0, 0);
    let mut words = run.chunks_exact(8);
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        if has_space_open_or(w, b'[') {
            for &b in word {
                spaces += usize::from(CLASS[b as usize] == SPACE);
                opens += usize::from(b == b'[' || b == b'<');
            }
        }
    }
    for &b in words.remainder() {
        spaces += usize::from(CLASS[b as usize] == SPACE);
        opens += usize::from(b == b'[' || b == b'<');
    }
    (spaces, opens)
}

/// Whether one of the eight bytes of `w` may be white space (every white space byte is below
/// `!`, so a byte below it counts), is `[` or `<`, or is `also`: exact as a yes or no (the
/// bit tricks of "Bit Twiddling Hacks", `hasless` and `haszero`).
#[inline]
fn has_space_open_or(w: u64, also: u8) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS;
    let equal = |c: u8| below(w ^ (ONES * u64::from(c)), 1);
    below(w, b'!') | equal(b'[') | equal(b'<') | equal(also) != 0
}

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] == SPACE
}

#[inline]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] == DELIMITER
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn runs_counted_whole_leave_the_meter_as_byte_steps_do() {
        // Content-like bytes drawn from the lexer's alphabet (a fixed generator), fed whole,
        // in pieces and one byte at a time: every counter and state agrees.
        let alphabet = b"  \n\r\t%()[]<>{}/\\0123456789.-BTETjfmqQabcdefghijklmnopqrstuvwxyz";
        // Hex strings of CID text, some with white space or openings among their digits (the
        // eight-byte steps of `hex_run` and `spaces_and_opens`).
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
            let mut stepped = Nesting::new();
            for &b in &input {
                stepped.byte(b);
            }
            let mut whole = Nesting::new();
            whole.push(&input);
            assert_eq!(whole, stepped, "whole, {len} bytes");
            let mut pieces = Nesting::new();
            for piece in input.chunks(5) {
                pieces.push(piece);
            }
            assert_eq!(pieces, stepped, "in pieces, {len} bytes");
        }
        // Long words and names keep their first bytes only.
        let mut stepped = Nesting::new();
        for &b in b"BT /LongFontName 12 Tf operatorword 1 2 3 ET" {
            stepped.byte(b);
        }
        assert_eq!(
            scan(b"BT /LongFontName 12 Tf operatorword 1 2 3 ET"),
            stepped
        );
    }

    #[test]
    fn restart_keeps_the_maxima() {
        let mut n = scan(b"[[[ (");
        n.restart();
        n.push(b"[");
        assert_eq!((n.deepest(), n.most_hidden()), (3, 0));
    }
}
