"""Pages that stand in for the one asked for: bot checks, login walls, consent interstitials.

:func:`detect` looks at every fetched HTML response (static or rendered) before it becomes a
:class:`~webgrip.page.Page`; the client raises :class:`~webgrip.errors.ChallengeError`
when it finds one, so an agent never reasons over "Just a moment..." as if it were content.

- **Headers** the vendors document: Cloudflare's ``cf-mitigated: challenge`` and AWS WAF's
  ``x-amzn-waf-action: challenge|captcha``.
- **The page**, by the Rust core (:func:`webgrip._core.scan_challenge`): only a page with
  little readable text (under ``CHALLENGE_MAX_TEXT_CHARS``) is searched for the vendors'
  markers; the pass stops as soon as a page has more text than that.
- **Login walls**: a tiny page with a password field served as 401/403, or a redirect to a
  sign-in address (``/login``, ``accounts.…``, LinkedIn's ``/authwall``) with a form on it,
  when the address asked for was not one.
- **Consent interstitials**: a redirect to a consent address (``consent.google.com``,
  ``guce.yahoo.com``, ``/zustimmung``) that leaves a tiny page.

The markers and their sources are listed in docs/challenge-pages.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from urllib.parse import urlsplit

from . import _core
from .errors import ChallengeError
from .messages import shown_url
from .response import Response

__all__ = ["KINDS", "Wall", "challenge_error", "detect"]

#: Every ``ChallengeError.kind``.
KINDS = ("challenge", "captcha", "blocked", "login", "consent")

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_UNTYPED = frozenset({"application/octet-stream", "binary/octet-stream", "application/unknown"})
# Statuses with which a page holding a password field is a login wall, and the most text such
# a page has (a forum topic refused with 403 still shows the topic beside its login form).
_LOGIN_STATUSES = frozenset({401, 403})
_LOGIN_MAX_TEXT_CHARS = 1000
# Path segments (lower-cased, extension dropped) that name a sign-in page, besides those
# holding a sign-in word (_has_login_word).
_LOGIN_SEGMENTS = frozenset(
    {
        "auth",
        "authwall",
        "authorize",
        "authenticate",
        "sso",
        "saml",
        "oauth",
        "oauth2",
        "session",
        "sessions",
        "identifier",
        "cas",
    }
)
_LOGIN_WORDS = ("login", "signin", "logon")
_LOGIN_PAIRS = frozenset({("log", "in"), ("sign", "in"), ("log", "on")})
# The words of a path segment: split at punctuation, digits and camel case ("ServiceLogin" is
# "service", "login"; "sign_in" is "sign", "in"; "designing" is one word).
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_LOGIN_HOSTS = frozenset({"login", "signin", "auth", "sso", "accounts", "account", "idp"})
# Path segments (lower-cased, extension dropped) that name a consent gate: one starting with
# "consent" (/consent, /consent-gate), or naming a cookie wall. A segment that merely holds the
# word ("/research/informed-consent") is a page about consent, not a gate.
_CONSENT_SEGMENTS = frozenset(
    {
        "cookiewall",
        "cookie-wall",
        "cookie_wall",
        "cookieconsent",
        "cookie-consent",
        "cookies-consent",
        "gdpr-consent",
        "privacy-consent",
        "zustimmung",
    }
)
_CONSENT_HOSTS = frozenset({"guce"})


@dataclass(frozen=True)
class Wall:
    """What stood in for the page: ``kind`` (one of :data:`KINDS`) and the vendor, if known."""

    kind: str
    vendor: str | None = None


def detect(response: Response, requested: str) -> Wall | None:
    """The wall ``response`` is instead of ``requested`` (the URL asked for), or ``None``.

    Any status: a challenge comes as 403, 429 or 503 as often as 200. Only HTML (or an
    untyped body) is looked at; a page with much to read costs a pass over its first few
    thousand characters of text.
    """
    wall = _from_headers(response)
    if wall is not None:
        return wall
    media = response.content_type
    if media is not None and media not in _HTML_TYPES and media not in _UNTYPED:
        return None
    scan = _core.scan_challenge(response.content, response.status)
    if scan is None:
        return None
    if scan["kind"] is not None:
        return Wall(scan["kind"], scan["vendor"])
    moved = _moved(requested, response.url)
    if scan["text_chars"] <= _LOGIN_MAX_TEXT_CHARS:
        if scan["password_inputs"] and response.status in _LOGIN_STATUSES:
            return Wall("login")
        if moved and scan["forms"] and _is_login(response.url) and not _is_login(requested):
            return Wall("login")
    if moved and _is_consent(response.url) and not _is_consent(requested):
        return Wall("consent")
    return None


def _from_headers(response: Response) -> Wall | None:
    headers = response.headers
    # Cloudflare: "the Challenge Page response (regardless of the Challenge Page type) will
    # have the cf-mitigated header present and set to challenge".
    if headers.get("cf-mitigated", "").strip().lower() == "challenge":
        return Wall("challenge", "Cloudflare")
    # AWS WAF: 202 with "challenge", 405 with "captcha".
    action = headers.get("x-amzn-waf-action", "").strip().lower()
    if action in ("challenge", "captcha"):
        return Wall(action, "AWS WAF")
    return None


def _moved(requested: str, final: str) -> bool:
    """Whether the final URL is another page than the one asked for (not just http->https
    or a trailing slash)."""
    a, b = urlsplit(requested), urlsplit(final)
    return (a.hostname, a.path.rstrip("/")) != (b.hostname, b.path.rstrip("/"))


def _is_login(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").split(".", 1)[0]
    if host in _LOGIN_HOSTS:
        return True
    for segment in parts.path.split("/"):
        stem = segment.rsplit(".", 1)[0]
        if stem.lower() in _LOGIN_SEGMENTS or _has_login_word(stem):
            return True
    return False


def _has_login_word(stem: str) -> bool:
    """Whether a path segment holds a sign-in word as a word of its own (``/login``,
    ``/users/sign_in``, ``/signin-oidc``, ``/LoginForm``) or at its end (``/servicelogin``),
    never inside another word (``/designing-apis``, ``/cataloging``, ``/blog-insights``)."""
    words = [w.lower() for w in _WORDS.findall(stem)]
    return any(w.endswith(_LOGIN_WORDS) for w in words) or any(
        pair in _LOGIN_PAIRS for pair in pairwise(words)
    )


def _is_consent(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").split(".", 1)[0]
    if host.startswith("consent") or host in _CONSENT_HOSTS:
        return True
    for segment in parts.path.lower().split("/"):
        stem = segment.rsplit(".", 1)[0]
        if stem.startswith("consent") or stem in _CONSENT_SEGMENTS:
            return True
    return False


_WHAT = {
    "challenge": "a bot check",
    "captcha": "a CAPTCHA",
    "blocked": "a firewall's block page",
    "login": "a login wall",
    "consent": "a cookie-consent page",
}


def challenge_error(
    wall: Wall, response: Response, *, url: str, rendered: bool = False
) -> ChallengeError:
    """The error for ``wall``, served by ``response`` when ``url`` was asked for."""
    site = urlsplit(response.url).hostname or shown_url(response.url)
    by = f" ({wall.vendor})" if wall.vendor else ""
    where = " in the browser" if rendered else ""
    message = (
        f"{site} served {_WHAT.get(wall.kind, 'a bot check')}{by} instead of the page"
        f"{where} (HTTP {response.status}) for {shown_url(url)}"
    )
    return ChallengeError(
        message,
        url=response.url,
        reason=wall.kind,
        status=response.status,
        response=response,
        kind=wall.kind,
        vendor=wall.vendor,
        rendered=rendered,
    )
