"""Hostile sitemaps: entity bombs, external entities, gzip bombs (as a file and as a
Content-Encoding), oversize files, indexes nested too deep and too many sitemaps. Each is
skipped and reported while the rest of the site is still mapped; the bombs are mapped in a
subprocess whose peak RSS stays under 300 MiB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import webgrip
from helpers.loopback import loopback_config
from helpers.sitemap_sites import ENTITY_BOMB, external_entity, gzip_zeros, index, urlset
from helpers.siteserver import Reply, SiteServer, page

ROOT = Path(__file__).resolve().parents[2]


def serve(body, media: str = "application/xml", **headers: str):
    return lambda req: Reply(body=body, content_type=media, headers=headers)


def bomb_site(site: SiteServer, secret: Path) -> str:
    """A site whose robots.txt names every bomb and one good sitemap."""
    o = site.url("")
    bombs = {
        "/entities.xml": serve(ENTITY_BOMB),
        "/external.xml": serve(external_entity(str(secret), f"{o}/xxe-target")),
        # 10 GiB of zeros in ~10 MiB: as a gzip file, and as a Content-Encoding.
        "/zeros.xml.gz": lambda req: Reply(
            body=gzip_zeros(10 * 1024), content_type="application/gzip"
        ),
        "/zeros-encoded.xml": lambda req: Reply(
            body=gzip_zeros(10 * 1024),
            headers={"Content-Encoding": "gzip"},
            content_type="application/xml",
        ),
        # 60 MiB of one text line: over the 50 MiB a sitemap may hold.
        "/huge.txt": lambda req: Reply(
            body=(b"x" * (1 << 20) for _ in range(60)), content_type="text/plain"
        ),
    }
    lines = [f"Sitemap: {o}{path}" for path in bombs] + [f"Sitemap: {o}/good.xml"]
    site.route("/robots.txt", serve("\n".join(lines).encode(), "text/plain"))
    for path, handler in bombs.items():
        site.route(path, handler)
    site.route("/good.xml", serve(urlset([f"{o}/ok-1", f"{o}/ok-2"])))
    site.route("/xxe-target", page("<p>never asked for</p>"))
    site.route("/", page("<title>Home</title>"))
    return o


def test_bombs_are_skipped_reported_and_the_rest_mapped(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-7f3a")
    with SiteServer() as site:
        o = bomb_site(site, secret)
        found = webgrip.map_site(o + "/", config=loopback_config(timeout=30))
        assert [m.url for m in found] == [f"{o}/", f"{o}/ok-1", f"{o}/ok-2"]
        skipped = dict(found.skipped)
        assert "entity" in skipped[f"{o}/entities.xml"] or "DTD" in skipped[f"{o}/entities.xml"]
        assert "DTD" in skipped[f"{o}/external.xml"]
        assert "decompressed" in skipped[f"{o}/zeros.xml.gz"]
        assert skipped[f"{o}/zeros-encoded.xml"].startswith("too-large")
        assert skipped[f"{o}/huge.txt"].startswith("too-large")
        # The external entities were neither read nor fetched.
        assert site.hits("/xxe-target") == []
        assert not any("SECRET" in m.url for m in found)


def test_the_bombs_cost_little_memory(tmp_path):
    """Peak RSS of a process mapping every bomb above (its own ``VmHWM``)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-7f3a")
    script = (
        "import json, sys, webgrip\n"
        "config = webgrip.Config(\n"
        "    allow_networks=('127.0.0.0/8',), rate_limit_seconds=0, timeout=30)\n"
        "found = webgrip.map_site(sys.argv[1], config=config)\n"
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child of a big
        # test process (one that ran Ray) would report its parent's size.
        "status = open('/proc/self/status').read()\n"
        "peak = int(status.split('VmHWM:')[1].split()[0])\n"
        "print(json.dumps({'urls': len(found), 'skipped': len(found.skipped),\n"
        "    'peak_kib': peak}))\n"
    )
    with SiteServer() as site:
        o = bomb_site(site, secret)
        # The webgrip this test imports (installed, or the source tree on PYTHONPATH).
        env = dict(os.environ)
        done = subprocess.run(
            [sys.executable, "-c", script, o + "/"],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=True,
        )
    report = json.loads(done.stdout)
    assert report["urls"] == 3
    assert report["skipped"] == 5
    assert report["peak_kib"] < 300 * 1024, report


def test_indexes_nested_too_deep_are_not_followed():
    with SiteServer() as site:
        o = site.url("")
        for level in range(8):  # /i0 -> /i1 -> ... -> /i7 -> /leaf
            child = f"{o}/i{level + 1}" if level < 7 else f"{o}/leaf"
            site.route(f"/i{level}", serve(index([child])))
        site.route("/leaf", serve(urlset([f"{o}/deep-page"])))
        site.route("/robots.txt", serve(f"Sitemap: {o}/i0\n".encode(), "text/plain"))
        found = webgrip.map_site(o + "/", config=loopback_config())
        assert f"{o}/deep-page" not in [m.url for m in found]
        reasons = dict(found.skipped)
        assert "nested deeper than 4" in reasons[f"{o}/i5"]
        assert [r.path for r in site.requests if r.path.startswith("/i")] == [
            "/i0",
            "/i1",
            "/i2",
            "/i3",
            "/i4",
        ]


def test_too_many_sitemaps_are_not_all_read():
    with SiteServer() as site:
        o = site.url("")
        names = [f"{o}/s{i}.xml" for i in range(230)]
        site.route("/sitemap.xml", serve(index(names)))
        for i in range(230):
            site.route(f"/s{i}.xml", serve(urlset([f"{o}/p{i}"])))
        found = webgrip.map_site(o + "/", config=loopback_config())
        read = [r for r in site.requests if r.path.startswith("/s") and r.path != "/sitemap.xml"]
        assert len(read) == 199  # 200 files with the index
        assert len(found) == 199
        assert sum("more than 200 sitemaps" in reason for _, reason in found.skipped) == 31


def test_one_sitemap_gives_at_most_50000_urls():
    with SiteServer() as site:
        o = site.url("")
        site.route("/sitemap.xml", serve(urlset(f"{o}/p{i}" for i in range(50_010))))
        found = webgrip.map_site(o + "/", limit=60_000, config=loopback_config())
        assert len(found) == 50_000
        assert "more than 50,000 entries" in dict(found.skipped)[f"{o}/sitemap.xml"]


def test_a_text_sitemap_with_an_endless_line_keeps_its_urls():
    with SiteServer() as site:
        o = site.url("")
        body = f"{o}/one\n".encode() + b"y" * (3 << 20) + f"\n{o}/two\n".encode()
        site.route("/robots.txt", serve(f"Sitemap: {o}/list.txt\n".encode(), "text/plain"))
        site.route("/list.txt", serve(body, "text/plain"))
        found = webgrip.map_site(o + "/", config=loopback_config())
        assert [m.url for m in found] == [f"{o}/one", f"{o}/two"]
