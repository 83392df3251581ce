"""The request flags of the command line (issue 36): --timeout, --header, --user-agent,
--proxy, --allow, --robots/--ignore-robots, and extract --password. Each is checked against a
loopback server the test starts (what it received), over the config file and the
``WEBGRIP_*`` variables; a bad value is one ``webgrip: ...`` line naming the flag, exit 2.

Loopback is refused by default: these tests open it with ``--allow 127.0.0.0/8`` (the
environment is cleared of every ``WEBGRIP_*`` variable first)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from helpers.proxy_server import RecordingProxy
from helpers.siteserver import Reply, SiteServer, article, ddg_results, page
from webgrip.cli import EXIT_BLOCKED, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main

PDFS = Path(__file__).resolve().parent.parent / "fixtures" / "pdf"
ALLOW = ("--allow", "127.0.0.0/8")


def one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("webgrip: ")
    return lines[0]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No WEBGRIP_* variable and no config file from the machine; no politeness delay."""
    for key in list(os.environ):
        if key.startswith("WEBGRIP_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("WEBGRIP_RATE_LIMIT_SECONDS", "0")
    monkeypatch.setenv("WEBGRIP_MAX_RETRIES", "0")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def site():
    with SiteServer() as s:
        s.route("/page", page(article("Flags")))
        yield s


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- --header and --user-agent ----------------------------------------------------------------
def test_header_is_sent_and_repeatable(site, capsys):
    code, out, err = run(
        capsys,
        "fetch",
        site.url("/page"),
        *ALLOW,
        "--header",
        "X-Trace: abc123",
        "-H",
        "Accept-Language:fr-CH",
    )
    assert code == EXIT_OK, err
    assert "Flags paragraph 0" in out
    got = site.hits("/page")[0].headers
    assert got["x-trace"] == "abc123"
    assert got["accept-language"] == "fr-CH"


def test_header_flag_replaces_the_same_header_of_the_environment(site, capsys, monkeypatch):
    monkeypatch.setenv("WEBGRIP_HEADERS", "X-Trace=from-env;X-Team=docs")
    code, _, err = run(capsys, "fetch", site.url("/page"), *ALLOW, "-H", "x-trace: from-flag")
    assert code == EXIT_OK, err
    got = site.hits("/page")[0].headers
    assert got["x-trace"] == "from-flag"  # flag > env, whatever the spelling of the name
    assert got["x-team"] == "docs"  # the others are kept


def test_a_credential_header_goes_with_the_fetch(site, capsys):
    # The config refuses Authorization (it would go to every site); the flag sends it with
    # this one call, to this URL's site.
    code, _, err = run(
        capsys, "fetch", site.url("/page"), *ALLOW, "--header", "Authorization: Bearer tok-1"
    )
    assert code == EXIT_OK, err
    assert site.hits("/page")[0].headers["authorization"] == "Bearer tok-1"


def test_download_sends_the_headers(site, capsys, monkeypatch, tmp_path):
    site.route("/file.csv", lambda req: Reply(200, b"a,b\n1,2\n", content_type="text/csv"))
    monkeypatch.setenv("WEBGRIP_DOWNLOAD_DIRS", str(tmp_path))
    code, out, err = run(
        capsys,
        "download",
        site.url("/file.csv"),
        "-o",
        str(tmp_path),
        *ALLOW,
        "-H",
        "Cookie: session=s1",
        "-H",
        "X-Trace: dl",
        "--user-agent",
        "dl-agent/2",
    )
    assert code == EXIT_OK, err
    assert Path(out.strip()).read_bytes() == b"a,b\n1,2\n"
    got = site.hits("/file.csv")[0].headers
    assert (got["cookie"], got["x-trace"], got["user-agent"]) == ("session=s1", "dl", "dl-agent/2")


def test_search_sends_the_headers(site, capsys, monkeypatch):
    site.route("/html/", page(ddg_results([("Rust", "https://www.rust-lang.org/", "A lang")])))
    monkeypatch.setenv(
        "WEBGRIP_SEARCH_ENDPOINTS",
        f"duckduckgo_html={site.url('/html/')};duckduckgo_lite={site.url('/lite/')}",
    )
    code, out, err = run(
        capsys, "search", "rust", *ALLOW, "-H", "X-Trace: s", "--user-agent", "search-agent/1"
    )
    assert code == EXIT_OK, err
    assert "https://www.rust-lang.org/" in out
    got = site.hits("/html/")[0].headers
    assert (got["x-trace"], got["user-agent"]) == ("s", "search-agent/1")


def test_user_agent_is_sent_over_the_environment(site, capsys, monkeypatch):
    monkeypatch.setenv("WEBGRIP_USER_AGENT", "from-env/1")
    code, _, err = run(
        capsys,
        "fetch",
        site.url("/page"),
        *ALLOW,
        "--user-agent",
        "Mozilla/5.0 (compatible; flag-test/1.0)",
    )
    assert code == EXIT_OK, err
    assert site.hits("/page")[0].headers["user-agent"] == "Mozilla/5.0 (compatible; flag-test/1.0)"


# -- --timeout ------------------------------------------------------------------------------
def test_timeout_is_honoured_and_named(site, capsys, monkeypatch):
    monkeypatch.setenv("WEBGRIP_TIMEOUT", "20")  # the flag wins over the variable
    release = threading.Event()
    site.route("/stall", lambda req: (release.wait(10), Reply(200, b"late"))[1])
    try:
        code, out, err = run(capsys, "fetch", site.url("/stall"), *ALLOW, "--timeout", "0.5")
    finally:
        release.set()
    assert code == EXIT_FAILURE
    line = one_line(err)
    assert "Timed out after 0.5 s fetching" in line
    assert "--timeout 60" in line  # what to do, in the command line's terms
    assert out == ""


# -- --allow --------------------------------------------------------------------------------
def test_loopback_is_refused_without_allow_and_fetched_with_it(site, capsys):
    code, out, err = run(capsys, "fetch", site.url("/page"))
    assert code == EXIT_BLOCKED
    line = one_line(err)
    assert "loopback" in line and "--allow 127.0.0.0/8" in line
    assert site.hits("/page") == [] and out == ""
    code, out, err = run(capsys, "fetch", site.url("/page"), "--allow", "127.0.0.1/32")
    assert code == EXIT_OK, err
    assert "Flags paragraph 0" in out


def test_allow_adds_to_the_configured_ranges(site, capsys, monkeypatch):
    monkeypatch.setenv("WEBGRIP_ALLOW_NETWORKS", "10.20.0.0/16")
    code, out, _ = run(capsys, "check", "http://10.20.1.1/", *ALLOW)
    assert (code, out) == (EXIT_OK, "allowed: http://10.20.1.1/\n")
    code, out, _ = run(capsys, "check", site.url("/page"), *ALLOW)
    assert code == EXIT_OK and out.startswith("allowed: ")
    code, out, _ = run(capsys, "check", site.url("/page"))
    assert code == EXIT_BLOCKED and out.startswith("refused: loopback-address")


# -- --robots / --ignore-robots ---------------------------------------------------------------
def test_robots_flags_override_the_setting(site, capsys, monkeypatch):
    site.route(
        "/robots.txt",
        lambda req: Reply(200, b"User-agent: *\nDisallow: /page\n", content_type="text/plain"),
    )
    # Off by default: the page is fetched and robots.txt is not even asked.
    code, out, err = run(capsys, "fetch", site.url("/page"), *ALLOW)
    assert code == EXIT_OK, err
    assert site.hits("/robots.txt") == []
    code, out, err = run(capsys, "fetch", site.url("/page"), *ALLOW, "--robots")
    assert code == EXIT_BLOCKED
    assert "robots" in one_line(err) and out == ""
    monkeypatch.setenv("WEBGRIP_RESPECT_ROBOTS_TXT", "true")
    code, out, err = run(capsys, "fetch", site.url("/page"), *ALLOW)
    assert code == EXIT_BLOCKED, err
    code, out, err = run(capsys, "fetch", site.url("/page"), *ALLOW, "--ignore-robots")
    assert code == EXIT_OK, err
    assert "Flags paragraph 0" in out


# -- --proxy ------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["http", "socks5"])
def test_proxy_flag_routes_through_the_proxy(site, capsys, kind):
    with RecordingProxy(kind) as proxy:
        code, out, err = run(capsys, "fetch", site.url("/page"), *ALLOW, "--proxy", proxy.url())
    assert code == EXIT_OK, err
    assert "Flags paragraph 0" in out
    prefix = "ipv4 " if kind == "socks5" else ""
    assert proxy.targets == [f"{prefix}127.0.0.1:{site.port}"]


def test_proxy_flag_gives_the_config_error(capsys, monkeypatch):
    code, _, config_err = run(
        capsys,
        "check",
        "https://example.com/",
        "--config",
        str(_toml('proxy = "socks5h://127.0.0.1:1080"')),
    )
    assert code == EXIT_USAGE
    code, _, flag_err = run(
        capsys, "fetch", "https://example.com/", "--proxy", "socks5h://127.0.0.1:1080"
    )
    assert code == EXIT_USAGE
    line = one_line(flag_err)
    assert line.startswith("webgrip: invalid value for --proxy: socks5h://")
    # The same explanation as the config's, the flag named instead of the key.
    why = config_err.split("'proxy': ", 1)[1].strip().split(" (")[0]
    assert why.split(";")[0] in line


def test_proxy_flag_never_echoes_the_password(capsys):
    code, _, err = run(
        capsys, "fetch", "https://example.com/", "--proxy", "ftp://agent:hunter2@proxy.corp:21"
    )
    assert code == EXIT_USAGE
    line = one_line(err)
    assert "--proxy" in line and "hunter2" not in line


def _toml(text: str) -> Path:
    path = Path("webgrip-test.toml")
    path.write_text(text + "\n")
    return path


# -- bad values: one line naming the flag, exit 2, no request ------------------------------------
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--timeout", "0"], "--timeout"),
        (["--timeout", "-3"], "--timeout"),
        (["--timeout", "soon"], "--timeout"),
        (["--timeout", "nan"], "--timeout"),
        (["--header", "X-Trace"], "--header needs NAME:VALUE"),
        (["--header", ": value"], "--header needs NAME:VALUE"),
        (["--header", "X-Trace: a\r\nX-Evil: b"], "line break"),
        (["--header", "X-Trace: a\nb"], "line break"),
        (["--header", "Host: other.test"], "--header"),
        (["--header", "Bad Name: v"], "--header"),
        (["--user-agent", ""], "--user-agent"),
        (["--user-agent", "a\nb"], "--user-agent"),
        (["--proxy", "ftp://proxy.example:21"], "--proxy"),
        (["--proxy", "proxy.example:3128"], "--proxy"),
        (["--allow", "not-a-network"], "--allow"),
        (["--allow", "10.0.0.0/99"], "--allow"),
    ],
)
def test_bad_flag_values_are_one_line_usage_errors(site, capsys, args, said):
    code, out, err = run(capsys, "fetch", site.url("/page"), *ALLOW, *args)
    assert code == EXIT_USAGE
    line = one_line(err)
    assert said in line
    assert ". " in line  # what happened. what to do
    assert out == "" and site.hits("/page") == []


