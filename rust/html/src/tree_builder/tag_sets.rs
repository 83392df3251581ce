//! What an element is from its name alone, in one home for every side of the parse: the caps'
//! classes ([`TagClass`], read by the builder's guard model in `limits.rs` and by
//! the tokenizer's guard and lexer, so both drop the same tags), the void
//! elements ([`VOID_ELEMENTS`], also the Python search parser's list through `_core`), the
//! "special" category and the scope boundaries the tree builder's stack checks (§13.2.4.2,
//! interned once per name by the arena: [`name_class`]), and the headings.

/// The classes of an HTML element name, as bits ([`TagClass::of`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TagClass(u8);

const VOID: u8 = 1;
const SELF: u8 = 2;
const RAW: u8 = 4;
const SCRIPT: u8 = 8;
const PLAIN: u8 = 16;
const BREAK: u8 = 32;

/// Declares the void elements once: as the list [`VOID_ELEMENTS`] and as the pattern
/// [`TagClass::of`] matches (one length switch, no scan of the list).
macro_rules! void_elements {
    ($($name:literal),+ $(,)?) => {
        /// The void elements as the tree builder treats them: no content, no end tag (the
        /// standard's fourteen plus the legacy `keygen`, `frame`, `basefont`, `bgsound` and
        /// `image`, which the builder never gives children either). ASCII lowercase.
        pub const VOID_ELEMENTS: &[&[u8]] = &[$($name),+];

        #[inline]
        const fn is_void_name(name: &[u8]) -> bool {
            matches!(name, $($name)|+)
        }
    };
}

void_elements!(
    b"area",
    b"base",
    b"br",
    b"col",
    b"embed",
    b"hr",
    b"img",
    b"input",
    b"link",
    b"meta",
    b"param",
    b"source",
    b"track",
    b"wbr",
    b"keygen",
    b"frame",
    b"basefont",
    b"bgsound",
    b"image",
);

/// [`TagClass::of`] of each known name, by id ([`super::tag_ids::KNOWN`]): a tag's name is
/// looked up once, in the lexer, and its class read here ([`TagClass::of_id`]).
const CLASS_OF_ID: [TagClass; super::tag_ids::KNOWN.len()] = {
    let known = super::tag_ids::KNOWN;
    let mut classes = [TagClass(0); super::tag_ids::KNOWN.len()];
    let mut id = 0;
    while id < known.len() {
        classes[id] = TagClass::of(known[id].as_bytes());
        id += 1;
    }
    classes
};

impl TagClass {
    /// The classes of `name` (ASCII lowercase; any other spelling has none).
    #[inline]
    pub const fn of(name: &[u8]) -> TagClass {
        let void = if is_void_name(name) { VOID } else { 0 };
        TagClass(
            void | match name {
                b"br" | b"embed" | b"hr" | b"img" | b"meta" => BREAK,
                b"option" | b"optgroup" | b"tr" | b"td" | b"th" | b"thead" | b"tbody"
                | b"tfoot" | b"colgroup" | b"caption" | b"rb" | b"rt" | b"rp" | b"rtc"
                | b"html" => SELF,
                b"p" | b"li" | b"dt" | b"dd" | b"head" | b"body" => SELF | BREAK,
                b"script" => SCRIPT,
                b"style" | b"textarea" | b"title" | b"xmp" | b"iframe" | b"noembed"
                | b"noframes" => RAW,
                b"plaintext" => PLAIN,
                b"b" | b"big" | b"blockquote" | b"center" | b"code" | b"div" | b"dl" | b"em"
                | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" | b"i" | b"listing" | b"menu"
                | b"nobr" | b"ol" | b"pre" | b"ruby" | b"s" | b"small" | b"span" | b"strong"
                | b"strike" | b"sub" | b"sup" | b"table" | b"tt" | b"u" | b"ul" | b"var" => BREAK,
                _ => 0,
            },
        )
    }
    /// The classes of the name whose known id is `id` ([`super::tag_ids::known`]): those of
    /// [`TagClass::of`] its spelling, and none for any other id (every name with a class is
    /// a known one: the tests check it).
    #[inline]
    pub(crate) fn of_id(id: u32) -> TagClass {
        CLASS_OF_ID.get(id as usize).copied().unwrap_or(TagClass(0))
    }

