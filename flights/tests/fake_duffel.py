"""A local, stateful stand-in for Duffel's flights API (v2), for end-to-end runs without Duffel.

It implements, in Duffel's documented request and response shapes (https://duffel.com/docs/api),
the endpoints our adapter uses:

- `POST /air/offer_requests?return_offers=true`: two offers per search, both for every slice:
  Duffel Airways (ZZ) in USD, which can be held (payment within 3 days) and is refundable with a
  50.00 penalty; TAP (TP) in EUR, instant payment only and not refundable. Passengers searched
  by age come back with `type: null` and their age.
- `POST /air/orders` (type `hold` or `instant`; instant needs one `balance` payment of exactly
  the offer's total; `metadata`: string values, at most 50 keys of at most 40 characters, values
  of at most 500), `GET /air/orders` (filters `passenger_name[]`, `booking_reference`,
  `awaiting_payment`; cursor pagination `limit`/`after`, `meta.after` null on the last page),
  `GET /air/orders/{id}`.
- `POST /air/payments` (pays a hold; tickets are issued at once),
- `POST /air/order_cancellations` (an OrderCancellation: `refund_to` `awaiting_payment` and
  0.00 for an unpaid hold, the total minus the penalty to the `balance` for a refundable paid
  order, 0.00 otherwise; it expires 15 minutes later) and
  `POST /air/order_cancellations/{id}/actions/confirm` (only the order's most recent one, not
  expired; the order then carries it as its `cancellation`), `GET /air/order_cancellations/{id}`
  (the OrderCancellation as it is now: `confirmed_at` set once confirmed) and
  `GET /air/order_cancellations?order_id=…` (an order's, oldest first; pagination as orders').
- `GET /air/airline_initiated_changes?order_id=…` (the order's AirlineInitiatedChanges, a list
  in `data`) and `POST /air/airline_initiated_changes/{id}/actions/accept` (once: the change's
  `action_taken` becomes `accepted` and the order's slices its `added` ones; an actioned
  change answers 422). A change is made by `state.add_airline_change(order_id)` (the first
  slice 2 h 35 min later, new slice and segment ids), or at once for an order of the
  `SCHEDULECHANGE` scenario. Cancelling an order whose change is unanswered refunds its whole
  total (the airline's involuntary refund) and marks the change `cancelled`.

Extras (bags and seats), in Duffel's shapes: `GET /air/offers/{id}?return_available_services=
true` (an extra 23 kg bag per seated passenger and segment, 35.00 USD / 30.00 EUR, at most 2),
`GET /air/seat_maps?offer_id=` (one map per segment: rows 1 to 6, columns ABC DEF, row 1 paid,
row 3 an exit row, paid, adults only, a few seats taken, the others free), `services` on an
instant `POST /air/orders` (its payment is then the offer's total plus theirs; the order lists
them in `services` and each seat in its segment passenger's `seat`),
`GET /air/orders/{id}/available_services` (bags for a paid order) and
`POST /air/orders/{id}/services` (`add_services` and a balance `payment` of exactly their
total; the order's total grows). Scenario `BAGLOST`: the services are added but the answer to
adding them is lost.

Order changes: `POST /air/order_change_requests` (an order whose fare allows changes, ticketed:
two OrderChangeOffers, the removed slices re-priced at +20% and +30% plus the fare's change
penalty), `GET /air/order_change_offers?order_change_request_id=`, `POST /air/order_changes`
(pending), `POST /air/order_changes/{id}/actions/confirm` (a `balance` payment of a positive
`change_total_amount`; the order's slices, total and tickets follow) and
`GET /air/order_changes/{id}`. Scenarios by the same family name: `CHANGECHEAPER` (-40% and
-30%, refunded to the `original_form_of_payment`), `CHANGEVOUCHER` (the same to a `voucher`),
`CHANGEREFUSED` (the airline refuses the change request), `CHANGEEXPIRES` (offers live 2
seconds), `CHANGELOST` (the change is confirmed and the answer lost), `CHANGEDOWN` (confirming
answers 500 and changes nothing).

Every request needs `Authorization: Bearer <token>` (the one given, or any when none is) and
`Duffel-Version: v2`; bodies are `{"data": ...}`; errors are Duffel's
`{"errors": [{type, code, title, message, documentation_url, source}], "meta": {status,
request_id}}`.

Scenarios, by the family name of the first passenger of an order (any case): `PENDING` creates
the order but answers `202 Accepted` (not confirmed yet); `LOSTANSWER` creates the order and
closes the connection without answering; `SERVERERROR` answers 500 and creates nothing.
Cancellations, by the same name: `REFUNDLOW` refunds half of what the conditions give (quote and
confirmation); `REFUNDDROP` quotes per the conditions and confirms half of it; `VOUCHER` refunds
to a `voucher` (one airline credit); `QUOTEEXPIRES` quotes for 2 seconds; `CANCELLOST`
cancels the order and closes the connection without answering the confirmation.
Prices: `PRICECHANGE` holds with a price guarantee that ends as the order is made and raises
the order's total by 10 % at once (the answer to the order shows the offer's
total); paying the old total is refused as Duffel refuses it (422 `price_changed` on
`/payment/amount`).
Order passengers follow the offer's document rules (`passenger_identity_documents_required`,
`supported_passenger_identity_document_types`: at most one document, of a supported type) and
keep their `loyalty_programme_accounts`.

A path listed in `state.unavailable` is answered `503` (Duffel's error shape) until removed;
with `state.orders_without_cancellation`, `GET /air/orders/{id}` leaves out the order's
`cancellation` (what was refunded is then only in its order cancellations).

Slow answers, as Duffel's are: `search_delay` and `order_delay` (seconds) before answering a
search or an order, and `hold_searches` (a threading.Event) holds every search until the caller
sets it (`state.searches_waiting` counts those held; a search held longer than
`HOLD_DEADLINE` is answered anyway, so a failing test never leaves the server stuck).

In a test: `with FakeDuffel(token="duffel_test_x") as duffel: ... duffel.base_url`. As a
program: `python -m flights.tests.fake_duffel --port 8765 [--token T] [--search-delay 1.5]
[--order-delay 3]`. Standard library only.
"""

import argparse
import base64
import json
import secrets
import string
import threading
import time
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

API_VERSION = "v2"
DOCS = "https://duffel.com/docs/api/overview/errors"
ID_ALPHABET = string.ascii_letters + string.digits
TITLES = {"mr", "ms", "mrs", "miss", "dr"}
# The main airport of the city codes a search may use (an airport code stands for itself).
CITY_AIRPORTS = {
    "SAO": "GRU",
    "RIO": "GIG",
    "BHZ": "CNF",
    "LON": "LHR",
    "PAR": "CDG",
    "NYC": "JFK",
    "MIL": "MXP",
    "ROM": "FCO",
}
CARRIERS = {
    "ZZ": {"iata_code": "ZZ", "id": "arl_00009VME7D6ivUu8dn35WK", "name": "Duffel Airways"},
    "TP": {"iata_code": "TP", "id": "arl_00009VME7DCOaPRQvNhcMu", "name": "TAP Air Portugal"},
}
# (carrier, currency, fare per passenger type, requires instant payment, refund penalty)
FARES = [
    ("ZZ", "USD", {"adult": "400.00", "child": "300.00", "infant_without_seat": "40.00"}, False),
    ("TP", "EUR", {"adult": "380.00", "child": "285.00", "infant_without_seat": "38.00"}, True),
]
REFUND_PENALTY = "50.00"  # of the refundable (ZZ) fare, in its currency
CENTS = Decimal("0.01")
HOLD_DEADLINE = 120.0
PRICE_CHANGE = Decimal("10")  # percent, the PRICECHANGE scenario's
QUOTE_LIFETIME = timedelta(minutes=15)  # an order cancellation's expires_at
QUOTE_SHORT = timedelta(
    seconds=2
)  # the QUOTEEXPIRES scenario's  # seconds a held search waits at most for `hold_searches`


