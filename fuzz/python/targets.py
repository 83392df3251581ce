"""Coverage-guided fuzz targets for webgrip's Python parsers (atheris, libFuzzer inside).

    python fuzz/python/targets.py TARGET [libFuzzer arguments] [corpus dirs]

Targets: ``robots`` (robots.txt parsing and matching), ``filename`` (Content-Disposition and
the download file name), ``duckduckgo`` (both result page layouts), ``providers`` (the JSON
answers of Brave, Google, SearXNG and Tavily). Each checks the parser's contract: only the
documented exceptions, and the invariants of what it returns.
"""

from __future__ import annotations

import re
import sys
import unicodedata

import atheris

with atheris.instrument_imports(include=["webgrip"]):
    from webgrip import downloads, robots
    from webgrip._jsonsafe import loads
    from webgrip.errors import SearchError
    from webgrip.search import brave, duckduckgo, google, searxng, tavily


# -- robots.txt ----------------------------------------------------------------------------
def _regex_matches(pattern: str, path: str) -> bool:
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(piece) for piece in body.split("*"))
    return re.match(regex + ("$" if anchored else ""), path, flags=re.DOTALL) is not None


def robots_target(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    url = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 300))
    agent = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 20))
    text = fdp.ConsumeBytes(fdp.remaining_bytes()).decode("utf-8", errors="replace")
    rules = robots.RobotsRules.parse(text)
    try:
        robots._split(url)
    except ValueError:
        return  # RobotsCache.check raises InvalidURLError for these (tests/client/test_robots.py)
    for token in (agent, "webgrip", "*"):
        allowed = rules.can_fetch(token, url)
        assert isinstance(allowed, bool)
    # robots.txt itself is always readable, whatever the rules say.
    assert rules.can_fetch("webgrip", "https://example.com/robots.txt")
    # Differential: the linear wildcard matcher against a regex, on patterns with few enough
    # `*` for backtracking to stay cheap.
    for _, group in rules.groups:
        for _, pattern in group:
            if pattern.count("*") <= 3:
                path = url[:200]
                assert robots._matches(pattern, path) is _regex_matches(pattern, path), pattern
    if url.lower().startswith(("http://", "https://")):
        robots._origin(url)


# -- Content-Disposition and the file name ---------------------------------------------------
def _check_name(name: str) -> None:
    assert name, "empty name"
    assert name not in (".", ".."), name
    assert not name.startswith("."), f"hidden file {name!r}"
    assert len(name.encode("utf-8")) <= downloads.MAX_NAME_BYTES, f"{len(name)} chars"
    for ch in name:
        assert ch not in downloads._UNSAFE, f"{ch!r} in {name!r}"
        cat = unicodedata.category(ch)
        assert cat[0] != "C" and cat not in ("Zl", "Zp"), f"{ch!r} ({cat}) in {name!r}"
    assert name == name.strip(" "), f"padded name {name!r}"
    stem = name.partition(".")[0].rstrip(" ").upper()
    assert stem not in downloads._RESERVED, f"device name {name!r}"


def filename_target(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    pick = fdp.ConsumeIntInRange(0, 3)
    given = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 300)) if pick == 0 else None
    content_type = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 60))
    url = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 400))
    disposition = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    proposed = downloads.filename_from_content_disposition(disposition)
    assert proposed is None or (isinstance(proposed, str) and proposed)
    name = downloads.choose_filename(
        given, content_disposition=disposition, url=url, content_type=content_type
    )
    _check_name(name)
    _check_name(downloads.sanitize_filename(disposition))


# -- DuckDuckGo result pages --------------------------------------------------------------
def duckduckgo_target(data: bytes) -> None:
    layout, markup = data[:1], data[1:].decode("utf-8", errors="replace")
    parse = duckduckgo.parse_lite_page if layout == b"l" else duckduckgo.parse_html_page
    try:
        results = parse(markup)
    except SearchError:
        return  # the documented outcomes: bot check, unrecognised page
    assert len(results) <= duckduckgo.MAX_PAGE_RESULTS
    for i, r in enumerate(results, 1):
        assert r.position == i
        assert r.url.startswith(("http://", "https://")), r.url
        assert not duckduckgo.is_ad_url(r.url), r.url


# -- JSON providers -------------------------------------------------------------------------
_KEYS = ["web", "results", "items", "title", "url", "link", "description", "snippet",
         "content", "error", "detail", "code", "message", "query", "answer"]


def _value(fdp: atheris.FuzzedDataProvider, depth: int) -> object:
    """A JSON value drawn from the input, leaning on the keys the parsers read."""
    kind = fdp.ConsumeIntInRange(0, 7 if depth < 6 else 4)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.ConsumeInt(4)
    if kind == 3:
        return fdp.ConsumeRegularFloat()
    if kind == 4:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40))
    if kind == 5:
        return [_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    return {
        (_KEYS[fdp.ConsumeIntInRange(0, len(_KEYS) - 1)] if fdp.ConsumeBool()
         else fdp.ConsumeUnicodeNoSurrogates(4)): _value(fdp, depth + 1)
        for _ in range(fdp.ConsumeIntInRange(0, 5))
    }


def providers_target(data: bytes) -> None:
    if data[:1] in (b"{", b"["):
        try:
            value = loads(data.decode("utf-8-sig"))
        except ValueError:
            return  # decode_json turns this into a SearchError before any parser runs
    else:
        value = _value(atheris.FuzzedDataProvider(data), 0)
    for provider in (brave, google, searxng, tavily):
        try:
            results = provider.parse_response(value)
        except SearchError:
            continue  # bad_shape: the documented refusal
        for i, r in enumerate(results, 1):
            assert r.position == i
            assert isinstance(r.url, str) and isinstance(r.title, str)
            assert isinstance(r.snippet, str)


TARGETS = {
    "robots": robots_target,
    "filename": filename_target,
    "duckduckgo": duckduckgo_target,
    "providers": providers_target,
}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer arguments]")
    target = TARGETS[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
