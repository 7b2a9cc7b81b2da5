"""Changing a booking's flights over the API on the sandbox (its change scenarios,
docs/sandbox.md): a change request answered with priced offers, then one confirmed; a positive
difference debited once, a negative one refunded in cash credited, to a voucher 0.00; what the
fare or the airline refuses is 409; an expired offer 409; a balance too low 422 with nothing
written; a lost confirmation settled once by the reconcile job; and, on PostgreSQL with real
threads, racing confirmations debit once. The ledger checks out after each."""

import threading
from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connections
from django.utils import timezone

from bookings.models import Booking, BookingChangeOffer, BookingEmail
from bookings.services.changes import booking_change_check, booking_change_confirm
from bookings.services.outcomes import bookings_outcomes_reconcile
from bookings.tests.helpers import BOOKINGS, book, offers, passenger
from core.exceptions import ApplicationError
from core.money import money_display, q
from dashboard.display import activity_figures, periods
from tests.kit.factories import fund
from tests.kit.marks import needs_postgresql
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction, Wallet
from webhooks.models import Event


@pytest.fixture
def client(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    fund(team, "100000.00")
    return live_client


def changeable_offer(client, *, allowed: bool = True) -> dict:
    return next(
        o
        for o in offers(client)
        if bool(o["conditions"]["change_before_departure"]["allowed"]) is allowed
    )


def ticketed(client, family_name: str, *, allowed: bool = True) -> Booking:
    """A paid, ticketed GRU–BSB booking, its passenger named `family_name`."""
    offer = changeable_offer(client, allowed=allowed)
    response = book(
        client,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name=family_name)],
    )
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.status == "ticketed"
    return booking


def ask(client, booking: Booking, day: str = "2027-01-20", **headers):
    body = {
        "slices": {
            "remove": [{"slice_id": booking.slices[0]["id"]}],
            "add": [
                {
                    "origin": "GRU",
                    "destination": "BSB",
                    "departure_date": day,
                    "cabin_class": "economy",
                }
            ],
        }
    }
    return client.post(f"{BOOKINGS}/{booking.pk}/change_requests", body, format="json", **headers)


def confirm(client, booking: Booking, offer: dict, **headers):
    body = {
        "change_offer_id": offer["id"],
        "payment": {
            "type": "balance",
            "amount": offer["change_total_amount"],
            "currency": offer["change_total_currency"],
        },
    }
    return client.post(f"{BOOKINGS}/{booking.pk}/changes", body, format="json", **headers)


def change_offers(client, booking: Booking, day: str = "2027-01-20") -> list[dict]:
    response = ask(client, booking, day)
    assert response.status_code == 201, response.content
    data = response.json()["data"]
    assert data["id"].startswith("ocr_") and data["booking_id"] == booking.pk
    assert data["change_offers"], data
    return data["change_offers"]


def movements(booking: Booking) -> list[tuple[str, Decimal]]:
    """The wallet's movements of the booking's changes, in order."""
    offer_ids = BookingChangeOffer.objects.filter(booking=booking).values_list("id", flat=True)
    return [
        (t.type, t.amount)
        for t in Transaction.objects.filter(
            reference_type="booking_change", reference_id__in=list(offer_ids)
        ).order_by("created_at", "id")
    ]


def balance(team) -> Decimal:
    return Wallet.objects.get(team=team).balance


@pytest.mark.django_db
def test_a_positive_difference_is_debited_once_and_the_slices_move(client, team):
    booking = ticketed(client, "Souza")
    rate = booking.exchange_rate
    offered = next(
        o
        for day in ("2027-01-20", "2027-01-08", "2027-01-22")
        for o in change_offers(client, booking, day)
        if Decimal(o["change_total_amount"]) > 0
    )
    cost = q(Decimal(offered["change_total_amount"]) * rate)
    assert offered["change_cost_brl"] == f"{cost}"
    assert Decimal(offered["client_change_amount"]) >= cost
    assert offered["exchange_rate_used"] == float(rate)
    assert offered["slices"]["remove"][0]["id"] == booking.slices[0]["id"]
    before = balance(team)

    changed = confirm(client, booking, offered, HTTP_IDEMPOTENCY_KEY="chg-1")

    assert changed.status_code == 200, changed.content
    data = changed.json()["data"]
    assert [s["id"] for s in data["slices"]] == [s["id"] for s in offered["slices"]["add"]]
    assert data["slices"][0]["segments"][0]["departing_at"].startswith(
        offered["slices"]["add"][0]["segments"][0]["departing_at"][:10]
    )
    assert data["total_amount"] == offered["new_total_amount"]
    assert movements(booking) == [("debit", cost)]
    assert balance(team) == before - cost
    # The same key answers again; a retry without it answers the booking, debiting nothing more.
    again = confirm(client, booking, offered, HTTP_IDEMPOTENCY_KEY="chg-1")
    assert again["Idempotent-Replayed"] == "true" and again.json()["data"] == data
    assert confirm(client, booking, offered).status_code == 200
    assert movements(booking) == [("debit", cost)]
    updated = Event.objects.filter(type="booking.updated").latest("created_at")
    assert updated.previous_attributes["slices"][0]["id"] == (offered["slices"]["remove"][0]["id"])
    assert BookingEmail.objects.filter(booking=booking, kind="booking_changed").exists()
    assert Event.objects.filter(type="wallet.debit", data_object__amount=f"{cost}").exists()
    # The home page's figures count what the change cost the wallet.
    figures = activity_figures(team=team, live_mode=True, when=periods())
    assert figures["spend_today"] == booking.base_cost_brl + cost
    assert ledger_problems() == []


