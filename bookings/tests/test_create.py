from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine

from bookings.models import Booking
from wallet.models import Transaction, Wallet
from wallet.tests.factories import fund
from webhooks.models import Event

# Live keys here book the sandbox supplier: allowed explicitly (FLIGHTS_LIVE_SANDBOX).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_sandbox")]

NOW = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)
BOOKINGS = "/api/v1/bookings"


@pytest.fixture(autouse=True)
def frozen_time():
    with time_machine.travel(NOW, tick=False):
        yield


def offers(client, *, origin="GRU", destination="BSB", passengers=None):
    body = {
        "type": "one_way",
        "slices": [{"origin": origin, "destination": destination, "departureDate": "2027-01-15"}],
        "passengers": passengers or [{"type": "adult", "count": 1}],
    }
    return client.post("/api/v1/flights/search", body, format="json").json()["offers"]


def holdable(client, **kwargs):
    return next(
        o
        for o in offers(client, **kwargs)
        if not o["payment_requirements"]["requires_instant_payment"]
    )


def person(pid, *, given="Ana", family="Souza", born="1990-05-01", **extra):
    return {
        "id": pid,
        "given_name": given,
        "family_name": family,
        "gender": "f",
        "title": "ms",
        "born_on": born,
        "email": "ana@example.com",
        "phone_number": "+5511987654321",
        **extra,
    }


def book(client, offer, *, type="hold", people=None, payments=None, **extra):
    body = {
        "offerId": offer["id"],
        "type": type,
        "passengers": people or [person(offer["passengers"][0]["id"])],
        **extra,
    }
    if payments is not None:
        body["payments"] = payments
    elif type == "instant":
        body["payments"] = [
            {
                "type": "balance",
                "amount": offer["total_amount"],
                "currency": offer["total_currency"],
            }
        ]
    return client.post(BOOKINGS, body, format="json")


def error(response):
    return response.status_code, response.json()["error"]["message"]


def test_hold_is_pending_without_a_debit_and_feeds_pending_amount(live_client, team):
    fund(team.team, "10000.00")
    offer = holdable(live_client)
    response = book(live_client, offer, metadata={"ref": "ABC-1"})
    assert response.status_code == 201
    booking = response.json()
    assert "success" not in booking  # unwrapped, as the spec says
    assert booking["status"] == "pending" and booking["id"].startswith("ord_")
    assert len(booking["booking_reference"]) == 6 and booking["live_mode"] is True
    assert booking["metadata"] == {"ref": "ABC-1"}
    assert booking["payment_status"]["awaiting_payment"] is True
    deadline = datetime.fromisoformat(booking["payment_status"]["payment_required_by"])
    assert timedelta(hours=24) <= deadline - NOW <= timedelta(hours=72)
    assert booking["total_amount"] == offer["total_amount"] and booking["documents"] == []
    segment_passenger = booking["slices"][0]["segments"][0]["passengers"][0]
    assert set(segment_passenger) == {"passenger_id", "cabin_class", "seat", "baggages"}
    assert Wallet.objects.get(team=team.team).balance == Decimal("10000.00")
    balance = live_client.get("/api/v1/wallet/balance").json()["data"]
    assert balance["pending_amount"] == offer["base_cost_brl"]
    assert Decimal(balance["available_credit"]) == Decimal("10000.00") - Decimal(
        offer["base_cost_brl"]
    )
    assert Event.objects.filter(type="booking.created").count() == 1
    assert live_client.get(f"{BOOKINGS}/{booking['id']}").json() == booking


def test_instant_booking_debits_base_cost_and_is_ticketed(live_client, team):
    fund(team.team, "20000.00")
    offer = offers(live_client)[0]
    booking = book(live_client, offer, type="instant").json()
    assert booking["status"] == "ticketed"
    [document] = booking["documents"]
    assert document["type"] == "electronic_ticket" and len(document["unique_identifier"]) == 13
    assert document["passenger_id"] == offer["passengers"][0]["id"]
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


