"""Headers per client, per site and per call, and the cookie jar, on loopback "sites".

Two servers stand for two sites: one on 127.0.0.1 answering the names of ``site-a.test``
(``www.``, ``app.``, ``api.``) and of ``shop.site.co.uk``, one on 127.0.0.2 answering
``site-b.test``; ``Config.resolve`` points the names at them. Each server records every
request's host, path and headers, and answers from a table keyed by (host, path).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time

import pytest
from helpers.loopback import RawServer, http_response, loopback_config
from webgrip import Config, WebClient, tools
from webgrip.aio import AsyncWebClient
from webgrip.cache import PageCache

A_NAMES = (
    "www.site-a.test",
    "app.site-a.test",
    "api.site-a.test",
    "shop.site.co.uk",
    "other.site.co.uk",
)
B_NAMES = ("site-b.test",)

Response = bytes | list[tuple[str, str]]


class Site:
    """A server for some names: ``routes[(host, path)]`` is a response's bytes; it records
    ``(host, path, headers)`` of each request (header names lower-case)."""

    def __init__(self, address: str):
        self.routes: dict[tuple[str, str], bytes] = {}
        self.seen: list[tuple[str, str, dict[str, str]]] = []
        self.server = RawServer(self._handle, host=address)

    def _handle(self, conn, head: bytes) -> None:
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        host = headers.get("host", "").rsplit(":", 1)[0]
        self.seen.append((host, path, headers))
        conn.sendall(self.routes.get((host, path), http_response(404, b"no route")))

    def url(self, host: str, path: str) -> str:
        return f"http://{host}:{self.server.port}{path}"

    def sent(self, host: str, path: str, header: str) -> str | None:
        """The ``header`` of the last request for ``host`` and ``path`` (it must exist)."""
        for h, p, headers in reversed(self.seen):
            if (h, p) == (host, path):
                return headers.get(header)
        raise AssertionError(f"no request for {host}{path}; seen {[s[:2] for s in self.seen]}")


def page(
    body: bytes = b"<p>ok</p>",
    cookies: tuple[str, ...] = (),
    status: int = 200,
    location: str | None = None,
) -> bytes:
    headers = [("Content-Type", "text/html")] + [("Set-Cookie", c) for c in cookies]
    if location is not None:
        headers.append(("Location", location))
    return http_response(status, body, headers)


@pytest.fixture
def sites():
    a, b = Site("127.0.0.1"), Site("127.0.0.2")
    yield a, b
    a.server.close()
    b.server.close()


def site_config(sites, **changes) -> Config:
    del sites  # the servers' addresses are fixed: 127.0.0.1 and 127.0.0.2
    resolve = {name: ("127.0.0.1",) for name in A_NAMES}
    resolve.update({name: ("127.0.0.2",) for name in B_NAMES})
    return loopback_config(resolve=resolve, **changes)


# --- cookies -------------------------------------------------------------------------------


def test_cookies_set_on_redirects_reach_the_next_hops_of_their_site_only(sites):
    a, b = sites
    a.routes[("www.site-a.test", "/login")] = page(
        status=302,
        location=a.url("www.site-a.test", "/next"),
        cookies=("host=1; Path=/", "dom=2; Domain=site-a.test; Path=/"),
    )
    a.routes[("www.site-a.test", "/next")] = page(
        status=302, location=a.url("app.site-a.test", "/home"), cookies=("late=3; Path=/",)
    )
    a.routes[("app.site-a.test", "/home")] = page(
        status=302, location=b.url("site-b.test", "/land")
    )
    b.routes[("site-b.test", "/land")] = page(b"<p>landed</p>")
    with WebClient(site_config(sites)) as client:
        r = client.get(a.url("www.site-a.test", "/login"))
        assert r.status == 200 and r.url == b.url("site-b.test", "/land")
        assert a.sent("www.site-a.test", "/login", "cookie") is None
        assert a.sent("www.site-a.test", "/next", "cookie") == "host=1; dom=2"
        # Host-only cookies stay on their host; the Domain cookie follows to a subdomain.
        assert a.sent("app.site-a.test", "/home", "cookie") == "dom=2"
        assert b.sent("site-b.test", "/land", "cookie") is None
        # The jar outlives the call: a later request to the first host carries all three.
        a.routes[("www.site-a.test", "/again")] = page()
        client.get(a.url("www.site-a.test", "/again"))
        assert a.sent("www.site-a.test", "/again", "cookie") == "host=1; dom=2; late=3"
        client.get(b.url("site-b.test", "/land"))
        assert b.sent("site-b.test", "/land", "cookie") is None


def test_domain_on_a_public_suffix_or_another_domain_is_refused(sites):
    a, _ = sites
    a.routes[("shop.site.co.uk", "/")] = page(
        cookies=(
            "suffix=1; Domain=co.uk",
            "foreign=2; Domain=example.com",
            "mine=3; Domain=site.co.uk",
        )
    )
    a.routes[("other.site.co.uk", "/")] = page()
    with WebClient(site_config(sites)) as client:
        client.get(a.url("shop.site.co.uk", "/"))
        assert [c["name"] for c in client.cookies()] == ["mine"]
        client.get(a.url("other.site.co.uk", "/"))
        assert a.sent("other.site.co.uk", "/", "cookie") == "mine=3"


def test_path_rules(sites):
    a, _ = sites
    a.routes[("www.site-a.test", "/docs/set")] = page(cookies=("p=1; Path=/docs", "d=2"))
    for path in ("/docs", "/docs/deep/x", "/docsx", "/"):
        a.routes[("www.site-a.test", path)] = page()
    with WebClient(site_config(sites)) as client:
        client.get(a.url("www.site-a.test", "/docs/set"))
        # "d" has the default path: the directory of /docs/set.
        for path, expected in (
            ("/docs", "p=1; d=2"),
            ("/docs/deep/x", "p=1; d=2"),
            ("/docsx", None),
            ("/", None),
        ):
            client.get(a.url("www.site-a.test", path))
            assert a.sent("www.site-a.test", path, "cookie") == expected, path


def test_secure_cookies_only_from_and_to_https(https_server, ca_bundle, raw_server):
    https_server.expect_request("/set").respond_with_data(
        "ok", headers=[("Set-Cookie", "s=1; Secure"), ("Set-Cookie", "p=2")]
    )
    https_server.expect_request("/check").respond_with_data("ok")
    heads: list[bytes] = []

    def plain(conn, head):
        heads.append(head)
        conn.sendall(page(cookies=("fake=1; Secure",)))

    http = raw_server(plain)
    port = https_server.port
    with WebClient(loopback_config(ca_bundle=ca_bundle)) as client:
        client.get(f"https://localhost:{port}/set")
        client.get(f"http://localhost:{http.port}/plain")
        assert b"cookie: p=2\r\n" in heads[0].lower() and b"s=1" not in heads[0]
        # The Secure cookie sent over plain http was not stored.
        assert sorted(c["name"] for c in client.cookies()) == ["p", "s"]
        client.get(f"https://localhost:{port}/check")
    check = next(r for r, _ in https_server.log if r.path == "/check")
    assert check.headers.get("Cookie") == "s=1; p=2"


def test_expiry_deletes_and_past_dates_are_not_stored(sites):
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/set")] = page(
        cookies=(
            "keep=1; Max-Age=3600",
            "session=2",
            "gone=3; Expires=Thu, 01 Jan 1970 00:00:01 GMT",
        )
    )
    a.routes[(host, "/drop")] = page(cookies=("keep=x; Max-Age=0",))
    a.routes[(host, "/look")] = page()
    with WebClient(site_config(sites)) as client:
        client.get(a.url(host, "/set"))
        jar = {c["name"]: c for c in client.cookies()}
        assert sorted(jar) == ["keep", "session"]
        assert jar["session"]["expires"] is None
        assert abs(jar["keep"]["expires"] - (time.time() + 3600)) < 60
        client.get(a.url(host, "/drop"))
        client.get(a.url(host, "/look"))
        assert a.sent(host, "/look", "cookie") == "session=2"


def test_same_site_strict_cookies_wait_for_a_same_site_start(sites):
    a, b = sites
    host = "www.site-a.test"
    a.routes[(host, "/set")] = page(
        cookies=("strict=1; SameSite=Strict", "lax=2; SameSite=Lax", "none=3; SameSite=None")
    )
    a.routes[(host, "/in")] = page()
    b.routes[("site-b.test", "/out")] = page(status=302, location=a.url(host, "/in"))
    with WebClient(site_config(sites)) as client:
        client.get(a.url(host, "/set"))
        client.get(b.url("site-b.test", "/out"))  # arrives at site A from site B
        assert a.sent(host, "/in", "cookie") == "lax=2; none=3"
        client.get(a.url(host, "/in"))  # the caller's own navigation: same-site
        assert a.sent(host, "/in", "cookie") == "strict=1; lax=2; none=3"


def test_cookies_off_keeps_nothing(sites):
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/set")] = page(cookies=("k=1",))
    with WebClient(site_config(sites, cookies=False)) as client:
        client.get(a.url(host, "/set"))
        client.get(a.url(host, "/set"))
        assert a.sent(host, "/set", "cookie") is None and client.cookies() == []


def test_persisted_cookies_survive_a_new_client(sites, tmp_path):
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/set")] = page(cookies=("kept=1; Max-Age=3600", "session=2"))
    a.routes[(host, "/look")] = page()
    config = site_config(sites, cache_dir=str(tmp_path), persist_cookies=True)
    with WebClient(config) as first:
        first.get(a.url(host, "/set"))
    # An expired row (written by hand) must be dropped, not sent.
    store = PageCache(str(tmp_path), 60)
    saved = store.load_cookies()
    assert [c["name"] for c in saved] == ["kept"]
    store.save_cookies([*saved, dict(saved[0], name="stale", expires=int(time.time()) - 5)])
    store.close()
    with WebClient(config) as second:
        second.get(a.url(host, "/look"))
        assert a.sent(host, "/look", "cookie") == "kept=1"
        second.clear_cookies()
    with WebClient(config) as third:
        assert third.cookies() == []
    # Without persist_cookies, the same cache_dir gives a client an empty jar.
    with WebClient(site_config(sites, cache_dir=str(tmp_path))) as plain:
        assert plain.cookies() == []


def test_a_page_fetched_with_cookies_is_not_shared_through_the_persistent_cache(sites, tmp_path):
    """The cache is shared by every client on a cache_dir: a logged-in page must not reach a
    client without the session, and a session must not be answered from a page cached
    without it."""
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/login")] = page(cookies=("sid=alice; Max-Age=3600; Path=/",))
    a.routes[(host, "/account")] = page(
        b"<article><p>Private balance of alice: 1,234 EUR. "
        b"Nothing here may be shared.</p></article>"
    )
    a.routes[(host, "/public")] = page(
        b"<article><p>A public page anybody may read, cached for everyone.</p></article>"
    )
    config = site_config(sites, cache_dir=str(tmp_path))
    with WebClient(config) as alice:
        alice.get(a.url(host, "/login"))
        assert "alice" in alice.fetch(a.url(host, "/account")).content
        assert a.sent(host, "/account", "cookie") == "sid=alice"
    with WebClient(site_config(sites, cache_dir=str(tmp_path), cookies=False)) as other:
        before = len(a.seen)
        other.fetch(a.url(host, "/account"))
        assert len(a.seen) == before + 1  # asked the site, not the cache
        assert a.sent(host, "/account", "cookie") is None
        # A page fetched without cookies is cached as before ...
        other.fetch(a.url(host, "/public"))
    with WebClient(site_config(sites, cache_dir=str(tmp_path), cookies=False)) as third:
        before = len(a.seen)
        third.fetch(a.url(host, "/public"))
        assert len(a.seen) == before
    # ... but a client holding cookies for the site asks the site itself.
    with WebClient(config) as alice_again:
        alice_again.get(a.url(host, "/login"))
        before = len(a.seen)
        alice_again.fetch(a.url(host, "/public"))
        assert len(a.seen) == before + 1 and a.sent(host, "/public", "cookie") == "sid=alice"


def test_cache_control_private_is_not_stored(sites, tmp_path):
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/mine")] = http_response(
        200,
        b"<p>yours only</p>",
        [("Content-Type", "text/html"), ("Cache-Control", "private, max-age=600")],
    )
    config = site_config(sites, cache_dir=str(tmp_path), cookies=False)
    for _ in range(2):
        with WebClient(config) as client:
            client.fetch(a.url(host, "/mine"))
    assert sum(1 for h, p, _ in a.seen if (h, p) == (host, "/mine")) == 2


def test_a_cookie_save_refused_by_a_locked_database_is_tried_again(sites, tmp_path, monkeypatch):
    import sqlite3

    from webgrip import cache as cache_module

    monkeypatch.setattr(cache_module, "_BUSY_TIMEOUT_SECONDS", 0.2)
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/set")] = page(cookies=("kept=1; Max-Age=3600",))
    config = site_config(sites, cache_dir=str(tmp_path), persist_cookies=True)
    client = WebClient(config)
    client.get(a.url(host, "/nothing"))  # opens the database
    locker = sqlite3.connect(str(tmp_path / cache_module.DB_FILENAME), isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    client.get(a.url(host, "/set"))  # the save meets the lock
    locker.execute("ROLLBACK")
    locker.close()
    client.close()  # ... and is made here
    with WebClient(config) as later:
        assert [c["name"] for c in later.cookies()] == ["kept"]


def test_persist_cookies_needs_a_cache_dir():
    with pytest.raises(ValueError, match="persist_cookies"):
        loopback_config(persist_cookies=True)


def test_cookie_values_are_not_logged(sites, caplog):
    a, _ = sites
    host = "www.site-a.test"
    a.routes[(host, "/set")] = page(cookies=("sid=s3cr3t-value",))
    with caplog.at_level(logging.DEBUG), WebClient(site_config(sites)) as client:
        client.get(a.url(host, "/set"))
        client.fetch(a.url(host, "/set"))
    assert caplog.records and "s3cr3t-value" not in caplog.text


# --- headers -------------------------------------------------------------------------------


def test_site_authorization_goes_to_its_site_only_and_is_dropped_cross_site(sites):
    a, b = sites
    a.routes[("www.site-a.test", "/go")] = page(status=302, location=b.url("site-b.test", "/x"))
    b.routes[("site-b.test", "/x")] = page(status=302, location=a.url("api.site-a.test", "/v1"))
    a.routes[("api.site-a.test", "/v1")] = page()
    config = site_config(
        sites,
        headers={"Accept-Language": "fr", "X-Client": "all"},
        site_headers={
            "site-a.test": {"Authorization": "Bearer A", "Accept-Language": "de"},
            "api.site-a.test": {"Authorization": "Bearer API"},
        },
    )
    with WebClient(config) as client:
        client.get(a.url("www.site-a.test", "/go"))
    assert a.sent("www.site-a.test", "/go", "authorization") == "Bearer A"
    assert a.sent("www.site-a.test", "/go", "accept-language") == "de"  # the site's wins
    assert b.sent("site-b.test", "/x", "authorization") is None
    assert b.sent("site-b.test", "/x", "accept-language") == "fr"
    assert b.sent("site-b.test", "/x", "x-client") == "all"
    # Back on site A through B: the most specific entry, chosen for that host.
    assert a.sent("api.site-a.test", "/v1", "authorization") == "Bearer API"


def test_secrets_are_hidden_from_repr():
    config = Config(
        site_headers={"site-a.test": {"Authorization": "Bearer hidden-token"}},
        headers={"X-Api-Key": "hidden-key"},
    )
    assert "hidden-token" not in repr(config) and "hidden-key" not in repr(config)


def test_per_call_headers_on_fetch_and_download(sites, tmp_path):
    a, b = sites
    a.routes[("www.site-a.test", "/doc")] = page(b"<p>doc</p>")
    a.routes[("www.site-a.test", "/move")] = page(
        status=302, location=b.url("site-b.test", "/file")
    )
    b.routes[("site-b.test", "/file")] = http_response(200, b"data", {"Content-Type": "text/plain"})
    config = site_config(
        sites,
        download_dirs=(str(tmp_path),),
        site_headers={"site-a.test": {"Authorization": "Bearer site", "X-Level": "site"}},
    )
    with WebClient(config) as client:
        got = client.fetch(
            a.url("www.site-a.test", "/doc"),
            headers={"X-Level": "call", "Authorization": "Bearer call"},
        )
        assert "doc" in got.content
        assert a.sent("www.site-a.test", "/doc", "x-level") == "call"
        assert a.sent("www.site-a.test", "/doc", "authorization") == "Bearer call"
        saved = client.download(
            a.url("www.site-a.test", "/move"),
            headers={"Authorization": "Bearer call", "X-Trace": "7"},
        )
        assert saved.size == 4
        assert a.sent("www.site-a.test", "/move", "authorization") == "Bearer call"
        # The call's credential stays with its origin; its other headers go on.
        assert b.sent("site-b.test", "/file", "authorization") is None
        assert b.sent("site-b.test", "/file", "x-trace") == "7"
        # Without headers=, the same fetch sends the site's values again.
        client.fetch(a.url("www.site-a.test", "/doc"))
        assert a.sent("www.site-a.test", "/doc", "x-level") == "site"


def test_async_client_passes_headers(sites):
    a, _ = sites
    a.routes[("www.site-a.test", "/doc")] = page()

    async def run() -> None:
        async with AsyncWebClient(site_config(sites)) as client:
            await client.fetch(a.url("www.site-a.test", "/doc"), headers={"X-Async": "yes"})

    asyncio.run(run())
    assert a.sent("www.site-a.test", "/doc", "x-async") == "yes"


def test_agent_tools_take_no_headers():
    for fn in (tools.fetch_page, tools.download_file):
        assert "headers" not in inspect.signature(fn).parameters


@pytest.mark.parametrize(
    "name",
    [
        "Host",
        "Content-Length",
        "Transfer-Encoding",
        "Connection",
        "Keep-Alive",
        "Upgrade",
        "TE",
        "Accept-Encoding",
    ],
)
def test_refused_headers_give_clear_errors(sites, tmp_path, name):
    a, _ = sites
    with pytest.raises(ValueError, match=f"invalid value for 'headers'.*{name}.*cannot be set"):
        Config(headers={name: "x"})
    with pytest.raises(ValueError, match=f"site_headers.*{name}.*cannot be set"):
        Config(site_headers={"site-a.test": {name: "x"}})
    with WebClient(site_config(sites, download_dirs=(str(tmp_path),))) as client:
        url = a.url("www.site-a.test", "/doc")
        with pytest.raises(ValueError, match=f"{name}.*cannot be set"):
            client.fetch(url, headers={name: "x"})
        with pytest.raises(ValueError, match=f"{name}.*cannot be set"):
            client.download(url, headers={name: "x"})
        with pytest.raises(ValueError, match=f"{name}.*cannot be set"):
            client.get(url, headers={name: "x"})
    assert a.seen == []  # refused before anything was sent


@pytest.mark.parametrize("name", ["Authorization", "Cookie"])
def test_credentials_for_every_site_are_refused(name):
    with pytest.raises(ValueError, match="site_headers"):
        Config(headers={name: "secret"})


def test_header_values_must_be_single_line_and_stay_out_of_errors():
    with pytest.raises(ValueError) as info:
        Config(site_headers={"site-a.test": {"Authorization": "Bearer a\r\nX-Evil: 1"}})
    assert "Bearer" not in str(info.value)


def test_headers_come_from_env_and_config_files(tmp_path):
    env = {
        "WEBGRIP_HEADERS": "Accept-Language=fr;X-A=b",
        "WEBGRIP_SITE_HEADERS": '{"site-a.test": {"Authorization": "Bearer e"}}',
    }
    config = Config.from_env(env)
    assert config.headers == {"Accept-Language": "fr", "X-A": "b"}
    assert config.site_headers == {"site-a.test": {"Authorization": "Bearer e"}}
    path = tmp_path / "webgrip.toml"
    path.write_text(
        '[headers]\n"Accept-Language" = "de"\n'
        '[site_headers."site-a.test"]\nAuthorization = "Bearer f"\n'
    )
    loaded = Config.load(path, env={})
    assert loaded.headers == {"Accept-Language": "de"}
    # JSON for values that hold ";".
    quality = Config.from_env({"WEBGRIP_HEADERS": '{"Accept-Language": "fr-CH, fr;q=0.9"}'})
    assert quality.headers == {"Accept-Language": "fr-CH, fr;q=0.9"}
    with pytest.raises(ValueError, match="JSON object"):
        Config.from_env({"WEBGRIP_HEADERS": '{"X-A": 1}'})
    assert loaded.site_headers == {"site-a.test": {"Authorization": "Bearer f"}}
