//! JSON-LD (`<script type="application/ld+json">`) blocks: finding them, and a lenient reader
//! for what readable mode takes from them (`articleBody`, a product's `description`, and the
//! kinds of object declared). `metadata` reads its fields (headline, author, dates) with
//! `serde_json` from the same blocks.
//!
//! Why a hand-written reader beside `serde_json`: pages ship JSON-LD that strict JSON rejects
//! (raw newlines inside strings, trailing commas, a second object or a `;` after the first),
//! and readable mode reads such blocks today. On the shared corpus 20 blocks on 14 pages
//! carry an `articleBody`, description or `@type` that only this reader gets. It also reports
//! what a block declared before the point where it turns malformed. Iterative, so deep
//! nesting cannot overflow the stack.

use crate::tree::NodeRef;

/// Whether a `<script>`'s `type` attribute value marks a JSON-LD block.
pub fn is_json_ld_type(type_attr: &str) -> bool {
    type_attr.trim().eq_ignore_ascii_case("application/ld+json")
}

/// A script element's source: its text children, concatenated.
pub fn script_text(script: NodeRef<'_>) -> String {
    script
        .children()
        .filter_map(|c| c.value().as_text())
        .collect()
}

/// schema.org types of a discussion page: a forum thread or a question with its answers.
pub fn is_discussion_type(t: &str) -> bool {
    matches!(t, "DiscussionForumPosting" | "QAPage")
}

/// The longest `articleBody`, else the longest `description` of a Product-like object;
/// and whether a Product-like object was seen (even if the block is malformed later).
pub fn main_text(src: &str) -> (Option<String>, Seen) {
    let mut seen = Seen::default();
    let found = read(src, &mut seen);
    (found, seen)
}

/// Kinds of object a block declares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    pub product: bool,
    pub article: bool,
    pub discussion: bool,
}

fn read(src: &str, seen: &mut Seen) -> Option<String> {
    let mut p = Parser {
        s: src.as_bytes(),
        i: 0,
    };
    // Frames of objects being read: (is_product, description, is_object).
    let mut frames: Vec<Frame> = Vec::new();
    let mut article: Option<String> = None;
    let mut product_desc: Option<String> = None;
    let mut pending_key: Option<String> = None;
    p.ws();
    if p.i >= p.s.len() {
        return None;
    }
    // The value grammar, driven by an explicit stack.
    loop {
        p.ws();
        let b = *p.s.get(p.i)?;
        match b {
            b'{' => {
                p.i += 1;
                frames.push(Frame {
                    object: true,
                    product: false,
                    desc: None,
                    key: pending_key.take(),
                    expect_key: true,
                });
                continue;
            }
            b'[' => {
                p.i += 1;
                frames.push(Frame {
                    object: false,
                    product: false,
                    desc: None,
                    key: pending_key.take(),
                    expect_key: false,
                });
                continue;
            }
            b'}' | b']' => {
                p.i += 1;
                let f = frames.pop()?;
                if f.object && f.product {
                    if let Some(d) = f.desc {
                        if product_desc.as_ref().is_none_or(|x| d.len() > x.len()) {
                            product_desc = Some(d);
                        }
                    }
                }
                // A nested `@type` list ["Product", ...] marks the enclosing object.
                if !f.object && f.key.as_deref() == Some("@type") && f.product {
                    if let Some(parent) = frames.last_mut() {
                        parent.product = true;
                    }
                }
                if frames.is_empty() {
                    break;
                }
                p.after_value(&mut frames)?;
                continue;
            }
            _ => {}
        }
        // Keys.
        if let Some(f) = frames.last() {
            if f.object && f.expect_key {
                let k = p.string()?;
                p.ws();
                if p.s.get(p.i) != Some(&b':') {
                    return None;
                }
                p.i += 1;
                if let Some(f) = frames.last_mut() {
                    f.expect_key = false;
                }
                pending_key = Some(k);
                continue;
            }
        }
        // Scalars.
        let key = pending_key.take();
        if b == b'"' {
            let v = p.string()?;
            let in_type_list = frames
                .last()
                .is_some_and(|f| !f.object && f.key.as_deref() == Some("@type"));
            match key.as_deref() {
                // A review nested in a Product is a customer's opinion, not the
                // product's text (see `Table::drop_reviews`); a review page's own
                // `reviewBody` stands alone.
                Some("reviewBody") if frames.iter().any(|f| f.product) => {}
                Some("articleBody") | Some("reviewBody")
                    if article.as_ref().is_none_or(|a| v.len() > a.len()) =>
                {
                    article = Some(v);
                }
                Some("@type") if is_article_type(&v) => seen.article = true,
                Some("@type") if is_discussion_type(&v) => seen.discussion = true,
                None if in_type_list && is_discussion_type(&v) => seen.discussion = true,
                None if in_type_list && is_article_type(&v) => seen.article = true,
                Some("@type") if is_product_type(&v) => {
                    seen.product = true;
                    if let Some(f) = frames.last_mut() {
                        f.product = true;
                    }
                }
                Some("description") => {
                    if let Some(f) = frames.last_mut() {
                        f.desc = Some(v);
                    }
                }
                None if in_type_list && is_product_type(&v) => {
                    seen.product = true;
                    if let Some(f) = frames.last_mut() {
                        f.product = true;
                    }
                }
                _ => {}
            }
        } else {
            p.scalar()?;
        }
        if frames.is_empty() {
            break;
        }
        p.after_value(&mut frames)?;
    }
    article.or(product_desc)
}

