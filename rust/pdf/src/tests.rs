//! The reader end to end through `extract`, and the bounds its passes are sized by.

use super::*;
use std::time::Instant;

use crate::forms::Forms;
use pdf_oxide::PdfDocument;

/// A one-page PDF drawing `text` in Helvetica, with a valid xref table and an `/Info`.
fn tiny_pdf(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
    let stream = format!(
        "<< /Length {} >>\nstream\n{content}\nendstream",
        content.len()
    );
    assemble(&[stream.into_bytes()])
}

/// Catalog, pages, one Helvetica page whose contents are object 4, `/Info` (object 5),
/// then `extra` from object 4 on; a valid xref table.
fn assemble(extra: &[Vec<u8>]) -> Vec<u8> {
    let mut objs: Vec<Vec<u8>> = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
         >> >> >> >>",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    objs.push(extra[0].clone());
    objs.push(
        b"<< /Title (Tiny) /Author <FEFF00C900760065> /CreationDate (D:20240131120502Z) >>"
            .to_vec(),
    );
    objs.extend(extra[1..].iter().cloned());
    pdf_of(&objs, "/Info 5 0 R")
}

/// A page whose Flate-compressed contents name their filter through object 6.
fn indirect_filter_pdf(content: &[u8]) -> Vec<u8> {
    use flate2::{write::ZlibEncoder, Compression};
    use std::io::Write;
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    let _ = e.write_all(content);
    let packed = e.finish().unwrap_or_default();
    let mut stream = format!("<< /Filter 6 0 R /Length {} >>\nstream\n", packed.len()).into_bytes();
    stream.extend_from_slice(&packed);
    stream.extend_from_slice(b"\nendstream");
    assemble(&[stream, b"[/FlateDecode]".to_vec()])
}

#[test]
fn a_filter_given_by_reference_is_decoded() {
    let pdf = indirect_filter_pdf(b"BT /F1 12 Tf 72 720 Td (Behind a reference) Tj ET");
    let doc = read_text(&pdf).expect("reads");
    assert!(
        doc.content.contains("Behind a reference"),
        "{:?}",
        doc.content
    );
    assert!(!doc.no_text);
}

#[test]
fn a_bomb_behind_a_filter_reference_is_refused() {
    let limits = Limits {
        max_stream_bytes: 1 << 20,
        ..Limits::default()
    };
    let pdf = indirect_filter_pdf(&vec![b' '; 4 << 20]);
    let got = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited());
    assert!(
        matches!(&got, Err(PdfError::Malformed(m)) if m.contains("expands past")),
        "{got:?}"
    );
}

#[test]
fn a_content_stream_with_a_short_length_is_read_to_its_end() {
    let content = "BT /F1 12 Tf 72 720 Td (First line) Tj 0 -20 Td (Second line) Tj ET";
    let stream = format!("<< /Length 30  >>\nstream\n{content}\nendstream");
    let pdf = assemble(&[stream.into_bytes()]);
    let doc = read_text(&pdf).expect("reads");
    assert!(doc.content.contains("Second line"), "{:?}", doc.content);
}

fn read_text(data: &[u8]) -> Result<PdfDocumentText, PdfError> {
    extract(
        data,
        Mode::Text,
        None,
        &Limits::default(),
        &Budget::unlimited(),
    )
}

#[test]
fn text_and_metadata() {
    let doc = read_text(&tiny_pdf("Hello PDF world")).expect("reads");
    assert!(doc.content.contains("Hello PDF world"), "{:?}", doc.content);
    assert_eq!(doc.metadata.title.as_deref(), Some("Tiny"));
    assert_eq!(doc.metadata.author.as_deref(), Some("\u{c9}ve"));
    assert_eq!(
        doc.metadata.created.as_deref(),
        Some("2024-01-31T12:05:02Z")
    );
    assert_eq!((doc.metadata.pages, doc.pages_read), (1, 1));
    assert!(!doc.no_text);
}

#[test]
fn size_limit_is_checked_first() {
    let limits = Limits {
        max_input_bytes: 10,
        ..Limits::default()
    };
    let err = extract(
        &tiny_pdf("x"),
        Mode::Text,
        None,
        &limits,
        &Budget::unlimited(),
    );
    assert_eq!(err.err(), Some(PdfError::TooLarge { limit: 10 }));
}

