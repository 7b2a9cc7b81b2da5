from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from bookings.models import Booking


@shared_task(acks_late=True)
def issue_tickets(booking_id: str) -> str:
    from bookings.services import booking_issue_tickets

    return booking_issue_tickets(booking_id=booking_id).status


@shared_task
def expire_holds() -> int:
    """Expire pending holds past their payment deadline (`booking.expired`)."""
    from bookings.services import booking_expire

    now = timezone.now()
    due = Booking.objects.filter(
        type=Booking.Type.HOLD, status=Booking.Status.PENDING, payment_required_by__lte=now
    )
    return sum(booking_expire(booking=b, now=now) for b in due.iterator())


@shared_task
def issue_stuck_confirmed() -> int:
    """Re-run ticketing for bookings confirmed more than 5 minutes ago and still not ticketed
    (a lost task message or a killed worker): issuing is idempotent."""
    cutoff = timezone.now() - timedelta(minutes=5)
    stuck = Booking.objects.filter(
        status=Booking.Status.CONFIRMED,
        confirmed_at__lte=cutoff,
        outcome_unknown_since__isnull=True,  # those are the reconcile job's, never re-paid
    )
    booking_ids = list(stuck.values_list("id", flat=True))
    for booking_id in booking_ids:
        issue_tickets.delay(booking_id)
    return len(booking_ids)


@shared_task
def reconcile_supplier_outcomes() -> int:
    """Queue a supplier check of every booking whose outcome is unknown (and mark bookings left
    without an answer by a request that died)."""
    from bookings.services import bookings_outcomes_reconcile

    return len(bookings_outcomes_reconcile())


@shared_task(acks_late=True)
def check_supplier_outcome(booking_id: str) -> str:
    from bookings.services import booking_outcome_check

    return booking_outcome_check(booking_id=booking_id)


@shared_task(acks_late=True)
def send_booking_email(email_id: int) -> bool:
    from bookings.emails import email_send

    return email_send(email_id=email_id)


REMINDER_BEFORE_DEADLINE = timedelta(hours=12)


@shared_task
def send_payment_reminders() -> int:
    """Queue the payment reminder of pending holds whose deadline is within 12 hours (once)."""
    from django.db import transaction

    from bookings.emails import email_queue
    from bookings.models import BookingEmail

    now = timezone.now()
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


@shared_task
def erase_expired_passenger_data() -> int:
    """Erase passengers' personal data past its retention (bookings/retention.py)."""
    from bookings.retention import erase_expired_passenger_data as erase

    return erase()
