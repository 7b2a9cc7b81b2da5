"""Airline-initiated changes (docs/after-sale.md, "When the airline changes the flights"): the
supplier's changes of a booking's order (`aic_`, Duffel's AirlineInitiatedChange), found by a
periodic check of ticketed bookings not yet departed or at once after Duffel's webhook (which
only says "look": the change is always read back from the supplier). Each supplier change is
recorded once, whatever the number of checks, retries or racing readers (the booking's lock,
and the unique supplier id behind it): `booking.airline_change_detected` and an e-mail to the
agency and the travellers with the old and new times. Accepting it at the supplier is read back
before anything moves; once the supplier says `accepted` (through us or elsewhere) the
booking's slices become the change's `added` ones, once, with `booking.updated` carrying the
old slices in `previous_attributes`. Cancelling goes through the cancellations (the airline's
involuntary refund is its quote)."""

import logging
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from bookings.errors import (
    AirlineChangeActionUnavailable,
    AirlineChangeAlreadyActioned,
    AirlineChangeNotAccepted,
    AirlineChangeNotFound,
)
from bookings.models import Booking, BookingAirlineChange
from bookings.payloads import booking_event_object
from bookings.services.recording import booking_event, record_events
from core.timestamps import iso_utc
from flights import airports, payloads
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import AirlineChange, SupplierError, SupplierSlice
from webhooks.models import EventType
from webhooks.services import NewEvent

logger = logging.getLogger(__name__)
ACCEPTED = BookingAirlineChange.ActionTaken.ACCEPTED
# Whose changes are checked: live Duffel bookings, and the sandbox's (test mode, local).
CHECKED_SUPPLIERS = Q(supplier="duffel", live_mode=True) | Q(supplier="sandbox")


# --- Reading the supplier's changes -------------------------------------------------------------


def booking_airline_changes_sync(*, booking: Booking) -> list[BookingAirlineChange]:
    """Read the booking's changes from its supplier and record them; returns those detected
    now (new to us). Raises SupplierError when the supplier cannot tell."""
    if not booking.supplier_order_id:
        return []
    found = supplier_for_booking(booking).list_airline_changes(booking.supplier_order_id)
    detected = []
    for change in found:
        row, created = _record(booking.pk, change)
        if created and row is not None:
            detected.append(row)
    return detected


def _record(booking_id: str, change: AirlineChange) -> tuple[BookingAirlineChange | None, bool]:
    with transaction.atomic():
        # The booking's lock first: every reader of one booking's changes waits here, so a
        # change is created once; the unique supplier id is the backstop.
        booking = (
            Booking.objects.select_for_update(of=("self",))
            .select_related("team")
            .prefetch_related("passengers")
            .get(pk=booking_id)
        )
        row = (
            BookingAirlineChange.objects.select_for_update()
            .filter(supplier_change_id=change.supplier_change_id)
            .first()
        )
        created = row is None
        if row is None:
            row = BookingAirlineChange(
                booking=booking, supplier_change_id=change.supplier_change_id
            )
            row.added = _booked_slices(booking, change.added, f"{row.id}a")
            row.removed = _booked_slices(booking, change.removed, f"{row.id}r")
            _take_state(row, change)
            try:
                with transaction.atomic():
                    row.save(force_insert=True)
            except IntegrityError:
                return None, False  # recorded by another reader (outside this booking's lock)
            record_events(booking, _detected_event(booking, row))
            from bookings.tasks import send_airline_change_email

            send_airline_change_email.delay_on_commit(row.pk)  # type: ignore[attr-defined]
        elif row.booking_id != booking.pk:
            logger.warning("Airline change %s belongs to another booking", row.supplier_change_id)
            return None, False
        else:
            _take_state(row, change)
            row.save(update_fields=["available_actions", "action_taken", "action_taken_at"])
        if row.action_taken == ACCEPTED and row.applied_at is None:
            _apply(booking, row)
    return row, created


def _take_state(row: BookingAirlineChange, change: AirlineChange) -> None:
    row.available_actions = list(change.available_actions)
    row.action_taken = change.action_taken or ""
    row.action_taken_at = change.action_taken_at
    row.supplier_created_at = change.created_at


def _booked_slices(booking: Booking, slices: tuple[SupplierSlice, ...], seed: str) -> list[dict]:
    """The supplier's slices in the booking's slice shape (its passengers on every segment, no
    seat), with `sli_`/`seg_` ids derived from `seed` as an offer's are."""
    passengers = [(p.passenger_id, p.type) for p in booking.passengers.all()]
    rendered = payloads.OfferRenderer(passengers).slices(seed, slices)
    return [
        {
            **slice_,
            "segments": [
                {
                    **segment,
                    "passengers": [
                        {
                            "passenger_id": p["passenger_id"],
                            "cabin_class": p["cabin_class"],
                            "seat": None,
                            "baggages": p["baggages"],
                        }
                        for p in segment["passengers"]
                    ],
                }
                for segment in slice_["segments"]
            ],
        }
        for slice_ in rendered
    ]


def _detected_event(booking: Booking, row: BookingAirlineChange) -> list[NewEvent]:
    data = {**booking_event_object(booking), "airline_change": airline_change_object(row)}
    return [NewEvent(EventType.BOOKING_AIRLINE_CHANGE_DETECTED, data, None)]


# --- Moving the booking's slices ---------------------------------------------------------------


def _ends(slice_: dict) -> tuple[str, str]:
    return slice_["origin"]["iata_code"], slice_["destination"]["iata_code"]


