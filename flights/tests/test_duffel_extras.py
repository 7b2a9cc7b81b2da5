"""Extras on Duffel, end to end over the API against the fake Duffel (Duffel's documented shapes
for offers' available services, seat maps, order services): an instant booking with a bag and a
paid seat pays Duffel the offer plus them and debits the wallet their BRL cost once; a bag
added after the booking pays Duffel its price and debits it once; a lost answer is settled
from the order, once."""

from decimal import Decimal

import pytest

from bookings.models import Booking, BookingServicesPurchase
from flights.tests import duffel_kit
from flights.tests.duffel_kit import person, search
from tests.kit.factories import fund
from wallet.ledger_check import ledger_problems
from wallet.models import Transaction

pytestmark = pytest.mark.django_db

duffel = duffel_kit.duffel  # the fake Duffel, the team connected to it for live mode


def euros(client) -> dict:
    result = search(client, [{"type": "adult", "count": 1}])
    return next(o for o in result["offers"] if o["total_currency"] == "EUR")  # instant only


def paid_seat(seat_map: dict) -> tuple[dict, dict]:
    for row in seat_map["cabins"][0]["rows"]:
        for section in row["sections"]:
            for element in section["elements"]:
                for service in element.get("available_services") or []:
                    if Decimal(service["total_amount"]) > 0:
                        return element, service
    raise AssertionError("no paid seat")


def pay(amount: Decimal, currency: str) -> dict:
    return {"type": "balance", "amount": f"{amount:.2f}", "currency": currency}


def test_an_instant_booking_with_a_bag_and_a_paid_seat_on_duffel(duffel, live_client, team):
    fund(team, "50000.00")
    offer = euros(live_client)
    adult = offer["passengers"][0]["id"]

    bags = live_client.get(f"/api/v1/offers/{offer['id']}/available_services")
    assert bags.status_code == 200, bags.content
    bag = bags.json()["data"][0]
    assert bag["id"].startswith("ase_") and bag["type"] == "baggage"
    assert bag["passenger_ids"] == [adult]
    assert bag["segment_ids"] == [offer["slices"][0]["segments"][0]["id"]]
    assert (bag["total_amount"], bag["total_currency"], bag["maximum_quantity"]) == (
        "30.00",
        "EUR",
        2,
    )
    assert bag["metadata"]["maximum_weight_kg"] == 23
    rate = Decimal(str(offer["exchange_rate_used"]))
    assert Decimal(bag["base_cost_brl"]) == duffel_kit.brl(Decimal("30.00") * rate)

    maps = live_client.get(f"/api/v1/offers/{offer['id']}/seat_maps")
    assert maps.status_code == 200, maps.content
    seat_maps = maps.json()["data"]
    assert [m["segment_id"] for m in seat_maps] == [
        s["id"] for sl in offer["slices"] for s in sl["segments"]
    ]
    element, seat = paid_seat(seat_maps[0])
    assert seat["passenger_id"] == adult
    assert seat["client_currency"] == "BRL"
    assert Decimal(seat["base_cost_brl"]) == duffel_kit.brl(Decimal(seat["total_amount"]) * rate)

    total = (
        Decimal(offer["total_amount"])
        + Decimal(bag["total_amount"])
        + Decimal(seat["total_amount"])
    )
    response = live_client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [person(adult, given="Marina", born="1988-07-14")],
            "payments": [pay(total, "EUR")],
            "services": [{"id": bag["id"], "quantity": 1}, {"id": seat["id"], "quantity": 1}],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    booking = response.json()
    assert booking["status"] == "ticketed"
    assert booking["total_amount"] == f"{total:.2f}"
    assert [s["type"] for s in booking["services"]] == ["baggage", "seat"]
    first = booking["slices"][0]["segments"][0]["passengers"][0]
    assert first["seat"] == {
        "designator": element["designator"],
        "name": element["name"],
        "disclosures": element["disclosures"],
    }
    assert {"type": "checked", "quantity": 2} in first["baggages"]  # 1 included + 1 bought
    # Duffel was asked for them and paid the offer plus them, in EUR.
    [order] = duffel.state.orders.values()
    assert order["total_amount"] == f"{total:.2f}"
    assert [(s["type"], s["quantity"]) for s in order["services"]] == [
        ("baggage", 1),
        ("seat", 1),
    ]
    [debit] = Transaction.objects.filter(type="debit", reference_id=booking["id"])
    assert debit.amount == Decimal(offer["base_cost_brl"]) + Decimal(bag["base_cost_brl"]) + (
        Decimal(seat["base_cost_brl"])
    )
    assert ledger_problems() == []


