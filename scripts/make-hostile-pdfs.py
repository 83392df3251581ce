#!/usr/bin/env python3
"""Write the hostile PDF fixtures (tests/fixtures/pdf/hostile-*.pdf): one file per shape that
once crashed, pinned a core or took gigabytes (issue 29). Each is a few KiB at most; the fuzz
run takes them as seeds (fuzz/seeds.py reads every fixture PDF).

    python scripts/make-hostile-pdfs.py        # rewrites them byte-identically
"""

from __future__ import annotations

import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "pdf"
PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
    b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
    b">> >> >> %s >>"
)


def pdf(objects: list[bytes], trailer: bytes = b"") -> bytes:
    """``objects`` numbered from 1, a valid xref table, ``trailer`` entries after /Root."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(out)


def stream(content: bytes, *, compress: bool = False) -> bytes:
    if compress:
        content = zlib.compress(content, 9)
        return b"<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (
            len(content),
            content,
        )
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)


def one_page(content: bytes, page_extra: bytes = b"", trailer: bytes = b"") -> bytes:
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            PAGE % page_extra,
            content,
        ],
        trailer,
    )


def with_form(page_content: bytes, form_content: bytes) -> bytes:
    """One page whose content is ``page_content``, with a Form XObject ``/X`` drawing
    ``form_content`` in Helvetica (both streams compressed)."""
    font = b"/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"
    form = zlib.compress(form_content, 9)
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << " + font + b" /XObject << /X 5 0 R >> >> >>",
            stream(page_content, compress=True),
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << "
            + font
            + b" >> /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (len(form), form),
        ]
    )


def shared_content(pages: int, content: bytes, *, varied: bool) -> bytes:
    """``pages`` page objects naming one compressed content stream: alike entry for entry, or
    each with its own ``/StructParents`` (pages that differ, so none is read as another)."""
    content_number = 3 + pages
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        b">> >> >> %s >>"
    )
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
            *(
                page % (content_number, b"/StructParents %d" % i if varied else b"")
                for i in range(pages)
            ),
            stream(content, compress=True),
        ]
    )


# Six lines of text (the first two and last two are running lines on pages this alike) after
# 3.96 MB of path operators.
SHARED = (
    b"10 20 m 30 40 l\n" * 248_000
    + b"BT /F1 12 Tf 72 700 Td 14 TL "
    + b"".join(b"(Line %d of the page that every page names) '" % n for n in range(1, 7))
    + b" ET"
)

DEEP = b"[" * 30_000
SHAPES = {
    # Nested arrays as a content-stream operand (compressed: 721 bytes did it).
    "hostile-nested-content.pdf": one_page(stream(b"BT /F1 12 Tf " + DEEP + b" ET", compress=True)),
    # Nested dictionaries in the page dictionary, and arrays in the trailer.
    "hostile-nested-page.pdf": one_page(stream(b"BT ET"), b"/X " + b"<< /A " * 20_000),
    "hostile-nested-trailer.pdf": one_page(stream(b"BT ET"), trailer=b"/X " + DEEP),
    # Behind an unclosed string: the content parser fails on it and reads on one byte later.
    "hostile-nested-in-string.pdf": one_page(stream(b"BT (" + DEEP + b" ET", compress=True)),
    # A page tree whose /Pages node is its own kid, twice.
    "hostile-page-tree-loop.pdf": pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 2 0 R 3 0 R] /Count 3 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
        ]
    ),
    # 200,000 operands and no operator: the content parser rereads the operation from each
    # next byte (41 s of one core for 160,000 before the page scan refused it).
    "hostile-operands-no-operator.pdf": one_page(
        stream(b"BT /F1 12 Tf " + b"1 " * 200_000, compress=True)
    ),
    # A million one-character strings drawn on one page: about 18 KiB compressed.
    "hostile-text-flood.pdf": one_page(
        stream(b"BT /F1 1 Tf " + b"(x) Tj " * 1_000_000 + b"ET", compress=True)
    ),
    # A 1.25 MB run of digits in a text object (a fuzzed 9.7 KB file): the content parser
    # fails on it and reads it again from each next byte, 1,024 times.
    "hostile-long-token.pdf": one_page(
        stream(
            b"BT /F1 1 Tf (x) Tj (x)" + b" " * 1000 + b"1" * 1_250_000 + b"T  f ET", compress=True
        )
    ),
    # A string never closed, holding 100,000 `(`: each restart inside it opens a string that
    # runs on to the end (a fuzzed 6.4 KB file took 20 s).
    "hostile-unclosed-string.pdf": one_page(
        stream(b"BT /F1 1 Tf (x) Tj " + b"((((( x" * 20_000, compress=True)
    ),
    # 1,000 operands, 4 MiB of spaces, then a stray `)` (the shape of a fuzzed 9.6 KB file):
    # the content parser starts again after each operand byte, up to 1,024 times, and every
    # restart reads the spaces again (2.6 s a MiB; the operands' count alone looked harmless).
    "hostile-spaces-reread.pdf": one_page(
        stream(b"BT /F1 1 Tf (x) Tj " + b"1 " * 1000 + b" " * (4 << 20) + b" ) ET", compress=True)
    ),
    # 15,000 short runs, each at its own x with a gap before the next: every gap a candidate
    # column gutter (the layout tested each by filtering every run: seconds of CPU; the shape
    # of a fuzzed 66 KB file).
    # Set at 0.02 pt, 0.04 pt apart, so all of them fit across the page.
    "hostile-gutters.pdf": one_page(
        stream(
            b"BT /F1 0.02 Tf "
            + b"".join(
                b"1 0 0 1 %.2f %d Tm (12) Tj " % (10 + i * 0.04, 780 - i % 60 * 12)
                for i in range(15_000)
            )
            + b"ET",
            compress=True,
        )
    ),
    # One page painting one Form XObject 600 times, each under its own matrix, the form
    # drawing 20,000 one-character strings: the parser reads a form again for every matrix
    # and keeps every glyph (a 2.4 KB file ran the fuzzing build out of memory). The page's
    # own content is small; the forms it paints are charged to it (rust/pdf/src/forms.rs).
    "hostile-form-repeat.pdf": with_form(
        b"".join(b"q 1 0 0 1 %d 0 cm /X Do Q " % i for i in range(1, 601)),
        b"BT /F1 1 Tf " + b"(x) Tj " * 20_000 + b"ET",
    ),
    # hostile-text-flood.pdf's million strings moved into a form painted once.
    "hostile-form-flood.pdf": with_form(b"/X Do", b"BT /F1 1 Tf " + b"(x) Tj " * 1_000_000 + b"ET"),
    # Fifty page objects naming one content stream of 3.96 MB (a 16 KB file): each page paid
    # for reading it again, 50 times (9 s; 26 s in the fuzzing build, past its timeout).
    # Alike pages are read once (rust/pdf/src/repeats.rs); pages that differ stop at the
    # document's content budget (`Limits::max_content_bytes`), saying so.
    "hostile-shared-content.pdf": shared_content(50, SHARED, varied=False),
    "hostile-shared-content-varied.pdf": shared_content(50, SHARED, varied=True),
}


def main() -> None:
    for name, data in SHAPES.items():
        (OUT / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
