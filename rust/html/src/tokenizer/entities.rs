//! HTML named character references (`&amp;`, `&notin;`, `&AElig` ...) and the
//! Windows-1252 replacements for the numeric references `&#x80;`..`&#x9F;`.
//!
//! This replaces `html5ever::data::{NAMED_ENTITIES, C1_REPLACEMENTS}` so that
//! html5ever is not needed at run time. The data is the WHATWG list of named
//! character references (<https://html.spec.whatwg.org/multipage/named-characters.html>)
//! exactly as html5ever 0.40 ships it (through markup5ever / web_atoms), kept as
//! data in `entities.txt` (one reference a line), which build.rs turns into the
//! `NAMES` and `CHARS` arrays included below. The `regenerate` test writes that
//! file from html5ever's own map, and the other tests check `lookup` against
//! that map, key by key and on random strings.
//!
//! The table is a sorted array searched by binary search, not a hash map: it
//! needs no dependency (no `phf`), hashes nothing taken from the page, and a
//! prefix query ("could more characters still make a reference?") is the same
//! binary search, so the prefixes html5ever's map stores need not be stored.
//! To keep it as fast as the hash map, the search runs only over the names
//! with the same first byte, and on each name's first 8 bytes as a big-endian
//! `u64` (`KEYS`, computed at compile time from `NAMES`), so that it reads the
//! names' bytes only to tell apart names longer than 8 bytes.

use std::cmp::Ordering;

/// Looks up a named character reference as `html5ever::data::NAMED_ENTITIES`
/// does: `lookup(name)` is exactly `NAMED_ENTITIES.get(name).copied()`.
///
/// `name` is given without the leading `&` and with its trailing `;` if it has
/// one (`"amp;"`, `"amp"`, `"notin;"`). The answer is
/// - `Some((c1, c2))` with `c1 != 0` when `name` is a complete reference: its
///   code points, `c2 == 0` when it is a single code point;
/// - `Some((0, 0))` when `name` is not a reference but is a proper prefix of
///   one (`"no"`, `"noti"`, and the empty string);
/// - `None` when no reference starts with `name`.
///
/// Some references are complete without a `;` and also go on (`"not"` gives
/// `'¬'`, and `"noti"` is still a prefix of `"notin;"`).
#[inline]
pub fn lookup(name: &str) -> Option<(u32, u32)> {
    let bytes = name.as_bytes();
    let Some(&first) = bytes.first() else {
        // The empty string is a prefix of every name.
        return Some((0, 0));
    };
    // Names starting with `name` start with its first byte: search that run.
    let lo = usize::from(BY_FIRST_BYTE[usize::from(first)]);
    let hi = usize::from(BY_FIRST_BYTE[usize::from(first) + 1]);
    // The lower bound, the first name >= `name`: a binary search on the keys,
    // then past the few names (at most 7) whose key is `name`'s but that are
    // still smaller. Names starting with `name` sort right after `name`
    // itself, so if there is one, the first is at the lower bound.
    let key = key8(bytes);
    let mut i = lo + KEYS[lo..hi].partition_point(|&k| k < key);
    while i < hi {
        match compare(i, key, bytes) {
            Ordering::Less => i += 1,
            Ordering::Equal => return Some(CHARS[i]),
            Ordering::Greater => break,
        }
    }
    // `NAMES[i]` (if `i < hi`) is the first name > `name`: does it start with `name`?
    let found = NAMES[..hi].get(i)?.as_bytes();
    let starts_with = if bytes.len() <= 8 {
        // The first `bytes.len()` bytes of the keys.
        (KEYS[i] ^ key) >> (64 - 8 * bytes.len()) == 0
    } else {
        KEYS[i] == key && found[8..].starts_with(&bytes[8..])
    };
    starts_with.then_some((0, 0))
}

/// `NAMES[i].cmp(name)`, where `key == key8(name)`, without reading the
/// strings unless both are longer than 8 bytes: if their keys are equal and
/// one is at most 8 bytes long, the shorter is a prefix of the other.
#[inline]
fn compare(i: usize, key: u64, name: &[u8]) -> Ordering {
    KEYS[i].cmp(&key).then_with(|| {
        let entry = NAMES[i].as_bytes();
        if entry.len() <= 8 || name.len() <= 8 {
            entry.len().cmp(&name.len())
        } else {
            entry[8..].cmp(&name[8..])
        }
    })
}

/// The first 8 bytes of `bytes` as a big-endian integer, zero-padded: if
/// `key8(a) < key8(b)` then `a < b`, so sorted names have sorted keys.
#[inline]
const fn key8(bytes: &[u8]) -> u64 {
    if let [a, b, c, d, e, f, g, h, ..] = *bytes {
        return u64::from_be_bytes([a, b, c, d, e, f, g, h]);
    }
    let mut key = 0;
    let mut i = 0;
    while i < bytes.len() {
        key |= (bytes[i] as u64) << (56 - 8 * i);
        i += 1;
    }
    key
}

