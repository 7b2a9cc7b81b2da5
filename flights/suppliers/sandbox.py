"""The sandbox flight supplier: realistic, deterministic offers without any airline behind them,
for test mode and for our own tests.

Realistic: real airports and time zones (`flights.airports`), real airlines with their hubs,
fleets, fare brands, currencies and ticket prefixes (`flights.reference`). Flights are
hub-and-spoke: an airline flies a leg only from or to one of its hubs, flies domestic legs only
in its hubs' countries (partners operate the rest as codeshares), and flies long hauls only
between gateway airports. Durations are 30 minutes plus the great-circle distance at 800 km/h;
connections last 1 to 4 hours. Which airlines a route gets follows the regions of its ends
(domestic Brazil: Brazilian carriers; Brazil–Europe: LATAM, TAP, Iberia, Air France, KLM,
Lufthansa...); any other pair of real airports gets the airlines that can route it, and a few
direct flights as a last resort.

Deterministic: schedules (flight numbers, times, aircraft) depend only on the airline and the
airports, so a flight is the same every day, and each airline's journeys are taken best first
(direct, then one stop...). What varies from search to search (demand, taxes, which offers must
be paid at once, hold lengths, offer lifetime) comes from a `random.Random` seeded with a
SHA-256 of the requested slices, airports, dates and cabin. The passengers are left out of the
seed on purpose: adding an infant keeps the same flights and only adds the infant's fare. The
same request returns the same offers in the same order, field for field, except `expires_at`
and the payment deadlines, which are relative to `django.utils.timezone.now()`.

Fast: routes, schedules, legs and slices (everything that does not depend on the passengers or
the clock) are cached in memory, so a search mostly assembles offers; see docs/sandbox.md for
the timings.

Scenarios (documented in docs/sandbox.md) are the module constants below.

Orders: the supplier order id carries what later calls need (state, owner, booking reference,
passengers, total, refund condition, hold deadlines, scenario) with a checksum, so `pay_order`
and `quote_cancellation` rebuild everything from it. The airline's order book
(`flights.models.SandboxOrder`, keyed by the random booking reference) records every order with
our booking id and what changes over time (paid, tickets ready at), so that `get_order` answers
the order's current state from any of its ids and `find_order` finds an order whose answer was
lost. Consequences:

- `create_order` takes the stored offer and reads, by attribute: `supplier_offer_id`, `owner`,
  `total_amount`, `total_currency`, `requires_instant_payment`, `payment_required_by`,
  `price_guarantee_expires_at`, and the refund condition from `refund_before_departure` (a
  `Condition` or a dict with `allowed`, `penalty_amount`, `penalty_currency`) or, failing that,
  from `data["conditions"]["refund_before_departure"]` (the offer as rendered for the API).
  Optional `supplier_passenger_ids` is used to check the passengers.
- Paying a hold changes the order's state, hence its id: `pay_order` returns the order under a
  new `supplier_order_id` (the same but for the state), which the caller should keep. The old id
  still works for quotes and cancellations but `get_order` on it answers "held, no tickets".
- `quote_cancellation` refunds according to the offer's refund condition whatever the state:
  total minus penalty when refundable, zero otherwise. Whether anything was paid (a hold was
  not) is the caller's knowledge.
"""

import dataclasses
import hashlib
import itertools
import random
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from typing import NamedTuple, TypeVar
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.exceptions import register_error
from core.money import q
from flights import airports, reference
from flights.models import SandboxOrder
from flights.reference import AIRLINES, Airline
from flights.suppliers.base import (
    Baggage,
    CabinClass,
    CancellationQuote,
    Condition,
    FlightSupplier,
    OrderPassenger,
    SearchRequest,
    SearchSlice,
    SupplierError,
    SupplierOffer,
    SupplierOrder,
    SupplierOutcomeUnknown,
    SupplierSegment,
    SupplierSlice,
    TicketDocument,
)

T = TypeVar("T")

# What the sandbox's refusals say (the error catalogue, docs/errors.md).
for _code, _message in (
    ("supplier_unavailable", "The flight supplier is unavailable; try again later {scenario}"),
    ("supplier_error", "The sandbox could not allocate a booking reference"),
    ("order_not_found", "Unknown sandbox order"),
    ("offer_not_found", "Unknown sandbox offer"),
    ("payment_amount_mismatch", "Payment must be {amount} {currency}"),
    ("issuance_failed", "The airline could not issue the tickets {scenario}"),
    ("invalid_passenger", "Unknown passenger {passenger} for this offer"),
    ("invalid_passenger", "Each passenger of the offer must be named once"),
    ("instant_payment_required", "This offer must be paid at once; it cannot be held"),
    ("order_expired", "The hold has expired"),
    ("quote_not_found", "Unknown sandbox cancellation quote"),
    ("quote_expired", "The cancellation quote has expired"),
):
    register_error(_code, SupplierError.status_code, _message, module=__name__)

# --- Scenarios ---------------------------------------------------------------------------------

# A slice between these two airports (either way) returns no offers at all.
NO_OFFERS_ROUTE = ("CGH", "GRU")
# A slice between these two airports (either way) makes the search fail with SupplierError.
SUPPLIER_ERROR_ROUTE = ("GIG", "SDU")
# A passenger with this family name (any case) makes ticketing fail: create_order(instant=True)
# and pay_order raise SupplierError(code="issuance_failed"). A hold still succeeds.
ISSUANCE_FAILURE_FAMILY_NAME = "Issuancefail"
# Uncertain answers (a passenger's family name, any case), for ordering (hold or instant) and
# for paying a hold: the call raises SupplierOutcomeUnknown, and the truth is found later with
# find_order / get_order, as with a real airline.
# - the order (or payment) is made, but its answer is lost (a read timeout after sending);
ANSWER_LOST_FAMILY_NAME = "Answerlost"
# - nothing is made, and the answer is a 5xx;
SUPPLIER_DOWN_FAMILY_NAME = "Supplierdown"
# - the airline accepts the order without confirming it (Duffel's 202 order_pending); its
#   tickets appear ORDER_PENDING_SECONDS later.
ORDER_PENDING_FAMILY_NAME = "Orderpending"
ORDER_PENDING_SECONDS = 60
# - creating a hold: the hold is made, but its answer is lost.
HOLD_ANSWER_LOST_FAMILY_NAME = "Holdlost"
# Each scenario's flag in the order ids.
SCENARIO_FLAGS = {
    ANSWER_LOST_FAMILY_NAME: "l",
    SUPPLIER_DOWN_FAMILY_NAME: "d",
    ORDER_PENDING_FAMILY_NAME: "p",
    HOLD_ANSWER_LOST_FAMILY_NAME: "h",
}

