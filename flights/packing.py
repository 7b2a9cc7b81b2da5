"""The stored form of a search's offers: what a booking needs of each, as plain JSON arrays.

A search used to store every offer as the search returned it (~2 KB each after compression,
50+ per search). A booking needs only the supplier's values (codes, times, flight numbers,
amounts, conditions, deadlines) and the exact amounts we priced: names of airports, airlines
and aircraft come from the reference data, ids are derived from the offer id
(`payloads.OfferRenderer.slices`), and the wire shapes are rendered again by the same functions
(`payloads`) when the offer is booked. Positional arrays, no repeated keys; PostgreSQL
compresses the whole search's array (lz4) in one value.

    offer    = [id, supplier_offer_id, owner, total_amount, total_currency, base_amount,
                tax_amount, exchange_rate, base_cost_brl, expires_at, requires_instant_payment,
                payment_required_by, price_guarantee_expires_at, refund, change, slices,
                markup_amount, fee_amount, passenger_identity_documents_required,
                allowed_passenger_identity_document_types, fx_reference_rate,
                fx_margin_percent]
    slice    = [origin, destination, duration_minutes, fare_brand_name, segments]
    segment  = [origin, destination, origin_terminal, destination_terminal, departing_at,
                arriving_at, marketing_carrier, marketing_flight_number, operating_carrier,
                operating_flight_number, aircraft, duration_minutes, distance_km, cabin_class,
                cabin_class_marketing_name, fare_basis_code, [[baggage type, quantity], ...]]
    condition = [allowed, penalty_amount, penalty_currency]

Amounts are decimal strings and datetimes ISO 8601 strings, so that unpacking gives back the
same values. The hold deadlines are kept as the search showed them (milliseconds, UTC), which
is what a booking has always read.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils.dateparse import parse_datetime

from agencies.pricing import Price
from core.timestamps import iso_utc
from flights.payloads import flight_key
from flights.suppliers.base import (
    IDENTITY_DOCUMENT_TYPES,
    Baggage,
    Condition,
    SupplierOffer,
    SupplierSegment,
    SupplierSlice,
)


@dataclass(frozen=True)
class StoredOffer:
    """An unpacked offer: the supplier's offer and the exact amounts priced at search time."""

    id: str
    offer: SupplierOffer
    exchange_rate: Decimal  # the rate used: the reference with the FX margin in it
    base_cost_brl: Decimal
    fx_reference_rate: Decimal
    fx_margin_percent: Decimal
    # None for an offer packed before they were kept (see flights.selectors._bookable).
    markup_amount: Decimal | None
    fee_amount: Decimal | None


