"""The in-memory page cache is bounded by bytes, and big hostile bodies stay cheap to convert.

Pages are served on loopback by :class:`SiteServer`; whether a page came from the cache is
read from the server's hit count (``use_cache=True`` is what paging in ``fetch_page`` uses).
"""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer
from webgrip import Config, WebClient

ASTRAL = "\U0001f600"  # one of these makes CPython store the whole str at 4 bytes a char


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


def _serve_html(site: SiteServer, path: str, chars: int, *, astral: bool = False) -> str:
    """Route ``path`` to an HTML page of about ``chars`` characters (``extract="html"`` keeps
    it whole as the page's content)."""
    text = "<html><body><p>" + "word " * (chars // 5) + (ASTRAL if astral else "") + "</p>"
    return site.route(path, lambda req: Reply(body=text.encode()))


def _hits(site: SiteServer, path: str) -> int:
    return len(site.hits(path))


def test_cache_evicts_by_bytes_with_strings_at_their_real_width(site):
    # 60k characters: ~60 KB as ASCII, ~240 KB once one astral character widens the str.
    wide = _serve_html(site, "/wide", 60_000, astral=True)
    narrow = _serve_html(site, "/narrow", 60_000)
    config = loopback_config(page_cache_bytes=200_000, page_cache_size=32)
    with WebClient(config) as client:
        client.fetch(narrow, extract="html")
        client.fetch(wide, extract="html")  # too big to share the budget: not kept
        client.fetch(narrow, extract="html", use_cache=True)
        client.fetch(wide, extract="html", use_cache=True)
    assert _hits(site, "/narrow") == 1  # still cached: the wide page did not evict it
    assert _hits(site, "/wide") == 2


def test_least_recently_used_pages_go_when_the_budget_is_spent(site):
    urls = [_serve_html(site, f"/p{i}", 40_000) for i in range(4)]  # ~40 KB each
    config = loopback_config(page_cache_bytes=100_000, page_cache_size=32)
    with WebClient(config) as client:
        for url in urls:
            client.fetch(url, extract="html")
        for url in urls:
            client.fetch(url, extract="html", use_cache=True)
    # Only the last two fit in 100 KB; reading p0 and p1 again evicted p2 and p3 in turn.
    assert [_hits(site, f"/p{i}") for i in range(4)] == [2, 2, 2, 2]
    with WebClient(config) as client:
        for url in urls:
            client.fetch(url, extract="html")
        client.fetch(urls[3], extract="html", use_cache=True)
        client.fetch(urls[2], extract="html", use_cache=True)
    assert [_hits(site, f"/p{i}") for i in range(4)] == [3, 3, 3, 3]


def test_a_page_larger_than_the_budget_is_not_cached(site):
    big = _serve_html(site, "/big", 50_000)
    small = _serve_html(site, "/small", 1_000)
    config = loopback_config(page_cache_bytes=20_000)
    with WebClient(config) as client:
        client.fetch(small, extract="html")
        client.fetch(big, extract="html")
        client.fetch(big, extract="html", use_cache=True)
        client.fetch(small, extract="html", use_cache=True)
    assert _hits(site, "/big") == 2
    assert _hits(site, "/small") == 1


def test_the_default_budget_caches_ordinary_pages(site):
    url = _serve_html(site, "/page", 50_000, astral=True)
    with WebClient(loopback_config()) as client:
        for extract in ("html", "markdown", "links"):
            client.fetch(url, extract=extract)
            client.fetch(url, extract=extract, use_cache=True)
    assert _hits(site, "/page") == 3


def test_a_zero_budget_disables_the_cache(site):
    url = _serve_html(site, "/page", 100)
    with WebClient(loopback_config(page_cache_bytes=0)) as client:
        client.fetch(url, extract="html")
        client.fetch(url, extract="html", use_cache=True)
    assert _hits(site, "/page") == 2


def test_the_budget_is_read_from_file_and_environment(tmp_path: Path):
    assert Config().page_cache_bytes == 64 * 1024 * 1024
    file = tmp_path / "webgrip.toml"
    file.write_text("page_cache_bytes = 1048576\n[profiles.tight]\npage_cache_bytes = 4096\n")
    assert Config.load(file, env={}).page_cache_bytes == 1048576
    assert Config.load(file, "tight", env={}).page_cache_bytes == 4096
    assert Config.from_env({"WEBGRIP_PAGE_CACHE_BYTES": "123"}).page_cache_bytes == 123
    with pytest.raises(ValueError, match="page_cache_bytes"):
        Config(page_cache_bytes=-1)


def test_pages_held_stay_within_the_budget_in_memory(site):
    # Twelve ~2 MiB pages (512k characters with one astral each): 24 MiB if the cache kept
    # them all, as a count-bounded cache of 32 does.
    urls = [_serve_html(site, f"/a{i}", 512 * 1024, astral=True) for i in range(12)]
    config = loopback_config(page_cache_bytes=6 * 1024 * 1024)
    with WebClient(config) as client:
        gc.collect()
        tracemalloc.start()
        try:
            for url in urls:
                client.fetch(url, extract="html")
            gc.collect()
            held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert held < 9 * 1024 * 1024, f"{held / 2**20:.1f} MiB still held"


def test_a_huge_json_array_is_not_multiplied_in_memory(site):
    # 10 MiB of `{},`: parsed and re-indented it took ~360 MiB (a dict per 3 bytes, and the
    # pure-Python indenting encoder's chunks). Python allocations are traced (not RSS, which
    # the allocator's reuse makes vary from run to run): the body as bytes and as text remain.
    body = ("[" + ",".join(["{}"] * (10 * 2**20 // 3)) + "]").encode()
    site.route("/big.json", lambda req: Reply(body=body, content_type="application/json"))
    config = loopback_config(max_response_bytes=16 * 2**20, timeout=60)
    with WebClient(config) as client:
        gc.collect()
        tracemalloc.start()
        try:
            page = client.fetch(site.url("/big.json"))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 6 * len(body), f"peak {peak / 2**20:.0f} MiB for a 10 MiB body"
    assert page.content.startswith("[{},{}")  # passed through as sent
