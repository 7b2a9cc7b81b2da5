"""Recording what happens to a booking: the supplier's answers (held, ticketed, failed, unknown)
and the events each change records. Helpers of the other services modules (creation, lifecycle,
ticketing, outcomes), which decide when an answer is recorded; not called from outside
`bookings.services`."""

import copy

from auditlog.context import auditlog_disabled as _auditlog_disabled
from auditlog.context import disable_auditlog
from auditlog.receivers import _create_log_entry
from django.conf import settings
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone

from bookings.emails import email_queue, emails_queue
from bookings.models import Booking, BookingDocument, BookingEmail
from bookings.payloads import booking_event_object
from core.exceptions import ApplicationError
from core.models import AuditEntry
from flights.suppliers.base import SupplierError, SupplierOrder, SupplierOutcomeUnknown
from wallet.models import Transaction
from wallet.services import wallet_credit
from webhooks.models import EventType
from webhooks.services import NewEvent, events_record

# The states in which a supplier's answer is still awaited and may be recorded.
AWAITING_SUPPLIER = (Booking.Status.PENDING, Booking.Status.CONFIRMED)


def record_order(booking: Booking, order: SupplierOrder) -> Booking:
    """Record what the supplier says of a booking's order, as a first answer would have been:
    tickets → ticketed; a hold awaiting payment → held; paid but not issued yet → still
    unknown (the money stays; the reconcile job asks again)."""
    if order.documents:
        return record_ticketed(booking, order)
    if booking.type == Booking.Type.HOLD and order.awaiting_payment and not order.cancelled:
        return record_hold(booking, order)
    return record_outcome_unknown(
        booking,
        SupplierOutcomeUnknown(
            "The airline has the order but has not issued the tickets yet",
            code="tickets_not_issued",
        ),
        order=order,
    )


def _locked(booking: Booking) -> Booking:
    """The booking read again under its row lock, with what its event objects and the API's
    answer read several times: its team and its passengers (fixed once it is written)."""
    return (
        Booking.objects.select_for_update(of=("self",))
        .select_related("team")
        .prefetch_related("passengers")
        .get(pk=booking.pk)
    )


def _save_audited(booking: Booking, *, before: Booking) -> None:
    """`booking.save()` with the audit entry django-auditlog writes for it, diffed against
    `before` (the row this transaction read under its lock) instead of the row read once more:
    auditlog's own receiver reads it again before every save. The same entry, made by auditlog's
    function, one read less; none when auditlog is switched off (a panel action's own entry)."""
    if not _auditlog_disabled.get(False):
        _create_log_entry(
            action=AuditEntry.Action.UPDATE,
            instance=booking,
            sender=Booking,
            diff_old=before,
            diff_new=booking,
            use_json_for_changes=getattr(settings, "AUDITLOG_STORE_JSON_CHANGES", False),
        )
    with disable_auditlog():
        booking.save()


def record_hold(booking: Booking, order: SupplierOrder) -> Booking:
    """A hold made at the supplier: its order, deadlines and `booking.created`."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status != Booking.Status.PENDING:
            return booking  # settled meanwhile (cancelled, expired or failed)
        clear_outcome_unknown(booking)
        booking.supplier_order_id = order.supplier_order_id
        booking.booking_reference = order.booking_reference
        if order.payment_required_by:
            booking.payment_required_by = order.payment_required_by
        if order.price_guarantee_expires_at:
            booking.price_guarantee_expires_at = order.price_guarantee_expires_at
        booking.synced_at = timezone.now()
        booking.save()
        record_events(booking, booking_event(booking, EventType.BOOKING_CREATED))
        email_queue(booking=booking, kind=BookingEmail.Kind.CREATED)
    return booking


def record_ticketed(booking: Booking, order: SupplierOrder) -> Booking:
    """Tickets issued: documents, `ticketed`, and an event for every state passed through
    (from the state the booking is in: `pending` for an instant order answered at once,
    `confirmed` for a paid hold or an instant booking whose outcome was unknown)."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status not in AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or failed) by another request
        before = copy.copy(booking)  # the row as read under the lock: its audit entry's "old"
        passenger_of = {
            p.supplier_passenger_id or p.passenger_id: p.passenger_id
            for p in booking.passengers.all()
        }
        previous_status = booking.status
        now = timezone.now()
        clear_outcome_unknown(booking)
        booking.supplier_order_id = order.supplier_order_id
        booking.booking_reference = order.booking_reference
        booking.status = Booking.Status.TICKETED
        booking.confirmed_at = booking.confirmed_at or now
        booking.ticketed_at = booking.synced_at = now
        _save_audited(booking, before=before)
        # One INSERT; a ticket already there for a passenger and type is kept, as the first of
        # two for the same one in the order (the unique constraint; what get_or_create did).
        BookingDocument.objects.bulk_create(
            [
                BookingDocument(
                    booking=booking,
                    type=document.type,
                    passenger_id=passenger_of.get(
                        document.supplier_passenger_id, document.supplier_passenger_id
                    ),
                    unique_identifier=document.unique_identifier,
                )
                for document in order.documents
            ],
            ignore_conflicts=True,
        )
        prefetch_related_objects([booking], "documents")  # the events and the answer list them
        passed_through = []
        if previous_status == Booking.Status.PENDING:
            passed_through = [
                booking_event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING),
                booking_event(
                    booking,
                    EventType.BOOKING_CONFIRMED,
                    status=Booking.Status.CONFIRMED,
                    previous={"status": Booking.Status.PENDING},
                ),
            ]
        ticketed = booking_event(
            booking,
            EventType.BOOKING_TICKETED,
            previous={"status": Booking.Status.CONFIRMED, "documents": []},
        )
        record_events(booking, *passed_through, ticketed)
        # Once per booking and kind: a hold had its confirmation e-mail when it was made; an
        # instant booking has it now, whether its first answer came at once or later.
        emails_queue(booking=booking, kinds=[BookingEmail.Kind.CREATED, BookingEmail.Kind.TICKETED])
    return booking


