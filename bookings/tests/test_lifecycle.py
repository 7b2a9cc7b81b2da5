import threading
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal

import pytest
import time_machine
from django.db import connection

from bookings.models import Booking
from bookings.tasks import expire_holds
from bookings.tests.test_create import NOW, book, holdable, offers, person
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction, Wallet
from wallet.tests.factories import fund
from webhooks.models import Event

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_sandbox")]


@pytest.fixture(autouse=True)
def frozen_time():
    with time_machine.travel(NOW, tick=False):
        yield


def pay(offer):
    return {
        "payment": {
            "type": "balance",
            "amount": offer["total_amount"],
            "currency": offer["total_currency"],
        }
    }


def confirm(client, booking_id, body):
    return client.put(f"/api/v1/bookings/{booking_id}/confirm", body, format="json")


def test_confirm_debits_and_tickets_automatically(
    live_client, team, django_capture_on_commit_callbacks
):
    fund(team.team, "20000.00")
    offer = holdable(live_client)
    booking = book(live_client, offer).json()
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = confirm(live_client, booking["id"], pay(offer))
    assert response.status_code == 200
    # After commit: the ticketing task, which then queues the ticket e-mail.
    assert [c.args[0] for c in queued] == [booking["id"], queued[1].args[0]]
    data = response.json()["data"]
    assert data["status"] == "confirmed" and data["documents"] == []
    assert data["booking_reference"] == booking["booking_reference"]
    [document] = live_client.get(f"/api/v1/bookings/{booking['id']}").json()["documents"]
    assert document["type"] == "electronic_ticket" and len(document["unique_identifier"]) == 13
    debit = Transaction.objects.get(type="debit", reference_id=booking["id"])
    assert debit.amount == Decimal(offer["base_cost_brl"])
    types = list(
        Event.objects.filter(type__startswith="booking.")
        .exclude(type="booking.updated")
        .order_by("created_at")
        .values_list("type", flat=True)
    )
    assert types == ["booking.created", "booking.confirmed", "booking.ticketed"]
    # Each change after creation is also a booking.updated.
    assert Event.objects.filter(type="booking.updated").count() == 2
    again = confirm(live_client, booking["id"], pay(offer))
    assert again.status_code == 409 and again.json()["error"]["message"] == (
        "Booking already confirmed"
    )
    assert Transaction.objects.filter(type="debit").count() == 1


def test_confirm_rules(live_client, team):
    fund(team.team, "100.00")
    offer = holdable(live_client)
    booking = book(live_client, offer).json()
    mismatch = confirm(
        live_client,
        booking["id"],
        {"payment": {"type": "balance", "amount": "1.00", "currency": "EUR"}},
    )
    assert mismatch.json()["error"]["message"] == "Payment amount mismatch"
    poor = confirm(live_client, booking["id"], pay(offer))
    assert poor.status_code == 422 and poor.json()["error"]["message"] == "Insufficient balance"
    assert Booking.objects.get(pk=booking["id"]).status == "pending"
    assert not Transaction.objects.filter(type="debit").exists()


def test_issuance_failure_after_confirm_refunds(
    live_client, team, django_capture_on_commit_callbacks
):
    fund(team.team, "20000.00")
    offer = holdable(live_client)
    booking = book(
        live_client, offer, people=[person(offer["passengers"][0]["id"], family="Issuancefail")]
    ).json()
    with django_capture_on_commit_callbacks(execute=True):
        confirm(live_client, booking["id"], pay(offer))
    assert live_client.get(f"/api/v1/bookings/{booking['id']}").json()["status"] == "failed"
    assert Wallet.objects.get(team=team.team).balance == Decimal("20000.00")
    assert Event.objects.filter(type="booking.failed").count() == 1
    assert ledger_problems() == []


def test_cancel_pending_is_free(live_client, team):
    offer = holdable(live_client)
    booking = book(live_client, offer).json()
    response = live_client.delete(f"/api/v1/bookings/{booking['id']}")
    assert response.status_code == 200
    assert response.json()["data"] == {
        "id": booking["id"],
        "status": "cancelled",
        "refund": {
            "amount": "0.00",
            "currency": offer["total_currency"],
            "penalty_amount": None,
            "penalty_currency": None,
        },
    }
    again = live_client.delete(f"/api/v1/bookings/{booking['id']}")
    assert again.status_code == 409
    assert again.json()["error"]["message"] == "Booking already cancelled"
    assert Event.objects.filter(type="booking.cancelled").count() == 1


