"""The command line's package: one module a command, declaration beside handler, and an import
that loads no client (each handler imports what it uses when it runs)."""

from __future__ import annotations

import os
import subprocess
import sys

import webgrip
from webgrip import cli

#: What a handler loads when it runs, never ``import webgrip.cli`` (``webgrip --help`` and a
#: usage error answer without them).
LOADED_BY_HANDLERS = (
    "webgrip.client",
    "webgrip.page_builder",
    "webgrip.response",
    "webgrip.config",
    "webgrip.tools",
    "webgrip.tools.mcp",
    "webgrip.bulk.batch_run",
    "webgrip.sites.crawl_run",
)


def test_each_command_is_declared_in_its_own_module():
    names = [command.name for command in cli.COMMANDS]
    assert len(set(names)) == len(names)
    for command in cli.COMMANDS:
        module = command.run.__module__
        assert module == f"webgrip.cli.{command.name.replace('-', '_')}", command.name
        assert command.arguments.__module__ == module, command.name


def test_every_command_has_its_parser():
    _, parsers = cli._parser()
    assert list(parsers) == [command.name for command in cli.COMMANDS]


def test_importing_the_command_line_loads_no_client():
    # The folder holding the webgrip under test (installed or the source tree with its
    # built core), not the repository's python/ folder, which has no core when installed.
    folder = os.path.dirname(os.path.dirname(os.path.abspath(webgrip.__file__)))
    script = (
        f"import sys; sys.path.insert(0, {folder!r}); import webgrip.cli; "
        "print(*sorted(sys.modules), sep=chr(10))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(out.stdout.split())
    assert "webgrip.cli.fetch" in loaded  # the check sees the package's own modules
    assert sorted(set(LOADED_BY_HANDLERS) & loaded) == []
