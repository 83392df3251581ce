//! A linear pre-pass over the input, before html5ever sees it.
//!
//! Two jobs:
//!
//! * **Defuse** input that would make html5ever quadratic. html5ever scans its stack of open
//!   elements for many start tags (e.g. every `<div>` checks for an open `<p>` "in button
//!   scope"), and checks each new attribute against all earlier ones. So 100,000 nested
//!   `<div>`s take a minute and a tag with 100,000 attributes longer. Start tags (and their
//!   matching end tags) beyond [`MAX_DEPTH`] are dropped, and so are tags with more than
//!   [`MAX_ATTRS`] attributes. Their text is kept.
//! * **Strip** what every view throws away, so html5ever does not tokenize it: the contents of
//!   `<script>` (except JSON-LD, which metadata reads) and `<style>`, the text of comments, the inside of `<svg>` subtrees, and long values of attributes no view reads.
//!   The elements themselves stay (empty), so the tree keeps its shape and every view its
//!   output.
//!
//! The scanner follows the HTML tokenizer's states closely enough to know where html5ever
//! will be: attribute values (quoted values may hold `<script>` or `>`), RCDATA / RAWTEXT
//! elements (`<title>`, `<textarea>`, `<xmp>`, ...), the script-data escape states
//! (`<!--` ... `<script>` inside a script), comments including their odd endings, CDATA in
//! SVG/MathML, and breakout tags that leave foreign content. Wherever it is unsure it cuts
//! nothing: an `<svg>` holding anything unusual (a breakout tag, `<foreignObject>`, markup in
//! `<title>`, a stray end tag) is left whole, and a document that may hold a `<frameset>` is
//! not stripped at all. Ordinary pages that need neither job are returned borrowed.
//!
//! The same [`Tracker`] drives the [`crate::lexer`], which does this work while it reads;
//! [`defuse`] is the string form (the reference for tests, and the path for inputs too
//! large for the lexer).

use std::borrow::Cow;
use std::collections::HashMap;

use memchr::{memchr, memchr2};

/// Deeper than any real page nests; html5ever's scans stay cheap below it.
pub const MAX_DEPTH: usize = 256;
/// Real tags carry a few dozen attributes at most.
pub const MAX_ATTRS: usize = 256;
/// `data:` URLs at least this long are shortened to `data:`.
pub const LONG_ATTR: usize = 64;

pub(crate) type Name = [u8; 16];

pub(crate) fn name_key(name: &[u8]) -> Name {
    let mut k = [0u8; 16];
    for (d, s) in k.iter_mut().zip(name) {
        // A NUL in a name is U+FFFD to the parser; here it must not end the key early
        // (`script\0x` is not a script).
        *d = if *s == 0 {
            0xff
        } else {
            s.to_ascii_lowercase()
        };
    }
    k
}

fn is(name: &Name, s: &str) -> bool {
    let b = s.as_bytes();
    b.len() <= 16 && name[..b.len()] == *b && name.get(b.len()).is_none_or(|&c| c == 0)
}

fn is_any(n: &Name, names: &[&str]) -> bool {
    names.iter().any(|v| is(n, v))
}

const VOID: u8 = 1;
const SELF: u8 = 2;
const RAW: u8 = 4;
const SCRIPT: u8 = 8;
const PLAIN: u8 = 16;
const BREAK: u8 = 32;

/// What the scanner needs to know about an element name, in one match.
fn class(n: &Name) -> u8 {
    let len = n.iter().position(|&c| c == 0).unwrap_or(n.len());
    match &n[..len] {
        b"area" | b"base" | b"col" | b"input" | b"link" | b"source" | b"track" | b"wbr"
        | b"param" | b"keygen" | b"frame" | b"basefont" | b"bgsound" | b"image" => VOID,
        b"br" | b"embed" | b"hr" | b"img" | b"meta" => VOID | BREAK,
        // End tag optional: the parser closes them itself, they don't nest.
        b"option" | b"optgroup" | b"tr" | b"td" | b"th" | b"thead" | b"tbody" | b"tfoot"
        | b"colgroup" | b"caption" | b"rb" | b"rt" | b"rp" | b"rtc" | b"html" => SELF,
        b"p" | b"li" | b"dt" | b"dd" | b"head" | b"body" => SELF | BREAK,
        b"script" => SCRIPT,
        b"style" | b"textarea" | b"title" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => RAW,
        b"plaintext" => PLAIN,
        // Start tags that leave SVG/MathML content for HTML (`font` only with
        // color/face/size, handled apart).
        b"b" | b"big" | b"blockquote" | b"center" | b"code" | b"div" | b"dl" | b"em" | b"h1"
        | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" | b"i" | b"listing" | b"menu" | b"nobr" | b"ol"
        | b"pre" | b"ruby" | b"s" | b"small" | b"span" | b"strong" | b"strike" | b"sub"
        | b"sup" | b"table" | b"tt" | b"u" | b"ul" | b"var" => BREAK,
        _ => 0,
    }
}

/// Whether a start tag named `n` can leave an element open on the tree builder's stack:
/// not void, not closed by its next sibling, and not read as raw text up to its end tag
/// (`<html>`, `<head>` and `<body>` are merged, never nested).
pub(crate) fn opens_element(n: &Name) -> bool {
    class(n) & (VOID | SELF | RAW | SCRIPT | PLAIN) == 0
}

