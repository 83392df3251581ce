//! Fixed ids for the names the parse and the views ask about: every HTML element name the
//! tree builder treats apart, the foreign names it checks, and the commonest attribute
//! names. The arena's name table ([`crate::arena::Names`]) gives these names these ids in
//! every document, so the insertion modes match an element or a tag by comparing integers
//! ([`tag::TD`]) and test membership of a set of names with one mask ([`set`]), not by
//! comparing strings; and interning one of them is a multiply and a compare here instead of
//! hashing into the document's table.

/// Declares the names once: their ids (in `tag`, in order from 0), the table of their
/// spellings ([`KNOWN`]) and the lookup.
macro_rules! known_names {
    ($($id:ident = $name:literal),+ $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        enum Index { $($id),+ }

        /// The ids of the known names: `tag::DIV` is the id of `div` in every document.
        #[allow(dead_code)]
        pub mod tag {
            $(pub const $id: u32 = super::Index::$id as u32;)+
        }

        /// The known names, indexed by id.
        pub const KNOWN: &[&str] = &[$($name),+];
    };
}

known_names!(
    // HTML elements first: the sets of `set()` hold ids below 128.
    A = "a",
    ABBR = "abbr",
    ADDRESS = "address",
    APPLET = "applet",
    AREA = "area",
    ARTICLE = "article",
    ASIDE = "aside",
    AUDIO = "audio",
    B = "b",
    BASE = "base",
    BASEFONT = "basefont",
    BGSOUND = "bgsound",
    BIG = "big",
    BLOCKQUOTE = "blockquote",
    BODY = "body",
    BR = "br",
    BUTTON = "button",
    CAPTION = "caption",
    CENTER = "center",
    CITE = "cite",
    CODE = "code",
    COL = "col",
    COLGROUP = "colgroup",
    DD = "dd",
    DEL = "del",
    DETAILS = "details",
    DIALOG = "dialog",
    DIR = "dir",
    DIV = "div",
    DL = "dl",
    DT = "dt",
    EM = "em",
    EMBED = "embed",
    FIELDSET = "fieldset",
    FIGCAPTION = "figcaption",
    FIGURE = "figure",
    FONT = "font",
    FOOTER = "footer",
    FORM = "form",
    FRAME = "frame",
    FRAMESET = "frameset",
    H1 = "h1",
    H2 = "h2",
    H3 = "h3",
    H4 = "h4",
    H5 = "h5",
    H6 = "h6",
    HEAD = "head",
    HEADER = "header",
    HGROUP = "hgroup",
    HR = "hr",
    HTML = "html",
    I = "i",
    IFRAME = "iframe",
    IMAGE = "image",
    IMG = "img",
    INPUT = "input",
    INS = "ins",
    KBD = "kbd",
    KEYGEN = "keygen",
    LABEL = "label",
    LI = "li",
    LINK = "link",
    LISTING = "listing",
    MAIN = "main",
    MARK = "mark",
    MARQUEE = "marquee",
    MENU = "menu",
    META = "meta",
    NAV = "nav",
    NOBR = "nobr",
    NOEMBED = "noembed",
    NOFRAMES = "noframes",
    NOSCRIPT = "noscript",
    OBJECT = "object",
    OL = "ol",
    OPTGROUP = "optgroup",
    OPTION = "option",
    P = "p",
    PARAM = "param",
    PICTURE = "picture",
    PLAINTEXT = "plaintext",
    PRE = "pre",
    Q = "q",
    RB = "rb",
    RP = "rp",
    RT = "rt",
    RTC = "rtc",
    RUBY = "ruby",
    S = "s",
    SCRIPT = "script",
    SEARCH = "search",
    SECTION = "section",
    SELECT = "select",
    SELECTEDCONTENT = "selectedcontent",
    SMALL = "small",
    SOURCE = "source",
    SPAN = "span",
    STRIKE = "strike",
    STRONG = "strong",
    STYLE = "style",
    SUB = "sub",
    SUMMARY = "summary",
    SUP = "sup",
    TABLE = "table",
    TBODY = "tbody",
    TD = "td",
    TEMPLATE = "template",
    TEXTAREA = "textarea",
    TFOOT = "tfoot",
    TH = "th",
    THEAD = "thead",
    TIME = "time",
    TITLE = "title",
    TR = "tr",
    TRACK = "track",
    TT = "tt",
    U = "u",
    UL = "ul",
    VAR = "var",
    VIDEO = "video",
    WBR = "wbr",
    XMP = "xmp",
    // Foreign elements the builder checks.
    MATH = "math",
    SVG = "svg",
    MI = "mi",
    MO = "mo",
    MN = "mn",
    MS = "ms",
    MTEXT = "mtext",
    ANNOTATION_XML = "annotation-xml",
    MGLYPH = "mglyph",
    MALIGNMARK = "malignmark",
    FOREIGN_OBJECT = "foreignObject",
    DESC = "desc",
    // Attributes.
    ACTION = "action",
    ALT = "alt",
    ARIA_HIDDEN = "aria-hidden",
    ARIA_LABEL = "aria-label",
    CHARSET = "charset",
    CLASS = "class",
    COLOR = "color",
    COLSPAN = "colspan",
    CONTENT = "content",
    DATA_SRC = "data-src",
    DATETIME = "datetime",
    DISABLED = "disabled",
    ENCODING = "encoding",
    FACE = "face",
    FOR = "for",
    HEADERS = "headers",
    HEIGHT = "height",
    HIDDEN = "hidden",
    HREF = "href",
    HREFLANG = "hreflang",
    HTTP_EQUIV = "http-equiv",
    ID = "id",
    ITEMPROP = "itemprop",
    ITEMSCOPE = "itemscope",
    ITEMTYPE = "itemtype",
    LANG = "lang",
    LOADING = "loading",
    METHOD = "method",
    NAME = "name",
    PROPERTY = "property",
    REL = "rel",
    ROLE = "role",
    ROWSPAN = "rowspan",
    SCOPE = "scope",
    SELECTED = "selected",
    SIZE = "size",
    SIZES = "sizes",
    SRC = "src",
    SRCSET = "srcset",
    TABINDEX = "tabindex",
    TARGET = "target",
    TYPE = "type",
    VALUE = "value",
    WIDTH = "width",
    XMLNS = "xmlns",
);