#[test]
fn garbage_is_malformed_not_a_panic() {
    for data in [
        &b""[..],
        b"%PDF-1.7",
        b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>",
        b"not a pdf at all",
    ] {
        match read_text(data) {
            Ok(doc) => assert!(doc.content.len() < 1000),
            Err(PdfError::Malformed(why)) => assert!(!why.is_empty()),
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    let full = tiny_pdf("Truncated somewhere");
    for cut in (0..full.len()).step_by(37) {
        let _ = read_text(&full[..cut]);
    }
}

#[test]
fn an_expired_deadline_interrupts() {
    let budget = Budget {
        deadline: Some(Instant::now()),
        cancel: None,
    };
    let err = extract(
        &tiny_pdf("x"),
        Mode::Text,
        None,
        &Limits::default(),
        &budget,
    );
    assert_eq!(
        err.err(),
        Some(PdfError::Interrupted(Interrupted::Deadline))
    );
}

#[test]
fn markdown_headings_come_from_the_glyphs_font_size() {
    let content = "BT /F1 24 Tf 72 720 Td (Quarterly Results) Tj ET \
                   BT /F1 11 Tf 72 680 Td (The body paragraph is set in eleven point type, \
                   the size most characters have.) Tj 0 -14 Td (It wraps onto a second \
                   line of the same size.) Tj ET";
    let stream = format!(
        "<< /Length {} >>\nstream\n{content}\nendstream",
        content.len()
    );
    let pdf = assemble(&[stream.into_bytes()]);
    let md = extract(
        &pdf,
        Mode::Markdown,
        None,
        &Limits::default(),
        &Budget::unlimited(),
    )
    .expect("reads")
    .content;
    assert_eq!(
        md,
        "# Quarterly Results\n\nThe body paragraph is set in eleven point type, the size \
         most characters have. It wraps onto a second line of the same size.\n"
    );
    let text = read_text(&pdf).expect("reads").content;
    assert!(text.starts_with("Quarterly Results\n\nThe body"), "{text}");
}

/// A PDF of `objects` (object 1 first) with a valid xref table and `trailer` entries.
fn pdf_of(objects: &[Vec<u8>], trailer: &str) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R {trailer} >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

fn stream(content: &[u8]) -> Vec<u8> {
    let mut s = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
    s.extend_from_slice(content);
    s.extend_from_slice(b"\nendstream");
    s
}

fn zlib(content: &[u8]) -> Vec<u8> {
    use flate2::{write::ZlibEncoder, Compression};
    use std::io::Write;
    let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
    let _ = e.write_all(content);
    e.finish().unwrap_or_default()
}

/// One page whose content is `content` (object 4) and whose page dictionary ends with
/// `page_extra`.
fn one_page(content: Vec<u8>, page_extra: &str) -> Vec<u8> {
    pdf_of(
        &[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
                 /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont \
                 /Helvetica >> >> >> {page_extra} >>"
            )
            .into_bytes(),
            content,
        ],
        "",
    )
}

/// A page showing each `(cmap, ordering, bytes)` in a CID font with no `/ToUnicode` whose
/// `/Encoding` is that predefined CMap (not embedded, as Adobe's Asian font packs are).
fn cid_page(lines: &[(&str, &str, Vec<u8>)]) -> Vec<u8> {
    let mut fonts = String::new();
    let mut content = b"BT /F1 12 Tf 72 740 Td (Latin line) Tj ET\n".to_vec();
    let mut objs: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        Vec::new(),
        Vec::new(),
    ];
    for (i, (cmap, ordering, bytes)) in lines.iter().enumerate() {
        let n = objs.len() + 1;
        fonts.push_str(&format!(" /C{i} {n} 0 R"));
        objs.push(
            format!(
                "<< /Type /Font /Subtype /Type0 /BaseFont /CJK{i} /Encoding /{cmap} \
                 /DescendantFonts [{} 0 R] >>",
                n + 1
            )
            .into_bytes(),
        );
        objs.push(
            format!(
                "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /CJK{i} /CIDSystemInfo \
                 << /Registry (Adobe) /Ordering ({ordering}) /Supplement 2 >> /DW 1000 >>"
            )
            .into_bytes(),
        );
        let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
        content.extend_from_slice(
            format!("BT /C{i} 12 Tf 72 {} Td <{hex}> Tj ET\n", 700 - 40 * i).as_bytes(),
        );
    }
    objs[2] = format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\
         {fonts} >> >> >>"
    )
    .into_bytes();
    objs[3] = stream(&content);
    pdf_of(&objs, "")
}

#[test]
fn legacy_predefined_cmaps_read_as_the_text_drawn() {
    let bytes = |enc: &'static encoding_rs::Encoding, s: &str| enc.encode(s).0.into_owned();
    let cases = [
        (
            "EUC-H",
            "Japan1",
            bytes(encoding_rs::EUC_JP, "Tokyo 東京都 ひらがな"),
        ),
        (
            "90ms-RKSJ-H",
            "Japan1",
            bytes(encoding_rs::SHIFT_JIS, "Osaka 大阪 カタカナ"),
        ),
        ("B5pc-H", "CNS1", bytes(encoding_rs::BIG5, "Taipei 臺北市")),
        (
            "GBK-EUC-H",
            "GB1",
            bytes(encoding_rs::GBK, "Beijing 北京市"),
        ),
        (
            "KSCms-UHC-H",
            "Korea1",
            bytes(encoding_rs::EUC_KR, "Seoul 서울"),
        ),
        // One byte per code: an odd count of bytes read in pairs would lose the last.
        (
            "Hankaku",
            "Japan1",
            bytes(encoding_rs::SHIFT_JIS, "Kobe ｺｳﾍﾞ"),
        ),
    ];
    let pdf = cid_page(&cases);
    let text = read_text(&pdf).map(|d| d.content).unwrap_or_default();
    for want in [
        "Latin line",
        "東京都 ひらがな",
        "大阪 カタカナ",
        "臺北市",
        "北京市",
        "서울",
        "Kobe ｺｳﾍﾞ",
    ] {
        assert!(text.contains(want), "{want:?} not in {text:?}");
    }
    // Surrogate pairs under a UTF-16 CMap: one character, not two codes.
    let utf16: Vec<u8> = "𠮷野家"
        .encode_utf16()
        .flat_map(|u| u.to_be_bytes())
        .collect();
    let text = read_text(&cid_page(&[("UniJIS-UTF16-H", "Japan1", utf16)]))
        .map(|d| d.content)
        .unwrap_or_default();
    assert!(text.contains("𠮷野家"), "{text:?}");
}

#[test]
fn fonts_with_a_to_unicode_under_legacy_cmaps_are_cut_by_the_cmap() {
    // A Shift_JIS font (`90ms-RKSJ-H`) with a `/ToUnicode` whose code space has one- and
    // two-byte codes, as its CMap's: the parser cut every code at the map's widest (two
    // bytes), so after the first ASCII byte each code was read astray. The map's own text is
    // kept for each code (here `Ｂ` for `B`, which Shift_JIS reads as plain `B`).
    let to_unicode = b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
        2 begincodespacerange\n<00> <80>\n<8140> <9FFC>\nendcodespacerange\n\
        4 beginbfchar\n<41> <0041>\n<42> <FF22>\n<82A0> <3042>\n<82A2> <3044>\n\
        endbfchar\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
    let content = b"BT /F1 12 Tf 72 740 Td (Latin line) Tj ET\n\
        BT /C0 12 Tf 72 700 Td <4182A04282A2> Tj ET\n";
    let objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
           >> /C0 5 0 R >> >> >>"
            .to_vec(),
        stream(content),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /CJK0 /Encoding /90ms-RKSJ-H \
           /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>"
            .to_vec(),
        b"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /CJK0 /CIDSystemInfo \
           << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /DW 1000 >>"
            .to_vec(),
        stream(to_unicode),
    ];
    let text = read_text(&pdf_of(&objs, ""))
        .map(|d| d.content)
        .unwrap_or_default();
    assert!(text.contains("Latin line"), "{text:?}");
    assert!(text.contains("AあＢい"), "{text:?}");
}

