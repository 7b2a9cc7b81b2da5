from django.conf import settings
from django.db import transaction

from webhooks.models import Delivery, Event, EventType, WebhookEndpoint
from webhooks.services.deliveries import deliveries_dispatch_on_commit


def event_record(
    *,
    team,
    live_mode: bool,
    type: EventType | str,
    data_object: dict,
    previous_attributes: dict | None = None,
) -> Event:
    """Record a domain event and its deliveries inside the caller's transaction: if the change
    rolls back, so do they (the outbox). Must be called within `transaction.atomic`."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_record must run inside the transaction of the change it reports")
    event = Event.objects.create(
        team=team,
        live_mode=live_mode,
        type=EventType(type),
        api_version=settings.WEBHOOK_API_VERSION,
        data_object=data_object,
        previous_attributes=previous_attributes or {},
    )
    subscribed = [
        endpoint.pk
        for endpoint in WebhookEndpoint.objects.filter(
            team=team, live_mode=live_mode, active=True
        ).only("pk", "events")
        if event.type in endpoint.events
    ]
    deliveries_create(event=event, endpoint_ids=subscribed)
    return event


def deliveries_create(*, event: Event, endpoint_ids: list[str]) -> list[Delivery]:
    """One delivery row per endpoint, due now; sent once the transaction commits."""
    if not endpoint_ids:
        return []
    deliveries = Delivery.objects.bulk_create(
        [
            Delivery(event=event, endpoint_id=endpoint_id, next_attempt_at=event.created_at)
            for endpoint_id in endpoint_ids
        ]
    )
    deliveries_dispatch_on_commit([delivery.pk for delivery in deliveries])
    return deliveries
