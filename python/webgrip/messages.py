"""The one-line ``Error: …`` answers of the agent tools, and small formatting helpers.

Each message names the cause and the next step, in one or two sentences, because it goes
straight into a language model's context.
"""

from __future__ import annotations

import re

from . import _core
from .errors import (
    BlockedURLError,
    ChallengeError,
    ConnectError,
    DownloadError,
    FetchTimeoutError,
    HTTPStatusError,
    InvalidURLError,
    ProxyError,
    RenderError,
    ResponseTooLargeError,
    SearchBlockedError,
    SearchError,
    UnsupportedContentError,
    WebgripError,
)

__all__ = [
    "MAX_TITLE_CHARS",
    "MAX_URL_CHARS",
    "describe_media_type",
    "error_message",
    "human_size",
    "short_title",
    "shown_url",
    "unrun_scripts",
]

#: The longest URL quoted in a message (longer ones end with "…"): the core's own cap for its
#: error messages, so a URL is cut alike on both sides. Exceptions keep the full URL in ``.url``.
MAX_URL_CHARS: int = _core.MAX_SHOWN_URL_CHARS
#: The most characters of a page's title the ``Title:`` line shows (a longer one is cut at a
#: word and ends with "…"): a 5 MB ``<title>`` or PDF ``/Title`` must not carry the answer
#: past ``max_length``. Never more than a quarter of the call's ``max_length`` either.
MAX_TITLE_CHARS = 200
# The userinfo runs to the last "@" of the authority, which ends at "/", "?" or "#" and, in
# http(s) and the other special schemes, at a backslash too (WHATWG, as the core parses):
# ``http://host\@other/`` fetches ``host``, and ``@other/`` is path, not userinfo.
_USERINFO = re.compile(
    r"^((?:https?|wss?|ftp|file)://)[^/\\?#]*@"
    r"|^(?!(?:https?|wss?|ftp|file)://)([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@",
    re.IGNORECASE,
)


def shown_url(url: object) -> str:
    """``url`` made safe to quote in a message: one line, bounded length."""
    text = url if isinstance(url, str) else repr(url)
    text = _USERINFO.sub(r"\1\2", " ".join(text.split()))  # never echo a password
    if len(text) > MAX_URL_CHARS:
        text = text[: MAX_URL_CHARS - 1] + "…"
    return text


def _capped(url: str) -> str:
    """``url`` cut like the Rust core cuts the URLs it quotes (no other change)."""
    return url if len(url) <= MAX_URL_CHARS else url[: MAX_URL_CHARS - 1] + "…"


def human_size(size: int | None) -> str:
    """``1234567`` -> ``1.2 MiB`` (binary units, like the configured limits)."""
    if size is None:
        return "unknown size"
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} bytes"  # pragma: no cover


def describe_media_type(media: str | None) -> str:
    """A short human name for a media type ("a PDF document", "an image (image/png)")."""
    if not media:
        return "a binary file"
    if media == "application/pdf":
        return "a PDF document"
    major = media.split("/", 1)[0]
    if major in ("image", "audio", "video"):
        article = "an" if major in ("image", "audio") else "a"
        return f"{article} {major} file ({media})"
    if any(k in media for k in ("zip", "tar", "gzip", "compressed", "rar", "7z")):
        return f"an archive ({media})"
    return f"a binary file ({media})"


def _sentence(text: str) -> str:
    text = " ".join(str(text).split()).rstrip(" .")
    return text + "." if text else ""


def _detail(exc: BaseException) -> str:
    """The message without the core's ``Refused <url>: `` style prefix (we say it ourselves)."""
    msg = " ".join(str(exc).split())
    url = getattr(exc, "url", None)
    if url and isinstance(url, str):
        for quoted in dict.fromkeys((url, _capped(url))):
            for marker in (f"{quoted}: ", f'"{quoted}": ', f"{quoted!r}: "):
                at = msg.find(marker)
                if 0 <= at <= 40:
                    return _cap_long_words(msg[at + len(marker) :])
    return _cap_long_words(msg)


_LONG_WORD = re.compile(rf"\S{{{MAX_URL_CHARS + 1},}}")


def _cap_long_words(text: str) -> str:
    """Defence in depth: any URL (any unbroken run) longer than the cap is cut with "…"."""
    return _LONG_WORD.sub(lambda m: _capped(m.group(0)), text)


