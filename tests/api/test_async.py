"""AsyncWebClient / AsyncTools: coroutines over worker threads, concurrency, cancellation."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer, all_at_once, article, page, slow_stream
from webgrip import AsyncTools, AsyncWebClient, Tools
from webgrip.aio import _Abandonable
from webgrip.errors import BlockedURLError, HTTPStatusError
from webgrip.page import Download, Page


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


def run(coro):
    return asyncio.run(coro)


def test_fetch_search_download_as_coroutines(site, tmp_path):
    url = site.route("/a", page(article("Async")))
    site.route("/f.txt", lambda req: Reply(200, b"data", content_type="text/plain"))

    async def main():
        async with AsyncWebClient(loopback_config(tmp_path)) as client:
            got = await client.fetch(url)
            saved = await client.download(site.url("/f.txt"))
            allowed = await client.check_url(url)
            with pytest.raises(HTTPStatusError):
                await client.fetch(site.url("/missing"))
            return got, saved, allowed, client.stats()

    got, saved, allowed, stats = run(main())
    assert isinstance(got, Page) and "Async paragraph 1" in got.content
    assert isinstance(saved, Download) and Path(saved.path).read_bytes() == b"data"
    assert allowed.startswith("http://127.0.0.1")
    assert stats["requests"] == 3


def test_calls_run_concurrently_without_blocking_the_loop(site):
    site.route("/t", all_at_once(3))

    async def main():
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        tick_task = asyncio.create_task(ticker())
        async with AsyncWebClient(loopback_config()) as client:
            pages = await client.fetch_many(
                [site.url("/t") + f"?n={i}" for i in range(3)] + ["http://10.0.0.1/"],
                concurrency=3,
            )
        tick_task.cancel()
        return pages, ticks

    pages, ticks = run(main())
    assert [type(p).__name__ for p in pages] == ["Page", "Page", "Page", "BlockedURLError"]
    assert isinstance(pages[3], BlockedURLError)
    assert ticks > 1  # the event loop kept running while the fetches were in flight


def test_fetch_many_waits_for_a_busy_host_instead_of_writing_urls_off(site):
    """Four URLs of one host, one request every 2 s, a 3 s call: most slots lie past a
    call's deadline. Nothing was sent for those, so they wait for their slot (as the sync
    batch does) rather than come back as timeouts; a zero wait keeps the old answer. (A
    booked call keeps half its timeout for the request: 1.5 s here, room for a loaded
    machine, where 1 s slots and a 1.5 s call left 0.75 s.)"""
    urls = [site.route(f"/q{i}", page(article(f"Queued {i}"))) for i in range(4)]

    async def main(**kwargs):
        config = loopback_config(rate_limit_seconds=2.0, timeout=3.0)
        async with AsyncWebClient(config) as client:
            return await client.fetch_many(urls, concurrency=4, **kwargs)

    pages = run(main())
    assert [type(p).__name__ for p in pages] == ["Page"] * 4
    hurried = run(main(max_host_wait=0))
    timeouts = [p for p in hurried if not isinstance(p, Page)]
    assert timeouts and all(p.retry_in is not None for p in timeouts)


def test_async_tools_match_the_sync_tools(site, tmp_path):
    url = site.route("/a", page(article("Same")))
    config = loopback_config(tmp_path)

    async def main():
        async with AsyncTools(config) as tools:
            return (
                await tools.fetch_page(url, max_length=300),
                await tools.call("fetch_page", {"url": url, "max_length": 300}),
                await tools.fetch_page("ftp://x/"),
                tools.schemas("anthropic"),
            )

    text, called, error, schemas = run(main())
    assert text == Tools(config).fetch_page(url, max_length=300)
    assert called == text
    assert error.startswith("Error:")
    assert [s["name"] for s in schemas] == ["fetch_page", "search_web", "download_file"]


def _leftovers(folder) -> list[str]:
    return sorted(os.listdir(folder))


@pytest.mark.parametrize("api", ["client", "tools"])
def test_cancelled_download_leaves_no_file(site, tmp_path, api):
    started = threading.Event()
    stop = threading.Event()
    chunk = b"z" * 65536
    site.route(
        "/big.bin",
        lambda req: Reply(
            200,
            slow_stream(chunk, 1000, 0.01, started, stop),
            length=len(chunk) * 1000,
            content_type="application/octet-stream",
        ),
    )
    downloads = tmp_path / "dl"
    downloads.mkdir()
    config = loopback_config(download_dirs=(str(downloads),), timeout=60)

    async def main():
        owner = AsyncWebClient(config) if api == "client" else AsyncTools(config)
        if api == "client":
            task = asyncio.create_task(owner.download(site.url("/big.bin")))
        else:
            task = asyncio.create_task(owner.download_file(site.url("/big.bin")))
        while not started.is_set() and not task.done():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # some bytes are on disk now
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await owner.aclose()  # waits for the abandoned worker to end

    try:
        run(main())
    finally:
        stop.set()
    assert _leftovers(downloads) == []


def test_abandon_after_the_file_was_saved_deletes_it(tmp_path):
    # The worker may finish just as the caller is cancelled: whichever comes second cleans up.
    for order in ("saved-first", "abandon-first"):
        path = tmp_path / f"{order}.bin"
        path.write_bytes(b"x")
        d = Download(path=str(path), size=1, content_type=None, sha256="", url="u", final_url="u")
        guard = _Abandonable()
        if order == "saved-first":
            guard.saved(d)
            assert path.exists()
            guard.abandon()
        else:
            guard.abandon()
            guard.saved(d)
        assert not path.exists(), order


def test_abandoned_progress_callback_stops_the_worker():
    seen = []
    guard = _Abandonable()
    callback = guard.progress(lambda done, total: seen.append(done))
    callback(1, 10)
    guard.abandon()
    with pytest.raises(Exception, match="cancelled"):
        callback(2, 10)
    assert seen == [1]


def test_cancelled_fetches_do_not_leak_threads(site):
    release = threading.Event()

    def slow(req):
        release.wait(10)
        return Reply(200, article("Slow").encode())

    site.route("/slow", slow)

    def workers() -> int:
        return sum(t.name.startswith("webgrip-async") for t in threading.enumerate())

    async def main():
        client = AsyncWebClient(loopback_config(), max_workers=3)
        tasks = [
            asyncio.create_task(client.fetch(site.url("/slow") + f"?n={i}")) for i in range(12)
        ]
        await asyncio.sleep(0.2)
        for t in tasks:
            t.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results)
        # Abandoned calls occupy at most the pool's workers, never a thread each.
        assert 1 <= workers() <= 3
        release.set()
        await client.aclose()

    run(main())
    assert workers() == 0  # aclose() waited for the abandoned calls to finish


def test_import_webgrip_leaves_asyncio_to_async_users():
    # asyncio is about a quarter of the import time; webgrip.AsyncTools imports it on use.
    # The child imports webgrip the way this process does (same environment).
    import subprocess
    import sys

    check = (
        "import sys, webgrip; assert 'asyncio' not in sys.modules, 'eager'; "
        "webgrip.AsyncTools; assert 'asyncio' in sys.modules, 'not loaded on use'"
    )
    subprocess.run([sys.executable, "-c", check], check=True)
