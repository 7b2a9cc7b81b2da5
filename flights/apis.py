from datetime import date, datetime, timedelta
from typing import cast
from zoneinfo import ZoneInfo

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from api.apis import ApiView
from api.fields import ISO_DATE, OneOfField
from api.schema import IDEMPOTENCY_KEY_PARAMETER, error_response
from api.serializers import FirstProblemListSerializer, FirstProblemSerializer, problem_at
from flights import airports
from flights.errors import DepartureDateInPast, InvalidAirportCode, InvalidDateFormat
from flights.models import CabinClass, PassengerType, TripType
from flights.serializers import SearchResultSerializer
from flights.services import SearchTimings, flight_search
from flights.suppliers.base import SearchRequest, SearchSlice

# How many slices each trip type has (fewest, most).
SLICES = {TripType.ONE_WAY: (1, 1), TripType.ROUND_TRIP: (2, 2), TripType.MULTI_CITY: (2, 6)}
MAX_SEATED_PASSENGERS = 9  # adults and children of one search (infants sit on a lap)
# Passengers of one offer at most: the seated ones and an infant on each adult's lap. Also the
# most entries a search's `passengers` list can have (each counts at least one).
MAX_PASSENGERS = 2 * MAX_SEATED_PASSENGERS
# Airlines sell about a year ahead; a later date has no flights (and 9999-12-31 no next day).
MAX_DAYS_AHEAD = 365


def _forget_self(response):
    response.renderer_context.pop("response", None)


class _AnyText:
    """Any string, as given (its content is checked after the body's shape: an airport code, a
    date); absent is `This field is required.`, anything else `Must be a string.`."""

    def run_validation(self, data=serializers.empty):
        if data is serializers.empty:
            raise serializers.ValidationError("This field is required.")
        if not isinstance(data, str):
            raise serializers.ValidationError("Must be a string.")
        return data


class TextOnlyField(_AnyText, serializers.CharField):
    pass


class DateTextField(_AnyText, serializers.DateField):
    """A date's text: `departure_date` reads it once the origin is known."""


class SearchSliceListSerializer(FirstProblemListSerializer):
    """As many slices as the trip type has (SLICES)."""

    def run_validation(self, data=serializers.empty):
        if not isinstance(data, list):
            raise serializers.ValidationError(
                "Must be a list of {origin, destination, departureDate}."
            )
        trip_type = self.context["trip_type"]
        low, high = SLICES[trip_type]
        if not low <= len(data) <= high:
            count = str(low) if low == high else f"{low} to {high}"
            raise serializers.ValidationError(f"A {trip_type} search needs {count} slices.")
        return [self.checked_item(index, item) for index, item in enumerate(data)]


# Its shape only: its places and date are read by `search_slice`, after the passengers.
class SearchSliceInputSerializer(FirstProblemSerializer):
    origin = TextOnlyField(help_text="IATA airport (GRU) or city (SAO) code.")
    destination = TextOnlyField(help_text="IATA airport or city code.")
    departureDate = DateTextField(
        help_text=f"YYYY-MM-DD (ASCII digits), after today at the origin and at most "
        f"{MAX_DAYS_AHEAD} days ahead."
    )

    class Meta:
        list_serializer_class = SearchSliceListSerializer

    def to_internal_value(self, data) -> dict[str, str]:
        if not isinstance(data, dict):
            raise serializers.ValidationError("Must be an object.")
        return super().to_internal_value(data)


def search_slice(index: int, item: dict[str, str]) -> SearchSlice:
    """A slice's places (`invalid_airport_code`) and date."""
    codes = {}
    for name in ("origin", "destination"):
        code = item[name].strip().upper()
        try:
            codes[name] = (code, airports.resolve(code))
        except airports.UnknownLocation:
            problem = f"{item[name]!r}: not an IATA airport or city code."
            raise InvalidAirportCode(details={f"slices[{index}].{name}": problem}) from None
    (origin, origin_airports), (destination, destination_airports) = codes.values()
    if origin == destination or set(origin_airports) & set(destination_airports):
        raise problem_at("slices", index, "destination", message="Must differ from the origin.")
    departure = departure_date(
        item["departureDate"],
        path=f"slices[{index}].departureDate",
        origin_airports=origin_airports,
    )
    return SearchSlice(
        origin=origin,
        destination=destination,
        origin_airports=origin_airports,
        destination_airports=destination_airports,
        departure_date=departure,
    )


