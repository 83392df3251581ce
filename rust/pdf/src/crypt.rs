//! Encrypted PDFs as the pre-passes read them: the streams decrypted with the parser's own
//! key, so a bomb, a deep nesting or a form painted many times is metered whether or not the
//! file is encrypted.
//!
//! Why: the pre-passes (`bombs`, `nesting`, `forms`) read the file's bytes, and an encrypted
//! stream's bytes are noise to them. An empty user password opens a document to anyone, so
//! encryption switched every charge off: 500,000 nested arrays in an RC4-40 form (1,627
//! bytes) overflowed the worker's stack and killed the process, and a 1 MiB file inflated to
//! 1 GiB. Here the standard security handler is opened before the parser sees the file, from
//! the trailer's `/Encrypt` dictionary and `/ID`, with the password the parser will be given
//! (the empty one, or the caller's); every stream is then metered both as it is and
//! decrypted with its object's key.
//!
//! The key derivation and the ciphers are pdf_oxide's own public `EncryptionHandler`
//! (Algorithms 1, 2, 2.A and 2.B of ISO 32000: RC4 40 and 128, AES-128 with `sAlT`, AES-256
//! R5/R6), so the bytes metered here are the bytes its parser will decrypt, key for key; and
//! [`Decryptor::check_parser_agrees`] refuses a file whose parser reads another `/Encrypt`
//! or `/ID` than the one found here. What cannot be opened this way (another security
//! handler, public-key security, a password neither given nor empty) is refused before the
//! parser reads anything.

use std::collections::HashMap;

use memchr::memmem;
use pdf_oxide::encryption::EncryptionHandler;
use pdf_oxide::object::{Object, ObjectRef};
use pdf_oxide::parser::parse_object;
use pdf_oxide::PdfDocument;

use crate::bombs::{self, RawStream};

/// An open standard security handler: the key for each stream.
pub struct Decryptor {
    handler: EncryptionHandler,
    /// Object numbers and generations the cross-reference table files a stream under other
    /// than its own header's, by where the stream's body starts (the parser decrypts with the
    /// table's, and only warns when the header differs).
    aliases: HashMap<usize, Vec<(u32, u16)>>,
    /// The `/Encrypt` dictionary (references in it resolved) and the first `/ID` string it
    /// was opened with, to compare with the parser's.
    encrypt: Object,
    file_id: Vec<u8>,
}

/// Why an encrypted file cannot be metered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Locked {
    /// Neither the given password nor the empty one opens it.
    Password,
    /// Encrypted in a way the pre-passes cannot decrypt (the message says how).
    Unsupported(String),
}

