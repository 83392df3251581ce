"""``webgrip batch --format parquet|jsonl|markdown``, its progress on stderr, and Ctrl-C.

Every run goes through the command (``python -m webgrip``) against a loopback site the test
starts. Skips with a reason without pyarrow (the ``ray`` extra, which ``.ci/run`` installs).
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pq = pytest.importorskip(
    "pyarrow.parquet", reason="the ray extra is not installed: pip install 'webgrip[ray]'"
)

from helpers.interrupt import sigint_as_on_a_terminal  # noqa: E402
from helpers.loopback import wait_until  # noqa: E402
from helpers.siteserver import (  # noqa: E402
    Reply,
    SiteServer,
    article,
    loopback_env,
    page,
    run_webgrip,
)
from webgrip._progress import BatchProgress  # noqa: E402
from webgrip.bulk.pool import ROW_COLUMNS  # noqa: E402
from webgrip.bulk.sinks import front_matter, markdown_name  # noqa: E402

pytestmark = pytest.mark.ray

FORMATS = ("parquet", "jsonl", "markdown")


def read_rows(out: Path, fmt: str) -> dict[str, dict]:
    """The rows of a batch folder by URL (Markdown: the index line plus the file's text)."""
    if fmt == "parquet":
        return {r["url"]: r for r in pq.read_table(out).to_pylist()}
    name = "rows.jsonl" if fmt == "jsonl" else "index.jsonl"
    lines = (out / name).read_text(encoding="utf-8").splitlines()
    rows = {}
    for line in lines:
        row = json.loads(line)
        if fmt == "markdown":
            assert set(row) == {"url", "file", *ROW_COLUMNS} - {"content"}
            row["content"] = None
            if row["file"] is not None:
                text = (out / row["file"]).read_text(encoding="utf-8")
                head = front_matter(row["url"], row)  # the URL and title, then the page
                assert text.startswith(head) and f'url: "{row["url"]}"' in head, text[:200]
                row["content"] = text.removeprefix(head)
        else:
            assert set(row) == {"url", *ROW_COLUMNS}
        assert row["url"] not in rows  # one line per URL
        rows[row["url"]] = row
    return rows


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_writes_the_rows_and_a_rerun_skips_them(tmp_path, fmt):
    with SiteServer() as site:
        good = [site.route(f"/p{i}", page(article(f"Título {i}"))) for i in range(3)]
        gone = site.route("/gone", lambda req: Reply(404, b"missing"))
        listed = tmp_path / "urls.txt"
        out = tmp_path / "out"
        listed.write_text(
            "\n".join([good[0], good[1], gone, "http://10.0.0.1/x"]) + "\n", encoding="utf-8"
        )
        first = run_webgrip("batch", str(listed), "--out", str(out), "--format", fmt)
        assert first.returncode == 0, first.stderr
        assert json.loads(first.stdout) == {"listed": 4, "skipped": 0, "fetched": 4, "failed": 2}

        listed.write_text("\n".join([*good, gone, "http://10.0.0.1/x"]) + "\n", encoding="utf-8")
        second = run_webgrip("batch", str(listed), "--out", str(out), "--format", fmt)
        assert second.returncode == 0, second.stderr
        assert json.loads(second.stdout) == {"listed": 5, "skipped": 4, "fetched": 1, "failed": 0}
        assert [len(site.hits(f"/p{i}")) for i in range(3)] == [1, 1, 1]
        assert len(site.hits("/gone")) == 1  # an error row is an outcome too

    rows = read_rows(out, fmt)
    assert sorted(rows) == sorted([*good, gone, "http://10.0.0.1/x"])
    assert rows[good[1]]["title"] == "Título 1" and rows[good[1]]["status"] == 200
    assert rows[good[1]]["content"].startswith("# Título 1")
    assert {r["extract"] for r in rows.values()} == {"markdown"}  # failures too
    assert (rows[gone]["status"], rows[gone]["error_kind"]) == (404, "http-404")
    refused = rows["http://10.0.0.1/x"]
    assert (refused["error_kind"], refused["content"]) == ("private-address", None)
    if fmt == "markdown":
        assert rows[gone]["file"] is None and refused["file"] is None
        assert sorted(p.name for p in out.glob("*.md")) == sorted(rows[u]["file"] for u in good)
        assert not list(out.glob(".*"))  # no temporary file left


@pytest.mark.parametrize(
    ("first", "then"), [("jsonl", "parquet"), ("parquet", "markdown"), ("markdown", "jsonl")]
)
def test_another_format_into_a_written_folder_is_refused(tmp_path, first, then):
    with SiteServer() as site:
        a = site.route("/a", page(article("A")))
        b = site.route("/b", page(article("B")))
        listed = tmp_path / "urls.txt"
        listed.write_text(a + "\n")
        out = tmp_path / "out"
        assert (
            run_webgrip("batch", str(listed), "--out", str(out), "--format", first).returncode == 0
        )
        listed.write_text(f"{a}\n{b}\n")
        mixed = run_webgrip("batch", str(listed), "--out", str(out), "--format", then)
        assert mixed.returncode == 2, mixed.stderr
        assert mixed.stderr.startswith(f"webgrip: {out} holds a --format {first} batch, not {then}")
        assert f"or --format {first} to finish that run" in mixed.stderr
        assert mixed.stdout == "" and site.hits("/b") == []


def test_markdown_is_refused_with_ray_and_with_another_view(tmp_path):
    listed = tmp_path / "urls.txt"
    listed.write_text("http://a.example/\n")
    out = tmp_path / "out"
    ray = run_webgrip(
        "batch", str(listed), "--out", str(out), "--format", "markdown", "--ray", "local"
    )
    assert ray.returncode == 2
    assert ray.stderr.startswith("webgrip: --format markdown is written by this process only")
    text = run_webgrip(
        "batch", str(listed), "--out", str(out), "--format", "markdown", "--extract", "text"
    )
    assert text.returncode == 2
    assert "--format markdown writes .md files, but --extract text" in text.stderr
    assert not out.exists()


HOSTILE = [
    "http://h.example/../../etc/passwd",
    "http://h.example/%2e%2e/%2e%2e/%2e%2e/etc/shadow",
    "http://h.example/..%2F..%2Fwin%5Cboot.ini",
    "http://h.example/" + "long-segment/" * 400,
    "http://例え.テスト/ページ/記事",
    "http://h.example/page?q=1",
    "http://h.example/page?q=2",
    "http://h.example/page#top",
    "http://h.example/./.hidden",
    "http://h.example/CON",
    "http://[::1]:8080/a:b*c?d|e",
    "file:///etc/passwd",
    "not a url at all /../..",
    "",
]


def test_markdown_names_are_safe_for_hostile_urls(tmp_path):
    names = [markdown_name(u) for u in HOSTILE]
    assert len(set(names)) == len(names)  # the same page with another query too
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]*-[0-9a-f]{12}\.md", name), name
        assert len(name) <= 100 and name not in (".", "..")
        assert (tmp_path / name).resolve().parent == tmp_path.resolve()
    assert markdown_name(HOSTILE[5]) == markdown_name(HOSTILE[5])  # a rerun finds it again
    assert markdown_name("http://h.example/a/b").startswith("h.example-a-b-")


