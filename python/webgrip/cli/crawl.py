"""``webgrip crawl``: a site crawled into a folder of rows from its start page, sitemaps and
links, here or on Ray; resumable, and Ctrl-C writes the rows finished."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .common import EXIT_USAGE, Command, out_folder_error, run_into_folder
from .flags import ALL_REQUEST_FLAGS, add_count, add_out_folder, add_stored_view, load_config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL", help="the start page")
    add_out_folder(parser)
    add_count(
        parser,
        "--max-pages",
        required=True,
        help="page requests at most (the cap holds whatever the concurrency)",
    )
    add_count(
        parser,
        "--max-depth",
        zero=True,
        default=3,
        metavar="D",
        help="link hops from the start page (default 3; sitemap URLs are at 1)",
    )
    parser.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="only queue paths matching this glob, e.g. '/docs/*'; repeatable",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="never queue paths matching this glob; repeatable",
    )
    parser.add_argument(
        "--subdomains", action="store_true", help="follow the site's subdomains too"
    )
    parser.add_argument(
        "--no-sitemap",
        dest="sitemap",
        action="store_false",
        help="do not seed from robots.txt Sitemap: lines, /sitemap.xml and /llms.txt",
    )
    parser.add_argument(
        "--format",
        choices=("jsonl", "markdown", "parquet"),
        default="jsonl",
        help="one rows.jsonl (default), a .md file per page with an index.jsonl, "
        "or parquet files (needs pyarrow)",
    )
    add_stored_view(
        parser, "view to store as content (default: markdown); links come from the same parse"
    )
    add_count(parser, "--concurrency", default=8, help="requests in flight (default 8)")
    add_count(
        parser,
        "--max-per-pattern",
        default=1000,
        help="URLs queued per path pattern, digits and query values ignored "
        "(default 1000; bounds calendars and facets)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="share the per-host rate limit through this Redis (redis://...); with "
        "--ray, the crawl's frontier too",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="crawl on this Ray cluster (auto, HEAD:6379, or local), one worker a node "
        "sharing the frontier in --redis (required); see docs/crawl.md",
    )


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..sites.crawl_run import run_crawl

    problem = out_folder_error(args.out)
    if problem:
        err.write(f"webgrip: {problem}\n")
        return EXIT_USAGE

    try:
        return run_into_folder(args, out, err, lambda: _run_crawl(args, err, run_crawl))
    except ModuleNotFoundError as exc:
        err.write(
            f"webgrip: --format parquet, --redis and --ray need the ray extra "
            f"(pip install 'webgrip[ray]'): {exc}\n"
        )
        return EXIT_USAGE


def _run_crawl(args: argparse.Namespace, err: TextIO, run_crawl: Any) -> dict[str, Any]:
    summary: dict[str, Any] = run_crawl(
        args.url,
        args.out,
        max_pages=args.max_pages,
        max_depth=args.max_depth,
        include=tuple(args.include),
        exclude=tuple(args.exclude),
        subdomains=args.subdomains,
        sitemap=args.sitemap,
        # Crawls obey robots.txt unless --ignore-robots, whatever the config says.
        respect_robots=args.robots is not False,
        extract=args.extract,
        format=args.format,
        concurrency=args.concurrency,
        max_per_pattern=args.max_per_pattern,
        redis_url=args.redis,
        ray_address=args.ray,
        config=load_config(args),
        err=err,
    )
    return summary


CRAWL = Command(
    "crawl",
    help="crawl a site into a folder (resumable)",
    description="Crawl the site of URL into DIR: the start page, the site's "
    "sitemaps and llms.txt, then same-site links up to --max-depth hops, never "
    "more than --max-pages page requests. One row per page (webgrip batch's "
    "rows), failures as rows with an error. robots.txt and its Crawl-delay are "
    "obeyed unless --ignore-robots. Progress goes to stderr, the summary to "
    "stdout. Ctrl-C writes the rows finished and exits 130; running the same "
    "command again goes on where it stopped. See docs/crawl.md.",
    arguments=_arguments,
    run=run,
    requests=(*ALL_REQUEST_FLAGS, "rate_limit"),
)