#[test]
fn adobe_table_cmaps_read_as_the_text_drawn() {
    // CNS 11643, GB/T 12345, the one-byte kana maps and WordPerfect's symbols (`sec` and `min`
    // one code each), which no national encoding reads:
    // the codes are Adobe's (poppler-data's CMap files), an odd run of ASCII before the
    // two-byte codes of the EUC forms, and a four-byte plane-2 code.
    let high = |gl: &[u8]| gl.iter().map(|b| b | 0x80).collect::<Vec<u8>>();
    let taipei = [0x6A, 0x57, 0x46, 0x21, 0x46, 0x4B];
    let mut cns_euc = b"Taipei ".to_vec();
    cns_euc.extend(high(&taipei));
    cns_euc.extend([0x8E, 0xA2, 0xA1, 0xA1]);
    let mut gbt_euc = b"Beijing ".to_vec();
    gbt_euc.extend(high(&[0x31, 0x31, 0x3E, 0x29, 0x39, 0x7A, 0x53, 0x6F]));
    let cases = [
        ("CNS1-H", "CNS1", taipei.to_vec()),
        ("CNS-EUC-H", "CNS1", cns_euc),
        ("GBT-EUC-H", "GB1", gbt_euc),
        ("Hiragana", "Japan1", vec![0x4B, 0x57, 0x66, 0x45]),
        ("Katakana", "Japan1", vec![0x36, 0x40, 0x36, 0x45]),
        ("WP-Symbol", "Japan1", vec![0x01, 0x20, 0x2E, 0x2F]),
    ];
    let text = read_text(&cid_page(&cases))
        .map(|d| d.content)
        .unwrap_or_default();
    for want in [
        "Latin line",
        "Taipei 臺北市乂",
        "Beijing 北京國語",
        "ひらがな",
        "ｶﾀｶﾅ",
        "☎ⅷsecmin",
    ] {
        assert!(text.contains(want), "{want:?} not in {text:?}");
    }
    // Once under CNS1-H, once under CNS-EUC-H.
    assert_eq!(text.matches("臺北市").count(), 2, "{text:?}");
}

/// A form XObject's stream: `dict` (its entries past `/Type`, `/Subtype`, `/BBox`) and
/// `content`.
fn form_stream(dict: &str, content: &[u8]) -> Vec<u8> {
    let mut s = format!(
        "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] {dict} /Length {} >>\nstream\n",
        content.len()
    )
    .into_bytes();
    s.extend_from_slice(content);
    s.extend_from_slice(b"\nendstream");
    s
}

/// A Type0 font (object `n`, its CIDFont `n + 1`) with no `/ToUnicode` under CMap `cmap`.
fn cid_font(n: usize, cmap: &str, ordering: &str) -> [Vec<u8>; 2] {
    [
        format!(
            "<< /Type /Font /Subtype /Type0 /BaseFont /CJK{n} /Encoding /{cmap} \
             /DescendantFonts [{} 0 R] >>",
            n + 1
        )
        .into_bytes(),
        format!(
            "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /CJK{n} /CIDSystemInfo \
             << /Registry (Adobe) /Ordering ({ordering}) /Supplement 2 >> /DW 1000 >>"
        )
        .into_bytes(),
    ]
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

#[test]
fn predefined_cmaps_inside_forms_read_as_the_text_drawn() {
    // The page paints a form whose fonts are under legacy and Adobe-table CMaps, which paints
    // a form of its own (its `/C0` another font, moved by its `/Matrix`) and a plain form of
    // Latin text: every font is found through the form that names it.
    let big5 = encoding_rs::BIG5.encode("Taipei 臺北市").0.into_owned();
    let gbk = encoding_rs::GBK.encode("Beijing 北京市").0.into_owned();
    let sjis = encoding_rs::SHIFT_JIS.encode("Osaka 大阪").0.into_owned();
    let cns1 = [0x6A, 0x57, 0x46, 0x21, 0x46, 0x4B];
    let page_content = b"BT /F1 12 Tf 72 740 Td (Latin line) Tj ET\n\
                         q 1 0 0 1 0 -20 cm /Outer Do Q\n";
    let outer = format!(
        "BT /C0 12 Tf 72 680 Td <{}> Tj ET\nBT /C1 12 Tf 72 640 Td <{}> Tj ET\n\
         /Inner Do /Plain Do\n",
        hex_of(&big5),
        hex_of(&cns1)
    );
    let inner = format!(
        "BT /C0 12 Tf 72 600 Td <{}> Tj ET\nq /Deeper Do Q\n",
        hex_of(&gbk)
    );
    // The deepest form paints the outer one again: a loop, read once.
    let deeper = format!(
        "BT /C0 12 Tf 72 480 Td <{}> Tj ET\n/Back Do\n",
        hex_of(&sjis)
    );
    let [big5_font, big5_cid] = cid_font(9, "B5pc-H", "CNS1");
    let [cns_font, cns_cid] = cid_font(11, "CNS1-H", "CNS1");
    let [gbk_font, gbk_cid] = cid_font(13, "GBK-EUC-H", "GB1");
    let [sjis_font, sjis_cid] = cid_font(15, "90ms-RKSJ-H", "Japan1");
    let objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
           >> >> /XObject << /Outer 5 0 R >> >> >>"
            .to_vec(),
        stream(page_content),
        form_stream(
            "/Resources << /Font << /C0 9 0 R /C1 11 0 R >> \
             /XObject << /Inner 6 0 R /Plain 7 0 R >> >>",
            outer.as_bytes(),
        ),
        form_stream(
            "/Matrix [1 0 0 1 0 -40] /Resources << /Font << /C0 13 0 R >> \
             /XObject << /Deeper 8 0 R >> >>",
            inner.as_bytes(),
        ),
        form_stream(
            "/Resources << /Font << /C0 << /Type /Font /Subtype /Type1 /BaseFont \
             /Helvetica >> >> >>",
            b"BT /C0 12 Tf 72 520 Td (Plain form text) Tj ET",
        ),
        form_stream(
            "/Resources << /Font << /C0 15 0 R >> /XObject << /Back 5 0 R >> >>",
            deeper.as_bytes(),
        ),
        big5_font,
        big5_cid,
        cns_font,
        cns_cid,
        gbk_font,
        gbk_cid,
        sjis_font,
        sjis_cid,
    ];
    let pdf = pdf_of(&objs, "");
    let text = read_text(&pdf).map(|d| d.content).unwrap_or_default();
    let markdown = extract(
        &pdf,
        Mode::Markdown,
        None,
        &Limits::default(),
        &Budget::unlimited(),
    )
    .map(|d| d.content)
    .unwrap_or_default();
    let order = [
        "Latin line",
        "Taipei 臺北市",
        "臺北市",
        "Beijing 北京市",
        "Plain form text",
        "Osaka 大阪",
    ];
    for view in [&text, &markdown] {
        let mut from = 0;
        for want in order {
            let at = view[from..].find(want);
            assert!(at.is_some(), "{want:?} not in order in {view:?}");
            from += at.unwrap_or_default() + want.len();
        }
        assert_eq!(view.matches("Taipei").count(), 1, "{view:?}");
    }
}

