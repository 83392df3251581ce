"""Type stubs for the native extension ``webgrip._core``.

This is the contract between the Rust core and the Python layer. Errors are raised as the
classes in :mod:`webgrip.errors` (the Rust side imports them), never as panics.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypedDict, final

# Checked against the built module by `python -m mypy.stubtest webgrip._core` (.ci/run).
# A default written `...` is one the runtime signature cannot show (pyo3 renders only
# literal defaults); its value is in the comment beside it.

__all__ = [
    "CHALLENGE_MAX_TEXT_CHARS",
    "DEFAULT_BLOCKED_PORTS",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_DOWNLOAD_MIN_SPEED",
    "DEFAULT_DOWNLOAD_STALL_SECONDS",
    "DEFAULT_DOWNLOAD_TIMEOUT",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_TIMEOUT",
    "DOMAIN_TRACKING_PARAMS",
    "MAX_SHOWN_URL_CHARS",
    "MIN_MAIN_CONTENT_CHARS",
    "READABLE_CONTEXT_NAMES",
    "READABLE_FEATURE_NAMES",
    "READABLE_FLAG_NAMES",
    "READABLE_TAGS",
    "SHELL_MAX_CHARS",
    "TRACKING_PARAMS",
    "VOID_ELEMENTS",
    "CancelToken",
    "Client",
    "EgressProxy",
    "TrackingRules",
    "__version__",
    "check_headers",
    "check_ip",
    "decode_body",
    "extract_document",
    "extract_pdf",
    "html_tree",
    "readable_blocks",
    "readable_features",
    "scan_challenge",
    "script_shell_reason",
    "site_of",
    "url_host",
]

__version__: str

# The core's defaults and limits; webgrip.config and webgrip.messages use these, not copies.
DEFAULT_BLOCKED_PORTS: tuple[int, ...]  # ports refused on any host unless configured
DEFAULT_MAX_REDIRECTS: int
DEFAULT_TIMEOUT: float  # seconds, whole call
DEFAULT_CONNECT_TIMEOUT: float  # seconds
DEFAULT_MAX_RESPONSE_BYTES: int  # cap on a decoded body
DEFAULT_DOWNLOAD_MIN_SPEED: int  # bytes/s a download must average over its stall window
DEFAULT_DOWNLOAD_STALL_SECONDS: float  # the stall window, seconds
DEFAULT_DOWNLOAD_TIMEOUT: float  # seconds, a download's whole transfer
MAX_SHOWN_URL_CHARS: int  # longest URL quoted in an error message (then cut with "…")

# The dicts Client.request and Client.download return (plain dicts at runtime: type-only).
class _RawResponse(TypedDict):
    url: str  # final URL after redirects
    status: int
    headers: list[tuple[str, str]]  # in wire order, names lower-cased
    content: bytes  # decoded from Content-Encoding, capped
    content_type: str | None  # media type only, lower-cased ("text/html")
    charset: str | None  # charset parameter of Content-Type, if any
    redirects: list[str]  # every URL requested before the final one, in order
    remote_addr: str  # "ip:port" actually connected to for the final hop
    elapsed: float  # seconds, whole call
    sent_cookies: bool  # some hop carried cookies from the jar (a shared cache skips it)

class _RawDownload(TypedDict):
    url: str
    status: int
    headers: list[tuple[str, str]]
    content_type: str | None
    temp_path: str  # complete, fsynced temp file inside dest_dir; caller renames it
    temp_name: str  # its name inside dest_dir (use with dir_fd)
    size: int
    sha256: str  # hex
    redirects: list[str]
    remote_addr: str
    elapsed: float
    sent_cookies: bool

@final
class Client:
    """A guarded HTTP client. Thread-safe; share one per configuration.

    Errors (``webgrip.errors``) and their ``reason`` tags:

    - ``InvalidURLError``: ``invalid-url`` (unparseable URL or redirect ``Location``).
    - ``BlockedURLError``: ``scheme``, ``userinfo``, ``blocked-port``, ``blocked-domain``,
      ``not-allowed-domain``, ``denied-network``, ``https-downgrade``, ``redirect-loop``,
      ``too-many-redirects`` (more than ``max_redirects``; 0 means a redirect is an error),
      and for addresses ``loopback-address``, ``private-address``, ``link-local-address``,
      ``unspecified-address``, ``multicast-address``, ``broadcast-address``,
      ``documentation-address``, ``reserved-address``.
    - ``FetchTimeoutError``: ``timeout`` (total deadline, connect timeout or DNS).
    - ``ResponseTooLargeError``: ``too-large`` (``limit`` = the cap in bytes).
    - ``ConnectError``: ``dns``, ``connection-refused``, ``connection-reset``, ``tls``,
      ``incomplete-response``, ``bad-response``, ``bad-encoding``, ``unsupported-encoding``,
      ``connect-failed``, ``io``.
    - ``ProxyError`` (a ``ConnectError``): ``proxy-connect``, ``proxy-dns``, ``proxy-tls``,
      ``proxy-auth``, ``proxy-refused``, ``proxy-protocol``.
    - ``HTTPStatusError`` (downloads only): ``http-<status>`` (``status`` set).
    - ``DownloadError``: ``io`` (temp file), ``cancelled`` (progress callback raised: the
      callback's own exception is re-raised instead).
    - Bad arguments (CIDR, header, method, CA file, timeouts) raise ``ValueError``.
    """

    def __new__(
        cls,
        *,
        allow_networks: Sequence[str] = ...,  # ()
        deny_networks: Sequence[str] = ...,  # ()
        allowed_domains: Sequence[str] = ...,  # ()
        blocked_domains: Sequence[str] = ...,  # ()
        blocked_ports: Sequence[int] | None = None,  # None: DEFAULT_BLOCKED_PORTS
        max_redirects: int = ...,  # DEFAULT_MAX_REDIRECTS
        timeout: float = ...,  # DEFAULT_TIMEOUT
        connect_timeout: float = ...,  # DEFAULT_CONNECT_TIMEOUT
        max_response_bytes: int = ...,  # DEFAULT_MAX_RESPONSE_BYTES
        user_agent: str | None = None,  # None: "webgrip/<version>"
        ca_bundle: str | None = None,
        tls_trust: str = "webpki",  # or "system"; SSL_CERT_FILE/SSL_CERT_DIR read when set
        allow_http: bool = True,
        allow_https_downgrade: bool = False,
        resolve: Mapping[str, Sequence[str]] | None = None,
        headers: Sequence[tuple[str, str]] = ...,  # ()
        site_headers: Mapping[str, Sequence[tuple[str, str]]] | None = None,
        cookies: bool = True,
        http_proxy: str | None = None,  # upstream proxy URL for http:// targets
        https_proxy: str | None = None,  # ... for https:// targets
        proxy_for: Sequence[tuple[str, str]] = ...,  # (domain, proxy URL or "direct")
    ) -> Client: ...
    def check_url(self, url: str) -> str:
        """Apply the policy (resolving the host) without connecting; the normalised URL.

        Raises ``InvalidURLError`` or ``BlockedURLError`` (the rule in ``reason``). Because the
        host is resolved, a name that does not resolve raises ``ConnectError`` (reason
        ``dns``) and a lookup slower than ``connect_timeout`` raises ``FetchTimeoutError``
        (reason ``timeout``).
        """
    def request(
        self,
        url: str,
        *,
        method: str = "GET",
        headers: Sequence[tuple[str, str]] = ...,  # ()
        body: bytes | None = None,
        timeout: float | None = None,
        max_bytes: int | None = None,
        max_redirects: int | None = None,
    ) -> _RawResponse:
        """One guarded request, redirects walked and re-checked.

        4xx/5xx are returned, not raised.
        """
    def download(
        self,
        url: str,
        dest_dir: str,
        *,
        headers: Sequence[tuple[str, str]] = ...,  # ()
        timeout: float | None = None,
        max_bytes: int | None = None,
        progress: Callable[[int, int | None], None] | None = None,
        dir_fd: int | None = None,
        min_speed: int = ...,  # DEFAULT_DOWNLOAD_MIN_SPEED
        stall_seconds: float = ...,  # DEFAULT_DOWNLOAD_STALL_SECONDS
        download_timeout: float | None = ...,  # DEFAULT_DOWNLOAD_TIMEOUT; None: no limit
    ) -> _RawDownload:
        """Stream a 2xx body to a new temp file in ``dest_dir``; nothing is left on failure.

        The response head must come within ``timeout``; the body is bounded by the stall rule
        (under ``min_speed`` bytes/s over ``stall_seconds``: FetchTimeoutError, reason
        ``stalled``) and ``download_timeout`` for the whole transfer (reason
        ``download-timeout``). The finished file has the mode a new file in the folder gets.

        A non-2xx final status raises HTTPStatusError (no file). ``progress(done, total)`` is
        called from time to time with the GIL held. With ``dir_fd`` (an open descriptor of the
        checked folder; unix only) the file is created and removed through it, never by path.
        The body is decoded per Content-Encoding (gzip, deflate, br, stacked); another coding
        raises ConnectError (reason ``unsupported-encoding``, no file).
        """
    def cookies(self, *, persistent_only: bool = False) -> list[_Cookie]:
        """The jar's unexpired cookies (only those with an expiry date when
        ``persistent_only``); empty when cookies are off."""
    def load_cookies(self, cookies: Sequence[Mapping[str, Any]]) -> None:
        """Add cookies saved from :meth:`cookies` (expired ones are dropped)."""
    def clear_cookies(self) -> None:
        """Forget every cookie of the jar."""
    def has_cookies_for(self, url: str) -> bool:
        """Whether a GET of ``url`` would carry cookies from the jar (False for an
        unparseable URL or with cookies off)."""
    @property
    def cookie_changes(self) -> int:
        """A count bumped by every change to the jar (0 when cookies are off)."""

class _Cookie(TypedDict):
    name: str
    value: str
    domain: str
    host_only: bool
    path: str
    secure: bool
    http_only: bool
    same_site: str  # "strict", "lax" or "none"
    expires: int | None  # unix seconds; None: a session cookie
    created: int  # unix microseconds

class _ProxyStats(TypedDict):
    requests: int
    upstream: int
    refused: int
    bytes: int
    refusals: list[tuple[str, str]]
    over_bytes: bool
    over_connections: bool

@final
class EgressProxy:
    """The egress proxy of one render session: 127.0.0.1 on an ephemeral port, serving only
    callers presenting ``user``/``secret`` (Basic), applying ``client``'s policy and
    ``resolve`` overrides to every CONNECT tunnel and absolute-form HTTP request."""

    user: ClassVar[str]
    def __new__(
        cls,
        client: Client,
        *,
        secret: str,
        timeout: float,
        max_bytes: int,
        max_connections: int,
    ) -> EgressProxy: ...
    @property
    def port(self) -> int: ...
    def stats(self) -> _ProxyStats: ...
    def stop(self) -> None: ...

def decode_body(content: bytes, content_type: str | None = None) -> tuple[str, str]:
    """Decode a body to text: BOM, Content-Type charset, <meta> prescan, detection.

    Returns ``(text, encoding_name)``.
    """

def check_ip(
    ip: str,
    allow_networks: Sequence[str] = ...,  # ()
    deny_networks: Sequence[str] = ...,  # ()
) -> str | None:
    """``None`` if the address is allowed, else the reason it is refused."""

def check_headers(
    headers: Sequence[tuple[str, str]],
    site_headers: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    *,
    credentials: bool = False,
) -> None:
    """Check ``headers`` and ``site_headers`` as ``Client(...)`` would: ValueError for a
    refused name (``Host``, ``Content-Length``, hop-by-hop, ...), a credential in ``headers``
    (allowed with ``credentials``: a call's own headers) or an invalid value (never shown)."""

def site_of(host: str) -> str:
    """The site of ``host``: its registrable domain under the Public Suffix List
    (``docs.example.co.uk`` gives ``example.co.uk``), or the host itself for an IP address, a
    single label or a public suffix; lower-cased, without a trailing dot."""

def url_host(url: str) -> str | None:
    """The host ``url`` names, as the core parses it, in canonical form (no DNS).

    IP literals in any spelling give the address (``0x7f.1``, ``2130706433`` and
    ``[::ffff:127.0.0.1]`` are ``"127.0.0.1"``; IPv6 without brackets); names are lower-cased
    IDNA without trailing dots. ``None`` if the URL does not parse or has no host.
    """

def extract_document(
    html: str | bytes,
    *,
    url: str | None = None,
    modes: Sequence[str] = ...,  # ("markdown",)
    main_content: bool = False,
    content_type: str | None = None,
    timeout: float | None = None,
    cancel: CancelToken | None = None,
    tracking: TrackingRules | None = None,
    refuse_internal_images: bool = False,
    frame_marker: str | None = None,
    readable_model: bool = True,
    readable_scores: tuple[Sequence[float], float] | None = None,
) -> dict[str, Any]:
    """Parse once and build the requested views, within ``timeout`` seconds.

    Parsing and every view stop once ``timeout`` has passed or ``cancel`` is cancelled; then
    :class:`webgrip.errors.FetchTimeoutError` is raised (``reason`` ``"timeout"`` or
    ``"cancelled"``) instead of a page cut short. Without either, the call is unbounded in
    time but linear in the input: tree building caps open elements as browsers do.

    ``modes`` is any of ``"markdown"``, ``"text"``, ``"links"``, ``"tables"``, ``"metadata"``;
    the result has a key per requested mode (a view not asked for is not built). ``bytes``
    input is decoded like :func:`decode_body`. With ``tracking``, the URLs of the Markdown
    and links views lose their tracking parameters as they are resolved (links that then
    match are one entry); without it they are kept as written. With
    ``refuse_internal_images``, every Markdown image whose target is a ``localhost`` name or
    an address the default policy refuses (in any spelling, no DNS), or a web URL that does
    not parse, is reduced to its alt text (what ``fetch`` shows an agent).

    - ``markdown``/``text``: ``str``
    - ``links``: ``list[{"url": str, "text": str, "rel": str | None}]``
    - ``tables``: ``list[{"caption": str | None, "headers": list[str],
      "rows": list[dict[str, str]], "markdown": str}]``
    - ``metadata``: ``{"title", "description", "canonical_url", "language", "author",
      "published", "site_name"}`` (each ``str | None``)
    - ``main_content``: ``bool``, present when ``main_content=True`` and ``markdown`` or
      ``text`` was asked for: whether those views are the main-content selection. A
      selection shorter than :data:`MIN_MAIN_CONTENT_CHARS` (trimmed) gives way to the whole
      page when that is longer, decided on the same parse (then ``False``); so does a page
      whose tree holds more than 1,048,576 nodes (no real page does; it bounds the memory
      of the selection on hostile markup).

    With ``main_content``, the rules choose the selection and the shipped block scorer then
    takes out the in-scope blocks it judges boilerplate (``readable_model=False``: the rules
    alone).
    ``readable_scores`` (development tooling for
    ``training/readable.py``) is ``(scores, low)``: one score per block of
    :func:`readable_blocks` in its order, used instead of the shipped model's, and the
    threshold below which an in-scope block leaves (ignored when the counts differ).
    - ``frames``: with a non-empty ``frame_marker``, the page's visible ``<iframe>`` and
      ``<frame>`` elements in document order (at most 256; those in hidden subtrees left out),
      ``list[{"tag", "src", "srcdoc", "title", "name", "width", "height"}]`` (``src``
      resolved, ``None`` when absent or ``javascript:``/``data:``); the ``markdown`` and
      ``text`` views then hold ``{frame_marker}{index}{frame_marker}`` as a paragraph where
      each listed frame stands (see :mod:`webgrip.frames`).
    """

def extract_pdf(
    data: bytes,
    *,
    mode: str = "text",
    password: str | None = None,
    url: str | None = None,
    timeout: float | None = None,
    cancel: CancelToken | None = None,
    max_pages: int | None = None,
) -> dict[str, Any]:
    """Read a PDF into ``mode``'s view (``"text"`` or ``"markdown"``) with the GIL released.

    Returns ``{"content": str, "metadata": {"title", "author", "subject", "keywords",
    "creator", "producer", "created", "modified"} (each ``str | None``, dates ISO 8601) plus
    ``"pages": int``, "pages_read": int, "no_text": bool}``. ``no_text`` marks a document
    without a text layer (scanned); ``content`` then says so. Markdown marks each page after
    the first with ``<!-- page N of M -->``.

    Encrypted documents are opened with ``password`` or the empty user password. Raises
    :class:`webgrip.errors.UnsupportedContentError` (``reason`` ``"password-protected"`` or
    ``"malformed-pdf"``), :class:`webgrip.errors.ResponseTooLargeError` (input over the
    core's cap) and :class:`webgrip.errors.FetchTimeoutError` (``timeout`` passed or
    ``cancel`` cancelled).
    """

MIN_MAIN_CONTENT_CHARS: int
"""Below this many characters a main-content view gives way to the whole page's."""

CHALLENGE_MAX_TEXT_CHARS: int
"""A page with more readable characters than this (whitespace aside) is never a bot check."""

def scan_challenge(content: bytes, status: int) -> dict[str, Any] | None:
    """Whether a fetched HTML page is a bot check (a challenge, CAPTCHA or firewall block page).

    ``None`` when the page has more readable text than :data:`CHALLENGE_MAX_TEXT_CHARS` (most
    pages: the scan stops there). Otherwise a dict: ``text_chars`` (readable characters),
    ``forms``, ``password_inputs``, and ``kind`` (``"challenge"``, ``"captcha"``,
    ``"blocked"``) with ``vendor`` (e.g. ``"Cloudflare"``) when the page's markers, given the
    HTTP ``status``, make it a bot check, else ``None`` for both. Runs without the GIL.
    """

SHELL_MAX_CHARS: int
"""A page whose extracted text (trimmed) is longer than this is never a script shell."""

def script_shell_reason(html: bytes) -> str | None:
    """Why an HTML page looks like an app shell its scripts build, else ``None``.

    One linear pass over the first 512 KiB of the raw bytes (any ASCII-compatible
    encoding), without the GIL.
    A shell has scripts (a ``<script src>``, a ``type=module`` script, a
    ``<link rel=modulepreload>`` or an inline JavaScript block of some length) and, as the
    reason says: an app root (``"app-root #root"``, ``"app-root <app-root>"``,
    ``"app-root [ng-version]"``, ...), a custom element as the body's first element
    (``"custom element <my-app>"``), a ``<noscript>`` mentioning JavaScript
    (``"noscript"``), or nothing in the body besides scripts (``"empty body with
    scripts"``). Whether the page is a shell also needs its extracted text to be at most
    :data:`SHELL_MAX_CHARS` (see ``webgrip.is_script_shell``).
    """

def html_tree(
    html: str | bytes,
) -> tuple[
    list[str],
    list[dict[str, str] | None],
    list[int],
    list[int],
    list[int],
    list[int],
    list[str],
]:
    """The element tree of an HTML page or fragment as flat lists indexed by element.

    ``(tags, attrs, parents, ends, text_starts, text_ends, pieces)``: the page parsed as a
    browser parses it (the core's HTML5 parse, without the GIL, linear under its caps),
    elements in document order, element 0 the document (tag ``"#document"``, parent -1).
    ``attrs[i]`` is a dict or ``None``; the elements below ``i`` are ``i + 1`` to
    ``ends[i] - 1``; ``pieces`` is the page's text in document order (not that of scripts,
    styles and ``<noscript>``), element ``i``'s is ``pieces[text_starts[i]:text_ends[i]]``.
    Bytes are read as UTF-8. Read by ``webgrip.search._html``'s result-page tree.
    """

def readable_blocks(html: str | bytes, url: str | None = None) -> list[dict[str, Any]]:
    """The readable selection's text blocks with their features, one dict per block in
    document order: development tooling for ``training/readable.py`` (issue 33), not
    part of webgrip's API.

    A block is an element the selection treats as a block (``p``, ``li``, ``td``, headings,
    ``div``, ``nav``, ...) or ``body``, holding the visible text that none of its nested
    blocks holds, so the blocks partition the page's text. Keys: ``text`` (own text,
    whitespace collapsed), ``tag``, ``chars`` and ``link_chars`` (own alphanumeric
    characters, and those inside links), ``words``, ``punct``, ``depth``, ``flags`` and
    ``ancestor_flags`` (bit k named by ``READABLE_FLAG_NAMES[k]``), ``subtree_chars``,
    ``subtree_link_chars``, ``subtree_links``, ``subtree_good``, ``parent_chars``,
    ``level``, ``same_kind_siblings``, ``position`` and ``text_before`` (in [0, 1)),
    ``article``, ``product``, ``forum`` (what the selection read of the page) and
    ``in_scope`` (the rules' verdict: the readable text view includes the block), and
    ``score``: the shipped block scorer's probability that the block is main content. Bytes
    are decoded as :func:`extract_document` decodes them; runs without the GIL.
    """

def readable_features(html: str | bytes, url: str | None = None, context: bool = False) -> bytes:
    """The block scorer's feature rows of :func:`readable_blocks`' blocks, as little-endian
    ``float32`` with ``len(READABLE_FEATURE_NAMES)`` columns per row, then with ``context``
    the ``READABLE_CONTEXT_NAMES`` columns (the neighbouring blocks' and the page kind's;
    development tooling: the training script learns from the very numbers the core scores)."""

READABLE_FEATURE_NAMES: tuple[str, ...]
"""The columns of :func:`readable_features`' rows."""
READABLE_CONTEXT_NAMES: tuple[str, ...]
"""The columns :func:`readable_features` appends with ``context=True``: the blocks before and
after it, the runs it is part of, and what the page says it is (docs generator, archive, shop,
discussion); no column of the shipped scorer."""
READABLE_TAGS: tuple[str, ...]
"""The tags the ``tag`` feature numbers: a tag's index here, any other tag this length."""

READABLE_FLAG_NAMES: tuple[str, ...]
"""Names of the bits of :func:`readable_blocks`' ``flags`` and ``ancestor_flags``."""

TRACKING_PARAMS: tuple[str, ...]
"""Query parameters removed on every site (a name, or a prefix ending in ``*``)."""
DOMAIN_TRACKING_PARAMS: dict[str, tuple[str, ...]]
"""Parameters removed only on a site and its subdomains (``amazon.*``: every storefront)."""

VOID_ELEMENTS: frozenset[str]
"""The void elements (no content, no end tag) as the core's HTML parser treats them, lowercase:
the one list the Rust parse and the Python search parser share."""

@final
class TrackingRules:
    """The built-in tracking rules plus ``extra`` ones, compiled once; give it to
    :func:`extract_document` to strip links as they are resolved."""

    def __new__(cls, extra: Sequence[str] = ...) -> TrackingRules: ...
    def strip(self, url: str) -> str:
        """``url`` without its tracking query parameters, every other byte kept (the same
        object when there are none)."""
    def is_tracking_param(self, name: str, host: str = "") -> bool:
        """Whether the decoded query parameter ``name`` is tracking on ``host``."""

@final
class CancelToken:
    """A flag that stops every :func:`extract_document` it was given, from any thread."""

    def __init__(self) -> None: ...
    def cancel(self) -> None:
        """Stop the extractions holding this token within a few milliseconds."""
    @property
    def cancelled(self) -> bool: ...
