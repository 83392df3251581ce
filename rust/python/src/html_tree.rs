//! `html_tree`: a page's element tree for the result-page parsers in `webgrip.search._html`,
//! from the same parse every other view reads (webgrip-html's arena DOM, which keeps the
//! attributes those parsers select on: `div.result`, `a.result__a`, `form#challenge-form`).
//!
//! Why flat lists and not one Python object per node: a result page has thousands of
//! elements and the parsers read a few dozen of them; the Python side wraps an index only
//! when it is reached. The parse and the walk run without the GIL.

use std::panic::catch_unwind;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use webgrip_html::{parse_unstripped, Dom, Kind, Ns};

/// Text under these elements is not page text (scripts, styles, and with scripting off the
/// fallback a browser with scripts never shows).
const NOT_TEXT: &[&str] = &["script", "style", "noscript"];

/// The tree as lists indexed by element (preorder, 0 the document), see [`html_tree`].
#[derive(Default)]
struct Flat {
    tags: Vec<String>,
    attrs: Vec<Vec<(String, String)>>,
    parents: Vec<u32>,
    ends: Vec<u32>,
    text_starts: Vec<u32>,
    text_ends: Vec<u32>,
    pieces: Vec<String>,
}

fn index(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Whether element `id` (named `name`) is one of the wrappers the parse puts around every
/// page: the document's `<html>`, and its `<head>` and `<body>`.
fn is_wrapper(dom: &Dom, id: u32, name: &str) -> bool {
    if !dom.is_html(id, name) {
        return false;
    }
    match dom.parent(id) {
        Some(0) => name == "html",
        Some(html) => {
            (name == "head" || name == "body")
                && dom.parent(html) == Some(0)
                && dom.is_html(html, "html")
        }
        None => false,
    }
}

/// One iterative preorder walk of the arena (no recursion: the tree is as deep as the
/// parse's caps allow). Template contents are inert in a browser and left out, and so are
/// the `<html>`, `<head>` and `<body>` wrappers (their children are the document's): every
/// page has them, no result parser reads them, and the tree then has the page's own
/// nesting, which its depth cap counts.
fn flatten(dom: &Dom) -> Flat {
    let mut flat = Flat::default();
    // (arena id, element index, whether a wrapper left out: its element is its parent's)
    let mut open: Vec<(u32, usize, bool)> = Vec::new();
    let mut hidden = 0usize; // open elements whose text is not page text
    let push = |flat: &mut Flat, tag: String, attrs, parent: u32| {
        flat.tags.push(tag);
        flat.attrs.push(attrs);
        flat.parents.push(parent);
        flat.ends.push(0);
        flat.text_starts.push(index(flat.pieces.len()));
        flat.text_ends.push(0);
        flat.tags.len() - 1
    };
    push(&mut flat, "#document".into(), Vec::new(), u32::MAX);
    open.push((0, 0, false));
    let mut next = dom.first_child(0);
    loop {
        if let Some(id) = next {
            match dom.kind(id) {
                Kind::Element => {
                    let name = dom.element_name(id).map_or("", |(_, n)| n);
                    let parent = open.last().map_or(0, |&(_, e, _)| e);
                    if is_wrapper(dom, id, name) {
                        if let Some(child) = dom.first_child(id) {
                            open.push((id, parent, true));
                            next = Some(child);
                            continue;
                        }
                        next = dom.next_sibling(id);
                        continue;
                    }
                    let attrs = dom
                        .attrs(id)
                        .iter()
                        .map(|a| (dom.attr_name(a).to_owned(), dom.attr_value(a).to_owned()))
                        .collect();
                    let e = push(&mut flat, name.to_owned(), attrs, index(parent));
                    if let Some(child) = dom.first_child(id) {
                        if dom.is_html(id, name) && NOT_TEXT.contains(&name) {
                            hidden += 1;
                        }
                        open.push((id, e, false));
                        next = Some(child);
                        continue;
                    }
                    flat.ends[e] = index(flat.tags.len());
                    flat.text_ends[e] = index(flat.pieces.len());
                }
                Kind::Text if hidden == 0 => {
                    let text = dom.text(id);
                    if !text.is_empty() {
                        flat.pieces.push(text.to_owned());
                    }
                }
                _ => {}
            }
            next = dom.next_sibling(id);
            continue;
        }
        // The last child of the innermost open element is done: close it.
        let Some((id, e, wrapper)) = open.pop() else {
            break;
        };
        if !wrapper {
            flat.ends[e] = index(flat.tags.len());
            flat.text_ends[e] = index(flat.pieces.len());
            if e == 0 {
                break;
            }
        }
        if matches!(dom.element_name(id), Some((Ns::Html, n)) if NOT_TEXT.contains(&n)) {
            hidden -= 1;
        }
        next = dom.next_sibling(id);
    }
    flat
}

/// The element tree of an HTML page or fragment, parsed as a browser parses it (the
/// HTML5 tree builder under the caps that keep it linear), as flat lists indexed by element
/// in document order, element 0 being the document (tag `"#document"`):
/// `(tags, attrs, parents, ends, text_starts, text_ends, pieces)`. `attrs[i]` is a dict or
/// `None`; `parents[0]` is -1; the elements below `i` are `i + 1 .. ends[i]`; `pieces` is the
/// page's text in document order (not that of scripts, styles and noscript), and the text
/// of element `i` is `pieces[text_starts[i]:text_ends[i]]`. Bytes are read as UTF-8 (invalid
/// sequences replaced). A panic in the parse (a bug) answers an empty document.
#[pyfunction]
pub fn html_tree<'py>(py: Python<'py>, html: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let run = |text: &str| {
        catch_unwind(|| flatten(&parse_unstripped(text).tree))
            .unwrap_or_else(|_| flatten(&Dom::new()))
    };
    let flat = if let Ok(s) = html.cast::<PyString>() {
        let text = s.to_cow()?;
        py.detach(|| run(&text))
    } else if let Ok(b) = html.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        py.detach(|| run(&String::from_utf8_lossy(bytes)))
    } else {
        return Err(PyTypeError::new_err("html must be str or bytes"));
    };
    // Tag names repeat: one Python string per name.
    let mut names: std::collections::HashMap<&str, Bound<'py, PyString>> = Default::default();
    let tags = PyList::empty(py);
    for tag in &flat.tags {
        let s = names
            .entry(tag.as_str())
            .or_insert_with(|| PyString::intern(py, tag));
        tags.append(s.clone())?;
    }
    let attrs = PyList::empty(py);
    for list in &flat.attrs {
        if list.is_empty() {
            attrs.append(py.None())?;
        } else {
            let dict = PyDict::new(py);
            for (name, value) in list {
                dict.set_item(name, value)?;
            }
            attrs.append(dict)?;
        }
    }
    let parents: Vec<i64> = flat
        .parents
        .iter()
        .map(|&p| if p == u32::MAX { -1 } else { i64::from(p) })
        .collect();
    (
        tags,
        attrs,
        parents,
        flat.ends,
        flat.text_starts,
        flat.text_ends,
        flat.pieces,
    )
        .into_pyobject(py)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(html_tree, m)?)
}
