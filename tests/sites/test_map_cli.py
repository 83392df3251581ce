"""``webgrip map`` (one URL a line, ``--json``, the request flags, skipped files on stderr)
and ``webgrip llms-txt`` (an llms.txt written from the map and the pages' metadata)."""

from __future__ import annotations

import json

from helpers.sitemap_sites import ENTITY_BOMB, gz, index, urlset
from helpers.siteserver import Reply, SiteServer, page, run_webgrip
from webgrip.sites.llmstxt import parse_llms_txt


def serve(body: bytes, media: str = "application/xml"):
    return lambda req: Reply(body=body, content_type=media)


def article(title: str, about: str) -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>"
        f'<meta name="description" content="{about}"></head>'
        f"<body><main><h1>{title}</h1><p>{about} And more words about it.</p></main></body></html>"
    )


def build(site: SiteServer) -> str:
    o = site.url("")
    robots = f"User-agent: *\nDisallow: /drafts/\nSitemap: {o}/index.xml\nSitemap: {o}/bomb.xml\n"
    site.route("/robots.txt", serve(robots.encode(), "text/plain"))
    site.route("/index.xml", serve(index([f"{o}/docs.xml.gz"])))
    site.route(
        "/docs.xml.gz",
        serve(
            gz(urlset([f"{o}/docs/install", f"{o}/docs/usage", f"{o}/drafts/x"])),
            "application/gzip",
        ),
    )
    site.route("/bomb.xml", serve(ENTITY_BOMB))
    site.route("/llms.txt", serve(b"# Demo\n- [Using it](/docs/usage): how\n", "text/plain"))
    site.route(
        "/",
        page(
            '<!doctype html><html><head><title>Demo home</title><meta property="og:site_name" '
            'content="Demo Site"><meta name="description" content="A site for tests.">'
            '</head><body><a href="/blog/hello?utm_source=x">Hello post</a></body></html>'
        ),
    )
    site.route("/docs/install", page(article("Install", "How to install it.")))
    site.route("/docs/usage", page(article("Usage", "How to use it.")))
    site.route("/blog/hello", page(article("Hello", "The first post.")))
    return o


def test_map_prints_one_url_a_line_and_the_skipped_files_on_stderr():
    with SiteServer() as site:
        o = build(site)
        done = run_webgrip("map", o + "/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{o}/",
        f"{o}/docs/install",
        f"{o}/docs/usage",
        f"{o}/blog/hello",
    ]
    assert f"webgrip: skipped {o}/bomb.xml: an XML DTD" in done.stderr
    assert f"webgrip: skipped {o}/drafts/x: robots.txt disallows it" in done.stderr


def test_map_json_lines_and_flags():
    with SiteServer() as site:
        o = build(site)
        done = run_webgrip("map", o + "/", "--json", "--limit", "3", "--ignore-robots")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows == [
        {"url": f"{o}/", "title": "Demo home", "source": "start"},
        {"url": f"{o}/docs/install", "source": "sitemap"},
        {"url": f"{o}/docs/usage", "title": "Using it", "source": "sitemap"},
    ]


def test_map_of_a_refused_address_exits_3_and_sends_nothing():
    with SiteServer() as site:
        o = build(site)
        done = run_webgrip("map", o + "/", WEBGRIP_ALLOW_NETWORKS="")
        assert site.requests == []
    assert done.returncode == 3
    assert "--allow 127.0.0.0/8" in done.stderr
    assert done.stdout == ""


def test_map_of_a_site_without_pages_exits_1():
    with SiteServer() as site:
        done = run_webgrip("map", site.url("/nothing"))
    assert done.returncode == 1
    assert "no pages found" in done.stderr


def test_llms_txt_is_written_from_the_pages():
    with SiteServer() as site:
        o = build(site)
        done = run_webgrip("llms-txt", o + "/", "--limit", "10")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("# Demo Site\n\n> A site for tests.\n\n")
    doc = parse_llms_txt(text, o + "/")
    assert [(link.section, link.title, link.url, link.notes) for link in doc.links] == [
        ("Docs", "Install", f"{o}/docs/install", "How to install it."),
        ("Docs", "Usage", f"{o}/docs/usage", "How to use it."),
        ("Blog", "Hello", f"{o}/blog/hello", "The first post."),
    ]
    assert "- [Install](" + o + "/docs/install): How to install it.\n" in text
