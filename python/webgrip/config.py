"""Configuration: one frozen dataclass, read from arguments, the environment or a TOML file.

Defaults are safe: every non-public address is refused, no proxy is used unless configured
(environment proxies only with ``trust_env_proxy``), each call has a total deadline and a
size cap. Open a range on purpose with ``allow_networks`` (for example
an intranet, or loopback in tests) instead of weakening anything else.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _core
from ._version import __version__ as _version
from .proxies import check_proxy_for, check_proxy_url

__all__ = ["DEFAULT_BLOCKED_PORTS", "RENDER_MODES", "SEARCH_ENDPOINT_NAMES", "Config"]

#: The keys ``Config.search_endpoints`` accepts: one per endpoint a provider calls.
#: ``Config.render`` and ``WebClient.fetch(render=...)``: when a page runs in the guarded browser.
RENDER_MODES: tuple[str, ...] = ("never", "auto", "always")
#: The trust stores ``Config.tls_trust`` chooses among.
TLS_TRUST: tuple[str, ...] = ("webpki", "system")
#: Ports of services that must never be reachable from an agent's fetch, even on a public host:
#: the core's own list (``rust/net/src/policy.rs``), not a copy of it.
DEFAULT_BLOCKED_PORTS: tuple[int, ...] = _core.DEFAULT_BLOCKED_PORTS

SEARCH_ENDPOINT_NAMES: tuple[str, ...] = (
    "duckduckgo_html",
    "duckduckgo_lite",
    "searxng",
    "brave",
    "tavily",
    "google",
)

_ENV_PREFIX = "WEBGRIP_"


def with_default_ports(ports: tuple[int, ...]) -> tuple[int, ...]:
    """:data:`DEFAULT_BLOCKED_PORTS` followed by the ``ports`` not already in it: the
    ``+8080`` form of ``blocked_ports``, in the environment and in ``webgrip.toml``."""
    return DEFAULT_BLOCKED_PORTS + tuple(
        dict.fromkeys(p for p in ports if p not in DEFAULT_BLOCKED_PORTS)
    )


def _default_download_dirs() -> tuple[str, ...]:
    return ("~/Downloads",)


@dataclass(frozen=True, slots=True)
class Config:
    """Every knob webgrip has. Build with keywords, :meth:`from_env` or :meth:`load`."""

    # --- address and URL policy -------------------------------------------------------
    allow_networks: tuple[str, ...] = ()
    """CIDRs opened on purpose despite the default deny (e.g. ``10.1.0.0/16``, ``127.0.0.0/8``)."""
    deny_networks: tuple[str, ...] = ()
    """Extra CIDRs to refuse, on top of every non-global range."""
    allowed_domains: tuple[str, ...] = ()
    """If set, only these domains (and their subdomains) may be fetched."""
    blocked_domains: tuple[str, ...] = ()
    """Domains (and their subdomains) never fetched."""
    blocked_ports: tuple[int, ...] = DEFAULT_BLOCKED_PORTS
    """Ports refused on any host. Setting it *replaces* :data:`DEFAULT_BLOCKED_PORTS` (port 0
    is refused regardless). To add ports to the defaults instead, start the value with ``+``
    in ``WEBGRIP_BLOCKED_PORTS`` or the config file: ``WEBGRIP_BLOCKED_PORTS=+8080,9000``,
    ``blocked_ports = "+8080"`` (in Python: ``DEFAULT_BLOCKED_PORTS + (8080,)``)."""
    allow_http: bool = True
    """``False`` gives an https-only mode."""
    allow_https_downgrade: bool = False
    """Follow a redirect from ``https://`` to ``http://``; refused by default (reason
    ``https-downgrade``) because it would expose the rest of the exchange."""
    resolve: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Host -> addresses overrides (like curl's ``--resolve``); still subject to the policy."""

    # --- transport (defaults are the core's: 5 hops, 30 s, 10 s, 10 MiB) ---------------
    max_redirects: int = _core.DEFAULT_MAX_REDIRECTS
    timeout: float = _core.DEFAULT_TIMEOUT
    """Total deadline in seconds for one call, across every redirect hop."""
    connect_timeout: float = _core.DEFAULT_CONNECT_TIMEOUT
    max_response_bytes: int = _core.DEFAULT_MAX_RESPONSE_BYTES
    """Cap on the decoded body of a fetched page."""
    user_agent: str = f"webgrip/{_version} (+https://pypi.org/project/webgrip/)"
    ca_bundle: str | None = None
    """Extra trusted CA certificates (PEM file), added to the roots ``tls_trust`` chooses."""
    tls_trust: str = "webpki"
    """The roots TLS trusts: ``"webpki"`` (Mozilla's, built in: the same everywhere) or
    ``"system"`` (the operating system's store, where a company installs its proxy's CA).
    ``SSL_CERT_FILE``/``SSL_CERT_DIR``, when set, add their certificates to ``"webpki"`` and
    replace the store of ``"system"`` (as OpenSSL reads them). See docs/security.md."""
    rate_limit_seconds: float = 1.0
    """Minimum interval between two requests to the same host; 0 disables."""
    max_retries: int = 2
    """Retries on 429/503 (honouring ``Retry-After``), inside the deadline."""
    respect_robots_txt: bool = False
    proxy: str | None = field(default=None, repr=False)
    """Upstream proxy for every request: ``http://``, ``https://`` or ``socks5://``, with
    optional ``user:password@``. The policy still decides first and the proxy is only asked
    for the checked address (``socks5h://`` is refused). Hidden from ``repr``. See
    docs/security.md, "Proxies"."""
    proxy_for: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Domain -> proxy URL or ``"direct"``, before ``proxy``; a domain matches itself and its
    subdomains, the most specific wins."""
    trust_env_proxy: bool = False
    """Read ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY``/``NO_PROXY`` when ``proxy`` is unset
    (whoever sets the environment then chooses where traffic goes; see docs/security.md)."""

    # --- headers and cookies (docs/headers-and-cookies.md) ----------------------------
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Headers sent on every request (below ``site_headers`` and a call's ``headers=``).
    Credentials (``Authorization``, ``Cookie``) are refused here: they go in
    ``site_headers``, under the domain they are for."""
    site_headers: Mapping[str, Mapping[str, str]] = field(default_factory=dict, repr=False)
    """Domain -> headers sent to that domain and its subdomains only (the most specific
    domain wins), e.g. ``{"api.example.com": {"Authorization": "Bearer ..."}}``. Checked on
    every redirect hop: they never reach another site. Hidden from ``repr``."""
    cookies: bool = True
    """Keep a cookie jar per client (RFC 6265; set on any redirect hop, sent only to the
    hosts a cookie is for)."""
    persist_cookies: bool = False
    """Save the jar's cookies that have an expiry date in the ``cache_dir`` database, so a
    new client with the same ``cache_dir`` starts with them (needs ``cache_dir``)."""

    # --- tools -----------------------------------------------------------------------
    search_provider: str = "duckduckgo"
    search_fallbacks: tuple[str, ...] = ()
    search_endpoints: Mapping[str, str] = field(default_factory=dict)
    """Endpoint URLs replacing a provider's default, keyed by one of
    :data:`SEARCH_ENDPOINT_NAMES` (``duckduckgo_html``, ``duckduckgo_lite``, ``searxng``,
    ``brave``, ``tavily``, ``google``); each must be an http(s) URL (``""`` keeps the
    default)."""
    search_region: str | None = None
    safe_search: str = "moderate"
    brave_api_key: str | None = field(default=None, repr=False)
    tavily_api_key: str | None = field(default=None, repr=False)
    google_api_key: str | None = field(default=None, repr=False)
    google_cx: str | None = None
    searxng_url: str | None = None
    download_dirs: tuple[str, ...] = field(default_factory=_default_download_dirs)
    max_download_bytes: int = 100 * 1024 * 1024
    download_min_speed: int = _core.DEFAULT_DOWNLOAD_MIN_SPEED
    """The stall rule of downloads (curl's ``--speed-limit``): a download fails (reason
    ``stalled``, nothing saved) when fewer than this many bytes per second arrive on average
    over ``download_stall_seconds``. Downloads have no ``timeout`` on their body: only this
    rule and ``download_timeout`` end one that keeps flowing."""
    download_stall_seconds: float = _core.DEFAULT_DOWNLOAD_STALL_SECONDS
    """The window of the stall rule (curl's ``--speed-time``), at most 1800 s."""
    download_timeout: float = _core.DEFAULT_DOWNLOAD_TIMEOUT
    """Longest a download's transfer may take, from sending the request, in seconds (default
    an hour); ``0``: no limit but the stall rule, as curl and wget. Its response head still
    comes within ``timeout``."""
    tracking_params: tuple[str, ...] = ()
    """Extra query parameters to strip, on top of the built-in list (``*`` suffix = prefix)."""
    readable_model: bool = True
    """Readable mode's learned block scorer: after the rules choose a page's main content, it
    takes out the blocks it judges boilerplate (docs/benchmarks.md, "A learned block
    scorer"). ``False`` keeps the rules' selection as it is."""
    page_cache_size: int = 32
    """Converted documents kept in memory for paging with ``start_index``."""
    page_cache_bytes: int = 64 * 1024 * 1024
    """Memory budget of those documents (strings at their real width; 0 disables the cache).
    The least recently used are dropped beyond it, and a document larger than the whole
    budget is not kept."""
    cache_dir: str | None = None
    cache_ttl_seconds: float = 3600.0
    max_frames: int = 8
    """Same-site ``<iframe>``/``<frame>`` documents a fetched page may inline (one level deep,
    within the call's deadline; see docs/tools.md "Frames"); 0 lists every frame as a link."""

    # --- rendering (the ``webgrip[render]`` extra; see docs/rendering.md) ---------------
    render: str = "auto"
    """Run a page's scripts in a guarded headless Chromium: ``never``, ``auto`` (only when the
    static page is a script shell and a browser is available) or ``always``."""
    browser_executable: str | None = None
    """The Chromium to drive; default: the system's ``chromium`` on ``PATH``."""
    render_workers: int = 0
    """Pages rendering at once, each in a browser of its own (300-600 MiB each, capped at
    1 GiB); more wait their turn within their own deadline. 0: one per two cores, at most four."""

    def __post_init__(self) -> None:
        # Accept lists (from TOML/JSON) but store tuples so the config stays hashable-ish
        # and immutable.
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, list):
                object.__setattr__(self, f.name, tuple(value))
        if self.headers:
            object.__setattr__(self, "headers", dict(self.headers))
        if self.site_headers:
            object.__setattr__(
                self,
                "site_headers",
                {k: dict(v) if isinstance(v, Mapping) else v for k, v in self.site_headers.items()},
            )
        if self.resolve:
            object.__setattr__(
                self,
                "resolve",
                {str(k): tuple([v] if isinstance(v, str) else v) for k, v in self.resolve.items()},
            )
        _validate(self)

    def replace(self, **changes: Any) -> Config:
        """A copy with some fields changed (validated like the original)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Config:
        """Defaults, overridden by ``WEBGRIP_<FIELD>`` variables, overridden by ``overrides``.

        Lists are comma-separated; ``WEBGRIP_RESOLVE`` is ``host=ip,ip;host2=ip``;
        ``WEBGRIP_SEARCH_ENDPOINTS`` is ``name=url;name2=url``; ``WEBGRIP_BLOCKED_PORTS``
        starting with ``+`` adds to the default blocked ports instead of replacing them.
        """
        values = env_values(os.environ if env is None else env)
        from_env = set(values) - set(overrides)
        values.update(overrides)
        return _build(cls, values, from_env)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str] | None = None,
        profile: str | None = None,
        *,
        env: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> Config:
        """Build a config from a TOML file, a profile in it, the environment and arguments.

        The file is ``path``, else ``$WEBGRIP_CONFIG``, else ``./webgrip.toml``, else
        ``~/.config/webgrip/config.toml`` (``$XDG_CONFIG_HOME`` honoured); no file is fine.
        Its top-level keys are :class:`Config` fields; ``[profiles.NAME]`` tables hold
        per-agent overrides, chosen by ``profile`` or ``$WEBGRIP_PROFILE``. Precedence, highest
        first: ``overrides`` > ``WEBGRIP_*`` variables > profile > file > defaults. Unknown keys
        and invalid values raise :class:`ValueError` naming the key (and the file).
        """
        from .config_file import load_values  # tomllib and pathlib: only when a file is read

        environ = os.environ if env is None else env
        values = load_values(path, profile, environ, _FIELD_KINDS)
        set_by_env = env_values(environ)
        values.update(set_by_env)
        unknown = sorted(set(overrides) - set(_FIELD_KINDS))
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}")
        values.update(overrides)
        return _build(cls, values, set(set_by_env) - set(overrides))


def _build(cls: type[Config], values: dict[str, Any], from_env: set[str]) -> Config:
    """``cls(**values)``; a refused value that came from a ``WEBGRIP_*`` variable is
    reported with the variable's name, so the message says what to change."""
    try:
        return cls(**values)
    except ValueError as exc:
        message = str(exc)
        for name in from_env:
            if message.startswith(f"invalid value for {name!r}"):
                raise ValueError(f"{message} (set by {_ENV_PREFIX}{name.upper()})") from None
        raise


