"""Duffel (duffel.com/docs/api, version v2): real offers, orders and tickets from hundreds of
airlines, through the team's own Duffel access token (the `Integration`).

Calls (JSON bodies wrapped in `{"data": ...}`, answers likewise):

- search: `POST /air/offer_requests?return_offers=true&supplier_timeout=<ms>` with the slices
  (the requested codes: Duffel takes IATA city codes as well as airports), the passengers and
  the cabin; the offers come back in the same answer.
- create_order: `POST /air/orders`, type `hold` (no payment) or `instant` (paid from the Duffel
  balance), the passengers by the offer request's ids, and `metadata: {"booking_id": "ord_…"}`
  (Duffel's metadata: string values). It reads only `offer.supplier_offer_id` from the stored
  offer; the amount and currency paid are the method's arguments.
- pay_order: `POST /air/payments` (balance), then `GET /air/orders/{id}` for the tickets.
- get_order: `GET /air/orders/{id}`.
- find_order: `GET /air/orders?limit=200&passenger_name[]=<lead family name>`, following
  `meta.after` for at most MAX_ORDER_PAGES pages, for the order whose `metadata.booking_id` is
  ours.
- quote_cancellation: `POST /air/order_cancellations`; confirm_cancellation:
  `POST /air/order_cancellations/{id}/actions/confirm`.

Mapping decisions (Duffel's nulls included):

- Amounts are strings at Duffel and stay Decimal (the JSON is read with `parse_float=Decimal`
  too), in the offer's `total_currency` (any currency: pricing converts it to BRL). A missing
  `base_amount` or `tax_amount`, or one in another currency than the total's (`base_currency`,
  `tax_currency`), is the total minus the other (both: base = total, tax = 0).
- Passengers are sent as `{"type": "adult"}`, `{"type": "infant_without_seat"}` and, for a
  child, `{"age": CHILD_AGE}`: Duffel prices children by age and our search has no ages.
  `supplier_passenger_ids` are the offer request's passenger ids in the order of
  `SearchRequest.passengers`: each of ours takes the first Duffel passenger of its kind (`type`,
  or `age` when searched by age), else Duffel's order. Names on them are ignored.
- Segment times are Duffel's local wall-clock times, kept naive. Durations are ISO 8601
  (`PT2H26M`, `P1DT2H`) in minutes (seconds rounded); a missing duration is computed from the
  local times and the airports' time zones (Duffel's `time_zone`, else ours).
- Aircraft unknown (null): `""`. Distance unknown (null): the great-circle distance between the
  airports (`flights.airports`), or 0 for an airport we do not know. Operating flight number
  unknown: the marketing one when the same airline operates, else `""`. Fare brand, cabin
  marketing name and fare basis unknown: `""` (the cabin's name for the marketing name).
- Cabin, fare basis and baggage are those of the first passenger of the search (an adult).
- A condition that is null (the airline did not say) counts as not allowed; an allowed one with
  no penalty amount keeps `penalty_amount=None` (unknown, not free).
- Instants (expiry, hold deadlines) are aware UTC. An offer that requires instant payment has no
  hold deadlines (`payment_required_by` and `price_guarantee_expires_at` are None). A holdable
  offer whose `payment_required_by` is null stays holdable; the deadline comes with the order.
- An offer that cannot be read is left out of the results (and logged), not the whole search.
- Order documents: only `electronic_ticket` ones, for the first of their `passenger_ids`.
  `awaiting_payment` is `payment_status.awaiting_payment`; `cancelled` is `cancelled_at` set.
- Order passengers: Duffel requires a title among mr, ms, mrs, miss, dr; a missing or other
  title becomes "mr" (gender m) or "ms" (gender f).

Errors become `SupplierError` with an agency-safe message, a code and, for HTTP errors, details
(status, Duffel's `request_id` and its errors' type/code/title/message/field). Known Duffel codes
first (offer_no_longer_available, offer_expired, price_changed, insufficient_balance,
already_cancelled, order_not_created), then by status: 401/403 supplier_authentication_failed,
404 a not-found code per call (offer_not_found, order_not_found, quote_not_found), 422
validation_error supplier_validation_error, 429 supplier_rate_limited, 5xx supplier_unavailable,
any other refusal supplier_error. Connection errors and timeouts are supplier_unavailable. A
success we cannot read is supplier_bad_response.

When creating an order or paying may have taken effect anyway, the error is
SupplierOutcomeUnknown (code supplier_outcome_unknown), never a refusal: a read timeout or a
connection dropped after the request was sent, a 5xx without one of the known codes above, an
unreadable 2xx, a 202 on order creation (accepted, not confirmed: code order_pending), and a
payment whose order cannot be read back. A request that never reached Duffel (connect timeout,
refused, a name that does not resolve, a failed TLS handshake) is a plain SupplierError.
Confirming a cancellation that may have taken effect is a plain SupplierError whose message says
to check before retrying.

Timeouts: connect 5 s; read 30 s for searches, 130 s for everything else (Duffel's advice for
orders). The access token lives
only in the session's Authorization header: it is never logged, put in an error or in `repr`.
"""

