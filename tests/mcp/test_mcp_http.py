"""The MCP server over streamable HTTP (issue #36), driven by the official SDK's HTTP client.

The server (:class:`webgrip.tools.mcp_http.HttpServer`) runs in a thread on ``127.0.0.1``, port 0;
a real ``ClientSession`` over ``streamable_http_client`` lists the tools and calls them against
loopback servers, and raw HTTP requests probe the guards: the bearer token (``401``), the
``Host`` check against DNS rebinding (``421``), the body cap (``413``), and calls cancelled when
their client leaves or the server stops.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import mcp  # noqa: F401  (the test extra: missing, the test must fail, not skip)
import pytest
from helpers.interrupt import sigint_as_on_a_terminal
from helpers.loopback import loopback_config, wait_until
from helpers.siteserver import Reply, SiteServer, article, loopback_env, page, slow_stream
from webgrip import Tools
from webgrip.tools import mcp_http
from webgrip.tools.mcp_http import MAX_BODY_BYTES, TOKEN_ENV, HttpServer
from webgrip.tools.schemas import tool_schemas

anyio = pytest.importorskip("anyio")
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}


@contextlib.contextmanager
def serving(tmp_path=None, **kwargs):
    """An :class:`HttpServer` on 127.0.0.1:0 running in a thread; stopped (and checked to
    stop) on the way out."""
    kwargs.setdefault("config", loopback_config(tmp_path, timeout=60))
    kwargs.setdefault("env", {})
    server = HttpServer("127.0.0.1", 0, **kwargs)
    left: list[int] = []
    thread = threading.Thread(target=lambda: left.append(server.run()), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop()
        thread.join(30)
        assert not thread.is_alive(), "the server did not stop"
    assert left == [0]


def _text(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def _session(
    url: str, script, headers: dict[str, str] | None = None, terminate_on_close: bool = True
):
    with anyio.fail_after(60):
        async with (
            create_mcp_http_client(headers=headers) as http,
            streamable_http_client(
                url, http_client=http, terminate_on_close=terminate_on_close
            ) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await script(session)


def _post(
    server: HttpServer,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """A raw POST to the endpoint: ``(status, headers, body)``."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        sent.update(headers or {})
        conn.request("POST", mcp_http.PATH, body=body, headers=sent)
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def _initialize(server: HttpServer, **headers: str) -> tuple[int, dict[str, str], bytes]:
    return _post(server, json.dumps(INITIALIZE).encode(), headers)


async def _list_names(session) -> list[str]:
    return [t.name for t in (await session.list_tools()).tools]


def test_real_client_lists_and_calls_the_same_tools_as_stdio(tmp_path):
    with SiteServer() as site, serving(tmp_path) as server:
        page_url = site.route("/article", page(article("Transport")))

        async def script(session):
            listed = await session.list_tools()
            fetched = await session.call_tool("fetch_page", {"url": page_url, "max_length": 2000})
            blocked = await session.call_tool("fetch_page", {"url": "http://10.0.0.1/"})
            invalid = await session.call_tool("fetch_page", {"url": page_url, "bogus": 1})
            missing = await session.call_tool("fetch_page", {"url": site.url("/nope")})
            return listed, fetched, blocked, invalid, missing

        listed, fetched, blocked, invalid, missing = anyio.run(_session, server.url, script)

    tools = {t.name: t for t in listed.tools}
    assert list(tools) == ["fetch_page", "search_web", "download_file"]
    expected = {s["name"]: s for s in tool_schemas(Tools.__new__(Tools), "mcp")}
    for name, tool in tools.items():
        assert tool.input_schema == expected[name]["inputSchema"]
        assert tool.description == expected[name]["description"]
    assert tools["fetch_page"].annotations.read_only_hint is True
    assert tools["download_file"].annotations.read_only_hint is False

    assert fetched.is_error is False
    assert "Transport paragraph 1" in _text(fetched)
    for failed in (blocked, invalid, missing):
        assert failed.is_error is True
        assert _text(failed).startswith("Error:")
    assert "private address" in _text(blocked)
    assert "bogus" in _text(invalid)


def test_a_configured_token_is_required_and_compared(tmp_path):
    token = "tok-" + "a1" * 20
    with serving(tmp_path, token=token) as server:
        for headers in (
            {},
            {"Authorization": "Bearer wrong"},
            {"Authorization": token},
            {"Authorization": f"Basic {token}"},
            {"Authorization": f"Bearer {token}x"},
        ):
            status, reply_headers, _ = _initialize(server, **headers)
            assert status == 401, headers
            assert reply_headers["www-authenticate"].startswith("Bearer")
        status, _, _ = _initialize(server, Authorization=f"Bearer {token}")
        assert status == 200

        names = anyio.run(_session, server.url, _list_names, {"Authorization": f"Bearer {token}"})
        assert names == ["fetch_page", "search_web", "download_file"]


