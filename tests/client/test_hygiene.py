"""URL hygiene: tracking parameters stripped, everything else kept byte for byte."""

from __future__ import annotations

import string
from urllib.parse import quote, unquote_plus, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from webgrip.hygiene import (
    DOMAIN_TRACKING_PARAMS,
    TRACKING_PARAMS,
    is_tracking_param,
    strip_tracking,
    tracking_rules,
    url_for_fetch,
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://example.com/a?id=7&utm_source=news&utm_medium=mail&b=2",
            "https://example.com/a?id=7&b=2",
        ),
        ("https://example.com/?fbclid=IwAR0abc", "https://example.com/"),
        (
            "https://example.com/p?gclid=x&dclid=y&msclkid=z&yclid=w&igshid=v&q=keep",
            "https://example.com/p?q=keep",
        ),
        (
            "https://example.com/p?mc_cid=1&mc_eid=2&_ga=3&_gl=4&ref_src=twsrc",
            "https://example.com/p",
        ),
        ("https://example.com/p?UTM_SOURCE=x&Keep=1", "https://example.com/p?Keep=1"),
        ("https://example.com/p?utm_source=x#section-2", "https://example.com/p#section-2"),
        # encoding and order of the rest are kept exactly
        (
            "https://example.com/s?q=caf%C3%A9+au+lait&utm_campaign=x&z=%2F&a=1",
            "https://example.com/s?q=caf%C3%A9+au+lait&z=%2F&a=1",
        ),
        # an encoded tracking name is still recognised
        ("https://example.com/s?utm%5Fsource=x&k=v", "https://example.com/s?k=v"),
        # nothing to strip: the very same string
        ("https://example.com/s?q=a&&b=&c", "https://example.com/s?q=a&&b=&c"),
        ("https://example.com/s?", "https://example.com/s?"),
        ("mailto:someone@example.com", "mailto:someone@example.com"),
    ],
)
def test_strip_tracking_examples(url: str, expected: str) -> None:
    assert strip_tracking(url) == expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # Amazon: referral and recommendation tags, on every storefront; variant choice kept
        (
            "https://www.amazon.com/dp/B0TEST?ref=sr_1_1&pd_rd_w=a&pf_rd_p=b&th=1&psc=1",
            "https://www.amazon.com/dp/B0TEST?th=1&psc=1",
        ),
        (
            "https://www.amazon.co.uk/dp/B0TEST?tag=aff-21&qid=1700&sr=8-1&keywords=guide",
            "https://www.amazon.co.uk/dp/B0TEST?keywords=guide",
        ),
        # YouTube: share id goes, the start time and the playlist stay
        (
            "https://www.youtube.com/watch?v=abc&si=SHARE&t=42&list=PL1",
            "https://www.youtube.com/watch?v=abc&t=42&list=PL1",
        ),
        ("https://youtu.be/abc?si=SHARE", "https://youtu.be/abc"),
        # X/Twitter share tokens
        ("https://x.com/user/status/1?s=20&t=AbCd", "https://x.com/user/status/1"),
        (
            "https://mobile.twitter.com/user/status/1?s=46",
            "https://mobile.twitter.com/user/status/1",
        ),
    ],
)
def test_domain_rules(url: str, expected: str) -> None:
    assert strip_tracking(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/owner/repo/blob/file.py?ref=main",  # ref is a branch here
        "https://example.com/watch?si=1&s=2&t=3&tag=x",  # only tracking on other sites
        "https://notamazon.com/item?ref=abc",
        "https://amazon.evil.example.com.attacker.test/?ref=abc",
        "https://x.com.example/page?s=1",
    ],
)
def test_site_specific_names_are_kept_elsewhere(url: str) -> None:
    assert strip_tracking(url) == url


def test_extra_rules_from_config() -> None:
    url = "https://example.com/p?sessionref=1&cmp_id=2&cmp_src=3&keep=4"
    assert strip_tracking(url, extra=("sessionref", "cmp_*")) == "https://example.com/p?keep=4"
    assert strip_tracking(url) == url


