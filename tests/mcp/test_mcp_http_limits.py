"""The MCP HTTP server against hostile clients (issue #45, F4 and F10): raw sockets on loopback.

Half-open connections beyond the connection cap do not keep an authenticated client out; a
head or a body sent too slowly is cut off; a flood of ``initialize`` requests ends the flooding
client's own idle sessions, never locks a new client out, and leaves other clients' sessions
alone; a foreign ``Origin`` is refused on every bind; a guessable token is refused at start;
SIGTERM stops a server holding many connections, and stops it even when its shutdown hangs.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import resource
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import mcp  # noqa: F401  (the test extra: missing, the test must fail, not skip)
import pytest
from helpers.loopback import loopback_config, wait_until
from helpers.siteserver import loopback_env
from webgrip.tools import mcp_connections, mcp_http, mcp_sessions
from webgrip.tools.mcp_http import MIN_TOKEN_CHARS, ORIGINS_ENV, TOKEN_ENV, HttpServer

TOKEN = "tok-" + "b2" * 20
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
JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@contextlib.contextmanager
def serving(**kwargs):
    """An :class:`HttpServer` on 127.0.0.1:0 in a thread; stopped (and checked to stop) after."""
    kwargs.setdefault("config", loopback_config())
    kwargs.setdefault("env", {})
    server = HttpServer("127.0.0.1", 0, **kwargs)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop()
        thread.join(30)
        assert not thread.is_alive(), "the server did not stop"


def _sse_json(body: bytes) -> dict:
    """The JSON-RPC message in a reply: a JSON body, or the data line of an event stream."""
    text = body.decode()
    for line in text.splitlines():
        if line.startswith("data:"):
            return json.loads(line[5:])
    return json.loads(text)


class Client:
    """One MCP client speaking raw HTTP over a kept-alive connection, from ``source`` (an
    address on 127/8)."""

    def __init__(self, port: int, source: str = "127.0.0.1", **headers: str) -> None:
        self.conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(source, 0)
        )
        self.headers = dict(JSON_HEADERS, **headers)
        self.session: str | None = None

    def post(self, message: dict, **headers: str) -> tuple[int, bytes]:
        sent = dict(self.headers, **headers)
        if self.session is not None:
            sent.update({"Mcp-Session-Id": self.session, "Mcp-Protocol-Version": "2025-06-18"})
        self.conn.request("POST", mcp_http.PATH, body=json.dumps(message), headers=sent)
        reply = self.conn.getresponse()
        body = reply.read()
        if message.get("method") == "initialize" and reply.status == 200:
            self.session = reply.getheader("mcp-session-id")
        return reply.status, body

    def initialize(self) -> int:
        status, _ = self.post(INITIALIZE)
        if status == 200:
            self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return status

    def tool_names(self) -> tuple[int, list[str]]:
        status, body = self.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        if status != 200:
            return status, []
        return status, [t["name"] for t in _sse_json(body)["result"]["tools"]]

    def close(self) -> None:
        self.conn.close()


def _half_open(port: int) -> socket.socket:
    """A connection that sent part of a request head and never the rest."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"POST {mcp_http.PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Wait: ".encode())
    return sock


def _closed_by_peer(sock: socket.socket) -> bool:
    try:
        return sock.recv(65536) == b""
    except TimeoutError:
        return False
    except OSError:  # reset: closed too
        return True


def test_half_open_connections_past_the_cap_do_not_starve_an_authenticated_client():
    with serving(token=TOKEN) as server:
        cap = server.gate.limit
        held = []
        try:
            for _ in range(cap + 40):
                held.append(_half_open(server.port))
            client = Client(server.port, Authorization=f"Bearer {TOKEN}")
            assert client.initialize() == 200
            assert client.tool_names() == (200, ["fetch_page", "search_web", "download_file"])
            client.close()
            assert len(server.gate) <= cap
            assert server.gate.shed_count >= 40
        finally:
            for sock in held:
                sock.close()


def test_when_every_connection_is_busy_a_new_one_is_answered_503(monkeypatch):
    # Connections serving a request are not shed: at the cap, with none idle, the newcomer is
    # told to come back rather than left hanging.
    monkeypatch.setattr(mcp_http, "connection_cap", lambda: 4)
    with serving() as server:
        busy = []
        try:
            for _ in range(4):  # heads sent, bodies withheld: each is serving a request
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                sock.sendall(
                    f"POST {mcp_http.PATH} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                    "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode()
                )
                busy.append(sock)
            assert wait_until(lambda: len(server.gate) == 4, 30)
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as late:
                assert late.recv(4096).startswith(b"HTTP/1.1 503 ")
            assert server.gate.refused_count == 1
        finally:
            for sock in busy:
                sock.close()
        assert wait_until(lambda: len(server.gate) == 0, 30)
        assert Client(server.port).initialize() == 200  # room again once they left


def test_a_head_sent_too_slowly_is_cut_off(monkeypatch):
    monkeypatch.setattr(mcp_connections, "HEAD_SECONDS", 1.0)
    with serving() as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(f"POST {mcp_http.PATH} HTTP/1.1\r\n".encode())
            sock.settimeout(0.2)
            sent = 0
            # A slowloris: a header line every 0.2 s, never the blank line ending the head.
            while not _closed_by_peer(sock) and sent < 500:
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Drip-%d: 1\r\n" % sent)
                sent += 1
            assert sent < 500, "the server kept reading the head"
        assert Client(server.port).initialize() == 200


def test_a_body_sent_too_slowly_is_answered_408(monkeypatch):
    monkeypatch.setattr(mcp_http, "BODY_SECONDS", 1.0)
    with serving() as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(
                f"POST {mcp_http.PATH} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                "Content-Type: application/json\r\n"
                "Accept: application/json, text/event-stream\r\n"
                "Content-Length: 1000\r\n\r\n{".encode()
            )
            reply = b""
            while chunk := sock.recv(4096):
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 408 "), reply
            assert b"connection: close" in reply.lower()
        assert Client(server.port).initialize() == 200


def test_a_flood_of_initializes_does_not_lock_a_new_client_out():
    with serving() as server:
        flood = [Client(server.port) for _ in range(150)]
        statuses = [c.initialize() for c in flood]
        assert statuses == [200] * 150
        # The flooding client's least recently used sessions made room for its newer ones.
        assert flood[0].tool_names()[0] == 404
        assert flood[-1].tool_names() == (200, ["fetch_page", "search_web", "download_file"])
        newcomer = Client(server.port)
        assert newcomer.initialize() == 200
        assert newcomer.tool_names()[0] == 200
        for c in [*flood, newcomer]:
            c.close()


def test_one_client_flooding_ends_only_its_own_sessions():
    # Two clients on two loopback addresses: the flood from one ends its own idle sessions,
    # and the other's session, idle all along, still answers.
    with serving() as server:
        other = Client(server.port, source="127.0.0.3")
        assert other.initialize() == 200
        flood = [Client(server.port, source="127.0.0.2") for _ in range(100)]
        assert [c.initialize() for c in flood] == [200] * 100
        assert other.tool_names()[0] == 200
        alive = sum(c.tool_names()[0] == 200 for c in flood)
        assert alive == mcp_sessions.MAX_SESSIONS_PER_CLIENT
        for c in [*flood, other]:
            c.close()


def test_a_client_whose_sessions_are_all_busy_is_refused_without_ending_them(monkeypatch):
    monkeypatch.setattr(mcp_sessions, "MAX_SESSIONS_PER_CLIENT", 2)
    with serving() as server:
        streams = []
        for _ in range(2):
            client = Client(server.port)
            assert client.initialize() == 200
            # An open event stream keeps the session busy.
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            sock.sendall(
                f"GET {mcp_http.PATH} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                f"Accept: text/event-stream\r\nMcp-Session-Id: {client.session}\r\n"
                "Mcp-Protocol-Version: 2025-06-18\r\n\r\n".encode()
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")
            streams.append((client, sock))
        late = Client(server.port)
        status, body = late.post(INITIALIZE)
        assert status == 503 and b"Too many sessions" in body
        for client, sock in streams:
            assert client.tool_names()[0] == 200
            sock.close()
            client.close()


@pytest.mark.parametrize(
    "origin, status",
    [
        ("http://evil.example", 403),
        ("http://evil.example:{port}", 403),  # a rebinding page: the attacker's name
        ("null", 403),
        ("https://app.example", 200),  # listed
        ("http://127.0.0.1:{port}", 200),  # the server's own address
        (None, 200),  # not a browser
    ],
)
def test_off_loopback_the_origin_is_checked_too(monkeypatch, origin, status):
    monkeypatch.setattr(mcp_http, "is_loopback", lambda host: False)
    with serving(token=TOKEN, env={ORIGINS_ENV: "https://app.example, http://b.example:81"}) as s:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        if origin is not None:
            headers["Origin"] = origin.format(port=s.port)
        client = Client(s.port, **headers)
        assert client.initialize() == status
        client.close()


def test_the_origin_is_refused_before_the_token_is_asked_for(monkeypatch):
    monkeypatch.setattr(mcp_http, "is_loopback", lambda host: False)
    with serving(token=TOKEN) as server:
        assert Client(server.port, Origin="http://evil.example").initialize() == 403


def test_a_listed_origin_is_allowed_on_loopback_too():
    with serving(origins=["https://app.example"]) as server:
        assert Client(server.port, Origin="https://app.example").initialize() == 200
        assert Client(server.port, Origin="https://app.example.evil").initialize() == 403
        assert Client(server.port, Origin="http://localhost:3000").initialize() == 200


@pytest.mark.parametrize("bad", ["ftp://a.example", "https://a.example/path", "a.example", "*"])
def test_an_origin_list_that_is_not_origins_is_refused(bad):
    with pytest.raises(ValueError, match="not an origin"):
        mcp_http.parse_origins(bad)


def test_a_bad_origins_variable_is_named_at_start():
    with pytest.raises(ValueError, match=ORIGINS_ENV):
        HttpServer("127.0.0.1", 0, config=loopback_config(), env={ORIGINS_ENV: "app.example"})


def test_parse_origins_reads_what_browsers_send():
    assert mcp_http.parse_origins("HTTPS://App.Example:443/, http://[::1]:8080 http://a:80") == {
        "https://app.example",
        "http://[::1]:8080",
        "http://a",
    }


@pytest.mark.parametrize("token", ["x", "a" * (MIN_TOKEN_CHARS - 1)])
def test_a_guessable_token_is_refused_at_start(token):
    with pytest.raises(ValueError, match=r"secrets\.token_urlsafe") as caught:
        HttpServer("127.0.0.1", 0, config=loopback_config(), token=token)
    assert f"at least {MIN_TOKEN_CHARS}" in str(caught.value)
    mcp_http.resolve_token("192.0.2.1", "a" * MIN_TOKEN_CHARS)  # long enough: accepted


def test_the_cli_refuses_a_guessable_token_with_the_way_to_make_one(monkeypatch, capsys):
    from webgrip.cli import EXIT_USAGE, main

    monkeypatch.setenv(TOKEN_ENV, "x")
    assert main(["mcp", "--http", "127.0.0.1:0"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert TOKEN_ENV in err and "secrets.token_urlsafe" in err, err


def _server_process(script: str, nofile: int | None = None) -> tuple[subprocess.Popen, int]:
    import webgrip

    env = loopback_env()
    env.pop(TOKEN_ENV, None)
    env["PYTHONPATH"] = str(Path(webgrip.__file__).resolve().parent.parent)

    def limit() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )
    first = proc.stderr.readline()
    assert " at http://127.0.0.1:" in first, first + proc.stderr.read()
    return proc, int(first.split(" at ")[-1].split(":")[2].split("/")[0])


SERVE = "from webgrip.tools.mcp import serve_http; serve_http('127.0.0.1', 0)"


def test_sigterm_stops_a_server_holding_every_descriptor_it_may_use():
    # 128 descriptors: a cap of 32 connections, and 200 more knocking.
    proc, port = _server_process(SERVE, nofile=128)
    held = []
    try:
        for _ in range(200):
            with contextlib.suppress(OSError):
                held.append(_half_open(port))
        busy = Client(port)
        assert busy.initialize() == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        for sock in held:
            sock.close()
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_sigterm_stops_the_server_even_when_its_shutdown_hangs():
    # The last resort: a shutdown that never returns (here made to) is left behind.
    script = (
        "import asyncio, uvicorn\n"
        "from webgrip.tools import mcp_http\n"
        "mcp_http.STOP_SECONDS = 2.0\n"
        "async def hang(self, sockets=None):\n"
        "    await asyncio.Event().wait()\n"
        "uvicorn.Server.shutdown = hang\n" + SERVE
    )
    proc, port = _server_process(script)
    try:
        assert Client(port).initialize() == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "did not stop within 2 s" in err


def test_the_cli_reads_the_token_and_origins_variables():
    # Both were refused as unknown WEBGRIP_* variables before any server started.
    import webgrip

    env = loopback_env(
        **{TOKEN_ENV: TOKEN, ORIGINS_ENV: "https://app.example"},
        PYTHONPATH=str(Path(webgrip.__file__).resolve().parent.parent),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "webgrip", "mcp", "--http", "127.0.0.1:0"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = proc.stderr.readline()
        assert " at http://127.0.0.1:" in first, first + proc.stderr.read()
        assert TOKEN_ENV in proc.stderr.readline()
        port = int(first.split(" at ")[-1].split(":")[2].split("/")[0])
        allowed = Client(port, Authorization=f"Bearer {TOKEN}", Origin="https://app.example")
        assert allowed.initialize() == 200
        assert Client(port, Authorization=f"Bearer {TOKEN}").initialize() == 200
        assert Client(port).initialize() == 401
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
