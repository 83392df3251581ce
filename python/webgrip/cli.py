"""The ``webgrip`` command line: fetch, search, download, extract, check, batch, crawl, map,
llms-txt, mcp.

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
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO, TypeVar

from ._cancel import run_interruptibly
from ._progress import ProgressBar
from ._version import __version__
from .client import WebClient
from .config import Config
from .errors import (
    BlockedURLError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidURLError,
    UnsupportedContentError,
    WebgripError,
)
from .page import Download, Page
from .page_builder import build_page, slice_text
from .pdf import is_pdf
from .response import Response
from .tools.mcp import serve, serve_http

__all__ = ["EXIT_BLOCKED", "EXIT_FAILURE", "EXIT_OK", "EXIT_USAGE", "main"]

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_BLOCKED = 0, 1, 2, 3
_EXTRACT_MODES = ("markdown", "text", "html", "links", "tables")
#: Characters of passages ``fetch --find`` prints without ``--max-length`` (the tool's default).
_FIND_LENGTH = 5000
# Destination refusals by the download policy are "blocked", like URL refusals.
_POLICY_REASONS = frozenset({"outside-download-dirs", "symlink"})
# What an empty view means, said on stderr (the agent tools' wording, with the CLI's options).
_NOTHING_FOUND = {
    "markdown": "no readable text was found on this page. Try --extract html or --extract links",
    "text": "no readable text was found on this page. Try --extract html or --extract links",
    "html": "the page is empty",
    "links": "no links were found on this page",
    "tables": "no tables were found on this page",
}


def _add_common(parser: argparse.ArgumentParser, *, defaults: bool, verbose: bool = True) -> None:
    """The options every command takes. They are accepted both before the command (on the
    main parser, which holds the defaults) and after it (on each subparser, whose defaults are
    suppressed so they never overwrite a value given before the command)."""

    def default(value: Any) -> Any:
        return value if defaults else argparse.SUPPRESS

    parser.add_argument(
        "--config", metavar="FILE", default=default(None), help="TOML config file to read"
    )
    parser.add_argument(
        "--profile",
        metavar="NAME",
        default=default(None),
        help="profile of the config file to apply",
    )
    if verbose:
        parser.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            default=default(False),
            help="log one line per request to stderr",
        )


def _add_main_content(parser: argparse.ArgumentParser) -> None:
    """``--main-content``, the same flag on ``fetch`` and ``extract`` (both build a page)."""
    parser.add_argument(
        "--main-content",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep only the main content (default: on for markdown/text)",
    )


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    _add_common(common, defaults=False)
    quiet = argparse.ArgumentParser(add_help=False)  # extract makes no request: nothing to log
    _add_common(quiet, defaults=False, verbose=False)

    p = argparse.ArgumentParser(
        prog="webgrip",
        description="Safe, fast web tools for AI agents, from the shell.",
        epilog="Exit status: 0 ok, 1 fetch/search/download failure or nothing to print "
        "(check: no verdict, e.g. the name does not resolve), 2 usage, 3 blocked by policy, "
        "130 interrupted (batch: the rows finished are written).",
    )
    p.add_argument("--version", action="version", version=f"webgrip {__version__}")
    _add_common(p, defaults=True)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    f = sub.add_parser(
        "fetch",
        parents=[common],
        help="fetch a page as Markdown, text, ...",
        description="Fetch URL and print its readable content.",
    )
    f.add_argument("url", metavar="URL")
    f.add_argument(
        "--extract", choices=_EXTRACT_MODES, default=None, help="view to print (default: markdown)"
    )
    f.add_argument(
        "--max-length",
        type=_positive_int,
        metavar="N",
        help="print at most N characters (default: everything)",
    )
    f.add_argument(
        "--start-index",
        type=_non_negative_int,
        default=None,
        metavar="N",
        help="start at character N (continue a truncated page)",
    )
    f.add_argument(
        "--find",
        metavar="PHRASE",
        help="print only the passages around PHRASE (any case), each headed by its "
        "character offset (read on with --start-index); --max-length bounds them "
        f"(default {_FIND_LENGTH}). The paragraphs sharing most of its words when it "
        "does not occur as written",
    )
    _add_main_content(f)
    f.add_argument(
        "--links",
        choices=("inline", "citations", "none"),
        default="inline",
        help="Markdown links as written (inline, the default), as numbered citations with "
        "the URLs listed after the text (citations), or as their text alone (none)",
    )
    f.add_argument(
        "--max-age",
        type=_non_negative_int,
        default=None,
        metavar="SECONDS",
        help="with a persistent cache (cache_dir): accept a cached copy at most SECONDS old; "
        "0 always asks the server (default: the cache's own rules)",
    )
    f.add_argument("--json", action="store_true", help="print the page as a JSON object")
    f.add_argument(
        "--render",
        action="store_const",
        const="always",
        default=None,
        help="run an HTML page's scripts in the guarded headless browser "
        "(webgrip[render]; a PDF, JSON or text reads as without it; with an "
        "upstream proxy the static page is printed; default: the config's "
        "render setting, auto)",
    )
    f.add_argument(
        "--no-render",
        dest="render",
        action="store_const",
        const="never",
        help="never run the page's scripts",
    )
    f.add_argument(
        "--screenshot",
        metavar="FILE",
        help="save a PNG of the rendered page to FILE instead of printing it "
        "(an HTML page only: anything else fails and saves nothing; FILE's folder "
        "must exist; not with --no-render or the options that shape the printed "
        "text)",
    )
    f.add_argument(
        "--full-page",
        action="store_true",
        help="with --screenshot: the whole page, not only the viewport",
    )

    s = sub.add_parser(
        "search",
        parents=[common],
        help="search the web",
        description="Search the web and print the results.",
    )
    s.add_argument("query", metavar="QUERY")
    s.add_argument(
        "-n",
        "--num-results",
        type=_positive_int,
        default=5,
        metavar="N",
        help="number of results (default: 5)",
    )
    s.add_argument(
        "--provider",
        metavar="NAME",
        help="search provider (duckduckgo, searxng, brave, tavily, google)",
    )
    s.add_argument("--json", action="store_true", help="print the results as a JSON array")

    d = sub.add_parser(
        "download",
        parents=[common],
        help="download a file",
        description="Download URL into an allowed folder. A progress bar is "
        "shown on stderr when it is a terminal.",
    )
    d.add_argument("url", metavar="URL")
    d.add_argument(
        "-o",
        "--output-dir",
        metavar="DIR",
        help="folder to save into (must be inside WEBGRIP_DOWNLOAD_DIRS)",
    )
    d.add_argument("--name", metavar="FILENAME", help="file name to save as")
    d.add_argument("--overwrite", action="store_true", help="replace an existing file")
    d.add_argument("--json", action="store_true", help="print the result as a JSON object")
    pace = d.add_argument_group(
        "how long a download may take",
        "--timeout bounds the wait for the response, not the file: it flows until done "
        "unless it stalls (curl's --speed-limit/--speed-time) or passes --download-timeout.",
    )
    pace.add_argument(
        "--speed-limit",
        metavar="BYTES",
        type=int,
        help="give up when fewer than BYTES per second arrive over --speed-time "
        "(config: download_min_speed; default 1024)",
    )
    pace.add_argument(
        "--speed-time",
        metavar="SECONDS",
        type=float,
        help="the window of --speed-limit (config: download_stall_seconds; default 30)",
    )
    pace.add_argument(
        "--download-timeout",
        metavar="SECONDS",
        type=float,
        help="longest the transfer may take, 0 for no limit "
        "(config: download_timeout; default 3600)",
    )

    e = sub.add_parser(
        "extract",
        parents=[quiet],
        help="convert a local HTML or PDF file (no network)",
        description="Convert local HTML or PDF (a file, or - for stdin) without "
        "any network access. PDFs are recognised by their %PDF- start (read only in "
        "--mode markdown or text).",
    )
    e.add_argument("file", metavar="FILE", help="HTML or PDF file, or - to read stdin")
    e.add_argument(
        "--mode",
        choices=_EXTRACT_MODES,
        default="markdown",
        help="view to print (default: markdown)",
    )
    _add_main_content(e)
    e.add_argument("--url", metavar="BASE", help="the page's URL, to resolve relative links")
    e.add_argument("--json", action="store_true", help="print the page as a JSON object")
    e.add_argument(
        "--password",
        metavar="PASSWORD",
        help="open an encrypted PDF with this password (visible to other users "
        "of this machine in the process list)",
    )

    c = sub.add_parser(
        "check",
        parents=[common],
        help="show the security policy's verdict",
        description="Say whether URL may be fetched under the current policy, "
        "and why not. Resolves the host but never connects. Exit 0 if allowed, "
        "3 if refused by the policy, 1 if no verdict could be reached (e.g. the "
        "name does not resolve: the address rules cannot be applied).",
    )
    c.add_argument("url", metavar="URL")

    b = sub.add_parser(
        "batch",
        parents=[common],
        help="fetch a list of URLs into a folder (resumable)",
        description="Fetch every URL of URLS (one a line) into DIR: one row per "
        "URL with its content and metadata, failures as rows with an error. "
        "URLs already in DIR are skipped, so running the same command again "
        "finishes an interrupted run. Progress goes to stderr, the summary to "
        "stdout. Ctrl-C writes the rows finished and exits 130. Needs the 'ray' "
        "extra (pyarrow; Ray for --ray, redis for --redis). See docs/batch.md.",
    )
    b.add_argument("urls", metavar="URLS", help="text file of URLs, one a line")
    b.add_argument("--out", metavar="DIR", required=True, help="output folder")
    b.add_argument(
        "--format",
        choices=("parquet", "jsonl", "markdown"),
        default="parquet",
        help="parquet files (default), one rows.jsonl, or a .md file per page "
        "with an index.jsonl (jsonl and markdown: not with --ray)",
    )
    b.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on this Ray cluster: auto (the one this node belongs to), "
        "HEAD:6379, or local (a Ray started here)",
    )
    b.add_argument(
        "--redis",
        metavar="URL",
        help="share the per-host rate limit through this Redis (redis://...)",
    )
    b.add_argument(
        "--extract",
        choices=_EXTRACT_MODES,
        default="markdown",
        help="view to store as content (default: markdown)",
    )
    b.add_argument(
        "--concurrency",
        type=_positive_int,
        default=None,
        metavar="N",
        help="threads here (default 8), or Ray actors with --ray",
    )

    cr = sub.add_parser(
        "crawl",
        parents=[common],
        help="crawl a site into a folder (resumable)",
        description="Crawl the site of URL into DIR: the start page, the site's "
        "sitemaps and llms.txt, then same-site links up to --max-depth hops, never "
        "more than --max-pages page requests. One row per page (webgrip batch's "
        "rows), failures as rows with an error. robots.txt and its Crawl-delay are "
        "obeyed unless --ignore-robots. Progress goes to stderr, the summary to "
        "stdout. Ctrl-C writes the rows finished and exits 130; running the same "
        "command again goes on where it stopped. See docs/crawl.md.",
    )
    cr.add_argument("url", metavar="URL", help="the start page")
    cr.add_argument("--out", metavar="DIR", required=True, help="output folder")
    cr.add_argument(
        "--max-pages",
        type=_positive_int,
        required=True,
        metavar="N",
        help="page requests at most (the cap holds whatever the concurrency)",
    )
    cr.add_argument(
        "--max-depth",
        type=_non_negative_int,
        default=3,
        metavar="D",
        help="link hops from the start page (default 3; sitemap URLs are at 1)",
    )
    cr.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="only queue paths matching this glob, e.g. '/docs/*'; repeatable",
    )
    cr.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="never queue paths matching this glob; repeatable",
    )
    cr.add_argument("--subdomains", action="store_true", help="follow the site's subdomains too")
    cr.add_argument(
        "--no-sitemap",
        dest="sitemap",
        action="store_false",
        help="do not seed from robots.txt Sitemap: lines, /sitemap.xml and /llms.txt",
    )
    cr.add_argument(
        "--format",
        choices=("jsonl", "markdown", "parquet"),
        default="jsonl",
        help="one rows.jsonl (default), a .md file per page with an index.jsonl, "
        "or parquet files (needs pyarrow)",
    )
    cr.add_argument(
        "--extract",
        choices=_EXTRACT_MODES,
        default="markdown",
        help="view to store as content (default: markdown); links come from the same parse",
    )
    cr.add_argument(
        "--concurrency",
        type=_positive_int,
        default=8,
        metavar="N",
        help="requests in flight (default 8)",
    )
    cr.add_argument(
        "--max-per-pattern",
        type=_positive_int,
        default=1000,
        metavar="N",
        help="URLs queued per path pattern, digits and query values ignored "
        "(default 1000; bounds calendars and facets)",
    )
    cr.add_argument(
        "--redis",
        metavar="URL",
        help="share the per-host rate limit through this Redis (redis://...); with "
        "--ray, the crawl's frontier too",
    )
    cr.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="crawl on this Ray cluster (auto, HEAD:6379, or local), one worker a node "
        "sharing the frontier in --redis (required); see docs/crawl.md",
    )

    mp = sub.add_parser(
        "map",
        parents=[common],
        help="list a site's pages (sitemaps, llms.txt, links)",
        description="List the pages of the site URL is on, one URL a line: from "
        "robots.txt's Sitemap lines and /sitemap.xml (indexes, gzip and text "
        "sitemaps), /llms.txt and /llms-full.txt, and URL's same-site links. Each "
        "page once (tracking parameters, fragments and host spellings removed); "
        "paths robots.txt disallows are left out unless --ignore-robots. Nothing "
        "listed is fetched. Files refused or cut (entity or gzip bombs, too large, "
        "too deep) are said on stderr. Exit 1 if no page was found. See docs/crawl.md.",
    )
    mp.add_argument("url", metavar="URL", help="the site (any of its pages)")
    mp.add_argument(
        "--limit",
        type=_positive_int,
        default=5000,
        metavar="N",
        help="list at most N pages (default 5000)",
    )
    mp.add_argument(
        "--subdomains",
        action="store_true",
        help="also list pages on other hosts of the same registrable domain",
    )
    mp.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a line: url, title (where known), source",
    )
    _add_request_flags(mp, "map")

    lt = sub.add_parser(
        "llms-txt",
        parents=[common],
        help="write an llms.txt for a site",
        description="Write an llms.txt (llmstxt.org) for the site URL is on to "
        "stdout: the site's map (as webgrip map makes it), then up to --limit of its "
        "pages fetched for their titles and one-line descriptions, grouped in "
        "sections by their path's first segment. See docs/crawl.md.",
    )
    lt.add_argument("url", metavar="URL", help="the site (its home page is best)")
    lt.add_argument(
        "--limit",
        type=_positive_int,
        default=50,
        metavar="N",
        help="pages to fetch and list at most (default 50)",
    )
    _add_request_flags(lt, "llms-txt")

    m = sub.add_parser(
        "mcp",
        parents=[common],
        help="serve the tools over MCP (stdio or HTTP)",
        description="Run an MCP server offering fetch_page, search_web and "
        "download_file, on stdin/stdout or, with --http, over streamable HTTP "
        "at http://HOST:PORT/mcp. The request options apply to every call the "
        "tools make. Ctrl-C stops it (exit 130 on stdio, 0 over HTTP). Needs the 'mcp' "
        "extra.",
    )
    m.add_argument(
        "--http",
        metavar="HOST:PORT",
        default=None,
        help="serve over HTTP instead of stdio (127.0.0.1:8765, [::1]:8765 or a bare "
        "port on 127.0.0.1); off loopback a bearer token is required: "
        "$WEBGRIP_MCP_TOKEN (at least 22 characters), else one is generated and printed; "
        "browsers may call from the origins in $WEBGRIP_MCP_ORIGINS",
    )
    m.add_argument(
        "--tool",
        action="append",
        choices=("map_site", "research"),
        default=None,
        metavar="NAME",
        help="also offer this opt-in tool (repeatable): map_site, research",
    )
    for command, cmd_parser in (
        ("fetch", f),
        ("search", s),
        ("download", d),
        ("check", c),
        ("batch", b),
        ("crawl", cr),
        ("mcp", m),
    ):
        _add_request_flags(cmd_parser, command)
    # Each command's own parser, for the errors found after parsing (its usage is shown).
    p.set_defaults(
        _commands={
            "fetch": f,
            "search": s,
            "download": d,
            "extract": e,
            "check": c,
            "batch": b,
            "crawl": cr,
            "map": mp,
            "llms-txt": lt,
            "mcp": m,
        }
    )
    return p


def _check_combinations(args: argparse.Namespace) -> None:
    """Refuse options that would otherwise be silently ignored (argparse's usage error,
    exit 2). Runs before any configuration is read or request made."""
    commands = args._commands
    if args.command == "extract" and args.verbose:
        commands["extract"].error(
            "-v/--verbose: extract makes no request, so there is nothing to log. Leave -v out"
        )
    if args.command != "fetch":
        return
    f = commands["fetch"]
    if args.find is not None:
        from .tools.find import MAX_FIND_CHARS

        if not args.find.strip():
            f.error("--find needs a word or phrase to look for. Give one, or leave --find out")
        if len(" ".join(args.find.split())) > MAX_FIND_CHARS:
            f.error(f"--find takes at most {MAX_FIND_CHARS} characters (a few words)")
    if args.full_page and not args.screenshot:
        f.error(
            "--full-page only applies to --screenshot. Add --screenshot FILE or leave "
            "--full-page out"
        )
    if not args.screenshot:
        return
    if args.render == "never":
        f.error("--screenshot needs the browser, which --no-render forbids. Leave one out")
    printing = [
        flag
        for flag, given in (
            ("--extract", args.extract is not None),
            ("--max-length", args.max_length is not None),
            ("--start-index", args.start_index is not None),
            ("--find", args.find is not None),
            ("--[no-]main-content", args.main_content is not None),
            ("--json", args.json),
            ("--links", args.links != "inline"),
        )
        if given
    ]
    if printing:
        f.error(
            f"--screenshot saves an image and prints no text, so {printing[0]} has no "
            "effect. Leave it out, or drop --screenshot to print the page"
        )


def _screenshot_target_error(path: str) -> str | None:
    """Why a screenshot could not be saved at ``path``, checked before any request (a render
    takes seconds; a typo in the folder should not cost them), or ``None``."""
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        return f"cannot save the screenshot to {path}: it is a folder. Give a file name"
    if not os.path.exists(folder):
        return (
            f"cannot save the screenshot to {path}: the folder {folder} does not exist. "
            "Create it or choose another path"
        )
    if not os.path.isdir(folder):
        return (
            f"cannot save the screenshot to {path}: {folder} is not a folder. Choose another path"
        )
    if not os.access(folder, os.W_OK):
        return (
            f"cannot save the screenshot to {path}: the folder {folder} is not writable. "
            "Choose another path"
        )
    return None


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


# -- request flags: --timeout, --header, --user-agent, --proxy, --allow, --[ignore-]robots ------
#: The request flags each command takes. ``check`` resolves but sends nothing, so only the
#: policy's ``--allow`` applies to it; a search asks no robots.txt.
_ALL_REQUEST_FLAGS = ("timeout", "header", "user_agent", "proxy", "allow", "robots")
_REQUEST_FLAGS: dict[str, tuple[str, ...]] = {
    "fetch": _ALL_REQUEST_FLAGS,
    "download": _ALL_REQUEST_FLAGS,
    "batch": (*_ALL_REQUEST_FLAGS, "rate_limit"),
    "crawl": (*_ALL_REQUEST_FLAGS, "rate_limit"),
    "search": ("timeout", "header", "user_agent", "proxy", "allow"),
    "check": ("allow",),
    "map": _ALL_REQUEST_FLAGS,
    "llms-txt": _ALL_REQUEST_FLAGS,
    "mcp": _ALL_REQUEST_FLAGS,
}
#: The flag that sets each Config field, and what to do when its value is refused.
_FLAG_OF = {
    "timeout": ("--timeout", "Give a positive number of seconds, e.g. --timeout 30"),
    "headers": ("--header", "Fix that --header or leave it out"),
    "user_agent": ("--user-agent", "Give a non-empty, one-line --user-agent"),
    "proxy": (
        "--proxy",
        "Give a proxy URL such as http://proxy.example:3128 or socks5://127.0.0.1:1080",
    ),
    "allow_networks": ("--allow", "Give a network such as 10.0.0.0/8 or 127.0.0.1/32"),
    "respect_robots_txt": ("--robots", "Use --robots or --ignore-robots"),
    "rate_limit_seconds": (
        "--rate-limit",
        "Give the seconds between two requests to one host, 0 or more, e.g. --rate-limit 0.25",
    ),
    "download_min_speed": ("--speed-limit", "Give a positive number of bytes per second"),
    "download_stall_seconds": (
        "--speed-time",
        "Give a positive number of seconds, at most 1800, e.g. --speed-time 60",
    ),
    "download_timeout": (
        "--download-timeout",
        "Give a number of seconds, or 0 for no limit",
    ),
}
#: The download flags (``webgrip download`` only) and the Config fields they set.
_DOWNLOAD_FLAGS = (
    ("speed_limit", "download_min_speed"),
    ("speed_time", "download_stall_seconds"),
    ("download_timeout", "download_timeout"),
)
#: Headers the config refuses to send to every site: on fetch and download they go with that
#: one call instead (its URL's origin only; dropped if a redirect leaves it).
_CREDENTIAL_HEADERS = frozenset({"authorization", "cookie"})


def _add_request_flags(parser: argparse.ArgumentParser, command: str) -> None:
    """The flags curl, trafilatura and MCP fetch users look for, as ``command`` takes them.
    Each overrides the config file and the ``WEBGRIP_*`` variables (flag > env > file >
    default); the values are checked when the config is built (:func:`_load_config`), so a
    bad one is one ``webgrip: ...`` line and exit 2."""
    which = _REQUEST_FLAGS[command]
    group = parser.add_argument_group(
        "request options",
        "Override the config file and WEBGRIP_* variables. fetch, download, batch, crawl, "
        "map, llms-txt and mcp take all of them; search all but --robots/--ignore-robots; "
        "check only --allow.",
    )
    if "timeout" in which:
        group.add_argument(
            "--timeout",
            metavar="SECONDS",
            help="total deadline of each call, redirects, retries and "
            "robots.txt included (config: timeout; default 30)",
        )
    if "header" in which:
        cred = (
            "; Authorization and Cookie go to the URL's own site only"
            if command in ("fetch", "download")
            else "; not Authorization or Cookie (site_headers in the config)"
        )
        group.add_argument(
            "-H",
            "--header",
            metavar="NAME:VALUE",
            action="append",
            help=f"extra request header, repeatable (config: headers, which it adds to{cred})",
        )
    if "user_agent" in which:
        group.add_argument(
            "--user-agent", metavar="STRING", help="the User-Agent to send (config: user_agent)"
        )
    if "proxy" in which:
        group.add_argument(
            "--proxy",
            metavar="URL",
            help="upstream proxy, http://, https:// or socks5:// with optional "
            "user:password@ (config: proxy; the policy still decides first)",
        )
    if "allow" in which:
        group.add_argument(
            "--allow",
            metavar="CIDR",
            action="append",
            help="open this refused address range on purpose, e.g. "
            "127.0.0.0/8 for a local server; repeatable (added to the config's "
            "allow_networks)",
        )
    if "rate_limit" in which:
        group.add_argument(
            "--rate-limit",
            metavar="SECONDS",
            help="seconds between two requests to one host (config: rate_limit_seconds; "
            "default 1): with one host, what sets the pace, whatever --concurrency. "
            "Lower it only where the site allows",
        )
    if "robots" in which:
        group.add_argument(
            "--robots",
            dest="robots",
            action="store_const",
            const=True,
            default=None,
            help="obey the sites' robots.txt (config: respect_robots_txt; default off, "
            "but on for crawl, map and llms-txt)",
        )
        group.add_argument(
            "--ignore-robots",
            dest="robots",
            action="store_const",
            const=False,
            help="do not ask robots.txt, even if the config says to",
        )


def _seconds(text: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ValueError(
            f"invalid value for --timeout: {text!r} is not a positive number of "
            f"seconds. {_FLAG_OF['timeout'][1]}"
        )
    return value


def _flag_headers(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The ``--header NAME:VALUE`` items, split (values are never echoed: they may hold a
    token)."""
    pairs = []
    for item in getattr(args, "header", None) or ():
        name, sep, value = item.partition(":")
        name = name.strip()
        if any(ch in name for ch in "\r\n") or any(ch in value for ch in "\r\n"):
            where = "" if any(ch in name for ch in "\r\n") or not sep else f" {name}"
            raise ValueError(
                f"--header{where} holds a line break (CR or LF), which would "
                "split the request. Give a one-line NAME:VALUE"
            )
        if not sep or not name:
            raise ValueError(
                "--header needs NAME:VALUE, a header name, a colon and its "
                "value. Write it as --header 'X-Name: value'"
            )
        pairs.append((name, value.strip()))
    return pairs