def new_id(prefix: str) -> str:
    return f"{prefix}_0000" + "".join(secrets.choice(ID_ALPHABET) for _ in range(18))


def instant(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def money(amount: Decimal) -> str:
    return str(amount.quantize(CENTS, rounding=ROUND_HALF_UP))


class DuffelError(Exception):
    def __init__(self, status: int, type_: str, code: str, title: str, message: str, field=None):
        super().__init__(message)
        self.status, self.type, self.code = status, type_, code
        self.title, self.message, self.field = title, message, field

    def body(self, request_id: str) -> dict:
        error = {
            "type": self.type,
            "code": self.code,
            "title": self.title,
            "message": self.message,
            "documentation_url": DOCS,
        }
        if self.field:
            error["source"] = {"field": self.field.rsplit("/", 1)[-1], "pointer": self.field}
        return {"errors": [error], "meta": {"status": self.status, "request_id": request_id}}


def invalid(field: str, message: str) -> DuffelError:
    return DuffelError(
        422, "validation_error", "validation_required", "Invalid field", message, field
    )


def not_found() -> DuffelError:
    return DuffelError(
        404,
        "invalid_request_error",
        "not_found",
        "Not found",
        "The resource you are trying to access does not exist.",
    )


class LoseTheAnswer(Exception):
    """Close the connection without answering (the change is made)."""


class DuffelState:
    """Offers, orders, payments and cancellations, shared by the server's threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.offers: dict[str, dict] = {}
        self.orders: dict[str, dict] = {}  # in creation order
        self.cancellations: dict[str, dict] = {}
        self.airline_changes: dict[str, dict] = {}
        self.change_requests: dict[str, dict] = {}  # OrderChangeRequests
        self.change_offers: dict[str, dict] = {}  # OrderChangeOffers
        self.order_changes: dict[str, dict] = {}  # OrderChanges
        self.booked_offers: set[str] = set()
        self.repriced: dict[str, str] = {}  # order id → its total when it was made
        self.requests: list[tuple[str, str]] = []
        # Paths ("/air/order_cancellations/ore_…") answered with Duffel's 503 while listed here.
        self.unavailable: set[str] = set()
        # Orders read without their `cancellation` (its refund is then in the cancellations).
        self.orders_without_cancellation = False
        self.searches_waiting = 0  # held by `hold_searches`, or waiting out `search_delay`

    # --- Offer requests ----------------------------------------------------------------------

    def offer_request(self, data: dict) -> dict:
        slices, passengers_in = data.get("slices"), data.get("passengers")
        if not isinstance(slices, list) or not slices:
            raise invalid("/slices", "Field 'slices' must be a non-empty list")
        if not isinstance(passengers_in, list) or not passengers_in:
            raise invalid("/passengers", "Field 'passengers' must be a non-empty list")
        cabin = data.get("cabin_class") or "economy"
        now = datetime.now(UTC)
        passengers = []
        for position, passenger in enumerate(passengers_in):
            kind, age = _passenger_kind(passenger, position)
            passengers.append(
                {
                    "id": new_id("pas"),
                    "type": None if "age" in passenger else kind,
                    "age": age,
                    "given_name": passenger.get("given_name"),
                    "family_name": passenger.get("family_name"),
                    "fare_type": None,
                    "loyalty_programme_accounts": [],
                    "_kind": kind,
                }
            )
        for position, slice_ in enumerate(slices):
            for key in ("origin", "destination", "departure_date"):
                if not isinstance(slice_, dict) or not slice_.get(key):
                    raise invalid(f"/slices/{position}/{key}", f"Field '{key}' can't be blank")
        offers = [self._offer(fare, slices, passengers, cabin, now) for fare in FARES]
        with self.lock:
            for offer in offers:
                self.offers[offer["id"]] = offer
        public_passengers = [_public(p) for p in passengers]
        return {
            "id": new_id("orq"),
            "live_mode": False,
            "created_at": instant(now),
            "cabin_class": cabin,
            "client_key": "fake-client-key",
            "slices": [
                {
                    "origin": _place(s["origin"]),
                    "origin_type": "city" if s["origin"] in CITY_AIRPORTS else "airport",
                    "destination": _place(s["destination"]),
                    "destination_type": "city" if s["destination"] in CITY_AIRPORTS else "airport",
                    "departure_date": s["departure_date"],
                }
                for s in slices
            ],
            "passengers": public_passengers,
            "offers": [_public_offer(o) for o in offers],
        }

    def _offer(self, fare, slices, passengers, cabin, now) -> dict:
        carrier, currency, prices, instant_only = fare
        base = sum((Decimal(prices[p["_kind"]]) for p in passengers), Decimal("0"))
        tax = (base * Decimal("0.15")).quantize(CENTS, rounding=ROUND_HALF_UP)
        refundable = not instant_only
        segment_passengers = [
            {
                "passenger_id": p["id"],
                "cabin_class": cabin,
                "cabin_class_marketing_name": cabin.replace("_", " ").title(),
                "fare_basis_code": "Y20LGTN2" if carrier == "ZZ" else "KL0BRC",
                "cabin": {"name": cabin, "marketing_name": cabin.title(), "amenities": None},
                "baggages": [{"type": "carry_on", "quantity": 1}]
                + (
                    [{"type": "checked", "quantity": 1}]
                    if p["_kind"] != "infant_without_seat"
                    else []
                ),
            }
            for p in passengers
        ]
        offer_slices = []
        for position, slice_ in enumerate(slices):
            origin = CITY_AIRPORTS.get(slice_["origin"], slice_["origin"])
            destination = CITY_AIRPORTS.get(slice_["destination"], slice_["destination"])
            departing = datetime.combine(
                date.fromisoformat(slice_["departure_date"]),
                datetime.min.time(),
            ) + timedelta(hours=10 if carrier == "ZZ" else 21, minutes=15)
            arriving = departing + timedelta(hours=3, minutes=20)
            number = f"{(1000 if carrier == 'ZZ' else 80) + position}"
            offer_slices.append(
                {
                    "id": new_id("sli"),
                    "origin_type": "airport",
                    "origin": _place(origin),
                    "destination_type": "airport",
                    "destination": _place(destination),
                    "duration": "PT3H20M",
                    "fare_brand_name": "Light" if carrier == "ZZ" else None,
                    "conditions": {"change_before_departure": None},
                    "changeable": None,
                    "segments": [
                        {
                            "id": new_id("seg"),
                            "origin": _place(origin),
                            "destination": _place(destination),
                            "origin_terminal": "1",
                            "destination_terminal": None,
                            "departing_at": departing.isoformat(timespec="seconds"),
                            "arriving_at": arriving.isoformat(timespec="seconds"),
                            "duration": "PT3H20M",
                            # Duffel leaves the distance null for some airlines.
                            "distance": "1015.4" if carrier == "ZZ" else None,
                            "marketing_carrier": CARRIERS[carrier],
                            "marketing_carrier_flight_number": number,
                            "operating_carrier": CARRIERS[carrier],
                            "operating_carrier_flight_number": number,
                            "aircraft": {"iata_code": "32N", "id": "arc_32n", "name": "A320neo"},
                            "stops": [],
                            "passengers": segment_passengers,
                        }
                    ],
                }
            )
        penalty = {"allowed": True, "penalty_amount": REFUND_PENALTY, "penalty_currency": currency}
        return {
            "id": new_id("off"),
            "live_mode": False,
            "partial": False,
            "created_at": instant(now),
            "updated_at": instant(now),
            "expires_at": instant(now + timedelta(minutes=30)),
            "owner": CARRIERS[carrier],
            "total_amount": money(base + tax),
            "total_currency": currency,
            "base_amount": money(base),
            "base_currency": currency,
            "tax_amount": money(tax),
            "tax_currency": currency,
            "total_emissions_kg": "180",
            "slices": offer_slices,
            "passengers": [_public(p) for p in passengers],
            "_passengers": passengers,
            "conditions": {
                "refund_before_departure": penalty if refundable else {"allowed": False},
                "change_before_departure": {
                    "allowed": refundable,
                    "penalty_amount": "25.00" if refundable else None,
                    "penalty_currency": currency if refundable else None,
                },
            },
            "payment_requirements": {
                "requires_instant_payment": instant_only,
                "payment_required_by": None if instant_only else instant(now + timedelta(days=3)),
                "price_guarantee_expires_at": (
                    None if instant_only else instant(now + timedelta(days=2))
                ),
            },
            # TAP wants a document from every passenger; Duffel Airways takes passports and tax
            # ids, TAP passports only.
            "passenger_identity_documents_required": instant_only,
            "supported_passenger_identity_document_types": (
                ["passport"] if instant_only else ["passport", "tax_id"]
            ),
            "available_services": None,
            "_services": _bag_services(offer_slices, passengers, currency),
            "_seat_maps": _seat_maps(offer_slices, passengers, currency),
        }

    def offer(self, offer_id: str, with_services: bool) -> dict:
        with self.lock:
            offer = self.offers.get(offer_id)
            if offer is None:
                raise not_found()
            public = _public_offer(offer)
            if with_services:
                public["available_services"] = offer["_services"]
        return public

    def seat_maps(self, offer_id: str) -> list[dict]:
        with self.lock:
            offer = self.offers.get(offer_id)
            if offer is None:
                raise not_found()
            return offer["_seat_maps"]

    def order_available_services(self, order_id: str) -> list[dict]:
        with self.lock:
            order = self.orders.get(order_id)
            if order is None:
                raise not_found()
            if order["payment_status"]["awaiting_payment"] or order["cancelled_at"]:
                return []
            return order["_available_services"]

    def add_services(self, order_id: str, data: dict) -> dict:
        with self.lock:
            order = self.orders.get(order_id)
            if order is None:
                raise not_found()
            if order["cancelled_at"]:
                raise DuffelError(
                    422, "invalid_state_error", "already_cancelled", "Order cancelled", "Cancelled"
                )
            lines, total = _chosen(
                data.get("add_services"), order["_available_services"], "/add_services"
            )
            payment = data.get("payment")
            _check_payment(
                payment,
                {"total_amount": money(total), "total_currency": order["total_currency"]},
                "/payment",
            )
            _book_services(order, lines)
            order["total_amount"] = money(Decimal(order["total_amount"]) + total)
            scenario = order["passengers"][0]["family_name"].upper()
        if scenario == "BAGLOST":
            raise LoseTheAnswer()
        return order

    # --- Orders ------------------------------------------------------------------------------

    def create_order(self, data: dict) -> tuple[int, dict]:
        kind = data.get("type")
        if kind not in ("hold", "instant"):
            raise invalid("/type", "Field 'type' must be one of hold, instant")
        selected = data.get("selected_offers")
        if not isinstance(selected, list) or len(selected) != 1:
            raise invalid("/selected_offers", "Exactly one selected offer is required")
        metadata = _metadata(data.get("metadata"))
        with self.lock:
            offer = self.offers.get(selected[0])
            if offer is None:
                raise not_found()
            passengers = _order_passengers(data.get("passengers"), offer)
            scenario = passengers[0]["family_name"].upper()
            if scenario == "SERVERERROR":
                raise DuffelError(
                    500, "api_error", "internal_server_error", "Internal server error", "Retry"
                )
            if datetime.fromisoformat(offer["expires_at"].replace("Z", "+00:00")) < _now():
                raise DuffelError(
                    422, "invalid_state_error", "offer_expired", "Offer expired", "Search again"
                )
            if offer["id"] in self.booked_offers:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "offer_no_longer_available",
                    "Requested offer is no longer available",
                    "Please select another offer, or create a new offer request.",
                )
            requirements = offer["payment_requirements"]
            if kind == "hold" and requirements["requires_instant_payment"]:
                raise invalid("/type", "This offer requires instant payment")
            payments = data.get("payments")
            lines, services_total = [], Decimal("0")
            if data.get("services"):
                if kind != "instant":
                    raise invalid("/services", "Services can only be booked with instant orders")
                sold = offer["_services"] + _seat_services(offer["_seat_maps"])
                lines, services_total = _chosen(data["services"], sold, "/services")
            priced = {
                "total_amount": money(Decimal(offer["total_amount"]) + services_total),
                "total_currency": offer["total_currency"],
            }
            if kind == "instant":
                if not isinstance(payments, list) or len(payments) != 1:
                    raise invalid("/payments", "An instant order needs exactly one payment")
                _check_payment(payments[0], priced, "/payments/0")
            elif payments:
                raise invalid("/payments", "A hold order takes no payment")
            now = _now()
            order = {
                "id": new_id("ord"),
                "live_mode": False,
                "type": kind,
                "created_at": instant(now),
                "synced_at": instant(now),
                "booking_reference": "".join(
                    secrets.choice(string.ascii_uppercase + string.digits) for _ in range(6)
                ),
                "cancelled_at": None,
                "cancellation": None,
                "owner": offer["owner"],
                "offer_id": offer["id"],
                "total_amount": priced["total_amount"],
                "total_currency": offer["total_currency"],
                "base_amount": offer["base_amount"],
                "base_currency": offer["base_currency"],
                "tax_amount": offer["tax_amount"],
                "tax_currency": offer["tax_currency"],
                "conditions": offer["conditions"],
                "documents": [],
                "payment_status": {
                    "awaiting_payment": kind == "hold",
                    "payment_required_by": (
                        requirements["payment_required_by"] if kind == "hold" else None
                    ),
                    "price_guarantee_expires_at": (
                        requirements["price_guarantee_expires_at"] if kind == "hold" else None
                    ),
                    "paid_at": instant(now) if kind == "instant" else None,
                },
                "payments": [],
                "passengers": passengers,
                "services": [],
                "slices": json.loads(json.dumps(offer["slices"])),
                "metadata": metadata,
                "available_actions": ["cancel", "update"],
                "airline_initiated_changes": [],
                "users": [],
            }
            order["_available_services"] = _bag_services(
                order["slices"], offer["_passengers"], offer["total_currency"]
            )
            _book_services(order, lines)
            if kind == "instant":
                _issue(order)
            answer = order
            if scenario == "PRICECHANGE" and kind == "hold":
                # The price guarantee ends as the hold is made; the airline reprices it at once.
                order["payment_status"]["price_guarantee_expires_at"] = instant(now)
                answer = json.loads(json.dumps(order))
                self.repriced[order["id"]] = order["total_amount"]
                _reprice(order, PRICE_CHANGE)
            self.orders[order["id"]] = order
            self.booked_offers.add(offer["id"])
            if scenario == "SCHEDULECHANGE":
                self._add_airline_change(order, now)
        if scenario == "LOSTANSWER":
            raise LoseTheAnswer()
        return (202 if scenario == "PENDING" else 201), answer

    def list_orders(self, query: dict[str, list[str]]) -> dict:
        limit = _int(query.get("limit", ["50"])[0], "limit")
        if not 1 <= limit <= 200:
            raise invalid("/limit", "limit must be between 1 and 200")
        start = _cursor(query["after"][0]) if query.get("after") else 0
        names = [n.lower() for n in query.get("passenger_name[]", []) if n]
        reference = (query.get("booking_reference") or [""])[0]
        awaiting = (query.get("awaiting_payment") or [""])[0]
        with self.lock:
            orders = [
                o
                for o in self.orders.values()
                if (not names or any(_has_name(o, n) for n in names))
                and (not reference or o["booking_reference"] == reference)
                and (
                    not awaiting or o["payment_status"]["awaiting_payment"] == (awaiting == "true")
                )
            ]
        page = orders[start : start + limit]
        more = start + limit < len(orders)
        return {
            "data": [_public_order(o) for o in page],
            "meta": {
                "after": base64.urlsafe_b64encode(str(start + limit).encode()).decode()
                if more
                else None,
                "before": None,
                "limit": limit,
            },
        }

    def get_order(self, order_id: str) -> dict:
        with self.lock:
            order = self.orders.get(order_id)
        if order is None:
            raise not_found()
        if self.orders_without_cancellation:
            return {key: value for key, value in order.items() if key != "cancellation"}
        return order

    def pay(self, data: dict) -> dict:
        payment = data.get("payment")
        with self.lock:
            order = self.orders.get(str(data.get("order_id")))
            if order is None:
                raise not_found()
            if order["cancelled_at"]:
                raise DuffelError(
                    422, "invalid_state_error", "already_cancelled", "Order cancelled", "Cancelled"
                )
            if not order["payment_status"]["awaiting_payment"]:
                raise DuffelError(
                    422, "invalid_state_error", "already_paid", "Order already paid", "Paid"
                )
            if not isinstance(payment, dict):
                raise invalid("/payment", "Field 'payment' can't be blank")
            if self.repriced.get(order["id"]) == payment.get("amount"):
                raise DuffelError(
                    422,
                    "validation_error",
                    "price_changed",
                    "Price changed",
                    "The price of the order has changed; retrieve it for the latest price.",
                    "/payment/amount",
                )
            _check_payment(payment, order, "/payment")
            now = _now()
            record = {
                "id": new_id("pay"),
                "live_mode": False,
                "type": payment["type"],
                "amount": payment["amount"],
                "currency": payment["currency"],
                "created_at": instant(now),
            }
            order["payments"].append(record)
            order["payment_status"].update(
                awaiting_payment=False,
                payment_required_by=None,
                price_guarantee_expires_at=None,
                paid_at=instant(now),
            )
            _issue(order)
        return record

    def quote_cancellation(self, data: dict) -> dict:
        with self.lock:
            order = self.orders.get(str(data.get("order_id")))
            if order is None:
                raise not_found()
            if order["cancelled_at"]:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "already_cancelled",
                    "Order already cancelled",
                    "This order has already been cancelled.",
                )
            now = _now()
            scenario = order["passengers"][0]["family_name"].upper()
            if self._unanswered_changes(order["id"]):
                scenario = "INVOLUNTARY"  # the airline changed the flights: all is refunded
            lifetime = QUOTE_SHORT if scenario == "QUOTEEXPIRES" else QUOTE_LIFETIME
            quote = {
                "id": new_id("ore"),
                "live_mode": False,
                "order_id": order["id"],
                "expires_at": instant(now + lifetime),
                "confirmed_at": None,
                "created_at": instant(now),
                **_refund(order, scenario, confirmed=False, now=now),
            }
            self.cancellations[quote["id"]] = quote
        return quote

    def get_cancellation(self, quote_id: str) -> dict:
        """`GET /air/order_cancellations/{id}`: the OrderCancellation as it is now (its
        `confirmed_at` and refund set once confirmed)."""
        with self.lock:
            quote = self.cancellations.get(quote_id)
            if quote is None:
                raise not_found()
            return dict(quote)

    def list_cancellations(self, query: dict[str, list[str]]) -> dict:
        """`GET /air/order_cancellations` (filter `order_id`; cursor pagination `limit`/`after`
        as for orders), oldest first."""
        limit = _int(query.get("limit", ["50"])[0], "limit")
        if not 1 <= limit <= 200:
            raise invalid("/limit", "limit must be between 1 and 200")
        start = _cursor(query["after"][0]) if query.get("after") else 0
        order_id = (query.get("order_id") or [""])[0]
        with self.lock:
            found = [
                dict(c)
                for c in self.cancellations.values()
                if not order_id or c["order_id"] == order_id
            ]
        page = found[start : start + limit]
        more = start + limit < len(found)
        after = base64.urlsafe_b64encode(str(start + limit).encode()).decode() if more else None
        return {"data": page, "meta": {"after": after, "before": None, "limit": limit}}

    # --- Airline-initiated changes -----------------------------------------------------------

    def add_airline_change(self, order_id: str) -> dict:
        """The airline moves the order's first slice 2 h 35 min later (a schedule change)."""
        with self.lock:
            order = self.orders.get(order_id)
            if order is None:
                raise not_found()
            return self._add_airline_change(order, _now())

    def _add_airline_change(self, order: dict, now: datetime) -> dict:
        before = order["slices"][0]
        shift = timedelta(hours=2, minutes=35)
        after = {
            **before,
            "id": new_id("sli"),
            "segments": [
                {
                    **segment,
                    "id": new_id("seg"),
                    "departing_at": _shifted(segment["departing_at"], shift),
                    "arriving_at": _shifted(segment["arriving_at"], shift),
                }
                for segment in before["segments"]
            ],
        }
        change = {
            "id": new_id("aic"),
            "order_id": order["id"],
            "added": [after],
            "removed": [before],
            "available_actions": ["accept", "cancel", "change"],
            "action_taken": None,
            "action_taken_at": None,
            "travel_agent_ticket": None,
            "created_at": instant(now),
            "updated_at": instant(now),
        }
        self.airline_changes[change["id"]] = change
        order["airline_initiated_changes"].append(change)
        return change

    def _unanswered_changes(self, order_id: str) -> list[dict]:
        return [
            c
            for c in self.airline_changes.values()
            if c["order_id"] == order_id and c["action_taken"] is None
        ]

    def list_airline_changes(self, query: dict[str, list[str]]) -> dict:
        order_id = (query.get("order_id") or [""])[0]
        with self.lock:
            if order_id and order_id not in self.orders:
                raise not_found()
            changes = [
                c
                for c in self.airline_changes.values()
                if not order_id or c["order_id"] == order_id
            ]
            return {"data": json.loads(json.dumps(changes))}

    def accept_airline_change(self, change_id: str) -> dict:
        with self.lock:
            change = self.airline_changes.get(change_id)
            if change is None:
                raise not_found()
            if change["action_taken"] is not None or "accept" not in change["available_actions"]:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "airline_initiated_change_already_actioned",
                    "Already actioned",
                    "An action has already been taken on this airline-initiated change.",
                )
            now = _now()
            change.update(
                action_taken="accepted",
                action_taken_at=instant(now),
                available_actions=[],
                updated_at=instant(now),
            )
            order = self.orders[change["order_id"]]
            removed = {s["id"] for s in change["removed"]}
            position = next(i for i, s in enumerate(order["slices"]) if s["id"] in removed)
            kept = [s for s in order["slices"] if s["id"] not in removed]
            order["slices"] = kept[:position] + change["added"] + kept[position:]
            return json.loads(json.dumps(change))

    def confirm_cancellation(self, quote_id: str) -> dict:
        with self.lock:
            quote = self.cancellations.get(quote_id)
            if quote is None:
                raise not_found()
            order = self.orders[quote["order_id"]]
            if order["cancelled_at"] or quote["confirmed_at"]:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "already_cancelled",
                    "Order already cancelled",
                    "This order has already been cancelled.",
                )
            latest = [c for c in self.cancellations.values() if c["order_id"] == order["id"]][-1]
            if latest["id"] != quote_id:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "order_cancellation_superseded",
                    "Not the latest cancellation",
                    "You can only confirm the most recent order cancellation of an order.",
                )
            now = _now()
            if datetime.fromisoformat(quote["expires_at"].replace("Z", "+00:00")) < now:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "order_cancellation_expired",
                    "Order cancellation expired",
                    "Create a new order cancellation.",
                )
            scenario = order["passengers"][0]["family_name"].upper()
            involuntary = bool(self._unanswered_changes(order["id"]))
            quote.update(
                _refund(order, "INVOLUNTARY" if involuntary else scenario, confirmed=True, now=now)
            )
            quote["confirmed_at"] = instant(now)
            order["cancelled_at"] = instant(now)
            order["cancellation"] = dict(quote)
            order["available_actions"] = []
            for change in self._unanswered_changes(order["id"]):
                change.update(
                    action_taken="cancelled",
                    action_taken_at=instant(now),
                    available_actions=[],
                    updated_at=instant(now),
                )
        if scenario == "CANCELLOST":
            raise LoseTheAnswer()
        return quote

    # --- Order changes ------------------------------------------------------------------------

    def request_change(self, data: dict) -> dict:
        """An OrderChangeRequest and its offers (`order_change_offers`): the removed slices'
        share of the order's total re-priced at +20% (`CHANGECHEAPER`, `CHANGEVOUCHER`: -40%,
        refunded to the original form of payment / a voucher), plus the fare's change penalty."""
        slices = data.get("slices")
        if not isinstance(slices, dict):
            raise invalid("/slices", "Field 'slices' must be an object with add and remove")
        remove, add = slices.get("remove") or [], slices.get("add") or []
        with self.lock:
            order = self.orders.get(str(data.get("order_id")))
            if order is None:
                raise not_found()
            scenario = order["passengers"][0]["family_name"].upper()
            rule = order["conditions"].get("change_before_departure") or {}
            if (
                order["cancelled_at"]
                or not order["documents"]
                or not rule.get("allowed")
                or scenario == "CHANGEREFUSED"
            ):
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "order_change_not_possible",
                    "Order change not possible",
                    "The airline does not allow changes to this order.",
                )
            by_id = {s["id"]: s for s in order["slices"]}
            removed = []
            for position, item in enumerate(remove):
                slice_id = item.get("slice_id") if isinstance(item, dict) else None
                if slice_id not in by_id:
                    raise invalid(f"/slices/remove/{position}/slice_id", "Not a slice of the order")
                removed.append(by_id[slice_id])
            for position, item in enumerate(add):
                for key in ("origin", "destination", "departure_date", "cabin_class"):
                    if not isinstance(item, dict) or not item.get(key):
                        raise invalid(f"/slices/add/{position}/{key}", f"'{key}' can't be blank")
            now = _now()
            request_id = new_id("ocr")
            lifetime = QUOTE_SHORT if scenario == "CHANGEEXPIRES" else QUOTE_LIFETIME
            total = Decimal(order["total_amount"])
            share = (total * len(removed) / len(order["slices"])).quantize(CENTS)
            factor = (
                Decimal("0.6") if scenario in ("CHANGECHEAPER", "CHANGEVOUCHER") else Decimal("1.2")
            )
            penalty = Decimal(rule.get("penalty_amount") or "0")
            carrier = order["owner"]["iata_code"]
            offers = []
            for variant, hour in enumerate((8, 18)):
                added = [_change_slice(item, order, carrier, hour) for item in add]
                new_fare = (share * (factor + Decimal(variant) / 10)).quantize(CENTS)
                change_total = new_fare - share + penalty
                refund_to = None
                if change_total < 0:
                    refund_to = (
                        "voucher" if scenario == "CHANGEVOUCHER" else "original_form_of_payment"
                    )
                offer = {
                    "id": new_id("oco"),
                    "live_mode": False,
                    "order_change_id": None,
                    "slices": {"add": added, "remove": removed},
                    "change_total_amount": money(change_total),
                    "change_total_currency": order["total_currency"],
                    "penalty_total_amount": money(penalty),
                    "penalty_total_currency": order["total_currency"],
                    "new_total_amount": money(total + change_total),
                    "new_total_currency": order["total_currency"],
                    "refund_to": refund_to,
                    "expires_at": instant(now + lifetime),
                    "created_at": instant(now),
                    "updated_at": instant(now),
                    "_order_id": order["id"],
                    "_request_id": request_id,
                }
                self.change_offers[offer["id"]] = offer
                offers.append(offer)
            change_request = {
                "id": request_id,
                "live_mode": False,
                "order_id": order["id"],
                "slices": {"add": add, "remove": remove},
                "order_change_offers": [_public_offer(o) for o in offers],
                "created_at": instant(now),
                "updated_at": instant(now),
            }
            self.change_requests[request_id] = change_request
        return change_request

    def list_change_offers(self, query: dict[str, list[str]]) -> dict:
        request_id = (query.get("order_change_request_id") or [""])[0]
        with self.lock:
            offers = [
                _public_offer(o)
                for o in self.change_offers.values()
                if o["_request_id"] == request_id
            ]
        return {"data": offers, "meta": {"after": None, "before": None, "limit": 50}}

    def create_change(self, data: dict) -> dict:
        with self.lock:
            offer = self.change_offers.get(str(data.get("selected_order_change_offer")))
            if offer is None:
                raise not_found()
            if datetime.fromisoformat(offer["expires_at"].replace("Z", "+00:00")) < _now():
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "order_change_offer_expired",
                    "Order change offer expired",
                    "Create a new order change request.",
                )
            now = _now()
            change = {
                "id": new_id("oce"),
                "live_mode": False,
                "order_id": offer["_order_id"],
                "slices": offer["slices"],
                **{
                    key: offer[key]
                    for key in (
                        "change_total_amount",
                        "change_total_currency",
                        "penalty_total_amount",
                        "penalty_total_currency",
                        "new_total_amount",
                        "new_total_currency",
                        "refund_to",
                        "expires_at",
                    )
                },
                "confirmed_at": None,
                "created_at": instant(now),
            }
            self.order_changes[change["id"]] = change
        return change

    def confirm_change(self, change_id: str, data: dict) -> dict:
        with self.lock:
            change = self.order_changes.get(change_id)
            if change is None:
                raise not_found()
            order = self.orders[change["order_id"]]
            if change["confirmed_at"]:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "order_change_already_confirmed",
                    "Order change already confirmed",
                    "This order change has already been confirmed.",
                )
            now = _now()
            if datetime.fromisoformat(change["expires_at"].replace("Z", "+00:00")) < now:
                raise DuffelError(
                    422,
                    "invalid_state_error",
                    "order_change_offer_expired",
                    "Order change expired",
                    "Create a new order change request.",
                )
            scenario = order["passengers"][0]["family_name"].upper()
            if scenario == "CHANGEDOWN":
                raise DuffelError(
                    500, "api_error", "internal_server_error", "Internal server error", "Retry"
                )
            if Decimal(change["change_total_amount"]) > 0:
                _check_payment(
                    data.get("payment"),
                    {
                        "total_amount": change["change_total_amount"],
                        "total_currency": change["change_total_currency"],
                    },
                    "/payment",
                )
            removed = {s["id"] for s in change["slices"]["remove"]}
            kept = [s for s in order["slices"] if s["id"] not in removed]
            order["slices"] = sorted(
                kept + change["slices"]["add"], key=lambda s: s["segments"][0]["departing_at"]
            )
            order["total_amount"] = change["new_total_amount"]
            _issue(order)  # the airline reissues the tickets
            change["confirmed_at"] = instant(now)
            scenario = order["passengers"][0]["family_name"].upper()
        if scenario == "CHANGELOST":
            raise LoseTheAnswer()
        return change

    def get_change(self, change_id: str) -> dict:
        with self.lock:
            change = self.order_changes.get(change_id)
        if change is None:
            raise not_found()
        return change


