//! One document's content scans kept with the bytes scanned, so that a page or a form whose
//! decoded content the file pre-pass already scanned is looked up rather than scanned again.

use std::collections::HashMap;

use memchr::memmem;

use super::{push_content, within, Nesting, TooDeep};

/// What the per-page limits read of one content stream's scan ([`push_content`], then
/// [`Nesting::finish`]): whether it stays within the nesting limits, and its text bytes,
/// tokens and restart cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    pub within: bool,
    pub string_bytes: usize,
    pub tokens: usize,
    pub restart_cost: u64,
}

impl Figures {
    /// The figures of a finished scan.
    pub fn of(n: &Nesting) -> Figures {
        Figures {
            within: within(n).is_ok(),
            string_bytes: n.string_bytes(),
            tokens: n.tokens(),
            restart_cost: n.restart_cost(),
        }
    }
}

/// Streams shorter than this are scanned again rather than kept: rescanning them costs less
/// than their entry.
const MIN_KEPT_STREAM: usize = 64;
/// At most this many scans are kept per document: a file of many tiny streams must not make
/// the memo its own memory bomb.
const MAX_KEPT_SCANS: usize = 65_536;
/// At most this many bytes of scanned streams are kept per document (pdf-dev's documents
/// hold 0.1 MiB of content on average); streams past it are scanned again by their page.
const MAX_KEPT_BYTES: usize = 8 << 20;
/// At most this many Flate streams are kept under one head (see [`Scans::keep_flate`]).
const MAX_FLATE_ALIKE: usize = 4;
/// The bytes at each end of a stream that its entry is filed under (with its length).
const FILED_BYTES: usize = 32;

/// One document's content scans, kept with the exact bytes scanned.
///
/// Why: the file pre-pass ([`check_file_keeping`]) decodes and scans every stream that holds syntax,
/// content streams and forms among them, and the page scan (`page_cost.rs` and
/// `forms`) then scanned each page's and form's decoded content again: 13 % of the CPU of
/// reading pdf-dev. A page or form now looks its bytes up here, and is scanned only when they
/// were not seen. An entry keeps a copy of the bytes it scanned and is used only for the very
/// same bytes (compared whole), so a document cannot steer a page to another stream's
/// figures: a forged cross-reference, an object number used twice, a `/Length` the parser
/// reads differently or a decoder that recovers otherwise all give other bytes, which miss and
/// are scanned. Entries are filed under the length and both ends of their bytes; two streams
/// filed alike keep the first. (A keyed hash of every byte, as before, cost 1.5 % of the
/// instructions of reading pdf-dev; a copy and a comparison cost a tenth of that.)
#[derive(Debug, Default)]
pub struct Scans {
    // Seen by the tests in `nesting`, which count what a pre-pass kept.
    pub(super) kept: HashMap<Filed, (Vec<u8>, Figures)>,
    kept_bytes: usize,
    /// Flate streams the pre-pass read whole, by the first bytes of their compressed body:
    /// the compressed bytes and where their decoded bytes are kept (see [`Scans::flate`]).
    flate: HashMap<[u8; FILED_BYTES], Vec<(Vec<u8>, Filed)>>,
    flate_bytes: usize,
}

/// Where an entry is filed: the length and both ends of its bytes.
pub type Filed = (usize, [u8; 2 * FILED_BYTES]);

/// The first bytes of a compressed body, zeros past its end.
fn head(raw: &[u8]) -> [u8; FILED_BYTES] {
    let mut head = [0u8; FILED_BYTES];
    let n = raw.len().min(FILED_BYTES);
    head[..n].copy_from_slice(&raw[..n]);
    head
}

/// Where the entry for `data` is filed.
fn filed(data: &[u8]) -> Filed {
    let mut ends = [0u8; 2 * FILED_BYTES];
    let head = data.len().min(FILED_BYTES);
    ends[..head].copy_from_slice(&data[..head]);
    let tail = data.len().min(FILED_BYTES);
    ends[FILED_BYTES..FILED_BYTES + tail].copy_from_slice(&data[data.len() - tail..]);
    (data.len(), ends)
}

impl Scans {
    /// The figures of content `data`, from an earlier scan of the same bytes or a scan now.
    pub fn content(&mut self, data: &[u8]) -> Figures {
        let key = filed(data);
        if let Some((bytes, known)) = self.kept.get(&key) {
            if bytes.as_slice() == data {
                return *known;
            }
        }
        let mut n = Nesting::new();
        push_content(&mut n, data);
        n.finish();
        let figures = Figures::of(&n);
        if self.room(data.len()) {
            self.insert(data.to_vec(), figures);
        }
        figures
    }

