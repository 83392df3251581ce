//! What the caps need to know of an element from its name alone: one table for the builder's
//! guard model ([`super::limits`]) and webgrip-extract's pre-parse guard and lexer, so that
//! both drop the same tags (issue 45: one set of limits shared by tokenizer and builder).

/// The classes of an HTML element name, as bits ([`TagClass::of`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TagClass(u8);

const VOID: u8 = 1;
const SELF: u8 = 2;
const RAW: u8 = 4;
const SCRIPT: u8 = 8;
const PLAIN: u8 = 16;
const BREAK: u8 = 32;

impl TagClass {
    /// The classes of `name` (ASCII lowercase; any other spelling has none).
    #[inline]
    pub fn of(name: &[u8]) -> TagClass {
        TagClass(match name {
            b"area" | b"base" | b"col" | b"input" | b"link" | b"source" | b"track" | b"wbr"
            | b"param" | b"keygen" | b"frame" | b"basefont" | b"bgsound" | b"image" => VOID,
            b"br" | b"embed" | b"hr" | b"img" | b"meta" => VOID | BREAK,
            b"option" | b"optgroup" | b"tr" | b"td" | b"th" | b"thead" | b"tbody" | b"tfoot"
            | b"colgroup" | b"caption" | b"rb" | b"rt" | b"rp" | b"rtc" | b"html" => SELF,
            b"p" | b"li" | b"dt" | b"dd" | b"head" | b"body" => SELF | BREAK,
            b"script" => SCRIPT,
            b"style" | b"textarea" | b"title" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => {
                RAW
            }
            b"plaintext" => PLAIN,
            b"b" | b"big" | b"blockquote" | b"center" | b"code" | b"div" | b"dl" | b"em"
            | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" | b"i" | b"listing" | b"menu"
            | b"nobr" | b"ol" | b"pre" | b"ruby" | b"s" | b"small" | b"span" | b"strong"
            | b"strike" | b"sub" | b"sup" | b"table" | b"tt" | b"u" | b"ul" | b"var" => BREAK,
            _ => 0,
        })
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

#[cfg(test)]
mod tests {
    use super::TagClass;

    #[test]
    fn classes_of_names() {
        assert!(TagClass::of(b"br").is_void() && TagClass::of(b"br").breaks_out());
        assert!(TagClass::of(b"body").closes_itself());
        assert!(TagClass::of(b"script").is_text() && !TagClass::of(b"script").is_rawtext());
        assert!(TagClass::of(b"div").opens_element() && TagClass::of(b"div").flattens());
        assert!(!TagClass::of(b"style").flattens() && !TagClass::of(b"img").flattens());
        // Uppercase is another name: callers lowercase first.
        assert!(!TagClass::of(b"DIV").breaks_out());
    }
}