# --- Network rules -----------------------------------------------------------------------------

MIN_LEG_KM = 150  # nobody flies between airports closer than this (GRU–VCP, GIG–SDU)
LONG_HAUL_KM = 4000  # longer legs only between gateway airports
SPEED_KM_PER_HOUR = 800
TAXI_AND_CLIMB_MINUTES = 30
CONNECTION_MINUTES = (60, 240)
STRICT_DETOUR = Decimal("1.5")  # a connection may add 50 % (+300 km) to the direct distance
RELAXED_DETOUR = Decimal("2.5")  # ... or more when nothing else serves every slice
DETOUR_ALLOWANCE_KM = Decimal("300")
ROUTINGS_PER_AIRPORT_PAIR = 4

# Airports that see long-haul flights, besides every airline hub.
GATEWAYS = reference.codes(
    # Brazil and South America
    "GRU GIG BSB CNF VCP REC FOR SSA NAT BEL MAO EZE SCL LIM BOG UIO GYE MVD ASU CCS PTY "
    # North America and the Caribbean
    "MIA FLL MCO TPA JFK EWR BOS IAD ATL ORD DFW IAH LAX SFO SEA DEN YYZ YUL YVR MEX CUN "
    "PUJ SJO HAV "
    # Europe
    "LIS OPO MAD BCN CDG ORY AMS FRA MUC LHR LGW FCO MXP ZRH GVA BRU DUB VIE CPH IST "
    # Elsewhere
    "DXB DOH AUH JNB CPT ADD NBO LOS CAI CMN DEL BOM SIN BKK HKG NRT HND ICN PEK PVG SYD "
    "MEL AKL TLV"
)

# Airlines offered per pair of regions (see reference.region); pairs not listed get any airline
# able to route them.
ROUTE_CARRIERS: dict[frozenset[str], tuple[str, ...]] = {
    frozenset({"BR"}): ("G3", "AD", "LA"),
    frozenset({"BR", "SA"}): ("LA", "G3", "AD", "AR", "AV", "CM"),
    frozenset({"SA"}): ("LA", "AR", "AV", "CM", "G3", "AD"),
    frozenset({"BR", "EU"}): ("LA", "TP", "IB", "AF", "KL", "LH", "BA", "LX", "AD"),
    frozenset({"SA", "EU"}): ("LA", "IB", "AF", "KL", "LH", "TP", "AR", "AV", "BA"),
    frozenset({"BR", "NA"}): ("LA", "AA", "UA", "DL", "CM", "AV", "G3", "AD", "AC", "AM"),
    frozenset({"SA", "NA"}): ("LA", "AA", "UA", "DL", "CM", "AV", "AR", "AM", "AC"),
    frozenset({"BR", "CA"}): ("CM", "AV", "LA", "G3", "AD", "AA"),
    frozenset({"SA", "CA"}): ("CM", "AV", "LA", "AA", "AR"),
    frozenset({"NA"}): ("AA", "UA", "DL", "AC", "AM"),
    frozenset({"NA", "CA"}): ("AA", "UA", "DL", "CM", "AV", "AM", "AC"),
    frozenset({"CA"}): ("CM", "AV", "AA", "UA"),
    frozenset({"NA", "EU"}): ("AA", "UA", "DL", "AC", "BA", "AF", "KL", "LH", "IB", "TP"),
    frozenset({"CA", "EU"}): ("IB", "AF", "KL", "BA", "TP", "LH", "AA", "CM"),
    frozenset({"EU"}): ("TP", "IB", "AF", "KL", "LH", "BA", "LX", "TK"),
}
MIN_AIRLINES = 2  # below this, longer detours are accepted
GENERIC_CARRIERS_MAX = 4  # airlines kept for a route outside ROUTE_CARRIERS
FALLBACK_CARRIERS_MAX = 3  # airlines flying direct when nothing else routes a search

TERMINALS: dict[tuple[str, str], str] = {
    # (airport, airline or "*"): terminal; GRU splits domestic (2) and international (3) below
    ("GIG", "*"): "2",
    ("LIS", "*"): "1",
    ("CDG", "AF"): "2E",
    ("CDG", "KL"): "2F",
    ("LHR", "BA"): "5",
    ("FRA", "LH"): "1",
    ("MAD", "IB"): "4S",
    ("JFK", "AA"): "8",
    ("JFK", "DL"): "4",
    ("EZE", "*"): "A",
}

# --- Offers and prices -------------------------------------------------------------------------

TARGET_OFFERS = 54  # shared by the airlines of a search (each adds a journey in turn)
ITINERARIES_PER_SLICE = 6  # per airline
SLICE_CACHE_SIZE = 20_000  # slices kept across searches (a few KB each)
MAX_PICKS = 400  # journeys considered per airline (trimmed per slice on long multi-city trips)
MIN_SLICE_GAP = timedelta(hours=1)  # between one slice's arrival and the next one's departure

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


# --- Small helpers -----------------------------------------------------------------------------


def _digest(*parts: object, size: int = 16) -> bytes:
    text = "\x1f".join(str(part) for part in parts)
    return hashlib.blake2b(text.encode(), digest_size=size).digest()


def _stable_int(*parts: object) -> int:
    """A number that depends only on the parts: the same in every process and run."""
    return int.from_bytes(_digest(*parts, size=8), "big")


