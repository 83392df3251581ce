"""URL hygiene: strip tracking parameters, and prepare a URL for fetching.

Links found on the web (and in search results) carry parameters whose only job is to tell
someone where a click came from: ``utm_source``, ``fbclid``, ``gclid`` and friends. They
change nothing in the page, make two identical links look different, and leak context to
third parties. :func:`strip_tracking` removes them and leaves everything else *byte for byte*:
the order of the remaining parameters, their encoding, the path and the fragment.

The lists below were written for webgrip. A rule is a parameter name, compared without
regard to case, or a prefix ending in ``*`` (``utm_*``). Some parameters are tracking on one
site and meaningful on another (``ref`` is a branch on GitHub, a referral tag on Amazon), so
those are only removed on the sites listed in :data:`DOMAIN_TRACKING_PARAMS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote_plus, urlsplit

__all__ = [
    "DOMAIN_TRACKING_PARAMS",
    "TRACKING_PARAMS",
    "is_tracking_param",
    "strip_tracking",
    "url_for_fetch",
]

#: Parameters removed on every site.
TRACKING_PARAMS: tuple[str, ...] = (
    # campaign tags (Google Analytics / Urchin, Matomo, Piwik, Webtrekk, AT Internet)
    "utm_*", "mtm_*", "pk_campaign", "pk_kwd", "pk_keyword", "pk_source", "pk_medium",
    "pk_content", "wt_mc", "wt_zmc", "at_medium", "at_campaign",
    # ad-click identifiers
    "gclid", "gclsrc", "gbraid", "wbraid", "dclid", "gad_source", "gad_campaignid", "msclkid",
    "fbclid", "yclid", "ysclid", "twclid", "ttclid", "li_fat_id", "epik", "rb_clickid",
    "irclickid", "s_kwcid", "srsltid",
    # analytics cookies passed across domains
    "_ga", "_gl", "_openstat",
    # e-mail marketing (Mailchimp, HubSpot, Marketo, Vero, Olytics, Wicked Reports)
    "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking",
    "mkt_tok", "vero_id", "vero_conv", "oly_anon_id", "oly_enc_id", "wickedid",
    # social sharing
    "igshid", "igsh", "ref_src", "ref_url", "fb_action_ids", "fb_action_types", "fb_ref",
    "fb_source", "action_object_map", "action_type_map", "action_ref_map",
    "__twitter_impression",
)

#: Parameters removed only on the listed sites (the host itself or any subdomain of it).
#: ``amazon.*`` stands for every Amazon storefront (amazon.com, amazon.co.uk, ...).
DOMAIN_TRACKING_PARAMS: dict[str, tuple[str, ...]] = {
    "amazon.*": (
        "ref", "ref_", "pd_rd_*", "pf_rd_*", "qid", "sr", "crid", "sprefix", "dib", "dib_tag",
        "content-id", "tag", "linkcode", "linkid", "ascsubtag", "creative", "creativeasin",
        "camp", "_encoding",
    ),
    "youtube.com": ("si", "feature", "pp"),
    "youtu.be": ("si", "feature"),
    "twitter.com": ("s", "t"),
    "x.com": ("s", "t"),
    "facebook.com": ("__cft__*", "__tn__", "mibextid", "sfnsn"),
    "linkedin.com": (
        "trk", "trkinfo", "trackingid", "refid", "lipi", "midtoken", "midsig", "trkemail", "lici",
    ),
    "reddit.com": ("share_id", "rdt"),
    "tiktok.com": ("_r", "_t", "is_from_webapp", "sender_device", "is_copy_url"),
    "spotify.com": ("si",),
    "medium.com": ("source",),
    "google.com": (
        "ved", "ei", "usg", "sxsrf", "sca_esv", "sca_upv", "gs_lcp", "gs_lp", "sclient", "oq",
        "aqs", "sourceid", "rlz", "uact", "bih", "biw",
    ),
    "bing.com": ("form", "cvid", "pq", "qs", "sk", "sp", "sc", "ghc", "lq"),
    "msn.com": ("ocid", "cvid", "pc"),
    "aliexpress.com": (
        "spm", "scm", "pvid", "algo_pvid", "algo_exp_id", "pdp_npi", "pdp_ext_f", "utparam",
        "curpageloguid",
    ),
    "taobao.com": ("spm", "scm", "pvid", "utparam"),
    "tmall.com": ("spm", "scm", "pvid", "utparam"),
    "ebay.com": (
        "_trkparms", "_trksid", "mkevt", "mkcid", "mkrid", "campid", "toolid", "customid",
        "amdata",
    ),
}


class _Rules:
    """A compiled rule list: exact names and prefixes, lower-cased."""

    __slots__ = ("exact", "prefixes")

    def __init__(self, rules: Iterable[str]):
        exact: set[str] = set()
        prefixes: list[str] = []
        for rule in rules:
            rule = rule.strip().lower()
            if not rule:
                continue
            if rule.endswith("*"):
                prefixes.append(rule[:-1])
            else:
                exact.add(rule)
        self.exact = frozenset(exact)
        self.prefixes = tuple(prefixes)

    def match(self, name: str) -> bool:
        return name in self.exact or any(name.startswith(p) for p in self.prefixes if p)


_GLOBAL = _Rules(TRACKING_PARAMS)
_DOMAIN = {domain: _Rules(rules) for domain, rules in DOMAIN_TRACKING_PARAMS.items()}
_EXTRA_CACHE: dict[tuple[str, ...], _Rules] = {}


def _is_amazon(host: str) -> bool:
    """``amazon.<tld>`` or ``amazon.<sld>.<tld>`` (and subdomains): every Amazon storefront."""
    labels = host.split(".")
    for i, label in enumerate(labels):
        if label == "amazon":
            rest = labels[i + 1:]
            return 1 <= len(rest) <= 2 and all(0 < len(x) <= 3 for x in rest)
    return False


def _domain_rules(host: str) -> list[_Rules]:
    found = []
    for domain, rules in _DOMAIN.items():
        if domain == "amazon.*":
            if _is_amazon(host):
                found.append(rules)
        elif host == domain or host.endswith("." + domain):
            found.append(rules)
    return found


def _extra_rules(extra: Iterable[str]) -> _Rules | None:
    key = tuple(extra)
    if not key:
        return None
    rules = _EXTRA_CACHE.get(key)
    if rules is None:
        rules = _Rules(key)
        if len(_EXTRA_CACHE) < 64:
            _EXTRA_CACHE[key] = rules
    return rules


def _host_of(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return ""


def is_tracking_param(name: str, host: str = "", extra: Iterable[str] = ()) -> bool:
    """Whether the query parameter ``name`` is tracking on ``host``.

    ``name`` is the decoded parameter name; ``extra`` adds rules (``*`` suffix = prefix).
    """
    low = name.lower()
    if _GLOBAL.match(low):
        return True
    if host and any(r.match(low) for r in _domain_rules(host.rstrip(".").lower())):
        return True
    more = _extra_rules(extra)
    return bool(more and more.match(low))


def _split(url: str) -> tuple[str, str | None, str | None]:
    """``(before_query, query, fragment)`` without re-encoding anything."""
    rest, hash_, fragment = url.partition("#")
    base, qmark, query = rest.partition("?")
    return base, (query if qmark else None), (fragment if hash_ else None)


def strip_tracking(url: str, extra: Iterable[str] = ()) -> str:
    """``url`` without its tracking query parameters.

    Every other part of the URL is kept exactly as given, including the order and encoding
    of the remaining parameters and the fragment; a URL without tracking parameters comes
    back unchanged. ``extra`` adds rules on top of the built-in lists (usually
    ``Config.tracking_params``): a name, or a prefix ending in ``*``.

    >>> strip_tracking("https://example.com/a?id=7&utm_source=news&b=%20x#top")
    'https://example.com/a?id=7&b=%20x#top'
    """
    base, query, fragment = _split(url)
    if not query:
        return url
    extra = tuple(extra)
    host = _host_of(url)
    domain_rules = _domain_rules(host) if host else []
    more = _extra_rules(extra)
    kept: list[str] = []
    removed = False
    for piece in query.split("&"):
        name = unquote_plus(piece.partition("=")[0]).lower()
        if name and (
            _GLOBAL.match(name)
            or any(r.match(name) for r in domain_rules)
            or (more is not None and more.match(name))
        ):
            removed = True
            continue
        kept.append(piece)
    if not removed:
        return url
    out = base
    new_query = "&".join(piece for piece in kept if piece)
    if new_query:
        out += "?" + new_query
    if fragment is not None:
        out += "#" + fragment
    return out


def url_for_fetch(url: str, extra: Iterable[str] = ()) -> str:
    """The URL to request for ``url``: tracking parameters stripped, fragment dropped.

    The fragment (``#section``) is never sent to a server; dropping it also lets two links
    to the same page share one download and one cache entry.
    """
    base, query, _fragment = _split(strip_tracking(url, extra))
    return base if query is None else f"{base}?{query}"