import logging
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import requests
from django.conf import settings
from urllib3.exceptions import MaxRetryError, NewConnectionError

from core.exceptions import register_error
from flights import airports
from flights.suppliers.base import (
    Baggage,
    CabinClass,
    CancellationQuote,
    Condition,
    FlightSupplier,
    OrderPassenger,
    PassengerType,
    SearchRequest,
    SupplierError,
    SupplierOffer,
    SupplierOrder,
    SupplierOutcomeUnknown,
    SupplierSegment,
    SupplierSlice,
    TicketDocument,
)

logger = logging.getLogger(__name__)

API_VERSION = "v2"
CONNECT_TIMEOUT_SECONDS = 5
SEARCH_TIMEOUT = (CONNECT_TIMEOUT_SECONDS, 30)
# Duffel asks for at least 130 s: an airline may take up to 120 s to confirm an order.
ORDER_TIMEOUT = (CONNECT_TIMEOUT_SECONDS, 130)
# How long Duffel waits for each airline (2 to 60 s): below our read timeout, so that Duffel
# answers with the offers it has rather than our request timing out with none.
SUPPLIER_TIMEOUT_MS = 20_000
# The age sent for a child passenger: our searches carry types, Duffel wants children's ages.
# 8 is a child (2 to 11) for every airline.
CHILD_AGE = 8
DUFFEL_TITLES = frozenset({"mr", "ms", "mrs", "miss", "dr"})
# find_order lists orders in pages of ORDERS_PAGE_SIZE (Duffel's maximum), at most
# MAX_ORDER_PAGES of them: past that it cannot tell (SupplierError), it does not guess.
ORDERS_PAGE_SIZE = 200
MAX_ORDER_PAGES = 5
METADATA_BOOKING_ID = "booking_id"
# What a call changes at the airline, hence what a lost or unreadable answer means:
READ = "read"  # nothing: a plain failure
CHANGE = "change"  # something (a cancellation): a failure whose message says to check first
OUTCOME = "outcome"  # an order or a payment: SupplierOutcomeUnknown, reconciled later
BAGGAGE_TYPES = frozenset({"checked", "carry_on"})

ISO_DURATION = re.compile(
    r"^P(?:(?P<days>\d+)D)?"
    r"(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?$"
)

# --- Errors ------------------------------------------------------------------------------------

UNAVAILABLE = ("supplier_unavailable", "The flight supplier is unavailable; try again later")
UNCERTAIN = (
    "supplier_unavailable",
    "The flight supplier did not answer properly; check whether the booking changed "
    "before trying again",
)
BAD_RESPONSE = ("supplier_bad_response", "The flight supplier sent an answer we could not read")
UNCERTAIN_BAD_RESPONSE = (
    "supplier_bad_response",
    "The flight supplier sent an answer we could not read; check whether the booking changed "
    "before trying again",
)
# Outcomes we cannot know (SupplierOutcomeUnknown): the order or payment may exist.
OUTCOME_UNKNOWN = (SupplierOutcomeUnknown.code, SupplierOutcomeUnknown.message)
PAID_NOT_READ = (
    SupplierOutcomeUnknown.code,
    "The order was paid but the flight supplier did not return it; we are checking with it "
    "(do not pay again)",
)
AUTH_FAILED = (
    "supplier_authentication_failed",
    "Duffel refused this integration's access token; reconnect the Duffel integration",
)
FORBIDDEN = (
    "supplier_authentication_failed",
    "This integration's Duffel access token is not allowed to do this; check its permissions",
)
RATE_LIMITED = (
    "supplier_rate_limited",
    "The flight supplier is receiving too many requests; try again in a minute",
)
VALIDATION = ("supplier_validation_error", "The flight supplier rejected the request's data")
REFUSED = ("supplier_error", "The flight supplier refused the request")
NOT_FOUND = ("supplier_not_found", "The flight supplier does not know this resource")
OFFER_NOT_FOUND = ("offer_not_found", "Unknown Duffel offer")
ORDER_NOT_FOUND = ("order_not_found", "Unknown Duffel order")
TOO_MANY_ORDERS = (
    "supplier_unavailable",
    "Too many Duffel orders to look through for this booking; check it in the Duffel dashboard",
)
QUOTE_NOT_FOUND = ("quote_not_found", "Unknown Duffel cancellation quote")
ORDER_PENDING = (
    "order_pending",
    "The airline has not confirmed the booking yet; we are checking with it",
)

