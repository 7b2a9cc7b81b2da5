r"""Validation of the passengers, payments and metadata of POST /api/v1/bookings.

Errors name the passenger and the field: `details = {"passengers[1].born_on": "..."}`.
Lengths match the columns the values are stored in (BookingPassenger, and the client made from
the lead passenger); digits are ASCII digits (`\d` would also take "٣"); see docs/decisions.md
"Input limits"."""

import re
from dataclasses import dataclass
from datetime import date

from bookings.models import BookingPassenger
from core.exceptions import InvalidRequest
from core.money import parse_amount
from flights import airports
from flights.models import PASSENGER_AGES, PassengerType

TITLES = BookingPassenger.Title.values
DOCUMENT_TYPES = BookingPassenger.DocumentType.values
# Patterns are matched against the whole string (fullmatch): `$` would accept a trailing "\n".
PHONE = re.compile(r"\+[0-9]{8,15}")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
COUNTRY = re.compile(r"[A-Z]{2}")
AIRLINE = re.compile(r"[A-Z0-9]{2}")
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")

MAX_NAME_LENGTH = 100  # BookingPassenger.given_name / family_name
MAX_EMAIL_LENGTH = 254  # RFC 5321's limit, and the e-mail columns
MAX_DOCUMENTS = 10
MAX_LOYALTY_ACCOUNTS = 10
MAX_IDENTIFIER_LENGTH = 50  # a document's unique_identifier, a loyalty account_number
# metadata, after Stripe's: at most 50 keys of at most 40 characters, values at most 500.
MAX_METADATA_KEYS = 50
MAX_METADATA_KEY_LENGTH = 40
MAX_METADATA_VALUE_LENGTH = 500


class InvalidPassengerData(InvalidRequest):
    code = "invalid_passenger_data"
    message = "Invalid passenger data"


class PassportRequired(InvalidRequest):
    code = "passport_required"
    message = "Passport required"


class PaymentAmountMismatch(InvalidRequest):
    code = "payment_amount_mismatch"
    message = "Payment amount mismatch"


@dataclass(frozen=True)
class PassengerInput:
    id: str
    type: str
    title: str
    given_name: str
    family_name: str
    gender: str
    born_on: date
    email: str
    phone_number: str
    identity_documents: list
    loyalty_programme_accounts: list
    infant_passenger_id: str


def _invalid(field: str, problem: str) -> InvalidPassengerData:
    return InvalidPassengerData(details={field: problem})


def age_on(born_on: date, day: date) -> int:
    return day.year - born_on.year - ((day.month, day.day) < (born_on.month, born_on.day))


def _date(value, field: str, error=_invalid) -> date:
    if not isinstance(value, str) or not ISO_DATE.fullmatch(value):
        raise error(field, "Use YYYY-MM-DD.")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise error(field, f"{value} is not a calendar date.") from None


def _text(item: dict, name: str, field: str, *, max_length: int) -> str:
    value = item.get(name)
    if not isinstance(value, str) or not value.strip():
        raise _invalid(field, "Required, a non-empty string.")
    value = value.strip()
    if len(value) > max_length:
        raise _invalid(field, f"At most {max_length} characters.")
    if CONTROL_CHARACTERS.search(value):
        raise _invalid(field, "Must not contain control characters.")
    return value


def validate_passengers(*, offer, passengers, departure_date: date) -> list[PassengerInput]:
    expected = {p["id"]: p["type"] for p in offer.passengers}
    if not isinstance(passengers, list) or len(passengers) != len(expected):
        raise _invalid(
            "passengers",
            f"Give exactly the offer's {len(expected)} passenger(s): {', '.join(expected)}.",
        )
    parsed, seen = [], set()
    for index, item in enumerate(passengers):
        at = f"passengers[{index}]"
        if not isinstance(item, dict):
            raise _invalid(at, "Must be an object.")
        pid = item.get("id")
        if not isinstance(pid, str) or pid not in expected:
            raise _invalid(f"{at}.id", "Not a passenger of this offer.")
        if pid in seen:
            raise _invalid(f"{at}.id", "Passenger given twice.")
        seen.add(pid)
        parsed.append(_passenger(item, at, pid, expected[pid], departure_date))
    _check_infants(parsed)
    return parsed