@pytest.mark.django_db
def test_the_booking_page_lists_the_change_with_its_price_and_the_wallets_movement(client, team):
    from django.urls import reverse

    from agencies.tests.factories import SupportUserFactory
    from core.money import money_display
    from tests.kit.panel import browser_for

    booking = ticketed(client, "Souza")
    offered = next(
        o
        for day in ("2027-01-20", "2027-01-08", "2027-01-22")
        for o in change_offers(client, booking, day)
        if Decimal(o["change_total_amount"]) > 0
    )
    assert confirm(client, booking, offered).status_code == 200
    browser = browser_for(SupportUserFactory(), language="pt-br")

    page = browser.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content
    text = page.decode()

    assert "Alterações de voo feitas a pedido" in text
    assert offered["id"] in text
    assert money_display(Decimal(offered["client_change_amount"])) in text
    assert money_display(-Decimal(offered["change_cost_brl"])) in text  # what the wallet paid
    assert "Alteração de voo paga com a carteira" in text  # among the booking's movements


@pytest.mark.django_db
def test_the_flights_changed_email_is_portuguese(client, team):
    from bookings.emails import booking_email_message

    booking = ticketed(client, "Changecheaper")
    offered = change_offers(client, booking)[0]
    assert confirm(client, booking, offered).status_code == 200
    booking.refresh_from_db()

    message = booking_email_message(
        booking=booking,
        kind="booking_changed",
        passengers=list(booking.passengers.all()),
        documents=list(booking.documents.all()),
        to=["ana@example.com"],
    )

    assert message.subject.endswith(": os seus voos foram alterados")
    assert "Os seus voos foram alterados." in message.body
    price = money_display(Decimal(offered["client_change_amount"]), "BRL")
    assert price.startswith("-R$\N{NO-BREAK SPACE}")  # a refund the customer gets back
    assert f"Valor da alteração: {price}" in message.body
    assert offered["change_total_currency"] not in message.body  # never the airline's fare


@pytest.mark.django_db
def test_a_negative_difference_refunded_in_cash_is_credited(client, team):
    booking = ticketed(client, "Changecheaper")
    offered = change_offers(client, booking)[0]
    assert Decimal(offered["change_total_amount"]) < 0
    assert offered["refund_to"] == "original_form_of_payment"
    before = balance(team)

    changed = confirm(client, booking, offered)

    assert changed.status_code == 200, changed.content
    credit = -Decimal(offered["change_cost_brl"])
    assert movements(booking) == [("credit", credit)]
    assert balance(team) == before + credit
    booking.refresh_from_db()
    assert booking.total_amount == Decimal(offered["new_total_amount"])
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_refund_to_a_voucher_credits_nothing(client, team):
    booking = ticketed(client, "Changevoucher")
    offered = change_offers(client, booking)[0]
    assert (Decimal(offered["change_total_amount"]) < 0, offered["refund_to"]) == (
        True,
        "voucher",
    )
    before = balance(team)

    assert confirm(client, booking, offered).status_code == 200

    assert movements(booking) == []
    assert balance(team) == before
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_fare_without_changes_and_a_refusing_airline_are_409(client):
    fixed = ticketed(client, "Souza", allowed=False)
    refused = ask(client, fixed)
    assert refused.status_code == 409
    assert refused.json()["error"]["message"] == "The fare's conditions do not allow changes"

    refusing = ticketed(client, "Changerefused")
    answer = ask(client, refusing)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "booking_not_changeable"
    assert answer.json()["error"]["message"] == "The airline refused the change"
    assert ledger_problems() == []


