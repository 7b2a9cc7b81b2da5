"""What Duffel's failures become: a SupplierError, or a SupplierOutcomeUnknown when the call may
have taken effect, with an agency-safe message and a code, each in the error catalogue
(docs/errors.md)."""

from decimal import InvalidOperation

from core.exceptions import register_error
from flights.suppliers.base import SupplierError, SupplierOutcomeUnknown

# What a call changes at the airline, hence what a lost or unreadable answer means:
READ = "read"  # nothing: a plain failure
CHANGE = "change"  # something (a cancellation): a failure whose message says to check first
OUTCOME = "outcome"  # an order or a payment: SupplierOutcomeUnknown, reconciled later

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
AIRLINE_CHANGE_NOT_FOUND = (NOT_FOUND[0], "Unknown Duffel airline-initiated change")
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


# Every code and message above is in the error catalogue (docs/errors.md), under the package's
# name: the module callers know.
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
    AIRLINE_CHANGE_NOT_FOUND,
    ORDER_PENDING,
    *KNOWN_ERRORS.values(),
):
    register_error(_code, SupplierError.status_code, _message, module="flights.suppliers.duffel")


def supplier_error(pair: tuple[str, str], details=None) -> SupplierError:
    code, message = pair
    return SupplierError(message, code=code, details=details)


def outcome_unknown(pair: tuple[str, str], details=None) -> SupplierOutcomeUnknown:
    code, message = pair
    return SupplierOutcomeUnknown(message, code=code, details=details)


def failure(effect: str, sure: tuple[str, str], check: tuple[str, str], details) -> SupplierError:
    """The error of a failure that may have taken effect: for an order or a payment
    SupplierOutcomeUnknown; for another change a refusal whose message says to check first."""
    if effect == OUTCOME:
        return outcome_unknown(OUTCOME_UNKNOWN, details)
    return supplier_error(check if effect == CHANGE else sure, details)


class Unreadable(Exception):
    """A successful answer without the fields we need."""


# What reading a malformed answer raises.
READ_ERRORS = (Unreadable, KeyError, TypeError, ValueError, AttributeError, InvalidOperation)