def _km(a: str, b: str) -> Decimal:
    return airports.great_circle_km(a, b)


@cache
def _zone(code: str) -> ZoneInfo:
    return ZoneInfo(airports.AIRPORTS[code].time_zone)


def _country(code: str) -> str:
    return airports.AIRPORTS[code].country


def _round5(minutes: float) -> int:
    return int(5 * round(minutes / 5))


def _ceil_second(moment: datetime) -> datetime:
    if moment.microsecond:
        return moment.replace(microsecond=0) + timedelta(seconds=1)
    return moment


RATES = {currency: Decimal(rate) for currency, rate in reference.CURRENCY_PER_USD.items()}


def _rate(currency: str) -> Decimal:
    return RATES[currency]


# --- Network -----------------------------------------------------------------------------------

Places = tuple[tuple[str, ...], tuple[str, ...]]  # a slice's origin and destination airports
Path = tuple[str, ...]
Plan = tuple[str, tuple[tuple[Path, ...], ...]]  # an airline and its routings per slice


@cache
def _home_countries(code: str) -> frozenset[str]:
    return frozenset(_country(hub) for hub in AIRLINES[code].hubs)


@cache
def _connection_points(code: str) -> tuple[str, ...]:
    """Where an airline's passengers change planes: its hubs, then its partners' hubs."""
    airline = AIRLINES[code]
    points = list(airline.hubs)
    for partner in airline.partners:
        points.extend(hub for hub in AIRLINES[partner].hubs if hub not in points)
    return tuple(points)


@cache
def _gateways() -> frozenset[str]:
    return GATEWAYS | {hub for airline in AIRLINES.values() for hub in airline.hubs}


def _aircraft_options(airline: Airline, distance_km: float) -> tuple[str, ...]:
    """The airline's types for a leg of that length: those made for its band, else bigger
    ones (a wide-body on a short hop); none when the leg is beyond the whole fleet."""
    band = reference.band(distance_km)
    if band is None:
        return ()
    fitting = tuple(t for t in airline.fleet if band in reference.AIRCRAFT_BANDS[t])
    if fitting:
        return fitting
    rank = reference.BAND_ORDER[band]
    return tuple(
        t
        for t in airline.fleet
        if max(reference.BAND_ORDER[b] for b in reference.AIRCRAFT_BANDS[t]) > rank
    )


@lru_cache(maxsize=200_000)
def _flies(code: str, origin: str, destination: str) -> bool:
    """Whether the airline itself flies this leg (hub-and-spoke, cabotage, gateways, range)."""
    airline = AIRLINES[code]
    distance = float(_km(origin, destination))
    if distance < MIN_LEG_KM or not _aircraft_options(airline, distance):
        return False
    if origin not in airline.hubs and destination not in airline.hubs:
        return False
    if _country(origin) == _country(destination):
        return _country(origin) in _home_countries(code)
    if distance > LONG_HAUL_KM:
        return origin in _gateways() and destination in _gateways()
    return True


@lru_cache(maxsize=200_000)
def _operator(code: str, origin: str, destination: str) -> str | None:
    """Who operates the airline's leg: itself, a codeshare partner, or nobody (None)."""
    if _flies(code, origin, destination):
        return code
    for partner in AIRLINES[code].partners:
        if _flies(partner, origin, destination):
            return partner
    return None


def _path_km(path: Sequence[str]) -> Decimal:
    return sum((_km(a, b) for a, b in itertools.pairwise(path)), Decimal(0))


def _is_route(code: str, path: Sequence[str]) -> bool:
    operators = [_operator(code, a, b) for a, b in itertools.pairwise(path)]
    return all(operators) and code in operators  # the owner flies at least one leg


@lru_cache(maxsize=100_000)
def _routings(code: str, origin: str, destination: str, relaxed: bool) -> tuple[Path, ...]:
    """The airline's ways from origin to destination (airport paths), shortest first: direct,
    one stop at a connection point, or two stops when there is neither."""
    if float(_km(origin, destination)) < MIN_LEG_KM:
        return ()
    detour = RELAXED_DETOUR if relaxed else STRICT_DETOUR
    limit = _km(origin, destination) * detour + DETOUR_ALLOWANCE_KM
    points = [p for p in _connection_points(code) if p not in (origin, destination)]
    path: tuple[str, ...]  # the walrus targets below
    found: list[tuple[str, ...]] = (
        [(origin, destination)] if _is_route(code, (origin, destination)) else []
    )
    found += [
        path
        for point in points
        if _path_km(path := (origin, point, destination)) <= limit and _is_route(code, path)
    ]
    if not found:
        found = [
            path
            for first, second in itertools.permutations(points, 2)
            if _path_km(path := (origin, first, second, destination)) <= limit
            and _is_route(code, path)
        ]
    found.sort(key=lambda path: (len(path), _path_km(path)))
    return tuple(found[:ROUTINGS_PER_AIRPORT_PAIR])


def _place_routings(
    code: str, origins: tuple[str, ...], destinations: tuple[str, ...], relaxed: bool
) -> tuple[Path, ...]:
    return tuple(
        path
        for origin in origins
        for destination in destinations
        for path in _routings(code, origin, destination, relaxed)
    )


def _route_carriers(origins: tuple[str, ...], destinations: tuple[str, ...]):
    """The airlines a slice's regions call for; None when any airline may do."""
    regions = {reference.region(_country(origins[0])), reference.region(_country(destinations[0]))}
    return ROUTE_CARRIERS.get(frozenset(regions))


def _candidates(places: tuple[Places, ...], cabin: CabinClass) -> tuple[list[str], bool]:
    """Airlines to try, in order, and whether the list is generic (any airline)."""
    names: list[str] = []
    generic = False
    for origins, destinations in places:
        carriers = _route_carriers(origins, destinations)
        if carriers is None:
            generic = True
        else:
            names.extend(code for code in carriers if code not in names)
    if generic:
        names.extend(code for code in AIRLINES if code not in names)
    return [code for code in names if cabin in AIRLINES[code].brands], generic