def _call_headers(args: argparse.Namespace) -> dict[str, str] | None:
    """The credential ``--header`` items of fetch and download, sent with that call only."""
    if args.command not in ("fetch", "download"):
        return None
    found = {k: v for k, v in _flag_headers(args) if k.lower() in _CREDENTIAL_HEADERS}
    return found or None


def _request_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The Config fields the single-valued request flags set (``None``: not given)."""
    settings: dict[str, Any] = {}
    if getattr(args, "timeout", None) is not None:
        settings["timeout"] = _seconds(args.timeout)
    if getattr(args, "rate_limit", None) is not None:
        try:
            settings["rate_limit_seconds"] = float(args.rate_limit)
        except ValueError:
            raise ValueError(
                f"invalid value for --rate-limit: {args.rate_limit!r} is not a number of "
                f"seconds. {_FLAG_OF['rate_limit_seconds'][1]}"
            ) from None
    for flag, key in (
        ("user_agent", "user_agent"),
        ("proxy", "proxy"),
        ("robots", "respect_robots_txt"),
        *_DOWNLOAD_FLAGS,
    ):
        if getattr(args, flag, None) is not None:
            settings[key] = getattr(args, flag)
    return settings


def _apply_request_flags(config: Config, args: argparse.Namespace) -> Config:
    """``config`` with ``--allow`` added to its ``allow_networks`` and the ``--header`` items
    over its ``headers`` (a header given replaces the config's of the same name), validated by
    the Config itself."""
    changes: dict[str, Any] = {}
    allow = getattr(args, "allow", None)
    if allow:
        added = [net.strip() for net in allow]
        changes["allow_networks"] = tuple(dict.fromkeys([*config.allow_networks, *added]))
    call = _call_headers(args) or {}
    if call:
        _check_call_headers(args, call)
    plain = [(k, v) for k, v in _flag_headers(args) if k not in call]
    if plain:
        given = {k.lower() for k, _ in plain}
        headers = {k: v for k, v in config.headers.items() if k.lower() not in given}
        headers.update(plain)
        changes["headers"] = headers
    if not changes:
        return config
    try:
        return config.replace(**changes)
    except ValueError as exc:
        raise _flag_error(exc, changes) from None


def _check_call_headers(args: argparse.Namespace, call: dict[str, str]) -> None:
    """A credential header goes with a static request only: refuse what would ignore it."""
    from . import _core

    name = next(iter(call))
    if getattr(args, "screenshot", None) or getattr(args, "render", None) == "always":
        flag = "--screenshot" if args.screenshot else "--render"
        raise ValueError(
            f"--header {name}: the browser that {flag} needs does not send it, "
            f"only a static fetch does. Leave out {flag} or the header"
        )
    try:
        _core.check_headers(list(call.items()), credentials=True)
    except ValueError as exc:
        raise ValueError(
            f"invalid value for --header: {str(exc).removeprefix('headers: ')}. "
            f"{_FLAG_OF['headers'][1]}"
        ) from None


def _flag_error(exc: ValueError, fields: dict[str, Any]) -> ValueError:
    """The Config's refusal of a value a flag gave, naming the flag and what to do."""
    message = str(exc)
    for field in fields:
        prefix = f"invalid value for {field!r}: "
        if message.startswith(prefix):
            flag, fix = _FLAG_OF[field]
            detail = message.removeprefix(prefix).removeprefix("headers: ").rstrip(".")
            if "site_headers" in detail:
                fix = (
                    "fetch and download send an Authorization or Cookie --header to the "
                    "URL's own site only"
                )
            return ValueError(f"invalid value for {flag}: {detail}. {fix}")
    return exc


def _load_config(args: argparse.Namespace, **overrides: Any) -> Config:
    """The config file, profile and ``WEBGRIP_*`` variables, with the request flags given over
    them (flag > env > file > default)."""
    settings = _request_settings(args)
    try:
        config = _read_config(args, **overrides, **settings)
    except ValueError as exc:
        raise _flag_error(exc, settings) from None
    return _apply_request_flags(config, args)


def _read_config(args: argparse.Namespace, **overrides: Any) -> Config:
    load = getattr(Config, "load", None)
    if load is not None:
        config: Config = load(args.config, args.profile, **overrides)
        return config
    if args.config or args.profile:
        raise ValueError("this build cannot read config files")
    return Config.from_env(**overrides)


def _exit_code(exc: WebgripError) -> int:
    if isinstance(exc, (BlockedURLError, InvalidURLError)):
        return EXIT_BLOCKED
    if exc.reason in _POLICY_REASONS:
        return EXIT_BLOCKED
    return EXIT_FAILURE


#: The agent's wording (the tools' ``Error:`` strings) put in the command line's terms.
_CLI_TERMS = (
    ("use download_file to save it as it is", "save it as it is with webgrip download"),
    ("Use download_file to save it", "Save it with webgrip download"),
    ("If it is a file, use download_file", "If it is a file, use webgrip download"),
    ('Use extract="markdown" or extract="text"', "Use --extract markdown or --extract text"),
    (
        "ask for a higher max_download_bytes",
        "raise max_download_bytes (WEBGRIP_MAX_DOWNLOAD_BYTES)",
    ),
    ("(or omit save_to)", "(or leave out -o)"),
    ("a lower download_min_speed", "a lower --speed-limit"),
    ("a longer download_stall_seconds", "a longer --speed-time"),
    ("slower than download_min_speed", "slower than --speed-limit"),
    ("Raise download_timeout", "Raise --download-timeout"),
    ("pass overwrite=true", "pass --overwrite"),
    ("save the file with download_file", "save the file with webgrip download"),
    ("without rendering", "without rendering (--no-render)"),
)


#: Refusals a user may mean to lift for a local server or an intranet (link-local, which
#: holds the cloud metadata address, and the rest are not suggested).
_OPENABLE = frozenset({"loopback-address", "private-address"})


def _refused_range(message: str) -> str:
    """The network the core names in a refusal ("... is a loopback address (127.0.0.0/8)"),
    else a placeholder."""
    for word in message.replace("(", " ").replace(")", " ").split():
        if "/" in word and word.split("/", 1)[1].isdigit() and ("." in word or ":" in word):
            return word
    return "NETWORK/PREFIX"


def _allow_hint(exc: BlockedURLError, command: str) -> str:
    """How to open the address range a refusal names, with ``command``'s own flag where it
    takes ``--allow`` (a leading space: it follows a sentence)."""
    net = _refused_range(str(exc))
    if "allow" in _REQUEST_FLAGS.get(command, ()):
        return (
            " To fetch it on purpose (a local test server, an intranet), open that "
            f"range: --allow {net} (or WEBGRIP_ALLOW_NETWORKS={net} or "
            "allow_networks in webgrip.toml; docs/security.md)."
        )
    return (
        " To fetch it on purpose (a local test server, an intranet), open that "
        f"range: WEBGRIP_ALLOW_NETWORKS={net} (or "
        "allow_networks in webgrip.toml; docs/security.md)."
    )


#: A download's own limits: the message names their flags, --timeout would not help.
_DOWNLOAD_LIMITS = frozenset({"stalled", "download-timeout"})


def _error_line(exc: WebgripError, args: argparse.Namespace) -> str:
    """What happened and what to do, as the agent tools say it (no class names), with the
    command line's own next step where it has one: opening an address range on purpose,
    raising the timeout."""
    from .messages import error_message

    try:
        timeout = _load_config(args).timeout
    except (ValueError, OSError):
        timeout = Config().timeout
    action = {"download": "downloading", "search": "searching"}.get(args.command, "fetching")
    # The URL given, for errors raised before any request names one (a refused -o folder).
    url = getattr(exc, "url", None) or getattr(args, "url", None)
    line = error_message(exc, url=url, action=action, timeout=timeout).removeprefix("Error: ")
    for agent, cli in _CLI_TERMS:
        line = line.replace(agent, cli)
    if isinstance(exc, BlockedURLError) and exc.reason in _OPENABLE:
        line += _allow_hint(exc, args.command)
    elif isinstance(exc, FetchTimeoutError) and exc.reason not in _DOWNLOAD_LIMITS:
        longer = f"{max(60, 2 * timeout):g}"
        if "timeout" in _REQUEST_FLAGS.get(args.command, ()):
            line += (
                f" To wait longer, raise the limit: --timeout {longer} "
                f"(or WEBGRIP_TIMEOUT={longer})."
            )
        else:
            line += f" To wait longer, raise the limit: WEBGRIP_TIMEOUT={longer}."
    return line


def _error_json(exc: WebgripError, args: argparse.Namespace, line: str) -> dict[str, Any]:
    """What ``--json`` prints on stdout when the command failed: the URL, the error's kind
    (a batch row's ``error_kind``: ``timeout``, ``http-404``, ``private-address``...), the
    message and the HTTP status when there was one."""
    return {
        "url": getattr(exc, "url", None) or getattr(args, "url", None),
        "error_kind": exc.reason or type(exc).__name__,
        "error": line,
        "status": exc.status if isinstance(exc, HTTPStatusError) else None,
    }


def _print_json(obj: Any, out: TextIO) -> None:
    json.dump(obj, out, ensure_ascii=False, indent=2)
    out.write("\n")


# -- Ctrl-C -------------------------------------------------------------------------------
_T = TypeVar("_T")


def _interruptible(work: Callable[[], _T], on_interrupt: Callable[[], None] | None = None) -> _T:
    """``work()`` stopped at once by Ctrl-C: it runs on a thread under a cancel token while
    this one waits (:func:`webgrip._cancel.run_interruptibly`), so a server that accepts and
    never answers cannot hold the command until the deadline. On Ctrl-C the token is
    cancelled, ``on_interrupt`` cleans up, and ``KeyboardInterrupt`` goes on to :func:`main`
    (exit 130); from then on a second Ctrl-C ends the process at once, whatever is left."""
    try:
        return run_interruptibly(work)
    except KeyboardInterrupt:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, _exit_at_once)
        if on_interrupt is not None:
            on_interrupt()
        raise


