"""robots.txt: RFC 9309 matching, and the fetch-time check on and off against loopback."""

from __future__ import annotations

import re
import time

import pytest
from helpers.loopback import loopback_config
from hypothesis import given
from hypothesis import strategies as st
from webgrip import BlockedURLError, Config, InvalidURLError, Tools
from webgrip.client import WebClient
from webgrip.robots import RobotsRules, _matches

ROBOTS = """# comment
User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /*.json$

User-agent: webgrip
User-agent: otherbot
Disallow: /no-webgrip
Allow: /no-webgrip/but-this
"""


@pytest.mark.parametrize(
    ("token", "path", "allowed"),
    [
        ("somebot", "/", True),
        ("somebot", "/private/x", False),
        ("somebot", "/private/open/page", True),  # longer Allow wins
        ("somebot", "/data.json", False),
        ("somebot", "/data.json?x=1", True),  # "$" anchors the end
        ("somebot", "/robots.txt", True),
        ("webgrip", "/private/x", True),  # own group replaces "*"
        ("WebGrip", "/no-webgrip/page", False),  # case-insensitive token
        ("webgrip", "/no-webgrip/but-this", True),
        ("otherbot", "/no-webgrip", False),
    ],
)
def test_rules(token, path, allowed):
    rules = RobotsRules.parse(ROBOTS)
    assert rules.can_fetch(token, "https://example.com" + path) is allowed


def test_tie_goes_to_allow_and_empty_disallow_allows_all():
    rules = RobotsRules.parse("User-agent: *\nDisallow: /page\nAllow: /page\n")
    assert rules.can_fetch("x", "https://e.test/page")
    assert RobotsRules.parse("User-agent: *\nDisallow:\n").can_fetch("x", "https://e.test/a")
    assert RobotsRules.parse("").can_fetch("x", "https://e.test/a")


def test_wildcards_and_percent_encoding():
    rules = RobotsRules.parse("User-agent: *\nDisallow: /*/edit\nDisallow: /caf%C3%A9\n")
    assert not rules.can_fetch("x", "https://e.test/wiki/edit")
    assert rules.can_fetch("x", "https://e.test/edit")
    assert not rules.can_fetch("x", "https://e.test/café/menu")


def test_many_wildcards_match_in_linear_time():
    # Found while writing the robots fuzz target (docs/reliability.md): the pattern used to
    # become a backtracking regex, and this line against a 50-character path took 40 s.
    hostile = "/" + "*a" * 12 + "*b"
    path = "/" + "a" * 5000
    rules = RobotsRules.parse(f"User-agent: *\nDisallow: {hostile}\n")
    started = time.monotonic()
    assert rules.can_fetch("x", "https://e.test" + path)
    assert not rules.can_fetch("x", "https://e.test" + path + "b")
    # Linear is milliseconds, the backtracking regex 40 s: 10 s is a loaded machine's room.
    assert time.monotonic() - started < 10.0


