"""``webgrip crawl`` as a person runs it, and the async crawl: formats, progress and summary,
Ctrl-C then the same command again, usage errors."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from helpers.interrupt import sigint_as_on_a_terminal
from helpers.loopback import loopback_config, wait_until
from helpers.siteserver import Reply, SiteServer, loopback_env, run_webgrip
from webgrip import AsyncWebClient


def _grid_site(pages: int, delay: float = 0.0) -> SiteServer:
    site = SiteServer()

    def handler(i: int):
        def answer(req):
            if delay:
                time.sleep(delay)
            links = "".join(f'<a href="/p{j % pages}">p{j}</a>' for j in range(i + 1, i + 4))
            return Reply(
                body=(
                    f"<html><head><title>Page {i}</title></head><body><main><h1>Page {i}</h1>"
                    f"<p>Text of page {i}, a page with words enough to be read as its main "
                    f"content by the readable selection.</p>{links}</main></body></html>"
                ).encode()
            )

        return answer

    site.route("/", handler(0))
    for i in range(pages):
        site.route(f"/p{i}", handler(i))
    return site


def _page_hits(site: SiteServer) -> Counter[str]:
    with site._lock:
        return Counter(r.path for r in site.requests if r.path.startswith("/p") or r.path == "/")


def test_crawl_writes_markdown_files_an_index_and_a_summary(tmp_path):
    with _grid_site(12) as site:
        done = run_webgrip(
            "crawl", site.url("/"), "--max-pages", "6", "--out", str(tmp_path), "--format",
            "markdown",
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["pages"] == 6 and summary["failed"] == 0
    assert "6 pages (cap 6)" in done.stderr
    index = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert len(index) == 6
    files = sorted(p.name for p in tmp_path.glob("*.md"))
    assert files == sorted(row["file"] for row in index)
    assert "# Page 0" in (tmp_path / index[0]["file"]).read_text()


def test_crawl_usage_errors_say_what_to_do(tmp_path):
    missing = run_webgrip("crawl", "http://127.0.0.1:9/", "--out", str(tmp_path))
    assert missing.returncode == 2
    assert "--max-pages" in missing.stderr
    bad = run_webgrip("crawl", "ftp://example.com/", "--max-pages", "3", "--out", str(tmp_path))
    assert bad.returncode in (2, 3)
    assert "http" in bad.stderr
    view = run_webgrip(
        "crawl", "http://127.0.0.1:9/", "--max-pages", "3", "--out", str(tmp_path / "x"),
        "--format", "markdown", "--extract", "links",
    )  # fmt: skip
    assert view.returncode == 2
    assert "--format markdown writes .md files" in view.stderr


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child is POSIX")
def test_ctrl_c_writes_what_finished_and_the_same_command_goes_on(tmp_path):
    pages = 30
    with _grid_site(pages, delay=0.2) as site:
        args = [
            sys.executable, "-m", "webgrip", "crawl", site.url("/"), "--max-pages",
            str(pages + 1), "--max-depth", "100", "--concurrency", "2", "--out", str(tmp_path),
        ]  # fmt: skip
        proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=loopback_env(),
            preexec_fn=sigint_as_on_a_terminal,
        )
        rows = tmp_path / "rows.jsonl"
        assert wait_until(lambda: rows.exists() and len(rows.read_text().splitlines()) >= 4, 60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        first = json.loads(out)
        assert first["interrupted"] is True
        assert "run the same command again" in err
        again = subprocess.run(args, capture_output=True, text=True, env=loopback_env())
        assert again.returncode == 0, again.stderr
        second = json.loads(again.stdout)
        hits = _page_hits(site)
    written = [json.loads(line)["url"] for line in rows.read_text().splitlines()]
    assert len(written) == len(set(written)) == pages + 1
    assert second["skipped"] == first["pages"]
    # Only the requests in flight when Ctrl-C came are made a second time.
    assert sum(hits.values()) - (pages + 1) <= 2
    assert Path(tmp_path, ".webgrip-crawl.sqlite3").exists()


def test_the_async_client_crawls_and_stops_when_left():
    async def run(url: str) -> tuple[list[str], list[str]]:
        async with AsyncWebClient(loopback_config()) as client:
            whole = [r.url async for r in client.crawl(url, max_pages=8)]
            some = []
            async for result in client.crawl(url, max_pages=8):
                some.append(result.url)
                if len(some) == 2:
                    break
            return whole, some

    with _grid_site(20) as site:
        whole, some = asyncio.run(run(site.url("/")))
    assert len(whole) == 8 and len(set(whole)) == 8
    assert len(some) == 2


def test_crawl_needs_no_pyarrow_for_its_line_formats(tmp_path):
    # A plain `pip install webgrip` has no pyarrow: jsonl and markdown crawls still work, and
    # Parquet says which extra it needs.
    script = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "from webgrip.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    with _grid_site(6) as site:
        done = subprocess.run(
            [sys.executable, "-c", script, "crawl", site.url("/"), "--max-pages", "3",
             "--out", str(tmp_path / "lines")],
            capture_output=True, text=True, env=loopback_env(), timeout=120,
        )  # fmt: skip
        parquet = subprocess.run(
            [sys.executable, "-c", script, "crawl", site.url("/"), "--max-pages", "3",
             "--out", str(tmp_path / "parquet"), "--format", "parquet"],
            capture_output=True, text=True, env=loopback_env(), timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len((tmp_path / "lines" / "rows.jsonl").read_text().splitlines()) == 3
    assert parquet.returncode == 2
    assert "pip install 'webgrip[ray]'" in parquet.stderr
