"""The price actually quoted, the airline's document rules and loyalty accounts, over the API
against the Duffel-shaped server (fake_duffel, real HTTP): a hold whose price moved once its
price guarantee ended is refused `409 price_changed` (nothing debited), then confirmed at the
new total, debited once; an offer that wants a document from every passenger refuses a
passenger without one; a document type the airline does not take is not sent; loyalty accounts
reach the airline's order. The ledger checks out after each."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from agencies.pricing import price_offer
from bookings.models import Booking
from flights.tests import duffel_kit
from flights.tests.duffel_kit import brl, person, search
from tests.kit.factories import fund
from wallet.models import Transaction
from webhooks.models import Event

pytestmark = pytest.mark.django_db
duffel = duffel_kit.duffel  # the fake Duffel, the team connected to it for live mode


def offer_in(client, currency: str) -> dict:
    offers = search(client, [{"type": "adult", "count": 1}])["offers"]
    return next(o for o in offers if o["total_currency"] == currency)


def passenger_of(offer: dict, family_name: str = "Albuquerque", **extra) -> dict:
    return {
        **person(offer["passengers"][0]["id"], given="Marina", born="1988-07-14"),
        "family_name": family_name,
        **extra,
    }


def debits(booking_id: str) -> list[Decimal]:
    return [
        t.amount
        for t in Transaction.objects.filter(
            type="debit", reference_type="booking", reference_id=booking_id
        )
    ]


def assert_ledger_clean() -> None:
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "consistent" in out.getvalue()


def confirm(client, booking_id: str, amount: str, currency: str):
    return client.put(
        f"/api/v1/bookings/{booking_id}/confirm",
        {"payment": {"type": "balance", "amount": amount, "currency": currency}},
        format="json",
    )


def test_a_hold_whose_price_moved_is_refused_then_confirmed_at_the_new_total(
    duffel, live_client, team, django_capture_on_commit_callbacks
):
    fund(team, "50000.00")
    offer = offer_in(live_client, "USD")  # 400.00 + 15 % taxes, holdable
    held = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "hold",
            "passengers": [passenger_of(offer, "Pricechange")],
        },
        format="json",
    )
    assert held.status_code == 201, held.content
    booking_id = held.json()["id"]
    assert held.json()["total_amount"] == "460.00"

    # The guarantee ended as the hold was made; the airline now asks 10 % more.
    refused = confirm(live_client, booking_id, "460.00", "USD")

    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "price_changed"
    rate = Decimal(str(offer["exchange_rate_used"]))
    new = price_offer(
        total_amount=Decimal("506.00"),
        total_currency="USD",
        exchange_rate=rate,
        markup_percent=team.markup_percent,
        fee=team.fee.amount,
    )
    # (`details`: the one error shape, each value a list.)
    assert error["details"] == {
        "total_amount": ["506.00"],
        "total_currency": ["USD"],
        "client_amount": [f"{new.client_amount}"],
        "client_currency": ["BRL"],
        "base_cost_brl": [f"{new.base_cost_brl}"],
        "previous_total_amount": ["460.00"],
    }
    assert debits(booking_id) == []  # nothing debited
    assert [p for p in duffel.state.requests if p[1] == "/air/payments"] == []
    # The booking shows the airline's price now, and said so once.
    shown = live_client.get(f"/api/v1/bookings/{booking_id}").json()
    assert (shown["status"], shown["total_amount"]) == ("pending", "506.00")
    [updated] = Event.objects.filter(type="booking.updated", data_object__id=booking_id)
    assert updated.previous_attributes == {"total_amount": "460.00"}
    assert updated.data_object["total_amount"] == "506.00"
    # The old total again: refused as the spec refuses a payment that is not the total.
    assert confirm(live_client, booking_id, "460.00", "USD").json()["error"]["code"] == (
        "payment_amount_mismatch"
    )

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = confirm(live_client, booking_id, "506.00", "USD")

    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["data"]["status"] in ("confirmed", "ticketed")
    booking = Booking.objects.get(pk=booking_id)
    assert booking.status == Booking.Status.TICKETED
    assert (booking.base_cost_brl, booking.client_amount) == (new.base_cost_brl, new.client_amount)
    assert booking.base_cost_brl == brl(Decimal("506.00") * rate)
    assert debits(booking_id) == [new.base_cost_brl]  # the new cost, exactly once
    [order] = duffel.state.orders.values()
    assert order["payments"][0]["amount"] == "506.00"  # Duffel was paid its new total
    assert confirm(live_client, booking_id, "506.00", "USD").status_code == 409  # confirmed
    assert debits(booking_id) == [new.base_cost_brl]
    assert_ledger_clean()


def test_a_hold_within_its_price_guarantee_is_paid_without_asking_the_airline(
    duffel, live_client, team, django_capture_on_commit_callbacks
):
    fund(team, "50000.00")
    offer = offer_in(live_client, "USD")
    held = live_client.post(
        "/api/v1/bookings",
        {"offerId": offer["id"], "type": "hold", "passengers": [passenger_of(offer)]},
        format="json",
    ).json()
    reads = len([r for r in duffel.state.requests if r[0] == "GET"])

    with django_capture_on_commit_callbacks(execute=True):
        response = confirm(live_client, held["id"], "460.00", "USD")

    assert response.status_code == 200, response.content
    assert debits(held["id"]) == [Decimal(offer["base_cost_brl"])]
    # Paid, then read back for its tickets: no price check before paying.
    assert len([r for r in duffel.state.requests if r[0] == "GET"]) == reads + 1
    assert_ledger_clean()


def test_offers_carry_the_airlines_document_rules(duffel, live_client):
    offers = search(live_client, [{"type": "adult", "count": 1}])["offers"]
    rules = {
        o["owner"]["iata_code"]: (
            o["passenger_identity_documents_required"],
            o["allowed_passenger_identity_document_types"],
        )
        for o in offers
    }
    assert rules == {"ZZ": (False, ["passport", "tax_id"]), "TP": (True, ["passport"])}


def domestic_offer(client, currency: str) -> dict:
    body = {
        "type": "one_way",
        "slices": [
            {"origin": "GRU", "destination": "SSA", "departureDate": duffel_kit.departure(40)}
        ],
        "passengers": [{"type": "adult", "count": 1}],
    }
    response = client.post("/api/v1/flights/search", body, format="json")
    assert response.status_code == 200, response.content
    return next(o for o in response.json()["offers"] if o["total_currency"] == currency)


def test_a_required_document_missing_is_invalid_passenger_data(duffel, live_client, team):
    fund(team, "50000.00")
    offer = domestic_offer(live_client, "EUR")  # TAP: a document from everyone, even at home
    passenger = passenger_of(offer, identity_documents=[])

    response = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [passenger],
            "payments": [duffel_kit.payment(offer)],
        },
        format="json",
    )

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert (error["code"], error["message"]) == ("invalid_passenger_data", "Invalid passenger data")
    assert error["details"] == {
        "passengers[0].identity_documents": [
            "The airline requires an identity document for every passenger: one of passport."
        ]
    }
    assert duffel.state.orders == {}
    assert Transaction.objects.filter(type="debit").count() == 0


def test_documents_the_airline_does_not_take_are_not_sent_and_loyalty_accounts_are(
    duffel, live_client, team
):
    fund(team, "50000.00")
    offer = offer_in(live_client, "EUR")  # TAP takes passports only, one per passenger
    cpf = {
        "type": "tax_id",
        "unique_identifier": "390.533.447-05",
        "issuing_country_code": "BR",
        "expires_on": "2040-01-01",
    }
    passenger = passenger_of(
        offer,
        loyalty_programme_accounts=[{"airline_iata_code": "TP", "account_number": "123456789"}],
    )
    passenger["identity_documents"] = [cpf, *passenger["identity_documents"]]

    response = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [passenger],
            "payments": [duffel_kit.payment(offer)],
        },
        format="json",
    )

    assert response.status_code == 201, response.content
    [order] = duffel.state.orders.values()
    [sent] = order["passengers"]
    assert [d["type"] for d in sent["identity_documents"]] == ["passport"]
    assert sent["loyalty_programme_accounts"] == [
        {"airline_iata_code": "TP", "account_number": "123456789"}
    ]
    # Both documents are kept on the booking, the CPF as its digits.
    kept = Booking.objects.get(pk=response.json()["id"]).passengers.get().identity_documents
    assert [d["type"] for d in kept] == ["tax_id", "passport"]
    assert kept[0]["unique_identifier"] == "39053344705"
    assert_ledger_clean()


def test_a_br_tax_id_must_be_a_cpf_with_valid_check_digits(duffel, live_client, team):
    fund(team, "50000.00")
    offer = offer_in(live_client, "USD")
    passenger = passenger_of(offer)
    passenger["identity_documents"].append(
        {
            "type": "tax_id",
            "unique_identifier": "390.533.447-06",  # the last check digit is wrong
            "issuing_country_code": "BR",
            "expires_on": "2040-01-01",
        }
    )

    response = live_client.post(
        "/api/v1/bookings",
        {"offerId": offer["id"], "type": "hold", "passengers": [passenger]},
        format="json",
    )

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_passenger_data"
    assert error["details"] == {
        "passengers[0].identity_documents[1].unique_identifier": [
            "Not a valid CPF (a BR tax_id): 11 digits with valid check digits."
        ]
    }
    assert duffel.state.orders == {}
