"""Flight search: validate → ask the supplier → price with the team's markup and fee at a locked
exchange rate → store the offers with their expiry → return them. Each stage is timed and the
split is reported in the `Server-Timing` response header."""

import time
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction

from core.db import insert_rows
from core.ids import new_id
from flights import rendering
from flights.fx import UnknownCurrency, rate_provider
from flights.models import Offer, OfferPassenger, OfferRequest
from flights.pricing import price_offer
from flights.suppliers import supplier_for
from flights.suppliers.base import SearchRequest, SupplierError


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
    team,
    live_mode: bool,
    trip_type: str,
    request: SearchRequest,
    timings: SearchTimings | None = None,
) -> dict:
    timings = timings or SearchTimings()
    started = time.perf_counter()
    supplier = supplier_for(team=team, live_mode=live_mode)
    supplier_offers = supplier.search(request)
    started = timings.measure("supplier", started)

    offer_request = OfferRequest(
        id=new_id("orq"),
        team=team,
        live_mode=live_mode,
        supplier=supplier.name,
        trip_type=trip_type,
        cabin_class=request.cabin_class,
        slices=[
            {
                "origin": rendering.place_object(s.origin),
                "destination": rendering.place_object(s.destination),
                "departure_date": s.departure_date.isoformat(),
                "origin_type": "city" if len(s.origin_airports) > 1 else "airport",
                "destination_type": "city" if len(s.destination_airports) > 1 else "airport",
            }
            for s in request.slices
        ],
    )
    passengers = [
        OfferPassenger(
            id=new_id("pas"),
            offer_request=offer_request,
            position=position,
            type=passenger_type,
            supplier_passenger_id="",
        )
        for position, passenger_type in enumerate(request.passengers)
    ]
    passenger_pairs = [(p.id, p.type) for p in passengers]

    rates = rate_provider()
    rate_of: dict[str, Decimal] = {}
    offers = []
    for supplier_offer in supplier_offers:
        currency = supplier_offer.total_currency
        if currency not in rate_of:
            try:
                rate_of[currency] = rates.rate(currency)
            except UnknownCurrency:
                raise SupplierError(f"No exchange rate for {currency}") from None
        price = price_offer(
            total_amount=supplier_offer.total_amount,
            total_currency=currency,
            exchange_rate=rate_of[currency],
            markup_percent=team.markup_percent,
            fee=team.fee.amount,
        )
        offer_id = new_id("off")
        offers.append(
            {
                "id": offer_id,
                "offer_request_id": offer_request.id,
                "team_id": team.pk,
                "live_mode": live_mode,
                "supplier": supplier.name,
                "supplier_offer_id": supplier_offer.supplier_offer_id,
                "total_amount": supplier_offer.total_amount,
                "total_currency": currency,
                "exchange_rate": price.exchange_rate,
                "base_cost_brl": price.base_cost_brl,
                "expires_at": supplier_offer.expires_at,
                "data": rendering.offer_object(
                    offer_id=offer_id, offer=supplier_offer, price=price, passengers=passenger_pairs
                ),
            }
        )
        if supplier_offer.supplier_passenger_ids and not passengers[0].supplier_passenger_id:
            for passenger, supplier_id in zip(
                passengers, supplier_offer.supplier_passenger_ids, strict=True
            ):
                passenger.supplier_passenger_id = supplier_id
    started = timings.measure("pricing", started)

    with transaction.atomic():
        offer_request.save(force_insert=True)
        OfferPassenger.objects.bulk_create(passengers)
        insert_rows(Offer, offers)
    started = timings.measure("storage", started)

    return {
        "id": offer_request.id,
        "offers": [offer["data"] for offer in offers],
        "slices": offer_request.slices,
        "passengers": [
            {"id": pid, "type": ptype, "fare_brand_name": None, "loyalty_programme_accounts": []}
            for pid, ptype in passenger_pairs
        ],
    }
