"""Domain events are written in the caller's transaction, never outside one, with a delivery for
each endpoint the subscription rule selects (`subscribers_of`)."""

import threading

import pytest
from django.db import connection, transaction
from django.db.models import Value
from django.test.utils import CaptureQueriesContext

from tests.kit.factories import make_endpoint
from tests.kit.marks import needs_postgresql
from webhooks.models import SUBSCRIBABLE_EVENT_TYPES, Event
from webhooks.services import NewEvent, event_record, events_record
from webhooks.services.events import subscribers_by_type, subscribers_of

ALL_TYPES = sorted(SUBSCRIBABLE_EVENT_TYPES)


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


# --- Several events of one change: one read of the subscribed endpoints -----------------------

BOOKING_TICKETED_AT_ONCE = [
    NewEvent("booking.created", {"id": "ord_1", "status": "pending"}),
    NewEvent("booking.confirmed", {"id": "ord_1"}, {"status": "pending"}),
    NewEvent("booking.updated", {"id": "ord_1"}, {"status": "pending"}),
    NewEvent("booking.ticketed", {"id": "ord_1"}, {"status": "confirmed", "documents": []}),
    NewEvent("booking.updated", {"id": "ord_1"}, {"status": "confirmed", "documents": []}),
]


def delivered_types(endpoint) -> list[str]:
    return sorted(endpoint.deliveries.values_list("event__type", flat=True))


@pytest.mark.django_db
def test_each_endpoint_gets_exactly_the_events_of_its_types(team, other_team):
    some = make_endpoint(
        team, "https://a.example/some", events=["booking.ticketed", "booking.updated"]
    )
    created_only = make_endpoint(team, "https://a.example/created", events=["booking.created"])
    wallet_only = make_endpoint(team, "https://a.example/wallet", events=["wallet.debit"])
    inactive = make_endpoint(team, "https://a.example/off", events=ALL_TYPES, active=False)
    test_mode = make_endpoint(team, "https://a.example/test", events=ALL_TYPES, live_mode=False)
    other = make_endpoint(other_team, "https://b.example/all", events=ALL_TYPES)
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        events = events_record(team=team, live_mode=True, events=BOOKING_TICKETED_AT_ONCE)

    assert [e.type for e in events] == [new.type for new in BOOKING_TICKETED_AT_ONCE]
    assert delivered_types(some) == ["booking.ticketed", "booking.updated", "booking.updated"]
    assert delivered_types(created_only) == ["booking.created"]
    for nothing in (wallet_only, inactive, test_mode, other):
        assert delivered_types(nothing) == [], nothing.url
    # One INSERT for the events, one read of the endpoints, one INSERT for all their deliveries.
    statements = [q["sql"] for q in captured.captured_queries]
    assert sum("webhooks_webhookendpoint" in sql for sql in statements) == 1
    assert sum(sql.startswith('INSERT INTO "webhooks_event"') for sql in statements) == 1
    assert sum(sql.startswith('INSERT INTO "webhooks_delivery"') for sql in statements) == 1
    assert len(statements) == 1 + 1 + 1, statements


@pytest.mark.django_db
def test_the_events_are_stored_in_order_with_their_fields(team):
    with transaction.atomic():
        events = events_record(team=team, live_mode=False, events=BOOKING_TICKETED_AT_ONCE)
    stored = {e.pk: e for e in Event.objects.filter(pk__in=[e.pk for e in events])}
    assert len(stored) == 5
    for new, event in zip(BOOKING_TICKETED_AT_ONCE, events, strict=True):
        row = stored[event.pk]
        assert (row.type, row.data_object, row.previous_attributes) == (
            new.type,
            new.data_object,
            new.previous_attributes or {},
        )
        assert row.live_mode is False and row.team_id == team.pk
        assert row.created_at == event.created_at
    stamps = [event.created_at for event in events]
    assert stamps == sorted(stamps)  # recorded in turn, as one `create` each was


@pytest.mark.django_db
def test_the_one_read_is_the_rule_for_every_number_of_types(team, other_team):
    """The UNION of `subscribers_of` per type selects what `subscribers_of` selects for each
    type alone, whatever the number of types (each number is its own compiled statement)."""
    subscriptions = [
        ["booking.created"],
        ["booking.created", "wallet.debit"],
        ["wallet.debit", "wallet.credit", "booking.cancelled"],
        ALL_TYPES,
    ]
    for n, events in enumerate(subscriptions):
        make_endpoint(team, f"https://a.example/{n}", events=events)
        make_endpoint(team, f"https://a.example/{n}/off", events=events, active=False)
        make_endpoint(other_team, f"https://b.example/{n}", events=events)
    for count in range(1, len(ALL_TYPES) + 1):
        types = ALL_TYPES[:count]
        found = subscribers_by_type(team.pk, True, types)
        for type_ in types:
            rule = subscribers_of(team=team.pk, live_mode=True, type=Value(type_))
            assert sorted(found[type_]) == sorted(rule.values_list("pk", flat=True)), type_
        assert sum(len(ids) for ids in found.values()) >= count  # the ALL_TYPES endpoint


@pytest.mark.django_db
def test_an_unknown_type_among_several_writes_nothing(team):
    make_endpoint(team, "https://a.example/all", events=ALL_TYPES)
    with pytest.raises(ValueError), transaction.atomic():
        events_record(
            team=team,
            live_mode=True,
            events=[NewEvent("booking.created", {}), NewEvent("booking.exploded", {})],
        )
    assert not Event.objects.filter(type__startswith="booking.").exists()
    with transaction.atomic():
        assert events_record(team=team, live_mode=True, events=[]) == []


@pytest.mark.django_db(transaction=True)
def test_several_events_refuse_to_run_outside_a_transaction(team):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        events_record(team=team, live_mode=True, events=BOOKING_TICKETED_AT_ONCE)
    assert not Event.objects.filter(type__startswith="booking.").exists()


@needs_postgresql("concurrent writers")
@pytest.mark.django_db(transaction=True)
def test_an_endpoint_committed_meanwhile_gets_the_changes_recorded_after_it(team):
    """READ COMMITTED: each change's one read sees the endpoints committed before it, so the
    events of one change are delivered all or none; a change recorded later in the same
    transaction sees an endpoint another transaction committed in between
    (docs/performance.md, "Instant bookings")."""
    endpoint_ids = []

    def create_elsewhere():  # another connection, its own transaction
        try:
            endpoint_ids.append(make_endpoint(team, "https://a.example/new", events=ALL_TYPES).pk)
        finally:
            connection.close()

    with transaction.atomic():
        before = events_record(team=team, live_mode=True, events=BOOKING_TICKETED_AT_ONCE[:3])
        thread = threading.Thread(target=create_elsewhere)
        thread.start()
        thread.join(timeout=30)
        assert not thread.is_alive() and len(endpoint_ids) == 1
        after = events_record(team=team, live_mode=True, events=BOOKING_TICKETED_AT_ONCE[3:])
    assert all(not event.deliveries.exists() for event in before)
    assert [event.deliveries.get().endpoint_id for event in after] == endpoint_ids * 2
