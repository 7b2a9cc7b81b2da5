"""core.cache.RedisCache, the backend with REDIS_URL: against the real Redis (CI sets it)."""

import pytest
from django.conf import settings
from django.core.cache import cache, caches

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="the Redis backend needs REDIS_URL (CI sets it)"
)


@pytest.fixture
def redis_cache():
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


def test_it_is_the_configured_backend(redis_cache):
    assert type(redis_cache).__module__ == "core.cache"


def test_a_counter_starts_at_one_counts_in_one_round_trip_and_expires(redis_cache):
    client = redis_cache._cache.get_client(write=True)
    sent = []
    original = client.connection_pool.get_connection

    def counting(*args, **kwargs):
        sent.append(1)
        return original(*args, **kwargs)

    client.connection_pool.get_connection = counting
    try:
        assert [redis_cache.count("window", timeout=61) for _ in range(3)] == [1, 2, 3]
    finally:
        client.connection_pool.get_connection = original
    assert len(sent) == 3  # one connection checkout (one pipeline) per count
    key = redis_cache.make_and_validate_key("window")
    assert 0 < client.ttl(key) <= 61
    assert cache.get("window") == 3  # a plain cache value too


def test_one_client_per_pool_for_the_process(redis_cache):
    backend = redis_cache._cache
    assert backend.get_client(write=True) is backend.get_client(write=True)
    redis_cache.set("k", {"v": 1})
    assert redis_cache.get("k") == {"v": 1}
    assert redis_cache.add("k2", 0)
    assert redis_cache.incr("k2") == 1
    with pytest.raises(ValueError):
        redis_cache.incr("missing")  # Django's contract is kept
