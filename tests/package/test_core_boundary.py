"""The boundary with the Rust core: one source of truth for its constants, and every error
kind it raises arriving as its ``webgrip.errors`` class (checked on loopback, kind by kind)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest
import webgrip
from helpers.loopback import LOOPBACK_NETWORKS, http_response
from webgrip import Config, _core, config, errors, messages


def test_config_takes_the_cores_constants_not_copies():
    assert config.DEFAULT_BLOCKED_PORTS is _core.DEFAULT_BLOCKED_PORTS
    assert Config().blocked_ports is _core.DEFAULT_BLOCKED_PORTS
    ports = _core.DEFAULT_BLOCKED_PORTS
    assert isinstance(ports, tuple) and all(isinstance(p, int) for p in ports)
    assert {0, 22, 25, 6379} <= set(ports)  # the list a fetch must never reach
    cfg = Config()
    assert cfg.max_redirects == _core.DEFAULT_MAX_REDIRECTS
    assert cfg.timeout == _core.DEFAULT_TIMEOUT
    assert cfg.connect_timeout == _core.DEFAULT_CONNECT_TIMEOUT
    assert cfg.max_response_bytes == _core.DEFAULT_MAX_RESPONSE_BYTES
    assert messages.MAX_URL_CHARS == _core.MAX_SHOWN_URL_CHARS


def test_python_cuts_urls_as_the_core_does():
    url = "http://127.0.0.1/" + "a" * 1000
    with pytest.raises(errors.BlockedURLError) as caught:
        _core.Client().check_url(url)
    quoted = next(w for w in str(caught.value).split() if w.startswith("http://"))
    assert quoted.rstrip(":") == messages.shown_url(url)
    assert len(messages.shown_url(url)) == _core.MAX_SHOWN_URL_CHARS


@pytest.fixture
def core():
    return _core.Client(allow_networks=list(LOOPBACK_NETWORKS), blocked_ports=[])


def _raised(call) -> BaseException:
    with pytest.raises(Exception) as caught:
        call()
    return caught.value


def _is(exc: BaseException, cls: type[errors.WebgripError], reason: str) -> None:
    assert type(exc) is cls, repr(exc)
    assert isinstance(exc, errors.WebgripError)
    assert exc.reason == reason


def test_invalid_url_and_blocked():
    client = _core.Client()
    _is(_raised(lambda: client.check_url("http://[::1")), errors.InvalidURLError, "invalid-url")
    _is(
        _raised(lambda: client.check_url("http://127.0.0.1/")),
        errors.BlockedURLError,
        "loopback-address",
    )


def test_timeout(core):
    with socket.socket() as silent:  # accepts connections (backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
        _is(_raised(lambda: core.request(url, timeout=0.3)), errors.FetchTimeoutError, "timeout")


def test_too_large(core, raw_server):
    server = raw_server(lambda conn, _head: conn.sendall(http_response(200, b"x" * 100)))
    exc = _raised(lambda: core.request(server.url(), max_bytes=10))
    _is(exc, errors.ResponseTooLargeError, "too-large")
    assert exc.limit == 10


def test_connect(core):
    with socket.socket() as closed:  # a port just freed: nothing listens there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    _is(_raised(lambda: core.request(url)), errors.ConnectError, "connection-refused")


def test_http_status_and_download(core, raw_server, tmp_path):
    server = raw_server(lambda conn, _head: conn.sendall(http_response(404, b"no")))
    exc = _raised(lambda: core.download(server.url(), str(tmp_path)))
    _is(exc, errors.HTTPStatusError, "http-404")
    assert exc.status == 404
    ok = raw_server(lambda conn, _head: conn.sendall(http_response(200, b"data")))
    missing = str(tmp_path / "missing")
    _is(_raised(lambda: core.download(ok.url(), missing)), errors.DownloadError, "io")


def test_cancelled_download_reraises_the_callbacks_own_exception(core, raw_server, tmp_path):
    server = raw_server(lambda conn, _head: conn.sendall(http_response(200, b"data")))

    class Stop(Exception):
        pass

    def progress(_done, _total):
        raise Stop

    assert (
        type(_raised(lambda: core.download(server.url(), str(tmp_path), progress=progress))) is Stop
    )


def test_caller_mistake_is_a_plain_value_error():
    exc = _raised(lambda: _core.Client(allow_networks=["not a network"]))
    assert type(exc) is ValueError


def test_extraction_stopped_is_a_fetch_timeout():
    html = "<p>x</p>" * 1000
    _is(
        _raised(lambda: _core.extract_document(html, timeout=0)),
        errors.FetchTimeoutError,
        "timeout",
    )
    token = _core.CancelToken()
    token.cancel()
    _is(
        _raised(lambda: _core.extract_document(html, cancel=token)),
        errors.FetchTimeoutError,
        "cancelled",
    )


_IMPORT_CORE_WITH = """
import sys, types
pkg = types.ModuleType("webgrip")
pkg.__path__ = [sys.argv[1]]  # the package without its __init__, which imports _core
sys.modules["webgrip"] = pkg
import webgrip.errors as errors
{change}
try:
    import webgrip._core
except Exception as exc:
    print(type(exc).__name__, exc)
else:
    print("imported")
"""


def _import_core_after(change: str) -> str:
    """What a fresh interpreter prints importing ``_core`` after ``change`` to the errors."""
    script = _IMPORT_CORE_WITH.format(change=change)
    folder = os.path.dirname(webgrip.__file__)
    return subprocess.run(
        [sys.executable, "-c", script, folder],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ("", "imported"),
        ("del errors.ConnectError", "AttributeError"),
        (
            "errors.ConnectError = type('ConnectError', (Exception,), {})",
            "TypeError webgrip.errors.ConnectError must derive from WebgripError",
        ),
    ],
)
def test_a_class_the_core_raises_is_checked_on_import(change, refusal):
    """A renamed or rebased error class fails ``import webgrip._core``, not the first raise."""
    assert _import_core_after(change).startswith(refusal)
