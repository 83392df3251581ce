//! Pages that are the same page again: what makes two page objects read the same, so the
//! second is not read twice.
//!
//! Why: the work of a page (the page scan in `page_cost.rs`, then the parser's pass over its
//! content) is paid per page, and nothing stops many pages from naming one content stream. A
//! 15 KB file of 50 page objects, each naming one 4 MB stream of path operators (deflated to
//! a few KiB), took 5.8 s to read (26 s in the fuzzing build) for one line of text: 50 scans
//! and parses of the same content. Templates do this in real files too (blank or ruled pages
//! repeated). A page whose dictionary is the same as an earlier page's, entry for entry (its
//! `/Contents` and `/Resources` references, its boxes, its `/Parent`), draws the same glyphs
//! in the same places: it is read as that page was.
//!
//! Only what can be compared cheaply and surely is compared: a dictionary whose canonical
//! form is longer than [`MAX_KEY`] is not remembered (its pages are read as any other), and
//! pages that differ in any entry are different pages. What bounds the work of pages that
//! differ is the document's content budget in `read.rs`.

use pdf_oxide::object::Object;
use pdf_oxide::PdfDocument;

/// Canonical forms longer than this are not remembered (a page dictionary is a few hundred
/// bytes; an inline `/Resources` with many fonts a few KiB).
const MAX_KEY: usize = 16 * 1024;

/// Page `i`'s dictionary in a canonical form (keys sorted, references as `n g R`, streams
/// never expanded), or `None` when there is no page or the form is too long to keep.
pub fn page_key(doc: &PdfDocument, i: usize) -> Option<String> {
    let page = doc.get_page(i).ok()?;
    let mut out = String::new();
    canonical(&page, &mut out).then_some(out)
}

/// Append `obj`'s canonical form to `out`; `false` once `out` passes [`MAX_KEY`].
fn canonical(obj: &Object, out: &mut String) -> bool {
    use std::fmt::Write;
    if out.len() > MAX_KEY {
        return false;
    }
    match obj {
        Object::Null => out.push_str("null"),
        Object::Boolean(b) => {
            let _ = write!(out, "{b}");
        }
        Object::Integer(n) => {
            let _ = write!(out, "{n}");
        }
        Object::Real(x) => {
            // The bits, so that equal numbers and only equal numbers give equal text.
            let _ = write!(out, "r{:x}", x.to_bits());
        }
        Object::String(bytes) => {
            out.push('(');
            for b in bytes {
                let _ = write!(out, "{b:02x}");
            }
            out.push(')');
        }
        Object::Name(name) => {
            // Names may hold any character; the length keeps `/a b` apart from `/a` `/b`.
            let _ = write!(out, "/{}:{name}", name.len());
        }
        Object::Array(items) => {
            out.push('[');
            for item in items {
                if !canonical(item, out) {
                    return false;
                }
                out.push(' ');
            }
            out.push(']');
        }
        Object::Dictionary(dict) => {
            let mut keys: Vec<&String> = dict.keys().collect();
            keys.sort();
            out.push_str("<<");
            for key in keys {
                let _ = write!(out, "/{}:{key} ", key.len());
                if !dict.get(key).is_some_and(|v| canonical(v, out)) {
                    return false;
                }
                out.push(' ');
            }
            out.push_str(">>");
        }
        // An inline stream in a page dictionary is not something real files carry: such a
        // page is not remembered rather than its data compared.
        Object::Stream { .. } => return false,
        Object::Reference(r) => {
            let _ = write!(out, "{} {} R", r.id, r.gen);
        }
    }
    out.len() <= MAX_KEY
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn dict(entries: &[(&str, Object)]) -> Object {
        Object::Dictionary(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<HashMap<_, _>>(),
        )
    }

    fn key(obj: &Object) -> Option<String> {
        let mut out = String::new();
        canonical(obj, &mut out).then_some(out)
    }

    #[test]
    fn equal_dictionaries_have_one_form_whatever_their_order() {
        let a = dict(&[
            ("Type", Object::Name("Page".into())),
            ("Rotate", Object::Integer(90)),
            ("MediaBox", Object::Array(vec![Object::Real(0.5); 4])),
        ]);
        let b = dict(&[
            ("MediaBox", Object::Array(vec![Object::Real(0.5); 4])),
            ("Rotate", Object::Integer(90)),
            ("Type", Object::Name("Page".into())),
        ]);
        assert_eq!(key(&a), key(&b));
        assert!(key(&a).is_some());
    }

    #[test]
    fn any_difference_makes_another_page() {
        let base = |rotate: Object| dict(&[("Rotate", rotate), ("Type", Object::Name("P".into()))]);
        let forms = [
            key(&base(Object::Integer(90))),
            key(&base(Object::Integer(180))),
            key(&base(Object::Real(90.0))),
            key(&base(Object::Name("90".into()))),
            key(&base(Object::String(b"90".to_vec()))),
        ];
        for (i, a) in forms.iter().enumerate() {
            for b in &forms[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // Names that would run together read apart.
        let split = Object::Array(vec![Object::Name("a b".into())]);
        let two = Object::Array(vec![Object::Name("a".into()), Object::Name("b".into())]);
        assert_ne!(key(&split), key(&two));
    }

    #[test]
    fn an_oversized_dictionary_is_not_remembered() {
        let big = Object::Array(vec![Object::Integer(123_456_789); MAX_KEY / 4]);
        assert_eq!(key(&dict(&[("Big", big)])), None);
    }
}
