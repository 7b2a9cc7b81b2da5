"""Fixed-window counters in the shared cache (Redis when REDIS_URL is set, so every server
process shares them): the API's rate limits (api/throttling.py), the payment pages' and the
panel's password reset's."""

import math
import time
from dataclasses import dataclass

from django.core.cache import cache

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """`"600/minute"` → (600, 60): requests allowed, window in seconds."""
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0]]


@dataclass(frozen=True)
class Window:
    """One rate-limit window after counting a request: what the `RateLimit-*` headers say."""

    limit: int
    used: int
    reset: float  # seconds until the window ends

    @property
    def remaining(self) -> int:
        return max(self.limit - self.used, 0)

    @property
    def exceeded(self) -> bool:
        return self.used > self.limit

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(math.ceil(self.reset)),
        }


def window_key(scope: str, rate: str, now: float) -> tuple[str, int, int]:
    """The cache key of `scope`'s current window, the requests it allows and its length."""
    allowed, period = parse_rate(rate)
    return f"throttle:{scope}:{int(now // period)}", allowed, period


def count_request(scope: str, rate: str) -> Window:
    """Count one request in `scope`'s current window."""
    now = time.time()
    cache_key, allowed, period = window_key(scope, rate, now)
    if hasattr(cache, "count"):  # core.cache.RedisCache (REDIS_URL): one round trip
        count = cache.count(cache_key, timeout=period + 1)
    else:  # the embedded file cache, LocMem in tests
        try:
            count = cache.incr(cache_key)
        except ValueError:  # first request of the window (or the key was evicted)
            count = 1 if cache.add(cache_key, 1, timeout=period + 1) else cache.incr(cache_key)
    return Window(limit=allowed, used=count, reset=period - (now % period))


def over_limit(scope: str, rate: str) -> float | None:
    """Count one request; the seconds until the window ends if that went over, else None."""
    window = count_request(scope, rate)
    return window.reset if window.exceeded else None


def already_over(scope: str, rate: str) -> float | None:
    """Like `over_limit`, without counting this request: for limits counted only on some
    outcomes (a payment page's failures), checked before the request is served."""
    now = time.time()
    cache_key, allowed, period = window_key(scope, rate, now)
    used = cache.get(cache_key) or 0
    return period - (now % period) if int(used) >= allowed else None
