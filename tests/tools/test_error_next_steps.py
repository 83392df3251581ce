"""Every error's next step fits its cause (issue 47, item 6): no "try again later" for a
setting that is wrong, no step that contradicts the one the message already gives, no cause
said twice, and the setting to change named where there is one."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer, page
from webgrip.cli import EXIT_BLOCKED, EXIT_FAILURE, main
from webgrip.config import Config
from webgrip.tools import Tools

PDF_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pdf"
#: A page its scripts build: an empty app root and a script (the core's "app-root" shell).
SHELL = (
    "<!doctype html><html><head><title>App</title></head><body><div id='root'></div>"
    "<script src='/app.js'></script></body></html>"
)


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- search: the step fits the cause ------------------------------------------------------------
def test_a_refused_search_endpoint_names_the_settings_and_not_waiting():
    tools = Tools(
        Config(search_provider="searxng", search_endpoints={"searxng": "http://127.0.0.1:9/s"})
    )
    answer = tools.search_web("webgrip")
    assert answer.startswith("Error: Search failed")
    assert "search_endpoints and allow_networks" in answer
    assert "Try again later" not in answer and "rephrase" not in answer


def test_a_search_endpoint_that_does_not_resolve_points_at_the_network():
    tools = Tools(
        Config(
            search_provider="searxng",
            search_endpoints={"searxng": "http://no-such-host.invalid/search"},
        )
    )
    answer = tools.search_web("webgrip")
    assert "Check the network connection and the endpoint (search_endpoints)" in answer
    assert "rephrase" not in answer


def test_providers_without_keys_say_to_set_them_not_to_wait():
    tools = Tools(Config(search_provider="brave", search_fallbacks=("tavily",)))
    answer = tools.search_web("webgrip")
    assert "WEBGRIP_BRAVE_API_KEY" in answer and "WEBGRIP_TAVILY_API_KEY" in answer
    assert answer.endswith("Set what the message names, or choose another search provider.")


def test_an_empty_query_on_the_command_line_says_what_to_do(capsys):
    assert main(["search", "  "]) == EXIT_FAILURE
    line = capsys.readouterr().err.strip()
    assert line.endswith("the search query is empty. Say what to search for."), line
    assert "rephrase" not in line and "Try again" not in line


# -- render and proxy: one cause, one step ------------------------------------------------------
def test_a_browser_setting_that_is_wrong_says_how_to_fix_it_and_nothing_else(tmp_path, site):
    url = site.route("/", page(SHELL))
    tools = Tools(loopback_config(render="always", browser_executable=str(tmp_path / "chrome")))
    answer = tools.fetch_page(url)
    assert "is not an executable browser (it does not exist)" in answer
    assert "WEBGRIP_BROWSER_EXECUTABLE" in answer
    assert "Try again" not in answer and "another source" not in answer


def test_a_proxy_that_refuses_is_said_once():
    target = f"http://127.0.0.1:{closed_port()}/"
    tools = Tools(loopback_config(proxy=f"http://127.0.0.1:{closed_port()}"))
    answer = tools.fetch_page(target)
    assert answer.count("Could not fetch") == 1, answer
    assert "through the proxy" in answer and "WEBGRIP_PROXY" in answer


def test_a_page_its_scripts_build_says_why_it_is_empty_not_to_try_html(site, tmp_path):
    url = site.route("/", page(SHELL))
    answer = Tools(loopback_config(browser_executable=str(tmp_path / "chrome"))).fetch_page(url)
    assert "built by its scripts (app-root" in answer
    assert "cannot run here: browser_executable" in answer
    assert 'extract="html"' not in answer


def test_the_command_line_says_to_pass_render_for_a_page_its_scripts_build(
    site, monkeypatch, capsys
):
    url = site.route("/", page(SHELL))
    monkeypatch.setenv("WEBGRIP_ALLOW_NETWORKS", "127.0.0.0/8")
    monkeypatch.setenv("WEBGRIP_RENDER", "never")
    assert main(["fetch", url]) == EXIT_FAILURE
    line = capsys.readouterr().err.strip()
    assert 'rendering is off (render = "never"). Pass --render to run them' in line, line
    assert "--extract html" not in line


# -- check, PDFs, size caps -----------------------------------------------------------------------
def test_check_on_loopback_says_how_to_open_the_range(monkeypatch, capsys):
    monkeypatch.delenv("WEBGRIP_ALLOW_NETWORKS", raising=False)
    assert main(["check", "http://127.0.0.1:9/"]) == EXIT_BLOCKED
    got = capsys.readouterr()
    assert got.out.startswith("refused: loopback-address: ")
    assert "--allow 127.0.0.0/8" in got.err


def test_a_locked_pdf_says_how_to_give_its_password(site):
    body = (PDF_FIXTURES / "encrypted-password.pdf").read_bytes()
    url = site.route("/locked.pdf", lambda req: Reply(body=body, content_type="application/pdf"))
    answer = Tools(loopback_config()).fetch_page(url)
    assert "password-protected PDF" in answer
    assert "webgrip extract FILE --password PASSWORD" in answer
    assert "extract_pdf(data, password=...)" in answer


def test_the_fetch_size_cap_names_its_setting(site):
    url = site.route("/long", page("<p>" + "word " * 2000 + "</p>"))
    answer = Tools(loopback_config(max_response_bytes=1000)).fetch_page(url)
    assert "larger than the 1000 bytes size limit" in answer
    assert "max_response_bytes" in answer and "WEBGRIP_MAX_RESPONSE_BYTES" in answer