@pytest.mark.django_db
def test_an_unknown_slice_is_400(client):
    booking = ticketed(client, "Souza")
    body = {
        "slices": {
            "remove": [{"slice_id": "sli_nope"}],
            "add": [
                {
                    "origin": "GRU",
                    "destination": "BSB",
                    "departure_date": "2027-01-20",
                    "cabin_class": "economy",
                }
            ],
        }
    }
    response = client.post(f"{BOOKINGS}/{booking.pk}/change_requests", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {
        "slices.remove[0].slice_id": ["Not a slice of this booking."]
    }


@pytest.mark.django_db
def test_an_expired_offer_is_409_and_moves_nothing(client):
    booking = ticketed(client, "Souza")
    offered = change_offers(client, booking)[0]
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        expired = confirm(client, booking, offered)
    assert expired.status_code == 409
    assert expired.json()["error"]["code"] == "change_offer_expired"
    assert movements(booking) == []
    booking.refresh_from_db()
    assert booking.slices[0]["id"] == offered["slices"]["remove"][0]["id"]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_balance_too_low_is_422_with_nothing_written(live_client, team, settings):
    settings.FLIGHTS_LIVE_SANDBOX = True
    offer = changeable_offer(live_client)
    fund(team, offer["base_cost_brl"])  # exactly the booking: nothing left for a change
    response = book(live_client, offer, type="instant")
    assert response.status_code == 201, response.content
    booking = Booking.objects.get(pk=response.json()["id"])
    offered = next(
        o
        for day in ("2027-01-20", "2027-01-08", "2027-01-22")
        for o in change_offers(live_client, booking, day)
        if Decimal(o["change_total_amount"]) > 0
    )
    transactions = Transaction.objects.count()

    refused = confirm(live_client, booking, offered)

    assert refused.status_code == 422
    assert refused.json()["error"]["message"] == "Insufficient balance"
    assert Transaction.objects.count() == transactions
    assert set(BookingChangeOffer.objects.values_list("status", flat=True)) == {"offered"}
    booking.refresh_from_db()
    assert booking.slices[0]["id"] == offered["slices"]["remove"][0]["id"]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_a_lost_confirmation_is_settled_once_by_the_reconcile_job(client, team):
    booking = ticketed(client, "Changelost")
    offered = change_offers(client, booking)[0]

    lost = confirm(client, booking, offered)

    assert lost.status_code == 502
    assert lost.json()["error"]["code"] == "change_outcome_unknown"
    row = BookingChangeOffer.objects.get(pk=offered["id"])
    assert row.status == "unknown"
    booking.refresh_from_db()
    assert booking.slices[0]["id"] == offered["slices"]["remove"][0]["id"]  # not moved yet
    debited = movements(booking)
    assert ask(client, booking).json()["error"]["code"] == "change_in_progress"

    bookings_outcomes_reconcile()  # the task runs at once in the tests (eager)

    assert BookingChangeOffer.objects.get(pk=offered["id"]).status == "confirmed"
    assert booking_change_check(change_offer_id=offered["id"]) == "settled"
    assert movements(booking) == debited  # nothing moved twice
    booking.refresh_from_db()
    assert booking.slices[0]["id"] == offered["slices"]["add"][0]["id"]
    assert booking.total_amount == Decimal(offered["new_total_amount"])
    assert ledger_problems() == []


@pytest.mark.django_db(transaction=True)
@needs_postgresql("row locks and concurrent confirmations")
def test_racing_confirmations_debit_once(client):
    from bookings.inputs import PaymentInput

    booking = ticketed(client, "Souza")
    offered = next(
        o
        for day in ("2027-01-20", "2027-01-08", "2027-01-22")
        for o in change_offers(client, booking, day)
        if Decimal(o["change_total_amount"]) > 0
    )
    payment = PaymentInput(
        amount=Decimal(offered["change_total_amount"]), currency=offered["change_total_currency"]
    )
    threads_count = 6
    start, outcomes = threading.Barrier(threads_count), []

    def run():
        try:
            start.wait()
            try:
                booking_change_confirm(
                    booking=booking, change_offer_id=offered["id"], payment=payment
                )
                outcomes.append("changed")
            except ApplicationError as exc:
                outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    counted = Counter(outcomes)
    assert counted["changed"] >= 1, counted
    assert set(counted) <= {"changed", "change_in_progress"}, counted
    assert movements(booking) == [("debit", Decimal(offered["change_cost_brl"]))]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_supports_check_now_settles_a_lost_change(client):
    from bookings.services import booking_check_with_supplier

    booking = ticketed(client, "Changelost")
    offered = change_offers(client, booking)[0]
    assert confirm(client, booking, offered).status_code == 502

    assert booking_check_with_supplier(booking=booking) == "confirmed"

    booking.refresh_from_db()
    assert booking.slices[0]["id"] == offered["slices"]["add"][0]["id"]
    assert ledger_problems() == []


@pytest.mark.django_db
def test_an_offer_made_before_another_change_is_409_and_nothing_cancels_a_change_in_flight(
    client,
):
    booking = ticketed(client, "Changelost")
    first, second = change_offers(client, booking)[:2]
    assert confirm(client, booking, first).status_code == 502  # unknown: a change in flight
    cancelling = client.post(f"{BOOKINGS}/{booking.pk}/cancellations")
    assert cancelling.status_code == 409
    assert cancelling.json()["error"]["code"] == "change_in_progress"
    bookings_outcomes_reconcile()

    stale = confirm(client, booking, second)

    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "change_offer_expired"
    booking.refresh_from_db()
    assert [s["id"] for s in booking.slices] == [first["slices"]["add"][0]["id"]]
    assert ledger_problems() == []
