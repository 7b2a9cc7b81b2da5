"""The Duffel supplier (flights.suppliers.duffel) against recorded Duffel v2 bodies.

Only Duffel's HTTP API is faked, with `responses`, which refuses any request not registered here:
nothing reaches the network. The bodies in duffel_responses/ follow Duffel's documented shapes
(https://duffel.com/docs/api/v2: offer requests, orders, payments, order cancellations):

- offer_request.json: São Paulo (the city code SAO) ⇄ Lisbon, 10 to 24 March 2027, for an adult
  and an infant without seat, with two offers in EUR: TAP direct both ways (can be held,
  refundable with a penalty) and Iberia via Madrid (instant payment only, conditions unknown,
  and the nulls Duffel sends for some airlines: aircraft, distance, durations, operating flight
  number, fare brand, fare basis);
- order_held.json (a hold on the TAP offer), payment.json, order_ticketed.json (the same order
  once paid), order_instant.json (the Iberia offer booked and paid at once, with an EMD besides
  the tickets), order_cancellation.json and order_cancellation_confirmed.json;
- airline_initiated_changes.json (an order's AirlineInitiatedChanges: TAP moves the outbound
  later) and airline_initiated_change_accepted.json (the same, accepted).

No database: `create_order` gets a SimpleNamespace with the only attribute it reads,
`supplier_offer_id`.
"""

import dataclasses
import json
import logging
import socket
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests
import responses
from responses import matchers
from urllib3.exceptions import MaxRetryError, NameResolutionError, NewConnectionError, ProtocolError

from flights.suppliers import supplier_named
from flights.suppliers.base import (
    Baggage,
    CancellationQuote,
    Condition,
    OrderPassenger,
    SearchRequest,
    SearchSlice,
    SupplierError,
    SupplierOffer,
    SupplierOrder,
    SupplierOutcomeUnknown,
    SupplierSegment,
    SupplierSlice,
    TicketDocument,
)
from flights.suppliers.duffel import DuffelSupplier, duration_minutes, order_passenger

RECORDED = Path(__file__).parent / "duffel_responses"
BASE_URL = "https://api.duffel.test"
TOKEN = "duffel_live_q8Zt3vKc0YwXbN7mR2pLhS5dJf4"
ADULT = "pas_0000AqX9oTGZFmeC5fOyQK"
INFANT = "pas_0000AqX9oTGZFmeC5fOyQL"
TAP_OFFER = "off_0000AqX9oTklKz8vbAoM1Y"
IBERIA_OFFER = "off_0000AqX9oTlmQ2vLQpMvGz"
HELD_ORDER = "ord_0000AqXA2p6Zy2Ybcg8tS0"
INSTANT_ORDER = "ord_0000AqXB9f0xT5pG1VvS3s"
QUOTE = "ore_0000AqZ1hR3kGxYg4bBv7c"
REQUEST_ID = "F-QPK3Xz1d2mW0AAAb7h"
BOOKING = "ord_01m84rjbr4ys7tjps1mzn7afgg"  # our booking id

SEARCH = SearchRequest(
    slices=(
        SearchSlice("SAO", "LIS", ("CGH", "GRU", "VCP"), ("LIS",), date(2027, 3, 10)),
        SearchSlice("LIS", "SAO", ("LIS",), ("CGH", "GRU", "VCP"), date(2027, 3, 24)),
    ),
    passengers=("adult", "infant_without_seat"),
    cabin_class="economy",
)


def recorded(name: str) -> dict:
    return json.loads((RECORDED / f"{name}.json").read_text())


def sent(call) -> dict | None:
    """The JSON we sent, numbers read exactly."""
    body = call.request.body
    return None if body is None else json.loads(body, parse_float=Decimal)


def assert_duffel_headers(request) -> None:
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["Duffel-Version"] == "v2"
    assert request.headers["Accept"] == "application/json"
    assert request.headers["Accept-Encoding"] == "gzip"
    if request.body is not None:
        assert request.headers["Content-Type"] == "application/json"


@pytest.fixture
def duffel():
    """Duffel's side; fails the test if a registered answer is not asked for."""
    with responses.RequestsMock(assert_all_requests_are_fired=True) as mock:
        yield mock


@pytest.fixture
def supplier():
    return DuffelSupplier(access_token=TOKEN, base_url=BASE_URL)


def answer_search(duffel, body=None, status=201):
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/offer_requests",
        json=recorded("offer_request") if body is None else body,
        status=status,
        match=[
            matchers.query_param_matcher({"return_offers": "true", "supplier_timeout": "20000"})
        ],
    )


def adult(**changes) -> OrderPassenger:
    passenger = OrderPassenger(
        supplier_passenger_id=ADULT,
        type="adult",
        title=None,
        given_name="Marina",
        family_name="Albuquerque",
        gender="f",
        born_on=date(1988, 7, 14),
        email="marina.albuquerque@example.com",
        phone_number="+5511987654321",
        identity_documents=(
            {
                "type": "passport",
                "unique_identifier": "FZ482913",
                "issuing_country_code": "BR",
                "expires_on": date(2031, 5, 20),
            },
        ),
        infant_supplier_passenger_id=INFANT,
    )
    return OrderPassenger(**{**passenger.__dict__, **changes})


def infant() -> OrderPassenger:
    return OrderPassenger(
        supplier_passenger_id=INFANT,
        type="infant_without_seat",
        title="Mr",
        given_name="Theo",
        family_name="Albuquerque",
        gender="m",
        born_on=date(2026, 5, 2),
        email="marina.albuquerque@example.com",
        phone_number="+5511987654321",
    )


# --- Search ------------------------------------------------------------------------------------


def test_search_posts_an_offer_request(duffel, supplier):
    answer_search(duffel)

    supplier.search(SEARCH)

    (call,) = duffel.calls
    assert call.request.method == "POST"
    assert call.request.url.startswith(f"{BASE_URL}/air/offer_requests?")
    assert_duffel_headers(call.request)
    assert sent(call) == {
        "data": {
            "slices": [
                {"origin": "SAO", "destination": "LIS", "departure_date": "2027-03-10"},
                {"origin": "LIS", "destination": "SAO", "departure_date": "2027-03-24"},
            ],
            "passengers": [{"type": "adult"}, {"type": "infant_without_seat"}],
            "cabin_class": "economy",
        }
    }
    assert call.request.req_kwargs["timeout"] == (5, 30)


def test_search_maps_a_direct_offer_field_by_field(duffel, supplier):
    answer_search(duffel)

    tap = supplier.search(SEARCH)[0]

    def tap_segment(origin, destination, departing, arriving, number, terminals, minutes):
        return SupplierSegment(
            origin=origin,
            destination=destination,
            origin_terminal=terminals[0],
            destination_terminal=terminals[1],
            departing_at=departing,
            arriving_at=arriving,
            marketing_carrier="TP",
            marketing_flight_number=number,
            operating_carrier="TP",
            operating_flight_number=number,
            aircraft="339",
            duration_minutes=minutes,
            distance_km=Decimal("7935.3"),
            cabin_class="economy",
            cabin_class_marketing_name="Economy",
            fare_basis_code="KL0BRC",
            # The adult's allowance, not the infant's (one checked bag only).
            baggages=(Baggage("checked", 1), Baggage("carry_on", 1)),
        )

    assert tap == SupplierOffer(
        supplier_offer_id=TAP_OFFER,
        owner="TP",
        total_amount=Decimal("1418.64"),
        base_amount=Decimal("1196.00"),
        tax_amount=Decimal("222.64"),
        total_currency="EUR",
        slices=(
            SupplierSlice(
                origin="GRU",
                destination="LIS",
                duration_minutes=10 * 60 + 45,
                segments=(
                    tap_segment(
                        "GRU",
                        "LIS",
                        datetime(2027, 3, 10, 16, 25),
                        datetime(2027, 3, 11, 6, 10),
                        "82",
                        ("3", "1"),
                        10 * 60 + 45,
                    ),
                ),
                fare_brand_name="Classic",
            ),
            SupplierSlice(
                origin="LIS",
                destination="GRU",
                duration_minutes=10 * 60 + 35,
                segments=(
                    tap_segment(
                        "LIS",
                        "GRU",
                        datetime(2027, 3, 24, 11, 30),
                        datetime(2027, 3, 24, 19, 5),
                        "81",
                        ("1", "3"),
                        10 * 60 + 35,
                    ),
                ),
                fare_brand_name="Classic",
            ),
        ),
        refund_before_departure=Condition(True, Decimal("150.00"), "EUR"),
        change_before_departure=Condition(True, Decimal("75.00"), "EUR"),
        requires_instant_payment=False,
        expires_at=datetime(2027, 2, 1, 14, 29, 50, 123456, tzinfo=UTC),
        payment_required_by=datetime(2027, 2, 4, 23, 59, tzinfo=UTC),
        price_guarantee_expires_at=datetime(2027, 2, 3, 14, 0, tzinfo=UTC),
        supplier_passenger_ids=(ADULT, INFANT),
        passenger_identity_documents_required=False,
        allowed_passenger_identity_document_types=("passport",),
    )
    # Exact decimals as Duffel wrote them, never through float.
    assert [str(a) for a in (tap.total_amount, tap.base_amount, tap.tax_amount)] == [
        "1418.64",
        "1196.00",
        "222.64",
    ]
    assert tap.expires_at.tzinfo is UTC
    assert tap.slices[0].segments[0].departing_at.tzinfo is None  # local time at GRU