def ticketed(client, family_name: str) -> dict:
    offer = euros(client)
    adult = offer["passengers"][0]["id"]
    person_ = person(adult, given="Marina", born="1988-07-14") | {"family_name": family_name}
    response = client.post(
        "/api/v1/bookings",
        {
            "offerId": offer["id"],
            "type": "instant",
            "passengers": [person_],
            "payments": [duffel_kit.payment(offer)],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_a_bag_added_after_booking_on_duffel_debits_its_price_once(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Albuquerque")
    listed = live_client.get(f"/api/v1/bookings/{booking['id']}/available_services")
    assert listed.status_code == 200, listed.content
    bag = listed.json()["data"][0]
    assert bag["segment_ids"] == [booking["slices"][0]["segments"][0]["id"]]
    assert bag["passenger_ids"] == [booking["passengers"][0]["id"]]
    response = live_client.post(
        f"/api/v1/bookings/{booking['id']}/services",
        {
            "add_services": [{"id": bag["id"], "quantity": 2}],
            "payment": pay(Decimal("60.00"), "EUR"),
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    data = response.json()["data"]
    assert Decimal(data["total_amount"]) == Decimal(booking["total_amount"]) + Decimal("60.00")
    assert [(s["id"], s["quantity"]) for s in data["services"]] == [(bag["id"], 2)]
    [order] = duffel.state.orders.values()
    assert order["total_amount"] == data["total_amount"]
    assert [(s["type"], s["quantity"]) for s in order["services"]] == [("baggage", 2)]
    [debit] = Transaction.objects.filter(reference_type="booking_services")
    assert debit.amount == Decimal(bag["base_cost_brl"]) * 2
    assert ledger_problems() == []


def test_a_wrong_payment_for_a_bag_on_duffel_reaches_nobody(duffel, live_client, team):
    fund(team, "50000.00")
    booking = ticketed(live_client, "Albuquerque")
    bag = live_client.get(f"/api/v1/bookings/{booking['id']}/available_services").json()["data"][0]
    asked = len(duffel.state.requests)
    response = live_client.post(
        f"/api/v1/bookings/{booking['id']}/services",
        {
            "add_services": [{"id": bag["id"], "quantity": 1}],
            "payment": pay(Decimal("1.00"), "EUR"),
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "payment_amount_mismatch"
    assert not any(path.endswith("/services") for _, path in duffel.state.requests[asked:])
    assert not BookingServicesPurchase.objects.exists()
    assert not Transaction.objects.filter(reference_type="booking_services").exists()
    assert ledger_problems() == []


def test_a_lost_answer_on_duffel_is_settled_once_from_the_order(duffel, live_client, team):
    from bookings.services.extras import booking_services_check

    fund(team, "50000.00")
    booking = ticketed(live_client, "Baglost")
    bag = live_client.get(f"/api/v1/bookings/{booking['id']}/available_services").json()["data"][0]
    response = live_client.post(
        f"/api/v1/bookings/{booking['id']}/services",
        {
            "add_services": [{"id": bag["id"], "quantity": 1}],
            "payment": pay(Decimal("30.00"), "EUR"),
        },
        format="json",
    )
    assert response.status_code == 502
    assert response.json()["error"]["code"] == "services_outcome_unknown"
    purchase = BookingServicesPurchase.objects.get()
    assert purchase.status == "unknown"
    assert booking_services_check(purchase_id=purchase.pk) == "confirmed"
    settled = Booking.objects.get(pk=booking["id"])
    assert settled.total_amount == Decimal(booking["total_amount"]) + Decimal("30.00")
    assert Transaction.objects.filter(reference_type="booking_services").count() == 1
    assert not Transaction.objects.filter(type="credit", reference_id=purchase.pk).exists()
    assert ledger_problems() == []