# Duffel error codes that mean something to the agency, whatever the HTTP status.
KNOWN_ERRORS: dict[str, tuple[str, str]] = {
    "offer_no_longer_available": (
        "offer_no_longer_available",
        "The offer is no longer available",
    ),
    "offer_expired": ("offer_expired", "Offer expired"),
    "price_changed": (
        "price_changed",
        "The airline changed the price of this offer; search again",
    ),
    "insufficient_balance": (
        "supplier_insufficient_balance",
        "The Duffel balance of this integration is too low to pay for this booking",
    ),
    "already_cancelled": ("order_already_cancelled", "The order has already been cancelled"),
    "order_not_created": (
        "order_not_created",
        "The airline could not create the booking; nothing was booked or charged",
    ),
}


# Every code and message above is in the error catalogue (docs/errors.md).
for _code, _message in (
    UNAVAILABLE,
    UNCERTAIN,
    BAD_RESPONSE,
    UNCERTAIN_BAD_RESPONSE,
    OUTCOME_UNKNOWN,
    PAID_NOT_READ,
    AUTH_FAILED,
    FORBIDDEN,
    RATE_LIMITED,
    VALIDATION,
    REFUSED,
    NOT_FOUND,
    OFFER_NOT_FOUND,
    ORDER_NOT_FOUND,
    TOO_MANY_ORDERS,
    QUOTE_NOT_FOUND,
    ORDER_PENDING,
    *KNOWN_ERRORS.values(),
):
    register_error(_code, SupplierError.status_code, _message, module=__name__)


def _error(pair: tuple[str, str], details=None) -> SupplierError:
    code, message = pair
    return SupplierError(message, code=code, details=details)


def _unknown(pair: tuple[str, str], details=None) -> SupplierOutcomeUnknown:
    code, message = pair
    return SupplierOutcomeUnknown(message, code=code, details=details)


class _Unreadable(Exception):
    """A successful answer without the fields we need."""


# What reading a malformed answer raises.
READ_ERRORS = (_Unreadable, KeyError, TypeError, ValueError, AttributeError, InvalidOperation)


# --- The supplier ------------------------------------------------------------------------------