def test_search_maps_a_connection_and_duffels_nulls(duffel, supplier):
    answer_search(duffel)

    iberia = supplier.search(SEARCH)[1]

    assert iberia.supplier_offer_id == IBERIA_OFFER
    assert iberia.owner == "IB"
    assert (iberia.total_amount, iberia.base_amount, iberia.tax_amount) == (
        Decimal("1234.56"),
        Decimal("923.40"),
        Decimal("311.16"),
    )
    # Instant payment: no hold deadlines.
    assert iberia.requires_instant_payment is True
    assert iberia.payment_required_by is None
    assert iberia.price_guarantee_expires_at is None
    assert iberia.expires_at == datetime(2027, 2, 1, 14, 20, 7, tzinfo=UTC)
    # Refund null (unknown) and change not allowed: both not allowed, no penalty.
    assert iberia.refund_before_departure == Condition(allowed=False)
    assert iberia.change_before_departure == Condition(allowed=False)
    assert iberia.supplier_passenger_ids == (ADULT, INFANT)

    out, back = iberia.slices
    assert (out.origin, out.destination, out.fare_brand_name) == ("GRU", "LIS", "Basic")
    assert out.duration_minutes == 14 * 60  # "PT14H00M"
    to_madrid, to_lisbon = out.segments
    assert (to_madrid.origin, to_madrid.destination) == ("GRU", "MAD")
    assert (to_madrid.origin_terminal, to_madrid.destination_terminal) == ("3", "4S")
    assert to_madrid.departing_at == datetime(2027, 3, 10, 18, 5)
    assert to_madrid.arriving_at == datetime(2027, 3, 11, 8, 35)
    assert to_madrid.duration_minutes == 10 * 60 + 30
    assert to_madrid.distance_km == Decimal("8379.2")  # null at Duffel: great-circle GRU–MAD
    assert to_madrid.baggages == (Baggage("carry_on", 1),)
    # A codeshare: IB 3102 operated by Air Nostrum, whose own flight number Duffel leaves null.
    assert (to_lisbon.marketing_carrier, to_lisbon.marketing_flight_number) == ("IB", "3102")
    assert (to_lisbon.operating_carrier, to_lisbon.operating_flight_number) == ("YW", "")
    assert to_lisbon.aircraft == ""  # aircraft null
    # Duration null: from the local times and the time zones (10:40 Madrid to 11:05 Lisbon).
    assert to_lisbon.duration_minutes == 85
    assert to_lisbon.distance_km == Decimal("513.4")
    assert to_lisbon.cabin_class == "economy"
    assert to_lisbon.cabin_class_marketing_name == "Economy"  # null: the cabin's name
    assert to_lisbon.fare_basis_code == ""

    # The return slice has neither duration nor fare brand: 07:00 Lisbon to 19:50 São Paulo.
    assert back.duration_minutes == 15 * 60 + 50
    assert back.fare_brand_name == ""
    assert [s.operating_carrier + s.operating_flight_number for s in back.segments] == [
        "YW3101",
        "IB6827",
    ]
    assert [s.aircraft for s in back.segments] == ["E95", "359"]


def test_search_sends_children_by_age_and_can_leave_the_supplier_timeout_out(duffel):
    supplier = DuffelSupplier(access_token=TOKEN, base_url=BASE_URL, supplier_timeout_ms=None)
    passengers = [
        {"id": f"pas_0000AqX9oTGZFmeC5fOyR{n}", "type": kind, "age": age}
        for n, (kind, age) in enumerate(
            [("adult", None), ("child", 8), ("infant_without_seat", None)]
        )
    ]
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/offer_requests",
        json={"data": {"id": "orq_0000AqX9oTGZFmeC5fOyR9", "offers": [], "passengers": passengers}},
        status=201,
        match=[matchers.query_param_matcher({"return_offers": "true"})],
    )

    offers = supplier.search(
        SearchRequest(
            slices=SEARCH.slices[:1],
            passengers=("adult", "child", "infant_without_seat"),
            cabin_class="business",
        )
    )

    assert offers == []
    body = sent(duffel.calls[0])["data"]
    assert body["passengers"] == [{"type": "adult"}, {"age": 8}, {"type": "infant_without_seat"}]
    assert body["cabin_class"] == "business"


def test_instant_payment_drops_any_deadline_duffel_gives(duffel, supplier):
    body = recorded("offer_request")
    body["data"]["offers"][1]["payment_requirements"].update(
        payment_required_by="2027-02-02T14:00:00Z",
        price_guarantee_expires_at="2027-02-02T14:00:00Z",
    )
    answer_search(duffel, body)

    iberia = supplier.search(SEARCH)[1]

    assert (iberia.payment_required_by, iberia.price_guarantee_expires_at) == (None, None)


@pytest.mark.parametrize(
    ("base", "tax", "expected"),
    [
        (None, "222.64", (Decimal("1196.00"), Decimal("222.64"))),
        ("1196.00", None, (Decimal("1196.00"), Decimal("222.64"))),
        (None, None, (Decimal("1418.64"), Decimal("0"))),
    ],
)
def test_a_missing_base_or_tax_amount_is_the_rest_of_the_total(
    duffel, supplier, base, tax, expected
):
    body = recorded("offer_request")
    body["data"]["offers"][0].update(base_amount=base, tax_amount=tax)
    answer_search(duffel, body)

    tap = supplier.search(SEARCH)[0]

    assert (tap.base_amount, tap.tax_amount) == expected


@pytest.mark.parametrize(
    "spoil",
    [
        lambda offer: offer.pop("total_amount"),
        lambda offer: offer.update(total_amount="1.418,64"),
        lambda offer: offer.update(slices=[]),
        lambda offer: offer["slices"][0].update(segments=[]),
        lambda offer: offer["slices"][0]["segments"][0].update(departing_at="10/03/2027 16:25"),
    ],
)
def test_an_unreadable_offer_is_left_out(duffel, supplier, caplog, spoil):
    body = recorded("offer_request")
    spoil(body["data"]["offers"][0])
    answer_search(duffel, body)

    offers = supplier.search(SEARCH)

    assert [o.supplier_offer_id for o in offers] == [IBERIA_OFFER]
    assert TAP_OFFER in caplog.text


