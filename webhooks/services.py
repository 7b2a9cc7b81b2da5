from django.conf import settings
from django.db import transaction

from webhooks.models import Event, EventType


def event_record(
    *,
    team,
    live_mode: bool,
    type: EventType | str,
    data_object: dict,
    previous_attributes: dict | None = None,
) -> Event:
    """Record a domain event inside the caller's transaction: if the change rolls back, so does
    the event. Must be called within `transaction.atomic`."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_record must run inside the transaction of the change it reports")
    return Event.objects.create(
        team=team,
        live_mode=live_mode,
        type=EventType(type),
        api_version=settings.WEBHOOK_API_VERSION,
        data_object=data_object,
        previous_attributes=previous_attributes or {},
    )