#: ``WEBGRIP_*`` variables that are not settings but are read elsewhere: the file and the
#: profile (:meth:`Config.load`), and the extraction corpus of the Rust test suite.
_OTHER_ENV_NAMES: frozenset[str] = frozenset(
    {
        "WEBGRIP_CONFIG",
        "WEBGRIP_PROFILE",
        "WEBGRIP_CORPUS",
        # Read by `webgrip mcp --http` (webgrip.tools.mcp_http), not by Config.
        "WEBGRIP_MCP_TOKEN",
        "WEBGRIP_MCP_ORIGINS",
    }
)

#: Float settings measured in seconds (named so in the message when a value is no number).
_SECONDS = frozenset(
    {
        "timeout",
        "connect_timeout",
        "rate_limit_seconds",
        "cache_ttl_seconds",
        "download_stall_seconds",
        "download_timeout",
    }
)


def known_env_names() -> frozenset[str]:
    """Every ``WEBGRIP_*`` variable webgrip reads: one per :class:`Config` field, plus
    ``WEBGRIP_CONFIG``, ``WEBGRIP_PROFILE`` (and ``WEBGRIP_CORPUS``, the Rust tests')."""
    return (
        frozenset(_ENV_PREFIX + f.name.upper() for f in dataclasses.fields(Config))
        | _OTHER_ENV_NAMES
    )