#[test]
fn predefined_cmaps_inside_forms_without_resources_read_with_their_painters_fonts() {
    // A form with no `/Resources` of its own draws with its painter's names (ISO 32000-1
    // §7.8.3, as the parser reads it): here the page's `/C0`, under `B5pc-H`, inside a form
    // painted by a form that has none either, and moved by both their matrices.
    let big5 = encoding_rs::BIG5.encode("Taipei 臺北市").0.into_owned();
    let page_content = b"BT /F1 12 Tf 72 740 Td (Latin line) Tj ET\n/Outer Do\n";
    let inner = format!("BT /C0 12 Tf 72 700 Td <{}> Tj ET\n", hex_of(&big5));
    let [font, cid] = cid_font(7, "B5pc-H", "CNS1");
    let objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
           >> /C0 7 0 R >> /XObject << /Outer 5 0 R /Inner 6 0 R >> >> >>"
            .to_vec(),
        stream(page_content),
        form_stream("/Matrix [1 0 0 1 0 -20]", b"/Inner Do\n"),
        form_stream("/Matrix [1 0 0 1 0 -20]", inner.as_bytes()),
        font,
        cid,
    ];
    let pdf = pdf_of(&objs, "");
    let text = read_text(&pdf).map(|d| d.content).unwrap_or_default();
    let markdown = extract(
        &pdf,
        Mode::Markdown,
        None,
        &Limits::default(),
        &Budget::unlimited(),
    )
    .map(|d| d.content)
    .unwrap_or_default();
    for view in [&text, &markdown] {
        let latin = view.find("Latin line");
        let taipei = view.find("Taipei 臺北市");
        assert!(latin.is_some() && taipei > latin, "{view:?}");
        assert_eq!(view.matches("Taipei").count(), 1, "{view:?}");
    }
}

#[test]
fn forms_past_the_written_in_cap_are_read_as_the_parser_reads_them() {
    // One form of 1 MiB (mostly white space, which no cap on tokens or text counts) painted
    // 20 times: written in, the page would grow past 16 MiB, so it is read without them.
    let big5 = encoding_rs::BIG5.encode("Taipei 臺北市").0.into_owned();
    let mut form = vec![b' '; 1 << 20];
    form.extend_from_slice(format!("BT /C0 12 Tf 72 680 Td <{}> Tj ET", hex_of(&big5)).as_bytes());
    let mut page_content = b"BT /F1 12 Tf 72 740 Td (Latin line) Tj ET\n".to_vec();
    for k in 0..20 {
        page_content.extend_from_slice(format!("q 1 0 0 1 0 -{k} cm /Outer Do Q\n").as_bytes());
    }
    let [font, cid] = cid_font(6, "B5pc-H", "CNS1");
    let objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
           >> >> /XObject << /Outer 5 0 R >> >> >>"
            .to_vec(),
        stream(&page_content),
        form_stream("/Resources << /Font << /C0 6 0 R >> >>", &form),
        font,
        cid,
    ];
    let text = read_text(&pdf_of(&objs, ""))
        .map(|d| d.content)
        .unwrap_or_default();
    assert!(text.contains("Latin line"), "{text:?}");
    assert!(!text.contains("臺北市"), "{text:?}");
    // Painted once, the same form is written in and read right.
    let once = page_content
        .split(|&b| b == b'\n')
        .take(2)
        .collect::<Vec<_>>()
        .join(&b'\n');
    let mut objs = objs;
    objs[3] = stream(&once);
    let text = read_text(&pdf_of(&objs, ""))
        .map(|d| d.content)
        .unwrap_or_default();
    assert!(text.contains("Taipei 臺北市"), "{text:?}");
}

