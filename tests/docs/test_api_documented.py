"""docs/library.md (and, for the agent tools, docs/integrations.md and docs/tools.md) name every
public method, attribute and keyword of the library's classes, so the reference cannot fall
behind the code unnoticed (issue 36: it had, for `Page.rendered`, `fetch(render=, headers=)`,
`download(headers=)`, `screenshot()`)."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest
import webgrip

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: Where each class is documented.
PAGES = {
    webgrip.WebClient: ["library.md"],
    webgrip.AsyncWebClient: ["library.md"],
    webgrip.Page: ["library.md"],
    webgrip.Response: ["library.md"],
    webgrip.Tools: ["library.md", "integrations.md", "tools.md", "frameworks.md"],
    webgrip.AsyncTools: ["library.md", "integrations.md", "tools.md", "frameworks.md"],
}
#: ``**options`` and ``*args`` hold names documented one by one.
SPREAD = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)


def public_names(cls: type) -> list[str]:
    """Public methods and attributes, with each method's keyword parameters as ``method(name``
    pairs."""
    names = []
    fields = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []
    for name, member in inspect.getmembers(cls):
        if name.startswith("_"):
            continue
        names.append(name)
        if callable(member) and name not in fields:
            for p in list(inspect.signature(member).parameters.values())[1:]:
                if p.kind not in SPREAD:
                    names.append(p.name)
    return names + fields


@pytest.mark.parametrize("cls", PAGES, ids=lambda c: c.__name__)
def test_every_public_name_is_documented(cls):
    text = "".join((DOCS / page).read_text(encoding="utf-8") for page in PAGES[cls])
    missing = sorted({n for n in public_names(cls) if not re.search(rf"\b{n}\b", text)})
    assert not missing, f"{cls.__name__}: not in {PAGES[cls]}: {missing}"


def test_the_check_sees_a_new_name():
    class Probe(webgrip.WebClient):
        def fetch_sideways(self, url: str, *, wobble: int = 0) -> None: ...

    assert {"fetch_sideways", "wobble"} <= set(public_names(Probe))


def test_every_exported_name_is_documented():
    text = "".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    missing = [
        n for n in webgrip.__all__ if n != "__version__" and not re.search(rf"\b{n}\b", text)
    ]
    assert not missing, missing