def _plans(request: SearchRequest) -> tuple[Plan, ...]:
    """The airlines serving every slice of the request, with their routings per slice."""
    places = tuple((s.origin_airports, s.destination_airports) for s in request.slices)
    return _plans_for(places, request.cabin_class)


@lru_cache(maxsize=20_000)
def _plans_for(places: tuple[Places, ...], cabin: CabinClass) -> tuple[Plan, ...]:
    candidates, generic = _candidates(places, cabin)
    plans = _serving(places, candidates, relaxed=False)
    if len(plans) < MIN_AIRLINES:  # too few fly it reasonably: accept longer detours
        strict = {code for code, _ in plans}
        plans += [p for p in _serving(places, candidates, relaxed=True) if p[0] not in strict]
    if generic:
        plans.sort(key=lambda plan: sum(_path_km(paths[0]) for paths in plan[1]))
        plans = plans[:GENERIC_CARRIERS_MAX]
    return tuple(plans or _fallback_plans(places, candidates))


def _serving(places: tuple[Places, ...], candidates: list[str], relaxed: bool) -> list[Plan]:
    plans = []
    for code in candidates:
        routings = tuple(
            _place_routings(code, origins, destinations, relaxed)
            for origins, destinations in places
        )
        if all(routings):
            plans.append((code, routings))
    return plans


def _fallback_plans(places: tuple[Places, ...], candidates: list[str]) -> list[Plan]:
    """Last resort when no airline serves every slice (long multi-city trips, pairs no network
    rule reaches): the airlines serving the most slices sell the others too, as direct flights
    operated by an airline that flies them (an interline), or by themselves if none does."""
    first_origin = places[0][0][0]
    ranked = []
    for code in candidates:
        served = 0
        routings = []
        for origins, destinations in places:
            paths = _place_routings(code, origins, destinations, relaxed=True)
            served += bool(paths)
            routings.append(paths or _direct_paths(code, origins, destinations))
        if all(routings):
            nearest_hub = min(_km(first_origin, hub) for hub in AIRLINES[code].hubs)
            ranked.append((-served, nearest_hub, code, tuple(routings)))
    ranked.sort()
    return [(code, routings) for _, _, code, routings in ranked[:FALLBACK_CARRIERS_MAX]]


def _direct_paths(
    code: str, origins: tuple[str, ...], destinations: tuple[str, ...]
) -> tuple[Path, ...]:
    return tuple(
        (origin, destination)
        for origin in origins
        for destination in destinations
        if float(_km(origin, destination)) >= MIN_LEG_KM
        and (
            _any_operator(origin, destination)
            or _aircraft_options(AIRLINES[code], float(_km(origin, destination)))
        )
    )


@lru_cache(maxsize=50_000)
def _any_operator(origin: str, destination: str) -> str | None:
    """The first airline (in reference order) that flies the leg itself."""
    return next((code for code in AIRLINES if _flies(code, origin, destination)), None)


# --- Schedules ---------------------------------------------------------------------------------


class Leg(NamedTuple):
    """One scheduled flight on a given day: its instants, and the fields of the segments that
    sell it which do not depend on the fare."""

    origin: str
    destination: str
    marketing_flight_number: str
    departing_utc: datetime
    arriving_utc: datetime
    segment_fields: dict[str, object]


class Itinerary(NamedTuple):
    """One way through a slice on one airline, and what the market makes of it today."""

    owner: str
    legs: tuple[Leg, ...]
    key: str  # its flights and dates, for offer ids
    demand: Decimal  # price factor drawn per search


def _flight_minutes(distance_km: Decimal) -> int:
    return _round5(TAXI_AND_CLIMB_MINUTES + float(distance_km) * 60 / SPEED_KM_PER_HOUR)


def _frequency(code: str, origin: str, destination: str) -> int:
    """Daily flights on a leg: several on short hops, one or two on long hauls, one where the
    operator has no hub (the last-resort flights of odd trips)."""
    hubs = AIRLINES[_route(code, origin, destination).operator].hubs
    if origin not in hubs and destination not in hubs:
        return 1
    distance = float(_km(origin, destination))
    spread = _stable_int("freq", code, origin, destination) % 3
    if distance <= 800:
        return 3 + spread
    if distance <= 2500:
        return 2 + spread
    if distance <= 6500:
        return 1 + spread % 2
    return 1 + (spread == 0)


@lru_cache(maxsize=50_000)
def _departure_slots(code: str, origin: str, destination: str) -> tuple[int, ...]:
    """Minutes after local midnight of the airline's daily departures on a leg (from 06:00 to
    23:00, long hauls from 09:00), the same every day."""
    count = _frequency(code, origin, destination)
    start, end = (540, 1410) if float(_km(origin, destination)) > 6500 else (360, 1380)
    step = (end - start) / count
    slots = []
    for index in range(count):
        jitter = _stable_int("slot", code, origin, destination, index) % 41 - 20
        slots.append(_round5(start + step * (index + 0.5) + jitter))
    return tuple(slots)


@lru_cache(maxsize=100_000)
def _flight_number(code: str, origin: str, destination: str, local_time: int) -> str:
    """Long hauls get numbers below 1000, other flights four digits."""
    low, high = (10, 999) if float(_km(origin, destination)) > LONG_HAUL_KM else (1000, 4999)
    return str(low + _stable_int("number", code, origin, destination, local_time) % (high - low))


@lru_cache(maxsize=100_000)
def _codeshare_number(owner: str, operator: str, operating_number: str) -> str:
    return str(5000 + _stable_int("codeshare", owner, operator, operating_number) % 4999)


@lru_cache(maxsize=100_000)
def _aircraft(operator: str, origin: str, destination: str) -> str:
    fleet = _aircraft_options(AIRLINES[operator], float(_km(origin, destination)))
    return fleet[_stable_int("aircraft", operator, origin, destination) % len(fleet)]