def test_a_search_answered_for_other_passengers_fails(duffel, supplier):
    body = recorded("offer_request")
    body["data"]["passengers"].pop()
    answer_search(duffel, body)

    with pytest.raises(SupplierError) as raised:
        supplier.search(SEARCH)

    assert raised.value.code == "supplier_bad_response"


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("PT2H26M", 146),
        ("PT02H26M", 146),
        ("P1DT2H", 26 * 60),
        ("P1DT2H5M", 26 * 60 + 5),
        ("PT45M", 45),
        ("PT10H", 600),
        ("P1D", 1440),
        ("PT1H0M30S", 61),  # seconds rounded to the nearest minute
        ("PT1H0M29S", 60),
        (None, None),
        ("", None),
        ("P", None),
        ("PT", None),
        ("2H26M", None),
    ],
)
def test_iso_8601_durations(text, minutes):
    assert duration_minutes(text) == minutes


# --- Orders ------------------------------------------------------------------------------------


def test_create_order_holds_the_offer(duffel, supplier):
    duffel.add(responses.POST, f"{BASE_URL}/air/orders", json=recorded("order_held"), status=201)

    order = supplier.create_order(
        offer=SimpleNamespace(supplier_offer_id=TAP_OFFER),
        passengers=[adult(), infant()],
        instant=False,
        amount=Decimal("1418.64"),
        currency="EUR",
        booking_id=BOOKING,
    )

    (call,) = duffel.calls
    assert_duffel_headers(call.request)
    assert call.request.req_kwargs["timeout"] == (5, 130)
    assert sent(call) == {
        "data": {
            "type": "hold",
            "selected_offers": [TAP_OFFER],
            "passengers": [
                {
                    "id": ADULT,
                    "title": "ms",  # none given: from the gender
                    "gender": "f",
                    "given_name": "Marina",
                    "family_name": "Albuquerque",
                    "born_on": "1988-07-14",
                    "email": "marina.albuquerque@example.com",
                    "phone_number": "+5511987654321",
                    "identity_documents": [
                        {
                            "type": "passport",
                            "unique_identifier": "FZ482913",
                            "issuing_country_code": "BR",
                            "expires_on": "2031-05-20",
                        }
                    ],
                    "infant_passenger_id": INFANT,
                },
                {
                    "id": INFANT,
                    "title": "mr",
                    "gender": "m",
                    "given_name": "Theo",
                    "family_name": "Albuquerque",
                    "born_on": "2026-05-02",
                    "email": "marina.albuquerque@example.com",
                    "phone_number": "+5511987654321",
                },
            ],
            # Duffel metadata: string values; our booking id, for find_order.
            "metadata": {"booking_id": BOOKING},
        }
    }
    assert order == SupplierOrder(
        supplier_order_id=HELD_ORDER,
        booking_reference="LB7QXZ",
        documents=(),
        payment_required_by=datetime(2027, 2, 4, 23, 59, tzinfo=UTC),
        price_guarantee_expires_at=datetime(2027, 2, 3, 14, 0, tzinfo=UTC),
        awaiting_payment=True,
        total_amount=Decimal("1418.64"),
        total_currency="EUR",
        base_amount=Decimal("1196.00"),
        tax_amount=Decimal("222.64"),
    )


def test_create_order_books_and_pays_at_once(duffel, supplier):
    duffel.add(responses.POST, f"{BASE_URL}/air/orders", json=recorded("order_instant"), status=201)

    order = supplier.create_order(
        offer=SimpleNamespace(supplier_offer_id=IBERIA_OFFER),
        passengers=[adult(), infant()],
        instant=True,
        amount=Decimal("1234.56"),
        currency="EUR",
        booking_id=BOOKING,
    )

    body = sent(duffel.calls[0])["data"]
    assert body["type"] == "instant"
    assert body["selected_offers"] == [IBERIA_OFFER]
    assert body["payments"] == [{"type": "balance", "amount": "1234.56", "currency": "EUR"}]
    assert body["metadata"] == {"booking_id": BOOKING}
    # The tickets, one per passenger; the EMD (a paid extra) is not a ticket.
    assert order == SupplierOrder(
        supplier_order_id=INSTANT_ORDER,
        booking_reference="QK4MZD",
        documents=(
            TicketDocument(supplier_passenger_id=ADULT, unique_identifier="0752100498873"),
            TicketDocument(supplier_passenger_id=INFANT, unique_identifier="0752100498874"),
        ),
        payment_required_by=None,
        price_guarantee_expires_at=None,
        total_amount=Decimal("1234.56"),
        total_currency="EUR",
        base_amount=Decimal("923.40"),
        tax_amount=Decimal("311.16"),
    )


def test_an_order_passenger_carries_one_allowed_document_and_the_loyalty_accounts():
    tax_id = {
        "type": "tax_id",
        "unique_identifier": "39053344705",
        "issuing_country_code": "BR",
        "expires_on": "2040-01-01",
    }
    passenger = adult(
        identity_documents=(tax_id, *adult().identity_documents),
        loyalty_programme_accounts=({"airline_iata_code": "IB", "account_number": "88001234"},),
    )

    passport_only = order_passenger(passenger, allowed_documents=("passport",))
    either = order_passenger(passenger, allowed_documents=("passport", "tax_id"))
    none = order_passenger(passenger, allowed_documents=())

    assert [d["type"] for d in passport_only["identity_documents"]] == ["passport"]
    assert passport_only["identity_documents"][0]["expires_on"] == "2031-05-20"
    assert either["identity_documents"] == [tax_id]  # one per passenger: the first allowed
    assert "identity_documents" not in none
    assert passport_only["loyalty_programme_accounts"] == [
        {"airline_iata_code": "IB", "account_number": "88001234"}
    ]


@pytest.mark.parametrize(
    ("raw", "types"),
    [
        (
            {"supported_passenger_identity_document_types": ["passport", "tax_id"]},
            ("passport", "tax_id"),
        ),
        ({"allowed_passenger_identity_document_types": ["passport"]}, ("passport",)),
        (
            {
                "supported_passenger_identity_document_types": [],
                "allowed_passenger_identity_document_types": ["passport"],
            },
            (),
        ),
        ({"supported_passenger_identity_document_types": ["passenger_redress_number"]}, ()),
        ({"supported_passenger_identity_document_types": None}, ("passport",)),
    ],
)
def test_an_offers_document_types_current_name_first_else_passports(raw, types):
    from flights.suppliers.duffel.offers import document_types

    assert document_types(raw) == types


@pytest.mark.parametrize(
    ("title", "gender", "sent_title"),
    [
        (None, "m", "mr"),
        (None, "f", "ms"),
        ("Mrs.", "f", "mrs"),
        ("MISS", "f", "miss"),
        ("Dr", "m", "dr"),
        ("mstr", "m", "mr"),  # not a Duffel title
        ("sra", "f", "ms"),
    ],
)
def test_titles_duffel_accepts(title, gender, sent_title):
    assert order_passenger(adult(title=title, gender=gender))["title"] == sent_title


def test_passengers_without_documents_or_infant_send_neither():
    data = order_passenger(adult(identity_documents=(), infant_supplier_passenger_id=None))

    assert "identity_documents" not in data
    assert "infant_passenger_id" not in data


def test_create_order_needs_a_duffel_offer(duffel, supplier):
    with pytest.raises(SupplierError) as raised:
        supplier.create_order(
            offer=SimpleNamespace(supplier_offer_id="sbx_off_1"),
            passengers=[adult()],
            instant=False,
            amount=Decimal("10.00"),
            currency="EUR",
        )

    assert raised.value.code == "offer_not_found"
    assert len(duffel.calls) == 0


def test_an_order_accepted_but_not_confirmed_is_pending(duffel, supplier):
    duffel.add(responses.POST, f"{BASE_URL}/air/orders", json={"data": {}}, status=202)

    with pytest.raises(SupplierOutcomeUnknown) as raised:
        supplier.create_order(
            offer=SimpleNamespace(supplier_offer_id=TAP_OFFER),
            passengers=[adult(), infant()],
            instant=True,
            amount=Decimal("1418.64"),
            currency="EUR",
        )

    assert raised.value.code == "order_pending"


