//! A pre-pass that corrects a stream's direct `/Length` that stops short of `endstream`.
//!
//! Why: pdf_oxide 0.3.78 reads `/Length` bytes and then accepts any token where `endstream`
//! should be, so a length that is too small silently cuts the stream (a page's content shows
//! its first lines only); other readers scan to `endstream`. The pass writes the true length
//! over the old number in place, padded with spaces, when it fits in the old number and the
//! spaces after it: no byte offset moves, so the xref stays valid. A length that already
//! lands on `endstream`, a reference (`/Length 9 0 R`) or a number with no room is left alone.

use memchr::memmem;

/// Correct short direct lengths in `data`; returns how many were rewritten.
pub fn fix_short_lengths(data: &mut [u8]) -> usize {
    let starts: Vec<usize> = memmem::find_iter(data, b"stream").collect();
    let mut fixed = 0;
    for kw in starts {
        // `endstream` contains `stream`: only the opening keyword counts.
        if kw >= 3 && &data[kw - 3..kw] == b"end" {
            continue;
        }
        let body = match data.get(kw + 6..kw + 8) {
            Some([b'\r', b'\n']) => kw + 8,
            Some([b'\n', _]) | Some([b'\r', _]) => kw + 7,
            _ => continue,
        };
        let Some((num_at, num_len, room, declared)) = direct_length(data, kw) else {
            continue;
        };
        if ends_at_endstream(data, body.saturating_add(declared)) {
            continue;
        }
        let Some(end) = memmem::find(&data[body..], b"endstream").map(|i| body + i) else {
            continue;
        };
        let mut stop = end;
        if stop > body && data[stop - 1] == b'\n' {
            stop -= 1;
        }
        if stop > body && data[stop - 1] == b'\r' {
            stop -= 1;
        }
        let actual = stop - body;
        if actual <= declared {
            // Too long is the parser's own fallback case; only a short length cuts text.
            continue;
        }
        let digits = actual.to_string();
        if digits.len() > num_len + room {
            continue;
        }
        let slot = &mut data[num_at..num_at + num_len + room];
        slot.fill(b' ');
        slot[..digits.len()].copy_from_slice(digits.as_bytes());
        fixed += 1;
    }
    fixed
}

fn ends_at_endstream(data: &[u8], at: usize) -> bool {
    let mut i = at;
    while data.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    data.get(i..i + 9) == Some(b"endstream")
}

/// In the dictionary just before the `stream` keyword at `kw`: where a direct `/Length N`'s
/// number starts, its length in bytes, the spaces after it (room to grow), and N.
fn direct_length(data: &[u8], kw: usize) -> Option<(usize, usize, usize, usize)> {
    let from = kw.saturating_sub(4096);
    let window = &data[from..kw];
    let dict_start = memmem::rfind(window, b"obj").map_or(0, |i| i + 3);
    let key = memmem::rfind(&window[dict_start..], b"/Length")? + dict_start + from + 7;
    // `/Length1` and the like are other keys.
    if data.get(key).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let mut at = key;
    while data.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    let num_at = at;
    while data.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    let num_len = at - num_at;
    if num_len == 0 || num_len > 12 {
        return None;
    }
    let declared: usize = std::str::from_utf8(&data[num_at..at]).ok()?.parse().ok()?;
    let mut after = at;
    while data.get(after) == Some(&b' ') {
        after += 1;
    }
    // `N G R` is a reference: its number is not the length.
    if data.get(after).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Some((num_at, num_len, after - at, declared))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(input: &str) -> (String, usize) {
        let mut data = input.as_bytes().to_vec();
        let n = fix_short_lengths(&mut data);
        assert_eq!(data.len(), input.len());
        (String::from_utf8(data).unwrap_or_default(), n)
    }

    #[test]
    fn a_short_length_is_corrected_in_place() {
        let body = "BT (Hello) Tj ET\n0 -100 Td (World) Tj";
        let input = format!("5 0 obj\n<< /Length 9  >>\nstream\n{body}\nendstream\nendobj\n");
        let (out, n) = fix(&input);
        assert_eq!(n, 1);
        assert!(
            out.contains(&format!("<< /Length {} >>", body.len())),
            "{out}"
        );
    }

    #[test]
    fn right_long_referenced_and_cramped_lengths_are_left_alone() {
        let right = "1 0 obj\n<< /Length 4 >>\nstream\nabcd\nendstream\nendobj\n";
        assert_eq!(fix(right), (right.to_string(), 0));
        let long = "1 0 obj\n<< /Length 40 >>\nstream\nabcd\nendstream\nendobj\n";
        assert_eq!(fix(long), (long.to_string(), 0));
        let reference = "1 0 obj\n<< /Length 2 0 R >>\nstream\nabcdefghijkl\nendstream\nendobj\n";
        assert_eq!(fix(reference), (reference.to_string(), 0));
        let cramped = format!(
            "1 0 obj\n<</Length 2>>\nstream\n{}\nendstream\nendobj\n",
            "x".repeat(300)
        );
        assert_eq!(fix(&cramped), (cramped.clone(), 0));
        let other_key = "1 0 obj\n<< /Length1 2 >>\nstream\nabcdefghijkl\nendstream\nendobj\n";
        assert_eq!(fix(other_key).1, 0);
    }
}