def test_cancel_ticketed_refunds_per_conditions(live_client, team):
    fund(team.team, "50000.00")
    candidates = offers(live_client)
    refundable = next(
        o for o in candidates if o["conditions"]["refund_before_departure"]["allowed"]
    )
    booking = book(live_client, refundable, type="instant").json()
    result = live_client.delete(f"/api/v1/bookings/{booking['id']}").json()["data"]
    condition = refundable["conditions"]["refund_before_departure"]
    penalty = Decimal(condition["penalty_amount"] or "0")
    expected = Decimal(refundable["total_amount"]) - penalty
    assert result["refund"]["amount"] == f"{expected:.2f}"
    assert result["refund"]["penalty_amount"] == condition["penalty_amount"]
    credit = Transaction.objects.get(type="credit", reference_type="refund")
    rate = Decimal(str(refundable["exchange_rate_used"]))
    if penalty:
        assert credit.amount == (expected * rate).quantize(Decimal("0.01"), ROUND_HALF_UP)
    else:
        assert credit.amount == Decimal(refundable["base_cost_brl"])
    assert ledger_problems() == []


def test_cancel_non_refundable_refunds_nothing(live_client, team):
    fund(team.team, "50000.00")
    fare = next(
        o for o in offers(live_client) if not o["conditions"]["refund_before_departure"]["allowed"]
    )
    booking = book(live_client, fare, type="instant").json()
    result = live_client.delete(f"/api/v1/bookings/{booking['id']}").json()["data"]
    assert result["status"] == "cancelled" and result["refund"]["amount"] == "0.00"
    assert not Transaction.objects.filter(reference_type="refund").exists()


def test_failed_and_departed_bookings_cannot_be_cancelled(live_client, team):
    fund(team.team, "50000.00")
    offer = offers(live_client)[0]
    failed = book(
        live_client,
        offer,
        type="instant",
        people=[person(offer["passengers"][0]["id"], family="Issuancefail")],
    ).json()
    response = live_client.delete(f"/api/v1/bookings/{failed['id']}")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "booking_not_cancellable"
    ticketed = book(live_client, holdable(live_client, destination="CNF"), type="instant").json()
    with time_machine.travel(NOW + timedelta(days=120), tick=False):
        late = live_client.delete(f"/api/v1/bookings/{ticketed['id']}")
    assert late.status_code == 409 and late.json()["error"]["message"] == "The flight has departed"


def test_holds_expire_after_their_deadline(live_client, team):
    booking = book(live_client, holdable(live_client)).json()
    deadline = Booking.objects.get(pk=booking["id"]).payment_required_by
    with time_machine.travel(deadline - timedelta(minutes=1), tick=False):
        assert expire_holds.delay().get() == 0
    with time_machine.travel(deadline + timedelta(minutes=1), tick=False):
        assert expire_holds.delay().get() == 1
        confirmed = confirm(live_client, booking["id"], {"payment": {}})
    assert Booking.objects.get(pk=booking["id"]).status == "expired"
    event = Event.objects.get(type="booking.expired")
    assert event.previous_attributes == {"status": "pending"}
    assert confirmed.status_code in (400, 409)


def test_list_filters_and_items(live_client, team):
    fund(team.team, "50000.00")
    held = book(live_client, holdable(live_client)).json()
    with time_machine.travel(NOW + timedelta(seconds=1), tick=False):  # a later creation
        ticketed = book(
            live_client, holdable(live_client, destination="CNF"), type="instant"
        ).json()
    body = live_client.get("/api/v1/bookings").json()
    assert body["success"] is True and body["pagination"]["total"] == 2
    assert [b["id"] for b in body["data"]] == [ticketed["id"], held["id"]]  # newest first
    item = body["data"][0]
    assert set(item) == {
        "id",
        "booking_reference",
        "status",
        "total_amount",
        "currency",
        "created_at",
        "client",
        "flight_summary",
    }
    assert item["client"]["email"] == "ana@example.com"
    assert item["flight_summary"]["origin"] == "GRU"
    assert item["flight_summary"]["departure_date"] == "2027-01-15"
    only = live_client.get("/api/v1/bookings", {"status": "pending"}).json()["data"]
    assert [b["id"] for b in only] == [held["id"]]
    both = live_client.get("/api/v1/bookings", {"status": "pending,ticketed"}).json()["data"]
    assert len(both) == 2
    bad = live_client.get("/api/v1/bookings", {"status": "lost"})
    assert bad.status_code == 400
    assert live_client.get("/api/v1/bookings", {"created_after": "2026-11-23"}).json()["data"] == []


@pytest.mark.django_db(transaction=True)
def test_two_confirms_racing_debit_once(team):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks; SQLite serialises every writer")
    from rest_framework.test import APIClient

    fund(team.team, "50000.00")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
    offer = holdable(client)
    booking = book(client, offer).json()
    barrier, statuses = threading.Barrier(6), []

    def worker():
        racer = APIClient()
        racer.credentials(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
        barrier.wait()
        statuses.append(confirm(racer, booking["id"], pay(offer)).status_code)
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409, 409, 409]
    assert Transaction.objects.filter(type="debit", reference_id=booking["id"]).count() == 1
    assert ledger_problems() == []


