"""A crawl's frontier in Redis, shared by every worker of a cluster, with leases.

:class:`~webgrip.sites.frontier.Frontier` keeps one crawl's queue in a SQLite file for the
threads of one process. On a Ray cluster the workers are processes on many nodes, so the
queue, the visited set, the page cap and the path-pattern counts live in one Redis instead
(the one that already holds the per-host budget, :mod:`webgrip.bulk.politeness`). Every
operation is one Lua script: atomic on the server, one round trip.

Leases. A URL handed to a worker is *leased* until a deadline of the Redis clock
(``lease_seconds`` on); the driver marks it fetched once its row is written. A lease that
expires (its worker or node was lost, or the row never reached the driver) is queued again
by the next :meth:`RedisFrontier.lease` of any worker. So no page is lost when a worker
dies, and a page may be requested twice (at least once, never zero times): when a worker
died after its request, or outlived its lease. The page cap counts leases and fetched pages,
so it holds except for those re-requests.

Keys (``webgrip:crawl:<name>:`` then ``state``, ``url``, ``queue``, ``leases``, ``used``,
``seq``, ``patterns``, ``hashes``, ``meta``) stay in Redis after the crawl, so the same crawl
run again goes on from them; :meth:`RedisFrontier.drop` removes them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..errors import WebgripError

# The scripts store the states of .frontier as '0' QUEUED, '1' LEASED, '2' FETCHED, '3' SEEN.
from .frontier import FETCHED, Lease

__all__ = ["DEFAULT_LEASE_SECONDS", "RedisFrontier"]

#: How long a lease holds by default: well past a call's deadline and the trip to the driver.
DEFAULT_LEASE_SECONDS = 300.0

_K_STATE, _K_URL, _K_QUEUE, _K_LEASES, _K_USED, _K_SEQ, _K_PATTERNS = range(1, 8)
_KEY_NAMES = ("state", "url", "queue", "leases", "used", "seq", "patterns")

# Queue order: shallowest first, then in the order found (a depth is worth 2**40 items).
_ORDER = (
    "local function order(depth) return depth * 1099511627776 + redis.call('INCR', KEYS[6]) end\n"
)

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
"""

# ARGV[1]: max per pattern; then (key, url, depth, source, pattern) per item.
_ADD = (
    _ORDER
    + """
local cap = tonumber(ARGV[1])
local added = 0
for i = 2, #ARGV, 5 do
  local key = ARGV[i]
  if redis.call('HSETNX', KEYS[1], key, '3') == 1 then
    if redis.call('HINCRBY', KEYS[7], ARGV[i + 4], 1) <= cap then
      local depth = tonumber(ARGV[i + 2])
      redis.call('HSET', KEYS[1], key, '0')
      redis.call('HSET', KEYS[2], key, cjson.encode({ARGV[i + 1], depth, ARGV[i + 3]}))
      redis.call('ZADD', KEYS[3], order(depth), key)
      added = added + 1
    end
  end
end
return added
"""
)

# ARGV[1]: lease seconds; ARGV[2]: the page cap. Expired leases are queued again first.
_LEASE = (
    _ORDER
    + _NOW
    + """
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)) do
  redis.call('ZREM', KEYS[4], key)
  if redis.call('HGET', KEYS[1], key) == '1' then
    local info = cjson.decode(redis.call('HGET', KEYS[2], key))
    redis.call('HSET', KEYS[1], key, '0')
    redis.call('ZADD', KEYS[3], order(info[2]), key)
    redis.call('DECR', KEYS[5])
  end
end
if tonumber(redis.call('GET', KEYS[5]) or '0') >= tonumber(ARGV[2]) then
  return false
end
local popped = redis.call('ZPOPMIN', KEYS[3])
if #popped == 0 then
  return false
end
local key = popped[1]
redis.call('HSET', KEYS[1], key, '1')
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[1]), key)
redis.call('INCR', KEYS[5])
return {key, redis.call('HGET', KEYS[2], key)}
"""
)