def _status_label(status: int | None) -> str:
    if status is None:
        return "HTTP error"
    from http import HTTPStatus  # built on the first error only

    try:
        return f"HTTP {status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"


def _status_hint(status: int | None) -> str:
    if status in (404, 410):
        return "Check the URL or search for the page."
    if status in (401, 403, 451):
        return "The site refuses access; try another source."
    if status == 429:
        return "The site is rate-limiting requests; wait before retrying or use another source."
    if status is not None and status >= 500:
        return "The server failed; try again later or use another source."
    return "Check the URL or try another source."


def _blocked_hint(reason: str | None, detail: str) -> str:
    if reason == "robots-txt":
        return "The site asks automated clients not to fetch this page; use another source."
    if reason and "domain" in reason:
        return "This domain is not allowed by the configuration; use another source."
    if reason and "port" in reason:
        return "That port is not allowed; use the site's standard web address."
    if reason == "scheme":
        if "allow_http" in detail:
            return "Only https:// addresses are allowed; try the https:// version of the URL."
        return "Pass an http:// or https:// address."
    if reason == "userinfo":
        return "Remove the user name and password from the URL."
    if reason in ("redirect-loop", "too-many-redirects", "https-downgrade"):
        return "The site's redirects cannot be followed safely; try another source."
    return "Only public web addresses can be fetched."


