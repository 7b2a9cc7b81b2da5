"""`Authorization: Bearer sk_test_…|sk_live_…` authentication.

The key is resolved once per request (by its SHA-256 hash) and cached on the Django request, so
that the renderer and the error handlers outside DRF can tell test mode from live mode too
(`live_mode_of`, asked by api/modes.py). It is read from the database at most once per process
in a while, and again at once after any key or team changes (agencies/key_cache.py).
"""

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.db.models import Q
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from agencies import key_cache
from agencies.models import ApiKey, Team, hash_secret
from api.modes import ApiAuthentication
from api.throttling import ApiRateThrottle, limits_for, read_and_count_ahead, uncount_ahead

BEARER_PATTERN = re.compile(r"^Bearer (sk_(?:test|live)_[A-Za-z0-9]{40})$")
LAST_USED_RESOLUTION = timedelta(minutes=1)  # at most one write per key per minute
_UNSET = object()


@dataclass(frozen=True)
class ApiClient:
    """What `request.user` is for API requests: the team and mode of the key used (and
    `request.auth` is the key: ApiView checks its permissions)."""

    api_key: ApiKey
    is_authenticated = True

    @property
    def team(self) -> Team:
        return self.api_key.team

    @property
    def team_id(self) -> str:
        return self.api_key.team_id

    @property
    def live_mode(self) -> bool:
        return self.api_key.live_mode


def resolve_api_key(django_request, view=None) -> ApiKey | None:
    """The key named by the Authorization header (revoked or not), or None. With the DRF view
    that authenticates it, the request's rate-limit windows may be counted on the way."""
    cached = getattr(django_request, "_api_key", _UNSET)
    if cached is not _UNSET:
        return cast(ApiKey | None, cached)
    match = BEARER_PATTERN.match(django_request.headers.get("Authorization", ""))
    key = api_key_for_secret(match.group(1), django_request, view) if match else None
    django_request._api_key = key
    return key


_KEY_FIELDS = [f.attname for f in ApiKey._meta.concrete_fields]
_TEAM_FIELDS = [f.attname for f in Team._meta.concrete_fields]
_TEAM_ID, _LIVE_MODE, _REVOKED_AT = (
    _KEY_FIELDS.index(name) for name in ("team_id", "live_mode", "revoked_at")
)


def _generation(secret_hash: str, django_request, view) -> str | None:
    """The shared generation, read before the database (agencies/key_cache.py). When this process
    already knows the key and the view is rate-limited, the same round trip counts the
    request's windows (api/throttling.py, "Counted ahead")."""
    known = key_cache.known(secret_hash)
    if (
        known is not None
        and known.key_values[_REVOKED_AT] is None
        and ApiRateThrottle in getattr(view, "throttle_classes", ())
    ):
        limits = limits_for(
            team_id=known.key_values[_TEAM_ID],
            live_mode=known.key_values[_LIVE_MODE],
            view=view,
        )
        read, generation = read_and_count_ahead(django_request, key_cache.GENERATION_KEY, limits)
        if read and generation is not None:
            return generation
    return key_cache.current_generation()


def api_key_for_secret(secret: str, django_request=None, view=None) -> ApiKey | None:
    """The key (with its team) from this process's cache if nothing changed since it was read,
    else from the database. Each call returns instances of its own."""
    secret_hash = hash_secret(secret)
    generation = _generation(secret_hash, django_request, view)  # before the database
    entry = key_cache.lookup(secret_hash, generation)
    if entry is None:
        key = ApiKey.objects.select_related("team").filter(secret_hash=secret_hash).first()
        if key is None:
            return None
        entry = key_cache.store(
            secret_hash,
            generation,
            tuple(key.__dict__[name] for name in _KEY_FIELDS),
            tuple(key.team.__dict__[name] for name in _TEAM_FIELDS),
        )
        if entry is not None:
            entry.last_used_at = key.last_used_at
        key._key_cache_entry = entry  # type: ignore[attr-defined]  # read by _touch_last_used
        return key
    key = key_from_entry(entry)
    key.last_used_at = entry.last_used_at
    key._key_cache_entry = entry  # type: ignore[attr-defined]  # read by _touch_last_used
    return key


class ApiKeyAuthentication(ApiAuthentication):
    @classmethod
    def live_mode_of(cls, django_request) -> bool | None:
        key = resolve_api_key(django_request)
        return None if key is None else key.live_mode

    @classmethod
    def api_version_of(cls, django_request) -> str | None:
        """A usable key's team's pin; a revoked key's request is answered as any without one."""
        key = resolve_api_key(django_request)
        return None if key is None or key.revoked_at is not None else key.team.api_version

    def authenticate(self, request):
        if not get_authorization_header(request):
            return None  # DRF answers 401 Unauthorized with our WWW-Authenticate header
        key = resolve_api_key(request._request, view=request.parser_context.get("view"))
        if key is None or key.revoked_at is not None:
            uncount_ahead(request._request)  # it counts for its address instead
            raise exceptions.AuthenticationFailed()
        _touch_last_used(key)
        return ApiClient(api_key=key), key

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


def _touch_last_used(key: ApiKey) -> None:
    """At most one write per key per minute per process; a row another process wrote less than
    a minute ago is left alone (the UPDATE matches nothing)."""
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at >= LAST_USED_RESOLUTION:
        stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_RESOLUTION)
        ApiKey.objects.filter(stale, pk=key.pk).update(last_used_at=now)
        key.last_used_at = now
        entry = getattr(key, "_key_cache_entry", None)
        if entry is not None:
            entry.last_used_at = now


def key_from_entry(entry: key_cache.Entry) -> ApiKey:
    """This request's own ApiKey and Team, built from a cached entry's values."""
    key = ApiKey.from_db("default", _KEY_FIELDS, entry.key_values)
    key.permissions = list(key.permissions)  # the cached list is shared: each request its own
    key.team = Team.from_db("default", _TEAM_FIELDS, entry.team_values)
    return key
