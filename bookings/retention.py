"""Retention of passengers' personal data (LGPD: kept only as long as its purpose needs it).

PASSENGER_DATA_RETENTION_DAYS after a booking's travel ended (the last arrival of its last
slice, whatever the booking's status), a daily job erases its passengers' names, e-mails,
phones, birth dates, identity documents and loyalty accounts, in the booking and in the payloads
of its stored events. What stays: the booking with its amounts, status, references, route and
tickets, the ledger and the events themselves (with the erased marker): the money records. The
client record made from the lead passenger is erased with the last of its bookings; a client the
agency created (API or panel) is its own record, kept until the agency changes it. The erasure
is a `booking.updated` whose `previous_attributes` name `passengers` with the erased marker: the
erased values are never sent again."""

from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agencies.models import Client
from bookings.models import Booking, BookingPassenger
from bookings.payloads import booking_event_object
from core.timestamps import business_date
from webhooks.models import Event, EventType
from webhooks.services import NewEvent, events_record

ERASED = "[erased]"
# A booking's events carry its passengers (bookings.payloads._passenger_objects): these keys.
_EVENT_PASSENGER_FIELDS = {
    "given_name": ERASED,
    "family_name": ERASED,
    "gender": "",
    "born_on": None,
    "email": ERASED,
    "phone_number": ERASED,
}


def travel_end_date(booking: Booking) -> date:
    """The local date of the last arrival; the first departure if the slices do not say."""
    try:
        arriving_at = booking.slices[-1]["segments"][-1]["arriving_at"]
        return datetime.fromisoformat(str(arriving_at)).date()
    except (IndexError, KeyError, TypeError, ValueError):
        return booking.departing_at.date()


def bookings_due_for_erasure(*, today: date | None = None) -> list[Booking]:
    """Bookings whose travel ended more than PASSENGER_DATA_RETENTION_DAYS ago and whose
    passengers' data is still there. Travel ends after the first departure, so the database
    narrows by `departing_at`; the last arrival is read from the slices."""
    today = today or business_date(timezone.now())
    cutoff = today - timedelta(days=settings.PASSENGER_DATA_RETENTION_DAYS)
    candidates = Booking.objects.filter(
        personal_data_erased_at__isnull=True,
        departing_at__date__lt=cutoff,
        # An outcome still unknown is support's to settle with the supplier first.
        outcome_unknown_since__isnull=True,
    ).only("id", "slices", "departing_at")
    return [b for b in candidates.iterator() if travel_end_date(b) < cutoff]


def booking_personal_data_erase(*, booking: Booking) -> bool:
    """Erase the passengers' personal data of one booking (and of its events). Returns False
    if it was erased already."""
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if booking.personal_data_erased_at is not None:
            return False
        BookingPassenger.objects.filter(booking=booking).update(
            title="",
            given_name=ERASED,
            family_name=ERASED,
            gender="",
            born_on=None,
            email=ERASED,
            phone_number=ERASED,
            identity_documents=[],
            loyalty_programme_accounts=[],
        )
        events = Event.objects.select_for_update().filter(
            team_id=booking.team_id,
            type__startswith="booking.",
            created_at__gte=booking.created_at,
            data_object__id=booking.id,
        )
        for event in events:
            event.data_object["passengers"] = [
                {**passenger, **_EVENT_PASSENGER_FIELDS}
                for passenger in event.data_object.get("passengers", [])
            ]
            event.save(update_fields=["data_object"])
        booking.personal_data_erased_at = timezone.now()
        booking.save(update_fields=["personal_data_erased_at"])
        _client_erase_if_unused(client_id=booking.client_id)
        # A data change: `booking.updated`, its previous passengers named but never repeated.
        # (recording.booking_event's event, built here: bookings.services imports this module.)
        booking = Booking.objects.select_related("team").get(pk=booking.pk)
        events_record(
            team=booking.team,
            live_mode=booking.live_mode,
            events=[
                NewEvent(
                    EventType.BOOKING_UPDATED,
                    booking_event_object(booking),
                    {"passengers": ERASED},
                )
            ],
        )
    return True


# What identifies a client, erased with it (a client made from a booking has only its name,
# e-mail and phone, but the agency may have added the rest since).
_CLIENT_ERASED_FIELDS = {
    "phone_number": ERASED,
    "tax_id": "",
    "postal_code": "",
    "street": "",
    "street_number": "",
    "complement": "",
    "district": "",
    "city": "",
    "state": "",
    "metadata": {},
}


def _client_erase_if_unused(*, client_id: str) -> None:
    """A client record made from the lead passenger: once none of its bookings keeps
    personal data, erase it too. Its e-mail becomes a unique undeliverable marker (e-mails are
    unique per team and mode), so the same person booking again gets a new client record. A
    client the agency created itself is left as it is."""
    client = Client.objects.select_for_update().get(pk=client_id)
    if not client.made_from_booking:
        return
    if client.bookings.filter(personal_data_erased_at__isnull=True).exists():
        return
    client.full_name = ERASED
    client.email = f"{client.id}@erased.invalid"
    for name, value in _CLIENT_ERASED_FIELDS.items():
        setattr(client, name, value)
    client.save(update_fields=["full_name", "email", *_CLIENT_ERASED_FIELDS])


def erase_expired_passenger_data(*, today: date | None = None) -> int:
    """The periodic job: erase every booking due. Returns how many were erased."""
    return sum(
        booking_personal_data_erase(booking=booking)
        for booking in bookings_due_for_erasure(today=today)
    )
