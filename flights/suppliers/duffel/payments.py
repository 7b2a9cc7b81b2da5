"""Payments (duffel_api's `api/booking/payments.py`): paying a held order from the Duffel
balance, `POST /air/payments`; instant orders carry the same balance payment."""

from decimal import Decimal

from flights.suppliers.duffel.errors import ORDER_NOT_FOUND, OUTCOME
from flights.suppliers.duffel.http_client import ORDER_TIMEOUT, DuffelClient


def create(client: DuffelClient, *, order_id: str, amount: Decimal, currency: str) -> None:
    """Pay the order; whatever Duffel answers of the payment, the order is read afterwards."""
    client.call(
        "POST",
        "/air/payments",
        body={"order_id": order_id, "payment": balance_payment(amount, currency)},
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
        effect=OUTCOME,
    )


def balance_payment(amount: Decimal, currency: str) -> dict:
    return {"type": "balance", "amount": f"{Decimal(str(amount)):f}", "currency": currency}
