//! CID fonts whose `/Encoding` is one of Adobe's predefined non-Identity CMaps (`90ms-RKSJ-H`,
//! `EUC-H`, `GBK-EUC-H`, `B5pc-H`, `KSC-EUC-H`, `UniJIS-UTF16-H`, …), with or without a
//! `/ToUnicode`.
//!
//! Where pdf_oxide 0.3.78 loses them: its text path cuts a string into character codes by a
//! fixed rule per CMap name (`unicode_decode::get_byte_mode`): every legacy multi-byte CMap but
//! Shift_JIS is read two bytes at a time. Their code spaces mix one-byte codes (ASCII,
//! `<00>`–`<80>`) with two-byte ones, so after an odd run of ASCII every following code is cut
//! in the wrong place (`Taipei 臺北市` came out `Taipei傂侥徥`, `東京都 ひらがな` under `EUC-H`
//! as `東京都㌪劼蕕겤`); a UTF-16 surrogate pair is read as two codes (`?`); the two-byte GL
//! forms `GB-H` and `KSC-H` are decoded as GBK bytes (ASCII pairs). Its per-code decoding
//! (`FontInfo::char_to_unicode`) is right once the codes are right, but the cut is not a hook
//! it offers, and webgrip only sees the glyphs it makes (`TextChar`, no code bytes).
//!
//! So the page is read here with pdf_oxide's own public pieces (`TextExtractor`, the page's
//! fonts as it loads them) and two changes, only on a page that draws with such a font:
//! - its content is rewritten once, in one linear pass ([`Rewriter`]): each string such a
//!   font shows is cut by the CMap's own code space ([`Scheme::code_len`]) and each code
//!   replaced by a two-byte number standing for it; its `Tf` is renamed;
//! - under the new name goes a copy of the font with a `/ToUnicode` made from those codes:
//!   number → the code's Unicode ([`Scheme::decode`]), and each number keeps the width the
//!   parser gave the code (so the glyphs stand where they stood).
//!
//! The Unicode needs no CMap data in the wheel for most maps: under `Uni*-UCS2-*`/`Uni*-UTF16-*` the code is
//! UTF-16 itself (`-UTF32-` UTF-32), and the legacy CMaps are keyed by their national encoding's
//! bytes, so `encoding_rs` (WHATWG's tables, already in the build through pdf_oxide) decodes
//! them: Shift_JIS for `RKSJ`, EUC-JP, GBK / GB18030, Big5 (with HKSCS), and Windows-949 (a
//! superset of EUC-KR) for `KSC`/`UHC`; the GL forms (`H`, `GB-H`, `KSC-H`) are their EUC
//! bytes less the high bits. What data would add is the code's CID, which decides its width
//! through the font's `/W`: the widths stay what pdf_oxide used before (the code read as a CID),
//! so ASCII in such a font can still stand wider than drawn. The maps no national encoding
//! covers — `CNS1-H`/`CNS2-H`/`CNS-EUC-H` (CNS 11643, which encoding_rs has no table for),
//! `GBT-*` (traditional forms at GB 2312 positions) and the one-byte `Hiragana` and `Katakana`
//! (Adobe's own layouts) — are read through Adobe's data ([`crate::adobe_cmaps`], generated
//! tables), which give the code's CID too, so their glyphs take their `/W` widths, and so is
//! `WP-Symbol` (WordPerfect's symbols in Adobe's own one-byte layout: ☎, ⒈, ⅰ, `sec`; its
//! text comes from a table of its own). `Hankaku` and `Roman` are JIS X 0201 and read.
//!
//! A font with a `/ToUnicode` is cut the same way: pdf_oxide cut its codes by the map's widest
//! code (two bytes for a Shift_JIS map), so after an odd run of ASCII every code was read
//! astray; each code's text is the font's own map's where it has the code (as the parser
//! reads it), else the CMap's (none seen in the corpora).
//!
//! Forms: the parser reads a Form XObject's content from the document, so a font of a form's
//! resources cannot be renamed there. The forms walk that charges a page for its forms
//! (`forms.rs`) keeps the decoded content of each form that draws with such a font (itself or
//! through forms it paints, ten levels deep) and of the forms it paints; the page's pass writes
//! those forms in place of their `Do` (`q <matrix> cm … Q`), each font of a form renamed to
//! that font as the parser loaded it from the form's resources ([`Rewriter`]). A form without
//! `/Resources` of its own draws with its painter's fonts and paints its painter's forms, as
//! the parser reads it: it is written in when it names such a font of its painter's (or
//! paints a form that draws with one). A form with no such font anywhere below it is left
//! to the parser as before.
//!
//! Cost: one pass over the page's content (already bounded by the page scan in `page_cost.rs`), a
//! table of the distinct codes drawn, and no second parse of the file. Forms written in were
//! charged to the page once per painting, their tokens and text, by `forms.rs`; the bytes they
//! add are capped (16 MiB a page), the page's content with them written in is scanned again
//! and held to a page's caps (past either, the page is read without them), no form is written
//! into itself, and none deeper than the walk followed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pdf_oxide::extractors::TextExtractor;
use pdf_oxide::fonts::{CMap, Encoding, FontInfo, LazyCMap};
use pdf_oxide::layout::TextChar;
use pdf_oxide::object::{Object, ObjectRef};
use pdf_oxide::PdfDocument;

use crate::adobe_cmaps::Map;
use crate::forms::{is_regular, CmapForms};
use crate::glyphs::glyph_layer;

