"""PDF reading: extract_pdf, the core's limits and errors, fetch_page over loopback, the CLI.

Fixtures are in tests/fixtures/pdf/ (see its README for how each was made); truncated files
and Flate bombs are built here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from webgrip import (
    FetchTimeoutError,
    Tools,
    UnsupportedContentError,
    _core,
    extract_pdf,
)


def _child_env() -> dict[str, str]:
    """The environment for a child interpreter that must import the webgrip this test imports
    (the source tree in development, site-packages once installed)."""
    import webgrip

    package_parent = str(Path(webgrip.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=package_parent + (os.pathsep + path if path else ""))


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pdf"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def words(text: str) -> str:
    return " ".join(text.split())


# -- text ------------------------------------------------------------------------------------
def test_two_columns_are_read_one_after_the_other():
    text = extract_pdf(fixture("columns.pdf"))
    left_end = text.index("Alpha axis left column line 23.")
    right_start = text.index("Omega zebra right column line 0.")
    assert left_end < right_start
    assert text.index("Alpha apple left column line 0.") < left_end
    assert "Alpha" not in text[right_start:]


def test_ligatures_are_spelled_out():
    text = extract_pdf(fixture("ligatures.pdf"))
    assert "The final office flow was effective." in words(text)
    assert not re.search("[\ufb00-\ufb06]", text)


def test_words_split_at_line_ends_are_rejoined():
    text = words(extract_pdf(fixture("hyphenation.pdf")))
    assert "to examine the proposal" in text
    assert "the chairwoman asked" in text
    assert "exam-" not in text


def test_running_headers_and_footers_are_dropped():
    text = extract_pdf(fixture("running.pdf"))
    assert "ACME Corporation Quarterly Report" not in text
    assert not re.search(r"Page \d of 4", text)
    for n in range(1, 5):
        assert f"{n * 17} units sold" in text
    assert text.startswith("Results of the Quarter\n\nBody paragraph of page 1")


def test_cid_font_text():
    text = words(extract_pdf(fixture("cid-identity-h.pdf")))
    assert "Faktura nr FV 1/2021" in text
    assert "Łódź" in text and "Spółka Akcyjna" in text


def test_map_labels_halo_and_rotated_glyphs():
    # A label drawn twice a point apart is read once; labels set glyph by glyph along a line
    # turned 90 degrees keep their words whole (the parser's span layer gave "Sa in t-Sa uv e ur").
    text = extract_pdf(fixture("map-labels.pdf"))
    assert words(text).count("Municipalité de Saint-Sauveur") == 1, text
    assert "Carte 25b - Zones inondables" in text, text
    assert re.search(r"^Saint-Sauveur$", text, re.MULTILINE), text
    assert "Flood zones of the municipality" in text.split("Municipalité")[0], text


def test_table_cells_are_printed_once():
    # The invoice's two pages are the same page (original and copy); each item row is on each
    # page once. pdf_oxide's table pass printed a table's first-column cells a second time.
    text = words(extract_pdf(fixture("cid-identity-h.pdf")))
    assert text.count("Testy Książę") == 2, text
    assert text.count("Dokumentacja - żółw") == 2, text
    assert "1 Testy Książę szt. 1 33,00 23% 33,00 40,59" in text


# -- markdown and metadata --------------------------------------------------------------------
def test_markdown_heading_and_page_marks():
    md = extract_pdf(fixture("running.pdf"), mode="markdown")
    assert re.search(r"^#{1,3} \**Results of the Quarter\**$", md, re.MULTILINE), md
    for n in range(2, 5):
        assert f"<!-- page {n} of 4 -->" in md
    assert md.index("<!-- page 2 of 4 -->") < md.index("34 units sold")
    assert "ACME Corporation Quarterly Report" not in md


def test_markdown_headings_lists_and_columns_from_the_layout():
    md = extract_pdf(fixture("structure.pdf"), mode="markdown")
    # Levels from the distinct heading sizes (22 pt, 14 pt); the bold line at body size is
    # one below them. Nothing else is a heading.
    headings = re.findall(r"^#+ .*$", md, re.MULTILINE)
    assert headings == [
        "# Field Survey of River Birds",
        "## Summary",
        "## Findings by Season",
        "### Method",
    ], md
    assert md.startswith("# Field Survey of River Birds\n\n## Summary\n\nVolunteers walked")
    # Bullets become one list, the wrapped item joined; numbered items stay as they are.
    assert (
        "\n\n- Herons were seen at every post in every month.\n"
        "- Kingfishers nested in two banks cut by the spring flood and fed their young well "
        "into August.\n- Dippers kept to the fast water below the weir.\n\n"
    ) in md, md
    assert (
        "\n\n1. Counts were highest in October.\n2. Counts were lowest after the January frost.\n\n"
    ) in md, md
    # Two columns: the left one read (and joined into a paragraph) before the right one.
    left = md.index("In spring the first migrants arrived at the lower posts")
    right = md.index("In autumn the flocks of finches fed on the alder seed")
    assert md.index("## Findings by Season") < left < right < md.index("### Method"), md
    assert "the sand martins dug their burrows in the same cliff" in md
    # The text view of the same page has no Markdown in it.
    text = extract_pdf(fixture("structure.pdf"), mode="text")
    assert "#" not in text and "\n- " not in text
    assert words(re.sub(r"^#+ |^- |^• ", "", md, flags=re.MULTILINE)) == words(
        text.replace("• ", "")
    )


def test_metadata():
    meta = extract_pdf(fixture("running.pdf"), mode="metadata")
    assert meta["title"] == "Quarterly report"
    assert meta["author"] == "webgrip tests"
    assert meta["subject"] == "fixture"
    assert meta["pages"] == 4
    assert meta["created"] is None or re.match(r"\d{4}-\d\d-\d\d", meta["created"])


def test_core_result_shape():
    doc = _core.extract_pdf(fixture("running.pdf"), max_pages=2)
    assert doc["pages_read"] == 2 and doc["metadata"]["pages"] == 4
    assert "Only the first 2 of 4 pages were read" in doc["content"]
    assert doc["no_text"] is False


def test_no_text_layer_says_so():
    doc = _core.extract_pdf(fixture("image-only.pdf"))
    assert doc["no_text"] is True
    assert "no text layer" in doc["content"] and "OCR" in doc["content"]


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown mode"):
        extract_pdf(fixture("columns.pdf"), mode="html")
    with pytest.raises(TypeError):
        extract_pdf("not bytes")  # type: ignore[arg-type]


# -- encryption --------------------------------------------------------------------------------
def test_empty_user_password_is_opened():
    assert "examine the proposal" in words(extract_pdf(fixture("encrypted-empty-password.pdf")))


def test_password_protected_needs_the_password():
    data = fixture("encrypted-password.pdf")
    with pytest.raises(UnsupportedContentError) as info:
        extract_pdf(data)
    assert info.value.reason == "password-protected"
    assert "password-protected" in str(info.value)
    with pytest.raises(UnsupportedContentError, match="password given is wrong"):
        extract_pdf(data, password="wrong")
    assert "examine the proposal" in words(extract_pdf(data, password="open-sesame"))


def test_rc4_sample_with_user_password():
    data = fixture("rc4-40-user-baz.pdf")
    with pytest.raises(UnsupportedContentError):
        extract_pdf(data)
    assert "Secret!" in extract_pdf(data, password="baz")


# -- hostile input -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["running.pdf", "columns.pdf", "cid-identity-h.pdf"])
@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_truncated_files_are_read_or_refused_cleanly(name, keep):
    data = fixture(name)
    try:
        text = extract_pdf(data[: int(len(data) * keep)])
    except UnsupportedContentError as exc:
        assert exc.reason == "malformed-pdf"
    else:
        assert isinstance(text, str)


def test_damaged_sample_is_read_or_refused_cleanly():
    try:
        text = extract_pdf(fixture("zen_of_python_corrupted.pdf"))
    except UnsupportedContentError as exc:
        assert exc.reason == "malformed-pdf"
    else:
        assert isinstance(text, str)


def test_not_a_pdf_is_refused():
    with pytest.raises(UnsupportedContentError) as info:
        extract_pdf(b"%PDF-1.7\nthis is not really a PDF at all")
    assert info.value.reason == "malformed-pdf"
    assert info.value.content_type == "application/pdf"


def _pdf_with_content_stream(stream: bytes, filters: str = "/Filter /FlateDecode") -> bytes:
    """A one-page PDF whose page content is ``stream`` (already encoded), with a valid xref."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 "
        b"/BaseFont /Helvetica >> >> >> >>",
        b"<< /Length %d %s >>\nstream\n" % (len(stream), filters.encode())
        + stream
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def test_hand_built_pdf_reads():
    content = zlib.compress(b"BT /F1 12 Tf 72 720 Td (Hello from a hand-built PDF) Tj ET")
    assert "Hello from a hand-built PDF" in extract_pdf(_pdf_with_content_stream(content))


