"""The Python package in layers: no import circle, and no module importing upward.

Parses every module of ``python/webgrip`` with :mod:`ast` (nothing is imported). Two rules:

- **No cycle** in the module-level import graph. Imports inside functions and under
  ``if TYPE_CHECKING:`` are left out of this graph: they do not run at import time.
- **Layer order**: every module has a layer in :data:`LAYERS` and imports only from its own
  layer or lower ones. This rule covers every import, including those inside functions and
  ``TYPE_CHECKING`` blocks, so a late import cannot hide an upward dependency.

As usual for such checks, importing ``pkg.mod`` is not counted as importing ``pkg`` itself.
The layer table of ``docs/architecture.md`` (Python package) is generated from :data:`LAYERS`
and :data:`JOBS` (``python tests/package/test_layers.py --table`` prints it,
``--write`` puts it in place), and :func:`test_the_docs_table_is_the_generated_one` fails when
the page shows anything else.
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import pysource

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "webgrip"
ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

_FOUNDATIONS, _VALUES, _CONFIG, _INTERFACE, _FEATURES, _FACADE, _TOOLS, _ENTRY = range(8)

#: Each layer's name and job, as the table in docs/architecture.md shows them.
JOBS: dict[int, tuple[str, str]] = {
    _FOUNDATIONS: (
        "foundations",
        "self-contained helpers: exceptions, URL hygiene, retry timing, rate limit (per process, "
        "or shared through Redis), logging and stats, the expiring LRU, the MCP wire format, "
        "the pool of PDF reader processes; a crawl's frontier (SQLite here, Redis on a cluster)",
    ),
    _VALUES: (
        "values",
        "what the API returns (`Response`, `Page`, `Download`), the wording that describes it, "
        "and what is read from a body (passages found in a page, HTML and PDF views, bot checks)",
    ),
    _CONFIG: (
        "configuration",
        "`Config` and the blocked-port defaults; the TOML reader; checking proxy settings and "
        "reading environment proxies",
    ),
    _INTERFACE: (
        "interface",
        "`Sender`, the protocol the features send through (`config`, `check_url`, `send`)",
    ),
    _FEATURES: (
        "features",
        "a response made a `Page`, frames read in place (through a `load` callable), safe file "
        "placement, the page cache, robots.txt, batches, search providers; each takes a `Sender` "
        "(or, for `bulk/pool`, anything with `fetch`), never the client",
    ),
    _FACADE: (
        "facade",
        "`WebClient`: the policy-checked core, rate limit, retries, robots, caches; implements "
        "`Sender`",
    ),
    _TOOLS: (
        "tools",
        "agent tools returning strings, their schemas, async wrappers; bulk fetching on Ray and "
        "into Parquet ([batch.md](batch.md)); crawling a site, here or on Ray "
        "([crawl.md](crawl.md))",
    ),
    _ENTRY: ("entry points", "the public face and the integrations"),
}

#: Every module's layer, lowest first. A module may import its own layer and those below.
LAYERS: dict[str, int] = {
    # 0: self-contained helpers (and the native core).
    "webgrip._core": _FOUNDATIONS,
    "webgrip._version": _FOUNDATIONS,
    "webgrip._jsonsafe": _FOUNDATIONS,
    "webgrip._cancel": _FOUNDATIONS,
    "webgrip._pdfpool": _FOUNDATIONS,
    "webgrip._progress": _FOUNDATIONS,
    "webgrip.errors": _FOUNDATIONS,
    "webgrip.hygiene": _FOUNDATIONS,
    "webgrip.retry": _FOUNDATIONS,
    "webgrip.ratelimit": _FOUNDATIONS,
    "webgrip.observe": _FOUNDATIONS,
    "webgrip.expiring": _FOUNDATIONS,
    "webgrip.bulk.politeness": _FOUNDATIONS,
    "webgrip.tools.mcp_wire": _FOUNDATIONS,
    "webgrip.sites.urls": _FOUNDATIONS,
    "webgrip.sites.scope": _FOUNDATIONS,
    "webgrip.sites.frontier": _FOUNDATIONS,
    "webgrip.sites.redis_frontier": _FOUNDATIONS,
    # 1: the values the API returns, and the wording that describes them.
    "webgrip.response": _VALUES,
    "webgrip.page": _VALUES,
    "webgrip.messages": _VALUES,
    "webgrip.extract": _VALUES,
    "webgrip.pdf": _VALUES,
    "webgrip.challenge": _VALUES,
    "webgrip.sites.llmstxt": _VALUES,
    # 2: configuration.
    "webgrip.config_file": _CONFIG,
    "webgrip.config": _CONFIG,
    "webgrip.proxies": _CONFIG,
    # 3: the send interface the features take instead of the client.
    "webgrip.sender": _INTERFACE,
    # 4: features, each on the send interface.
    "webgrip.page_builder": _FEATURES,
    "webgrip.frames": _FEATURES,
    "webgrip.downloads": _FEATURES,
    "webgrip.cache": _FEATURES,
    "webgrip.robots": _FEATURES,
    "webgrip.render": _FEATURES,
    "webgrip.bulk": _FEATURES,
    "webgrip.bulk.pool": _FEATURES,
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
    "webgrip.sites": _FEATURES,
    "webgrip.sites.sitemaps": _FEATURES,
    "webgrip.sites.mapping": _FEATURES,
    # 5: the facade.
    "webgrip.client": _FACADE,
    # 6: agent tools, the async wrappers, bulk fetching on Ray and into Parquet.
    "webgrip.tools": _TOOLS,
    "webgrip.tools.toolbox": _TOOLS,
    "webgrip.tools.research": _TOOLS,
    "webgrip.tools.schemas": _TOOLS,
    "webgrip.tools.find": _TOOLS,
    "webgrip.tools.citations": _TOOLS,
    "webgrip.aio": _TOOLS,
    "webgrip.bulk.rows": _TOOLS,
    "webgrip.bulk.ray": _TOOLS,
    "webgrip.bulk.sinks": _TOOLS,
    "webgrip.bulk.batch_run": _TOOLS,
    "webgrip.sites.crawl": _TOOLS,
    "webgrip.sites.crawl_run": _TOOLS,
    "webgrip.sites.crawl_ray": _TOOLS,
    # 7: entry points and the package's public face.
    "webgrip": _ENTRY,
    "webgrip.__main__": _ENTRY,
    "webgrip.cli": _ENTRY,
    "webgrip.cli.common": _ENTRY,
    "webgrip.cli.flags": _ENTRY,
    "webgrip.cli.fetch": _ENTRY,
    "webgrip.cli.search": _ENTRY,
    "webgrip.cli.download": _ENTRY,
    "webgrip.cli.extract": _ENTRY,
    "webgrip.cli.check": _ENTRY,
    "webgrip.cli.batch": _ENTRY,
    "webgrip.cli.crawl": _ENTRY,
    "webgrip.cli.map": _ENTRY,
    "webgrip.cli.llms_txt": _ENTRY,
    "webgrip.cli.mcp": _ENTRY,
    "webgrip.tools.mcp": _ENTRY,
    "webgrip.tools.mcp_server": _ENTRY,
    "webgrip.tools.mcp_http": _ENTRY,
    "webgrip.tools.mcp_connections": _ENTRY,
    "webgrip.tools.mcp_sessions": _ENTRY,
    "webgrip.tools.langchain": _ENTRY,
    "webgrip.tools.gaia": _ENTRY,
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
        tree = pysource.parse(path.read_text(encoding="utf-8"), filename=str(path))
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


def test_no_circle_in_bulk_even_through_late_imports():
    """The two bulk engines share their rows through ``bulk.rows``: ``bulk.batch_run`` imports
    ``bulk.ray`` (inside the function that runs on Ray), never the other way round."""
    _, every = _graph()
    assert [c for c in _cycles(every) if any(m.startswith("webgrip.bulk") for m in c)] == []


def test_the_checker_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _shown(module: str) -> str:
    """A module as the table names it: its path under ``webgrip/`` without ``.py``."""
    if module == "webgrip":
        return "`webgrip` (`__init__`)"
    if module == "webgrip._core":
        return "`_core` (Rust)"
    rest = module.removeprefix("webgrip.").replace(".", "/")
    return f"`{rest}/__init__`" if (PACKAGE / rest / "__init__.py").is_file() else f"`{rest}`"


def layer_table() -> str:
    """The layer table of docs/architecture.md (Python package), made from :data:`LAYERS` and
    :data:`JOBS`: each layer's modules in :data:`LAYERS` order, a subpackage whose modules all
    share one layer as ``name/*``."""
    packages: dict[str, set[int]] = {}
    for module, layer in LAYERS.items():
        parts = module.split(".")
        if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()):
            packages.setdefault(parts[1], set()).add(layer)
    whole = {name for name, layers in packages.items() if len(layers) == 1}
    rows = ["| Layer | Modules | Job |", "|---|---|---|"]
    for layer, (name, job) in JOBS.items():
        shown: list[str] = []
        for module, at in LAYERS.items():
            parts = module.split(".")
            if at != layer:
                continue
            cell = f"`{parts[1]}/*`" if len(parts) > 1 and parts[1] in whole else _shown(module)
            if cell not in shown:
                shown.append(cell)
        rows.append(f"| {layer} {name} | {', '.join(shown)} | {job} |")
    return "\n".join(rows) + "\n"


def test_the_docs_table_is_the_generated_one():
    """docs/architecture.md shows :func:`layer_table`'s output as it is; after changing
    :data:`LAYERS` or :data:`JOBS`, ``python tests/package/test_layers.py
    --write`` puts the new table in place."""
    assert layer_table() in ARCHITECTURE.read_text(encoding="utf-8")


def test_the_table_names_every_layer_once():
    table = layer_table()
    assert sorted(JOBS) == list(range(8))
    for module in LAYERS:
        # A subpackage whose modules share one layer is shown once, as ``name/*``.
        parts = module.split(".")
        if len(parts) < 2 or f"`{parts[1]}/*`" not in table:
            assert _shown(module) in table, module


def _write() -> None:
    """Replace the table in docs/architecture.md (its ``| Layer |`` header and the rows under
    it) with :func:`layer_table`."""
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("| Layer | Modules |"))
    last = first
    while last < len(lines) and lines[last].startswith("|"):
        last += 1
    lines[first:last] = [layer_table()]
    ARCHITECTURE.write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--table"]:
        sys.stdout.write(layer_table())
    elif sys.argv[1:] == ["--write"]:
        _write()
    else:
        sys.exit("usage: python tests/package/test_layers.py --table | --write")