# --- Helpers ----------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _shifted(local: str, shift: timedelta) -> str:
    return (datetime.fromisoformat(local) + shift).isoformat(timespec="seconds")


def _refund(order: dict, scenario: str, *, confirmed: bool, now: datetime) -> dict:
    """An OrderCancellation's refund fields for the order, per its scenario."""
    if scenario == "INVOLUNTARY" and not order["payment_status"]["awaiting_payment"]:
        return {
            "refund_amount": order["total_amount"],
            "refund_currency": order["total_currency"],
            "refund_to": "balance",
            "airline_credits": [],
        }
    if order["payment_status"]["awaiting_payment"]:
        return {
            "refund_amount": "0.00",
            "refund_currency": order["total_currency"],
            "refund_to": "awaiting_payment",
            "airline_credits": [],
        }
    refund = Decimal("0")
    refund_rule = order["conditions"]["refund_before_departure"]
    if refund_rule.get("allowed"):
        penalty = Decimal(refund_rule.get("penalty_amount") or "0")
        refund = max(Decimal(order["total_amount"]) - penalty, Decimal("0"))
    if scenario == "REFUNDLOW" or (confirmed and scenario == "REFUNDDROP"):
        refund = refund / 2
    refund_to, credits = "balance", []
    if scenario == "VOUCHER":
        refund_to = "voucher"
        credits = [
            {
                "id": new_id("acd"),
                "credit_amount": money(refund),
                "credit_currency": order["total_currency"],
                "credit_code": "".join(secrets.choice(string.digits) for _ in range(13)),
                "credit_name": "Voucher",
                "type": "mco",
                "passenger_id": None,
                "issued_on": now.date().isoformat(),
                "expires_at": instant(now + timedelta(days=365)),
            }
        ]
    return {
        "refund_amount": money(refund),
        "refund_currency": order["total_currency"],
        "refund_to": refund_to,
        "airline_credits": credits,
    }


