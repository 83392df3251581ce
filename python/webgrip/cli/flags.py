"""The options several commands share, declared once, and the request flags made a
:class:`~webgrip.config.Config`.

``--config``, ``--profile`` and ``-v/--verbose`` go before or after the command. The request
flags override the config file and the ``WEBGRIP_*`` variables (flag > env > profile > file >
default); each value is checked by the Config's own validation, so a bad one is one line
naming the flag, exit 2.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config import Config

#: The views a page can be printed or stored as.
EXTRACT_MODES = ("markdown", "text", "html", "links", "tables")


def add_common(parser: argparse.ArgumentParser, *, defaults: bool, verbose: bool = True) -> None:
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


def add_main_content(parser: argparse.ArgumentParser) -> None:
    """``--main-content``, the same flag on ``fetch`` and ``extract`` (both build a page)."""
    parser.add_argument(
        "--main-content",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep only the main content (default: on for markdown/text)",
    )


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def add_count(
    parser: argparse.ArgumentParser,
    flag: str,
    *,
    help: str,
    default: int | None = None,
    zero: bool = False,
    required: bool = False,
    metavar: str = "N",
) -> None:
    """An option taking a whole number: at least 1 (a limit, a concurrency), or with ``zero``
    at least 0 (an offset, a depth, an age)."""
    parser.add_argument(
        flag,
        type=non_negative_int if zero else positive_int,
        default=default,
        required=required,
        metavar=metavar,
        help=help,
    )


def add_out_folder(parser: argparse.ArgumentParser) -> None:
    """``--out``, the folder ``batch`` and ``crawl`` write their rows into."""
    parser.add_argument("--out", metavar="DIR", required=True, help="output folder")


def add_stored_view(parser: argparse.ArgumentParser, help: str) -> None:
    """``--extract`` of the commands that store rows: the view kept as each row's content."""
    parser.add_argument("--extract", choices=EXTRACT_MODES, default="markdown", help=help)


# -- request flags: --timeout, --header, --user-agent, --proxy, --allow, --[ignore-]robots ------
#: Every request flag (a :class:`~webgrip.cli.common.Command`'s ``requests`` lists those it
#: takes). ``check`` resolves but sends nothing, so only the policy's ``--allow`` applies to
#: it; a search asks no robots.txt; batch and crawl add ``rate_limit``.
ALL_REQUEST_FLAGS = ("timeout", "header", "user_agent", "proxy", "allow", "robots")
#: The commands whose Authorization and Cookie ``--header`` items go with their one call.
CALL_HEADER_COMMANDS = ("fetch", "download")
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


def add_request_flags(
    parser: argparse.ArgumentParser, command: str, which: tuple[str, ...]
) -> None:
    """The flags curl, trafilatura and MCP fetch users look for, as ``command`` takes them
    (``which``). Each overrides the config file and the ``WEBGRIP_*`` variables (flag > env >
    file > default); the values are checked when the config is built (:func:`load_config`), so
    a bad one is one ``webgrip: ...`` line and exit 2."""
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
            if command in CALL_HEADER_COMMANDS
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


def call_headers(args: argparse.Namespace) -> dict[str, str] | None:
    """The credential ``--header`` items of fetch and download, sent with that call only."""
    if args.command not in CALL_HEADER_COMMANDS:
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
    call = call_headers(args) or {}
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
    from .. import _core

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


def load_config(args: argparse.Namespace, **overrides: Any) -> Config:
    """The config file, profile and ``WEBGRIP_*`` variables, with the request flags given over
    them (flag > env > file > default)."""
    settings = _request_settings(args)
    try:
        config = _read_config(args, **overrides, **settings)
    except ValueError as exc:
        raise _flag_error(exc, settings) from None
    return _apply_request_flags(config, args)


def _read_config(args: argparse.Namespace, **overrides: Any) -> Config:
    from ..config import Config

    load = getattr(Config, "load", None)
    if load is not None:
        config: Config = load(args.config, args.profile, **overrides)
        return config
    if args.config or args.profile:
        raise ValueError("this build cannot read config files")
    return Config.from_env(**overrides)