/// How a predefined CMap's character codes are cut and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// `Uni*-UCS2-*`, `Uni*-UTF16-*`: UTF-16BE, two bytes or a surrogate pair.
    Utf16,
    /// `Uni*-UTF32-*`: UTF-32BE.
    Utf32,
    /// `*-RKSJ-*`: Shift_JIS (lead bytes 81–9F, E0–FC take a second byte).
    ShiftJis,
    /// `EUC-*`, `78-EUC-*`: EUC-JP (8E + one byte, 8F + two, A1–FE + one).
    EucJp,
    /// `GB-EUC-*`, `GBpc-EUC-*`, `GBK-EUC-*`, `GBKp-EUC-*`: GBK (81–FE + one byte).
    Gbk,
    /// `GBK2K-*`: GB 18030 (two or four bytes after a lead byte).
    Gb18030,
    /// `B5pc-*`, `ETen-B5-*`, `HKscs-B5-*`, …: Big5 with HKSCS (81–FE + one byte).
    Big5,
    /// `KSC-EUC-*`, `KSCpc-EUC-*`, `KSCms-UHC-*`: Windows-949 (81–FE + one byte).
    Uhc,
    /// `H`, `V`, `78-H`, `Add-H`, `Ext-H`, `NWP-H`: JIS X 0208 rows in GL (two bytes 21–7E).
    JisGl,
    /// `GB-H`: GB 2312 in GL.
    GbGl,
    /// `KSC-H`: KS X 1001 in GL.
    KscGl,
    /// `Hankaku`, `Roman`: Adobe-Japan1's one-byte CMaps, JIS X 0201 (roman 20–7E, half-width
    /// katakana A1–DF), which are Shift_JIS's one-byte codes.
    JisOneByte,
    /// `CNS1-H`, `CNS2-H`, `CNS-EUC-H`, the `GBT-*` maps, `Hiragana`, `Katakana`,
    /// `WP-Symbol`: Adobe's tables ([`crate::adobe_cmaps`]), which also give each code its CID.
    Adobe(Map),
}

impl Scheme {
    /// The scheme of a predefined CMap name, `None` for Identity, the UTF-8 maps (pdf_oxide
    /// cuts those itself) and what is not handled (see the module notes).
    pub fn of(cmap: &str) -> Option<Scheme> {
        // The one-byte CMaps carry no writing-mode suffix. `Hiragana` and `Katakana` put kana
        // at positions of Adobe's own, which no national encoding shares: Adobe's tables.
        if matches!(cmap, "Hankaku" | "Roman") {
            return Some(Scheme::JisOneByte);
        }
        if let Some(map) = Map::of(cmap) {
            return Some(Scheme::Adobe(map));
        }
        let base = cmap
            .strip_suffix("-H")
            .or_else(|| cmap.strip_suffix("-V"))
            .or(match cmap {
                "H" | "V" => Some(""),
                _ => None,
            })?;
        if let Some(rest) = base.strip_prefix("Uni") {
            return if rest.contains("-UCS2") || rest.contains("-UTF16") {
                Some(Scheme::Utf16)
            } else if rest.contains("-UTF32") {
                Some(Scheme::Utf32)
            } else {
                None
            };
        }
        if base.ends_with("-RKSJ") {
            return Some(Scheme::ShiftJis);
        }
        Some(match base {
            "" | "78" | "Add" | "Ext" | "NWP" => Scheme::JisGl,
            "EUC" | "78-EUC" => Scheme::EucJp,
            "GB-EUC" | "GBpc-EUC" | "GBK-EUC" | "GBKp-EUC" => Scheme::Gbk,
            "GBK2K" => Scheme::Gb18030,
            "GB" => Scheme::GbGl,
            "B5" | "B5pc" | "ETen-B5" | "ETenms-B5" | "HKscs-B5" | "HKdla-B5" | "HKdlb-B5"
            | "HKgccs-B5" | "HKm314-B5" | "HKm471-B5" => Scheme::Big5,
            "KSC-EUC" | "KSCpc-EUC" | "KSCms-UHC" | "KSCms-UHC-HW" => Scheme::Uhc,
            "KSC" => Scheme::KscGl,
            _ => return None,
        })
    }

    /// How many bytes the code at the start of `bytes` takes (1 ..= `bytes.len()`; 0 only for
    /// no bytes), by the CMap's code space: a lead byte and what may follow it.
    pub fn code_len(self, bytes: &[u8]) -> usize {
        let Some(&b) = bytes.first() else {
            return 0;
        };
        let want = match self {
            Scheme::Utf16 => match bytes {
                [0xD8..=0xDB, _, 0xDC..=0xDF, _, ..] => 4,
                _ => 2,
            },
            Scheme::Utf32 => 4,
            Scheme::ShiftJis => match b {
                0x81..=0x9F | 0xE0..=0xFC => 2,
                _ => 1,
            },
            Scheme::EucJp => match b {
                0x8F => 3,
                0x8E | 0xA1..=0xFE => 2,
                _ => 1,
            },
            Scheme::Gbk | Scheme::Big5 | Scheme::Uhc => match b {
                0x81..=0xFE => 2,
                _ => 1,
            },
            Scheme::Gb18030 => match bytes {
                [0x81..=0xFE, 0x30..=0x39, ..] => 4,
                [0x81..=0xFE, ..] => 2,
                _ => 1,
            },
            Scheme::JisGl | Scheme::GbGl | Scheme::KscGl => 2,
            Scheme::JisOneByte => 1,
            Scheme::Adobe(map) => map.code_len(b),
        };
        want.min(bytes.len())
    }

