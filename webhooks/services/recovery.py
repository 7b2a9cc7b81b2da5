"""Recovering missed events: every event of an endpoint's types since a moment is delivered to
it again, those it missed while disabled included (the API's `POST /webhooks/:id/recover` and
the panel's "recover since…" both call `webhook_recover`)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.exceptions import Conflict, InvalidRequest
from webhooks.models import Delivery, Event, WebhookEndpoint
from webhooks.services.deliveries import deliveries_dispatch_on_commit


class WebhookInactive(Conflict):
    code = "webhook_inactive"
    message = "Reactivate the webhook before recovering its events"


def recovery_window() -> timedelta:
    """How far back events can be recovered: the events' retention."""
    return timedelta(days=settings.EVENTS_RETENTION_DAYS)


@transaction.atomic
def webhook_recover(
    *, endpoint: WebhookEndpoint, since: datetime, now: datetime | None = None
) -> int:
    """Make every event of the endpoint's types created at or after `since` due for it now,
    from its first attempt: existing deliveries start again, missing ones (events that happened
    while it was disabled) are created. Returns how many events were queued."""
    now = now or timezone.now()
    if since > now:
        raise InvalidRequest(details={"since": "Must not be in the future."})
    if since < now - recovery_window():
        raise InvalidRequest(
            details={"since": f"Events are kept {settings.EVENTS_RETENTION_DAYS} days."}
        )
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if not endpoint.active:
        raise WebhookInactive()
    event_ids = list(
        Event.objects.filter(
            team_id=endpoint.team_id,
            live_mode=endpoint.live_mode,
            type__in=endpoint.events,
            created_at__gte=since,
        ).values_list("pk", flat=True)
    )
    existing = Delivery.objects.filter(endpoint=endpoint, event_id__in=event_ids)
    # One being sent right now finishes on its own: restarting it would send the event twice
    # (its worker's answer would be dropped with the lease).
    existing.exclude(in_flight=True, leased_until__gt=now).update(
        status=Delivery.Status.PENDING,
        attempt_count=0,
        next_attempt_at=now,
        leased_until=None,
        lease_id="",
    )
    have = set(existing.values_list("event_id", flat=True))
    Delivery.objects.bulk_create(
        [
            Delivery(event_id=event_id, endpoint=endpoint, next_attempt_at=now)
            for event_id in event_ids
            if event_id not in have
        ]
    )
    if event_ids:
        deliveries_dispatch_on_commit([endpoint.pk])
    return len(event_ids)