def test_panel_support_sees_and_cancels_agency_sees_only_its_own(live_client, team, other_team):
    from django.test import Client as BrowserClient
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory

    fund(team.team, "50000.00")
    booking = book(live_client, holdable(live_client), type="instant").json()
    support = BrowserClient()
    support.force_login(SupportUserFactory())
    page = support.get(reverse("admin:bookings_booking_change", args=[booking["id"]]))
    html = page.content.decode()
    assert page.status_code == 200 and "booking.ticketed" in html and "debit" in html
    outsider = BrowserClient()
    outsider.force_login(other_team.owner)
    listing = outsider.get(reverse("admin:bookings_booking_changelist"))
    assert listing.status_code == 200 and list(listing.context["cl"].queryset) == []
    chosen = {"action": "cancel", "_selected_action": [booking["id"]]}
    confirmation = support.post(reverse("admin:bookings_booking_changelist"), chosen)
    refundable = Booking.objects.get(pk=booking["id"]).conditions["refund_before_departure"]
    expected = "A carteira recebe de volta R$" if refundable["allowed"] else "sem reembolso"
    assert expected in confirmation.content.decode()
    assert Booking.objects.get(pk=booking["id"]).status == "ticketed"
    support.post(reverse("admin:bookings_booking_changelist"), {**chosen, "post": "yes"})
    assert Booking.objects.get(pk=booking["id"]).status == "cancelled"


@pytest.mark.django_db(transaction=True)
def test_two_bookings_racing_for_the_last_funds(team):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks; SQLite serialises every writer")
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
    candidates = [holdable(client, destination=d) for d in ("BSB", "CNF")]
    costs = [Decimal(o["base_cost_brl"]) for o in candidates]
    fund(team.team, f"{max(costs):.2f}")  # enough for either, not for both
    barrier, statuses = threading.Barrier(2), []

    def worker(offer):
        racer = APIClient()
        racer.credentials(HTTP_AUTHORIZATION=f"Bearer {team.live_key}")
        barrier.wait()
        statuses.append(book(racer, offer, type="instant").status_code)
        connection.close()

    threads = [threading.Thread(target=worker, args=(o,)) for o in candidates]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 422]  # together they cost more than the balance
    assert Wallet.objects.get(team=team.team).balance >= 0
    assert Transaction.objects.filter(type="debit").count() == 1
    assert Booking.objects.count() == 1  # the loser left no booking behind
    assert ledger_problems() == []


def test_the_whole_life_of_a_hold_in_test_mode(
    test_client, team, django_capture_on_commit_callbacks
):
    offer = holdable(test_client)
    booking = book(test_client, offer).json()
    assert booking["live_mode"] is False and booking["status"] == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = confirm(test_client, booking["id"], pay(offer))
    assert confirmed.json()["_meta"]["test_mode"] is True
    assert test_client.get(f"/api/v1/bookings/{booking['id']}").json()["status"] == "ticketed"
    cancelled = test_client.delete(f"/api/v1/bookings/{booking['id']}").json()
    assert cancelled["data"]["status"] == "cancelled" and cancelled["_meta"]["test_mode"]
    rows = Transaction.objects.filter(reference_id=booking["id"], live_mode=False)
    assert {t.balance_after for t in rows} == {Decimal("5000.00")}
    assert Wallet.objects.get(team=team.team).balance == Decimal("0.00")  # live untouched
    assert test_client.get("/api/v1/wallet/balance").json()["data"]["balance"] == "5000.00"
    # created, confirmed, ticketed, cancelled, and a booking.updated for each of the last three
    assert Event.objects.filter(live_mode=False, type__startswith="booking.").count() == 7


def test_ticketing_is_idempotent_and_the_sweep_retries_stuck_bookings(live_client, team):
    from bookings.models import BookingDocument
    from bookings.services import booking_issue_tickets
    from bookings.tasks import issue_stuck_confirmed

    fund(team.team, "20000.00")
    offer = holdable(live_client)
    booking = book(live_client, offer).json()
    confirm(live_client, booking["id"], pay(offer))  # on_commit never fires here: "lost" task
    assert Booking.objects.get(pk=booking["id"]).status == "confirmed"
    with time_machine.travel(NOW + timedelta(minutes=2), tick=False):
        assert issue_stuck_confirmed.delay().get() == 0  # not stuck yet
    with time_machine.travel(NOW + timedelta(minutes=6), tick=False):
        assert issue_stuck_confirmed.delay().get() == 1  # re-sent (runs inline here)
    assert Booking.objects.get(pk=booking["id"]).status == "ticketed"
    booking_issue_tickets(booking_id=booking["id"])  # a duplicate delivery of the task
    assert BookingDocument.objects.filter(booking_id=booking["id"]).count() == 1
    assert Event.objects.filter(type="booking.ticketed").count() == 1
    assert Transaction.objects.filter(reference_id=booking["id"], type="debit").count() == 1
