"""Rate limits: fixed windows counted atomically in the shared cache (Redis when REDIS_URL is set,
so every server process shares them). Over a limit: `429 rate_limited` with `Retry-After`.

- Every request with a valid key counts for its team and mode (`API_RATE_LIMIT`), not for the
  key: a team that mints more keys does not get more requests. Test and live count apart.
- A flight search also counts against `API_SEARCH_RATE_LIMIT` (each one calls the supplier).
- A request without a usable key (none, unknown or revoked) counts for its client address
  (`API_ANONYMOUS_RATE_LIMIT`), before its `401`: guessing keys is limited too.
"""

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from rest_framework import exceptions
from rest_framework.throttling import BaseThrottle

from core.http import client_address

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


def _count(scope: str, rate: str) -> Window:
    """Count one request in `scope`'s current window."""
    allowed, period = parse_rate(rate)
    now = time.time()
    cache_key = f"throttle:{scope}:{int(now // period)}"
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
    window = _count(scope, rate)
    return window.reset if window.exceeded else None


def throttle_unauthenticated(request) -> None:
    """Count a request that has no usable key; raise Throttled (429) when its address is over
    `API_ANONYMOUS_RATE_LIMIT`."""
    wait = over_limit(f"address:{client_address(request)}", settings.API_ANONYMOUS_RATE_LIMIT)
    if wait is not None:
        raise exceptions.Throttled(wait=wait)


class ApiRateThrottle(BaseThrottle):
    """DRF's throttle of every API view, for requests with a valid key (those without one are
    counted by `ApiView.perform_authentication`; the public schema and docs are not limited)."""

    def allow_request(self, request, view):
        client = request.user
        if not getattr(client, "is_authenticated", False):
            return True
        mode = "live" if client.live_mode else "test"
        team_scope = f"team:{client.api_key.team_id}:{mode}"
        limits = [(team_scope, settings.API_RATE_LIMIT)]
        if getattr(view, "throttle_scope", None) == "search":
            limits.append((f"search:{team_scope}", settings.API_SEARCH_RATE_LIMIT))
        for scope, rate in limits:
            window = _count(scope, rate)
            # The headers tell the window closest to its limit (the search one for a search).
            shown = getattr(request, "rate_limit_window", None)
            if shown is None or window.remaining <= shown.remaining:
                request.rate_limit_window = window
            if window.exceeded:
                self._wait = window.reset
                return False
        return True

    def wait(self):
        return self._wait
