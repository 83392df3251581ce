"""``webgrip batch``: a list of URLs fetched into a folder of rows (Parquet, JSON lines or
Markdown), here or on Ray; resumable, and Ctrl-C writes the rows finished."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

from .common import EXIT_FAILURE, EXIT_USAGE, Command, out_folder_error, run_into_folder
from .flags import ALL_REQUEST_FLAGS, add_count, add_out_folder, add_stored_view, load_config


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("urls", metavar="URLS", help="text file of URLs, one a line")
    add_out_folder(parser)
    parser.add_argument(
        "--format",
        choices=("parquet", "jsonl", "markdown"),
        default="parquet",
        help="parquet files (default), one rows.jsonl, or a .md file per page "
        "with an index.jsonl (jsonl and markdown: not with --ray)",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on this Ray cluster: auto (the one this node belongs to), "
        "HEAD:6379, or local (a Ray started here)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="share the per-host rate limit through this Redis (redis://...)",
    )
    add_stored_view(parser, "view to store as content (default: markdown)")
    add_count(parser, "--concurrency", help="threads here (default 8), or Ray actors with --ray")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    problem = _input_file_error(args.urls, "the URL list") or out_folder_error(args.out)
    if problem:
        err.write(f"webgrip: {problem}\n")
        return EXIT_USAGE
    try:
        from ..bulk.batch_run import StoreUnavailableError, run_batch
    except ModuleNotFoundError as exc:
        err.write(f"webgrip: batch needs the ray extra (pip install 'webgrip[ray]'): {exc}\n")
        return EXIT_USAGE
    try:
        # URLs left for the next run (the politeness store stopped answering) exit 1: not done
        # yet, so a script running the command can tell and run it again.
        return run_into_folder(
            args,
            out,
            err,
            lambda: run_batch(
                args.urls,
                args.out,
                config=load_config(args),
                extract=args.extract,
                ray_address=args.ray,
                redis_url=args.redis,
                concurrency=args.concurrency,
                err=err,
                format=args.format,
                ray_logs=bool(getattr(args, "verbose", False)),
            ),
        )
    except StoreUnavailableError as exc:  # names the store and what to do itself
        err.write(f"webgrip: {exc}\n")
        return EXIT_FAILURE


def _input_file_error(path: str, what: str) -> str | None:
    """Why ``path`` cannot be read as ``what``, checked before anything is created."""
    if not os.path.exists(path):
        return f"cannot read {what} {path}: there is no such file. Check the path"
    if os.path.isdir(path):
        return f"cannot read {what} {path}: it is a folder. Give a text file, one URL a line"
    if not os.access(path, os.R_OK):
        return f"cannot read {what} {path}: permission denied. Check the file's permissions"
    return None


BATCH = Command(
    "batch",
    help="fetch a list of URLs into a folder (resumable)",
    description="Fetch every URL of URLS (one a line) into DIR: one row per "
    "URL with its content and metadata, failures as rows with an error. "
    "URLs already in DIR are skipped, so running the same command again "
    "finishes an interrupted run. Progress goes to stderr, the summary to "
    "stdout. Ctrl-C writes the rows finished and exits 130. Needs the 'ray' "
    "extra (pyarrow; Ray for --ray, redis for --redis). See docs/batch.md.",
    arguments=_arguments,
    run=run,
    requests=(*ALL_REQUEST_FLAGS, "rate_limit"),
)