@lru_cache(maxsize=100_000)
def _connection_minutes(flight_number: str, destination: str) -> int:
    low, high = CONNECTION_MINUTES
    return low + 5 * (_stable_int("wait", flight_number, destination) % ((high - low) // 5 + 1))


def _terminal(airport: str, airline: str, international: bool) -> str | None:
    if airport == "GRU":
        return "3" if international else "2"
    return TERMINALS.get((airport, airline)) or TERMINALS.get((airport, "*"))


class _Route(NamedTuple):
    """What a leg is whatever the day: who operates it, on what, for how long."""

    operator: str
    distance_km: Decimal
    minutes: int
    aircraft: str
    origin_terminal: str | None
    destination_terminal: str | None
    origin_zone: ZoneInfo
    destination_zone: ZoneInfo


@lru_cache(maxsize=100_000)
def _route(owner: str, origin: str, destination: str) -> _Route:
    operator = _operator(owner, origin, destination) or _any_operator(origin, destination) or owner
    distance = _km(origin, destination)
    international = _country(origin) != _country(destination)
    return _Route(
        operator=operator,
        distance_km=distance,
        minutes=_flight_minutes(distance),
        aircraft=_aircraft(operator, origin, destination),
        origin_terminal=_terminal(origin, operator, international),
        destination_terminal=_terminal(destination, operator, international),
        origin_zone=_zone(origin),
        destination_zone=_zone(destination),
    )


def _leg(owner: str, origin: str, destination: str, departing_utc: datetime) -> Leg:
    """The owner's flight departing at that instant (operated by itself or a partner)."""
    route = _route(owner, origin, destination)
    arriving_utc = departing_utc + timedelta(minutes=route.minutes)
    departing_at = departing_utc.astimezone(route.origin_zone).replace(tzinfo=None)
    local_time = departing_at.hour * 100 + departing_at.minute
    operating_number = _flight_number(route.operator, origin, destination, local_time)
    if route.operator == owner:
        marketing_number = operating_number
    else:
        marketing_number = _codeshare_number(owner, route.operator, operating_number)
    return Leg(
        origin=origin,
        destination=destination,
        marketing_flight_number=marketing_number,
        departing_utc=departing_utc,
        arriving_utc=arriving_utc,
        segment_fields={
            "origin": origin,
            "destination": destination,
            "origin_terminal": route.origin_terminal,
            "destination_terminal": route.destination_terminal,
            "departing_at": departing_at,
            "arriving_at": arriving_utc.astimezone(route.destination_zone).replace(tzinfo=None),
            "marketing_carrier": owner,
            "marketing_flight_number": marketing_number,
            "operating_carrier": route.operator,
            "operating_flight_number": operating_number,
            "aircraft": route.aircraft,
            "duration_minutes": route.minutes,
            "distance_km": route.distance_km,
        },
    )


@lru_cache(maxsize=8192)
def _legs(owner: str, path: tuple[str, ...], day: date, minutes: int) -> tuple[Leg, ...]:
    """The flights along a path, the first leaving `minutes` after local midnight of `day`, the
    others 1 to 4 hours after the previous one lands. The same for every search."""
    local = datetime.combine(day, time()) + timedelta(minutes=minutes)
    departing = local.replace(tzinfo=_zone(path[0])).astimezone(UTC)
    legs = [_leg(owner, path[0], path[1], departing)]
    for origin, destination in itertools.pairwise(path[1:]):
        wait = _connection_minutes(legs[-1].marketing_flight_number, destination)
        legs.append(
            _leg(owner, origin, destination, legs[-1].arriving_utc + timedelta(minutes=wait))
        )
    return tuple(legs)


Option = tuple[tuple[str, ...], int]  # a path and the first departure (minutes after midnight)


def _slice_options(owner: str, routings: tuple[Path, ...]) -> list[Option]:
    """The itineraries worth showing, best first: the first departure of every routing (direct
    ones first, every airport pair of a city search in turn), then the second ones, and so on."""
    groups = [[(path, m) for m in _departure_slots(owner, path[0], path[1])] for path in routings]
    options = [o for row in itertools.zip_longest(*groups) for o in row if o is not None]
    return options[:ITINERARIES_PER_SLICE]


def _picks(sizes: list[int]) -> list[tuple[int, ...]]:
    """Index tuples (one option per slice), best first: lowest rank sum, then lexicographic.
    Options are trimmed on trips of many slices to keep this list short."""
    per_slice = max(2, int(MAX_PICKS ** (1 / len(sizes))))
    ranges = [range(min(size, per_slice)) for size in sizes]
    return sorted(itertools.product(*ranges), key=lambda picks: (sum(picks), picks))


class _AirlineJourneys:
    """An airline's journeys for a search (one itinerary per slice), best first, built only as
    they are asked for."""

    def __init__(
        self,
        rng: random.Random,
        owner: str,
        slices: Sequence[SearchSlice],
        routings: Sequence[tuple[Path, ...]],
    ):
        self.rng = rng
        self.owner = owner
        self.days = [s.departure_date for s in slices]
        self.options = [_slice_options(owner, paths) for paths in routings]
        self.built: dict[tuple[int, int], Itinerary] = {}
        self.pending = iter(_picks([len(options) for options in self.options]))

    def next(self) -> tuple[Itinerary, ...] | None:
        for picks in self.pending:
            journey = tuple(self._itinerary(i, pick) for i, pick in enumerate(picks))
            if all(
                later.legs[0].departing_utc >= earlier.legs[-1].arriving_utc + MIN_SLICE_GAP
                for earlier, later in itertools.pairwise(journey)
            ):
                return journey
        return None

    def _itinerary(self, slice_index: int, pick: int) -> Itinerary:
        found = self.built.get((slice_index, pick))
        if found is None:
            path, minutes = self.options[slice_index][pick]
            legs = _legs(self.owner, path, self.days[slice_index], minutes)
            key = f"{self.owner}{path}{self.days[slice_index].toordinal()}@{minutes}"
            demand = Decimal(self.rng.randint(80, 135)) / 100
            found = self.built[(slice_index, pick)] = Itinerary(self.owner, legs, key, demand)
        return found


# --- Building offers ---------------------------------------------------------------------------


@cache
def _baggages(checked: int) -> tuple[Baggage, ...]:
    return (Baggage(type="carry_on", quantity=1), Baggage(type="checked", quantity=checked))


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
    per_passenger = penalty_usd * PENALTY_CABIN_FACTOR[cabin] * _rate(currency)
    penalty = q(per_passenger.quantize(UNIT, rounding=ROUND_HALF_UP) * seated)
    return Condition(allowed=True, penalty_amount=penalty, penalty_currency=currency)


class _OfferBuilder:
    """Turns journeys into offers for one search, sharing slices between offers."""

    def __init__(self, request: SearchRequest, seed: bytes, now: datetime):
        self.cabin = request.cabin_class
        self.now = _ceil_second(now)
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
            CABIN_FACTOR[self.cabin] * _rate(airline.currency)
        )
        latest_deadline = journey[0].legs[0].departing_utc - DEPARTURE_MARGIN
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
                    },
                )
            )
        return offers

    def _fare_usd(self, itinerary: Itinerary) -> Decimal:
        """An adult's economy fare for the slice: by the direct distance, a little less with
        connections, times the day's demand."""
        first, last = itinerary.legs[0], itinerary.legs[-1]
        fare = FARE_BASE_USD + FARE_PER_KM_USD * _km(first.origin, last.destination)
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
        itinerary.owner, cabin, brand, rules.level, rules.checked_bags, _country(first.origin)
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