def _flate_bomb(size: int) -> bytes:
    """``size`` bytes of text-drawing operators compressed (about 1000:1)."""
    comp = zlib.compressobj(9)
    chunk = b"BT ET " * (1 << 16)
    parts = [comp.compress(chunk) for _ in range(size // len(chunk))]
    parts.append(comp.flush())
    return b"".join(parts)


def test_flate_bomb_is_bounded_in_time_and_memory():
    """A 1 GiB page stream (1 MB compressed) is cut by the parser's stream limits; the child
    process that reads it, and the PDF reader process it reads it in, stay far below the
    gigabyte it would take to inflate."""
    bomb = _pdf_with_content_stream(_flate_bomb(1 << 30))
    assert len(bomb) < 4 << 20
    code = (
        "import resource, sys, webgrip\n"
        "data = sys.stdin.buffer.read()\n"
        "try:\n"
        "    webgrip.extract_pdf(data)\n"
        "    outcome = 'read'\n"
        "except webgrip.WebgripError as exc:\n"
        "    outcome = type(exc).__name__\n"
        "webgrip._pdfpool.stop_workers()  # reaped: its peak joins RUSAGE_CHILDREN\n"
        # VmHWM, not RUSAGE_SELF: Linux carries ru_maxrss across exec, so a child of a big
        # test process would report its parent's size.
        "own = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n"
        "peak = max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(outcome, peak)\n"
    )
    env = _child_env()
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", code],
        input=bomb,
        capture_output=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    outcome, rss_kb = result.stdout.decode().split()
    assert outcome in ("read", "UnsupportedContentError")
    assert int(rss_kb) < 600 * 1024, f"peak RSS {int(rss_kb) // 1024} MiB"
    assert time.monotonic() - started < 60


def test_deadline_and_cancel_stop_the_read():
    data = fixture("running.pdf")
    with pytest.raises(FetchTimeoutError) as info:
        _core.extract_pdf(data, timeout=0)
    assert info.value.reason == "timeout"
    token = _core.CancelToken()
    token.cancel()
    with pytest.raises(FetchTimeoutError) as info:
        _core.extract_pdf(data, cancel=token)
    assert info.value.reason == "cancelled"


def test_too_large_input_is_refused_before_parsing():
    from webgrip import ResponseTooLargeError

    # Far over the core's cap but cheap: a bytes object of zeros after the magic.
    big = b"%PDF-1.7\n" + bytes(300 * 1024 * 1024)
    with pytest.raises(ResponseTooLargeError) as info:
        _core.extract_pdf(big)
    assert info.value.limit == 256 * 1024 * 1024


# -- fetch_page and the client ------------------------------------------------------------------
@pytest.fixture
def tools(tmp_path):
    return Tools(loopback_config(tmp_path))


def test_fetch_page_reads_a_pdf_in_parts(tools, httpserver):
    data = fixture("running.pdf")
    httpserver.expect_request("/report.pdf").respond_with_data(data, content_type="application/pdf")
    url = httpserver.url_for("/report.pdf")
    first = tools.fetch_page(url, extract="text", max_length=100)
    head, _, _ = first.partition("\n\n")
    assert "Title: Quarterly report" in head
    assert "Content-Type: application/pdf" in head
    assert "Pages: 4" in head
    m = re.search(r"start_index=(\d+)", first)
    assert m, first
    second = tools.fetch_page(url, extract="text", max_length=100, start_index=int(m.group(1)))
    assert "Pages: 4" in second
    # The second part came from the page cache: the server saw one request.
    assert len(httpserver.log) == 1
    page = tools.client.fetch(url, extract="text")
    assert page.content.startswith(first.split("\n\n", 1)[1][:80])
    assert page.metadata["pages"] == 4 and page.title == "Quarterly report"


def test_fetch_sniffs_a_mislabelled_pdf_and_reads_markdown(tools, httpserver):
    httpserver.expect_request("/download").respond_with_data(
        fixture("running.pdf"), content_type="application/octet-stream"
    )
    page = tools.client.fetch(httpserver.url_for("/download"), extract="markdown")
    assert page.content_type == "application/pdf"
    assert "<!-- page 2 of 4 -->" in page.content


def test_fetch_page_errors_for_pdfs(tools, httpserver):
    httpserver.expect_request("/locked.pdf").respond_with_data(
        fixture("encrypted-password.pdf"), content_type="application/pdf"
    )
    httpserver.expect_request("/broken.pdf").respond_with_data(
        b"%PDF-1.4\nnothing here", content_type="application/pdf"
    )
    httpserver.expect_request("/doc.pdf").respond_with_data(
        fixture("columns.pdf"), content_type="application/pdf"
    )
    locked = tools.fetch_page(httpserver.url_for("/locked.pdf"))
    assert locked.startswith("Error:") and "password-protected PDF" in locked
    broken = tools.fetch_page(httpserver.url_for("/broken.pdf"))
    assert broken.startswith("Error:") and "PDF that cannot be read" in broken
    links = tools.fetch_page(httpserver.url_for("/doc.pdf"), extract="links")
    assert links.startswith("Error:") and 'extract="markdown"' in links


def test_tool_description_says_pdfs_can_be_read():
    doc = Tools.fetch_page.__doc__ or ""
    assert "reads PDFs" in doc or "PDFs are read" in doc, doc


# -- CLI ------------------------------------------------------------------------------------------
def test_cli_extracts_a_pdf_file():
    env = _child_env()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "webgrip",
            "extract",
            str(FIXTURES / "running.pdf"),
            "--mode",
            "text",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    page = json.loads(result.stdout)
    assert page["content_type"] == "application/pdf"
    assert page["metadata"]["pages"] == 4
    assert "51 units sold" in page["content"]
    locked = subprocess.run(
        [sys.executable, "-m", "webgrip", "extract", str(FIXTURES / "encrypted-password.pdf")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert locked.returncode != 0
    assert "password-protected" in locked.stderr