def env_values(env: Mapping[str, str]) -> dict[str, Any]:
    """The fields set by ``WEBGRIP_*`` variables in ``env``, parsed to their types.

    An unknown ``WEBGRIP_*`` variable (a misspelt name) raises :class:`ValueError` naming it
    and the closest known name, as an unknown key of the config file does; an invalid value
    raises naming the variable and the form expected.
    """
    _check_env_names(env)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Config):
        var = _ENV_PREFIX + f.name.upper()
        raw = env.get(var)
        if raw is None:
            continue
        try:
            out[f.name] = parse_value(f.name, raw)
        except ValueError as exc:
            raise ValueError(_env_value_error(f.name, var, raw, exc)) from None
    return out


def _check_env_names(env: Mapping[str, str]) -> None:
    known = known_env_names()
    unknown = sorted(k for k in env if k.startswith(_ENV_PREFIX) and k not in known)
    if not unknown:
        return
    import difflib

    name = unknown[0]
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise ValueError(
        f"unknown environment variable {name}{hint}. Rename or unset it; the "
        "variables are listed in docs/configuration.md"
    )


def _env_value_error(name: str, var: str, raw: str, exc: ValueError) -> str:
    """The message for a variable whose value does not parse: the variable named, and the
    value echoed only for numbers and booleans (a mapping may hold a secret)."""
    kind = _FIELD_KINDS.get(name)
    shown = raw.strip()
    shown = repr(shown if len(shown) <= 40 else shown[:39] + "…")
    default = next(f.default for f in dataclasses.fields(Config) if f.name == name)
    expected: tuple[str, str] | None = None
    if kind == "float":
        expected = ("a number of seconds" if name in _SECONDS else "a number", f"{default:g}")
    elif kind == "int":
        expected = ("a whole number", f"{default}")
    elif kind == "bool":
        expected = ("true/false, 1/0, yes/no or on/off", "true")
    elif kind == "int_tuple":
        expected = ("a comma-separated list of port numbers", "+8080,9000")
    if expected is not None:
        form, example = expected
        what = f"{var}={shown} is not {form} (e.g. {var}={example})"
    else:
        what = f"{var} is invalid: {str(exc).removeprefix(f'invalid value for {name!r}: ')}"
    return f"invalid value for {name!r}: {what}"