    /// The Unicode of one whole code (`code_len` bytes), `None` when the code means nothing
    /// in its encoding (a truncated code, an unassigned position, a lone surrogate).
    pub fn decode(self, code: &[u8]) -> Option<String> {
        let legacy = |enc: &'static encoding_rs::Encoding, bytes: &[u8]| {
            enc.decode_without_bom_handling_and_without_replacement(bytes)
                .map(|s| s.into_owned())
                .filter(|s| !s.is_empty())
        };
        let gl = |enc: &'static encoding_rs::Encoding| match code {
            [a @ 0x21..=0x7E, b @ 0x21..=0x7E] => legacy(enc, &[a | 0x80, b | 0x80]),
            _ => None,
        };
        match self {
            Scheme::Utf16 => {
                if !code.len().is_multiple_of(2) {
                    return None;
                }
                let units = code
                    .chunks_exact(2)
                    .map(|u| u16::from_be_bytes([u[0], u[1]]));
                char::decode_utf16(units)
                    .collect::<Result<String, _>>()
                    .ok()
            }
            Scheme::Utf32 => {
                let bytes: [u8; 4] = code.try_into().ok()?;
                char::from_u32(u32::from_be_bytes(bytes)).map(String::from)
            }
            Scheme::ShiftJis => legacy(encoding_rs::SHIFT_JIS, code),
            Scheme::EucJp => legacy(encoding_rs::EUC_JP, code),
            Scheme::Gbk => legacy(encoding_rs::GBK, code),
            Scheme::Gb18030 => legacy(encoding_rs::GB18030, code),
            Scheme::Big5 => legacy(encoding_rs::BIG5, code),
            Scheme::Uhc => legacy(encoding_rs::EUC_KR, code),
            Scheme::JisGl => gl(encoding_rs::EUC_JP),
            Scheme::GbGl => gl(encoding_rs::GBK),
            Scheme::KscGl => gl(encoding_rs::EUC_KR),
            Scheme::JisOneByte => match code {
                [0x20..=0x7E | 0xA1..=0xDF] => legacy(encoding_rs::SHIFT_JIS, code),
                _ => None,
            },
            Scheme::Adobe(map) => map.text(code).map(String::from),
        }
    }

    /// The CID whose width the glyph of `code` takes: Adobe's tables' CID where this module
    /// has them, else the code read as a CID, as pdf_oxide read it (`None` past two bytes).
    fn width_cid(self, code: &[u8]) -> Option<u16> {
        if let Scheme::Adobe(map) = self {
            return map.cid(code);
        }
        match *code {
            [a] => Some(u16::from(a)),
            [a, b] => Some(u16::from_be_bytes([a, b])),
            _ => None,
        }
    }
}

/// The name a rewritten font is drawn under: not a name a producer writes.
fn renamed(i: usize) -> String {
    format!("webgrip.cmap.{i}")
}

/// The codes one font draws on the page, in the order first seen; the number standing for
/// code `k` of the list is `k + 1` (two bytes, so at most 65,535 distinct codes: past that a
/// code stands for the last number, U+FFFD).
#[derive(Default, Debug)]
pub struct Codes {
    index: HashMap<Vec<u8>, u16>,
    pub list: Vec<Vec<u8>>,
}

const MAX_CODES: usize = 0xFFFE;

impl Codes {
    fn number(&mut self, code: &[u8]) -> u16 {
        if let Some(&n) = self.index.get(code) {
            return n;
        }
        if self.list.len() >= MAX_CODES {
            return 0xFFFF;
        }
        self.list.push(code.to_vec());
        let n = self.list.len() as u16;
        self.index.insert(code.to_vec(), n);
        n
    }
}

/// `content` with every string that a font of `fonts` (resource name → scheme) shows replaced
/// by a hex string of two-byte numbers ([`Codes`]) and that font's `Tf` renamed to
/// [`renamed`]`(i)`, `i` its place in `fonts`; `None` when nothing was drawn with them. One
/// pass: tokens are read as pdf_oxide's content lexer reads them (literal strings with nesting
/// and escapes, hex strings, names with `#xx`, comments, inline image data skipped to `EI`);
/// the font in use follows `Tf` and is saved and restored by `q`/`Q` (up to 4,096 levels,
/// deeper saves keep the font they find). The page's pass ([`page_chars`]) is this one with
/// the forms it paints written in ([`Rewriter`]); this entry point is the pass alone.
#[cfg(test)]
pub fn transcode(content: &[u8], fonts: &[(String, Scheme)]) -> Option<(Vec<u8>, Vec<Codes>)> {
    let (drawn, names) = page_fonts(fonts.iter().map(|(name, scheme)| (name, *scheme, None)));
    let mut rewriter = Rewriter {
        drawn,
        ..Rewriter::default()
    };
    let scope = Scope {
        fonts: names,
        xobjects: HashMap::new(),
    };
    let mut out = Vec::with_capacity(content.len() + content.len() / 2);
    rewriter.rewrite(content, &scope, &mut out, 0).ok()?;
    rewriter
        .drew
        .then(|| (out, rewriter.drawn.into_iter().map(|d| d.codes).collect()))
}

/// A font the rewritten content draws under [`renamed`]`(k)`, `k` its place in
/// [`Rewriter::drawn`]: one of the fonts this module reads (`scheme`), or any other font of a
/// form whose content is written into the page's (only renamed, as the form's resources are
/// not the page's).
struct Drawn {
    /// The font as the parser loaded it (`None` in `transcode`'s tests).
    font: Option<Arc<FontInfo>>,
    scheme: Option<Scheme>,
    codes: Codes,
}

/// The page's own fonts this module reads, as [`Rewriter::drawn`] and the names that stand
/// for them in [`Scope::fonts`].
fn page_fonts<'a>(
    fonts: impl Iterator<Item = (&'a String, Scheme, Option<Arc<FontInfo>>)>,
) -> (Vec<Drawn>, HashMap<Vec<u8>, usize>) {
    let mut drawn = Vec::new();
    let mut names = HashMap::new();
    for (k, (name, scheme, font)) in fonts.enumerate() {
        drawn.push(Drawn {
            font,
            scheme: Some(scheme),
            codes: Codes::default(),
        });
        names.insert(name.as_bytes().to_vec(), k);
    }
    (drawn, names)
}

/// What the names of one content stream (the page's or a form's) stand for.
#[derive(Default)]
struct Scope {
    /// Font resource name → its place in [`Rewriter::drawn`].
    fonts: HashMap<Vec<u8>, usize>,
    /// XObject resource name → the object (only for a form's content, see [`Rewriter`]).
    xobjects: HashMap<Vec<u8>, ObjectRef>,
}

/// How many bytes of content the forms written into one page may add, all paintings together
/// (the forms' tokens and text are charged per painting already, `forms.rs`; this bounds the
/// bytes between them, white space and comments, which no cap counts).
const MAX_INLINED_BYTES: usize = 16 << 20;

/// How deep forms are written into forms (as `forms.rs` follows them).
const MAX_INLINE_DEPTH: usize = 10;

/// Content was past [`MAX_INLINED_BYTES`].
struct TooLong;

