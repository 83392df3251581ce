"""``webgrip batch`` in one process (no Ray): Parquet rows, progress, resuming a folder.

The Ray engine of the same command is tested in tests/client/test_ray_fetch.py. Skips with a
reason without pyarrow (the ``ray`` extra, which ``.ci/run`` installs).
"""

from __future__ import annotations

import json
import shutil
import socket
import time

import pytest

pq = pytest.importorskip(
    "pyarrow.parquet", reason="the ray extra is not installed: pip install 'webgrip[ray]'"
)

from helpers.siteserver import SiteServer, article, page, run_webgrip  # noqa: E402

pytestmark = pytest.mark.ray


def test_batch_writes_rows_resumes_and_reports(tmp_path):
    with SiteServer() as site:
        good = [site.route(f"/a{i}", page(article(f"Title {i}"))) for i in range(3)]
        listed = tmp_path / "urls.txt"
        out = tmp_path / "out"
        listed.write_text("\n".join([good[0], "", "http://10.0.0.1/x", good[0]]) + "\n")
        first = run_webgrip("batch", str(listed), "--out", str(out))
        assert first.returncode == 0, first.stderr
        assert json.loads(first.stdout) == {"listed": 2, "skipped": 0, "fetched": 2, "failed": 1}
        assert "2/2 done, 1 failed" in first.stderr

        # A file left half-written by a killed run is reported, not trusted.
        (out / "broken.parquet").write_bytes(b"PAR1 not really")
        listed.write_text("\n".join([*good, "http://10.0.0.1/x"]) + "\n")
        # Another view into the same folder would skip its URLs as done: refused.
        mixed = run_webgrip("batch", str(listed), "--out", str(out), "--extract", "text")
        assert mixed.returncode == 2, mixed.stderr
        assert "holds rows fetched with --extract markdown, not text" in mixed.stderr
        assert len(site.hits("/a1")) == 0
        second = run_webgrip("batch", str(listed), "--out", str(out))
        assert second.returncode == 0, second.stderr
        assert json.loads(second.stdout) == {"listed": 4, "skipped": 2, "fetched": 2, "failed": 0}
        assert "ignoring unreadable broken.parquet" in second.stderr
        (out / "broken.parquet").unlink()

        rows = {r["url"]: r for r in pq.read_table(out).to_pylist()}
        assert sorted(rows) == sorted([*good, "http://10.0.0.1/x"])
        assert [len(site.hits(f"/a{i}")) for i in range(3)] == [1, 1, 1]
        assert rows[good[1]]["title"] == "Title 1" and rows[good[1]]["status"] == 200
        assert rows[good[1]]["content"].startswith("# Title 1")
        assert {r["extract"] for r in rows.values()} == {"markdown"}  # failures too
        refused = rows["http://10.0.0.1/x"]
        assert (refused["error_kind"], refused["content"]) == ("private-address", None)