BAG_PRICE = {"USD": "35.00", "EUR": "30.00"}
SEAT_PRICE = {"USD": ("25.00", "40.00"), "EUR": ("22.00", "36.00")}  # front row, exit row
EXIT_DISCLOSURES = ["Do not seat children in exit row seats"]


def _bag_services(slices: list[dict], passengers: list[dict], currency: str) -> list[dict]:
    """An extra checked bag per seated passenger and segment (Duffel's available services)."""
    return [
        {
            "id": new_id("ase"),
            "type": "baggage",
            "passenger_ids": [p["id"]],
            "segment_ids": [segment["id"]],
            "maximum_quantity": 2,
            "total_amount": BAG_PRICE.get(currency, "35.00"),
            "total_currency": currency,
            "metadata": {
                "type": "checked",
                "maximum_weight_kg": 23,
                "maximum_length_cm": 90,
                "maximum_height_cm": 75,
                "maximum_depth_cm": 43,
            },
        }
        for slice_ in slices
        for segment in slice_["segments"]
        for p in passengers
        if p["_kind"] != "infant_without_seat"
    ]


def _seat_maps(slices: list[dict], passengers: list[dict], currency: str) -> list[dict]:
    front, exit_ = SEAT_PRICE.get(currency, SEAT_PRICE["USD"])
    maps = []
    for slice_ in slices:
        for segment in slice_["segments"]:
            rows = []
            for row in range(1, 7):
                if row == 3:
                    rows.append({"sections": [{"elements": [{"type": "exit_row"}]}] * 2})
                sections = []
                for columns in ("ABC", "DEF"):
                    elements = []
                    for column in columns:
                        taken = (row + ord(column)) % 5 == 0
                        price = front if row == 1 else exit_ if row == 3 else "0.00"
                        elements.append(
                            {
                                "type": "seat",
                                "designator": f"{row}{column}",
                                "name": "Exit row seat" if row == 3 else "",
                                "disclosures": EXIT_DISCLOSURES if row == 3 else [],
                                "available_services": []
                                if taken
                                else [
                                    {
                                        "id": new_id("ase"),
                                        "passenger_id": p["id"],
                                        "total_amount": price,
                                        "total_currency": currency,
                                    }
                                    for p in passengers
                                    if p["_kind"] == "adult" or (p["_kind"] == "child" and row != 3)
                                ],
                            }
                        )
                    sections.append({"elements": elements})
                rows.append({"sections": sections})
            maps.append(
                {
                    "id": new_id("sea"),
                    "slice_id": slice_["id"],
                    "segment_id": segment["id"],
                    "cabins": [
                        {
                            "cabin_class": "economy",
                            "deck": 0,
                            "aisles": 1,
                            "wings": {"first_row_index": 2, "last_row_index": 4},
                            "rows": rows,
                        }
                    ],
                }
            )
    return maps


