"""Generate rust/pdf/src/adobe_cmaps_data.rs from Adobe's CMap resources.

webgrip reads most legacy predefined CMaps through ``encoding_rs`` (their codes are a national
encoding's bytes). The ones no such encoding covers -- ``CNS1-H``, ``CNS2-H``, ``CNS-EUC-H``
(CNS 11643), ``GBT-H``, ``GBT-EUC-H``, ``GBTpc-EUC-H`` (traditional forms at GB 2312
positions) and Japan1's one-byte ``Hiragana``, ``Katakana`` and ``WP-Symbol`` (WordPerfect's
symbol set) -- are read through tables made
here from Adobe's own files as Debian's ``poppler-data`` installs them:

- ``cMap/Adobe-<ordering>/<name>``: code -> CID;
- ``cMap/Adobe-<ordering>/Adobe-<ordering>-UCS2``: CID -> Unicode.

Both are Adobe's, under the BSD-3-Clause licence their headers carry (copied into the generated
file). poppler's own ``cidToUnicode/*`` tables are GPL-2 and are not read.

The tables are dense and indexed by arithmetic: a GL plane (two bytes 21-7E) as 94 x 94 CIDs,
a one-byte map as 256 CIDs, and per character collection the Unicode of each CID from the
lowest to the highest one the maps reach. The EUC forms are read through their GL plane (the
code less its high bits, after the 8E A1 / 8E A2 prefix of ``CNS-EUC-H``'s four-byte codes);
the script checks that this reading gives every code of every map its CID and no other code a
CID, and stops when it does not. The ``-V`` maps are read as their ``-H`` (they swap a few
punctuation CIDs for vertical glyphs of the same characters).

Run by hand (CI has no poppler-data); the output is committed::

    python scripts/gen_adobe_cmaps.py          # write the file
    python scripts/gen_adobe_cmaps.py --check  # exit 1 when the committed file differs
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "rust" / "pdf" / "src" / "adobe_cmaps_data.rs"
CMAPS = Path("/usr/share/poppler/cMap")

RANGE = re.compile(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\d+)$")
CHAR = re.compile(r"<([0-9a-fA-F]+)>\s*(\d+)$")
BFCHAR = re.compile(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>$")
BFRANGE = re.compile(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>$")

# (ordering, map, how its codes are read): "gl" two bytes 21-7E into one plane table.
PLANES = {"CNS1": ("CNS1", "CNS1-H"), "CNS2": ("CNS1", "CNS2-H"), "GBT": ("GB1", "GBT-H")}
# One-byte parts: (table, ordering, map).
ONE_BYTE = {
    "CNS_EUC": ("CNS1", "CNS-EUC-H"),
    "GBT_EUC": ("GB1", "GBT-EUC-H"),
    "GBTPC_EUC": ("GB1", "GBTpc-EUC-H"),
    "HIRAGANA": ("Japan1", "Hiragana"),
    "KATAKANA": ("Japan1", "Katakana"),
    "WP_SYMBOL": ("Japan1", "WP-Symbol"),
}


# Adobe-Japan1-UCS2 gives U+FF60 (a fullwidth parenthesis) to CIDs 326 and 515, the spaces of
# the one-byte kana sets (code 20 of Katakana and Hiragana), while Adobe's own UniJIS-UTF16-H
# sends U+FF60 to CID 12132 (poppler's table leaves 326 and 515 unmapped): they are read as
# U+0020. The generator stops if either premise no longer holds.
KANA_SPACES = {326: "\uff60", 515: "\uff60"}
# One-byte maps whose codes get their text from a table of their own (`<TABLE>_TEXT`).
DIRECT = {"WP-Symbol"}


def code_to_cid(path: Path) -> dict[bytes, int]:
    """Every code of a CMap file's cidrange and cidchar blocks (no usecmap: the H maps)."""
    out: dict[bytes, int] = {}
    block = None
    for line in path.read_text(encoding="latin-1").splitlines():
        s = line.strip()
        if s.endswith(("begincidrange", "begincidchar")):
            block = s.split()[-1]
            continue
        if s.startswith("end"):
            block = None
            continue
        if s.endswith("usecmap"):
            sys.exit(f"{path}: usecmap is not read here")
        if block == "begincidrange":
            m = RANGE.match(s)
            assert m, s
            lo, hi, width = int(m[1], 16), int(m[2], 16), len(m[1]) // 2
            for k in range(hi - lo + 1):
                out[(lo + k).to_bytes(width, "big")] = int(m[3]) + k
        elif block == "begincidchar":
            m = CHAR.match(s)
            assert m, s
            out[bytes.fromhex(m[1])] = int(m[2])
    return out