#[test]
fn forms_written_in_stay_within_a_pages_caps() {
    // Forms `A` (a Big5 font) and `B` (100,000 path tokens) paint each other. Page 1 paints
    // `B`, so the costing meets the loop in `A` and charges `A` without `B`; page 2 paints `A`
    // 30 times. Written in, every painting of `A` brings `B` along: page 2 would hand the
    // parser 3,000,000 tokens, past a page's 2,000,000, so it is read without its forms
    // written in (and page 1, within the caps, with them).
    let big5 = encoding_rs::BIG5.encode("Taipei 臺北市").0.into_owned();
    let a = format!("BT /C0 12 Tf 72 680 Td <{}> Tj ET\n/B Do\n", hex_of(&big5));
    let b = format!("{}/A Do\n", "0 0 m\n".repeat(100_000 / 3));
    let mut second = b"BT /F1 12 Tf 72 740 Td (Second page) Tj ET\n".to_vec();
    for k in 0..30 {
        second.extend_from_slice(format!("q 1 0 0 1 0 -{k} cm /A Do Q\n").as_bytes());
    }
    let [font, cid] = cid_font(7, "B5pc-H", "CNS1");
    let page = |contents: usize| {
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R \
             /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
             >> >> /XObject << /A 5 0 R /B 6 0 R >> >> >>"
        )
        .into_bytes()
    };
    let objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R 9 0 R] /Count 2 >>".to_vec(),
        page(4),
        stream(b"BT /F1 12 Tf 72 740 Td (First page) Tj ET\n/B Do\n"),
        form_stream(
            "/Resources << /Font << /C0 7 0 R >> /XObject << /B 6 0 R >> >>",
            a.as_bytes(),
        ),
        form_stream("/Resources << /XObject << /A 5 0 R >> >>", b.as_bytes()),
        font,
        cid,
        page(10),
        stream(&second),
    ];
    let text = read_text(&pdf_of(&objs, ""))
        .map(|d| d.content)
        .unwrap_or_default();
    let second = text.find("Second page").unwrap_or_default();
    assert!(second > 0, "{text:?}");
    assert!(text[..second].contains("Taipei 臺北市"), "{text:?}");
    assert!(!text[second..].contains("臺北市"), "{text:?}");
}

#[test]
fn identity_cid_fonts_read_through_their_ordering() {
    // CIDs under `Identity-H` with no `/ToUnicode`: the character collection's own
    // CID → Unicode table (pdf_oxide's); the expected text is pdftotext's for these pages.
    let cases = [
        ("Japan1", [0x03, 0x4A, 0x03, 0x4B], "ぁあ"),
        ("GB1", [0x0F, 0x00, 0x0F, 0x01], "务悟"),
        ("CNS1", [0x0F, 0x00, 0x0F, 0x01], "裝裡"),
        ("Korea1", [0x0F, 0x00, 0x0F, 0x01], "光匡"),
    ];
    for (ordering, cids, want) in cases {
        let pdf = cid_page(&[("Identity-H", ordering, cids.to_vec())]);
        let text = read_text(&pdf).map(|d| d.content).unwrap_or_default();
        assert!(text.contains(want), "{ordering}: {want:?} not in {text:?}");
    }
}

