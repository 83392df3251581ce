"""``render="auto"``'s decision on real app shells and on server-rendered near misses.

``tests/fixtures/shells/shells/`` holds single-page-app shells as a crawler receives them,
reconstructed from each framework's default template or built output;
``tests/fixtures/shells/static/`` holds server-rendered pages that ship the same roots and
hydration scripts with their text already in place (their README says what each mirrors).
Issue 31's target: at least 31 of the 32 shells are shells, and no near miss is one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import webgrip
from webgrip import _core

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "shells"
SHELLS = sorted((FIXTURES / "shells").glob("*.html"))
STATIC = sorted((FIXTURES / "static").glob("*.html"))

#: Shells the decision is known to miss, with why (``xfail(strict=True)``: a fix shows up).
KNOWN_MISSES: dict[str, str] = {}


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_the_sets_are_what_the_issue_measures() -> None:
    assert len(SHELLS) == 32
    assert len(STATIC) >= 10
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for path in SHELLS + STATIC:
        assert f"`{path.name}`" in readme, f"{path.name} has no origin in the README"


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[p.name]))
        if p.name in KNOWN_MISSES
        else p
        for p in SHELLS
    ],
    ids=_ids(SHELLS),
)
def test_app_shells_are_shells(path: Path) -> None:
    html = path.read_bytes()
    assert webgrip.is_script_shell(html), _core.script_shell_reason(html)
    # ``str`` input answers the same as the bytes.
    assert webgrip.is_script_shell(html.decode("utf-8"))


@pytest.mark.parametrize("path", STATIC, ids=_ids(STATIC))
def test_server_rendered_near_misses_are_not_shells(path: Path) -> None:
    html = path.read_bytes()
    assert not webgrip.is_script_shell(html), _core.script_shell_reason(html)


def test_thin_server_rendered_pages_are_refused_by_the_core_pass() -> None:
    """The near misses whose text is under the tiny-text limit rely on the core's pass
    alone (a filled root is not a root): at least the thin ones of issue 31 are here."""
    thin = []
    for path in STATIC:
        html = path.read_bytes()
        text = _core.extract_document(html, modes=("text",), main_content=True)["text"]
        if len(text.strip()) <= _core.SHELL_MAX_CHARS:
            thin.append(path.name)
            assert _core.script_shell_reason(html) is None, path.name
    assert "vitepress-home-thin.html" in thin
    assert len(thin) >= 3
