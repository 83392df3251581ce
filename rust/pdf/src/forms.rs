//! What a page's Form XObjects add to its cost, charged to the page before the parser reads it.
//!
//! Why: the per-page scan (`page_cost.rs`) bounds the text, tokens and rereading of
//! a page's own content stream, but a page can paint a Form XObject (`/X Do`), and pdf_oxide's
//! text extractor reads a form's content again for every transformation matrix it is painted
//! under, keeping every glyph each time. A 1.2 KB page painting one form of 20,000 `(x) Tj`
//! under 599 matrices ran the fuzzing build out of memory (2 GB; `fuzz/open` had it, built by
//! hand while hunting a CI fuzz timeout), and a text flood moved into a form painted once took
//! 3.6 s where the same flood on the page is refused at once. Here each form a page can reach
//! is scanned once (its tokens, text bytes and restart cost, by the same [`Nesting`] pass) and
//! charged once per `Do` that paints it, nested forms included, so the page's limits hold for
//! everything the parser would read for it.
//!
//! A form without `/Resources` of its own reads its painter's, as the parser does: the forms
//! it paints are found, and charged, through its painter's `/XObject` entries (they were not
//! charged at all before), and it is costed once per page or form whose resources it borrows.
//!
//! Over-counting on purpose: the extractor skips a form painted twice under the same matrix,
//! and this count does not. An encrypted document's forms are decrypted with the key the
//! parser uses (`crypt`) and charged alike.

use std::collections::HashMap;

use pdf_oxide::object::{Object, ObjectRef};
use pdf_oxide::PdfDocument;

use crate::cmaps;
use crate::crypt::Decryptor;
use crate::nesting::{Figures, Scans};

/// How deep forms painting forms are followed (pdf_oxide stops at 10).
const MAX_FORM_DEPTH: usize = 10;

/// What reading some content costs the parser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    pub tokens: u64,
    pub text_bytes: u64,
    pub restart: u64,
}

impl Cost {
    fn of(figures: Figures) -> Cost {
        Cost {
            tokens: figures.tokens as u64,
            text_bytes: figures.string_bytes as u64,
            restart: figures.restart_cost,
        }
    }

    fn add_times(&mut self, other: Cost, times: u64) {
        self.tokens = self
            .tokens
            .saturating_add(other.tokens.saturating_mul(times));
        self.text_bytes = self
            .text_bytes
            .saturating_add(other.text_bytes.saturating_mul(times));
        self.restart = self
            .restart
            .saturating_add(other.restart.saturating_mul(times));
    }
}

/// Whose `/Resources` a form's names are looked up in: its own, or, for a form without any,
/// those its painter reads (ISO 32000-1 §7.8.3, deprecated but read so by pdf_oxide: such a
/// form draws with its painter's fonts and paints its painter's forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Owner {
    Page(usize),
    Form(ObjectRef),
}

/// Forms already costed, across the pages of one document (a header form is shared by all),
/// and the document's content scans (pages and forms look their bytes up there).
#[derive(Default)]
pub struct Forms {
    /// Each form's cost under the resources its names are read in: a form without resources
    /// of its own is costed once per page or form whose resources it borrows.
    costed: HashMap<(ObjectRef, Owner), Cost>,
    /// Whether a form costed has no `/Resources` of its own.
    borrows: HashMap<ObjectRef, bool>,
    scans: Scans,
    /// The decoded content of each form costed that draws with a font `cmaps` reads (its own
    /// or one of a form it paints), and of the forms those paint, kept for `cmaps` to read
    /// them: see [`Forms::cmap_forms`].
    cmap_forms: CmapForms,
    /// Whether the page charged last paints one of `cmap_forms` that draws with such a font.
    page_paints_cmap_form: bool,
}

/// Forms whose text `cmaps` reads (see [`Forms::cmap_forms`]).
pub type CmapForms = HashMap<ObjectRef, CmapForm>;

/// A form `cmaps` writes into the page that paints it.
pub struct CmapForm {
    /// Its decoded content.
    pub data: Vec<u8>,
    /// Whether it draws with a font `cmaps` reads (itself or through a form it paints); if
    /// not, it is only painted by one that does.
    pub draws: bool,
}

impl Forms {
    /// Forms costed from `scans`, the file pre-pass's scans of the document's streams.
    pub fn new(scans: Scans) -> Forms {
        Forms {
            scans,
            ..Forms::default()
        }
    }

    /// The forms costed so far that draw with a Type0 font of a predefined CMap `cmaps`
    /// reads, themselves or through a form they paint (and the forms those paint, ten levels
    /// deep), when the page charged last paints one of them (`None` otherwise): their content,
    /// decoded (and decrypted) by this walk, so that `cmaps` reads them within the same caps
    /// and never walks forms again.
    pub fn cmap_forms(&self) -> Option<&CmapForms> {
        self.page_paints_cmap_form.then_some(&self.cmap_forms)
    }

    /// The figures of content `data` (a page's), scanned once per document.
    pub fn scan(&mut self, data: &[u8]) -> Figures {
        self.scans.content(data)
    }

