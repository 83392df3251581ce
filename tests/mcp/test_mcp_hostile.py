"""A hostile MCP client against the real ``python -m webgrip mcp`` over stdio (issue #16).

The client speaks raw newline-delimited JSON-RPC: malformed and oversized messages, unknown
tools, bad arguments, hundreds of concurrent calls, and leaving mid-call (stdin closed, or
stdout no longer read). Each message gets a JSON-RPC error or an ``isError`` result, the
server answers a ping after each, and a client that leaves ends the process promptly with
nothing left behind in the download folder.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import mcp  # noqa: F401  (the test extra: missing, the test must fail, not skip)
import pytest
from helpers.siteserver import Reply, SiteServer, article, loopback_env, page, slow_stream

PARSE, INVALID, NO_METHOD, BAD_PARAMS = -32700, -32600, -32601, -32602


def child_env(**extra: str) -> dict[str, str]:
    import webgrip

    env = loopback_env(**extra)
    parent = str(Path(webgrip.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


class RawClient:
    """``python -m webgrip mcp`` driven line by line."""

    def __init__(self, **env: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "webgrip", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env(**env),
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._ids = iter(range(1_000_000, 2_000_000))
        reply = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"},
            },
        )
        assert "result" in reply, reply
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, message) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = 30) -> dict:
        return json.loads(self.lines.get(timeout=timeout))

    def request(self, method: str, params: dict | None = None) -> dict:
        ident = next(self._ids)
        message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        reply = self.receive()
        assert reply["id"] == ident, reply
        return reply

    def call(self, name: str, arguments) -> dict:
        return self.request("tools/call", {"name": name, "arguments": arguments})["result"]

    def alive(self) -> bool:
        """Whether the server still answers a ping, with nothing else pending before it."""
        ident = next(self._ids)
        self.send({"jsonrpc": "2.0", "id": ident, "method": "ping"})
        return self.receive() == {"jsonrpc": "2.0", "id": ident, "result": {}}

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(30)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


@pytest.fixture(scope="module")
def client():
    c = RawClient()
    yield c
    assert c.close() == 0


MALFORMED = [
    (b"{bad json", PARSE, None),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "ping"', PARSE, None),  # cut short
    (b"\xff\xfe\x00 not utf-8", PARSE, None),
    (b"[" * 100_000 + b"]" * 100_000, PARSE, None),  # nesting deeper than any parser's stack
    (b"[]", INVALID, None),
    (b'[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]', INVALID, None),  # batch
    (b"42", INVALID, None),
    (b'"tools/list"', INVALID, None),
    (b"null", INVALID, None),
    (b'{"jsonrpc": "2.0", "id": 7}', INVALID, 7),  # no method
    (b'{"jsonrpc": "1.0", "id": 8, "method": "tools/list"}', INVALID, 8),
    (b'{"id": 9, "method": "tools/list"}', INVALID, 9),  # no jsonrpc
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', INVALID, None),
    (b'{"jsonrpc": "2.0", "id": null, "method": "tools/list"}', INVALID, None),
    (b'{"jsonrpc": "2.0", "id": true, "method": "tools/list"}', INVALID, None),
    (b'{"jsonrpc": "2.0", "id": 10, "method": 5}', INVALID, 10),
    (b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": "x"}', INVALID, 11),
    (b'{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": [1]}', INVALID, 12),
    (b'{"jsonrpc": "2.0", "id": 13, "method": "no/such/method"}', NO_METHOD, 13),
    (
        b'{"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "fetch_page", '
        b'"arguments": "not an object"}}',
        BAD_PARAMS,
        14,
    ),
]


@pytest.mark.parametrize(
    ("line", "code", "ident"), MALFORMED, ids=[str(i) for i in range(len(MALFORMED))]
)
def test_every_malformed_message_gets_an_error_and_the_server_goes_on(client, line, code, ident):
    client.send(line)
    reply = client.receive()
    assert reply["jsonrpc"] == "2.0" and reply["id"] == ident, reply
    assert reply["error"]["code"] == code, reply
    assert client.alive()


def test_oversized_messages_are_discarded_unread_and_answered(client):
    from webgrip.tools.mcp_wire import MAX_MESSAGE_BYTES

    url = "http://127.0.0.1/" + "a" * (MAX_MESSAGE_BYTES + 10)
    client.send(
        {
            "jsonrpc": "2.0",
            "id": 20,
            "method": "tools/call",
            "params": {"name": "fetch_page", "arguments": {"url": url}},
        }
    )
    reply = client.receive()
    # The id is read from the message's first bytes, so the client can match the error.
    assert reply["id"] == 20 and reply["error"]["code"] == INVALID, reply
    assert "over the" in reply["error"]["message"]
    client.send(b" " * (3 * MAX_MESSAGE_BYTES))  # blank but huge: discarded all the same
    reply = client.receive()
    assert reply["id"] is None and reply["error"]["code"] == INVALID, reply
    assert client.alive()
    # Just under the limit is read and answered by the tool (an isError result).
    client.send(
        {
            "jsonrpc": "2.0",
            "id": 21,
            "method": "tools/call",
            "params": {"name": "fetch_page", "arguments": {"url": url[: MAX_MESSAGE_BYTES - 200]}},
        }
    )
    reply = client.receive()
    assert reply["id"] == 21 and reply["result"]["isError"] is True
    assert client.alive()


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("rm_rf", {}, "unknown tool"),
        ("", {}, "unknown tool"),
        ("fetch_page", {}, "missing required argument"),
        ("fetch_page", {"url": 5}, "must be a string"),
        ("fetch_page", {"url": "http://127.0.0.1:1/", "max_length": "lots"}, "max_length"),
        ("fetch_page", {"url": "http://127.0.0.1:1/", "extract": "everything"}, "extract"),
        ("fetch_page", {"url": "http://127.0.0.1:1/", "bogus": 1}, "bogus"),
        ("search_web", {"query": ""}, "query"),
        ("search_web", {"query": "x", "num_results": [1]}, "num_results"),
        ("download_file", {"url": "http://127.0.0.1:1/x", "overwrite": "maybe"}, "overwrite"),
        ("download_file", {"url": "file:///etc/passwd"}, "Error"),
        ("download_file", {"url": "http://127.0.0.1:1/x", "save_to": "/etc"}, "Error"),
    ],
)
def test_unknown_tools_and_bad_arguments_are_is_error_results(client, name, arguments, says):
    result = client.call(name, arguments)
    text = result["content"][0]["text"]
    assert result["isError"] is True and text.startswith("Error:"), result
    assert says in text
    assert client.alive()


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_hundreds_of_concurrent_calls_all_answered_without_leaking(client):
    calls = 300
    with SiteServer() as site:
        url = site.route("/a", page(article("Concurrent")))
        client.call("fetch_page", {"url": url})  # warm: the worker threads and the pool
        before = open_fds(client.proc.pid)
        for i in range(calls):
            name, args = (
                ("fetch_page", {"url": url, "max_length": 300})
                if i % 3
                else ("fetch_page", {"url": 5})
            )  # a third fail at once
            client.send(
                {
                    "jsonrpc": "2.0",
                    "id": f"c{i}",
                    "method": "tools/call",
                    "params": {"name": name, "arguments": args},
                }
            )
        replies = {}
        while len(replies) < calls:
            reply = client.receive(60)
            replies[reply["id"]] = reply
        assert len(site.hits("/a")) == 1 + calls - (calls + 2) // 3
    assert sorted(replies) == sorted(f"c{i}" for i in range(calls))
    for i in range(calls):
        result = replies[f"c{i}"]["result"]
        assert result["isError"] is (i % 3 == 0), result
        if i % 3:
            assert "Concurrent paragraph" in result["content"][0]["text"]
    assert client.alive()
    # Connections are closed once answered (pooled ones time out): the count comes back.
    deadline = time.monotonic() + 20
    while open_fds(client.proc.pid) > before + 4 and time.monotonic() < deadline:
        threading.Event().wait(0.1)
    assert open_fds(client.proc.pid) <= before + 4


# -- the client leaves mid-call -------------------------------------------------------------
def wait_for(condition, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        threading.Event().wait(0.02)
    return True


def test_client_closing_stdin_mid_download_stops_it_and_leaves_nothing(tmp_path):
    stop = threading.Event()
    with SiteServer() as site:
        url = site.route(
            "/big.bin",
            lambda req: Reply(
                200,
                slow_stream(b"x" * 65536, 10_000, 0.02, stop=stop),
                content_type="application/octet-stream",
            ),
        )
        c = RawClient(WEBGRIP_DOWNLOAD_DIRS=str(tmp_path), WEBGRIP_TIMEOUT="120")
        c.send(
            {
                "jsonrpc": "2.0",
                "id": "dl",
                "method": "tools/call",
                "params": {"name": "download_file", "arguments": {"url": url}},
            }
        )
        assert wait_for(lambda: any(tmp_path.iterdir())), "the download never started"
        started = time.monotonic()
        code = c.close()
        stop.set()
    # The call is cancelled (the download stops and removes its temp file), the process ends.
    assert code == 0 and time.monotonic() - started < 10
    assert list(tmp_path.iterdir()) == []


def test_client_leaving_while_a_call_is_blocked_does_not_keep_the_server(tmp_path):
    # The origin sends headers and then nothing: the call is blocked in a read until its
    # deadline (120 s here). The process must not wait for it.
    release = threading.Event()

    def stalled(req):
        def body():
            yield b"x" * 1000
            release.wait(60)

        return Reply(200, body(), content_type="application/octet-stream", length=10**6)

    with SiteServer() as site:
        url = site.route("/stall.bin", stalled)
        c = RawClient(WEBGRIP_DOWNLOAD_DIRS=str(tmp_path), WEBGRIP_TIMEOUT="120")
        c.send(
            {
                "jsonrpc": "2.0",
                "id": "s",
                "method": "tools/call",
                "params": {"name": "fetch_page", "arguments": {"url": url}},
            }
        )
        assert wait_for(lambda: site.hits("/stall.bin"))
        started = time.monotonic()
        code = c.close()
        release.set()
    assert code == 0 and time.monotonic() - started < 15


def test_client_that_stops_reading_ends_the_session(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "webgrip", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    proc.stdout.close()  # gone: every answer now meets a broken pipe
    try:
        proc.stdin.write(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "x", "version": "1"},
                    },
                }
            ).encode()
            + b"\n"
        )
        proc.stdin.flush()
        code = proc.wait(20)  # stdin still open: only the broken pipe can end it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        stderr = proc.stderr.read().decode()
        proc.stderr.close()
    assert code == 0, stderr
    assert "Traceback" not in stderr, stderr