def test_pay_order_pays_from_the_balance_then_reads_the_tickets(duffel, supplier):
    duffel.add(responses.POST, f"{BASE_URL}/air/payments", json=recorded("payment"), status=201)
    duffel.add(
        responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=recorded("order_ticketed")
    )

    order = supplier.pay_order(order_id=HELD_ORDER, amount=Decimal("1418.64"), currency="EUR")

    payment, read = duffel.calls
    assert_duffel_headers(payment.request)
    assert sent(payment) == {
        "data": {
            "order_id": HELD_ORDER,
            "payment": {"type": "balance", "amount": "1418.64", "currency": "EUR"},
        }
    }
    assert payment.request.req_kwargs["timeout"] == (5, 130)
    assert read.request.method == "GET"
    assert_duffel_headers(read.request)
    assert order == SupplierOrder(
        supplier_order_id=HELD_ORDER,
        booking_reference="LB7QXZ",
        documents=(
            TicketDocument(supplier_passenger_id=ADULT, unique_identifier="0472381604215"),
            TicketDocument(supplier_passenger_id=INFANT, unique_identifier="0472381604216"),
        ),
        payment_required_by=None,
        price_guarantee_expires_at=None,
        total_amount=Decimal("1418.64"),
        total_currency="EUR",
        base_amount=Decimal("1196.00"),
        tax_amount=Decimal("222.64"),
    )


def test_a_paid_order_that_cannot_be_read_is_an_unknown_outcome(duffel, supplier):
    duffel.add(responses.POST, f"{BASE_URL}/air/payments", json=recorded("payment"), status=201)
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", status=503, body="")

    # Paid, not read: never a refusal (that would refund a paid booking).
    with pytest.raises(SupplierOutcomeUnknown) as raised:
        supplier.pay_order(order_id=HELD_ORDER, amount=Decimal("1418.64"), currency="EUR")

    assert raised.value.code == "supplier_outcome_unknown"
    assert "do not pay again" in raised.value.message
    assert raised.value.details["status"] == 503


def test_get_order(duffel, supplier):
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=recorded("order_held"))

    order = supplier.get_order(HELD_ORDER)

    assert order.supplier_order_id == HELD_ORDER
    assert order.documents == ()
    assert order.payment_required_by == datetime(2027, 2, 4, 23, 59, tzinfo=UTC)
    (call,) = duffel.calls
    assert call.request.body is None
    assert_duffel_headers(call.request)
    assert call.request.req_kwargs["timeout"] == (5, 130)


def test_an_order_document_without_passenger_ids_belongs_to_the_only_passenger(duffel, supplier):
    body = recorded("order_ticketed")
    body["data"]["passengers"] = body["data"]["passengers"][:1]
    body["data"]["documents"] = [
        {"type": "electronic_ticket", "unique_identifier": "0472381604215"}
    ]
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=body)

    order = supplier.get_order(HELD_ORDER)

    assert order.documents == (TicketDocument(ADULT, "0472381604215"),)


# --- Cancellations -----------------------------------------------------------------------------


def test_quote_then_confirm_a_cancellation(duffel, supplier):
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/order_cancellations",
        json=recorded("order_cancellation"),
        status=201,
    )
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/order_cancellations/{QUOTE}/actions/confirm",
        json=recorded("order_cancellation_confirmed"),
    )

    quote = supplier.quote_cancellation(HELD_ORDER)
    confirmed = supplier.confirm_cancellation(quote.supplier_quote_id)

    assert quote == CancellationQuote(
        supplier_quote_id=QUOTE,
        refund_amount=Decimal("1268.64"),
        refund_currency="EUR",
        expires_at=datetime(2027, 2, 10, 9, 45, 12, tzinfo=UTC),
        refund_to="balance",
        order_id="ord_0000AqXA2p6Zy2Ybcg8tS0",
        created_at=datetime(2027, 2, 10, 9, 30, 12, 884106, tzinfo=UTC),
    )
    assert confirmed == dataclasses.replace(
        quote, confirmed_at=datetime(2027, 2, 10, 9, 31, 5, 371902, tzinfo=UTC)
    )
    asked, confirm = duffel.calls
    assert sent(asked) == {"data": {"order_id": HELD_ORDER}}
    assert confirm.request.body is None
    for call in (asked, confirm):
        assert_duffel_headers(call.request)
        assert call.request.req_kwargs["timeout"] == (5, 130)


# --- Errors ------------------------------------------------------------------------------------


# Duffel's errors as it words them: code -> (type, title, message).
DUFFEL_ERRORS = {
    "offer_no_longer_available": (
        "invalid_state_error",
        "Requested offer is no longer available",
        "Please select another offer, or create a new offer request to get the latest "
        "availability.",
    ),
    "offer_expired": (
        "invalid_state_error",
        "Offer expired",
        "The offer you selected has expired; create a new offer request.",
    ),
    "price_changed": (
        "airline_error",
        "Price changed",
        "The price of the offer has changed; retrieve the offer again.",
    ),
    "insufficient_balance": (
        "invalid_state_error",
        "Insufficient balance",
        "Your balance is insufficient to complete this payment.",
    ),
    "already_cancelled": (
        "invalid_state_error",
        "Order already cancelled",
        "This order has already been cancelled.",
    ),
    "order_not_created": (
        "airline_error",
        "Order not created",
        "The airline was unable to create your order.",
    ),
    "access_token_not_found": (
        "authentication_error",
        "Access token not found",
        "The access token used was not recognized by our system.",
    ),
    "expired_access_token": (
        "authentication_error",
        "Expired access token",
        "The access token used has expired.",
    ),
    "insufficient_permissions": (
        "authentication_error",
        "Insufficient permissions",
        "The provided token doesn't have sufficient permissions to perform the requested action.",
    ),
    "rate_limit_exceeded": (
        "rate_limit_error",
        "Rate limit exceeded",
        "You exceeded the number of requests allowed; wait before retrying.",
    ),
    "not_found": (
        "invalid_request_error",
        "Not found",
        "The resource you are trying to access does not exist.",
    ),
    "bad_request": ("invalid_request_error", "Bad request", "The request was invalid."),
    "internal_server_error": (
        "api_error",
        "Internal server error",
        "Something went wrong; contact support with the request_id.",
    ),
}


def duffel_error(status: int, code: str) -> dict:
    type_, title, message = DUFFEL_ERRORS[code]
    return {
        "errors": [
            {
                "type": type_,
                "code": code,
                "title": title,
                "message": message,
                "documentation_url": "https://duffel.com/docs/api/overview/errors",
            }
        ],
        "meta": {"status": status, "request_id": REQUEST_ID},
    }


CALLS = {
    "search": (responses.POST, "/air/offer_requests", lambda s: s.search(SEARCH)),
    "create_order": (
        responses.POST,
        "/air/orders",
        lambda s: s.create_order(
            offer=SimpleNamespace(supplier_offer_id=TAP_OFFER),
            passengers=[adult(), infant()],
            instant=True,
            amount=Decimal("1418.64"),
            currency="EUR",
        ),
    ),
    "pay_order": (
        responses.POST,
        "/air/payments",
        lambda s: s.pay_order(order_id=HELD_ORDER, amount=Decimal("1418.64"), currency="EUR"),
    ),
    "get_order": (responses.GET, f"/air/orders/{HELD_ORDER}", lambda s: s.get_order(HELD_ORDER)),
    "quote_cancellation": (
        responses.POST,
        "/air/order_cancellations",
        lambda s: s.quote_cancellation(HELD_ORDER),
    ),
    "confirm_cancellation": (
        responses.POST,
        f"/air/order_cancellations/{QUOTE}/actions/confirm",
        lambda s: s.confirm_cancellation(QUOTE),
    ),
}