def _seed(request: SearchRequest) -> bytes:
    """What the randomness of a search depends on: its slices (with their airports and dates)
    and cabin, not its passengers."""
    parts: list[str] = [request.cabin_class]
    for s in request.slices:
        parts.append(
            f"{s.origin}>{s.destination}:{','.join(s.origin_airports)}>"
            f"{','.join(s.destination_airports)}@{s.departure_date.isoformat()}"
        )
    return hashlib.sha256("|".join(parts).encode()).digest()


def _usd_equivalent(offer: SupplierOffer) -> Decimal:
    return offer.total_amount / _rate(offer.total_currency)


def _journey_minutes(offer: SupplierOffer) -> int:
    return sum(s.duration_minutes for s in offer.slices)


def _check_scenarios(request: SearchRequest) -> bool:
    """Raises for the supplier-error route (on any slice); False when a slice is the no-offers
    route."""
    routes = [{s.origin, s.destination} for s in request.slices]
    if set(SUPPLIER_ERROR_ROUTE) in routes:
        raise SupplierError(
            "The flight supplier is unavailable; try again later "
            f"(sandbox scenario: {'–'.join(SUPPLIER_ERROR_ROUTE)})",
            code="supplier_unavailable",
        )
    return set(NO_OFFERS_ROUTE) not in routes


# --- Orders ------------------------------------------------------------------------------------

ORDER_PREFIX = "sbx_ord_"
QUOTE_PREFIX = "sbx_ocq_"
PASSENGER_ID = re.compile(r"^sbx_pas_([1-9]|[12]\d|3[0-5])$")  # one base-36 digit in order ids
REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I


@dataclass(frozen=True)
class OrderState:
    """Everything an order id carries: `sbx_ord_` and dash-separated fields (numbers in base
    36, instants in Unix seconds), then a checksum; under 100 characters for 18 passengers."""

    ticketed: bool
    owner: str
    booking_reference: str
    passenger_numbers: tuple[int, ...]  # n of each sbx_pas_<n>
    total_amount: Decimal
    currency: str
    refund_penalty: Decimal | None  # None: not refundable
    payment_required_by: datetime | None
    price_guarantee_expires_at: datetime | None
    issuance_fails: bool
    scenario: str = ""  # one of SCENARIO_FLAGS' keys: how the ticketing call answers

    def encode(self) -> str:
        flags = ("f" if self.issuance_fails else "") + SCENARIO_FLAGS.get(self.scenario, "")
        fields = [
            "t" if self.ticketed else "h",
            self.owner,
            self.booking_reference,
            "".join(_base36(n) for n in self.passenger_numbers),
            _base36(_cents(self.total_amount)),
            self.currency,
            "n" if self.refund_penalty is None else f"r{_base36(_cents(self.refund_penalty))}",
            _encode_instant(self.payment_required_by),
            _encode_instant(self.price_guarantee_expires_at),
            flags or "0",
        ]
        payload = "-".join(fields)
        return f"{ORDER_PREFIX}{payload}-{_check(payload)}"

    @classmethod
    def decode(cls, order_id: str) -> "OrderState":
        payload = _verified_payload(order_id, ORDER_PREFIX)
        fields = payload.split("-") if payload else []
        if len(fields) != 10:
            raise _order_not_found()
        state, owner, pnr, numbers, cents, currency, refund, pay_by, guarantee, flags = fields
        scenario = next((name for name, flag in SCENARIO_FLAGS.items() if flag in flags), "")
        return cls(
            ticketed=state == "t",
            owner=owner,
            booking_reference=pnr,
            passenger_numbers=tuple(int(n, 36) for n in numbers),
            total_amount=Decimal(int(cents, 36)) / 100,
            currency=currency,
            refund_penalty=None if refund == "n" else Decimal(int(refund[1:], 36)) / 100,
            payment_required_by=_decode_instant(pay_by),
            price_guarantee_expires_at=_decode_instant(guarantee),
            issuance_fails="f" in flags,
            scenario=scenario,
        )

    def order(self, *, issuing: bool = False) -> SupplierOrder:
        """The order in this state; `issuing`: paid, the airline has not issued the tickets."""
        documents: tuple[TicketDocument, ...] = ()
        if self.ticketed and not issuing:
            documents = tuple(
                TicketDocument(
                    supplier_passenger_id=f"sbx_pas_{n}", unique_identifier=self._ticket_number(n)
                )
                for n in self.passenger_numbers
            )
        return SupplierOrder(
            supplier_order_id=self.encode(),
            booking_reference=self.booking_reference,
            documents=documents,
            payment_required_by=None if self.ticketed else self.payment_required_by,
            price_guarantee_expires_at=None if self.ticketed else self.price_guarantee_expires_at,
            awaiting_payment=not self.ticketed,
        )

    def _ticket_number(self, passenger_number: int) -> str:
        serial = _stable_int("ticket", self.booking_reference, passenger_number) % 10**10
        return f"{AIRLINES[self.owner].ticket_prefix}{serial:010d}"


