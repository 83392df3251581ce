"""Content-type dispatch, word-boundary slicing and the document cache (no network)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from webgrip.messages import describe_media_type
from webgrip.page import Page
from webgrip.page_builder import DocumentCache, classify, slice_text


@pytest.mark.parametrize(
    ("content_type", "body", "kind"),
    [
        ("text/html; charset=utf-8", b"<p>x", "html"),
        ("application/xhtml+xml", b"<html/>", "html"),
        ("application/json", b"{}", "json"),
        ("application/ld+json", b"{}", "json"),
        ("text/plain", b"x", "text"),
        ("text/csv", b"a,b", "text"),
        ("application/xml", b"<a/>", "text"),
        ("application/atom+xml", b"<feed/>", "text"),
        ("application/pdf", b"%PDF-1.7", "pdf"),
        ("application/x-pdf", b"", "pdf"),
        ("image/png", b"\x89PNG", "binary"),
        ("video/mp4", b"", "binary"),
        (None, b"<!DOCTYPE html><html><body>x", "html"),
        (None, b'{"a": 1}', "json"),
        (None, b"just words", "text"),
        ("application/octet-stream", b"%PDF-1.4", "pdf"),
        (None, b"\r\n%PDF-1.4", "pdf"),
        ("application/octet-stream", b"\x00\x01\x02", "binary"),
        ("application/octet-stream", b"hello there", "text"),
    ],
)
def test_classify(content_type, body, kind):
    assert classify(content_type, body)[0] == kind


def test_describe_media_type():
    assert describe_media_type("application/pdf") == "a PDF document"
    assert describe_media_type("image/png") == "an image file (image/png)"
    assert describe_media_type("application/zip") == "an archive (application/zip)"
    assert describe_media_type(None) == "a binary file"


def test_slice_prefers_word_boundaries():
    text = "alpha beta gamma delta epsilon"
    chunk, end = slice_text(text, 0, 13)
    assert chunk == "alpha beta " and end == 11
    assert slice_text(text, end, 100) == ("gamma delta epsilon", len(text))


def test_slice_prefers_newline_near_the_end():
    text = "first line here\nsecond words"
    assert slice_text(text, 0, 18)[0] == "first line here\n"


def test_slice_hard_cut_without_spaces():
    assert slice_text("x" * 50, 0, 20) == ("x" * 20, 20)


@given(st.text(max_size=3000), st.integers(min_value=1, max_value=500))
def test_slices_reassemble_exactly(text, size):
    parts, start = [], 0
    while start < len(text):
        chunk, end = slice_text(text, start, size)
        assert 0 < len(chunk) <= size and end == start + len(chunk)
        parts.append(chunk)
        start = end
    assert "".join(parts) == text


def page(n: int) -> Page:
    return Page(
        url=f"u{n}",
        final_url=f"u{n}",
        status=200,
        content_type="text/plain",
        extract="text",
        content=str(n),
    )


def test_document_cache_lru_bounded():
    cache = DocumentCache(2, ttl=0)
    cache.put("a", page(1))
    cache.put("b", page(2))
    assert cache.get("a").content == "1"  # a is now most recent
    cache.put("c", page(3))
    assert cache.get("b") is None and cache.get("a") is not None and len(cache) == 2


def test_document_cache_disabled_and_expiring(monkeypatch):
    off = DocumentCache(0, ttl=10)
    off.put("a", page(1))
    assert off.get("a") is None
    import webgrip.page_builder as page_builder

    now = [1000.0]
    monkeypatch.setattr(page_builder.time, "monotonic", lambda: now[0])
    cache = DocumentCache(4, ttl=10)
    cache.put("a", page(1))
    now[0] += 9
    assert cache.get("a") is not None
    now[0] += 2
    assert cache.get("a") is None
