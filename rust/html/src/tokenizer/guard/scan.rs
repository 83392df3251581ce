//! Byte scanning that follows the HTML tokenizer: tags and their attributes, raw text,
//! script data, comments. Everything is a range of the input; nothing is copied.

use memchr::{memchr, memchr2, memchr3};

use super::MAX_ATTRS;

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// One attribute of a scanned tag, as byte ranges of the input.
#[derive(Clone, Copy, Debug)]
pub struct Attr {
    pub name: (usize, usize),
    /// Value range without quotes, and whether it was quoted.
    pub value: Option<(usize, usize, bool)>,
    /// Just past the attribute's last character (name, `=` or value, closing quote included).
    pub(super) end: usize,
    /// The value is known to hold no `&` and no NUL, so it reads as it is written (found on
    /// the way to its closing quote; `false`: not known).
    pub(crate) clean: bool,
}

/// A scanned tag: where it ends (after `>`), whether it is self-closing, its attributes.
pub struct Tag {
    pub end: usize,
    pub self_closing: bool,
}

/// Attributes a scan keeps of one tag: one past [`MAX_ATTRS`] tells the guard the tag is
/// over the cap (it is then dropped whatever follows); the rest are read, to find where the
/// tag ends, but not kept. Why: one tag with millions of attributes had them all collected
/// before the cap dropped it, hundreds of MiB for a 10 MiB page (issue 45, F5).
pub const KEPT_ATTRS: usize = MAX_ATTRS + 1;

/// Scan a tag's attributes from just after its name, following the tokenizer's attribute
/// states, into `attrs`. `None` if the input ends inside the tag (the tokenizer then drops
/// the tag).
pub fn scan_tag(b: &[u8], i: usize, attrs: &mut Vec<Attr>) -> Option<Tag> {
    scan_tag_keeping(b, i, attrs, usize::MAX)
}

/// [`scan_tag`] for the guard: the first [`KEPT_ATTRS`] attributes, all it decides on.
pub fn scan_guarded(b: &[u8], i: usize, attrs: &mut Vec<Attr>) -> Option<Tag> {
    scan_tag_keeping(b, i, attrs, KEPT_ATTRS)
}

/// [`scan_tag`] keeping the first `keep` attributes (0: none, for an end tag).
///
/// Inlined up to the bare tag's answer, the rest a call: for a bare tag the call cost more
/// than the answer (the 10,000 x 8 table page's 340,000 tags are all bare).
#[inline(always)]
pub fn scan_tag_keeping(b: &[u8], i: usize, attrs: &mut Vec<Attr>, keep: usize) -> Option<Tag> {
    attrs.clear();
    // A bare tag (`<td>`, `</b>`: most tags of a page) ends right after its name; the state
    // machine's setup cost more than such a tag (it is what the scan below answers there).
    if b.get(i) == Some(&b'>') {
        return Some(Tag {
            end: i + 1,
            self_closing: false,
        });
    }
    scan_attrs_keeping(b, i, attrs, keep)
}

/// [`scan_tag_keeping`] past the bare tag's test.
#[inline(never)]
fn scan_attrs_keeping(b: &[u8], i: usize, attrs: &mut Vec<Attr>, keep: usize) -> Option<Tag> {
    scan_tag_with(b, i, |a| {
        if attrs.len() < keep {
            attrs.push(a);
        }
    })
}

