"""Airports and IATA city codes, from the `airportsdata` package (a maintained copy of real IATA
data), so that searches are validated against real codes and flights get real time zones and
distances.

A location code is exactly three upper-case letters. A code that is an IATA multi-airport city
(SAO, RIO, NYC, LON, PAR...) stands for all its airports; any other known code is an airport.
Some codes are both a city and one of its airports (DXB, IST, BRU...): as in IATA fare
construction, the city wins, so `resolve("IST")` is `("ISL", "IST", "SAW")`.

The data is read once, at import (a few hundred milliseconds), and kept in module-level dicts.
"""

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

import airportsdata
from django.utils import translation

from flights.place_names import PT_BR

CODE_PATTERN = re.compile(r"^[A-Z]{3}$")
EARTH_RADIUS_KM = 6371.0088  # IUGG mean radius


class UnknownLocation(LookupError):
    """Not an IATA airport or city code (lower case and other lengths included)."""

    def __init__(self, code: object):
        self.code = code
        super().__init__(f"Unknown IATA location code: {code!r}")


@dataclass(frozen=True)
class Airport:
    iata_code: str
    name: str
    city_name: str
    iata_city_code: str  # the multi-airport city code when it belongs to one, else its own code
    country: str  # ISO 3166-1 alpha-2
    time_zone: str  # IANA, e.g. "America/Sao_Paulo"
    latitude: float
    longitude: float


@dataclass(frozen=True)
class City:
    """An IATA multi-airport city."""

    iata_code: str
    name: str
    country: str
    time_zone: str  # that of its first airport (all airports of a city share one)
    airports: tuple[str, ...]  # sorted


def _load() -> tuple[dict[str, Airport], dict[str, City]]:
    raw_airports = airportsdata.load("IATA")
    raw_cities = airportsdata.load_iata_macs()
    city_of = {
        code: (city_code, city["name"])
        for city_code, city in raw_cities.items()
        for code in city["airports"]
    }
    airports = {}
    for code, row in raw_airports.items():
        if not CODE_PATTERN.match(code):
            continue
        city_code, city_name = city_of.get(code, (code, row["city"]))
        airports[code] = Airport(
            iata_code=code,
            name=row["name"],
            city_name=city_name,
            iata_city_code=city_code,
            country=row["country"],
            time_zone=row["tz"],
            latitude=float(row["lat"]),
            longitude=float(row["lon"]),
        )
    cities = {}
    for city_code, city in raw_cities.items():
        members = sorted(code for code in city["airports"] if code in airports)
        # The data lists some cities without the airport of the same code (JNB: only HLA).
        if city_code in airports and city_code not in members:
            members = sorted([*members, city_code])
        cities[city_code] = City(
            iata_code=city_code,
            name=city["name"],
            country=city["country"],
            time_zone=airports[members[0]].time_zone,
            airports=tuple(members),
        )
    return airports, cities


AIRPORTS, CITIES = _load()


def airport(code: str) -> Airport | None:
    return AIRPORTS.get(code)


def city_for_people(place: Airport) -> str:
    """The airport's city as people read it in the active language: Portuguese from the
    reviewed table (flights/place_names.py) in pt-BR, else the airport data's (English) name.
    What the API returns stays the data's name."""
    if (translation.get_language() or "").lower().startswith("pt"):
        return PT_BR.get(place.iata_code) or PT_BR.get(place.iata_city_code) or place.city_name
    return place.city_name


def city(code: str) -> City | None:
    """The multi-airport city of that code, or None (an airport code, or unknown)."""
    return CITIES.get(code)


def resolve(code: str) -> tuple[str, ...]:
    """The airports a location code stands for: a city's airports (sorted), or the airport itself.
    Raises UnknownLocation for anything else."""
    if not isinstance(code, str) or not CODE_PATTERN.match(code):
        raise UnknownLocation(code)
    if code in CITIES:
        return CITIES[code].airports
    if code in AIRPORTS:
        return (code,)
    raise UnknownLocation(code)


def _known(code: "str | Airport") -> Airport:
    if isinstance(code, Airport):
        return code
    found = AIRPORTS.get(code)
    if found is None:
        raise UnknownLocation(code)
    return found


def is_international(airport_codes: Iterable[str]) -> bool:
    """True when the airports are not all in one country (a trip crossing a border)."""
    return len({_known(code).country for code in airport_codes}) > 1


@lru_cache(maxsize=65536)
def great_circle_km(a: "str | Airport", b: "str | Airport") -> Decimal:
    """Haversine distance between two airports (codes or Airports), in km with one decimal."""
    first, second = _known(a), _known(b)
    lat1, lat2 = math.radians(first.latitude), math.radians(second.latitude)
    d_lat = lat2 - lat1
    d_lon = math.radians(second.longitude - first.longitude)
    h = math.sin(d_lat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(d_lon / 2) ** 2
    km = 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))
    return Decimal(f"{km:.1f}")
