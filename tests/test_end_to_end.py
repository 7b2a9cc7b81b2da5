"""An agency's whole day, end to end, through HTTP only, against the real stack scaled out:
two gunicorn instances taking requests in turn, two Celery workers and one beat, one PostgreSQL
(through PgBouncer when the suite runs through it, as CI does), Redis and a local HTTPS webhook
receiver.

Only the two things an agency cannot do over HTTP are done as support or the payer would:
the team is created with `create_team`, and the live PIX payment is made with
`simulate_payment` (the sandbox payment provider's payer)."""

import json
from datetime import date, timedelta
from decimal import Decimal

import pytest

from tests.kit.passengers import passenger
from tests.kit.receiver import verify_signature
from tests.kit.stack import RoundRobin, Stack, needs_real_stack, wait_until

pytestmark = [needs_real_stack, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

RECHARGE = Decimal("3000.00")
EVERY_EVENT = [
    "wallet.recharge.pending",
    "wallet.recharge.completed",
    "wallet.credit",
    "wallet.debit",
    "booking.created",
    "booking.confirmed",
    "booking.ticketed",
    "booking.cancelled",
]


@pytest.fixture
def stack(receiver):
    running = Stack(receiver_ca=receiver.ca_path)
    yield running
    running.stop()


def test_an_agencys_day(stack, receiver):
    stack.start_web()
    stack.start_web()
    stack.start_worker(name="first")
    stack.start_worker(name="second")
    stack.start_beat()
    keys = json.loads(
        stack.manage("create_team", "Day Travel", "--owner-email", "owner@day.example", "--json")
    )
    api = RoundRobin(stack.base_urls)  # each request to the next gunicorn instance
    api.headers["Authorization"] = f"Bearer {keys['live_key']}"
    url = "/api/v1"

    # Webhooks first, so the whole day is reported.
    created = api.post(f"{url}/webhooks", json={"url": receiver.url, "events": EVERY_EVENT})
    assert created.status_code == 201, created.text
    secret = created.json()["data"]["secret"]

    # A PIX recharge, paid by its payer.
    recharge = api.post(
        f"{url}/wallet/recharge",
        json={"amount": str(RECHARGE), "currency": "BRL", "payment_method": "pix"},
    ).json()["data"]
    assert recharge["status"] == "pending"
    stack.manage("simulate_payment", recharge["id"])
    balance = api.get(f"{url}/wallet/balance").json()["data"]
    assert Decimal(balance["balance"]) == RECHARGE

    # Search, hold a refundable offer, confirm it from the wallet.
    departure = date.today() + timedelta(days=60)
    search = api.post(
        f"{url}/flights/search",
        json={
            "type": "one_way",
            "passengers": [{"type": "adult", "count": 1}],
            "slices": [{"origin": "GRU", "destination": "GIG", "departureDate": str(departure)}],
        },
    )
    assert search.status_code == 200, search.text
    result = search.json()

    def refund_if_cancelled(offer) -> Decimal:
        condition = offer["conditions"]["refund_before_departure"] or {}
        if not condition.get("allowed"):
            return Decimal(0)
        return Decimal(offer["total_amount"]) - Decimal(condition["penalty_amount"] or 0)

    offer = next(
        o
        for o in result["offers"]
        if not o["payment_requirements"]["requires_instant_payment"]
        and refund_if_cancelled(o) > 0
        and Decimal(o["base_cost_brl"]) < RECHARGE
    )
    hold = api.post(
        f"{url}/bookings",
        json={
            "offerId": offer["id"],
            "type": "hold",
            "passengers": [passenger(result["passengers"][0]["id"])],
        },
    )
    assert hold.status_code == 201, hold.text
    booking_id = hold.json()["id"]  # the Booking, unwrapped, as the spec shows it
    assert hold.json()["status"] == "pending"

    payment = {
        "type": "balance",
        "amount": offer["total_amount"],
        "currency": offer["total_currency"],
    }
    confirmed = api.put(f"{url}/bookings/{booking_id}/confirm", json={"payment": payment})
    assert confirmed.status_code == 200, confirmed.text

    # The worker issues the tickets.
    def ticketed():
        booking = api.get(f"{url}/bookings/{booking_id}").json()
        return booking if booking["status"] == "ticketed" else None

    booking = wait_until(ticketed, timeout=60)
    assert booking, "the booking was not ticketed by the worker"
    assert len(booking["documents"]) == 1
    after_debit = Decimal(api.get(f"{url}/wallet/balance").json()["data"]["balance"])
    assert after_debit == RECHARGE - Decimal(offer["base_cost_brl"])

    # Cancel: refunded per the offer's conditions.
    cancelled = api.delete(f"{url}/bookings/{booking_id}")
    assert cancelled.status_code == 200, cancelled.text
    refund = cancelled.json()["data"]["refund"]
    final_balance = Decimal(api.get(f"{url}/wallet/balance").json()["data"]["balance"])
    assert final_balance > after_debit and Decimal(refund["amount"]) > 0

    # Transactions and their summary tell the same story.
    listing = api.get(f"{url}/wallet/transactions").json()["data"]
    kinds = sorted((t["type"], t["reference_type"]) for t in listing["transactions"])
    assert kinds == [("credit", "recharge"), ("credit", "refund"), ("debit", "booking")]
    (refund_credit,) = [t for t in listing["transactions"] if t["reference_type"] == "refund"]
    assert Decimal(refund_credit["amount"]) == final_balance - after_debit
    summary = listing["summary"]
    assert Decimal(summary["total_credits"]) - Decimal(summary["total_debits"]) == final_balance

    # Every change arrived at the receiver, signed.
    expected = set(EVERY_EVENT)

    def all_delivered():
        bodies = [json.loads(r.body) for r in receiver.requests]
        credited = {
            b["data"]["object"]["reference_type"]
            for b in bodies
            if b.get("type") == "wallet.credit"
        }
        # Both credits: the recharge's alone already makes the set of types complete.
        return expected <= {b.get("type") for b in bodies} and credited == {"recharge", "refund"}

    assert wait_until(all_delivered, timeout=60), sorted(
        {json.loads(r.body).get("type") for r in receiver.requests}
    )
    deliveries = [r for r in receiver.requests if "X-Service-Probe" not in r.headers]
    assert deliveries and all(verify_signature(secret, r.headers, r.body) for r in deliveries)
    credits = [json.loads(r.body) for r in deliveries if b'"wallet.credit"' in r.body]
    assert {c["data"]["object"]["reference_type"] for c in credits} == {"recharge", "refund"}

    assert len(api.served) == 2 and all(count >= 5 for count in api.served.values())
    assert all(process.poll() is None for process in stack.processes), "a process died"

    # The books balance (check_ledger exits non-zero otherwise).
    assert "1 wallet(s) consistent" in stack.manage("check_ledger")