class DuffelSupplier(FlightSupplier):
    name = "duffel"

    def __init__(
        self,
        *,
        access_token: str,
        base_url: str | None = None,
        supplier_timeout_ms: int | None = SUPPLIER_TIMEOUT_MS,
        session: requests.Session | None = None,
    ):
        self.base_url = (base_url or settings.DUFFEL_BASE_URL).rstrip("/")
        self.supplier_timeout_ms = supplier_timeout_ms
        self._has_token = bool(access_token)
        self.session = session or requests.Session()
        self.session.headers.update(
            {
                "Authorization": f"Bearer {access_token}",
                "Duffel-Version": API_VERSION,
                "Accept": "application/json",
                "Accept-Encoding": "gzip",
                "Content-Type": "application/json",
                "User-Agent": "agency-backoffice",
            }
        )

    def __repr__(self) -> str:
        return f"<DuffelSupplier {self.base_url}>"  # never the token

    # --- Search --------------------------------------------------------------------------------

    def search(self, request: SearchRequest) -> list[SupplierOffer]:
        params = {"return_offers": "true"}
        if self.supplier_timeout_ms:
            params["supplier_timeout"] = str(self.supplier_timeout_ms)
        body = {
            "slices": [
                {
                    "origin": s.origin,
                    "destination": s.destination,
                    "departure_date": s.departure_date.isoformat(),
                }
                for s in request.slices
            ],
            "passengers": [search_passenger(kind) for kind in request.passengers],
            "cabin_class": request.cabin_class,
        }
        data = self._call(
            "POST", "/air/offer_requests", body=body, params=params, timeout=SEARCH_TIMEOUT
        )
        passenger_ids = _read(_passenger_ids, data, request.passengers)
        context = _OfferContext(passenger_ids=passenger_ids, cabin_class=request.cabin_class)
        offers = []
        for raw in data.get("offers") or []:
            try:
                offers.append(offer_from(raw, context))
            except READ_ERRORS as exc:
                offer_id = raw.get("id") if isinstance(raw, dict) else None
                logger.warning("Left out unreadable Duffel offer %s: %r", offer_id, exc)
        return offers

    # --- Orders --------------------------------------------------------------------------------

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
        offer_id = str(getattr(offer, "supplier_offer_id", "") or "")
        if not offer_id.startswith("off_"):
            raise _error(OFFER_NOT_FOUND)
        body: dict[str, Any] = {
            "type": "instant" if instant else "hold",
            "selected_offers": [offer_id],
            "passengers": [order_passenger(p) for p in passengers],
        }
        if instant:
            body["payments"] = [balance_payment(amount, currency)]
        if booking_id:  # how find_order recognises the order when this answer is lost
            body["metadata"] = {METADATA_BOOKING_ID: str(booking_id)}
        response = self._send(
            "POST",
            "/air/orders",
            body=body,
            timeout=ORDER_TIMEOUT,
            not_found=OFFER_NOT_FOUND,
            effect=OUTCOME,
        )
        if response.status_code == 202:  # accepted, the airline has not confirmed yet
            raise _unknown(ORDER_PENDING, {"supplier": "duffel", "status": 202})
        return _read(order_from, _data_of(response, effect=OUTCOME), effect=OUTCOME)

    def pay_order(self, *, order_id: str, amount: Decimal, currency: str) -> SupplierOrder:
        self._call(
            "POST",
            "/air/payments",
            body={"order_id": order_id, "payment": balance_payment(amount, currency)},
            timeout=ORDER_TIMEOUT,
            not_found=ORDER_NOT_FOUND,
            effect=OUTCOME,
        )
        try:
            return self.get_order(order_id)
        except SupplierError as exc:  # paid all the same: paying again must not look safe
            raise _unknown(PAID_NOT_READ, exc.details) from exc

    def get_order(self, order_id: str) -> SupplierOrder:
        data = self._call(
            "GET",
            f"/air/orders/{_path_part(order_id)}",
            timeout=ORDER_TIMEOUT,
            not_found=ORDER_NOT_FOUND,
        )
        return _read(order_from, data)

    def find_order(
        self, *, booking_id: str, created_after: datetime, passengers: list[OrderPassenger]
    ) -> SupplierOrder | None:
        """`GET /air/orders` (Duffel lists them in no promised order), narrowed by the lead
        passenger's family name (`passenger_name[]`, a partial match), page after page (`after`)
        until one carries our booking id in its metadata. None only after the complete listing;
        more than MAX_ORDER_PAGES pages, an error or an unreadable page: SupplierError.
        `created_after` excludes nothing: the booking id is ours alone, and Duffel's clock is
        not ours (an order stamped a second before our booking is still its order)."""
        params: dict[str, str] = {"limit": str(ORDERS_PAGE_SIZE)}
        if passengers and passengers[0].family_name.strip():
            params["passenger_name[]"] = passengers[0].family_name.strip()
        for _ in range(MAX_ORDER_PAGES):
            response = self._send("GET", "/air/orders", params=params, timeout=ORDER_TIMEOUT)
            orders, after = _read(_orders_page, _json_or_none(response))
            for raw in orders:
                if _carries_booking_id(raw, booking_id):
                    return _read(order_from, raw)
            if not after:
                return None
            params["after"] = after
        raise _error(
            TOO_MANY_ORDERS, {"supplier": "duffel", "pages": MAX_ORDER_PAGES, "booking": booking_id}
        )

    def quote_cancellation(self, order_id: str) -> CancellationQuote:
        data = self._call(
            "POST",
            "/air/order_cancellations",
            body={"order_id": order_id},
            timeout=ORDER_TIMEOUT,
            not_found=ORDER_NOT_FOUND,
        )
        return _read(quote_from, data)

    def confirm_cancellation(self, quote_id: str) -> None:
        self._call(
            "POST",
            f"/air/order_cancellations/{_path_part(quote_id)}/actions/confirm",
            timeout=ORDER_TIMEOUT,
            not_found=QUOTE_NOT_FOUND,
            effect=CHANGE,
        )

    # --- HTTP ----------------------------------------------------------------------------------

    def _call(self, method: str, path: str, **kwargs) -> dict:
        response = self._send(method, path, **kwargs)
        return _data_of(response, effect=kwargs.get("effect", READ))

    def _send(
        self,
        method: str,
        path: str,
        *,
        timeout: tuple[int, int],
        body: dict | None = None,
        params: dict | None = None,
        not_found: tuple[str, str] = NOT_FOUND,
        effect: str = READ,
    ) -> requests.Response:
        """The answer to a call, or SupplierError. `effect`: what the call changes at the
        airline (READ nothing; CHANGE or OUTCOME something), so whether a lost answer may hide
        a change."""
        if not self._has_token:
            raise _error(AUTH_FAILED, {"supplier": "duffel", "reason": "no access token"})
        try:
            response = self.session.request(
                method,
                f"{self.base_url}{path}",
                params=params,
                json=None if body is None else {"data": body},
                timeout=timeout,
            )
        except requests.RequestException as exc:
            logger.warning("Duffel %s %s failed: %s", method, path, type(exc).__name__)
            details = {"supplier": "duffel", "reason": type(exc).__name__}
            if _never_sent(exc):  # nothing reached Duffel: nothing can have happened
                raise _error(UNAVAILABLE, details) from exc
            raise _failure(effect, UNAVAILABLE, UNCERTAIN, details) from exc
        if response.status_code >= 400:
            error = http_error(response, not_found=not_found, effect=effect)
            logger.warning(
                "Duffel %s %s answered %s (%s, request %s)",
                method,
                path,
                response.status_code,
                error.code,
                (error.details or {}).get("request_id"),
            )
            raise error
        return response


