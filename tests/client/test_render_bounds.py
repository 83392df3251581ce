"""Rendering bounded like a fetch (issue 29, findings 6 and 8), through the public API on
loopback: the browser's memory, popups, screenshot size, the DOM's size, the deadline, the
redirect limit, and a page's own navigations to refused addresses or ports Chromium blocks.

Skipped, with the reason, where no browser exists.
"""

from __future__ import annotations

import os
import struct
import time

import pytest
from helpers.loopback import loopback_config
from helpers.render import CountingListener, browser_processes, needs_browser, render_config
from helpers.siteserver import Reply, SiteServer, page
from webgrip import (
    BlockedURLError,
    FetchTimeoutError,
    RenderError,
    ResponseTooLargeError,
    WebClient,
    render,
)

pytestmark = needs_browser

#: Keeps the page busy (the DOM changing, a request in flight) for ``ms``, so the render does
#: not take it as settled before what the test waits for has happened.
BUSY_JS = """function busy(ms) {
  const end = performance.now() + ms;
  const t = setInterval(() => {
    if (performance.now() > end) return clearInterval(t);
    document.getElementById('busy').textContent = performance.now();
    fetch('/ping').catch(() => {});
  }, 50);
}"""


def html(script: str, body: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>T</title></head><body><p id=busy></p>{body}"
        f"<script>{BUSY_JS}\n{script}</script></body></html>"
    )


@pytest.fixture
def site():
    with SiteServer() as s:
        s.route("/ping", lambda req: Reply(body=b"ok", content_type="text/plain"))
        yield s


