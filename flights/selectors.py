from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils.dateparse import parse_datetime

from flights import airports
from flights.models import Offer


@dataclass(frozen=True)
class BookableOffer:
    """A stored offer as bookings and suppliers read it: exact amounts from the columns, the
    rest from the offer as the search returned it."""

    id: str
    supplier: str
    supplier_offer_id: str
    owner: str
    total_amount: Decimal
    total_currency: str
    base_amount: Decimal
    tax_amount: Decimal
    exchange_rate: Decimal
    base_cost_brl: Decimal
    expires_at: datetime
    requires_instant_payment: bool
    payment_required_by: datetime | None
    price_guarantee_expires_at: datetime | None
    refund_before_departure: dict
    passengers: list[dict]  # [{id, type, ...}] as in the offer
    supplier_passenger_ids: tuple[str, ...]
    data: dict

    @property
    def airport_codes(self) -> set[str]:
        return {
            segment[end]["iata_code"]
            for slice_ in self.data["slices"]
            for segment in slice_["segments"]
            for end in ("origin", "destination")
        }

    @property
    def first_departure(self) -> datetime:
        return _segment_instant(self.data["slices"][0]["segments"][0], "origin", "departing_at")

    @property
    def last_arrival(self) -> datetime:
        return _segment_instant(
            self.data["slices"][-1]["segments"][-1], "destination", "arriving_at"
        )


def _segment_instant(segment: dict, end: str, field: str) -> datetime:
    """A segment's local time made aware in its airport's time zone."""
    zone = ZoneInfo(airports.airport(segment[end]["iata_code"]).time_zone)
    return datetime.fromisoformat(segment[field]).replace(tzinfo=zone)


def _instant(text: str | None) -> datetime | None:
    return parse_datetime(text) if text else None


def bookable_offer(*, team, live_mode: bool, offer_id: str) -> BookableOffer | None:
    """The team's offer in that mode, or None (unknown, or another team's or mode's)."""
    offer = (
        Offer.objects.filter(pk=offer_id, team=team, live_mode=live_mode)
        .select_related("offer_request")
        .first()
    )
    if offer is None:
        return None
    data = offer.data
    requirements = data["payment_requirements"]
    supplier_ids = tuple(
        offer.offer_request.passengers.values_list("supplier_passenger_id", flat=True)
    )
    return BookableOffer(
        id=offer.id,
        supplier=offer.supplier,
        supplier_offer_id=offer.supplier_offer_id,
        owner=data["owner"]["iata_code"],
        total_amount=offer.total_amount,
        total_currency=offer.total_currency,
        base_amount=Decimal(data["base_amount"]),
        tax_amount=Decimal(data["tax_amount"]),
        exchange_rate=offer.exchange_rate,
        base_cost_brl=offer.base_cost_brl,
        expires_at=offer.expires_at,
        requires_instant_payment=requirements["requires_instant_payment"],
        payment_required_by=_instant(requirements["payment_required_by"]),
        price_guarantee_expires_at=_instant(requirements["price_guarantee_expires_at"]),
        refund_before_departure=data["conditions"]["refund_before_departure"],
        passengers=data["passengers"],
        supplier_passenger_ids=supplier_ids,
        data=data,
    )
