"""``webgrip.crawl`` against loopback sites: the page cap, one request per page, robots.txt,
depth, traps (calendars, session ids), redirects, refused addresses, seeds and resuming."""

from __future__ import annotations

import gzip
import socket
import threading
from collections import Counter
from collections.abc import Callable

import pytest
import webgrip
from helpers.loopback import RawServer, loopback_config, reply
from helpers.siteserver import Reply, Request, SiteServer
from webgrip.robots import RobotsRules
from webgrip.sites.crawl import Crawler
from webgrip.sites.crawl_run import run_crawl
from webgrip.sites.frontier import path_pattern

# Requests a crawl makes that are not page requests.
_NOT_PAGES = {"/robots.txt", "/sitemap.xml", "/llms.txt", "/llms-full.txt", "/sitemap.xml.gz"}


class _Routes(dict):
    """Exact routes first, then ``fallback(request_path)`` (a whole generated site)."""

    def __init__(self, fallback: Callable[[str], Reply | None]):
        super().__init__()
        self._fallback = fallback

    def get(self, path, default=None):
        if path in self:
            return self[path]
        reply = self._fallback(path)
        return (lambda req: reply) if reply is not None else default


def _html(title: str, links: list[str], body: str = "") -> bytes:
    anchors = "".join(f'<li><a href="{href}">link {href}</a></li>' for href in links)
    text = body or (
        f"<p>{title}: a page of the test site with enough words to read as content, "
        f"different on every page because it names {title}.</p>"
    )
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
        f"{text}<ul>{anchors}</ul></main></body></html>"
    ).encode()


def _site(fallback: Callable[[str], Reply | None]) -> SiteServer:
    site = SiteServer()
    site.routes = _Routes(fallback)
    return site


def _page_hits(site: SiteServer) -> Counter[str]:
    with site._lock:
        requests = list(site.requests)
    return Counter(
        r.path + (f"?{r.query}" if r.query else "") for r in requests if r.path not in _NOT_PAGES
    )


def _grid(n: int) -> Callable[[str], Reply | None]:
    """Pages /p0 ... /p{n-1}, each linking to the next five and to the start."""

    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", [f"/p{i}" for i in range(5)]))
        if path.startswith("/p") and path[2:].isdigit() and int(path[2:]) < n:
            i = int(path[2:])
            return Reply(
                body=_html(f"page {i}", ["/", *(f"/p{j % n}" for j in range(i + 1, i + 6))])
            )
        return None

    return make


def _crawl(site: SiteServer, path: str = "/", **options) -> list:
    options.setdefault("config", loopback_config())
    return list(webgrip.crawl(site.url(path), **options))


def test_the_page_cap_holds_at_the_server_whatever_the_concurrency():
    with _site(_grid(300)) as site:
        results = _crawl(site, max_pages=25, max_depth=50, concurrency=16)
        hits = _page_hits(site)
    assert len(results) == 25
    assert sum(hits.values()) == 25
    assert all(r.ok for r in results)


def test_each_page_is_requested_once_whatever_its_spellings():
    def make(path: str) -> Reply | None:
        if path == "/" or (path.startswith("/p") and path[2:].isdigit() and int(path[2:]) < 20):
            spellings = []
            for i in range(20):
                spellings += [f"/p{i}", f"/p{i}?utm_source=feed", f"/p{i}#part", f"/p{i}?fbclid=x"]
            return Reply(body=_html(path, spellings))
        return None

    with _site(make) as site:
        results = _crawl(site, max_pages=200, concurrency=8)
        hits = _page_hits(site)
    assert {r.url.rsplit("/", 1)[1] for r in results} == {"", *(f"p{i}" for i in range(20))}
    assert max(hits.values()) == 1
    assert sum(hits.values()) == 21


def test_depth_counts_link_hops_from_the_start_page():
    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", ["/d1"]))
        if path.startswith("/d") and path[2:].isdigit():
            n = int(path[2:])
            return Reply(body=_html(f"depth {n}", [f"/d{n + 1}"]))
        return None

    with _site(make) as site:
        results = _crawl(site, max_pages=100, max_depth=3)
        hits = _page_hits(site)
    assert sorted((r.depth, r.url.rsplit("/", 1)[1]) for r in results) == [
        (0, ""),
        (1, "d1"),
        (2, "d2"),
        (3, "d3"),
    ]
    assert "/d4" not in hits


def test_robots_txt_is_obeyed_by_default_and_its_crawl_delay_read():
    robots = b"User-agent: *\nDisallow: /private\nCrawl-delay: 0.01\n"

    def make(path: str) -> Reply | None:
        if path == "/robots.txt":
            return Reply(body=robots, content_type="text/plain")
        if path in ("/", "/open", "/private", "/private/deep"):
            return Reply(body=_html(path, ["/open", "/private", "/private/deep"]))
        return None

    with _site(make) as site:
        results = _crawl(site, max_pages=50)
        hits = _page_hits(site)
        assert not any(p.startswith("/private") for p in hits)
        assert {r.url.rsplit("/", 1)[1] for r in results} == {"", "open"}
        # Turned off on purpose, the disallowed paths are read too.
        results = _crawl(site, max_pages=50, respect_robots=False)
        assert {r.url.rsplit("/", 1)[1] for r in results} >= {"private", "deep"}
    rules = RobotsRules.parse(robots.decode())
    assert rules.crawl_delay("webgrip") == 0.01
    assert RobotsRules.parse("User-agent: *\nCrawl-delay: nan\n").crawl_delay("x") is None