/// Rewrites content (the pass `transcode` describes) and, for a page, writes the forms of
/// `forms` that it paints into it in place of their `Do`, as `q <form matrix> cm <the form's
/// rewritten content> Q`: the parser reads a form's content from the document as it stands,
/// so the fonts of the module notes drawn inside it could not be renamed. Inside a written
/// form every font of its resources is renamed (to that font as the parser loads it), and
/// the forms it paints are written in too (`forms` holds them, `Forms::cmap_forms`), so
/// names resolve as they did in the form. What is lost: a form's `/BBox` clip, and the
/// parser's skipping of a form painted twice under one matrix (its text is then read twice,
/// as pdftotext reads it); what is not written in (an image, a form past ten levels or
/// painting itself) draws no text.
#[derive(Default)]
struct Rewriter<'a> {
    doc: Option<&'a PdfDocument>,
    forms: Option<&'a CmapForms>,
    drawn: Vec<Drawn>,
    /// Each form's scope, built once per page.
    scopes: HashMap<ObjectRef, Arc<Scope>>,
    /// Forms being written (a form painting itself is left to the parser).
    open: Vec<ObjectRef>,
    written: usize,
    drew: bool,
}

impl Rewriter<'_> {
    /// Write `content` rewritten under `scope` to `out`.
    fn rewrite(
        &mut self,
        content: &[u8],
        scope: &Scope,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), TooLong> {
        // Copied up to here; edits come in order.
        let mut at = 0usize;
        let mut font: Option<usize> = None;
        let mut saved: Vec<Option<usize>> = Vec::new();
        let mut depth_past_cap = 0usize;
        // Operands since the last operator: the strings (span, bytes) and the first name.
        let mut strings: Vec<(usize, usize, Vec<u8>)> = Vec::new();
        let mut first_name: Option<(usize, usize, Vec<u8>)> = None;
        let n = content.len();
        let mut i = 0;
        while i < n {
            let c = content[i];
            match c {
                b'%' => {
                    while i < n && !matches!(content[i], b'\n' | b'\r') {
                        i += 1;
                    }
                }
                b'(' => {
                    let start = i;
                    let (bytes, end) = literal(content, i);
                    strings.push((start, end, bytes));
                    i = end;
                }
                b'<' if content.get(i + 1) == Some(&b'<') => i += 2,
                b'<' => {
                    let start = i;
                    let (bytes, end) = hex(content, i);
                    strings.push((start, end, bytes));
                    i = end;
                }
                b'>' | b'[' | b']' | b'{' | b'}' | b')' => i += 1,
                b'/' => {
                    let start = i;
                    i += 1;
                    while i < n && is_regular(content[i]) {
                        i += 1;
                    }
                    if first_name.is_none() {
                        first_name = Some((start, i, name(&content[start + 1..i])));
                    }
                }
                _ if !is_regular(c) => i += 1,
                _ => {
                    let start = i;
                    while i < n && is_regular(content[i]) {
                        i += 1;
                    }
                    let word = &content[start..i];
                    if matches!(word[0], b'0'..=b'9' | b'+' | b'-' | b'.')
                        || matches!(word, b"true" | b"false" | b"null")
                    {
                        continue;
                    }
                    match word {
                        b"Tf" => {
                            font = None;
                            if let Some((s, e, nm)) = first_name.take() {
                                if let Some(&k) = scope.fonts.get(&nm) {
                                    font = Some(k);
                                    out.extend_from_slice(&content[at..s]);
                                    out.push(b'/');
                                    out.extend_from_slice(renamed(k).as_bytes());
                                    at = e;
                                }
                            }
                        }
                        b"Tj" | b"TJ" | b"'" | b"\"" => {
                            if let Some(scheme) = font.and_then(|k| self.drawn[k].scheme) {
                                let k = font.unwrap_or_default();
                                for (s, e, bytes) in strings.drain(..) {
                                    out.extend_from_slice(&content[at..s]);
                                    out.extend_from_slice(&numbers(
                                        &bytes,
                                        scheme,
                                        &mut self.drawn[k].codes,
                                    ));
                                    at = e;
                                    self.drew = true;
                                }
                            }
                        }
                        b"Do" => {
                            if let Some((s, _, nm)) = first_name.take() {
                                if let Some(&xobject) = scope.xobjects.get(&nm) {
                                    out.extend_from_slice(&content[at..s]);
                                    self.paint(xobject, scope, out, depth)?;
                                    at = i;
                                }
                            }
                        }
                        b"q" => {
                            if saved.len() < 4096 {
                                saved.push(font);
                            } else {
                                depth_past_cap += 1;
                            }
                        }
                        b"Q" => {
                            if depth_past_cap > 0 {
                                depth_past_cap -= 1;
                            } else if let Some(f) = saved.pop() {
                                font = f;
                            }
                        }
                        b"ID" => i = after_inline_image(content, i),
                        _ => {}
                    }
                    strings.clear();
                    first_name = None;
                }
            }
        }
        out.extend_from_slice(&content[at..]);
        Ok(())
    }

    /// Write the painting of `xobject` (a `Do` under `scope`): a form of `forms` written in,
    /// anything else nothing.
    fn paint(
        &mut self,
        xobject: ObjectRef,
        scope: &Scope,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), TooLong> {
        let data = self
            .forms
            .filter(|_| depth < MAX_INLINE_DEPTH && !self.open.contains(&xobject))
            .and_then(|forms| forms.get(&xobject))
            .map(|form| form.data.as_slice());
        let Some(data) = data else {
            return Ok(());
        };
        let Some(form) = self.doc.and_then(|doc| doc.load_object(xobject).ok()) else {
            return Ok(());
        };
        self.written = self.written.saturating_add(data.len());
        if self.written > MAX_INLINED_BYTES {
            return Err(TooLong);
        }
        let dict = form.as_dict();
        let matrix: Vec<f64> = dict
            .and_then(|d| d.get("Matrix"))
            .and_then(Object::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|o| match o {
                        Object::Integer(v) => Some(*v as f64),
                        Object::Real(v) => Some(*v),
                        _ => None,
                    })
                    .collect()
            })
            .filter(|m: &Vec<f64>| m.len() == 6 && m.iter().all(|v| v.is_finite()))
            .unwrap_or_else(|| vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        // A form without resources of its own reads its painter's names.
        let own = dict
            .and_then(|d| d.get("Resources"))
            .map(|resources| self.scope_of(xobject, resources));
        out.extend_from_slice(b"\nq ");
        for v in matrix {
            out.extend_from_slice(format!("{v} ").as_bytes());
        }
        out.extend_from_slice(b"cm\n");
        self.open.push(xobject);
        let inner = match &own {
            Some(own) => self.rewrite(data, own, out, depth + 1),
            None => self.rewrite(data, scope, out, depth + 1),
        };
        self.open.pop();
        inner?;
        out.extend_from_slice(b"\nQ\n");
        Ok(())
    }

    /// The scope of form `form` whose resources are `resources`: each of its fonts as the
    /// parser loads it, drawn under a new name.
    fn scope_of(&mut self, form: ObjectRef, resources: &Object) -> Arc<Scope> {
        if let Some(scope) = self.scopes.get(&form) {
            return Arc::clone(scope);
        }
        let mut scope = Scope::default();
        if let Some(doc) = self.doc {
            let schemes: HashMap<String, Scheme> = candidates(doc, resources).into_iter().collect();
            let mut extractor = TextExtractor::new();
            extractor.set_document(doc);
            let resolved = doc.resolve_object(resources).unwrap_or(Object::Null);
            let _ = doc.load_fonts_public(&resolved, &mut extractor);
            let mut fonts = extractor.get_font_set();
            fonts.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, font) in fonts {
                let scheme = schemes.get(&name).copied().filter(|_| ours(&font));
                scope.fonts.insert(name.into_bytes(), self.drawn.len());
                self.drawn.push(Drawn {
                    font: Some(font),
                    scheme,
                    codes: Codes::default(),
                });
            }
            scope.xobjects = crate::forms::xobject_refs(doc, Some(resources))
                .unwrap_or_default()
                .into_iter()
                .collect();
        }
        let scope = Arc::new(scope);
        self.scopes.insert(form, Arc::clone(&scope));
        scope
    }
}