impl Decryptor {
    /// The trailer's security handler opened with `password` (tried first) or the empty
    /// user password; `Ok(None)` when no trailer names an `/Encrypt` dictionary. Call it only
    /// after `nesting::check_file` passed the file's own syntax (the dictionaries read here
    /// go through the parser's object reader).
    pub fn open(data: &[u8], password: Option<&str>) -> Result<Option<Decryptor>, Locked> {
        let Some(trailer) = last_encrypting_trailer(data) else {
            return Ok(None);
        };
        let Some(entry) = trailer.get("Encrypt") else {
            return Ok(None);
        };
        let encrypt = match entry {
            Object::Reference(r) => find_object(data, *r).ok_or_else(|| {
                Locked::Unsupported("its encryption dictionary cannot be found".into())
            })?,
            other => other.clone(),
        };
        let encrypt = resolve_entries(data, encrypt);
        let file_id = match trailer.get("ID") {
            Some(Object::Array(ids)) => ids
                .first()
                .and_then(Object::as_string)
                .map(<[u8]>::to_vec)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let dict = encrypt.as_dict().ok_or_else(|| {
            Locked::Unsupported("its encryption dictionary is not a dictionary".into())
        })?;
        match dict.get("Filter").and_then(Object::as_name) {
            Some("Standard") => {}
            Some(other) => {
                return Err(Locked::Unsupported(format!(
                    "it is encrypted with the /{other} security handler; only the standard \
                     (password) handler can be read"
                )))
            }
            None => {
                return Err(Locked::Unsupported(
                    "its encryption dictionary names no security handler".into(),
                ))
            }
        }
        let mut handler = EncryptionHandler::new(&encrypt, file_id.clone())
            .map_err(|e| Locked::Unsupported(crate::short(&e)))?;
        let mut tries: Vec<&[u8]> = vec![b""];
        if let Some(p) = password {
            tries.insert(0, p.as_bytes());
        }
        for p in tries {
            match handler.authenticate(p) {
                Ok(true) => {
                    return Ok(Some(Decryptor {
                        handler,
                        aliases: aliases(data)?,
                        encrypt,
                        file_id,
                    }))
                }
                Ok(false) => {}
                Err(e) => return Err(Locked::Unsupported(crate::short(&e))),
            }
        }
        Err(Locked::Password)
    }

    /// Stream `stream` of the file as the parser may decrypt it: under its header's number,
    /// and under any other the cross-reference table files it as (none for a stream the
    /// parser does not decrypt; a key that fails to decrypt it is skipped, as the parser
    /// cannot read it that way either). Cross-reference streams are never encrypted; the
    /// parser reads an object stream decrypted (after failing to read it as it is) with its
    /// number and generation 0.
    pub fn stream(&self, stream: &RawStream) -> Vec<Vec<u8>> {
        if names_type(stream.dict, b"/XRef") {
            return Vec::new();
        }
        let object_stream = names_type(stream.dict, b"/ObjStm");
        let mut keys: Vec<(u32, u16)> = stream.id.into_iter().collect();
        keys.extend(
            self.aliases
                .get(&stream.start)
                .into_iter()
                .flatten()
                .copied(),
        );
        if object_stream {
            keys.iter_mut().for_each(|k| k.1 = 0);
        }
        keys.sort_unstable();
        keys.dedup();
        let data = stream_data(stream);
        keys.into_iter()
            .filter_map(|(id, gen)| self.handler.decrypt_stream(data, id, u32::from(gen)).ok())
            .collect()
    }

    /// Decrypt one stream object the parser loaded (its raw bytes) and apply its filters.
    pub fn decode(&self, object: &Object, at: ObjectRef) -> Option<Vec<u8>> {
        let decrypt = |data: &[u8]| self.handler.decrypt_stream(data, at.id, u32::from(at.gen));
        object
            .decode_stream_data_with_decryption(Some(&decrypt), at.id, u32::from(at.gen))
            .ok()
    }

    /// Whether the parser opened the same `/Encrypt` dictionary and `/ID` as the pre-passes
    /// decrypted with: if not, what they metered is not what the parser reads.
    pub fn check_parser_agrees(&self, doc: &PdfDocument) -> Result<(), Locked> {
        let trailer = doc.trailer().as_dict();
        let theirs = trailer
            .and_then(|t| t.get("Encrypt"))
            .map(|e| match e.as_reference() {
                Some(r) => doc.load_object(r).unwrap_or(Object::Null),
                None => e.clone(),
            })
            .map(|e| match e {
                Object::Dictionary(mut d) => {
                    for v in d.values_mut() {
                        if let Some(r) = v.as_reference() {
                            *v = doc.load_object(r).unwrap_or(Object::Null);
                        }
                    }
                    Object::Dictionary(d)
                }
                other => other,
            });
        let their_id = match trailer.and_then(|t| t.get("ID")) {
            Some(Object::Array(ids)) => ids
                .first()
                .and_then(Object::as_string)
                .map(<[u8]>::to_vec)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        if theirs.as_ref() == Some(&self.encrypt) && their_id == self.file_id {
            Ok(())
        } else {
            Err(Locked::Unsupported(
                "its encryption dictionary is ambiguous (the file names more than one)".into(),
            ))
        }
    }
}

/// What a document whose parser found an `/Encrypt` the pre-passes did not may not be read.
pub fn unmetered() -> Locked {
    Locked::Unsupported("its encryption dictionary cannot be found".into())
}

/// The object numbers the file's cross-reference table (as the parser reads it) files each
/// stream under, where they differ from the stream's own `N G obj` header. More than one
/// other is refused: no writer files one object twice, and each costs the pre-passes a pass.
fn aliases(data: &[u8]) -> Result<HashMap<usize, Vec<(u32, u16)>>, Locked> {
    use pdf_oxide::xref::{find_xref_offset, parse_xref, XRefEntryType};
    let mut aliases: HashMap<usize, Vec<(u32, u16)>> = HashMap::new();
    let mut cursor = std::io::Cursor::new(data);
    let Ok(table) = find_xref_offset(&mut cursor).and_then(|at| parse_xref(&mut cursor, at)) else {
        // The parser rebuilds a broken table from the headers themselves.
        return Ok(aliases);
    };
    let streams: Vec<(usize, Option<(u32, u16)>)> =
        bombs::streams(data).map(|s| (s.start, s.id)).collect();
    for number in table.all_object_numbers() {
        let Some(entry) = table.get(number) else {
            continue;
        };
        if entry.entry_type != XRefEntryType::Uncompressed || !entry.in_use {
            continue;
        }
        let Ok(at) = usize::try_from(entry.offset) else {
            continue;
        };
        // The stream after the offset is this object's if no object ends in between (the
        // parser also looks a little before a offset that misses its header).
        let next = streams.partition_point(|&(start, _)| start <= at);
        let Some(&(start, header)) = streams.get(next) else {
            continue;
        };
        let between = &data[at.min(start)..start];
        if between.len() > 8192 || memmem::find(between, b"endobj").is_some() {
            continue;
        }
        let key = (number, entry.generation);
        if header == Some(key) {
            continue;
        }
        let others = aliases.entry(start).or_default();
        others.push(key);
        if others.len() > 1 {
            return Err(Locked::Unsupported(
                "its cross-reference table files one stream under several object numbers".into(),
            ));
        }
    }
    Ok(aliases)
}

/// The bytes of a stream as the parser takes them: `/Length` bytes when a direct length fits
/// (`lengths` has corrected short ones), else the body without the end of line before
/// `endstream` (a block cipher's input must stay whole).
fn stream_data<'a>(stream: &RawStream<'a>) -> &'a [u8] {
    if let Some(n) = direct_length(stream.dict).filter(|&n| n <= stream.body.len()) {
        return &stream.body[..n];
    }
    let mut body = stream.body;
    if let Some(rest) = body.strip_suffix(b"\n") {
        body = rest;
    }
    if let Some(rest) = body.strip_suffix(b"\r") {
        body = rest;
    }
    body
}

