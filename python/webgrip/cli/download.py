"""``webgrip download``: a file saved into an allowed folder, with a progress bar on a
terminal; Ctrl-C removes the partial file."""

from __future__ import annotations

import argparse
import contextlib
import os
from typing import TYPE_CHECKING, TextIO

from .common import EXIT_OK, Command, interruptible, isatty, print_json
from .flags import ALL_REQUEST_FLAGS, call_headers, load_config

if TYPE_CHECKING:
    from ..page import Download


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL")
    parser.add_argument(
        "-o",
        "--output-dir",
        metavar="DIR",
        help="folder to save into (must be inside WEBGRIP_DOWNLOAD_DIRS)",
    )
    parser.add_argument("--name", metavar="FILENAME", help="file name to save as")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing file")
    parser.add_argument("--json", action="store_true", help="print the result as a JSON object")
    pace = parser.add_argument_group(
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


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .._progress import ProgressBar
    from ..client import WebClient

    config = load_config(args)
    bar = ProgressBar(err) if isatty(err) else None

    def download() -> Download:
        with WebClient(config) as client:
            return client.download(
                args.url,
                save_to=args.output_dir,
                filename=args.name,
                overwrite=args.overwrite,
                progress=bar,
                headers=call_headers(args),
            )

    try:
        result = interruptible(download, on_interrupt=_remove_partial_downloads)
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
        print_json(result.to_dict(), out)
    else:
        out.write(f"{result.path}\n")
    return EXIT_OK


def _remove_partial_downloads() -> None:
    """Remove the temp files of the downloads this process has open (Linux ``/proc``). The
    core removes its temp file when a download fails, but an interrupted download may still
    be blocked on the network when the process exits, and its ``.webgrip-*.part`` would stay
    until a later download into that folder swept it."""
    from ..downloads import TEMP_NAME

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


DOWNLOAD = Command(
    "download",
    help="download a file",
    description="Download URL into an allowed folder. A progress bar is "
    "shown on stderr when it is a terminal.",
    arguments=_arguments,
    run=run,
    requests=ALL_REQUEST_FLAGS,
)
