"""Django's Redis cache backend, cheaper per operation (settings: CACHES with REDIS_URL).

Django's `RedisCacheClient` builds a new `redis.Redis` object for every operation (≈70 µs of
Python for its response callbacks, measured by bench/profile_hotpaths.py), and its `incr`
sends EXISTS before INCRBY. The API reads the key generation and counts rate limits on every
request, so this backend keeps one `redis.Redis` per connection pool for the process's life
(it is thread-safe, and its pool reconnects after a fork), counts a rate-limit window in
one round trip, and reads a key while it counts windows in one command (`get_and_count`).
"""

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

# KEYS[1] read; KEYS[2…] counted, each kept ARGV[i - 1] seconds. One command: a pipeline of
# MULTI, GET, INCR, EXPIRE…, EXEC costs the client as much Python as all of them apart.
# (A missing key reads as `false` in Lua, not nil, so the array stays whole; it arrives as None.)
GET_AND_COUNT = """
local reply = {redis.call('GET', KEYS[1])}
for i = 2, #KEYS do
    reply[i] = redis.call('INCR', KEYS[i])
    redis.call('EXPIRE', KEYS[i], ARGV[i - 1])
end
return reply
"""


# KEYS[1]: a sorted set of the slots taken, each a token scored by when it lapses. ARGV: now,
# the limit, the new slot's lapse time, its token, the set's own expiry (seconds). 1: taken.
# Slots whose holder died (a killed process never gives its slot back) lapse by themselves.
TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def _evalsha(client, script, keys: list, args: list) -> Any:
    """`script(keys=…, args=…)` on the hot path, one EVALSHA on a connection of the client's
    pool: redis-py's own call spends about 100 µs of Python around the round trip (its retry
    wrapper, timing for its observability hooks, argument checks) on every API request. Where
    anything goes wrong (the script not loaded yet, a connection lost or timed out) the
    connection is dropped and redis-py's call runs instead, with its retries and its loading of
    the script: the same outcome as calling it in the first place."""
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_command("EVALSHA", script.sha, len(keys), *keys, *args)
        reply = connection.read_response()
    except (NoScriptError, RedisConnectionError, RedisTimeoutError):
        connection.disconnect()
        pool.release(connection)
        return script(keys=keys, args=args)
    except BaseException:  # another error reply, or interrupted: nothing of it may be reused
        connection.disconnect()
        pool.release(connection)
        raise
    pool.release(connection)
    return reply


class _ClientPerPool(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._scripts: dict[int, Any] = {}  # GET_AND_COUNT, registered with each client
        self._take_slot_scripts: dict[int, Any] = {}  # TAKE_SLOT, likewise

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._client(connection_pool=pool)
            # The script first: another thread may use the client as soon as it is published.
            self._scripts[id(client)] = client.register_script(GET_AND_COUNT)
            self._take_slot_scripts[id(client)] = client.register_script(TAKE_SLOT)
            self._clients[index] = client
        return client

    def count(self, key: str, timeout: int) -> int:
        pipeline = self.get_client(key, write=True).pipeline(transaction=True)
        pipeline.incr(key)
        pipeline.expire(key, timeout)
        count, _ = pipeline.execute()
        return count

    def get_and_count(self, key: str, counters: list[tuple[str, int]]) -> tuple[Any, list[int]]:
        client = self.get_client(key, write=True)
        keys = [key, *(counter for counter, _ in counters)]
        args = [timeout for _, timeout in counters]
        value, *counts = _evalsha(client, self._scripts[id(client)], keys, args)
        serializer = self._serializer  # type: ignore[attr-defined]  # Django's, not in its stubs
        try:
            value = None if value is None else serializer.loads(value)
        except Exception:  # unreadable: read as missing; the counts stand (they were made)
            value = None
        return value, counts

    def slot_take(self, key: str, token: str, *, limit: int, now: float, lapse: float) -> bool:
        client = self.get_client(key, write=True)
        script = self._take_slot_scripts[id(client)]
        args = [now, limit, now + lapse, token, int(lapse) + 1]
        return bool(script(keys=[key], args=args))

    def slot_give_back(self, key: str, token: str) -> None:
        self.get_client(key, write=True).zrem(key, token)


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ClientPerPool

    def count(self, key: str, timeout: int) -> int:
        """Add one to the counter `key` (created at 1) and keep it for `timeout` seconds: one
        round trip (MULTI, INCR, EXPIRE, EXEC)."""
        key = self.make_and_validate_key(key)
        client = self._cache
        assert isinstance(client, _ClientPerPool)
        return client.count(key, timeout)

    def get_and_count(self, key: str, counters: list[tuple[str, int]]) -> tuple[Any, list[int]]:
        """`get(key)`, and `count()` of each (counter, timeout), in one command (a Lua script):
        what an API request reads (its key's generation) and counts (its rate-limit windows)
        at once."""
        client = self._cache
        assert isinstance(client, _ClientPerPool)
        return client.get_and_count(
            self.make_and_validate_key(key),
            [(self.make_and_validate_key(counter), timeout) for counter, timeout in counters],
        )

    def slot_take(self, key: str, token: str, *, limit: int, now: float, lapse: float) -> bool:
        """Take one of `limit` slots under `key` for `token`, unless all are taken: one command.
        A slot lapses after `lapse` seconds if it is never given back."""
        client = self._cache
        assert isinstance(client, _ClientPerPool)
        return client.slot_take(
            self.make_and_validate_key(key), token, limit=limit, now=now, lapse=lapse
        )

    def slot_give_back(self, key: str, token: str) -> None:
        client = self._cache
        assert isinstance(client, _ClientPerPool)
        client.slot_give_back(self.make_and_validate_key(key), token)
