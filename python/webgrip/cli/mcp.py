"""``webgrip mcp``: the agent tools served over MCP, on stdin/stdout or streamable HTTP."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .common import EXIT_OK, EXIT_USAGE, Command, isatty
from .flags import ALL_REQUEST_FLAGS, load_config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        default=None,
        help="serve over HTTP instead of stdio (127.0.0.1:8766, [::1]:8766 or a bare "
        "port on 127.0.0.1); off loopback a bearer token is required: "
        "$WEBGRIP_MCP_TOKEN (at least 22 characters), else one is generated and printed; "
        "browsers may call from the origins in $WEBGRIP_MCP_ORIGINS",
    )
    parser.add_argument(
        "--tool",
        action="append",
        choices=("map_site", "research"),
        default=None,
        metavar="NAME",
        help="also offer this opt-in tool (repeatable): map_site, research",
    )


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..tools.mcp import serve, serve_http
    from ..tools.schemas import DEFAULT_TOOLS

    # The default three, and the opt-in tools asked for with --tool.
    names = (*DEFAULT_TOOLS, *(args.tool or ())) if args.tool else None
    if args.http is None:
        config = load_config(args)
        if isatty(sys.stdin):  # a person ran it by hand: say why nothing happens
            err.write(
                "webgrip mcp: waiting for an MCP client on stdin (an MCP client starts this "
                "command itself; see docs/integrations.md). Press Ctrl-C to stop\n"
            )
            err.flush()
        serve(config, tool_names=names)
        return EXIT_OK
    from ..tools.mcp_http import parse_address

    try:
        host, port = parse_address(args.http)
    except ValueError as exc:
        err.write(
            f"webgrip: invalid value for --http: {exc}. Give HOST:PORT, e.g. "
            "--http 127.0.0.1:8766\n"
        )
        return EXIT_USAGE
    config = load_config(args)
    try:
        serve_http(host, port, config=config, tool_names=names)
    except ImportError as exc:  # the mcp extra (and its uvicorn) is missing
        err.write(f"webgrip: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        err.write(f"webgrip: cannot serve MCP on {args.http}: {_bind_error(exc, port)}\n")
        return EXIT_USAGE
    except ValueError as exc:  # a bad $WEBGRIP_MCP_TOKEN or $WEBGRIP_MCP_ORIGINS
        err.write(f"webgrip: cannot serve MCP on {args.http}: {exc}\n")
        return EXIT_USAGE
    return EXIT_OK


def _bind_error(exc: OSError, port: int) -> str:
    """Why the address could not be bound, with the next step."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} is already in use (another server is listening there). Pick "
            "another port with --http HOST:PORT, or stop the other server"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return (
            "no network interface of this machine has that address. Give one of its own "
            "addresses, e.g. --http 127.0.0.1:8766"
        )
    if exc.errno == errno.EACCES:
        return (
            f"not allowed to listen on port {port} (ports below 1024 need privileges). "
            "Pick a port from 1024 up with --http HOST:PORT"
        )
    return f"{exc.strerror or exc}. Pick another address with --http HOST:PORT"


MCP = Command(
    "mcp",
    help="serve the tools over MCP (stdio or HTTP)",
    description="Run an MCP server offering fetch_page, search_web and "
    "download_file, on stdin/stdout or, with --http, over streamable HTTP "
    "at http://HOST:PORT/mcp. The request options apply to every call the "
    "tools make. Ctrl-C stops it (exit 130 on stdio, 0 over HTTP). Needs the 'mcp' "
    "extra.",
    arguments=_arguments,
    run=run,
    requests=ALL_REQUEST_FLAGS,
)
