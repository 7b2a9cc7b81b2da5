"""`Idempotency-Key` on POST/PUT/DELETE.

- first request with a key: claimed (a row), run, and its response stored;
- same key, same method, path and body: the stored response is replayed;
- same key, another request: 409; same key while the first is still running: 409.
Keys are kept IDEMPOTENCY_KEY_TTL (24 h). A claim left in flight longer than
IDEMPOTENCY_IN_FLIGHT_TIMEOUT belongs to a request that died; a retry may take it over.
"""

import hashlib
import json
import re
from dataclasses import dataclass

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.exceptions import Conflict, InvalidRequest
from core.models import IdempotencyKey

HEADER = "Idempotency-Key"
METHODS = frozenset({"POST", "PUT", "DELETE", "PATCH"})
MAX_KEY_LENGTH = 255
# Visible ASCII, with spaces only inside (proxies strip them at the ends): a header value that
# reads the same through every HTTP stack. The schema declares the same pattern.
KEY_PATTERN = rf"^[!-~](?:[ -~]{{0,{MAX_KEY_LENGTH - 2}}}[!-~])?$"
_KEY = re.compile(KEY_PATTERN.replace("$", r"\Z"))


class IdempotencyKeyReused(Conflict):
    code = "idempotency_key_reused"
    message = "Idempotency-Key was already used with a different request"


class IdempotencyKeyInFlight(Conflict):
    code = "idempotency_key_in_flight"
    message = "A request with this Idempotency-Key is still being processed"


@dataclass(frozen=True)
class StoredResponse:
    status: int
    body: dict | None


def request_fingerprint(*, method: str, path: str, body: bytes) -> str:
    try:  # the same JSON document, however it is spaced or ordered, is the same request
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, RecursionError):
        canonical = body
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + canonical).hexdigest()


def validate_key(key: str) -> str:
    if not _KEY.match(key):
        raise InvalidRequest(
            details={HEADER: f"Must be 1 to {MAX_KEY_LENGTH} printable characters"}
        )
    return key


def idempotency_claim(*, team, live_mode: bool, key: str, fingerprint: str):
    """Claim `key` for a new request (returns the claim) or return the StoredResponse to replay.

    Raises IdempotencyKeyReused or IdempotencyKeyInFlight."""
    now = timezone.now()
    try:
        with transaction.atomic():
            return IdempotencyKey.objects.create(
                team=team,
                live_mode=live_mode,
                key=key,
                request_fingerprint=fingerprint,
                created_at=now,
            )
    except IntegrityError:
        existing = IdempotencyKey.objects.get(team=team, live_mode=live_mode, key=key)

    if existing.created_at <= now - settings.IDEMPOTENCY_KEY_TTL:
        return _take_over(existing, fingerprint=fingerprint, now=now)
    if existing.request_fingerprint != fingerprint:
        raise IdempotencyKeyReused()
    if existing.completed_at is None:
        if existing.created_at <= now - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT:
            return _take_over(existing, fingerprint=fingerprint, now=now)
        raise IdempotencyKeyInFlight()
    body = existing.response_body
    assert existing.response_status is not None  # completed: the status is stored
    return StoredResponse(status=existing.response_status, body=json.loads(body) if body else None)


def _take_over(existing: IdempotencyKey, *, fingerprint: str, now) -> IdempotencyKey:
    # Conditional on the row being unchanged, so that of two concurrent retries only one wins.
    taken = IdempotencyKey.objects.filter(pk=existing.pk, created_at=existing.created_at).update(
        request_fingerprint=fingerprint,
        created_at=now,
        response_status=None,
        response_body=None,
        completed_at=None,
    )
    if not taken:
        raise IdempotencyKeyInFlight()
    existing.refresh_from_db()
    return existing


def idempotency_complete(*, claim: IdempotencyKey, status: int, body) -> None:
    IdempotencyKey.objects.filter(pk=claim.pk, created_at=claim.created_at).update(
        response_status=status,
        response_body=None if body is None else json.dumps(body, cls=DjangoJSONEncoder),
        completed_at=timezone.now(),
    )


def idempotency_release(*, claim: IdempotencyKey) -> None:
    """Forget a claim whose request failed with a server error, so that a retry runs again."""
    IdempotencyKey.objects.filter(pk=claim.pk, created_at=claim.created_at).delete()


def idempotency_purge_expired() -> int:
    cutoff = timezone.now() - settings.IDEMPOTENCY_KEY_TTL
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