def _exit_at_once(signum: int, frame: object) -> None:
    os._exit(130)


def _remove_partial_downloads() -> None:
    """Remove the temp files of the downloads this process has open (Linux ``/proc``). The
    core removes its temp file when a download fails, but an interrupted download may still
    be blocked on the network when the process exits, and its ``.webgrip-*.part`` would stay
    until a later download into that folder swept it."""
    from .downloads import TEMP_NAME

    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:  # no /proc: the next download into the folder sweeps the file
        return
    for fd in fds:
        with contextlib.suppress(OSError):
            path = os.readlink(f"/proc/self/fd/{fd}")
            # A removed file reads as "... (deleted)", which the name pattern does not match.
            if os.path.isabs(path) and TEMP_NAME.fullmatch(os.path.basename(path)):
                os.unlink(path)


# -- commands -----------------------------------------------------------------------------
def _cmd_fetch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.screenshot:
        problem = _screenshot_target_error(args.screenshot)
        if problem:
            err.write(f"webgrip: {problem}\n")
            return EXIT_USAGE
    extract = args.extract or "markdown"
    start = args.start_index or 0
    config = _load_config(args)
    got = _interruptible(lambda: _fetch_or_screenshot(args, config, extract, err))
    if isinstance(got, int):  # the screenshot's exit status
        return got
    page = got
    from .tools.citations import cite_links, cited_in, links_listed

    cited = cite_links(page.content, args.links if page.extract == "markdown" else "inline")
    content = cited.text
    total = len(content)
    if page.from_cache and page.fetched_at is not None:
        age = max(0, int(time.time() - page.fetched_at))
        err.write(f"webgrip: from the cache, fetched {age} s ago (--max-age 0 fetches it again)\n")
    if _is_empty(content):
        # Nothing to print: said on stderr, and a failure for scripts (the JSON still shows
        # the empty page).
        if args.json:
            data = page.to_dict()
            data.update(start_index=start, total_length=total, next_start_index=None)
            _print_json(data, out)
        err.write(f"webgrip: {_nothing_found(page, config)}\n")
        return EXIT_FAILURE
    if start > total:
        err.write(f"webgrip: --start-index {start} is past the end ({total} chars)\n")
        return EXIT_USAGE
    if args.find is not None:
        return _print_found(page, content, args, start, out, err)
    if args.max_length:
        chunk, end = slice_text(content, start, args.max_length)
    else:
        chunk, end = content[start:], total
    listed = links_listed(cited, [(start, end)])  # the URLs this part cites
    if args.json:
        data = page.to_dict()
        data.update(
            content=chunk,
            start_index=start,
            total_length=total,
            next_start_index=end if end < total else None,
        )
        if args.links == "citations":
            numbers = cited_in(cited, [(start, end)])
            data["citations"] = {str(n): cited.urls[n - 1] for n in numbers}
        _print_json(data, out)
    else:
        out.write(chunk if chunk.endswith("\n") or not chunk else chunk + "\n")
        if listed:
            out.write(f"\n{listed}\n")
        if end < total:
            err.write(
                f"webgrip: truncated at {end} of {total} characters; "
                f"continue with --start-index {end}\n"
            )
    return EXIT_OK