    /// A scan of one decoded stream, fed in pieces, for [`Scans::keep`].
    pub fn stream_scan(&self) -> StreamScan {
        StreamScan {
            n: Nesting::new(),
            bytes: Some(Vec::new()),
            room: MAX_KEPT_BYTES.saturating_sub(self.kept_bytes),
            last: 0,
            inline_image: false,
        }
    }

    /// The stream's nesting limits checked, as the pre-pass always did; its figures kept
    /// unless it may hold an inline image (whose data [`push_content`] reads otherwise).
    /// `Some` names the entry that holds the stream's bytes (kept now or before).
    pub fn keep(&mut self, mut scan: StreamScan) -> Result<Option<Filed>, TooDeep> {
        within(&scan.n)?;
        if let (false, Some(bytes)) = (scan.inline_image, scan.bytes.take()) {
            let key = filed(&bytes);
            if let Some((known, _)) = self.kept.get(&key) {
                return Ok((*known == bytes).then_some(key));
            }
            if self.room(bytes.len()) {
                scan.n.finish();
                self.insert(bytes, Figures::of(&scan.n));
                return Ok(Some(key));
            }
        }
        Ok(None)
    }

    /// A Flate stream read whole from its compressed bytes `raw` (the start of its body), its
    /// decoded bytes kept under `kept`: the page that names the stream takes them from here
    /// rather than have the parser inflate them again (see [`Scans::flate`]).
    pub fn keep_flate(&mut self, raw: &[u8], kept: Filed) {
        if raw.len() < FILED_BYTES
            || self.flate_bytes.saturating_add(raw.len()) > MAX_KEPT_BYTES
            || !self.kept.contains_key(&kept)
        {
            return;
        }
        let filed = self.flate.entry(head(raw)).or_default();
        // A few streams per head: a page's lookup compares at most that many times its own
        // bytes, however many streams a document makes alike.
        if filed.len() >= MAX_FLATE_ALIKE || filed.iter().any(|(read, _)| read == raw) {
            return;
        }
        self.flate_bytes += raw.len();
        filed.push((raw.to_vec(), kept));
    }

    /// The decoded bytes of a Flate stream whose body (as the parser read it) is `raw`, when
    /// the pre-pass read the same zlib stream whole: the compressed bytes it read are the
    /// start of `raw` (compared whole), and a zlib stream ends where it says, so the parser's
    /// Flate decoder reads the same bytes from `raw` and gives the same output.
    pub fn flate(&self, raw: &[u8]) -> Option<&[u8]> {
        self.flate.get(&head(raw))?.iter().find_map(|(read, kept)| {
            raw.starts_with(read)
                .then(|| self.kept.get(kept).map(|(bytes, _)| bytes.as_slice()))
                .flatten()
        })
    }

    /// Whether an entry of `len` bytes is worth keeping and fits.
    fn room(&self, len: usize) -> bool {
        len >= MIN_KEPT_STREAM
            && self.kept.len() < MAX_KEPT_SCANS
            && self.kept_bytes.saturating_add(len) <= MAX_KEPT_BYTES
    }

    fn insert(&mut self, bytes: Vec<u8>, figures: Figures) {
        let key = filed(&bytes);
        if let std::collections::hash_map::Entry::Vacant(slot) = self.kept.entry(key) {
            self.kept_bytes += bytes.len();
            slot.insert((bytes, figures));
        }
    }
}

/// A stream being scanned in pieces: its nesting, a copy of its bytes (until they pass the
/// room the document's entries have left), and whether `BI` occurs in them (a possible inline
/// image).
pub struct StreamScan {
    n: Nesting,
    bytes: Option<Vec<u8>>,
    room: usize,
    last: u8,
    inline_image: bool,
}

impl StreamScan {
    pub fn push(&mut self, piece: &[u8]) {
        let Some(&first) = piece.first() else {
            return;
        };
        self.n.push(piece);
        if let Some(bytes) = &mut self.bytes {
            if bytes.len() + piece.len() <= self.room {
                bytes.extend_from_slice(piece);
            } else {
                self.bytes = None;
            }
        }
        self.inline_image |=
            (self.last == b'B' && first == b'I') || memmem::find(piece, b"BI").is_some();
        self.last = piece[piece.len() - 1];
    }
}
