"""The wire shapes of search results (spec: Offer, Slice, Segment, Conditions), built from the
supplier's offer at search time, and again from the stored (packed) offer when it is booked:
the same function of the same values, so the booking shows exactly what the search showed."""

import hashlib
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from functools import lru_cache

from agencies.pricing import Price
from core.ids import id_time_part, random_parts
from core.money import fmt
from core.timestamps import iso_utc
from flights import airports, reference
from flights.models import LocationType
from flights.suppliers.base import Condition, SupplierOffer, SupplierSegment, SupplierSlice


@lru_cache(maxsize=4096)
def iso_duration(minutes: int) -> str:
    hours, minutes = divmod(minutes, 60)
    return "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes or not hours else "")


def number(value: Decimal) -> float | int:
    """A JSON number for the fields the spec types as number; the shortest repr of the float
    is the decimal value for the magnitudes involved (amounts, rates, percentages)."""
    return int(value) if value == value.to_integral_value() else float(value)


def place_object(code: str) -> dict:
    """A searched location: an IATA city (multi-airport) code or an airport."""
    city = airports.city(code)
    if city is None:
        return {**airport_object(code), "type": LocationType.AIRPORT}
    return {
        "iata_code": code,
        "name": city.name,
        "city_name": city.name,
        "iata_city_code": code,
        "time_zone": city.time_zone,
        "type": LocationType.CITY,
    }


# The location, carrier and aircraft objects below are cached and shared between offers: they
# are built once per code, and nothing mutates them (they are only serialized).
@lru_cache(maxsize=8192)
def airport_object(code: str) -> dict:
    airport = airports.airport(code)
    if airport is None:  # a supplier's airport missing from our data: show what we know
        return {
            "iata_code": code,
            "name": code,
            "city_name": code,
            "iata_city_code": code,
            "time_zone": None,
        }
    return {
        "iata_code": airport.iata_code,
        "name": airport.name,
        "city_name": airport.city_name,
        "iata_city_code": airport.iata_city_code,
        "time_zone": airport.time_zone,
    }


@lru_cache(maxsize=2048)
def carrier(code: str, *, with_logo: bool = False) -> dict:
    airline = reference.AIRLINES.get(code)
    data: dict[str, str | None] = {"iata_code": code, "name": airline.name if airline else code}
    if with_logo:
        data["logo_symbol_url"] = airline.logo_symbol_url if airline else None
    return data


def condition(value: Condition) -> dict:
    return {
        "allowed": value.allowed,
        "penalty_amount": fmt(value.penalty_amount) if value.penalty_amount is not None else None,
        "penalty_currency": value.penalty_currency,
    }


@lru_cache(maxsize=8192)
def segment_end(code: str, terminal: str | None) -> dict:
    airport = airports.airport(code)
    return {"iata_code": code, "name": airport.name if airport else code, "terminal": terminal}


@lru_cache(maxsize=1024)
def aircraft_object(code: str) -> dict:
    return {"iata_code": code, "name": reference.AIRCRAFT.get(code, code)}


def flight_key(segment: SupplierSegment) -> tuple | None:
    """The values of a segment that every offer selling the same flight shares (all but the
    fare: cabin, fare basis, baggage), compared so that equal keys render to equal text (the
    distance as its text: 812.0 and 812.00 are equal Decimals). None when a local time carries
    a zone (the interface says naive; equal aware times can print different offsets): such a
    segment is rendered on its own."""
    if segment.departing_at.tzinfo is not None or segment.arriving_at.tzinfo is not None:
        return None
    return (
        segment.origin,
        segment.destination,
        segment.origin_terminal,
        segment.destination_terminal,
        segment.departing_at,
        segment.arriving_at,
        segment.marketing_carrier,
        segment.marketing_flight_number,
        segment.operating_carrier,
        segment.operating_flight_number,
        segment.aircraft,
        segment.duration_minutes,
        str(segment.distance_km),
    )


