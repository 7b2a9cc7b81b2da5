"""Changing flights over the API against the Duffel-shaped server (fake_duffel, real HTTP):
`POST /bookings/:id/change_requests` (Duffel's order change request and its offers), then
`POST /bookings/:id/changes` (an order change created and confirmed, the order read back), with
the fake's scenarios by the first passenger's family name: a difference to pay (debited once),
a cash refund (credited), a voucher (0.00), the airline refusing, an offer expiring, a
confirmation whose answer is lost (settled once by the reconcile job). The ledger checks out
after each."""

from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from bookings.models import Booking, BookingChangeOffer, BookingDocument
from flights.tests import duffel_kit
from flights.tests.duffel_kit import brl, payment, person, search
from tests.kit.factories import fund
from wallet.models import Transaction

pytestmark = pytest.mark.django_db
duffel = duffel_kit.duffel  # the fake Duffel, the team connected to it for live mode


def ticketed(client, family_name: str, currency: str = "USD") -> dict:
    """An instant booking of the fake's USD fare (changes allowed, penalty 25.00) or EUR fare
    (no changes), paid and ticketed, its passenger named `family_name`."""
    offer = next(
        o
        for o in search(client, [{"type": "adult", "count": 1}])["offers"]
        if o["total_currency"] == currency
    )
    passenger = {
        **person(offer["passengers"][0]["id"], given="Marina", born="1988-07-14"),
        "family_name": family_name,
    }
    response = client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [passenger],
            "payments": [payment(offer)],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    booking = response.json()
    assert booking["status"] == "ticketed"
    return booking


def ask(client, booking: dict, **headers):
    outbound = booking["slices"][0]
    body = {
        "slices": {
            "remove": [{"slice_id": outbound["id"]}],
            "add": [
                {
                    "origin": "GRU",
                    "destination": "LIS",
                    "departure_date": outbound["segments"][0]["departing_at"][:8] + "20",
                    "cabin_class": "economy",
                }
            ],
        }
    }
    return client.post(
        f"/api/v1/bookings/{booking['id']}/change_requests", body, format="json", **headers
    )


def confirm(client, booking: dict, offer: dict, **headers):
    body = {
        "change_offer_id": offer["id"],
        "payment": {
            "type": "balance",
            "amount": offer["change_total_amount"],
            "currency": offer["change_total_currency"],
        },
    }
    return client.post(f"/api/v1/bookings/{booking['id']}/changes", body, format="json", **headers)


def first_offer(client, booking: dict) -> dict:
    response = ask(client, booking)
    assert response.status_code == 201, response.content
    return response.json()["data"]["change_offers"][0]


def movements(booking_id: str) -> list[tuple[str, Decimal]]:
    offer_ids = list(
        BookingChangeOffer.objects.filter(booking_id=booking_id).values_list("id", flat=True)
    )
    return [
        (t.type, t.amount)
        for t in Transaction.objects.filter(
            reference_type="booking_change", reference_id__in=offer_ids
        ).order_by("created_at", "id")
    ]


def assert_ledger_clean() -> None:
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()


def rate_of(booking_id: str) -> Decimal:
    return Booking.objects.get(pk=booking_id).exchange_rate


