"""The sandbox's fares: offers built from journeys, priced per brand, cabin and passengers,
with their conditions (refund and change penalties) and payment deadlines."""

import hashlib
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from typing import TypeVar

from core.money import q
from flights.models import BaggageType
from flights.reference import AIRLINES
from flights.suppliers.base import (
    Baggage,
    CabinClass,
    Condition,
    SearchRequest,
    SupplierOffer,
    SupplierSegment,
    SupplierSlice,
)
from flights.suppliers.sandbox.common import airport_country, ceil_second, km, per_usd
from flights.suppliers.sandbox.network import Itinerary

T = TypeVar("T")

# --- Offers and prices -------------------------------------------------------------------------

TARGET_OFFERS = 54  # shared by the airlines of a search (each adds a journey in turn)
SLICE_CACHE_SIZE = 20_000  # slices kept across searches (a few KB each)

FARE_BASE_USD = Decimal("30")
FARE_PER_KM_USD = Decimal("0.085")
CONNECTION_DISCOUNT = Decimal("0.90")
CABIN_FACTOR: dict[str, Decimal] = {
    "economy": Decimal("1"),
    "premium_economy": Decimal("1.6"),
    "business": Decimal("3.5"),
    "first": Decimal("6"),
}
PASSENGER_FACTOR: dict[str, Decimal] = {
    "adult": Decimal("1"),
    "child": Decimal("0.75"),
    "infant_without_seat": Decimal("0.1"),
}
INSTANT_PAYMENT_ODDS = 6  # one offer in six must be paid at once, besides low-cost brands
HOLD_HOURS = (24, 71)
OFFER_MINUTES = (15, 29)
QUOTE_MINUTES = 15
DEPARTURE_MARGIN = timedelta(hours=2)  # a hold ends at least this long before departure
MAX_PENALTY_SHARE = Decimal("0.5")  # a refund or change fee is at most half the ticket
CENT = Decimal("0.01")
UNIT = Decimal("1")

# Booking classes by cabin, cheapest brand first.
BOOKING_CLASSES: dict[str, str] = {
    "economy": "OQMY",
    "premium_economy": "WEWP",
    "business": "IDCJ",
    "first": "AAFF",
}


@dataclass(frozen=True)
class BrandRules:
    """What a fare brand includes, by level: 0 is the barest, 3 the most flexible."""

    level: int
    checked_bags: int
    price_factor: Decimal
    refund_penalty_usd: Decimal | None  # None: not refundable
    change_penalty_usd: Decimal | None  # None: not changeable


BRAND_LEVELS = (
    BrandRules(0, 0, Decimal("1.00"), None, None),
    BrandRules(1, 1, Decimal("1.18"), None, Decimal("75")),
    BrandRules(2, 1, Decimal("1.40"), Decimal("150"), Decimal("0")),
    BrandRules(3, 2, Decimal("1.75"), Decimal("75"), Decimal("0")),
)
# Levels of the brands of a cabin, by how many brands it has.
LEVELS_BY_COUNT = {1: (2,), 2: (1, 3), 3: (0, 1, 3), 4: (0, 1, 2, 3)}
PENALTY_CABIN_FACTOR = {
    "economy": Decimal("1"),
    "premium_economy": Decimal("1.5"),
    "business": Decimal("2"),
    "first": Decimal("2"),
}
MIN_CHECKED_BAGS = {"economy": 0, "premium_economy": 1, "business": 2, "first": 2}


# --- Building offers ---------------------------------------------------------------------------


@cache
def _baggages(checked: int) -> tuple[Baggage, ...]:
    return (
        Baggage(type=BaggageType.CARRY_ON, quantity=1),
        Baggage(type=BaggageType.CHECKED, quantity=checked),
    )


@cache
def _brand_rules(code: str, cabin: CabinClass) -> tuple[tuple[str, BrandRules], ...]:
    names = AIRLINES[code].brands[cabin]
    levels = LEVELS_BY_COUNT[min(len(names), 4)]
    return tuple((name, BRAND_LEVELS[level]) for name, level in zip(names, levels, strict=False))


@lru_cache(maxsize=4096)
def _allowed_with_penalty(
    currency: str, penalty_usd: Decimal, cabin: CabinClass, seated: int
) -> Condition:
    """Allowed for a fee per seated passenger, in whole units of the currency."""
    per_passenger = penalty_usd * PENALTY_CABIN_FACTOR[cabin] * per_usd(currency)
    penalty = q(per_passenger.quantize(UNIT, rounding=ROUND_HALF_UP) * seated)
    return Condition(allowed=True, penalty_amount=penalty, penalty_currency=currency)


