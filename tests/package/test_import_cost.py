"""``import webgrip`` stays cheap: the heavy parts load only on the call paths that use them.

Each check runs in a fresh interpreter (this test process has imported everything already)
and lists the modules loaded after the import; ``benches/import_time.py`` measures the time.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import webgrip

# asyncio (the async front-ends), importlib.metadata (the version comes from the core),
# sqlite3 and the page cache (only with cache_dir), the search providers, MCP and the CLI.
NEVER_ON_IMPORT = (
    "asyncio",
    "importlib.metadata",
    "sqlite3",
    "webgrip.cache",
    "webgrip.search",
    "mcp",
    "webgrip.tools.mcp",
    "webgrip.tools.mcp_server",
    "webgrip.cli",
    "webgrip.aio",
    "concurrent.futures",
    # the ray extra: only `from webgrip.bulk.ray import ...`, `webgrip batch` or a shared limiter
    "ray",
    "redis",
    "pyarrow",
    "webgrip.bulk.ray",
    "webgrip.bulk.rows",
    "webgrip.bulk.politeness",
    "webgrip.bulk.sinks",
    "webgrip.bulk.batch_run",
    # the GAIA integration: only `from webgrip.tools.gaia import ...`
    "gaia",
    "webgrip.tools.gaia",
)


# What the standard library's heavier modules pull in (dataclasses alone brings inspect, ast,
# dis, tokenize, re and enum: the 3 ms -> 19 ms of issue 49). ``import webgrip`` is the core,
# the errors and ``extract``; a call loads what it uses.
HEAVY_STDLIB = (
    "asyncio",
    "concurrent.futures",
    "dataclasses",
    "email",
    "enum",
    "http.client",
    "inspect",
    "ipaddress",
    "json",
    "logging",
    "re",
    "socket",
    "sqlite3",
    "ssl",
    "threading",
    "typing",
    "urllib.parse",
)


def _loaded_after(code: str, *flags: str) -> set[str]:
    # The folder holding the webgrip under test (installed or the source tree with its
    # built core), not the repository's python/ folder, which has no core when installed.
    folder = os.path.dirname(os.path.dirname(os.path.abspath(webgrip.__file__)))
    script = (
        f"import sys; sys.path.insert(0, {folder!r}); {code}; "
        "print(*sorted(sys.modules), sep=chr(10))"
    )
    out = subprocess.run(
        [sys.executable, *flags, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(out.stdout.split())


@pytest.mark.parametrize(
    "code",
    [
        "import webgrip",
        "from webgrip import Config, Tools, WebClient; Tools(Config(timeout=5)); WebClient()",
    ],
)
def test_import_leaves_heavy_modules_unloaded(code: str) -> None:
    loaded = _loaded_after(code)
    assert "webgrip" in loaded
    assert sorted(set(NEVER_ON_IMPORT) & loaded) == []


def test_plain_import_loads_no_heavy_standard_module() -> None:
    # -S: no site and no .pth files, whose own imports (typing, re, ... on some machines)
    # would hide what webgrip pulls in.
    before = _loaded_after("pass", "-S")
    after = _loaded_after("import webgrip", "-S")
    assert "webgrip" in after
    assert sorted(set(HEAVY_STDLIB) & (after - before)) == []
    # ... and the check sees one when it is imported
    assert {"dataclasses", "inspect"} <= _loaded_after("import webgrip, dataclasses", "-S")


def test_plain_import_loads_only_the_core_errors_and_extract() -> None:
    loaded = {m for m in _loaded_after("import webgrip") if m.startswith("webgrip")}
    assert loaded == {
        "webgrip",
        "webgrip._core",
        "webgrip._version",
        "webgrip.errors",
        "webgrip.extract",
    }


def test_lazy_names_resolve_to_their_modules() -> None:
    from webgrip.aio import AsyncTools
    from webgrip.client import WebClient
    from webgrip.tools import fetch_page

    assert webgrip.WebClient is WebClient
    assert webgrip.fetch_page is fetch_page
    assert webgrip.AsyncTools is AsyncTools
    assert callable(webgrip.extract)  # the function, not the submodule of that name
    assert set(webgrip.__all__) <= set(dir(webgrip))
    with pytest.raises(AttributeError):
        _ = webgrip.no_such_name