def _regex_matches(pattern: str, path: str) -> bool:
    """The former implementation: correct, exponential on hostile patterns."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(piece) for piece in body.split("*"))
    return re.match(regex + ("$" if anchored else ""), path, flags=re.DOTALL) is not None


@given(pattern=st.text("ab*$/", max_size=10), path=st.text("ab$/*", max_size=12))
def test_wildcard_matching_agrees_with_a_regex(pattern, path):
    assert _matches(pattern, path) is _regex_matches(pattern, path)


SITE_ROBOTS = "User-agent: *\nDisallow: /private/\n\nUser-agent: otherbot\nDisallow: /public2\n"


def serve_site(httpserver, robots_body: str | None = SITE_ROBOTS, robots_status: int = 200):
    if robots_body is not None:
        httpserver.expect_request("/robots.txt").respond_with_data(
            robots_body, status=robots_status, content_type="text/plain"
        )
    for path in ("/private/x", "/public", "/public2"):
        httpserver.expect_request(path).respond_with_data(
            f"content of {path}", content_type="text/plain"
        )


def robots_hits(httpserver) -> int:
    return sum(1 for req, _ in httpserver.log if req.path == "/robots.txt")


def test_robots_on_disallowed_refused_allowed_ok_fetched_once(tmp_path, httpserver):
    serve_site(httpserver)
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True))
    answer = tools.fetch_page(httpserver.url_for("/private/x"))
    assert answer.startswith("Error: robots.txt of http://")
    assert "disallows" in answer and "use another source" in answer
    assert not any(req.path == "/private/x" for req, _ in httpserver.log)
    assert tools.fetch_page(httpserver.url_for("/public")).endswith("content of /public")
    assert tools.fetch_page(httpserver.url_for("/public2")).endswith("content of /public2")
    assert robots_hits(httpserver) == 1


def test_robots_group_chosen_by_user_agent_token(tmp_path, httpserver):
    serve_site(httpserver)
    tools = Tools(
        loopback_config(
            tmp_path, respect_robots_txt=True, user_agent="OtherBot/2.0 (+https://e.test)"
        )
    )
    assert tools.fetch_page(httpserver.url_for("/private/x")).endswith("content of /private/x")
    assert tools.fetch_page(httpserver.url_for("/public2")).startswith("Error: robots.txt")


def test_robots_block_raises_typed_error(tmp_path, httpserver):
    serve_site(httpserver)
    with (
        WebClient(loopback_config(tmp_path, respect_robots_txt=True)) as client,
        pytest.raises(BlockedURLError) as info,
    ):
        client.fetch(httpserver.url_for("/private/x"))
    assert info.value.reason == "robots-txt"


def test_robots_off_by_default(tmp_path, httpserver):
    serve_site(httpserver)
    answer = Tools(loopback_config(tmp_path)).fetch_page(httpserver.url_for("/private/x"))
    assert answer.endswith("content of /private/x")
    assert robots_hits(httpserver) == 0


def test_missing_robots_allows(tmp_path, httpserver):
    serve_site(httpserver, "not here", robots_status=404)
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True))
    assert tools.fetch_page(httpserver.url_for("/private/x")).endswith("content of /private/x")


def test_robots_server_error_disallows(tmp_path, httpserver):
    serve_site(httpserver, "oops", robots_status=500)
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True, max_retries=0))
    answer = tools.fetch_page(httpserver.url_for("/public"))
    assert answer.startswith("Error: robots.txt of") and "HTTP 500" in answer


def test_robots_applies_to_downloads(tmp_path, httpserver):
    serve_site(httpserver)
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True))
    answer = tools.download_file(httpserver.url_for("/private/x"))
    assert answer.startswith("Error:") and "robots.txt" in answer
    assert list(tmp_path.iterdir()) == []


def test_backslash_spelling_reads_the_robots_of_the_site_fetched(tmp_path, httpserver):
    # `http://HOST\private\x` is HOST's /private/x to the fetch (WHATWG); robots.txt must be
    # read from HOST and matched against that path, not against a host of `HOST\private\x`.
    serve_site(httpserver)
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True))
    sneaky = httpserver.url_for("/").rstrip("/") + "\\private\\x"
    answer = tools.fetch_page(sneaky)
    assert answer.startswith("Error: robots.txt of http://")
    assert not any(req.path == "/private/x" for req, _ in httpserver.log)
    assert robots_hits(httpserver) == 1


def test_every_spelling_of_a_site_shares_one_robots_txt(tmp_path, httpserver):
    # 127.0.0.1 written as hex and as one number is the same site: one robots.txt, one
    # cache entry, the same verdict.
    serve_site(httpserver)
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True))
    port = httpserver.port
    for host in ("127.0.0.1", "0x7f.0.0.1", "2130706433"):
        answer = tools.fetch_page(f"http://{host}:{port}/private/x")
        assert answer.startswith("Error: robots.txt of http://127.0.0.1:"), answer
    assert robots_hits(httpserver) == 1


@pytest.mark.parametrize("url", ["http://[::1/x", "http://a]b/"])
def test_unreadable_url_with_robots_on_is_invalid_url(tmp_path, url):
    # Found by fuzzing (fuzz/python/targets.py robots): urlsplit's ValueError escaped.
    config = loopback_config(tmp_path, respect_robots_txt=True)
    with pytest.raises(InvalidURLError) as info:
        WebClient(config).fetch(url)
    assert info.value.url == url
    assert Tools(config).fetch_page(url).startswith("Error: Invalid URL")


def test_a_robots_fetch_that_found_the_host_busy_is_not_cached_as_unreachable():
    """Nothing was sent (the host's rate-limit queue was longer than the call): the site said
    nothing, so the host must not be treated as disallowed for a minute; the caller (a batch
    queues) gets the error and the next check fetches robots.txt."""
    from webgrip.errors import FetchTimeoutError
    from webgrip.response import Response
    from webgrip.robots import RobotsCache

    class Busy:
        def __init__(self):
            self.calls = 0

        def send(self, method, url, **kwargs):
            self.calls += 1
            if self.calls == 1:
                raise FetchTimeoutError(
                    "slot after the deadline", url=url, reason="timeout", retry_in=1.5
                )
            return Response(
                url=url,
                status=200,
                headers={},
                content=b"User-agent: *\n",
                content_type="text/plain",
                charset=None,
                redirects=(),
                remote_addr="",
                elapsed=0.0,
            )

    sender = Busy()
    cache = RobotsCache(sender, user_agent="webgrip/1")
    with pytest.raises(FetchTimeoutError) as busy:
        cache.check("https://site.example/page", time.monotonic() + 5)
    assert busy.value.retry_in == 1.5
    cache.check("https://site.example/page", time.monotonic() + 5)  # fetched, allowed
    assert sender.calls == 2


def test_a_refused_site_is_refused_for_the_page_asked_for_not_its_robots_txt():
    """The policy's refusal names the page the caller asked for (it named robots.txt)."""
    with (
        WebClient(Config(respect_robots_txt=True)) as client,
        pytest.raises(BlockedURLError) as info,
    ):
        client.fetch("http://10.0.0.1/reports?q=1")
    assert info.value.reason == "private-address"
    assert info.value.url == "http://10.0.0.1/reports?q=1"
    assert str(info.value).startswith("Refused http://10.0.0.1/reports?q=1:")
    assert "robots.txt" not in str(info.value)
    answer = Tools(Config(respect_robots_txt=True)).fetch_page("http://10.0.0.1/reports")
    assert "http://10.0.0.1/reports" in answer and "robots.txt" not in answer


def test_a_robots_txt_redirected_to_a_refused_address_is_no_robots_txt(tmp_path, httpserver):
    """Read as unavailable (RFC 9309: a redirect that cannot be followed): the page is
    fetched, on its own check; the refused address is never contacted."""
    httpserver.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": "http://169.254.169.254/latest/meta-data/"}
    )
    httpserver.expect_request("/page").respond_with_data(
        "<html><body><p>content of /page</p></body></html>", content_type="text/html"
    )
    tools = Tools(loopback_config(tmp_path, respect_robots_txt=True))
    assert tools.fetch_page(httpserver.url_for("/page")).rstrip().endswith("content of /page")
