"""``render="always"`` keeps non-HTML as a static fetch reads it; screenshots of non-HTML are
refused; ``Page.render_reason``; the messages for a configured proxy and a bad
``browser_executable`` (issue 31).

Before, ``always`` handed every URL to the browser: a PDF came back as an empty ``text/html``
page, JSON as the browser's ``<pre>``. Where no browser can run, ``always`` still raises
``RenderError`` before any request (the contract it had), so those tests need a browser.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.proxy_server import RecordingProxy
from helpers.render import APP_JS, DATA, SCRIPT_SHELL, needs_browser, render_config
from helpers.siteserver import Reply, SiteServer, article, loopback_env, page
from webgrip import Config, RenderError, UnsupportedContentError, WebClient, _core
from webgrip.cli import main
from webgrip.render import render_available

PDF = (Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "structure.pdf").read_bytes()
PDF_TITLE = "Field Survey of River Birds"
#: A 1x1 PNG: an image the static path refuses as binary.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)
FEED = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Bird feed</title>'
    "<item><title>Heron seen</title></item></channel></rss>"
)


@pytest.fixture
def site():
    with SiteServer() as s:
        s.route("/", page(SCRIPT_SHELL))
        s.route("/app.js", lambda req: Reply(body=APP_JS.encode(), content_type="text/javascript"))
        s.route(
            "/data.json",
            lambda req: Reply(body=json.dumps(DATA).encode(), content_type="application/json"),
        )
        s.route("/article", page(article("Static article", paragraphs=4)))
        s.route("/doc.pdf", lambda req: Reply(body=PDF, content_type="application/pdf"))
        s.route(
            "/notes.txt",
            lambda req: Reply(body=b"plain notes\nline two\n", content_type="text/plain"),
        )
        s.route(
            "/feed.xml", lambda req: Reply(body=FEED.encode(), content_type="application/rss+xml")
        )
        s.route("/dot.png", lambda req: Reply(body=PNG, content_type="image/png"))
        yield s


def _static_and_always(client: WebClient, url: str):
    return client.fetch(url, render="never"), client.fetch(url, render="always")


@needs_browser
@pytest.mark.parametrize("path", ["/doc.pdf", "/data.json", "/notes.txt", "/feed.xml"])
def test_always_reads_non_html_as_a_static_fetch(site, path):
    with WebClient(render_config()) as client:
        static, always = _static_and_always(client, site.url(path))
    assert always == static  # every field: content, content_type, rendered, render_reason
    assert not always.rendered and always.render_reason is None
    assert always.content_type != "text/html"
    if path == "/doc.pdf":
        assert PDF_TITLE in always.content
    if path == "/data.json":  # pretty-printed JSON, not the browser's <pre>
        assert always.content == json.dumps(DATA, indent=2, ensure_ascii=False)


@needs_browser
def test_always_refuses_an_image_as_a_static_fetch(site):
    with WebClient(render_config()) as client:
        with pytest.raises(UnsupportedContentError) as static:
            client.fetch(site.url("/dot.png"), render="never")
        with pytest.raises(UnsupportedContentError) as always:
            client.fetch(site.url("/dot.png"), render="always")
    assert always.value.content_type == static.value.content_type == "image/png"


@needs_browser
def test_webgrip_render_always_keeps_pdfs(site, monkeypatch):
    monkeypatch.setenv("WEBGRIP_RENDER", "always")
    cfg = Config.from_env(allow_networks=("127.0.0.0/8", "::1/128"), rate_limit_seconds=0)
    assert cfg.render == "always"
    with WebClient(cfg) as client:
        got = client.fetch(site.url("/doc.pdf"))
    assert got.content_type == "application/pdf" and PDF_TITLE in got.content


@needs_browser
def test_cli_render_of_a_pdf_prints_its_text(site):
    got = subprocess.run(
        [sys.executable, "-m", "webgrip", "fetch", "--render", site.url("/doc.pdf")],
        capture_output=True,
        text=True,
        env=loopback_env(),
        timeout=60,
    )
    assert got.returncode == 0, got.stderr
    assert PDF_TITLE in got.stdout


def test_static_pages_have_no_render_reason(site):
    with WebClient(loopback_config(render="never")) as client:
        assert client.fetch(site.url("/")).render_reason is None
        assert client.fetch(site.url("/article")).to_dict()["render_reason"] is None


@needs_browser
def test_render_reason_says_why(site):
    with WebClient(render_config()) as client:
        auto = client.fetch(site.url("/"))
        assert auto.rendered and DATA["paragraphs"][0] in auto.content
        assert auto.render_reason == _core.script_shell_reason(SCRIPT_SHELL.encode())
        assert auto.render_reason == "app-root #app"
        always = client.fetch(site.url("/article"), render="always")
        assert always.rendered and always.render_reason == "always"
        assert always.to_dict()["render_reason"] == "always"
        assert client.fetch(site.url("/article")).render_reason is None  # auto, static


@needs_browser
@pytest.mark.parametrize("path", ["/doc.pdf", "/data.json", "/dot.png"])
def test_a_screenshot_of_non_html_is_refused(site, path):
    with WebClient(render_config()) as client, pytest.raises(UnsupportedContentError) as exc:
        client.screenshot(site.url(path))
    assert exc.value.reason == "not-html"
    assert exc.value.content_type in ("application/pdf", "application/json", "image/png")
    assert "not an HTML page" in str(exc.value) and "no screenshot was taken" in str(exc.value)


@needs_browser
def test_cli_screenshot_of_a_pdf_fails_and_saves_nothing(site, tmp_path):
    png = tmp_path / "shot.png"
    got = subprocess.run(
        [sys.executable, "-m", "webgrip", "fetch", "--screenshot", str(png), site.url("/doc.pdf")],
        capture_output=True,
        text=True,
        env=loopback_env(),
        timeout=60,
    )
    assert got.returncode == 1
    assert "not an HTML page" in got.stderr and "no screenshot was taken" in got.stderr
    assert "saved" not in got.stderr and not png.exists()


def test_cli_render_behind_a_proxy_prints_the_static_page(site):
    with RecordingProxy() as proxy:
        got = subprocess.run(
            [sys.executable, "-m", "webgrip", "fetch", "--render", site.url("/article")],
            capture_output=True,
            text=True,
            env=loopback_env(WEBGRIP_PROXY=proxy.url()),
            timeout=60,
        )
    assert got.returncode == 0, got.stderr
    assert "Static article paragraph 0" in got.stdout
    note = [line for line in got.stderr.splitlines() if "not rendered" in line]
    assert len(note) == 1 and "upstream proxy" in note[0] and "static page" in note[0]
    assert proxy.connections >= 1  # the static page came through the proxy


def test_fetch_always_behind_a_proxy_raises_without_promising_the_static_page(site):
    with RecordingProxy() as proxy, WebClient(loopback_config(proxy=proxy.url())) as client:
        for path in ("/article", "/doc.pdf"):
            with pytest.raises(RenderError) as exc:
                client.fetch(site.url(path), render="always")
        assert proxy.connections == 0  # refused before any request, as before
    assert exc.value.reason == "proxy"
    assert "upstream proxy" in str(exc.value) and "static page is used" not in str(exc.value)


needs_playwright = pytest.mark.skipif(
    find_spec("playwright") is None, reason="playwright is not installed"
)


@needs_playwright
def test_a_bad_browser_executable_is_named(site, tmp_path, capsys, monkeypatch):
    not_exec = tmp_path / "chrome"
    not_exec.write_text("#!/bin/sh\n")
    os.chmod(not_exec, 0o644)
    missing = tmp_path / "missing" / "chrome"
    for path, what in ((missing, "does not exist"), (not_exec, "is not executable")):
        why = render_available(Config(browser_executable=str(path)), proxied=False)
        assert why is not None
        assert str(path) in why and "not an executable browser" in why and what in why
        assert "no Chromium found" not in why
        with (
            WebClient(loopback_config(browser_executable=str(path))) as client,
            pytest.raises(RenderError) as exc,
        ):
            client.fetch(site.url("/article"), render="always")
        assert exc.value.reason == "no-browser" and str(path) in str(exc.value)
        assert "not an executable browser" in str(exc.value)
    assert not site.hits("/article")  # always without a browser: refused before any request
    # And the CLI says so (in-process: the settings come from the environment).
    monkeypatch.chdir(tmp_path)  # no ./webgrip.toml of the tree's
    for name, value in loopback_env(WEBGRIP_BROWSER_EXECUTABLE=str(missing)).items():
        if name.startswith("WEBGRIP_"):
            monkeypatch.setenv(name, value)
    monkeypatch.delenv("WEBGRIP_CONFIG", raising=False)
    monkeypatch.delenv("WEBGRIP_PROFILE", raising=False)
    code = main(["fetch", "--screenshot", str(tmp_path / "s.png"), site.url("/")])
    assert code == 1
    assert "not an executable browser" in capsys.readouterr().err


@needs_browser
def test_batch_rows_say_why_a_page_was_rendered(site, tmp_path):
    """``render_reason`` is a column of every batch row and Parquet file: the shell's reason
    for the rendered app, null for the static article and for a failure."""
    pq = pytest.importorskip("pyarrow.parquet", reason="the ray extra (pyarrow) writes Parquet")
    from webgrip.bulk.batch_run import run_batch
    from webgrip.bulk.pool import ROW_COLUMNS, fetch_rows

    urls = [site.url("/"), site.url("/article"), site.url("/missing")]
    with WebClient(render_config()) as client:
        rows = fetch_rows(client, urls)
    assert [set(r) for r in rows] == [set(ROW_COLUMNS)] * 3
    assert [r["render_reason"] for r in rows] == ["app-root #app", None, None]
    assert rows[2]["error_kind"] == "http-404"

    listed = tmp_path / "urls.txt"
    listed.write_text("\n".join(urls) + "\n")
    run_batch(listed, tmp_path / "out", config=render_config(), concurrency=2)
    table = pq.read_table(tmp_path / "out")
    got = dict(
        zip(table.column("url").to_pylist(), table.column("render_reason").to_pylist(), strict=True)
    )
    assert got == {urls[0]: "app-root #app", urls[1]: None, urls[2]: None}
