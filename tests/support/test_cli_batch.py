"""``webgrip batch`` in one process (no Ray): Parquet rows, progress, resuming a folder.

The Ray engine of the same command is tested in tests/client/test_ray_fetch.py. Skips with a
reason without pyarrow (the ``ray`` extra, which ``.ci/run`` installs).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pq = pytest.importorskip("pyarrow.parquet",
                         reason="the ray extra is not installed: pip install 'webgrip[ray]'")

from siteserver import SiteServer, article, loopback_env, page  # noqa: E402

pytestmark = pytest.mark.ray


def webgrip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webgrip", *args], capture_output=True,
                          text=True, env=loopback_env(), timeout=120)


def test_batch_writes_rows_resumes_and_reports(tmp_path):
    with SiteServer() as site:
        good = [site.route(f"/a{i}", page(article(f"Title {i}"))) for i in range(3)]
        listed = tmp_path / "urls.txt"
        out = tmp_path / "out"
        listed.write_text("\n".join([good[0], "", "http://10.0.0.1/x", good[0]]) + "\n")
        first = webgrip("batch", str(listed), "--out", str(out))
        assert first.returncode == 0, first.stderr
        assert json.loads(first.stdout) == {"listed": 2, "skipped": 0, "fetched": 2,
                                            "failed": 1}
        assert "2/2 fetched (1 with an error)" in first.stderr

        # A file left half-written by a killed run is reported, not trusted.
        (out / "broken.parquet").write_bytes(b"PAR1 not really")
        listed.write_text("\n".join([*good, "http://10.0.0.1/x"]) + "\n")
        second = webgrip("batch", str(listed), "--out", str(out), "--extract", "text")
        assert second.returncode == 0, second.stderr
        assert json.loads(second.stdout) == {"listed": 4, "skipped": 2, "fetched": 2,
                                             "failed": 0}
        assert "ignoring unreadable broken.parquet" in second.stderr
        (out / "broken.parquet").unlink()

        rows = {r["url"]: r for r in pq.read_table(out).to_pylist()}
        assert sorted(rows) == sorted([*good, "http://10.0.0.1/x"])
        assert [len(site.hits(f"/a{i}")) for i in range(3)] == [1, 1, 1]
        assert rows[good[1]]["title"] == "Title 1" and rows[good[1]]["status"] == 200
        assert rows[good[1]]["content"].startswith("Title 1")  # --extract text: no '#'
        assert rows[good[0]]["content"].startswith("# Title 0")  # first run: markdown
        refused = rows["http://10.0.0.1/x"]
        assert (refused["error_kind"], refused["content"]) == ("private-address", None)


def test_batch_without_the_list_fails_cleanly(tmp_path):
    result = webgrip("batch", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o"))
    assert result.returncode == 1
    assert "missing.txt" in result.stderr and "Traceback" not in result.stderr