def _alive(pid: int) -> bool:
    """Running (a zombie already reaped or left to init counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2 :].split()[0] != b"Z"


# -- finding 6: memory, popups, screenshots, the DOM --------------------------------------
def test_a_page_past_the_memory_cap_gets_its_browser_killed(site, monkeypatch):
    site.route("/small", page(html("", "<p>small page</p>")))
    # 20 x 64 MiB of touched ArrayBuffers (1.25 GiB), then busy long enough to be measured.
    site.route(
        "/hog",
        page(
            html("""
      window.keep = [];
      for (let i = 0; i < 20; i++) { const b = new Uint8Array(64 << 20); b.fill(1);
                                     window.keep.push(b); }
      busy(8000);""")
        ),
    )
    with WebClient(loopback_config(timeout=20)) as client:
        client.fetch(site.url("/small"), render="always")  # the pool's browser is up
        browsers = browser_processes()
        profiles = [d for pid in browsers for d in render._profile_dirs(pid)]
        assert browsers and profiles
        idle = render._tree_memory(render._descendants(render._POOL.driver_pids()[0]))
        monkeypatch.setattr(render, "MAX_BROWSER_BYTES", idle + 256 * 1024 * 1024)
        start = time.monotonic()
        with pytest.raises(RenderError) as err:
            client.fetch(site.url("/hog"), render="always")
        assert err.value.reason == "memory"
        assert "MiB in the browser" in str(err.value)
        assert time.monotonic() - start < 8  # killed, not waited out
        deadline = time.monotonic() + 10
        while (any(map(_alive, browsers)) or any(map(os.path.exists, profiles))) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert not any(map(_alive, browsers)), "no process of the killed browser remains"
        assert not any(map(os.path.exists, profiles))
        # The next render gets a new browser.
        monkeypatch.undo()
        assert client.fetch(site.url("/small"), render="always").rendered
        assert set(browser_processes()).isdisjoint(browsers)


def test_popups_are_closed_as_they_open(site, monkeypatch):
    site.route("/popup", page(html("busy(3000);", "<p>a popup</p>")))
    # The page stays busy (as busy() keeps it) until every popup is closed or 15 s have
    # passed, then shows how many are still open. It counted them at 1.5 s before: at a load
    # average of 20 on 2 cores, 13 of 20 were still open then (closed later, but the render
    # had read the page). Popups left open for the render's whole life still count.
    site.route(
        "/",
        page(
            html("""
      const wins = [];
      for (let i = 0; i < 20; i++) wins.push(window.open('/popup', 'w' + i));
      const start = performance.now();
      const t = setInterval(() => {
        const open = wins.filter(w => w && !w.closed).length;
        if (open > 0 && performance.now() - start < 15000) {
          document.getElementById('busy').textContent = performance.now();
          fetch('/ping').catch(() => {});
          return;
        }
        clearInterval(t);
        document.title = 'popups still open: ' + open;
      }, 50);""")
        ),
    )
    # The render's 5 s cap on settling would read the page before the 15 s were up.
    monkeypatch.setattr(render, "MAX_SETTLE_SECONDS", 30.0)
    with WebClient(render_config()) as client:
        got = client.fetch(site.url("/"), render="always", extract="text")
    assert got.title == "popups still open: 0"


def test_a_full_page_screenshot_is_cut_at_the_maximum_height(site):
    site.route("/", page(html("", '<div style="height:100000px;width:100px"></div>')))
    with WebClient(loopback_config(timeout=30)) as client:
        png = client.screenshot(site.url("/"), full_page=True)
    width, height = struct.unpack(">II", png[16:24])
    assert png.startswith(b"\x89PNG") and height == render.MAX_SCREENSHOT_HEIGHT
    assert width <= render.MAX_SCREENSHOT_WIDTH


def test_the_rendered_dom_is_held_to_max_response_bytes(site):
    # 3 MB of text built by the page's script: its HTML was sent whole, whatever the cap.
    site.route(
        "/",
        page(
            html(
                """
      document.getElementById('out').textContent = 'x'.repeat(3 * 1024 * 1024);""",
                "<p id=out></p>",
            )
        ),
    )
    cap = 1024 * 1024
    with WebClient(render_config(max_response_bytes=cap)) as client:
        with pytest.raises(ResponseTooLargeError) as err:
            client.fetch(site.url("/"), render="always")
        assert err.value.reason == "too-large" and err.value.limit == cap
        # Under the cap the page comes back, whole.
        with WebClient(render_config(max_response_bytes=4 * cap)) as roomy:
            got = roomy.fetch(site.url("/"), render="always", extract="text")
        assert got.content.count("x") >= 3 * 1024 * 1024


# -- finding 8: the deadline, redirects, a page's own navigations ---------------------------
@pytest.mark.parametrize("path", ["/parse", "/later"])
def test_a_blocked_renderer_ends_at_the_deadline(site, path):
    # An endless loop while the HTML is parsed (goto never sees the DOM ready) and after it
    # (the DOM read waits on a renderer that never answers).
    site.route("/parse", page("<!doctype html><p>x</p><script>for (;;) {}</script>"))
    # 30 ms: before the page counts as settled (loaded, nothing in flight, DOM still 0.1 s).
    site.route("/later", page(html("setTimeout(() => { for (;;) {} }, 30);", "<p>x</p>")))
    site.route("/fine", page(html("", "<p>fine</p>")))
    timeout = 3.0
    # The browser's launches are not in the budget: a client with a roomy deadline launches
    # it first and again after the kill (a launch on a loaded 2-core machine took over 3 s).
    with (
        WebClient(loopback_config(timeout=timeout)) as client,
        WebClient(loopback_config(timeout=60)) as roomy,
    ):
        roomy.fetch(site.url("/fine"), render="always")
        start = time.monotonic()
        with pytest.raises(FetchTimeoutError):
            client.fetch(site.url(path), render="always")
        # Ended at the deadline (+ the 0.3 s kill grace) although the page never yields, with
        # room for a loaded machine to schedule the kill, yet under twice the deadline: a
        # deadline spent twice over (once by the navigation, again by the DOM read) fails.
        assert time.monotonic() - start < timeout + 2.5
        assert roomy.fetch(site.url("/fine"), render="always").rendered


def _redirects(site: SiteServer, hops: int) -> None:
    for i in range(hops):
        site.route(f"/r{i}", lambda req, i=i: Reply(status=302, headers={"Location": f"/r{i + 1}"}))
    site.route(f"/r{hops}", page(html("", "<p>the end of the chain</p>")))


@pytest.mark.parametrize("limit", [0, 2])
def test_the_redirect_limit_holds_in_the_browser(site, limit):
    _redirects(site, 12)
    cfg = render_config(max_redirects=limit)
    with WebClient(cfg) as client:
        with pytest.raises(BlockedURLError) as static:
            client.fetch(site.url("/r0"), render="never")
        with pytest.raises(BlockedURLError) as rendered:
            client.fetch(site.url("/r0"), render="always")
    assert rendered.value.reason == static.value.reason == "too-many-redirects"
    assert f"the limit is {limit}" in str(rendered.value)
    # Stopped at the limit: at most the one request past it left (it was already on its way
    # when the browser said so), none of the rest of the chain.
    for i in range(limit + 2, 13):
        assert not site.hits(f"/r{i}"), i


def test_redirects_within_the_limit_are_followed(site):
    _redirects(site, 4)
    with WebClient(render_config(max_redirects=5)) as client:
        got = client.fetch(site.url("/r0"), render="always")
    assert "the end of the chain" in got.content
    assert got.final_url.endswith("/r4")


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_self_navigation_to_a_refused_address_is_a_refusal(site, scheme):
    target = CountingListener("127.0.0.2")
    try:
        site.route(
            "/",
            page(
                html(
                    # Busy until the navigation: settled before the timer fires, the render would
                    # rightly return the first page (CI saw that race).
                    "busy(2000); setTimeout(() => { location.href = "
                    f"'{target.origin(scheme)}/x'; }}, 100);",
                    "<p>first</p>",
                )
            ),
        )
        cfg = render_config(deny_networks=("127.0.0.2/32",))
        with WebClient(cfg) as client, pytest.raises(BlockedURLError) as err:
            client.fetch(site.url("/"), render="always")
        assert err.value.reason == "denied-network", err.value
        assert "HTTP 403" not in str(err.value) and "Forbidden" not in str(err.value)
        assert target.connections == 0
    finally:
        target.close()


def test_a_navigation_to_a_port_chromium_blocks_is_an_error(site):
    site.route(
        "/",
        page(
            html(
                "busy(2000); "
                "setTimeout(() => { location.href = 'http://127.0.0.1:6000/x'; }, 100);",
                "<p>first</p>",
            )
        ),
    )
    # The policy allows every port: only the browser refuses 6000 (X11).
    cfg = render_config(blocked_ports=())
    with WebClient(cfg) as client, pytest.raises(BlockedURLError) as err:
        client.fetch(site.url("/"), render="always")
    assert err.value.reason == "blocked-port"
    assert "6000" in str(err.value)
