//! A pre-pass that refuses Flate bombs before the parser inflates them.
//!
//! Why: the parser's own per-stream cap did not hold for a page content stream in testing
//! (a 1 GiB stream reached 828 MiB of peak RSS), and its limits cannot be set from outside.
//! This pass inflates every Flate stream that is not an image into a small scratch buffer,
//! counting bytes, and stops at the first stream past [`crate::Limits::max_stream_bytes`] or
//! once all of them add up past [`crate::Limits::max_inflated_bytes`]. Images are skipped:
//! text extraction never decodes them, and a scanned page's image is legitimately large.
//! A file whose streams could not pass either limit even at Flate's greatest ratio is not
//! inflated at all ([`within_any_ratio`]): most documents, whose streams hold a few hundred
//! KiB, cost a walk over their streams (inflating them was 4 % of reading pdf-dev).

use flate2::{Decompress, FlushDecompress, Status};
use memchr::memmem;

use crate::crypt::Decryptor;

/// Why the pre-pass refused a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bomb {
    /// One stream inflates past this many bytes.
    Stream(usize),
    /// All streams together inflate past this many bytes.
    Total(usize),
}

/// Check the Flate and run-length streams of `data` against the two limits. With `crypt`
/// (an encrypted file), each stream counts for the larger of what it expands to as it is and
/// decrypted: the parser decrypts most streams, but reads some as they are.
pub fn check(
    data: &[u8],
    max_stream: usize,
    max_total: usize,
    crypt: Option<&Decryptor>,
) -> Result<(), Bomb> {
    if crypt.is_none() && within_any_ratio(data, max_stream, max_total) {
        return Ok(());
    }
    let mut total = 0usize;
    let mut scratch = vec![0u8; 64 * 1024];
    for stream in streams(data) {
        if memmem::find(stream.dict, b"/Image").is_some() {
            continue;
        }
        let cap = max_stream.saturating_add(1);
        if !names_flate(stream.dict) && !names_run_length(stream.dict) {
            continue;
        }
        let mut out = expanded(stream.dict, stream.body, cap, &mut scratch);
        for plain in crypt.map(|c| c.stream(&stream)).unwrap_or_default() {
            out = out.max(expanded(stream.dict, &plain, cap, &mut scratch));
        }
        if out > max_stream {
            return Err(Bomb::Stream(max_stream));
        }
        total = total.saturating_add(out);
        if total > max_total {
            return Err(Bomb::Total(max_total));
        }
    }
    Ok(())
}

/// The most bytes one byte of Flate input expands to: a 258-byte match coded in two bits
/// (zlib's documented limit, 1,032:1).
const FLATE_MOST: usize = 1032;
/// The most one byte of run-length input expands to: two bytes repeat one byte 128 times.
const RUN_LENGTH_MOST: usize = 64;
/// Allowance per stream over those ratios (block headers, a last partial byte).
const RATIO_SLACK: usize = 1 << 10;

/// Whether every stream [`check`] would inflate stays within both limits even if it expanded
/// at its filter's greatest ratio: then what `check` counts (never more) does too, and the
/// verdict is `Ok` without inflating anything. A stream that could pass a limit is counted
/// as before.
fn within_any_ratio(data: &[u8], max_stream: usize, max_total: usize) -> bool {
    let mut total = 0usize;
    for stream in streams(data) {
        if memmem::find(stream.dict, b"/Image").is_some() {
            continue;
        }
        let ratio = if names_flate(stream.dict) {
            FLATE_MOST
        } else if names_run_length(stream.dict) {
            RUN_LENGTH_MOST
        } else {
            continue;
        };
        let most = stream
            .body
            .len()
            .saturating_mul(ratio)
            .saturating_add(RATIO_SLACK);
        total = total.saturating_add(most);
        if most > max_stream || total > max_total {
            return false;
        }
    }
    true
}

/// Bytes a Flate or run-length `body` expands to, counting up to `cap`.
fn expanded(dict: &[u8], body: &[u8], cap: usize, scratch: &mut [u8]) -> usize {
    if names_flate(dict) {
        inflated_size(body, cap, scratch, |_| {})
    } else if names_run_length(dict) {
        // Run length expands 64:1 at most, but the parser's decoder took 0.9 GiB for a
        // 4 MiB stream: what it would produce is counted here without producing it.
        run_length(body, cap, scratch, |_| {})
    } else {
        0
    }
}

