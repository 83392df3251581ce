"""``webgrip llms-txt``: an llms.txt (llmstxt.org) for a site, written to stdout."""

from __future__ import annotations

import argparse
from typing import TextIO

from .common import EXIT_OK, Command
from .flags import ALL_REQUEST_FLAGS, add_count, load_config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="the site (its home page is best)")
    add_count(parser, "--limit", default=50, help="pages to fetch and list at most (default 50)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..client import WebClient
    from ..sites.mapping import llms_txt_for_site

    with WebClient(load_config(args)) as client:
        text = llms_txt_for_site(
            client, args.url, limit=args.limit, respect_robots=args.robots is not False
        )
    out.write(text)
    return EXIT_OK


LLMS_TXT = Command(
    "llms-txt",
    help="write an llms.txt for a site",
    description="Write an llms.txt (llmstxt.org) for the site URL is on to "
    "stdout: the site's map (as webgrip map makes it), then up to --limit of its "
    "pages fetched for their titles and one-line descriptions, grouped in "
    "sections by their path's first segment. See docs/crawl.md.",
    arguments=_arguments,
    run=run,
    requests=ALL_REQUEST_FLAGS,
)
