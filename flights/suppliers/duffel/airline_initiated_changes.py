"""Airline-initiated changes (duffel_api's `api/booking/airline_initiated_changes.py`): an
order's changes, `GET /air/airline_initiated_changes?order_id=…` (a list in `data`), and
accepting one, `POST /air/airline_initiated_changes/{id}/actions/accept`. Each is an
AirlineInitiatedChange: `added` (the slices after the change, in an order's slice shape),
`removed` (as they were), `available_actions`, `action_taken`, `action_taken_at`, `created_at`.
Accepting changes the order, so a lost or unreadable answer is a refusal whose message says to
check first; the caller reads the change back whatever the answer."""

from flights.models import CabinClass
from flights.suppliers.base import (
    AIRLINE_CHANGE_ACTIONS,
    AIRLINE_CHANGE_ACTIONS_TAKEN,
    AirlineChange,
)
from flights.suppliers.duffel.errors import (
    AIRLINE_CHANGE_NOT_FOUND,
    CHANGE,
    ORDER_NOT_FOUND,
    Unreadable,
)
from flights.suppliers.duffel.http_client import (
    ORDER_TIMEOUT,
    DuffelClient,
    json_or_none,
    path_part,
    read,
)
from flights.suppliers.duffel.offers import OfferContext, slice_from
from flights.suppliers.duffel.values import utc_or_none

PATH = "/air/airline_initiated_changes"


def list_for_order(client: DuffelClient, order_id: str) -> list[AirlineChange]:
    response = client.send(
        "GET",
        PATH,
        params={"order_id": order_id},
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    return read(_changes, json_or_none(response))


def accept(client: DuffelClient, change_id: str) -> AirlineChange:
    data = client.call(
        "POST",
        f"{PATH}/{path_part(change_id)}/actions/accept",
        timeout=ORDER_TIMEOUT,
        not_found=AIRLINE_CHANGE_NOT_FOUND,
        effect=CHANGE,
    )
    return read(change_from, data, effect=CHANGE)


def _changes(body) -> list[AirlineChange]:
    if not isinstance(body, dict) or not isinstance(body.get("data"), list):
        raise Unreadable("no list of airline-initiated changes")
    return [change_from(item) for item in body["data"]]


def change_from(data: dict) -> AirlineChange:
    actions = tuple(str(a) for a in data.get("available_actions") or [])
    if any(a not in AIRLINE_CHANGE_ACTIONS for a in actions):
        raise Unreadable(f"unknown available_actions {actions!r}")
    taken = data.get("action_taken")
    if taken is not None and taken not in AIRLINE_CHANGE_ACTIONS_TAKEN:
        raise Unreadable(f"unknown action_taken {taken!r}")
    return AirlineChange(
        supplier_change_id=str(data["id"]),
        order_id=str(data.get("order_id") or ""),
        added=tuple(_slice(s) for s in data["added"]),
        removed=tuple(_slice(s) for s in data["removed"]),
        available_actions=actions,
        action_taken=taken,
        action_taken_at=utc_or_none(data, "action_taken_at"),
        created_at=utc_or_none(data, "created_at"),
    )


def _slice(raw: dict):
    """An order's slice read as an offer's is; the cabin, fare basis and baggage are those of
    the segment's first passenger (the order's passengers are all on every segment)."""
    return slice_from(raw, OfferContext(passenger_ids=("",), cabin_class=CabinClass.ECONOMY))
