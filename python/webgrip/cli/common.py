"""What every command shares: the :class:`Command` declaration, exit statuses, output (JSON,
the empty-view wording), errors said the command line's way, and Ctrl-C handling."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TextIO, TypeVar

from .._cancel import run_interruptibly
from ..errors import (
    BlockedURLError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidURLError,
    WebgripError,
)
from .flags import load_config


class Command(NamedTuple):
    """One subcommand, declared beside its handler: the parser :mod:`webgrip.cli` makes for it
    (``name``, ``help`` in ``webgrip --help``, ``description`` atop ``webgrip NAME --help``,
    ``arguments`` adding its own options), the request flags it takes
    (:data:`~webgrip.cli.flags.ALL_REQUEST_FLAGS` or some of them, added last under "request
    options"), the function running it, and ``check``, which refuses option combinations
    argparse cannot express (with the command's usage, exit 2) before any configuration is
    read or request made. ``logs`` is False for a command that makes no request (no
    ``-v``)."""

    name: str
    help: str
    description: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO, TextIO], int]
    requests: tuple[str, ...] = ()
    check: Callable[[argparse.Namespace, argparse.ArgumentParser], None] | None = None
    logs: bool = True


EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_BLOCKED = 0, 1, 2, 3
# Destination refusals by the download policy are "blocked", like URL refusals.
_POLICY_REASONS = frozenset({"outside-download-dirs", "symlink"})
# What an empty view means, said on stderr (the agent tools' wording, with the CLI's options).
NOTHING_FOUND = {
    "markdown": "no readable text was found on this page. Try --extract html or --extract links",
    "text": "no readable text was found on this page. Try --extract html or --extract links",
    "html": "the page is empty",
    "links": "no links were found on this page",
    "tables": "no tables were found on this page",
}


def exit_code(exc: WebgripError) -> int:
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
OPENABLE = frozenset({"loopback-address", "private-address"})


def _refused_range(message: str) -> str:
    """The network the core names in a refusal ("... is a loopback address (127.0.0.0/8)"),
    else a placeholder."""
    for word in message.replace("(", " ").replace(")", " ").split():
        if "/" in word and word.split("/", 1)[1].isdigit() and ("." in word or ":" in word):
            return word
    return "NETWORK/PREFIX"


def allow_hint(exc: BlockedURLError, requests: tuple[str, ...]) -> str:
    """How to open the address range a refusal names, with the command's own flag where it
    takes ``--allow`` (``requests``; a leading space: it follows a sentence)."""
    net = _refused_range(str(exc))
    if "allow" in requests:
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


def error_line(exc: WebgripError, args: argparse.Namespace, requests: tuple[str, ...]) -> str:
    """What happened and what to do, as the agent tools say it (no class names), with the
    command line's own next step where it has one: opening an address range on purpose,
    raising the timeout (``requests``: the request flags the command takes)."""
    from ..config import Config
    from ..messages import error_message

    try:
        timeout = load_config(args).timeout
    except (ValueError, OSError):
        timeout = Config().timeout
    action = {"download": "downloading", "search": "searching"}.get(args.command, "fetching")
    # The URL given, for errors raised before any request names one (a refused -o folder).
    url = getattr(exc, "url", None) or getattr(args, "url", None)
    line = error_message(exc, url=url, action=action, timeout=timeout).removeprefix("Error: ")
    for agent, cli in _CLI_TERMS:
        line = line.replace(agent, cli)
    if isinstance(exc, BlockedURLError) and exc.reason in OPENABLE:
        line += allow_hint(exc, requests)
    elif isinstance(exc, FetchTimeoutError) and exc.reason not in _DOWNLOAD_LIMITS:
        longer = f"{max(60, 2 * timeout):g}"
        if "timeout" in requests:
            line += (
                f" To wait longer, raise the limit: --timeout {longer} "
                f"(or WEBGRIP_TIMEOUT={longer})."
            )
        else:
            line += f" To wait longer, raise the limit: WEBGRIP_TIMEOUT={longer}."
    return line


def error_json(exc: WebgripError, args: argparse.Namespace, line: str) -> dict[str, Any]:
    """What ``--json`` prints on stdout when the command failed: the URL, the error's kind
    (a batch row's ``error_kind``: ``timeout``, ``http-404``, ``private-address``...), the
    message and the HTTP status when there was one."""
    return {
        "url": getattr(exc, "url", None) or getattr(args, "url", None),
        "error_kind": exc.reason or type(exc).__name__,
        "error": line,
        "status": exc.status if isinstance(exc, HTTPStatusError) else None,
    }


def print_json(obj: Any, out: TextIO) -> None:
    json.dump(obj, out, ensure_ascii=False, indent=2)
    out.write("\n")


def is_empty(content: str) -> bool:
    return not content.strip()


def isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# -- Ctrl-C -------------------------------------------------------------------------------
_T = TypeVar("_T")


def interruptible(work: Callable[[], _T], on_interrupt: Callable[[], None] | None = None) -> _T:
    """``work()`` stopped at once by Ctrl-C: it runs on a thread under a cancel token while
    this one waits (:func:`webgrip._cancel.run_interruptibly`), so a server that accepts and
    never answers cannot hold the command until the deadline. On Ctrl-C the token is
    cancelled, ``on_interrupt`` cleans up, and ``KeyboardInterrupt`` goes on to
    :func:`~webgrip.cli.main` (exit 130); from then on a second Ctrl-C ends the process at
    once, whatever is left."""
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


@contextlib.contextmanager
def stdout_to_stderr(active: bool) -> Iterator[None]:
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


def out_folder_error(path: str) -> str | None:
    """Why ``--out`` cannot be the output folder (it is created when missing)."""
    if os.path.exists(path) and not os.path.isdir(path):
        return (
            f"--out {path} is a file, not a folder. Give a folder to write into (it is "
            "created if missing)"
        )
    return None


def os_error_line(exc: OSError) -> str:
    """An ``OSError`` said without its ``[Errno N]``: what failed, on which path."""
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot use{where}: {exc.strerror or exc}. Check the path and its permissions"


def run_into_folder(
    args: argparse.Namespace, out: TextIO, err: TextIO, job: Callable[[], Any]
) -> int:
    """Run ``job``, a batch or crawl writing its rows into ``--out``, and print the summary it
    returns: on stdout, which Ray's own printing is kept off (``--ray``). A folder or list that
    cannot be read or written is a usage error; Ctrl-C (``interrupted``) exits 130, URLs left
    for the next run (``left``) exit 1, as a script running the command can tell."""
    try:
        with stdout_to_stderr(args.ray is not None):
            summary: dict[str, Any] = job()
    except OSError as exc:
        err.write(f"webgrip: {os_error_line(exc)}\n")
        return EXIT_USAGE
    print_json(summary, out)
    if summary.get("interrupted"):  # what finished is written; a rerun goes on
        return 130
    return EXIT_FAILURE if summary.get("left") else EXIT_OK