def test_url_for_fetch_drops_fragment_and_tracking() -> None:
    assert (
        url_for_fetch("https://example.com/a?x=1&utm_source=t#frag") == "https://example.com/a?x=1"
    )
    assert url_for_fetch("https://example.com/a#frag") == "https://example.com/a"
    assert url_for_fetch("https://example.com/a?#") == "https://example.com/a?"
    assert url_for_fetch("https://example.com/a?k=%23x", ("k",)) == "https://example.com/a"


def test_is_tracking_param() -> None:
    assert is_tracking_param("utm_content")
    assert is_tracking_param("si", "music.youtube.com")
    assert not is_tracking_param("si", "example.com")
    assert not is_tracking_param("q")
    assert is_tracking_param("x_custom", extra=("x_*",))


# -- properties ---------------------------------------------------------------------------

_GLOBAL_EXACT = {r for r in TRACKING_PARAMS if not r.endswith("*")}
_GLOBAL_PREFIXES = tuple(r[:-1] for r in TRACKING_PARAMS if r.endswith("*"))
_DOMAIN_RULES = [n for rules in DOMAIN_TRACKING_PARAMS.values() for n in rules]
_DOMAIN_EXACT = {n for n in _DOMAIN_RULES if not n.endswith("*")}
_DOMAIN_PREFIXES = tuple(n[:-1] for n in _DOMAIN_RULES if n.endswith("*"))


def _plainly_not_tracking(name: str) -> bool:
    """Not tracking on any site: neither a global nor a site-specific rule matches."""
    low = name.lower()
    return (
        low not in _GLOBAL_EXACT
        and not low.startswith(_GLOBAL_PREFIXES)
        and low not in _DOMAIN_EXACT
        and not low.startswith(_DOMAIN_PREFIXES)
    )


_name_chars = string.ascii_letters + string.digits + "_-.[]"
plain_names = st.text(_name_chars, min_size=1, max_size=12).filter(_plainly_not_tracking)
tracking_names = st.sampled_from([*sorted(_GLOBAL_EXACT), "utm_source", "utm_x", "UTM_Term"])
values = st.text(min_size=0, max_size=10).map(lambda v: quote(v, safe=""))
hosts = st.sampled_from(
    [
        "example.com",
        "www.amazon.de",
        "www.youtube.com",
        "x.com",
        "github.com",
        "sub.example.org",
    ]
)


@st.composite
def urls(draw, names=plain_names):
    pairs = draw(st.lists(st.tuples(names, values), max_size=6))
    query = "&".join(f"{quote(n, safe='[]')}={v}" for n, v in pairs)
    fragment = draw(st.one_of(st.none(), st.text(string.ascii_letters + "=&?", max_size=8)))
    url = f"https://{draw(hosts)}/path/x"
    if pairs or draw(st.booleans()):
        url += "?" + query
    if fragment is not None:
        url += "#" + fragment
    return url


@settings(max_examples=300)
@given(urls(names=st.one_of(plain_names, tracking_names)))
def test_stripping_is_idempotent(url: str) -> None:
    once = strip_tracking(url)
    assert strip_tracking(once) == once
    assert url_for_fetch(url_for_fetch(url)) == url_for_fetch(url)


@settings(max_examples=300)
@given(urls())
def test_never_touches_urls_without_tracking(url: str) -> None:
    assert strip_tracking(url) == url


@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.one_of(plain_names, tracking_names), values), max_size=8),
    st.sampled_from(["example.com", "docs.example.org"]),
)
def test_keeps_exactly_the_non_tracking_pairs_in_order(pairs, host) -> None:
    pieces = [f"{quote(n, safe='[]')}={v}" for n, v in pairs]
    url = f"https://{host}/p?" + "&".join(pieces)
    out = strip_tracking(url)
    kept = [p for (n, _), p in zip(pairs, pieces, strict=True) if _plainly_not_tracking(n)]
    _, _, query = out.partition("?")
    assert (query.split("&") if query else []) == kept
    for name, _ in pairs:
        if not _plainly_not_tracking(name):
            assert f"{quote(name, safe='[]')}=" not in ("&" + query)