def _passenger(item: dict, at: str, pid: str, ptype: str, departure_date: date) -> PassengerInput:
    given_name = _text(item, "given_name", f"{at}.given_name", max_length=MAX_NAME_LENGTH)
    family_name = _text(item, "family_name", f"{at}.family_name", max_length=MAX_NAME_LENGTH)
    if item.get("gender") not in BookingPassenger.Gender.values:
        raise _invalid(f"{at}.gender", "Must be m or f.")
    title = item.get("title") or ""
    if title and title not in TITLES:
        raise _invalid(f"{at}.title", f"Must be one of {', '.join(TITLES)}.")
    born_on = _date(item.get("born_on"), f"{at}.born_on")
    low, high = PASSENGER_AGES[ptype]
    age = age_on(born_on, departure_date)
    if born_on > departure_date or not low <= age <= high:
        raise _invalid(
            f"{at}.born_on",
            f"A {ptype} is {low} to {high} years old on the "
            f"departure date ({departure_date}); this one is {age}.",
        )
    email = _text(item, "email", f"{at}.email", max_length=MAX_EMAIL_LENGTH)
    if not EMAIL.fullmatch(email):
        raise _invalid(f"{at}.email", "Not an e-mail address.")
    phone = item.get("phone_number")
    if not isinstance(phone, str) or not PHONE.fullmatch(phone):
        raise _invalid(f"{at}.phone_number", "Use the country code and digits: +5511987654321.")
    infant = item.get("infant_passenger_id") or ""
    if not isinstance(infant, str):
        raise _invalid(f"{at}.infant_passenger_id", "Must be a passenger id.")
    return PassengerInput(
        id=pid,
        type=ptype,
        title=title,
        given_name=given_name,
        family_name=family_name,
        gender=item["gender"],
        born_on=born_on,
        email=email,
        phone_number=phone,
        identity_documents=_documents(item.get("identity_documents"), at),
        loyalty_programme_accounts=_loyalty(item.get("loyalty_programme_accounts"), at),
        infant_passenger_id=infant,
    )


def _documents(value, at: str) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_DOCUMENTS:
        raise _invalid(f"{at}.identity_documents", f"A list of at most {MAX_DOCUMENTS}.")
    documents = []
    for index, doc in enumerate(value):
        field = f"{at}.identity_documents[{index}]"
        if not isinstance(doc, dict) or doc.get("type") not in DOCUMENT_TYPES:
            raise _invalid(f"{field}.type", f"Must be one of {', '.join(DOCUMENT_TYPES)}.")
        number = _text(
            doc, "unique_identifier", f"{field}.unique_identifier", max_length=MAX_IDENTIFIER_LENGTH
        )
        country = doc.get("issuing_country_code")
        if not isinstance(country, str) or not COUNTRY.fullmatch(country):
            raise _invalid(f"{field}.issuing_country_code", "ISO 3166-1 alpha-2, e.g. BR.")
        expires_on = _date(doc.get("expires_on"), f"{field}.expires_on")
        documents.append(
            {
                "type": doc["type"],
                "unique_identifier": number,
                "issuing_country_code": country,
                "expires_on": expires_on.isoformat(),
            }
        )
    return documents


def _loyalty(value, at: str) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_LOYALTY_ACCOUNTS:
        raise _invalid(
            f"{at}.loyalty_programme_accounts", f"A list of at most {MAX_LOYALTY_ACCOUNTS}."
        )
    accounts = []
    for index, account in enumerate(value):
        field = f"{at}.loyalty_programme_accounts[{index}]"
        code = account.get("airline_iata_code") if isinstance(account, dict) else None
        if not isinstance(code, str) or not AIRLINE.fullmatch(code):
            raise _invalid(f"{field}.airline_iata_code", "A 2-character IATA airline code.")
        accounts.append(
            {
                "airline_iata_code": code,
                "account_number": _text(
                    account,
                    "account_number",
                    f"{field}.account_number",
                    max_length=MAX_IDENTIFIER_LENGTH,
                ),
            }
        )
    return accounts


