"""Uncertain supplier answers settled by the real stack: gunicorn, a Celery worker with beat
(the reconcile job every second here), PostgreSQL and Redis. One booking whose answer was lost
is found and ticketed; one whose order was never made is failed and refunded after the grace
period; the books balance."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import requests

from bookings.models import Booking
from tests.kit.booking_bodies import booking_body
from tests.kit.factories import fund, make_team
from tests.kit.passengers import passenger
from tests.kit.stack import Stack, needs_real_stack, wait_until
from wallet.models import Transaction, Wallet

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]
FUNDS = Decimal("50000.00")


@pytest.fixture
def stack():
    running = Stack()
    running.env.update(
        SUPPLIER_RECONCILE_INTERVAL_SECONDS="1",
        SUPPLIER_UNKNOWN_GRACE_SECONDS="3",
        FLIGHTS_LIVE_SANDBOX="true",
    )
    yield running
    running.stop()


def instant_booking(api: requests.Session, url: str, family_name: str, day: int) -> dict:
    departure = date.today() + timedelta(days=day)
    result = api.post(
        f"{url}/flights/search",
        json={
            "type": "one_way",
            "passengers": [{"type": "adult", "count": 1}],
            "slices": [{"origin": "GRU", "destination": "GIG", "departureDate": str(departure)}],
        },
    ).json()
    offer = result["offers"][0]
    booked = api.post(
        f"{url}/bookings",
        json=booking_body(
            offer,
            type="instant",
            passengers=[passenger(offer["passengers"][0]["id"], family_name=family_name)],
        ),
    )
    assert booked.status_code == 201, booked.text
    return booked.json()


def test_the_reconcile_job_settles_uncertain_answers(stack):
    created = make_team("Uncertain Travel")
    fund(created.team, str(FUNDS))
    stack.start_web()
    stack.start_worker(beat=True)
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {created.live_key}"
    url = f"{stack.base_url}/api/v1"

    lost = instant_booking(api, url, "Answerlost", 40)
    down = instant_booking(api, url, "Supplierdown", 41)
    assert lost["status"] == down["status"] == "confirmed"  # paid, awaiting issuance

    def status(booking_id):
        return api.get(f"{url}/bookings/{booking_id}").json()["status"]

    assert wait_until(lambda: status(lost["id"]) == "ticketed", timeout=90), status(lost["id"])
    assert wait_until(lambda: status(down["id"]) == "failed", timeout=90), status(down["id"])

    debits = Transaction.objects.filter(team=created.team, type="debit")
    refunds = Transaction.objects.filter(team=created.team, reference_type="refund")
    assert sorted(t.reference_id for t in debits) == sorted([lost["id"], down["id"]])
    assert [t.reference_id for t in refunds] == [down["id"]]  # refunded once, in full
    failed = Booking.objects.get(pk=down["id"])
    assert refunds.get().amount == failed.base_cost_brl
    ticketed = Booking.objects.get(pk=lost["id"])
    assert Wallet.objects.get(team=created.team).balance == FUNDS - ticketed.base_cost_brl
    assert "wallet(s) consistent" in stack.manage("check_ledger")
