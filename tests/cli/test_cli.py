"""The ``webgrip`` command line, run as ``python -m webgrip`` against loopback servers."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers.siteserver import Reply, SiteServer, article, ddg_results, loopback_env, page
from webgrip._progress import ProgressBar, format_bytes, format_duration

HTML = """<html><head><title>Local</title></head><body><main><h1>Local doc</h1>
<p>A paragraph of local text that is long enough to be the main content of this page,
with a <a href="/next">relative link</a> and an <a href="https://example.org/x">absolute</a>.</p>
</main></body></html>"""


def webgrip(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webgrip", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env if env is not None else loopback_env(),
        timeout=timeout,
    )


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


# -- help and usage ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command", ["", "fetch", "search", "download", "extract", "check", "batch", "mcp"]
)
def test_help_for_each_command(command):
    result = webgrip(*([command] if command else []), "--help")
    assert result.returncode == 0
    assert "usage: webgrip" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["fetch"],
        ["fetch", "http://x/", "--max-length", "0"],
        ["bogus"],
        ["search", "q", "-n", "many"],
    ],
)
def test_usage_errors_exit_2(args):
    result = webgrip(*args)
    assert result.returncode == 2
    assert "usage:" in result.stderr


def test_bad_config_exits_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("max_redirects = 99\n")
    result = webgrip("check", "https://example.com/", "--config", str(bad))
    assert result.returncode == 2
    assert "max_redirects" in result.stderr


# -- extract (no network) --------------------------------------------------------------------
def test_extract_from_stdin_to_markdown():
    result = webgrip("extract", "-", stdin=HTML, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert "paragraph of local text" in result.stdout
    # No --url: relative links stay relative, absolute ones are kept.
    assert "[relative link](/next)" in result.stdout
    assert "[absolute](https://example.org/x)" in result.stdout


def test_extract_file_links_with_base_url_as_json(tmp_path):
    f = tmp_path / "page.html"
    f.write_text(HTML)
    result = webgrip(
        "extract",
        str(f),
        "--mode",
        "links",
        "--url",
        "https://site.test/a/",
        "--json",
        env=dict(os.environ),
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    urls = [link["url"] for link in data["data"]]
    assert "https://site.test/next" in urls and "https://example.org/x" in urls
    assert data["extract"] == "links"


def test_extract_missing_file_exits_2(tmp_path):
    result = webgrip("extract", str(tmp_path / "nope.html"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


# -- check ---------------------------------------------------------------------------------
def test_check_verdicts():
    plain = {k: v for k, v in os.environ.items() if not k.startswith("WEBGRIP_")}
    refused = webgrip("check", "http://127.0.0.1:8080/", env=plain)
    assert refused.returncode == 3
    assert refused.stdout.startswith("refused: ")
    metadata = webgrip("check", "http://169.254.169.254/latest/meta-data/", env=plain)
    assert metadata.returncode == 3
    opened = webgrip("check", "http://127.0.0.1:8080/")  # loopback opened in the env
    assert opened.returncode == 0
    assert opened.stdout.startswith("allowed: http://127.0.0.1:8080/")
    scheme = webgrip("check", "file:///etc/passwd")
    assert scheme.returncode == 3


def test_check_reads_a_config_profile(tmp_path):
    cfg = tmp_path / "webgrip.toml"
    cfg.write_text('[profiles.lab]\nallow_networks = ["10.20.0.0/16"]\n')
    plain = {k: v for k, v in os.environ.items() if not k.startswith("WEBGRIP_")}
    assert webgrip("check", "http://10.20.1.1/", env=plain).returncode == 3
    result = webgrip(
        "check", "http://10.20.1.1/", "--config", str(cfg), "--profile", "lab", env=plain
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_name_that_does_not_resolve_is_undecided_exit_1():
    # ``.invalid`` never resolves (RFC 2606): not a policy verdict, so neither 0 nor 3.
    result = webgrip("check", "https://no-such-host.invalid/", timeout=30)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith("undecided: ")
    assert "no-such-host.invalid" in result.stdout


def test_check_help_states_every_exit_status():
    text = " ".join(webgrip("check", "--help").stdout.split())
    assert "Exit 0 if allowed, 3 if refused by the policy, 1 if no verdict could be reached" in text
    assert "does not resolve" in text


@pytest.mark.parametrize("where", ["before", "after"])
def test_common_options_before_or_after_the_command(site, tmp_path, where):
    url = site.route("/v", page(article("Verbose")))
    cfg = tmp_path / "webgrip.toml"
    cfg.write_text("[profiles.tiny]\nmax_response_bytes = 10\n")
    common = ["-v", "--config", str(cfg)]
    args = [*common, "fetch", url] if where == "before" else ["fetch", url, *common]
    result = webgrip(*args)
    assert result.returncode == 0, result.stderr
    assert any(line.startswith("webgrip: GET") for line in result.stderr.splitlines())
    # --profile given on the other side of the command still applies.
    args = (
        [*common, "fetch", url, "--profile", "tiny"]
        if where == "before"
        else ["--profile", "tiny", "fetch", url, *common]
    )
    assert webgrip(*args).returncode == 1  # 10-byte cap: the page is too large


# -- fetch ---------------------------------------------------------------------------------
def test_fetch_prints_markdown(site):
    url = site.route("/a", page(article("Shell")))
    result = webgrip("fetch", url)
    assert result.returncode == 0, result.stderr
    assert "# Shell" in result.stdout and "Shell paragraph 2" in result.stdout
    assert result.stderr == ""


def test_fetch_json_and_paging(site):
    url = site.route("/a", page(article("Paged", paragraphs=20)))
    first = webgrip("fetch", url, "--json", "--max-length", "500")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["title"] == "Paged" and data["start_index"] == 0
    assert len(data["content"]) <= 500
    nxt = data["next_start_index"]
    assert nxt and nxt <= 500 and data["total_length"] > 500
    second = webgrip("fetch", url, "--max-length", "500", "--start-index", str(nxt))
    assert second.returncode == 0
    assert (
        f"--start-index {nxt + len(second.stdout.rstrip(chr(10)))}" in second.stderr
        or "continue with --start-index" in second.stderr
    )
    assert second.stdout.strip() and second.stdout.strip() not in data["content"]


def test_fetch_extract_links(site):
    url = site.route("/l", page(HTML))
    result = webgrip("fetch", url, "--extract", "links")
    assert result.returncode == 0
    assert f"{site.url('/next')}" in result.stdout


def test_fetch_failures_and_refusals_have_distinct_exit_codes(site):
    site.route("/down", lambda req: Reply(500, b"oops"))
    failed = webgrip("fetch", site.url("/down"), env=loopback_env(WEBGRIP_MAX_RETRIES="0"))
    assert failed.returncode == 1
    # What happened and what to do, as the tools say it; no class names.
    assert failed.stderr.startswith("webgrip: HTTP 500 Internal Server Error for http")
    assert "HTTPStatusError" not in failed.stderr and "try again later" in failed.stderr
    blocked = webgrip("fetch", "http://10.0.0.1/")
    assert blocked.returncode == 3
    assert blocked.stderr.startswith("webgrip: Refused http://10.0.0.1/")
    # The first wall every local tester meets says how to open a range on purpose.
    assert "WEBGRIP_ALLOW_NETWORKS=10.0.0.0/8 " in blocked.stderr
    # Never suggested for the link-local range, which holds the cloud metadata address.
    metadata = webgrip("fetch", "http://169.254.169.254/latest/meta-data/")
    assert metadata.returncode == 3 and "link-local" in metadata.stderr
    assert "WEBGRIP_ALLOW_NETWORKS" not in metadata.stderr


def test_a_timeout_says_the_seconds_and_how_to_raise_them(site):
    import threading

    release = threading.Event()
    site.route("/slow", lambda req: (release.wait(5), Reply(200, b"late"))[1])
    try:
        slow = webgrip(
            "fetch",
            site.url("/slow"),
            env=loopback_env(WEBGRIP_TIMEOUT="0.5", WEBGRIP_MAX_RETRIES="0"),
        )
    finally:
        release.set()
    assert slow.returncode == 1, slow.stderr
    assert "Timed out after 0.5 s fetching" in slow.stderr
    assert "WEBGRIP_TIMEOUT=60" in slow.stderr


# -- search --------------------------------------------------------------------------------
def test_search_text_and_json(site):
    site.route(
        "/html/",
        page(
            ddg_results(
                [
                    (
                        "Rust Language",
                        "https://www.rust-lang.org/",
                        "A language empowering everyone",
                    ),
                    ("Rust Book", "https://doc.rust-lang.org/book/", "The book"),
                ]
            )
        ),
    )
    env = loopback_env(
        WEBGRIP_SEARCH_ENDPOINTS=f"duckduckgo_html={site.url('/html/')};"
        f"duckduckgo_lite={site.url('/lite/')}"
    )
    text = webgrip("search", "rust", "-n", "2", env=env)
    assert text.returncode == 0, text.stderr
    assert "1. Rust Language" in text.stdout and "https://doc.rust-lang.org/book/" in text.stdout
    as_json = webgrip("search", "rust", "--json", env=env)
    results = json.loads(as_json.stdout)
    assert [r["url"] for r in results] == [
        "https://www.rust-lang.org/",
        "https://doc.rust-lang.org/book/",
    ]
    query = site.hits("/html/")[0].body.decode()
    assert "q=rust" in query


def test_search_failure_exits_1(site):
    site.route("/html/", lambda req: Reply(500, b"x"))
    env = loopback_env(
        WEBGRIP_SEARCH_ENDPOINTS=f"duckduckgo_html={site.url('/html/')};"
        f"duckduckgo_lite={site.url('/html/')}",
        WEBGRIP_MAX_RETRIES="0",
    )
    result = webgrip("search", "rust", env=env)
    assert result.returncode == 1
    assert "Search" in result.stderr


# -- download ------------------------------------------------------------------------------
def test_download_saves_file_without_progress_when_piped(site, tmp_path):
    site.route("/data.csv", lambda req: Reply(200, b"a,b\n1,2\n", content_type="text/csv"))
    env = loopback_env(WEBGRIP_DOWNLOAD_DIRS=str(tmp_path))
    result = webgrip(
        "download", site.url("/data.csv"), "-o", str(tmp_path), "--name", "x.csv", env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "x.csv")
    assert (tmp_path / "x.csv").read_bytes() == b"a,b\n1,2\n"
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    again = webgrip(
        "download", site.url("/data.csv"), "-o", str(tmp_path), "--name", "x.csv", "--json", env=env
    )
    assert json.loads(again.stdout)["filename"] == "x (1).csv"


def test_download_outside_allowed_dirs_is_blocked(site, tmp_path):
    site.route("/f", lambda req: Reply(200, b"x", content_type="text/plain"))
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    env = loopback_env(WEBGRIP_DOWNLOAD_DIRS=str(allowed))
    result = webgrip("download", site.url("/f"), "-o", str(tmp_path / "elsewhere"), env=env)
    assert result.returncode == 3
    assert list(tmp_path.glob("elsewhere*")) == []


def test_download_shows_progress_on_a_terminal(site, tmp_path):
    pty = pytest.importorskip("pty")
    site.route(
        "/big",
        lambda req: Reply(200, b"y" * (3 * 1024 * 1024), content_type="application/octet-stream"),
    )
    master, slave = pty.openpty()
    env = loopback_env(WEBGRIP_DOWNLOAD_DIRS=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "webgrip", "download", site.url("/big")],
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO once the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    shown = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0
    assert "3.0 MiB/3.0 MiB" in shown and "/s" in shown and "100%" in shown


def test_progress_bar_rendering():
    now = [0.0]
    import io

    out = io.StringIO()
    bar = ProgressBar(out, clock=lambda: now[0], interval=0)
    now[0] = 2.0
    text = bar.render(50 * 1024 * 1024, 100 * 1024 * 1024)
    assert "50%" in text and "50.0 MiB/100.0 MiB" in text and "25.0 MiB/s" in text
    assert "ETA 0:02" in text
    assert "ETA" not in bar.render(1024, None) and "1.0 KiB" in bar.render(1024, None)
    bar(10, 100)
    bar.finish()
    assert out.getvalue().startswith("\r") and out.getvalue().endswith("\n")
    assert format_bytes(512) == "512 B" and format_duration(3700) == "1:01:40"


def test_progress_bar_silent_if_never_drawn():
    import io

    out = io.StringIO()
    ProgressBar(out).finish()
    assert out.getvalue() == ""


def test_verbose_logs_one_line_per_request_without_query(site):
    url = site.route("/a", page(article("Logged")))
    result = webgrip("fetch", url + "?token=SECRET", "-v")
    assert result.returncode == 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("webgrip: GET")]
    assert len(lines) == 1
    assert lines[0].startswith(f"webgrip: GET 127.0.0.1:{site.port} 200 ")
    assert "SECRET" not in result.stderr


def test_docs_match_the_benchmark_and_cli():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    benchmarks = (root / "docs" / "benchmarks.md").read_text()
    cli = (root / "docs" / "cli.md").read_text()
    bench = (root / "benches" / "e2e.py").read_text()
    default = re.search(r'"--pages", type=int, default=(\d+)', bench).group(1)
    assert re.search(rf"python benches/e2e\.py +# {default} pages", benchmarks)
    assert "--only download" in benchmarks and '"--only"' in bench
    assert "webgrip -v fetch" in cli  # -v before the command: accepted, see the test above