CHECK_FIRST = "check whether the booking changed"  # the call may have taken effect
ERROR_CASES = [
    # call, HTTP status, Duffel's error code (or a body that is not JSON), our code, our words
    ("create_order", 422, "offer_no_longer_available", "offer_no_longer_available", "no longer"),
    ("create_order", 422, "offer_expired", "offer_expired", "Offer expired"),
    ("create_order", 422, "price_changed", "price_changed", "changed the price"),
    ("pay_order", 422, "insufficient_balance", "supplier_insufficient_balance", "balance"),
    ("quote_cancellation", 422, "already_cancelled", "order_already_cancelled", "cancelled"),
    ("create_order", 502, "order_not_created", "order_not_created", "nothing was booked"),
    ("search", 401, "access_token_not_found", "supplier_authentication_failed", "reconnect"),
    ("get_order", 401, "expired_access_token", "supplier_authentication_failed", "reconnect"),
    ("create_order", 403, "insufficient_permissions", "supplier_authentication_failed", "allowed"),
    ("search", 429, "rate_limit_exceeded", "supplier_rate_limited", "too many requests"),
    ("get_order", 404, "not_found", "order_not_found", "Unknown Duffel order"),
    ("pay_order", 404, "not_found", "order_not_found", "Unknown Duffel order"),
    ("confirm_cancellation", 404, "not_found", "quote_not_found", "cancellation quote"),
    ("search", 400, "bad_request", "supplier_error", "refused the request"),
    ("search", 500, "internal_server_error", "supplier_unavailable", "try again later"),
    ("quote_cancellation", 503, "<html>Unavailable</html>", "supplier_unavailable", "later"),
    ("search", 504, "", "supplier_unavailable", "try again later"),
]


@pytest.mark.parametrize(("call", "status", "duffel_code", "code", "words"), ERROR_CASES)
def test_duffel_errors_become_supplier_errors(
    duffel, supplier, call, status, duffel_code, code, words
):
    method, path, invoke = CALLS[call]
    if duffel_code in DUFFEL_ERRORS:
        body = duffel_error(status, duffel_code)
        duffel.add(method, f"{BASE_URL}{path}", json=body, status=status)
    else:
        body = None
        duffel.add(
            method, f"{BASE_URL}{path}", body=duffel_code, status=status, content_type="text/html"
        )

    with pytest.raises(SupplierError) as raised:
        invoke(supplier)

    error = raised.value
    assert (error.code, error.status_code) == (code, 502)
    assert not isinstance(error, SupplierOutcomeUnknown)  # certain: a refusal or a read
    assert words in error.message
    assert error.details["status"] == status
    if body is not None:
        assert error.details["request_id"] == REQUEST_ID
        assert error.details["errors"][0]["code"] == duffel_code
    assert TOKEN not in f"{error} {error.details!r}"


def test_validation_errors_carry_duffels_messages(duffel, supplier):
    body = {
        "errors": [
            {
                "type": "validation_error",
                "code": "validation_required",
                "title": "Required field",
                "message": "Field 'phone_number' can't be blank",
                "source": {"field": "phone_number", "pointer": "/passengers/1/phone_number"},
                "documentation_url": "https://duffel.com/docs/api/overview/response-handling",
            },
            {
                "type": "validation_error",
                "code": "validation_format",
                "title": "Invalid format",
                "message": "Field 'born_on' must be a date in the past",
                "source": {"field": "born_on", "pointer": "/passengers/1/born_on"},
                "documentation_url": "https://duffel.com/docs/api/overview/response-handling",
            },
        ],
        "meta": {"status": 422, "request_id": REQUEST_ID},
    }
    duffel.add(responses.POST, f"{BASE_URL}/air/orders", json=body, status=422)

    with pytest.raises(SupplierError) as raised:
        CALLS["create_order"][2](supplier)

    assert raised.value.code == "supplier_validation_error"
    assert raised.value.details == {
        "supplier": "duffel",
        "status": 422,
        "request_id": REQUEST_ID,
        "errors": [
            {
                "type": "validation_error",
                "code": "validation_required",
                "title": "Required field",
                "message": "Field 'phone_number' can't be blank",
                "field": "/passengers/1/phone_number",
            },
            {
                "type": "validation_error",
                "code": "validation_format",
                "title": "Invalid format",
                "message": "Field 'born_on' must be a date in the past",
                "field": "/passengers/1/born_on",
            },
        ],
    }


@pytest.mark.parametrize(
    ("call", "failure", "words"),
    [
        ("search", requests.ConnectionError("Connection refused"), "try again later"),
        ("search", requests.ConnectTimeout("connect timed out"), "try again later"),
        ("search", requests.ReadTimeout("read timed out"), "try again later"),
        ("get_order", requests.ReadTimeout("read timed out"), "try again later"),
        # Never sent: nothing can have happened.
        ("create_order", requests.ConnectTimeout("connect timed out"), "try again later"),
    ],
)
def test_connection_errors_and_timeouts_are_unavailable(duffel, supplier, call, failure, words):
    method, path, invoke = CALLS[call]
    duffel.add(method, f"{BASE_URL}{path}", body=failure)

    with pytest.raises(SupplierError) as raised:
        invoke(supplier)

    assert raised.value.code == "supplier_unavailable"
    assert words in raised.value.message
    assert raised.value.details == {"supplier": "duffel", "reason": type(failure).__name__}
    assert len(duffel.calls) == 1


@pytest.mark.parametrize(
    ("call", "body", "code"),
    [
        ("search", "<html>Bad gateway</html>", "supplier_bad_response"),
        (
            "get_order",
            json.dumps({"data": {"booking_reference": "LB7QXZ"}}),
            "supplier_bad_response",
        ),
    ],
)
def test_unreadable_successful_answers(duffel, supplier, call, body, code):
    method, path, invoke = CALLS[call]
    duffel.add(method, f"{BASE_URL}{path}", body=body, status=200)

    with pytest.raises(SupplierError) as raised:
        invoke(supplier)

    assert raised.value.code == code
    assert not isinstance(raised.value, SupplierOutcomeUnknown)  # a read changes nothing


def test_the_access_token_is_never_shown(duffel, supplier, caplog):
    caplog.set_level(logging.DEBUG)
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/offer_requests",
        json=duffel_error(401, "access_token_not_found"),
        status=401,
    )
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", body=requests.ReadTimeout())

    for invoke in (CALLS["search"][2], CALLS["get_order"][2]):
        with pytest.raises(SupplierError) as raised:
            invoke(supplier)
        assert TOKEN not in f"{raised.value} {raised.value.details!r}"

    assert TOKEN not in repr(supplier)
    assert TOKEN not in caplog.text


def test_no_access_token_fails_without_calling_duffel(duffel):
    with pytest.raises(SupplierError) as raised:
        DuffelSupplier(access_token="", base_url=BASE_URL).search(SEARCH)

    assert raised.value.code == "supplier_authentication_failed"
    assert len(duffel.calls) == 0


def test_supplier_named_builds_it_on_the_configured_base_url(settings):
    settings.DUFFEL_BASE_URL = "https://api.duffel.com/"

    supplier = supplier_named("duffel", access_token=TOKEN)

    assert isinstance(supplier, DuffelSupplier)
    assert supplier.name == "duffel"
    assert supplier.base_url == "https://api.duffel.com"


# --- Reading Duffel's variants -----------------------------------------------------------------


def test_offers_priced_in_other_currencies_keep_them_and_base_and_tax_stay_in_the_total_one(
    duffel, supplier
):
    body = recorded("offer_request")
    tap, iberia = body["data"]["offers"]
    # Priced in US dollars, all three amounts in USD.
    tap.update(total_amount="1530.20", total_currency="USD", base_currency="USD")
    tap.update(base_amount="1290.00", tax_amount="240.20", tax_currency="USD")
    # Taxes in another currency than the total: they cannot be added up, so taken as the rest.
    iberia.update(base_amount="923.40", base_currency="EUR", tax_amount="1750.00")
    iberia["tax_currency"] = "BRL"
    answer_search(duffel, body)

    dollars, euros = supplier.search(SEARCH)

    assert (dollars.total_currency, dollars.total_amount) == ("USD", Decimal("1530.20"))
    assert (dollars.base_amount, dollars.tax_amount) == (Decimal("1290.00"), Decimal("240.20"))
    assert (euros.total_currency, euros.base_amount, euros.tax_amount) == (
        "EUR",
        Decimal("923.40"),
        Decimal("311.16"),
    )


