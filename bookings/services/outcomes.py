"""Bookings whose outcome is unknown, and finding out what became of them: the reconcile job
(interrupted requests marked unknown, a supplier check queued for each), the check itself, and
support's "check with the supplier now". The answers are recorded by `recording`."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from bookings.errors import OrderAbsent
from bookings.models import Booking, BookingCancellation, BookingChangeOffer
from bookings.services.cancellations import (
    booking_cancellation_check,
    booking_cancellations_unsettled,
)
from bookings.services.changes import booking_change_check, booking_changes_unsettled
from bookings.services.extras import booking_services_unsettled
from bookings.services.recording import (
    AWAITING_SUPPLIER,
    record_documents_added,
    record_failure,
    record_hold,
    record_outcome_unknown,
    record_ticketed,
)
from bookings.services.supplier_orders import claim_check, look_up_order, release_check
from bookings.services.ticketing import booking_issue_tickets
from bookings.tasks import check_cancellation_outcome as check_cancellation_outcome_task
from bookings.tasks import check_change_outcome as check_change_outcome_task
from bookings.tasks import check_services_outcome as check_services_outcome_task
from bookings.tasks import check_supplier_outcome as check_supplier_outcome_task
from core.exceptions import ApplicationError
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import SupplierOrder, SupplierOutcomeUnknown


def _note_check(booking_id: str, note: str) -> None:
    Booking.objects.filter(pk=booking_id).update(
        outcome_checked_at=timezone.now(), outcome_note=note[:255]
    )


def booking_outcome_check(*, booking_id: str) -> str:
    """Ask the supplier what became of a booking whose outcome is unknown, and settle it as the
    first answer would have: "ticketed", "held", or "failed" (nothing issued, certainly, after
    SUPPLIER_UNKNOWN_GRACE_SECONDS: refunded in full). "unknown" while the supplier cannot tell
    or has not issued yet; "busy" when another check holds the booking; "settled" when there is
    nothing left to find out. Never moves money on an answer it could not read."""
    if not claim_check(booking_id):
        return "busy"
    try:
        booking = Booking.objects.select_related("team").get(pk=booking_id)
        if booking.outcome_unknown_since is None or booking.status not in AWAITING_SUPPLIER:
            return "settled"
        try:
            order = look_up_order(supplier_for_booking(booking), booking)
        except ApplicationError as exc:  # unreachable, unreadable, not connected: ask again
            _note_check(booking.pk, f"check failed, {exc.code}: {exc.message}")
            return "unknown"
        return _settle(booking, order)
    finally:
        release_check(booking_id)


def _settle(booking: Booking, order: SupplierOrder | None) -> str:
    if order is not None and not order.cancelled:
        if order.documents:
            record_ticketed(booking, order)
            return "ticketed"
        if (
            booking.type == Booking.Type.HOLD
            and booking.status == Booking.Status.PENDING
            and order.awaiting_payment
        ):
            record_hold(booking, order)
            return "held"
        if not order.awaiting_payment:  # paid at the airline: never refunded from here
            _note_check(booking.pk, "paid at the supplier; the airline has not issued yet")
            return "unknown"
    # Absent, cancelled, or the payment was never taken: certain once the grace period is over
    # (an airline may take a while to show an order it accepted).
    grace = timedelta(seconds=settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
    assert booking.outcome_unknown_since is not None  # only unknown outcomes are checked
    if timezone.now() - booking.outcome_unknown_since < grace:
        _note_check(booking.pk, "no issued order at the supplier yet; waiting for the grace period")
        return "unknown"
    settled = record_failure(booking, OrderAbsent(), only_if_unknown=True)
    return "failed" if settled.status == Booking.Status.FAILED else "settled"


def booking_outcome_mark_interrupted(*, booking: Booking) -> Booking:
    """A booking left pending without a supplier order by a request that died: its outcome
    is unknown from now on, and the reconcile job finds out."""
    return record_outcome_unknown(
        booking,
        SupplierOutcomeUnknown(
            "The booking request ended before the supplier answered", code="request_interrupted"
        ),
    )


def bookings_interrupted(*, now: datetime | None = None) -> QuerySet[Booking]:
    """Bookings left pending without a supplier order by a request that is certainly over (older
    than the longest a request may wait on the supplier), not yet marked unknown."""
    cutoff = (now or timezone.now()) - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT
    return Booking.objects.filter(
        status=Booking.Status.PENDING,
        supplier_order_id="",
        outcome_unknown_since__isnull=True,
        created_at__lt=cutoff,
    )


def bookings_outcomes_reconcile(*, now: datetime | None = None) -> list[str]:
    """The periodic job: mark interrupted bookings unknown, then queue a supplier check of each
    unknown booking not checked in the last interval. Returns the ids queued."""
    now = now or timezone.now()
    for booking in bookings_interrupted(now=now).iterator():
        booking_outcome_mark_interrupted(booking=booking)
    recently = now - timedelta(seconds=settings.SUPPLIER_RECONCILE_INTERVAL_SECONDS / 2)
    due = (
        Booking.objects.filter(outcome_unknown_since__isnull=False, status__in=AWAITING_SUPPLIER)
        .filter(Q(outcome_check_lease_until__isnull=True) | Q(outcome_check_lease_until__lt=now))
        .filter(Q(outcome_checked_at__isnull=True) | Q(outcome_checked_at__lt=recently))
    )
    booking_ids = list(due.values_list("id", flat=True))
    for booking_id in booking_ids:
        check_supplier_outcome_task.delay(booking_id)
    for cancellation_id in booking_cancellations_unsettled(now=now):
        check_cancellation_outcome_task.delay(cancellation_id)
    for purchase_id in booking_services_unsettled(now=now):  # extras added after the sale
        check_services_outcome_task.delay(purchase_id)
    for change_offer_id in booking_changes_unsettled(now=now):
        check_change_outcome_task.delay(change_offer_id)
    return booking_ids


def booking_check_with_supplier(*, booking: Booking) -> str:
    """Support's "check with the supplier now": settle what can be settled at once (a
    cancellation whose confirmation's answer was lost first)."""
    unknown = booking.cancellations.filter(status=BookingCancellation.Status.UNKNOWN).first()
    if unknown is not None:
        return booking_cancellation_check(cancellation_id=unknown.pk)
    change = booking.change_offers.filter(status=BookingChangeOffer.Status.UNKNOWN).first()
    if change is not None:
        return booking_change_check(change_offer_id=change.pk)
    if booking.outcome_unknown_since is None and booking.status == Booking.Status.CONFIRMED:
        return booking_issue_tickets(booking_id=booking.pk).status  # stuck ticketing
    if booking.status == Booking.Status.TICKETED and booking.supplier_order_id:
        # Tickets the airline issued since (or an earlier answer missed): recorded.
        order = supplier_for_booking(booking).get_order(booking.supplier_order_id)
        return "documents added" if record_documents_added(booking, order) else "settled"
    if (
        booking.outcome_unknown_since is None
        and booking.status == Booking.Status.PENDING
        and not booking.supplier_order_id
        and bookings_interrupted().filter(pk=booking.pk).exists()
    ):
        booking_outcome_mark_interrupted(booking=booking)
    return booking_outcome_check(booking_id=booking.pk)