/// One `stream` … `endstream` of a file: its dictionary and its raw bytes.
#[derive(Debug, Clone, Copy)]
pub struct RawStream<'a> {
    /// The text before `stream` back to its object's `obj` (at most 4 KiB).
    pub dict: &'a [u8],
    /// Where the bytes start in the file.
    pub start: usize,
    /// The bytes up to the next `endstream` (or the end of the file).
    pub body: &'a [u8],
    /// The object number and generation of the `N G obj` header before the dictionary (the
    /// key an encrypted stream is decrypted with; see `crypt`).
    pub id: Option<(u32, u16)>,
}

/// Every stream of `data` in order, each found once: the search resumes after the body's
/// `endstream`, so a body's own bytes are never taken for a keyword.
pub fn streams(data: &[u8]) -> impl Iterator<Item = RawStream<'_>> {
    let finder = memmem::Finder::new(b"stream");
    let end_finder = memmem::Finder::new(b"endstream");
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let kw = at + finder.find(data.get(at..)?)?;
        at = kw + 6;
        // `endstream` contains `stream`: only a keyword after the dictionary's `>>` counts.
        if kw >= 3 && &data[kw - 3..kw] == b"end" {
            continue;
        }
        let Some(start) = stream_body(data, kw) else {
            continue;
        };
        let end = end_finder
            .find(&data[start..])
            .map_or(data.len(), |i| start + i);
        at = end;
        return Some(RawStream {
            dict: dictionary_before(data, kw),
            start,
            body: &data[start..end],
            id: object_id_before(data, kw),
        });
    })
}

/// Whether a dictionary names the Flate filter, in full or by its abbreviation `/Fl` (which
/// the parser accepts too, and which [`crate::filters`] may write).
pub fn names_flate(dict: &[u8]) -> bool {
    if memmem::find(dict, b"/FlateDecode").is_some() {
        return true;
    }
    memmem::find_iter(dict, b"/Fl").any(|i| {
        dict.get(i + 3)
            .is_none_or(|&b| !b.is_ascii_alphanumeric() && b != b'#' && b != b'_')
    })
}

/// Whether a dictionary names the run-length filter (`/RunLengthDecode` or `/RL`).
pub fn names_run_length(dict: &[u8]) -> bool {
    memmem::find(dict, b"/RunLengthDecode").is_some()
        || memmem::find_iter(dict, b"/RL").any(|i| {
            dict.get(i + 3)
                .is_none_or(|&b| !b.is_ascii_alphanumeric() && b != b'#' && b != b'_')
        })
}

/// Bytes a run-length stream decodes to, counting up to `cap`; the output goes to `sink` in
/// pieces of at most `scratch.len()` bytes, then is discarded.
pub fn run_length(
    input: &[u8],
    cap: usize,
    scratch: &mut [u8],
    mut sink: impl FnMut(&[u8]),
) -> usize {
    let mut out = 0usize;
    let mut filled = 0usize;
    let mut emit = |bytes: &mut dyn Iterator<Item = u8>, filled: &mut usize| {
        for b in bytes {
            if *filled == scratch.len() {
                sink(&scratch[..*filled]);
                *filled = 0;
            }
            scratch[*filled] = b;
            *filled += 1;
        }
    };
    let mut i = 0;
    while i < input.len() && out < cap {
        let len = input[i];
        i += 1;
        match len {
            128 => break,
            0..=127 => {
                let n = usize::from(len) + 1;
                let end = (i + n).min(input.len());
                out += end - i;
                emit(&mut input[i..end].iter().copied(), &mut filled);
                i = end;
            }
            _ => {
                let n = 257 - usize::from(len);
                let Some(&b) = input.get(i) else {
                    break;
                };
                i += 1;
                out += n;
                emit(&mut std::iter::repeat_n(b, n), &mut filled);
            }
        }
    }
    if filled > 0 {
        sink(&scratch[..filled]);
    }
    out
}

/// Where the stream's bytes start: after `stream` and its end of line.
fn stream_body(data: &[u8], kw: usize) -> Option<usize> {
    let after = kw + 6;
    match data.get(after..after + 2) {
        Some([b'\r', b'\n']) => Some(after + 2),
        Some([b'\n', _]) | Some([b'\r', _]) => Some(after + 1),
        _ => None,
    }
}

