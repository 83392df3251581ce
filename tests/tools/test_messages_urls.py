"""Error messages name the URL that was actually requested.

- In ``http://HOST\\@OTHER/`` the backslash ends the authority (WHATWG, as the core parses
  http and https): HOST is fetched, so a message must not present OTHER as the address.
- A redirect to a ``Location`` that does not parse is reported under that target, not under
  the page that redirected (which is named as the redirecting page).
"""

from __future__ import annotations

import pytest
from helpers.loopback import loopback_config, reply
from webgrip import Tools


def test_backslash_at_is_not_userinfo(raw_server, tmp_path) -> None:
    server = raw_server(reply(404, b"gone", {"Content-Type": "text/plain"}))
    url = f"http://127.0.0.1:{server.port}\\@example.com/"
    tools = Tools(loopback_config(download_dirs=(str(tmp_path),)))
    for answer in (tools.fetch_page(url), tools.download_file(url)):
        assert answer.startswith("Error: HTTP 404"), answer
        assert f"127.0.0.1:{server.port}" in answer
        assert "for http://example.com" not in answer
    assert len(server.requests) == 2
    assert server.requests[0].startswith(b"GET /@example.com/ ")


def test_a_real_password_is_still_hidden(raw_server) -> None:
    # The userinfo before the backslash is userinfo (the core refuses it); never echo it.
    server = raw_server(reply(200, b"ok"))
    answer = Tools(loopback_config()).fetch_page(
        f"http://user:hunter2@127.0.0.1:{server.port}\\@example.com/"
    )
    assert answer.startswith("Error: Refused"), answer
    assert "hunter2" not in answer
    assert server.connections == 0


@pytest.mark.parametrize(
    "location, shown",
    [
        ("http://[bad/", "http://[bad/"),
        ("http://exa mple.com/", "http://exa mple.com/"),
        ("http://example.com:99999/", "http://example.com:99999/"),
    ],
)
def test_unparsable_redirect_target_is_named(raw_server, location: str, shown: str) -> None:
    server = raw_server(reply(302, b"", {"Location": location}))
    start = server.url("/start")
    answer = Tools(loopback_config()).fetch_page(start)
    assert answer.startswith(f"Error: Invalid URL {shown!r} — "), answer
    assert f"redirected from {start}" in answer
