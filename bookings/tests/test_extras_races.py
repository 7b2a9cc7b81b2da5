"""Bags added to one booking from several requests at once, with real threads on PostgreSQL:
one purchase at a time per booking (the others are told it is in progress, or buy after it),
each purchase debited once, never more bags than the airline sells, the ledger clean."""

import threading
from collections import Counter
from decimal import Decimal

import pytest
from django.db import connections

from bookings.inputs import PaymentInput
from bookings.models import Booking, BookingServicesPurchase
from bookings.services.extras import booking_services_add
from bookings.tests.helpers import basic_offer, book
from core.exceptions import ApplicationError
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql("row locks and concurrent purchases"),
]
THREADS = 6


def test_racing_purchases_of_bags_debit_each_purchase_once(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "50000.00")
    response = book(live_client, basic_offer(live_client), type="instant")
    assert response.status_code == 201, response.content
    booking_id = response.json()["id"]
    available = live_client.get(f"/api/v1/bookings/{booking_id}/available_services")
    bag = available.json()["data"][0]
    assert bag["maximum_quantity"] == 3  # fewer than the threads: some must be refused
    start, outcomes = threading.Barrier(THREADS), []

    def add_one_bag():
        try:
            start.wait()
            booking_services_add(
                booking=Booking.objects.get(pk=booking_id),
                add_services=[{"id": bag["id"], "quantity": 1}],
                payment=PaymentInput(
                    amount=Decimal(bag["total_amount"]), currency=bag["total_currency"]
                ),
            )
            outcomes.append("added")
        except ApplicationError as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=add_one_bag) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    counted = Counter(outcomes)
    assert sum(counted.values()) == THREADS
    assert 1 <= counted["added"] <= 3, counted
    # The others were told why: another purchase in progress, or no bag left to sell.
    assert set(counted) - {"added"} <= {"booking_services_in_progress", "invalid_request"}, counted
    purchases = BookingServicesPurchase.objects.filter(booking_id=booking_id)
    assert purchases.count() == counted["added"]
    assert {p.status for p in purchases} == {"confirmed"}
    debits = Transaction.objects.filter(reference_type="booking_services", type="debit")
    assert sorted(d.reference_id for d in debits) == sorted(p.pk for p in purchases)
    assert all(d.amount == Decimal(bag["base_cost_brl"]) for d in debits)
    booking = Booking.objects.get(pk=booking_id)
    assert sum(s["quantity"] for s in booking.services) == counted["added"]
    assert ledger_problems() == []
