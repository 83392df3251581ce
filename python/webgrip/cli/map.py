"""``webgrip map``: a site's pages listed from its sitemaps, llms.txt and links, one URL a
line (nothing listed is fetched)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from .common import EXIT_FAILURE, EXIT_OK, Command
from .flags import ALL_REQUEST_FLAGS, add_count, load_config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="the site (any of its pages)")
    add_count(parser, "--limit", default=5000, help="list at most N pages (default 5000)")
    parser.add_argument(
        "--subdomains",
        action="store_true",
        help="also list pages on other hosts of the same registrable domain",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a line: url, title (where known), source",
    )


#: Refused or unread files shown on stderr by ``map`` (the rest are counted).
_SHOWN_SKIPPED = 20


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..client import WebClient

    with WebClient(load_config(args)) as client:
        site = client.map_site(
            args.url,
            limit=args.limit,
            subdomains=args.subdomains,
            respect_robots=args.robots is not False,
        )
    for mapped in site:
        if args.json:
            out.write(json.dumps(mapped.to_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(mapped.url + "\n")
    for url, reason in site.skipped[:_SHOWN_SKIPPED]:
        err.write(f"webgrip: skipped {url}: {reason}\n")
    if len(site.skipped) > _SHOWN_SKIPPED:
        err.write(f"webgrip: ... and {len(site.skipped) - _SHOWN_SKIPPED} more skipped\n")
    if not len(site):
        err.write("webgrip: no pages found (no sitemap, no llms.txt, no same-site links)\n")
        return EXIT_FAILURE
    return EXIT_OK


MAP = Command(
    "map",
    help="list a site's pages (sitemaps, llms.txt, links)",
    description="List the pages of the site URL is on, one URL a line: from "
    "robots.txt's Sitemap lines and /sitemap.xml (indexes, gzip and text "
    "sitemaps), /llms.txt and /llms-full.txt, and URL's same-site links. Each "
    "page once (tracking parameters, fragments and host spellings removed); "
    "paths robots.txt disallows are left out unless --ignore-robots. Nothing "
    "listed is fetched. Files refused or cut (entity or gzip bombs, too large, "
    "too deep) are said on stderr. Exit 1 if no page was found. See docs/crawl.md.",
    arguments=_arguments,
    run=run,
    requests=ALL_REQUEST_FLAGS,
)
