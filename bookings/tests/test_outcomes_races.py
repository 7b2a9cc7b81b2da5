"""Exactly one settlement of an unknown outcome under races, with real threads on PostgreSQL:
the reconcile job on several workers at once, and support's "check now" beside them."""

import threading
from collections import Counter

import pytest
import time_machine
from django.db import connections

from bookings.models import Booking
from bookings.services import booking_check_with_supplier, booking_outcome_check
from bookings.tests.helpers import instant, money
from tests.kit.clock import NOW
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems
from webhooks.models import Event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql("row locks and concurrent checks"),
]
THREADS = 6


@pytest.fixture
def client(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "10000.00")
    with time_machine.travel(NOW, tick=False):
        yield live_client


def race(booking_id: str) -> Counter:
    """THREADS checks of one booking at once, half of them support's action."""
    start, outcomes = threading.Barrier(THREADS), []

    def check(n):
        try:
            start.wait()
            if n % 2:
                outcomes.append(booking_outcome_check(booking_id=booking_id))
            else:
                booking = Booking.objects.get(pk=booking_id)
                outcomes.append(booking_check_with_supplier(booking=booking))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=check, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Counter(outcomes)


def test_concurrent_checks_ticket_a_found_order_once(client):
    booking = Booking.objects.get(pk=instant(client, "Answerlost").json()["id"])

    outcomes = race(booking.pk)

    assert outcomes["ticketed"] == 1, outcomes
    assert set(outcomes) <= {"ticketed", "busy", "settled"}
    booking.refresh_from_db()
    assert booking.status == "ticketed" and booking.documents.count() == 1
    assert Event.objects.filter(data_object__id=booking.pk, type="booking.ticketed").count() == 1
    assert money(booking.pk) == ([booking.base_cost_brl], [])
    assert ledger_problems() == []


def test_concurrent_checks_refund_an_absent_order_once(client, settings):
    booking = Booking.objects.get(pk=instant(client, "Supplierdown").json()["id"])
    settings.SUPPLIER_UNKNOWN_GRACE_SECONDS = 0  # certainly absent at the first check

    outcomes = race(booking.pk)

    assert outcomes["failed"] == 1, outcomes
    booking.refresh_from_db()
    assert booking.status == "failed"
    assert money(booking.pk) == ([booking.base_cost_brl], [booking.base_cost_brl])
    assert Event.objects.filter(data_object__id=booking.pk, type="booking.failed").count() == 1
    assert ledger_problems() == []
