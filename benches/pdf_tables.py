#!/usr/bin/env python3
"""Tables in the PDF Markdown view: cell-level accuracy on generated PDFs of known tables.

Each document is one page with a paragraph of prose, a table and another paragraph; the table
is drawn either *aligned* (text only, columns set apart by white space, at least 20 pt between
two cells' text; text columns start at the column's left, number columns end at its right) or
*ruled* (the same, inside a grid of lines, 4 pt inside each rule: 8 pt between cells' text).
Shapes vary from seed to seed: 3-14 rows, 2-7 columns, one to three words a cell, numbers, an
empty cell now and then, and in about a third of the tables of three columns or more a group
row over the header whose second cell spans columns 1 and 2 (counted as its text in both, as
webgrip's HTML tables repeat a spanning cell). Font sizes 8-11 pt.

A cell counts as right when the Markdown table that holds the most of the document's cells
has exactly that cell's text (spaces collapsed) in the same row and column; empty cells are
not counted. A document with no `|` table scores 0 for every cell.

Usage (from the repository root; needs ``pip install reportlab`` and the built extension)::

    PYTHONPATH=python python benches/pdf_tables.py            # 100 tables of each kind
    PYTHONPATH=python python benches/pdf_tables.py --n 300 --seed 7 --show 3  # worst 3 shown

Scores are reported, never asserted.
"""

from __future__ import annotations

import argparse
import io
import random
import re

import webgrip
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = A4
WORDS = [
    *("alpha", "beta", "gamma", "delta", "north", "south", "east", "west", "river", "stone"),
    *("cedar", "maple", "copper", "silver", "harbor", "market", "bridge", "lantern", "meadow"),
    *("summit", "orchard", "quarry", "valley", "signal", "engine"),
]
PROSE = (
    "The committee reviewed the figures below at its spring meeting and agreed that the "
    "results should be shared with every member before the next session, together with a "
    "short note on how each figure was collected and what it leaves out."
)
FONT = "Helvetica"


def make_table(rng: random.Random) -> tuple[list[list[str]], list[bool]]:
    """A header row and body rows; per column, whether it holds numbers (right-aligned)."""
    ncols = rng.randint(2, 7)
    nrows = rng.randint(3, 14)
    numeric = [c > 0 and rng.random() < 0.5 for c in range(ncols)]
    header = [rng.choice(WORDS).capitalize() for _ in range(ncols)]
    rows = [header]
    if ncols >= 3 and rng.random() < 0.3:
        # A group row over the header: one cell merged across columns 1 and 2, repeated in
        # both as webgrip's HTML tables repeat a spanning cell.
        group = f"{rng.choice(WORDS).capitalize()} and {rng.choice(WORDS)} totals"
        rows.insert(0, ["Group", group, group] + [""] * (ncols - 3))
    for _ in range(nrows - 1):
        row = []
        for c in range(ncols):
            if numeric[c]:
                cell = f"{rng.uniform(0, 10 ** rng.randint(1, 5)):,.{rng.randint(0, 2)}f}"
            else:
                cell = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
            if c > 0 and rng.random() < 0.05:
                cell = ""
            row.append(cell)
        rows.append(row)
    return rows, numeric


def wrap(text: str, width: float, size: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if stringWidth(trial, FONT, size) > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line]


def draw(rows: list[list[str]], numeric: list[bool], ruled: bool, size: float) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    left, y = 60.0, HEIGHT - 70
    c.setFont(FONT, 10)
    for line in wrap(PROSE, WIDTH - 2 * left, 10):
        c.drawString(left, y, line)
        y -= 13
    y -= 18
    # Ruled tables sit tighter: 4 pt inside each rule, so 8 pt between two cells' text.
    pad, extra = (4.0, 0.0) if ruled else (6.0, 8.0)
    body = rows[1:] if rows[0][0] == "Group" else rows
    widths = [
        max(stringWidth(r[k], FONT, size) for r in body) + 2 * pad + extra
        for k in range(len(rows[0]))
    ]
    if rows[0][0] == "Group":
        # The merged cell fits its two columns.
        need = stringWidth(rows[0][1], FONT, size) + 2 * pad - widths[1] - widths[2]
        widths[2] += max(need, 0.0)
    lead = size * 1.6
    xs = [left]
    for w in widths:
        xs.append(xs[-1] + w)
    top = y + size
    grouped = rows[0][0] == "Group"
    for r, row in enumerate(rows):
        head = r == 0 or (grouped and r == 1)
        c.setFont("Helvetica-Bold" if head else FONT, size)
        for k, cell in enumerate(row):
            if grouped and r == 0 and k == 2:
                continue
            if grouped and r == 0 and k == 1:
                c.drawCentredString((xs[1] + xs[3]) / 2, y, cell)
            elif numeric[k] and not head:
                c.drawRightString(xs[k + 1] - pad, y, cell)
            else:
                c.drawString(xs[k] + pad, y, cell)
        y -= lead
    if ruled:
        c.setLineWidth(0.6)
        bottom = y + lead - size * 0.6
        for x in xs:
            c.line(x, top, x, bottom)
        yy = top
        for _ in range(len(rows) + 1):
            c.line(xs[0], yy, xs[-1], yy)
            yy -= lead
    y -= 14
    c.setFont(FONT, 10)
    for line in wrap(PROSE, WIDTH - 2 * left, 10):
        c.drawString(left, y, line)
        y -= 13
    c.showPage()
    c.save()
    return buf.getvalue()


ROW = re.compile(r"^\|(.*)\|$")
RULE = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+$")


def md_tables(md: str) -> list[list[list[str]]]:
    """Every `|` table of a Markdown text, rows of cells (the rule row left out)."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*md.splitlines(), ""]:
        line = line.strip()
        m = ROW.match(line)
        if m:
            if not RULE.match(line):
                cells = re.split(r"(?<!\\)\|", m.group(1))
                current.append([" ".join(x.replace("\\|", "|").split()) for x in cells])
        elif current:
            tables.append(current)
            current = []
    return tables


def score(truth: list[list[str]], md: str) -> tuple[int, int]:
    """(cells right, cells counted) against the best-matching table of `md`."""
    counted = sum(1 for row in truth for cell in row if cell)
    best = 0
    for table in md_tables(md):
        right = sum(
            1
            for r, row in enumerate(truth)
            for k, cell in enumerate(row)
            if cell and r < len(table) and k < len(table[r]) and table[r][k] == cell
        )
        best = max(best, right)
    return best, counted


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100, help="tables of each kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=0, help="print the N worst documents")
    args = ap.parse_args()
    for kind in ("aligned", "ruled"):
        right = counted = perfect = 0
        worst: list[tuple[float, str, list[list[str]]]] = []
        for i in range(args.n):
            rng = random.Random(args.seed * 100_000 + i)
            rows, numeric = make_table(rng)
            size = rng.choice((8.0, 9.0, 10.0, 11.0))
            pdf = draw(rows, numeric, kind == "ruled", size)
            md = webgrip.extract_pdf(pdf, mode="markdown")
            assert isinstance(md, str)
            got, n = score(rows, md)
            right += got
            counted += n
            perfect += got == n
            worst.append((got / n, md, rows))
        print(
            f"{kind:8} tables {args.n:4}  cells {counted:5}  right {right / counted:.3f}  "
            f"tables all right {perfect / args.n:.3f}"
        )
        for frac, md, rows in sorted(worst, key=lambda w: w[0])[: args.show]:
            print(f"--- {frac:.2f}\n" + "\n".join(" | ".join(r) for r in rows) + "\n>>>\n" + md)


if __name__ == "__main__":
    main()