class OfferBuilder:
    """Turns journeys into offers for one search, sharing slices between offers."""

    def __init__(self, request: SearchRequest, seed: bytes, now: datetime):
        self.cabin = request.cabin_class
        self.now = ceil_second(now)
        self.earliest_deadline = self.now + timedelta(hours=HOLD_HOURS[0])
        self.deadlines: dict[int, datetime] = {}
        self.passenger_ids = tuple(f"sbx_pas_{n}" for n in range(1, len(request.passengers) + 1))
        self.passenger_mix = [
            (PASSENGER_FACTOR[kind], request.passengers.count(kind))
            for kind in dict.fromkeys(request.passengers)
        ]
        self.seated = sum(1 for p in request.passengers if p != "infant_without_seat")
        self.id_hash = hashlib.blake2b(seed + repr(request.passengers).encode(), digest_size=12)

    def offers(
        self, rng: random.Random, journey: tuple[Itinerary, ...], expires_at: datetime
    ) -> list[SupplierOffer]:
        """One offer per fare brand of the cabin."""
        airline = AIRLINES[journey[0].owner]
        tax_rate = Decimal(rng.randint(10, 30)) / 100
        adult_fare = sum((self._fare_usd(i) for i in journey), Decimal(0)) * (
            CABIN_FACTOR[self.cabin] * per_usd(airline.currency)
        )
        latest_deadline = journey[0].legs[0].departing_utc - DEPARTURE_MARGIN
        # The sandbox's airlines want an identity document from everyone crossing a border.
        international = (
            len({airport_country(code) for i in journey for leg in i.legs for code in leg[:2]}) > 1
        )
        offers = []
        for brand, rules in _brand_rules(airline.iata_code, self.cabin):
            instant, hold_hours, guarantee_is_deadline = _payment_draws(rng)
            base = self._base(adult_fare * rules.price_factor)
            tax = q(base * tax_rate)
            total = base + tax
            if instant or brand == airline.instant_payment_brand:
                pay_by = guarantee = None
            else:
                pay_by, guarantee = self._deadlines(
                    hold_hours, latest_deadline, guarantee_is_deadline
                )
            offers.append(
                _frozen(
                    SupplierOffer,
                    {
                        "supplier_offer_id": self._offer_id(journey, brand),
                        "owner": airline.iata_code,
                        "total_amount": total,
                        "base_amount": base,
                        "tax_amount": tax,
                        "total_currency": airline.currency,
                        "slices": tuple(self._slice(i, brand, rules) for i in journey),
                        "refund_before_departure": self._condition(
                            airline.currency, rules.refund_penalty_usd, total
                        ),
                        "change_before_departure": self._condition(
                            airline.currency, rules.change_penalty_usd, total
                        ),
                        "requires_instant_payment": pay_by is None,
                        "expires_at": expires_at,
                        "payment_required_by": pay_by,
                        "price_guarantee_expires_at": guarantee,
                        "supplier_passenger_ids": self.passenger_ids,
                        "passenger_identity_documents_required": international,
                    },
                )
            )
        return offers

    def _fare_usd(self, itinerary: Itinerary) -> Decimal:
        """An adult's economy fare for the slice: by the direct distance, a little less with
        connections, times the day's demand."""
        first, last = itinerary.legs[0], itinerary.legs[-1]
        fare = FARE_BASE_USD + FARE_PER_KM_USD * km(first.origin, last.destination)
        if len(itinerary.legs) > 1:
            fare *= CONNECTION_DISCOUNT
        return fare * itinerary.demand

    def _base(self, adult: Decimal) -> Decimal:
        """The base fare of all passengers, each rounded to cents."""
        return sum((q(adult * factor) * count for factor, count in self.passenger_mix), Decimal(0))

    def _condition(self, currency: str, penalty_usd: Decimal | None, total: Decimal) -> Condition:
        if penalty_usd is None:
            return NOT_ALLOWED
        condition = _allowed_with_penalty(currency, penalty_usd, self.cabin, self.seated)
        ceiling = q(total * MAX_PENALTY_SHARE)
        # A fee always leaves something to refund.
        if condition.penalty_amount is not None and condition.penalty_amount > ceiling:
            return Condition(allowed=True, penalty_amount=ceiling, penalty_currency=currency)
        return condition

    def _deadlines(
        self, hold_hours: int, latest: datetime, guarantee_is_deadline: bool
    ) -> tuple[datetime | None, datetime | None]:
        """(payment_required_by, price_guarantee_expires_at) of a hold; (None, None) when the
        flight leaves too soon for one (the offer must then be paid at once)."""
        deadline = self.deadlines.get(hold_hours)
        if deadline is None:
            deadline = self.deadlines[hold_hours] = self.now + timedelta(hours=hold_hours)
        deadline = min(deadline, latest)
        if deadline < self.earliest_deadline:
            return None, None
        return deadline, deadline if guarantee_is_deadline else self.earliest_deadline

    def _offer_id(self, journey: tuple[Itinerary, ...], brand: str) -> str:
        digest = self.id_hash.copy()
        for itinerary in journey:
            digest.update(itinerary.key.encode())
        digest.update(brand.encode())
        return "sbx_" + digest.hexdigest()

    def _slice(self, itinerary: Itinerary, brand: str, rules: BrandRules) -> SupplierSlice:
        """The itinerary sold in that brand. Slices depend only on the flights, cabin and brand,
        so they are shared by offers and kept for later searches."""
        key = (itinerary.key, self.cabin, brand)
        found = _SLICES.get(key)
        if found is None:
            if len(_SLICES) >= SLICE_CACHE_SIZE:
                _SLICES.clear()
            found = _SLICES[key] = _build_slice(itinerary, self.cabin, brand, rules)
        return found


