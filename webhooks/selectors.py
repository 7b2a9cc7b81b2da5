from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import QuerySet

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


def event_list(
    *,
    team: Team,
    live_mode: bool,
    types: list[str] | None = None,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
) -> QuerySet[Event]:
    """The team's events of one mode, newest first (the panel's test events left out)."""
    events = Event.objects.filter(team=team, live_mode=live_mode).exclude(
        type=EventType.WEBHOOK_TEST
    )
    if types:
        events = events.filter(type__in=types)
    if created_after:
        events = events.filter(created_at__gte=created_after)
    if created_before:
        events = events.filter(created_at__lt=created_before)
    return events.order_by("-created_at", "-id")


def event_get(*, team: Team, live_mode: bool, event_id: str) -> Event:
    event = event_list(team=team, live_mode=live_mode).filter(pk=event_id).first()
    if event is None:
        raise EventNotFound()
    return event
