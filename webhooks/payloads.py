"""What the webhooks app hands out: events as they are delivered (and read back through the
events API). Services change rows; this module turns them into the wire shape."""

from api.versions import event_in_version
from core.timestamps import iso_utc
from webhooks.models import Event, WebhookEndpoint


def event_object(event: Event, *, webhook_id: str | None, api_version: str | None = None) -> dict:
    """The spec's event payload, and the mode it happened in (`live_mode`, as a booking says
    it). `webhook_id` names the receiving webhook in a delivery; the events API, which is no
    delivery, says null. `api_version`: the version to render it in (the endpoint's, the
    request's; api/versions.py), else the one it was written in."""
    payload = {
        "id": event.id,
        "type": event.type,
        "api_version": event.api_version,
        "created_at": iso_utc(event.created_at),
        "data": {
            "object": event.data_object,
            "previous_attributes": event.previous_attributes,
        },
        "team_id": event.team_id,
        "webhook_id": webhook_id,
        "live_mode": event.live_mode,
    }
    if api_version is None or api_version == event.api_version:
        return payload
    return event_in_version(payload, version=api_version)


def webhook_object(endpoint: WebhookEndpoint) -> dict:
    """The list shape (never the secret)."""
    return {
        "id": endpoint.id,
        "url": endpoint.url,
        "events": endpoint.events,
        "active": endpoint.active,
        "created_at": iso_utc(endpoint.created_at),
        "last_triggered_at": iso_utc(endpoint.last_triggered_at),
        "success_rate": endpoint.success_rate,
        "total_deliveries": endpoint.total_deliveries,
        "failed_deliveries": endpoint.failed_deliveries,
        "api_version": endpoint.api_version,
    }
