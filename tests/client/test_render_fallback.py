"""Rendering when the browser fails (issue 45, F9 and the pool hardening), through the public API
on loopback.

- A browser that is there but does not start: ``auto`` keeps the static page, ``always`` and
  screenshots raise a short :class:`~webgrip.errors.RenderError` (reason ``no-browser``, one
  line saying what to do); no Playwright exception and none of the browser's command line or
  output reaches the caller (they go to the ``webgrip.render`` debug log).
- A page that never settles is read after a capped wait, so with one render worker it does not
  hold the pool until its deadline while another caller's render times out behind it.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec

import pytest
from helpers.loopback import loopback_config, wait_until
from helpers.render import APP_JS, DATA, SCRIPT_SHELL, needs_browser
from helpers.siteserver import Reply, SiteServer, page
from webgrip import RenderError, Tools, WebClient, WebgripError

needs_playwright = pytest.mark.skipif(
    find_spec("playwright") is None, reason="playwright is not installed"
)

#: A page whose DOM changes every 20 ms for as long as it is open: it never settles.
NEVER_SETTLES = """<!doctype html><html><head><title>Ticker</title></head><body>
<main><h1>Ticker</h1><p>The price below changes every twenty milliseconds, forever.</p>
<p id="tick"></p></main>
<script>setInterval(() => {
  document.getElementById('tick').textContent = performance.now(); }, 20);</script>
</body></html>"""


@pytest.fixture
def site():
    with SiteServer() as s:
        s.route("/", page(SCRIPT_SHELL))
        s.route("/app.js", lambda req: Reply(body=APP_JS.encode(), content_type="text/javascript"))
        s.route(
            "/data.json",
            lambda req: Reply(body=json.dumps(DATA).encode(), content_type="application/json"),
        )
        s.route("/ticker", page(NEVER_SETTLES))
        yield s


@pytest.fixture(params=["exits", "crashes"])
def broken_browser(request, tmp_path):
    """An executable browser that does not start: it exits at once with a status, or is
    killed by a signal, after writing to its stderr as a broken Chromium would."""
    path = tmp_path / "chromium"
    end = "exit 1" if request.param == "exits" else "kill -SEGV $$"
    path.write_text(
        f'#!/bin/sh\necho "chromium: error while loading shared libraries: libnss3.so" >&2\n{end}\n'
    )
    path.chmod(0o755)
    return str(path)


@needs_playwright
def test_auto_keeps_the_static_page_when_the_browser_does_not_start(site, broken_browser):
    config = loopback_config(browser_executable=broken_browser, page_cache_size=0)
    with WebClient(config) as client:
        got = client.fetch(site.url("/"))
        assert not got.rendered and got.render_reason is None
        assert got.title == "Shell"
        assert client.stats()["errors"] == {"RenderError": 1}
    # The agent's tool answers with the static page, not an error.
    out = Tools(config).fetch_page(site.url("/"))
    assert not out.startswith("Error") and "Title: Shell" in out, out


@needs_playwright
def test_always_says_in_one_line_that_the_browser_did_not_start(site, broken_browser, caplog):
    config = loopback_config(browser_executable=broken_browser)
    with caplog.at_level(logging.DEBUG, logger="webgrip.render"):
        with WebClient(config) as client:
            for call in (
                lambda: client.fetch(site.url("/"), render="always"),
                lambda: client.screenshot(site.url("/")),
            ):
                with pytest.raises(WebgripError) as exc:
                    call()
                error = exc.value
                assert isinstance(error, RenderError), repr(error)
                assert error.reason == "no-browser" and error.url == site.url("/")
                message = str(error)
                assert "\n" not in message and len(message) < 400, message
                assert broken_browser in message and "did not start" in message
                assert "browser_executable" in message  # the next step
                # Neither the command line nor the browser's own output.
                assert "--headless" not in message and "libnss3" not in message
        out = Tools(loopback_config(browser_executable=broken_browser, render="always")).fetch_page(
            site.url("/")
        )
    assert out.startswith("Error") and "libnss3" not in out and len(out) < 600, out
    # The details are kept for whoever debugs it.
    assert "libnss3" in caplog.text


@needs_browser
def test_a_page_that_never_settles_does_not_starve_another_render(site):
    """One worker, two callers: the ticker (40 s deadline) is read after the settle cap, and
    the shell's render, asked for meanwhile with a 20 s deadline, completes (it used to wait
    behind the ticker until its own deadline passed)."""
    ticker_config = loopback_config(render_workers=1, timeout=40, page_cache_size=0)
    config = loopback_config(render_workers=1, timeout=20, page_cache_size=0)
    with (
        WebClient(ticker_config) as ticking,
        WebClient(config) as client,
        ThreadPoolExecutor(1) as pool,
    ):
        ticker = pool.submit(ticking.fetch, site.url("/ticker"), render="always")
        # The ticker holds the only worker (the browser asked for it: the second request of
        # it, after the static one) before the second render is asked for.
        assert wait_until(lambda: len(site.hits("/ticker")) >= 2, timeout=20)
        got = client.fetch(site.url("/"), render="always")
        ticked = ticker.result()
    assert got.rendered and DATA["paragraphs"][0] in got.content
    # The ticker was read as it was, not failed at its deadline.
    assert ticked.rendered and "changes every twenty milliseconds" in ticked.content


#: Loads, then blocks its renderer for good: the DOM can no longer be read, so its render
#: holds its worker until its deadline.
BLOCKS_ITS_RENDERER = """<!doctype html><html><body><p>x</p>
<script>setTimeout(() => { for (;;) {} }, 30);</script></body></html>"""


@needs_browser
def test_a_render_stuck_on_a_blocked_renderer_does_not_starve_another(site):
    """One worker: while it is stuck on a page that blocks its renderer (40 s deadline), a
    render asked for meanwhile (25 s deadline) gets a spare worker and completes."""
    import asyncio

    from webgrip import AsyncWebClient, FetchTimeoutError

    site.route("/blocks", page(BLOCKS_ITS_RENDERER))

    async def main():
        stuck_config = loopback_config(render_workers=1, timeout=40, page_cache_size=0)
        config = loopback_config(render_workers=1, timeout=25, page_cache_size=0)
        async with AsyncWebClient(stuck_config) as stuck, AsyncWebClient(config) as client:
            blocked = asyncio.create_task(stuck.fetch(site.url("/blocks"), render="always"))
            while len(site.hits("/blocks")) < 2:  # the browser has it
                await asyncio.sleep(0.05)
            try:
                return await client.fetch(site.url("/"), render="always")
            finally:
                blocked.cancel()  # its browser is killed rather than left to its deadline
                with pytest.raises((asyncio.CancelledError, FetchTimeoutError)):
                    await blocked

    got = asyncio.run(main())
    assert got.rendered and DATA["paragraphs"][0] in got.content


#: A script shell (its app root empty in the HTML) whose script never stops changing it.
TICKING_APP = """<!doctype html><html><head><title>Ticking app</title></head><body>
<div id="app"></div><script>setInterval(() => {
  document.getElementById('app').textContent = 'Now: ' + performance.now(); }, 20);</script>