/// The id of no name: what [`crate::arena::Names::lookup`] misses stand for in the tree
/// builder (no element carries that name, so nothing matches it).
pub const NO_NAME: u32 = u32::MAX;

/// A set of known HTML element names (ids below 128) as a mask, for [`contains`].
pub const fn set(ids: &[u32]) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < ids.len() {
        assert!(ids[i] < 128, "only ids below 128 go into a set");
        mask |= 1 << ids[i];
        i += 1;
    }
    mask
}

// The HTML elements, listed first, all fit a set.
const _: () = assert!(tag::XMP < 128);

/// Whether name `id` is in `set` (any id of 128 or more, known or not, is in none).
///
/// Read from the set's 64-bit half that holds `id`: a `u128` shifted by a variable amount
/// is a branchy sequence of two-word shifts, and this test runs several times a token
/// (2% of the table page's parse).
#[inline]
pub fn contains(set: u128, id: u32) -> bool {
    let half = if id < 64 {
        set as u64
    } else {
        (set >> 64) as u64
    };
    id < 128 && (half >> (id & 63)) & 1 != 0
}

/// The heading elements, `h1` to `h6`.
pub const HEADINGS: u128 = set(&[tag::H1, tag::H2, tag::H3, tag::H4, tag::H5, tag::H6]);

/// Slots of the lookup table: a power of two, about three times the names, so that a probe
/// nearly always ends at its first slot.
const SLOTS: usize = 512;

/// The first (up to) eight bytes of a name as a little-endian word: with the length, this
/// tells nearly all names apart.
const fn head_word(name: &[u8]) -> u64 {
    let mut word = 0u64;
    let mut i = 0;
    while i < name.len() && i < 8 {
        word |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    word
}

const fn slot_of(word: u64, len: usize) -> usize {
    let h = (word ^ ((len as u64) << 58)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - SLOTS.trailing_zeros())) as usize
}

/// Open addressing, linear probing, built at compile time: 1 + a name's id in its slot, 0
/// for empty. Two names spelt alike would fail the build.
const TABLE: [u8; SLOTS] = {
    assert!(KNOWN.len() < 255 && KNOWN.len() * 2 < SLOTS);
    let mut table = [0u8; SLOTS];
    let mut id = 0;
    while id < KNOWN.len() {
        let name = KNOWN[id].as_bytes();
        let mut slot = slot_of(head_word(name), name.len());
        while table[slot] != 0 {
            let other = KNOWN[table[slot] as usize - 1].as_bytes();
            assert!(!bytes_eq(other, name), "a known name is listed twice");
            slot = (slot + 1) % SLOTS;
        }
        table[slot] = (id + 1) as u8;
        id += 1;
    }
    table
};

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The first eight bytes of each known name, by id, so that most compares are one word.
const WORDS: [u64; KNOWN.len()] = {
    let mut words = [0u64; KNOWN.len()];
    let mut id = 0;
    while id < KNOWN.len() {
        words[id] = head_word(KNOWN[id].as_bytes());
        id += 1;
    }
    words
};