def test_a_header_value_is_never_echoed(site, capsys):
    code, _, err = run(
        capsys,
        "fetch",
        site.url("/page"),
        *ALLOW,
        "--header",
        "X-Key: secret-1\r\nX-More: secret-2",
    )
    assert code == EXIT_USAGE
    assert "secret" not in err


def test_credential_header_is_refused_where_it_would_reach_every_site(capsys):
    code, _, err = run(capsys, "search", "q", "--header", "Authorization: Bearer tok-2")
    assert code == EXIT_USAGE
    line = one_line(err)
    assert "--header" in line and "site_headers" in line and "tok-2" not in line


def test_credential_header_with_the_browser_is_refused(site, capsys):
    code, _, err = run(
        capsys,
        "fetch",
        site.url("/page"),
        *ALLOW,
        "--render",
        "--header",
        "Authorization: Bearer tok-3",
    )
    assert code == EXIT_USAGE
    line = one_line(err)
    assert "--render" in line and "--header Authorization" in line
    assert site.hits("/page") == []


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (["check", "https://example.com/"], "--timeout"),
        (["check", "https://example.com/"], "--header"),
        (["search", "q"], "--robots"),
        (["extract", "-"], "--allow"),
        (["map", "https://example.com/"], "--rate-limit"),  # batch and crawl only
    ],
)
def test_commands_without_a_flag_refuse_it(capsys, command, flag):
    assert main([*command, flag, "x"]) == EXIT_USAGE
    assert "unrecognized arguments" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        (
            "fetch",
            [
                "--timeout",
                "--header",
                "--user-agent",
                "--proxy",
                "--allow",
                "--robots",
                "--ignore-robots",
            ],
        ),
        ("download", ["--timeout", "--header", "--user-agent", "--proxy", "--allow", "--robots"]),
        ("batch", ["--timeout", "--header", "--user-agent", "--proxy", "--allow", "--robots"]),
        ("search", ["--timeout", "--header", "--user-agent", "--proxy", "--allow"]),
        ("check", ["--allow"]),
    ],
)
def test_help_lists_the_request_flags(capsys, command, flags):
    assert main([command, "--help"]) == EXIT_OK
    text = capsys.readouterr().out
    assert "request options" in text
    for flag in flags:
        assert flag in text


