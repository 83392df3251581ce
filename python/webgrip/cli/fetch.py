"""``webgrip fetch``: a page's readable content (Markdown, text, HTML, links or tables), a
slice of it, the passages around a phrase, or a screenshot of the rendered page."""

from __future__ import annotations

import argparse
import os
import time
from typing import TYPE_CHECKING, TextIO

from .common import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    NOTHING_FOUND,
    Command,
    interruptible,
    is_empty,
    print_json,
)
from .flags import (
    ALL_REQUEST_FLAGS,
    EXTRACT_MODES,
    add_count,
    add_main_content,
    call_headers,
    load_config,
)

if TYPE_CHECKING:
    from ..config import Config
    from ..page import Page

#: Characters of passages ``fetch --find`` prints without ``--max-length`` (the tool's default).
_FIND_LENGTH = 5000


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL")
    parser.add_argument(
        "--extract", choices=EXTRACT_MODES, default=None, help="view to print (default: markdown)"
    )
    add_count(parser, "--max-length", help="print at most N characters (default: everything)")
    add_count(
        parser, "--start-index", zero=True, help="start at character N (continue a truncated page)"
    )
    parser.add_argument(
        "--find",
        metavar="PHRASE",
        help="print only the passages around PHRASE (any case), each headed by its "
        "character offset (read on with --start-index); --max-length bounds them "
        f"(default {_FIND_LENGTH}). The paragraphs sharing most of its words when it "
        "does not occur as written",
    )
    add_main_content(parser)
    parser.add_argument(
        "--links",
        choices=("inline", "citations", "none"),
        default="inline",
        help="Markdown links as written (inline, the default), as numbered citations with "
        "the URLs listed after the text (citations), or as their text alone (none)",
    )
    add_count(
        parser,
        "--max-age",
        zero=True,
        metavar="SECONDS",
        help="with a persistent cache (cache_dir): accept a cached copy at most SECONDS old; "
        "0 always asks the server (default: the cache's own rules)",
    )
    parser.add_argument("--json", action="store_true", help="print the page as a JSON object")
    parser.add_argument(
        "--render",
        action="store_const",
        const="always",
        default=None,
        help="run an HTML page's scripts in the guarded headless browser "
        "(webgrip[render]; a PDF, JSON or text reads as without it; with an "
        "upstream proxy the static page is printed; default: the config's "
        "render setting, auto)",
    )
    parser.add_argument(
        "--no-render",
        dest="render",
        action="store_const",
        const="never",
        help="never run the page's scripts",
    )
    parser.add_argument(
        "--screenshot",
        metavar="FILE",
        help="save a PNG of the rendered page to FILE instead of printing it "
        "(an HTML page only: anything else fails and saves nothing; FILE's folder "
        "must exist; not with --no-render or the options that shape the printed "
        "text)",
    )
    parser.add_argument(
        "--full-page",
        action="store_true",
        help="with --screenshot: the whole page, not only the viewport",
    )


def _check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse options that would otherwise be silently ignored (argparse's usage error,
    exit 2)."""
    if args.find is not None:
        from ..tools.find import MAX_FIND_CHARS

        if not args.find.strip():
            parser.error("--find needs a word or phrase to look for. Give one, or leave --find out")
        if len(" ".join(args.find.split())) > MAX_FIND_CHARS:
            parser.error(f"--find takes at most {MAX_FIND_CHARS} characters (a few words)")
    if args.full_page and not args.screenshot:
        parser.error(
            "--full-page only applies to --screenshot. Add --screenshot FILE or leave "
            "--full-page out"
        )
    if not args.screenshot:
        return
    if args.render == "never":
        parser.error("--screenshot needs the browser, which --no-render forbids. Leave one out")
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
        parser.error(
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


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.screenshot:
        problem = _screenshot_target_error(args.screenshot)
        if problem:
            err.write(f"webgrip: {problem}\n")
            return EXIT_USAGE
    extract = args.extract or "markdown"
    start = args.start_index or 0
    config = load_config(args)
    got = interruptible(lambda: _fetch_or_screenshot(args, config, extract, err))
    if isinstance(got, int):  # the screenshot's exit status
        return got
    page = got
    from ..tools.citations import cite_links, cited_in, links_listed

    cited = cite_links(page.content, args.links if page.extract == "markdown" else "inline")
    content = cited.text
    total = len(content)
    if page.from_cache and page.fetched_at is not None:
        age = max(0, int(time.time() - page.fetched_at))
        err.write(f"webgrip: from the cache, fetched {age} s ago (--max-age 0 fetches it again)\n")
    if is_empty(content):
        # Nothing to print: said on stderr, and a failure for scripts (the JSON still shows
        # the empty page).
        if args.json:
            data = page.to_dict()
            data.update(start_index=start, total_length=total, next_start_index=None)
            print_json(data, out)
        err.write(f"webgrip: {_nothing_found(page, config)}\n")
        return EXIT_FAILURE
    if start > total:
        err.write(f"webgrip: --start-index {start} is past the end ({total} chars)\n")
        return EXIT_USAGE
    if args.find is not None:
        return _print_found(page, content, args, start, out, err)
    if args.max_length:
        from ..page_builder import slice_text

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
        print_json(data, out)
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
    from ..tools.find import find_passages

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
        print_json(data, out)
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
        return NOTHING_FOUND[page.extract]
    from ..messages import unrun_scripts
    from ..render import PROXY_REFUSED, render_available

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
    from ..client import WebClient

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
            from ..render import PROXY_REFUSED, render_available

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
            headers=call_headers(args),
            max_age=args.max_age,
        )


FETCH = Command(
    "fetch",
    help="fetch a page as Markdown, text, ...",
    description="Fetch URL and print its readable content.",
    arguments=_arguments,
    run=run,
    requests=ALL_REQUEST_FLAGS,
    check=_check,
)