/// Whether a start tag named `n` is dropped once the page is read flat (see
/// [`crate::lexer::tokenize`]): every tag but void ones and those whose content is raw text
/// (dropping `<script>` would show its code as text).
pub(crate) fn flattens(n: &Name) -> bool {
    class(n) & (VOID | RAW | SCRIPT | PLAIN) == 0
}

fn is_void(n: &Name) -> bool {
    class(n) & VOID != 0
}

/// Elements whose end tag is optional: the parser closes them itself, they don't nest.
fn closes_itself(n: &Name) -> bool {
    class(n) & SELF != 0
}

/// How the tokenizer reads the content of an HTML element (scripting disabled, so
/// `<noscript>` is ordinary markup).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Content {
    Markup,
    /// RCDATA or RAWTEXT: text up to the matching end tag.
    Raw,
    Script,
    Plaintext,
}

fn content_of(n: &Name) -> Content {
    let c = class(n);
    if c & SCRIPT != 0 {
        Content::Script
    } else if c & RAW != 0 {
        Content::Raw
    } else if c & PLAIN != 0 {
        Content::Plaintext
    } else {
        Content::Markup
    }
}

/// Start tags that leave SVG/MathML content for HTML (`font` only with color/face/size).
fn breaks_out(n: &Name) -> bool {
    class(n) & BREAK != 0
}

/// Foreign elements whose content is HTML again (SVG and MathML integration points).
fn integration_point(n: &Name, ns: Ns, b: &[u8], attrs: &[Attr]) -> bool {
    match ns {
        Ns::Svg => is_any(n, &["foreignobject", "desc", "title"]),
        Ns::Math => {
            is_any(n, &["mi", "mo", "mn", "ms", "mtext"])
                || (is(n, "annotation-xml")
                    && attrs.iter().any(|a| {
                        b[a.name.0..a.name.1].eq_ignore_ascii_case(b"encoding")
                            && a.value.is_some_and(|(s, e, _)| {
                                let v = &b[s..e];
                                v.eq_ignore_ascii_case(b"text/html")
                                    || v.eq_ignore_ascii_case(b"application/xhtml+xml")
                            })
                    }))
        }
        Ns::Html => false,
    }
}

/// Attributes some view reads (`dom`, `emit`, `links`, `metadata`, `readable`, `urls`), or
/// that change how html5ever builds the tree. All others are removed before parsing, so a
/// view that starts reading a new attribute must add it here (the `prepass_identity` test
/// catches a forgotten one on the corpus).
pub(crate) fn attr_is_read(name: &[u8]) -> bool {
    const READ: &[&str] = &[
        "href",
        "src",
        "data-src",
        "alt",
        "title",
        "class",
        "id",
        "style",
        "rel",
        "type",
        "lang",
        "content",
        "name",
        "property",
        "itemprop",
        "itemtype",
        "datetime",
        "colspan",
        "rowspan",
        "hidden",
        "aria-hidden",
        "aria-controls",
        "popover",
        "http-equiv",
        "reversed",
        "start",
        "value",
        "role",
        "charset",
        "encoding",
        "color",
        "face",
        "size",
        // Changes how html5ever builds a template.
        "shadowrootmode",
    ];
    READ.iter().any(|r| name.eq_ignore_ascii_case(r.as_bytes()))
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// One attribute of a scanned tag, as byte ranges of the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attr {
    pub name: (usize, usize),
    /// Value range without quotes, and whether it was quoted.
    pub value: Option<(usize, usize, bool)>,
    /// Just past the attribute's last character (name, `=` or value, closing quote included).
    end: usize,
}

/// A scanned tag: where it ends (after `>`), whether it is self-closing, its attributes.
pub(crate) struct Tag {
    pub end: usize,
    pub self_closing: bool,
}