    /// A void element: no content, no end tag.
    #[inline]
    pub fn is_void(self) -> bool {
        self.0 & VOID != 0
    }

    /// End tag optional: the parser closes it itself, it never nests (`<html>`, `<head>`
    /// and `<body>` are merged, never nested).
    #[inline]
    pub fn closes_itself(self) -> bool {
        self.0 & SELF != 0
    }

    /// `<script>`: script data up to its end tag.
    #[inline]
    pub fn is_script(self) -> bool {
        self.0 & SCRIPT != 0
    }

    /// RCDATA or RAWTEXT (scripting off: `<noscript>` is markup): text up to its end tag.
    #[inline]
    pub fn is_rawtext(self) -> bool {
        self.0 & RAW != 0
    }

    /// `<plaintext>`: the rest of the input is text.
    #[inline]
    pub fn is_plaintext(self) -> bool {
        self.0 & PLAIN != 0
    }

    /// Any content read as text: [`TagClass::is_rawtext`], [`TagClass::is_script`] or
    /// [`TagClass::is_plaintext`].
    #[inline]
    pub fn is_text(self) -> bool {
        self.0 & (RAW | SCRIPT | PLAIN) != 0
    }

    /// A start tag that leaves SVG/MathML content for HTML (`font` only with color, face
    /// or size, which a name alone cannot tell).
    #[inline]
    pub fn breaks_out(self) -> bool {
        self.0 & BREAK != 0
    }

    /// A start tag that can leave an element open on the builder's stack: not void, not
    /// closed by its next sibling, not read as text.
    #[inline]
    pub fn opens_element(self) -> bool {
        self.0 & (VOID | SELF | RAW | SCRIPT | PLAIN) == 0
    }

    /// A start tag dropped once the page is read flat: every tag but void ones and those
    /// whose content is text (dropping `<script>` would show its code as text).
    #[inline]
    pub fn flattens(self) -> bool {
        self.0 & (VOID | RAW | SCRIPT | PLAIN) == 0
    }
}

/// The HTML elements in the "special" category (§13.2.4.2).
const SPECIAL_HTML: &[&str] = &[
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "base",
    "basefont",
    "bgsound",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dir",
    "div",
    "dl",
    "dt",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "iframe",
    "img",
    "input",
    "keygen",
    "li",
    "link",
    "listing",
    "main",
    "marquee",
    "menu",
    "meta",
    "nav",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "p",
    "param",
    "plaintext",
    "pre",
    "script",
    "search",
    "section",
    "select",
    "source",
    "style",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
    "wbr",
    "xmp",
];

/// In the "special" category (§13.2.4.2) as an HTML element.
pub const SPECIAL: u8 = 1;
/// A boundary of the default element scope (and so of the list item and button scopes) as
/// an HTML element.
pub const SCOPE_BOUNDARY: u8 = 2;
/// What list item scope adds to the default boundaries (`ol`, `ul`).
pub const LIST_SCOPE_BOUNDARY: u8 = 4;
/// What button scope adds (`button`).
pub const BUTTON_SCOPE_BOUNDARY: u8 = 8;
/// A boundary of table scope (`html`, `table`, `template`).
pub const TABLE_SCOPE_BOUNDARY: u8 = 16;

/// The class bits above of an HTML element named `name`: what the tree builder asks of an
/// element's name in its hottest loops. Every name with a bit is a known name
/// (`tag_ids::KNOWN`), whose bits are computed here at compile time (`tag_ids::CLASSES`), so
/// the arena reads them by id instead of comparing strings per node.
pub const fn name_class(name: &str) -> u8 {
    let name = name.as_bytes();
    let mut class = 0;
    if in_list(name, SPECIAL_HTML) {
        class |= SPECIAL;
    }
    if in_list(
        name,
        &[
            "applet", "caption", "html", "table", "td", "th", "marquee", "object", "select",
            "template",
        ],
    ) {
        class |= SCOPE_BOUNDARY;
    }
    if in_list(name, &["ol", "ul"]) {
        class |= LIST_SCOPE_BOUNDARY;
    }
    if in_list(name, &["button"]) {
        class |= BUTTON_SCOPE_BOUNDARY;
    }
    if in_list(name, &["html", "table", "template"]) {
        class |= TABLE_SCOPE_BOUNDARY;
    }
    class
}