def _never_sent(exc: requests.RequestException) -> bool:
    """Whether the request certainly never reached Duffel: no connection (a connect timeout,
    refused, a name that does not resolve, a failed TLS handshake) or a URL we cannot send to.
    A read timeout or a connection dropped after sending may hide a change."""
    if isinstance(
        exc,
        requests.ConnectTimeout
        | requests.exceptions.SSLError
        | requests.exceptions.InvalidURL
        | requests.exceptions.MissingSchema
        | requests.exceptions.InvalidSchema,
    ):
        return True
    if isinstance(exc, requests.ConnectionError):
        reason = exc.args[0] if exc.args else None
        if isinstance(reason, MaxRetryError):
            reason = reason.reason
        return isinstance(reason, NewConnectionError)  # refused, DNS (NameResolutionError)
    return False


def _failure(effect: str, sure: tuple[str, str], check: tuple[str, str], details) -> SupplierError:
    """The error of a failure that may have taken effect: for an order or a payment
    SupplierOutcomeUnknown; for another change a refusal whose message says to check first."""
    if effect == OUTCOME:
        return _unknown(OUTCOME_UNKNOWN, details)
    return _error(check if effect == CHANGE else sure, details)


# --- Requests ----------------------------------------------------------------------------------


def search_passenger(kind: PassengerType) -> dict:
    if kind == "child":
        return {"age": CHILD_AGE}
    return {"type": kind}  # "adult" or "infant_without_seat"


def title_for(passenger: OrderPassenger) -> str:
    title = (passenger.title or "").strip().lower().rstrip(".")
    if title in DUFFEL_TITLES:
        return title
    return "mr" if passenger.gender == "m" else "ms"


def order_passenger(passenger: OrderPassenger) -> dict:
    data: dict[str, Any] = {
        "id": passenger.supplier_passenger_id,
        "title": title_for(passenger),
        "gender": passenger.gender,
        "given_name": passenger.given_name,
        "family_name": passenger.family_name,
        "born_on": passenger.born_on.isoformat(),
        "email": passenger.email,
        "phone_number": passenger.phone_number,
    }
    if passenger.identity_documents:
        data["identity_documents"] = [_jsonable(d) for d in passenger.identity_documents]
    if passenger.infant_supplier_passenger_id:
        data["infant_passenger_id"] = passenger.infant_supplier_passenger_id
    return data


def balance_payment(amount: Decimal, currency: str) -> dict:
    return {"type": "balance", "amount": f"{Decimal(str(amount)):f}", "currency": currency}


def _jsonable(value):
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, date):  # datetime included
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:f}"
    return value


def _path_part(identifier: str) -> str:
    """An id as one URL path segment (nothing in it can change the path)."""
    return quote(str(identifier), safe="")


# --- Answers -----------------------------------------------------------------------------------


def _json_or_none(response: requests.Response):
    try:
        return response.json(parse_float=Decimal)  # exact numbers, never floats
    except ValueError:  # not JSON: a proxy's HTML page, a truncated body
        return None


