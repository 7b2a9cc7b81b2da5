"""Racing confirmations of a hold whose price changed, with real threads on PostgreSQL: the new
price is recorded once (one `booking.updated`) and the wallet debited once, the new cost."""

import threading
from collections import Counter
from decimal import Decimal

import pytest
import time_machine
from django.db import connections
from rest_framework.test import APIClient

from bookings.inputs import PaymentInput
from bookings.models import Booking
from bookings.services import booking_confirm
from bookings.tests.helpers import book, holdable
from core.exceptions import ApplicationError
from tests.kit.clock import NOW
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from tests.kit.passengers import passenger
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction
from webhooks.models import Event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql("row locks and concurrent confirmations"),
]
THREADS = 6


@pytest.fixture
def client(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "50000.00")
    with time_machine.travel(NOW, tick=False):
        yield live_client


def test_racing_confirmations_at_the_new_price_debit_once(client: APIClient):
    offer = holdable(client)
    people = [passenger(offer["passengers"][0]["id"], family_name="Pricechange")]
    booking_id = book(client, offer, people=people).json()["id"]
    new = (Decimal(offer["total_amount"]) * Decimal("1.10")).quantize(Decimal("0.01"))
    start, outcomes = threading.Barrier(THREADS), []

    def confirm(n):
        # Half pay the offer's total, half the airline's new one.
        amount = new if n % 2 else Decimal(offer["total_amount"])
        try:
            start.wait()
            booking = Booking.objects.get(pk=booking_id)
            payment = PaymentInput(amount=amount, currency=offer["total_currency"])
            booking_confirm(booking=booking, payment=payment)
            outcomes.append("confirmed")
        except ApplicationError as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    counted = Counter(outcomes)
    assert counted["confirmed"] == 1, counted
    assert set(counted) <= {
        "confirmed",
        "price_changed",
        "payment_amount_mismatch",
        "booking_already_confirmed",
    }, counted
    booking = Booking.objects.get(pk=booking_id)
    assert booking.total_amount == new
    [debit] = Transaction.objects.filter(type="debit", reference_id=booking_id)
    assert debit.amount == booking.base_cost_brl
    repriced = Event.objects.filter(
        type="booking.updated",
        data_object__id=booking_id,
        previous_attributes__has_key="total_amount",
    )
    assert repriced.count() == 1
    assert ledger_problems() == []