def parse_value(name: str, raw: str) -> Any:
    """Parse one setting given as a string (environment, CLI) into the field's type."""
    kind = _FIELD_KINDS.get(name)
    raw = raw.strip()
    try:
        if kind == "bool":
            low = raw.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(f"expected true/false, got {raw!r}")
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
        if kind == "str_tuple":
            return tuple(p.strip() for p in raw.split(",") if p.strip())
        if kind == "int_tuple":
            extend = name == "blocked_ports" and raw.startswith("+")
            ports = tuple(int(p) for p in raw.removeprefix("+").split(",") if p.strip())
            return with_default_ports(ports) if extend else ports
        if kind == "mapping":
            if raw.startswith("{"):
                # JSON, for values that hold ";" (Accept-Language=fr;q=0.9 would split).
                import json

                try:
                    loaded = json.loads(raw)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"expected a JSON object ({exc.msg})") from None
                if not isinstance(loaded, dict) or not all(
                    isinstance(v, str) for v in loaded.values()
                ):
                    raise ValueError("expected a JSON object of string values")
                return loaded
            result: dict[str, Any] = {}
            for item in raw.split(";"):
                if not item.strip():
                    continue
                key, sep, val = item.partition("=")
                if not sep:
                    # The item is not echoed: a proxy URL's password may hold the ";".
                    raise ValueError(
                        "expected key=value items separated by ';', got an item without '='"
                    )
                if name == "resolve":
                    result[key.strip()] = tuple(p.strip() for p in val.split(",") if p.strip())
                else:
                    result[key.strip()] = val.strip()
            return result
        if kind == "site_mapping":  # JSON: {"domain": {"Header": "value"}}
            import json

            try:
                return json.loads(raw) if raw else {}
            except json.JSONDecodeError as exc:
                raise ValueError(f"expected a JSON object of domain -> headers ({exc})") from None
        if kind == "opt_str":
            return raw or None
        return raw
    except ValueError as exc:
        raise ValueError(f"invalid value for {name!r}: {exc}") from None