def _data_of(response: requests.Response, *, effect: str = READ) -> dict:
    body = _json_or_none(response)
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise _failure(
            effect,
            BAD_RESPONSE,
            UNCERTAIN_BAD_RESPONSE,
            {"supplier": "duffel", "status": response.status_code, "reason": "no data object"},
        )
    return data


def _read(mapper, data, *args, effect: str = READ):
    """mapper(data, *args), any missing or malformed field being a SupplierError."""
    try:
        return mapper(data, *args)
    except READ_ERRORS as exc:
        logger.warning("Unreadable Duffel answer for %s: %r", mapper.__name__, exc)
        raise _failure(
            effect,
            BAD_RESPONSE,
            UNCERTAIN_BAD_RESPONSE,
            {
                "supplier": "duffel",
                "id": data.get("id") if isinstance(data, dict) else None,
                "reason": repr(exc),
            },
        ) from exc


def http_error(
    response: requests.Response,
    *,
    not_found: tuple[str, str] = NOT_FOUND,
    effect: str = READ,
) -> SupplierError:
    body = _json_or_none(response)
    body = body if isinstance(body, dict) else {}
    errors = [e for e in body.get("errors") or [] if isinstance(e, dict)]
    meta = body.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    details = {
        "supplier": "duffel",
        "status": response.status_code,
        "request_id": meta.get("request_id") or response.headers.get("x-request-id"),
        "errors": [_error_summary(e) for e in errors],
    }
    if response.status_code >= 500 and not any(e.get("code") in KNOWN_ERRORS for e in errors):
        # The airline may have acted before the error (Duffel's own advice: check the order).
        return _failure(effect, UNAVAILABLE, UNCERTAIN, details)
    return _error(_classify(response.status_code, errors, not_found), details)


def _classify(status: int, errors: list[dict], not_found: tuple[str, str]) -> tuple[str, str]:
    for error in errors:
        if error.get("code") in KNOWN_ERRORS:
            return KNOWN_ERRORS[error["code"]]
    if status == 401:
        return AUTH_FAILED
    if status == 403:
        return FORBIDDEN
    if status == 404:
        return not_found
    if status == 429:
        return RATE_LIMITED
    if status == 422 and any(e.get("type") == "validation_error" for e in errors):
        return VALIDATION
    if status >= 500:
        return UNAVAILABLE
    return REFUSED


def _error_summary(error: dict) -> dict:
    source = error.get("source")
    source = source if isinstance(source, dict) else {}
    return {
        "type": error.get("type"),
        "code": error.get("code"),
        "title": error.get("title"),
        "message": error.get("message"),
        "field": source.get("pointer") or source.get("field"),
    }


# --- Offers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _OfferContext:
    passenger_ids: tuple[str, ...]  # the search's, in our order
    cabin_class: CabinClass  # the one asked for, when a segment does not say


def _passenger_ids(data: dict, kinds: tuple[PassengerType, ...]) -> tuple[str, ...]:
    """Duffel's passenger ids in the order of our search's passengers. Each of ours takes the
    first unused Duffel passenger of its kind (by `type`, or by `age` for those searched by
    age); when the kinds cannot be told apart, Duffel's order (the order we sent them in).
    Names Duffel may carry on them (given_name, family_name) are not read."""
    passengers = [p for p in data.get("passengers") or [] if isinstance(p, dict)]
    if len(passengers) != len(kinds):
        raise _Unreadable(f"{len(passengers)} passengers for {len(kinds)} searched")
    unused = list(passengers)
    matched = []
    for kind in kinds:
        match = next((p for p in unused if _passenger_kind(p) == kind), None)
        if match is None:
            return tuple(str(p["id"]) for p in passengers)
        unused.remove(match)
        matched.append(str(match["id"]))
    return tuple(matched)


def _passenger_kind(passenger: dict) -> str | None:
    if passenger.get("type"):
        return passenger["type"]
    age = passenger.get("age")
    if isinstance(age, int) and not isinstance(age, bool):
        return "infant_without_seat" if age < 2 else "child" if age < 12 else "adult"
    return None