def departure_date(text: str, *, path: str, origin_airports: tuple[str, ...]) -> date:
    """`YYYY-MM-DD` (`invalid_date_format`), after today at the origin, the latest of its
    airports' time zones (`departure_date_in_past`), at most MAX_DAYS_AHEAD days ahead."""
    if not ISO_DATE.fullmatch(text):
        raise InvalidDateFormat(details={path: "Use YYYY-MM-DD."})
    try:
        departure = datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        raise InvalidDateFormat(details={path: f"{text} is not a calendar date."}) from None
    today = max(
        timezone.now().astimezone(ZoneInfo(airports.AIRPORTS[code].time_zone)).date()
        for code in origin_airports
    )
    if departure <= today:
        raise DepartureDateInPast(details={path: f"Must be after {today.isoformat()}."})
    last = today + timedelta(days=MAX_DAYS_AHEAD)
    if departure > last:
        raise serializers.ValidationError(
            {path: f"Must be at most {MAX_DAYS_AHEAD} days ahead (by {last})."}
        )
    return departure


class CountField(serializers.IntegerField):
    """A whole number of at least `min_value` (a JSON integer, not 1.0 nor true); the schema
    also states `max_value`, which the passengers' totals keep."""

    def run_validation(self, data=serializers.empty):
        if not isinstance(data, int) or isinstance(data, bool) or data < self.min_value:
            raise serializers.ValidationError("Must be a positive integer.")
        return data


class SearchPassengerListSerializer(FirstProblemListSerializer):
    """At least one adult; adults and children at most MAX_SEATED_PASSENGERS; an infant per
    adult at most. The validated value is one passenger type per passenger, adults first."""

    def run_validation(self, data=serializers.empty) -> tuple[str, ...]:
        if not isinstance(data, list) or not data:
            raise serializers.ValidationError("Must be a non-empty list of {type, count}.")
        counts = dict.fromkeys(PassengerType, 0)
        for index, item in enumerate(data):
            passenger = self.checked_item(index, item)
            counts[passenger["type"]] += passenger["count"]
        adults = counts[PassengerType.ADULT]
        children = counts[PassengerType.CHILD]
        infants = counts[PassengerType.INFANT_WITHOUT_SEAT]
        if adults < 1:
            raise serializers.ValidationError("At least one adult is required.")
        if adults + children > MAX_SEATED_PASSENGERS:
            raise serializers.ValidationError(
                f"At most {MAX_SEATED_PASSENGERS} adults and children."
            )
        if infants > adults:
            raise serializers.ValidationError(
                "Each infant_without_seat travels on an adult's lap: at most one infant per adult."
            )
        return tuple(kind.value for kind in PassengerType for _ in range(counts[kind]))


class SearchPassengerInputSerializer(FirstProblemSerializer):
    type = OneOfField(PassengerType)
    count = CountField(min_value=1, max_value=MAX_SEATED_PASSENGERS)

    class Meta:
        list_serializer_class = SearchPassengerListSerializer

    def to_internal_value(self, data) -> dict:
        if not isinstance(data, dict):
            raise serializers.ValidationError("Must be an object.")
        return super().to_internal_value(data)