_FIELD_KINDS: dict[str, str] = {
    "allow_networks": "str_tuple",
    "deny_networks": "str_tuple",
    "allowed_domains": "str_tuple",
    "blocked_domains": "str_tuple",
    "blocked_ports": "int_tuple",
    "allow_http": "bool",
    "allow_https_downgrade": "bool",
    "resolve": "mapping",
    "max_redirects": "int",
    "timeout": "float",
    "connect_timeout": "float",
    "max_response_bytes": "int",
    "user_agent": "str",
    "ca_bundle": "opt_str",
    "tls_trust": "str",
    "rate_limit_seconds": "float",
    "max_retries": "int",
    "respect_robots_txt": "bool",
    "proxy": "opt_str",
    "proxy_for": "mapping",
    "trust_env_proxy": "bool",
    "search_provider": "str",
    "search_fallbacks": "str_tuple",
    "search_endpoints": "mapping",
    "search_region": "opt_str",
    "safe_search": "str",
    "brave_api_key": "opt_str",
    "tavily_api_key": "opt_str",
    "google_api_key": "opt_str",
    "google_cx": "opt_str",
    "searxng_url": "opt_str",
    "download_dirs": "str_tuple",
    "max_download_bytes": "int",
    "download_min_speed": "int",
    "download_stall_seconds": "float",
    "download_timeout": "float",
    "tracking_params": "str_tuple",
    "readable_model": "bool",
    "page_cache_size": "int",
    "page_cache_bytes": "int",
    "cache_dir": "opt_str",
    "cache_ttl_seconds": "float",
    "max_frames": "int",
    "render": "str",
    "browser_executable": "opt_str",
    "render_workers": "int",
    "headers": "mapping",
    "site_headers": "site_mapping",
    "cookies": "bool",
    "persist_cookies": "bool",
}

_SEARCH_PROVIDERS = ("duckduckgo", "searxng", "brave", "tavily", "google")
_SAFE_SEARCH = ("off", "moderate", "strict")


