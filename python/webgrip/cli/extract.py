"""``webgrip extract``: a local HTML or PDF document (a file or stdin) converted as a fetched
page would be, with no network access."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from ..errors import UnsupportedContentError
from .common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, NOTHING_FOUND, Command, is_empty, print_json
from .flags import EXTRACT_MODES, add_main_content

if TYPE_CHECKING:
    from ..page import Page


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="HTML or PDF file, or - to read stdin")
    parser.add_argument(
        "--mode",
        choices=EXTRACT_MODES,
        default="markdown",
        help="view to print (default: markdown)",
    )
    add_main_content(parser)
    parser.add_argument("--url", metavar="BASE", help="the page's URL, to resolve relative links")
    parser.add_argument("--json", action="store_true", help="print the page as a JSON object")
    parser.add_argument(
        "--password",
        metavar="PASSWORD",
        help="open an encrypted PDF with this password (visible to other users "
        "of this machine in the process list)",
    )


def _check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """``-v`` asks to log requests, and extract makes none: refused rather than ignored."""
    if args.verbose:
        parser.error(
            "-v/--verbose: extract makes no request, so there is nothing to log. Leave -v out"
        )


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..page_builder import build_page
    from ..pdf import is_pdf
    from ..response import Response

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
        print_json(data, out)
    if is_empty(page.content):
        what = NOTHING_FOUND[page.extract].replace("--extract", "--mode")
        err.write(f"webgrip: {what.replace('on this page', f'in {name}')}\n")
        return EXIT_FAILURE
    if not args.json:
        out.write(page.content if page.content.endswith("\n") else page.content + "\n")
    return EXIT_OK


def _encrypted_pdf_page(body: bytes, base: str, mode: str, password: str) -> Page:
    """``extract --password``: the page :func:`build_page` makes of a PDF, opened with the
    password (the core reads it; build_page has no password)."""
    from .. import _pdfpool
    from ..page import Page

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


def _describe_document(media: str | None) -> str:
    from ..messages import describe_media_type

    if media and (media.startswith("text/") or "json" in media or "xml" in media):
        return media
    return describe_media_type(media)


EXTRACT = Command(
    "extract",
    help="convert a local HTML or PDF file (no network)",
    description="Convert local HTML or PDF (a file, or - for stdin) without "
    "any network access. PDFs are recognised by their %PDF- start (read only in "
    "--mode markdown or text).",
    arguments=_arguments,
    run=run,
    check=_check,
    logs=False,
)