/// The text before `stream` back to the object's start (at most 4 KiB): its dictionary.
pub fn dictionary_before(data: &[u8], kw: usize) -> &[u8] {
    let from = kw.saturating_sub(4096);
    let window = &data[from..kw];
    let start = memmem::rfind(window, b"obj").map_or(0, |i| i + 3);
    &window[start..]
}

/// The `N G` of the `N G obj` header the dictionary before `stream` at `kw` belongs to (the
/// same 4 KiB window as [`dictionary_before`]).
fn object_id_before(data: &[u8], kw: usize) -> Option<(u32, u16)> {
    let from = kw.saturating_sub(4096);
    let obj = from + memmem::rfind(&data[from..kw], b"obj")?;
    let mut at = obj;
    let number = |at: &mut usize| -> Option<u64> {
        while *at > 0 && matches!(data[*at - 1], b' ' | b'\t' | b'\r' | b'\n' | 0x0C | 0) {
            *at -= 1;
        }
        let end = *at;
        while *at > 0 && data[*at - 1].is_ascii_digit() && end - *at < 10 {
            *at -= 1;
        }
        std::str::from_utf8(&data[*at..end]).ok()?.parse().ok()
    };
    let gen = number(&mut at)?;
    let id = number(&mut at)?;
    Some((u32::try_from(id).ok()?, u16::try_from(gen).ok()?))
}

/// Bytes `input` inflates to (zlib header expected, raw deflate tried otherwise), counting
/// up to `cap`; each piece of output goes to `sink`, then is discarded.
pub fn inflated_size(
    input: &[u8],
    cap: usize,
    scratch: &mut [u8],
    sink: impl FnMut(&[u8]),
) -> usize {
    inflate(input, cap, scratch, sink).out
}

/// What [`inflate`] read of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inflated {
    /// Bytes of output.
    pub out: usize,
    /// The input bytes a zlib stream took to its end, checksum included, when it ended
    /// cleanly before `cap`: the parser's own Flate decoder reads the same bytes from any
    /// body that starts with them (see `page_cost`).
    pub whole: Option<usize>,
}

