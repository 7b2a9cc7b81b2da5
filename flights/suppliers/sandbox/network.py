"""The sandbox's network and schedules: which airlines fly which routes, and their flights
(numbers, times, aircraft, terminals), the same every day; and the journeys of a search."""

import itertools
import random
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from functools import cache, lru_cache
from typing import NamedTuple
from zoneinfo import ZoneInfo

from flights import reference
from flights.reference import AIRLINES, Airline
from flights.suppliers.base import (
    CabinClass,
    SearchRequest,
    SearchSlice,
)
from flights.suppliers.sandbox.common import airport_country, airport_zone, km, round5, stable_int

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

# Journeys of a search
ITINERARIES_PER_SLICE = 6  # per airline
MAX_PICKS = 400  # journeys considered per airline (trimmed per slice on long multi-city trips)
MIN_SLICE_GAP = timedelta(hours=1)  # between one slice's arrival and the next one's departure


# --- Network -----------------------------------------------------------------------------------

Places = tuple[tuple[str, ...], tuple[str, ...]]  # a slice's origin and destination airports
Path = tuple[str, ...]
Plan = tuple[str, tuple[tuple[Path, ...], ...]]  # an airline and its routings per slice


@cache
def _home_countries(code: str) -> frozenset[str]:
    return frozenset(airport_country(hub) for hub in AIRLINES[code].hubs)


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
    distance = float(km(origin, destination))
    if distance < MIN_LEG_KM or not _aircraft_options(airline, distance):
        return False
    if origin not in airline.hubs and destination not in airline.hubs:
        return False
    if airport_country(origin) == airport_country(destination):
        return airport_country(origin) in _home_countries(code)
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
    return sum((km(a, b) for a, b in itertools.pairwise(path)), Decimal(0))


def _is_route(code: str, path: Sequence[str]) -> bool:
    operators = [_operator(code, a, b) for a, b in itertools.pairwise(path)]
    return all(operators) and code in operators  # the owner flies at least one leg


@lru_cache(maxsize=100_000)
def _routings(code: str, origin: str, destination: str, relaxed: bool) -> tuple[Path, ...]:
    """The airline's ways from origin to destination (airport paths), shortest first: direct,
    one stop at a connection point, or two stops when there is neither."""
    if float(km(origin, destination)) < MIN_LEG_KM:
        return ()
    detour = RELAXED_DETOUR if relaxed else STRICT_DETOUR
    limit = km(origin, destination) * detour + DETOUR_ALLOWANCE_KM
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
    regions = {
        reference.region(airport_country(origins[0])),
        reference.region(airport_country(destinations[0])),
    }
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


def search_plans(request: SearchRequest) -> tuple[Plan, ...]:
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
            nearest_hub = min(km(first_origin, hub) for hub in AIRLINES[code].hubs)
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
        if float(km(origin, destination)) >= MIN_LEG_KM
        and (
            _any_operator(origin, destination)
            or _aircraft_options(AIRLINES[code], float(km(origin, destination)))
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
    return round5(TAXI_AND_CLIMB_MINUTES + float(distance_km) * 60 / SPEED_KM_PER_HOUR)


def _frequency(code: str, origin: str, destination: str) -> int:
    """Daily flights on a leg: several on short hops, one or two on long hauls, one where the
    operator has no hub (the last-resort flights of odd trips)."""
    hubs = AIRLINES[_route(code, origin, destination).operator].hubs
    if origin not in hubs and destination not in hubs:
        return 1
    distance = float(km(origin, destination))
    spread = stable_int("freq", code, origin, destination) % 3
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
    start, end = (540, 1410) if float(km(origin, destination)) > 6500 else (360, 1380)
    step = (end - start) / count
    slots = []
    for index in range(count):
        jitter = stable_int("slot", code, origin, destination, index) % 41 - 20
        slots.append(round5(start + step * (index + 0.5) + jitter))
    return tuple(slots)


@lru_cache(maxsize=100_000)
def _flight_number(code: str, origin: str, destination: str, local_time: int) -> str:
    """Long hauls get numbers below 1000, other flights four digits."""
    low, high = (10, 999) if float(km(origin, destination)) > LONG_HAUL_KM else (1000, 4999)
    return str(low + stable_int("number", code, origin, destination, local_time) % (high - low))


@lru_cache(maxsize=100_000)
def _codeshare_number(owner: str, operator: str, operating_number: str) -> str:
    return str(5000 + stable_int("codeshare", owner, operator, operating_number) % 4999)


@lru_cache(maxsize=100_000)
def _aircraft(operator: str, origin: str, destination: str) -> str:
    fleet = _aircraft_options(AIRLINES[operator], float(km(origin, destination)))
    return fleet[stable_int("aircraft", operator, origin, destination) % len(fleet)]


@lru_cache(maxsize=100_000)
def _connection_minutes(flight_number: str, destination: str) -> int:
    low, high = CONNECTION_MINUTES
    return low + 5 * (stable_int("wait", flight_number, destination) % ((high - low) // 5 + 1))


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
    distance = km(origin, destination)
    international = airport_country(origin) != airport_country(destination)
    return _Route(
        operator=operator,
        distance_km=distance,
        minutes=_flight_minutes(distance),
        aircraft=_aircraft(operator, origin, destination),
        origin_terminal=_terminal(origin, operator, international),
        destination_terminal=_terminal(destination, operator, international),
        origin_zone=airport_zone(origin),
        destination_zone=airport_zone(destination),
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
    departing = local.replace(tzinfo=airport_zone(path[0])).astimezone(UTC)
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


class AirlineJourneys:
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


def clear_caches() -> None:
    """Empty this module's caches (the network, schedules and legs, kept across searches)."""
    for cached in (
        _home_countries,
        _connection_points,
        _gateways,
        _flies,
        _operator,
        _routings,
        _plans_for,
        _any_operator,
        _departure_slots,
        _flight_number,
        _codeshare_number,
        _aircraft,
        _connection_minutes,
        _route,
        _legs,
    ):
        cached.cache_clear()
