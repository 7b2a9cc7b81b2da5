"""Requests waiting on a flight supplier, at most API_SUPPLIER_CONCURRENCY of them at once per
team and mode (Stripe's "concurrent requests limiter"). A search or an order holds a server
thread for as long as the supplier takes (seconds, up to 130 s for an order): without this
cap, one agency's burst of searches could hold every thread of every server process, and
every other agency would wait behind it. Over the cap: `429 concurrency_limited` with
`Retry-After`, before the supplier is called; the rate limits (api/throttling.py) count the
request as usual.

With Redis (REDIS_URL) the slots are shared by every server process: a sorted set per team and
mode, one command to take a slot, one to give it back; a slot whose process died lapses after
SLOT_LAPSE_SECONDS. The embedded default (no Redis) counts per process: a small install's
limit is per server process.
"""

import logging
import secrets
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from core.exceptions import TooManyRequests

logger = logging.getLogger(__name__)

# A slot never given back (its process killed) lapses after this: longer than any request that
# waits on a supplier (an order waits up to 130 s; gunicorn's graceful_timeout is 140 s).
SLOT_LAPSE_SECONDS = 150.0
# What `Retry-After` says: the usual search answers within a few seconds.
RETRY_AFTER_SECONDS = 1


class ConcurrencyLimited(TooManyRequests):
    code = "concurrency_limited"
    message = "Too many requests waiting on the flight supplier; retry shortly"


@dataclass(frozen=True)
class Slot:
    key: str
    token: str


_local_lock = threading.Lock()
_local_taken: dict[str, int] = {}


def slot_take(*, team_id: int, live_mode: bool) -> Slot | None:
    """A slot for a request of this team and mode that is about to wait on a supplier; None
    when the cap is off (0). Raises ConcurrencyLimited when every slot is taken. A cache that
    cannot answer lets the request through: the cap protects the others, it is not a reason to
    refuse a booking."""
    limit = settings.API_SUPPLIER_CONCURRENCY
    if limit <= 0:
        return None
    key = f"supplier-slots:team:{team_id}:{'live' if live_mode else 'test'}"
    if not hasattr(cache, "slot_take"):
        return _local_take(key, limit)
    slot = Slot(key=key, token=secrets.token_hex(8))
    try:
        taken = cache.slot_take(
            slot.key, slot.token, limit=limit, now=time.time(), lapse=SLOT_LAPSE_SECONDS
        )
    except Exception:
        logger.warning("Could not take a supplier slot: let through", exc_info=True)
        return None
    if not taken:
        raise ConcurrencyLimited(retry_after=RETRY_AFTER_SECONDS)
    return slot


def slot_give_back(slot: Slot) -> None:
    if not slot.token:
        with _local_lock:
            _local_taken[slot.key] -= 1
        return
    try:
        cache.slot_give_back(slot.key, slot.token)  # type: ignore[attr-defined]  # RedisCache took it
    except Exception:  # it lapses by itself
        logger.warning("Could not give back a supplier slot", exc_info=True)


def _local_take(key: str, limit: int) -> Slot:
    with _local_lock:
        if _local_taken.get(key, 0) >= limit:
            raise ConcurrencyLimited(retry_after=RETRY_AFTER_SECONDS)
        _local_taken[key] = _local_taken.get(key, 0) + 1
    return Slot(key=key, token="")
