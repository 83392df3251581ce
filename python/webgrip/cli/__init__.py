"""The ``webgrip`` command line: fetch, search, download, extract, check, batch, crawl, map,
llms-txt, mcp.

Each command is one module of this package holding its declaration (a
:class:`~webgrip.cli.common.Command`: name, help, options, the request flags it takes) beside
its handler; this module assembles the parser from them and dispatches. The options several
commands share are declared once in :mod:`webgrip.cli.flags`, and what every command needs
(exit statuses, JSON output, error lines, Ctrl-C) is in :mod:`webgrip.cli.common`. Importing
the package loads no client: each handler imports what it uses.

Exit status: 0 success, 1 the fetch/search/download failed or the page had nothing to print (for
``check``: no verdict could be reached, e.g. the name does not resolve), 2 usage or
configuration error (also a file that cannot be read or written), 3 the URL (or destination) was
refused by the security policy, 130 interrupted (``batch`` writes the rows that finished).
``--config``, ``--profile`` and ``-v/--verbose`` go before or after the command (``-v`` not with
``extract``, which makes no request). Configuration comes from ``--config FILE`` / ``--profile
NAME`` (else ``$WEBGRIP_CONFIG``, ``./webgrip.toml``, ``~/.config/webgrip/config.toml``) and
``WEBGRIP_*`` environment variables.

The request flags override both (flag > ``WEBGRIP_*`` > profile > file > default), after the
command: ``--timeout SECONDS``, ``-H/--header NAME:VALUE`` (repeatable), ``--user-agent
STRING``, ``--proxy URL``, ``--allow CIDR`` (repeatable, added to ``allow_networks``) and
``--robots``/``--ignore-robots`` on fetch, download and batch; all but the robots pair on
search; only ``--allow`` on check (it sends nothing). Each is checked by the Config's own
validation: a bad value is one line naming the flag, exit 2. ``extract --password`` opens an
encrypted PDF.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from .._version import __version__
from ..errors import WebgripError
from .batch import BATCH
from .check import CHECK
from .common import (
    EXIT_BLOCKED,
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    Command,
    error_json,
    error_line,
    exit_code,
    print_json,
)
from .crawl import CRAWL
from .download import DOWNLOAD
from .extract import EXTRACT
from .fetch import FETCH
from .flags import add_common, add_request_flags
from .llms_txt import LLMS_TXT
from .map import MAP
from .mcp import MCP
from .search import SEARCH

__all__ = ["EXIT_BLOCKED", "EXIT_FAILURE", "EXIT_OK", "EXIT_USAGE", "main"]

#: The commands, in the order ``webgrip --help`` lists them.
COMMANDS: tuple[Command, ...] = (
    FETCH,
    SEARCH,
    DOWNLOAD,
    EXTRACT,
    CHECK,
    BATCH,
    CRAWL,
    MAP,
    LLMS_TXT,
    MCP,
)


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``webgrip`` parser, and each command's own parser by name (for the errors found
    after parsing, shown with that command's usage)."""
    # The shared options after the command; defaults suppressed so they never overwrite a
    # value given before it. A command that makes no request has nothing to log: no -v.
    common = argparse.ArgumentParser(add_help=False)
    add_common(common, defaults=False)
    quiet = argparse.ArgumentParser(add_help=False)
    add_common(quiet, defaults=False, verbose=False)

    p = argparse.ArgumentParser(
        prog="webgrip",
        description="Safe, fast web tools for AI agents, from the shell.",
        epilog="Exit status: 0 ok, 1 fetch/search/download failure or nothing to print "
        "(check: no verdict, e.g. the name does not resolve), 2 usage, 3 blocked by policy, "
        "130 interrupted (batch: the rows finished are written).",
    )
    p.add_argument("--version", action="version", version=f"webgrip {__version__}")
    add_common(p, defaults=True)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    parsers = {}
    for command in COMMANDS:
        parser = sub.add_parser(
            command.name,
            parents=[common if command.logs else quiet],
            help=command.help,
            description=command.description,
        )
        command.arguments(parser)
        if command.requests:
            add_request_flags(parser, command.name, command.requests)
        parsers[command.name] = parser
    return p, parsers


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser, parsers = _parser()
    given = list(sys.argv[1:] if argv is None else argv)
    if not given:  # a bare `webgrip`: what it can do, not only that a command is missing
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        args, unknown = parser.parse_known_args(given)
        command = next(c for c in COMMANDS if c.name == args.command)
        if unknown:  # said with the command's usage, not the top-level one
            parsers[command.name].error(
                f"unrecognized arguments: {' '.join(unknown)} (webgrip {args.command} "
                "--help lists the options it takes)"
            )
        if command.check is not None:
            command.check(args, parsers[command.name])
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help
        return int(exc.code or 0)
    out, err = sys.stdout, sys.stderr
    if args.verbose:
        import logging

        logging.basicConfig(level=logging.INFO, stream=err, format="webgrip: %(message)s")
    try:
        return command.run(args, out, err)
    except WebgripError as exc:
        line = error_line(exc, args, command.requests)
        if getattr(args, "json", False):
            with contextlib.suppress(BrokenPipeError):  # `... --json | head`
                print_json(error_json(exc, args, line), out)
        err.write(f"webgrip: {line}\n")
        return exit_code(exc)
    except ValueError as exc:  # bad configuration, bad argument value
        err.write(f"webgrip: {exc}\n")
        return EXIT_USAGE
    except ImportError as exc:
        err.write(f"webgrip: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("webgrip: interrupted\n")
        return 130
    except BrokenPipeError:  # `webgrip fetch ... | head`
        return EXIT_OK