def _print_found(
    page: Page, content: str, args: argparse.Namespace, start: int, out: TextIO, err: TextIO
) -> int:
    """``fetch --find``: the passages of ``content`` around the phrase, as the agent tool's
    ``find`` picks them (:func:`webgrip.tools.find.find_passages`), each headed by its offset."""
    from .tools.find import find_passages

    phrase = " ".join(args.find.split())
    found = find_passages(content, phrase, args.max_length or _FIND_LENGTH, start)
    blocks = [f"[at character {p.at}]\n{p.text.strip()}" for p in found.passages]
    if args.json:
        data = page.to_dict()
        data.update(
            content="\n\n".join(blocks),
            start_index=start,
            total_length=len(content),
            next_start_index=found.next_start,
            find={
                "phrase": phrase,
                "exact": found.exact,
                "matches": found.total if found.exact else 0,
                "passages": [{"at": p.at, "text": p.text} for p in found.passages],
            },
        )
        _print_json(data, out)
    where = f"{len(content)} characters" + (f" from character {start}" if start else "")
    if not found.passages:
        err.write(
            f'webgrip: no match for "{phrase}" in {where}. Try other or fewer words, or '
            "read the page without --find\n"
        )
        return EXIT_FAILURE
    if not args.json:
        out.write("\n\n".join(blocks) + "\n")
    if found.exact:
        count = "1 match" if found.total == 1 else f"{found.total} matches"
        err.write(
            f'webgrip: {count} for "{phrase}" in {where}; {len(found.passages)} passage(s) shown\n'
        )
    else:
        err.write(
            f'webgrip: no exact match for "{phrase}" in {where}; the passages sharing '
            "most of its words are shown\n"
        )
    if found.next_start is not None:
        err.write(
            f"webgrip: more matches: add --start-index {found.next_start}; read on from a "
            "passage with --start-index and its character, without --find\n"
        )
    return EXIT_OK