# -- extract --password -------------------------------------------------------------------------
def test_extract_opens_an_encrypted_pdf_with_the_password(capsys):
    locked = str(PDFS / "encrypted-password.pdf")
    code, out, err = run(capsys, "extract", locked, "--password", "open-sesame")
    assert code == EXIT_OK, err
    assert "examine the proposal" in " ".join(out.split())
    code, out, err = run(capsys, "extract", locked)
    assert code == EXIT_FAILURE and out == ""
    line = one_line(err)
    assert "password-protected PDF" in line and "--password" in line and locked in line
    code, out, err = run(capsys, "extract", locked, "--password", "wrong")
    assert code == EXIT_FAILURE and out == ""
    assert "does not open" in one_line(err)


def test_extract_password_keeps_the_page_shape(capsys):
    import json

    code, plain, _ = run(
        capsys, "extract", str(PDFS / "hyphenation.pdf"), "--json", "--mode", "text"
    )
    assert code == EXIT_OK
    code, opened, err = run(
        capsys,
        "extract",
        str(PDFS / "encrypted-password.pdf"),
        "--json",
        "--mode",
        "text",
        "--password",
        "open-sesame",
    )
    assert code == EXIT_OK, err
    assert json.loads(opened) == json.loads(plain)


def test_extract_password_on_html_is_a_usage_error(capsys, tmp_path):
    html = tmp_path / "page.html"
    html.write_text("<html><body><p>Hello</p></body></html>")
    code, out, err = run(capsys, "extract", str(html), "--password", "x")
    assert code == EXIT_USAGE and out == ""
    assert "not a PDF" in one_line(err)