/// Whether `content`, a page's with forms written in, stays within the caps the page scan
/// (`page_cost.rs`) holds a page's content to, by the same scan: the forms were charged once
/// per painting, but a form's content read inside the page's is one stream with it (a broken
/// operation in a form could swallow what follows), and a loop of forms is not charged as it
/// is written. Its strings may take twice their bytes: each code became a two-byte number.
fn within_page_caps(content: &[u8]) -> bool {
    use crate::nesting::{push_content, Figures, Nesting};
    use crate::page_cost::{MAX_PAGE_RESTART_COST, MAX_PAGE_TEXT_BYTES, MAX_PAGE_TOKENS};
    let mut scan = Nesting::new();
    push_content(&mut scan, content);
    scan.finish();
    let figures = Figures::of(&scan);
    figures.within
        && figures.tokens <= MAX_PAGE_TOKENS
        && figures.string_bytes <= 2 * MAX_PAGE_TEXT_BYTES
        && figures.restart_cost <= MAX_PAGE_RESTART_COST
}

/// Whether the parser loaded `font` as a font of the module notes (Type0, a named CMap, no
/// `/ToUnicode`).
fn ours(font: &FontInfo) -> bool {
    font.subtype == "Type0" && matches!(font.encoding, Encoding::Standard(_))
}

