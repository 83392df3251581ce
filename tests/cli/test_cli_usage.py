"""A new user's walk through the command line (issue 36): every mistake gets one line saying
what happened and what to do, with the documented exit status, and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers.siteserver import SiteServer, loopback_env, page
from webgrip.cli import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main


def webgrip(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webgrip", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env if env is not None else loopback_env(),
        timeout=60,
        cwd=cwd,
    )


def one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("webgrip: ")
    return lines[0]


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


# -- 3: a screenshot into a folder that does not exist ----------------------------------------
def test_screenshot_into_missing_folder_is_refused_before_any_request(site, tmp_path):
    url = site.route("/", page("<html><body><h1>Hi</h1></body></html>"))
    result = webgrip("fetch", "--screenshot", "missing-dir/x.png", url, cwd=str(tmp_path))
    assert result.returncode == EXIT_USAGE
    line = one_line(result.stderr)
    assert "missing-dir" in line and "does not exist" in line and "Create it" in line
    assert site.hits("/") == []  # checked first: no request, no browser
    assert list(tmp_path.iterdir()) == []


def test_screenshot_onto_a_folder_is_refused(site, tmp_path, capsys):
    url = site.route("/", page("<html><body><h1>Hi</h1></body></html>"))
    assert main(["fetch", "--screenshot", str(tmp_path), url]) == EXIT_USAGE
    line = one_line(capsys.readouterr().err)
    assert "is a folder" in line
    assert site.hits("/") == []


# -- 4: extract names the file; its help shows %PDF- -----------------------------------------
@pytest.mark.parametrize("mode", ["links", "tables", "html"])
def test_extract_pdf_in_an_html_mode_names_the_file(tmp_path, mode):
    pdf = tmp_path / "file.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    result = webgrip("extract", str(pdf), "--mode", mode, env=dict(os.environ))
    assert result.returncode == EXIT_FAILURE
    line = one_line(result.stderr)
    assert f"--mode {mode} needs an HTML page; {pdf} is a PDF document" in line
    assert "--mode markdown" in line
    stdin = webgrip("extract", "-", "--mode", mode, stdin="%PDF-1.4\n", env=dict(os.environ))
    assert "stdin is a PDF document" in one_line(stdin.stderr)


def test_extract_help_shows_the_pdf_signature():
    text = webgrip("extract", "--help", env=dict(os.environ)).stdout
    assert "%PDF-" in text and "%%PDF" not in text


# -- 5: a page with nothing to print ----------------------------------------------------------
def test_fetch_of_a_page_without_text_says_so_and_fails(site):
    url = site.route("/empty", page("<html><head><title>t</title></head><body></body></html>"))
    result = webgrip("fetch", url)
    assert result.returncode == EXIT_FAILURE
    assert result.stdout == ""
    line = one_line(result.stderr)
    assert "no readable text was found on this page" in line
    assert "--extract html" in line
    links = webgrip("fetch", url, "--extract", "links")
    assert links.returncode == EXIT_FAILURE
    assert "no links were found" in one_line(links.stderr)
    as_json = webgrip("fetch", url, "--json")
    assert as_json.returncode == EXIT_FAILURE and '"content": ""' in as_json.stdout


def test_extract_of_a_file_without_text_says_so_and_fails():
    result = webgrip("extract", "-", stdin="<html><body></body></html>", env=dict(os.environ))
    assert result.returncode == EXIT_FAILURE
    assert "no readable text was found in stdin" in one_line(result.stderr)


def test_fetch_of_a_page_with_text_still_succeeds(site):
    url = site.route("/a", page("<html><body><main><p>Some words.</p></main></body></html>"))
    result = webgrip("fetch", url)
    assert result.returncode == EXIT_OK and "Some words." in result.stdout


# -- 6: options that would be ignored are usage errors ------------------------------------------
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["fetch", "--full-page", "http://x.test/"], "--full-page only applies to --screenshot"),
        (["fetch", "--screenshot", "s.png", "--no-render", "http://x.test/"], "--no-render"),
        (["fetch", "--screenshot", "s.png", "--json", "http://x.test/"], "--json has no effect"),
        (["fetch", "--screenshot", "s.png", "--extract", "text", "http://x.test/"], "--extract"),
        (["fetch", "--screenshot", "s.png", "--max-length", "5", "http://x.test/"], "--max-length"),
        (["-v", "extract", "-"], "extract makes no request"),
        (["extract", "-", "-v"], "unrecognized arguments: -v"),
    ],
)
def test_conflicting_options_are_usage_errors(capsys, args, said):
    assert main(args) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "usage: webgrip" in err and said in err


def test_extract_help_does_not_offer_verbose():
    text = webgrip("extract", "--help", env=dict(os.environ)).stdout
    assert "--verbose" not in text and "--mode" in text


# -- 7: WEBGRIP_* variables ------------------------------------------------------------------
def _env(**extra: str) -> dict[str, str]:
    plain = {k: v for k, v in os.environ.items() if not k.startswith("WEBGRIP_")}
    return {**plain, **extra}


@pytest.mark.parametrize(
    ("var", "value", "said"),
    [
        ("WEBGRIP_TIMEOUT", "abc", "WEBGRIP_TIMEOUT='abc' is not a number of seconds"),
        ("WEBGRIP_MAX_RETRIES", "many", "WEBGRIP_MAX_RETRIES='many' is not a whole number"),
        ("WEBGRIP_COOKIES", "maybe", "WEBGRIP_COOKIES='maybe' is not true/false"),
        ("WEBGRIP_TIMEOUT", "0", "must be > 0 seconds (set by WEBGRIP_TIMEOUT)"),
    ],
)
def test_bad_variable_value_names_the_variable(var, value, said):
    result = webgrip("check", "http://10.0.0.1/", env=_env(**{var: value}))
    assert result.returncode == EXIT_USAGE
    assert said in one_line(result.stderr)


def test_bad_variable_value_does_not_echo_a_mapping():
    secret = "x.test=http://agent:hun;ter2@proxy.corp:3128"
    result = webgrip("check", "http://10.0.0.1/", env=_env(WEBGRIP_PROXY_FOR=secret))
    assert result.returncode == EXIT_USAGE
    line = one_line(result.stderr)
    assert "WEBGRIP_PROXY_FOR" in line and "ter2" not in line


def test_misspelt_variable_is_refused_with_a_suggestion():
    result = webgrip("check", "http://10.0.0.1/", env=_env(WEBGRIP_TIMOUT="5"))
    assert result.returncode == EXIT_USAGE
    line = one_line(result.stderr)
    assert "unknown environment variable WEBGRIP_TIMOUT" in line
    assert "did you mean WEBGRIP_TIMEOUT?" in line and "Rename or unset it" in line


def test_every_variable_webgrip_reads_is_accepted(tmp_path):
    import dataclasses

    from webgrip.config import Config, known_env_names

    names = {f"WEBGRIP_{f.name.upper()}" for f in dataclasses.fields(Config)}
    assert names | {"WEBGRIP_CONFIG", "WEBGRIP_PROFILE", "WEBGRIP_CORPUS"} <= known_env_names()
    # Not settings, but read by Config.load() (the file, the profile) and the Rust tests.
    cfg = tmp_path / "w.toml"
    cfg.write_text("[profiles.p]\ntimeout = 3\n")
    env = _env(
        WEBGRIP_CONFIG=str(cfg),
        WEBGRIP_PROFILE="p",
        WEBGRIP_CORPUS=str(tmp_path),
        WEBGRIP_ALLOW_NETWORKS="10.0.0.0/8",
    )
    result = webgrip("check", "http://10.0.0.1/", env=env)
    assert result.returncode == EXIT_OK, result.stderr
    assert Config.from_env({"WEBGRIP_CORPUS": "/x", "WEBGRIP_RENDER": "never"}).render == "never"