def _check(payload: str) -> str:
    return _digest("sandbox-order", payload, size=4).hex()


def _verified_payload(identifier: str, prefix: str) -> str | None:
    if not isinstance(identifier, str) or not identifier.startswith(prefix):
        return None
    payload, _, check = identifier[len(prefix) :].rpartition("-")
    return payload if payload and _check(payload) == check else None


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return digits


def _cents(amount: Decimal) -> int:
    return int(q(amount) * 100)


def _encode_instant(moment: datetime | None) -> str:
    return "0" if moment is None else _base36(int(moment.timestamp()))


def _decode_instant(text: str) -> datetime | None:
    return None if text == "0" else datetime.fromtimestamp(int(text, 36), tz=UTC)


def _order_not_found() -> SupplierError:
    return SupplierError("Unknown sandbox order", code="order_not_found")


def _new_booking_reference() -> str:
    """A random airline locator, as airlines hand them out (unique in the order book)."""
    return "".join(secrets.choice(REFERENCE_ALPHABET) for _ in range(6))


def _scenario(passengers: Iterable[OrderPassenger]) -> str:
    names = {p.family_name.strip().casefold() for p in passengers}
    return next((name for name in SCENARIO_FLAGS if name.casefold() in names), "")


def _outcome_unknown(scenario: str) -> SupplierOutcomeUnknown:
    if scenario == SUPPLIER_DOWN_FAMILY_NAME:
        reason = "the supplier answered 503 and made nothing"
    elif scenario == ORDER_PENDING_FAMILY_NAME:
        reason = "the airline accepted the order without confirming it (order_pending)"
    else:
        reason = "the answer was lost after the request was sent"
    return SupplierOutcomeUnknown(
        f"The flight supplier has not confirmed the outcome yet (sandbox scenario: {reason})"
    )


# --- The order book ----------------------------------------------------------------------------


def _book(
    state: OrderState, *, booking_id: str, now: datetime, tickets_ready_at: datetime | None = None
) -> OrderState:
    """Write a new order into the airline's book under a fresh random reference."""
    for _ in range(5):
        state = dataclasses.replace(state, booking_reference=_new_booking_reference())
        try:
            with transaction.atomic():
                SandboxOrder.objects.create(
                    booking_reference=state.booking_reference,
                    booking_id=booking_id,
                    order_id=state.encode(),
                    created_at=now,
                    tickets_ready_at=tickets_ready_at,
                )
        except IntegrityError:
            continue  # that reference is taken: draw another
        return state
    raise SupplierError("The sandbox could not allocate a booking reference")


def _rebook(state: OrderState, *, tickets_ready_at: datetime | None = None) -> None:
    """The order changed (paid): its book entry follows."""
    SandboxOrder.objects.filter(pk=state.booking_reference).update(
        order_id=state.encode(), tickets_ready_at=tickets_ready_at
    )


def _current(order_id: str) -> SupplierOrder:
    """An order as the airline's book has it now, from any of its ids."""
    state = OrderState.decode(order_id)
    entry = SandboxOrder.objects.filter(pk=state.booking_reference).first()
    if entry is None:
        return state.order()
    issuing = bool(entry.tickets_ready_at and timezone.now() < entry.tickets_ready_at)
    return OrderState.decode(entry.order_id).order(issuing=issuing)


def _attr_or_key(source: object, name: str):
    if isinstance(source, dict):
        return source.get(name)
    return getattr(source, name, None)


def _refund_penalty(offer) -> Decimal | None:
    """The refund penalty of a stored offer (None: not refundable), from the attribute
    `refund_before_departure` or the rendered `data["conditions"]`."""
    refund = getattr(offer, "refund_before_departure", None)
    if refund is None:
        data = getattr(offer, "data", None) or {}
        refund = (data.get("conditions") or {}).get("refund_before_departure")
    if refund is None or not _attr_or_key(refund, "allowed"):
        return None
    penalty = _attr_or_key(refund, "penalty_amount")
    return Decimal(str(penalty)) if penalty is not None else Decimal(0)


def _check_payment(state: OrderState, amount: Decimal, currency: str) -> None:
    if currency != state.currency or Decimal(str(amount)) != state.total_amount:
        raise SupplierError(
            f"Payment must be {state.total_amount:.2f} {state.currency}",
            code="payment_amount_mismatch",
        )


def _issuance_failure() -> SupplierError:
    return SupplierError(
        "The airline could not issue the tickets "
        f"(sandbox scenario: passenger family name {ISSUANCE_FAILURE_FAMILY_NAME})",
        code="issuance_failed",
    )


def _passenger_numbers(offer, passengers: list[OrderPassenger]) -> tuple[int, ...]:
    known = getattr(offer, "supplier_passenger_ids", None) or None
    numbers = []
    for passenger in passengers:
        match = PASSENGER_ID.match(passenger.supplier_passenger_id or "")
        if not match or (known is not None and passenger.supplier_passenger_id not in known):
            raise SupplierError(
                f"Unknown passenger {passenger.supplier_passenger_id!r} for this offer",
                code="invalid_passenger",
            )
        numbers.append(int(match.group(1)))
    if not numbers or len(set(numbers)) != len(numbers):
        raise SupplierError(
            "Each passenger of the offer must be named once", code="invalid_passenger"
        )
    return tuple(numbers)


# --- The supplier ------------------------------------------------------------------------------