def test_instant_issuance_failure_refunds_in_full(live_client, team):
    fund(team.team, "20000.00")
    offer = offers(live_client)[0]
    booking = book(
        live_client,
        offer,
        type="instant",
        people=[person(offer["passengers"][0]["id"], family="Issuancefail")],
    ).json()
    assert booking["status"] == "failed"
    assert Wallet.objects.get(team=team.team).balance == Decimal("20000.00")
    refund = Transaction.objects.get(type="credit", reference_type="refund")
    assert refund.amount == Decimal(offer["base_cost_brl"]) and refund.reference_id == booking["id"]
    assert Event.objects.filter(type="booking.failed").count() == 1


def test_instant_with_insufficient_balance_leaves_nothing(live_client, team):
    fund(team.team, "100.00")
    offer = offers(live_client)[0]
    assert error(book(live_client, offer, type="instant")) == (422, "Insufficient balance")
    assert not Booking.objects.exists() and not Transaction.objects.filter(type="debit").exists()
    assert not Event.objects.filter(type__startswith="booking.").exists()


def test_test_mode_instant_uses_the_sandbox_wallet(test_client, team):
    offer = offers(test_client)[0]
    response = book(test_client, offer, type="instant")
    assert response.status_code == 201 and response.json()["status"] == "ticketed"
    assert response.json()["live_mode"] is False
    assert Transaction.objects.get(type="debit").balance_after == Decimal("5000.00")


def test_an_offer_is_booked_only_once(live_client, team):
    offer = holdable(live_client)
    assert book(live_client, offer).status_code == 201
    response = book(live_client, offer)
    assert response.status_code == 409 and response.json()["error"]["code"] == (
        "offer_already_booked"
    )


def test_unknown_other_teams_and_expired_offers(live_client, test_client, team):
    offer = holdable(live_client)
    assert book(test_client, offer).status_code == 404  # another mode
    assert book(live_client, {**offer, "id": "off_unknown"}).status_code == 404
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        assert error(book(live_client, offer)) == (400, "Offer expired")


def test_an_expired_offer_answers_expired_until_purged_an_hour_later(live_client):
    from flights.tasks import purge_expired_offers

    offer = holdable(live_client)
    expired = datetime.fromisoformat(offer["expires_at"]) + timedelta(seconds=1)
    with time_machine.travel(expired + timedelta(minutes=55), tick=False):
        purge_expired_offers()
        assert error(book(live_client, offer)) == (400, "Offer expired")
    with time_machine.travel(expired + timedelta(minutes=65), tick=False):
        purge_expired_offers()
        assert error(book(live_client, offer)) == (404, "Offer not found")
    assert not Booking.objects.exists()


def test_a_booking_keeps_exactly_what_the_search_showed(live_client):
    offer = holdable(live_client, origin="GRU", destination="LIS")
    booking = book(
        live_client,
        offer,
        people=[
            person(
                offer["passengers"][0]["id"],
                identity_documents=[
                    {
                        "type": "passport",
                        "unique_identifier": "FX123456",
                        "issuing_country_code": "BR",
                        "expires_on": "2031-01-01",
                    }
                ],
            )
        ],
    ).json()
    assert booking["owner"] == offer["owner"]
    assert booking["conditions"] == offer["conditions"]
    for booked, shown in zip(booking["slices"], offer["slices"], strict=True):
        assert {k: v for k, v in booked.items() if k != "segments"} == {
            k: v for k, v in shown.items() if k != "segments"
        }
        for booked_segment, shown_segment in zip(
            booked["segments"], shown["segments"], strict=True
        ):
            assert {k: v for k, v in booked_segment.items() if k != "passengers"} == {
                k: v for k, v in shown_segment.items() if k != "passengers"
            }
            assert booked_segment["passengers"] == [
                {
                    "passenger_id": p["passenger_id"],
                    "cabin_class": p["cabin_class"],
                    "seat": None,
                    "baggages": p["baggages"],
                }
                for p in shown_segment["passengers"]
            ]


def test_hold_of_an_instant_only_offer_is_refused(live_client):
    offer = next(
        o for o in offers(live_client) if o["payment_requirements"]["requires_instant_payment"]
    )
    response = book(live_client, offer)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "instant_payment_required"