def test_a_difference_to_pay_is_debited_once_and_the_booking_follows(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Albuquerque")
    tickets = set(BookingDocument.objects.values_list("unique_identifier", flat=True))

    asked = ask(live_client, booking, HTTP_IDEMPOTENCY_KEY="cr-1")

    assert asked.status_code == 201, asked.content
    data = asked.json()["data"]
    assert data["id"].startswith("ocr_") and data["booking_id"] == booking["id"]
    again = ask(live_client, booking, HTTP_IDEMPOTENCY_KEY="cr-1")
    assert again["Idempotent-Replayed"] == "true" and again.json()["data"]["id"] == data["id"]
    assert len(duffel.state.change_requests) == 1  # Duffel asked once
    [offer, dearer] = data["change_offers"]
    half = Decimal(booking["total_amount"]) / 2
    share = half.quantize(Decimal("0.01"))
    assert (
        offer["change_total_amount"] == f"{share * Decimal('1.2') - share + Decimal('25.00'):.2f}"
    )
    assert Decimal(dearer["change_total_amount"]) > Decimal(offer["change_total_amount"])
    assert (offer["penalty_amount"], offer["penalty_currency"]) == ("25.00", "USD")
    assert offer["refund_to"] is None
    cost = brl(Decimal(offer["change_total_amount"]) * rate_of(booking["id"]))
    assert offer["change_cost_brl"] == f"{cost}"
    assert offer["slices"]["remove"][0]["id"] == booking["slices"][0]["id"]
    assert movements(booking["id"]) == []  # asking moves nothing

    changed = confirm(live_client, booking, offer, HTTP_IDEMPOTENCY_KEY="ch-1")

    assert changed.status_code == 200, changed.content
    result = changed.json()["data"]
    assert result["total_amount"] == offer["new_total_amount"]
    assert [s["id"] for s in result["slices"]] == [
        offer["slices"]["add"][0]["id"],
        booking["slices"][1]["id"],
    ]
    assert result["slices"][0]["segments"][0]["departing_at"][8:10] == "20"
    new_tickets = {d["unique_identifier"] for d in result["documents"]}
    assert new_tickets and not new_tickets & tickets  # the airline reissued them
    assert movements(booking["id"]) == [("debit", cost)]
    [order] = duffel.state.orders.values()
    assert order["total_amount"] == offer["new_total_amount"]
    replayed = confirm(live_client, booking, offer, HTTP_IDEMPOTENCY_KEY="ch-1")
    assert replayed["Idempotent-Replayed"] == "true" and replayed.json()["data"] == result
    assert confirm(live_client, booking, offer).status_code == 200  # no key: the same booking
    assert movements(booking["id"]) == [("debit", cost)]
    assert len(duffel.state.order_changes) == 1
    assert_ledger_clean()


def test_a_cash_refund_is_credited(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Changecheaper")
    offer = first_offer(live_client, booking)
    assert Decimal(offer["change_total_amount"]) < 0
    assert offer["refund_to"] == "original_form_of_payment"

    changed = confirm(live_client, booking, offer)

    assert changed.status_code == 200, changed.content
    credit = -brl(Decimal(offer["change_total_amount"]) * rate_of(booking["id"]))
    assert movements(booking["id"]) == [("credit", credit)]
    assert changed.json()["data"]["total_amount"] == offer["new_total_amount"]
    assert_ledger_clean()


def test_a_voucher_refund_credits_nothing(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Changevoucher")
    offer = first_offer(live_client, booking)
    assert offer["refund_to"] == "voucher"

    assert confirm(live_client, booking, offer).status_code == 200

    assert movements(booking["id"]) == []
    assert_ledger_clean()


def test_a_fare_without_changes_or_an_airline_refusing_is_409(duffel, live_client, team):
    fund(team, "50000.00")
    fixed = ticketed(live_client, "Albuquerque", currency="EUR")
    refused = ask(live_client, fixed)
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "booking_not_changeable"
    assert duffel.state.change_requests == {}  # refused before asking the airline

    refusing = ticketed(live_client, "Changerefused")
    answer = ask(live_client, refusing)
    assert answer.status_code == 409
    assert answer.json()["error"]["message"] == "The airline refused the change"
    assert answer.json()["error"]["details"]["supplier_code"] == ["change_not_allowed"]
    assert_ledger_clean()


def test_an_expired_offer_is_409_and_moves_nothing(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Albuquerque")
    offer = first_offer(live_client, booking)
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        expired = confirm(live_client, booking, offer)
    assert expired.status_code == 409
    assert expired.json()["error"]["code"] == "change_offer_expired"
    assert movements(booking["id"]) == []  # refused before anything was debited
    assert duffel.state.order_changes == {}
    assert_ledger_clean()


def test_an_offer_the_airline_expired_early_gives_its_debit_back(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Changeexpires")  # the airline's offers live 2 seconds
    offer = first_offer(live_client, booking)
    cost = brl(Decimal(offer["change_total_amount"]) * rate_of(booking["id"]))
    # Our copy says it expires later than the airline does (clocks apart, say).
    BookingChangeOffer.objects.filter(pk=offer["id"]).update(
        expires_at=timezone.now() + timedelta(minutes=10)
    )
    with time_machine.travel(timezone.now() + timedelta(seconds=3)):
        expired = confirm(live_client, booking, offer)
    assert expired.status_code == 409
    assert expired.json()["error"]["code"] == "change_offer_expired"
    assert movements(booking["id"]) == [("debit", cost), ("credit", cost)]
    assert BookingChangeOffer.objects.get(pk=offer["id"]).status == "failed"
    read = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    assert read["slices"] == booking["slices"]
    assert_ledger_clean()


def test_a_lost_confirmation_is_settled_once_by_the_reconcile_job(duffel, live_client, team):
    from bookings.services.changes import booking_change_check, booking_changes_unsettled

    fund(team, "50000.00")
    booking = ticketed(live_client, "Changelost")
    offer = first_offer(live_client, booking)
    cost = brl(Decimal(offer["change_total_amount"]) * rate_of(booking["id"]))

    lost = confirm(live_client, booking, offer)

    assert lost.status_code == 502
    assert lost.json()["error"]["code"] == "change_outcome_unknown"
    assert movements(booking["id"]) == [("debit", cost)]  # paid when claimed, once
    read = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    assert read["slices"] == booking["slices"]  # nothing recorded on a lost answer
    again = confirm(live_client, booking, offer)
    assert again.json()["error"]["code"] == "change_in_progress"

    assert booking_changes_unsettled() == [offer["id"]]
    assert booking_change_check(change_offer_id=offer["id"]) == "confirmed"
    assert booking_change_check(change_offer_id=offer["id"]) == "settled"
    assert booking_changes_unsettled() == []

    assert movements(booking["id"]) == [("debit", cost)]
    settled = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    assert settled["slices"][0]["id"] == offer["slices"]["add"][0]["id"]
    assert settled["total_amount"] == offer["new_total_amount"]
    assert_ledger_clean()


def test_a_5xx_confirmation_never_made_gives_the_debit_back_after_the_grace_period(
    duffel, live_client, team, settings
):
    from bookings.services.changes import booking_change_check

    fund(team, "50000.00")
    booking = ticketed(live_client, "Changedown")
    offer = first_offer(live_client, booking)
    cost = brl(Decimal(offer["change_total_amount"]) * rate_of(booking["id"]))

    down = confirm(live_client, booking, offer)

    assert down.status_code == 502
    assert down.json()["error"]["code"] == "change_outcome_unknown"
    assert booking_change_check(change_offer_id=offer["id"]) == "unknown"  # too early to tell
    assert movements(booking["id"]) == [("debit", cost)]
    later = timezone.now() + timedelta(seconds=settings.SUPPLIER_UNKNOWN_GRACE_SECONDS + 1)
    with time_machine.travel(later):
        assert booking_change_check(change_offer_id=offer["id"]) == "failed"
        assert booking_change_check(change_offer_id=offer["id"]) == "settled"
    assert movements(booking["id"]) == [("debit", cost), ("credit", cost)]
    read = live_client.get(f"/api/v1/bookings/{booking['id']}").json()
    assert read["slices"] == booking["slices"]
    assert read["total_amount"] == booking["total_amount"]
    assert_ledger_clean()
