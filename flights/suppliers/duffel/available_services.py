"""Extras (duffel_api's offers `return_available_services`, `seat_maps`, and the order's
`available_services` and `services`): the bags sold with an offer,
`GET /air/offers/{id}?return_available_services=true`; its seat maps,
`GET /air/seat_maps?offer_id=`; the bags that can be added to a paid order,
`GET /air/orders/{id}/available_services`; adding them, `POST /air/orders/{id}/services`
(`add_services` and a balance `payment`), which answers the order.

Duffel names segments by its own ids: they are read as positions in the offer's (or order's)
slices, which is how the rest of the service names them (`SupplierService.segments`). Adding
services moves money at the airline, so its answer is read as an order's is: lost, 5xx or
unreadable, it is SupplierOutcomeUnknown (the order's total tells later)."""

from decimal import Decimal

from flights.suppliers.base import SeatMap, ServiceRequest, SupplierOrder, SupplierService
from flights.suppliers.duffel.errors import OFFER_NOT_FOUND, ORDER_NOT_FOUND, OUTCOME, Unreadable
from flights.suppliers.duffel.http_client import (
    ORDER_TIMEOUT,
    SEARCH_TIMEOUT,
    DuffelClient,
    json_or_none,
    path_part,
    read,
)
from flights.suppliers.duffel.orders import order_from
from flights.suppliers.duffel.payments import balance_payment
from flights.suppliers.duffel.values import decimal_from


def _offer(client: DuffelClient, offer, *, with_services: bool) -> dict:
    offer_id = str(getattr(offer, "supplier_offer_id", "") or "")
    return client.call(
        "GET",
        f"/air/offers/{path_part(offer_id)}",
        params={"return_available_services": "true" if with_services else "false"},
        timeout=SEARCH_TIMEOUT,
        not_found=OFFER_NOT_FOUND,
    )


def segment_positions(data: dict) -> dict[str, tuple[int, int]]:
    """Duffel's segment ids of an offer or an order → (slice index, segment index)."""
    return {
        str(segment["id"]): (s, g)
        for s, slice_ in enumerate(data["slices"])
        for g, segment in enumerate(slice_["segments"])
    }


def service_from(raw: dict, positions: dict[str, tuple[int, int]]) -> SupplierService:
    segments = tuple(positions[str(segment_id)] for segment_id in raw.get("segment_ids") or [])
    if not segments:
        raise Unreadable("a service for no segment of the offer")
    return SupplierService(
        id=str(raw["id"]),
        type=str(raw["type"]),
        passenger_ids=tuple(str(p) for p in raw.get("passenger_ids") or []),
        segments=segments,
        maximum_quantity=int(raw.get("maximum_quantity") or 1),
        total_amount=decimal_from(raw["total_amount"]),
        total_currency=str(raw["total_currency"]),
        metadata=dict(raw.get("metadata") or {}),
    )


def _services(data: dict, raw_services, positions) -> list[SupplierService]:
    return [
        service_from(raw, positions)
        for raw in raw_services or []
        if raw.get("type") == "baggage"  # seats come from the seat maps
    ]


def offer_services(client: DuffelClient, offer) -> list[SupplierService]:
    data = _offer(client, offer, with_services=True)
    return read(lambda d: _services(d, d.get("available_services"), segment_positions(d)), data)


def _seat_maps(body, positions: dict[str, tuple[int, int]]) -> list[SeatMap]:
    if not isinstance(body, dict) or not isinstance(body.get("data"), list):
        raise Unreadable("no list of seat maps")
    maps = []
    for raw in body["data"]:
        for cabin in raw["cabins"]:
            for row in cabin["rows"]:
                for section in row["sections"]:
                    for element in section["elements"]:
                        for service in element.get("available_services") or []:
                            decimal_from(service["total_amount"])  # readable, or Unreadable
        maps.append(
            SeatMap(
                id=str(raw.get("id") or ""),
                segment=positions[str(raw["segment_id"])],
                cabins=list(raw["cabins"]),
            )
        )
    return maps


def offer_seat_maps(client: DuffelClient, offer) -> list[SeatMap]:
    positions = read(segment_positions, _offer(client, offer, with_services=False))
    response = client.send(
        "GET",
        "/air/seat_maps",
        params={"offer_id": str(offer.supplier_offer_id)},
        timeout=SEARCH_TIMEOUT,
        not_found=OFFER_NOT_FOUND,
    )
    return read(_seat_maps, json_or_none(response), positions)


def order_services(client: DuffelClient, order_id: str) -> list[SupplierService]:
    order = client.call(
        "GET",
        f"/air/orders/{path_part(order_id)}",
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    positions = read(segment_positions, order)
    response = client.send(
        "GET",
        f"/air/orders/{path_part(order_id)}/available_services",
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
    )
    body = json_or_none(response)

    def services(body) -> list[SupplierService]:
        if not isinstance(body, dict) or not isinstance(body.get("data"), list):
            raise Unreadable("no list of services")
        return _services(order, body["data"], positions)

    return read(services, body)


def add_order_services(
    client: DuffelClient,
    *,
    order_id: str,
    services: tuple[ServiceRequest, ...],
    amount: Decimal,
    currency: str,
) -> SupplierOrder:
    data = client.call(
        "POST",
        f"/air/orders/{path_part(order_id)}/services",
        body={
            "add_services": [{"id": s.id, "quantity": s.quantity} for s in services],
            "payment": balance_payment(amount, currency),
        },
        timeout=ORDER_TIMEOUT,
        not_found=ORDER_NOT_FOUND,
        effect=OUTCOME,
    )
    return read(order_from, data, effect=OUTCOME)