# Fetched for good: ARGV are keys. Returns how many were not fetched before.
_FINISH = """
local n = 0
for _, key in ipairs(ARGV) do
  local state = redis.call('HGET', KEYS[1], key)
  if state ~= '2' then
    n = n + 1
    if state == '1' then
      redis.call('ZREM', KEYS[4], key)
    else
      redis.call('ZREM', KEYS[3], key)
      redis.call('INCR', KEYS[5])
    end
    redis.call('HSET', KEYS[1], key, '2')
  end
end
return n
"""

# Given back unfetched: ARGV[1] the key.
_RELEASE = (
    _ORDER
    + """
local key = ARGV[1]
if redis.call('HGET', KEYS[1], key) == '1' then
  local info = cjson.decode(redis.call('HGET', KEYS[2], key))
  redis.call('ZREM', KEYS[4], key)
  redis.call('HSET', KEYS[1], key, '0')
  redis.call('ZADD', KEYS[3], order(info[2]), key)
  redis.call('DECR', KEYS[5])
end
return 1
"""
)

# Known and never to be requested (ARGV: keys); with ARGV[1] == 'claim', one key, and the
# answer says whether no other request has it.
_SEE = """
local claim = ARGV[1] == 'claim'
local first = claim and 2 or 1
local ok = 1
for i = first, #ARGV do
  local key = ARGV[i]
  local state = redis.call('HGET', KEYS[1], key)
  if not state then
    redis.call('HSET', KEYS[1], key, '3')
  elseif state == '0' then
    redis.call('HSET', KEYS[1], key, '3')
    redis.call('ZREM', KEYS[3], key)
  else
    ok = 0
  end
end
return ok
"""


