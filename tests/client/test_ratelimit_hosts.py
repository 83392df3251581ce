"""The per-host rate limit holds whatever the spelling of the host: the key is the host the
core connects to (its canonical form), not the text of the URL.

Deterministic, no timing: with ``rate_limit_seconds`` far above ``timeout``, a second
request to the same host cannot get a slot inside its deadline, so it fails at once with
``FetchTimeoutError`` and nothing reaches the server.
"""

from __future__ import annotations

import pytest
from helpers.loopback import loopback_config, reply
from webgrip import WebClient
from webgrip.errors import ConnectError, FetchTimeoutError

SPELLINGS = [
    "http://0x7f.0.0.2:{port}/",
    "http://2130706434:{port}/",
    "http://127.2:{port}/",
    "http://0177.0.0.02:{port}/",
    "http://[::ffff:127.0.0.2]:{port}/",
    "http://[::ffff:7f00:2]:{port}/",
    "http://127.0.0.2.:{port}/",
    "http://127.0.0.%32:{port}/",
    "http://127.0.0.2:{port}\\@example.com/",
]


def limited_client() -> WebClient:
    return WebClient(loopback_config(rate_limit_seconds=600, timeout=5, max_retries=0))


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_other_spellings_of_an_address_share_its_slot(raw_server, spelling: str) -> None:
    server = raw_server(reply(200, b"ok", {"Content-Type": "text/plain"}), host="127.0.0.2")
    with limited_client() as client:
        assert client.get(f"http://127.0.0.2:{server.port}/").status == 200
        with pytest.raises(FetchTimeoutError, match="rate limit"):
            client.get(spelling.format(port=server.port))
    assert server.connections == 1


@pytest.mark.parametrize(
    "spelling",
    ["http://LocalHost:{port}/", "http://localhost.:{port}/", "http://LOCALHOST.:{port}/x"],
)
def test_names_are_compared_lower_case_without_trailing_dots(raw_server, spelling: str) -> None:
    server = raw_server(reply(200, b"ok", {"Content-Type": "text/plain"}))
    with limited_client() as client:
        assert client.get(f"http://localhost:{server.port}/").status == 200
        with pytest.raises(FetchTimeoutError, match="rate limit"):
            client.get(spelling.format(port=server.port))
    assert server.connections == 1


def test_other_hosts_keep_their_own_slot(raw_server) -> None:
    server = raw_server(reply(200, b"ok", {"Content-Type": "text/plain"}), host="127.0.0.2")
    with limited_client() as client:
        client.get(f"http://127.0.0.2:{server.port}/")
        # 127.0.0.3 is another host: it is tried at once (nothing listens there).
        with pytest.raises(ConnectError):
            client.get(f"http://127.0.0.3:{server.port}/")