    /// The decoded bytes the file pre-pass kept of a Flate stream whose body is `raw`
    /// (`Scans::flate`).
    pub fn flate(&self, raw: &[u8]) -> Option<&[u8]> {
        self.scans.flate(raw)
    }

    /// What the forms page `i` paints (`content`: its decoded content, as the page scan read
    /// it) add to the page's own cost; `crypt` decrypts an encrypted document's forms.
    pub fn charge(
        &mut self,
        doc: &PdfDocument,
        crypt: Option<&Decryptor>,
        i: usize,
        content: &[u8],
    ) -> Cost {
        self.page_paints_cmap_form = false;
        let Ok(page) = doc.get_page(i) else {
            return Cost::default();
        };
        let resources = page.as_dict().and_then(|d| d.get("Resources")).cloned();
        let owner = Owner::Page(i);
        let (cost, cmap) = self.painted(doc, crypt, resources.as_ref(), owner, content, 0);
        self.page_paints_cmap_form = cmap;
        cost
    }

    /// The cost of the forms `content` paints through `resources`' `/XObject` entries (the
    /// resources of `owner`), and whether one of them is in `cmap_forms`.
    fn painted(
        &mut self,
        doc: &PdfDocument,
        crypt: Option<&Decryptor>,
        resources: Option<&Object>,
        owner: Owner,
        content: &[u8],
        depth: usize,
    ) -> (Cost, bool) {
        let mut total = Cost::default();
        let mut cmap = false;
        if depth >= MAX_FORM_DEPTH {
            return (total, cmap);
        }
        // Most content paints no form: one fast search spares the operator pass.
        if memchr::memmem::find(content, b"Do").is_none() {
            return (total, cmap);
        }
        let calls = do_calls(content);
        if calls.is_empty() {
            return (total, cmap);
        }
        let Some(xobjects) = xobject_refs(doc, resources) else {
            return (total, cmap);
        };
        for (name, times) in calls {
            let Some(&form) = xobjects.get(name.as_slice()) else {
                continue;
            };
            let cost = self.form_cost(doc, crypt, form, (resources, owner), depth);
            total.add_times(cost, times);
            cmap |= self.cmap_forms.get(&form).is_some_and(|f| f.draws);
        }
        (total, cmap)
    }

    /// One form's own cost plus that of the forms it paints (memoised; a form reached again
    /// while it is being costed, a loop, counts as empty). `painter`: the resources of the
    /// page or form painting it, and whose they are, which a form without its own reads.
    fn form_cost(
        &mut self,
        doc: &PdfDocument,
        crypt: Option<&Decryptor>,
        form: ObjectRef,
        painter: (Option<&Object>, Owner),
        depth: usize,
    ) -> Cost {
        let key = |borrows: bool| {
            (
                form,
                if borrows {
                    painter.1
                } else {
                    Owner::Form(form)
                },
            )
        };
        if let Some(&borrows) = self.borrows.get(&form) {
            if let Some(&cost) = self.costed.get(&key(borrows)) {
                return cost;
            }
        }
        let Some((own, data)) = form_content(doc, crypt, form) else {
            self.borrows.insert(form, false);
            self.costed.insert(key(false), Cost::default());
            return Cost::default();
        };
        let borrows = own.is_none();
        self.borrows.insert(form, borrows);
        self.costed.insert(key(borrows), Cost::default());
        let (resources, owner) = match own {
            Some(own) => (Some(own), Owner::Form(form)),
            None => (painter.0.cloned(), painter.1),
        };
        let mut cost = Cost::of(self.scans.content(&data));
        let (inner, inner_cmap) =
            self.painted(doc, crypt, resources.as_ref(), owner, &data, depth + 1);
        cost.add_times(inner, 1);
        self.costed.insert(key(borrows), cost);
        if inner_cmap
            || resources
                .as_ref()
                .is_some_and(|r| draws_with(&cmaps::candidates(doc, r), &data, borrows))
        {
            // `cmaps` writes this form into the page, and with it the forms it paints.
            self.keep_painted(doc, crypt, resources.as_ref(), &data, depth + 1);
            self.cmap_forms.insert(form, CmapForm { data, draws: true });
        }
        cost
    }

    /// Keep in `cmap_forms` the forms `content` paints through `resources` (within the depth
    /// the costing follows), and theirs: each decoded once per document, as the costing did.
    fn keep_painted(
        &mut self,
        doc: &PdfDocument,
        crypt: Option<&Decryptor>,
        resources: Option<&Object>,
        content: &[u8],
        depth: usize,
    ) {
        if depth >= MAX_FORM_DEPTH || memchr::memmem::find(content, b"Do").is_none() {
            return;
        }
        let Some(xobjects) = xobject_refs(doc, resources) else {
            return;
        };
        for name in do_calls(content).into_keys() {
            let Some(&form) = xobjects.get(name.as_slice()) else {
                continue;
            };
            if self.cmap_forms.contains_key(&form) {
                continue;
            }
            let Some((own, data)) = form_content(doc, crypt, form) else {
                continue;
            };
            // A form without resources of its own paints its painter's forms.
            let inner = own.or_else(|| resources.cloned());
            // Marked before its own forms are followed: a loop ends here.
            let kept = CmapForm {
                data: Vec::new(),
                draws: false,
            };
            self.cmap_forms.insert(form, kept);
            self.keep_painted(doc, crypt, inner.as_ref(), &data, depth + 1);
            self.cmap_forms
                .insert(form, CmapForm { data, draws: false });
        }
    }
}

