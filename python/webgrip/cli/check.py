"""``webgrip check``: the security policy's verdict on a URL (the host resolved, nothing
sent): allowed, refused and why, or undecided."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..errors import BlockedURLError, InvalidURLError, WebgripError
from .common import EXIT_BLOCKED, EXIT_FAILURE, EXIT_OK, OPENABLE, Command, allow_hint
from .flags import load_config

#: check resolves but sends nothing, so only the policy's ``--allow`` applies to it.
_REQUESTS = ("allow",)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", metavar="URL")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..client import WebClient

    with WebClient(load_config(args)) as client:
        try:
            normalised = client.check_url(args.url)
        except (BlockedURLError, InvalidURLError) as exc:
            out.write(f"refused: {exc.reason or 'invalid-url'}: {exc}\n")
            if isinstance(exc, BlockedURLError) and exc.reason in OPENABLE:
                # The verdict line stays one parseable line; the way to lift it goes to stderr.
                hint = allow_hint(exc, _REQUESTS).lstrip()
                err.write(f"webgrip: {hint[:1].lower()}{hint[1:]}\n")
            return EXIT_BLOCKED
        except WebgripError as exc:  # not a policy verdict: e.g. the name does not resolve
            out.write(f"undecided: {exc.reason or type(exc).__name__}: {exc}\n")
            return EXIT_FAILURE
    out.write(f"allowed: {normalised}\n")
    return EXIT_OK


CHECK = Command(
    "check",
    help="show the security policy's verdict",
    description="Say whether URL may be fetched under the current policy, "
    "and why not. Resolves the host but never connects. Exit 0 if allowed, "
    "3 if refused by the policy, 1 if no verdict could be reached (e.g. the "
    "name does not resolve: the address rules cannot be applied).",
    arguments=_arguments,
    run=run,
    requests=_REQUESTS,
)
