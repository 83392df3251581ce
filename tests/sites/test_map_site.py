"""``map_site`` against a loopback site: sitemap indexes, nested and gzip sitemaps, a text
sitemap, robots.txt rules and ``Sitemap:`` lines, llms.txt, the start page's links, tracking
duplicates and links to refused addresses. Every request the map makes is looked at."""

from __future__ import annotations

import asyncio

import pytest
import webgrip
from helpers.loopback import loopback_config
from helpers.sitemap_sites import gz, index, urlset
from helpers.siteserver import Reply, SiteServer, page
from webgrip import AsyncWebClient, BlockedURLError, Config, WebClient
from webgrip.sites import SiteScope, canonical


def serve(body: bytes, media: str = "application/xml", **headers: str):
    return lambda req: Reply(body=body, content_type=media, headers=headers)


START = """<!doctype html><html><head><title>The start page</title></head><body>
<a href="/i">Link I</a> <a href="/a?utm_medium=email#top">A again</a>
<a href="http://169.254.169.254/latest/meta-data/">metadata</a>
<a href="http://10.0.0.1/admin">intranet</a> <a href="https://elsewhere.example/">off</a>
</body></html>"""


def build(site: SiteServer) -> str:
    """The test site; returns its origin."""
    o = site.url("")
    robots = (
        "User-agent: *\nDisallow: /private/\n\n"
        f"Sitemap: {o}/index.xml\nSitemap: {o}/text-sitemap.txt\n"
    )
    site.route("/robots.txt", serve(robots.encode(), "text/plain"))
    site.route(
        "/index.xml", serve(index([f"{o}/pages.xml", f"{o}/nested.xml", f"{o}/posts.xml.gz"]))
    )
    site.route(
        "/pages.xml",
        serve(
            urlset(
                [
                    f"{o}/a",
                    f"{o}/b?utm_source=feed&id=2",
                    f"{o}/private/secret",
                    "http://10.0.0.1/admin",
                    "https://other.example/x",
                    f"{o}/a#section",
                    f"HTTP://127.0.0.1:{site.port}/b?id=2",
                ]
            )
        ),
    )
    site.route("/nested.xml", serve(index([f"{o}/deep.xml", f"{o}/index.xml"])))
    site.route("/deep.xml", serve(urlset([f"{o}/c"])))
    site.route("/posts.xml.gz", serve(gz(urlset([f"{o}/d", f"{o}/e"])), "application/gzip"))
    site.route("/text-sitemap.txt", serve(f"{o}/f\n  {o}/g  \nnot a url\n".encode(), "text/plain"))
    llms = "# Test site\n> For tests.\n## Docs\n- [Page H](/h): notes on h\n- [Page A](/a)\n"
    site.route("/llms.txt", serve(llms.encode(), "text/markdown"))
    site.route("/start", page(START))
    return o


def test_the_map_lists_every_source_once_and_only_the_site(tmp_path):
    with SiteServer() as site:
        o = build(site)
        found = webgrip.map_site(f"{o}/start", config=loopback_config())
        # The start page, the sitemaps breadth first (robots.txt's two, then the index's
        # three, then the nested one's), llms.txt, the start page's links.
        assert [m.url for m in found] == [
            f"{o}/start",
            f"{o}/f",
            f"{o}/g",
            f"{o}/a",
            f"{o}/b?id=2",
            f"{o}/d",
            f"{o}/e",
            f"{o}/c",
            f"{o}/h",
            f"{o}/i",
        ]
        by_url = {m.url: m for m in found}
        assert by_url[f"{o}/start"].title == "The start page"
        assert by_url[f"{o}/start"].source == "start"
        assert (by_url[f"{o}/a"].source, by_url[f"{o}/a"].title) == ("sitemap", "Page A")
        assert (by_url[f"{o}/h"].source, by_url[f"{o}/h"].title) == ("llms.txt", "Page H")
        assert (by_url[f"{o}/i"].source, by_url[f"{o}/i"].title) == ("links", "Link I")
        assert by_url[f"{o}/d"].title is None
        assert (f"{o}/private/secret", "robots.txt disallows it") in found.skipped
        assert set(found.sitemaps) == {
            f"{o}/index.xml",
            f"{o}/text-sitemap.txt",
            f"{o}/pages.xml",
            f"{o}/nested.xml",
            f"{o}/posts.xml.gz",
            f"{o}/deep.xml",
        }
        # Only the map's own files were asked for, each once (the index named twice, the
        # listed pages never).
        asked = [r.path for r in site.requests]
        assert sorted(asked) == sorted(
            [
                "/robots.txt",
                "/index.xml",
                "/text-sitemap.txt",
                "/pages.xml",
                "/nested.xml",
                "/posts.xml.gz",
                "/deep.xml",
                "/sitemap.xml",
                "/llms.txt",
                "/llms-full.txt",
                "/start",
            ]
        )


def test_without_robots_the_disallowed_paths_are_listed():
    with SiteServer() as site:
        o = build(site)
        with WebClient(loopback_config()) as client:
            found = client.map_site(f"{o}/start", respect_robots=False)
        assert f"{o}/private/secret" in [m.url for m in found]
        assert not [s for s in found.skipped if s[1] == "robots.txt disallows it"]