fn is_article_type(v: &str) -> bool {
    v.ends_with("Article") || v == "BlogPosting" || v == "Report"
}

fn is_product_type(v: &str) -> bool {
    matches!(
        v,
        "Product" | "ProductGroup" | "Book" | "Course" | "SoftwareApplication" | "Vehicle"
    )
}

struct Frame {
    object: bool,
    product: bool,
    desc: Option<String>,
    key: Option<String>,
    expect_key: bool,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// After a value inside a container: a comma (then a key if in an object) or the
    /// closing bracket, which the main loop handles.
    fn after_value(&mut self, frames: &mut [Frame]) -> Option<()> {
        self.ws();
        match self.s.get(self.i)? {
            b',' => {
                self.i += 1;
                if let Some(f) = frames.last_mut() {
                    if f.object {
                        f.expect_key = true;
                    }
                }
                Some(())
            }
            b'}' | b']' => Some(()),
            _ => None,
        }
    }

    fn scalar(&mut self) -> Option<()> {
        let start = self.i;
        while self.i < self.s.len()
            && !matches!(self.s[self.i], b',' | b'}' | b']')
            && !self.s[self.i].is_ascii_whitespace()
        {
            self.i += 1;
        }
        (self.i > start).then_some(())
    }

    fn string(&mut self) -> Option<String> {
        if self.s.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let b = *self.s.get(self.i)?;
            self.i += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'n' | b'r' | b't' => out.push(b' '),
                        b'b' | b'f' => {}
                        b'u' => {
                            let cp = self.hex4()?;
                            let ch = if (0xD800..0xDC00).contains(&cp) {
                                // Surrogate pair.
                                if self.s.get(self.i) == Some(&b'\\')
                                    && self.s.get(self.i + 1) == Some(&b'u')
                                {
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    let c = 0x10000
                                        + ((cp - 0xD800) << 10)
                                        + (lo.wrapping_sub(0xDC00) & 0x3FF);
                                    char::from_u32(c)
                                } else {
                                    None
                                }
                            } else {
                                char::from_u32(cp)
                            };
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(
                                ch.unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes(),
                            );
                        }
                        other => out.push(other),
                    }
                }
                other => out.push(other),
            }
        }
        Some(String::from_utf8_lossy(&out).into_owned())
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.i..self.i + 4)?;
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_ld_kinds() {
        let (_, seen) = main_text(r#"{"@type":"NewsArticle","headline":"x"}"#);
        assert!(seen.article && !seen.product);
        let (_, seen) = main_text(r#"[{"@type":["Product"],"name":"Pack"}]"#);
        assert!(seen.product && !seen.article);
        let (_, seen) = main_text(r#"{"@type":"BlogPosting"}"#);
        assert!(seen.article);
        let (_, seen) = main_text(r#"{"@type":["QAPage"],"mainEntity":{}}"#);
        assert!(seen.discussion && !seen.article);
    }

    #[test]
    fn json_ld_reader() {
        let src = r#"[{"@type":["Thing","Product"],"offers":{"description":"no"},
            "description":"Caf\u00e9 \"quoted\" \ud83d\ude00 text"}]"#;
        assert_eq!(main_text(src).0.as_deref(), Some("Café \"quoted\" 😀 text"));
        assert_eq!(
            main_text(r#"{"articleBody":"body","description":"d"}"#)
                .0
                .as_deref(),
            Some("body")
        );
        assert_eq!(main_text("{broken").0, None);
        assert_eq!(main_text("").0, None);
        let deep = "[".repeat(100_000);
        assert_eq!(main_text(&deep).0, None);
    }
}