def _validate(c: Config) -> None:
    def bad(key: str, why: str) -> ValueError:
        return ValueError(f"invalid value for {key!r}: {why}")

    _validate_numbers(c)
    if not 0 <= c.max_redirects <= 30:
        raise bad("max_redirects", "must be between 0 and 30")
    if not 0 <= c.max_frames <= 32:
        raise bad("max_frames", "must be between 0 and 32")
    if not 0 <= c.render_workers <= 16:
        raise bad("render_workers", "must be between 0 (one per two cores, at most four) and 16")
    for p in c.blocked_ports:
        if not isinstance(p, int) or not 0 <= p <= 65535:
            raise bad("blocked_ports", f"{p!r} is not a port number")
    if c.search_provider not in _SEARCH_PROVIDERS:
        raise bad("search_provider", f"{c.search_provider!r}; choose one of {_SEARCH_PROVIDERS}")
    for fallback in c.search_fallbacks:
        if fallback not in _SEARCH_PROVIDERS:
            raise bad("search_fallbacks", f"{fallback!r}; choose from {_SEARCH_PROVIDERS}")
    if not isinstance(c.search_endpoints, Mapping):
        raise bad("search_endpoints", "expected a mapping of endpoint name to URL")
    for name, url in c.search_endpoints.items():
        if name not in SEARCH_ENDPOINT_NAMES:
            raise bad(
                "search_endpoints",
                f"unknown endpoint {name!r}; valid names are {', '.join(SEARCH_ENDPOINT_NAMES)}",
            )
        if url != "" and not _is_http_url(url):  # "" leaves the default endpoint
            raise bad(
                "search_endpoints", f"{name!r} must be an http:// or https:// URL, got {url!r}"
            )
    _validate_headers(c)
    if c.persist_cookies and not (c.cookies and c.cache_dir):
        raise bad("persist_cookies", "needs cookies=True and a cache_dir to save them in")
    if c.proxy is not None:
        check_proxy_url(c.proxy, "proxy")
    check_proxy_for(c.proxy_for)
    if c.tls_trust not in TLS_TRUST:
        raise bad("tls_trust", f"{c.tls_trust!r}; choose one of {', '.join(TLS_TRUST)}")
    if c.render not in RENDER_MODES:
        raise bad("render", f"{c.render!r}; choose one of {', '.join(RENDER_MODES)}")
    if c.safe_search not in _SAFE_SEARCH:
        raise bad("safe_search", f"{c.safe_search!r}; choose one of {_SAFE_SEARCH}")
    if not c.user_agent.strip() or any(ch in c.user_agent for ch in "\r\n"):
        raise bad("user_agent", "must be a non-empty single line")
    import ipaddress

    for key in ("allow_networks", "deny_networks"):
        for net in getattr(c, key):
            try:
                if not isinstance(net, str):
                    raise TypeError(net)
                ipaddress.ip_network(net, strict=False)
            except (ValueError, TypeError):
                raise bad(key, f"{net!r} is not a CIDR network") from None
    for net in c.allow_networks:
        problem = _allow_network_problem(net)
        if problem:
            raise bad("allow_networks", problem)


def _allow_network_problem(text: str) -> str | None:
    """Why an ``allow_networks`` entry is refused although it parses, or ``None``; the same
    rules as the core's policy (rust/net/src/policy.rs), checked here to name the setting.

    An entry opens addresses, so it must say exactly which: host bits set are refused
    (``127.0.0.1/0`` would open all of IPv4), and an IPv6 entry never opens IPv4 addresses
    (``::/0`` opens none), so the IPv4-mapped form (``::ffff:0:0/96``) is refused with its
    IPv4 spelling named, instead of opening what its superset does not.
    """
    import ipaddress

    network = ipaddress.ip_network(text, strict=False)
    address = ipaddress.ip_address(text.split("/", 1)[0])
    if address != network.network_address:
        return (
            f"{text!r} has host bits set: did you mean {address}/{address.max_prefixlen} "
            f"(that one address) or {network} (the whole network)?"
        )
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
        v4 = network.network_address.ipv4_mapped
        if v4 is not None:
            return (
                f"{text!r} is written as IPv4-mapped IPv6; an IPv6 network never opens IPv4 "
                f"addresses. Write it as IPv4: {v4}/{network.prefixlen - 96}"
            )
    return None


_DAY = 86_400.0
_YEAR = 365 * _DAY
_TIB = 1 << 40
_WEEK = 7 * _DAY

