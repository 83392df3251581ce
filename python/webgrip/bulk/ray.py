"""Fetch a column of URLs on a Ray cluster: :func:`fetch_dataset` (``webgrip[ray]``).

Each Ray actor holds one :class:`~webgrip.client.WebClient` built from the same
:class:`~webgrip.config.Config` (pickled to the workers), so the SSRF guard, the size caps and
the timeouts apply on every worker exactly as on the driver. A batch of rows is fetched by the
thread pool of :func:`webgrip.bulk.pool.fetch_many`; every row gains the columns of
:func:`webgrip.bulk.pool.result_row`, and a URL that fails is a row with ``error_kind`` and
``error`` set, never a failed job. Actors that die are restarted and their batch is run again
(Ray's ``max_restarts``/``max_task_retries``): every URL is fetched at least once and appears
exactly once in the output. See docs/batch.md.

Politeness: ``politeness="redis://..."`` gives all workers one per-host budget
(:class:`~webgrip.bulk.politeness.RedisHostLimiter`); without it each actor keeps its own limiter,
so N actors may send N times ``rate_limit_seconds``'s rate to one host.

With ``config.trust_env_proxy`` (and no ``config.proxy``), the driver's proxy variables
(``HTTP(S)_PROXY``, ``ALL_PROXY``, ``NO_PROXY``, either case) travel with the config and
replace the node's in each actor's process, so every worker routes as the driver would.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from collections.abc import Iterator

import pyarrow as pa
import ray.data

from ..client import WebClient
from ..config import Config
from ..page import EXTRACT_MODES
from ..proxies import PROXY_VARIABLES
from .pool import fetch_rows
from .rows import ROW_SCHEMA, STORE_SOCKET_TIMEOUT

__all__ = ["DEFAULT_ACTOR_CPUS", "default_pool_size", "fetch_dataset", "quiet_ray"]


# Ray Data's actors default to max_restarts=-1 and max_task_retries=-1: a dead actor (process
# killed, node lost) is restarted and its unfinished batches are sent again, as often as it
# takes, and a batch's rows are emitted only when the whole batch returns. That default is what
# the at-least-once fetching / exactly-once rows guarantee rests on (tests/client/
# test_ray_fetch.py kills an actor to prove it), so nothing here overrides it.


class _Fetcher:
    """One actor's client; called with a batch (an Arrow table), returns it with the row
    columns appended."""

    def __init__(
        self,
        config: Config,
        politeness: str | None,
        url_column: str,
        extract: str,
        threads: int,
        proxy_env: dict[str, str] | None = None,
    ):
        if proxy_env is not None:
            # The driver's proxy variables, not this node's: the actor's process is its own,
            # so its environment is set before the client reads it (trust_env_proxy).
            for name in PROXY_VARIABLES:
                os.environ.pop(name, None)
            os.environ.update(proxy_env)
        limiter = None
        if politeness:
            from .politeness import RedisHostLimiter

            limiter = RedisHostLimiter(
                politeness,
                config.rate_limit_seconds,
                socket_timeout=min(STORE_SOCKET_TIMEOUT, config.timeout),
            )
        self._client = WebClient(config, limiter=limiter)
        self._url_column = url_column
        self._extract = extract
        self._threads = threads

    def __call__(self, batch: pa.Table) -> pa.Table:
        if self._url_column not in batch.column_names:
            raise KeyError(
                f"fetch_dataset: no column {self._url_column!r} "
                f"(columns: {', '.join(batch.column_names)})"
            )
        urls = batch.column(self._url_column).to_pylist()
        rows = fetch_rows(self._client, urls, extract=self._extract, concurrency=self._threads)
        for field in ROW_SCHEMA:
            values = pa.array([row[field.name] for row in rows], type=field.type)
            if field.name in batch.column_names:  # a column of that name is replaced
                batch = batch.drop_columns([field.name])
            batch = batch.append_column(field, values)
        return batch


#: The CPU each fetching actor reserves by default: four actors to a core.
DEFAULT_ACTOR_CPUS = 0.25


def default_pool_size(num_cpus: float = DEFAULT_ACTOR_CPUS) -> int:
    """The actors the default pool starts with: one on every node of the connected cluster
    with ``num_cpus`` of a CPU for it (Ray Data places a pool's actors ``SPREAD``, so they
    land one a node). Why not one actor: the pool grows only when one actor falls behind,
    and one actor of eight threads keeps up with a polite crawl, so on a cluster every URL
    was fetched on the head. 1 when Ray is not started yet (Ray Data then starts a local
    instance: one node)."""
    if not ray.is_initialized():
        return 1
    nodes = sum(
        1
        for node in ray.nodes()
        if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) >= num_cpus
    )
    return max(1, nodes)


def _warn_if_starved(concurrency: int | None, num_cpus: float) -> None:
    """Warn when ``concurrency`` actors of ``num_cpus`` would reserve every CPU of the
    running cluster: the stages reading the input could then never be scheduled."""
    if concurrency is None or not ray.is_initialized():
        return
    cpus = ray.cluster_resources().get("CPU", 0)
    if cpus and concurrency * num_cpus >= cpus:
        import warnings

        warnings.warn(
            f"fetch_dataset: {concurrency} actors of {num_cpus:g} CPU reserve all {cpus:g} "
            "CPUs of the cluster, so the stages reading the input may never run (the job "
            "waits forever); use fewer actors or a smaller num_cpus",
            ResourceWarning,
            stacklevel=3,
        )


def fetch_dataset(
    ds: ray.data.Dataset,
    *,
    url_column: str = "url",
    extract: str = "markdown",
    config: Config | None = None,
    politeness: str | None = None,
    concurrency: int | None = None,
    batch_size: int = 16,
    threads: int = 8,
    num_cpus: float = DEFAULT_ACTOR_CPUS,
) -> ray.data.Dataset:
    """``ds`` with each row's ``url_column`` fetched; lazy, like every Ray Data transform.

    Each row gains ``final_url``, ``status``, ``title``, ``content``, ``content_type``,
    ``extract``, ``render_reason``, ``error_kind`` and ``error``
    (:data:`webgrip.bulk.rows.ROW_SCHEMA`; columns of those names are replaced).
    ``extract`` is the view (:data:`webgrip.page.EXTRACT_MODES`); ``config`` (default
    ``Config()``) goes to every worker. ``politeness`` is a Redis URL holding the per-host
    budget (``config.rate_limit_seconds``) for all workers; ``None`` keeps one limiter per
    actor. ``concurrency`` is the number of actors (default: an autoscaling pool starting with
    one actor on every node, :func:`default_pool_size`), each
    fetching ``batch_size`` rows at a time on up to ``threads`` threads and reserving
    ``num_cpus`` of a CPU (default :data:`DEFAULT_ACTOR_CPUS`: fetching mostly waits on the
    network, and whole CPUs would leave none to the stages feeding the actors: with
    ``concurrency`` equal to the cluster's CPUs a ``read_csv`` input never ran). A pool that
    reserves every CPU is warned about (:class:`ResourceWarning`).
    """
    if extract not in EXTRACT_MODES:
        raise ValueError(f"extract must be one of {', '.join(EXTRACT_MODES)}; got {extract!r}")
    if concurrency is not None and concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    if batch_size < 1 or threads < 1:
        raise ValueError("batch_size and threads must be at least 1")
    config = config or Config()
    if politeness is not None and not politeness.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(
            f"politeness must be a redis://, rediss:// or unix:// URL, not {politeness!r}"
        )
    if not num_cpus > 0:
        raise ValueError("num_cpus must be more than 0")
    _warn_if_starved(concurrency, num_cpus)
    compute = (
        ray.data.ActorPoolStrategy(min_size=default_pool_size(num_cpus), max_size=None)
        if concurrency is None
        else ray.data.ActorPoolStrategy(size=concurrency)
    )
    # With trust_env_proxy the proxy comes from the environment: the driver's, read here,
    # so every node routes as the driver would (an actor inherits its own node's otherwise).
    proxy_env = (
        {n: os.environ[n] for n in PROXY_VARIABLES if n in os.environ}
        if config.trust_env_proxy and config.proxy is None
        else None
    )
    return ds.map_batches(
        _Fetcher,
        fn_constructor_args=(config, politeness, url_column, extract, threads, proxy_env),
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=compute,
        num_cpus=num_cpus,
    )


#: What Ray writes to stderr on every healthy run, hidden by :func:`quiet_ray`: the driver's
#: core worker says that Ray Data's actors carry their constructor in the object store (Ray
#: Data's own doing, for every ``map_batches`` with a class).
_EXPECTED_LINES = (b"has constructor arguments in the object store and max_restarts > 0",)
#: Loggers whose warnings are expected on every run: a new local cluster's token
#: authentication, on by default ("Token authentication is enabled for this Ray cluster"), and
#: Ray Data's progress bars without tqdm ("tqdm is not installed. Progress bars will be
#: disabled").
_EXPECTED_LOGGERS = (
    "ray._private.authentication.authentication_token_setup",
    "ray.experimental.tqdm_ray",
)


@contextlib.contextmanager
def quiet_ray(verbose: bool = False) -> Iterator[None]:
    """While a Ray run lasts (``ray.init`` to ``ray.shutdown``), leave out what Ray says on
    every successful run, unless ``verbose`` (``batch -v``): the warning that a new local
    cluster uses token authentication (Ray's default, which stays on), the tqdm notice and
    the core worker's object-store line. Everything else Ray writes goes through."""
    if verbose:
        yield
        return
    levels = {name: logging.getLogger(name).level for name in _EXPECTED_LOGGERS}
    for name in _EXPECTED_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        with _without_lines(_EXPECTED_LINES):
            yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


@contextlib.contextmanager
def _without_lines(needles: tuple[bytes, ...]) -> Iterator[None]:
    """File descriptor 2 through a pipe that drops the lines holding one of ``needles``:
    Ray's C++ core writes to it directly, past Python's logging. Partial lines (a progress
    bar redrawn with ``\\r``) pass at once."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
        read_end, write_end = os.pipe()
    except (OSError, ValueError):  # no stderr to filter
        yield
        return
    os.dup2(write_end, 2)
    os.close(write_end)

    def pump() -> None:
        pending = b""
        try:
            while chunk := os.read(read_end, 65536):
                pending += chunk
                cut = max(pending.rfind(b"\n"), pending.rfind(b"\r"))
                if cut < 0:
                    continue
                head, pending = pending[: cut + 1], pending[cut + 1 :]
                kept = [
                    line
                    for line in head.splitlines(keepends=True)
                    if not any(n in line for n in needles)
                ]
                if kept:
                    os.write(saved, b"".join(kept))
            if pending:
                os.write(saved, pending)
        except OSError:
            pass
        finally:
            os.close(read_end)
            os.close(saved)

    pumping = threading.Thread(target=pump, name="webgrip-ray-stderr", daemon=True)
    pumping.start()
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        restored = os.dup(saved)
        os.dup2(restored, 2)  # the pipe's write end closes here (processes Ray left may hold it)
        os.close(restored)
        pumping.join(1.0)