def test_a_holdable_offer_without_a_payment_deadline_stays_holdable(duffel, supplier):
    body = recorded("offer_request")
    body["data"]["offers"][0]["payment_requirements"] = {
        "requires_instant_payment": False,
        "payment_required_by": None,
        "price_guarantee_expires_at": None,
    }
    answer_search(duffel, body)

    tap = supplier.search(SEARCH)[0]

    # The deadline comes with the held order (its payment_status).
    assert tap.requires_instant_payment is False
    assert (tap.payment_required_by, tap.price_guarantee_expires_at) == (None, None)


def test_passengers_that_carry_names_and_come_back_in_another_order(duffel, supplier):
    body = recorded("offer_request")
    adult_passenger, infant_passenger = body["data"]["passengers"]
    # Names (Duffel returns them when given, e.g. with loyalty accounts) are not ours to read;
    # the kinds say which passenger is which.
    adult_passenger.update(given_name="Marina", family_name="Albuquerque")
    infant_passenger.update(given_name="Theo", family_name="Albuquerque")
    body["data"]["passengers"] = [infant_passenger, adult_passenger]
    for offer in body["data"]["offers"]:
        offer["passengers"] = [dict(infant_passenger), dict(adult_passenger)]
    answer_search(duffel, body)

    offers = supplier.search(SEARCH)

    assert [o.supplier_passenger_ids for o in offers] == [(ADULT, INFANT), (ADULT, INFANT)]


def test_children_searched_by_age_are_matched_by_age(duffel):
    body = recorded("offer_request")
    adult_passenger, infant_passenger = body["data"]["passengers"]
    child = {**infant_passenger, "id": "pas_child", "type": None, "age": 8}
    body["data"]["passengers"] = [child, adult_passenger]
    duffel.add(responses.POST, f"{BASE_URL}/air/offer_requests", json=body, status=201)
    search = SearchRequest(slices=SEARCH.slices, passengers=("adult", "child"))

    offers = DuffelSupplier(access_token=TOKEN, base_url=BASE_URL).search(search)

    assert offers[0].supplier_passenger_ids == (ADULT, "pas_child")


def test_orders_say_whether_they_await_payment_and_whether_they_were_cancelled(duffel, supplier):
    cancelled = recorded("order_held")
    cancelled["data"]["cancelled_at"] = "2027-02-02T10:00:00.000000Z"
    cancelled["data"]["payment_status"]["awaiting_payment"] = False
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=recorded("order_held"))
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{INSTANT_ORDER}", json=cancelled)
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/ord_ticketed", json=recorded("order_instant"))
    # The cancelled order does not carry its cancellation: its list does (none confirmed here).
    duffel.add(responses.GET, CANCELLATIONS_URL, json=cancellations_page([]))

    held = supplier.get_order(HELD_ORDER)
    gone = supplier.get_order(INSTANT_ORDER)
    ticketed = supplier.get_order("ord_ticketed")

    assert (held.awaiting_payment, held.cancelled) == (True, False)
    assert (gone.awaiting_payment, gone.cancelled) == (False, True)
    assert (ticketed.awaiting_payment, ticketed.cancelled) == (False, False)
    assert len(ticketed.documents) == 2


# --- Uncertain outcomes: orders and payments ---------------------------------------------------

ORDER_CALLS = ["create_order", "pay_order"]


def lost_after_sending() -> requests.ConnectionError:
    """What requests raises when Duffel closes the connection after reading the request."""
    return requests.ConnectionError(
        ProtocolError("Connection aborted.", ConnectionResetError(104, "Connection reset"))
    )


def refused() -> requests.ConnectionError:
    reason = NewConnectionError(None, "Failed to establish a new connection: [Errno 111]")
    return requests.ConnectionError(MaxRetryError(None, "/air/orders", reason))


def unresolvable() -> requests.ConnectionError:
    reason = NameResolutionError("api.duffel.test", None, OSError("Name or service not known"))
    return requests.ConnectionError(MaxRetryError(None, "/air/orders", reason))


@pytest.mark.parametrize("call", ORDER_CALLS)
@pytest.mark.parametrize(
    "failure",
    [requests.ReadTimeout("read timed out"), lost_after_sending()],
    ids=["read_timeout", "connection_lost_after_sending"],
)
def test_an_answer_lost_after_sending_is_an_unknown_outcome(duffel, supplier, call, failure):
    method, path, invoke = CALLS[call]
    duffel.add(method, f"{BASE_URL}{path}", body=failure)

    with pytest.raises(SupplierOutcomeUnknown) as raised:
        invoke(supplier)

    assert raised.value.code == "supplier_outcome_unknown"
    assert raised.value.details == {"supplier": "duffel", "reason": type(failure).__name__}
    assert len(duffel.calls) == 1  # never sent twice


@pytest.mark.parametrize("call", ORDER_CALLS)
@pytest.mark.parametrize(
    "failure",
    [requests.ConnectTimeout("connect timed out"), refused(), unresolvable()],
    ids=["connect_timeout", "refused", "dns"],
)
def test_a_request_that_never_reached_duffel_is_a_plain_failure(duffel, supplier, call, failure):
    method, path, invoke = CALLS[call]
    duffel.add(method, f"{BASE_URL}{path}", body=failure)

    with pytest.raises(SupplierError) as raised:
        invoke(supplier)

    assert not isinstance(raised.value, SupplierOutcomeUnknown)
    assert raised.value.code == "supplier_unavailable"


