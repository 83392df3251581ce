"""Fixtures and hooks only: a loopback-opened config and client, raw-socket servers, TLS,
the opt-in benchmarks, and Hypothesis's settings. What they are built from lives in
``tests/helpers/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from helpers.loopback import Handler, RawServer, loopback_config
from hypothesis import HealthCheck, settings
from webgrip import Config

# Hypothesis fails an example that takes over 200 ms, and a test whose data take long to
# generate: on a shared 2-core machine (load 13-20) one example in hundreds waits that long
# for a CPU, and test_hygiene's property test failed a suite run there ("Unreliable test
# timings": 292.82 ms, then 0.08 ms). No property test here is about time (a linear-time test
# measures its own bound), so neither check applies; a test's own @settings still sets what
# it names.
settings.register_profile("webgrip", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("webgrip")


@pytest.fixture
def loopback() -> Config:
    """The loopback-opened ``Config`` (see :func:`loopback_config`)."""
    return loopback_config()


@pytest.fixture
def web(loopback):
    """A ``WebClient`` on the loopback-opened config."""
    from webgrip import WebClient

    with WebClient(loopback) as client:
        yield client


# --- raw-socket servers (helpers/loopback.py) ------------------------------------------


@pytest.fixture
def raw_server() -> Iterator[Callable[..., RawServer]]:
    """Factory: ``raw_server(handler=None, host="127.0.0.1", port=0)``; all closed at teardown."""
    servers: list[RawServer] = []

    def make(handler: Handler | None = None, host: str = "127.0.0.1", port: int = 0) -> RawServer:
        server = RawServer(handler, host, port)
        servers.append(server)
        return server

    yield make
    for s in servers:
        s.close()


# --- TLS -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def tls_ca():
    """A throwaway CA (trustme) and a server certificate for localhost/127.0.0.1/::1."""
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    return ca, ca.issue_cert("localhost", "127.0.0.1", "::1")


@pytest.fixture
def ca_bundle(tls_ca, tmp_path) -> str:
    """Path of a PEM file with the test CA, for ``Config(ca_bundle=...)``."""
    ca, _ = tls_ca
    path = tmp_path / "test-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return str(path)


@pytest.fixture
def https_server(tls_ca):
    """A pytest-httpserver ``HTTPServer`` speaking TLS with a certificate of the test CA."""
    import ssl

    from pytest_httpserver import HTTPServer

    _, cert = tls_ca
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(ctx)
    server = HTTPServer(host="127.0.0.1", ssl_context=ctx)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver listens on 127.0.0.1 (an address, not the name ``localhost``)."""
    return ("127.0.0.1", 0)


# --- opt-in benchmarks (tests/bench, see helpers/bench.py) ----------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from helpers.bench import deselect_unless_asked

    deselect_unless_asked(config, items)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    from helpers.bench import terminal_summary

    terminal_summary(terminalreporter)


@pytest.fixture
def bench(request: pytest.FixtureRequest):
    """Times a callable over rounds and reports the median (benchmarks only)."""
    from helpers.bench import Bench

    return Bench(request.node.name)
