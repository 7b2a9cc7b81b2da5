"""Bookings after creation: confirm (pay a hold; its tickets are issued by `ticketing`), cancel
(with the refund of `refunds`), expire, and the periodic jobs that expire holds and queue
payment reminders."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from bookings.emails import email_queue
from bookings.errors import (
    BookingAlreadyCancelled,
    BookingAlreadyConfirmed,
    BookingNotPayable,
    BookingOutcomeUnknown,
)
from bookings.inputs import PaymentInput, payment_check
from bookings.models import Booking, BookingEmail
from bookings.payloads import cancel_refund_object
from bookings.services.cancellations import (
    booking_cancellation_confirm,
    booking_cancellation_quote,
    check_cancellable,
)
from bookings.services.recording import booking_event, clear_outcome_unknown, record_events
from bookings.tasks import issue_tickets as issue_tickets_task
from core.exceptions import ApplicationError
from wallet.models import Transaction
from wallet.services import wallet_debit
from webhooks.models import EventType


def booking_confirm(*, booking: Booking, payment: PaymentInput) -> Booking:
    """Pay a hold from the wallet: `confirmed`, then tickets are issued by a task."""
    payment_check(payment=payment, amount=booking.total_amount, currency=booking.total_currency)
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if booking.status in (Booking.Status.CONFIRMED, Booking.Status.TICKETED):
            raise BookingAlreadyConfirmed()
        if booking.status == Booking.Status.CANCELLED:
            raise BookingAlreadyCancelled()
        if booking.status != Booking.Status.PENDING:
            raise BookingNotPayable(details={"status": booking.status})
        if booking.outcome_unknown_since or not booking.supplier_order_id:
            raise BookingOutcomeUnknown()  # no hold known at the supplier to pay for yet
        if booking.payment_required_by and booking.payment_required_by <= timezone.now():
            raise BookingNotPayable(
                "The payment deadline has passed; search again", details={"status": "expired"}
            )
        wallet_debit(
            team=booking.team,
            live_mode=booking.live_mode,
            amount=booking.base_cost_brl,
            reference_type=Transaction.ReferenceType.BOOKING,
            reference_id=booking.id,
            description=f"Booking {booking.id} ({booking.owner['iata_code']})",
        )
        booking.status = Booking.Status.CONFIRMED
        booking.confirmed_at = timezone.now()
        booking.save()
        record_events(
            booking,
            booking_event(
                booking, EventType.BOOKING_CONFIRMED, previous={"status": Booking.Status.PENDING}
            ),
        )
        issue_tickets_task.delay_on_commit(booking.id)  # type: ignore[attr-defined]  # DjangoTask
    return booking


def booking_cancel(*, booking: Booking) -> tuple[Booking, dict]:
    """The spec's DELETE: a quote from the supplier confirmed at once (`cancellations`); returns
    the booking and the spec's `refund` object, with what the wallet was credited."""
    quote = booking_cancellation_quote(booking=booking)
    cancellation = booking_cancellation_confirm(booking=booking, cancellation_id=quote.pk)
    booking = Booking.objects.get(pk=booking.pk)
    return booking, cancel_refund_object(booking, cancellation)


def booking_cancellable(*, booking: Booking) -> bool:
    """Whether the booking can be cancelled in its state (no call to the supplier)."""
    try:
        check_cancellable(booking)
    except ApplicationError:
        return False
    return True


def booking_expire(*, booking: Booking, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if (
            booking.status != Booking.Status.PENDING
            or booking.type != Booking.Type.HOLD  # an instant booking is paid, never expires
            or not booking.payment_required_by
            or (booking.payment_required_by > now)
        ):
            return False
        booking.status = Booking.Status.EXPIRED
        clear_outcome_unknown(booking)  # the hold lapsed at the airline too: nothing to find
        booking.save()
        record_events(
            booking,
            booking_event(
                booking, EventType.BOOKING_EXPIRED, previous={"status": Booking.Status.PENDING}
            ),
        )
    return True


def booking_holds_expire_due(*, now: datetime | None = None) -> int:
    """Expire pending holds past their payment deadline (`booking.expired`)."""
    now = now or timezone.now()
    due = Booking.objects.filter(
        type=Booking.Type.HOLD, status=Booking.Status.PENDING, payment_required_by__lte=now
    )
    return sum(booking_expire(booking=b, now=now) for b in due.iterator())


# The payment reminder goes this long before a hold's deadline.
REMINDER_BEFORE_DEADLINE = timedelta(hours=12)


def payment_reminders_queue(*, now: datetime | None = None) -> int:
    """Queue the payment reminder of pending holds whose deadline is within 12 hours (once)."""
    now = now or timezone.now()
    due = Booking.objects.filter(
        status=Booking.Status.PENDING,
        payment_required_by__gt=now,
        payment_required_by__lte=now + REMINDER_BEFORE_DEADLINE,
    ).exclude(emails__kind=BookingEmail.Kind.REMINDER)
    count = 0
    for booking in due.iterator():
        with transaction.atomic():
            email_queue(booking=booking, kind=BookingEmail.Kind.REMINDER)
        count += 1
    return count