def _nothing_found(page: Page, config: Config) -> str:
    """Why ``fetch`` prints nothing, and what to do: for a page its scripts build
    (:attr:`Page.script_shell`), that they did not run and how to run them."""
    if page.script_shell is None or page.extract not in ("markdown", "text"):
        return _NOTHING_FOUND[page.extract]
    from .messages import unrun_scripts
    from .render import PROXY_REFUSED, render_available

    why = render_available(config)
    clause = unrun_scripts(page.script_shell, why, config.render)
    if config.render == "never":
        step = "Pass --render to run them" + ("" if why is None else f" once this is fixed: {why}")
    elif why is None:
        step = "Pass --render to see why the render failed"
    elif why == PROXY_REFUSED:
        step = "Fetch it without the upstream proxy to render it"
    else:  # the clause says what to install or set
        step = "Then fetch it again (such pages are rendered on their own) or pass --render"
    return f"no readable text: {clause}. {step}"


def _fetch_or_screenshot(
    args: argparse.Namespace, config: Config, extract: str, err: TextIO
) -> Page | int:
    """The page ``fetch`` prints, or with ``--screenshot`` the PNG saved and the exit status."""
    with WebClient(config) as client:
        if args.screenshot:
            png = client.screenshot(args.url, full_page=args.full_page)
            try:
                with open(args.screenshot, "wb") as f:
                    f.write(png)
            except OSError as exc:  # e.g. the folder went away during the render
                err.write(
                    f"webgrip: cannot save the screenshot to {args.screenshot}: "
                    f"{exc.strerror or exc}. Choose another path\n"
                )
                return EXIT_USAGE
            err.write(f"webgrip: saved a {len(png)}-byte PNG to {args.screenshot}\n")
            return EXIT_OK
        mode = args.render
        if mode == "always":
            from .render import PROXY_REFUSED, render_available

            # The only refusal decided before any request that the static page answers as
            # well: --render is a preference here, not a demand for a browser, so the page
            # is printed (and the exit status is the static fetch's) with a note saying so.
            # A missing browser still fails: installing one is the fix.
            why = render_available(client.config, proxied=client._proxied)
            if why == PROXY_REFUSED:
                err.write(f"webgrip: not rendered: {why}; the static page follows\n")
                mode = "never"
        return client.fetch(
            args.url,
            extract=extract,
            main_content=args.main_content,
            render=mode,
            headers=_call_headers(args),
            max_age=args.max_age,
        )


