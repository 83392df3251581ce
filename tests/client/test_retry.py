"""Retry on 429/503 honouring Retry-After, bounded by max_retries and the total deadline."""

from __future__ import annotations

import time
from email.utils import formatdate
from pathlib import Path

import pytest
from helpers.loopback import RawServer, loopback_config, reply
from webgrip import HTTPStatusError, Tools
from webgrip.client import WebClient
from webgrip.retry import MAX_RETRY_AFTER, backoff_delay, parse_retry_after, retry_wait
from werkzeug import Response


class Sequence:
    """A handler answering with the given responses in turn (the last one repeats)."""

    def __init__(self, *responses: Response):
        self.responses = list(responses)
        self.hits = 0

    def __call__(self, request) -> Response:
        self.hits += 1
        return self.responses[min(self.hits, len(self.responses)) - 1]


def test_parse_retry_after_forms():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(" 0 ") == 0.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("") is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("-5") is None
    now = 1_700_000_000.0
    assert parse_retry_after(formatdate(now + 30, usegmt=True), now=now) == pytest.approx(30)
    assert parse_retry_after(formatdate(now - 30, usegmt=True), now=now) == 0.0


def test_retry_wait_decisions():
    far = time.monotonic() + 100
    assert retry_wait(200, None, 0, 2, far) is None
    assert retry_wait(404, "1", 0, 2, far) is None
    assert retry_wait(429, "3", 0, 2, far) == 3.0
    assert retry_wait(503, None, 1, 2, far) == backoff_delay(1)
    assert retry_wait(429, "3", 2, 2, far) is None  # retries used up
    assert retry_wait(429, "3600", 0, 2, far) is None  # beyond the deadline
    assert backoff_delay(0) < backoff_delay(1) < backoff_delay(2) <= backoff_delay(20)


def test_429_with_retry_after_then_success(tmp_path, httpserver):
    handler = Sequence(
        Response("slow down", status=429, headers={"Retry-After": "1"}),
        Response("finally", status=200, content_type="text/plain"),
    )
    httpserver.expect_request("/r").respond_with_handler(handler)
    answer = Tools(loopback_config(tmp_path)).fetch_page(httpserver.url_for("/r"))
    assert handler.hits == 2
    assert answer.endswith("\n\nfinally")


def test_503_without_retry_after_uses_backoff(tmp_path, httpserver):
    handler = Sequence(Response("busy", status=503), Response("ok", content_type="text/plain"))
    httpserver.expect_request("/r").respond_with_handler(handler)
    with WebClient(loopback_config(tmp_path)) as client:
        page = client.fetch(httpserver.url_for("/r"))
    assert (handler.hits, page.content) == (2, "ok")


def test_retry_after_beyond_deadline_gives_up(tmp_path, httpserver):
    handler = Sequence(Response("later", status=429, headers={"Retry-After": "3600"}))
    httpserver.expect_request("/r").respond_with_handler(handler)
    answer = Tools(loopback_config(tmp_path, timeout=3)).fetch_page(httpserver.url_for("/r"))
    assert answer.startswith("Error: HTTP 429 Too Many Requests for ")
    assert "wait before retrying" in answer
    assert handler.hits == 1


@pytest.mark.parametrize(
    "value",
    [
        "9" * 4301,  # past Python's int conversion limit: a plain ValueError escaped
        "1" + "0" * 40,
        "²",  # a digit to str.isdigit, not to int()
        "Sun, 06 Nov 99999 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT" * 200,
    ],
)
def test_a_hostile_retry_after_still_reports_the_status(tmp_path, value):
    server = RawServer(reply(429, b"later", {"Retry-After": value}))
    with server, WebClient(loopback_config(tmp_path, timeout=3, max_retries=2)) as client:
        with pytest.raises(HTTPStatusError) as info:
            client.fetch(server.url("/r"))
        assert info.value.status == 429
        answer = Tools(loopback_config(tmp_path, timeout=3)).fetch_page(server.url("/r"))
        assert answer.startswith("Error: HTTP 429 Too Many Requests for ")


def test_parse_retry_after_caps_what_the_server_asks():
    assert parse_retry_after("9" * 4301) == MAX_RETRY_AFTER
    assert parse_retry_after("86400") == MAX_RETRY_AFTER
    assert parse_retry_after("0" * 50 + "7") == 7.0
    assert parse_retry_after(formatdate(time.time() + 10**7, usegmt=True)) == MAX_RETRY_AFTER
    assert parse_retry_after("١٢") is None  # Arabic-Indic digits are not delta-seconds


def test_retries_bounded_by_max_retries(tmp_path, httpserver):
    handler = Sequence(Response("busy", status=503, headers={"Retry-After": "0"}))
    httpserver.expect_request("/r").respond_with_handler(handler)
    with (
        WebClient(loopback_config(tmp_path, max_retries=2)) as client,
        pytest.raises(HTTPStatusError) as info,
    ):
        client.fetch(httpserver.url_for("/r"))
    assert info.value.status == 503
    assert handler.hits == 3


def test_no_retry_when_disabled(tmp_path, httpserver):
    handler = Sequence(Response("busy", status=503, headers={"Retry-After": "0"}))
    httpserver.expect_request("/r").respond_with_handler(handler)
    Tools(loopback_config(tmp_path, max_retries=0)).fetch_page(httpserver.url_for("/r"))
    assert handler.hits == 1


def test_download_retries_429(tmp_path, httpserver):
    handler = Sequence(
        Response("slow down", status=429, headers={"Retry-After": "1"}),
        Response(b"payload", status=200, content_type="application/octet-stream"),
    )
    httpserver.expect_request("/f.bin").respond_with_handler(handler)
    with WebClient(loopback_config(tmp_path)) as client:
        result = client.download(httpserver.url_for("/f.bin"))
    assert handler.hits == 2
    assert Path(result.path).read_bytes() == b"payload"
