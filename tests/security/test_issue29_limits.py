"""Issue 29, findings 5, 7 and 9 and its hardening items, through the public API on loopback.

- the shared page cache is keyed by the URL the core fetches (``http://ATT\\@VICTIM/`` is
  ATT's), so one client cannot store a page under another site's key;
- the ``Title:`` line of ``fetch_page`` is cut: a 5 MB ``<title>`` keeps the answer within
  ``max_length`` plus the short header;
- a cookie flood from a sibling host cannot break the site: the jar trims it, and the
  ``Cookie`` header the jar sends is bounded;
- ``cache_dir`` and its database are private; an oversized MCP message is answered with its
  id; ``save_to`` creates a bounded number of folders; the Python proxy check refuses what
  the core refuses.
"""

from __future__ import annotations

import os
import stat

import pytest
from helpers.loopback import RawServer, http_response, loopback_config
from webgrip import Config, Tools, WebClient
from webgrip.cache import DB_FILENAME, normalise_url
from webgrip.downloads import MAX_NEW_FOLDERS
from webgrip.tools.mcp_wire import head_id


def html(body: str, *, title: str = "", cookies: tuple[str, ...] = ()) -> bytes:
    doc = f"<html><head><title>{title}</title></head><body>{body}</body></html>".encode()
    headers = [("Content-Type", "text/html; charset=utf-8")]
    headers += [("Set-Cookie", c) for c in cookies]
    return http_response(200, doc, headers)


def serve(data: bytes):
    def handle(conn, _head: bytes) -> None:
        conn.sendall(data)

    return handle


# --- finding 5: the shared cache is keyed by the URL actually fetched ---------------------


def test_normalise_url_reads_a_backslash_as_the_core_does():
    assert normalise_url("http://att.test\\@victim.test/x").startswith("http://att.test/")
    assert normalise_url("HTTP://0x7f.1:80/a#f") == "http://127.0.0.1/a"


def test_a_backslash_url_cannot_poison_another_sites_cache_entry(tmp_path):
    attacker = RawServer(serve(html("<p>ATTACKER content</p>", title="Attacker")))
    victim = RawServer(serve(html("<p>VICTIM content</p>", title="Victim")))
    try:
        config = loopback_config(cache_dir=str(tmp_path / "cache"), timeout=10)
        poison = f"http://127.0.0.1:{attacker.port}\\@127.0.0.1:{victim.port}/"
        with WebClient(config) as first:
            assert "ATTACKER" in first.fetch(poison).content  # WHATWG: fetched from ATT
        with WebClient(config) as second:  # another client sharing cache_dir
            page = second.fetch(victim.url("/"))
        assert "VICTIM" in page.content and "ATTACKER" not in page.content
        assert victim.requests, "the victim's page must have been fetched, not served"
    finally:
        attacker.close()
        victim.close()


# --- finding 7: the Title line stays inside max_length ------------------------------------


def test_a_huge_title_keeps_the_answer_within_max_length():
    title = "word " * 1_000_000  # 5 MB
    server = RawServer(serve(html("<p>Hello from the body.</p>", title=title)))
    try:
        tools = Tools(loopback_config(timeout=20))
        answer = tools.fetch_page(server.url("/"), max_length=1000)
    finally:
        server.close()
    assert not answer.startswith("Error:"), answer[:300]
    title_line = answer.splitlines()[0]
    assert title_line.startswith("Title: word") and title_line.endswith("…")
    assert len(title_line) <= len("Title: ") + 1000 // 4
    # The header's other lines are short and fixed (URL, type, range): a few hundred at most.
    assert len(answer) <= 1000 + 400, len(answer)


def test_a_short_title_is_shown_whole():
    server = RawServer(serve(html("<p>Body.</p>", title="  A   normal\ntitle ")))
    try:
        answer = Tools(loopback_config()).fetch_page(server.url("/"))
    finally:
        server.close()
    assert answer.splitlines()[0] == "Title: A normal title"


# --- finding 9: a cookie flood from a sibling host ----------------------------------------


class Site:
    """One server answering several names (``Config.resolve``); records each request's
    host and Cookie header."""

    def __init__(self):
        self.routes: dict[tuple[str, str], bytes] = {}
        self.seen: list[tuple[str, str, str | None]] = []
        self.server = RawServer(self._handle)

    def _handle(self, conn, head: bytes) -> None:
        lines = head.decode("latin-1").split("\r\n")
        path = lines[0].split(" ")[1]
        headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        host = headers.get("host", "").rsplit(":", 1)[0]
        self.seen.append((host, path, headers.get("cookie")))
        conn.sendall(self.routes.get((host, path), http_response(404, b"no route")))

    def url(self, host: str, path: str) -> str:
        return f"http://{host}:{self.server.port}{path}"