/// `key8` of each of `NAMES`, computed at compile time.
static KEYS: [u64; NAMES.len()] = {
    let mut keys = [0; NAMES.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = key8(NAMES[i].as_bytes());
        i += 1;
    }
    keys
};

/// `BY_FIRST_BYTE[b]` is the number of `NAMES` whose first byte is below `b`,
/// so the names starting with byte `b` are `BY_FIRST_BYTE[b]..BY_FIRST_BYTE[b + 1]`.
static BY_FIRST_BYTE: [u16; 257] = {
    assert!(NAMES.len() <= u16::MAX as usize);
    let mut starts = [0; 257];
    let mut i = 0;
    let mut b = 0;
    while b < starts.len() {
        while i < NAMES.len() && (NAMES[i].as_bytes()[0] as usize) < b {
            i += 1;
        }
        starts[b] = i as u16;
        b += 1;
    }
    starts
};

/// The characters that numeric references `&#x80;`..`&#x9F;` stand for
/// (index `n - 0x80`), from Windows-1252; `None` where the spec keeps the
/// code point itself. Same as `html5ever::data::C1_REPLACEMENTS`.
pub static C1_REPLACEMENTS: [Option<char>; 32] = [
    Some('\u{20ac}'),
    None,
    Some('\u{201a}'),
    Some('\u{0192}'),
    Some('\u{201e}'),
    Some('\u{2026}'),
    Some('\u{2020}'),
    Some('\u{2021}'),
    Some('\u{02c6}'),
    Some('\u{2030}'),
    Some('\u{0160}'),
    Some('\u{2039}'),
    Some('\u{0152}'),
    None,
    Some('\u{017d}'),
    None,
    None,
    Some('\u{2018}'),
    Some('\u{2019}'),
    Some('\u{201c}'),
    Some('\u{201d}'),
    Some('\u{2022}'),
    Some('\u{2013}'),
    Some('\u{2014}'),
    Some('\u{02dc}'),
    Some('\u{2122}'),
    Some('\u{0161}'),
    Some('\u{203a}'),
    Some('\u{0153}'),
    None,
    Some('\u{017e}'),
    Some('\u{0178}'),
];