def test_the_token_variable_is_used_on_loopback(tmp_path):
    token = "from-the-env-" + "x" * 20
    with serving(tmp_path, env={TOKEN_ENV: token}) as server:
        assert server.token == token and not server.generated
        assert _initialize(server)[0] == 401
        assert _initialize(server, Authorization=f"Bearer {token}")[0] == 200


def test_loopback_needs_no_token(tmp_path):
    with serving(tmp_path) as server:
        assert server.token is None and server.loopback
        assert _initialize(server)[0] == 200


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "2001:db8::1", "example.org"])
def test_off_loopback_a_token_is_generated_unless_one_is_set(host):
    first, generated = mcp_http.resolve_token(host, env={})
    second, _ = mcp_http.resolve_token(host, env={})
    assert generated and first and second and first != second
    assert len(first) >= 40  # secrets.token_urlsafe(32)
    set_token, given = "set-" + "s" * 20, "given-" + "g" * 20
    assert mcp_http.resolve_token(host, env={TOKEN_ENV: set_token}) == (set_token, False)
    assert mcp_http.resolve_token(host, env={TOKEN_ENV: ""})[1] is True  # empty: unset
    assert mcp_http.resolve_token(host, given, env={TOKEN_ENV: set_token}) == (given, False)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost"])
def test_on_loopback_a_token_is_optional(host):
    assert mcp_http.is_loopback(host)
    assert mcp_http.resolve_token(host, env={}) == (None, False)
    token = "t" * 32
    assert mcp_http.resolve_token(host, env={TOKEN_ENV: token}) == (token, False)


@pytest.mark.parametrize("bad", ["has space", "new\nline", 'quote"', "ünicode"])
def test_a_token_that_cannot_travel_in_a_header_is_refused(bad):
    with pytest.raises(ValueError, match=TOKEN_ENV):
        mcp_http.resolve_token("127.0.0.1", env={TOKEN_ENV: bad})


def test_off_loopback_the_generated_token_guards_every_request(tmp_path, monkeypatch):
    # As if bound to a public address (a test binds loopback only): the server makes up a
    # token, and requests without it are refused.
    monkeypatch.setattr(mcp_http, "is_loopback", lambda host: False)
    with serving(tmp_path) as server:
        assert server.generated and server.token
        assert _initialize(server)[0] == 401
        assert _initialize(server, Authorization=f"Bearer {server.token}")[0] == 200


def test_serve_http_prints_a_generated_token_once(monkeypatch, capsys):
    monkeypatch.setattr(mcp_http, "is_loopback", lambda host: False)
    monkeypatch.setattr(HttpServer, "run", lambda self: 0)
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    servers: list[HttpServer] = []
    real_init = HttpServer.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        servers.append(self)

    monkeypatch.setattr(HttpServer, "__init__", init)
    mcp_http.serve_http("127.0.0.1", 0, config=loopback_config())
    err = capsys.readouterr().err
    (server,) = servers
    server._sock.close()
    assert err.count(server.token) == 1
    assert f"http://127.0.0.1:{server.port}/mcp" in err


@pytest.mark.parametrize(
    "text, address",
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("0.0.0.0:80", ("0.0.0.0", 80)),
        ("localhost:0", ("localhost", 0)),
        ("[::1]:8765", ("::1", 8765)),
        ("[::]:9000", ("::", 9000)),
        ("8765", ("127.0.0.1", 8765)),
    ],
)
def test_parse_address(text, address):
    assert mcp_http.parse_address(text) == address


@pytest.mark.parametrize(
    "text",
    [
        "",
        "127.0.0.1",
        "127.0.0.1:",
        ":8765",
        "::1:8765",
        "[::1]8765",
        "[nothost]:1",
        "host:70000",
        "host:http",
    ],
)
def test_parse_address_refuses_what_it_cannot_read(text):
    with pytest.raises(ValueError):
        mcp_http.parse_address(text)


def test_a_body_over_the_cap_is_refused_before_it_is_read(tmp_path):
    with serving(tmp_path) as server:
        # Declared too big: 413 from the headers alone (no byte of the body is ever sent).
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.putrequest("POST", mcp_http.PATH)
        for name, value in (
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("Content-Length", str(MAX_BODY_BYTES + 1)),
        ):
            conn.putheader(name, value)
        conn.endheaders()
        assert conn.getresponse().status == 413
        conn.close()

        # Streamed without a length: refused once the cap is passed, the end never awaited.
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(
                f"POST {mcp_http.PATH} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                "Content-Type: application/json\r\n"
                "Accept: application/json, text/event-stream\r\n"
                "Transfer-Encoding: chunked\r\n\r\n".encode()
            )
            chunk = b"x" * 65536
            for _ in range(MAX_BODY_BYTES // len(chunk)):
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"1\r\nx\r\n")  # one byte over the cap; no final chunk
            assert sock.recv(4096).startswith(b"HTTP/1.1 413 ")

        # Just under the cap is read (and refused as JSON, not for its size).
        body = b" " * (MAX_BODY_BYTES - 2) + b"{}"
        assert _post(server, body)[0] not in (413, 500)
        assert _initialize(server)[0] == 200  # and the server goes on


