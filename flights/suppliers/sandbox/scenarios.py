"""The sandbox's scenarios (documented in docs/sandbox.md): the magic inputs that make a search
or an order fail, and the refusals they give."""

from collections.abc import Iterable

from flights.suppliers.base import (
    OrderPassenger,
    SearchRequest,
    SupplierError,
    SupplierOutcomeUnknown,
)

# A slice between these two airports (either way) returns no offers at all.
NO_OFFERS_ROUTE = ("CGH", "GRU")
# A slice between these two airports (either way) makes the search fail with SupplierError.
SUPPLIER_ERROR_ROUTE = ("GIG", "SDU")
# A passenger with this family name (any case) makes ticketing fail: create_order(instant=True)
# and pay_order raise SupplierError(code="issuance_failed"). A hold still succeeds.
ISSUANCE_FAILURE_FAMILY_NAME = "Issuancefail"
# Uncertain answers (a passenger's family name, any case), for ordering (hold or instant) and
# for paying a hold: the call raises SupplierOutcomeUnknown, and the truth is found later with
# find_order / get_order, as with a real airline.
# - the order (or payment) is made, but its answer is lost (a read timeout after sending);
ANSWER_LOST_FAMILY_NAME = "Answerlost"
# - nothing is made, and the answer is a 5xx;
SUPPLIER_DOWN_FAMILY_NAME = "Supplierdown"
# - the airline accepts the order without confirming it (Duffel's 202 order_pending); its
#   tickets appear ORDER_PENDING_SECONDS later.
ORDER_PENDING_FAMILY_NAME = "Orderpending"
ORDER_PENDING_SECONDS = 60
# - creating a hold: the hold is made, but its answer is lost.
HOLD_ANSWER_LOST_FAMILY_NAME = "Holdlost"
# Cancellations (a passenger's family name, any case), whatever the fare's stored conditions:
# - the airline refunds half of what the conditions promise (quote and confirmation);
REFUND_LOWER_FAMILY_NAME = "Refundlow"
# - the quote follows the conditions, the confirmation refunds half of it (the confirmed wins);
REFUND_DROPS_FAMILY_NAME = "Refunddrop"
# - the refund goes to a voucher / to airline credits (one per passenger), never to cash;
REFUND_VOUCHER_FAMILY_NAME = "Refundvoucher"
REFUND_CREDITS_FAMILY_NAME = "Refundcredits"
# - the quote expires QUOTE_SHORT_SECONDS after it is made;
QUOTE_EXPIRES_FAMILY_NAME = "Quoteexpires"
QUOTE_SHORT_SECONDS = 5
# - the order is cancelled, but the confirmation's answer is lost (found later in the order).
CANCEL_ANSWER_LOST_FAMILY_NAME = "Cancellost"
# Airline-initiated changes (a passenger's family name, any case): once the order is made, the
# airline moves its first slice SCHEDULE_CHANGE_MINUTES later (a schedule change to accept, or
# to cancel on, flights/suppliers/sandbox/changes.py).
SCHEDULE_CHANGE_FAMILY_NAME = "Schedulechange"
SCHEDULE_CHANGE_MINUTES = 155
# - a hold without a price guarantee whose price the airline raises by PRICE_CHANGE_PERCENT: read
#   back, the order costs more; paying the offer's total is refused with `price_changed`.
PRICE_CHANGE_FAMILY_NAME = "Pricechange"
PRICE_CHANGE_PERCENT = 10
# Each scenario's flag in the order ids.
SCENARIO_FLAGS = {
    ANSWER_LOST_FAMILY_NAME: "l",
    SUPPLIER_DOWN_FAMILY_NAME: "d",
    ORDER_PENDING_FAMILY_NAME: "p",
    HOLD_ANSWER_LOST_FAMILY_NAME: "h",
    REFUND_LOWER_FAMILY_NAME: "w",
    REFUND_DROPS_FAMILY_NAME: "r",
    REFUND_VOUCHER_FAMILY_NAME: "v",
    REFUND_CREDITS_FAMILY_NAME: "c",
    QUOTE_EXPIRES_FAMILY_NAME: "x",
    CANCEL_ANSWER_LOST_FAMILY_NAME: "k",
    SCHEDULE_CHANGE_FAMILY_NAME: "s",
    PRICE_CHANGE_FAMILY_NAME: "g",
}


def check_search_scenarios(request: SearchRequest) -> bool:
    """Raises for the supplier-error route (on any slice); False when a slice is the no-offers
    route."""
    routes = [{s.origin, s.destination} for s in request.slices]
    if set(SUPPLIER_ERROR_ROUTE) in routes:
        raise SupplierError(
            "The flight supplier is unavailable; try again later "
            f"(sandbox scenario: {'–'.join(SUPPLIER_ERROR_ROUTE)})",
            code="supplier_unavailable",
        )
    return set(NO_OFFERS_ROUTE) not in routes


def scenario_of(passengers: Iterable[OrderPassenger]) -> str:
    names = {p.family_name.strip().casefold() for p in passengers}
    return next((name for name in SCENARIO_FLAGS if name.casefold() in names), "")


def outcome_unknown(scenario: str) -> SupplierOutcomeUnknown:
    if scenario == SUPPLIER_DOWN_FAMILY_NAME:
        reason = "the supplier answered 503 and made nothing"
    elif scenario == ORDER_PENDING_FAMILY_NAME:
        reason = "the airline accepted the order without confirming it (order_pending)"
    else:
        reason = "the answer was lost after the request was sent"
    return SupplierOutcomeUnknown(
        f"The flight supplier has not confirmed the outcome yet (sandbox scenario: {reason})"
    )


def issuance_failure() -> SupplierError:
    return SupplierError(
        "The airline could not issue the tickets "
        f"(sandbox scenario: passenger family name {ISSUANCE_FAILURE_FAMILY_NAME})",
        code="issuance_failed",
    )