def flight_object(segment: SupplierSegment) -> dict:
    """The part of a segment's object that is the flight's (see flight_key)."""
    return {
        "origin": segment_end(segment.origin, segment.origin_terminal),
        "destination": segment_end(segment.destination, segment.destination_terminal),
        "departing_at": segment.departing_at.isoformat(timespec="seconds"),
        "arriving_at": segment.arriving_at.isoformat(timespec="seconds"),
        "operating_carrier": carrier(segment.operating_carrier, with_logo=True),
        "marketing_carrier": carrier(segment.marketing_carrier),
        "operating_carrier_flight_number": segment.operating_flight_number,
        "marketing_carrier_flight_number": segment.marketing_flight_number,
        "aircraft": aircraft_object(segment.aircraft),
        "duration": iso_duration(segment.duration_minutes),
        "distance": f"{segment.distance_km:.1f}",
    }


def segment_passengers(segment: SupplierSegment, passenger_ids: Sequence[str]) -> list[dict]:
    return [
        {
            "passenger_id": passenger_id,
            "cabin_class": segment.cabin_class,
            "cabin_class_marketing_name": segment.cabin_class_marketing_name,
            "fare_basis_code": segment.fare_basis_code,
            "baggages": [{"type": b.type, "quantity": b.quantity} for b in segment.baggages],
        }
        for passenger_id in passenger_ids
    ]


def derived_random_parts(offer_id: str, count: int) -> list[str]:
    """The random parts (80 bits, 16 characters) of the `count` ids derived from an offer id:
    consecutive 10-byte pieces of SHAKE-128 of the offer id, as `core.ids.sibling_id` would
    encode each of them (`random_bits=int.from_bytes(piece)`)."""
    return random_parts(hashlib.shake_128(offer_id.encode()).digest(10 * count))