class FlightSearchApi(ApiView):
    permission_resource = "flights"
    # A search reads offers: a key that may only read flights may search them.
    method_permissions = {"POST": "flights:read"}
    throttle_scope = "search"  # API_SEARCH_RATE_LIMIT as well as API_RATE_LIMIT
    supplier_methods = ("POST",)

    # Checked in the spec's order, the first problem answered: the shape of the body (types,
    # required fields, enums, counts: `invalid_request`); then, slice by slice, the airport
    # codes (`invalid_airport_code`), the date's format (`invalid_date_format`), a date that is
    # not in the future (`departure_date_in_past`); then the rules between slices
    # (`invalid_request`).
    @extend_schema_serializer(component_name="SearchInput")
    class InputSerializer(FirstProblemSerializer):
        type = OneOfField(
            TripType,
            help_text=f"{TripType.ONE_WAY}: {SLICES[TripType.ONE_WAY][0]} slice; "
            f"{TripType.ROUND_TRIP}: {SLICES[TripType.ROUND_TRIP][0]} (the second the reverse of "
            f"the first); {TripType.MULTI_CITY}: {SLICES[TripType.MULTI_CITY][0]} to "
            f"{SLICES[TripType.MULTI_CITY][1]}, dates in order.",
        )
        slices = SearchSliceInputSerializer(  # type: ignore[call-arg]  # ListSerializer kwargs
            many=True,
            min_length=min(low for low, _ in SLICES.values()),
            max_length=max(high for _, high in SLICES.values()),
        )
        passengers = SearchPassengerInputSerializer(  # type: ignore[call-arg]  # as above
            many=True,
            min_length=1,
            max_length=MAX_PASSENGERS,
            help_text=f"At least one adult; adults + children at most {MAX_SEATED_PASSENGERS}; "
            "at most one infant per adult.",
        )
        cabinClass = OneOfField(CabinClass, default=CabinClass.ECONOMY)

        def to_internal_value(self, data) -> SearchRequest:
            if not isinstance(data, dict):
                raise serializers.ValidationError("Must be a JSON object.")
            trip_type = self.checked("type", data)
            self.share(trip_type=trip_type)  # the slices' count
            cabin_class = self.checked("cabinClass", data)
            items = self.checked("slices", data)
            passengers = self.checked("passengers", data)
            slices = tuple(search_slice(index, item) for index, item in enumerate(items))
            if trip_type == TripType.ROUND_TRIP:
                outbound, inbound = slices
                if (inbound.origin, inbound.destination) != (outbound.destination, outbound.origin):
                    raise problem_at(
                        "slices",
                        1,
                        message="A round trip returns from the first slice's destination to its "
                        "origin.",
                    )
            for index in range(1, len(slices)):
                if slices[index].departure_date < slices[index - 1].departure_date:
                    raise problem_at(
                        "slices",
                        index,
                        "departureDate",
                        message="Must not be earlier than the previous slice's date.",
                    )
            # The supplier interface carries the wire values, plain strings, as it did before
            # there were choices (the sandbox seeds its offer ids with their repr).
            return SearchRequest(
                slices=slices,
                passengers=cast(tuple[PassengerType, ...], passengers),
                cabin_class=cast(CabinClass, cabin_class.value),
            )

    def dispatch(self, request, *args, **kwargs):
        response = super().dispatch(request, *args, **kwargs)
        # DRF leaves the response in reference cycles (`view.response`, and the renderer
        # context holds the view and, once rendered, the response itself), so a search's
        # result (~1,100 dicts and lists) would outlive the request until the cyclic garbage
        # collector walks it: that costs more than building it. Without those references
        # the response and its result are freed by reference counting as soon as the server
        # has sent it.
        del self.response
        if hasattr(response, "add_post_render_callback"):
            response.add_post_render_callback(_forget_self)
        return response

    @extend_schema(
        operation_id="flights_search",
        tags=["Flights"],
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        responses={
            200: SearchResultSerializer,
            400: error_response(
                "Invalid request parameters, Invalid airport code, Invalid date "
                "format or Departure date in the past"
            ),
            422: error_response("No flight supplier connected (live mode)"),
            502: error_response("The flight supplier failed"),
        },
        examples=[
            OpenApiExample(
                "Round trip",
                request_only=True,
                value={
                    "type": "round_trip",
                    "slices": [
                        {"origin": "SAO", "destination": "LIS", "departureDate": "2027-03-10"},
                        {"origin": "LIS", "destination": "SAO", "departureDate": "2027-03-24"},
                    ],
                    "passengers": [{"type": "adult", "count": 2}, {"type": "child", "count": 1}],
                    "cabinClass": "economy",
                },
            )
        ],
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        timings = SearchTimings()
        result = flight_search(
            team=request.user.team,
            live_mode=request.user.live_mode,
            request=serializer.validated_data,
            timings=timings,
        )
        return Response(result, headers={"Server-Timing": timings.header()})