def test_batch_without_the_list_fails_cleanly(tmp_path):
    result = run_webgrip("batch", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o"))
    assert result.returncode == 2  # a file that cannot be read: a usage error
    assert "missing.txt" in result.stderr and "Traceback" not in result.stderr


def test_a_list_saved_with_a_bom_loses_no_url(tmp_path):
    """Notepad and PowerShell 5 start a UTF-8 file with U+FEFF: not part of the first URL."""
    from webgrip.bulk.batch_run import read_url_list

    listed = tmp_path / "urls.txt"
    listed.write_bytes(b"\xef\xbb\xbfhttp://a.example/1\r\nhttp://a.example/2\r\n")
    assert read_url_list(listed) == ["http://a.example/1", "http://a.example/2"]


def _silent_store() -> tuple[socket.socket, str]:
    """A Redis address that takes connections and never answers (a hung store)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    return listener, f"redis://:s3cr3t-pass@127.0.0.1:{listener.getsockname()[1]}/0"


def test_a_store_that_stops_answering_stops_the_run_and_the_next_run_fetches_the_rest(tmp_path):
    """URLs the politeness store kept from being fetched are not written as rows (a rerun
    would skip them for good): the run stops, quickly (the store's wait is bounded by the
    call's timeout), and the same command run again once the store answers fetches them."""
    pytest.importorskip("redis", reason="the ray extra is not installed")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    from helpers.loopback import loopback_config
    from helpers.ray_sites import redis_server
    from webgrip.bulk.batch_run import StoreUnavailableError, run_batch

    with SiteServer() as site:
        urls = [site.route(f"/s{i}", page(article(f"Title {i}"))) for i in range(3)]
        listed = tmp_path / "urls.txt"
        listed.write_text("\n".join(urls) + "\n")
        out = tmp_path / "out"
        config = loopback_config(rate_limit_seconds=0.01, timeout=1.0)
        listener, silent = _silent_store()
        try:
            start = time.monotonic()
            with pytest.raises(StoreUnavailableError) as stopped:
                run_batch(listed, out, config=config, redis_url=silent)
            assert time.monotonic() - start < 4.0  # not the store's own 5 s per URL
        finally:
            listener.close()
        assert stopped.value.reason == "politeness-store"
        assert "run the same command again" in str(stopped.value)
        assert "s3cr3t" not in str(stopped.value)
        assert list(out.glob("*.parquet")) == []  # no row written for an unfetched URL
        assert [len(site.hits(f"/s{i}")) for i in range(3)] == [0, 0, 0]

        (tmp_path / "redis").mkdir()
        with redis_server(tmp_path / "redis") as store:
            again = run_batch(listed, out, config=config, redis_url=store)
        assert again == {"listed": 3, "skipped": 0, "fetched": 3, "failed": 0}
        rows = pq.read_table(out).to_pylist()
        assert sorted(r["url"] for r in rows) == sorted(urls)
        assert all(r["status"] == 200 for r in rows)


def test_the_command_exits_non_zero_when_the_store_is_unreachable(tmp_path):
    pytest.importorskip("redis", reason="the ray extra is not installed")
    from helpers.ray_sites import free_port

    with SiteServer() as site:
        listed = tmp_path / "urls.txt"
        listed.write_text(site.route("/a", page(article("A"))) + "\n")
        store = f"redis://:s3cr3t-pass@127.0.0.1:{free_port()}/0"  # nothing listens
        result = run_webgrip(
            "batch",
            str(listed),
            "--out",
            str(tmp_path / "out"),
            "--redis",
            store,
            WEBGRIP_RATE_LIMIT_SECONDS="0.01",
        )  # 0 would not ask the store
        assert result.returncode == 1
        assert "run the same command again" in result.stderr
        assert "s3cr3t" not in result.stderr and "Traceback" not in result.stderr
        assert site.hits("/a") == []
    assert list((tmp_path / "out").glob("*.parquet")) == []


def test_a_run_that_left_urls_for_the_next_one_exits_non_zero(tmp_path, monkeypatch, capsys):
    """--ray leaves the URLs the politeness store kept from being fetched for the next run:
    the run is not complete, and the exit status says so (as in one process)."""
    from webgrip import cli
    from webgrip.bulk import batch_run

    summaries = iter(
        [
            {"listed": 3, "skipped": 0, "fetched": 1, "failed": 0, "left": 2},
            {"listed": 3, "skipped": 1, "fetched": 2, "failed": 0},
        ]
    )
    monkeypatch.setattr(batch_run, "run_batch", lambda *a, **k: next(summaries))
    listed = tmp_path / "urls.txt"
    listed.write_text("http://a.example/\n")
    args = ["batch", str(listed), "--out", str(tmp_path / "out")]
    assert cli.main(args) == 1
    assert json.loads(capsys.readouterr().out)["left"] == 2
    assert cli.main(args) == 0


def test_stdout_holds_only_the_summary_whatever_ray_prints(tmp_path, monkeypatch, capfd):
    """Ray's driver and core print on their own (about 49 lines after a node was lost, from
    Python and from C++): with --ray they go to stderr, and stdout stays one JSON document."""
    import os

    from webgrip.bulk import batch_run
    from webgrip.cli import main

    def noisy_run(
        todo, folder, config, extract, address, redis_url, concurrency, err, summary, **options
    ):
        print("(autoscaler) a node was lost")  # Python's sys.stdout
        os.write(1, b"[core_worker.cc:2465] the node died\n")  # the file descriptor itself
        summary["fetched"], summary["failed"] = len(todo), 0

    monkeypatch.setattr(batch_run, "_run_on_ray", noisy_run)
    urls = tmp_path / "urls.txt"
    urls.write_text("https://example.com/a\nhttps://example.com/b\n")
    code = main(["batch", str(urls), "--out", str(tmp_path / "out"), "--ray", "local"])
    captured = capfd.readouterr()
    assert code == 0, captured.err
    summary = json.loads(captured.out)
    assert summary["fetched"] == 2
    assert "a node was lost" in captured.err and "the node died" in captured.err
    # The descriptor is back: what is printed afterwards goes to stdout again.
    print("after")
    assert capfd.readouterr().out == "after\n"
