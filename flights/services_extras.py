"""Extras (bags and seats) priced for the team: an offer's available services and seat maps as
the supplier sells them, with our ids and the team's BRL price beside each, and the services a
booking buys, checked and priced (docs/extras.md).

The pricing rule: an extra is priced as an offer is, with the offer's (or booking's) locked
exchange rate (the FX margin it was quoted with already in it) and the team's markup, but
without the fixed fee, which is the booking's and is charged once with the offer:

    base_cost_brl = q(total_amount × quantity × exchange_rate)   (what the wallet is debited)
    agency_markup_amount = q(base_cost_brl × markup_percent / 100)
    client_amount = base_cost_brl + agency_markup_amount        (what the customer pays)
"""

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from agencies.models import Team
from agencies.pricing import fx_quote, price_offer, team_fx_margin_percent
from core.exceptions import InvalidRequest
from core.money import fmt
from flights.fx import UnknownCurrency, rate_provider
from flights.suppliers.base import (
    SeatMap,
    ServiceRequest,
    SupplierError,
    SupplierService,
)

NO_FEE = Decimal("0")
SERVICE_TYPES = ["baggage", "seat"]  # Duffel's service types (the schema's ServiceTypeEnum)


class ServiceNotAvailable(InvalidRequest):
    """A service id the supplier does not sell with this offer or booking (now)."""

    code = "service_not_available"
    message = "Service not available"


class ServiceQuantityInvalid(InvalidRequest):
    """More of a service than its `maximum_quantity`, or two seats for one passenger and
    segment."""

    code = "service_quantity_invalid"
    message = "Invalid service quantity"


@dataclass(frozen=True)
class ExtraPrice:
    base_cost_brl: Decimal
    markup_amount: Decimal
    client_amount: Decimal


def price_extra(
    *, amount: Decimal, currency: str, exchange_rate: Decimal, markup_percent: Decimal
) -> ExtraPrice:
    price = price_offer(
        total_amount=amount,
        total_currency=currency,
        exchange_rate=exchange_rate,
        markup_percent=markup_percent,
        fee=NO_FEE,
    )
    return ExtraPrice(price.base_cost_brl, price.markup_amount, price.client_amount)


@dataclass(frozen=True)
class Trip:
    """What extras are named against: an offer's (or booking's) slices as the API shows them,
    its passengers `{id, type}`, their supplier ids in the same order, its currency and locked
    rate."""

    slices: Sequence[dict]
    passengers: Sequence[dict]
    supplier_passenger_ids: Sequence[str]
    currency: str
    exchange_rate: Decimal

    def passenger_of(self) -> dict[str, str]:
        ours = [p["id"] for p in self.passengers]
        theirs = [s or o for s, o in zip(self.supplier_passenger_ids, ours, strict=False)]
        return dict(zip(theirs, ours, strict=False)) | {o: o for o in ours}

    def segment_id(self, position: tuple[int, int]) -> str:
        s, g = position
        return self.slices[s]["segments"][g]["id"]


def trip_of_offer(offer) -> Trip:
    return Trip(
        slices=offer.data["slices"],
        passengers=offer.passengers,
        supplier_passenger_ids=offer.supplier_passenger_ids,
        currency=offer.total_currency,
        exchange_rate=offer.exchange_rate,
    )


def _rate(trip: Trip, team: Team, currency: str) -> Decimal:
    """The trip's locked rate (its FX margin in it: never added again), or, for an extra in
    another currency, today's reference rate with the team's FX margin, as a search's."""
    if currency == trip.currency:
        return trip.exchange_rate
    try:
        reference = rate_provider().rate(currency)
    except UnknownCurrency:
        raise SupplierError(f"No exchange rate for {currency}") from None
    return fx_quote(
        currency=currency, reference_rate=reference, margin_percent=team_fx_margin_percent(team)
    ).rate