def test_a_sibling_cookie_flood_leaves_the_site_usable_and_the_header_bounded(tmp_path):
    site = Site()
    value = "x" * 3000
    site.routes[("www.victim.test", "/login")] = html(
        "<p>in</p>", cookies=("session=mine; Path=/; Max-Age=3600",)
    )
    # 45 cookies of 3 KB for the parent domain, over three answers (each head stays small).
    for n in range(3):
        site.routes[("att.victim.test", f"/flood{n}")] = html(
            "<p>flood</p>",
            cookies=tuple(
                f"f{n}_{i}={value}; Domain=victim.test; Path=/; Max-Age=3600" for i in range(15)
            ),
        )
    site.routes[("www.victim.test", "/account")] = html("<p>ACCOUNT page</p>")
    config = loopback_config(
        resolve={"www.victim.test": ("127.0.0.1",), "att.victim.test": ("127.0.0.1",)},
        cache_dir=str(tmp_path / "c"),
        persist_cookies=True,
    )
    try:
        with WebClient(config) as client:
            client.get(site.url("www.victim.test", "/login"))
            for n in range(3):
                client.get(site.url("att.victim.test", f"/flood{n}"))
            page = client.fetch(site.url("www.victim.test", "/account"))
            assert "ACCOUNT" in page.content
        # Persisted and loaded again: a new client is not broken by the flood either.
        with WebClient(config) as again:
            assert again.get(site.url("www.victim.test", "/account")).status == 200
    finally:
        site.server.close()
    sent = [
        cookie
        for host, path, cookie in site.seen
        if (host, path) == ("www.victim.test", "/account")
    ]
    assert len(sent) == 2
    for cookie in sent:
        assert cookie is not None and len(cookie) <= 8000, len(cookie or "")
        # The host's own session outranks what the sibling set for the whole site.
        assert cookie.startswith("session=mine") or "; session=mine" in cookie


# --- hardening ----------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_cache_dir_and_its_database_are_private(tmp_path):
    server = RawServer(serve(html("<p>cached</p>", cookies=("k=v; Max-Age=3600",))))
    cache_dir = tmp_path / "new" / "cache"
    old = os.umask(0o022)
    try:
        config = loopback_config(cache_dir=str(cache_dir), persist_cookies=True)
        with WebClient(config) as client:
            client.fetch(server.url("/"))
    finally:
        os.umask(old)
        server.close()
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    for name in os.listdir(cache_dir):
        assert name.startswith(DB_FILENAME)
        assert stat.S_IMODE((cache_dir / name).stat().st_mode) & 0o077 == 0, name


def test_oversized_mcp_message_id_is_read_from_its_start_only():
    big = b'{"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"x": "aaaa'
    assert head_id(big) == 20
    assert head_id(b'{"jsonrpc":"2.0","id":"r-1","method":"m","params":[') == "r-1"
    # Never an id nested in params, nor one a response carries, nor a number cut short.
    assert head_id(b'{"jsonrpc":"2.0","method":"m","params":{"id":5,"q":"') is None
    assert head_id(b'{"jsonrpc":"2.0","id":7,"result":{"x":"') is None
    assert head_id(b'{"method":"m","id":1234') is None
    assert head_id(b'{"id":true,"method":"m",') is None
    assert head_id(b'[{"id":1,"method":"m"},') is None


def test_save_to_may_create_only_a_few_nested_folders(tmp_path):
    server = RawServer(serve(http_response(200, b"data", {"Content-Type": "text/plain"})))
    try:
        tools = Tools(loopback_config(download_dirs=(str(tmp_path),)))
        deep = "/".join(f"d{i}" for i in range(MAX_NEW_FOLDERS + 1))
        refused = tools.download_file(server.url("/f.txt"), save_to=deep)
        assert refused.startswith("Error:") and "new nested folders" in refused, refused
        assert os.listdir(tmp_path) == []  # refused before creating any
        ok = "/".join(f"d{i}" for i in range(MAX_NEW_FOLDERS))
        assert not tools.download_file(server.url("/f.txt"), save_to=ok).startswith("Error:")
        # Below folders that exist, the count starts again.
        deeper = ok + "/" + "/".join(f"e{i}" for i in range(MAX_NEW_FOLDERS))
        assert not tools.download_file(server.url("/f.txt"), save_to=deeper).startswith("Error:")
    finally:
        server.close()


@pytest.mark.parametrize(
    "proxy",
    [
        "http://user:50%zz@127.0.0.1:3128",  # not a percent escape
        "http://user:50%@127.0.0.1:3128",  # a bare "%"
        "http://us%ffer:pw@127.0.0.1:3128",  # escapes that are not UTF-8
        "socks5://user:" + "p" * 256 + "@127.0.0.1:1080",  # over SOCKS5's 255 bytes
        "http://user:p\\w@127.0.0.1:3128",  # the core reads "\" as "/"
    ],
)
def test_proxy_credentials_the_core_refuses_are_refused_by_the_config(proxy):
    from webgrip import _core

    with pytest.raises(ValueError):  # the core's own verdict, so the test tracks it
        _core.Client(http_proxy=proxy)
    with pytest.raises(ValueError) as info:
        Config(proxy=proxy)
    message = str(info.value)
    assert "'proxy'" in message
    for secret in ("50%zz", "50%", "us%ffer", "p" * 256, "p\\w"):
        assert secret not in message


def test_proxy_credentials_the_core_accepts_still_pass():
    for proxy in (
        "http://user:p%40ss@127.0.0.1:3128",
        "socks5://u:%C3%A9@127.0.0.1:1080",
        "http://user:p:ss@127.0.0.1:3128",
    ):
        Config(proxy=proxy)
