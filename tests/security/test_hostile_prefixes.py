"""Pages of one hostile prefix repeated to 1 MiB come back within the call's deadline.

Every pass over a page's bytes must be linear: a backtracking Python regex over the body
(the ``render="auto"`` shell test once was one) holds the GIL where no deadline reaches, and
1 MiB of ``<script `` after a script tag took minutes. Each body here repeats one tag or
attribute opening that some pass looks for (the shell test, frames, metadata, the challenge
scan), with and without ``>``, after a script tag so the shell test reads all of it. Each is
fetched in every extract mode with ``render="auto"`` and no browser available (auto then
falls back to the static page), through the tool and through ``WebClient.fetch``.

The bound is the deadline promise (``timeout`` plus 10 % plus a second for the loopback
round trip and Python's own work), not a performance target.
"""

from __future__ import annotations

import time

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer
from webgrip import Tools, WebClient, WebgripError
from webgrip.page import EXTRACT_MODES

TIMEOUT = 5.0
BOUND = TIMEOUT * 1.1 + 1.0
SIZE = 1 << 20
LEAD = "<!doctype html><html><head><script src=/app.js></script></head><body>"

PREFIXES = (
    "<script ",
    "<script src=",
    "<script type=",
    "<div id=",
    "<a ",
    "<noscript>",
    "<iframe ",
    "<meta ",
    "<title>",
)
BODIES = {
    f"{prefix}{close}": (LEAD + f"{prefix}{close}" * (SIZE // len(prefix + close) + 1))[:SIZE]
    for prefix in PREFIXES
    for close in ("", ">")
}


@pytest.fixture(scope="module")
def site():
    with SiteServer() as s:
        for i, body in enumerate(BODIES.values()):
            data = body.encode()
            s.route(f"/p{i}", lambda req, data=data: Reply(body=data))
        yield s


def _config():
    # No browser here: ``auto`` runs its shell test, then falls back to the static page.
    return loopback_config(
        timeout=TIMEOUT, render="auto", browser_executable="/nonexistent/chromium"
    )


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(BODIES)), ids=list(BODIES))
def test_every_mode_answers_within_the_deadline(site, index):
    tools = Tools(_config())
    with WebClient(_config()) as client:
        for n, mode in enumerate(EXTRACT_MODES):
            # A fresh query each call: nothing is answered from a cache.
            url = site.url(f"/p{index}?tool={n}")
            start = time.monotonic()
            out = tools.fetch_page(url, extract=mode)
            took = time.monotonic() - start
            assert isinstance(out, str) and out, mode
            assert took < BOUND, f"fetch_page {mode}: {took:.1f} s"

            start = time.monotonic()
            try:
                page = client.fetch(site.url(f"/p{index}?client={n}"), extract=mode)
            except WebgripError:  # a typed error in time is an answer too
                pass
            else:
                assert not page.rendered and page.extract == mode
            took = time.monotonic() - start
            assert took < BOUND, f"WebClient.fetch {mode}: {took:.1f} s"


def test_the_public_shell_test_is_linear_and_keeps_its_answers():
    import webgrip
    from webgrip import _core

    assert webgrip.is_script_shell('<div id="root"></div><script src="/main.js"></script>')
    assert not webgrip.is_script_shell(
        "<h1>Hi</h1>"
        + "<p>Long text here.</p>" * 30
        + '<div id="root"></div><script src="/main.js"></script>'
    )
    assert _core.script_shell_reason(b"<body><script src=/a.js></script></body>") == (
        "empty body with scripts"
    )
    # 10 MiB of each prefix (the target): milliseconds, where the regexes took hours.
    for prefix in PREFIXES:
        body = (LEAD + prefix * (10 * SIZE // len(prefix))).encode()
        start = time.monotonic()
        _core.script_shell_reason(body)
        assert time.monotonic() - start < TIMEOUT, prefix