def _build_slice(
    itinerary: Itinerary, cabin: CabinClass, brand: str, rules: BrandRules
) -> SupplierSlice:
    first, last = itinerary.legs[0], itinerary.legs[-1]
    fare = _fare_fields(
        itinerary.owner,
        cabin,
        brand,
        rules.level,
        rules.checked_bags,
        airport_country(first.origin),
    )
    return _frozen(
        SupplierSlice,
        {
            "origin": first.origin,
            "destination": last.destination,
            "duration_minutes": (last.arriving_utc - first.departing_utc) // ONE_MINUTE,
            "segments": tuple(
                _frozen(SupplierSegment, {**leg.segment_fields, **fare}) for leg in itinerary.legs
            ),
            "fare_brand_name": brand,
        },
    )


@lru_cache(maxsize=4096)
def _fare_fields(
    owner: str, cabin: CabinClass, brand: str, level: int, checked_bags: int, country: str
) -> dict[str, object]:
    """The fields of a segment that the fare decides. Booking class, three letters of the
    brand, country of sale make the fare basis: e.g. OLIGBR."""
    letters = re.sub(r"[^A-Z]", "", brand.upper())[:3]
    return {
        "cabin_class": cabin,
        "cabin_class_marketing_name": AIRLINES[owner].cabin_name(cabin),
        "fare_basis_code": f"{BOOKING_CLASSES[cabin][level]}{letters}{country}",
        "baggages": _baggages(max(checked_bags, MIN_CHECKED_BAGS[cabin])),
    }


def _frozen(cls: type[T], fields: dict) -> T:
    """An instance of one of base.py's frozen dataclasses, built without the generated
    `__init__`, which sets every field through `object.__setattr__` and was most of a search's
    time. Same result (a test compares it with the constructor); `_check_plain_dataclasses`
    makes sure at import that the classes have no `__post_init__` or slots that this would skip.
    """
    instance = object.__new__(cls)
    instance.__dict__.update(fields)
    return instance


def _check_plain_dataclasses(*classes: type) -> None:
    for cls in classes:
        if hasattr(cls, "__post_init__") or "__slots__" in vars(cls):
            raise TypeError(f"{cls.__name__} can no longer be built by _frozen")


_check_plain_dataclasses(SupplierSegment, SupplierSlice, SupplierOffer)


_SLICES: dict[tuple[str, str, str], SupplierSlice] = {}
ONE_MINUTE = timedelta(minutes=1)
NOT_ALLOWED = Condition(allowed=False)


def _payment_draws(rng: random.Random) -> tuple[bool, int, bool]:
    """(instant payment required, hold hours, price guarantee = deadline), from one draw per
    offer whatever `now` is, so that the clock never shifts the random sequence."""
    bits = rng.getrandbits(32)
    low, high = HOLD_HOURS
    return (
        bits % INSTANT_PAYMENT_ODDS == 0,
        low + (bits >> 8) % (high - low + 1),
        bool(bits >> 16 & 1),
    )


def search_seed(request: SearchRequest) -> bytes:
    """What the randomness of a search depends on: its slices (with their airports and dates)
    and cabin, not its passengers."""
    parts: list[str] = [request.cabin_class]
    for s in request.slices:
        parts.append(
            f"{s.origin}>{s.destination}:{','.join(s.origin_airports)}>"
            f"{','.join(s.destination_airports)}@{s.departure_date.isoformat()}"
        )
    return hashlib.sha256("|".join(parts).encode()).digest()


def usd_equivalent(offer: SupplierOffer) -> Decimal:
    return offer.total_amount / per_usd(offer.total_currency)


def journey_minutes(offer: SupplierOffer) -> int:
    return sum(s.duration_minutes for s in offer.slices)


def clear_caches() -> None:
    """Empty this module's caches (slices and fare fields, kept across searches)."""
    _SLICES.clear()
    for cached in (_baggages, _brand_rules, _allowed_with_penalty, _fare_fields):
        cached.cache_clear()