fn refused(pdf: &[u8]) -> String {
    match read_text(pdf) {
        Err(PdfError::Malformed(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn deep_nesting_anywhere_is_refused_not_a_crash() {
    let deep = "[".repeat(30_000);
    // A content-stream operand, plain and compressed.
    let plain = one_page(stream(format!("BT {deep} ET").as_bytes()), "");
    assert!(refused(&plain).contains("nest"), "{}", refused(&plain));
    let body = zlib(format!("BT /F1 12 Tf {deep} ET").as_bytes());
    let mut packed = format!(
        "<< /Filter /FlateDecode /Length {} >>\nstream\n",
        body.len()
    )
    .into_bytes();
    packed.extend_from_slice(&body);
    packed.extend_from_slice(b"\nendstream");
    assert!(refused(&one_page(packed, "")).contains("nest"));
    // The page dictionary, the catalog's neighbour, the trailer.
    let dicts = "<< /A ".repeat(20_000);
    assert!(refused(&one_page(stream(b"BT ET"), &format!("/X {dicts}"))).contains("nest"));
    let trailer = pdf_of(
        &[b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()],
        &format!("/X {deep}"),
    );
    assert!(refused(&trailer).contains("nest"));
    // Hidden in an unclosed string: the content parser reads past its failure.
    let hidden = one_page(stream(format!("BT ({deep} ET").as_bytes()), "");
    assert!(refused(&hidden).contains("nest"));
}

#[test]
fn the_worker_stack_holds_the_deepest_nesting_let_through() {
    // Behind an unclosed string the content parser fails on and then reads one byte on,
    // as many openings as the reread budget lets through: the parser recurses this deep
    // (the old 2 MiB stack died near 3,000 levels) and must return with the page read.
    // The budget pays w/2·d² for the openings and 1,024·d for the failed operation's
    // bytes (each restart reads them again): the largest d it covers.
    let (budget, w) = (
        MAX_PAGE_RESTART_COST as f64,
        nesting::HIDDEN_STEP_WEIGHT as f64,
    );
    let depth = ((1024f64.powi(2) + 2.0 * w * budget).sqrt() - 1024.0) / w;
    let depth = depth as usize - 10;
    let content = format!(
        "BT /F1 12 Tf 72 720 Td (Still read) Tj ({} ET",
        "[".repeat(depth)
    );
    let got = read_text(&one_page(stream(content.as_bytes()), "")).expect("reads");
    assert!(got.content.contains("Still read"), "{}", got.content);
}

#[test]
fn a_parse_as_deep_as_the_prepasses_let_through_fits_the_worker_stack() {
    // The parser's object reader recurses once per level: nesting at the bound the
    // pre-passes allow from any offset must parse on the worker's stack, in whatever
    // stream (encrypted or not) it was found. (10,000 levels crashed a 4 MiB stack and
    // parsed on 8 MiB in the fastbuild profile: the 256 MiB stack holds 32 times that.)
    let depth = nesting::MAX_BOUND;
    let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let parsed = std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(move || pdf_oxide::parser::parse_object(deep.as_bytes()).is_ok())
        .expect("a thread")
        .join();
    assert_eq!(parsed.ok(), Some(true));
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/pdf/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn encrypted_documents_are_metered_like_plain_ones() {
    // Nesting in an RC4-40 form and in an RC4-40 object stream (these killed the process).
    for name in [
        "hostile-encrypted-nested-form.pdf",
        "hostile-encrypted-nested-objstm.pdf",
        "hostile-encrypted-nested-100k.pdf",
    ] {
        let why = refused(&fixture(name));
        assert!(
            why.contains("nest") && why.contains("the limit is 1000)"),
            "{name}: {why}"
        );
    }
    // The object stream's header renumbered: the parser decrypts it under the number its
    // cross-reference table files it as (and only warns about the header).
    let mut renumbered = fixture("hostile-encrypted-nested-objstm.pdf");
    let at = renumbered
        .windows(7)
        .position(|w| w == b"5 0 obj")
        .expect("the object stream");
    renumbered[at] = b'9';
    let why = refused(&renumbered);
    assert!(why.contains("nest 1000000 deep"), "{why}");
    let why = refused(&fixture("hostile-encrypted-bomb.pdf"));
    assert!(why.contains("expands past the 64 MiB limit"), "{why}");
    // A form painted 599 times is charged to its page.
    let doc = read_text(&fixture("hostile-encrypted-form-repeat.pdf")).expect("reads");
    assert!(
        doc.content
            .contains("[Page 1 was not read: it draws more text"),
        "{}",
        &doc.content[..200.min(doc.content.len())]
    );
}

#[test]
fn benign_encrypted_documents_still_read() {
    for name in [
        "encrypted-rc4-128.pdf",
        "encrypted-aes-128.pdf",
        "encrypted-aes-256.pdf",
        "encrypted-empty-password.pdf",
    ] {
        let doc = read_text(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !doc.no_text && doc.content.len() > 20,
            "{name}: {}",
            doc.content
        );
    }
    let doc = read_text(&fixture("encrypted-aes-256.pdf")).expect("reads");
    assert!(
        doc.content.contains("An encrypted document that reads"),
        "{}",
        doc.content
    );
    let doc = read_text(&fixture("encrypted-objstm-rc4-40.pdf")).expect("reads");
    assert!(doc.content.contains("Page text"), "{}", doc.content);
    let with = |p| {
        extract(
            &fixture("rc4-40-user-baz.pdf"),
            Mode::Text,
            p,
            &Limits::default(),
            &Budget::unlimited(),
        )
    };
    assert_eq!(
        with(None).err(),
        Some(PdfError::PasswordProtected {
            password_given: false
        })
    );
    assert!(with(Some("baz")).is_ok());
}

#[test]
fn the_nesting_refusal_quotes_the_limit_that_applied() {
    let between_tokens = one_page(
        stream(format!("BT {} ET", "[".repeat(3_000)).as_bytes()),
        "",
    );
    let why = refused(&between_tokens);
    assert!(why.contains("nest 3000 deep (the limit is 1000)"), "{why}");
    let hidden = one_page(
        stream(format!("BT ({} ET", "[".repeat(12_000)).as_bytes()),
        "",
    );
    let why = refused(&hidden);
    assert!(why.contains("deep (the limit is 10000)"), "{why}");
}

#[test]
fn a_page_tree_that_loops_is_refused_quickly() {
    let looped = pdf_of(
        &[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [2 0 R 2 0 R 3 0 R] /Count 3 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>".to_vec(),
        ],
        "",
    );
    let start = Instant::now();
    assert!(
        refused(&looped).contains("page tree"),
        "{}",
        refused(&looped)
    );
    assert!(start.elapsed().as_secs() < 30);
    let shared = pdf_of(
        &[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [4 0 R 4 0 R] /Count 4 >>".to_vec(),
            b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 10 10] >>".to_vec(),
            b"<< /Type /Pages /Parent 2 0 R /Kids [3 0 R 3 0 R] /Count 2 >>".to_vec(),
        ],
        "",
    );
    assert!(refused(&shared).contains("page tree"));
}

#[test]
fn a_page_the_content_parser_would_reread_without_end_is_left_empty() {
    for tail in [" ", ") m ET", "] m ET", "{ m ET"] {
        let content = format!(
            "BT /F1 12 Tf 72 720 Td (Kept page) Tj {}{tail}",
            "1 ".repeat(200_000)
        );
        let start = Instant::now();
        let doc = read_text(&one_page(stream(content.as_bytes()), "")).expect("reads");
        assert!(
            doc.content.contains("reread without end"),
            "{tail}: {}",
            doc.content
        );
        assert!(start.elapsed().as_secs() < 20, "{tail}");
    }
    // Long operations that end in their operator are read as usual.
    let fine = format!(
        "BT /F1 12 Tf 72 720 Td (Kept page) Tj [{}] TJ ET",
        "(a) -20 ".repeat(5_000)
    );
    let doc = read_text(&one_page(stream(fine.as_bytes()), "")).expect("reads");
    assert!(doc.content.contains("Kept page"), "{}", &doc.content[..100]);
}

/// One page painting Form XObject `/X` with `page`; the form draws `form` in Helvetica.
fn with_form(page: &[u8], form: &[u8]) -> Vec<u8> {
    let font = "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>";
    let mut form_object = format!(
        "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << {font} >> \
         /Length {} >>\nstream\n",
        form.len()
    )
    .into_bytes();
    form_object.extend_from_slice(form);
    form_object.extend_from_slice(b"\nendstream");
    pdf_of(
        &[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
                 /Resources << {font} /XObject << /X 5 0 R >> >> >>"
            )
            .into_bytes(),
            stream(page),
            form_object,
        ],
        "",
    )
}

#[test]
fn text_in_a_form_is_read_and_charged_to_its_page_once_per_painting() {
    let form = b"BT /F1 12 Tf 72 720 Td (Inside the form) Tj ET";
    let page = b"q 1 0 0 1 0 0 cm /X Do Q q 1 0 0 1 0 -100 cm /X Do Q";
    let pdf = with_form(page, form);
    let doc = read_text(&pdf).expect("reads");
    assert!(doc.content.contains("Inside the form"), "{}", doc.content);
    let parsed = PdfDocument::from_bytes(pdf).expect("parses");
    let content = parsed.get_page_content_data(0).expect("content");
    let mut own = nesting::Nesting::new();
    nesting::push_content(&mut own, form);
    own.finish();
    let charged = Forms::default().charge(&parsed, None, 0, &content);
    assert_eq!(charged.tokens, 2 * own.tokens() as u64);
    assert_eq!(charged.text_bytes, 2 * own.string_bytes() as u64);
}

/// The page's own content is 20 paintings; the form they paint draws 20,000 strings, and
/// the parser reads it once per matrix (600 paintings of it ran the fuzzing build out of
/// memory before forms were charged to their page).
#[test]
fn a_form_painted_under_many_matrices_is_charged_to_its_page() {
    let paint: String = (1..=20)
        .map(|i| format!("q 1 0 0 1 {i} 0 cm /X Do Q "))
        .collect();
    let form = format!("BT /F1 1 Tf {}ET", "(x) Tj ".repeat(20_000));
    let doc = read_text(&with_form(paint.as_bytes(), form.as_bytes())).expect("reads");
    assert!(
        doc.content
            .contains("[Page 1 was not read: it draws more text"),
        "{}",
        &doc.content[..200.min(doc.content.len())]
    );
}

/// A form without `/Resources` paints its painter's forms (the parser reads it so): here
/// one painted by the page paints the page's `/X`, a form of 20,000 strings, 20 times, which
/// is charged to the page (the walk found no forms below such a form before).
#[test]
fn forms_painted_by_a_form_without_resources_are_charged_to_its_page() {
    let paint: String = (1..=20)
        .map(|i| format!("q 1 0 0 1 {i} 0 cm /X Do Q "))
        .collect();
    let flood = format!("BT /F1 1 Tf {}ET", "(x) Tj ".repeat(20_000));
    let pdf = |painted: &str| {
        pdf_of(
            &[
                b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
                   /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont \
                   /Helvetica >> >> /XObject << /X 5 0 R /Y 6 0 R >> >> >>"
                    .to_vec(),
                stream(b"BT /F1 12 Tf 72 740 Td (Page text) Tj ET /Y Do"),
                form_stream("", flood.as_bytes()),
                form_stream("", painted.as_bytes()),
            ],
            "",
        )
    };
    let doc = read_text(&pdf(&paint)).expect("reads");
    assert!(
        doc.content
            .contains("[Page 1 was not read: it draws more text"),
        "{}",
        &doc.content[..200.min(doc.content.len())]
    );
    // Painted once, the page is read.
    let doc = read_text(&pdf("/X Do")).expect("reads");
    assert!(doc.content.contains("Page text"), "{}", doc.content);
}

#[test]
fn a_flood_of_text_in_a_form_is_refused_as_on_the_page() {
    let form = format!(
        "BT /F1 1 Tf {}ET",
        "(x) Tj ".repeat(MAX_PAGE_TEXT_BYTES + 1)
    );
    let doc = read_text(&with_form(b"/X Do", form.as_bytes())).expect("reads");
    assert!(
        doc.content
            .contains("[Page 1 was not read: it draws more text"),
        "{}",
        &doc.content[..200.min(doc.content.len())]
    );
}

#[test]
fn a_page_drawing_a_flood_of_text_is_left_empty_and_said_so() {
    let flood = "(x) Tj ".repeat(MAX_PAGE_TEXT_BYTES + 1);
    let content = format!("BT /F1 12 Tf 72 720 Td {flood} ET");
    let doc = read_text(&one_page(stream(content.as_bytes()), "")).expect("reads");
    assert!(
        doc.content
            .contains("[Page 1 was not read: it draws more text"),
        "{}",
        &doc.content[..200.min(doc.content.len())]
    );
}

#[test]
fn markdown_marks_pages() {
    let doc = extract(
        &tiny_pdf("Only page"),
        Mode::Markdown,
        None,
        &Limits::default(),
        &Budget::unlimited(),
    )
    .expect("reads");
    assert!(doc.content.contains("Only page"));
    assert!(!doc.content.contains("<!-- page"), "one page: no marks");
}

/// Pages 3.. of a document whose page objects are `dicts` (each ends a page dictionary
/// naming content object 3 + len(dicts) + k for `contents[k]`).
fn pages_pdf(dicts: &[(&str, usize)], contents: &[Vec<u8>]) -> Vec<u8> {
    let first_content = 3 + dicts.len();
    let kids: Vec<String> = (0..dicts.len()).map(|k| format!("{} 0 R", 3 + k)).collect();
    let mut objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            dicts.len()
        )
        .into_bytes(),
    ];
    for (extra, content) in dicts {
        objs.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                 /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont \
                 /Helvetica >> >> >> {extra} >>",
                first_content + content
            )
            .into_bytes(),
        );
    }
    objs.extend(contents.iter().map(|c| stream(c)));
    pdf_of(&objs, "")
}