def _seat_services(seat_maps: list[dict]) -> list[dict]:
    """The seats of the maps as services, to check and book them."""
    found = []
    for seat_map in seat_maps:
        for row in seat_map["cabins"][0]["rows"]:
            for section in row["sections"]:
                for element in section["elements"]:
                    for service in element.get("available_services") or []:
                        found.append(
                            {
                                "id": service["id"],
                                "type": "seat",
                                "passenger_ids": [service["passenger_id"]],
                                "segment_ids": [seat_map["segment_id"]],
                                "maximum_quantity": 1,
                                "total_amount": service["total_amount"],
                                "total_currency": service["total_currency"],
                                "metadata": {
                                    "designator": element["designator"],
                                    "name": element["name"],
                                    "disclosures": element["disclosures"],
                                },
                            }
                        )
    return found


def _chosen(given, sold: list[dict], pointer: str) -> tuple[list[tuple[dict, int]], Decimal]:
    """The services asked for (`[{id, quantity}]`) among those sold, and their total."""
    if not isinstance(given, list) or not given:
        raise invalid(pointer, "Give at least one service: {id, quantity}")
    by_id = {service["id"]: service for service in sold}
    lines, total = [], Decimal("0")
    for position, item in enumerate(given):
        service = by_id.get(item.get("id")) if isinstance(item, dict) else None
        if service is None:
            raise invalid(f"{pointer}/{position}/id", "This service is not available")
        quantity = item.get("quantity")
        if not isinstance(quantity, int) or not 1 <= quantity <= service["maximum_quantity"]:
            raise invalid(f"{pointer}/{position}/quantity", "Invalid quantity")
        lines.append((service, quantity))
        total += Decimal(service["total_amount"]) * quantity
    return lines, total


