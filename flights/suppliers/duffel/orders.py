"""Orders (duffel_api's `api/booking/orders.py`): create one, `POST /air/orders` (a hold, or
instant and paid from the Duffel balance, carrying our booking id in its metadata); get one,
`GET /air/orders/{id}`; find one by our booking id, `GET /air/orders`. The passengers as
Duffel takes them, and Duffel's order read into a SupplierOrder."""

from datetime import date
from decimal import Decimal
from typing import Any

from flights.suppliers.base import CancellationQuote, OrderPassenger, SupplierOrder, TicketDocument
from flights.suppliers.duffel.errors import (
    OFFER_NOT_FOUND,
    ORDER_NOT_FOUND,
    ORDER_PENDING,
    OUTCOME,
    TOO_MANY_ORDERS,
    Unreadable,
    outcome_unknown,
    supplier_error,
)
from flights.suppliers.duffel.http_client import (
    ORDER_TIMEOUT,
    DuffelClient,
    data_of,
    json_or_none,
    path_part,
    read,
)
from flights.suppliers.duffel.order_cancellations import quote_from
from flights.suppliers.duffel.payments import balance_payment
from flights.suppliers.duffel.values import decimal_or_none, utc_or_none

DUFFEL_TITLES = frozenset({"mr", "ms", "mrs", "miss", "dr"})
# find lists orders in pages of ORDERS_PAGE_SIZE (Duffel's maximum), at most MAX_ORDER_PAGES
# of them: past that it cannot tell (SupplierError), it does not guess.
ORDERS_PAGE_SIZE = 200
MAX_ORDER_PAGES = 5
METADATA_BOOKING_ID = "booking_id"


def create(
    client: DuffelClient,
    *,
    offer,
    passengers: list[OrderPassenger],
    instant: bool,
    amount: Decimal,
    currency: str,
    booking_id: str = "",
    services: tuple = (),
) -> SupplierOrder:
    offer_id = str(getattr(offer, "supplier_offer_id", "") or "")
    if not offer_id.startswith("off_"):
        raise supplier_error(OFFER_NOT_FOUND)
    body: dict[str, Any] = {
        "type": "instant" if instant else "hold",
        "selected_offers": [offer_id],
        "passengers": [
            order_passenger(p, allowed_documents=_allowed_documents(offer)) for p in passengers
        ],
    }
    if instant:
        body["payments"] = [balance_payment(amount, currency)]
    if services:  # extras (available services, seats): `amount` includes them
        body["services"] = [{"id": s.id, "quantity": s.quantity} for s in services]
    if booking_id:  # how find recognises the order when this answer is lost
        body["metadata"] = {METADATA_BOOKING_ID: str(booking_id)}
    response = client.send(
        "POST",
        "/air/orders",
        body=body,
        timeout=ORDER_TIMEOUT,
        not_found=OFFER_NOT_FOUND,
        effect=OUTCOME,
    )
    if response.status_code == 202:  # accepted, the airline has not confirmed yet
        raise outcome_unknown(ORDER_PENDING, {"supplier": "duffel", "status": 202})
    return read(order_from, data_of(response, effect=OUTCOME), effect=OUTCOME)


