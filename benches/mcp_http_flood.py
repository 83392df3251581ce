#!/usr/bin/env python3
"""Hostile clients against ``webgrip mcp --http``, run as a process on loopback: the figures
of docs/reliability.md's "Hostile MCP HTTP client" table. Reported, never asserted.

- ``flood``: N connections that send half a request head (``--shape head``) or a whole head
  and no body (``--shape body``) and hold on, then an authenticated ``initialize`` +
  ``tools/list`` (10 s allowed), then SIGTERM (30 s allowed). ``--nofile`` lowers the
  server's descriptor limit; ``--no-drain`` leaves its stderr in a pipe nobody reads.
- ``sessions``: N ``initialize`` requests from one client, then one from a new client.
- ``slow``: a head sent one line a second, and a request whose body never comes.

Usage (from the repository root, with the extension built)::

    PYTHONPATH=python python benches/mcp_http_flood.py flood --connections 300 --nofile 256
    PYTHONPATH=python python benches/mcp_http_flood.py sessions --count 110
    PYTHONPATH=python python benches/mcp_http_flood.py slow

``--webgrip PATH`` runs the server from another source tree (an older commit's ``python/``
folder, with a ``_core`` copied in) for a before/after comparison.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "flood", "version": "1"},
    },
}
JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


class Server:
    """``python -m webgrip mcp --http 127.0.0.1:0`` in a child process."""

    def __init__(self, path: str, token: str | None, nofile: int, drain: bool) -> None:
        env = dict(os.environ, PYTHONPATH=path)
        env.pop("WEBGRIP_MCP_TOKEN", None)
        if token is not None:
            env["WEBGRIP_MCP_TOKEN"] = token

        def limit() -> None:
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "webgrip", "mcp", "--http", "127.0.0.1:0"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=limit,
        )
        assert self.proc.stderr is not None
        first = self.proc.stderr.readline()
        if " at http://" not in first:
            sys.exit(f"the server did not start: {first}{self.proc.stderr.read()}")
        self.port = int(first.split(" at ")[-1].split(":")[2].split("/")[0])
        self.lines: list[str] = []
        self.drain = drain
        if drain:
            threading.Thread(
                target=lambda: self.lines.extend(self.proc.stderr), daemon=True
            ).start()

    def stop(self) -> None:
        started = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
            print(f"SIGTERM: exit {self.proc.returncode} after {time.monotonic() - started:.2f} s")
        except subprocess.TimeoutExpired:
            print("SIGTERM: still running after 30 s")
            self.proc.kill()
            self.proc.wait()
        time.sleep(0.5)
        if not self.drain:
            assert self.proc.stderr is not None
            self.lines = self.proc.stderr.readlines()
        print(f"stderr: {len(self.lines) + 1} lines")


def tools_list(port: int, headers: dict[str, str], timeout: float = 10.0) -> str:
    started = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("POST", "/mcp", body=json.dumps(INITIALIZE), headers=headers)
        reply = conn.getresponse()
        reply.read()
        session = reply.getheader("mcp-session-id") or ""
        later = dict(headers, **{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"})
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        conn.request("POST", "/mcp", body=json.dumps(note), headers=later)
        conn.getresponse().read()
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        conn.request("POST", "/mcp", body=json.dumps(listing), headers=later)
        reply = conn.getresponse()
        found = "fetch_page" in reply.read().decode()
        took = time.monotonic() - started
        return f"tools/list: {reply.status}, tools listed: {found}, in {took:.2f} s"
    except OSError as exc:
        return f"tools/list: failed after {time.monotonic() - started:.2f} s ({exc!r})"


def flood(args: argparse.Namespace) -> None:
    token = secrets.token_urlsafe(32)
    server = Server(args.webgrip, token, args.nofile, not args.no_drain)
    time.sleep(1)
    held = []
    started = time.monotonic()
    for _ in range(args.connections):
        try:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            if args.shape == "head":
                sock.sendall((head + "X-Wait: ").encode())
            else:
                sock.sendall((head + "Content-Type: application/json\r\n").encode())
                sock.sendall(b"Content-Length: 1000\r\n\r\n{")
            held.append(sock)
        except OSError as exc:
            print(f"connection {len(held)} failed: {exc}")
            break
    print(f"{len(held)} connections opened in {time.monotonic() - started:.2f} s")
    time.sleep(1)
    print(tools_list(server.port, dict(JSON, Authorization=f"Bearer {token}")))
    server.stop()
    for sock in held:
        sock.close()


def sessions(args: argparse.Namespace) -> None:
    server = Server(args.webgrip, None, 0, True)
    time.sleep(1)

    def initialize() -> int:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("POST", "/mcp", body=json.dumps(INITIALIZE), headers=JSON)
        reply = conn.getresponse()
        reply.read()
        conn.close()
        return reply.status

    statuses = [initialize() for _ in range(args.count)]
    print(
        f"{args.count} initialize: "
        + ", ".join(f"{statuses.count(s)} x {s}" for s in sorted(set(statuses)))
    )
    print(f"a new client: {initialize()}")
    server.stop()


def slow(args: argparse.Namespace) -> None:
    server = Server(args.webgrip, None, 0, True)
    time.sleep(1)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(1.0)
        sock.sendall(b"POST /mcp HTTP/1.1\r\n")
        started = time.monotonic()
        closed = None
        for i in range(40):
            try:
                sock.sendall(b"X-Drip-%d: 1\r\n" % i)
                if sock.recv(100) == b"":
                    closed = time.monotonic() - started
                    break
            except TimeoutError:
                pass
            except OSError:
                closed = time.monotonic() - started
                break
        took = time.monotonic() - started
        print(
            f"slow head: closed after {closed:.1f} s"
            if closed
            else f"slow head: open after {took:.0f} s"
        )
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(45)
        sock.sendall(
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode()
            + b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            + b"Content-Length: 1000\r\n\r\n{"
        )
        started = time.monotonic()
        try:
            status = sock.recv(200).split(b"\r\n")[0].decode()
            print(f"withheld body: {status!r} after {time.monotonic() - started:.1f} s")
        except TimeoutError:
            print(f"withheld body: no answer after {time.monotonic() - started:.0f} s")
    server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--webgrip", default=os.environ.get("PYTHONPATH", "python"), help="source tree"
    )
    sub = parser.add_subparsers(dest="run", required=True)
    f = sub.add_parser("flood", help="half-open connections, then a real client, then SIGTERM")
    f.add_argument("--connections", type=int, default=300)
    f.add_argument("--nofile", type=int, default=0, help="the server's descriptor limit")
    f.add_argument("--shape", choices=["head", "body"], default="head")
    f.add_argument("--no-drain", action="store_true", help="leave the server's stderr unread")
    s = sub.add_parser("sessions", help="initialize requests from one client, then a new client")
    s.add_argument("--count", type=int, default=110)
    sub.add_parser("slow", help="a head sent slowly, a body never sent")
    args = parser.parse_args()
    {"flood": flood, "sessions": sessions, "slow": slow}[args.run](args)


if __name__ == "__main__":
    main()
