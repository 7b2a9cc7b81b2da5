"""What a flight search refuses in its body besides `invalid_request` (docs/errors.md); the
suppliers' own errors are in flights/suppliers/base.py."""

from core.exceptions import InvalidRequest


class InvalidAirportCode(InvalidRequest):
    code = "invalid_airport_code"
    message = "Invalid airport code"


class InvalidDateFormat(InvalidRequest):
    code = "invalid_date_format"
    message = "Invalid date format"


class DepartureDateInPast(InvalidRequest):
    code = "departure_date_in_past"
    message = "Departure date in the past"