/// Scan a tag's attributes from just after its name, following the tokenizer's attribute
/// states. `None` if the input ends inside the tag (html5ever then drops the tag).
pub(crate) fn scan_tag(b: &[u8], mut i: usize, attrs: &mut Vec<Attr>) -> Option<Tag> {
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
    attrs.clear();
    let mut s = S::BeforeName;
    while i < b.len() {
        let c = b[i];
        match s {
            S::BeforeName => match c {
                _ if is_space(c) => {}
                b'/' => s = S::SelfClosing,
                b'>' => break,
                _ => {
                    attrs.push(Attr {
                        name: (i, i + 1),
                        value: None,
                        end: i + 1,
                    });
                    s = S::Name;
                }
            },
            S::Name => {
                let a = attrs.last_mut()?;
                match c {
                    _ if is_space(c) => s = S::AfterName,
                    b'/' => s = S::SelfClosing,
                    b'>' => break,
                    b'=' => {
                        a.end = i + 1;
                        s = S::BeforeValue;
                    }
                    _ => {
                        a.name.1 = i + 1;
                        a.end = i + 1;
                    }
                }
            }
            S::AfterName => match c {
                _ if is_space(c) => {}
                b'/' => s = S::SelfClosing,
                b'=' => {
                    if let Some(a) = attrs.last_mut() {
                        a.end = i + 1;
                    }
                    s = S::BeforeValue;
                }
                b'>' => break,
                _ => {
                    attrs.push(Attr {
                        name: (i, i + 1),
                        value: None,
                        end: i + 1,
                    });
                    s = S::Name;
                }
            },
            S::BeforeValue => match c {
                _ if is_space(c) => {}
                b'"' | b'\'' => {
                    let start = i + 1;
                    let end = memchr(c, &b[start..]).map(|e| start + e)?;
                    let a = attrs.last_mut()?;
                    a.value = Some((start, end, true));
                    a.end = end + 1;
                    i = end + 1;
                    s = S::AfterQuoted;
                    continue;
                }
                b'>' => break,
                _ => {
                    let a = attrs.last_mut()?;
                    a.value = Some((i, i + 1, false));
                    a.end = i + 1;
                    s = S::Unquoted;
                }
            },
            S::Unquoted => match c {
                _ if is_space(c) => s = S::BeforeName,
                b'>' => break,
                _ => {
                    if let Some(a) = attrs.last_mut() {
                        a.end = i + 1;
                        if let Some(v) = a.value.as_mut() {
                            v.1 = i + 1;
                        }
                    }
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
                    return Some(Tag {
                        end: i + 1,
                        self_closing: true,
                    })
                }
                _ => {
                    s = S::BeforeName;
                    continue;
                }
            },
        }
        i += 1;
    }
    (i < b.len()).then_some(Tag {
        end: i + 1,
        self_closing: false,
    })
}

/// Length of a tag name starting at `i` (up to whitespace, `/` or `>`).
pub(crate) fn tag_name_len(b: &[u8], i: usize) -> usize {
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
/// end of input). With `in_noscript` (see [`Start::Raw`]) it also ends at `</noscript`;
/// the second value says it ended there, so the element still needs its end tag.
pub(crate) fn raw_end(b: &[u8], from: usize, name: &[u8], in_noscript: bool) -> (usize, bool) {
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
pub(crate) fn script_end(b: &[u8], from: usize) -> usize {
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
pub(crate) fn comment_extent(b: &[u8], lt: usize) -> (usize, usize) {
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
fn bogus_end(b: &[u8], from: usize) -> usize {
    memchr(b'>', &b[from..]).map_or(b.len(), |e| from + e + 1)
}

/// From just after an `<svg ...>` start tag in HTML content: the `<` of the end tag that
/// closes it (or the end of input), if its content is plain SVG whose removal cannot change
/// anything outside it. `None` (keep it whole) for anything unusual.
fn svg_extent(b: &[u8], from: usize, attrs: &mut Vec<Attr>) -> Option<usize> {
    let mut stack: Vec<Name> = vec![name_key(b"svg")];
    // Inside an SVG `<title>`/`<desc>` (HTML integration points): only text is accepted.
    let mut text_only = false;
    let mut i = from;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        let rest = &b[lt..];
        match rest.get(1) {
            Some(b'/') if rest.get(2).is_some_and(u8::is_ascii_alphabetic) => {
                let n = tag_name_len(b, lt + 2);
                let key = name_key(&b[lt + 2..lt + 2 + n]);
                if n > 16 || is(&key, "br") || is(&key, "p") {
                    return None;
                }
                let tag = scan_tag(b, lt + 2 + n, attrs)?;
                // html5ever pops to the nearest open element of that name; past the root it
                // would reach HTML elements and act on them.
                let at = stack.iter().rposition(|k| *k == key)?;
                if at == 0 {
                    return Some(lt);
                }
                stack.truncate(at);
                text_only = false;
                i = tag.end;
            }
            _ if text_only => return None,
            Some(b'!') if rest.starts_with(b"<!--") => i = comment_extent(b, lt).1,
            Some(b'!') if rest.starts_with(b"<![CDATA[") => {
                i = memchr::memmem::find(&b[lt + 9..], b"]]>").map_or(b.len(), |e| lt + 9 + e + 3);
            }
            Some(b'!' | b'?') => i = bogus_end(b, lt + 1),
            Some(b'/') => return None,
            Some(c) if c.is_ascii_alphabetic() => {
                let n = tag_name_len(b, lt + 1);
                let key = name_key(&b[lt + 1..lt + 1 + n]);
                if n > 16 || breaks_out(&key) || is(&key, "font") {
                    return None;
                }
                let tag = scan_tag(b, lt + 1 + n, attrs)?;
                if !tag.self_closing {
                    if is(&key, "title") || is(&key, "desc") {
                        text_only = true;
                    } else if is_any(&key, &["foreignobject", "math"]) {
                        return None;
                    }
                    stack.push(key);
                }
                i = tag.end;
            }
            _ => i = lt + 1,
        }
        if i >= b.len() {
            break;
        }
    }
    (!text_only).then_some(b.len())
}

/// A byte range to remove from the input.
type Cut = (usize, usize);
/// A cut, or (empty range) an insertion of the end tag whose name is at the given range.
type Edit = (usize, usize, Option<(usize, usize)>);

/// Return `html` defused and stripped (see the module docs); borrowed if nothing changed.
pub fn defuse(html: &str) -> Cow<'_, str> {
    prepass(html, true)
}

/// Only the defusing half of [`defuse`]: over-deep and over-attributed tags. The output of
/// every view is the same either way; this exists to check that.
pub fn defuse_only(html: &str) -> Cow<'_, str> {
    prepass(html, false)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

/// An open element as the scanner tracks it.
#[derive(Clone, Copy)]
struct Open {
    name: Name,
    /// The element's namespace.
    ns: Ns,
    /// Whether html5ever reads this element's content as SVG/MathML (foreign elements other
    /// than integration points).
    foreign: bool,
}

/// What to do with a start tag (see [`Tracker::start_tag`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Start {
    /// Remove the tag: over the depth or attribute cap.
    Drop,
    /// Keep it; markup follows.
    Markup,
    /// Keep it; script data follows, to be emptied if `strip`.
    Script { strip: bool },
    /// Keep it; RCDATA/RAWTEXT follows, to be emptied if `strip` (`<style>`).
    ///
    /// `in_noscript`: the element opens inside a `<noscript>`, and its text then ends at
    /// `</noscript>` too, where its own end tag is supplied. Why: we parse with scripting
    /// off (so noscript fallbacks are readable), and pages write tag-manager snippets as
    /// `<noscript><iframe ... /></noscript>`. The `/>` does not close an iframe, so its
    /// raw text would swallow the rest of the page, up to a `</iframe>` that never comes.
    /// A browser (scripting on) reads the whole noscript as text and shows the page;
    /// ending the raw text where the noscript ends does the same.
    Raw { strip: bool, in_noscript: bool },
    /// Keep it; the rest of the input is text.
    Plaintext,
    /// Keep it; its SVG content up to `end` (where its end tag starts) can go, and that end
    /// tag is not tracked.
    Svg { end: usize },
}

/// See [`Tracker::cdata`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cdata {
    Yes,
    No,
    Unsure,
}