class _EveryPath(dict):
    """Routes answering every path with an article named after it."""

    def get(self, path, default=None):
        return lambda req: Reply(body=article(f"Page {len(path)}").encode())


def test_markdown_files_of_hostile_urls_stay_in_the_folder(tmp_path):
    with SiteServer() as site:
        site.routes = _EveryPath()
        urls = [
            site.url(p)
            for p in (
                "/../../etc/passwd",
                "/%2e%2e/%2e%2e/x",
                "/..%2F..%2Fy",
                "/" + "z" * 1500,
                "/%E3%83%9A%E3%83%BC%E3%82%B8/",
                "/same?q=1",
                "/same?q=2",
            )
        ]
        listed = tmp_path / "urls.txt"
        listed.write_text("\n".join(urls) + "\n", encoding="utf-8")
        out = tmp_path / "deep" / "out"
        result = run_webgrip("batch", str(listed), "--out", str(out), "--format", "markdown")
        assert result.returncode == 0, result.stderr
    rows = read_rows(out, "markdown")
    assert sorted(rows) == sorted(urls)
    assert all(r["error"] is None for r in rows.values()), rows
    files = sorted(p.name for p in (tmp_path / "deep").rglob("*") if p.is_file())
    assert files == sorted([r["file"] for r in rows.values()] + ["index.jsonl"])
    assert rows[urls[5]]["file"] != rows[urls[6]]["file"]
    assert not (tmp_path / "etc").exists() and not (tmp_path / "deep" / "etc").exists()


def test_a_line_torn_by_a_crash_is_reported_and_its_url_fetched_again(tmp_path):
    with SiteServer() as site:
        a = site.route("/a", page(article("A")))
        b = site.route("/b", page(article("B")))
        listed = tmp_path / "urls.txt"
        listed.write_text(a + "\n")
        out = tmp_path / "out"
        assert (
            run_webgrip("batch", str(listed), "--out", str(out), "--format", "jsonl").returncode
            == 0
        )
        with open(out / "rows.jsonl", "a", encoding="utf-8") as f:
            f.write('{"url": "' + b + '", "final_url": "ht')  # killed mid-line
        listed.write_text(f"{a}\n{b}\n")
        again = run_webgrip("batch", str(listed), "--out", str(out), "--format", "jsonl")
        assert again.returncode == 0, again.stderr
        assert "ignoring 1 unreadable line of rows.jsonl" in again.stderr
        assert json.loads(again.stdout)["fetched"] == 1
    lines = (out / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["url"] for x in (lines[0], lines[2])] == [a, b]


