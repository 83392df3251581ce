"""What ``webgrip batch`` writes and says (issue #47, items 3 and 8), without starting Ray: an
empty page is a failure row without a file, spellings of one page are fetched once, ``.md``
files open with their URL and title, ``--rate-limit`` sets the per-host interval and the run
says when that interval sets its pace, the last progress line is written once; ``--ray`` with
its politeness store down fails before Ray starts, naming the store; Ray's expected noise is
left out. Also ``--json`` of fetch and extract: an error object on failure, no URL or status
without a request.
"""

from __future__ import annotations

import io
import json
import logging
import os

import pytest

pq = pytest.importorskip(
    "pyarrow.parquet", reason="the ray extra is not installed: pip install 'webgrip[ray]'"
)

from helpers.loopback import loopback_config  # noqa: E402
from helpers.siteserver import Reply, SiteServer, article, page, run_webgrip  # noqa: E402
from webgrip._progress import BatchProgress  # noqa: E402
from webgrip.bulk.batch_run import run_batch  # noqa: E402

pytestmark = pytest.mark.ray


def test_rows_empty_pages_spellings_and_markdown_front_matter(tmp_path):
    with SiteServer() as site:
        url = site.route("/article", page(article("Dédupe")))
        empty = site.route("/empty", page("<html><body></body></html>"))
        listed = tmp_path / "urls.txt"
        spellings = [f"{url}?utm_source=feed", f"{url}#top", url.replace("http://", "HTTP://")]
        listed.write_text("\n".join([url, *spellings, empty]) + "\n")
        err = io.StringIO()
        out = tmp_path / "out"
        summary = run_batch(listed, out, config=loopback_config(), format="markdown", err=err)
        assert len(site.hits("/article")) == 1  # one page, one request
    assert summary == {
        "listed": 2,
        "skipped": 0,
        "fetched": 2,
        "failed": 1,
        "duplicates": len(spellings),
    }
    assert f"({len(spellings)} more spell a URL listed before: left out)" in err.getvalue()
    rows = {
        r["url"]: r
        for r in map(json.loads, (out / "index.jsonl").read_text(encoding="utf-8").splitlines())
    }
    assert sorted(rows) == sorted([url, empty])  # the first spelling listed is kept
    gone = rows[empty]
    assert (gone["error_kind"], gone["file"], gone["status"]) == ("empty", None, 200)
    assert gone["error"].startswith("no readable text was found on this page")
    assert [p.name for p in out.glob("*.md")] == [rows[url]["file"]]
    text = (out / rows[url]["file"]).read_text(encoding="utf-8")
    assert text.startswith(f'---\nurl: "{url}"\ntitle: "Dédupe"\n---\n\n# Dédupe\n'), text[:120]

    again = run_batch(listed, out, config=loopback_config(), format="markdown")
    assert (again["skipped"], again["fetched"]) == (2, 0)  # the empty row is an outcome too


def test_rate_limit_sets_the_interval_and_the_run_says_it_sets_the_pace(tmp_path):
    with SiteServer() as site:
        urls = [site.route(f"/r{i}", page(article(f"R{i}"))) for i in range(5)]
        listed = tmp_path / "urls.txt"
        listed.write_text("\n".join(urls) + "\n")
        result = run_webgrip(
            "batch", str(listed), "--out", str(tmp_path / "out"), "--rate-limit", "0.5"
        )
    assert result.returncode == 0, result.stderr
    assert "5 URLs on 127.0.0.1, one request every 0.5 s per host" in result.stderr
    assert "--rate-limit SECONDS changes the interval" in result.stderr
    assert json.loads(result.stdout)["fetched"] == 5


@pytest.mark.parametrize("value", ["soon", "-1"])
def test_a_bad_rate_limit_is_a_usage_error_naming_the_flag(tmp_path, value, capsys):
    from webgrip.cli import EXIT_USAGE, main

    listed = tmp_path / "urls.txt"
    listed.write_text("http://127.0.0.1:9/\n")
    args = ["batch", str(listed), "--out", str(tmp_path / "out"), "--rate-limit", value]
    assert main(args) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("webgrip: invalid value for --rate-limit") and "e.g." in err, err


def test_the_last_progress_line_is_written_once_off_a_terminal():
    now = [0.0]
    plain = io.StringIO()
    meter = BatchProgress(plain, 2, tty=False, every_urls=1, clock=lambda: now[0])
    now[0] += 1
    meter.update(done=1)
    meter.update(done=1, failed=1)
    meter.finish()
    assert plain.getvalue().splitlines() == [
        "webgrip: 1/2 done, 0 failed, 1.0 URLs/s, ETA 0:01",
        "webgrip: 2/2 done, 1 failed, 2.0 URLs/s",
    ]


def test_ray_with_its_store_down_fails_before_ray_starts_naming_the_store(tmp_path):
    from helpers.ray_sites import free_port

    listed = tmp_path / "urls.txt"
    listed.write_text("http://127.0.0.1:9/a\n")
    store = f"redis://:s3cr3t@127.0.0.1:{free_port()}/0"  # nothing listens
    result = run_webgrip(
        "batch", str(listed), "--out", str(tmp_path / "out"), "--ray", "local", "--redis", store
    )
    assert result.returncode == 1, result.stderr
    assert "starting Ray" not in result.stderr  # said, and done, only after the check
    shown = store.replace(":s3cr3t@", "")
    assert f"the shared politeness store ({shown}) did not answer a PING" in result.stderr
    assert "run the same command again" in result.stderr and "s3cr3t" not in result.stderr
    assert result.stdout == ""


def test_rays_expected_lines_are_left_out_unless_verbose(capfd):
    from webgrip.bulk.ray import quiet_ray

    expected = (
        b"[2026-11-29 02:00:42,821 E 1 1] core_worker.cc:2465: Actor with class name: "
        b"'MapWorker' has constructor arguments in the object store and max_restarts > 0.\n"
    )
    tqdm = logging.getLogger("ray.experimental.tqdm_ray")
    with quiet_ray():
        os.write(2, expected + b"a real failure\n")
        tqdm.warning("tqdm is not installed. Progress bars will be disabled.")
    err = capfd.readouterr().err
    assert err == "a real failure\n", err
    with quiet_ray(verbose=True):
        os.write(2, expected)
    assert "constructor arguments" in capfd.readouterr().err


def test_fetch_json_prints_an_error_object_and_extract_json_no_request(tmp_path, capsys):
    from webgrip.cli import main

    with SiteServer() as site:
        gone = site.route("/gone", lambda req: Reply(404, b"missing"))
        assert main(["fetch", gone, "--json", "--allow", "127.0.0.0/8"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {
        "url": gone,
        "error_kind": "http-404",
        "error": captured.err.strip().removeprefix("webgrip: "),
        "status": 404,
    }
    local = tmp_path / "page.html"
    local.write_text("<html><body><p>Local words.</p></body></html>")
    assert main(["extract", str(local), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["url"], data["final_url"], data["status"]) == (None, None, None)
    assert "Local words." in data["content"]