/// [`scan_tag`], handing each attribute to `on_attr` as it ends instead of keeping them (what
/// [`crate::events`] needs: one hostile tag may hold a megabyte of attributes).
pub fn scan_tag_with(b: &[u8], mut i: usize, mut on_attr: impl FnMut(Attr)) -> Option<Tag> {
    #[derive(Clone, Copy)]
    enum S {
        BeforeName,
        Name,
        AfterName,
        BeforeValue,
        Unquoted,
        AfterQuoted,
        SelfClosing,
    }
    // The attribute being read; the one before it is handed over when it starts.
    let mut cur: Option<Attr> = None;
    let mut start = |cur: &mut Option<Attr>, i: usize| {
        let fresh = Attr {
            name: (i, i + 1),
            value: None,
            end: i + 1,
            clean: false,
        };
        if let Some(done) = cur.replace(fresh) {
            on_attr(done);
        }
    };
    let mut s = S::BeforeName;
    let mut closed = None;
    while i < b.len() {
        let c = b[i];
        match s {
            S::BeforeName => match c {
                _ if is_space(c) => {}
                b'/' => s = S::SelfClosing,
                b'>' => break,
                _ => {
                    start(&mut cur, i);
                    s = S::Name;
                }
            },
            S::Name => {
                let a = cur.as_mut()?;
                // The rest of the name at once: most of a tag's bytes are its attribute names
                // and values, and the state machine costs several branches a byte.
                let run = run_end(b, i, &NAME_STOPS);
                // The common `name="value"` (or `'value'`) in one step: what the `=`, the
                // before-value state and its quote would do one turn each (and a space
                // after the value, the after-quoted state's turn).
                // Its closing quote is looked for with `&` and NUL: a value with neither (most)
                // is then known to need no decoding.
                if let (Some(b'='), Some(&q @ (b'"' | b'\''))) = (b.get(run), b.get(run + 1)) {
                    let from = run + 2;
                    let stop = from + memchr3(q, b'&', 0, &b[from..])?;
                    let (end, clean) = if b[stop] == q {
                        (stop, true)
                    } else {
                        (stop + memchr(q, &b[stop..])?, false)
                    };
                    a.name.1 = run;
                    a.value = Some((from, end, true));
                    a.clean = clean;
                    a.end = end + 1;
                    if b.get(end + 1).is_some_and(|&c| is_space(c)) {
                        i = end + 2;
                        s = S::BeforeName;
                    } else {
                        i = end + 1;
                        s = S::AfterQuoted;
                    }
                    continue;
                }
                if run > i {
                    a.name.1 = run;
                    a.end = run;
                    i = run;
                    continue;
                }
                match c {
                    _ if is_space(c) => s = S::AfterName,
                    b'/' => s = S::SelfClosing,
                    b'>' => break,
                    b'=' => {
                        a.end = i + 1;
                        s = S::BeforeValue;
                    }
                    // The run above took every other byte.
                    _ => {}
                }
            }
            S::AfterName => match c {
                _ if is_space(c) => {}
                b'/' => s = S::SelfClosing,
                b'=' => {
                    if let Some(a) = cur.as_mut() {
                        a.end = i + 1;
                    }
                    s = S::BeforeValue;
                }
                b'>' => break,
                _ => {
                    start(&mut cur, i);
                    s = S::Name;
                }
            },
            S::BeforeValue => match c {
                _ if is_space(c) => {}
                b'"' | b'\'' => {
                    let from = i + 1;
                    let end = memchr(c, &b[from..]).map(|e| from + e)?;
                    let a = cur.as_mut()?;
                    a.value = Some((from, end, true));
                    a.end = end + 1;
                    i = end + 1;
                    s = S::AfterQuoted;
                    continue;
                }
                b'>' => break,
                _ => {
                    let a = cur.as_mut()?;
                    a.value = Some((i, i + 1, false));
                    a.end = i + 1;
                    s = S::Unquoted;
                }
            },
            S::Unquoted => match c {
                _ if is_space(c) => s = S::BeforeName,
                b'>' => break,
                _ => {
                    // The rest of the value at once (see `S::Name`).
                    let run = run_end(b, i, &UNQUOTED_STOPS);
                    if let Some(a) = cur.as_mut() {
                        a.end = run;
                        if let Some(v) = a.value.as_mut() {
                            v.1 = run;
                        }
                    }
                    i = run;
                    continue;
                }
            },
            S::AfterQuoted => match c {
                _ if is_space(c) => s = S::BeforeName,
                b'/' => s = S::SelfClosing,
                b'>' => break,
                _ => {
                    s = S::BeforeName;
                    continue;
                }
            },
            S::SelfClosing => match c {
                b'>' => {
                    closed = Some(true);
                    break;
                }
                _ => {
                    s = S::BeforeName;
                    continue;
                }
            },
        }
        i += 1;
    }
    if i >= b.len() {
        return None;
    }
    if let Some(last) = cur.take() {
        on_attr(last);
    }
    Some(Tag {
        end: i + 1,
        self_closing: closed.unwrap_or(false),
    })
}

/// Bytes that end a run: a table of 256 flags, one load a byte instead of a chain of compares.
type Stops = [bool; 256];