/// A content of about `size` bytes (path operators pad it) drawing `word`.
fn padded(word: &str, size: usize) -> Vec<u8> {
    let mut c = format!("BT /F1 12 Tf 72 700 Td ({word}) Tj ET\n").into_bytes();
    while c.len() < size {
        c.extend_from_slice(b"10 10 m 20 20 l S\n");
    }
    c
}

/// Four pages, the first and the last naming one 40 KB content drawing "Alpha" (the last
/// page's dictionary ends with `fourth`), and limits whose content budget holds it once.
fn alpha_twice(fourth: &str) -> (Vec<u8>, Limits) {
    let contents = [
        padded("Alpha", 40_000),
        padded("Beta", 0),
        padded("Gamma", 0),
    ];
    let pdf = pages_pdf(&[("", 0), ("", 1), ("", 2), (fourth, 0)], &contents);
    let limits = Limits {
        max_content_bytes: 50_000,
        ..Limits::default()
    };
    (pdf, limits)
}

#[test]
fn a_page_that_is_an_earlier_page_again_is_read_as_it_was_at_no_cost() {
    // Pages 1 and 4 are two page objects alike entry for entry: the second costs the
    // content budget nothing, so all four pages fit.
    let (pdf, limits) = alpha_twice("");
    let md = extract(&pdf, Mode::Markdown, None, &limits, &Budget::unlimited())
        .expect("reads")
        .content;
    assert_eq!(md.matches("Alpha").count(), 2, "{md}");
    assert!(
        md.contains("<!-- page 4 of 4 -->") && !md.contains("Only the first"),
        "{md}"
    );
    let text = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited()).expect("reads");
    assert_eq!(text.pages_read, 4);
    assert_eq!(text.content.matches("Alpha").count(), 2, "{}", text.content);
}