def test_the_limit_holds():
    with SiteServer() as site:
        o = build(site)
        found = webgrip.map_site(f"{o}/start", limit=3, config=loopback_config())
        assert [m.url for m in found] == [f"{o}/start", f"{o}/f", f"{o}/g"]


def test_async_map_is_the_same():
    with SiteServer() as site:
        o = build(site)

        async def run():
            async with AsyncWebClient(loopback_config()) as client:
                return await client.map_site(f"{o}/start", limit=4)

        assert [m.url for m in asyncio.run(run())] == [
            f"{o}/start",
            f"{o}/f",
            f"{o}/g",
            f"{o}/a",
        ]


def test_a_refused_start_raises_and_sends_nothing():
    with SiteServer() as site:
        o = build(site)
        with pytest.raises(BlockedURLError) as caught:
            webgrip.map_site(f"{o}/start", config=Config(rate_limit_seconds=0))
        assert caught.value.reason == "loopback-address"
        assert site.requests == []


def test_sitemaps_on_refused_addresses_are_never_requested():
    with SiteServer() as site:
        o = site.url("")
        robots = f"Sitemap: http://10.0.0.1/sitemap.xml\nSitemap: {o}/index.xml\n"
        site.route("/robots.txt", serve(robots.encode(), "text/plain"))
        # An index naming a sitemap on a private address, on loopback's own site name.
        site.route(
            "/index.xml",
            serve(index(["http://192.168.1.1/s.xml", f"{o}/pages.xml"])),
        )
        site.route("/pages.xml", serve(urlset([f"{o}/a", "http://10.0.0.1/admin"])))
        site.route("/", page("<title>Home</title>"))
        found = webgrip.map_site(o + "/", config=loopback_config())
        assert [m.url for m in found] == [f"{o}/", f"{o}/a"]
        skipped = dict(found.skipped)
        assert skipped["http://10.0.0.1/sitemap.xml"].startswith("private-address")
        assert "another site" in skipped["http://192.168.1.1/s.xml"]


def test_a_failed_start_page_is_reported_and_the_sitemaps_still_read():
    with SiteServer() as site:
        o = site.url("")
        site.route("/sitemap.xml", serve(urlset([f"{o}/a", f"{o}/b"])))
        found = webgrip.map_site(f"{o}/gone", config=loopback_config())
        assert [m.url for m in found] == [f"{o}/a", f"{o}/b"]
        assert dict(found.skipped)[f"{o}/gone"].startswith("http-404")


def test_canonical_spellings_are_one_url():
    assert canonical("HTTP://Example.COM:80/a?utm_source=x&b=1#top") == "http://example.com/a?b=1"
    assert canonical("https://example.com") == "https://example.com/"
    assert canonical("https://example.com:8443/%7e?q=%2f") == "https://example.com:8443/%7E?q=%2F"
    assert canonical("https://example.com/?utm_source=x") == "https://example.com/"
    assert canonical("http://[::1]:80/") == "http://[::1]/"
    assert canonical("  not a url ") == "not a url"
    assert canonical("http://[::1/") == "http://[::1/"


@pytest.mark.parametrize(
    ("start", "url", "subdomains", "inside"),
    [
        ("https://example.com/", "https://www.example.com/a", False, True),
        ("https://www.example.com/", "http://example.com/a", False, True),
        ("https://example.com/", "https://docs.example.com/a", False, False),
        ("https://example.com/", "https://docs.example.com/a", True, True),
        ("https://docs.example.co.uk/", "https://api.example.co.uk/", True, True),
        ("https://a.github.io/", "https://b.github.io/", True, False),
        ("https://example.com/", "https://example.com.evil.test/", True, False),
        ("https://example.com/", "ftp://example.com/", False, False),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:9000/x", False, True),
        ("http://127.0.0.1/", "http://127.0.0.2/", True, False),
        ("https://example.com/", "http://example.com\\@evil.test/", True, True),
        ("https://evil.test/", "http://example.com\\@evil.test/", True, False),
    ],
)
def test_the_scope_is_the_site(start, url, subdomains, inside):
    assert SiteScope(start, subdomains=subdomains).contains(url) is inside


def test_the_scope_names_the_registrable_domain():
    assert SiteScope("https://a.b.example.co.uk/").site == "example.co.uk"
    assert SiteScope("http://127.0.0.1:8765/").site == "127.0.0.1"
    with pytest.raises(webgrip.InvalidURLError):
        SiteScope("mailto:someone@example.com")


def test_a_home_page_served_for_every_path_is_no_sitemap():
    with SiteServer() as site:
        o = site.url("")
        home = page("<title>Home</title><a href='/a'>A</a>")
        for path in ("/", "/sitemap.xml", "/llms.txt", "/llms-full.txt", "/robots.txt"):
            site.route(path, home)
        found = webgrip.map_site(o + "/", config=loopback_config())
        assert [(m.url, m.source) for m in found] == [(f"{o}/", "start"), (f"{o}/a", "links")]
        assert found.skipped == []
        assert found.sitemaps == []