/// [`inflated_size`], saying whether the stream was read whole.
pub fn inflate(
    input: &[u8],
    cap: usize,
    scratch: &mut [u8],
    mut sink: impl FnMut(&[u8]),
) -> Inflated {
    let zlib = input.first().is_some_and(|b| b & 0x0F == 8);
    let mut z = Decompress::new(zlib);
    let inflated = |z: &Decompress, whole: bool| Inflated {
        out: usize::try_from(z.total_out()).unwrap_or(usize::MAX),
        whole: (whole && zlib)
            .then(|| usize::try_from(z.total_in()).ok())
            .flatten(),
    };
    loop {
        let before_in = z.total_in();
        let before_out = z.total_out();
        let consumed = usize::try_from(before_in).unwrap_or(usize::MAX);
        let Some(rest) = input.get(consumed..) else {
            break;
        };
        let status = z.decompress(rest, scratch, FlushDecompress::None);
        let out = usize::try_from(z.total_out()).unwrap_or(usize::MAX);
        let fresh = usize::try_from(z.total_out() - before_out).unwrap_or(0);
        sink(&scratch[..fresh.min(scratch.len())]);
        match status {
            Ok(Status::StreamEnd) => return inflated(&z, out < cap),
            Err(_) => return inflated(&z, false),
            _ if out >= cap => return inflated(&z, false),
            // No progress either way: truncated input.
            _ if z.total_in() == before_in && z.total_out() == before_out => {
                return inflated(&z, false)
            }
            _ => {}
        }
    }
    inflated(&z, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::ZlibEncoder, Compression};
    use std::io::Write;

    /// The pass over an unencrypted file.
    fn check(data: &[u8], max_stream: usize, max_total: usize) -> Result<(), Bomb> {
        super::check(data, max_stream, max_total, None)
    }

    fn object(dict: &str, body: &[u8]) -> Vec<u8> {
        let mut out =
            format!("1 0 obj\n<< {dict} /Length {} >>\nstream\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendstream\nendobj\n");
        out
    }

    fn zeros_compressed(n: usize) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..n / chunk.len() {
            let _ = e.write_all(&chunk);
        }
        e.finish().unwrap_or_default()
    }

    #[test]
    fn a_bomb_is_refused_and_a_normal_stream_passes() {
        let bomb = object("/Filter /FlateDecode", &zeros_compressed(64 << 20));
        assert_eq!(check(&bomb, 16 << 20, 1 << 30), Err(Bomb::Stream(16 << 20)));
        let small = object("/Filter /FlateDecode", &zeros_compressed(1 << 20));
        assert_eq!(check(&small, 16 << 20, 1 << 30), Ok(()));
        let mut many = Vec::new();
        for _ in 0..5 {
            many.extend_from_slice(&small);
        }
        assert_eq!(check(&many, 16 << 20, 4 << 20), Err(Bomb::Total(4 << 20)));
    }

    #[test]
    fn no_stream_expands_past_its_filters_greatest_ratio() {
        // The densest Flate there is (zeros at the best level) and the densest run length
        // (128 copies from every two bytes) stay under the ratios the shortcut assumes.
        let mut scratch = vec![0u8; 64 * 1024];
        for n in [1usize << 20, 16 << 20] {
            let body = zeros_compressed(n);
            let out = inflated_size(&body, usize::MAX, &mut scratch, |_| {});
            assert_eq!(out, n);
            assert!(
                out <= body.len() * FLATE_MOST + RATIO_SLACK,
                "{out} from {}",
                body.len()
            );
        }
        let body: Vec<u8> = [129u8, 0].repeat(1 << 16);
        let out = run_length(&body, usize::MAX, &mut scratch, |_| {});
        assert_eq!(out, body.len() * RUN_LENGTH_MOST);
        // A file the ratios clear is passed without inflating; one they do not is counted.
        let small = object("/Filter /FlateDecode", &zeros_compressed(1 << 20));
        let just_under = (1 << 20) - 1;
        assert!(within_any_ratio(&small, 16 << 20, 1 << 30));
        assert!(!within_any_ratio(&small, just_under, 1 << 30));
        assert_eq!(
            check(&small, just_under, 1 << 30),
            Err(Bomb::Stream(just_under))
        );
    }

    #[test]
    fn the_abbreviated_name_is_checked_too() {
        let bomb = object("/Filter /Fl", &zeros_compressed(64 << 20));
        assert_eq!(check(&bomb, 16 << 20, 1 << 30), Err(Bomb::Stream(16 << 20)));
        let other = object("/Filter /Flx", &zeros_compressed(64 << 20));
        assert_eq!(check(&other, 16 << 20, 1 << 30), Ok(()));
    }

    #[test]
    fn images_and_other_filters_are_not_inflated() {
        let image = object(
            "/Subtype /Image /Filter /FlateDecode",
            &zeros_compressed(64 << 20),
        );
        assert_eq!(check(&image, 16 << 20, 1 << 30), Ok(()));
        let dct = object("/Filter /DCTDecode", b"\xff\xd8\xff");
        assert_eq!(check(&dct, 16, 16), Ok(()));
    }

    #[test]
    fn run_length_is_counted_without_decoding() {
        // 128 repeats of 0x00 from every two bytes: 64 KiB of input decode to 4 MiB.
        let body: Vec<u8> = std::iter::repeat_n([129u8, 0], 32 * 1024)
            .flatten()
            .collect();
        let obj = object("/Filter /RunLengthDecode", &body);
        assert_eq!(check(&obj, 1 << 20, 1 << 30), Err(Bomb::Stream(1 << 20)));
        assert_eq!(check(&obj, 8 << 20, 1 << 30), Ok(()));
        let abbreviated = object("/Filter /RL", &body);
        assert_eq!(
            check(&abbreviated, 1 << 20, 1 << 30),
            Err(Bomb::Stream(1 << 20))
        );
        // Literal runs, and the end-of-data mark.
        let mut scratch = [0u8; 4];
        let mut got = Vec::new();
        let n = run_length(
            &[2, b'a', b'b', b'c', 254, b'z', 128, 0, b'q'],
            100,
            &mut scratch,
            |p| got.extend_from_slice(p),
        );
        assert_eq!((n, got.as_slice()), (6, &b"abczzz"[..]));
    }

    #[test]
    fn broken_streams_do_not_loop() {
        for body in [&b""[..], b"\x78\x9c", b"\x78\x9cgarbage", b"not zlib"] {
            let obj = object("/Filter /FlateDecode", body);
            assert_eq!(check(&obj, 1 << 16, 1 << 20), Ok(()));
        }
        assert_eq!(check(b"stream", 1, 1), Ok(()));
        assert_eq!(check(b"x stream\r", 1, 1), Ok(()));
    }
}