/// The open-element model both the pre-pass and the lexer keep: which tags to drop so
/// html5ever's stack scans stay bounded, and whether stripping is still safe.
pub(crate) struct Tracker {
    stack: Vec<Open>,
    /// End tags to drop, by name, for start tags dropped earlier.
    dropped: HashMap<Name, usize>,
    /// Cleared when the scanner can no longer be sure it is where html5ever is (an end tag
    /// reaching into or out of SVG/MathML in a way it does not model): no more stripping.
    pub stripping: bool,
    scratch: Vec<Attr>,
}

impl Tracker {
    pub(crate) fn new(strip: bool) -> Self {
        Tracker {
            stack: Vec::new(),
            dropped: HashMap::new(),
            stripping: strip,
            scratch: Vec::new(),
        }
    }

    /// Whether a `<![CDATA[` here opens a CDATA section (read when the current node is not
    /// HTML). Inside an SVG/MathML integration point the answer is unsure: the current node
    /// may be an HTML element the model does not keep (`<p>`, `<li>`, ... close themselves).
    pub(crate) fn cdata(&self) -> Cdata {
        match self.stack.last() {
            Some(o) if o.foreign => Cdata::Yes,
            Some(o) if o.ns != Ns::Html => Cdata::Unsure,
            _ => Cdata::No,
        }
    }

    /// An end tag named `key`; `true` to drop it.
    pub(crate) fn end_tag(&mut self, key: Name) -> bool {
        let foreign = self.stack.last().is_some_and(|o| o.foreign);
        if foreign && (is(&key, "br") || is(&key, "p")) {
            // `</br>` and `</p>` leave foreign content like breakout start tags.
            while self.stack.last().is_some_and(|o| o.foreign) {
                self.stack.pop();
            }
        }
        if let Some(n) = self.dropped.get_mut(&key) {
            if *n > 0 {
                *n -= 1;
                return true;
            }
        }
        let at = self.stack.iter().rposition(|k| k.name == key);
        let exact = at.is_some_and(|at| at + 1 == self.stack.len() && self.stack[at].foreign);
        let crosses = match at {
            Some(at) => self.stack[at..].iter().any(|o| o.ns != Ns::Html),
            None => foreign,
        };
        if crosses && !exact {
            self.stripping = false;
        }
        if let Some(at) = at {
            self.stack.truncate(at);
        }
        false
    }

    fn drop_tag(&mut self, key: Name) -> Start {
        *self.dropped.entry(key).or_insert(0) += 1;
        Start::Drop
    }

    /// Drop a start tag because the tree builder is crowded (see [`crate::lexer::MAX_OPEN`]);
    /// its end tag goes too, unless it closes itself (`<x/>` has none to wait for).
    pub(crate) fn drop_crowded(&mut self, key: Name, self_closing: bool) -> Start {
        if self_closing {
            return Start::Drop;
        }
        self.drop_tag(key)
    }

