"""The command line's edges (issue 47, item 7): a wrong path, flag, URL or key is said in one
line with what to do, with the documented exit status, and creates nothing; ``fetch --find``
prints the passages the agent tool's ``find`` picks."""

from __future__ import annotations

import io
import re
import types

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import SiteServer, article, loopback_env, page
from webgrip.cli import EXIT_BLOCKED, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main
from webgrip.tools import Tools


@pytest.fixture
def loopback(monkeypatch):
    """The environment of :func:`loopback_env` for an in-process ``main``."""
    for key, value in loopback_env().items():
        if key.startswith("WEBGRIP_"):
            monkeypatch.setenv(key, value)
    for key in ("WEBGRIP_CONFIG", "WEBGRIP_PROFILE"):
        monkeypatch.delenv(key, raising=False)


def one_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "Errno" not in stderr
    return lines[0]


# -- paths: said plainly, exit 2, nothing created ------------------------------------------------
def test_batch_with_a_missing_url_list_creates_no_folder(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["batch", str(tmp_path / "urls.txt"), "--out", str(out)]) == EXIT_USAGE
    line = one_line(capsys.readouterr().err)
    assert "urls.txt" in line and "there is no such file" in line
    assert not out.exists()


@pytest.mark.parametrize("command", ["batch", "crawl"])
def test_an_out_that_names_a_file_is_refused_before_anything_is_made(tmp_path, capsys, command):
    listed = tmp_path / "urls.txt"
    listed.write_text("https://example.com/\n")
    taken = tmp_path / "taken"
    taken.write_text("a file")
    args = [str(listed)] if command == "batch" else ["https://example.com/", "--max-pages", "1"]
    assert main([command, *args, "--out", str(taken)]) == EXIT_USAGE
    line = one_line(capsys.readouterr().err)
    assert f"--out {taken} is a file, not a folder" in line
    assert taken.read_text() == "a file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken", "urls.txt"]


# -- usage ----------------------------------------------------------------------------------------
def test_a_flag_the_command_does_not_take_shows_that_commands_usage(capsys):
    assert main(["check", "https://example.com/", "--timeout", "5"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("usage: webgrip check ")
    assert "webgrip check: error: unrecognized arguments: --timeout 5" in err


def test_bare_webgrip_prints_its_help(capsys):
    assert main([]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("usage: webgrip ")
    assert "show the security policy's verdict" in err  # the commands are listed
    assert "required" not in err


# -- a URL without its scheme, an empty stdin, a misspelt key -------------------------------------
def test_a_host_without_a_scheme_gets_the_url_meant(capsys):
    assert main(["fetch", "example.com/docs"]) == EXIT_BLOCKED
    line = one_line(capsys.readouterr().err)
    assert line.endswith("did you mean https://example.com/docs?"), line
    answer = Tools().fetch_page("example.com")
    assert answer.endswith("did you mean https://example.com?"), answer


def test_extract_of_an_empty_stdin_says_stdin_was_empty(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(b"")))
    assert main(["extract", "-"]) == EXIT_FAILURE
    line = one_line(capsys.readouterr().err)
    assert "stdin was empty" in line and "no readable text" not in line


def test_a_misspelt_setting_gets_the_setting_meant(tmp_path, capsys):
    config = tmp_path / "webgrip.toml"
    config.write_text("timout = 5\n")
    assert main(["--config", str(config), "check", "https://example.com/"]) == EXIT_USAGE
    line = one_line(capsys.readouterr().err)
    assert "unknown setting 'timout'" in line and line.endswith("did you mean 'timeout'?")


# -- fetch --find ------------------------------------------------------------------------------
def test_fetch_find_prints_the_passages_the_tool_finds(loopback, capsys):
    with SiteServer() as site:
        url = site.route("/a", page(article("Webgrip", paragraphs=30)))
        assert main(["fetch", url, "--find", "Paragraph 17"]) == EXIT_OK
        got = capsys.readouterr()
        assert got.out.startswith("[at character ")
        assert "paragraph 17:" in got.out and "paragraph 3:" not in got.out
        assert '1 match for "Paragraph 17"' in got.err
        tool = Tools(loopback_config()).fetch_page(url, find="Paragraph 17")
        offsets = re.findall(r"\[at character \d+\]", got.out)
        assert offsets and offsets == re.findall(r"\[at character \d+\]", tool)

        assert main(["fetch", url, "--find", "no such words"]) == EXIT_FAILURE
        got = capsys.readouterr()
        assert got.out == "" and 'no match for "no such words"' in got.err
    assert main(["fetch", url, "--find", " "]) == EXIT_USAGE
    assert "--find needs a word or phrase" in capsys.readouterr().err