/// `/Length N` given directly in a stream dictionary (not `N G R`).
fn direct_length(dict: &[u8]) -> Option<usize> {
    let at = memmem::rfind(dict, b"/Length")? + 7;
    let rest = dict.get(at..)?;
    if rest.first().is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let rest = trim_start(rest);
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let after = trim_start(&rest[digits..]);
    if digits == 0 || digits > 12 || after.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().take_while(|b| is_space(**b)).count();
    &bytes[n..]
}

/// Whether a stream dictionary's `/Type` is `name` (`/Type /XRef`, spaces optional).
fn names_type(dict: &[u8], name: &[u8]) -> bool {
    memmem::find_iter(dict, b"/Type").any(|i| {
        let rest = trim_start(&dict[i + 5..]);
        rest.starts_with(name)
            && rest
                .get(name.len())
                .is_none_or(|b| !b.is_ascii_alphanumeric())
    })
}

/// The last trailer dictionary in the file that names `/Encrypt`: a `trailer` keyword's, or a
/// cross-reference stream's (the newest update's comes last).
fn last_encrypting_trailer(data: &[u8]) -> Option<HashMap<String, Object>> {
    let mut found: Option<(usize, HashMap<String, Object>)> = None;
    let mut consider = |at: usize, bytes: &[u8]| {
        if memmem::find(bytes, b"/Encrypt").is_none() && memmem::find(bytes, b"#").is_none() {
            return;
        }
        if let Ok((_, Object::Dictionary(d))) = parse_object(bytes) {
            if d.contains_key("Encrypt") && found.as_ref().is_none_or(|(f, _)| *f <= at) {
                found = Some((at, d));
            }
        }
    };
    for kw in memmem::find_iter(data, b"trailer") {
        let rest = trim_start(&data[kw + 7..]);
        if rest.starts_with(b"<<") {
            consider(kw, &rest[..rest.len().min(64 * 1024)]);
        }
    }
    for stream in bombs::streams(data) {
        if names_type(stream.dict, b"/XRef") {
            consider(stream.start, stream.dict);
        }
    }
    found.map(|(_, d)| d)
}

/// Object `r`'s value from its last `N G obj` header in the file (an update's replaces the
/// original's); its stream, if any, is not read.
fn find_object(data: &[u8], r: ObjectRef) -> Option<Object> {
    let header = format!("{} {} obj", r.id, r.gen);
    let at = memmem::rfind_iter(data, header.as_bytes())
        .find(|&i| i == 0 || !data[i - 1].is_ascii_digit())?;
    let rest = &data[at + header.len()..];
    parse_object(&rest[..rest.len().min(64 * 1024)])
        .ok()
        .map(|(_, o)| o)
}

