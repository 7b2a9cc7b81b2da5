"""Issuing a confirmed booking's tickets (the `issue_tickets` task's service, and support's
check of stuck ticketing), and the periodic job that queues ticketing again when it is stuck."""

from datetime import datetime, timedelta

from django.utils import timezone

from bookings.models import Booking
from bookings.services.recording import record_failure, record_order, record_outcome_unknown
from bookings.tasks import issue_tickets as issue_tickets_task
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import (
    FlightSupplier,
    SupplierError,
    SupplierOrder,
    SupplierOutcomeUnknown,
)


def booking_issue_tickets(*, booking_id: str) -> Booking:
    """Issue a confirmed booking's tickets. Idempotent: a booking that is not `confirmed` is
    left alone, and a payment the supplier already took is read back, not made again."""
    booking = Booking.objects.get(pk=booking_id)
    if (
        booking.status != Booking.Status.CONFIRMED
        or booking.outcome_unknown_since  # the reconcile job settles it, never a blind retry
        or not booking.supplier_order_id
    ):
        return booking
    supplier = supplier_for_booking(booking)
    try:
        order = supplier.pay_order(
            order_id=booking.supplier_order_id,
            amount=booking.total_amount,
            currency=booking.total_currency,
        )
    except SupplierOutcomeUnknown as exc:  # the payment may have been taken
        return record_outcome_unknown(booking, exc)
    except SupplierError as exc:
        issued = _already_issued(supplier, booking)
        if issued is None:
            return record_failure(booking, exc)
        order = issued
    return record_order(booking, order)


def _already_issued(supplier: FlightSupplier, booking: Booking) -> SupplierOrder | None:
    """After a crash between paying and recording, the supplier has the tickets already."""
    try:
        order = supplier.get_order(booking.supplier_order_id)
    except SupplierError:
        return None
    return order if order.documents else None


# Ticketing confirmed this long ago and not done: its task message was lost or its worker killed.
STUCK_CONFIRMED_AFTER = timedelta(minutes=5)


def bookings_stuck_confirmed_requeue(*, now: datetime | None = None) -> int:
    """Queue ticketing again for bookings confirmed more than 5 minutes ago and still not
    ticketed (issuing is idempotent). Unknown outcomes are the reconcile job's, never re-paid."""
    cutoff = (now or timezone.now()) - STUCK_CONFIRMED_AFTER
    stuck = Booking.objects.filter(
        status=Booking.Status.CONFIRMED,
        confirmed_at__lte=cutoff,
        outcome_unknown_since__isnull=True,
    )
    booking_ids = list(stuck.values_list("id", flat=True))
    for booking_id in booking_ids:
        issue_tickets_task.delay(booking_id)
    return len(booking_ids)
