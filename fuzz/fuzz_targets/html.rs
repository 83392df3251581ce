//! Bytes off the wire through everything a fetched page goes through: charset decoding, the
//! lexer with its guard, html5ever's tree builder, and every view (text, Markdown, links,
//! tables, metadata, main content). Crashes, hangs and runaway memory are the findings.
//!
//! Input: one flag byte (which views, main content, which Content-Type), then the body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use webgrip_extract::{
    decode_body_borrowed, extract, Budget, Modes, Options, ReadableScorer, TrackingRules,
};

const CONTENT_TYPES: [Option<&str>; 4] = [
    None,
    Some("text/html; charset=utf-8"),
    Some("text/html; charset=\"windows-1252\""),
    Some("text/html;charset=shift_jis"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, body)) = data.split_first() else {
        return;
    };
    let content_type = CONTENT_TYPES[usize::from(flags >> 6)];
    let (html, _encoding) = decode_body_borrowed(body, content_type);
    let modes = Modes {
        markdown: flags & 1 != 0,
        text: flags & 2 != 0,
        links: flags & 4 != 0,
        tables: flags & 8 != 0,
        metadata: flags & 16 != 0,
    };
    let tracking = TrackingRules::new::<&str>(&[]);
    let options = Options {
        main_content: flags & 32 != 0,
        tracking: Some(&tracking),
        frame_marker: (flags & 64 != 0).then_some("\u{E000}"),
        // The flag byte has no bit left: inputs of odd length run the learned block scorer
        // after the rules (`readable_model=True`), the others the rules alone.
        readable: if body.len() % 2 == 1 {
            ReadableScorer::Model
        } else {
            ReadableScorer::Rules
        },
    };
    let url = Some("https://example.com/dir/page.html?q=1#top");
    let out = extract(&html, url, modes, options, &Budget::unlimited());
    let Ok(out) = out else {
        panic!("an unlimited budget was spent");
    };
    // A view is there exactly when it was asked for.
    assert_eq!(out.markdown.is_some(), modes.markdown);
    assert_eq!(out.text.is_some(), modes.text);
    assert_eq!(out.links.is_some(), modes.links);
    assert_eq!(out.tables.is_some(), modes.tables);
    assert_eq!(out.frames.is_some(), flags & 64 != 0);
    assert_eq!(out.metadata.is_some(), modes.metadata);
});
