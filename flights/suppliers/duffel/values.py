"""Duffel's values read into ours: amounts (strings at Duffel, Decimal here), instants (aware
UTC), segment times (Duffel's local wall-clock times, kept naive), ISO 8601 durations, IATA
codes and the time zones of places. Shared by the conversions of offers, orders and quotes."""

import re
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flights import airports
from flights.suppliers.duffel.errors import Unreadable

ISO_DURATION = re.compile(
    r"^P(?:(?P<days>\d+)D)?"
    r"(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?$"
)


def decimal_from(value) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise Unreadable(f"not an amount: {value!r}")
    amount = Decimal(value)
    if not amount.is_finite():
        raise Unreadable(f"not an amount: {value!r}")
    return amount


def decimal_or_none(value) -> Decimal | None:
    return None if value is None or value == "" else decimal_from(value)


def utc_instant(text: str) -> datetime:
    """An aware UTC datetime from Duffel's ISO 8601 ("2027-02-01T14:29:50.123456Z"); a time
    without an offset is UTC, as Duffel's instants are."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def utc_or_none(source: dict, key: str) -> datetime | None:
    value = source.get(key)
    return utc_instant(value) if value else None


def local_time(text: str) -> datetime:
    """A naive local time ("2027-03-10T16:25:00"), as Duffel writes segment times."""
    return datetime.fromisoformat(text).replace(tzinfo=None)


def duration_minutes(text) -> int | None:
    """Minutes of an ISO 8601 duration ("PT2H26M", "PT02H26M", "P1DT2H"); None when absent or
    unreadable. Seconds are rounded to the nearest minute."""
    match = ISO_DURATION.match(text) if isinstance(text, str) else None
    if not match or not any(match.groupdict().values()):
        return None
    parts = {k: Decimal(v) if v else Decimal(0) for k, v in match.groupdict().items()}
    seconds = parts["days"] * 86400 + parts["hours"] * 3600 + parts["minutes"] * 60
    seconds += parts["seconds"]
    return int((seconds + 30) // 60)


def iata(thing: dict | None) -> str:
    """The iata_code of a Duffel airline, airport or aircraft object ("" when absent)."""
    return str((thing or {}).get("iata_code") or "")


def _zone(place: dict) -> ZoneInfo | None:
    name = place.get("time_zone")
    if not name:
        known = airports.airport(iata(place))
        name = known.time_zone if known else None
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def elapsed_minutes(
    origin: dict, departing_at: datetime, destination: dict, arriving_at: datetime
) -> int | None:
    """Minutes between two local times at two places, or None without their time zones."""
    start_zone, end_zone = _zone(origin), _zone(destination)
    if start_zone is None or end_zone is None:
        return None
    elapsed = arriving_at.replace(tzinfo=end_zone) - departing_at.replace(tzinfo=start_zone)
    minutes = int(elapsed.total_seconds() // 60)
    return minutes if minutes >= 0 else None
