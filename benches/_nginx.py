"""Debian's nginx (``apt-get install nginx``) on 127.0.0.1, for the benchmarks that need a
server faster than the client they measure (``e2e.py``, ``download_speed.py``).

:class:`Nginx` serves a folder's ``www/`` on a free loopback port: it writes a minimal config
into the folder (one worker in the foreground, run as the current user, pid, logs and temp
files in the folder, no access log, ``sendfile``), with the caller's own ``http`` settings
added, starts nginx on it and waits until it accepts connections.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

_CONF = """\
daemon off;
worker_processes 1;
user {user};
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    sendfile on;
    client_body_temp_path {dir}/tmp;
    proxy_temp_path {dir}/tmp;
    fastcgi_temp_path {dir}/tmp;
    uwsgi_temp_path {dir}/tmp;
    scgi_temp_path {dir}/tmp;
{http}
    server {{
        listen 127.0.0.1:{port};
        root {dir}/www;
    }}
}}
"""


def free_port() -> int:
    """A port free on 127.0.0.1 now (nginx binds it a moment later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class Nginx:
    """nginx serving ``folder/www`` at ``http://127.0.0.1:{port}/``.

    ``http`` holds the caller's directives for the ``http`` block (one a line), ``connections``
    the worker's connection limit; ``prefix`` goes before the command (``taskset -c N``).
    """

    def __init__(
        self, folder: Path, http: str, *, connections: int, prefix: tuple[str, ...] = ()
    ) -> None:
        self.port = free_port()
        (folder / "tmp").mkdir(exist_ok=True)
        conf = folder / "nginx.conf"
        user = pwd.getpwuid(os.geteuid()).pw_name
        conf.write_text(
            _CONF.format(dir=folder, port=self.port, user=user, connections=connections, http=http)
        )
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.proc = subprocess.Popen(
            [*prefix, nginx, "-c", str(conf), "-p", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while True:  # wait until it accepts connections
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    self.stop()
                    raise RuntimeError(f"nginx did not start: {err.strip()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
