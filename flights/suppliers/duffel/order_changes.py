"""Order changes (duffel_api's `api/booking/order_change_requests.py`, `order_change_offers.py`,
`order_changes.py`): a change request, `POST /air/order_change_requests` with the order's slices
to remove (Duffel's slice ids, read from `GET /air/orders/{id}`) and the slices to add, which
answers its OrderChangeOffers (`order_change_offers`, else
`GET /air/order_change_offers?order_change_request_id=`); an order change made from one,
`POST /air/order_changes` (pending, nothing changes yet); its confirmation,
`POST /air/order_changes/{id}/actions/confirm` with a `balance` payment of a positive
`change_total_amount`. The confirmation moves money, so its answer is read as an order's is:
lost, 5xx or unreadable it is SupplierOutcomeUnknown (`GET /air/order_changes/{id}` tells
later), and a success must be this change, confirmed."""

from contextlib import contextmanager

from core.exceptions import register_error
from flights.models import CabinClass
from flights.suppliers.base import SupplierError, SupplierOutcomeUnknown
from flights.suppliers.duffel.errors import (
    ORDER_NOT_FOUND,
    OUTCOME,
    OUTCOME_UNKNOWN,
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
from flights.suppliers.duffel.offers import OfferContext, slice_from
from flights.suppliers.duffel.payments import balance_payment
from flights.suppliers.duffel.values import decimal_from, decimal_or_none, utc_or_none
from flights.suppliers.order_changes import (
    CHANGE_REFUND_TO,
    BookedOrder,
    ChangeSlice,
    SupplierChangeOffer,
    SupplierChangeRequest,
    SupplierOrderChange,
)

CHANGE_OFFER_NOT_FOUND = ("order_change_offer_not_found", "Unknown Duffel order change offer")
ORDER_CHANGE_NOT_FOUND = ("order_change_not_found", "Unknown Duffel order change")
SLICE_NOT_IN_ORDER = (
    "change_not_allowed",
    "The Duffel order does not have the slices to remove",
)
CHANGE_REFUSED = ("change_not_allowed", "The airline refused the order change")
CHANGE_EXPIRED = ("order_change_offer_expired", "The Duffel order change offer has expired")
ALREADY_CONFIRMED = (
    "order_change_already_confirmed",
    "The Duffel order change has already been confirmed",
)
for _code, _message in (
    CHANGE_OFFER_NOT_FOUND,
    ORDER_CHANGE_NOT_FOUND,
    SLICE_NOT_IN_ORDER,
    CHANGE_REFUSED,
    CHANGE_EXPIRED,
    ALREADY_CONFIRMED,
):
    register_error(_code, SupplierError.status_code, _message, module="flights.suppliers.duffel")


def request(
    client: DuffelClient,
    *,
    order: BookedOrder,
    remove: tuple[int, ...],
    add: tuple[ChangeSlice, ...],
) -> SupplierChangeRequest:
    raw_order = client.call(
        "GET",
        f"/air/orders/{path_part(order.order_id)}",
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    slice_ids = [str(s.get("id")) for s in raw_order.get("slices") or []]
    if any(position >= len(slice_ids) for position in remove):
        code, message = SLICE_NOT_IN_ORDER
        raise SupplierError(message, code=code, details={"supplier": "duffel"})
    context = OfferContext(
        passenger_ids=tuple(str(p["id"]) for p in raw_order.get("passengers") or []) or ("",),
        cabin_class=add[0].cabin_class if add else CabinClass.ECONOMY,
    )
    body = {
        "order_id": order.order_id,
        "slices": {
            "remove": [{"slice_id": slice_ids[position]} for position in remove],
            "add": [
                {
                    "origin": s.origin,
                    "destination": s.destination,
                    "departure_date": s.departure_date.isoformat(),
                    "cabin_class": str(s.cabin_class),
                }
                for s in add
            ],
        },
    }
    with refusals():
        data = client.call("POST", "/air/order_change_requests", body=body, timeout=ORDER_TIMEOUT)
    offers = data.get("order_change_offers")
    if offers is None:
        listed = json_or_none(
            client.send(
                "GET",
                "/air/order_change_offers",
                params={"order_change_request_id": str(data.get("id"))},
                timeout=ORDER_TIMEOUT,
            )
        )
        offers = listed.get("data") if isinstance(listed, dict) else None
    return read(_request_from, data, offers, slice_ids, context)


def create(client: DuffelClient, *, change_offer_id: str) -> SupplierOrderChange:
    with refusals():
        data = client.call(
            "POST",
            "/air/order_changes",
            body={"selected_order_change_offer": change_offer_id},
            timeout=ORDER_TIMEOUT,
            not_found=CHANGE_OFFER_NOT_FOUND,
        )
    return read(change_from, data)


def confirm(client: DuffelClient, *, change_id: str, amount, currency: str) -> SupplierOrderChange:
    body = {"payment": balance_payment(amount, currency)} if amount > 0 else {}
    with refusals():
        data = client.call(
            "POST",
            f"/air/order_changes/{path_part(change_id)}/actions/confirm",
            body=body,
            timeout=ORDER_TIMEOUT,
            not_found=ORDER_CHANGE_NOT_FOUND,
            effect=OUTCOME,
        )
    confirmed = read(change_from, data, effect=OUTCOME)
    if confirmed.supplier_change_id != change_id or confirmed.confirmed_at is None:
        raise outcome_unknown(
            OUTCOME_UNKNOWN,
            {"supplier": "duffel", "id": confirmed.supplier_change_id, "reason": "not confirmed"},
        )
    return confirmed


def get(client: DuffelClient, change_id: str) -> SupplierOrderChange:
    data = client.call(
        "GET",
        f"/air/order_changes/{path_part(change_id)}",
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_CHANGE_NOT_FOUND,
    )
    return read(change_from, data)


@contextmanager
def refusals():
    """The airline's certain refusals (a 400 or 422) as the codes the change service reads: an
    expired offer, a change already confirmed, any other refusal `change_not_allowed`."""
    try:
        yield
    except SupplierOutcomeUnknown:
        raise
    except SupplierError as exc:
        details = exc.details or {}
        if details.get("status") not in (400, 422):
            raise
        codes = [str(e.get("code") or "") for e in details.get("errors") or []]
        if "order_change_already_confirmed" in codes:
            pair = ALREADY_CONFIRMED
        elif any("expired" in code for code in codes):
            pair = CHANGE_EXPIRED
        else:
            pair = CHANGE_REFUSED
        raise supplier_error(pair, details) from exc


# --- Answers -----------------------------------------------------------------------------------


def _refund_to(data: dict) -> str | None:
    refund_to = data.get("refund_to")
    if refund_to is not None and refund_to not in CHANGE_REFUND_TO:
        raise Unreadable(f"unknown refund_to {refund_to!r}")
    return refund_to


def _request_from(
    data: dict, offers, slice_ids: list[str], context: OfferContext
) -> SupplierChangeRequest:
    if not isinstance(offers, list):
        raise Unreadable("no order change offers")
    return SupplierChangeRequest(
        supplier_request_id=str(data["id"]),
        offers=tuple(_offer_from(o, slice_ids, context) for o in offers),
        created_at=utc_or_none(data, "created_at"),
    )


def _offer_from(raw: dict, slice_ids: list[str], context: OfferContext) -> SupplierChangeOffer:
    slices = raw.get("slices") or {}
    removed = tuple(slice_ids.index(str(s["id"])) for s in slices.get("remove") or [])
    return SupplierChangeOffer(
        supplier_offer_id=str(raw["id"]),
        added=tuple(slice_from(s, context) for s in slices.get("add") or []),
        removed=removed,
        change_total_amount=decimal_from(raw["change_total_amount"]),
        change_total_currency=str(raw["change_total_currency"]),
        penalty_amount=decimal_or_none(raw.get("penalty_total_amount")),
        penalty_currency=str(raw.get("penalty_total_currency") or ""),
        new_total_amount=decimal_from(raw["new_total_amount"]),
        new_total_currency=str(raw["new_total_currency"]),
        refund_to=_refund_to(raw),
        expires_at=utc_or_none(raw, "expires_at"),
    )


def change_from(data: dict) -> SupplierOrderChange:
    return SupplierOrderChange(
        supplier_change_id=str(data["id"]),
        order_id=str(data.get("order_id") or ""),
        change_total_amount=decimal_from(data["change_total_amount"]),
        change_total_currency=str(data["change_total_currency"]),
        new_total_amount=decimal_from(data["new_total_amount"]),
        new_total_currency=str(data["new_total_currency"]),
        refund_to=_refund_to(data),
        confirmed_at=utc_or_none(data, "confirmed_at"),
    )