def test_a_refused_connection_for_real_is_a_plain_failure():
    """No `responses` here: a real connection to a port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed when the block ends: nobody listens
    supplier = DuffelSupplier(access_token=TOKEN, base_url=f"http://127.0.0.1:{port}")

    with pytest.raises(SupplierError) as raised:
        CALLS["create_order"][2](supplier)

    assert not isinstance(raised.value, SupplierOutcomeUnknown)
    assert raised.value.details["reason"] == "ConnectionError"


@pytest.mark.parametrize("call", ORDER_CALLS)
@pytest.mark.parametrize(
    ("status", "body"),
    [
        (500, "internal_server_error"),
        (502, "<html>Bad gateway</html>"),
        (503, ""),
        (504, "<html>Gateway timeout</html>"),
    ],
)
def test_a_5xx_is_an_unknown_outcome(duffel, supplier, call, status, body):
    method, path, invoke = CALLS[call]
    if body in DUFFEL_ERRORS:
        duffel.add(method, f"{BASE_URL}{path}", json=duffel_error(status, body), status=status)
    else:
        duffel.add(method, f"{BASE_URL}{path}", body=body, status=status, content_type="text/html")

    with pytest.raises(SupplierOutcomeUnknown) as raised:
        invoke(supplier)

    assert raised.value.code == "supplier_outcome_unknown"
    assert raised.value.details["status"] == status
    if body in DUFFEL_ERRORS:
        assert raised.value.details["request_id"] == REQUEST_ID


def test_a_5xx_that_says_the_order_was_not_created_is_a_refusal(duffel, supplier):
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/orders",
        json=duffel_error(502, "order_not_created"),
        status=502,
    )

    with pytest.raises(SupplierError) as raised:
        CALLS["create_order"][2](supplier)

    assert not isinstance(raised.value, SupplierOutcomeUnknown)
    assert raised.value.code == "order_not_created"


@pytest.mark.parametrize("call", ORDER_CALLS)
@pytest.mark.parametrize(
    "body",
    [
        "<html>OK</html>",
        json.dumps({"data": None}),
        json.dumps({"data": {"booking_reference": "LB7QXZ"}}),  # no id
        '{"data": {"id": "ord_0000AqXA2p6Zy2Ybcg8tS0", "booking_ref',  # cut short
    ],
    ids=["html", "null", "no_id", "truncated"],
)
def test_an_unreadable_success_is_an_unknown_outcome(duffel, supplier, call, body):
    method, path, invoke = CALLS[call]
    duffel.add(method, f"{BASE_URL}{path}", body=body, status=201)

    with pytest.raises(SupplierOutcomeUnknown) as raised:
        invoke(supplier)

    assert raised.value.code == "supplier_outcome_unknown"


def test_an_accepted_but_unconfirmed_order_is_an_unknown_outcome(duffel, supplier):
    pending = recorded("order_held")  # Duffel's 202 may carry the order being created
    duffel.add(responses.POST, f"{BASE_URL}/air/orders", json=pending, status=202)

    with pytest.raises(SupplierOutcomeUnknown) as raised:
        CALLS["create_order"][2](supplier)

    assert raised.value.code == "order_pending"
    assert raised.value.details == {"supplier": "duffel", "status": 202}


# --- find_order ---------------------------------------------------------------------------------

CREATED_AFTER = datetime(2027, 2, 1, 14, 5, tzinfo=UTC)


def listed(order_body: dict, **changes) -> dict:
    return {**order_body["data"], **changes}


def orders_page(orders: list[dict], after: str | None) -> dict:
    """A page of `GET /air/orders` as Duffel documents it."""
    return {"data": orders, "meta": {"after": after, "before": None, "limit": 200}}


def answer_orders(duffel, page: dict, *, after: str | None = None, status=200):
    params = {"limit": "200", "passenger_name[]": "Albuquerque"}
    if after:
        params["after"] = after
    duffel.add(
        responses.GET,
        f"{BASE_URL}/air/orders",
        json=page,
        status=status,
        match=[matchers.query_param_matcher(params)],
    )


def find(supplier):
    return supplier.find_order(
        booking_id=BOOKING, created_after=CREATED_AFTER, passengers=[adult(), infant()]
    )


def test_find_order_reads_the_pages_until_the_booking_id(duffel, supplier):
    someone_else = listed(recorded("order_instant"), metadata={"booking_id": "ord_other"})
    no_metadata = listed(recorded("order_instant"), id="ord_manual", metadata=None)
    ours = listed(recorded("order_held"), metadata={"booking_id": BOOKING})
    answer_orders(duffel, orders_page([someone_else, no_metadata], after="g2wAAAACbQAAABBB"))
    answer_orders(duffel, orders_page([ours], after="g2wAAAACbQAAABCC"), after="g2wAAAACbQAAABBB")

    order = find(supplier)

    assert order.supplier_order_id == HELD_ORDER
    assert (order.booking_reference, order.awaiting_payment, order.cancelled) == (
        "LB7QXZ",
        True,
        False,
    )
    assert len(duffel.calls) == 2  # it stopped at the match
    for call in duffel.calls:
        assert call.request.body is None
        assert_duffel_headers(call.request)


def test_find_order_after_a_complete_listing_without_it_is_none(duffel, supplier):
    someone_else = listed(recorded("order_held"), metadata={"booking_id": "ord_other"})
    answer_orders(duffel, orders_page([someone_else], after="g2wAAAACbQAAABBB"))
    answer_orders(duffel, orders_page([], after=None), after="g2wAAAACbQAAABBB")

    assert find(supplier) is None


def test_find_order_trusts_the_booking_id_over_duffels_clock(duffel, supplier):
    # Stamped by Duffel's clock a second before our booking: still the booking's order.
    ours = listed(
        recorded("order_held"),
        metadata={"booking_id": BOOKING},
        created_at="2027-02-01T14:04:59Z",
    )
    answer_orders(duffel, orders_page([ours], after=None))

    assert find(supplier).supplier_order_id == HELD_ORDER


def test_find_order_finds_a_cancelled_order(duffel, supplier):
    ours = listed(
        recorded("order_held"),
        metadata={"booking_id": BOOKING},
        cancelled_at="2027-02-01T15:00:00Z",
    )
    answer_orders(duffel, orders_page([ours], after=None))

    order = find(supplier)

    assert order.cancelled is True


def test_find_order_finds_a_paid_ticketed_order(duffel, supplier):
    ours = listed(recorded("order_instant"), metadata={"booking_id": BOOKING})
    answer_orders(duffel, orders_page([ours], after=None))

    order = find(supplier)

    assert order.supplier_order_id == INSTANT_ORDER
    assert (order.awaiting_payment, order.cancelled, len(order.documents)) == (False, False, 2)


@pytest.mark.parametrize(
    ("status", "page"),
    [
        (500, duffel_error(500, "internal_server_error")),
        (429, duffel_error(429, "rate_limit_exceeded")),
        (200, {"data": []}),  # no meta: is there a next page?
        (200, {"data": None, "meta": {"after": None}}),
        (200, {"data": ["ord_1"], "meta": {"after": None}}),
    ],
    ids=["5xx", "429", "no_meta", "no_list", "not_orders"],
)
def test_find_order_that_cannot_read_the_listing_cannot_tell(duffel, supplier, status, page):
    answer_orders(duffel, page, status=status)

    with pytest.raises(SupplierError) as raised:
        find(supplier)

    assert not isinstance(raised.value, SupplierOutcomeUnknown)


def test_find_order_on_a_failure_of_a_later_page_cannot_tell(duffel, supplier):
    answer_orders(duffel, orders_page([], after="g2wAAAACbQAAABBB"))
    duffel.add(responses.GET, f"{BASE_URL}/air/orders", body=requests.ReadTimeout())

    with pytest.raises(SupplierError):
        find(supplier)


def test_find_order_reads_a_bounded_number_of_pages(duffel, supplier):
    duffel.add(
        responses.GET, f"{BASE_URL}/air/orders", json=orders_page([], after="g2wAAAACbQAAABBB")
    )

    with pytest.raises(SupplierError) as raised:
        find(supplier)

    assert raised.value.details["pages"] == 5
    assert len(duffel.calls) == 5


# --- Cancellations: what the confirmation's answer means ---------------------------------------

CONFIRM_URL = f"{BASE_URL}/air/order_cancellations/{QUOTE}/actions/confirm"


@pytest.mark.parametrize(
    "answer",
    [
        {"status": 504, "body": ""},
        {"status": 500, "json": {"errors": [{"code": "internal_server_error"}]}},
        {"body": requests.ReadTimeout("read timed out")},
        {"status": 200, "body": "<html>proxy</html>"},
        {"status": 200, "json": {"data": {"id": QUOTE, "refund_amount": "x"}}},
        # A success that is not this quote confirmed.
        {"status": 200, "json": {"data": {**recorded("order_cancellation")["data"]}}},
    ],
)
def test_an_uncertain_confirmation_is_an_unknown_outcome(duffel, supplier, answer):
    """The order may be cancelled (the refund applied): never a refusal; the order tells."""
    duffel.add(responses.POST, CONFIRM_URL, **answer)

    with pytest.raises(SupplierOutcomeUnknown):
        supplier.confirm_cancellation(QUOTE)


def test_a_confirmation_refused_for_sure_is_a_supplier_error(duffel, supplier):
    duffel.add(
        responses.POST,
        CONFIRM_URL,
        status=422,
        json={"errors": [{"type": "invalid_state_error", "code": "already_cancelled"}]},
    )
    with pytest.raises(SupplierError) as raised:
        supplier.confirm_cancellation(QUOTE)
    assert not isinstance(raised.value, SupplierOutcomeUnknown)
    assert raised.value.code == "order_already_cancelled"


def test_a_voucher_refund_and_its_airline_credits_are_read(duffel, supplier):
    body = recorded("order_cancellation_confirmed")
    body["data"].update(
        refund_to="voucher",
        airline_credits=[
            {
                "id": "acd_00009UhD4ongolulWd91Ky",
                "credit_amount": "1268.64",
                "credit_currency": "EUR",
                "credit_code": "0471234567890",
                "credit_name": "Voucher",
                "type": "mco",
                "passenger_id": None,
                "issued_on": "2027-02-10",
                "expires_at": "2028-02-10T09:31:05Z",
            }
        ],
    )
    duffel.add(responses.POST, CONFIRM_URL, json=body)

    confirmed = supplier.confirm_cancellation(QUOTE)

    assert (confirmed.refund_to, confirmed.cash) == ("voucher", False)
    (credit,) = confirmed.airline_credits
    assert (credit.credit_amount, credit.credit_code, credit.issued_on) == (
        Decimal("1268.64"),
        "0471234567890",
        date(2027, 2, 10),
    )


def test_an_unknown_refund_to_is_unreadable(duffel, supplier):
    body = recorded("order_cancellation")
    body["data"]["refund_to"] = "somewhere"
    duffel.add(responses.POST, f"{BASE_URL}/air/order_cancellations", json=body, status=201)
    with pytest.raises(SupplierError) as raised:
        supplier.quote_cancellation(HELD_ORDER)
    assert raised.value.code == "supplier_bad_response"


def test_a_cancelled_order_carries_its_confirmed_cancellation(duffel, supplier):
    order = recorded("order_held")
    order["data"]["cancelled_at"] = "2027-02-10T09:31:05Z"
    order["data"]["cancellation"] = recorded("order_cancellation_confirmed")["data"]
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=order)

    found = supplier.get_order(HELD_ORDER)

    assert found.cancelled
    assert found.cancellation is not None
    assert (found.cancellation.refund_amount, found.cancellation.confirmed_at is not None) == (
        Decimal("1268.64"),
        True,
    )


# --- Reading cancellations back (the reconcile job of a lost confirmation) ----------------------

CANCELLATIONS_URL = f"{BASE_URL}/air/order_cancellations"


def cancellations_page(items: list[dict], after: str | None = None) -> dict:
    """`GET /air/order_cancellations`' answer, as Duffel lists resources."""
    return {"data": items, "meta": {"after": after, "before": None, "limit": 50}}


