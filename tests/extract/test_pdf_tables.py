"""Tables in the PDF Markdown view (issue 50): aligned and ruled tables written as `|` tables,
a merged cell repeated in the columns it covers, prose in two columns left as prose.

The fixture is tests/fixtures/pdf/tables.pdf (made by make_generated.py, see its README); the
cell-level accuracy on many generated tables is measured by benches/pdf_tables.py.
"""

from __future__ import annotations

from pathlib import Path

from webgrip import extract_pdf

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "tables.pdf"


def markdown() -> str:
    md = extract_pdf(FIXTURE.read_bytes(), mode="markdown")
    assert isinstance(md, str)
    return md


def test_an_aligned_table_with_right_aligned_numbers_keeps_its_columns():
    # The numbers end where their column ends and start wherever their width puts them:
    # each stays under its left-aligned header.
    assert (
        "| Item | Unit | Price | Stock |\n"
        "| --- | --- | --- | --- |\n"
        "| green tea | box | 3.50 | 1,204 |\n"
        "| black coffee beans | kg | 18.00 | 36 |\n"
        "| honey | jar | 7.25 | 410 |\n"
        "| oat biscuits | pack | 2.10 | 9 |"
    ) in markdown()


def test_a_ruled_table_repeats_its_merged_cell_and_keeps_empty_cells():
    merged = "Rainfall in millimetres by season"
    assert (
        f"| Station | {merged} | {merged} |\n"
        "| --- | --- | --- |\n"
        "|  | Spring | Autumn |\n"
        "| Hill farm | 212 | 340 |\n"
        "| River mouth |  |  |\n"
        "| Old mill | 198 | 305 |"
    ) in markdown()


def test_prose_in_two_columns_stays_prose_and_text_has_no_tables():
    md = markdown()
    rules = [line for line in md.splitlines() if line.startswith("| --- |")]
    assert len(rules) == 2, md
    left = md.index("The survey ran for a year along the river, and each count was made")
    right = md.index("Counts from the hill farm start in March, when the new gauge")
    assert left < right
    text = extract_pdf(FIXTURE.read_bytes(), mode="text")
    assert isinstance(text, str)
    assert "|" not in text
    # The text view reads the rows in order, as before tables were found.
    assert "Item Unit Price Stock green tea box 3.50 1,204 black coffee beans" in text, text
