import threading
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connection

from bookings.models import Booking
from bookings.tests.helpers import book, holdable
from tests.kit.clock import NOW
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction, Wallet
from webhooks.models import Event

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_time", "live_sandbox")]


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


@pytest.mark.parametrize(
    ("api_version", "currency_field"),
    [("2026-11-22", "currency"), ("2026-11-28", "total_currency")],  # docs/changelog.md
)
def test_list_filters_and_items(live_client, team, api_version, currency_field):
    """The same journey for a team pinned to the first version (the spec's shape) and one on
    the latest, where a list item's currency is `total_currency` as in the booking object."""
    team.api_version = api_version
    team.save()
    fund(team, "50000.00")
    held = book(live_client, holdable(live_client)).json()
    with time_machine.travel(NOW + timedelta(seconds=1), tick=False):  # a later creation
        ticketed = book(
            live_client, holdable(live_client, destination="CNF"), type="instant"
        ).json()
    listed = live_client.get("/api/v1/bookings")
    assert listed["Api-Version"] == api_version
    body = listed.json()
    assert body["success"] is True and body["pagination"]["total"] == 2
    assert [b["id"] for b in body["data"]] == [ticketed["id"], held["id"]]  # newest first
    item = body["data"][0]
    assert set(item) == {
        "id",
        "booking_reference",
        "status",
        "total_amount",
        currency_field,
        "created_at",
        "client",
        "flight_summary",
    }
    assert item[currency_field] == ticketed["total_currency"]
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


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_two_confirms_racing_debit_once(team, team_keys):
    from rest_framework.test import APIClient

    fund(team, "50000.00")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    offer = holdable(client)
    booking = book(client, offer).json()
    barrier, statuses = threading.Barrier(6), []

    def worker():
        racer = APIClient()
        racer.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
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


def test_panel_support_sees_and_cancels_agency_sees_only_its_own(
    live_client, team, other_team_owner
):
    from django.test import Client as BrowserClient
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory

    fund(team, "50000.00")
    booking = book(live_client, holdable(live_client), type="instant").json()
    support = BrowserClient()
    support.force_login(SupportUserFactory())
    page = support.get(reverse("admin:bookings_booking_change", args=[booking["id"]]))
    html = page.content.decode()
    assert page.status_code == 200 and "booking.ticketed" in html and "debit" in html
    outsider = BrowserClient()
    outsider.force_login(other_team_owner)
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


@needs_postgresql("row locks; SQLite serialises every writer")
@pytest.mark.django_db(transaction=True)
def test_two_bookings_racing_for_the_last_funds(team, team_keys):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
    candidates = [holdable(client, destination=d) for d in ("BSB", "CNF")]
    costs = [Decimal(o["base_cost_brl"]) for o in candidates]
    fund(team, f"{max(costs):.2f}")  # enough for either, not for both
    barrier, statuses = threading.Barrier(2), []

    def worker(offer):
        racer = APIClient()
        racer.credentials(HTTP_AUTHORIZATION=f"Bearer {team_keys.live_key}")
        barrier.wait()
        statuses.append(book(racer, offer, type="instant").status_code)
        connection.close()

    threads = [threading.Thread(target=worker, args=(o,)) for o in candidates]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 422]  # together they cost more than the balance
    assert Wallet.objects.get(team=team).balance >= 0
    assert Transaction.objects.filter(type="debit").count() == 1
    assert Booking.objects.count() == 1  # the loser left no booking behind
    assert ledger_problems() == []


def test_ticketing_is_idempotent_and_the_sweep_retries_stuck_bookings(live_client, team):
    from bookings.models import BookingDocument
    from bookings.services import booking_issue_tickets
    from bookings.tasks import issue_stuck_confirmed

    fund(team, "20000.00")
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