/// The class bits (`tag_sets::SPECIAL`, ...) of each known name as an HTML element, by id;
/// every other name has none (`tag_sets` tests that each name with a bit is known).
pub const CLASSES: [u8; KNOWN.len()] = {
    let mut classes = [0u8; KNOWN.len()];
    let mut id = 0;
    while id < KNOWN.len() {
        classes[id] = super::tag_sets::name_class(KNOWN[id]);
        id += 1;
    }
    classes
};

/// The id of `name` if it is a known name (exact spelling: ASCII case matters).
#[inline]
pub fn known_id(name: &str) -> Option<u32> {
    let bytes = name.as_bytes();
    let word = head_word(bytes);
    let mut slot = slot_of(word, bytes.len());
    loop {
        let entry = TABLE[slot];
        if entry == 0 {
            return None;
        }
        let id = entry as usize - 1;
        let known = KNOWN[id];
        if WORDS[id] == word
            && known.len() == bytes.len()
            && (bytes.len() <= 8 || known.as_bytes()[8..] == bytes[8..])
        {
            return Some(id as u32);
        }
        slot = (slot + 1) % SLOTS;
    }
}

/// The longest known name, in bytes.
const LONGEST: usize = {
    let mut longest = 0;
    let mut id = 0;
    while id < KNOWN.len() {
        if KNOWN[id].len() > longest {
            longest = KNOWN[id].len();
        }
        id += 1;
    }
    longest
};
const _: () = assert!(LONGEST <= 16);

/// [`known`] for a name of `len` bytes given as its first 16 bytes, zero-padded (the guard's
/// name key, `tokenizer/guard/names.rs`): the first eight are the lookup's word already, so
/// the lexer, which keys every tag's name for the guard, finds its id without another pass
/// over the name. A key is lowercased and has U+0000 as 0xFF, which no known name holds;
/// [`known`] of the lexer's name (lowercased, U+0000 as U+FFFD) gives the same id.
#[inline]
pub fn known_key(key: &[u8; 16], len: usize) -> u32 {
    if len > LONGEST {
        return NO_NAME;
    }
    let mut head = [0u8; 8];
    head.copy_from_slice(&key[..8]);
    let word = u64::from_le_bytes(head);
    let mut slot = slot_of(word, len);
    loop {
        let entry = TABLE[slot];
        if entry == 0 {
            return NO_NAME;
        }
        let id = entry as usize - 1;
        let known = KNOWN[id].as_bytes();
        if WORDS[id] == word && known.len() == len && (len <= 8 || known[8..] == key[8..len]) {
            return id as u32;
        }
        slot = (slot + 1) % SLOTS;
    }
}

/// The id of a tag's name if it is known, else [`NO_NAME`]: what the insertion modes match
/// a token against (each arm names a known name).
#[inline]
pub fn known(name: &str) -> u32 {
    known_id(name).unwrap_or(NO_NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_name_finds_its_id() {
        for (id, name) in KNOWN.iter().enumerate() {
            assert_eq!(known_id(name), Some(id as u32), "{name}");
        }
        assert_eq!(known_id("td"), Some(tag::TD));
        assert_eq!(known_id("foreignObject"), Some(tag::FOREIGN_OBJECT));
    }

    #[test]
    fn other_names_find_none() {
        for name in [
            "",
            "TD",
            "tdd",
            "t",
            "foreignobject",
            "annotation-xm",
            "annotation-xmlx",
            "selectedcontents",
            "my-element",
            "h7",
            "\u{fffd}",
        ] {
            assert_eq!(known_id(name), None, "{name}");
        }
    }

    #[test]
    fn a_key_finds_the_id_its_name_finds() {
        let key = |name: &str| {
            let mut k = [0u8; 16];
            for (d, s) in k.iter_mut().zip(name.bytes()) {
                *d = s;
            }
            (k, name.len())
        };
        for name in KNOWN
            .iter()
            .chain(&["tdd", "my-element", "selectedcontents", "h7", ""])
        {
            let (k, len) = key(name);
            assert_eq!(known_key(&k, len), known(name), "{name}");
        }
        // A key holds only the first 16 bytes of a longer name.
        let (k, _) = key("blockquote");
        assert_eq!(known_key(&k, 20), NO_NAME);
    }

    #[test]
    fn sets() {
        assert!(contains(HEADINGS, tag::H3));
        assert!(!contains(HEADINGS, tag::HR));
        assert!(!contains(HEADINGS, 500));
    }
}
