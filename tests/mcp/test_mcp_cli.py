"""``webgrip mcp`` and ``python -m webgrip mcp`` as a person and an MCP client start them
(issue #47, item 4): the same options on both entries (the request options too), a line on
stderr when stdin is a terminal, Ctrl-C without a traceback, a port in use named with the next
step, and a client gone mid-request over HTTP logged as one debug line, not tracebacks.
"""

from __future__ import annotations

import logging
import os
import pty
import signal
import socket
import subprocess
import sys

import mcp  # noqa: F401  (the test extra: missing, the test must fail, not skip)
import pytest
from helpers.interrupt import sigint_as_on_a_terminal
from helpers.loopback import loopback_config
from helpers.siteserver import SiteServer, article, loopback_env, page
from webgrip.tools.mcp_http import HttpServer

anyio = pytest.importorskip("anyio")
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402


def _env_without_loopback() -> dict[str, str]:
    env = loopback_env()
    env.pop("WEBGRIP_ALLOW_NETWORKS")  # the --allow flag must open loopback, not the variable
    return env


def test_python_m_webgrip_mcp_takes_the_request_options_and_the_tools():
    with SiteServer() as site:
        url = site.route("/article", page(article("Options")))
        args = ["-m", "webgrip", "mcp", "--allow", "127.0.0.0/8", "--user-agent", "probe/1.0"]
        args += ["--tool", "map_site"]
        params = StdioServerParameters(
            command=sys.executable, args=args, env=_env_without_loopback()
        )

        async def run():
            with anyio.fail_after(60):
                async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
                    await session.initialize()
                    names = [t.name for t in (await session.list_tools()).tools]
                    result = await session.call_tool("fetch_page", {"url": url})
                    return names, result

        names, result = anyio.run(run)
        assert "map_site" in names
        assert not result.is_error, result.content
        assert [r.headers.get("user-agent") for r in site.hits("/article")] == ["probe/1.0"]


def test_python_m_webgrip_mcp_http_names_a_port_in_use_and_the_next_step():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "webgrip", "mcp", "--http", f"127.0.0.1:{port}"],
            env=loopback_env(),
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    assert result.returncode == 2, result.stderr
    line = result.stderr.strip()
    assert line.count("\n") == 0, line
    assert f"port {port} is already in use" in line and "--http HOST:PORT" in line, line


def _read_line(fd: int) -> str:
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 1)
        if not chunk:
            break
        data += chunk
    return data.decode()


def test_on_a_terminal_stdio_says_it_waits_and_ctrl_c_ends_quietly():
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "webgrip", "mcp"],
        env=loopback_env(),
        stdin=child,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=sigint_as_on_a_terminal,
    )
    os.close(child)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        assert "waiting for an MCP client on stdin" in first and "Ctrl-C" in first, first
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
        os.close(main)
    assert proc.returncode == 130, err
    assert out == b"" and err.decode().strip() == "webgrip: interrupted", err


def test_a_client_gone_mid_request_is_one_debug_line_not_a_traceback(caplog):
    # When a client gives up on a call (it sends notifications/cancelled and ends its session
    # at once), the SDK writes to the closed session and logs "Error handling POST request"
    # with a traceback, then uvicorn logs "Exception in ASGI application" (~75 lines in all,
    # in 3 of 8 runs of such a client). A server built turns those into one debug line each
    # and leaves every other error as it was.
    server = HttpServer("127.0.0.1", 0, config=loopback_config(), env={})
    try:
        caplog.set_level(logging.DEBUG)
        for name in ("mcp.server.streamable_http", "uvicorn.error"):
            try:
                try:
                    raise anyio.ClosedResourceError
                except anyio.ClosedResourceError:
                    # Chained implicitly, as uvicorn's is.
                    raise RuntimeError("Unexpected ASGI message after response completed")  # noqa: B904
            except RuntimeError:
                logging.getLogger(name).exception("Error handling POST request")
            try:
                raise ValueError("a real fault")
            except ValueError:
                logging.getLogger(name).exception("Exception in ASGI application")
    finally:
        server.stop()
    gone = [r for r in caplog.records if "Error handling POST request" in r.getMessage()]
    assert [(r.levelno, r.exc_info) for r in gone] == [(logging.DEBUG, None)] * 2
    assert "a client left mid-request (RuntimeError)" in gone[0].getMessage()
    real = [r for r in caplog.records if r.getMessage() == "Exception in ASGI application"]
    assert [r.levelno for r in real] == [logging.ERROR] * 2 and all(r.exc_info for r in real)