const fn stops(bytes: &[u8]) -> Stops {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// What ends an attribute's name (the attribute name state's exits).
static NAME_STOPS: Stops = stops(b" \t\n\r\x0c/>=");
/// What ends an unquoted attribute value.
static UNQUOTED_STOPS: Stops = stops(b" \t\n\r\x0c>");

/// The first index from `i` whose byte is in `stop` (or the end of `b`).
#[inline]
fn run_end(b: &[u8], mut i: usize, stop: &Stops) -> usize {
    while let Some(&c) = b.get(i) {
        if stop[c as usize] {
            break;
        }
        i += 1;
    }
    i
}

/// Length of a tag name starting at `i` (up to whitespace, `/` or `>`).
pub fn tag_name_len(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .take_while(|c| !is_space(**c) && **c != b'>' && **c != b'/')
        .count()
}

/// Whether `b[at..]` starts with `</name` followed by whitespace, `/` or `>` (an
/// appropriate end tag for a raw-text element named `name`).
fn is_end_tag(b: &[u8], at: usize, name: &[u8]) -> bool {
    let after = at + 2 + name.len();
    b.get(at + 1) == Some(&b'/')
        && after < b.len()
        && b[at + 2..after].eq_ignore_ascii_case(name)
        && (is_space(b[after]) || b[after] == b'>' || b[after] == b'/')
}

/// Where the RCDATA/RAWTEXT content starting at `from` ends (the `<` of its end tag, or the
/// end of input). With `in_noscript` (see [`Start::Raw`](super::Start::Raw)) it also ends at
/// `</noscript`; the second value says it ended there, so the element still needs its end tag.
pub fn raw_end(b: &[u8], from: usize, name: &[u8], in_noscript: bool) -> (usize, bool) {
    let mut i = from;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        if is_end_tag(b, lt, name) {
            return (lt, false);
        }
        if in_noscript && is_end_tag(b, lt, b"noscript") {
            return (lt, true);
        }
        i = lt + 1;
    }
    (b.len(), false)
}

/// Where script data starting at `from` ends, following the tokenizer's escaped and
/// double-escaped states (`<!-- <script> ... </script> -->` inside a script does not end it).
pub fn script_end(b: &[u8], from: usize) -> usize {
    #[derive(PartialEq)]
    enum S {
        Data,
        Escaped,
        Double,
    }
    let mut s = S::Data;
    let mut i = from;
    loop {
        let found = if s == S::Data {
            memchr(b'<', &b[i..])
        } else {
            memchr2(b'<', b'>', &b[i..])
        };
        let Some(p) = found else { return b.len() };
        let at = i + p;
        i = at + 1;
        if b[at] == b'>' {
            // `-->` (the dashes may be the ones of `<!--`) leaves both escaped states.
            if at >= 2 && b[at - 2] == b'-' && b[at - 1] == b'-' {
                s = S::Data;
            }
            continue;
        }
        match s {
            S::Data => {
                if is_end_tag(b, at, b"script") {
                    return at;
                }
                if b[at + 1..].starts_with(b"!--") {
                    s = S::Escaped;
                    i = at + 4;
                    // `<!-->` / `<!--->`: the dashes of the opener close it at once.
                    if b.get(i) == Some(&b'>') {
                        s = S::Data;
                        i += 1;
                    }
                }
            }
            S::Escaped => {
                if is_end_tag(b, at, b"script") {
                    return at;
                }
                let after = at + 7;
                if after < b.len()
                    && b[at + 1..after].eq_ignore_ascii_case(b"script")
                    && (is_space(b[after]) || b[after] == b'>' || b[after] == b'/')
                {
                    s = S::Double;
                }
            }
            S::Double => {
                if is_end_tag(b, at, b"script") {
                    s = S::Escaped;
                }
            }
        }
    }
}

/// For a comment whose `<!--` starts at `lt`: where its text ends (the start of the closing
/// `--` / `--!`, kept so the comment still closes) and where the comment ends.
pub fn comment_extent(b: &[u8], lt: usize) -> (usize, usize) {
    let body = lt + 4;
    // Abrupt endings: `<!-->` and `<!--->`.
    if b.get(body) == Some(&b'>') {
        return (body, body + 1);
    }
    if b.get(body) == Some(&b'-') && b.get(body + 1) == Some(&b'>') {
        return (body, body + 2);
    }
    let mut i = body;
    while let Some(p) = memchr(b'>', &b[i..]) {
        let gt = i + p;
        if gt >= body + 2 && b[gt - 2] == b'-' && b[gt - 1] == b'-' {
            return (gt - 2, gt + 1);
        }
        if gt >= body + 3 && b[gt - 3] == b'-' && b[gt - 2] == b'-' && b[gt - 1] == b'!' {
            return (gt - 3, gt + 1);
        }
        i = gt + 1;
    }
    (b.len(), b.len())
}

/// A bogus comment (`<!x`, `<?x`, `</0`) or DOCTYPE: ends after the next `>`.
pub(super) fn bogus_end(b: &[u8], from: usize) -> usize {
    memchr(b'>', &b[from..]).map_or(b.len(), |e| from + e + 1)
}
