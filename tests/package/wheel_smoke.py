"""Exercise an installed webgrip wheel the way a user gets it (run by scripts/wheel-smoke).

Run with the clean venv's Python, from outside the checkout and with no Rust toolchain on PATH:
it serves a small page on a loopback http.server and checks that the public API
(``WebClient.fetch``, ``Tools.fetch_page``, ``Tools.download_file``, ``webgrip.extract``) and
the ``webgrip`` command all return its text. Exits non-zero on the first thing that is wrong.
"""

from __future__ import annotations

import hashlib
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from functools import partial
from pathlib import Path

MARKER = "Wheels travel well"
PAGE = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Smoke page</title></head>
<body><nav><a href="/">Home</a></nav>
<article><h1>{MARKER}</h1>
<p>An abi3 wheel built once serves every CPython from 3.10 on, with no compiler needed
at install time. This paragraph is long enough to count as the main content.</p>
<p>Ünïcödé survives the round trip.</p></article>
</body></html>
"""
BLOB = bytes(range(256)) * 64  # 16 KiB of every byte value


def check(ok: bool, what: str) -> None:
    if not ok:
        sys.exit(f"wheel-smoke: FAILED: {what}")
    print(f"wheel-smoke: ok: {what}")


def serve(root: Path) -> http.server.ThreadingHTTPServer:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    check(
        shutil.which("cargo") is None and shutil.which("rustc") is None, "no cargo or rustc on PATH"
    )

    import webgrip
    from webgrip import Config, Tools, WebClient, _core
    from webgrip.extract import extract

    site = Path(sys.prefix)
    for module in (webgrip, _core):
        check(
            Path(module.__file__).resolve().is_relative_to(site.resolve()),
            f"{module.__name__} is imported from the venv ({module.__file__})",
        )

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "site")
        root.mkdir()
        (root / "index.html").write_text(PAGE, encoding="utf-8")
        (root / "data.bin").write_bytes(BLOB)
        downloads = Path(tmp, "downloads")
        downloads.mkdir()
        server = serve(root)
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        config = Config(
            allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, download_dirs=(str(downloads),)
        )
        try:
            page = WebClient(config).fetch(base)
            check(
                page.status == 200 and page.title == "Smoke page" and MARKER in page.content,
                "WebClient.fetch",
            )

            tools = Tools(config)
            answer = tools.fetch_page(base)
            check(MARKER in answer and "Ünïcödé" in answer, "Tools.fetch_page (Markdown)")

            answer = tools.download_file(base + "data.bin")
            saved = downloads / "data.bin"
            check(
                saved.is_file()
                and saved.read_bytes() == BLOB
                and hashlib.sha256(BLOB).hexdigest() in answer,
                "Tools.download_file",
            )

            text = extract(PAGE, url=base, mode="text", main_content=True)
            check(MARKER in text and "Home" not in text, "webgrip.extract (main content)")

            env = {
                **os.environ,
                "WEBGRIP_ALLOW_NETWORKS": "127.0.0.0/8",
                "WEBGRIP_RATE_LIMIT_SECONDS": "0",
            }
            cli = shutil.which("webgrip")
            check(
                cli is not None and Path(cli).parent == Path(sys.executable).parent,
                f"the webgrip command is the venv's ({cli})",
            )
            run = subprocess.run(
                [cli, "fetch", base, "--extract", "text"],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            check(
                run.returncode == 0 and MARKER in run.stdout,
                f"webgrip fetch (exit {run.returncode}, stderr {run.stderr.strip()!r})",
            )
        finally:
            server.shutdown()
            server.server_close()
    print(f"wheel-smoke: webgrip {webgrip.__version__} from the wheel works")


if __name__ == "__main__":
    main()
