from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction
from django.utils import timezone

from api.versions import check_version
from core.exceptions import Conflict, InvalidRequest, TooManyRequests, UnprocessableEntity
from webhooks import http
from webhooks.models import (
    SUBSCRIBABLE_EVENT_TYPES,
    Delivery,
    DeliveryAttempt,
    Event,
    EventType,
    WebhookEndpoint,
)
from webhooks.services.deliveries import deliveries_dispatch_on_commit, delivery_send

if TYPE_CHECKING:  # webhooks sit below agencies (layers in pyproject.toml): a type only
    from agencies.models import Team


class InvalidUrl(InvalidRequest):
    code = "invalid_url"
    message = "Invalid URL"


class InvalidEvents(InvalidRequest):
    code = "invalid_events"
    message = "Invalid events"


class UrlAlreadyRegistered(Conflict):
    code = "url_already_registered"
    message = "URL already registered"


class UrlNotReachable(UnprocessableEntity):
    code = "url_not_reachable"
    message = "URL not reachable"


_https_url = URLValidator(schemes=["https"])


def validate_url(url: object) -> str:
    if not isinstance(url, str) or len(url) > 2048:
        raise InvalidUrl(details={"url": "An HTTPS URL of at most 2048 characters."})
    try:
        _https_url(url)
    except ValidationError:
        raise InvalidUrl(details={"url": "Must be a well-formed https:// URL."}) from None
    return url


def validate_events(events: object) -> list[str]:
    if not isinstance(events, list) or not events:
        raise InvalidEvents(details={"events": "A non-empty array of event types."})
    unknown = [e for e in events if not isinstance(e, str) or e not in SUBSCRIBABLE_EVENT_TYPES]
    if unknown:
        raise InvalidEvents(
            details={"events": f"Unknown event types: {', '.join(map(str, unknown))}."}
        )
    return list(dict.fromkeys(events))  # duplicates collapse, order kept


class ProbeInProgress(TooManyRequests):
    code = "probe_in_progress"
    message = "Another webhook URL of this team is being checked; retry shortly"


def _probe_seconds() -> int:
    """The longest a probe runs: connecting, then the answer, each up to the timeout."""
    return 2 * settings.WEBHOOK_TIMEOUT_SECONDS


@contextmanager
def _one_probe_per_team(team_id: str) -> Iterator[None]:
    """A probe holds a web worker for up to ~10 s: one at a time per team, so that one team
    registering URLs that never answer cannot hold every worker. The lock is one atomic
    `cache.add` (SET NX on Redis) with an expiry longer than any probe, so a crashed worker's
    lock lapses by itself and a live probe never loses it."""
    key = f"webhook-probe:{team_id}"
    token = secrets.token_hex(8)
    if not cache.add(key, (token, time.time()), timeout=_probe_seconds() + 5):
        _, started = cache.get(key) or ("", time.time())
        raise ProbeInProgress(retry_after=started + _probe_seconds() - time.time())
    try:
        yield
    finally:
        # Ours for sure (the expiry outlasts the probe); checked anyway, never another's.
        if (cache.get(key) or ("",))[0] == token:
            cache.delete(key)


def _probe(*, team_id: str, url: str) -> None:
    with _one_probe_per_team(team_id):
        try:
            http.probe(url)
        except http.Unreachable as exc:
            raise UrlNotReachable(details={"url": str(exc)}) from None


def _ensure_url_free(
    *, team: Team, live_mode: bool, url: str, exclude_id: str | None = None
) -> None:
    taken = WebhookEndpoint.objects.filter(team=team, live_mode=live_mode, url=url)
    if exclude_id:
        taken = taken.exclude(pk=exclude_id)
    if taken.exists():
        raise UrlAlreadyRegistered()


def _new_secret() -> str:
    return f"whsec_{secrets.token_urlsafe(32)}"


def webhook_create(
    *, team: Team, live_mode: bool, url: str, events: list[str], api_version: str | None = None
) -> WebhookEndpoint:
    """Register an endpoint after probing it (no row is written if the probe fails). The
    returned instance carries the plain secret; it is never shown again. Its deliveries are
    rendered in `api_version`, by default the team's (api/versions.py)."""
    url, events = validate_url(url), validate_events(events)
    api_version = check_version(api_version or team.api_version)
    _ensure_url_free(team=team, live_mode=live_mode, url=url)
    _probe(team_id=team.pk, url=url)  # outside any transaction: it may take up to the timeout
    try:
        with transaction.atomic():
            return WebhookEndpoint.objects.create(
                team=team,
                live_mode=live_mode,
                url=url,
                events=events,
                secret=_new_secret(),
                api_version=api_version,
            )
    except IntegrityError:  # the same URL registered concurrently
        raise UrlAlreadyRegistered() from None


