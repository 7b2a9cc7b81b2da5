"""Validation of POST /api/v1/flights/search into a SearchRequest, with the spec's messages.

Order of checks: the shape of the body (types, required fields, enums, counts) → `Invalid
request parameters`; then, slice by slice, the airport codes → `Invalid airport code`, the date
format → `Invalid date format`, a date that is not in the future → `Departure date in the past`;
then the rules between slices → `Invalid request parameters`. `details` names the field."""

import re
from datetime import date, datetime, timedelta
from typing import cast
from zoneinfo import ZoneInfo

from django.utils import timezone

from core.exceptions import InvalidRequest
from flights import airports
from flights.models import CabinClass, PassengerType, TripType
from flights.suppliers.base import SearchRequest, SearchSlice

TRIP_TYPES = TripType.values
CABIN_CLASSES = CabinClass.values
PASSENGER_TYPES = PassengerType.values
MAX_SEATED_PASSENGERS = 9
# Airlines sell about a year ahead; a later date has no flights (and 9999-12-31 no next day).
MAX_DAYS_AHEAD = 365
DATE_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits, the whole string


class InvalidAirportCode(InvalidRequest):
    code = "invalid_airport_code"
    message = "Invalid airport code"


class InvalidDateFormat(InvalidRequest):
    code = "invalid_date_format"
    message = "Invalid date format"


class DepartureDateInPast(InvalidRequest):
    code = "departure_date_in_past"
    message = "Departure date in the past"


def _invalid(field: str, problem: str) -> InvalidRequest:
    return InvalidRequest(details={field: problem})


def parse_search_request(body) -> SearchRequest:
    if not isinstance(body, dict):
        raise _invalid("body", "Must be a JSON object.")
    trip_type = body.get("type")
    if trip_type not in TRIP_TYPES:
        raise _invalid("type", f"Must be one of {', '.join(TRIP_TYPES)}.")
    cabin_class = body.get("cabinClass", CabinClass.ECONOMY)
    if cabin_class not in CABIN_CLASSES:
        raise _invalid("cabinClass", f"Must be one of {', '.join(CABIN_CLASSES)}.")
    raw_slices = _slice_items(body.get("slices"), trip_type)
    passengers = _passengers(body.get("passengers"))
    slices = tuple(_slice(index, item) for index, item in enumerate(raw_slices))
    _check_itinerary(trip_type, slices)
    return SearchRequest(slices=slices, passengers=passengers, cabin_class=cabin_class)


def _slice_items(value, trip_type: str) -> list[dict]:
    expected = {"one_way": (1, 1), "round_trip": (2, 2), "multi_city": (2, 6)}[trip_type]
    if not isinstance(value, list):
        raise _invalid("slices", "Must be a list of {origin, destination, departureDate}.")
    low, high = expected
    if not low <= len(value) <= high:
        count = str(low) if low == high else f"{low} to {high}"
        raise _invalid("slices", f"A {trip_type} search needs {count} slices.")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise _invalid(f"slices[{index}]", "Must be an object.")
        for name in ("origin", "destination", "departureDate"):
            if name not in item:
                raise _invalid(f"slices[{index}].{name}", "This field is required.")
            if not isinstance(item[name], str):
                raise _invalid(f"slices[{index}].{name}", "Must be a string.")
    return value


def _passengers(value) -> tuple[PassengerType, ...]:
    if not isinstance(value, list) or not value:
        raise _invalid("passengers", "Must be a non-empty list of {type, count}.")
    counts = dict.fromkeys(PASSENGER_TYPES, 0)
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise _invalid(f"passengers[{index}]", "Must be an object.")
        if item.get("type") not in PASSENGER_TYPES:
            raise _invalid(
                f"passengers[{index}].type", f"Must be one of {', '.join(PASSENGER_TYPES)}."
            )
        count = item.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise _invalid(f"passengers[{index}].count", "Must be a positive integer.")
        counts[item["type"]] += count
    adults, children, infants = (counts[t] for t in PASSENGER_TYPES)
    if adults < 1:
        raise _invalid("passengers", "At least one adult is required.")
    if adults + children > MAX_SEATED_PASSENGERS:
        raise _invalid("passengers", f"At most {MAX_SEATED_PASSENGERS} adults and children.")
    if infants > adults:
        raise _invalid(
            "passengers",
            "Each infant_without_seat travels on an adult's lap: at most one infant per adult.",
        )
    kinds = ("adult",) * adults + ("child",) * children + ("infant_without_seat",) * infants
    return cast(tuple[PassengerType, ...], kinds)  # each one of PASSENGER_TYPES


def _slice(index: int, item: dict) -> SearchSlice:
    codes = {}
    for name in ("origin", "destination"):
        code = item[name].strip().upper()
        try:
            codes[name] = (code, airports.resolve(code))
        except airports.UnknownLocation:
            raise InvalidAirportCode(
                details={
                    f"slices[{index}].{name}": f"{item[name]!r}: not an IATA airport or city code."
                }
            ) from None
    if codes["origin"][0] == codes["destination"][0] or (
        set(codes["origin"][1]) & set(codes["destination"][1])
    ):
        raise _invalid(f"slices[{index}].destination", "Must differ from the origin.")
    departure = _date(index, item["departureDate"], origin_airports=codes["origin"][1])
    return SearchSlice(
        origin=codes["origin"][0],
        destination=codes["destination"][0],
        origin_airports=codes["origin"][1],
        destination_airports=codes["destination"][1],
        departure_date=departure,
    )


def _date(index: int, text: str, *, origin_airports: tuple[str, ...]) -> date:
    field = f"slices[{index}].departureDate"
    if not DATE_PATTERN.fullmatch(text):
        raise InvalidDateFormat(details={field: "Use YYYY-MM-DD."})
    try:
        departure = datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        raise InvalidDateFormat(details={field: f"{text} is not a calendar date."}) from None
    # "In the future": after today at the origin (the latest of its airports' time zones).
    today = max(
        timezone.now().astimezone(ZoneInfo(airports.AIRPORTS[code].time_zone)).date()
        for code in origin_airports
    )
    if departure <= today:
        raise DepartureDateInPast(details={field: f"Must be after {today.isoformat()}."})
    last = today + timedelta(days=MAX_DAYS_AHEAD)
    if departure > last:
        raise _invalid(field, f"Must be at most {MAX_DAYS_AHEAD} days ahead (by {last}).")
    return departure


def _check_itinerary(trip_type: str, slices: tuple[SearchSlice, ...]) -> None:
    if trip_type == "round_trip":
        outbound, inbound = slices
        if (inbound.origin, inbound.destination) != (outbound.destination, outbound.origin):
            raise _invalid(
                "slices[1]",
                "A round trip returns from the first slice's destination to its origin.",
            )
    for index in range(1, len(slices)):
        if slices[index].departure_date < slices[index - 1].departure_date:
            raise _invalid(
                f"slices[{index}].departureDate",
                "Must not be earlier than the previous slice's date.",
            )
