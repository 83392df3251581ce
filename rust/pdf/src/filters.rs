//! A pre-pass that writes indirect `/Filter` values into the stream dictionaries that use them.
//!
//! Why: PDF allows a stream's `/Filter` to be a reference (`/Filter 3 0 R` with
//! `3 0 obj [/FlateDecode] endobj`), and some producers write exactly that. The parser only
//! reads a direct name or array, so it hands such a stream over still compressed and the page
//! comes out empty ("no text layer"). This pass resolves each such reference and overwrites
//! the reference in place with the names (abbreviated if needed, space-padded) so every byte
//! offset — the cross-reference table's included — stays where it was. A value that does not
//! fit in the reference's bytes is left alone. It runs before the bomb pre-pass, which then
//! sees (and bounds) the newly visible Flate streams.

use std::collections::HashMap;

use memchr::memmem;

/// Rewrite every `/Filter N G R` whose object is a filter name or an array of them.
/// Returns how many references were rewritten.
pub fn inline_indirect(data: &mut [u8]) -> usize {
    let finder = memmem::Finder::new(b"/Filter");
    let mut slots = Vec::new();
    let mut at = 0;
    while let Some(found) = finder.find(&data[at..]) {
        let start = at + found + b"/Filter".len();
        at = start;
        if let Some((key, end)) = reference_at(data, start) {
            slots.push((start, end, key));
        }
    }
    if slots.is_empty() {
        return 0;
    }
    let objects = object_index(data);
    let mut resolved: HashMap<(u32, u32), Option<Vec<String>>> = HashMap::new();
    let mut rewritten = 0;
    for (start, end, key) in slots {
        let names = resolved
            .entry(key)
            .or_insert_with(|| objects.get(&key).and_then(|&at| filter_names(data, at)));
        let Some(names) = names else {
            continue;
        };
        let Some(text) = fitting(names, end - start) else {
            continue;
        };
        let slot = &mut data[start..end];
        slot.fill(b' ');
        slot[..text.len()].copy_from_slice(text.as_bytes());
        rewritten += 1;
    }
    rewritten
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

fn is_delimiter(b: u8) -> bool {
    is_space(b) || b"()<>[]{}/%".contains(&b)
}

/// Skip white space from `at`.
fn skip_space(data: &[u8], mut at: usize) -> usize {
    while data.get(at).is_some_and(|&b| is_space(b)) {
        at += 1;
    }
    at
}

/// A decimal integer at `at` (at most 10 digits): its value and where it ends.
fn integer(data: &[u8], at: usize) -> Option<(u32, usize)> {
    let digits = data[at.min(data.len())..]
        .iter()
        .take(11)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 10 {
        return None;
    }
    let text = std::str::from_utf8(&data[at..at + digits]).ok()?;
    Some((text.parse().ok()?, at + digits))
}

/// `N G R` after optional white space at `at`: the object key and the end of `R`.
fn reference_at(data: &[u8], at: usize) -> Option<((u32, u32), usize)> {
    let (num, after) = integer(data, skip_space(data, at))?;
    let gen_at = skip_space(data, after);
    if gen_at == after {
        return None;
    }
    let (gen, after) = integer(data, gen_at)?;
    let r_at = skip_space(data, after);
    if r_at == after || data.get(r_at) != Some(&b'R') {
        return None;
    }
    let end = r_at + 1;
    if data.get(end).is_some_and(|&b| !is_delimiter(b)) {
        return None;
    }
    Some(((num, gen), end))
}

/// Where each `N G obj` body starts (the last definition wins, as with incremental updates).
fn object_index(data: &[u8]) -> HashMap<(u32, u32), usize> {
    let mut index = HashMap::new();
    for kw in memmem::find_iter(data, b"obj") {
        let body = kw + 3;
        if data.get(body).is_some_and(|&b| !is_delimiter(b)) {
            continue; // `objstm`, `object` ...
        }
        // Walk back over `G`, white space, `N` (each at most 10 digits).
        let mut i = kw;
        if i == 0 || !is_space(data[i - 1]) {
            continue;
        }
        while i > 0 && is_space(data[i - 1]) {
            i -= 1;
        }
        let gen_end = i;
        while i > 0 && data[i - 1].is_ascii_digit() && gen_end - i < 10 {
            i -= 1;
        }
        let Some((gen, _)) = integer(data, i).filter(|_| i < gen_end) else {
            continue;
        };
        if i == 0 || !is_space(data[i - 1]) {
            continue;
        }
        while i > 0 && is_space(data[i - 1]) {
            i -= 1;
        }
        let num_end = i;
        while i > 0 && data[i - 1].is_ascii_digit() && num_end - i < 10 {
            i -= 1;
        }
        if i == num_end || (i > 0 && !is_delimiter(data[i - 1])) {
            continue;
        }
        if let Some((num, _)) = integer(data, i) {
            index.insert((num, gen), body);
        }
    }
    index
}

/// The filter names of an object whose body (from `at`) is `/Name` or `[/A /B ...]`.
fn filter_names(data: &[u8], at: usize) -> Option<Vec<String>> {
    let body = &data[at..data.len().min(at + 256)];
    let end = memmem::find(body, b"endobj")?;
    let value = body[..end].trim_ascii();
    let inner = match value {
        [b'[', inner @ .., b']'] => inner,
        [b'/', ..] => value,
        _ => return None,
    };
    let mut names = Vec::new();
    for part in inner.split(|&b| b == b'/' || is_space(b)) {
        if part.is_empty() {
            continue;
        }
        if !part.iter().all(u8::is_ascii_alphanumeric) {
            return None;
        }
        names.push(String::from_utf8(part.to_vec()).ok()?);
    }
    let starts_ok = inner.trim_ascii().first() == Some(&b'/');
    (starts_ok && !names.is_empty() && names.len() <= 8).then_some(names)
}

/// The abbreviation PDF defines for a standard filter name (ISO 32000-1, Table 94).
fn abbreviated(name: &str) -> &str {
    match name {
        "FlateDecode" => "Fl",
        "ASCIIHexDecode" => "AHx",
        "ASCII85Decode" => "A85",
        "LZWDecode" => "LZW",
        "RunLengthDecode" => "RL",
        "CCITTFaxDecode" => "CCF",
        "DCTDecode" => "DCT",
        other => other,
    }
}

/// The direct form of `names` in at most `room` bytes: full names if they fit, else abbreviated.
fn fitting(names: &[String], room: usize) -> Option<String> {
    let render = |short: bool| {
        let parts: Vec<String> = names
            .iter()
            .map(|n| format!("/{}", if short { abbreviated(n) } else { n }))
            .collect();
        if parts.len() == 1 {
            parts.concat()
        } else {
            format!("[{}]", parts.concat())
        }
    };
    [render(false), render(true)]
        .into_iter()
        .find(|t| t.len() <= room)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(input: &str) -> (String, usize) {
        let mut data = input.as_bytes().to_vec();
        let n = inline_indirect(&mut data);
        (String::from_utf8(data).unwrap_or_default(), n)
    }

    #[test]
    fn a_referenced_filter_array_is_written_in_place() {
        let pdf = "2 0 obj\n<< /Filter 3 0 R /Length 4 >>\nstream\nxxxx\nendstream\nendobj\n\
                   3 0 obj\n[/FlateDecode]\nendobj\n";
        let (out, n) = rewrite(pdf);
        assert_eq!(n, 1);
        assert_eq!(out.len(), pdf.len(), "offsets must not move");
        assert!(out.contains("<< /Filter/Fl    /Length 4 >>"), "{out}");
    }

    #[test]
    fn full_names_are_kept_when_they_fit() {
        let pdf = "12345 0 obj\n/FlateDecode\nendobj\n\
                   1 0 obj << /Filter       12345 0 R >> stream\n";
        let (out, n) = rewrite(pdf);
        assert_eq!(n, 1);
        assert!(out.contains("/Filter/FlateDecode     >>"), "{out}");
    }

    #[test]
    fn chains_that_do_not_fit_and_other_values_are_left_alone() {
        for pdf in [
            "3 0 obj [/ASCII85Decode /FlateDecode] endobj 1 0 obj << /Filter 3 0 R >>",
            "3 0 obj << /Foo 1 >> endobj 1 0 obj << /Filter 3 0 R >>",
            "3 0 obj [/Fl (x)] endobj 1 0 obj << /Filter 3 0 R >>",
            "1 0 obj << /Filter 9 0 R >>",
            "1 0 obj << /Filter /FlateDecode >>",
            "1 0 obj << /Filter 3 0 Rx >>",
            "/Filter",
        ] {
            let (out, n) = rewrite(pdf);
            assert_eq!((out.as_str(), n), (pdf, 0));
        }
    }

    #[test]
    fn the_last_definition_wins() {
        let pdf = "3 0 obj /LZWDecode endobj 3 0 obj /Fl endobj 1 0 obj << /Filter 3 0 R >>";
        let (out, _) = rewrite(pdf);
        assert!(out.ends_with("<< /Filter/Fl    >>"), "{out}");
    }
}
