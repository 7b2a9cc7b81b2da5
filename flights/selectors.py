import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from agencies.models import Team
from agencies.pricing import price_offer
from core.ids import id_time_part
from flights import airports, packing, payloads
from flights.models import OfferRequest
from flights.suppliers.base import IDENTITY_DOCUMENT_TYPES

OFFER_ID = re.compile(r"^off_[0-9a-hjkmnp-tv-z]{26}$")


@dataclass(frozen=True)
class BookableOffer:
    """A stored offer as bookings and suppliers read it. `data` holds the parts of the offer,
    as the search returned them, that a booking keeps: owner, slices, conditions, passengers,
    payment_requirements."""

    id: str
    supplier: str
    supplier_offer_id: str
    owner: str
    total_amount: Decimal
    total_currency: str
    base_amount: Decimal
    tax_amount: Decimal
    exchange_rate: Decimal  # the rate used, the FX margin in it (agencies.pricing)
    base_cost_brl: Decimal
    fx_reference_rate: Decimal
    fx_margin_percent: Decimal
    markup_amount: Decimal  # the agency's, priced at search time
    fee_amount: Decimal
    client_amount: Decimal  # what the agency's customer pays
    expires_at: datetime
    requires_instant_payment: bool
    payment_required_by: datetime | None
    price_guarantee_expires_at: datetime | None
    refund_before_departure: dict
    passengers: list[dict]  # [{id, type, ...}] as in the offer
    supplier_passenger_ids: tuple[str, ...]
    data: dict
    # The supplier's document rules (SupplierOffer's): bookings validate and send by them.
    passenger_identity_documents_required: bool = False
    allowed_passenger_identity_document_types: tuple[str, ...] = IDENTITY_DOCUMENT_TYPES

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
    zone = ZoneInfo(airports.AIRPORTS[segment[end]["iata_code"]].time_zone)
    return datetime.fromisoformat(segment[field]).replace(tzinfo=zone)


def bookable_offer(*, team: Team, live_mode: bool, offer_id: str) -> BookableOffer | None:
    """The team's offer in that mode, or None (unknown, another team's or mode's, or deleted
    after it expired). Its search is found by the time part the offer id shares with it."""
    if not OFFER_ID.match(offer_id):
        return None
    searches = OfferRequest.objects.filter(
        team=team, live_mode=live_mode, id__startswith=f"orq_{id_time_part(offer_id)}"
    ).only("id", "supplier", "passengers", "offers")
    for search in searches:  # one, unless the team searched twice in that millisecond
        packed = next((o for o in search.offers if o[0] == offer_id), None)
        if packed is not None:
            return _bookable(search, packed, team=team)
    return None


def _bookable(search: OfferRequest, packed: list, *, team: Team) -> BookableOffer:
    supplier_ids = tuple(supplier_id for _, _, supplier_id in search.passengers)
    stored = packing.unpack_offer(packed, supplier_passenger_ids=supplier_ids)
    offer = stored.offer
    markup_amount, fee_amount = stored.markup_amount, stored.fee_amount
    # Packed before the agency's price was kept: price it again, at the stored rate as it is.
    if markup_amount is None or fee_amount is None:
        price = price_offer(
            total_amount=offer.total_amount,
            total_currency=offer.total_currency,
            exchange_rate=stored.exchange_rate,
            markup_percent=team.markup_percent,
            fee=team.fee.amount,  # type: ignore[attr-defined]  # MoneyField: Money
        )
        markup_amount, fee_amount = price.markup_amount, price.fee_amount
    passengers = [(pid, ptype) for pid, ptype, _ in search.passengers]
    renderer = payloads.OfferRenderer(passengers)
    data: dict[str, Any] = {
        # The parts of the offer, as the search showed them, that a booking keeps.
        "owner": payloads.carrier(offer.owner),
        "slices": renderer.slices(stored.id, offer.slices),
        "conditions": payloads.conditions_object(offer),
        "passengers": renderer.offer_passengers(offer),
        "payment_requirements": renderer.payment_requirements(offer),
    }
    return BookableOffer(
        id=stored.id,
        supplier=search.supplier,
        supplier_offer_id=offer.supplier_offer_id,
        owner=offer.owner,
        total_amount=offer.total_amount,
        total_currency=offer.total_currency,
        base_amount=offer.base_amount,
        tax_amount=offer.tax_amount,
        exchange_rate=stored.exchange_rate,
        base_cost_brl=stored.base_cost_brl,
        fx_reference_rate=stored.fx_reference_rate,
        fx_margin_percent=stored.fx_margin_percent,
        markup_amount=markup_amount,
        fee_amount=fee_amount,
        client_amount=stored.base_cost_brl + markup_amount + fee_amount,
        expires_at=offer.expires_at,
        requires_instant_payment=offer.requires_instant_payment,
        payment_required_by=offer.payment_required_by,
        price_guarantee_expires_at=offer.price_guarantee_expires_at,
        refund_before_departure=data["conditions"]["refund_before_departure"],
        passengers=data["passengers"],
        supplier_passenger_ids=supplier_ids,
        data=data,
        passenger_identity_documents_required=offer.passenger_identity_documents_required,
        allowed_passenger_identity_document_types=offer.allowed_passenger_identity_document_types,
    )
