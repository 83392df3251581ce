"""Extraction from many threads at once: the core runs at most one extraction per core and
makes the others wait their turn (memory bounded under threads, see rust/python/src/alloc.rs).
Waiting must change nothing but timing: same output, deadlines and cancellation still kept."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from webgrip import _core, errors

URL = "https://example.org/a/page.html"
# Large enough that a parse takes a while, so threads do wait for a turn.
SECTIONS = "".join(
    f"<h2>Part {i}</h2><p>Paragraph {i} with <a href='/p/{i}?utm_source=x'>a link</a> and "
    f"<b>bold</b> text.</p><ul><li>one {i}</li><li>two {i}</li></ul>"
    for i in range(3000)
)
PAGE = f"<html><head><title>Many</title></head><body><article>{SECTIONS}</article></body></html>"
THREADS = 4 * (os.cpu_count() or 1) + 4


def _extract(html: str | bytes, **kw: object) -> dict:
    return _core.extract_document(html, url=URL, modes=["markdown", "links", "metadata"], **kw)


def test_many_threads_get_what_one_thread_gets():
    alone = _extract(PAGE)
    inputs = [PAGE if i % 2 else PAGE.encode() for i in range(THREADS)]
    with ThreadPoolExecutor(THREADS) as pool:
        together = list(pool.map(_extract, inputs))
    assert alone["markdown"].count("Paragraph") == 3000
    assert all(out == alone for out in together)


def test_waiting_for_a_turn_keeps_cancellation_and_deadlines():
    token = _core.CancelToken()
    token.cancel()

    def outcome(i: int) -> str:
        try:
            if i % 3 == 0:
                _extract(PAGE, cancel=token)
            elif i % 3 == 1:
                _extract(PAGE, timeout=0)
            else:
                return "done" if _extract(PAGE)["markdown"] else "empty"
        except errors.FetchTimeoutError as exc:
            return exc.reason
        return "ran"

    with ThreadPoolExecutor(THREADS) as pool:
        got = list(pool.map(outcome, range(THREADS)))
    assert got == [("cancelled", "timeout", "done")[i % 3] for i in range(THREADS)]


@pytest.mark.parametrize("threads", [1, THREADS])
def test_every_turn_is_handed_back(threads):
    # Interrupted calls (cancelled, out of time) end on an error path: were one to keep its
    # turn, the calls after it would soon wait forever. Run many more than there are turns.
    token = _core.CancelToken()
    token.cancel()

    def interrupted(i: int) -> str:
        with pytest.raises(errors.FetchTimeoutError) as info:
            _extract(PAGE, **({"cancel": token} if i % 2 else {"timeout": 0}))
        return info.value.reason

    with ThreadPoolExecutor(threads) as pool:
        assert set(pool.map(interrupted, range(4 * THREADS))) == {"cancelled", "timeout"}
        # Every turn free again: as many extractions as there are threads all finish.
        finished = [pool.submit(_extract, PAGE) for _ in range(threads)]
        assert all(f.result(timeout=60)["markdown"] for f in finished)
