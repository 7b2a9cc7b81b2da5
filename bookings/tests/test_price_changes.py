"""The sandbox's price-change scenario over the API (docs/sandbox.md): a hold whose price the
airline raised once its guarantee ended is refused `409 price_changed`, nothing debited, then
confirmed at the new total and ticketed; a data change alone is one `booking.updated` (tickets
found later by support's check with the supplier)."""

from decimal import Decimal

import pytest

from bookings.models import Booking
from bookings.services import booking_check_with_supplier
from bookings.services.recording import booking_event
from bookings.tests.helpers import book, holdable
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction
from webhooks.models import Event, EventType

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


def confirm(client, booking_id: str, amount: str, currency: str):
    return client.put(
        f"/api/v1/bookings/{booking_id}/confirm",
        {"payment": {"type": "balance", "amount": amount, "currency": currency}},
        format="json",
    )


def test_the_sandbox_price_change_scenario(live_client, team, django_capture_on_commit_callbacks):
    fund(team, "50000.00")
    offer = holdable(live_client)
    people = [passenger(offer["passengers"][0]["id"], family_name="Pricechange")]
    held = book(live_client, offer, people=people).json()
    old = Decimal(offer["total_amount"])
    new = (old * Decimal("1.10")).quantize(Decimal("0.01"))

    refused = confirm(live_client, held["id"], offer["total_amount"], offer["total_currency"])

    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "price_changed"
    assert error["details"]["total_amount"] == [f"{new}"]
    assert error["details"]["previous_total_amount"] == [f"{old}"]
    assert not Transaction.objects.filter(type="debit", reference_id=held["id"]).exists()

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = confirm(live_client, held["id"], f"{new}", offer["total_currency"])

    assert confirmed.status_code == 200, confirmed.content
    booking = Booking.objects.get(pk=held["id"])
    assert booking.status == Booking.Status.TICKETED
    assert error["details"]["client_amount"] == [f"{booking.client_amount}"]
    [debit] = Transaction.objects.filter(type="debit", reference_id=held["id"])
    assert debit.amount == booking.base_cost_brl
    assert ledger_problems() == []


def test_a_data_change_alone_is_one_booking_updated(live_client):
    booking = Booking.objects.get(pk=book(live_client, holdable(live_client)).json()["id"])

    events = booking_event(booking, EventType.BOOKING_UPDATED, previous={"slices": []})
    status_change = booking_event(booking, EventType.BOOKING_EXPIRED, previous={"status": "x"})

    assert [e.type for e in events] == ["booking.updated"]
    assert events[0].previous_attributes == {"slices": []}
    assert [e.type for e in status_change] == ["booking.expired", "booking.updated"]


def test_tickets_found_later_are_added_with_a_booking_updated(live_client, team):
    fund(team, "50000.00")
    offer = holdable(live_client)
    booking = Booking.objects.get(pk=book(live_client, offer, type="instant").json()["id"])
    assert booking.status == Booking.Status.TICKETED
    [ticket] = booking.documents.all()
    ticket.delete()  # an answer that missed it (an airline issuing it later does the same)
    updates = Event.objects.filter(type="booking.updated", data_object__id=booking.id)
    before = updates.count()

    assert booking_check_with_supplier(booking=booking) == "documents added"

    [event] = updates.exclude(previous_attributes__has_key="status")
    assert event.previous_attributes == {"documents": []}
    assert event.data_object["id"] == booking.id
    assert [d["unique_identifier"] for d in event.data_object["documents"]] == [
        ticket.unique_identifier
    ]
    assert [d.unique_identifier for d in booking.documents.all()] == [ticket.unique_identifier]
    # Asked again: nothing more to add, no event.
    assert booking_check_with_supplier(booking=booking) == "settled"
    assert updates.count() == before + 1