def test_a_cancellation_is_read_back_by_its_id(duffel, supplier):
    confirmed = recorded("order_cancellation_confirmed")
    quote_id = confirmed["data"]["id"]
    duffel.add(responses.GET, f"{CANCELLATIONS_URL}/{quote_id}", json=confirmed)

    read_back = supplier.get_cancellation(quote_id)

    assert read_back.supplier_quote_id == quote_id
    assert (read_back.refund_amount, read_back.confirmed_at is not None) == (
        Decimal("1268.64"),
        True,
    )


def test_a_read_back_of_another_cancellation_or_a_5xx_is_not_trusted(duffel, supplier):
    confirmed = recorded("order_cancellation_confirmed")
    duffel.add(responses.GET, f"{CANCELLATIONS_URL}/ore_asked", json=confirmed)
    duffel.add(responses.GET, f"{CANCELLATIONS_URL}/ore_down", status=503, json={"errors": []})
    for asked in ("ore_asked", "ore_down"):
        with pytest.raises(SupplierError):
            supplier.get_cancellation(asked)


def test_a_cancelled_order_without_its_cancellation_gets_it_from_the_list(duffel, supplier):
    order = recorded("order_held")
    order["data"]["cancelled_at"] = "2027-02-10T09:31:05Z"
    unconfirmed = {**recorded("order_cancellation")["data"], "order_id": HELD_ORDER}
    confirmed = {**recorded("order_cancellation_confirmed")["data"], "order_id": HELD_ORDER}
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=order)
    duffel.add(responses.GET, CANCELLATIONS_URL, json=cancellations_page([unconfirmed], after="g2"))
    duffel.add(responses.GET, CANCELLATIONS_URL, json=cancellations_page([confirmed]))

    found = supplier.get_order(HELD_ORDER)

    assert found.cancelled and found.cancellation is not None
    assert found.cancellation.supplier_quote_id == confirmed["id"]
    listed = [c.request.url for c in duffel.calls if "/air/order_cancellations" in c.request.url]
    assert f"order_id={HELD_ORDER}" in listed[0] and "after=g2" in listed[1]


def test_a_list_with_another_orders_cancellation_is_unreadable(duffel, supplier):
    order = recorded("order_held")
    order["data"]["cancelled_at"] = "2027-02-10T09:31:05Z"
    stranger = {**recorded("order_cancellation_confirmed")["data"], "order_id": "ord_other"}
    duffel.add(responses.GET, f"{BASE_URL}/air/orders/{HELD_ORDER}", json=order)
    duffel.add(responses.GET, CANCELLATIONS_URL, json=cancellations_page([stranger]))

    with pytest.raises(SupplierError) as raised:
        supplier.get_order(HELD_ORDER)
    assert raised.value.code == "supplier_bad_response"


# --- Airline-initiated changes ------------------------------------------------------------------

CHANGE = "aic_0000AqZc1nQ3V7eTqkL2Wb"


def test_an_orders_airline_initiated_changes_are_read_and_accepted(duffel, supplier):
    """airline_initiated_changes.json: TAP moves the outbound GRU → LIS from 16:25 to 19:00
    (terminal 3 to 2); airline_initiated_change_accepted.json: the same, accepted."""
    duffel.add(
        responses.GET,
        f"{BASE_URL}/air/airline_initiated_changes",
        match=[matchers.query_param_matcher({"order_id": HELD_ORDER})],
        json=recorded("airline_initiated_changes"),
    )
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/airline_initiated_changes/{CHANGE}/actions/accept",
        json=recorded("airline_initiated_change_accepted"),
    )

    [change] = supplier.list_airline_changes(HELD_ORDER)
    accepted = supplier.accept_airline_change(CHANGE)

    assert change.supplier_change_id == CHANGE and change.order_id == HELD_ORDER
    assert change.available_actions == ("accept", "cancel", "change")
    assert change.action_taken is None and change.action_taken_at is None
    assert change.created_at == datetime(2027, 2, 20, 11, 4, 37, 118934, tzinfo=UTC)
    [removed], [added] = change.removed, change.added
    assert (removed.origin, removed.destination, removed.duration_minutes) == ("GRU", "LIS", 630)
    [before], [after] = removed.segments, added.segments
    assert before.departing_at == datetime(2027, 3, 10, 16, 25)  # local times, kept naive
    assert after.departing_at == datetime(2027, 3, 10, 19, 0)
    assert after.arriving_at == datetime(2027, 3, 11, 8, 30)
    assert (before.origin_terminal, after.origin_terminal) == ("3", "2")
    assert after.marketing_flight_number == "88" and after.fare_basis_code == "OL0BRC"
    assert accepted.action_taken == "accepted" and accepted.available_actions == ()
    assert accepted.action_taken_at == datetime(2027, 2, 20, 14, 12, 3, 550127, tzinfo=UTC)
    listed, accept = duffel.calls
    assert accept.request.body is None
    for call in (listed, accept):
        assert_duffel_headers(call.request)
        assert call.request.req_kwargs["timeout"] == (5, 130)


def test_an_unknown_action_or_change_is_a_supplier_error(duffel, supplier):
    body = recorded("airline_initiated_changes")
    body["data"][0]["available_actions"] = ["refund"]
    duffel.add(responses.GET, f"{BASE_URL}/air/airline_initiated_changes", json=body)
    duffel.add(
        responses.POST,
        f"{BASE_URL}/air/airline_initiated_changes/{CHANGE}/actions/accept",
        json={"errors": [{"type": "invalid_request_error", "code": "not_found"}]},
        status=404,
    )
    with pytest.raises(SupplierError) as unreadable:
        supplier.list_airline_changes(HELD_ORDER)
    assert unreadable.value.code == "supplier_bad_response"
    with pytest.raises(SupplierError) as unknown:
        supplier.accept_airline_change(CHANGE)
    assert unknown.value.code == "supplier_not_found"
    assert unknown.value.message == "Unknown Duffel airline-initiated change"