def webhook_update(
    *,
    endpoint: WebhookEndpoint,
    url: str | None = None,
    events: list[str] | None = None,
    active: bool | None = None,
    api_version: str | None = None,
) -> WebhookEndpoint:
    """Change the URL (probed again), the events, `active`, or the API version its deliveries
    are rendered in (from the next attempt on). Reactivating resets the count of consecutive
    failures and lets waiting deliveries go out."""
    if url is not None:
        url = validate_url(url)
    if events is not None:
        events = validate_events(events)
    if active is not None and not isinstance(active, bool):
        raise InvalidRequest(details={"active": "Must be a boolean."})
    if url is not None and url != endpoint.url:
        _ensure_url_free(
            team=endpoint.team, live_mode=endpoint.live_mode, url=url, exclude_id=endpoint.pk
        )
        _probe(team_id=endpoint.team_id, url=url)
    try:
        with transaction.atomic():
            endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
            if url is not None:
                endpoint.url = url
            if events is not None:
                endpoint.events = events
            if api_version is not None:
                endpoint.api_version = check_version(api_version)
            if active is True and not endpoint.active:
                _reactivate(endpoint)
            elif active is False and endpoint.active:
                endpoint.active = False
                endpoint.paused_at = endpoint.last_deactivated_at = timezone.now()
            endpoint.save()
    except IntegrityError:
        raise UrlAlreadyRegistered() from None
    return endpoint


def _reactivate(endpoint: WebhookEndpoint) -> None:
    """The count of consecutive failures starts again from zero, and only attempts made from
    now on count (`reactivated_at`): an attempt that was in flight at the reactivation and
    fails afterwards no longer deactivates the endpoint again. The deliveries that waited
    start again from their first attempt, due now."""
    now = timezone.now()
    endpoint.active = True
    endpoint.consecutive_failures = 0
    endpoint.deactivated_at = None
    endpoint.paused_at = None
    endpoint.alert_sent_at = None
    endpoint.reactivated_at = now
    waiting = Delivery.objects.filter(
        endpoint=endpoint, status=Delivery.Status.PENDING, is_test=False
    ).exclude(in_flight=True, leased_until__gt=now)
    waiting_ids = list(waiting.values_list("pk", flat=True))
    Delivery.objects.filter(pk__in=waiting_ids).update(
        attempt_count=0, next_attempt_at=now, leased_until=None, lease_id=""
    )
    if waiting_ids:
        deliveries_dispatch_on_commit([endpoint.pk])


def webhook_reactivate(*, endpoint: WebhookEndpoint) -> WebhookEndpoint:
    return webhook_update(endpoint=endpoint, active=True)


class TestEventRefused(Conflict):
    code = "test_event_refused"
    message = "The receiver did not accept the test event; the webhook stays deactivated"


def webhook_reactivate_after_test(*, endpoint: WebhookEndpoint) -> WebhookEndpoint:
    """The panel's reactivation of several webhooks at once: each gets a test event first and
    is reactivated only if its receiver accepts it (the answer is in its attempt log)."""
    if endpoint.active:
        return endpoint
    attempt = webhook_test_now(endpoint=endpoint)
    if not attempt.succeeded:
        raise TestEventRefused()
    return webhook_reactivate(endpoint=endpoint)


# How long a rolled secret's predecessor may keep signing: up to a week, 24 hours unless told.
PREVIOUS_SECRET_HOURS_DEFAULT = 24
PREVIOUS_SECRET_HOURS_MAX = 168


def validate_previous_secret_hours(hours: object) -> int:
    if (
        isinstance(hours, bool)
        or not isinstance(hours, int)
        or not 0 <= hours <= PREVIOUS_SECRET_HOURS_MAX
    ):
        raise InvalidRequest(
            details={
                "expire_previous_in_hours": (
                    f"An integer from 0 to {PREVIOUS_SECRET_HOURS_MAX} (hours)."
                )
            }
        )
    return hours