@pytest.mark.parametrize(
    "headers, status",
    [
        ({"Host": "evil.example:8765"}, 421),
        ({"Host": "evil.example"}, 421),
        ({"Host": "127.0.0.1:1"}, 421),  # another port
        ({"Origin": "http://evil.example"}, 403),
    ],
)
def test_a_foreign_host_or_origin_is_refused_on_loopback(tmp_path, headers, status):
    with serving(tmp_path) as server:
        assert _initialize(server, **headers)[0] == status
        for fine in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
            assert _initialize(server, Host=fine, Origin="http://localhost:3000")[0] == 200


def _slow_download(site: SiteServer, stop: threading.Event) -> str:
    return site.route(
        "/big.bin",
        lambda req: Reply(
            200,
            slow_stream(b"x" * 65536, 10_000, 0.02, stop=stop),
            content_type="application/octet-stream",
        ),
    )


@pytest.mark.parametrize("says_goodbye", [True, False], ids=["delete", "drop"])
def test_a_client_leaving_mid_download_cancels_it(tmp_path, says_goodbye):
    # The client leaves mid-call, ending its session (DELETE) or just dropping the connection:
    # the call is cancelled (the download stops and removes its temp file); the server goes on.
    stop = threading.Event()
    with SiteServer() as site, serving(tmp_path) as server:
        url = _slow_download(site, stop)

        async def script(session):
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(session.call_tool, "download_file", {"url": url})
                await anyio.to_thread.run_sync(
                    lambda: wait_until(lambda: any(tmp_path.iterdir()), 30)
                )
                tasks.cancel_scope.cancel()

        anyio.run(_session, server.url, script, None, says_goodbye)
        left = time.monotonic()
        assert wait_until(lambda: not any(tmp_path.iterdir()), 10), list(tmp_path.iterdir())
        assert time.monotonic() - left < 10
        stop.set()
        assert anyio.run(_session, server.url, _list_names)[0] == "fetch_page"


def test_stopping_the_server_cancels_the_calls_in_flight(tmp_path):
    stop = threading.Event()
    done: list[object] = []
    with SiteServer() as site:
        url = _slow_download(site, stop)
        with serving(tmp_path) as server:

            async def script(session):
                try:
                    done.append(await session.call_tool("download_file", {"url": url}))
                except Exception as exc:  # the stream ends without an answer
                    done.append(exc)

            client = threading.Thread(
                target=anyio.run, args=(_session, server.url, script), daemon=True
            )
            client.start()
            assert wait_until(lambda: any(tmp_path.iterdir()), 30)
            stopping = time.monotonic()
        # serving() checked that run() returned with no call left running.
        assert time.monotonic() - stopping < 10
        stop.set()
        client.join(30)
    assert done and list(tmp_path.iterdir()) == []


ENTRIES = {
    "serve_http": ["-c", "from webgrip.tools.mcp import serve_http; serve_http('127.0.0.1', 0)"],
    "cli": ["-m", "webgrip", "mcp", "--http", "127.0.0.1:0"],
}


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_http_serves_until_a_signal_and_exits_cleanly(sig, entry):
    import webgrip

    env = loopback_env()
    env.pop(TOKEN_ENV, None)
    env["PYTHONPATH"] = str(Path(webgrip.__file__).resolve().parent.parent)
    proc = subprocess.Popen(
        [sys.executable, *ENTRIES[entry]],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_on_a_terminal,
    )
    try:
        first = proc.stderr.readline()
        url = first.split(" at ")[-1].strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), first
        assert "no token" in proc.stderr.readline()
        names = anyio.run(_session, url, _list_names)
        assert names == ["fetch_page", "search_web", "download_file"]
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=15)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out == "" and "Traceback" not in err


@pytest.mark.parametrize("value", ["::1:8765", "127.0.0.1:", "127.0.0.1:99999", "host:port"])
def test_the_cli_refuses_an_http_address_it_cannot_read(value, capsys):
    from webgrip.cli import EXIT_USAGE, main

    assert main(["mcp", "--http", value]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("webgrip: invalid value for --http") and "HOST:PORT" in err, err
    assert err.count("\n") == 1