def offer_from(raw: dict, context: _OfferContext) -> SupplierOffer:
    total = _decimal(raw["total_amount"])
    base, tax = _base_and_tax(raw, total)
    requirements = raw.get("payment_requirements") or {}
    instant = bool(requirements.get("requires_instant_payment"))
    conditions = raw.get("conditions") or {}
    slices = tuple(slice_from(s, context) for s in raw["slices"])
    if not slices:
        raise _Unreadable("offer without slices")
    return SupplierOffer(
        supplier_offer_id=str(raw["id"]),
        owner=_iata(raw.get("owner")),
        total_amount=total,
        base_amount=base,
        tax_amount=tax,
        total_currency=str(raw["total_currency"]),
        slices=slices,
        refund_before_departure=condition_from(conditions.get("refund_before_departure")),
        change_before_departure=condition_from(conditions.get("change_before_departure")),
        requires_instant_payment=instant,
        expires_at=utc_instant(raw["expires_at"]),
        payment_required_by=None if instant else _utc_or_none(requirements, "payment_required_by"),
        price_guarantee_expires_at=(
            None if instant else _utc_or_none(requirements, "price_guarantee_expires_at")
        ),
        supplier_passenger_ids=context.passenger_ids,
    )


def _base_and_tax(raw: dict, total: Decimal) -> tuple[Decimal, Decimal]:
    """Base and tax in the total's currency. Duffel gives each its own currency (base_currency,
    tax_currency); one in another currency cannot be added to the total's, so it is treated
    as missing."""
    currency = raw["total_currency"]
    base = _decimal_or_none(raw.get("base_amount"))
    tax = _decimal_or_none(raw.get("tax_amount"))
    if raw.get("base_currency") not in (None, "", currency):
        base = None
    if raw.get("tax_currency") not in (None, "", currency):
        tax = None
    if tax is None:
        return (total, Decimal("0.00")) if base is None else (base, total - base)
    if base is None:
        return total - tax, tax
    return base, tax


def condition_from(raw: dict | None) -> Condition:
    """Null (the airline did not say) or not allowed: not allowed."""
    if not raw or not raw.get("allowed"):
        return Condition(allowed=False)
    penalty = _decimal_or_none(raw.get("penalty_amount"))
    return Condition(
        allowed=True,
        penalty_amount=penalty,
        penalty_currency=raw.get("penalty_currency") if penalty is not None else None,
    )


def slice_from(raw: dict, context: _OfferContext) -> SupplierSlice:
    raw_segments = raw["segments"]
    segments = tuple(segment_from(s, context) for s in raw_segments)
    if not segments:
        raise _Unreadable("slice without segments")
    minutes = duration_minutes(raw.get("duration"))
    if minutes is None:
        first, last = raw_segments[0], raw_segments[-1]
        minutes = _elapsed_minutes(
            first["origin"], segments[0].departing_at, last["destination"], segments[-1].arriving_at
        )
    if minutes is None:
        minutes = sum(s.duration_minutes for s in segments)
    return SupplierSlice(
        origin=segments[0].origin,
        destination=segments[-1].destination,
        duration_minutes=minutes,
        segments=segments,
        fare_brand_name=raw.get("fare_brand_name") or "",
    )


def segment_from(raw: dict, context: _OfferContext) -> SupplierSegment:
    origin, destination = _iata(raw["origin"]), _iata(raw["destination"])
    if not origin or not destination:
        raise _Unreadable("segment without airports")
    departing_at, arriving_at = local_time(raw["departing_at"]), local_time(raw["arriving_at"])
    minutes = duration_minutes(raw.get("duration"))
    if minutes is None:
        minutes = _elapsed_minutes(raw["origin"], departing_at, raw["destination"], arriving_at)
    marketing = _iata(raw.get("marketing_carrier"))
    operating = _iata(raw.get("operating_carrier")) or marketing
    marketing_number = str(raw["marketing_carrier_flight_number"])
    operating_number = raw.get("operating_carrier_flight_number") or (
        marketing_number if operating == marketing else ""
    )
    passenger = _lead_passenger(raw.get("passengers") or [], context.passenger_ids[0])
    cabin = passenger.get("cabin_class") or context.cabin_class
    return SupplierSegment(
        origin=origin,
        destination=destination,
        origin_terminal=raw.get("origin_terminal") or None,
        destination_terminal=raw.get("destination_terminal") or None,
        departing_at=departing_at,
        arriving_at=arriving_at,
        marketing_carrier=marketing,
        marketing_flight_number=marketing_number,
        operating_carrier=operating,
        operating_flight_number=str(operating_number),
        aircraft=_iata(raw.get("aircraft")),
        duration_minutes=minutes or 0,
        distance_km=_distance_km(raw.get("distance"), origin, destination),
        cabin_class=cabin,
        cabin_class_marketing_name=(
            passenger.get("cabin_class_marketing_name") or cabin.replace("_", " ").title()
        ),
        fare_basis_code=passenger.get("fare_basis_code") or "",
        baggages=tuple(
            Baggage(type=b["type"], quantity=int(b["quantity"]))
            for b in passenger.get("baggages") or []
            if b.get("type") in BAGGAGE_TYPES
        ),
    )