def _cmd_search(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    overrides = {"search_provider": args.provider} if args.provider else {}
    with WebClient(_load_config(args, **overrides)) as client:
        results = client.search(args.query, num_results=args.num_results)
    if args.json:
        _print_json([r.to_dict() for r in results], out)
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


def _cmd_download(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    config = _load_config(args)
    bar = ProgressBar(err) if _isatty(err) else None

    def download() -> Download:
        with WebClient(config) as client:
            return client.download(
                args.url,
                save_to=args.output_dir,
                filename=args.name,
                overwrite=args.overwrite,
                progress=bar,
                headers=_call_headers(args),
            )

    try:
        result = _interruptible(download, on_interrupt=_remove_partial_downloads)
    finally:
        if bar is not None:
            bar.finish()
    if result.renamed:
        # The path printed is not the name asked for: say why, on stderr (stdout stays the
        # path alone, for scripts).
        err.write(
            f"webgrip: saved as {result.filename}: {result.preferred_name} exists "
            "(pass --overwrite to replace it)\n"
        )
    if args.json:
        _print_json(result.to_dict(), out)
    else:
        out.write(f"{result.path}\n")
    return EXIT_OK


def _cmd_extract(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.file == "-":
        body = sys.stdin.buffer.read()
    else:
        try:
            with open(args.file, "rb") as fh:
                body = fh.read()
        except OSError as exc:
            err.write(f"webgrip: cannot read {args.file}: {exc.strerror}\n")
            return EXIT_USAGE
    if not body or body.isspace():  # nothing came: not a page without text
        if args.file == "-":
            err.write(
                "webgrip: stdin was empty, so there is nothing to convert. Pipe an HTML or "
                "PDF document in (e.g. curl -s URL | webgrip extract -) or give a FILE\n"
            )
        else:
            err.write(
                f"webgrip: {args.file} is empty, so there is nothing to convert. "
                "Give an HTML or PDF file\n"
            )
        return EXIT_FAILURE
    base = args.url or ""  # without a base URL, relative links stay relative
    # A local document dressed as a response, so it goes through exactly the conversion a
    # fetched page does (no network involved).
    media = "application/pdf" if is_pdf(body) else "text/html"
    response = Response._from_raw(
        {
            "url": base,
            "status": 200,
            "headers": [("content-type", media)],
            "content": body,
            "content_type": media,
            "charset": None,
            "redirects": [],
            "remote_addr": "",
            "elapsed": 0.0,
        }
    )
    name = "stdin" if args.file == "-" else args.file
    if args.password is not None and media != "application/pdf":
        err.write(
            f"webgrip: --password opens an encrypted PDF; {name} is not a PDF. "
            "Leave --password out\n"
        )
        return EXIT_USAGE
    try:
        if args.password is not None and args.mode in ("markdown", "text"):
            page = _encrypted_pdf_page(body, base, args.mode, args.password)
        else:
            page = build_page(response, url=base, extract=args.mode, main_content=args.main_content)
    except UnsupportedContentError as exc:
        # The core names the response's URL, which a local file does not have: name the file.
        what = _describe_document(exc.content_type)
        if exc.reason == "not-html":
            err.write(
                f"webgrip: --mode {args.mode} needs an HTML page; {name} is {what}. "
                "Use --mode markdown or --mode text\n"
            )
        elif exc.reason == "binary-content":
            err.write(f"webgrip: {name} is {what}, not a text document. Give an HTML or PDF file\n")
        elif exc.reason == "password-protected" and args.password is None:
            err.write(
                f"webgrip: {name} is a password-protected PDF. "
                "Give its password with --password PASSWORD\n"
            )
        elif exc.reason == "password-protected":
            err.write(
                f"webgrip: the password given with --password does not open {name}. "
                "Check it and try again\n"
            )
        else:  # e.g. a PDF that cannot be read: the core's own words
            raise
        return EXIT_FAILURE
    if args.json:
        data = page.to_dict()
        # No request was made: no status, and no URL unless --url named one.
        data.update(url=args.url or None, final_url=args.url or None, status=None)
        _print_json(data, out)
    if _is_empty(page.content):
        what = _NOTHING_FOUND[page.extract].replace("--extract", "--mode")
        err.write(f"webgrip: {what.replace('on this page', f'in {name}')}\n")
        return EXIT_FAILURE
    if not args.json:
        out.write(page.content if page.content.endswith("\n") else page.content + "\n")
    return EXIT_OK


def _encrypted_pdf_page(body: bytes, base: str, mode: str, password: str) -> Page:
    """``extract --password``: the page :func:`build_page` makes of a PDF, opened with the
    password (the core reads it; build_page has no password)."""
    from . import _pdfpool

    doc = _pdfpool.extract_pdf(body, mode=mode, password=password, url=base)
    metadata = dict(doc["metadata"])
    return Page(
        url=base,
        final_url=base,
        status=200,
        content_type="application/pdf",
        extract=mode,
        content=doc["content"],
        title=metadata.get("title"),
        metadata=metadata,
    )


def _is_empty(content: str) -> bool:
    return not content.strip()


def _describe_document(media: str | None) -> str:
    from .messages import describe_media_type

    if media and (media.startswith("text/") or "json" in media or "xml" in media):
        return media
    return describe_media_type(media)


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    with WebClient(_load_config(args)) as client:
        try:
            normalised = client.check_url(args.url)
        except (BlockedURLError, InvalidURLError) as exc:
            out.write(f"refused: {exc.reason or 'invalid-url'}: {exc}\n")
            if isinstance(exc, BlockedURLError) and exc.reason in _OPENABLE:
                # The verdict line stays one parseable line; the way to lift it goes to stderr.
                hint = _allow_hint(exc, args.command).lstrip()
                err.write(f"webgrip: {hint[:1].lower()}{hint[1:]}\n")
            return EXIT_BLOCKED
        except WebgripError as exc:  # not a policy verdict: e.g. the name does not resolve
            out.write(f"undecided: {exc.reason or type(exc).__name__}: {exc}\n")
            return EXIT_FAILURE
    out.write(f"allowed: {normalised}\n")
    return EXIT_OK


#: Refused or unread files shown on stderr by ``map`` (the rest are counted).
_SHOWN_SKIPPED = 20


def _cmd_map(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    with WebClient(_load_config(args)) as client:
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


def _cmd_llms_txt(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .sites.mapping import llms_txt_for_site

    with WebClient(_load_config(args)) as client:
        text = llms_txt_for_site(
            client, args.url, limit=args.limit, respect_robots=args.robots is not False
        )
    out.write(text)
    return EXIT_OK


def _cmd_mcp(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .tools.schemas import DEFAULT_TOOLS

    # The default three, and the opt-in tools asked for with --tool.
    names = (*DEFAULT_TOOLS, *(args.tool or ())) if args.tool else None
    if args.http is None:
        config = _load_config(args)
        if _isatty(sys.stdin):  # a person ran it by hand: say why nothing happens
            err.write(
                "webgrip mcp: waiting for an MCP client on stdin (an MCP client starts this "
                "command itself; see docs/integrations.md). Press Ctrl-C to stop\n"
            )
            err.flush()
        serve(config, tool_names=names)
        return EXIT_OK
    from .tools.mcp_http import parse_address

    try:
        host, port = parse_address(args.http)
    except ValueError as exc:
        err.write(
            f"webgrip: invalid value for --http: {exc}. Give HOST:PORT, e.g. "
            "--http 127.0.0.1:8765\n"
        )
        return EXIT_USAGE
    config = _load_config(args)
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
            "addresses, e.g. --http 127.0.0.1:8765"
        )
    if exc.errno == errno.EACCES:
        return (
            f"not allowed to listen on port {port} (ports below 1024 need privileges). "
            "Pick a port from 1024 up with --http HOST:PORT"
        )
    return f"{exc.strerror or exc}. Pick another address with --http HOST:PORT"


@contextlib.contextmanager
def _stdout_to_stderr(active: bool) -> Iterator[None]:
    """While a Ray run lasts, file descriptor 1 (and ``sys.stdout``) point at stderr: Ray's
    driver and core print there on their own (about 49 lines after a node was lost), and
    stdout is promised to hold only the JSON summary, written after this."""
    if not active:
        yield
        return
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no stdout at all: nothing to keep clean
        yield
        return
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _input_file_error(path: str, what: str) -> str | None:
    """Why ``path`` cannot be read as ``what``, checked before anything is created."""
    if not os.path.exists(path):
        return f"cannot read {what} {path}: there is no such file. Check the path"
    if os.path.isdir(path):
        return f"cannot read {what} {path}: it is a folder. Give a text file, one URL a line"
    if not os.access(path, os.R_OK):
        return f"cannot read {what} {path}: permission denied. Check the file's permissions"
    return None


def _out_folder_error(path: str) -> str | None:
    """Why ``--out`` cannot be the output folder (it is created when missing)."""
    if os.path.exists(path) and not os.path.isdir(path):
        return (
            f"--out {path} is a file, not a folder. Give a folder to write into (it is "
            "created if missing)"
        )
    return None


def _os_error_line(exc: OSError) -> str:
    """An ``OSError`` said without its ``[Errno N]``: what failed, on which path."""
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot use{where}: {exc.strerror or exc}. Check the path and its permissions"


def _cmd_batch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    problem = _input_file_error(args.urls, "the URL list") or _out_folder_error(args.out)
    if problem:
        err.write(f"webgrip: {problem}\n")
        return EXIT_USAGE
    try:
        from .bulk.batch_run import StoreUnavailableError, run_batch
    except ModuleNotFoundError as exc:
        err.write(f"webgrip: batch needs the ray extra (pip install 'webgrip[ray]'): {exc}\n")
        return EXIT_USAGE
    try:
        with _stdout_to_stderr(args.ray is not None):
            summary = run_batch(
                args.urls,
                args.out,
                config=_load_config(args),
                extract=args.extract,
                ray_address=args.ray,
                redis_url=args.redis,
                concurrency=args.concurrency,
                err=err,
                format=args.format,
                ray_logs=bool(getattr(args, "verbose", False)),
            )
    except OSError as exc:  # the list unreadable, the folder not writable
        err.write(f"webgrip: {_os_error_line(exc)}\n")
        return EXIT_USAGE
    except StoreUnavailableError as exc:  # names the store and what to do itself
        err.write(f"webgrip: {exc}\n")
        return EXIT_FAILURE
    _print_json(summary, out)
    if summary.get("interrupted"):  # Ctrl-C: what finished is written; a rerun goes on
        return 130
    # URLs left for the next run (the politeness store stopped answering): not done yet, so a
    # script running the command can tell and run it again.
    return EXIT_FAILURE if summary.get("left") else EXIT_OK


def _cmd_crawl(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .sites.crawl_run import run_crawl

    problem = _out_folder_error(args.out)
    if problem:
        err.write(f"webgrip: {problem}\n")
        return EXIT_USAGE

    try:
        with _stdout_to_stderr(args.ray is not None):
            summary = _run_crawl(args, err, run_crawl)
    except ModuleNotFoundError as exc:
        err.write(
            f"webgrip: --format parquet, --redis and --ray need the ray extra "
            f"(pip install 'webgrip[ray]'): {exc}\n"
        )
        return EXIT_USAGE
    except OSError as exc:  # the folder not writable
        err.write(f"webgrip: {_os_error_line(exc)}\n")
        return EXIT_USAGE
    _print_json(summary, out)
    return 130 if summary.get("interrupted") else EXIT_OK


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
        config=_load_config(args),
        err=err,
    )
    return summary


_COMMANDS = {
    "fetch": _cmd_fetch,
    "search": _cmd_search,
    "download": _cmd_download,
    "extract": _cmd_extract,
    "check": _cmd_check,
    "mcp": _cmd_mcp,
    "batch": _cmd_batch,
    "map": _cmd_map,
    "llms-txt": _cmd_llms_txt,
    "crawl": _cmd_crawl,
}


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _parser()
    given = list(sys.argv[1:] if argv is None else argv)
    if not given:  # a bare `webgrip`: what it can do, not only that a command is missing
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        args, unknown = parser.parse_known_args(given)
        if unknown:  # said with the command's usage, not the top-level one
            args._commands[args.command].error(
                f"unrecognized arguments: {' '.join(unknown)} (webgrip {args.command} "
                "--help lists the options it takes)"
            )
        _check_combinations(args)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help
        return int(exc.code or 0)
    out, err = sys.stdout, sys.stderr
    if args.verbose:
        import logging

        logging.basicConfig(level=logging.INFO, stream=err, format="webgrip: %(message)s")
    try:
        return _COMMANDS[args.command](args, out, err)
    except WebgripError as exc:
        line = _error_line(exc, args)
        if getattr(args, "json", False):
            with contextlib.suppress(BrokenPipeError):  # `... --json | head`
                _print_json(_error_json(exc, args, line), out)
        err.write(f"webgrip: {line}\n")
        return _exit_code(exc)
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


if __name__ == "__main__":
    sys.exit(main())
