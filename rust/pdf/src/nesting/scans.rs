//! One document's content scans kept by the bytes scanned, so that a page or a form whose
//! decoded content the file pre-pass already scanned is looked up rather than scanned again.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};

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
/// At most this many scans are kept per document (about 3 MiB of entries): a file of many
/// tiny streams must not make the memo its own memory bomb.
const MAX_KEPT_SCANS: usize = 65_536;

/// One document's content scans, keyed by the exact bytes scanned.
///
/// Why: the file pre-pass ([`check_file_keeping`]) decodes and scans every stream that holds syntax,
/// content streams and forms among them, and the page scan (`page_cost.rs` and
/// `forms`) then scanned each page's and form's decoded content again: 13 % of the CPU of
/// reading pdf-dev. A page or form now looks its bytes up here, and is scanned only when they
/// were not seen. The key is a hash under a key drawn at random per document (SipHash, as
/// `HashMap`'s) and the length, of the very bytes scanned, so a document cannot steer a page
/// to another stream's figures: a forged cross-reference, an object number used twice, a
/// `/Length` the parser reads differently or a decoder that recovers otherwise all give other
/// bytes, which miss and are scanned.
#[derive(Debug, Default)]
pub struct Scans {
    keys: RandomState,
    // Seen by the tests in `nesting`, which count what a pre-pass kept.
    pub(super) kept: HashMap<(u64, usize), Figures>,
}

impl Scans {
    /// The figures of content `data`, from an earlier scan of the same bytes or a scan now.
    pub fn content(&mut self, data: &[u8]) -> Figures {
        let key = (self.keys.hash_one_bytes(data), data.len());
        if let Some(&known) = self.kept.get(&key) {
            return known;
        }
        let mut n = Nesting::new();
        push_content(&mut n, data);
        n.finish();
        let figures = Figures::of(&n);
        self.insert(key, figures);
        figures
    }

    /// A scan of one decoded stream, fed in pieces, for [`Scans::keep`].
    pub fn stream_scan(&self) -> StreamScan {
        StreamScan {
            n: Nesting::new(),
            hasher: self.keys.build_hasher(),
            len: 0,
            last: 0,
            inline_image: false,
        }
    }

    /// The stream's nesting limits checked, as the pre-pass always did; its figures kept
    /// unless it may hold an inline image (whose data [`push_content`] reads otherwise).
    pub fn keep(&mut self, mut scan: StreamScan) -> Result<(), TooDeep> {
        within(&scan.n)?;
        if !scan.inline_image {
            scan.n.finish();
            self.insert((scan.hasher.finish(), scan.len), Figures::of(&scan.n));
        }
        Ok(())
    }

    fn insert(&mut self, key: (u64, usize), figures: Figures) {
        if key.1 >= MIN_KEPT_STREAM && self.kept.len() < MAX_KEPT_SCANS {
            self.kept.insert(key, figures);
        }
    }
}

trait HashBytes {
    fn hash_one_bytes(&self, data: &[u8]) -> u64;
}

impl HashBytes for RandomState {
    /// The hash of `data`'s bytes alone (no length prefix), as [`StreamScan`] builds it piece
    /// by piece.
    fn hash_one_bytes(&self, data: &[u8]) -> u64 {
        let mut h = self.build_hasher();
        h.write(data);
        h.finish()
    }
}

/// A stream being scanned in pieces: its nesting, the hash and length of its bytes, and
/// whether `BI` occurs in them (a possible inline image).
pub struct StreamScan {
    n: Nesting,
    hasher: std::hash::DefaultHasher,
    len: usize,
    last: u8,
    inline_image: bool,
}

impl StreamScan {
    pub fn push(&mut self, piece: &[u8]) {
        let Some(&first) = piece.first() else {
            return;
        };
        self.n.push(piece);
        self.hasher.write(piece);
        self.len += piece.len();
        self.inline_image |=
            (self.last == b'B' && first == b'I') || memmem::find(piece, b"BI").is_some();
        self.last = piece[piece.len() - 1];
    }
}
