"""``Config.tls_trust`` and ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``: a company's CA trusted the
way the machine trusts it, and never a way to turn verification off.

The environment is read when a client is made, so each case runs in a child process with its
own environment (changing ``os.environ`` here would race the core's threads reading it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import webgrip
from webgrip import Config

# The webgrip this test imports (installed, or the source tree on PYTHONPATH), for the child.
_PACKAGE_PARENT = str(Path(webgrip.__file__).resolve().parent.parent)

# One child checks every case in turn: what each client made of the test server.
_CHILD = """
import json, sys
from webgrip import Config, WebClient
from webgrip.errors import ConnectError

url, trust = sys.argv[1], sys.argv[2]
config = Config(allow_networks=("127.0.0.0/8",), rate_limit_seconds=0, timeout=10, tls_trust=trust)
try:
    with WebClient(config) as client:
        answer = client.get(url)
    print(json.dumps({"status": answer.status}))
except ConnectError as exc:
    print(json.dumps({"refused": exc.reason}))
except ValueError as exc:
    print(json.dumps({"config": str(exc)}))
"""


def _run(url: str, trust: str, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    base.update(env, PYTHONPATH=_PACKAGE_PARENT)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, url, trust],
        capture_output=True,
        text=True,
        timeout=60,
        env=base,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_ssl_cert_file_and_dir_are_trusted_and_nothing_else_is(https_server, ca_bundle, tmp_path):
    https_server.expect_request("/secure").respond_with_data("secret page")
    url = https_server.url_for("/secure")
    folder = tmp_path / "certs"
    folder.mkdir()
    (folder / "company-ca.pem").write_bytes(Path(ca_bundle).read_bytes())
    # Neither store knows the test CA: refused, as before.
    assert _run(url, "webpki") == {"refused": "tls"}
    assert _run(url, "system") == {"refused": "tls"}
    # The environment names it: trusted beside Mozilla's roots, or as the system's store.
    assert _run(url, "webpki", SSL_CERT_FILE=ca_bundle) == {"status": 200}
    assert _run(url, "system", SSL_CERT_FILE=ca_bundle) == {"status": 200}
    assert _run(url, "system", SSL_CERT_DIR=str(folder)) == {"status": 200}
    # A location holding no certificate is a configuration error that names it.
    empty = tmp_path / "empty"
    empty.mkdir()
    answer = _run(url, "system", SSL_CERT_DIR=str(empty))
    assert "SSL_CERT_DIR" in answer["config"] and str(empty) in answer["config"]


@pytest.mark.parametrize("value", ["none", "insecure", "off", ""])
def test_no_setting_turns_verification_off(value):
    with pytest.raises(ValueError, match="tls_trust"):
        Config(tls_trust=value)
