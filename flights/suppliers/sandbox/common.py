"""Small helpers shared by the sandbox's modules: stable hashes, distances, zones, rates."""

import hashlib
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cache
from zoneinfo import ZoneInfo

from flights import airports, reference

# --- Small helpers -----------------------------------------------------------------------------


def digest(*parts: object, size: int = 16) -> bytes:
    text = "\x1f".join(str(part) for part in parts)
    return hashlib.blake2b(text.encode(), digest_size=size).digest()


def stable_int(*parts: object) -> int:
    """A number that depends only on the parts: the same in every process and run."""
    return int.from_bytes(digest(*parts, size=8), "big")


def km(a: str, b: str) -> Decimal:
    return airports.great_circle_km(a, b)


@cache
def airport_zone(code: str) -> ZoneInfo:
    return ZoneInfo(airports.AIRPORTS[code].time_zone)


def airport_country(code: str) -> str:
    return airports.AIRPORTS[code].country


def round5(minutes: float) -> int:
    return int(5 * round(minutes / 5))


def ceil_second(moment: datetime) -> datetime:
    if moment.microsecond:
        return moment.replace(microsecond=0) + timedelta(seconds=1)
    return moment


RATES = {currency: Decimal(rate) for currency, rate in reference.CURRENCY_PER_USD.items()}


def per_usd(currency: str) -> Decimal:
    return RATES[currency]


def clear_caches() -> None:
    airport_zone.cache_clear()
