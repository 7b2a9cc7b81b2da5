import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle


class ApiKeyRateThrottle(SimpleRateThrottle):
    """A fixed-window counter per API key, on the shared cache (Redis when REDIS_URL is set).

    `cache.incr` is atomic on Redis, so concurrent requests on many processes are all counted.
    The rate comes from settings.API_RATE_LIMIT (e.g. "600/minute").
    """

    def __init__(self):  # the rate is read per request so that settings can change it
        pass

    def allow_request(self, request, view):
        client = request.user
        if not getattr(client, "is_authenticated", False):
            return True
        allowed, period = self.parse_rate(settings.API_RATE_LIMIT)
        now = time.time()
        window = int(now // period)
        cache_key = f"throttle:{client.api_key.pk}:{window}"
        try:  # one round trip to Redis in the common case: the window's counter exists
            count = cache.incr(cache_key)
        except ValueError:  # first request of the window (or the key was evicted)
            count = 1 if cache.add(cache_key, 1, timeout=period + 1) else cache.incr(cache_key)
        self._retry_after = period - (now % period)
        return count <= allowed

    def wait(self):
        return self._retry_after
