"""The Python package in layers: no import circle, and no module importing upward.

Parses every module of ``python/webgrip`` with :mod:`ast` (nothing is imported). Two rules:

- **No cycle** in the module-level import graph. Imports inside functions and under
  ``if TYPE_CHECKING:`` are left out of this graph: they do not run at import time.
- **Layer order**: every module has a layer in :data:`LAYERS` and imports only from its own
  layer or lower ones. This rule covers every import, including those inside functions and
  ``TYPE_CHECKING`` blocks, so a late import cannot hide an upward dependency.

As usual for such checks, importing ``pkg.mod`` is not counted as importing ``pkg`` itself.
The layer table of ``docs/architecture.md`` (Python package) must list every module in its
layer: :func:`test_the_docs_table_lists_every_module_in_its_layer`.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "webgrip"
ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

_FOUNDATIONS, _VALUES, _CONFIG, _INTERFACE, _FEATURES, _FACADE, _TOOLS, _ENTRY = range(8)

#: Every module's layer, lowest first. A module may import its own layer and those below.
LAYERS: dict[str, int] = {
    # 0: self-contained helpers (and the native core).
    "webgrip._core": _FOUNDATIONS,
    "webgrip._version": _FOUNDATIONS,
    "webgrip._jsonsafe": _FOUNDATIONS,
    "webgrip._cancel": _FOUNDATIONS,
    "webgrip._progress": _FOUNDATIONS,
    "webgrip._mcp_wire": _FOUNDATIONS,
    "webgrip.errors": _FOUNDATIONS,
    "webgrip.hygiene": _FOUNDATIONS,
    "webgrip.retry": _FOUNDATIONS,
    "webgrip.ratelimit": _FOUNDATIONS,
    "webgrip.politeness": _FOUNDATIONS,
    "webgrip.observe": _FOUNDATIONS,
    "webgrip.expiring": _FOUNDATIONS,
    # 1: the values the API returns, and the wording that describes them.
    "webgrip.response": _VALUES,
    "webgrip.page": _VALUES,
    "webgrip.messages": _VALUES,
    "webgrip.find": _VALUES,
    "webgrip.extract": _VALUES,
    "webgrip.pdf": _VALUES,
    "webgrip.challenge": _VALUES,
    # 2: configuration.
    "webgrip.blocked_ports": _CONFIG,
    "webgrip.config_file": _CONFIG,
    "webgrip.config": _CONFIG,
    "webgrip.proxies": _CONFIG,
    # 3: the send interface the features take instead of the client.
    "webgrip.sender": _INTERFACE,
    # 4: features, each on the send interface.
    "webgrip.fetching": _FEATURES,
    "webgrip.frames": _FEATURES,
    "webgrip.downloads": _FEATURES,
    "webgrip.cache": _FEATURES,
    "webgrip.robots": _FEATURES,
    "webgrip.batch": _FEATURES,
    "webgrip.render": _FEATURES,
    "webgrip.search": _FEATURES,
    "webgrip.search._html": _FEATURES,
    "webgrip.search._http": _FEATURES,
    "webgrip.search.base": _FEATURES,
    "webgrip.search.brave": _FEATURES,
    "webgrip.search.chain": _FEATURES,
    "webgrip.search.duckduckgo": _FEATURES,
    "webgrip.search.format": _FEATURES,
    "webgrip.search.google": _FEATURES,
    "webgrip.search.searxng": _FEATURES,
    "webgrip.search.tavily": _FEATURES,
    # 5: the facade.
    "webgrip.client": _FACADE,
    # 6: agent tools and the async wrappers.
    "webgrip.tools": _TOOLS,
    "webgrip.research": _TOOLS,
    "webgrip.schemas": _TOOLS,
    "webgrip.aio": _TOOLS,
    "webgrip.ray": _TOOLS,
    "webgrip.batch_parquet": _TOOLS,
    # 7: entry points and the package's public face.
    "webgrip": _ENTRY,
    "webgrip.__main__": _ENTRY,
    "webgrip.cli": _ENTRY,
    "webgrip.mcp": _ENTRY,
    "webgrip.mcp_http": _ENTRY,
    "webgrip.langchain": _ENTRY,
    "webgrip.gaia": _ENTRY,
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """``(module_level, deferred)``: the import statements that run when the module is
    imported, and those inside functions or ``if TYPE_CHECKING:``."""
    now: list[ast.stmt] = []
    later: list[ast.stmt] = []

    def visit(body: list[ast.stmt], deferred: bool) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                (later if deferred else now).append(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                later.extend(
                    n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))
                )
            elif isinstance(node, ast.If):
                visit(node.body, deferred or _is_type_checking(node))
                visit(node.orelse, deferred)
            elif isinstance(node, ast.ClassDef):
                visit(node.body, deferred)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit([n for n in inner if isinstance(n, ast.stmt)], deferred)
                        for handler in inner:
                            if isinstance(handler, ast.ExceptHandler):
                                visit(handler.body, deferred)

    visit(tree.body, False)
    return now, later


def _targets(node: ast.stmt, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The ``webgrip`` modules an import statement loads."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name.split(".")[0] == "webgrip"}
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source.split(".")[0] != "webgrip":
        return set()
    found = set()
    for alias in node.names:
        sub = f"{source}.{alias.name}"
        found.add(sub if sub in known else source)  # ``from . import errors`` loads a module
    return found


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``(module_level, every)`` edges of the package's import graph."""
    modules = _modules()
    known = set(modules) | {"webgrip._core"}
    now: dict[str, set[str]] = {}
    every: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        first, deferred = _imports(tree)
        is_package = path.name == "__init__.py"
        now[name] = set().union(*(_targets(n, name, is_package, known) for n in first))
        every[name] = now[name].union(*(_targets(n, name, is_package, known) for n in deferred))
        now[name].discard(name)
        every[name].discard(name)
    return now, every


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_every_module_has_a_layer():
    assert sorted(set(_modules()) - set(LAYERS)) == []
    assert sorted(set(LAYERS) - set(_modules()) - {"webgrip._core"}) == []