/// Whether a form whose names are read in resources holding `candidates` (the fonts `cmaps`
/// reads) draws with one of them: any such font of its own resources counts, a font it
/// `borrowed` from its painter only when its content names it (a form without resources
/// painted on a page that has such fonts need not draw with them, and is then left to the
/// parser).
fn draws_with<T>(candidates: &[(String, T)], data: &[u8], borrowed: bool) -> bool {
    !candidates.is_empty()
        && (!borrowed
            || candidates.iter().any(|(name, _)| {
                let name = format!("/{name}");
                memchr::memmem::find_iter(data, name.as_bytes()).any(|at| {
                    data.get(at + name.len())
                        .is_none_or(|&b| b.is_ascii_whitespace() || b"/[]<>()%".contains(&b))
                })
            }))
}

/// Form `form`'s `/Resources` and decoded content (`None` when it is no form or cannot be
/// decoded).
fn form_content(
    doc: &PdfDocument,
    crypt: Option<&Decryptor>,
    form: ObjectRef,
) -> Option<(Option<Object>, Vec<u8>)> {
    let object = doc.load_object(form).ok()?;
    let dict = object.as_dict()?;
    if dict.get("Subtype").and_then(Object::as_name) != Some("Form") {
        return None;
    }
    let resources = dict.get("Resources").cloned();
    // The parser decrypts every stream of an encrypted document but object and
    // cross-reference streams (which a form is not).
    let data = match crypt {
        Some(c) => c.decode(&object, form),
        None => object.decode_stream_data().ok(),
    }?;
    Some((resources, data))
}

/// `resources`' `/XObject` dictionary as name → reference (`None` without one).
pub(crate) fn xobject_refs(
    doc: &PdfDocument,
    resources: Option<&Object>,
) -> Option<HashMap<Vec<u8>, ObjectRef>> {
    let resources = doc.resolve_object(resources?).ok()?;
    let entry = resources.as_dict()?.get("XObject")?;
    let xobjects = doc.resolve_object(entry).ok()?;
    Some(
        xobjects
            .as_dict()?
            .iter()
            .filter_map(|(name, v)| Some((name.as_bytes().to_vec(), v.as_reference()?)))
            .collect(),
    )
}

/// How many times each name is painted by a `Do` in `content` (the name operand right before
/// the operator). One pass; strings, hex strings and comments are skipped so their bytes are
/// not read as operators.
pub fn do_calls(content: &[u8]) -> HashMap<Vec<u8>, u64> {
    let mut calls: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut last_name: Option<&[u8]> = None;
    let mut i = 0;
    while i < content.len() {
        let c = content[i];
        match c {
            b'(' => {
                // A literal string: balanced parentheses, backslash escapes.
                let mut depth = 0usize;
                while i < content.len() {
                    match content[i] {
                        b'\\' => i += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
                last_name = None;
            }
            b'%' => {
                while i < content.len() && !matches!(content[i], b'\n' | b'\r') {
                    i += 1;
                }
            }
            b'<' if content.get(i + 1) != Some(&b'<') => {
                while i < content.len() && content[i] != b'>' {
                    i += 1;
                }
                i += 1;
                last_name = None;
            }
            b'/' => {
                let start = i + 1;
                i = start;
                while i < content.len() && is_regular(content[i]) {
                    i += 1;
                }
                last_name = Some(&content[start..i]);
            }
            _ if is_regular(c) => {
                let start = i;
                while i < content.len() && is_regular(content[i]) {
                    i += 1;
                }
                if &content[start..i] == b"Do" {
                    if let Some(name) = last_name {
                        *calls.entry(name.to_vec()).or_insert(0) += 1;
                    }
                }
                last_name = None;
            }
            _ => {
                // Whitespace keeps the last operand; other delimiters end it.
                if !matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | 0) {
                    last_name = None;
                }
                i += 1;
            }
        }
    }
    calls
}

/// Regular characters (PDF 7.2.3): not whitespace and not a delimiter (also read by
/// `cmaps.rs`'s content pass).
pub(crate) fn is_regular(c: u8) -> bool {
    !matches!(
        c,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'\x0c'
            | 0
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'/'
            | b'%'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn do_calls_count_each_painted_name() {
        let calls = do_calls(b"q 1 0 0 1 5 0 cm /X Do Q /Y Do\n/X  Do /Z cs (/X Do) Tj % /X Do\n");
        assert_eq!(calls.get(b"X".as_slice()), Some(&2));
        assert_eq!(calls.get(b"Y".as_slice()), Some(&1));
        assert_eq!(calls.get(b"Z".as_slice()), None);
        // A hex string or nested string between name and operator breaks the pair.
        let calls = do_calls(b"/X <00ff> Do /X (a(b)c) Do");
        assert!(calls.is_empty(), "{calls:?}");
    }
}