def moved_slices(slices: list[dict], removed: list[dict], added: list[dict]) -> list[dict]:
    """The booking's slices with the change applied: the slices `removed` names (by their
    origin and destination) give way to the `added` ones, at the place of the first of them."""
    gone = {_ends(s) for s in removed}
    places = [i for i, s in enumerate(slices) if _ends(s) in gone]
    if not places:  # nothing to replace by its ends: the change's slices by their origin
        origins = {s["origin"]["iata_code"] for s in removed}
        places = [i for i, s in enumerate(slices) if s["origin"]["iata_code"] in origins]
    if not places:
        return slices
    kept = [s for i, s in enumerate(slices) if i not in places]
    first = places[0]
    return kept[:first] + added + kept[first:]


def _first_departure(slices: list[dict]) -> datetime:
    segment = slices[0]["segments"][0]
    zone = ZoneInfo(airports.AIRPORTS[segment["origin"]["iata_code"]].time_zone)
    return datetime.fromisoformat(segment["departing_at"]).replace(tzinfo=zone)


def _apply(booking: Booking, row: BookingAirlineChange) -> None:
    """The accepted change onto the booking (under its lock), once."""
    previous = booking.slices
    booking.slices = moved_slices(previous, row.removed, row.added)
    if booking.slices != previous:
        booking.departing_at = _first_departure(booking.slices)
        booking.save(update_fields=["slices", "departing_at", "updated_at"])
        record_events(
            booking,
            booking_event(booking, EventType.BOOKING_UPDATED, previous={"slices": previous}),
        )
    row.applied_at = timezone.now()
    row.save(update_fields=["applied_at"])


# --- The API's actions -------------------------------------------------------------------------


def booking_airline_change_list(*, booking: Booking) -> list[BookingAirlineChange]:
    """The booking's changes, newest first. The sandbox's are read first (local, no network):
    a test booking shows its scenario's change at once."""
    if booking.supplier == "sandbox" and booking.status == Booking.Status.TICKETED:
        booking_airline_changes_sync(booking=booking)
    return list(booking.airline_changes.order_by("-created_at", "-id"))


def booking_airline_change_accept(*, booking: Booking, change_id: str) -> BookingAirlineChange:
    """Accept a change at the supplier, then read it back: the booking's slices move only once
    the supplier says it is accepted (once, under the booking's lock, however many requests
    race)."""
    row = booking.airline_changes.filter(pk=change_id).first()
    if row is None:
        raise AirlineChangeNotFound()
    if row.action_taken:  # a retry with the same Idempotency-Key is answered before this
        raise AirlineChangeAlreadyActioned(details={"action_taken": row.action_taken})
    if "accept" not in row.available_actions:
        raise AirlineChangeActionUnavailable(
            details={"available_actions": list(row.available_actions)}
        )
    if booking.status != Booking.Status.TICKETED:
        raise AirlineChangeActionUnavailable(details={"status": booking.status})
    if booking.departing_at <= timezone.now():
        raise AirlineChangeActionUnavailable(
            "The flight has departed", details={"status": booking.status}
        )
    supplier = supplier_for_booking(booking)
    refused: SupplierError | None = None
    try:
        supplier.accept_airline_change(row.supplier_change_id)
    except SupplierError as exc:  # refused, or the answer lost: the read-back tells
        refused = exc
    try:
        booking_airline_changes_sync(booking=booking)
    except SupplierError as exc:
        logger.warning("Reading back airline change %s failed: %s", row.pk, exc.code)
        raise refused or AirlineChangeNotAccepted(details=exc.details) from exc
    row.refresh_from_db()
    if row.action_taken != ACCEPTED:
        raise refused or AirlineChangeNotAccepted()
    return row


# --- The periodic check and Duffel's webhook ----------------------------------------------------


def bookings_airline_changes_due(*, now: datetime | None = None) -> list[str]:
    """The bookings whose changes the periodic check reads: ticketed and not departed, and any
    not departed with a change still unanswered (a cancelled one's change becomes `cancelled`)."""
    now = now or timezone.now()
    ticketed = Q(status=Booking.Status.TICKETED)
    unanswered = Q(airline_changes__action_taken="")
    return list(
        Booking.objects.filter(CHECKED_SUPPLIERS, ticketed | unanswered, departing_at__gt=now)
        .exclude(supplier_order_id="")
        .values_list("id", flat=True)
        .distinct()
        .order_by("id")
    )


def booking_airline_changes_check(*, booking_id: str) -> int:
    """The check of one booking (a task): how many changes were detected now."""
    booking = Booking.objects.select_related("team").get(pk=booking_id)
    try:
        return len(booking_airline_changes_sync(booking=booking))
    except SupplierError as exc:
        logger.warning("Checking airline changes of %s failed: %s", booking_id, exc.code)
        return 0


def duffel_order_bookings(*, order_id: str) -> list[str]:
    """The bookings of a Duffel order (Duffel's webhook names the order; what changed is read
    back from Duffel)."""
    if not order_id:
        return []
    return list(
        Booking.objects.filter(supplier="duffel", supplier_order_id=order_id).values_list(
            "id", flat=True
        )
    )


# --- The API's object --------------------------------------------------------------------------


def airline_change_object(row: BookingAirlineChange) -> dict:
    return {
        "id": row.id,
        "booking_id": row.booking_id,
        "added": row.added,
        "removed": row.removed,
        "available_actions": list(row.available_actions),
        "action_taken": row.action_taken or None,
        "action_taken_at": iso_utc(row.action_taken_at) if row.action_taken_at else None,
        "created_at": iso_utc(row.created_at),
    }