#[test]
fn pages_past_the_documents_content_budget_are_not_read_and_the_text_says_so() {
    // The same 40 KB content under a page that differs (its `/Rotate`) is paid again.
    let (pdf, limits) = alpha_twice("/Rotate 0");
    let doc = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited()).expect("reads");
    assert_stopped(
        &doc,
        3,
        "together they draw from more than the 48 KiB of content a document may hold",
    );
    assert_eq!(doc.content.matches("Alpha").count(), 1, "{}", doc.content);
    // With the default limits every page is read.
    let all = extract(
        &pdf,
        Mode::Text,
        None,
        &Limits::default(),
        &Budget::unlimited(),
    )
    .expect("reads");
    assert_eq!(all.pages_read, 4);
}

#[test]
fn pages_drawing_more_text_than_the_output_could_show_are_not_read() {
    // Each page draws 1,500 spaces (no output) and a word: past twice the 2 KiB the
    // output may hold, the third page is not read, however little it would show.
    let page = |word: &str| {
        format!(
            "BT /F1 12 Tf 72 700 Td ({}) Tj 0 -20 Td ({word}) Tj ET\n",
            " ".repeat(1500)
        )
        .into_bytes()
    };
    let contents = [page("One"), page("Two"), page("Three"), page("Four")];
    let pdf = pages_pdf(&[("", 0), ("", 1), ("", 2), ("", 3)], &contents);
    let limits = Limits {
        max_output_bytes: 2048,
        ..Limits::default()
    };
    let doc = extract(&pdf, Mode::Text, None, &limits, &Budget::unlimited()).expect("reads");
    assert_stopped(
        &doc,
        2,
        "together they draw more than twice the 2 KiB of text the output may hold",
    );
    assert!(doc.content.contains("One") && !doc.content.contains("Three"));
}

/// `doc` read `pages` of its 4 pages and says why the rest were not read.
fn assert_stopped(doc: &PdfDocumentText, pages: usize, why: &str) {
    assert_eq!(doc.pages_read, pages, "{}", doc.content);
    let note = format!("[Only the first {pages} of 4 pages were read: {why}.]");
    assert!(doc.content.contains(&note), "{}", doc.content);
}

/// A page drawing each `(size, x, y, text)` in Helvetica, one text object each.
fn placed_page(runs: &[(f32, f32, f32, &str)]) -> Vec<u8> {
    let content: String = runs
        .iter()
        .map(|(size, x, y, text)| format!("BT /F1 {size} Tf {x} {y} Td ({text}) Tj ET\n"))
        .collect();
    one_page(stream(content.as_bytes()), "")
}

#[test]
fn side_by_side_boxes_read_one_after_the_other_and_a_form_row_by_row() {
    // An invoice's addressee beside its details, each box at its own pitch; below, labels
    // set 1.5 pt under their values on every row (a form: read row by row).
    let pdf = placed_page(&[
        (8.0, 50.0, 700.0, "Invoice to:"),
        (12.0, 50.0, 688.0, "Northwind Traders"),
        (12.0, 50.0, 676.0, "12 Harbour Road"),
        (12.0, 50.0, 664.0, "Portsmouth PO1 3AX"),
        (16.0, 320.0, 697.0, "Invoice"),
        (10.0, 320.0, 684.0, "Customer no. 2056981"),
        (10.0, 320.0, 670.5, "Reference 98559514"),
        (10.0, 320.0, 657.0, "Order date 16.02.2017"),
        (10.0, 50.0, 598.5, "Telephone"),
        (10.0, 150.0, 600.0, "+31 73 645 6500"),
        (10.0, 50.0, 586.0, "Telefax"),
        (10.0, 150.0, 587.5, "+31 73 645 6510"),
        (10.0, 50.0, 573.5, "E-mail"),
        (10.0, 150.0, 575.0, "sales@example.com"),
    ]);
    let flat = |mode: Mode| {
        let doc = extract(&pdf, mode, None, &Limits::default(), &Budget::unlimited());
        let text = doc.expect("reads").content;
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(
        flat(Mode::Text),
        "Invoice to: Northwind Traders 12 Harbour Road Portsmouth PO1 3AX Invoice Customer no. \
         2056981 Reference 98559514 Order date 16.02.2017 Telephone +31 73 645 6500 Telefax \
         +31 73 645 6510 E-mail sales@example.com"
    );
    // The Markdown view reads the boxes the same way (their larger lines are headings), no
    // table of their chance rows; the form is one.
    let md = flat(Mode::Markdown);
    assert!(
        md.contains("Northwind Traders 12 Harbour Road Portsmouth PO1 3AX # Invoice Customer"),
        "{md}"
    );
    assert!(md.contains("| Telefax | +31 73 645 6510 |"), "{md}");
}
