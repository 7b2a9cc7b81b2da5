from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import QuerySet

from core.commit_order import settled
from core.exceptions import NotFound
from webhooks.models import Event, EventType, WebhookEndpoint

if TYPE_CHECKING:  # webhooks sit below agencies (layers in pyproject.toml): a type only
    from agencies.models import Team


class EventNotFound(NotFound):
    code = "event_not_found"
    message = "Event not found"


class WebhookNotFound(NotFound):
    code = "webhook_not_found"
    message = "Webhook not found"


def webhook_list(*, team: Team, live_mode: bool) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(team=team, live_mode=live_mode).order_by("created_at")


def webhook_get(*, team: Team, live_mode: bool, webhook_id: str) -> WebhookEndpoint:
    """Another team's or the other mode's id is as unknown as a made-up one."""
    endpoint = webhook_list(team=team, live_mode=live_mode).filter(pk=webhook_id).first()
    if endpoint is None:
        raise WebhookNotFound()
    return endpoint


# The events list's order, oldest first: by the transaction that recorded each event, then
# creation time (the order of one change's events), then id (core/commit_order.py).
EVENT_ORDER = ("xact_id", "created_at", "id")


def event_order(*, ascending: bool) -> tuple[str, ...]:
    return EVENT_ORDER if ascending else tuple(f"-{field}" for field in EVENT_ORDER)


def event_list(
    *,
    team: Team,
    live_mode: bool,
    types: list[str] | None = None,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
    ascending: bool = False,
) -> QuerySet[Event]:
    """The team's events of one mode, newest first (or oldest first), the panel's test events
    left out."""
    events = Event.objects.filter(team=team, live_mode=live_mode).exclude(
        type=EventType.WEBHOOK_TEST
    )
    if types:
        events = events.filter(type__in=types)
    if created_after:
        events = events.filter(created_at__gte=created_after)
    if created_before:
        events = events.filter(created_at__lt=created_before)
    return events.order_by(*event_order(ascending=ascending))


def events_settled(events: QuerySet[Event]) -> QuerySet[Event]:
    """Only the events that no transaction still running can list before: what the events API
    lists, so that a reader paging on from the last event it saw misses none that commits
    late (core/commit_order.py)."""
    return events.filter(settled("xact_id"))


def event_get(*, team: Team, live_mode: bool, event_id: str) -> Event:
    event = event_list(team=team, live_mode=live_mode).filter(pk=event_id).first()
    if event is None:
        raise EventNotFound()
    return event
