//! Charset detection and decoding: BOM, the Content-Type `charset` parameter, the `<meta>`
//! prescan and the statistical detector, on hostile bytes and hostile header values.
//!
//! Input: a Content-Type value on the first line (none if there is no newline), then the body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use webgrip_extract::internals::charset;
use webgrip_extract::{decode_body, decode_body_borrowed};
use webgrip_fuzz::split_line;

fuzz_target!(|data: &[u8]| {
    let (header, body) = split_line(data);
    let header = String::from_utf8_lossy(header);
    let content_type = (!header.is_empty()).then_some(&*header);
    let (encoding, skip) = charset::choose(body, content_type);
    assert!(skip <= body.len(), "BOM longer than the body");
    let (text, name) = decode_body_borrowed(body, content_type);
    assert_eq!(name, encoding.name());
    // Decoding is total and deterministic: the owned form says the same.
    let (owned, owned_name) = decode_body(body, content_type);
    assert_eq!(owned, text);
    assert_eq!(owned_name, name);
    // A charset parameter is a piece of the header it came from.
    if let Some(param) = content_type.and_then(charset::charset_param) {
        assert!(!param.is_empty() && header.contains(param));
    }
    // Valid UTF-8 with no BOM, no declared charset and no meta prescan hit stays as it is.
    if content_type.is_none() && name == "UTF-8" {
        if let Ok(s) = std::str::from_utf8(&body[skip..]) {
            assert_eq!(&*text, s);
        }
    }
});
