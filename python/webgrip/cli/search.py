"""``webgrip search``: the web searched through the configured provider, the results printed
as a numbered list or a JSON array."""

from __future__ import annotations

import argparse
from typing import TextIO

from .common import EXIT_OK, Command, print_json
from .flags import load_config, positive_int


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", metavar="QUERY")
    parser.add_argument(
        "-n",
        "--num-results",
        type=positive_int,
        default=5,
        metavar="N",
        help="number of results (default: 5)",
    )
    parser.add_argument(
        "--provider",
        metavar="NAME",
        help="search provider (duckduckgo, searxng, brave, tavily, google)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as a JSON array")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..client import WebClient

    overrides = {"search_provider": args.provider} if args.provider else {}
    with WebClient(load_config(args, **overrides)) as client:
        results = client.search(args.query, num_results=args.num_results)
    if args.json:
        print_json([r.to_dict() for r in results], out)
        return EXIT_OK
    if not results:
        out.write(f"No results for {args.query!r}.\n")
    for i, r in enumerate(results, 1):
        d = r.to_dict()
        out.write(f"{i}. {d.get('title') or d.get('url')}\n   {d.get('url')}\n")
        snippet = d.get("snippet")
        if snippet:
            out.write(f"   {snippet}\n")
    return EXIT_OK


SEARCH = Command(
    "search",
    help="search the web",
    description="Search the web and print the results.",
    arguments=_arguments,
    run=run,
    # A search asks no robots.txt.
    requests=("timeout", "header", "user_agent", "proxy", "allow"),
)
