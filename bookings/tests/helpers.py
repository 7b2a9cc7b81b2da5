"""Booking helpers shared by test modules (a plain module, not a test module): search the
sandbox supplier, pick an offer and book through the API, as an agency's
integration does. Import them from here, never from another test module."""

from decimal import Decimal

from bookings.models import Booking
from tests.kit.passengers import passenger
from wallet.models import Transaction

BOOKINGS = "/api/v1/bookings"


def offers(client, *, origin="GRU", destination="BSB", passengers=None):
    body = {
        "type": "one_way",
        "slices": [{"origin": origin, "destination": destination, "departureDate": "2027-01-15"}],
        "passengers": passengers or [{"type": "adult", "count": 1}],
    }
    return client.post("/api/v1/flights/search", body, format="json").json()["offers"]


def basic_offer(client) -> dict:
    """A domestic basic fare: no checked bag included, must be paid at once."""
    return next(
        o
        for o in offers(client, origin="GRU", destination="SSA")
        if not any(
            b["type"] == "checked" and b["quantity"]
            for b in o["slices"][0]["segments"][0]["passengers"][0]["baggages"]
        )
    )


def holdable(client, **kwargs):
    return next(
        o
        for o in offers(client, **kwargs)
        if not o["payment_requirements"]["requires_instant_payment"]
    )


def book(client, offer, *, type="hold", people=None, payments=None, **extra):
    body = {
        "offerId": offer["id"],
        "type": type,
        "passengers": people or [passenger(offer["passengers"][0]["id"])],
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


# --- The booking page (bookings/tests/test_page.py and its browser test) ---


BOOKING_EVENTS = [
    "booking.created",
    "booking.confirmed",
    "booking.ticketed",
    "booking.cancelled",
    "booking.updated",
]


def round_trip_with_a_codeshare_connection(client):
    """A GRU–LIS round trip whose return connects in Brazil on a codeshare (the sandbox's
    flights are the same every day)."""
    body = {
        "type": "round_trip",
        "passengers": [{"type": "adult", "count": 2}],
        "slices": [
            {"origin": "GRU", "destination": "LIS", "departureDate": "2027-01-15"},
            {"origin": "LIS", "destination": "GRU", "departureDate": "2027-01-29"},
        ],
    }
    offers = client.post("/api/v1/flights/search", body, format="json").json()["offers"]
    return next(
        o
        for o in offers
        if not o["payment_requirements"]["requires_instant_payment"]
        and o["total_currency"] != "BRL"
        and len(o["slices"][0]["segments"]) == 1
        and len(o["slices"][1]["segments"]) == 2
        and any(
            s["operating_carrier"]["iata_code"] != s["marketing_carrier"]["iata_code"]
            for s in o["slices"][1]["segments"]
        )
    )


def passport(number):
    return [
        {
            "type": "passport",
            "unique_identifier": number,
            "issuing_country_code": "BR",
            "expires_on": "2031-01-01",
        }
    ]


def book_two(client, offer):
    first, second = (p["id"] for p in offer["passengers"])
    people = [
        passenger(first, identity_documents=passport("FX123456")),
        passenger(
            second,
            given_name="Bruno",
            family_name="Carvalho",
            born_on="1988-02-03",
            identity_documents=passport("FX654321"),
        ),
    ]
    response = book(client, offer, people=people)
    assert response.status_code == 201, response.json()
    return Booking.objects.get(pk=response.json()["id"])


# --- Unknown supplier outcomes (test_outcomes.py, test_outcomes_races.py) ---


def instant(client, family_name):
    offer = next(o for o in offers(client) if o["payment_requirements"]["requires_instant_payment"])
    return book(
        client,
        offer,
        type="instant",
        people=[passenger(offer["passengers"][0]["id"], family_name=family_name)],
    )


def money(booking_id):
    """The booking's ledger rows: (debits, refunds)."""
    rows = Transaction.objects.filter(reference_id=booking_id)
    return (
        [t.amount for t in rows if t.type == "debit"],
        [t.amount for t in rows if t.reference_type == "refund"],
    )


def seat_maps(client, offer) -> list[dict]:
    """The offer's seat maps, as the API answers them."""
    response = client.get(f"/api/v1/offers/{offer['id']}/seat_maps")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def paid_seat(seat_map: dict) -> tuple[dict, dict]:
    """The first seat with a price (its element and its service)."""
    for row in seat_map["cabins"][0]["rows"]:
        for section in row["sections"]:
            for element in section["elements"]:
                for service in element.get("available_services") or []:
                    if Decimal(service["total_amount"]) > 0:
                        return element, service
    raise AssertionError("no paid seat")
