"""Rate limits: fixed windows counted atomically in the shared cache (Redis when REDIS_URL is set,
so every server process shares them). Over a limit: `429 rate_limited` with `Retry-After`.

- Every request with a valid key counts for its team and mode (`API_RATE_LIMIT`), not for the
  key: a team that mints more keys does not get more requests. Test and live count apart.
- A flight search also counts against `API_SEARCH_RATE_LIMIT` (each one calls the supplier).
- A request without a usable key (none, unknown or revoked) counts for its client address
  (`API_ANONYMOUS_RATE_LIMIT`), before its `401`: guessing keys is limited too.
"""

import logging
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework import exceptions
from rest_framework.throttling import BaseThrottle

from core.http import client_address
from core.rate_windows import Window, count_request, over_limit, window_key

logger = logging.getLogger(__name__)

# --- Counted ahead, with the key's generation ---
#
# Every API request reads its key's generation (agencies/key_cache.py) and counts its team's
# window: two round trips to Redis, a sixth of `GET /wallet/balance`'s cost (docs/performance.md).
# When this process already knows the key, it knows its team and mode (neither ever changes), so
# authentication (agencies/authentication.py) reads the generation and counts the windows in one
# round trip, and the throttle below takes the windows counted ahead instead of counting again.
# A key found revoked or unknown after all gives its counts back (`uncount_ahead`): a request
# without a usable key counts for its address, not for a team.


@dataclass(frozen=True)
class CountedAhead:
    cache_key: str
    window: Window


def limits_for(*, team_id: int, live_mode: bool, view) -> list[tuple[str, str]]:
    """The windows a request with a key of this team and mode counts in: (scope, rate)."""
    team_scope = f"team:{team_id}:{'live' if live_mode else 'test'}"
    limits = [(team_scope, settings.API_RATE_LIMIT)]
    if getattr(view, "throttle_scope", None) == "search":
        limits.append((f"search:{team_scope}", settings.API_SEARCH_RATE_LIMIT))
    return limits


def read_and_count_ahead(django_request, read_key: str, limits) -> tuple[bool, Any]:
    """Read `read_key` from the cache and count one request in each of `limits`, in one round
    trip, keeping the counts on the request for `ApiRateThrottle`. (False, None) where the
    cache cannot (the embedded cache) or could not: the caller reads and the throttle counts
    as usual."""
    if not hasattr(cache, "get_and_count"):
        return False, None
    now = time.time()
    keys = [(scope, *window_key(scope, rate, now)) for scope, rate in limits]
    try:
        value, counts = cache.get_and_count(read_key, [(k, period + 1) for _, k, _, period in keys])
    except Exception:  # the cache is down: the usual path finds out and answers
        logger.warning("Could not read and count ahead", exc_info=True)
        return False, None
    django_request.counted_ahead = {
        scope: CountedAhead(k, Window(limit=allowed, used=count, reset=period - (now % period)))
        for (scope, k, allowed, period), count in zip(keys, counts, strict=True)
    }
    return True, value


def uncount_ahead(django_request) -> None:
    """Give back what was counted ahead for a key that turned out unusable."""
    for counted in getattr(django_request, "counted_ahead", {}).values():
        try:
            cache.decr(counted.cache_key)
        except Exception:  # gone (window over) or the cache is down: nothing to give back
            logger.warning("Could not give back a count", exc_info=True)
    django_request.counted_ahead = {}


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
        counted_ahead = getattr(request._request, "counted_ahead", {})
        limits = limits_for(team_id=client.team_id, live_mode=client.live_mode, view=view)
        for scope, rate in limits:
            ahead = counted_ahead.pop(scope, None)
            window = ahead.window if ahead is not None else count_request(scope, rate)
            # The headers tell the window closest to its limit (the search one for a search).
            shown = getattr(request, "rate_limit_window", None)
            if shown is None or window.remaining <= shown.remaining:
                request.rate_limit_window = window
            if window.exceeded:
                self._wait = window.reset
                uncount_ahead(request._request)  # a window it never reached counts nothing
                return False
        return True

    def wait(self):
        return self._wait
