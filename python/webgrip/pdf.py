"""Read PDFs: text or Markdown in reading order, and the document's metadata.

The Rust core parses the PDF (``pdf_oxide``) and enforces every limit itself: input size,
decompressed stream size, nesting depth, page count and the deadline. It runs in a worker
process (:mod:`webgrip._pdfpool`) under memory and CPU limits, so a PDF that crashes or
exhausts the reader fails its own call and nothing else.
"""

from __future__ import annotations

from typing import Any

from . import _cancel, _pdfpool

__all__ = ["PDF_MODES", "extract_pdf", "is_pdf"]

#: The views :func:`extract_pdf` can produce.
PDF_MODES = ("text", "markdown", "metadata")


def is_pdf(body: bytes) -> bool:
    """Whether ``body`` starts like a PDF (``%PDF-``, after up to 1 KiB of junk as readers
    allow)."""
    return b"%PDF-" in body[:1024]


def extract_pdf(data: bytes, *, mode: str = "text", password: str | None = None) -> Any:
    """Read a PDF.

    - ``"text"`` → ``str``: paragraphs in reading order (columns one after the other),
      wrapped lines and hyphen-split words re-joined, ligatures spelled out, headers and
      footers repeated on every page dropped.
    - ``"markdown"`` → ``str``: the same with headings (from font size and weight), lists, and
      a ``<!-- page N of M -->`` line where each page after the first begins.
    - ``"metadata"`` → ``dict``: ``title``, ``author``, ``subject``, ``keywords``, ``creator``,
      ``producer``, ``created``, ``modified`` (``str | None``, dates ISO 8601) and ``pages``.

    Encrypted PDFs open with ``password`` or else the empty user password. A PDF without a
    text layer (scanned pages) gives a one-line note saying so instead of empty text.

    The document is read in a separate process (started on the first PDF and reused), so a
    PDF that crashes the reader or exhausts its memory or CPU limit raises for this call
    alone. A cancel token set by the caller (:mod:`webgrip._cancel`) stops the read.

    Raises :class:`~webgrip.errors.UnsupportedContentError` with ``reason``
    ``"password-protected"`` or ``"malformed-pdf"`` (also when the reader stopped on the
    document), :class:`~webgrip.errors.ResponseTooLargeError` past the core's size cap and
    :class:`~webgrip.errors.FetchTimeoutError` (``reason`` ``"cancelled"``) when cancelled.
    """
    if mode not in PDF_MODES:
        raise ValueError(f"unknown mode {mode!r}: expected one of {', '.join(PDF_MODES)}")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    view = "text" if mode == "metadata" else mode
    # Metadata alone still reads the pages' text: the first page is enough for the count.
    doc = _pdfpool.extract_pdf(
        bytes(data),
        mode=view,
        password=password,
        cancel=_cancel.current(),
        max_pages=1 if mode == "metadata" else None,
    )
    return dict(doc["metadata"]) if mode == "metadata" else doc["content"]
