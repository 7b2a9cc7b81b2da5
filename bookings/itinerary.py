"""A booking's trip as people read it: the itinerary (slices, segments, connections) with each
airport's local times, durations, baggage and stops, and the passengers. The booking page
(bookings/display.py) and the e-mails (bookings/emails.py) both show it, in the same words.

Flight times are the airports' own clocks as the airline gives them (naive `2027-01-15T12:20:00`)
and are printed as they are."""

import re
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bookings.models import Booking
from bookings.retention import ERASED
from core.i18n import date_for_people, datetime_for_people
from flights import airports
from flights.models import CabinClass, PassengerType

CABINS = dict(CabinClass.choices)
PASSENGER_TYPES = dict(PassengerType.choices)
_ISO_DURATION = re.compile(
    r"^P(?:(?P<days>\d+)D)?(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?)?$"
)


# --- Small formatters ---------------------------------------------------------------------------


def duration_minutes(iso: str | None) -> int | None:
    """`PT12H20M` → 740; None for what is not an ISO 8601 duration of days, hours, minutes."""
    match = _ISO_DURATION.match(iso or "")
    if not match or not any(match.groupdict().values()):
        return None
    parts = {k: int(v or 0) for k, v in match.groupdict().items()}
    return parts["days"] * 1440 + parts["hours"] * 60 + parts["minutes"]