// The table: `LONGEST`, `NAMES` and `CHARS`, built by build.rs from `entities.txt`.
include!(concat!(env!("OUT_DIR"), "/entities_table.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    use html5ever::data::NAMED_ENTITIES;
    use proptest::prelude::*;

    /// What html5ever answers.
    fn reference(name: &str) -> Option<(u32, u32)> {
        NAMED_ENTITIES.get(name).copied()
    }

    #[test]
    fn names_are_sorted_unique_and_parallel() {
        assert_eq!(NAMES.len(), CHARS.len());
        for pair in NAMES.windows(2) {
            assert!(pair[0] < pair[1], "{:?} !< {:?}", pair[0], pair[1]);
        }
        assert!(CHARS.iter().all(|&(c1, _)| c1 != 0));
        // The search keys are sorted too, and the buckets cover the table.
        assert!(KEYS.windows(2).all(|pair| pair[0] <= pair[1]));
        for (i, name) in NAMES.iter().enumerate() {
            let b = usize::from(name.as_bytes()[0]);
            assert!(
                (usize::from(BY_FIRST_BYTE[b])..usize::from(BY_FIRST_BYTE[b + 1])).contains(&i)
            );
        }
        assert_eq!(usize::from(BY_FIRST_BYTE[256]), NAMES.len());
        assert!(CHARS
            .iter()
            .all(|&(c1, c2)| char::from_u32(c1).is_some()
                && (c2 == 0 || char::from_u32(c2).is_some())));
    }

    #[test]
    fn longest_is_the_longest_name() {
        assert_eq!(Some(LONGEST), NAMES.iter().map(|k| k.len()).max());
    }

    #[test]
    fn every_html5ever_key_agrees() {
        let mut complete = 0;
        for (&key, &value) in NAMED_ENTITIES.entries() {
            assert_eq!(lookup(key), Some(value), "{key:?}");
            if value != (0, 0) {
                complete += 1;
            }
        }
        // ... and the table holds nothing else.
        assert_eq!(complete, NAMES.len());
        for (&name, &chars) in NAMES.iter().zip(CHARS.iter()) {
            assert_eq!(reference(name), Some(chars), "{name:?}");
        }
    }

    #[test]
    fn every_key_plus_one_character_agrees() {
        let extra = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789;\0~=&é";
        let mut name = String::new();
        for &key in NAMED_ENTITIES.keys() {
            for c in extra.chars() {
                name.clear();
                name.push_str(key);
                name.push(c);
                assert_eq!(lookup(&name), reference(&name), "{name:?}");
            }
        }
    }

    #[test]
    fn known_answers() {
        assert_eq!(lookup("amp;"), Some((0x26, 0)));
        assert_eq!(lookup("amp"), Some((0x26, 0)));
        assert_eq!(lookup("am"), Some((0, 0)));
        assert_eq!(lookup(""), Some((0, 0)));
        assert_eq!(lookup("not"), Some((0xAC, 0)));
        assert_eq!(lookup("noti"), Some((0, 0)));
        assert_eq!(lookup("notin;"), Some((0x2209, 0)));
        assert_eq!(lookup("acE;"), Some((0x223E, 0x333)));
        assert_eq!(lookup("amp;x"), None);
        assert_eq!(lookup("zzz"), None);
        assert_eq!(lookup("zwnj;"), Some((0x200C, 0)));
        assert_eq!(lookup("AElig"), Some((0xC6, 0)));
        assert_eq!(lookup("Amp;"), None);
        assert_eq!(lookup("AMP"), Some((0x26, 0)));
        assert_eq!(lookup("é"), None);
        assert_eq!(lookup(";"), None);
        assert_eq!(lookup("\0"), None);
        assert_eq!(lookup("~"), None);
        assert_eq!(lookup("\u{10FFFF}"), None);
        assert_eq!(
            lookup("CounterClockwiseContourIntegral;"),
            Some((0x2233, 0))
        );
        assert_eq!(lookup("NotGreaterTilde;"), Some((0x2275, 0)));
        assert_eq!(lookup("NotGreaterT"), Some((0, 0)));
        assert_eq!(lookup("NotGreaterZ"), None);
        assert_eq!(lookup("NotGreat\0"), None);
        assert_eq!(lookup("no\0"), None);
        // A name of 8 bytes or fewer whose key equals a longer string's.
        assert_eq!(lookup("nrtrie;\0A"), None);
        assert_eq!(lookup("amp;\0\0\0\0\0"), None);
        assert_eq!(lookup("amp\0"), None);
    }

    #[test]
    fn c1_replacements_agree() {
        assert_eq!(C1_REPLACEMENTS, html5ever::data::C1_REPLACEMENTS);
    }

    /// Strings that land near real names: a prefix of one, then random bytes.
    fn near_a_name() -> impl Strategy<Value = String> {
        (
            0..NAMES.len(),
            any::<prop::sample::Index>(),
            "[A-Za-z0-9;\\x00~]{0,3}",
        )
            .prop_map(|(i, cut, tail)| {
                let name = NAMES[i];
                format!("{}{tail}", &name[..cut.index(name.len() + 1)])
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        #[test]
        fn random_ascii_agrees(s in "[A-Za-z0-9;]{0,10}") {
            prop_assert_eq!(lookup(&s), reference(&s));
        }

        #[test]
        fn near_names_agree(s in near_a_name()) {
            prop_assert_eq!(lookup(&s), reference(&s));
        }

        #[test]
        fn random_unicode_agrees(s in "\\PC{0,6}", t in "[a-z]{0,2}\\PC{0,2}") {
            prop_assert_eq!(lookup(&s), reference(&s));
            prop_assert_eq!(lookup(&t), reference(&t));
        }
    }

    /// Rewrites `entities.txt` from html5ever's map:
    ///     cargo test -p webgrip-html --lib entities::tests::regenerate -- --ignored
    /// (then `git diff` the result; the other tests check it).
    #[test]
    #[ignore = "rewrites entities.txt; run by hand to regenerate the table"]
    fn regenerate() {
        use std::fmt::Write as _;

        // html5ever's map also holds every prefix of a name, as (0, 0): keep
        // only the references themselves.
        let mut table: Vec<(&str, (u32, u32))> = NAMED_ENTITIES
            .entries()
            .filter(|&(_, &v)| v != (0, 0))
            .map(|(&k, &v)| (k, v))
            .collect();
        table.sort_unstable();

        let mut data = String::from(
            "# @generated by `entities::tests::regenerate` from html5ever 0.40's NAMED_ENTITIES: the WHATWG\n\
             # named character references (https://html.spec.whatwg.org/multipage/named-characters.html).\n\
             # One reference a line, sorted by bytes: the name without its leading `&` (with its `;` when it\n\
             # has one), then its one or two code points in hex. build.rs turns this into the table\n\
             # entities.rs searches.\n",
        );
        for (name, (c1, c2)) in &table {
            match c2 {
                0 => writeln!(data, "{name} {c1:X}"),
                _ => writeln!(data, "{name} {c1:X} {c2:X}"),
            }
            .unwrap();
        }

        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tokenizer/entities.txt");
        if std::fs::read_to_string(&path).ok().as_deref() != Some(data.as_str()) {
            std::fs::write(&path, data).unwrap();
            eprintln!("rewrote {}", path.display());
        }
    }
}
