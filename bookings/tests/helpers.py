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


# --- A month of sales (the sales report's tests and its browser test) ---


SALES_MONTH = (2026, 11)  # November 2026 in São Paulo; the sandbox flies 15/01/2027
CPF = "52998224725"  # 529.982.247-25
CNPJ = "11222333000181"  # 11.222.333/0001-81


def _sao_paulo(day: int, hour: int = 12, *, month: int = 11):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    return datetime(2026, month, day, hour, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))


def _person(offer, family_name: str) -> dict:
    """Ana `family_name`, with her own e-mail (so each booking has its own client)."""
    email = f"ana.{family_name.lower()}@example.com"
    return passenger(offer["passengers"][0]["id"], family_name=family_name, email=email)


def _instant(client, offer, family_name: str) -> Booking:
    response = book(client, offer, type="instant", people=[_person(offer, family_name)])
    assert response.status_code == 201, response.content
    return Booking.objects.get(pk=response.json()["id"])


def _refundable(client) -> dict:
    return next(
        o
        for o in offers(client)
        if o["conditions"]["refund_before_departure"]["allowed"]
        and o["conditions"]["refund_before_departure"]["penalty_amount"]
    )


def _changeable(client) -> dict:
    return next(o for o in offers(client) if o["conditions"]["change_before_departure"]["allowed"])


def _change_offers(client, booking: Booking, day: str) -> list[dict]:
    body = {
        "slices": {
            "remove": [{"slice_id": booking.slices[0]["id"]}],
            "add": [
                {
                    "origin": "GRU",
                    "destination": "BSB",
                    "departure_date": day,
                    "cabin_class": "economy",
                },
            ],
        }
    }
    response = client.post(f"{BOOKINGS}/{booking.pk}/change_requests", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["data"]["change_offers"]


def _change(client, booking: Booking, *, positive: bool) -> None:
    offered = next(
        o
        for day in ("2027-01-20", "2027-01-08", "2027-01-22")
        for o in _change_offers(client, booking, day)
        if (Decimal(o["change_total_amount"]) > 0) is positive
    )
    body = {
        "change_offer_id": offered["id"],
        "payment": {
            "type": "balance",
            "amount": offered["change_total_amount"],
            "currency": offered["change_total_currency"],
        },
    }
    response = client.post(f"{BOOKINGS}/{booking.pk}/changes", body, format="json")
    assert response.status_code == 200, response.content


def _add_bag(client, booking: Booking) -> None:
    response = client.get(f"{BOOKINGS}/{booking.pk}/available_services")
    assert response.status_code == 200, response.content
    bag = response.json()["data"][0]
    body = {
        "add_services": [{"id": bag["id"], "quantity": 1}],
        "payment": {
            "type": "balance",
            "amount": bag["total_amount"],
            "currency": booking.total_currency,
        },
    }
    response = client.post(f"{BOOKINGS}/{booking.pk}/services", body, format="json")
    assert response.status_code == 200, response.content


def _cancel(client, booking: Booking) -> None:
    response = client.delete(f"{BOOKINGS}/{booking.pk}")
    assert response.status_code == 200, response.content


def a_month_of_sales(client, team) -> dict[str, Booking]:
    """Live sandbox bookings of `team` (markup 10 %, fee R$ 25,00; the client is given the
    team's live key), around November 2026 in São Paulo:

    - `october`: sold on 20/10, cancelled with a refund on 05/11;
    - `plain`: sold on 03/11; `bag`: sold on 04/11, a bag added that day;
    - `cheaper`: sold on 06/11, changed on 07/11 to cheaper flights refunded in cash;
    - `dearer`: sold on 08/11, changed to dearer flights the same day;
    - `failed`: its issuance failed on 09/11 (debited and refunded);
    - `voucher`: sold on 10/11, changed the same day, the difference to a voucher;
    - `cancelled`: sold and cancelled on 11/11 (the airline refunds half: Refundlow);
    - `december`: sold at 00:00 on 01/12, São Paulo (03:00 UTC): the next month's.

    Clients: `plain`'s has a CPF, `bag`'s a CNPJ, the others none."""
    import time_machine

    from agencies.models import Client
    from tests.kit.factories import fund

    team.markup_percent = Decimal("10.00")
    team.fee = Decimal("25.00")
    team.save()
    with time_machine.travel(_sao_paulo(1, month=10), tick=False):
        fund(team, "200000.00", reference_id="rch_sales_month")
    made: dict[str, Booking] = {}
    with time_machine.travel(_sao_paulo(20, month=10), tick=False):
        made["october"] = _instant(client, _refundable(client), "Souza")
    with time_machine.travel(_sao_paulo(3), tick=False):
        made["plain"] = _instant(client, holdable(client), "Lima")
    with time_machine.travel(_sao_paulo(4), tick=False):
        basic = next(
            o
            for o in offers(client, origin="GRU", destination="SSA")
            if not any(
                b["type"] == "checked" and b["quantity"]
                for b in o["slices"][0]["segments"][0]["passengers"][0]["baggages"]
            )
        )
        made["bag"] = _instant(client, basic, "Costa")
        _add_bag(client, made["bag"])
    with time_machine.travel(_sao_paulo(5), tick=False):
        _cancel(client, made["october"])
    with time_machine.travel(_sao_paulo(6), tick=False):
        made["cheaper"] = _instant(client, _changeable(client), "Changecheaper")
    with time_machine.travel(_sao_paulo(7), tick=False):
        _change(client, made["cheaper"], positive=False)
    with time_machine.travel(_sao_paulo(8), tick=False):
        made["dearer"] = _instant(client, _changeable(client), "Alves")
        _change(client, made["dearer"], positive=True)
    with time_machine.travel(_sao_paulo(9), tick=False):
        offer = next(
            o for o in offers(client) if o["payment_requirements"]["requires_instant_payment"]
        )
        response = book(client, offer, type="instant", people=[_person(offer, "Issuancefail")])
        made["failed"] = Booking.objects.get(offer_id=offer["id"])
        assert made["failed"].status == "failed", response.content
    with time_machine.travel(_sao_paulo(10), tick=False):
        made["voucher"] = _instant(client, _changeable(client), "Changevoucher")
        _change(client, made["voucher"], positive=False)
    with time_machine.travel(_sao_paulo(11), tick=False):
        made["cancelled"] = _instant(client, _refundable(client), "Refundlow")
        _cancel(client, made["cancelled"])
    with time_machine.travel(_sao_paulo(1, 0, month=12), tick=False):
        made["december"] = _instant(client, holdable(client), "Rocha")
    Client.objects.filter(pk=made["plain"].client_id).update(tax_id=CPF)
    Client.objects.filter(pk=made["bag"].client_id).update(tax_id=CNPJ)
    for name, booking in made.items():
        booking.refresh_from_db()
        made[name] = booking
    return made
