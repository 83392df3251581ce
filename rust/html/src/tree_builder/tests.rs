//! Tree-builder behaviours driven through html5ever's own tokenizer, so the tests need
//! nothing of webgrip-extract.

use super::TreeBuilder;
use crate::html5ever_driver::tokenize;
use crate::{html5lib_dump, Ns};

fn parse(html: &str) -> String {
    let b = tokenize(html, TreeBuilder::new(), None, None);
    let root = b.root();
    html5lib_dump(&b.into_dom(), root)
}

fn body(html: &str) -> String {
    let dump = parse(html);
    let start = dump.find("|   <body>").expect("a body");
    dump[start..].to_string()
}

#[test]
fn implied_tags() {
    assert_eq!(parse("x"), "| <html>\n|   <head>\n|   <body>\n|     \"x\"");
    assert_eq!(
        body("<p>a<p>b<li>c"),
        "|   <body>\n|     <p>\n|       \"a\"\n|     <p>\n|       \"b\"\n|     <li>\n|       \"c\""
    );
}

#[test]
fn adoption_agency() {
    assert_eq!(
        body("<a><p>x</a>y"),
        "|   <body>\n|     <a>\n|     <p>\n|       <a>\n|         \"x\"\n|       \"y\""
    );
    assert_eq!(
        body("<b>1<p>2</b>3"),
        "|   <body>\n|     <b>\n|       \"1\"\n|     <p>\n|       <b>\n|         \"2\"\n|       \"3\""
    );
}

#[test]
fn foster_parenting() {
    assert_eq!(
        body("<table>x<tr>"),
        "|   <body>\n|     \"x\"\n|     <table>\n|       <tbody>\n|         <tr>"
    );
}

#[test]
fn foreign_content() {
    // Names and attributes adjusted; `</svg>` inside the foreignObject's `<p>` is an in-body
    // end tag, ignored past the special `<p>`, so the second `<p>` stays inside.
    assert_eq!(
        body("<svg viewbox='0' xlink:href=a><foreignobject><p>x</svg><p>"),
        "|   <body>\n|     <svg svg>\n|       viewBox=\"0\"\n|       xlink href=\"a\"\n|       <svg foreignObject>\n|         <p>\n|           \"x\"\n|         <p>"
    );
    // A breakout tag leaves MathML.
    assert_eq!(
        body("<math><mi>a</mi><b>b"),
        "|   <body>\n|     <math math>\n|       <math mi>\n|         \"a\"\n|     <b>\n|       \"b\""
    );
}

#[test]
fn raw_text_and_noscript() {
    // `<b>` ends the head's noscript (and the head); the title's `<b>` is text.
    assert_eq!(
        body("<title><b></title><noscript><b>x</b></noscript>"),
        "|   <body>\n|     <b>\n|       \"x\""
    );
    let dump = parse("<head><noscript><link></noscript><style><b></style>");
    assert!(dump.contains("<noscript>\n|       <link>"), "{dump}");
    assert!(dump.contains("<style>\n|       \"<b>\""), "{dump}");
    // In body, scripting off: noscript content is markup.
    assert_eq!(
        body("<body><noscript><b>x</b></noscript>"),
        "|   <body>\n|     <noscript>\n|       <b>\n|         \"x\""
    );
}

#[test]
fn template_contents() {
    assert_eq!(
        body("<body><template><td>x</template>"),
        "|   <body>\n|     <template>\n|       content\n|         <td>\n|           \"x\""
    );
}

/// A fragment parse with html5ever's tokenizer started where the context asks.
fn fragment(html: &str, context: &str, ns: Ns) -> String {
    let b = tokenize(
        html,
        TreeBuilder::new_fragment(context, ns),
        TreeBuilder::fragment_raw_kind(context, ns),
        None,
    );
    let root = b.root();
    html5lib_dump(&b.into_dom(), root)
}

#[test]
fn fragments() {
    assert_eq!(fragment("<td>x", "tr", Ns::Html), "| <td>\n|   \"x\"");
    // No start tag was emitted, so no end tag is appropriate: `</title>` is text.
    assert_eq!(
        fragment("a<b></title>c", "title", Ns::Html),
        "| \"a<b></title>c\""
    );
    // In an SVG context, unknown tags are SVG elements with their names recased.
    assert_eq!(
        fragment("<clippath/><p>", "svg", Ns::Svg),
        "| <svg clipPath>\n| <p>"
    );
}

#[test]
fn cdata_only_in_foreign_content() {
    assert_eq!(
        body("<svg><![CDATA[<x>]]></svg><![CDATA[y]]>"),
        "|   <body>\n|     <svg svg>\n|       \"<x>\"\n|     <!-- [CDATA[y]] -->"
    );
}

#[test]
fn selectedcontent_mirrors_the_selected_option() {
    assert_eq!(
        body("<select><button><selectedcontent></button><option>A<option selected>B</select>"),
        "|   <body>\n|     <select>\n|       <button>\n|         <selectedcontent>\n|           \"B\"\n|       <option>\n|         \"A\"\n|       <option>\n|         selected=\"\"\n|         \"B\""
    );
}

/// In column group with a `<template>` (not a `colgroup`) as the current node, other
/// characters are ignored one at a time: the whitespace among them is still inserted (the
/// identity test's generated soup found the whole run dropped).
#[test]
fn column_group_in_template_keeps_whitespace_among_ignored_text() {
    assert_eq!(
        parse("<template><col>a b\nc</template>"),
        "| <html>\n|   <head>\n|     <template>\n|       content\n|         <col>\n|         \" \n\"\n|   <body>"
    );
}