def record_documents_added(booking: Booking, order: SupplierOrder) -> bool:
    """Tickets the supplier's order has that a ticketed booking lacks (issued by the airline
    later, or missed by an earlier answer): added, with a `booking.updated` whose
    `previous_attributes` hold the documents before. False when there was none to add."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status != Booking.Status.TICKETED:
            return False
        before = booking_event_object(booking)["documents"]
        known = {(d["passenger_id"], d["type"]) for d in before}
        passenger_of = {
            p.supplier_passenger_id or p.passenger_id: p.passenger_id
            for p in booking.passengers.all()
        }
        added = [
            BookingDocument(
                booking=booking,
                type=document.type,
                passenger_id=passenger_of.get(
                    document.supplier_passenger_id, document.supplier_passenger_id
                ),
                unique_identifier=document.unique_identifier,
            )
            for document in order.documents
        ]
        added = [d for d in added if (d.passenger_id, d.type) not in known]
        if not added:
            return False
        BookingDocument.objects.bulk_create(added, ignore_conflicts=True)
        booking = _locked(booking)
        record_events(
            booking,
            booking_event(booking, EventType.BOOKING_UPDATED, previous={"documents": before}),
        )
    return True


def record_failure(
    booking: Booking, error: ApplicationError, *, only_if_unknown: bool = False
) -> Booking:
    """Nothing was issued: `failed`, and whatever the wallet paid for it back in full (an
    instant booking or a confirmed hold was debited; a pending hold was not).
    `only_if_unknown`: the reconcile job's verdict, void if the booking was settled meanwhile."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status not in AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or ticketed) by another request
        if only_if_unknown and booking.outcome_unknown_since is None:
            return booking
        previous = booking.status
        debited = booking.type == Booking.Type.INSTANT or previous == Booking.Status.CONFIRMED
        clear_outcome_unknown(booking)
        booking.status = Booking.Status.FAILED
        booking.failure_reason = f"{error.code}: {error.message}"[:255]
        booking.save()
        if debited:
            wallet_credit(
                team=booking.team,
                live_mode=booking.live_mode,
                amount=booking.base_cost_brl,
                reference_type=Transaction.ReferenceType.REFUND,
                reference_id=booking.id,
                description=f"Refund of booking {booking.id}: issuance failed",
            )
        created = []
        if previous == Booking.Status.PENDING:
            created = [
                booking_event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING)
            ]
        failed = booking_event(booking, EventType.BOOKING_FAILED, previous={"status": previous})
        record_events(booking, *created, failed)
        email_queue(booking=booking, kind=BookingEmail.Kind.FAILED)
    return booking


def record_outcome_unknown(
    booking: Booking, error: SupplierError, *, order: SupplierOrder | None = None
) -> Booking:
    """The supplier's answer cannot be trusted: the booking keeps its money and waits for the
    reconcile job. A paid instant booking is `confirmed` ("payment received, awaiting
    issuance"), with its events; a hold stays `pending`, a paid hold `confirmed`."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status not in AWAITING_SUPPLIER:
            return booking
        now = timezone.now()
        booking.outcome_unknown_since = booking.outcome_unknown_since or now
        booking.outcome_note = f"{error.code}: {error.message}"[:255]
        if order is not None:  # the order exists: keep its id and reference
            booking.supplier_order_id = order.supplier_order_id
            booking.booking_reference = order.booking_reference or booking.booking_reference
        paid_instant = (
            booking.type == Booking.Type.INSTANT and booking.status == Booking.Status.PENDING
        )
        if paid_instant:
            booking.status = Booking.Status.CONFIRMED
            booking.confirmed_at = now
        booking.save()
        if paid_instant:
            record_events(
                booking,
                booking_event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING),
                booking_event(
                    booking,
                    EventType.BOOKING_CONFIRMED,
                    previous={"status": Booking.Status.PENDING},
                ),
            )
    return booking


def clear_outcome_unknown(booking: Booking) -> None:
    """Forget that the booking's outcome was unknown (the caller saves the booking)."""
    booking.outcome_unknown_since = None
    booking.outcome_note = ""


def booking_event(
    booking: Booking, type: EventType, *, status: str | None = None, previous: dict | None = None
) -> list[NewEvent]:
    """A booking event, to record with `record_events`. A change of an existing booking
    (`previous` given) is also a `booking.updated` with the same object, for receivers that
    follow every change with one subscription (the spec: "data or status change")."""
    data_object = booking_event_object(booking, status=status)
    twin = previous and type != EventType.BOOKING_UPDATED  # a data change alone is one event
    return [
        NewEvent(event_type, data_object, previous)
        for event_type in ((type, EventType.BOOKING_UPDATED) if twin else (type,))
    ]


def record_events(booking: Booking, *events: list[NewEvent]) -> None:
    """Record the booking's events of one change, in order, at once (one read of the
    subscribed endpoints for all of them: webhooks' `events_record`)."""
    events_record(
        team=booking.team,
        live_mode=booking.live_mode,
        events=[event for group in events for event in group],
    )