    /// A start tag named `key` (`name`: its bytes as written) with `attrs`, whose content
    /// starts at `i`.
    pub(crate) fn start_tag(
        &mut self,
        b: &[u8],
        i: usize,
        key: Name,
        self_closing: bool,
        attrs: &[Attr],
    ) -> Start {
        if attrs.len() > MAX_ATTRS {
            if is_void(&key) {
                return Start::Drop;
            }
            return self.drop_tag(key);
        }
        let mut foreign = self.stack.last().is_some_and(|o| o.foreign);
        if foreign
            && (breaks_out(&key) || (is(&key, "font") && attrs.iter().any(|a| font_breakout(b, a))))
        {
            // Back to HTML: html5ever pops the foreign elements.
            while self.stack.last().is_some_and(|o| o.foreign) {
                self.stack.pop();
            }
            foreign = false;
        }
        // In a MathML text integration point, `mglyph`/`malignmark` stay MathML.
        if !foreign
            && is_any(&key, &["mglyph", "malignmark"])
            && self.stack.last().is_some_and(|o| o.ns == Ns::Math)
        {
            foreign = true;
        }
        if foreign {
            if self_closing {
                return Start::Markup;
            }
            let ns = self.stack.last().map_or(Ns::Html, |o| o.ns);
            let inner = !integration_point(&key, ns, b, attrs);
            if self.stack.len() >= MAX_DEPTH {
                return self.drop_tag(key);
            }
            self.stack.push(Open {
                name: key,
                ns,
                foreign: inner,
            });
            return Start::Markup;
        }
        if is_void(&key) || closes_itself(&key) {
            return Start::Markup;
        }
        match content_of(&key) {
            Content::Plaintext => return Start::Plaintext,
            Content::Script => {
                return Start::Script {
                    strip: self.stripping && !is_json_ld(b, attrs),
                }
            }
            Content::Raw => {
                return Start::Raw {
                    strip: self.stripping && is(&key, "style"),
                    in_noscript: self
                        .stack
                        .iter()
                        .any(|o| o.ns == Ns::Html && is(&o.name, "noscript")),
                }
            }
            Content::Markup => {}
        }
        if self.stack.len() >= MAX_DEPTH {
            return self.drop_tag(key);
        }
        let svg = is(&key, "svg");
        if svg && self.stripping && !self_closing {
            if let Some(end) = svg_extent(b, i, &mut self.scratch) {
                return Start::Svg { end };
            }
        }
        let math = is(&key, "math");
        if (svg || math) && self_closing {
            return Start::Markup;
        }
        self.stack.push(Open {
            name: key,
            ns: if svg {
                Ns::Svg
            } else if math {
                Ns::Math
            } else {
                Ns::Html
            },
            foreign: svg || math,
        });
        Start::Markup
    }
}

/// Whether `b` may hold a `<frameset>` start tag (anywhere, even inside a comment or an
/// attribute value: a conservative test made before reading). Such a document is not
/// stripped at all: a frameset replaces the body only if no text came before it (text in an
/// SVG counts), and in frameset mode `<script>`/`<style>` are ignored, so their "content" is
/// markup.
pub(crate) fn mentions_frameset(b: &[u8]) -> bool {
    let at = |i: usize| {
        b.get(i + 2..i + 9)
            .is_some_and(|n| n.eq_ignore_ascii_case(b"rameset"))
            && b.get(i + 9)
                .is_none_or(|&c| is_space(c) || c == b'/' || c == b'>')
    };
    // Two-byte needles: SIMD scans that rarely stop, where visiting every `<` did.
    memchr::memmem::find_iter(b, b"<f").any(at) || memchr::memmem::find_iter(b, b"<F").any(at)
}