def duration_for_people(minutes: int | None) -> str:
    """740 → "12 h 20 min" (Portuguese) / "12h 20m" (English)."""
    if minutes is None:
        return ""
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return _("%(minutes)d min") % {"minutes": minutes}
    return _("%(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}


def local_time(value: str | None) -> datetime | None:
    """A supplier's naive local time; None if missing or unreadable."""
    try:
        moment = datetime.fromisoformat(str(value))
    except (TypeError, ValueError):
        return None
    return moment.replace(tzinfo=None)


def _absolute(moment: datetime | None, airport_code: str) -> datetime | None:
    """The instant a local time at an airport stands for (to measure connections)."""
    place = airports.airport(airport_code)
    if moment is None or place is None:
        return None
    return moment.replace(tzinfo=ZoneInfo(place.time_zone))


# --- Itinerary ----------------------------------------------------------------------------------


@dataclass
class Stop:
    """One end of a segment: the airport and the local time there."""

    code: str
    name: str
    city: str
    terminal: str | None
    moment: datetime | None  # naive: the airport's own clock
    time: str  # "12:20"
    date: str  # "15 de janeiro de 2027"
    written: str  # "15 de janeiro de 2027, 12:20"


@dataclass
class Segment:
    origin: Stop
    destination: Stop
    days_later: int  # the arrival's local date after the departure's
    flight: str  # "TP 1234"
    carrier: str  # the marketing carrier's name
    operated_by: str  # "" when the marketing carrier flies it
    aircraft: str
    cabin: str
    baggage: list[str]
    duration: str
    seats: list[str] = field(default_factory=list)  # "Seat 3A (exit row): Ana Souza", if bought
    kind: str = "segment"


@dataclass
class Connection:
    airport: str  # "LHR"
    city: str
    wait: str  # "2 h 25 min"
    change_of_airport: bool
    kind: str = "connection"


@dataclass
class Slice:
    title: str  # "Ida", "Volta", "Trecho 2"
    origin: Stop
    destination: Stop
    duration: str
    stops: str  # "Direto", "1 conexão"
    fare_brand: str
    legs: list  # Segment and Connection, in order


def _stop(end: dict, moment_text: str | None) -> Stop:
    code = end.get("iata_code", "")
    place = airports.airport(code)
    moment = local_time(moment_text)
    return Stop(
        code=code,
        name=(place.name if place else end.get("name")) or code,
        city=airports.city_for_people(place) if place else "",
        terminal=end.get("terminal"),
        moment=moment,
        time=f"{moment:%H:%M}" if moment else "",
        date=date_for_people(moment) if moment else "",
        written=datetime_for_people(moment) if moment else "",
    )


def _carrier_flight(carrier: dict | None, number: str | None) -> str:
    code = (carrier or {}).get("iata_code", "")
    return f"{code} {number}".strip() if number else code


def baggage_for_people(baggages: list[dict]) -> str:
    counts = {b.get("type"): int(b.get("quantity") or 0) for b in baggages or []}
    carry_on, checked = counts.get("carry_on", 0), counts.get("checked", 0)
    parts = []
    if carry_on:
        parts.append(
            ngettext("%(count)d carry-on bag", "%(count)d carry-on bags", carry_on)
            % {"count": carry_on}
        )
    else:
        parts.append(_("no carry-on bag"))
    if checked:
        parts.append(
            ngettext("%(count)d checked bag", "%(count)d checked bags", checked)
            % {"count": checked}
        )
    else:
        parts.append(_("no checked bag"))
    return ", ".join(parts)


def _segment(segment: dict, passenger_names: dict[str, str]) -> Segment:
    origin = _stop(segment.get("origin") or {}, segment.get("departing_at"))
    destination = _stop(segment.get("destination") or {}, segment.get("arriving_at"))
    marketing = segment.get("marketing_carrier") or {}
    operating = segment.get("operating_carrier") or {}
    flight = _carrier_flight(marketing, segment.get("marketing_carrier_flight_number"))
    operated_by = ""
    if operating.get("iata_code") and operating.get("iata_code") != marketing.get("iata_code"):
        operating_flight = _carrier_flight(
            operating, segment.get("operating_carrier_flight_number")
        )
        operated_by = _("Operated by %(carrier)s (%(flight)s)") % {
            "carrier": operating.get("name") or operating.get("iata_code"),
            "flight": operating_flight,
        }
    passengers = segment.get("passengers") or []
    cabins = dict.fromkeys(
        str(CABINS.get(p.get("cabin_class"), p.get("cabin_class") or "")) for p in passengers
    )
    baggage_of = {p.get("passenger_id"): baggage_for_people(p.get("baggages")) for p in passengers}
    if len(set(baggage_of.values())) <= 1:
        baggage = list(set(baggage_of.values()))
    else:  # an infant on a lap carries less: said per passenger
        baggage = [f"{passenger_names.get(pid, pid)}: {text}" for pid, text in baggage_of.items()]
    seats = [
        _seat_for_people(p["seat"], passenger_names.get(p.get("passenger_id"), ""))
        for p in passengers
        if p.get("seat")
    ]
    days_later = 0
    if origin.moment and destination.moment:
        days_later = (destination.moment.date() - origin.moment.date()).days
    aircraft = segment.get("aircraft") or {}
    return Segment(
        origin=origin,
        destination=destination,
        days_later=days_later,
        flight=flight,
        carrier=marketing.get("name") or marketing.get("iata_code", ""),
        operated_by=operated_by,
        aircraft=aircraft.get("name") or aircraft.get("iata_code") or "",
        cabin=", ".join(c for c in cabins if c),
        baggage=baggage,
        duration=duration_for_people(duration_minutes(segment.get("duration"))),
        seats=seats,
    )


def _seat_for_people(seat: dict, name: str) -> str:
    """A seat bought for a passenger (Duffel's `{designator, name, disclosures}`)."""
    text = _("Seat %(designator)s") % {"designator": seat.get("designator", "")}
    if seat.get("name"):
        text += f" ({seat['name']})"
    return f"{text}: {name}" if name else text


def _connection(arrived: Segment, leaving: Segment) -> Connection:
    landed = _absolute(arrived.destination.moment, arrived.destination.code)
    departs = _absolute(leaving.origin.moment, leaving.origin.code)
    wait = ""
    if landed and departs:
        wait = duration_for_people(int((departs - landed).total_seconds() // 60))
    return Connection(
        airport=arrived.destination.code,
        city=arrived.destination.city,
        wait=wait,
        change_of_airport=arrived.destination.code != leaving.origin.code,
    )


def _slice_title(index: int, count: int, booking_slices: list[dict]) -> str:
    if count == 2:
        first, second = booking_slices
        if (first.get("origin") or {}).get("iata_city_code") == (
            (second.get("destination") or {}).get("iata_city_code")
        ):
            return _("Outbound") if index == 0 else _("Return")
    if count == 1:
        return _("Flight")
    return _("Leg %(number)d") % {"number": index + 1}


def itinerary(booking: Booking, passenger_names: dict[str, str] | None = None) -> list[Slice]:
    """The booking's slices, each with its segments and the connections between them."""
    names = passenger_names or {}
    slices = booking.slices or []
    result = []
    for index, raw in enumerate(slices):
        segments = [_segment(s, names) for s in raw.get("segments") or []]
        legs: list = []
        for position, segment in enumerate(segments):
            if position:
                legs.append(_connection(segments[position - 1], segment))
            legs.append(segment)
        connections = len(segments) - 1
        origin = segments[0].origin if segments else _stop(raw.get("origin") or {}, None)
        destination = (
            segments[-1].destination if segments else _stop(raw.get("destination") or {}, None)
        )
        result.append(
            Slice(
                title=_slice_title(index, len(slices), slices),
                origin=origin,
                destination=destination,
                duration=duration_for_people(duration_minutes(raw.get("duration"))),
                stops=_("Direct")
                if connections <= 0
                else ngettext("%(count)d connection", "%(count)d connections", connections)
                % {"count": connections},
                fare_brand=raw.get("fare_brand_name") or "",
                legs=legs,
            )
        )
    return result


# --- Passengers ---------------------------------------------------------------------------------


def erased(value: str | None) -> bool:
    return value == ERASED


@dataclass
class Passenger:
    passenger_id: str
    name: str
    type: str
    email: str
    phone: str
    born_on: str
    tickets: list[str]
    erased: bool


def passengers(booking: Booking) -> list[Passenger]:
    tickets: dict[str, list[str]] = {}
    for document in booking.documents.all():
        tickets.setdefault(document.passenger_id, []).append(document.unique_identifier)
    marker = _("[erased]")
    result = []
    for p in booking.passengers.all():
        gone = erased(p.given_name) or booking.personal_data_erased_at is not None
        result.append(
            Passenger(
                passenger_id=p.passenger_id,
                name=marker if gone else f"{p.given_name} {p.family_name}".strip(),
                type=str(PASSENGER_TYPES.get(p.type, p.type)),
                email="" if gone or erased(p.email) else p.email,
                phone="" if gone or erased(p.phone_number) else p.phone_number,
                born_on=date_for_people(p.born_on) if p.born_on and not gone else "",
                tickets=sorted(tickets.get(p.passenger_id, [])),
                erased=gone,
            )
        )
    return result
