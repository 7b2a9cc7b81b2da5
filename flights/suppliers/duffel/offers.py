"""Duffel's offer (duffel.com/docs/api/v2/offers, as an offer request returns it) read into a
SupplierOffer: its slices, segments and conditions, Duffel's nulls included (the package's
docstring lists the mapping decisions)."""

from dataclasses import dataclass
from decimal import Decimal

from flights import airports
from flights.suppliers.base import (
    IDENTITY_DOCUMENT_TYPES,
    Baggage,
    CabinClass,
    Condition,
    SupplierOffer,
    SupplierSegment,
    SupplierSlice,
)
from flights.suppliers.duffel.errors import Unreadable
from flights.suppliers.duffel.values import (
    decimal_from,
    decimal_or_none,
    duration_minutes,
    elapsed_minutes,
    iata,
    local_time,
    utc_instant,
    utc_or_none,
)

BAGGAGE_TYPES = frozenset({"checked", "carry_on"})


@dataclass(frozen=True)
class OfferContext:
    """What reading an offer needs from its search."""

    passenger_ids: tuple[str, ...]  # the search's, in our order
    cabin_class: CabinClass  # the one asked for, when a segment does not say


def offer_from(raw: dict, context: OfferContext) -> SupplierOffer:
    total = decimal_from(raw["total_amount"])
    base, tax = _base_and_tax(raw, total)
    requirements = raw.get("payment_requirements") or {}
    instant = bool(requirements.get("requires_instant_payment"))
    conditions = raw.get("conditions") or {}
    slices = tuple(slice_from(s, context) for s in raw["slices"])
    if not slices:
        raise Unreadable("offer without slices")
    return SupplierOffer(
        supplier_offer_id=str(raw["id"]),
        owner=iata(raw.get("owner")),
        total_amount=total,
        base_amount=base,
        tax_amount=tax,
        total_currency=str(raw["total_currency"]),
        slices=slices,
        refund_before_departure=condition_from(conditions.get("refund_before_departure")),
        change_before_departure=condition_from(conditions.get("change_before_departure")),
        requires_instant_payment=instant,
        expires_at=utc_instant(raw["expires_at"]),
        payment_required_by=None if instant else utc_or_none(requirements, "payment_required_by"),
        price_guarantee_expires_at=(
            None if instant else utc_or_none(requirements, "price_guarantee_expires_at")
        ),
        supplier_passenger_ids=context.passenger_ids,
        passenger_identity_documents_required=raw.get("passenger_identity_documents_required")
        is True,
        allowed_passenger_identity_document_types=document_types(raw),
    )


def document_types(raw: dict) -> tuple[str, ...]:
    """The identity document types the offer takes: Duffel's current
    `supported_passenger_identity_document_types`, else the earlier name
    `allowed_passenger_identity_document_types`; neither given (null): passports only, Duffel's
    documented default. `[]`: none may be sent."""
    for key in (
        "supported_passenger_identity_document_types",
        "allowed_passenger_identity_document_types",
    ):
        types = raw.get(key)
        if isinstance(types, list):
            return tuple(str(t) for t in types if t in IDENTITY_DOCUMENT_TYPES)
    return ("passport",)


def _base_and_tax(raw: dict, total: Decimal) -> tuple[Decimal, Decimal]:
    """Base and tax in the total's currency. Duffel gives each its own currency (base_currency,
    tax_currency); one in another currency cannot be added to the total's, so it is treated
    as missing."""
    currency = raw["total_currency"]
    base = decimal_or_none(raw.get("base_amount"))
    tax = decimal_or_none(raw.get("tax_amount"))
    if raw.get("base_currency") not in (None, "", currency):
        base = None
    if raw.get("tax_currency") not in (None, "", currency):
        tax = None
    if tax is None:
        return (total, Decimal("0.00")) if base is None else (base, total - base)
    if base is None:
        return total - tax, tax
    return base, tax


def condition_from(raw: dict | None) -> Condition:
    """Null (the airline did not say) or not allowed: not allowed."""
    if not raw or not raw.get("allowed"):
        return Condition(allowed=False)
    penalty = decimal_or_none(raw.get("penalty_amount"))
    return Condition(
        allowed=True,
        penalty_amount=penalty,
        penalty_currency=raw.get("penalty_currency") if penalty is not None else None,
    )


def slice_from(raw: dict, context: OfferContext) -> SupplierSlice:
    raw_segments = raw["segments"]
    segments = tuple(segment_from(s, context) for s in raw_segments)
    if not segments:
        raise Unreadable("slice without segments")
    minutes = duration_minutes(raw.get("duration"))
    if minutes is None:
        first, last = raw_segments[0], raw_segments[-1]
        minutes = elapsed_minutes(
            first["origin"], segments[0].departing_at, last["destination"], segments[-1].arriving_at
        )
    if minutes is None:
        minutes = sum(s.duration_minutes for s in segments)
    return SupplierSlice(
        origin=segments[0].origin,
        destination=segments[-1].destination,
        duration_minutes=minutes,
        segments=segments,
        fare_brand_name=raw.get("fare_brand_name") or "",
    )


def segment_from(raw: dict, context: OfferContext) -> SupplierSegment:
    origin, destination = iata(raw["origin"]), iata(raw["destination"])
    if not origin or not destination:
        raise Unreadable("segment without airports")
    departing_at, arriving_at = local_time(raw["departing_at"]), local_time(raw["arriving_at"])
    minutes = duration_minutes(raw.get("duration"))
    if minutes is None:
        minutes = elapsed_minutes(raw["origin"], departing_at, raw["destination"], arriving_at)
    marketing = iata(raw.get("marketing_carrier"))
    operating = iata(raw.get("operating_carrier")) or marketing
    marketing_number = str(raw["marketing_carrier_flight_number"])
    operating_number = raw.get("operating_carrier_flight_number") or (
        marketing_number if operating == marketing else ""
    )
    passenger = _lead_passenger(raw.get("passengers") or [], context.passenger_ids[0])
    cabin = passenger.get("cabin_class") or context.cabin_class
    return SupplierSegment(
        origin=origin,
        destination=destination,
        origin_terminal=raw.get("origin_terminal") or None,
        destination_terminal=raw.get("destination_terminal") or None,
        departing_at=departing_at,
        arriving_at=arriving_at,
        marketing_carrier=marketing,
        marketing_flight_number=marketing_number,
        operating_carrier=operating,
        operating_flight_number=str(operating_number),
        aircraft=iata(raw.get("aircraft")),
        duration_minutes=minutes or 0,
        distance_km=_distance_km(raw.get("distance"), origin, destination),
        cabin_class=cabin,
        cabin_class_marketing_name=(
            passenger.get("cabin_class_marketing_name") or cabin.replace("_", " ").title()
        ),
        fare_basis_code=passenger.get("fare_basis_code") or "",
        baggages=tuple(
            Baggage(type=b["type"], quantity=int(b["quantity"]))
            for b in passenger.get("baggages") or []
            if b.get("type") in BAGGAGE_TYPES
        ),
    )


def _lead_passenger(passengers: list[dict], lead_id: str) -> dict:
    """The segment details of the search's first passenger (else of the first listed)."""
    for passenger in passengers:
        if passenger.get("passenger_id") == lead_id:
            return passenger
    return passengers[0] if passengers else {}


def _distance_km(value, origin: str, destination: str) -> Decimal:
    distance = decimal_or_none(value)
    if distance is not None:
        return distance
    if airports.airport(origin) and airports.airport(destination):
        return airports.great_circle_km(origin, destination)
    return Decimal("0")