/// A name's bytes with `#xx` escapes decoded.
fn name(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'#' {
            if let (Some(h), Some(l)) = (
                raw.get(i + 1).and_then(|&b| hex_digit(b)),
                raw.get(i + 2).and_then(|&b| hex_digit(b)),
            ) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The literal string opening at `content[start] == b'('`: its bytes and the offset after its
/// closing parenthesis (the end of the content when it is not closed).
fn literal(content: &[u8], start: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut depth = 1usize;
    let mut i = start + 1;
    while i < content.len() {
        let c = content[i];
        i += 1;
        match c {
            b'(' => {
                depth += 1;
                out.push(c);
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return (out, i);
                }
                out.push(c);
            }
            b'\\' => {
                let Some(&e) = content.get(i) else {
                    break;
                };
                i += 1;
                match e {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'b' => out.push(0x08),
                    b'f' => out.push(0x0C),
                    b'0'..=b'7' => {
                        let mut v = u32::from(e - b'0');
                        for _ in 0..2 {
                            match content.get(i) {
                                Some(&d @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(d - b'0');
                                    i += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push(v as u8);
                    }
                    // A backslash at a line's end continues the string on the next line.
                    b'\r' => {
                        if content.get(i) == Some(&b'\n') {
                            i += 1;
                        }
                    }
                    b'\n' => {}
                    other => out.push(other),
                }
            }
            _ => out.push(c),
        }
    }
    (out, content.len())
}

/// The hex string opening at `content[start] == b'<'`: its bytes (an odd last digit is
/// followed by 0) and the offset after its `>`.
fn hex(content: &[u8], start: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut high: Option<u8> = None;
    let mut i = start + 1;
    while i < content.len() {
        let c = content[i];
        i += 1;
        if c == b'>' {
            break;
        }
        if let Some(d) = hex_digit(c) {
            match high.take() {
                Some(h) => out.push(h << 4 | d),
                None => high = Some(d),
            }
        }
    }
    if let Some(h) = high {
        out.push(h << 4);
    }
    (out, i)
}

/// Past an inline image's data: from the `ID` operator ending at `i` to after the first `EI`
/// that stands between white space (or the content's end).
fn after_inline_image(content: &[u8], i: usize) -> usize {
    let white = |b: u8| matches!(b, b'\0' | b'\t' | b'\n' | b'\x0C' | b'\r' | b' ');
    let mut from = i + 1;
    while let Some(at) = memchr::memmem::find(&content[from.min(content.len())..], b"EI") {
        let at = from + at;
        let before = at > 0 && white(content[at - 1]);
        let after = content.get(at + 2).is_none_or(|&b| white(b));
        if before && after {
            return at + 2;
        }
        from = at + 2;
    }
    content.len()
}

/// One string's codes as a hex string of the numbers standing for them.
fn numbers(bytes: &[u8], scheme: Scheme, codes: &mut Codes) -> Vec<u8> {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(2 + bytes.len() * 4);
    out.push(b'<');
    let mut i = 0;
    while i < bytes.len() {
        let len = scheme.code_len(&bytes[i..]).max(1);
        let n = codes.number(&bytes[i..i + len]);
        for shift in [12, 8, 4, 0] {
            out.push(DIGITS[usize::from((n >> shift) & 0xF)]);
        }
        i += len;
    }
    out.push(b'>');
    out
}

/// A `/ToUnicode` CMap for the numbers of `codes`: number → the code's Unicode (U+FFFD when
/// it has none), as UTF-16BE.
pub fn to_unicode(codes: &Codes, scheme: Scheme, own: Option<&CMap>) -> Vec<u8> {
    use std::fmt::Write;
    let mut s = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CMapName /Webgrip-Predefined def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for (block, chunk) in codes.list.chunks(100).enumerate() {
        let _ = writeln!(s, "{} beginbfchar", chunk.len());
        for (k, code) in chunk.iter().enumerate() {
            let number = block * 100 + k + 1;
            // The font's own map's text where it has the code, as the parser would read it.
            let text = own
                .and_then(|map| map.get(&code_number(code)?).map(|t| t.into_owned()))
                .or_else(|| scheme.decode(code))
                .unwrap_or_else(|| "\u{FFFD}".into());
            let _ = write!(s, "<{number:04X}> <");
            for unit in text.encode_utf16() {
                let _ = write!(s, "{unit:04X}");
            }
            s.push_str(">\n");
        }
        s.push_str("endbfchar\n");
    }
    s.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    s.into_bytes()
}

/// A code's bytes as the number a `/ToUnicode` map files it under (`None` past four bytes).
fn code_number(code: &[u8]) -> Option<u32> {
    (code.len() <= 4).then(|| code.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)))
}

/// The copy of `font` drawn under the numbers of `codes`: their `/ToUnicode`, and for each
/// number the width (and vertical metrics) the parser gave the code it stands for, so the
/// glyphs keep their places.
fn rewritten(font: &FontInfo, codes: &Codes, scheme: Scheme) -> FontInfo {
    let mut f = font.clone();
    let own = font.to_unicode.as_ref().and_then(LazyCMap::get);
    f.to_unicode = Some(LazyCMap::new(to_unicode(codes, scheme, own.as_deref())));
    // Clones share the decode memo; this copy's numbers mean other things.
    f.type0_unicode_memo = Arc::new(Mutex::new(HashMap::new()));
    let as_cid = |code: &[u8]| scheme.width_cid(code);
    let mut widths = HashMap::with_capacity(codes.list.len());
    let mut vertical = HashMap::new();
    for (k, code) in codes.list.iter().enumerate() {
        let number = (k + 1) as u16;
        let width = match as_cid(code) {
            Some(cid) => font.get_glyph_width(cid),
            None if font.has_explicit_dw => font.cid_default_width,
            None => font.default_width,
        };
        widths.insert(number, width);
        if let (Some(cid), Some(metrics)) = (as_cid(code), &font.cid_vertical_metrics) {
            if let Some(m) = metrics.get(&cid) {
                vertical.insert(number, *m);
            }
        }
    }
    f.cid_widths = Some(widths);
    f.has_explicit_dw = true;
    f.cid_default_width = font.get_glyph_width(0xFFFF);
    f.cid_vertical_metrics = (!vertical.is_empty()).then_some(vertical);
    f
}

/// The fonts of `resources` (resource name → scheme) that are Type0 with a predefined CMap
/// this module reads, from the raw dictionaries (cheap: no font loaded).
pub(crate) fn candidates(doc: &PdfDocument, resources: &Object) -> Vec<(String, Scheme)> {
    let resolve = |o: &Object| doc.resolve_object(o).ok();
    let Some(resources) = resolve(resources) else {
        return Vec::new();
    };
    let Some(fonts) = resources
        .as_dict()
        .and_then(|d| d.get("Font"))
        .and_then(resolve)
    else {
        return Vec::new();
    };
    let Some(fonts) = fonts.as_dict() else {
        return Vec::new();
    };
    let mut out: Vec<(String, Scheme)> = fonts
        .iter()
        .filter_map(|(key, v)| {
            let font = resolve(v)?;
            let d = font.as_dict()?;
            if d.get("Subtype").and_then(Object::as_name) != Some("Type0") {
                return None;
            }
            let scheme = Scheme::of(d.get("Encoding").and_then(Object::as_name)?)?;
            Some((key.clone(), scheme))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Page `i`'s glyphs (its decoded content being `content`), as `PdfDocument::extract_chars`
/// gives them, with the fonts of the module notes read by their CMap, on the page and in the
/// forms of `forms` it paints (the forms walk's, `Forms::cmap_forms`). Any other page is
/// `extract_chars`'s glyphs ([`glyph_layer`]).
pub fn page_chars(
    doc: &PdfDocument,
    i: usize,
    content: &[u8],
    forms: Option<&CmapForms>,
) -> pdf_oxide::Result<Vec<TextChar>> {
    let resources = doc
        .get_page(i)
        .ok()
        .and_then(|p| p.as_dict().and_then(|d| d.get("Resources")).cloned());
    let Some(resources) = resources else {
        return glyph_layer(doc, i, content);
    };
    let wanted = candidates(doc, &resources);
    // The page's own forms that draw with such fonts, by name.
    let painted: HashMap<Vec<u8>, ObjectRef> = forms
        .and_then(|forms| {
            let refs = crate::forms::xobject_refs(doc, Some(&resources))?;
            Some(
                refs.into_iter()
                    .filter(|(_, r)| forms.get(r).is_some_and(|f| f.draws))
                    .collect(),
            )
        })
        .unwrap_or_default();
    if wanted.is_empty() && painted.is_empty() {
        return glyph_layer(doc, i, content);
    }
    let mut extractor = TextExtractor::new();
    extractor.set_page_index(i as u32);
    extractor.set_resources(resources.clone());
    extractor.set_document(doc);
    if doc.load_fonts_public(&resources, &mut extractor).is_err() {
        return glyph_layer(doc, i, content);
    }
    // Only fonts the parser loaded as such (Type0, a named CMap, no ToUnicode map).
    let loaded: HashMap<String, Arc<FontInfo>> = extractor.get_font_set().into_iter().collect();
    let fonts: Vec<(String, Scheme, Arc<FontInfo>)> = wanted
        .into_iter()
        .filter_map(|(name, scheme)| {
            let font = loaded.get(&name)?;
            ours(font).then(|| (name, scheme, Arc::clone(font)))
        })
        .collect();
    if fonts.is_empty() && painted.is_empty() {
        return glyph_layer(doc, i, content);
    }
    let (drawn, names) = page_fonts(
        fonts
            .iter()
            .map(|(name, scheme, font)| (name, *scheme, Some(Arc::clone(font)))),
    );
    let mut rewriter = Rewriter {
        doc: Some(doc),
        forms,
        drawn,
        ..Rewriter::default()
    };
    let scope = Scope {
        fonts: names,
        xobjects: painted,
    };
    let mut rewritten_content = Vec::with_capacity(content.len() + content.len() / 2);
    if rewriter
        .rewrite(content, &scope, &mut rewritten_content, 0)
        .is_err()
        || (rewriter.written > 0 && !within_page_caps(&rewritten_content))
    {
        // Forms too long to write in: the page as it was read before them.
        return page_chars(doc, i, content, None);
    }
    if !rewriter.drew {
        return glyph_layer(doc, i, content);
    }
    for (k, drawn) in rewriter.drawn.iter().enumerate() {
        let Some(font) = &drawn.font else {
            continue;
        };
        let font = match drawn.scheme {
            Some(scheme) => rewritten(font, &drawn.codes, scheme),
            None => FontInfo::clone(font),
        };
        extractor.add_font(renamed(k), font);
    }
    let mut chars = extractor.extract_owned(&rewritten_content)?;
    // As extract_chars orders them: top to bottom, then left to right.
    chars.sort_by(|a, b| {
        b.bbox
            .y
            .partial_cmp(&a.bbox.y)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(
                a.bbox
                    .x
                    .partial_cmp(&b.bbox.x)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
    });
    Ok(chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cut `bytes` by `scheme` and decode every code.
    fn read(scheme: Scheme, bytes: &[u8]) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < bytes.len() {
            let len = scheme.code_len(&bytes[i..]);
            out.push_str(
                &scheme
                    .decode(&bytes[i..i + len])
                    .unwrap_or("\u{FFFD}".into()),
            );
            i += len;
        }
        out
    }

    fn encode(enc: &'static encoding_rs::Encoding, s: &str) -> Vec<u8> {
        let (bytes, _, bad) = enc.encode(s);
        assert!(!bad, "{s} is not all in {}", enc.name());
        bytes.into_owned()
    }

    #[test]
    fn names_choose_schemes() {
        for (name, want) in [
            ("UniJIS-UCS2-H", Some(Scheme::Utf16)),
            ("UniJIS-UCS2-HW-V", Some(Scheme::Utf16)),
            ("UniGB-UTF16-V", Some(Scheme::Utf16)),
            ("UniKS-UTF32-H", Some(Scheme::Utf32)),
            ("UniCNS-UTF8-H", None),
            ("90ms-RKSJ-H", Some(Scheme::ShiftJis)),
            ("90msp-RKSJ-V", Some(Scheme::ShiftJis)),
            ("EUC-H", Some(Scheme::EucJp)),
            ("H", Some(Scheme::JisGl)),
            ("V", Some(Scheme::JisGl)),
            ("GBK-EUC-H", Some(Scheme::Gbk)),
            ("GB-EUC-V", Some(Scheme::Gbk)),
            ("GBK2K-H", Some(Scheme::Gb18030)),
            ("GB-H", Some(Scheme::GbGl)),
            ("B5pc-H", Some(Scheme::Big5)),
            ("ETen-B5-V", Some(Scheme::Big5)),
            ("KSC-EUC-H", Some(Scheme::Uhc)),
            ("KSCms-UHC-HW-H", Some(Scheme::Uhc)),
            ("KSC-H", Some(Scheme::KscGl)),
            ("Identity-H", None),
            ("CNS1-H", Some(Scheme::Adobe(Map::Cns1))),
            ("GBT-EUC-H", Some(Scheme::Adobe(Map::GbtEuc))),
            ("Hiragana", Some(Scheme::Adobe(Map::Hiragana))),
            ("WinAnsiEncoding", None),
            ("Roman", Some(Scheme::JisOneByte)),
            ("Hankaku", Some(Scheme::JisOneByte)),
            ("Roman-H", None),
        ] {
            assert_eq!(Scheme::of(name), want, "{name}");
        }
    }

    #[test]
    fn widths_follow_adobe_cids_where_the_tables_give_them() {
        // CNS-EUC-H `<20> <7e> 13648`: `A` is CID 13681, not 0x41 read as a CID.
        assert_eq!(Scheme::Adobe(Map::CnsEuc).width_cid(b"A"), Some(13681));
        assert_eq!(Scheme::Adobe(Map::Hiragana).width_cid(&[0x31]), Some(526));
        assert_eq!(Scheme::Adobe(Map::Cns1).width_cid(&[0x7E, 0x7E]), None);
        // Elsewhere the code read as a CID, as pdf_oxide reads it.
        assert_eq!(Scheme::Gbk.width_cid(&[0xB1, 0xB1]), Some(0xB1B1));
        assert_eq!(Scheme::EucJp.width_cid(&[0x8F, 0xB0, 0xA1]), None);
    }

    #[test]
    fn utf16_reads_surrogate_pairs() {
        let text = "Tokyo 東京 𠮷野家";
        let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(read(Scheme::Utf16, &bytes), text);
        // A lone high surrogate is one unknown code, and the next code is read right.
        assert_eq!(read(Scheme::Utf16, &[0xD8, 0x42, 0x00, 0x41]), "\u{FFFD}A");
    }

    #[test]
    fn utf32_reads_four_bytes() {
        let bytes: Vec<u8> = "a𠮷"
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        assert_eq!(read(Scheme::Utf32, &bytes), "a𠮷");
    }

    #[test]
    fn shift_jis_mixes_one_and_two_byte_codes() {
        // Half-width katakana (A1–DF) are one byte; kanji and kana two.
        let text = "Tokyo 東京都 ｶﾀｶﾅ ひらがな";
        assert_eq!(
            read(Scheme::ShiftJis, &encode(encoding_rs::SHIFT_JIS, text)),
            text
        );
    }

    #[test]
    fn one_byte_cmaps_read_each_byte_as_jis_x_0201() {
        // Roman and half-width katakana, one byte each, never paired up.
        let text = "Osaka ｵｵｻｶ";
        let bytes = encode(encoding_rs::SHIFT_JIS, text);
        assert_eq!(bytes.len(), text.chars().count());
        assert_eq!(read(Scheme::JisOneByte, &bytes), text);
        // A byte outside JIS X 0201 is an unknown code, and the next byte is read on its own.
        assert_eq!(read(Scheme::JisOneByte, &[0x81, 0x41]), "\u{FFFD}A");
    }

    #[test]
    fn euc_jp_keeps_alignment_after_odd_ascii() {
        let text = "Tokyo 東京都 ひらがな ｶﾅ";
        assert_eq!(
            read(Scheme::EucJp, &encode(encoding_rs::EUC_JP, text)),
            text
        );
        // JIS X 0212 is three bytes (8F + two).
        assert_eq!(Scheme::EucJp.code_len(&[0x8F, 0xB0, 0xA1, 0x41]), 3);
    }

    #[test]
    fn gbk_and_gb18030() {
        let text = "Beijing 北京市 中文 1-2";
        assert_eq!(read(Scheme::Gbk, &encode(encoding_rs::GBK, text)), text);
        let four = "a\u{20AC}b\u{1F600}";
        assert_eq!(
            read(Scheme::Gb18030, &encode(encoding_rs::GB18030, four)),
            four
        );
    }

    #[test]
    fn big5_and_uhc() {
        let text = "Taipei 臺北市 中文 1-2";
        assert_eq!(read(Scheme::Big5, &encode(encoding_rs::BIG5, text)), text);
        // 똠 is outside EUC-KR proper: Windows-949's extension.
        let text = "Seoul 서울 똠방각하 1-2";
        assert_eq!(read(Scheme::Uhc, &encode(encoding_rs::EUC_KR, text)), text);
    }

    #[test]
    fn gl_forms_are_euc_without_the_high_bits() {
        let gl = |enc, s: &str| -> Vec<u8> { encode(enc, s).iter().map(|b| b & 0x7F).collect() };
        assert_eq!(
            read(Scheme::JisGl, &gl(encoding_rs::EUC_JP, "あいうえお")),
            "あいうえお"
        );
        assert_eq!(
            read(Scheme::GbGl, &gl(encoding_rs::GBK, "北京市")),
            "北京市"
        );
        assert_eq!(
            read(Scheme::KscGl, &gl(encoding_rs::EUC_KR, "서울")),
            "서울"
        );
        // Bytes outside 21–7E are no code of a GL map.
        assert_eq!(Scheme::JisGl.decode(&[0x20, 0x41]), None);
    }

    #[test]
    fn transcode_rewrites_only_the_strings_its_fonts_show() {
        let fonts = vec![("F2".to_string(), Scheme::Gbk)];
        let content = b"BT /F1 9 Tf (ab) Tj /F2 12 Tf (a\\262\\261) Tj [(b) -20 <B2B1>] TJ \
                        q /F1 9 Tf (x) Tj Q (c) ' ET";
        let (out, codes) = transcode(content, &fonts).expect("F2 draws");
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out,
            "BT /F1 9 Tf (ab) Tj /webgrip.cmap.0 12 Tf <00010002> Tj [<0003> -20 <0002>] TJ \
             q /F1 9 Tf (x) Tj Q <0004> ' ET"
        );
        let list: Vec<&[u8]> = codes[0].list.iter().map(Vec::as_slice).collect();
        assert_eq!(list, [b"a".as_slice(), &[0xB2, 0xB1], b"b", b"c"]);
        let cmap = String::from_utf8(to_unicode(&codes[0], Scheme::Gbk, None)).unwrap();
        // B2B1 is mapped to what GBK reads it as.
        let want = Scheme::Gbk.decode(&[0xB2, 0xB1]).unwrap();
        let hex: String = want.encode_utf16().map(|u| format!("{u:04X}")).collect();
        assert!(cmap.contains(&format!("<0002> <{hex}>")), "{cmap}");
        assert!(cmap.contains("4 beginbfchar"));
    }

    #[test]
    fn transcode_leaves_other_fonts_names_and_inline_images_alone() {
        let fonts = vec![("F2".to_string(), Scheme::ShiftJis)];
        // `/F2` as a name that is no Tf operand, inline image data holding `(`, a comment.
        let content = b"/F2 BMC EMC BI /W 1 ID (\xff Tj EI % (x) Tj\n/F1 5 Tf (y) Tj";
        assert!(transcode(content, &fonts).is_none());
        // The font in use comes back with Q.
        let content = b"/F2 5 Tf q /F1 5 Tf Q (y) Tj";
        let (out, _) = transcode(content, &fonts).unwrap();
        assert_eq!(out, b"/webgrip.cmap.0 5 Tf q /F1 5 Tf Q <0001> Tj");
    }

    #[test]
    fn literal_strings_decode_escapes() {
        assert_eq!(
            literal(b"(a\\(b\\)\\\\\\101\\12c(d))x", 0),
            (b"a(b)\\A\nc(d)".to_vec(), 21)
        );
        assert_eq!(literal(b"(open", 0), (b"open".to_vec(), 5));
        assert_eq!(hex(b"<41 4>", 0), (vec![0x41, 0x40], 6));
        assert_eq!(name(b"F#31x#"), b"F1x#".to_vec());
    }
}