def cid_to_unicode(path: Path) -> dict[int, str]:
    """A CID -> Unicode CMap's bfchar and bfrange blocks."""
    out: dict[int, str] = {}
    block = None
    for line in path.read_text(encoding="latin-1").splitlines():
        s = line.strip()
        if s.endswith(("beginbfchar", "beginbfrange")):
            block = s.split()[-1]
            continue
        if s.startswith("end"):
            block = None
            continue
        if block == "beginbfchar":
            m = BFCHAR.match(s)
            assert m, s
            out[int(m[1], 16)] = bytes.fromhex(m[2]).decode("utf-16-be")
        elif block == "beginbfrange":
            m = BFRANGE.match(s)
            assert m, s
            lo, hi = int(m[1], 16), int(m[2], 16)
            first = bytes.fromhex(m[3]).decode("utf-16-be")
            for k in range(hi - lo + 1):
                out[lo + k] = first[:-1] + chr(ord(first[-1]) + k)
    return out


def licence(path: Path) -> list[str]:
    """The %%Copyright lines of an Adobe resource."""
    lines = path.read_text(encoding="latin-1").splitlines()
    return [ln[len("%%Copyright:") :].rstrip() for ln in lines if ln.startswith("%%Copyright:")]


def derived(name: str, planes: dict[str, list[int]], ones: dict[str, list[int]]) -> dict:
    """Every code the Rust lookup gives a CID for map `name`, read the way the Rust reads it."""
    out: dict[bytes, int] = {}

    def gl(plane: str, prefix: bytes, high: int) -> None:
        for i, cid in enumerate(planes[plane]):
            if cid:
                a, b = 0x21 + i // 94 + high, 0x21 + i % 94 + high
                out[prefix + bytes([a, b])] = cid

    def one(table: str, last: int = 0xFF) -> None:
        out.update({bytes([b]): cid for b, cid in enumerate(ones[table]) if cid and b <= last})

    if name in ("CNS1-H", "CNS2-H", "GBT-H"):
        gl(name.split("-")[0], b"", 0)
    elif name == "CNS-EUC-H":
        one("CNS_EUC")
        gl("CNS1", b"", 0x80)
        gl("CNS1", b"\x8e\xa1", 0x80)
        gl("CNS2", b"\x8e\xa2", 0x80)
    elif name == "GBT-EUC-H":
        one("GBT_EUC")
        gl("GBT", b"", 0x80)
    elif name == "GBTpc-EUC-H":
        one("GBTPC_EUC")
        gl("GBT", b"", 0x80)
        # Its code space ends at FCFE: rows FD-FE are one-byte codes.
        out = {k: v for k, v in out.items() if len(k) != 2 or k[0] <= 0xFC}
    else:
        one(name.upper().replace("-", "_"))
    return out


def rust_array(name: str, kind: str, values: list[int], doc: str, hex_: bool = False) -> str:
    """A static array, 16 values a line (CIDs in decimal, Unicode in hex)."""
    body = []
    for i in range(0, len(values), 16):
        chunk = values[i : i + 16]
        body.append("    " + " ".join(f"0x{v:04X}," if hex_ else f"{v}," for v in chunk))
    return (
        f"/// {doc}\n#[rustfmt::skip]\npub static {name}: [{kind}; {len(values)}] = [\n"
        + "\n".join(body)
        + "\n];\n"
    )


def rust_strings(name: str, texts: list[str], doc: str) -> str:
    """A static array of string literals, 8 a line, every character but ASCII escaped."""

    def literal(text: str) -> str:
        return (
            '"'
            + "".join(
                c if " " <= c <= "~" and c not in '"\\' else f"\\u{{{ord(c):x}}}" for c in text
            )
            + '"'
        )

    body = []
    for i in range(0, len(texts), 8):
        body.append("    " + " ".join(f"{literal(t)}," for t in texts[i : i + 8]))
    return (
        f"/// {doc}\n#[rustfmt::skip]\npub static {name}: [&str; {len(texts)}] = [\n"
        + "\n".join(body)
        + "\n];\n"
    )


