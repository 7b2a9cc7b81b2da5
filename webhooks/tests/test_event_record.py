"""Domain events are written in the caller's transaction, never outside one."""

import pytest
from django.db import transaction

from webhooks.models import Event
from webhooks.services import event_record


@pytest.mark.django_db(transaction=True)
def test_event_record_refuses_to_run_outside_a_transaction(team):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        event_record(team=team, live_mode=True, type="booking.created", data_object={})
    assert not Event.objects.filter(type="booking.created").exists()


@pytest.mark.django_db
def test_event_record_writes_in_the_callers_transaction(team):
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        event_record(team=team, live_mode=True, type="booking.created", data_object={"a": 1})
        1 / 0  # noqa: B018 - the change fails after the event was written
    assert not Event.objects.filter(type="booking.created").exists()
    with transaction.atomic():
        event = event_record(
            team=team,
            live_mode=False,
            type="booking.updated",
            data_object={"id": "ord_1"},
            previous_attributes={"status": "pending"},
        )
    stored = Event.objects.get(pk=event.pk)
    assert stored.id.startswith("evt_") and stored.api_version == "2026-11-22"
    assert stored.previous_attributes == {"status": "pending"} and stored.live_mode is False


@pytest.mark.django_db
def test_event_record_rejects_unknown_types(team):
    with pytest.raises(ValueError), transaction.atomic():
        event_record(team=team, live_mode=True, type="booking.exploded", data_object={})