</body></html>"""


@needs_browser
@pytest.mark.parametrize("mode", ["auto", "always"])
def test_a_browser_that_dies_mid_render(site, mode):
    """The browser is killed while it renders a page: ``auto`` keeps the static page,
    ``always`` raises a one-line RenderError; the next render starts a new browser."""
    import os
    import signal

    from helpers.render import browser_processes

    site.route("/ticking-app", page(TICKING_APP))
    config = loopback_config(page_cache_size=0, timeout=30, render=mode)
    with WebClient(config) as client, ThreadPoolExecutor(1) as pool:
        client.fetch(site.url("/"), render="always")  # a browser in the pool
        call = pool.submit(client.fetch, site.url("/ticking-app"))
        # The static request, then the browser's.
        assert wait_until(lambda: len(site.hits("/ticking-app")) >= 2, timeout=20)
        for pid in browser_processes():
            os.kill(pid, signal.SIGKILL)
        if mode == "auto":
            got = call.result()
            assert not got.rendered and got.title == "Ticking app"
        else:
            with pytest.raises(WebgripError) as exc:
                call.result()
            assert isinstance(exc.value, RenderError), repr(exc.value)
            assert exc.value.reason == "browser" and "\n" not in str(exc.value)
        assert client.fetch(site.url("/"), render="always").rendered


@needs_browser
def test_a_render_waiting_behind_a_killed_worker_gets_a_new_one(site):
    """One worker, stuck on a page blocking its renderer until its 5 s deadline, is killed
    then; the render queued behind it (30 s deadline) gets a new worker rather than waiting,
    with none, for its own deadline."""
    site.route("/blocks", page(BLOCKS_ITS_RENDERER))
    stuck_config = loopback_config(render_workers=1, timeout=5, page_cache_size=0)
    config = loopback_config(render_workers=1, timeout=30, page_cache_size=0)
    with (
        WebClient(stuck_config) as stuck,
        WebClient(config) as client,
        ThreadPoolExecutor(1) as pool,
    ):
        client.fetch(site.url("/"), render="always")  # the worker's browser is up
        blocked = pool.submit(stuck.fetch, site.url("/blocks"), render="always")
        assert wait_until(lambda: len(site.hits("/blocks")) >= 2, timeout=20)
        got = client.fetch(site.url("/"), render="always")
        with pytest.raises(WebgripError):
            blocked.result()
    assert got.rendered and DATA["paragraphs"][0] in got.content