def _book_services(order: dict, lines: list[tuple[dict, int]]) -> None:
    """The services onto the order (`services`; a seat also on its segment passenger)."""
    for service, quantity in lines:
        order["services"].append(
            {
                "id": new_id("ser"),
                "type": service["type"],
                "passenger_ids": service["passenger_ids"],
                "segment_ids": service["segment_ids"],
                "quantity": quantity,
                "total_amount": money(Decimal(service["total_amount"]) * quantity),
                "total_currency": service["total_currency"],
                "metadata": service["metadata"],
            }
        )
        if service["type"] == "seat":
            for slice_ in order["slices"]:
                for segment in slice_["segments"]:
                    if segment["id"] in service["segment_ids"]:
                        for passenger in segment["passengers"]:
                            if passenger["passenger_id"] in service["passenger_ids"]:
                                passenger["seat"] = service["metadata"]


def _change_slice(item: dict, order: dict, carrier: str, hour: int) -> dict:
    """A slice an order change offer adds, on the order's airline, at `hour` local time."""
    departing = datetime.combine(
        date.fromisoformat(item["departure_date"]), datetime.min.time()
    ) + timedelta(hours=hour, minutes=5)
    arriving = departing + timedelta(hours=3, minutes=20)
    origin = CITY_AIRPORTS.get(item["origin"], item["origin"])
    destination = CITY_AIRPORTS.get(item["destination"], item["destination"])
    return {
        "id": new_id("sli"),
        "origin_type": "airport",
        "origin": _place(origin),
        "destination_type": "airport",
        "destination": _place(destination),
        "duration": "PT3H20M",
        "fare_brand_name": "Light" if carrier == "ZZ" else None,
        "segments": [
            {
                "id": new_id("seg"),
                "origin": _place(origin),
                "destination": _place(destination),
                "origin_terminal": "1",
                "destination_terminal": None,
                "departing_at": departing.isoformat(timespec="seconds"),
                "arriving_at": arriving.isoformat(timespec="seconds"),
                "duration": "PT3H20M",
                "distance": None,
                "marketing_carrier": order["owner"],
                "marketing_carrier_flight_number": f"{2000 + hour}",
                "operating_carrier": order["owner"],
                "operating_carrier_flight_number": f"{2000 + hour}",
                "aircraft": {"iata_code": "32N", "id": "arc_32n", "name": "A320neo"},
                "stops": [],
                "passengers": [
                    {
                        "passenger_id": p["id"],
                        "cabin_class": item["cabin_class"],
                        "cabin_class_marketing_name": item["cabin_class"].replace("_", " ").title(),
                        "fare_basis_code": "Y20CHG",
                        "baggages": _baggages(p["type"]),
                    }
                    for p in order["passengers"]
                ],
            }
        ],
    }


