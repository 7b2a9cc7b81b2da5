"""The bodies of `POST /api/v1/bookings` the tests and the benchmarks send for an offer of a
search (as the API answered it): its first passenger is Ana Souza (tests/kit/passengers.py), and
an instant booking pays the offer's total from the balance."""

from tests.kit.passengers import passenger


def balance_payment(offer: dict) -> dict:
    """A payment of the offer's whole total from the wallet, as POST /bookings and
    PUT /bookings/:id/confirm take it."""
    return {"type": "balance", "amount": offer["total_amount"], "currency": offer["total_currency"]}


def booking_body(offer: dict, *, type: str = "hold", **fields) -> dict:
    """`type` "hold" or "instant"; `fields` change or add to the body (`passengers=[...]`)."""
    body: dict = {
        "offerId": offer["id"],
        "type": type,
        "passengers": [passenger(offer["passengers"][0]["id"])],
    }
    if type == "instant":
        body["payments"] = [balance_payment(offer)]
    return {**body, **fields}
