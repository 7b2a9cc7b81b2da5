"""Bookings' services, split by action: `creation`, `lifecycle` (confirm, cancel, expire and
their periodic jobs), `ticketing` (issuing a confirmed booking's tickets), `outcomes`
(unknown outcomes: the reconcile job and support's check), `cancellations` (quoted and confirmed
at the supplier), `airline_changes` (the airline's changes, after the sale) and `changes` (a
booking's flights changed at the supplier, on request). Beneath them, the helpers they share:
`recording` (the supplier's answers and the booking's events), `supplier_orders` (the booking's
order at the supplier and the check lease) and `refunds` (the refund rule). The names other
modules use are re-exported here; the errors live in `bookings.errors`, the wire shapes in
`bookings.payloads`."""

from bookings.errors import (
    BookingAlreadyCancelled,
    BookingAlreadyConfirmed,
    BookingNotCancellable,
    BookingNotPayable,
    BookingOutcomeUnknown,
    InstantPaymentRequired,
    OfferAlreadyBooked,
    OfferExpired,
    OfferNotFound,
    OrderAbsent,
    PriceChanged,
)
from bookings.payloads import booking_event_object, booking_object, cancel_refund_object
from bookings.services.airline_changes import (
    airline_change_object,
    booking_airline_change_accept,
    booking_airline_change_list,
    booking_airline_changes_check,
    booking_airline_changes_sync,
    bookings_airline_changes_due,
    duffel_order_bookings,
    moved_slices,
)
from bookings.services.cancellations import (
    booking_cancellation_check,
    booking_cancellation_confirm,
    booking_cancellation_get,
    booking_cancellation_list,
    booking_cancellation_quote,
    booking_cancellations_unsettled,
    cancellation_object,
)
from bookings.services.changes import (
    booking_change_check,
    booking_change_confirm,
    booking_change_request,
    booking_changes_unsettled,
    change_request_object,
)
from bookings.services.creation import booking_create, booking_offer_get
from bookings.services.lifecycle import (
    REMINDER_BEFORE_DEADLINE,
    booking_cancel,
    booking_cancellable,
    booking_confirm,
    booking_expire,
    booking_holds_expire_due,
    payment_reminders_queue,
)
from bookings.services.outcomes import (
    booking_check_with_supplier,
    booking_outcome_check,
    booking_outcome_mark_interrupted,
    bookings_interrupted,
    bookings_outcomes_reconcile,
)
from bookings.services.refunds import refund_due
from bookings.services.supplier_orders import CHECK_LEASE, ORDER_LOOKBACK
from bookings.services.ticketing import (
    STUCK_CONFIRMED_AFTER,
    booking_issue_tickets,
    bookings_stuck_confirmed_requeue,
)

__all__ = [
    "CHECK_LEASE",
    "ORDER_LOOKBACK",
    "REMINDER_BEFORE_DEADLINE",
    "STUCK_CONFIRMED_AFTER",
    "BookingAlreadyCancelled",
    "BookingAlreadyConfirmed",
    "BookingNotCancellable",
    "BookingNotPayable",
    "BookingOutcomeUnknown",
    "InstantPaymentRequired",
    "OfferAlreadyBooked",
    "OfferExpired",
    "OfferNotFound",
    "OrderAbsent",
    "PriceChanged",
    "airline_change_object",
    "booking_airline_change_accept",
    "booking_airline_change_list",
    "booking_airline_changes_check",
    "booking_airline_changes_sync",
    "booking_cancel",
    "booking_cancellable",
    "booking_cancellation_check",
    "booking_cancellation_confirm",
    "booking_cancellation_get",
    "booking_cancellation_list",
    "booking_cancellation_quote",
    "booking_cancellations_unsettled",
    "booking_change_check",
    "booking_change_confirm",
    "booking_change_request",
    "booking_changes_unsettled",
    "booking_check_with_supplier",
    "booking_confirm",
    "booking_create",
    "booking_event_object",
    "booking_expire",
    "booking_holds_expire_due",
    "booking_issue_tickets",
    "booking_object",
    "booking_offer_get",
    "booking_outcome_check",
    "booking_outcome_mark_interrupted",
    "bookings_airline_changes_due",
    "bookings_interrupted",
    "bookings_outcomes_reconcile",
    "bookings_stuck_confirmed_requeue",
    "cancel_refund_object",
    "cancellation_object",
    "change_request_object",
    "duffel_order_bookings",
    "moved_slices",
    "payment_reminders_queue",
    "refund_due",  # bookings.emails: the refund rule booking_cancel applies
]