def _priced(trip: Trip, team: Team, amount: Decimal, currency: str) -> dict:
    price = price_extra(
        amount=amount,
        currency=currency,
        exchange_rate=_rate(trip, team, currency),
        markup_percent=team.markup_percent,
    )
    return {
        "base_cost_brl": fmt(price.base_cost_brl),
        "client_amount": fmt(price.client_amount),
        "client_currency": "BRL",
    }


def service_object(trip: Trip, team: Team, service: SupplierService) -> dict:
    """An available service as the API shows it (Duffel's fields, our ids, the team's price of
    one unit)."""
    passenger_of = trip.passenger_of()
    return {
        "id": service.id,
        "type": service.type,
        "passenger_ids": [passenger_of.get(p, p) for p in service.passenger_ids],
        "segment_ids": [trip.segment_id(position) for position in service.segments],
        "maximum_quantity": service.maximum_quantity,
        "total_amount": fmt(service.total_amount),
        "total_currency": service.total_currency,
        **_priced(trip, team, service.total_amount, service.total_currency),
        "metadata": service.metadata,
    }


def services_list(trip: Trip, team: Team, services: list[SupplierService]) -> list[dict]:
    return [service_object(trip, team, service) for service in services]


def seat_map_object(trip: Trip, team: Team, seat_map: SeatMap) -> dict:
    """A seat map in Duffel's shape, with our ids and the team's price beside each seat's
    service."""
    passenger_of = trip.passenger_of()
    s, _g = seat_map.segment
    cabins = copy.deepcopy(seat_map.cabins)
    prices: dict[tuple[str, str], dict] = {}
    for cabin in cabins:
        for row in cabin.get("rows") or []:
            for section in row.get("sections") or []:
                for element in section.get("elements") or []:
                    for service in element.get("available_services") or []:
                        service["passenger_id"] = passenger_of.get(
                            service["passenger_id"], service["passenger_id"]
                        )
                        key = (str(service["total_amount"]), str(service["total_currency"]))
                        if key not in prices:
                            prices[key] = _priced(trip, team, Decimal(key[0]), key[1])
                        service["total_amount"] = fmt(Decimal(key[0]))
                        service.update(prices[key])
    return {
        "id": seat_map.id,
        "slice_id": trip.slices[s]["id"],
        "segment_id": trip.segment_id(seat_map.segment),
        "cabins": cabins,
    }


def seat_services(seat_maps: list[SeatMap]) -> list[SupplierService]:
    """Every seat of the maps as a service (one passenger, one segment, one unit)."""
    found = []
    for seat_map in seat_maps:
        for cabin in seat_map.cabins:
            for row in cabin.get("rows") or []:
                for section in row.get("sections") or []:
                    for element in section.get("elements") or []:
                        for service in element.get("available_services") or []:
                            found.append(
                                SupplierService(
                                    id=str(service["id"]),
                                    type="seat",
                                    passenger_ids=(str(service["passenger_id"]),),
                                    segments=(seat_map.segment,),
                                    maximum_quantity=1,
                                    total_amount=Decimal(str(service["total_amount"])),
                                    total_currency=str(service["total_currency"]),
                                    metadata={
                                        "designator": element.get("designator"),
                                        "name": element.get("name") or "",
                                        "disclosures": list(element.get("disclosures") or []),
                                    },
                                )
                            )
    return found


# --- Buying ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServiceLine:
    """One service bought: the supplier's, how many, and its price for the team (of them all)."""

    service: SupplierService
    quantity: int
    total_amount: Decimal  # unit price × quantity, in total_currency
    price: ExtraPrice


@dataclass(frozen=True)
class Extras:
    lines: list[ServiceLine] = field(default_factory=list)

    @property
    def total_amount(self) -> Decimal:
        return sum((line.total_amount for line in self.lines), Decimal("0.00"))

    @property
    def base_cost_brl(self) -> Decimal:
        return sum((line.price.base_cost_brl for line in self.lines), Decimal("0.00"))

    @property
    def markup_amount(self) -> Decimal:
        return sum((line.price.markup_amount for line in self.lines), Decimal("0.00"))

    @property
    def client_amount(self) -> Decimal:
        return sum((line.price.client_amount for line in self.lines), Decimal("0.00"))

    def requests(self) -> tuple[ServiceRequest, ...]:
        return tuple(
            ServiceRequest(id=line.service.id, quantity=line.quantity) for line in self.lines
        )