class RedisFrontier:
    """One crawl's frontier in the Redis at ``url`` under ``name`` (see the module's notes);
    the interface of :class:`~webgrip.sites.frontier.Frontier`, safe to share between
    processes. A Redis that does not answer raises :class:`~webgrip.errors.WebgripError`
    (reason ``politeness-store``)."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        max_pages: int,
        max_per_pattern: int = 1000,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        socket_timeout: float = 10.0,
    ):
        import redis

        if max_pages < 1:
            raise ValueError("max_pages must be at least 1")
        if max_per_pattern < 1:
            raise ValueError("max_per_pattern must be at least 1")
        if not lease_seconds > 0:
            raise ValueError("lease_seconds must be above 0")
        self.url = url
        self.name = name
        self.path = f"redis {name}"  # what messages name as the frontier's place
        self.max_pages = max_pages
        self.max_per_pattern = max_per_pattern
        self.lease_seconds = lease_seconds
        self.socket_timeout = socket_timeout
        self._redis = redis.Redis.from_url(
            url, socket_timeout=socket_timeout, socket_connect_timeout=socket_timeout
        )
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        prefix = f"webgrip:crawl:{name}:"
        self._keys = [prefix + k for k in _KEY_NAMES]
        self._hashes = prefix + "hashes"
        self._meta = prefix + "meta"
        scripts = {"add": _ADD, "lease": _LEASE, "finish": _FINISH}
        scripts.update(release=_RELEASE, see=_SEE)
        self._scripts = {n: self._redis.register_script(s) for n, s in scripts.items()}

    def __reduce__(self) -> Any:  # a copy (a Ray worker's) opens its own connection
        return (
            _rebuild,
            (self.url, self.name, self.max_pages, self.max_per_pattern, self.lease_seconds),
        )

    def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except self._errors as exc:
            from ..bulk.politeness import shown_store

            raise WebgripError(
                f"the crawl's frontier store ({shown_store(self.url)}) did not answer: {exc}",
                reason="politeness-store",
            ) from exc

    def _run(self, script: str, args: list[Any]) -> Any:
        return self._call(lambda: self._scripts[script](keys=self._keys, args=args))

    # -- the Frontier interface -----------------------------------------------------------
    def add(self, items: Iterable[tuple[str, str, int, str, str]]) -> int:
        args: list[Any] = [self.max_per_pattern]
        for item in items:
            args.extend(item)
        return int(self._run("add", args)) if len(args) > 1 else 0

    def see(self, keys: Iterable[str], *, source: str = "alias") -> None:
        keys = list(keys)
        if keys:
            self._run("see", keys)

    def claim(self, key: str) -> bool:
        return bool(self._run("see", ["claim", key]))

    def lease(self) -> Lease | None:
        got = self._run("lease", [self.lease_seconds, self.max_pages])
        if not got:
            return None
        key = got[0].decode()
        url, depth, source = json.loads(got[1])
        return Lease(key=key, url=url, depth=int(depth), source=source)

    def finish(self, lease: Lease) -> None:
        self.finish_keys([lease.key])

    def finish_keys(self, keys: Iterable[str]) -> int:
        """Mark ``keys`` fetched; how many were not fetched before."""
        keys = list(keys)
        return int(self._run("finish", keys)) if keys else 0

    def release(self, lease: Lease) -> None:
        self._run("release", [lease.key])

    def mark_fetched(self, keys: Iterable[str]) -> None:
        batch: list[str] = []
        for key in keys:
            batch.append(key)
            if len(batch) == 1000:
                self.finish_keys(batch)
                batch = []
        self.finish_keys(batch)

    def fetched(self, keys: Iterable[str]) -> list[bool]:
        """Whether each of ``keys`` is fetched already (a row for it was written)."""
        keys = list(keys)
        if not keys:
            return []
        states = self._call(lambda: self._redis.hmget(self._keys[_K_STATE - 1], keys))
        return [s == str(FETCHED).encode() for s in states]

    def first_content(self, digest: bytes) -> bool:
        return bool(self._call(lambda: self._redis.sadd(self._hashes, digest)))

    def counts(self) -> dict[str, int]:
        def read() -> list[Any]:
            pipe = self._redis.pipeline(transaction=False)
            pipe.zcard(self._keys[_K_QUEUE - 1])
            pipe.zcard(self._keys[_K_LEASES - 1])
            pipe.get(self._keys[_K_USED - 1])
            pipe.hlen(self._keys[_K_STATE - 1])
            return list(pipe.execute())

        queued, leased, used, known = self._call(read)
        used = int(used or 0)
        fetched = max(0, used - leased)
        return {
            "queued": int(queued),
            "leased": int(leased),
            "fetched": fetched,
            "seen": max(0, int(known) - int(queued) - used),
        }

    def pages_left(self) -> int:
        used = self._call(lambda: self._redis.get(self._keys[_K_USED - 1]))
        return max(0, self.max_pages - int(used or 0))

    def done(self) -> bool:
        """Whether nothing is left to do: no lease out, and nothing queued or the cap
        reached."""
        counts = self.counts()
        return counts["leased"] == 0 and (counts["queued"] == 0 or self.pages_left() == 0)

    def get_meta(self, key: str) -> str | None:
        value = self._call(lambda: self._redis.hget(self._meta, key))
        return None if value is None else value.decode()

    def set_meta(self, key: str, value: str) -> None:
        self._call(lambda: self._redis.hset(self._meta, key, value))

    def drop(self) -> None:
        """Remove every key of this crawl from Redis."""
        self._call(lambda: self._redis.delete(*self._keys, self._hashes, self._meta))

    def close(self) -> None:
        self._redis.close()


def _rebuild(
    url: str, name: str, max_pages: int, max_per_pattern: int, lease_seconds: float
) -> RedisFrontier:
    return RedisFrontier(
        url, name, max_pages=max_pages, max_per_pattern=max_per_pattern, lease_seconds=lease_seconds
    )
