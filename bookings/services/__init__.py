"""Bookings' services, split by action: `creation`, `lifecycle` (confirm, ticket, cancel,
expire and their periodic jobs) and `outcomes` (the supplier's answers). The names other modules
use are re-exported here; the errors live in `bookings.errors`, the wire shapes in
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
)
from bookings.payloads import booking_event_object, booking_object
from bookings.services.creation import booking_create, booking_offer_get
from bookings.services.lifecycle import (
    REMINDER_BEFORE_DEADLINE,
    STUCK_CONFIRMED_AFTER,
    CancelPreview,
    _refund_due,
    booking_cancel,
    booking_cancel_preview,
    booking_confirm,
    booking_expire,
    booking_holds_expire_due,
    booking_issue_tickets,
    bookings_stuck_confirmed_requeue,
    payment_reminders_queue,
)
from bookings.services.outcomes import (
    CHECK_LEASE,
    ORDER_LOOKBACK,
    booking_check_with_supplier,
    booking_outcome_check,
    booking_outcome_mark_interrupted,
    bookings_interrupted,
    bookings_outcomes_reconcile,
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
    "CancelPreview",
    "InstantPaymentRequired",
    "OfferAlreadyBooked",
    "OfferExpired",
    "OfferNotFound",
    "OrderAbsent",
    "_refund_due",  # bookings.emails: the refund rule booking_cancel applies
    "booking_cancel",
    "booking_cancel_preview",
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
    "bookings_interrupted",
    "bookings_outcomes_reconcile",
    "bookings_stuck_confirmed_requeue",
    "payment_reminders_queue",
]