def _amount(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _condition(value: Condition) -> list:
    return [value.allowed, _amount(value.penalty_amount), value.penalty_currency]


def _flight(segment: SupplierSegment) -> list:
    """A segment's values that are the flight's (payloads.flight_key), packed."""
    return [
        segment.origin,
        segment.destination,
        segment.origin_terminal,
        segment.destination_terminal,
        segment.departing_at.isoformat(),
        segment.arriving_at.isoformat(),
        segment.marketing_carrier,
        segment.marketing_flight_number,
        segment.operating_carrier,
        segment.operating_flight_number,
        segment.aircraft,
        segment.duration_minutes,
        str(segment.distance_km),
    ]


class OfferPacker:
    """Packs the offers of one search. A slice object the supplier shares between offers (the
    sandbox does, between an itinerary's fare brands) is packed once: the same values give the
    same array, which is only serialized."""

    def __init__(self) -> None:
        # id(slice) -> (the slice, its array); the slice is kept so that an id reused by
        # another object after the first was freed is never a hit.
        self._slices: dict[int, tuple[SupplierSlice, list]] = {}
        self._flights: dict[tuple, list] = {}  # payloads.flight_key -> its first 13 values

    def _segment(self, segment: SupplierSegment) -> list:
        key = flight_key(segment)
        flight = self._flights.get(key) if key is not None else None
        if flight is None:
            flight = _flight(segment)
            if key is not None:
                self._flights[key] = flight
        return [
            *flight,
            segment.cabin_class,
            segment.cabin_class_marketing_name,
            segment.fare_basis_code,
            [[b.type, b.quantity] for b in segment.baggages],
        ]

    def _slice(self, slice_: SupplierSlice) -> list:
        found = self._slices.get(id(slice_))
        if found is None or found[0] is not slice_:
            packed = [
                slice_.origin,
                slice_.destination,
                slice_.duration_minutes,
                slice_.fare_brand_name,
                [self._segment(segment) for segment in slice_.segments],
            ]
            found = self._slices[id(slice_)] = (slice_, packed)
        return found[1]

    def pack(self, *, offer_id: str, offer: SupplierOffer, price: Price) -> list:
        assert price.fx is not None, "an offer is priced at a rate quoted for it"
        return [
            offer_id,
            offer.supplier_offer_id,
            offer.owner,
            str(offer.total_amount),
            offer.total_currency,
            str(offer.base_amount),
            str(offer.tax_amount),
            str(price.exchange_rate),
            str(price.base_cost_brl),
            offer.expires_at.isoformat(),
            offer.requires_instant_payment,
            iso_utc(offer.payment_required_by),
            iso_utc(offer.price_guarantee_expires_at),
            _condition(offer.refund_before_departure),
            _condition(offer.change_before_departure),
            [self._slice(s) for s in offer.slices],
            str(price.markup_amount),
            str(price.fee_amount),
            offer.passenger_identity_documents_required,
            list(offer.allowed_passenger_identity_document_types),
            str(price.fx.reference_rate),
            str(price.fx.margin_percent),
        ]


def _unpack_condition(value: list) -> Condition:
    allowed, penalty, currency = value
    return Condition(
        allowed=allowed,
        penalty_amount=None if penalty is None else Decimal(penalty),
        penalty_currency=currency,
    )


def _instant(text: str | None) -> datetime | None:
    return parse_datetime(text) if text else None


def _unpack_segment(value: list) -> SupplierSegment:
    (
        origin,
        destination,
        origin_terminal,
        destination_terminal,
        departing_at,
        arriving_at,
        marketing_carrier,
        marketing_flight_number,
        operating_carrier,
        operating_flight_number,
        aircraft,
        duration_minutes,
        distance_km,
        cabin_class,
        cabin_class_marketing_name,
        fare_basis_code,
        baggages,
    ) = value
    return SupplierSegment(
        origin=origin,
        destination=destination,
        origin_terminal=origin_terminal,
        destination_terminal=destination_terminal,
        departing_at=datetime.fromisoformat(departing_at),
        arriving_at=datetime.fromisoformat(arriving_at),
        marketing_carrier=marketing_carrier,
        marketing_flight_number=marketing_flight_number,
        operating_carrier=operating_carrier,
        operating_flight_number=operating_flight_number,
        aircraft=aircraft,
        duration_minutes=duration_minutes,
        distance_km=Decimal(distance_km),
        cabin_class=cabin_class,
        cabin_class_marketing_name=cabin_class_marketing_name,
        fare_basis_code=fare_basis_code,
        baggages=tuple(Baggage(type=kind, quantity=quantity) for kind, quantity in baggages),
    )


# The values packed after the first 16, in order, and what an offer packed before each was kept
# reads: the agency's markup and fee (priced again, flights.selectors._bookable), the document
# rules (none required, every type allowed), the FX reference rate and margin (no margin: the
# rate used was the reference).
_PACKED_LATER = (None, None, False, None, None, None)


def unpack_offer(value: list, *, supplier_passenger_ids: tuple[str, ...]) -> StoredOffer:
    (
        offer_id,
        supplier_offer_id,
        owner,
        total_amount,
        total_currency,
        base_amount,
        tax_amount,
        exchange_rate,
        base_cost_brl,
        expires_at,
        requires_instant_payment,
        payment_required_by,
        price_guarantee_expires_at,
        refund,
        change,
        slices,
        markup_amount,
        fee_amount,
        documents_required,
        document_types,
        fx_reference_rate,
        fx_margin_percent,
    ) = [*value, *_PACKED_LATER[len(value) - 16 :]]  # type: ignore[misc]  # mixed on purpose
    offer = SupplierOffer(
        supplier_offer_id=supplier_offer_id,
        owner=owner,
        total_amount=Decimal(total_amount),
        base_amount=Decimal(base_amount),
        tax_amount=Decimal(tax_amount),
        total_currency=total_currency,
        slices=tuple(
            SupplierSlice(
                origin=origin,
                destination=destination,
                duration_minutes=duration,
                fare_brand_name=brand,
                segments=tuple(map(_unpack_segment, segments)),
            )
            for origin, destination, duration, brand, segments in slices
        ),
        refund_before_departure=_unpack_condition(refund),
        change_before_departure=_unpack_condition(change),
        requires_instant_payment=requires_instant_payment,
        expires_at=datetime.fromisoformat(expires_at),
        payment_required_by=_instant(payment_required_by),
        price_guarantee_expires_at=_instant(price_guarantee_expires_at),
        supplier_passenger_ids=supplier_passenger_ids,
        passenger_identity_documents_required=documents_required,
        allowed_passenger_identity_document_types=(
            IDENTITY_DOCUMENT_TYPES if document_types is None else tuple(document_types)
        ),
    )
    return StoredOffer(
        id=offer_id,
        offer=offer,
        exchange_rate=Decimal(exchange_rate),
        base_cost_brl=Decimal(base_cost_brl),
        fx_reference_rate=Decimal(fx_reference_rate or exchange_rate),
        fx_margin_percent=Decimal(fx_margin_percent or "0.00"),
        markup_amount=None if markup_amount is None else Decimal(markup_amount),
        fee_amount=None if fee_amount is None else Decimal(fee_amount),
    )