def error_message(
    exc: BaseException,
    *,
    url: object = None,
    action: str = "fetching",
    timeout: float = _core.DEFAULT_TIMEOUT,
) -> str:
    """The ``Error: …`` string for ``exc`` raised while ``action`` (e.g. "fetching") ``url``."""
    where = shown_url(url if url is not None else getattr(exc, "url", None) or "")
    msg = _detail(exc)
    if isinstance(exc, BlockedURLError):
        hint = _blocked_hint(exc.reason, msg)
        meant = _with_scheme(where) if exc.reason == "scheme" else None
        if meant is not None:  # "example.com:8080/x" reads as the scheme "example.com:"
            hint = f"A web address starts with its scheme: did you mean {meant}?"
        if exc.reason == "robots-txt":
            return f"Error: {_sentence(msg)} {hint}"
        hop = shown_url(exc.url) if exc.url else where
        return f"Error: Refused {hop} — {_sentence(msg)} {hint}"
    if isinstance(exc, InvalidURLError):
        # After a redirect the bad URL is the Location, which the core puts in ``exc.url``.
        bad = shown_url(exc.url) if exc.url else where
        meant = _with_scheme(bad)
        if meant is not None:
            return (
                f"Error: Invalid URL {bad!r} — {_sentence(msg)} A web address starts with "
                f"its scheme: did you mean {meant}?"
            )
        return (
            f"Error: Invalid URL {bad!r} — {_sentence(msg)} Pass a full web address "
            "such as https://example.com/page."
        )
    if isinstance(exc, FetchTimeoutError):
        if "reading the page" in msg:  # the core's parse deadline (see _core.extract_document)
            return (
                f"Error: Timed out after {timeout:g} s converting {where}: the page is "
                "unusually large or malformed. Try another source."
            )
        if exc.reason == "stalled":  # a download's stall rule (docs/configuration.md)
            return (
                f"Error: {_sentence(msg)} Nothing was saved. The server stopped sending or "
                "the link is slower than download_min_speed: try again later, or allow "
                "slower transfers with a lower download_min_speed or a longer "
                "download_stall_seconds."
            )
        if exc.reason == "download-timeout":
            return (
                f"Error: {_sentence(msg)} Nothing was saved. Raise download_timeout (0: no "
                "limit) or try a faster source."
            )
        return (
            f"Error: Timed out after {timeout:g} s {action} {where}. "
            "Try again later or try another source."
        )
    if isinstance(exc, ChallengeError):
        return _challenge_message(exc, where)
    if isinstance(exc, HTTPStatusError):
        return f"Error: {_status_label(exc.status)} for {where}. {_status_hint(exc.status)}"
    if isinstance(exc, UnsupportedContentError):
        if exc.reason == "password-protected":
            return (
                f"Error: {where} is a password-protected PDF, so its text cannot be read "
                "without its password. If you have the password, save the file with "
                "download_file and open it with `webgrip extract FILE --password PASSWORD` "
                "(in Python: webgrip.pdf.extract_pdf(data, password=...)); otherwise try "
                "another source."
            )
        if exc.reason == "malformed-pdf":
            return (
                f"Error: {where} is a PDF that cannot be read — {_sentence(msg)} Try "
                "another source, or use download_file to save it as it is."
            )
        if exc.reason == "not-html":
            return (
                f'Error: {_sentence(msg)} Use extract="markdown" or extract="text" '
                "for this document."
            )
        size = "" if exc.size is None else f", {human_size(exc.size)}"
        return (
            f"Error: {where} is {describe_media_type(exc.content_type)}{size}, not a web "
            "page. Use download_file to save it."
        )
    if isinstance(exc, ResponseTooLargeError):
        limit = "" if exc.limit is None else f" {human_size(exc.limit)}"
        if action == "downloading":
            return (
                f"Error: {where} is larger than the{limit} download size limit, so nothing "
                "was saved. Use another source or ask for a higher max_download_bytes."
            )
        return (
            f"Error: {where} is larger than the{limit} size limit (max_response_bytes, "
            "WEBGRIP_MAX_RESPONSE_BYTES). If it is a file, use download_file; otherwise "
            "try another source or raise max_response_bytes."
        )
    if isinstance(exc, ConnectError):
        saved = " Nothing was saved." if action == "downloading" else ""
        # The core's message repeats what this line says first ("Could not fetch <url>"):
        # keep only what follows, e.g. "through the proxy P: cannot connect to the proxy".
        cause = msg.removeprefix("Could not fetch ").removeprefix(where).lstrip(": ")
        if cause.startswith("Could not fetch ") or not cause:
            cause = msg
        if isinstance(exc, ProxyError):
            return (
                f"Error: Could not fetch {where} {_sentence(cause)}{saved} Check that the "
                "proxy (proxy, WEBGRIP_PROXY) is running and reachable, or try again later."
            )
        return (
            f"Error: Could not fetch {where} — {_sentence(cause)}{saved} Check the address "
            "or try again later."
        )
    if isinstance(exc, RenderError):
        hint = _render_hint(exc.reason)
        return f"Error: Could not render {where} — {_sentence(msg)}" + (f" {hint}" if hint else "")
    if isinstance(exc, DownloadError):
        return f"Error: Could not save {where} — {_sentence(msg)} {_download_hint(exc.reason)}"
    if isinstance(exc, SearchBlockedError):
        # The search layer's message may end with its own "Do not retry..." advice: keep the
        # cause only, so the answer is one cause and one piece of advice.
        cause = msg.split(" Do not retry")[0]
        return f"Error: {_sentence(cause)} {SEARCH_BLOCKED_ADVICE}"
    if isinstance(exc, SearchError):
        hint = _search_hint(exc.reason, msg)
        return f"Error: Search failed — {_sentence(msg)}" + (f" {hint}" if hint else "")
    if isinstance(exc, WebgripError):
        return f"Error: {_sentence(msg)} Try again or use another source."
    if isinstance(exc, (ValueError, TypeError)):
        return f"Error: {_sentence(msg)} Fix the argument and call again."
    if isinstance(exc, OSError):
        return f"Error: {_sentence(exc.strerror or msg)} Check the folder and try again."
    return (
        f"Error: Unexpected failure ({type(exc).__name__}: {_sentence(msg)}) "
        "Try again or use another source."
    )


#: The advice ending every blocked-search answer.
SEARCH_BLOCKED_ADVICE = (
    "Do not search again for a few minutes (such blocks are per address and temporary); "
    "fetch a known URL instead, or configure another search provider (search_fallbacks)."
)


_WALLS = {
    "challenge": "a bot check",
    "captcha": "a CAPTCHA",
    "blocked": "a firewall block page",
}


def _challenge_message(exc: ChallengeError, where: str) -> str:
    """A bot check, login wall or consent page instead of the page (see webgrip.challenge)."""
    site = _site(exc.url) or where
    status = f"HTTP {exc.status}" if exc.status is not None else "HTTP"
    if exc.kind == "login":
        return (
            f"Error: {site} asks to sign in (a login wall, {status}) instead of showing "
            f"{where}. webgrip does not log in to sites; try another source."
        )
    if exc.kind == "consent":
        return (
            f"Error: {site} served a cookie-consent page ({status}) instead of {where}. "
            "Try another source for this information."
        )
    what = _WALLS.get(exc.kind, "a bot check")
    by = f"{exc.vendor}, " if exc.vendor else ""
    if exc.rendered:
        hint = "The headless browser was stopped too; try another source for this information."
    else:
        hint = (
            "Try another source for this information; the page may open when rendering "
            "in a browser is available (webgrip[render])."
        )
    return f"Error: {site} served {what} ({by}{status}) instead of {where}. {hint}"