/// The dictionary with each reference among its values replaced by the object (as the
/// parser resolves `/O 7 0 R` and the like).
fn resolve_entries(data: &[u8], encrypt: Object) -> Object {
    match encrypt {
        Object::Dictionary(mut d) => {
            for v in d.values_mut() {
                if let Some(r) = v.as_reference() {
                    *v = find_object(data, r).unwrap_or(Object::Null);
                }
            }
            Object::Dictionary(d)
        }
        other => other,
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x00 | 0x0C)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encrypted by `tests/fixtures/pdf/make_hostile.py` (its own RC4, MD5 from hashlib, AES from
    /// `cryptography`; poppler reads them): known answers for the key derivation here.
    fn fixture(name: &str) -> Vec<u8> {
        let path = format!(
            "{}/../../tests/fixtures/pdf/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Object `id`'s stream decrypted and inflated.
    fn plain_stream(data: &[u8], crypt: &Decryptor, id: u32) -> Vec<u8> {
        let stream = bombs::streams(data)
            .find(|s| s.id.map(|(n, _)| n) == Some(id))
            .expect("the stream is there");
        let plain = crypt.stream(&stream).pop().expect("decrypts");
        let mut out = Vec::new();
        bombs::inflated_size(&plain, 1 << 20, &mut [0u8; 4096], |p| {
            out.extend_from_slice(p)
        });
        out
    }

    #[test]
    fn each_standard_handler_opens_with_the_empty_password() {
        for name in [
            "encrypted-rc4-128.pdf",
            "encrypted-aes-128.pdf",
            "encrypted-aes-256.pdf",
            "hostile-encrypted-form-repeat.pdf",
        ] {
            let data = fixture(name);
            let crypt = Decryptor::open(&data, None)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"))
                .unwrap_or_else(|| panic!("{name}: not seen as encrypted"));
            let content = plain_stream(&data, &crypt, 4);
            assert!(
                content.starts_with(b"BT /F1 ") || content.starts_with(b"q 1 0 0 1"),
                "{name}: {:?}",
                &content[..content.len().min(40)]
            );
        }
    }

    #[test]
    fn the_prepasses_see_through_the_encryption_only_decrypted() {
        // 500,000 nested arrays in an RC4-40 form: noise as it is, refused decrypted.
        let data = fixture("hostile-encrypted-nested-form.pdf");
        let crypt = Decryptor::open(&data, None).ok().flatten().expect("opens");
        assert_eq!(crate::nesting::check_file(&data, 64 << 20, None), Ok(()));
        assert_eq!(
            crate::nesting::check_file(&data, 64 << 20, Some(&crypt)),
            Err(crate::nesting::TooDeep::Depth(
                500_000,
                crate::nesting::MAX_DEPTH
            ))
        );
        // An 80 MiB stream of spaces under RC4-40.
        let data = fixture("hostile-encrypted-bomb.pdf");
        let crypt = Decryptor::open(&data, None).ok().flatten().expect("opens");
        assert_eq!(bombs::check(&data, 64 << 20, 512 << 20, None), Ok(()));
        assert_eq!(
            bombs::check(&data, 64 << 20, 512 << 20, Some(&crypt)),
            Err(bombs::Bomb::Stream(64 << 20))
        );
    }

    #[test]
    fn an_object_stream_is_decrypted_and_a_cross_reference_stream_is_not() {
        let data = fixture("encrypted-objstm-rc4-40.pdf");
        let crypt = Decryptor::open(&data, None).ok().flatten().expect("opens");
        assert_eq!(
            plain_stream(&data, &crypt, 5),
            b"6 0 << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
        );
        let xref = bombs::streams(&data)
            .find(|s| s.id.map(|(n, _)| n) == Some(7))
            .expect("the cross-reference stream");
        assert!(crypt.stream(&xref).is_empty());
    }

    #[test]
    fn a_stream_filed_under_another_number_is_decrypted_under_both() {
        let mut data = fixture("hostile-encrypted-nested-objstm.pdf");
        let at = memmem::find(&data, b"5 0 obj").expect("the object stream");
        data[at] = b'9';
        let crypt = Decryptor::open(&data, None).ok().flatten().expect("opens");
        let objstm = bombs::streams(&data)
            .find(|s| s.id == Some((9, 0)))
            .expect("renumbered");
        assert_eq!(crypt.aliases.get(&objstm.start), Some(&vec![(5, 0)]));
        assert_eq!(crypt.stream(&objstm).len(), 2);
    }

    #[test]
    fn a_user_password_is_needed_and_the_right_one_opens() {
        // pdfminer.six's sample: RC4 40-bit, user password `baz`.
        let data = fixture("rc4-40-user-baz.pdf");
        assert_eq!(Decryptor::open(&data, None).err(), Some(Locked::Password));
        assert_eq!(
            Decryptor::open(&data, Some("wrong")).err(),
            Some(Locked::Password)
        );
        assert!(matches!(Decryptor::open(&data, Some("baz")), Ok(Some(_))));
    }

    #[test]
    fn another_security_handler_is_refused_and_a_plain_file_is_not_encrypted() {
        let data = fixture("encrypted-aes-128.pdf");
        let at = memmem::find(&data, b"/Filter /Standard").expect("the handler's name");
        let mut other = data.clone();
        other[at..at + 17].copy_from_slice(b"/Filter /PubSecXY");
        match Decryptor::open(&other, None) {
            Err(Locked::Unsupported(why)) => assert!(why.contains("/PubSecXY"), "{why}"),
            Err(e) => panic!("{e:?}"),
            Ok(_) => panic!("opened"),
        }
        assert!(matches!(
            Decryptor::open(&fixture("hostile-nested-page.pdf"), None),
            Ok(None)
        ));
    }
}