def test_progress_goes_to_stderr_and_only_the_summary_to_stdout(tmp_path):
    with SiteServer() as site:
        urls = [site.route(f"/p{i}", page(article(f"P{i}"))) for i in range(5)]
        listed = tmp_path / "urls.txt"
        listed.write_text("\n".join([*urls, "http://10.0.0.1/"]) + "\n")
        result = run_webgrip(
            "batch", str(listed), "--out", str(tmp_path / "out"), "--format", "jsonl"
        )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"listed": 6, "skipped": 0, "fetched": 6, "failed": 1}
    assert result.stdout.count("\n") == 6  # the indented JSON object, nothing else
    assert re.search(r"^webgrip: 6/6 done, 1 failed, [0-9.]+ URLs/s$", result.stderr, re.M)
    assert "\r" not in result.stderr  # not a terminal: plain lines


def test_progress_counts_the_urls_waiting_for_their_host(tmp_path):
    """Four threads on one host at 0.8 s a request, 2 s timeout: the host's queue holds
    fewer than four, so some URLs wait for a slot, and the line says so."""
    from helpers.loopback import loopback_config
    from webgrip.bulk.batch_run import run_batch

    with SiteServer() as site:
        urls = [site.route(f"/q{i}", page(article(f"Q{i}"))) for i in range(6)]
        listed = tmp_path / "urls.txt"
        listed.write_text("\n".join(urls) + "\n")
        err = io.StringIO()
        summary = run_batch(
            listed,
            tmp_path / "out",
            format="jsonl",
            concurrency=4,
            # Half the timeout (1 s) is kept for each request once its slot comes: room for
            # a loaded machine (0.4 s slots and a 1 s timeout left 0.5 s).
            config=loopback_config(rate_limit_seconds=0.8, timeout=2.0),
            err=err,
            progress=True,
        )
    assert summary == {"listed": 6, "skipped": 0, "fetched": 6, "failed": 0}
    assert re.search(
        r"\rwebgrip: \d/6 done, 0 failed, [1-3] waiting for a host, ", err.getvalue()
    ), err.getvalue()
    assert "\rwebgrip: 6/6 done, 0 failed, " in err.getvalue()


def test_batch_progress_lines_off_and_on_a_terminal():
    now = [0.0]
    plain = io.StringIO()
    meter = BatchProgress(
        plain, 1000, tty=False, every_seconds=5, every_urls=100, clock=lambda: now[0]
    )
    for _ in range(99):
        now[0] += 0.01
        meter.update(done=1)
    assert plain.getvalue() == ""  # neither 5 s nor 100 URLs yet
    meter.add_waiting(2)
    now[0] += 0.01
    meter.update(done=1, failed=1)  # the 100th URL, 1 s in
    assert plain.getvalue() == (
        "webgrip: 100/1000 done, 1 failed, 2 waiting for a host, 100.0 URLs/s, ETA 0:09\n"
    )
    now[0] += 5
    meter.add_waiting(-2)
    meter.update()  # 5 s later
    assert (
        plain.getvalue()
        .splitlines()[-1]
        .startswith("webgrip: 100/1000 done, 1 failed, 16.7 URLs/s")
    )
    meter.finish(" (interrupted)")
    assert plain.getvalue().endswith(" (interrupted)\n")

    tty = io.StringIO()
    meter = BatchProgress(tty, 2, tty=True, clock=lambda: now[0])
    now[0] += 1
    meter.update(done=1)
    meter.finish()
    assert tty.getvalue().startswith("\rwebgrip: 1/2 done, 0 failed")
    assert tty.getvalue().endswith("\rwebgrip: 1/2 done, 0 failed, 1.0 URLs/s, ETA 0:01\x1b[K\n")