def _site(url: object) -> str | None:
    if not isinstance(url, str):
        return None
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _with_scheme(url: str) -> str | None:
    """``https://example.com/a`` for ``example.com/a`` (a host name without its scheme), else
    ``None`` (not a bare host: a relative path, words, another scheme)."""
    if not url or "://" in url or any(ch.isspace() for ch in url) or url.endswith("…"):
        return None
    host = url.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    if name.startswith("//"):
        return None
    labels = name.split(".")
    dotted = len(labels) > 1 and all(labels)
    looks_like_host = (
        (dotted and labels[-1].isalpha())
        or (len(labels) == 4 and all(label.isdigit() for label in labels))
        or name == "localhost"
    )
    if not looks_like_host or not all(c.isalnum() or c in ".-" for c in name):
        return None
    return ("http://" if name == "localhost" else "https://") + url


def _search_hint(reason: str | None, detail: str) -> str:
    """The next step for a failed search: what fits its cause (a setting, the query, the
    network), "try again later" only where waiting can help."""
    if reason == "not-configured":  # a key or setting missing: waiting will not help
        return "Set what the message names, or choose another search provider."
    if reason == "empty-query":
        return "Say what to search for."
    if reason in ("invalid-argument", "query-too-long"):
        return "Fix the argument and search again."
    if "refused by the URL policy" in detail:  # the message names the settings to check
        return ""
    if reason in ("http-401", "http-403"):
        return "Check the provider's API key and account, or choose another search provider."
    if reason == "all-failed":
        return (
            "Check the network connection and the search settings (search_provider, "
            "search_fallbacks, API keys), or try again later."
        )
    if reason in ("timeout", "engines-unresponsive") or (reason or "").startswith("http-5"):
        return "Try again later or choose another search provider."
    if reason in ("bad-response", "unrecognized-page", "too-large"):
        return "The provider's answer could not be read; choose another search provider."
    # What is left is the connection: DNS, refused, reset, TLS, proxy.
    return (
        "Check the network connection and the endpoint (search_endpoints), or choose "
        "another search provider."
    )


def _render_hint(reason: str | None) -> str:
    """The next step when a page could not be rendered in the browser."""
    if reason == "no-browser":  # the message says what to install or set: nothing to add
        return ""
    if reason == "proxy":
        return "Fetch the page without rendering, or configure no upstream proxy."
    return "Try again, or fetch the page without rendering."


def _download_hint(reason: str | None) -> str:
    if reason == "outside-download-dirs":
        return "Save inside an allowed download folder (or omit save_to)."
    if reason in ("symlink", "not-a-directory", "not-a-file"):
        return "Choose another folder or file name."
    return "Check the folder and try again."


def unrun_scripts(shell: str, why: str | None, render_setting: str) -> str:
    """Why a page its scripts build shows no text, as a clause: ``shell`` is the core's
    shell reason (:attr:`Page.script_shell <webgrip.page.Page.script_shell>`), ``why`` what
    :func:`webgrip.render.render_available` said, ``render_setting`` the config's ``render``."""
    if render_setting == "never":
        return f'the page is built by its scripts ({shell}) and rendering is off (render = "never")'
    if why is None:
        return f"the page is built by its scripts ({shell}) and the browser failed to render it"
    return f"the page is built by its scripts ({shell}), which cannot run here: {why}"


def short_title(title: str, limit: int = MAX_TITLE_CHARS) -> str:
    """``title`` on one line, at most ``limit`` characters: cut at a word where one falls in
    the second half, ending with "…". Only a bounded prefix is looked at (linear, whatever the
    title's size)."""
    limit = max(1, limit)
    looked = limit * 4 + 64  # room for runs of whitespace that collapse to one space
    text = " ".join(title[:looked].split())
    more = len(title) > looked and not title[looked:].isspace()
    if len(text) <= limit and not more:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"