@pytest.mark.parametrize(
    "change, field",
    [
        ({"given_name": ""}, "given_name"),
        ({"gender": "x"}, "gender"),
        ({"title": "sir"}, "title"),
        ({"born_on": "01/05/1990"}, "born_on"),
        ({"born_on": "2020-01-01"}, "born_on"),  # a 6-year-old is not an adult
        ({"email": "nope"}, "email"),
        ({"phone_number": "11987654321"}, "phone_number"),
        ({"id": "pas_other"}, "id"),
    ],
)
def test_invalid_passenger_data_names_passenger_and_field(live_client, change, field):
    offer = holdable(live_client)
    passenger = {**person(offer["passengers"][0]["id"]), **change}
    response = book(live_client, offer, people=[passenger])
    assert error(response) == (400, "Invalid passenger data")
    assert list(response.json()["error"]["details"]) == [f"passengers[0].{field}"]


def test_infants_travel_with_exactly_one_adult(live_client):
    offer = holdable(
        live_client,
        passengers=[{"type": "adult", "count": 1}, {"type": "infant_without_seat", "count": 1}],
    )
    adult_id, infant_id = (p["id"] for p in offer["passengers"])
    infant = person(infant_id, given="Bia", born="2026-06-01")
    lone = book(live_client, offer, people=[person(adult_id), infant])
    assert error(lone) == (400, "Invalid passenger data")
    carried = book(
        live_client, offer, people=[person(adult_id, infant_passenger_id=infant_id), infant]
    )
    assert carried.status_code == 201
    assert [p["type"] for p in carried.json()["passengers"]] == ["adult", "infant_without_seat"]


def test_international_itineraries_need_a_valid_passport(live_client, team):
    offer = holdable(live_client, destination="LIS")
    pid = offer["passengers"][0]["id"]
    assert error(book(live_client, offer, people=[person(pid)])) == (400, "Passport required")
    expired = {
        "type": "passport",
        "unique_identifier": "FX123456",
        "issuing_country_code": "BR",
        "expires_on": "2027-01-10",
    }
    assert error(book(live_client, offer, people=[person(pid, identity_documents=[expired])])) == (
        400,
        "Passport required",
    )
    valid = {**expired, "expires_on": "2030-01-01"}
    assert (
        book(live_client, offer, people=[person(pid, identity_documents=[valid])]).status_code
        == 201
    )


@pytest.mark.parametrize(
    "payments, message",
    [
        (None, "Invalid request parameters"),
        ([], "Invalid request parameters"),
        ([{"type": "balance", "amount": "1.00", "currency": "BRL"}], "Payment amount mismatch"),
    ],
)
def test_instant_payment_must_match_the_offer(live_client, team, payments, message):
    fund(team.team, "20000.00")
    offer = offers(live_client)[0]
    body = {
        "offerId": offer["id"],
        "type": "instant",
        "passengers": [person(offer["passengers"][0]["id"])],
    }
    if payments is not None:
        body["payments"] = payments
    response = live_client.post(BOOKINGS, body, format="json")
    assert error(response) == (400, message)
    assert not Booking.objects.exists()


def test_wrong_currency_is_a_mismatch(live_client, team):
    fund(team.team, "20000.00")
    offer = offers(live_client)[0]
    payment = {"type": "balance", "amount": offer["total_amount"], "currency": "XXX"}
    assert error(book(live_client, offer, type="instant", payments=[payment])) == (
        400,
        "Payment amount mismatch",
    )


def test_booking_links_a_client_by_lead_passenger_email(live_client, team):
    first = book(live_client, holdable(live_client)).json()
    second = book(live_client, holdable(live_client, destination="CNF")).json()
    clients = {Booking.objects.get(pk=b["id"]).client_id for b in (first, second)}
    assert len(clients) == 1


def test_get_of_another_teams_booking_is_404(live_client, other_team):
    from rest_framework.test import APIClient

    booking = book(live_client, holdable(live_client)).json()
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {other_team.live_key}")
    response = other.get(f"{BOOKINGS}/{booking['id']}")
    assert error(response) == (404, "Booking not found")
