"""docs/architecture.md names every Rust module, and names none that is gone.

The code map is the page a new contributor reads first; issue 32 found it three crates and a
dozen modules behind. A Rust source file counts as named when its file name appears in a code
span of the page (`lexer.rs`), or, for a file in a module folder, the folder does
(`tree_builder/`). The Python modules' map is checked by ``tests/package/test_layers.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"


def _named() -> set[str]:
    """Every word of every code span on the page."""
    words: set[str] = set()
    for span in re.findall(r"`([^`\n]+)`", DOC.read_text(encoding="utf-8")):
        words.update(w for w in re.split(r"[\s,+()]+", span) if w)
    return words


def _sources() -> list[Path]:
    return sorted(
        path for crate in (ROOT / "rust").iterdir() for path in (crate / "src").rglob("*.rs")
    )


def _unnamed(named: set[str], sources: list[Path]) -> list[str]:
    missing = []
    for path in sources:
        # rust/<crate>/src/<inner...>
        inner = path.relative_to(ROOT).parts[3:]
        in_folder = len(inner) > 1 and f"{inner[0]}/" in named
        if path.name not in named and not in_folder:
            missing.append(str(path.relative_to(ROOT)))
    return missing


def test_every_rust_module_is_named_on_the_architecture_page():
    sources = _sources()
    assert len(sources) > 50, "the crates' sources were not found"
    assert _unnamed(_named(), sources) == []


def test_every_rust_file_the_page_names_exists():
    here = {path.name for path in ROOT.glob("rust/**/*.rs")}
    here |= {path.name for path in ROOT.glob("fuzz/**/*.rs") if "target" not in path.parts}
    gone = sorted(w for w in _named() if w.endswith(".rs") and Path(w).name not in here)
    assert gone == []


def test_the_check_sees_a_module_the_page_leaves_out():
    sources = [ROOT / "rust" / "extract" / "src" / "shell.rs"]
    sources.append(ROOT / "rust" / "html" / "src" / "tree_builder" / "modes_body.rs")
    assert _unnamed({"shell.rs", "tree_builder/"}, sources) == []
    assert _unnamed({"tree_builder/"}, sources) == ["rust/extract/src/shell.rs"]
    assert _unnamed({"shell.rs"}, sources) == ["rust/html/src/tree_builder/modes_body.rs"]