# -- the core against the pure-Python implementation it replaced -----------------------------
# The rules moved to the Rust core (rust/extract/src/tracking.rs); this is the Python code that
# applied them before, kept as the reference the core must agree with.


def _reference_strip(url: str, extra: tuple[str, ...] = ()) -> str:
    def compile_rules(rules):
        exact, prefixes = set(), []
        for rule in rules:
            rule = rule.strip().lower()
            if rule.endswith("*"):
                prefixes.append(rule[:-1])
            elif rule:
                exact.add(rule)
        return lambda name: name in exact or any(name.startswith(p) for p in prefixes if p)

    def is_amazon(host):
        labels = host.split(".")
        for i, label in enumerate(labels):
            if label == "amazon":
                rest = labels[i + 1 :]
                return 1 <= len(rest) <= 2 and all(0 < len(x) <= 3 for x in rest)
        return False

    try:
        host = (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        host = ""
    checks = [compile_rules(TRACKING_PARAMS), compile_rules(extra)]
    for domain, rules in DOMAIN_TRACKING_PARAMS.items():
        if host and (
            is_amazon(host)
            if domain == "amazon.*"
            else host == domain or host.endswith("." + domain)
        ):
            checks.append(compile_rules(rules))
    rest, hash_, fragment = url.partition("#")
    base, _, query = rest.partition("?")
    if not query:
        return url
    kept, removed = [], False
    for piece in query.split("&"):
        name = unquote_plus(piece.partition("=")[0]).lower()
        if name and any(check(name) for check in checks):
            removed = True
        else:
            kept.append(piece)
    if not removed:
        return url
    new_query = "&".join(p for p in kept if p)
    return base + ("?" + new_query if new_query else "") + ("#" + fragment if hash_ else "")


_odd_names = st.text(string.ascii_letters + "_%+-.[]5fFİK\u212a ", max_size=10)
_odd_hosts = st.sampled_from(
    [
        "example.com",
        "WWW.Amazon.CO.UK.",
        "m.youtube.com",
        "youtu.be",
        "x.com",
        "x.com.evil.test",
        "amazon.example.info",
        "user:pw@smile.amazon.de:8443",
        "[::1]:8080",
        "[::1",
        "",
        "shop.ebay.com",
        "lnkd.linkedin.com",
        "tiktok.com",
    ]
)


@settings(max_examples=500)
@given(
    st.sampled_from(["https://", "HTTP://", "//", "", "mailto:", "whatsapp://"]),
    _odd_hosts,
    st.lists(
        st.tuples(
            st.one_of(
                _odd_names,
                tracking_names,
                st.sampled_from(
                    ["si", "ref", "t", "S", "tag", "pd_rd_w", "__cft__[0]", "Session_Ref", "cmp_x"]
                ),
            ),
            values,
        ),
        max_size=6,
    ),
    st.sampled_from(["", "&", "&&", "=", "?"]),
    st.one_of(st.none(), st.text(string.ascii_letters + "=&?#", max_size=6)),
    st.sampled_from([(), ("session_ref", " CMP_* ", "*", "")]),
)
def test_core_agrees_with_the_python_reference(scheme, host, pairs, glue, fragment, extra):
    url = f"{scheme}{host}/p?" + glue.join(f"{n}={v}" for n, v in pairs)
    if fragment is not None:
        url += "#" + fragment
    assert strip_tracking(url, extra) == _reference_strip(url, extra), url


def test_strip_returns_the_same_object_when_nothing_changes() -> None:
    url = "https://example.com/a?q=1"
    assert strip_tracking(url) is url
    assert tracking_rules(("x",)) is tracking_rules(("x",))  # compiled once per rule list
