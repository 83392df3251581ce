"""Upstream proxies: checking ``Config.proxy``/``Config.proxy_for``, reading the
environment's proxy variables when ``Config.trust_env_proxy`` asks for it, and the routes the
core is built with.

The core does the routing and the tunnelling (``rust/net/src/upstream.rs``, ``tunnel.rs``):
webgrip resolves and checks every address itself, then asks the proxy for the checked
address, never for a name. Messages here never quote a proxy URL whole: it may hold a
password (:func:`redact` shows it without).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol
from urllib.parse import unquote_to_bytes, urlsplit

__all__ = [
    "PROXY_SCHEMES",
    "PROXY_VARIABLES",
    "SOCKS5H_REFUSED",
    "check_proxy_url",
    "core_routes",
    "in_use",
    "redact",
    "routes_use_proxy",
]

#: The proxy URL schemes webgrip speaks: HTTP CONNECT (plain or over TLS) and SOCKS5.
PROXY_SCHEMES: tuple[str, ...] = ("http", "https", "socks5")

#: Why ``socks5h://`` is refused (the core says the same).
SOCKS5H_REFUSED = (
    "socks5h:// makes the proxy resolve host names, which would defeat webgrip's pinned, "
    "checked address; use socks5:// (webgrip resolves and checks the name, then gives the "
    "proxy the checked address)"
)

#: The environment variables read with ``trust_env_proxy=True`` (lower-case spelling first,
#: as curl does), by the targets they serve.
_ENV_HTTP = ("http_proxy", "HTTP_PROXY")
_ENV_HTTPS = ("https_proxy", "HTTPS_PROXY")
_ENV_ALL = ("all_proxy", "ALL_PROXY")
_ENV_NO = ("no_proxy", "NO_PROXY")
#: Every variable ``trust_env_proxy`` reads (:func:`core_routes`), in both spellings: what a
#: process must carry to route as this one does (:mod:`webgrip.bulk.ray` ships them to its
#: workers).
PROXY_VARIABLES = (*_ENV_HTTP, *_ENV_HTTPS, *_ENV_ALL, *_ENV_NO)


class ProxySettings(Protocol):
    """What routing reads of a :class:`~webgrip.config.Config`: its three proxy settings.
    Named here rather than importing ``Config``, which imports this module for its checks."""

    @property
    def proxy(self) -> str | None: ...

    @property
    def proxy_for(self) -> Mapping[str, str]: ...

    @property
    def trust_env_proxy(self) -> bool: ...


def redact(url: str) -> str:
    """``url`` with any user name and password replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "***" if "@" in url else url
    # A proxy URL has no path, and a password may hold an unencoded "/", "?" or "#": hide
    # everything before the last "@".
    if "@" in rest:
        rest = "***@" + rest.rpartition("@")[2]
    return f"{scheme}{sep}{rest}"