fn prepass(html: &str, strip: bool) -> Cow<'_, str> {
    let b = html.as_bytes();
    let mut t = Tracker::new(strip && !mentions_frameset(b));
    let mut cuts: Vec<Cut> = Vec::new();
    let mut strips: Vec<Cut> = Vec::new();
    // End tags to insert: where, and the element name's bytes (see `Start::Raw`).
    let mut closes: Vec<(usize, (usize, usize))> = Vec::new();
    let mut attrs: Vec<Attr> = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let lt = i + p;
        let rest = &b[lt..];
        match rest.get(1) {
            Some(b'!') if rest.starts_with(b"<!--") => {
                let (text_end, end) = comment_extent(b, lt);
                if t.stripping && text_end > lt + 4 {
                    strips.push((lt + 4, text_end));
                }
                i = end;
            }
            // CDATA is read whenever the current node is not HTML (integration points too).
            Some(b'!') if rest.starts_with(b"<![CDATA[") && t.cdata() != Cdata::No => {
                if t.cdata() == Cdata::Unsure {
                    // Read on as a bogus comment, so defusing goes on, but cut nothing more:
                    // what follows may be text.
                    t.stripping = false;
                    i = bogus_end(b, lt + 1);
                } else {
                    i = memchr::memmem::find(&b[lt + 9..], b"]]>")
                        .map_or(b.len(), |e| lt + 9 + e + 3);
                }
            }
            Some(b'!' | b'?') => i = bogus_end(b, lt + 1),
            Some(b'/') if rest.get(2).is_some_and(u8::is_ascii_alphabetic) => {
                let name_len = tag_name_len(b, lt + 2);
                let key = name_key(&b[lt + 2..lt + 2 + name_len]);
                let Some(tag) = scan_tag(b, lt + 2 + name_len, &mut attrs) else {
                    break;
                };
                if t.end_tag(key) {
                    cuts.push((lt, tag.end));
                }
                i = tag.end;
            }
            Some(b'/') => {
                // `</>` is dropped; `</` + anything else is a bogus comment.
                i = if rest.get(2) == Some(&b'>') {
                    lt + 3
                } else if rest.len() > 2 {
                    bogus_end(b, lt + 2)
                } else {
                    b.len()
                };
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name_len = tag_name_len(b, lt + 1);
                let name = &b[lt + 1..lt + 1 + name_len];
                let key = name_key(name);
                let Some(tag) = scan_tag(b, lt + 1 + name_len, &mut attrs) else {
                    break;
                };
                i = tag.end;
                let start = t.start_tag(b, i, key, tag.self_closing, &attrs);
                if start == Start::Drop {
                    cuts.push((lt, tag.end));
                    continue;
                }
                if t.stripping {
                    strip_attrs(b, &attrs, &mut strips);
                }
                match start {
                    Start::Drop | Start::Markup => {}
                    Start::Plaintext => break,
                    Start::Script { strip } => {
                        let end = script_end(b, i);
                        if strip && end > i {
                            strips.push((i, end));
                        }
                        i = end;
                    }
                    Start::Raw { strip, in_noscript } => {
                        let (end, unclosed) = raw_end(b, i, name, in_noscript);
                        if strip && end > i {
                            strips.push((i, end));
                        }
                        if unclosed {
                            closes.push((end, (lt + 1, lt + 1 + name_len)));
                        }
                        i = end;
                    }
                    Start::Svg { end } => {
                        if end > i {
                            strips.push((i, end));
                        }
                        // Step over the end tag too: it closes this svg, nothing we track.
                        i = end;
                        if end < b.len() {
                            match scan_tag(b, end + 2 + tag_name_len(b, end + 2), &mut attrs) {
                                Some(tag) => i = tag.end,
                                None => break,
                            }
                        }
                    }
                }
            }
            _ => i = lt + 1,
        }
        if i >= b.len() {
            break;
        }
    }
    cuts.append(&mut strips);
    if cuts.is_empty() && closes.is_empty() {
        return Cow::Borrowed(html);
    }
    // One sorted list of edits: a cut removes `start..end`; an insertion (empty range,
    // sorted before a cut at the same place) adds an end tag there.
    let mut edits: Vec<Edit> = cuts.into_iter().map(|(s, e)| (s, e, None)).collect();
    edits.extend(closes.into_iter().map(|(at, name)| (at, at, Some(name))));
    edits.sort_unstable();
    let mut out = String::with_capacity(html.len() + 16);
    let mut from = 0;
    for (start, end, close) in edits {
        // Cuts never overlap and fall on ASCII bytes; stay safe if that were ever wrong.
        if start < from || !html.is_char_boundary(start) || !html.is_char_boundary(end) {
            continue;
        }
        out.push_str(&html[from..start]);
        if let Some((n0, n1)) = close {
            if let Some(name) = html.get(n0..n1) {
                out.push_str("</");
                out.push_str(name);
                out.push('>');
            }
        }
        from = end;
    }
    out.push_str(&html[from..]);
    Cow::Owned(out)
}