class SandboxSupplier(FlightSupplier):
    name = "sandbox"

    def search(self, request: SearchRequest) -> list[SupplierOffer]:
        if not _check_scenarios(request):
            return []
        seed = _seed(request)
        rng = random.Random(seed)
        builder = _OfferBuilder(request, seed, timezone.now())
        expires_at = builder.now + timedelta(minutes=rng.randint(*OFFER_MINUTES))
        airlines = [
            _AirlineJourneys(rng, code, request.slices, routings)
            for code, routings in _plans(request)
        ]
        offers: list[SupplierOffer] = []
        # Each airline in turn adds its next best journey (in every brand) until there are
        # enough offers or no journeys left.
        while airlines and len(offers) < TARGET_OFFERS:
            for airline in list(airlines):
                journey = airline.next()
                if journey is None:
                    airlines.remove(airline)
                    continue
                offers.extend(builder.offers(rng, journey, expires_at))
                if len(offers) >= TARGET_OFFERS:
                    break
        offers.sort(key=lambda o: (_usd_equivalent(o), _journey_minutes(o), o.supplier_offer_id))
        return offers

    def create_order(
        self,
        *,
        offer,
        passengers: list[OrderPassenger],
        instant: bool,
        amount: Decimal,
        currency: str,
        booking_id: str = "",
    ) -> SupplierOrder:
        offer_id = str(getattr(offer, "supplier_offer_id", ""))
        if not offer_id.startswith("sbx_") or getattr(offer, "owner", None) not in AIRLINES:
            raise SupplierError("Unknown sandbox offer", code="offer_not_found")
        payment_required_by = getattr(offer, "payment_required_by", None)
        if not instant and (
            getattr(offer, "requires_instant_payment", False) or payment_required_by is None
        ):
            raise SupplierError(
                "This offer must be paid at once; it cannot be held",
                code="instant_payment_required",
            )
        state = OrderState(
            ticketed=False,
            owner=offer.owner,
            booking_reference="",  # drawn when the order is booked
            passenger_numbers=_passenger_numbers(offer, passengers),
            total_amount=Decimal(str(offer.total_amount)),
            currency=offer.total_currency,
            refund_penalty=_refund_penalty(offer),
            payment_required_by=payment_required_by,
            price_guarantee_expires_at=getattr(offer, "price_guarantee_expires_at", None),
            issuance_fails=any(
                p.family_name.strip().casefold() == ISSUANCE_FAILURE_FAMILY_NAME.casefold()
                for p in passengers
            ),
            scenario=_scenario(passengers),
        )
        now = timezone.now()
        if not instant:
            state = _book(state, booking_id=booking_id, now=now)
            if state.scenario == HOLD_ANSWER_LOST_FAMILY_NAME:
                raise _outcome_unknown(state.scenario)
            return state.order()
        _check_payment(state, amount, currency)
        if state.issuance_fails:
            raise _issuance_failure()
        return self._issue(_ticketed(state), booking_id=booking_id, now=now, new=True)

    def pay_order(self, *, order_id: str, amount: Decimal, currency: str) -> SupplierOrder:
        current = _current(order_id)
        if not current.awaiting_payment:
            return current  # already paid: the same order again
        state = OrderState.decode(current.supplier_order_id)
        _check_payment(state, amount, currency)
        if state.payment_required_by and timezone.now() > state.payment_required_by:
            raise SupplierError("The hold has expired", code="order_expired")
        if state.issuance_fails:
            raise _issuance_failure()
        return self._issue(_ticketed(state), now=timezone.now(), new=False)

    def _issue(
        self, state: OrderState, *, now: datetime, new: bool, booking_id: str = ""
    ) -> SupplierOrder:
        """Ticket an order (a new instant one, or a paid hold), answering per its scenario."""
        if state.scenario == SUPPLIER_DOWN_FAMILY_NAME:
            raise _outcome_unknown(state.scenario)  # nothing was made
        pending = state.scenario == ORDER_PENDING_FAMILY_NAME
        ready_at = now + timedelta(seconds=ORDER_PENDING_SECONDS) if pending else None
        if new:
            state = _book(state, booking_id=booking_id, now=now, tickets_ready_at=ready_at)
        else:
            _rebook(state, tickets_ready_at=ready_at)
        if state.scenario in (ANSWER_LOST_FAMILY_NAME, ORDER_PENDING_FAMILY_NAME):
            raise _outcome_unknown(state.scenario)
        return state.order()

    def get_order(self, order_id: str) -> SupplierOrder:
        return _current(order_id)

    def find_order(self, *, booking_id, created_after, passengers) -> SupplierOrder | None:
        entry = (
            SandboxOrder.objects.filter(booking_id=booking_id, created_at__gte=created_after)
            .order_by("-created_at")
            .first()
        )
        return _current(entry.order_id) if entry is not None and booking_id else None

    def quote_cancellation(self, order_id: str) -> CancellationQuote:
        state = OrderState.decode(order_id)
        if state.refund_penalty is None:
            refund = Decimal("0.00")
        else:
            refund = q(max(state.total_amount - state.refund_penalty, Decimal(0)))
        expires_at = _ceil_second(timezone.now()) + timedelta(minutes=QUOTE_MINUTES)
        payload = f"{int(expires_at.timestamp())}.{_digest(state.encode(), size=8).hex()}"
        return CancellationQuote(
            supplier_quote_id=f"{QUOTE_PREFIX}{payload}-{_check(payload)}",
            refund_amount=refund,
            refund_currency=state.currency,
            expires_at=expires_at,
        )

    def confirm_cancellation(self, quote_id: str) -> None:
        payload = _verified_payload(quote_id, QUOTE_PREFIX)
        if payload is None:
            raise SupplierError("Unknown sandbox cancellation quote", code="quote_not_found")
        expires = datetime.fromtimestamp(int(payload.split(".")[0]), tz=UTC)
        if timezone.now() > expires:
            raise SupplierError("The cancellation quote has expired", code="quote_expired")


def _ticketed(state: OrderState) -> OrderState:
    return dataclasses.replace(state, ticketed=True)