def get(client: DuffelClient, order_id: str) -> SupplierOrder:
    data = client.call(
        "GET",
        f"/air/orders/{path_part(order_id)}",
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    return read(order_from, data)


def find(
    client: DuffelClient, *, booking_id: str, passengers: list[OrderPassenger]
) -> SupplierOrder | None:
    """`GET /air/orders` (Duffel lists them in no promised order), narrowed by the lead
    passenger's family name (`passenger_name[]`, a partial match), page after page (`after`)
    until one carries our booking id in its metadata. None only after the complete listing;
    more than MAX_ORDER_PAGES pages, an error or an unreadable page: SupplierError."""
    params: dict[str, str] = {"limit": str(ORDERS_PAGE_SIZE)}
    if passengers and passengers[0].family_name.strip():
        params["passenger_name[]"] = passengers[0].family_name.strip()
    for _ in range(MAX_ORDER_PAGES):
        response = client.send("GET", "/air/orders", params=params, timeout=ORDER_TIMEOUT)
        orders, after = read(_orders_page, json_or_none(response))
        for raw in orders:
            if _carries_booking_id(raw, booking_id):
                return read(order_from, raw)
        if not after:
            return None
        params["after"] = after
    raise supplier_error(
        TOO_MANY_ORDERS, {"supplier": "duffel", "pages": MAX_ORDER_PAGES, "booking": booking_id}
    )


# --- Requests ----------------------------------------------------------------------------------


def title_for(passenger: OrderPassenger) -> str:
    title = (passenger.title or "").strip().lower().rstrip(".")
    if title in DUFFEL_TITLES:
        return title
    return "mr" if passenger.gender == "m" else "ms"


def _allowed_documents(offer) -> tuple[str, ...] | None:
    """The offer's allowed identity document types (None: an offer stored before they were
    kept, whose documents are sent as given)."""
    return getattr(offer, "allowed_passenger_identity_document_types", None)


def order_passenger(
    passenger: OrderPassenger, *, allowed_documents: tuple[str, ...] | None = None
) -> dict:
    """A passenger of `POST /air/orders`. Duffel takes one identity document per passenger, of
    a type the offer allows: the first such one the passenger gave (the others are not sent)."""
    data: dict[str, Any] = {
        "id": passenger.supplier_passenger_id,
        "title": title_for(passenger),
        "gender": passenger.gender,
        "given_name": passenger.given_name,
        "family_name": passenger.family_name,
        "born_on": passenger.born_on.isoformat(),
        "email": passenger.email,
        "phone_number": passenger.phone_number,
    }
    documents = [
        d
        for d in passenger.identity_documents
        if allowed_documents is None or d.get("type") in allowed_documents
    ]
    if documents:
        data["identity_documents"] = [_jsonable(documents[0])]
    if passenger.infant_supplier_passenger_id:
        data["infant_passenger_id"] = passenger.infant_supplier_passenger_id
    if passenger.loyalty_programme_accounts:
        data["loyalty_programme_accounts"] = [
            {"airline_iata_code": a["airline_iata_code"], "account_number": a["account_number"]}
            for a in passenger.loyalty_programme_accounts
        ]
    return data


def _jsonable(value):
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, date):  # datetime included
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:f}"
    return value


# --- Answers -----------------------------------------------------------------------------------


def order_from(data: dict) -> SupplierOrder:
    status = data.get("payment_status") or {}
    passengers = data.get("passengers") or []
    sole_passenger = str(passengers[0]["id"]) if len(passengers) == 1 else ""
    documents = tuple(
        TicketDocument(
            supplier_passenger_id=str((doc.get("passenger_ids") or [sole_passenger])[0]),
            unique_identifier=str(doc["unique_identifier"]),
        )
        for doc in data.get("documents") or []
        if (doc.get("type") or "electronic_ticket") == "electronic_ticket"
    )
    return SupplierOrder(
        supplier_order_id=str(data["id"]),
        booking_reference=str(data.get("booking_reference") or ""),
        documents=documents,
        payment_required_by=utc_or_none(status, "payment_required_by"),
        price_guarantee_expires_at=utc_or_none(status, "price_guarantee_expires_at"),
        awaiting_payment=status.get("awaiting_payment") is True,
        cancelled=bool(data.get("cancelled_at")),
        cancellation=_cancellation(data),
        total_amount=decimal_or_none(data.get("total_amount")),
        total_currency=str(data.get("total_currency") or ""),
        base_amount=_same_currency(data, "base"),
        tax_amount=_same_currency(data, "tax"),
    )


def _same_currency(data: dict, part: str) -> Decimal | None:
    """The order's base or tax amount, when it is in the total's currency."""
    if data.get(f"{part}_currency") not in (None, "", data.get("total_currency")):
        return None
    return decimal_or_none(data.get(f"{part}_amount"))


def _cancellation(data: dict) -> CancellationQuote | None:
    """The order's confirmed cancellation, read as a confirmation's answer is."""
    cancellation = data.get("cancellation")
    return quote_from(cancellation) if isinstance(cancellation, dict) else None


def _orders_page(body) -> tuple[list[dict], str | None]:
    """The orders of one `GET /air/orders` page and the cursor of the next (None: the last)."""
    if not isinstance(body, dict) or not isinstance(body.get("data"), list):
        raise Unreadable("no list of orders")
    meta = body.get("meta")
    if not isinstance(meta, dict) or "after" not in meta:
        raise Unreadable("no pagination cursor")  # cannot tell whether the listing is complete
    orders = body["data"]
    if not all(isinstance(order, dict) for order in orders):
        raise Unreadable("an order that is not an object")
    return orders, meta["after"] or None


def _carries_booking_id(raw: dict, booking_id: str) -> bool:
    metadata = raw.get("metadata")
    return isinstance(metadata, dict) and metadata.get(METADATA_BOOKING_ID) == booking_id