def test_an_endless_calendar_is_bounded_by_its_path_pattern():
    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", ["/calendar/2030/1", "/about"]))
        if path == "/about":
            return Reply(body=_html("about", ["/"]))
        parts = path.split("/")
        if len(parts) == 4 and parts[1] == "calendar" and parts[2].isdigit():
            year, month = int(parts[2]), int(parts[3])
            nxt = (year + month // 12, month % 12 + 1)
            prev = (year - (month == 1), (month - 2) % 12 + 1)
            links = [f"/calendar/{nxt[0]}/{nxt[1]}", f"/calendar/{prev[0]}/{prev[1]}"]
            return Reply(body=_html(f"calendar {year}-{month}", links))
        return None

    with _site(make) as site:
        results = _crawl(site, max_pages=500, max_depth=1000, max_per_pattern=12)
        hits = _page_hits(site)
    calendar = [p for p in hits if p.startswith("/calendar/")]
    assert len(calendar) == 12
    assert "/about" in hits
    assert len(results) == 14


def test_session_id_duplicates_are_not_expanded_again():
    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", ["/list"]))
        if path == "/list":
            return Reply(body=_html("list", ["/item"]))
        if path == "/item":  # links back to itself under a new session id every time
            return None
        return None

    counter = [0]

    def item(req: Request) -> Reply:
        counter[0] += 1
        return Reply(body=_html("item", [f"/item?sid={counter[0]}"]))

    with _site(make) as site:
        site.routes["/item"] = item
        results = _crawl(site, max_pages=100, max_depth=50)
    items = [r for r in results if "/item" in r.url]
    assert len(items) == 2  # the first, and one session-id copy whose links are not followed
    assert [r.duplicate for r in items] == [False, True]


def test_redirects_resolve_to_one_row_and_loops_and_off_site_ones_are_errors():
    # Another site: another loopback address (the scope ignores ports, not hosts).
    other = RawServer(reply(200, _html("elsewhere", [])), host="127.0.0.3")

    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", ["/old", "/new", "/loop", "/away"]))
        if path == "/old":
            return Reply(301, headers={"Location": "/new"})
        if path == "/new":
            return Reply(body=_html("new", []))
        if path == "/loop":
            return Reply(302, headers={"Location": "/loop2"})
        if path == "/loop2":
            return Reply(302, headers={"Location": "/loop"})
        if path == "/away":
            return Reply(302, headers={"Location": other.url("/")})
        return None

    with _site(make) as site, other:
        results = _crawl(site, max_pages=50, concurrency=1)
        hits = _page_hits(site)
    by_path = {r.url.rsplit("/", 1)[1]: r for r in results}
    # /old and /new are one page: one of them is its row, and /new was requested once at most.
    assert ("old" in by_path) != ("new" in by_path)
    assert hits["/new"] == 1
    assert by_path["loop"].error is not None
    assert by_path["away"].error is not None
    assert by_path["away"].error.reason == "off-site-redirect"


def test_a_link_to_a_refused_address_is_never_connected_to():
    tripwire = socket.socket()
    tripwire.bind(("127.0.0.2", 0))
    tripwire.listen(8)
    tripwire.settimeout(0.05)
    refused = f"http://127.0.0.2:{tripwire.getsockname()[1]}/secret"
    connections = []

    def watch(stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                conn, _ = tripwire.accept()
            except TimeoutError:
                continue
            connections.append(conn)

    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", ["/go", refused]))
        if path == "/go":
            return Reply(302, headers={"Location": refused})
        return None

    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(stop,), daemon=True)
    watcher.start()
    try:
        with _site(make) as site:
            # Only 127.0.0.1 is opened: 127.0.0.2 stays refused as the default policy says.
            config = loopback_config(allow_networks=("127.0.0.1/32",))
            results = _crawl(site, max_pages=20, config=config, subdomains=True)
    finally:
        stop.set()
        watcher.join()
        tripwire.close()
    assert connections == []
    go = next(r for r in results if r.url.endswith("/go"))
    assert isinstance(go.error, webgrip.BlockedURLError)
    assert go.error.reason == "loopback-address"


def test_sitemap_urls_are_seeds_at_depth_one():
    sitemap = (
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>{}</loc></url></urlset>"
    )

    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(body=_html("start", []))
        if path == "/orphan":
            return Reply(body=_html("orphan", ["/orphan-child"]))
        if path == "/orphan-child":
            return Reply(body=_html("orphan child", []))
        return None

    with _site(make) as site:
        site.routes["/sitemap.xml"] = lambda req: Reply(
            body=sitemap.format(site.url("/orphan")).encode(), content_type="application/xml"
        )
        results = _crawl(site, max_pages=10)
        unseeded = _crawl(site, max_pages=10, sitemap=False)
    depths = {r.url.rsplit("/", 1)[1]: (r.depth, r.source) for r in results}
    assert depths["orphan"] == (1, "sitemap")
    assert depths["orphan-child"] == (2, "link")
    assert [r.url.rsplit("/", 1)[1] for r in unseeded] == [""]


def test_include_and_exclude_globs_on_the_path():
    def make(path: str) -> Reply | None:
        links = ["/docs/a", "/docs/b", "/docs/old/c", "/blog/d"]
        if path == "/" or path in links:
            return Reply(body=_html(path, links))
        return None

    with _site(make) as site:
        results = _crawl(site, max_pages=20, include=["/docs/*"], exclude=["/docs/old/*"])
    assert sorted(r.url.split("/", 3)[3] for r in results) == ["", "docs/a", "docs/b"]


def test_a_rerun_on_the_same_folder_goes_on_without_fetching_again(tmp_path):
    with _site(_grid(60)) as site:
        first = run_crawl(
            site.url("/"), tmp_path, max_pages=10, max_depth=50, config=loopback_config()
        )
        second = run_crawl(
            site.url("/"), tmp_path, max_pages=30, max_depth=50, config=loopback_config()
        )
        hits = _page_hits(site)
    assert first["pages"] == 10
    assert second["pages"] == 20 and second["skipped"] == 10
    assert sum(hits.values()) == 30 and max(hits.values()) == 1
    rows = (tmp_path / "rows.jsonl").read_text().splitlines()
    assert len(rows) == 30
    with pytest.raises(ValueError, match="holds a crawl of"):
        run_crawl("http://127.0.0.1:1/", tmp_path, max_pages=5, config=loopback_config())


def test_the_library_crawler_stops_leasing_when_asked():
    with _site(_grid(200)) as site:
        crawler = Crawler(site.url("/"), max_pages=200, max_depth=50, config=loopback_config())
        stop = threading.Event()
        taken = []
        requested_by_the_stop = 0
        with crawler:
            for item in crawler.run(stop=stop):
                if item is not None:
                    taken.append(item)
                    if len(taken) == 5:
                        stop.set()
                        requested_by_the_stop = sum(_page_hits(site).values())
        hits = _page_hits(site)
    # Every page requested is yielded: the ones in flight when it stopped finish, and so do
    # the ones done while the caller was still reading the first five (results wait for a
    # slow caller). After the stop, each of the crawl's threads sends at most the one request
    # it had leased; nothing after them is requested.
    assert len(taken) >= 5
    assert sum(hits.values()) == len(taken)
    assert sum(hits.values()) <= requested_by_the_stop + crawler.concurrency


def test_path_patterns_ignore_digits_and_query_values():
    assert path_pattern("/calendar/2031/07/14", "view=day") == path_pattern(
        "/calendar/1999/12/1", "view=week"
    )
    assert path_pattern("/docs/intro", "") != path_pattern("/docs/install", "")
    assert path_pattern("/a", "b=1&c=2") == path_pattern("/a", "c=9&b=3")


def test_a_gzip_body_is_a_page_not_a_bomb():
    # A page sent gzip-encoded reads as any page (the core decodes within its caps).
    def make(path: str) -> Reply | None:
        if path == "/":
            return Reply(
                body=gzip.compress(_html("zipped", [])), headers={"Content-Encoding": "gzip"}
            )
        return None

    with _site(make) as site:
        results = _crawl(site, max_pages=5)
    assert results[0].ok and "zipped" in results[0].page.content


def test_links_to_images_media_and_archives_are_not_pages():
    def make(path: str) -> Reply | None:
        if path == "/":
            links = ["/photo.JPG", "/song.mp3", "/pack.tar.gz", "/paper.pdf", "/notes.txt"]
            return Reply(body=_html("start", [*links, "/.hidden", "/v1.2/docs"]))
        if path in ("/paper.pdf", "/notes.txt", "/.hidden", "/v1.2/docs"):
            return Reply(body=b"plain words of a document", content_type="text/plain")
        return None

    with _site(make) as site:
        _crawl(site, max_pages=20)
        hits = _page_hits(site)
    assert set(hits) == {"/", "/paper.pdf", "/notes.txt", "/.hidden", "/v1.2/docs"}


def test_a_start_page_robots_txt_disallows_is_an_error_row_and_not_requested():
    def make(path: str) -> Reply | None:
        if path == "/robots.txt":
            return Reply(body=b"User-agent: *\nDisallow: /\n", content_type="text/plain")
        return Reply(body=_html(path, ["/a"]))

    with _site(make) as site:
        results = _crawl(site, max_pages=5)
        hits = _page_hits(site)
    assert hits == Counter()
    assert [r.error.reason for r in results] == ["robots-txt"]