def _check_infants(passengers: list[PassengerInput]) -> None:
    by_id = {p.id: (index, p) for index, p in enumerate(passengers)}
    carried = {}
    for index, passenger in enumerate(passengers):
        if not passenger.infant_passenger_id:
            continue
        field = f"passengers[{index}].infant_passenger_id"
        if passenger.type != PassengerType.ADULT:
            raise _invalid(field, "Only an adult can carry an infant.")
        target = by_id.get(passenger.infant_passenger_id)
        if target is None or target[1].type != PassengerType.INFANT_WITHOUT_SEAT:
            raise _invalid(field, "Must be the id of an infant_without_seat of this booking.")
        if passenger.infant_passenger_id in carried:
            raise _invalid(field, "This infant is already with another adult.")
        carried[passenger.infant_passenger_id] = passenger.id
    for index, passenger in enumerate(passengers):
        if passenger.type == PassengerType.INFANT_WITHOUT_SEAT and passenger.id not in carried:
            raise _invalid(
                f"passengers[{index}].id",
                "Each infant_without_seat travels with one "
                "adult: set that adult's "
                "infant_passenger_id.",
            )


def check_passports(*, offer, passengers: list[PassengerInput]) -> None:
    """International itineraries need a passport valid past the last flight."""
    if not airports.is_international(offer.airport_codes):
        return
    last_day = offer.last_arrival.date()
    for index, passenger in enumerate(passengers):
        valid = [
            d
            for d in passenger.identity_documents
            if d["type"] == "passport" and date.fromisoformat(d["expires_on"]) > last_day
        ]
        if not valid:
            problem = f"A passport valid after {last_day.isoformat()} is required."
            raise PassportRequired(details={f"passengers[{index}].identity_documents": problem})


def check_payment(*, offer, payment) -> None:
    """A payment must be `{type: balance, amount, currency}` equal to the offer's original
    total and currency."""
    if not isinstance(payment, dict) or payment.get("type") != "balance":
        raise InvalidRequest(details={"payment": "Must be {type: balance, amount, currency}."})
    amount = parse_amount(payment.get("amount"))
    if amount is None:
        raise InvalidRequest(details={"payment.amount": 'A decimal string, e.g. "1153.85".'})
    if amount != offer.total_amount or payment.get("currency") != offer.total_currency:
        raise PaymentAmountMismatch(
            details={
                "expected_amount": f"{offer.total_amount:.2f}",
                "expected_currency": offer.total_currency,
            }
        )


def validate_metadata(metadata) -> dict:
    """The booking's free-form `metadata`, bounded like Stripe's: an object of at most 50 keys
    (1 to 40 characters) whose values are strings of at most 500 characters. `client_id`, when
    given, is the client's `cli_` id."""
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise InvalidRequest(details={"metadata": "Must be an object."})
    if len(metadata) > MAX_METADATA_KEYS:
        raise InvalidRequest(details={"metadata": f"At most {MAX_METADATA_KEYS} keys."})
    for key, value in metadata.items():
        if not 1 <= len(key) <= MAX_METADATA_KEY_LENGTH:
            raise InvalidRequest(
                details={"metadata": f"Keys are 1 to {MAX_METADATA_KEY_LENGTH} characters."}
            )
        if not isinstance(value, str) or len(value) > MAX_METADATA_VALUE_LENGTH:
            raise InvalidRequest(
                details={
                    f"metadata.{key}": f"A string of at most {MAX_METADATA_VALUE_LENGTH} "
                    "characters."
                }
            )
    return metadata
