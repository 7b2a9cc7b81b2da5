"""The automatic e-mails of the spec: booking confirmation, ticket issued, payment reminder,
booking cancelled. Each is a BookingEmail row written in the transaction of its trigger, then
sent by a Celery task exactly once (the row's `sent_at`)."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

from bookings.models import Booking, BookingEmail
from core.i18n import people_locale

SUBJECTS: "dict[str, StrPromise]" = {
    BookingEmail.Kind.CREATED: _("Booking %(ref)s received"),
    BookingEmail.Kind.TICKETED: _("Your e-tickets for booking %(ref)s"),
    BookingEmail.Kind.REMINDER: _("Payment due for booking %(ref)s"),
    BookingEmail.Kind.CANCELLED: _("Booking %(ref)s cancelled"),
    BookingEmail.Kind.FAILED: _("Booking %(ref)s failed: nothing was issued"),
}
CUSTOMER_ONLY = {BookingEmail.Kind.REMINDER}
# The agency tells its customer and books again: the traveller gets no e-mail of a failure.
AGENCY_ONLY = {BookingEmail.Kind.FAILED}


def email_queue(*, booking: Booking, kind: str) -> None:
    """Record the e-mail (once per booking and kind) and send it after commit. Call inside the
    transaction of the change that triggers it."""
    try:
        with transaction.atomic():
            email = BookingEmail.objects.create(booking=booking, kind=kind)
    except IntegrityError:
        return  # already queued for this booking: e-mails are sent once per trigger
    from bookings.tasks import send_booking_email

    send_booking_email.delay_on_commit(email.pk)  # type: ignore[attr-defined]  # DjangoTask


def recipients(booking: Booking, kind: str) -> list[str]:
    """Live mode: the passengers, and the team's notification address (except for customer-only
    kinds; agency-only kinds go to that address alone). Test mode: only the team's own addresses
    (its notification address and its active panel users), whatever the kind: a test key must
    not e-mail real people text its caller chose."""
    team = booking.team
    if kind in AGENCY_ONLY:
        return [team.notification_email] if team.notification_email else []
    if not booking.live_mode:
        users = team.users.filter(is_active=True).exclude(email="").order_by("pk")
        addresses = [team.notification_email, *users.values_list("email", flat=True)]
        return list(dict.fromkeys(a.lower() for a in addresses if a))
    people = list(dict.fromkeys(p.email.lower() for p in booking.passengers.all()))
    if kind not in CUSTOMER_ONLY and team.notification_email:
        people.append(team.notification_email)
    return people


def email_send(*, email_id: int) -> bool:
    """Send a queued e-mail unless it was sent already. Returns whether it was sent now."""
    with transaction.atomic():
        email = (
            BookingEmail.objects.select_for_update()
            .select_related("booking__team")
            .get(pk=email_id)
        )
        if email.sent_at is not None:
            return False
        booking = email.booking
        context = {
            "booking": booking,
            "passengers": list(booking.passengers.all()),
            "documents": list(booking.documents.all()),
            "test_mode": not booking.live_mode,
            "team": booking.team,
        }
        with people_locale():
            subject = str(SUBJECTS[email.kind]) % {"ref": booking.booking_reference or booking.id}
            if not booking.live_mode:
                subject = gettext("[TEST] %(subject)s") % {"subject": subject}
            message = EmailMultiAlternatives(
                subject=subject,
                body=render_to_string(f"emails/{email.kind}.txt", context),
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=recipients(booking, email.kind),
            )
            message.attach_alternative(
                render_to_string(f"emails/{email.kind}.html", context), "text/html"
            )
        message.send()
        email.sent_at = timezone.now()
        email.save(update_fields=["sent_at"])
    return True