def check_proxy_url(value: object, key: str) -> None:
    """Raise ``ValueError`` (naming ``key``) unless ``value`` is a usable proxy URL."""

    def bad(why: str) -> ValueError:
        return ValueError(f"invalid value for {key!r}: {why}")

    if not isinstance(value, str) or not value.strip():
        raise bad("expected a proxy URL such as http://proxy.example:3128")
    if any(ch.isspace() for ch in value.strip()):
        raise bad(f"{redact(value)!r} contains whitespace")
    scheme = value.strip().partition("://")[0].lower() if "://" in value else ""
    if scheme == "socks5h":
        raise bad(SOCKS5H_REFUSED)
    if scheme not in PROXY_SCHEMES:
        raise bad(
            f"{redact(value)!r}: the scheme must be one of "
            f"{', '.join(s + '://' for s in PROXY_SCHEMES)}"
        )
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        raise bad(f"{redact(value)!r} is not a valid URL") from None
    if not host:
        raise bad(f"{redact(value)!r} has no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise bad(f"{redact(value)!r}: a proxy URL has no path, query or fragment")
    _check_userinfo(parts.netloc, scheme, bad)


def _check_userinfo(netloc: str, scheme: str, bad: Any) -> None:
    """Refuse what the core's parser refuses (``UpstreamProxy::parse`` in
    ``rust/net/src/upstream.rs``), so a setting fails when the config is made, not when the
    client is built: a user name or password that is not valid percent-encoded UTF-8 (a bare
    ``%``; write it ``%25``), a SOCKS5 one over 255 bytes, and a backslash in an http(s)
    proxy URL (the core reads it as a slash, so the host would not be the one given here).
    Messages name the part, never its value."""
    userinfo, at, _host = netloc.rpartition("@")
    if scheme in ("http", "https") and "\\" in netloc:
        raise bad("the proxy URL holds a backslash (percent-encode it in a password as %5C)")
    if not at:
        return
    user, _, password = userinfo.partition(":")
    for what, text in (("user name", user), ("password", password)):
        if _BAD_ESCAPE.search(text):
            raise bad(f"the {what} is not valid percent-encoded UTF-8 (write a '%' as %25)")
        raw = unquote_to_bytes(text)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise bad(f"the {what} is not valid percent-encoded UTF-8") from None
        if scheme == "socks5" and len(raw) > 255:
            raise bad(f"the {what} is over 255 bytes, the most SOCKS5 carries")


#: A ``%`` not followed by two hex digits.
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _host_like(key: str) -> bool:
    """Only letters (any script), digits, ``-``, ``_``, ``.`` and an IPv6 address's colons."""
    return bool(key) and all(ch.isalnum() or ch in "-._:" for ch in key)


def _is_route_key(domain: str) -> bool:
    """A domain (``*.`` or ``.`` prefix allowed) or an IP address: what a route matches."""
    key = domain.strip().removeprefix("*.").removeprefix(".").strip("[]")
    if not _host_like(key):
        return False
    if ":" in key:  # only an IPv6 address may hold colons (no ports)
        import ipaddress

        try:
            ipaddress.IPv6Address(key)
        except ValueError:
            return False
    return True


def check_proxy_for(value: object) -> None:
    """Raise ``ValueError`` unless ``value`` maps domains to proxy URLs or ``"direct"``."""
    if not isinstance(value, Mapping):
        raise ValueError(
            "invalid value for 'proxy_for': expected a mapping of domain to proxy URL or \"direct\""
        )
    for domain, target in value.items():
        if not isinstance(domain, str) or not _is_route_key(domain):
            raise ValueError(
                f"invalid value for 'proxy_for': {domain!r} is not a domain "
                "(or IP address), without scheme, port or path"
            )
        if isinstance(target, str) and target.strip().lower() == "direct":
            continue
        check_proxy_url(target, f"proxy_for[{domain!r}]")


def _first(environ: Mapping[str, str], names: tuple[str, ...]) -> str | None:
    for name in names:
        value = environ.get(name, "").strip()
        if value:
            return value
    return None


def _env_url(environ: Mapping[str, str], names: tuple[str, ...]) -> str | None:
    """The proxy URL the first set variable of ``names`` holds (``http://`` when it has no
    scheme, the usual convention), checked."""
    value = _first(environ, names)
    if value is None:
        return None
    if "://" not in value:
        value = "http://" + value
    name = next(n for n in names if environ.get(n, "").strip())
    check_proxy_url(value, f"${name}")
    return value


def _no_proxy(environ: Mapping[str, str]) -> tuple[bool, list[str]]:
    """``NO_PROXY``: whether it is ``*`` (no proxy at all), and its domains and addresses.
    Ports are dropped (a route is per host); CIDR ranges are skipped (routes match names)."""
    raw = _first(environ, _ENV_NO) or ""
    entries: list[str] = []
    for item in raw.split(","):
        item = item.strip()
        if not item:
            continue
        if item == "*":
            return True, []
        if "/" in item:
            continue
        if item.startswith("["):  # [v6]:port
            item = item[1:].partition("]")[0]
        elif item.count(":") == 1:  # host:port
            item = item.partition(":")[0]
        item = item.lstrip("*").lstrip(".")
        # Only names and addresses route; anything else (IE's "<local>", an address with a
        # zone id, ...) is skipped, as curl does, rather than failing every client.
        if _host_like(item) and _is_route_key(item):
            entries.append(item)
    return False, entries


def core_routes(config: ProxySettings, environ: Mapping[str, str]) -> dict[str, Any]:
    """The ``http_proxy``, ``https_proxy`` and ``proxy_for`` arguments of ``_core.Client``.

    ``config.proxy`` serves both schemes and, when set, the environment is not read. Else,
    with ``trust_env_proxy``, ``HTTPS_PROXY``/``HTTP_PROXY`` (``ALL_PROXY`` for both) are
    used and ``NO_PROXY`` domains go direct. ``config.proxy_for`` comes before either.
    """
    http = https = config.proxy
    per_domain: dict[str, str] = dict(config.proxy_for)
    if config.proxy is None and config.trust_env_proxy:
        every = _env_url(environ, _ENV_ALL)
        http = _env_url(environ, _ENV_HTTP) or every
        https = _env_url(environ, _ENV_HTTPS) or every
        everything_direct, direct = _no_proxy(environ)
        if everything_direct:
            http = https = None
        for domain in direct:
            per_domain.setdefault(domain, "direct")
    return {"http_proxy": http, "https_proxy": https, "proxy_for": list(per_domain.items())}


def routes_use_proxy(routes: dict[str, Any]) -> bool:
    """Whether any request routed by ``routes`` (from :func:`core_routes`) may go through an
    upstream proxy."""
    return bool(
        routes["http_proxy"]
        or routes["https_proxy"]
        or any(target.strip().lower() != "direct" for _, target in routes["proxy_for"])
    )


def in_use(config: ProxySettings, environ: Mapping[str, str]) -> bool:
    """Whether any request of ``config`` may go through an upstream proxy."""
    return routes_use_proxy(core_routes(config, environ))
