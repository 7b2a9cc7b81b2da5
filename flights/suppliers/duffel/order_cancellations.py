"""Order cancellations (duffel_api's `api/booking/order_cancellations.py`): a quote,
`POST /air/order_cancellations`, then its confirmation,
`POST /air/order_cancellations/{id}/actions/confirm`."""

from decimal import Decimal

from flights.suppliers.base import CancellationQuote
from flights.suppliers.duffel.errors import CHANGE, ORDER_NOT_FOUND, QUOTE_NOT_FOUND
from flights.suppliers.duffel.http_client import ORDER_TIMEOUT, DuffelClient, path_part, read
from flights.suppliers.duffel.values import decimal_or_none, utc_or_none


def create(client: DuffelClient, order_id: str) -> CancellationQuote:
    data = client.call(
        "POST",
        "/air/order_cancellations",
        body={"order_id": order_id},
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    return read(quote_from, data)


def confirm(client: DuffelClient, quote_id: str) -> None:
    client.call(
        "POST",
        f"/air/order_cancellations/{path_part(quote_id)}/actions/confirm",
        timeout=ORDER_TIMEOUT,
        not_found=QUOTE_NOT_FOUND,
        effect=CHANGE,
    )


def quote_from(data: dict) -> CancellationQuote:
    refund = decimal_or_none(data.get("refund_amount"))
    return CancellationQuote(
        supplier_quote_id=str(data["id"]),
        refund_amount=Decimal("0.00") if refund is None else refund,
        refund_currency=str(data.get("refund_currency") or ""),
        expires_at=utc_or_none(data, "expires_at"),
    )
