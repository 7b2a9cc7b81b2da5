"""The wire shapes of search results (spec: Offer, Slice, Segment, Conditions), built from the
supplier's offer at search time, and again from the stored (packed) offer when it is booked:
the same function of the same values, so the booking shows exactly what the search showed."""

import hashlib
from collections.abc import Iterator, Sequence
from decimal import Decimal
from functools import lru_cache

from core.ids import sibling_id
from core.money import fmt
from core.timestamps import iso_utc
from flights import airports, reference
from flights.pricing import Price
from flights.suppliers.base import Condition, SupplierOffer, SupplierSegment, SupplierSlice


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
        return {**airport_object(code), "type": "airport"}
    return {
        "iata_code": code,
        "name": city.name,
        "city_name": city.name,
        "iata_city_code": code,
        "time_zone": city.time_zone,
        "type": "city",
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


def segment_object(segment: SupplierSegment, passenger_ids: list[str], *, segment_id: str) -> dict:
    return {
        "id": segment_id,
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
        "passengers": [
            {
                "passenger_id": passenger_id,
                "cabin_class": segment.cabin_class,
                "cabin_class_marketing_name": segment.cabin_class_marketing_name,
                "fare_basis_code": segment.fare_basis_code,
                "baggages": [{"type": b.type, "quantity": b.quantity} for b in segment.baggages],
            }
            for passenger_id in passenger_ids
        ],
    }


def slice_object(
    slice_: SupplierSlice, passenger_ids: list[str], *, offer_id: str, random_bits: Iterator[int]
) -> dict:
    return {
        "id": sibling_id("sli", of=offer_id, random_bits=next(random_bits)),
        "origin": airport_object(slice_.origin),
        "destination": airport_object(slice_.destination),
        "duration": iso_duration(slice_.duration_minutes),
        "fare_brand_name": slice_.fare_brand_name,
        "segments": [
            segment_object(
                s,
                passenger_ids,
                segment_id=sibling_id("seg", of=offer_id, random_bits=next(random_bits)),
            )
            for s in slice_.segments
        ],
    }


def offer_slices(offer_id: str, slices, passenger_ids: list[str]) -> list[dict]:
    """The offer's slices. Their `sli_` and `seg_` ids are derived from the offer id (its time
    and a hash of it), so that they are the same each time the offer is rendered and need not
    be stored; they name parts of an offer, they open nothing."""
    count = sum(1 + len(s.segments) for s in slices)
    stream = hashlib.shake_128(offer_id.encode()).digest(10 * count)
    random_bits = (int.from_bytes(stream[i : i + 10]) for i in range(0, len(stream), 10))
    return [
        slice_object(s, passenger_ids, offer_id=offer_id, random_bits=random_bits) for s in slices
    ]


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


def payment_requirements(offer: SupplierOffer) -> dict:
    return {
        "requires_instant_payment": offer.requires_instant_payment,
        "price_guarantee_expires_at": iso_utc(offer.price_guarantee_expires_at),
        "payment_required_by": iso_utc(offer.payment_required_by),
    }


def offer_object(
    *, offer_id: str, offer: SupplierOffer, price: Price, passengers: Sequence[tuple[str, str]]
) -> dict:
    """`passengers` are (pas_ id, type) in order."""
    passenger_ids = [pid for pid, _ in passengers]
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
        "exchange_rate_used": number(price.exchange_rate),
        "base_cost_brl": fmt(price.base_cost_brl),
        "agency_markup_percent": number(price.markup_percent),
        "agency_markup_amount": fmt(price.markup_amount),
        "agency_fee_amount": fmt(price.fee_amount),
        "total_agency_commission": fmt(price.total_agency_commission),
        "markup_applied": fmt(price.markup_amount),
        "fee_applied": fmt(price.fee_amount),
        "expires_at": iso_utc(offer.expires_at),
        "owner": carrier(offer.owner),
        "slices": offer_slices(offer_id, offer.slices, passenger_ids),
        "passengers": offer_passengers(offer, passengers),
        "conditions": conditions_object(offer),
        "payment_requirements": payment_requirements(offer),
    }
