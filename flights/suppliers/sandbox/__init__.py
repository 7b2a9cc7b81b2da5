"""The sandbox flight supplier: realistic, deterministic offers without any airline behind them,
for test mode and for our own tests.

Realistic: real airports and time zones (`flights.airports`), real airlines with their hubs,
fleets, fare brands, currencies and ticket prefixes (`flights.reference`). Flights are
hub-and-spoke: an airline flies a leg only from or to one of its hubs, flies domestic legs only
in its hubs' countries (partners operate the rest as codeshares), and flies long hauls only
between gateway airports. Durations are 30 minutes plus the great-circle distance at 800 km/h;
connections last 1 to 4 hours. Which airlines a route gets follows the regions of its ends
(domestic Brazil: Brazilian carriers; Brazil–Europe: LATAM, TAP, Iberia, Air France, KLM,
Lufthansa...); any other pair of real airports gets the airlines that can route it, and a few
direct flights as a last resort.

Deterministic: schedules (flight numbers, times, aircraft) depend only on the airline and the
airports, so a flight is the same every day, and each airline's journeys are taken best first
(direct, then one stop...). What varies from search to search (demand, taxes, which offers must
be paid at once, hold lengths, offer lifetime) comes from a `random.Random` seeded with a
SHA-256 of the requested slices, airports, dates and cabin. The passengers are left out of the
seed on purpose: adding an infant keeps the same flights and only adds the infant's fare. The
same request returns the same offers in the same order, field for field, except `expires_at`
and the payment deadlines, which are relative to `django.utils.timezone.now()`.

Fast: routes, schedules, legs and slices (everything that does not depend on the passengers or
the clock) are cached in memory, so a search mostly assembles offers; see docs/sandbox.md for
the timings.

Scenarios (documented in docs/sandbox.md) are the constants of `scenarios`.

Orders: the supplier order id carries what later calls need (state, owner, booking reference,
passengers, total, refund condition, hold deadlines, scenario) with a checksum, so `pay_order`
and `quote_cancellation` rebuild everything from it. The airline's order book
(`flights.models.SandboxOrder`, keyed by the random booking reference) records every order with
our booking id and what changes over time (paid, tickets ready at), so that `get_order` answers
the order's current state from any of its ids and `find_order` finds an order whose answer was
lost. Consequences:

- `create_order` takes the stored offer and reads, by attribute: `supplier_offer_id`, `owner`,
  `total_amount`, `total_currency`, `requires_instant_payment`, `payment_required_by`,
  `price_guarantee_expires_at`, and the refund condition from `refund_before_departure` (a
  `Condition` or a dict with `allowed`, `penalty_amount`, `penalty_currency`) or, failing that,
  from `data["conditions"]["refund_before_departure"]` (the offer as rendered for the API).
  Optional `supplier_passenger_ids` is used to check the passengers.
- Paying a hold changes the order's state, hence its id: `pay_order` returns the order under a
  new `supplier_order_id` (the same but for the state), which the caller should keep. The old id
  still works for quotes and cancellations but `get_order` on it answers "held, no tickets".
- `quote_cancellation` refunds according to the offer's refund condition whatever the state:
  total minus penalty when refundable, zero otherwise. Whether anything was paid (a hold was
  not) is the caller's knowledge.

The package, by its seams: `network` (routes and schedules), `fares` (offers, prices,
conditions), `scenarios` (the magic inputs, docs/sandbox.md), `orders` (order ids and the order
book), `supplier` (SandboxSupplier), and `common` (the small helpers they share). The names
other modules use are re-exported here.
"""

from core.exceptions import register_error
from flights.suppliers.base import SupplierError, SupplierOutcomeUnknown
from flights.suppliers.sandbox import common, fares, network
from flights.suppliers.sandbox.scenarios import (
    ANSWER_LOST_FAMILY_NAME,
    HOLD_ANSWER_LOST_FAMILY_NAME,
    ISSUANCE_FAILURE_FAMILY_NAME,
    NO_OFFERS_ROUTE,
    ORDER_PENDING_FAMILY_NAME,
    ORDER_PENDING_SECONDS,
    SCENARIO_FLAGS,
    SUPPLIER_DOWN_FAMILY_NAME,
    SUPPLIER_ERROR_ROUTE,
)
from flights.suppliers.sandbox.supplier import SandboxSupplier

__all__ = [
    "ANSWER_LOST_FAMILY_NAME",
    "HOLD_ANSWER_LOST_FAMILY_NAME",
    "ISSUANCE_FAILURE_FAMILY_NAME",
    "NO_OFFERS_ROUTE",
    "ORDER_PENDING_FAMILY_NAME",
    "ORDER_PENDING_SECONDS",
    "SCENARIO_FLAGS",
    "SUPPLIER_DOWN_FAMILY_NAME",
    "SUPPLIER_ERROR_ROUTE",
    "SandboxSupplier",
    "SupplierError",
    "SupplierOutcomeUnknown",
    "clear_caches",
]


def clear_caches() -> None:
    """Empty the sandbox's in-memory caches (routes, schedules, legs, slices); the next searches
    build them again, the same (a test checks that they never change a result)."""
    for module in (common, network, fares):
        module.clear_caches()


# What the sandbox's refusals say (the error catalogue, docs/errors.md).
for _code, _message in (
    ("supplier_unavailable", "The flight supplier is unavailable; try again later {scenario}"),
    ("supplier_error", "The sandbox could not allocate a booking reference"),
    ("order_not_found", "Unknown sandbox order"),
    ("offer_not_found", "Unknown sandbox offer"),
    ("payment_amount_mismatch", "Payment must be {amount} {currency}"),
    ("issuance_failed", "The airline could not issue the tickets {scenario}"),
    ("invalid_passenger", "Unknown passenger {passenger} for this offer"),
    ("invalid_passenger", "Each passenger of the offer must be named once"),
    ("instant_payment_required", "This offer must be paid at once; it cannot be held"),
    ("order_expired", "The hold has expired"),
    ("quote_not_found", "Unknown sandbox cancellation quote"),
    ("quote_expired", "The cancellation quote has expired"),
    ("order_already_cancelled", "The order has already been cancelled"),
    ("supplier_not_found", "Unknown sandbox airline-initiated change"),
    ("supplier_error", "This airline-initiated change has already been actioned"),
):
    register_error(_code, SupplierError.status_code, _message, module=__name__)