def _public(passenger: dict) -> dict:
    return {k: v for k, v in passenger.items() if not k.startswith("_")}


def _public_offer(offer: dict) -> dict:
    return {k: v for k, v in offer.items() if not k.startswith("_")}


def _public_order(order: dict) -> dict:
    return {k: v for k, v in order.items() if not k.startswith("_")}


def _baggages(kind: str) -> list[dict]:
    carry_on = [{"type": "carry_on", "quantity": 1}]
    return (
        carry_on
        if kind == "infant_without_seat"
        else [*carry_on, {"type": "checked", "quantity": 1}]
    )


def _place(code: str) -> dict:
    city = next((c for c, airport in CITY_AIRPORTS.items() if airport == code), code)
    return {
        "id": f"arp_{code.lower()}",
        "type": "airport",
        "iata_code": code,
        "iata_city_code": city,
        "name": code,
        "city_name": city,
        "time_zone": None,  # the adapter falls back to its own data
        "city": None,
    }


def _passenger_kind(passenger, position: int) -> tuple[str, int | None]:
    if not isinstance(passenger, dict):
        raise invalid(f"/passengers/{position}", "A passenger must be an object")
    if "age" in passenger:
        age = passenger["age"]
        if not isinstance(age, int) or isinstance(age, bool) or not 0 <= age <= 130:
            raise invalid(f"/passengers/{position}/age", "Field 'age' must be an integer")
        return ("infant_without_seat" if age < 2 else "child" if age < 12 else "adult"), age
    kind = passenger.get("type")
    if kind not in ("adult", "child", "infant_without_seat"):
        raise invalid(f"/passengers/{position}/type", "Field 'type' is not a passenger type")
    return kind, None