def test_no_import_cycle_at_module_level():
    now, _ = _graph()
    assert _cycles(now) == []


def test_no_module_imports_a_higher_layer():
    _, every = _graph()
    upward = sorted(
        f"{module} (layer {LAYERS.get(module)}) imports {target} (layer {LAYERS.get(target)})"
        for module, targets in every.items()
        for target in targets
        if LAYERS.get(module, -1) < LAYERS.get(target, 99)
    )
    assert upward == []


def test_the_checker_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _docs_layers() -> dict[int, set[str]]:
    """The modules of each layer as docs/architecture.md's table names them: rows
    ``| N name | `mod`, ... | job |``; ``search/*`` is the search package, ``webgrip`` the
    package itself (``__init__`` only explains it)."""
    layers: dict[int, set[str]] = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0][:1].isdigit():
            continue
        names: set[str] = set()
        for token in cells[1].split("`")[1::2]:
            if token == "search/*":
                names |= {
                    m for m in LAYERS if m == "webgrip.search" or m.startswith("webgrip.search.")
                }
            elif token == "webgrip":
                names.add("webgrip")
            elif token != "__init__":
                names.add(f"webgrip.{token}")
        layers[int(cells[0].split()[0])] = names
    return layers


def test_the_docs_table_lists_every_module_in_its_layer():
    documented = _docs_layers()
    assert sorted(documented) == list(range(8))
    expected: dict[int, set[str]] = {}
    for module, layer in LAYERS.items():
        expected.setdefault(layer, set()).add(module)
    for layer in range(8):
        assert sorted(documented[layer]) == sorted(expected[layer]), f"layer {layer}"