@pytest.mark.parametrize("fmt", FORMATS)
def test_ctrl_c_writes_what_finished_exits_130_and_a_rerun_fetches_the_rest(tmp_path, fmt):
    released = threading.Event()

    def slow(req):
        released.wait(60)  # until the test lets the rerun through
        return Reply(body=article("Slow").encode())

    with SiteServer() as site:
        fast = [site.route(f"/fast{i}", page(article(f"Fast {i}"))) for i in range(4)]
        slow_urls = [site.route(f"/slow{i}", slow) for i in range(6)]
        listed = tmp_path / "urls.txt"
        listed.write_text("\n".join(fast + slow_urls) + "\n")
        out = tmp_path / "out"
        cmd = [
            sys.executable,
            "-m",
            "webgrip",
            "batch",
            str(listed),
            "--out",
            str(out),
            "--format",
            fmt,
            "--concurrency",
            "2",
        ]
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=loopback_env(),
            preexec_fn=sigint_as_on_a_terminal,
        )
        try:
            # URLs are taken in list order: with both threads on slow pages, the fast
            # pages are all finished.
            assert wait_until(
                lambda: sum(len(site.hits(f"/slow{i}")) for i in range(6)) >= 2, timeout=60
            )
            if fmt == "jsonl":  # appended as they finish, before any stop
                assert wait_until(
                    lambda: (
                        (out / "rows.jsonl").exists()
                        and len((out / "rows.jsonl").read_text().splitlines()) == 4
                    )
                )
            time.sleep(0.3)
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=30)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 130, stderr
        assert took < 10, took  # not the 60 s the slow pages hang for
        summary = json.loads(stdout)
        assert summary == {
            "listed": 10,
            "skipped": 0,
            "fetched": 4,
            "failed": 0,
            "interrupted": True,
        }
        assert "interrupted: 4 fetched (0 with an error) and written, 6 left" in stderr
        assert "Traceback" not in stderr
        assert sorted(read_rows(out, fmt)) == sorted(fast)

        released.set()
        rerun = run_webgrip("batch", str(listed), "--out", str(out), "--format", fmt)
        assert rerun.returncode == 0, rerun.stderr
        assert json.loads(rerun.stdout) == {"listed": 10, "skipped": 4, "fetched": 6, "failed": 0}
        assert [len(site.hits(f"/fast{i}")) for i in range(4)] == [1, 1, 1, 1]
    assert sorted(read_rows(out, fmt)) == sorted(fast + slow_urls)


@pytest.mark.parametrize("fmt", FORMATS)
def test_links_planted_in_the_output_folder_are_never_written_through(tmp_path, fmt):
    # Someone else who can write to the folder plants links at every name a batch writes
    # (the old predictable temporary names and the final ones), aimed at the user's files.
    with SiteServer() as site:
        url = site.route("/p", page(article("Planted")))
        listed = tmp_path / "urls.txt"
        listed.write_text(url + "\n")
        out = tmp_path / "out"
        out.mkdir()
        victims = tmp_path / "home"
        victims.mkdir()
        name = markdown_name(url)
        planted = {
            "markdown": [name, f".{name}.tmp"],
            "parquet": ["planted.parquet"],
            "jsonl": [],
        }[fmt]
        for n, link in enumerate(planted):
            (victims / f"v{n}").write_text("precious\n")
            (out / link).symlink_to(victims / f"v{n}")
        result = run_webgrip("batch", str(listed), "--out", str(out), "--format", fmt)
        assert result.returncode == 0, result.stderr
        assert [(victims / f"v{n}").read_text() for n in range(len(planted))] == [
            "precious\n"
        ] * len(planted)
        if fmt == "markdown":  # the link at the final name was replaced by the page
            assert not (out / name).is_symlink()
            assert "\n---\n\n# Planted" in (out / name).read_text(encoding="utf-8")
        for left in [p for p in out.iterdir() if p.is_symlink()]:
            left.unlink()  # (the planted Parquet link is no Parquet file to read)
        assert read_rows(out, fmt)[url]["title"] == "Planted"
        assert not list(out.glob(".*"))  # no temporary file left


@pytest.mark.parametrize("fmt", ["jsonl", "markdown"])
@pytest.mark.parametrize("target", ["a file", "a missing file", "a fifo"])
def test_a_lines_file_that_is_a_link_or_a_pipe_is_refused(tmp_path, fmt, target):
    lines = "rows.jsonl" if fmt == "jsonl" else "index.jsonl"
    with SiteServer() as site:
        url = site.route("/p", page(article("Planted")))
        listed = tmp_path / "urls.txt"
        listed.write_text(url + "\n")
        out = tmp_path / "out"
        out.mkdir()
        victim = tmp_path / "victim.txt"
        if target == "a fifo":
            os.mkfifo(out / lines)
        else:
            if target == "a file":
                victim.write_text("precious\n")
            (out / lines).symlink_to(victim)
        result = run_webgrip("batch", str(listed), "--out", str(out), "--format", fmt)
        assert result.returncode == 2, result.stderr
        what = "not a regular file" if target == "a fifo" else "a symbolic link"
        assert result.stderr.startswith(f"webgrip: {out / lines} is {what}: a batch writes")
        assert site.hits("/p") == []
    if target == "a file":
        assert victim.read_text() == "precious\n"
    else:
        assert not victim.exists()