def _lead_passenger(passengers: list[dict], lead_id: str) -> dict:
    """The segment details of the search's first passenger (else of the first listed)."""
    for passenger in passengers:
        if passenger.get("passenger_id") == lead_id:
            return passenger
    return passengers[0] if passengers else {}


def _distance_km(value, origin: str, destination: str) -> Decimal:
    distance = _decimal_or_none(value)
    if distance is not None:
        return distance
    if airports.airport(origin) and airports.airport(destination):
        return airports.great_circle_km(origin, destination)
    return Decimal("0")


def _iata(thing: dict | None) -> str:
    """The iata_code of a Duffel airline, airport or aircraft object ("" when absent)."""
    return str((thing or {}).get("iata_code") or "")


# --- Orders and cancellations ------------------------------------------------------------------


def order_from(data: dict) -> SupplierOrder:
    status = data.get("payment_status") or {}
    passengers = data.get("passengers") or []
    sole_passenger = str(passengers[0]["id"]) if len(passengers) == 1 else ""
    documents = tuple(
        TicketDocument(
            supplier_passenger_id=str((doc.get("passenger_ids") or [sole_passenger])[0]),
            unique_identifier=str(doc["unique_identifier"]),
        )
        for doc in data.get("documents") or []
        if (doc.get("type") or "electronic_ticket") == "electronic_ticket"
    )
    return SupplierOrder(
        supplier_order_id=str(data["id"]),
        booking_reference=str(data.get("booking_reference") or ""),
        documents=documents,
        payment_required_by=_utc_or_none(status, "payment_required_by"),
        price_guarantee_expires_at=_utc_or_none(status, "price_guarantee_expires_at"),
        awaiting_payment=status.get("awaiting_payment") is True,
        cancelled=bool(data.get("cancelled_at")),
    )


def _orders_page(body) -> tuple[list[dict], str | None]:
    """The orders of one `GET /air/orders` page and the cursor of the next (None: the last)."""
    if not isinstance(body, dict) or not isinstance(body.get("data"), list):
        raise _Unreadable("no list of orders")
    meta = body.get("meta")
    if not isinstance(meta, dict) or "after" not in meta:
        raise _Unreadable("no pagination cursor")  # cannot tell whether the listing is complete
    orders = body["data"]
    if not all(isinstance(order, dict) for order in orders):
        raise _Unreadable("an order that is not an object")
    return orders, meta["after"] or None


def _carries_booking_id(raw: dict, booking_id: str) -> bool:
    metadata = raw.get("metadata")
    return isinstance(metadata, dict) and metadata.get(METADATA_BOOKING_ID) == booking_id


def quote_from(data: dict) -> CancellationQuote:
    refund = _decimal_or_none(data.get("refund_amount"))
    return CancellationQuote(
        supplier_quote_id=str(data["id"]),
        refund_amount=Decimal("0.00") if refund is None else refund,
        refund_currency=str(data.get("refund_currency") or ""),
        expires_at=_utc_or_none(data, "expires_at"),
    )


# --- Values ------------------------------------------------------------------------------------


def _decimal(value) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise _Unreadable(f"not an amount: {value!r}")
    amount = Decimal(value)
    if not amount.is_finite():
        raise _Unreadable(f"not an amount: {value!r}")
    return amount


def _decimal_or_none(value) -> Decimal | None:
    return None if value is None or value == "" else _decimal(value)


def utc_instant(text: str) -> datetime:
    """An aware UTC datetime from Duffel's ISO 8601 ("2027-02-01T14:29:50.123456Z"); a time
    without an offset is UTC, as Duffel's instants are."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _utc_or_none(source: dict, key: str) -> datetime | None:
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


def _zone(place: dict) -> ZoneInfo | None:
    name = place.get("time_zone")
    if not name:
        known = airports.airport(_iata(place))
        name = known.time_zone if known else None
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _elapsed_minutes(
    origin: dict, departing_at: datetime, destination: dict, arriving_at: datetime
) -> int | None:
    """Minutes between two local times at two places, or None without their time zones."""
    start_zone, end_zone = _zone(origin), _zone(destination)
    if start_zone is None or end_zone is None:
        return None
    elapsed = arriving_at.replace(tzinfo=end_zone) - departing_at.replace(tzinfo=start_zone)
    minutes = int(elapsed.total_seconds() // 60)
    return minutes if minutes >= 0 else None
