"""API keys resolved once per process, for a short while, and forgotten at once everywhere when
a key or a team changes (docs/performance.md "API keys").

Every API request used to look its key (and the key's team) up in the database. Each process
now keeps what it resolved, by the key's hash, for at most KEY_CACHE_SECONDS, stamped with the
*generation* found in the shared cache (Redis, or the embedded file cache every local process
shares) before it read the database. Each request reads the generation (in the round trip that
counts its rate limits, once the process knows the key: api/throttling.py "Counted ahead") and
uses its entry only if the stamp still matches.

`keys_changed()` replaces the generation after the transaction that changed a key or a team
commits: a revocation, a new markup or fee is seen by the next request of every process. The
order matters and is what makes this safe: the generation is read *before* the database, and
replaced *after* the commit, so an entry read from the database before a change always carries
a generation older than the one the change leaves behind.

What is cached is the rows' values, never model instances: each request gets its own ApiKey and
Team, so nothing a request does to them leaks into another. Unknown keys are not cached.
A change made with `QuerySet.update()` bypasses the signals: call `keys_changed()` after it.
If the shared cache cannot be read, the request reads the database (nothing is cached).
"""

import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

GENERATION_KEY = "api-keys:generation"
KEY_CACHE_SECONDS = 30  # the safety net: an entry is read again after this, whatever happens
MAX_ENTRIES = 2048  # keys per process; the whole cache is dropped when it is full

_lock = threading.Lock()
_entries: dict[str, "Entry"] = {}


@dataclass
class Entry:
    generation: str
    expires: float  # time.monotonic()
    key_values: tuple
    team_values: tuple
    last_used_at: datetime | None = field(default=None)  # the last value this process knows of


def clear_process_cache() -> None:
    """Forget every entry of this process (what a new process starts with)."""
    with _lock:
        _entries.clear()


def current_generation() -> str | None:
    """The shared generation, created if missing (a flushed or new cache); None if the cache
    cannot be read."""
    try:
        generation = cache.get(GENERATION_KEY)
        if generation is None:
            cache.add(GENERATION_KEY, secrets.token_hex(8), timeout=None)
            generation = cache.get(GENERATION_KEY)
    except Exception:  # the cache is down: the database answers, nothing is cached
        logger.warning("Could not read the API key generation", exc_info=True)
        return None
    return generation


def lookup(secret_hash: str, generation: str | None) -> Entry | None:
    if generation is None:
        return None
    entry = _entries.get(secret_hash)
    if entry is None or entry.generation != generation or entry.expires <= time.monotonic():
        return None
    return entry


def known(secret_hash: str) -> Entry | None:
    """What this process last read of a key, however old (expired or of an older generation):
    only for what never changes about a key (its team, its mode) and to leave alone a key it
    already knows revoked."""
    return _entries.get(secret_hash)


def store(secret_hash: str, generation: str | None, entry_values: tuple, team_values: tuple):
    """Remember a key read from the database after `generation` was read."""
    if generation is None:
        return None
    entry = Entry(
        generation=generation,
        expires=time.monotonic() + KEY_CACHE_SECONDS,
        key_values=entry_values,
        team_values=team_values,
    )
    with _lock:
        if len(_entries) >= MAX_ENTRIES:
            _entries.clear()
        _entries[secret_hash] = entry
    return entry


def _replace_generation() -> None:
    try:
        cache.set(GENERATION_KEY, secrets.token_hex(8), timeout=None)
    except Exception:  # the change stands; processes see it within KEY_CACHE_SECONDS
        logger.error("Could not replace the API key generation", exc_info=True)


def keys_changed(**kwargs) -> None:
    """A key or a team changed: this process forgets its entries at once (so that it sees its
    own change even before it commits), every process once the transaction commits (at once
    outside one). Also a signal receiver."""
    clear_process_cache()
    transaction.on_commit(_replace_generation, robust=True)