/// Whether `name` is one of `list` (a `const` scan: run at compile time only).
const fn in_list(name: &[u8], list: &[&str]) -> bool {
    let mut i = 0;
    while i < list.len() {
        let item = list[i].as_bytes();
        if item.len() == name.len() {
            let mut j = 0;
            while j < item.len() && item[j] == name[j] {
                j += 1;
            }
            if j == item.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The level of a heading element (`h1`..`h6`: 1 to 6), `None` for any other name.
#[inline]
pub fn heading_level(name: &str) -> Option<u8> {
    match name.as_bytes() {
        [b'h', level @ b'1'..=b'6'] => Some(level - b'0'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_of_names() {
        assert!(TagClass::of(b"br").is_void() && TagClass::of(b"br").breaks_out());
        assert!(TagClass::of(b"wbr").is_void() && !TagClass::of(b"wbr").breaks_out());
        assert!(TagClass::of(b"body").closes_itself());
        assert!(TagClass::of(b"script").is_text() && !TagClass::of(b"script").is_rawtext());
        assert!(TagClass::of(b"div").opens_element() && TagClass::of(b"div").flattens());
        assert!(!TagClass::of(b"style").flattens() && !TagClass::of(b"img").flattens());
        // Uppercase is another name: callers lowercase first.
        assert!(!TagClass::of(b"DIV").breaks_out());
    }

    #[test]
    fn the_void_list_is_what_the_classes_call_void() {
        assert_eq!(VOID_ELEMENTS.len(), 19);
        assert!(VOID_ELEMENTS
            .iter()
            .all(|name| TagClass::of(name).is_void()));
        assert!(!TagClass::of(b"p").is_void() && !TagClass::of(b"brr").is_void());
    }

    #[test]
    fn scope_classes() {
        assert_eq!(
            name_class("table"),
            SPECIAL | SCOPE_BOUNDARY | TABLE_SCOPE_BOUNDARY
        );
        assert_eq!(name_class("ul"), SPECIAL | LIST_SCOPE_BOUNDARY);
        assert_eq!(name_class("span"), 0);
    }

    #[test]
    fn every_classed_name_is_known() {
        for name in SPECIAL_HTML {
            assert!(super::super::tag_ids::known_id(name).is_some(), "{name}");
        }
        for name in [
            "applet", "caption", "marquee", "object", "select", "button", "ol",
        ] {
            assert!(super::super::tag_ids::known_id(name).is_some(), "{name}");
        }
    }

    #[test]
    fn the_class_of_an_id_is_the_class_of_its_name() {
        use super::super::tag_ids::{known, NO_NAME};
        // Every name `TagClass::of` gives a class (its match arms), and the void list: each
        // must be known, or `of_id` would miss its class.
        let classed = concat!(
            "br embed hr img meta option optgroup tr td th thead tbody tfoot colgroup caption ",
            "rb rt rp rtc html p li dt dd head body script style textarea title xmp iframe ",
            "noembed noframes plaintext b big blockquote center code div dl em h1 h2 h3 h4 h5 ",
            "h6 i listing menu nobr ol pre ruby s small span strong strike sub sup table tt u ",
            "ul var"
        )
        .split(' ');
        let void = VOID_ELEMENTS
            .iter()
            .filter_map(|n| std::str::from_utf8(n).ok());
        for name in classed.chain(void) {
            assert_ne!(TagClass::of(name.as_bytes()), TagClass(0), "{name}");
            assert_eq!(
                TagClass::of_id(known(name)),
                TagClass::of(name.as_bytes()),
                "{name}"
            );
        }
        for name in super::super::tag_ids::KNOWN {
            assert_eq!(
                TagClass::of_id(known(name)),
                TagClass::of(name.as_bytes()),
                "{name}"
            );
        }
        assert_eq!(TagClass::of_id(NO_NAME), TagClass(0));
    }

    #[test]
    fn headings() {
        assert_eq!(heading_level("h3"), Some(3));
        assert!(["h1", "h2", "h3", "h4", "h5", "h6"]
            .iter()
            .all(|h| heading_level(h).is_some()));
        assert_eq!(heading_level("hr"), None);
        assert_eq!(heading_level("h7"), None);
        assert_eq!(heading_level("h10"), None);
    }
}