def generate(root: Path) -> str:
    maps: dict[str, dict[bytes, int]] = {}
    for ordering, name in [*PLANES.values(), *ONE_BYTE.values()]:
        maps[name] = code_to_cid(root / f"Adobe-{ordering}" / name)
    planes = {}
    for table, (_, name) in PLANES.items():
        plane = [0] * (94 * 94)
        for code, cid in maps[name].items():
            assert len(code) == 2 and all(0x21 <= b <= 0x7E for b in code), (name, code)
            plane[(code[0] - 0x21) * 94 + code[1] - 0x21] = cid
        planes[table] = plane
    ones = {}
    for table, (_, name) in ONE_BYTE.items():
        ones[table] = [maps[name].get(bytes([b]), 0) for b in range(256)]
    for name, want in maps.items():
        got = derived(name, planes, ones)
        if got != want:
            wrong = sorted(set(got.items()) ^ set(want.items()))[:5]
            sys.exit(f"{name}: the GL/EUC reading differs from Adobe's map, e.g. {wrong}")

    parts = []
    header = licence(root / "Adobe-CNS1" / "CNS1-H")
    parts.append(
        "// @generated by scripts/gen_adobe_cmaps.py: do not edit. Tables of Adobe's predefined\n"
        "// CMaps CNS1-H, CNS2-H, CNS-EUC-H, GBT-H, GBT-EUC-H, GBTpc-EUC-H, Hiragana, Katakana\n"
        "// and WP-Symbol (code -> CID) and of Adobe-CNS1-UCS2, Adobe-GB1-UCS2 and\n"
        "// Adobe-Japan1-UCS2\n"
        "// (CID -> Unicode), from the copies Debian's poppler-data installs under\n"
        "// /usr/share/poppler/cMap. Those files carry this notice:\n//\n"
        + "\n".join(f"//{ln}" if ln else "//" for ln in header)
        + "\n"
    )
    for table, (_, name) in PLANES.items():
        doc = f"`{name}`: the CID of GL code `(0x21 + i / 94, 0x21 + i % 94)`, 0 for none."
        parts.append(rust_array(f"{table}_GL", "u16", planes[table], doc))
    for table, (_, name) in ONE_BYTE.items():
        doc = f"`{name}`: the CID of each one-byte code, 0 for none."
        parts.append(rust_array(f"{table}_ONE", "u16", ones[table], doc))
    reached: dict[str, set[int]] = {}
    for ordering, name in [*PLANES.values(), *ONE_BYTE.values()]:
        if name not in DIRECT:
            reached.setdefault(ordering, set()).update(maps[name].values())
    for table, (ordering, name) in ONE_BYTE.items():
        if name not in DIRECT:
            continue
        # Its CIDs lie far from the kana's, some outside the BMP and a few more than one
        # character (`sec`): a table of its own, code -> text, rather than a Japan1 table
        # thousands of CIDs longer.
        ucs2 = cid_to_unicode(root / f"Adobe-{ordering}" / f"Adobe-{ordering}-UCS2")
        texts = [ucs2.get(cid, "") if cid else "" for cid in ones[table]]
        doc = f"`{name}`: the text of each one-byte code (through its CID), empty for none."
        parts.append(rust_strings(f"{table}_TEXT", texts, doc))
    for ordering, cids in reached.items():
        ucs2 = cid_to_unicode(root / f"Adobe-{ordering}" / f"Adobe-{ordering}-UCS2")
        if ordering == "Japan1":
            uni = code_to_cid(root / "Adobe-Japan1" / "UniJIS-UTF16-H")
            for cid, was in KANA_SPACES.items():
                if ucs2.get(cid) != was or uni.get(was.encode("utf-16-be")) in (None, cid):
                    sys.exit(f"Adobe-Japan1 CID {cid}: the kana space's premises changed")
                ucs2[cid] = " "
        first, last = min(cids), max(cids)
        units = []
        for cid in range(first, last + 1):
            text = ucs2.get(cid, "") if cid in cids else ""
            # Every CID these maps reach is one BMP character in Adobe's tables.
            assert len(text) <= 1 and (not text or ord(text) < 0x10000), (ordering, cid, text)
            units.append(ord(text) if text else 0)
        key = ordering.upper()
        parts.append(
            f"/// The lowest CID of `{key}_UNICODE`.\npub const {key}_FIRST: u16 = {first};\n"
        )
        doc = f"Adobe-{ordering}: the Unicode of CID `{key}_FIRST + i`, 0 for none."
        parts.append(rust_array(f"{key}_UNICODE", "u16", units, doc, hex_=True))
    return "\n".join(parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cmaps", type=Path, default=CMAPS, help="poppler-data's cMap folder")
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    text = generate(args.cmaps)
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(REPO)}: {'up to date' if same else 'differs'}")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