def _metadata(value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > 50:
        raise invalid("/metadata", "Metadata must be an object of at most 50 keys")
    for key, item in value.items():
        if not isinstance(key, str) or not key or len(key) > 40:
            raise invalid(f"/metadata/{key}", "Metadata keys are 1 to 40 characters")
        if not all(c.isascii() and (c.isalnum() or c in "-_") for c in key):
            raise invalid(f"/metadata/{key}", "Metadata keys are letters, digits, - and _")
        if not isinstance(item, str) or len(item) > 500:
            raise invalid(f"/metadata/{key}", "Metadata values are strings of at most 500")
    return dict(value)


def _order_passengers(given, offer: dict) -> list[dict]:
    expected = {p["id"]: p for p in offer["_passengers"]}
    if (
        not isinstance(given, list)
        or {p.get("id") for p in given if isinstance(p, dict)} != set(expected)
        or len(given) != len(expected)
    ):
        raise invalid("/passengers", "Provide every passenger of the offer once, by its id")
    infants = {pid for pid, p in expected.items() if p["_kind"] == "infant_without_seat"}
    passengers = []
    for position, passenger in enumerate(given):
        pointer = f"/passengers/{position}"
        for key in ("given_name", "family_name", "born_on", "email", "phone_number"):
            if not isinstance(passenger.get(key), str) or not passenger[key].strip():
                raise invalid(f"{pointer}/{key}", f"Field '{key}' can't be blank")
        if passenger.get("title") not in TITLES:
            raise invalid(f"{pointer}/title", "Field 'title' must be one of mr, ms, mrs, miss, dr")
        if passenger.get("gender") not in ("m", "f"):
            raise invalid(f"{pointer}/gender", "Field 'gender' must be m or f")
        if not passenger["phone_number"].startswith("+"):
            raise invalid(f"{pointer}/phone_number", "Field 'phone_number' must be E.164")
        try:
            date.fromisoformat(passenger["born_on"])
        except ValueError:
            raise invalid(f"{pointer}/born_on", "Field 'born_on' must be a date") from None
        infant = passenger.get("infant_passenger_id")
        if infant is not None and infant not in infants:
            raise invalid(f"{pointer}/infant_passenger_id", "Not an infant of this offer")
        passengers.append(
            {
                "id": passenger["id"],
                "type": expected[passenger["id"]]["_kind"],
                "title": passenger["title"],
                "gender": passenger["gender"],
                "given_name": passenger["given_name"],
                "family_name": passenger["family_name"],
                "born_on": passenger["born_on"],
                "email": passenger["email"],
                "phone_number": passenger["phone_number"],
                "infant_passenger_id": infant,
                "identity_documents": _identity_documents(passenger, offer, pointer),
                "loyalty_programme_accounts": _loyalty_accounts(passenger, pointer),
            }
        )
    return passengers


def _identity_documents(passenger: dict, offer: dict, pointer: str) -> list[dict]:
    """At most one document, of a type the offer supports; one is required when the offer says
    so (Duffel's rules for order passengers)."""
    documents = passenger.get("identity_documents") or []
    if not isinstance(documents, list) or len(documents) > 1:
        raise invalid(f"{pointer}/identity_documents", "Provide at most one identity document")
    if not documents and offer["passenger_identity_documents_required"]:
        raise invalid(f"{pointer}/identity_documents", "An identity document is required")
    for document in documents:
        if document.get("type") not in offer["supported_passenger_identity_document_types"]:
            raise invalid(
                f"{pointer}/identity_documents/0/type", "This document type is not supported"
            )
        for key in ("unique_identifier", "issuing_country_code", "expires_on"):
            if not isinstance(document.get(key), str) or not document[key]:
                raise invalid(f"{pointer}/identity_documents/0/{key}", f"'{key}' can't be blank")
    return documents


def _loyalty_accounts(passenger: dict, pointer: str) -> list[dict]:
    accounts = passenger.get("loyalty_programme_accounts") or []
    for position, account in enumerate(accounts):
        for key in ("airline_iata_code", "account_number"):
            if not isinstance(account, dict) or not account.get(key):
                raise invalid(
                    f"{pointer}/loyalty_programme_accounts/{position}/{key}",
                    f"'{key}' can't be blank",
                )
    return [
        {"airline_iata_code": a["airline_iata_code"], "account_number": a["account_number"]}
        for a in accounts
    ]


def _reprice(order: dict, percent: Decimal) -> None:
    """The order's amounts raised by `percent` (the PRICECHANGE scenario)."""
    factor = 1 + percent / 100
    base = (Decimal(order["base_amount"]) * factor).quantize(CENTS, rounding=ROUND_HALF_UP)
    tax = (Decimal(order["tax_amount"]) * factor).quantize(CENTS, rounding=ROUND_HALF_UP)
    order.update(base_amount=money(base), tax_amount=money(tax), total_amount=money(base + tax))


def _check_payment(payment, priced: dict, pointer: str) -> None:
    if not isinstance(payment, dict) or payment.get("type") != "balance":
        raise invalid(f"{pointer}/type", "Only balance payments are accepted here")
    try:
        amount = Decimal(str(payment.get("amount")))
    except ArithmeticError:
        raise invalid(f"{pointer}/amount", "Field 'amount' must be a decimal string") from None
    if payment.get("currency") != priced["total_currency"]:
        raise invalid(f"{pointer}/currency", "The currency must be the order's")
    if amount != Decimal(priced["total_amount"]):
        raise DuffelError(
            422,
            "validation_error",
            "invalid_payment_amount",
            "Invalid payment amount",
            "The payment amount must equal the total amount",
            f"{pointer}/amount",
        )


def _issue(order: dict) -> None:
    order["documents"] = [
        {
            "type": "electronic_ticket",
            "unique_identifier": "".join(secrets.choice(string.digits) for _ in range(13)),
            "passenger_ids": [p["id"]],
        }
        for p in order["passengers"]
    ]


def _has_name(order: dict, name: str) -> bool:
    return any(
        name in p["given_name"].lower() or name in p["family_name"].lower()
        for p in order["passengers"]
    )


def _int(text: str, field: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise invalid(f"/{field}", f"{field} must be an integer") from None


def _cursor(text: str) -> int:
    try:
        return int(base64.urlsafe_b64decode(text.encode()).decode())
    except ValueError:
        raise DuffelError(
            400, "invalid_request_error", "bad_request", "Bad request", "Unknown cursor"
        ) from None


# --- HTTP -------------------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    server: "FakeDuffelServer"
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: tests read state, not logs
        if self.server.verbose:
            super().log_message(format, *args)

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method: str) -> None:
        request_id = new_id("req")
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        state = self.server.state
        with state.lock:
            state.requests.append((method, self.path))
        try:
            self._authorise()
            if url.path in state.unavailable:
                raise DuffelError(
                    503,
                    "api_error",
                    "service_unavailable",
                    "Service unavailable",
                    "The service is temporarily unavailable.",
                )
            status, body = self._route(method, url.path, query, raw)
        except LoseTheAnswer:
            self.close_connection = True
            self.connection.shutdown(2)  # SHUT_RDWR: the client reads no answer at all
            return
        except DuffelError as error:
            status, body = error.status, error.body(request_id)
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("x-request-id", request_id)
        self.end_headers()
        self.wfile.write(payload)

    def _authorise(self) -> None:
        authorization = self.headers.get("Authorization") or ""
        token = authorization.removeprefix("Bearer ").strip()
        if (
            not authorization.startswith("Bearer ")
            or not token
            or (self.server.token and token != self.server.token)
        ):
            raise DuffelError(
                401,
                "authentication_error",
                "access_token_not_found",
                "Access token not found",
                "The access token used was not recognized by our system.",
            )
        if self.headers.get("Duffel-Version") != API_VERSION:
            raise DuffelError(
                400,
                "invalid_request_error",
                "unsupported_version",
                "Unsupported version",
                "Send the Duffel-Version header: v2.",
            )

    @staticmethod
    def _data(raw: bytes) -> dict:
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            raise DuffelError(
                400, "invalid_request_error", "malformed_data", "Malformed data", "Not JSON"
            ) from None
        if not isinstance(body, dict) or not isinstance(body.get("data"), dict):
            raise DuffelError(
                422,
                "validation_error",
                "invalid_data_param",
                "Invalid data param",
                'The body must be {"data": {...}}.',
            )
        return body["data"]

    def _route(self, method: str, path: str, query: dict, raw: bytes) -> tuple[int, dict]:
        state = self.server.state
        parts = [p for p in path.split("/") if p]
        if method == "POST" and parts == ["air", "offer_requests"]:
            if query.get("return_offers", ["true"])[0] != "true":
                raise invalid("/return_offers", "Only return_offers=true is served here")
            self._wait_before_search()
            return 201, {"data": state.offer_request(self._data(raw))}
        if parts == ["air", "orders"]:
            if method == "POST":
                time.sleep(self.server.order_delay)  # an airline confirming
                status, order = state.create_order(self._data(raw))
                return status, {"data": _public_order(order)}
            return 200, state.list_orders(query)
        if method == "GET" and len(parts) == 3 and parts[:2] == ["air", "orders"]:
            return 200, {"data": _public_order(state.get_order(parts[2]))}
        if method == "GET" and len(parts) == 3 and parts[:2] == ["air", "offers"]:
            with_services = query.get("return_available_services", ["false"])[0] == "true"
            return 200, {"data": state.offer(parts[2], with_services)}
        if method == "GET" and parts == ["air", "seat_maps"]:
            return 200, {"data": state.seat_maps((query.get("offer_id") or [""])[0])}
        if parts[:2] == ["air", "orders"] and len(parts) == 4:
            if method == "GET" and parts[3] == "available_services":
                return 200, {"data": state.order_available_services(parts[2])}
            if method == "POST" and parts[3] == "services":
                order = state.add_services(parts[2], self._data(raw))
                return 201, {"data": _public_order(order)}
        if method == "POST" and parts == ["air", "payments"]:
            return 201, {"data": state.pay(self._data(raw))}
        if parts == ["air", "order_cancellations"]:
            if method == "POST":
                return 201, {"data": state.quote_cancellation(self._data(raw))}
            return 200, state.list_cancellations(query)
        if method == "GET" and len(parts) == 3 and parts[:2] == ["air", "order_cancellations"]:
            return 200, {"data": state.get_cancellation(parts[2])}
        if (
            method == "POST"
            and len(parts) == 5
            and parts[:2] == ["air", "order_cancellations"]
            and parts[3:] == ["actions", "confirm"]
        ):
            return 200, {"data": state.confirm_cancellation(parts[2])}
        if method == "GET" and parts == ["air", "airline_initiated_changes"]:
            return 200, state.list_airline_changes(query)
        if (
            method == "POST"
            and len(parts) == 5
            and parts[:2] == ["air", "airline_initiated_changes"]
            and parts[3:] == ["actions", "accept"]
        ):
            return 200, {"data": state.accept_airline_change(parts[2])}
        if method == "POST" and parts == ["air", "order_change_requests"]:
            return 201, {"data": state.request_change(self._data(raw))}
        if method == "GET" and parts == ["air", "order_change_offers"]:
            return 200, state.list_change_offers(query)
        if method == "POST" and parts == ["air", "order_changes"]:
            return 201, {"data": state.create_change(self._data(raw))}
        if method == "GET" and len(parts) == 3 and parts[:2] == ["air", "order_changes"]:
            return 200, {"data": state.get_change(parts[2])}
        if (
            method == "POST"
            and len(parts) == 5
            and parts[:2] == ["air", "order_changes"]
            and parts[3:] == ["actions", "confirm"]
        ):
            body = json.loads(raw or b"{}") or {}
            return 200, {"data": state.confirm_change(parts[2], body.get("data") or {})}
        raise not_found()

    def _wait_before_search(self) -> None:
        state, server = self.server.state, self.server
        with state.lock:
            state.searches_waiting += 1
        try:
            if server.hold_searches is not None:
                server.hold_searches.wait(HOLD_DEADLINE)
            time.sleep(server.search_delay)
        finally:
            with state.lock:
                state.searches_waiting -= 1


class FakeDuffelServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # many searches at once (the bench's, the tests' held ones)

    def __init__(
        self,
        address,
        *,
        token: str = "",
        verbose: bool = False,
        search_delay: float = 0.0,
        order_delay: float = 0.0,
        hold_searches: threading.Event | None = None,
    ):
        super().__init__(address, Handler)
        self.state = DuffelState()
        self.token = token
        self.verbose = verbose
        self.search_delay, self.order_delay = search_delay, order_delay
        self.hold_searches = hold_searches


class FakeDuffel:
    """The server in a background thread on a free local port."""

    def __init__(self, *, token: str = "", **slow):
        """`slow`: FakeDuffelServer's search_delay, order_delay, hold_searches."""
        self.server = FakeDuffelServer(("127.0.0.1", 0), token=token, **slow)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def state(self) -> DuffelState:
        return self.server.state

    def __enter__(self) -> "FakeDuffel":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description="A local Duffel-shaped flights API (v2).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--token", default="", help="The only access token accepted (any if empty)."
    )
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--search-delay", type=float, default=0.0, help="Seconds per search.")
    parser.add_argument("--order-delay", type=float, default=0.0, help="Seconds per order.")
    args = parser.parse_args()
    server = FakeDuffelServer(
        (args.host, args.port),
        token=args.token,
        verbose=not args.quiet,
        search_delay=args.search_delay,
        order_delay=args.order_delay,
    )
    host, port = server.server_address[:2]
    print(f"Fake Duffel listening on http://{host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