def webhook_rotate_secret(
    *, endpoint: WebhookEndpoint, expire_previous_in_hours: int = PREVIOUS_SECRET_HOURS_DEFAULT
) -> WebhookEndpoint:
    """Give the endpoint a new secret. The one it had keeps signing deliveries beside the new
    one (`X-Service-Signature-Previous`) for `expire_previous_in_hours`, so a receiver can
    switch without losing any; 0 drops it at once. Rotating again during an overlap: the secret
    being replaced becomes the previous one, the older one stops signing (as Stripe's roll).
    The returned instance carries the plain new secret; it is never shown again."""
    hours = validate_previous_secret_hours(expire_previous_in_hours)
    with transaction.atomic():
        # NO KEY UPDATE, as the deliveries' claims: inserting deliveries is not blocked.
        endpoint = WebhookEndpoint.objects.select_for_update(no_key=True).get(pk=endpoint.pk)
        now = timezone.now()
        if hours:
            endpoint.previous_secret = endpoint.secret
            endpoint.previous_secret_expires_at = now + timedelta(hours=hours)
        else:
            endpoint.previous_secret = None
            endpoint.previous_secret_expires_at = None
        endpoint.secret = _new_secret()
        endpoint.secret_rotated_at = now
        endpoint.save(
            update_fields=[
                "secret",
                "previous_secret",
                "previous_secret_expires_at",
                "secret_rotated_at",
                "updated_at",
            ]
        )
    return endpoint


def webhook_previous_secrets_drop(*, now: datetime | None = None) -> int:
    """Forget the previous secrets whose overlap has ended (signing already ignores them:
    this only keeps no stale secret stored). Run by beat; returns how many were dropped."""
    now = now or timezone.now()
    return WebhookEndpoint.objects.filter(previous_secret_expires_at__lte=now).update(
        previous_secret=None, previous_secret_expires_at=None
    )


@transaction.atomic
def webhook_delete(*, endpoint: WebhookEndpoint) -> None:
    """Deleting an endpoint drops its pending deliveries with it."""
    # The endpoint's row first, as a worker's claim takes it before a delivery's row: the
    # cascade below, locking deliveries first, could otherwise deadlock with a claim.
    list(WebhookEndpoint.objects.select_for_update().filter(pk=endpoint.pk).values_list("pk"))
    endpoint.delete()


TEST_EVENT_MESSAGES = {
    "panel": "A test event sent from the control panel.",
    "api": "A test event sent through the API.",
}


def _test_event(endpoint: WebhookEndpoint, *, sent_from: str = "panel") -> Event:
    return Event.objects.create(
        team_id=endpoint.team_id,
        live_mode=endpoint.live_mode,
        type=EventType.WEBHOOK_TEST,
        api_version=settings.WEBHOOK_API_VERSION,
        data_object={
            "object": "webhook",
            "id": endpoint.pk,
            "url": endpoint.url,
            "message": TEST_EVENT_MESSAGES[sent_from],
        },
    )


@transaction.atomic
def webhook_send_test_event(*, endpoint: WebhookEndpoint) -> Event:
    """A `webhook.test` event delivered to this endpoint only, whatever it subscribes to, by a
    worker: one attempt (`is_test`), never retried, never counted toward deactivation."""
    event = _test_event(endpoint)
    Delivery.objects.create(
        event=event, endpoint=endpoint, is_test=True, next_attempt_at=event.created_at
    )
    deliveries_dispatch_on_commit([endpoint.pk])
    return event


def webhook_test_now(*, endpoint: WebhookEndpoint, sent_from: str = "panel") -> DeliveryAttempt:
    """Send a `webhook.test` event now, in the caller's request, and return the receiver's
    answer (the panel shows it). Active or not: reactivating sends one first. One attempt,
    never retried, never counted toward deactivation nor in the endpoint's counters. Like a
    probe it holds a web worker up to ~10 s, so it shares the probes' one-at-a-time-per-team
    lock (ProbeInProgress otherwise). `sent_from`: "panel" or "api", what the event's
    message says."""
    with _one_probe_per_team(endpoint.team_id):
        with transaction.atomic():
            event = _test_event(endpoint, sent_from=sent_from)
            # Created in the caller's hands (a lease, no due time): no worker or sweep takes it.
            delivery = Delivery.objects.create(
                event=event,
                endpoint=endpoint,
                is_test=True,
                attempt_count=1,
                next_attempt_at=None,
                leased_until=timezone.now()
                + timedelta(seconds=settings.WEBHOOK_ATTEMPT_LEASE_SECONDS),
                lease_id=secrets.token_hex(8),
            )
        delivery = Delivery.objects.select_related("event", "endpoint").get(pk=delivery.pk)
        return delivery_send(delivery)