#: The numeric settings and their ranges: (kind, lowest, whether the lowest itself is
#: allowed, highest, the highest in words). Every value must also be finite and of its kind:
#: ``1e19`` seconds once passed here and made every call abort in the core, where adding it
#: to the clock overflows. The highest values are far past any real use: a day for a call or
#: a host's interval, a year for the cache, a tebibyte for a body or a download.
_NUMBER_RANGES: dict[str, tuple[str, float, bool, float, str | None]] = {
    "timeout": ("seconds", 0, False, _DAY, "a day"),
    "connect_timeout": ("seconds", 0, False, _DAY, "a day"),
    "rate_limit_seconds": ("seconds", 0, True, _DAY, "a day"),
    "cache_ttl_seconds": ("seconds", 0, True, _YEAR, "a year"),
    "max_response_bytes": ("int", 0, False, _TIB, "1 TiB"),
    "max_download_bytes": ("int", 0, False, _TIB, "1 TiB"),
    # A slow download writes at least every stall window (and every 10 s while bytes come):
    # under an hour, so a live download's temp file is never taken for a killed one's
    # (downloads.STALE_TEMP_SECONDS). The core cuts any timeout to a week.
    "download_min_speed": ("int", 0, False, _TIB, "1 TiB"),
    "download_stall_seconds": ("seconds", 0, False, 1800, "half an hour"),
    "download_timeout": ("seconds", 0, True, _WEEK, "a week"),
    "page_cache_bytes": ("int", 0, True, _TIB, "1 TiB"),
    "max_retries": ("int", 0, True, 100, None),
    "page_cache_size": ("int", 0, True, 100_000, None),
}
#: Whole numbers whose range :func:`_validate` checks with a message of its own.
_WHOLE_NUMBERS = ("max_redirects", "max_frames", "render_workers")


def _validate_numbers(c: Config) -> None:
    """Each numeric setting a number of its kind, finite, and within :data:`_NUMBER_RANGES`
    (the messages of the lower bounds are the ones documented: ``must be > 0 seconds``)."""
    import math

    def bad(key: str, why: str) -> ValueError:
        return ValueError(f"invalid value for {key!r}: {why}")

    for key in _WHOLE_NUMBERS:
        value = getattr(c, key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad(key, f"expected a whole number, got {type(value).__name__}")
    for key, (kind, low, low_ok, high, words) in _NUMBER_RANGES.items():
        value = getattr(c, key)
        unit = " seconds" if kind == "seconds" else ""
        allowed = (int, float) if kind == "seconds" else (int,)
        if isinstance(value, bool) or not isinstance(value, allowed):
            form = "a number of seconds" if kind == "seconds" else "a whole number"
            raise bad(key, f"expected {form}, got {type(value).__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise bad(key, f"must be a finite number{unit and ' of seconds'}, not {value}")
        if value < low or (value == low and not low_ok):
            raise bad(key, f"must be {'>=' if low_ok else '>'} {low:g}{unit}")
        if value > high:
            # A whole number may have thousands of digits: echo it only while readable.
            shown = (
                f"{value:g}"
                if isinstance(value, float)
                else str(value)
                if value < 10**15
                else "more"
            )
            limit = f"{int(high)}{unit}" + (f" ({words})" if words else "")
            raise bad(key, f"must be at most {limit}, not {shown}")


def _validate_headers(c: Config) -> None:
    """The core's own checks (refused names, credentials for every site, bad values),
    raised when the config is made rather than when the first client is."""

    def pairs(key: str, value: object) -> list[tuple[str, str]]:
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise ValueError(
                f"invalid value for {key!r}: expected a mapping of header name to string value"
            )
        return list(value.items())

    if not isinstance(c.site_headers, Mapping):
        raise ValueError(
            "invalid value for 'site_headers': expected a mapping of domain to headers"
        )
    site = {str(d): pairs(f"site_headers[{d!r}]", h) for d, h in c.site_headers.items()}
    try:
        _core.check_headers(pairs("headers", c.headers), site)
    except ValueError as exc:
        key = "site_headers" if str(exc).startswith("site_headers") else "headers"
        raise ValueError(f"invalid value for {key!r}: {exc}") from None


def _is_http_url(value: object) -> bool:
    if not isinstance(value, str) or any(ch.isspace() for ch in value):
        return False
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(host)
