"""Content-Encoding on loopback: deflate (zlib and raw), stacked codings, bombs, unknown ones.

Bodies are decoded in the core for fetches and downloads alike, under the same cap on the
decoded size; a coding that cannot be decoded is refused instead of returned as raw bytes.
"""

from __future__ import annotations

import gzip
import os
import zlib

import pytest
from helpers.loopback import RawServer, loopback_config
from webgrip import ConnectError, ResponseTooLargeError
from webgrip.client import WebClient

TEXT = "Plain words, decoded correctly. " * 50


def zlib_deflate(data: bytes) -> bytes:
    return zlib.compress(data)


def raw_deflate(data: bytes) -> bytes:
    c = zlib.compressobj(wbits=-15)
    return c.compress(data) + c.flush()


def serve(body: bytes, encoding: str, content_type: str = "text/plain; charset=utf-8"):
    head = (
        f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
        f"Content-Encoding: {encoding}\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    return RawServer(lambda conn, _req: conn.sendall(head + body))


@pytest.mark.parametrize(
    ("encoding", "encode"),
    [
        ("deflate", zlib_deflate),
        ("deflate", raw_deflate),  # raw deflate, as browsers tolerate
        ("gzip, gzip", lambda d: gzip.compress(gzip.compress(d))),
        ("deflate, gzip", lambda d: gzip.compress(zlib_deflate(d))),
        ("GZIP", gzip.compress),
    ],
    ids=["zlib", "raw", "gzip-gzip", "deflate-gzip", "upper-case"],
)
def test_fetch_decodes(encoding, encode):
    with serve(encode(TEXT.encode()), encoding) as server:
        page = WebClient(loopback_config()).fetch(server.url("/t.txt"), extract="text")
    assert page.content.strip() == TEXT.strip()


def test_download_saves_the_decoded_body(tmp_path):
    body = os.urandom(50_000)
    with serve(gzip.compress(raw_deflate(body)), "deflate, gzip", "application/x-bin") as server:
        result = WebClient(loopback_config(tmp_path)).download(server.url("/f.bin"))
    with open(result.path, "rb") as fh:
        assert fh.read() == body
    assert result.size == len(body)


@pytest.mark.parametrize(
    ("encoding", "encode"),
    [
        ("deflate", zlib_deflate),
        ("gzip, gzip", lambda d: gzip.compress(gzip.compress(d))),
    ],
)
def test_bomb_is_stopped_by_the_decoded_cap(encoding, encode):
    bomb = encode(b"\0" * (64 * 1024 * 1024))  # a few KiB on the wire
    assert len(bomb) < 100_000
    config = loopback_config(max_response_bytes=1024 * 1024)
    with serve(bomb, encoding) as server, pytest.raises(ResponseTooLargeError) as info:
        WebClient(config).fetch(server.url("/bomb.txt"), extract="text")
    assert info.value.limit == 1024 * 1024


def test_bomb_download_stops_and_leaves_nothing(tmp_path):
    bomb = zlib_deflate(b"\0" * (64 * 1024 * 1024))
    config = loopback_config(tmp_path, max_download_bytes=1024 * 1024)
    with (
        serve(bomb, "deflate", "application/x-bin") as server,
        pytest.raises(ResponseTooLargeError),
    ):
        WebClient(config).download(server.url("/bomb.bin"))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("encoding", ["zstd", "gzip, compress", "gzip, gzip, gzip, gzip"])
def test_unknown_or_too_deep_encoding_is_refused(tmp_path, encoding):
    with serve(gzip.compress(TEXT.encode()), encoding) as server:
        client = WebClient(loopback_config(tmp_path))
        with pytest.raises(ConnectError) as info:
            client.fetch(server.url("/t.txt"), extract="text")
        assert info.value.reason == "unsupported-encoding"
        assert "Content-Encoding" in str(info.value)
        with pytest.raises(ConnectError) as info:
            client.download(server.url("/t.txt"))
        assert info.value.reason == "unsupported-encoding"
    assert os.listdir(tmp_path) == []


def test_corrupt_deflate_is_a_bad_encoding():
    garbage = b"\x78\x9c this is not deflate data at all"
    with serve(garbage, "deflate") as server, pytest.raises(ConnectError) as info:
        WebClient(loopback_config()).fetch(server.url("/t.txt"), extract="text")
    assert info.value.reason == "bad-encoding"
