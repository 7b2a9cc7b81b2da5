"""Order cancellations (duffel_api's `api/booking/order_cancellations.py`): a quote,
`POST /air/order_cancellations`, then its confirmation,
`POST /air/order_cancellations/{id}/actions/confirm`, both answering an OrderCancellation
(`refund_amount`, `refund_currency`, `refund_to`, `airline_credits`, `expires_at`,
`confirmed_at`), its read-back, `GET /air/order_cancellations/{id}`, and an order's,
`GET /air/order_cancellations?order_id=…`. A confirmation's answer
moves money, so it is read as an order's is: lost, 5xx or unreadable, it is
SupplierOutcomeUnknown (the cancellation read back tells later); and a success must be the
confirmed cancellation of the quote asked for."""

from datetime import date

from flights.suppliers.base import REFUND_TO, AirlineCredit, CancellationQuote
from flights.suppliers.duffel.errors import (
    ORDER_NOT_FOUND,
    OUTCOME,
    OUTCOME_UNKNOWN,
    QUOTE_NOT_FOUND,
    TOO_MANY_ORDERS,
    Unreadable,
    outcome_unknown,
    supplier_error,
)
from flights.suppliers.duffel.http_client import (
    ORDER_TIMEOUT,
    DuffelClient,
    json_or_none,
    path_part,
    read,
)
from flights.suppliers.duffel.values import decimal_from, decimal_or_none, utc_or_none

PAGE_SIZE = 50  # an order has a few cancellations (quotes), rarely more
MAX_PAGES = 5


def create(client: DuffelClient, order_id: str) -> CancellationQuote:
    data = client.call(
        "POST",
        "/air/order_cancellations",
        body={"order_id": order_id},
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    return read(quote_from, data)


def confirm(client: DuffelClient, quote_id: str) -> CancellationQuote:
    data = client.call(
        "POST",
        f"/air/order_cancellations/{path_part(quote_id)}/actions/confirm",
        timeout=ORDER_TIMEOUT,
        not_found=QUOTE_NOT_FOUND,
        effect=OUTCOME,
    )
    confirmed = read(quote_from, data, effect=OUTCOME)
    if confirmed.supplier_quote_id != quote_id or confirmed.confirmed_at is None:
        # A success that is not this quote confirmed: we cannot tell what happened.
        raise outcome_unknown(
            OUTCOME_UNKNOWN,
            {"supplier": "duffel", "id": confirmed.supplier_quote_id, "reason": "not confirmed"},
        )
    return confirmed


def get(client: DuffelClient, quote_id: str) -> CancellationQuote:
    """`GET /air/order_cancellations/{id}`: the cancellation as Duffel has it now, read back
    after a confirmation whose answer was lost (`confirmed_at` set once it took effect). It
    must be the cancellation asked for; anything else is unreadable (SupplierError)."""
    data = client.call(
        "GET",
        f"/air/order_cancellations/{path_part(quote_id)}",
        timeout=ORDER_TIMEOUT,
        not_found=QUOTE_NOT_FOUND,
    )
    return read(_the_one, data, quote_id)


def confirmed_of(client: DuffelClient, order_id: str) -> CancellationQuote | None:
    """The order's confirmed cancellation, from `GET /air/order_cancellations?order_id=…` (an
    order whose body does not carry it): None when none is confirmed. Every page is read; an
    answer that cannot be read is a SupplierError (nothing is settled on it)."""
    confirmed: list[CancellationQuote] = []
    params: dict[str, object] = {"order_id": order_id, "limit": PAGE_SIZE}
    for _ in range(MAX_PAGES):
        response = client.send(
            "GET", "/air/order_cancellations", params=params, timeout=ORDER_TIMEOUT
        )
        page, after = read(_page, json_or_none(response), order_id)
        confirmed += [quote for quote in page if quote.confirmed_at is not None]
        if after is None:
            return confirmed[-1] if confirmed else None
        params = {**params, "after": after}
    raise supplier_error(
        TOO_MANY_ORDERS, {"supplier": "duffel", "pages": MAX_PAGES, "order": order_id}
    )


def _page(body, order_id: str) -> tuple[list[CancellationQuote], str | None]:
    if not isinstance(body, dict) or not isinstance(body.get("data"), list):
        raise Unreadable("no list of order cancellations")
    meta = body.get("meta")
    if not isinstance(meta, dict) or "after" not in meta:
        raise Unreadable("no pagination cursor")
    quotes = [quote_from(item) for item in body["data"]]
    if any(quote.order_id != order_id for quote in quotes):
        raise Unreadable("a cancellation of another order")
    return quotes, meta["after"] or None


def _the_one(data: dict, quote_id: str) -> CancellationQuote:
    quote = quote_from(data)
    if quote.supplier_quote_id != quote_id:
        raise Unreadable(f"asked for {quote_id!r}, read {quote.supplier_quote_id!r}")
    return quote


def quote_from(data: dict) -> CancellationQuote:
    refund_to = data.get("refund_to") or "balance"
    if refund_to not in REFUND_TO:
        raise Unreadable(f"unknown refund_to {refund_to!r}")
    refund = decimal_or_none(data.get("refund_amount"))
    currency = str(data.get("refund_currency") or "")
    if refund is not None and (refund < 0 or len(currency) != 3):
        raise Unreadable(f"refund {refund} {currency!r}")
    return CancellationQuote(
        supplier_quote_id=str(data["id"]),
        refund_amount=refund,
        refund_currency=currency,
        expires_at=utc_or_none(data, "expires_at"),
        refund_to=refund_to,
        airline_credits=tuple(credit_from(c) for c in data.get("airline_credits") or []),
        order_id=str(data.get("order_id") or ""),
        confirmed_at=utc_or_none(data, "confirmed_at"),
        created_at=utc_or_none(data, "created_at"),
    )


def credit_from(data: dict) -> AirlineCredit:
    issued_on = data.get("issued_on")
    return AirlineCredit(
        id=str(data.get("id") or ""),
        credit_amount=decimal_from(data["credit_amount"]),
        credit_currency=str(data["credit_currency"]),
        credit_code=data.get("credit_code"),
        credit_name=str(data.get("credit_name") or ""),
        type=str(data.get("type") or ""),
        passenger_id=data.get("passenger_id"),
        issued_on=date.fromisoformat(issued_on) if issued_on else None,
        expires_at=utc_or_none(data, "expires_at"),
    )