class OfferRenderer:
    """Renders the offers of one search (or the one offer a booking reads) for one list of
    passengers. What offers share is built once: a slice's object (apart from its and its
    segments' ids) for each slice object the supplier shares between offers (the sandbox
    shares slices between an itinerary's offers), a flight's part of a segment's object (the
    same flight is sold in several fares), and the text of instants. Nothing built
    here is mutated afterwards: the objects are only serialized, or read."""

    def __init__(self, passengers: Sequence[tuple[str, str]]):
        self.passengers = passengers
        self.passenger_ids = [pid for pid, _ in passengers]
        # id(slice) -> (the slice, its head, its segments' bodies); the slice is kept so
        # that an id reused by another object after the first was freed is never a hit.
        self._slices: dict[int, tuple[SupplierSlice, dict, list[dict]]] = {}
        self._flights: dict[tuple, dict] = {}  # flight_key -> flight_object
        self._instants: dict[datetime | None, str | None] = {}
        self._offer_passengers: dict[str | None, list[dict]] = {}
        self._numbers: dict[Decimal, float | int] = {}

    def _flight(self, segment: SupplierSegment) -> dict:
        key = flight_key(segment)
        found = self._flights.get(key) if key is not None else None
        if found is None:
            found = flight_object(segment)
            if key is not None:
                self._flights[key] = found
        return found

    def _slice_parts(self, slice_: SupplierSlice) -> tuple[dict, list[dict]]:
        """A slice's object without its id and segments, and its segments' objects without
        their ids."""
        found = self._slices.get(id(slice_))
        if found is None or found[0] is not slice_:
            head = {
                "origin": airport_object(slice_.origin),
                "destination": airport_object(slice_.destination),
                "duration": iso_duration(slice_.duration_minutes),
                "fare_brand_name": slice_.fare_brand_name,
            }
            segments = [
                {
                    **self._flight(segment),
                    "passengers": segment_passengers(segment, self.passenger_ids),
                }
                for segment in slice_.segments
            ]
            found = self._slices[id(slice_)] = (slice_, head, segments)
        return found[1], found[2]

    def slices(self, offer_id: str, slices: Sequence[SupplierSlice]) -> list[dict]:
        """The offer's slices. Their `sli_` and `seg_` ids are derived from the offer id (its
        time and a hash of it), so that they are the same each time the offer is rendered and
        need not be stored; they name parts of an offer, they open nothing."""
        time_part = id_time_part(offer_id)
        parts = iter(derived_random_parts(offer_id, sum(1 + len(s.segments) for s in slices)))
        rendered = []
        for slice_ in slices:
            head, segments = self._slice_parts(slice_)
            slice_id = f"sli_{time_part}{next(parts)}"
            rendered.append(
                {
                    "id": slice_id,
                    **head,
                    "segments": [
                        {"id": f"seg_{time_part}{next(parts)}", **body} for body in segments
                    ],
                }
            )
        return rendered

    def instant(self, value: datetime | None) -> str | None:
        text = self._instants.get(value, _MISSING)
        if text is _MISSING:
            text = self._instants[value] = iso_utc(value)
        return text  # type: ignore[return-value]

    def number(self, value: Decimal) -> float | int:
        """number() of a value many offers share (exchange rates, the markup): equal Decimals
        give the same JSON number, however many zeros they carry."""
        found = self._numbers.get(value)
        if found is None:
            found = self._numbers[value] = number(value)
        return found

    def offer_passengers(self, offer: SupplierOffer) -> list[dict]:
        brand = offer.slices[0].fare_brand_name if offer.slices else None
        found = self._offer_passengers.get(brand)
        if found is None:
            found = self._offer_passengers[brand] = offer_passengers(offer, self.passengers)
        return found

    def payment_requirements(self, offer: SupplierOffer) -> dict:
        return {
            "requires_instant_payment": offer.requires_instant_payment,
            "price_guarantee_expires_at": self.instant(offer.price_guarantee_expires_at),
            "payment_required_by": self.instant(offer.payment_required_by),
        }

    def offer(self, *, offer_id: str, offer: SupplierOffer, price: Price) -> dict:
        assert price.fx is not None, "an offer is priced at a rate quoted for it"
        markup = fmt(price.markup_amount)
        fee = fmt(price.fee_amount)
        return {
            "id": offer_id,
            "total_amount": fmt(price.total_amount),
            "total_currency": price.total_currency,
            "base_amount": fmt(offer.base_amount),
            "tax_amount": fmt(offer.tax_amount),
            "client_amount": fmt(price.client_amount),
            "client_currency": "BRL",
            "original_amount": number(price.total_amount),
            "original_currency": price.total_currency,
            "exchange_rate_used": self.number(price.exchange_rate),
            "fx_reference_rate": self.number(price.fx.reference_rate),
            "fx_margin_percent": fmt(price.fx.margin_percent),
            "base_cost_brl": fmt(price.base_cost_brl),
            "agency_markup_percent": self.number(price.markup_percent),
            "agency_markup_amount": markup,
            "agency_fee_amount": fee,
            "total_agency_commission": fmt(price.total_agency_commission),
            "markup_applied": markup,
            "fee_applied": fee,
            "expires_at": self.instant(offer.expires_at),
            "owner": carrier(offer.owner),
            "slices": self.slices(offer_id, offer.slices),
            "passengers": self.offer_passengers(offer),
            "conditions": conditions_object(offer),
            "payment_requirements": self.payment_requirements(offer),
            "passenger_identity_documents_required": offer.passenger_identity_documents_required,
            "allowed_passenger_identity_document_types": list(
                offer.allowed_passenger_identity_document_types
            ),
        }


_MISSING = object()


def conditions_object(offer: SupplierOffer) -> dict:
    return {
        "refund_before_departure": condition(offer.refund_before_departure),
        "change_before_departure": condition(offer.change_before_departure),
    }


def offer_passengers(offer: SupplierOffer, passengers: Sequence[tuple[str, str]]) -> list[dict]:
    brand = offer.slices[0].fare_brand_name if offer.slices else None
    return [
        {"id": pid, "type": ptype, "fare_brand_name": brand, "loyalty_programme_accounts": []}
        for pid, ptype in passengers
    ]