def extras_price(
    *,
    trip: Trip,
    team: Team,
    requests: list[dict],
    available: list[SupplierService],
    field_name: str = "services",
) -> Extras:
    """The requested `{id, quantity}` against what the supplier sells, priced for the team.
    Every service must be sold now, in the trip's currency, at most its maximum_quantity, one
    seat per passenger and segment; each id once."""
    by_id = {service.id: service for service in available}
    lines = []
    seats: set = set()
    seen: set[str] = set()
    for index, request in enumerate(requests):
        service = by_id.get(request["id"])
        where = f"{field_name}[{index}]"
        if service is None or service.total_currency != trip.currency:
            raise ServiceNotAvailable(details={f"{where}.id": "Not sold with this offer now."})
        if request["id"] in seen:
            raise ServiceQuantityInvalid(details={f"{where}.id": "Each service once."})
        seen.add(request["id"])
        quantity = request["quantity"]
        if not 1 <= quantity <= service.maximum_quantity:
            raise ServiceQuantityInvalid(
                details={f"{where}.quantity": f"From 1 to {service.maximum_quantity}."}
            )
        if service.type == "seat":
            keys = {
                (service.passenger_ids, service.segments),
                ("seat", service.segments, service.metadata.get("designator")),
            }
            if keys & seats:
                raise ServiceQuantityInvalid(
                    details={f"{where}.id": "One seat per passenger and segment."}
                )
            seats |= keys
        amount = service.total_amount * quantity
        lines.append(
            ServiceLine(
                service=service,
                quantity=quantity,
                total_amount=amount,
                price=price_extra(
                    amount=amount,
                    currency=service.total_currency,
                    exchange_rate=trip.exchange_rate,
                    markup_percent=team.markup_percent,
                ),
            )
        )
    return Extras(lines=lines)


def service_record(trip: Trip, line: ServiceLine) -> dict:
    """A bought service as a booking keeps and shows it (Duffel's order `services`, our ids,
    with its BRL cost and price)."""
    passenger_of = trip.passenger_of()
    service = line.service
    return {
        "id": service.id,
        "type": service.type,
        "passenger_ids": [passenger_of.get(p, p) for p in service.passenger_ids],
        "segment_ids": [trip.segment_id(position) for position in service.segments],
        "quantity": line.quantity,
        "total_amount": fmt(line.total_amount),
        "total_currency": service.total_currency,
        "base_cost_brl": fmt(line.price.base_cost_brl),
        "client_amount": fmt(line.price.client_amount),
        "client_currency": "BRL",
        "metadata": service.metadata,
    }


def slices_with_services(slices: list[dict], services: list[dict]) -> list[dict]:
    """The slices with each segment passenger's bought bags added to its `baggages` and its
    bought seat as `seat` `{designator, name, disclosures}`."""
    slices = copy.deepcopy(slices)
    for slice_ in slices:
        for segment in slice_["segments"]:
            for passenger in segment["passengers"]:
                for service in services:
                    if (
                        segment["id"] not in service["segment_ids"]
                        or passenger["passenger_id"] not in service["passenger_ids"]
                    ):
                        continue
                    if service["type"] == "seat":
                        metadata = service["metadata"]
                        passenger["seat"] = {
                            "designator": metadata.get("designator"),
                            "name": metadata.get("name") or "",
                            "disclosures": list(metadata.get("disclosures") or []),
                        }
                    elif service["type"] == "baggage":
                        kind = (service.get("metadata") or {}).get("type") or "checked"
                        baggages = passenger.setdefault("baggages", [])
                        entry = next((b for b in baggages if b["type"] == kind), None)
                        if entry is None:
                            baggages.append({"type": kind, "quantity": service["quantity"]})
                        else:
                            entry["quantity"] += service["quantity"]
    return slices
