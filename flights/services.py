"""Flight search: validate → ask the supplier → price with the team's markup and fee at a locked
exchange rate (the reference rate plus the team's FX margin, agencies.pricing) → store what a
booking needs of the offers (one row per search, flights/packing.py) → return them. Each stage
is timed and the split is reported in the `Server-Timing` response header."""

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from agencies.models import Team
from agencies.pricing import FxQuote, fx_quote, price_offer, team_fx_margin_percent
from core.exceptions import register_error
from core.ids import new_id, sibling_id
from flights import packing, payloads
from flights.fx import UnknownCurrency, rate_provider
from flights.models import LocationType, OfferRequest
from flights.suppliers import supplier_for
from flights.suppliers.base import SearchRequest, SupplierError

NO_EXCHANGE_RATE = "No exchange rate for {currency}"
register_error(SupplierError.code, SupplierError.status_code, NO_EXCHANGE_RATE, module=__name__)


@dataclass
class SearchTimings:
    milliseconds: dict[str, float] = field(default_factory=dict)

    def measure(self, stage: str, started: float) -> float:
        now = time.perf_counter()
        self.milliseconds[stage] = self.milliseconds.get(stage, 0.0) + (now - started) * 1000
        return now

    def header(self) -> str:
        return ", ".join(f"{stage};dur={ms:.2f}" for stage, ms in self.milliseconds.items())


def flight_search(
    *,
    team: Team,
    live_mode: bool,
    request: SearchRequest,
    timings: SearchTimings | None = None,
) -> dict:
    timings = timings or SearchTimings()
    started = time.perf_counter()
    supplier = supplier_for(team=team, live_mode=live_mode)
    supplier_offers = supplier.search(request)
    started = timings.measure("supplier", started)

    request_id = new_id("orq")
    passenger_pairs = [(new_id("pas"), t) for t in request.passengers]
    supplier_passenger_ids: tuple[str, ...] = ()

    rates = rate_provider()
    margin = team_fx_margin_percent(team)  # the team's now: a change applies to the next search
    rate_of: dict[str, FxQuote] = {}
    rendered, packed = [], []
    renderer, packer = payloads.OfferRenderer(passenger_pairs), packing.OfferPacker()
    for supplier_offer in supplier_offers:
        currency = supplier_offer.total_currency
        if currency not in rate_of:
            try:
                reference = rates.rate(currency)
            except UnknownCurrency:
                raise SupplierError(NO_EXCHANGE_RATE.format(currency=currency)) from None
            rate_of[currency] = fx_quote(
                currency=currency, reference_rate=reference, margin_percent=margin
            )
        price = price_offer(
            total_amount=supplier_offer.total_amount,
            total_currency=currency,
            fx=rate_of[currency],
            markup_percent=team.markup_percent,
            fee=team.fee.amount,  # type: ignore[attr-defined]  # MoneyField: Money
        )
        offer_id = sibling_id("off", of=request_id)
        rendered.append(renderer.offer(offer_id=offer_id, offer=supplier_offer, price=price))
        packed.append(packer.pack(offer_id=offer_id, offer=supplier_offer, price=price))
        if supplier_offer.supplier_passenger_ids and not supplier_passenger_ids:
            supplier_passenger_ids = supplier_offer.supplier_passenger_ids
    started = timings.measure("pricing", started)

    now = timezone.now()
    OfferRequest(
        id=request_id,
        team=team,
        live_mode=live_mode,
        supplier=supplier.name,
        created_at=now,
        expires_at=max((o.expires_at for o in supplier_offers), default=now),
        passengers=[
            [pid, ptype, supplier_id]
            for (pid, ptype), supplier_id in zip(
                passenger_pairs,
                supplier_passenger_ids or ("",) * len(passenger_pairs),
                strict=True,
            )
        ],
        offers=packed,
    ).save(force_insert=True)
    started = timings.measure("storage", started)

    return {
        "id": request_id,
        "offers": rendered,
        "slices": [
            {
                "origin": payloads.place_object(s.origin),
                "destination": payloads.place_object(s.destination),
                "departure_date": s.departure_date.isoformat(),
                "origin_type": _location_type(s.origin_airports),
                "destination_type": _location_type(s.destination_airports),
            }
            for s in request.slices
        ],
        "passengers": [
            {"id": pid, "type": ptype, "fare_brand_name": None, "loyalty_programme_accounts": []}
            for pid, ptype in passenger_pairs
        ],
    }


# A search (with its offers) is kept this long after its last offer expires, so that booking a
# recently expired offer answers "Offer expired"; after that it is "Offer not found". Storage
# held per team is then at most (offer lifetime + this + the purge interval) of searches.
KEEP_AFTER_EXPIRY = timedelta(hours=1)


def _location_type(airports: tuple[str, ...]) -> LocationType:
    return LocationType.CITY if len(airports) > 1 else LocationType.AIRPORT


def offers_purge_expired(*, now: datetime | None = None) -> int:
    """Delete the searches whose offers all expired more than KEEP_AFTER_EXPIRY ago (one
    indexed DELETE; beat runs it every 5 minutes)."""
    cutoff = (now or timezone.now()) - KEEP_AFTER_EXPIRY
    deleted, _ = OfferRequest.objects.filter(expires_at__lt=cutoff).delete()
    return deleted
