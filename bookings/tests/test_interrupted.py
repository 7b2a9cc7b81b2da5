"""A booking request that dies after the booking (and, for instant, the debit) is written but
before the supplier answers: its retry with the same Idempotency-Key finishes that booking;
nothing is booked or debited twice. (The real-process version: tests/test_faults.py.)"""

from datetime import timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from bookings.models import Booking
from bookings.services import bookings_outcomes_reconcile
from bookings.tests.helpers import BOOKINGS, holdable, offers
from flights.suppliers.sandbox import SandboxSupplier
from tests.kit.factories import fund
from tests.kit.passengers import passenger
from wallet.models import Transaction

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]

KEY = "retry-me-1"


@pytest.fixture
def client(team, team_keys):
    fund(team, "10000.00")
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    return client


@pytest.fixture
def supplier_call_dies(monkeypatch):
    """The process dies during the supplier call (the supplier never answered)."""
    real_create_order = SandboxSupplier.create_order
    calls = []

    def dies_once(self, **kwargs):
        calls.append(kwargs["offer"].id)
        if len(calls) == 1:
            raise RuntimeError("worker killed during the supplier call")
        return real_create_order(self, **kwargs)

    monkeypatch.setattr(SandboxSupplier, "create_order", dies_once)
    return calls


def book(client, offer, *, type="hold", key=None):
    body = {
        "offerId": offer["id"],
        "type": type,
        "passengers": [passenger(offer["passengers"][0]["id"])],
    }
    if type == "instant":
        body["payments"] = [
            {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        ]
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(BOOKINGS, body, format="json", **headers)


def instant_offer(client):
    return next(o for o in offers(client) if o["payment_requirements"]["requires_instant_payment"])


def test_an_interrupted_instant_booking_is_finished_by_its_retry(client, supplier_call_dies):
    offer = instant_offer(client)
    died = book(client, offer, type="instant", key=KEY)
    assert died.status_code == 500
    left = Booking.objects.get()
    assert left.status == "pending" and left.idempotency_key == "retry-me-1"
    assert Transaction.objects.filter(type="debit").count() == 1  # debited, not yet ordered

    retried = book(client, offer, type="instant", key=KEY)

    assert retried.status_code == 201, retried.json()
    assert retried.json()["id"] == left.id and retried.json()["status"] == "ticketed"
    assert Booking.objects.count() == 1 and Transaction.objects.filter(type="debit").count() == 1
    assert supplier_call_dies == [offer["id"], offer["id"]]


def test_an_interrupted_hold_is_held_by_its_retry(client, supplier_call_dies):
    offer = holdable(client)
    assert book(client, offer, key=KEY).status_code == 500

    retried = book(client, offer, key=KEY)

    assert retried.status_code == 201 and retried.json()["status"] == "pending"
    assert Booking.objects.get().supplier_order_id  # the supplier holds it now


def test_another_request_for_the_same_offer_is_still_refused(client, supplier_call_dies):
    offer = instant_offer(client)
    book(client, offer, type="instant", key=KEY)

    other = book(client, offer, type="instant", key="another-request")
    without_key = book(client, offer, type="instant")

    for refused in (other, without_key):
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "offer_already_booked"
    assert Booking.objects.get().status == "pending"  # untouched by the other requests
    assert supplier_call_dies == [offer["id"]]


def test_an_interrupted_instant_booking_is_settled_by_the_supplier_not_by_a_cancel(
    client, supplier_call_dies, settings
):
    """The order may exist at the airline (the request died during the call): a cancel is
    refused until the reconcile job has asked the supplier; no order there → failed and
    refunded in full, once."""
    offer = instant_offer(client)
    book(client, offer, type="instant", key=KEY)
    left = Booking.objects.get()

    refused = client.delete(f"{BOOKINGS}/{left.id}")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "booking_outcome_unknown"
    assert not Transaction.objects.filter(reference_type="refund").exists()

    over = left.created_at + settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT + timedelta(seconds=1)
    with time_machine.travel(over, tick=False) as clock:
        assert bookings_outcomes_reconcile() == [left.id]  # marked unknown, checked at once
        left.refresh_from_db()
        assert left.status == "confirmed" and left.outcome_unknown_since == over
        clock.shift(settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
        bookings_outcomes_reconcile()

    left.refresh_from_db()
    assert left.status == "failed" and left.outcome_unknown_since is None
    credit = Transaction.objects.get(type="credit", reference_type="refund")
    assert credit.amount == left.base_cost_brl  # exactly what was debited
    # The retry now answers with the failed booking; it orders nothing.
    retried = book(client, offer, type="instant", key=KEY)
    assert retried.json()["status"] == "failed" and supplier_call_dies == [offer["id"]]


@pytest.fixture
def process_dies_after_ordering(monkeypatch):
    """The supplier made the order, and the process died before recording it."""
    real_create_order = SandboxSupplier.create_order
    calls = []

    def orders_then_dies(self, **kwargs):
        calls.append(kwargs["offer"].id)
        order = real_create_order(self, **kwargs)
        if len(calls) == 1:
            raise RuntimeError("worker killed after the supplier answered")
        return order

    monkeypatch.setattr(SandboxSupplier, "create_order", orders_then_dies)
    return calls


def test_a_retry_finds_the_order_its_first_attempt_made_instead_of_ordering_again(
    client, process_dies_after_ordering
):
    offer = instant_offer(client)
    assert book(client, offer, type="instant", key=KEY).status_code == 500

    retried = book(client, offer, type="instant", key=KEY)

    assert retried.status_code == 201 and retried.json()["status"] == "ticketed"
    assert len(retried.json()["documents"]) == 1
    assert process_dies_after_ordering == [offer["id"]]  # found by its booking id, not reordered
    assert Transaction.objects.filter(type="debit").count() == 1
    assert not Transaction.objects.filter(reference_type="refund").exists()


def test_an_interrupted_instant_booking_never_expires_like_a_hold(client, supplier_call_dies):
    from bookings.tasks import expire_holds

    offer = instant_offer(client)
    book(client, offer, type="instant", key=KEY)
    Booking.objects.update(payment_required_by=Booking.objects.get().created_at)

    assert expire_holds() == 0
    assert Booking.objects.get().status == "pending"