/// `<font color|face|size>` leaves foreign content.
fn font_breakout(b: &[u8], a: &Attr) -> bool {
    let name = &b[a.name.0..a.name.1];
    [&b"color"[..], b"face", b"size"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
}

/// `type="application/ld+json"` on a script (the first `type` attribute, as html5ever keeps).
/// A value with character references is treated as JSON-LD, to be safe.
fn is_json_ld(b: &[u8], attrs: &[Attr]) -> bool {
    let Some(a) = attrs
        .iter()
        .find(|a| b[a.name.0..a.name.1].eq_ignore_ascii_case(b"type"))
    else {
        return false;
    };
    let Some((s, e, _)) = a.value else {
        return false;
    };
    let v = &b[s..e];
    let trimmed = v.trim_ascii();
    trimmed.eq_ignore_ascii_case(b"application/ld+json") || memchr(b'&', v).is_some()
}

/// Whether an attribute directly follows a `/` (`<a/x>`): removing it would make the tag
/// self-closing, which matters in SVG/MathML, so it stays.
pub(crate) fn after_slash(b: &[u8], a: &Attr) -> bool {
    a.name.0 > 0 && b[a.name.0 - 1] == b'/'
}

/// Remove attributes no view reads (name, `=` and value; the whitespace before stays), and
/// shorten long `data:` URLs in those some view does (to `data:`, which every view treats the
/// same as the full URL).
fn strip_attrs(b: &[u8], attrs: &[Attr], cuts: &mut Vec<Cut>) {
    for a in attrs {
        if !attr_is_read(&b[a.name.0..a.name.1]) {
            if !after_slash(b, a) {
                cuts.push((a.name.0, a.end));
            }
            continue;
        }
        if let Some((s, e, true)) = a.value {
            if e - s >= LONG_ATTR && b[s..s + 5].eq_ignore_ascii_case(b"data:") {
                cuts.push((s + 5, e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(html: &str) -> String {
        defuse(html).into_owned()
    }

    #[test]
    fn ordinary_pages_borrowed() {
        let page = "<html><head><title>t</title></head><body>\
                    <div class='a>b'><p>x<p>y<svg/></div></body></html>";
        assert!(matches!(defuse(page), Cow::Borrowed(_)));
        let page = "<html><head><script>if (a<b) x='<div>'</script></head><body>\
                    <div class='a>b'><p>x<p>y<svg><path/><path/></svg></div></body></html>";
        assert!(matches!(defuse_only(page), Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_capped() {
        let n = 10_000;
        let page = format!("{}x{}", "<div>".repeat(n), "</div>".repeat(n));
        let out = defuse(&page);
        assert_eq!(out.matches("<div>").count(), MAX_DEPTH);
        assert_eq!(out.matches("</div>").count(), MAX_DEPTH);
        assert!(out.contains('x'));
    }

    #[test]
    fn attribute_bombs_dropped() {
        let page = format!("<p>a<span {}>b</span>c", "x=1 ".repeat(1000));
        assert_eq!(defuse(&page), "<p>ab</span>c".replace("</span>", ""));
    }

    #[test]
    fn script_and_style_emptied() {
        assert_eq!(
            strip("<p>a<script>if (a<b) x='</div>'</script>b<style>p>a{}</style>c"),
            "<p>a<script></script>b<style></style>c"
        );
        // Case and whitespace in the end tag; attributes on it.
        assert_eq!(
            strip("<SCRIPT src=x>x</SCRIPT >y<Style>z</sTyle\t>"),
            "<SCRIPT src=x></SCRIPT >y<Style></sTyle\t>"
        );
        assert_eq!(strip("<script>a</script/>b"), "<script></script/>b");
        // `</scripts>` does not end a script.
        assert_eq!(
            strip("<script>a</scripts>b</script>c"),
            "<script></script>c"
        );
    }

    #[test]
    fn json_ld_kept() {
        let page = r#"<script type=" Application/LD+JSON ">{"a":"<b>"}</script><script type="text/javascript">x</script>"#;
        assert_eq!(
            strip(page),
            r#"<script type=" Application/LD+JSON ">{"a":"<b>"}</script><script type="text/javascript"></script>"#
        );
    }

    #[test]
    fn script_at_eof_dropped() {
        assert_eq!(strip("<p>a<script>var x = '<p>b"), "<p>a<script>");
        assert_eq!(strip("<p>a<style>p{"), "<p>a<style>");
        // `</script` at EOF without its `>` is not an end tag either.
        assert_eq!(strip("a<script>x</script"), "a<script>");
    }

    #[test]
    fn script_escape_states() {
        // `<!--` then `<script>` inside a script: its `</script>` does not end the outer one.
        let page = "<script><!-- document.write('<script>x</script>') --></script><p>after";
        assert_eq!(strip(page), "<script></script><p>after");
        // Leaving the escape with `-->` before the end tag.
        let page = "<script><!-- a --> <script> </script>b";
        assert_eq!(strip(page), "<script></script>b");
        // `<!-->` opens and closes the escape at once.
        let page = "<script><!--><script></script>b";
        assert_eq!(strip(page), "<script></script>b");
        // Inside the escape (not double-escaped), `</script>` ends the script.
        let page = "<script><!-- x </script>b";
        assert_eq!(strip(page), "<script></script>b");
    }

    #[test]
    fn raw_text_inside_noscript_ends_with_it() {
        // A self-closed iframe does not close; its raw text stops at `</noscript>`.
        assert_eq!(
            strip("<noscript><iframe src=x /></noscript><p>page</p>"),
            "<noscript><iframe src=x /></iframe></noscript><p>page</p>"
        );
        // Closed in time, or outside any noscript: untouched.
        for page in [
            "<noscript><iframe></iframe></noscript><p>x</p>",
            "<iframe></noscript><p>x</p></iframe>",
        ] {
            assert_eq!(strip(page), page);
        }
    }

    #[test]
    fn tags_inside_attribute_values_ignored() {
        let page = r#"<a title="<script>" href='x>'>t</a><div class=<style>>u</div>"#;
        assert_eq!(strip(page), page);
        // An `=` before an attribute name starts a name, so the quote is not a value.
        let page = r#"<p =">" x><script>s</script>"#;
        assert_eq!(strip(page), r#"<p >" x><script></script>"#);
        // Unquoted value ending in `/` is not self-closing.
        let page = "<svg viewBox=0/><path d=1></path></svg>x";
        assert_eq!(strip(page), "<svg ></svg>x");
    }

    #[test]
    fn raw_text_elements_hide_tags() {
        for page in [
            "<textarea><script>x</script></textarea>",
            "<title><style>x</style></title>",
            "<xmp><!-- <script>a</script> --></xmp>",
            "<iframe><svg><path/></svg></iframe>",
            "<noembed><script>a</script></noembed>",
            "<noframes><style>a</style></noframes>",
        ] {
            assert_eq!(strip(page), page, "{page}");
        }
        assert_eq!(
            strip("<textarea>a</textarea ><script>b</script>"),
            "<textarea>a</textarea ><script></script>"
        );
        // Plaintext: nothing after it is markup.
        let page = "<plaintext><script>a</script>";
        assert_eq!(strip(page), page);
    }

    #[test]
    fn noscript_is_markup() {
        // Scripting is disabled, so noscript content is parsed (and kept): only its script
        // contents go.
        assert_eq!(
            strip("<noscript><p>x<script>y</script></noscript>"),
            "<noscript><p>x<script></script></noscript>"
        );
    }

    #[test]
    fn comments() {
        assert_eq!(strip("a<!-- x -->b"), "a<!---->b");
        assert_eq!(strip("a<!-->b<!--->c"), "a<!-->b<!--->c");
        assert_eq!(strip("a<!-- x --!>b"), "a<!----!>b");
        assert_eq!(strip("a<!-- x -- >y--->b"), "a<!---->b");
        assert_eq!(strip("a<!-- <script> -->b"), "a<!---->b");
        assert_eq!(strip("a<!-- never closed <p>"), "a<!--");
        // Bogus comments and doctypes end at the first `>`.
        assert_eq!(
            strip("<!DOCTYPE html><?x <script>?>a<script>b</script>"),
            "<!DOCTYPE html><?x <script>?>a<script></script>"
        );
    }

    #[test]
    fn svg_emptied() {
        assert_eq!(
            strip("a<svg viewBox='0 0 1 1'><g><path d='M0'/><title>T</title></g></svg>b"),
            "a<svg ></svg>b"
        );
        // Nested svg, `</svg>` in CDATA and comments.
        assert_eq!(
            strip("<svg><svg><g/></svg><![CDATA[</svg>]]><!--</svg>--><style>x</style></svg>b"),
            "<svg></svg>b"
        );
        // Unclosed: the rest of the document is SVG.
        assert_eq!(strip("a<svg><path>"), "a<svg>");
        // Self-closing svg has no content.
        assert_eq!(strip("<svg/><p>x"), "<svg/><p>x");
    }

    #[test]
    fn svg_left_whole_when_unusual() {
        for page in [
            // Breakout tags end the SVG early; their text is visible.
            "<svg><path/><div>visible</div></svg>",
            "<svg><p>x</svg>",
            "<svg><font color=red>x</font></svg>",
            // HTML inside foreignObject, or markup inside an SVG title.
            "<svg><foreignObject><p>x</p></foreignObject></svg>",
            "<svg><title><b>x</b></title></svg>",
            // An end tag matching nothing inside acts on HTML elements outside.
            "<div><svg><g></div>x</svg>",
            "<svg></p></svg>",
        ] {
            assert_eq!(strip(page), page, "{page}");
        }
    }

    #[test]
    fn scripts_inside_foreign_content_are_markup() {
        // An SVG <script>/<style> is tokenized as markup: not cut by the script rule (the
        // whole svg is left as is because of the breakout).
        let page = "<svg><script>a<b>c</b></script></svg>";
        assert_eq!(strip(page), page);
        // After a breakout, HTML again.
        let page = "<svg><b>x</b><script>y</script>";
        assert_eq!(strip(page), "<svg><b>x</b><script></script>");
        // Integration points read HTML: a script there is a real script.
        let page = "<math><mi><script>y</script></mi></math>";
        assert_eq!(strip(page), "<math><mi><script></script></mi></math>");
    }

    #[test]
    fn template_content_kept() {
        let page = "<template><p>x</p></template>";
        assert_eq!(strip(page), page);
    }

    #[test]
    fn frameset_disables_stripping() {
        let page = "<svg>text</svg><FrameSet><script>a</script>";
        assert_eq!(strip(page), page);
        assert_eq!(
            strip("<svg>text</svg><framesets>"),
            "<svg></svg><framesets>"
        );
    }

    #[test]
    fn unread_attributes_removed() {
        let long = "x".repeat(100);
        let page = format!(
            r#"<div data-big="{long}" class="{long}" :v='{long}' u={long} k>a</div><a x=1/>"#
        );
        assert_eq!(
            strip(&page),
            format!(r#"<div  class="{long}"   >a</div><a >"#)
        );
        let page = format!(r#"<img src="data:image/png;base64,{long}" alt=x>"#);
        assert_eq!(strip(&page), r#"<img src="data:" alt=x>"#);
        // Adjacent attributes, `=` with spaces, a dangling `=`.
        assert_eq!(
            strip(r#"<a x="1"href="y" z = '2' w= >t</a>"#),
            r#"<a href="y"   >t</a>"#
        );
        // Attributes that steer the parser stay.
        let page = "<font color=red face=x size=2><input type=hidden><math><annotation-xml encoding=text/html>";
        assert_eq!(strip(page), page);
    }

    #[test]
    fn never_panics_on_odd_input() {
        let cases = [
            "<",
            "</",
            "<!",
            "<!-",
            "<!--",
            "<!---",
            "<a",
            "<a b",
            "<a b=",
            "<a b=\"",
            "<a/",
            "<script",
            "<script>",
            "<script><!--",
            "<script><!--<script",
            "<svg",
            "<svg>",
            "<svg><![CDATA[",
            "</a",
            "<?",
            "<é>",
            "<sçript>é</sçript>",
            "<a b='é'>",
            "<svg><é",
            "<script>é</script\u{e9}>",
        ];
        for c in cases {
            let _ = defuse(c);
            let _ = defuse_only(c);
        }
    }
}
