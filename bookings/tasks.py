"""Celery tasks: each calls one service (the rules live in bookings/services/)."""

from celery import shared_task


@shared_task(acks_late=True)
def issue_tickets(booking_id: str) -> str:
    from bookings.services import booking_issue_tickets

    return booking_issue_tickets(booking_id=booking_id).status


@shared_task
def expire_holds() -> int:
    from bookings.services import booking_holds_expire_due

    return booking_holds_expire_due()


@shared_task
def issue_stuck_confirmed() -> int:
    from bookings.services import bookings_stuck_confirmed_requeue

    return bookings_stuck_confirmed_requeue()


@shared_task
def reconcile_supplier_outcomes() -> int:
    from bookings.services import bookings_outcomes_reconcile

    return len(bookings_outcomes_reconcile())


@shared_task(acks_late=True)
def check_supplier_outcome(booking_id: str) -> str:
    from bookings.services import booking_outcome_check

    return booking_outcome_check(booking_id=booking_id)


@shared_task(acks_late=True)
def check_cancellation_outcome(cancellation_id: str) -> str:
    from bookings.services import booking_cancellation_check

    return booking_cancellation_check(cancellation_id=cancellation_id)


@shared_task(acks_late=True)
def check_services_outcome(purchase_id: str) -> str:
    from bookings.services.extras import booking_services_check

    return booking_services_check(purchase_id=purchase_id)


@shared_task(acks_late=True)
def check_change_outcome(change_offer_id: str) -> str:
    from bookings.services.changes import booking_change_check

    return booking_change_check(change_offer_id=change_offer_id)


@shared_task(acks_late=True)
def send_booking_email(email_id: int) -> bool:
    from bookings.emails import email_send

    return email_send(email_id=email_id)


@shared_task
def send_payment_reminders() -> int:
    from bookings.services import payment_reminders_queue

    return payment_reminders_queue()


@shared_task
def erase_expired_passenger_data() -> int:
    """Erase passengers' personal data past its retention (bookings/retention.py)."""
    from bookings.retention import erase_expired_passenger_data as erase

    return erase()


@shared_task
def check_airline_changes() -> int:
    """Beat, every AIRLINE_CHANGES_CHECK_INTERVAL_SECONDS: one check task per booking due."""
    from bookings.services import bookings_airline_changes_due

    due = bookings_airline_changes_due()
    for booking_id in due:
        check_booking_airline_changes.delay(booking_id)
    return len(due)


@shared_task(acks_late=True)
def check_booking_airline_changes(booking_id: str) -> int:
    from bookings.services import booking_airline_changes_check

    return booking_airline_changes_check(booking_id=booking_id)


@shared_task(acks_late=True)
def send_airline_change_email(change_id: str) -> bool:
    from bookings.emails import airline_change_email_send

    return airline_change_email_send(change_id=change_id)
