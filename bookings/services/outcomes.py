"""Bookings and the supplier's answers: recording them (held, ticketed, failed, unknown) with
their events, and finding out unknown outcomes (the reconcile job, support's check)."""

import copy
from datetime import datetime, timedelta
from typing import Literal, cast

from auditlog.context import auditlog_disabled as _auditlog_disabled
from auditlog.context import disable_auditlog
from auditlog.receivers import _create_log_entry
from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from bookings.emails import email_queue, emails_queue
from bookings.errors import OrderAbsent
from bookings.models import Booking, BookingDocument, BookingEmail
from bookings.payloads import booking_event_object
from core.exceptions import ApplicationError
from core.models import AuditEntry
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import (
    FlightSupplier,
    OrderPassenger,
    PassengerType,
    SupplierError,
    SupplierOrder,
    SupplierOutcomeUnknown,
)
from wallet.models import Transaction
from wallet.services import wallet_credit
from webhooks.models import EventType
from webhooks.services import NewEvent, events_record


def _order_passengers(booking: Booking) -> list[OrderPassenger]:
    """The booking's passengers as the supplier knows them (by its passenger ids)."""
    passengers = list(booking.passengers.order_by("position"))
    supplier_id = {p.passenger_id: p.supplier_passenger_id or p.passenger_id for p in passengers}
    return [
        OrderPassenger(
            supplier_passenger_id=supplier_id[p.passenger_id],
            type=cast(PassengerType, p.type),  # one of the offer's passenger types
            title=p.title or None,
            given_name=p.given_name,
            family_name=p.family_name,
            gender=cast(Literal["m", "f"], p.gender),  # validated when booked
            born_on=p.born_on,  # type: ignore[arg-type]  # None only once erased: no orders then
            email=p.email,
            phone_number=p.phone_number,
            identity_documents=tuple(p.identity_documents),
            infant_supplier_passenger_id=supplier_id.get(p.infant_passenger_id)
            if p.infant_passenger_id
            else None,
        )
        for p in passengers
    ]


def _record_order(booking: Booking, order: SupplierOrder) -> Booking:
    """Record what the supplier says of a booking's order, as a first answer would have been:
    tickets → ticketed; a hold awaiting payment → held; paid but not issued yet → still
    unknown (the money stays; the reconcile job asks again)."""
    if order.documents:
        return _record_ticketed(booking, order)
    if booking.type == Booking.Type.HOLD and order.awaiting_payment and not order.cancelled:
        return _record_hold(booking, order)
    return _record_outcome_unknown(
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


def _record_hold(booking: Booking, order: SupplierOrder) -> Booking:
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status != Booking.Status.PENDING:
            return booking  # settled meanwhile (cancelled, expired or failed)
        _clear_outcome_unknown(booking)
        booking.supplier_order_id = order.supplier_order_id
        booking.booking_reference = order.booking_reference
        if order.payment_required_by:
            booking.payment_required_by = order.payment_required_by
        if order.price_guarantee_expires_at:
            booking.price_guarantee_expires_at = order.price_guarantee_expires_at
        booking.synced_at = timezone.now()
        booking.save()
        _record_events(booking, _event(booking, EventType.BOOKING_CREATED))
        email_queue(booking=booking, kind=BookingEmail.Kind.CREATED)
    return booking


# The states in which a supplier's answer is still awaited and may be recorded.
_AWAITING_SUPPLIER = (Booking.Status.PENDING, Booking.Status.CONFIRMED)


def _record_ticketed(booking: Booking, order: SupplierOrder) -> Booking:
    """Tickets issued: documents, `ticketed`, and an event for every state passed through
    (from the state the booking is in: `pending` for an instant order answered at once,
    `confirmed` for a paid hold or an instant booking whose outcome was unknown)."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status not in _AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or failed) by another request
        before = copy.copy(booking)  # the row as read under the lock: its audit entry's "old"
        passenger_of = {
            p.supplier_passenger_id or p.passenger_id: p.passenger_id
            for p in booking.passengers.all()
        }
        previous_status = booking.status
        now = timezone.now()
        _clear_outcome_unknown(booking)
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
                _event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING),
                _event(
                    booking,
                    EventType.BOOKING_CONFIRMED,
                    status=Booking.Status.CONFIRMED,
                    previous={"status": Booking.Status.PENDING},
                ),
            ]
        ticketed = _event(
            booking,
            EventType.BOOKING_TICKETED,
            previous={"status": Booking.Status.CONFIRMED, "documents": []},
        )
        _record_events(booking, *passed_through, ticketed)
        # Once per booking and kind: a hold had its confirmation e-mail when it was made; an
        # instant booking has it now, whether its first answer came at once or later.
        emails_queue(booking=booking, kinds=[BookingEmail.Kind.CREATED, BookingEmail.Kind.TICKETED])
    return booking


def _record_failure(
    booking: Booking, error: ApplicationError, *, only_if_unknown: bool = False
) -> Booking:
    """Nothing was issued: `failed`, and whatever the wallet paid for it back in full (an
    instant booking or a confirmed hold was debited; a pending hold was not).
    `only_if_unknown`: the reconcile job's verdict, void if the booking was settled meanwhile."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status not in _AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or ticketed) by another request
        if only_if_unknown and booking.outcome_unknown_since is None:
            return booking
        previous = booking.status
        debited = booking.type == Booking.Type.INSTANT or previous == Booking.Status.CONFIRMED
        _clear_outcome_unknown(booking)
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
            created = [_event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING)]
        failed = _event(booking, EventType.BOOKING_FAILED, previous={"status": previous})
        _record_events(booking, *created, failed)
        email_queue(booking=booking, kind=BookingEmail.Kind.FAILED)
    return booking


def _record_outcome_unknown(
    booking: Booking, error: SupplierError, *, order: SupplierOrder | None = None
) -> Booking:
    """The supplier's answer cannot be trusted: the booking keeps its money and waits for the
    reconcile job. A paid instant booking is `confirmed` ("payment received, awaiting
    issuance"), with its events; a hold stays `pending`, a paid hold `confirmed`."""
    with transaction.atomic():
        booking = _locked(booking)
        if booking.status not in _AWAITING_SUPPLIER:
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
            _record_events(
                booking,
                _event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING),
                _event(
                    booking,
                    EventType.BOOKING_CONFIRMED,
                    previous={"status": Booking.Status.PENDING},
                ),
            )
    return booking


def _clear_outcome_unknown(booking: Booking) -> None:
    booking.outcome_unknown_since = None
    booking.outcome_note = ""


def _event(
    booking: Booking, type: EventType, *, status: str | None = None, previous: dict | None = None
) -> list[NewEvent]:
    """A booking event, to record with `_record_events`. A change of an existing booking
    (`previous` given) is also a `booking.updated` with the same object, for receivers that
    follow every change with one subscription (the spec: "data or status change")."""
    data_object = booking_event_object(booking, status=status)
    return [
        NewEvent(event_type, data_object, previous)
        for event_type in ((type, EventType.BOOKING_UPDATED) if previous else (type,))
    ]


def _record_events(booking: Booking, *events: list[NewEvent]) -> None:
    """Record the booking's events of one change, in order, at once (one read of the
    subscribed endpoints for all of them: webhooks' `events_record`)."""
    events_record(
        team=booking.team,
        live_mode=booking.live_mode,
        events=[event for group in events for event in group],
    )


# --- Unknown outcomes: asking the supplier what happened ---------------------------------------

# Longer than any supplier call (a Duffel order may take 130 s): a live check is never joined.
CHECK_LEASE = timedelta(seconds=180)
# Orders are looked for from a little before the booking was written (clocks differ).
ORDER_LOOKBACK = timedelta(minutes=5)


def _claim_check(booking_id: str) -> bool:
    """Take the booking's check lease (a conditional UPDATE: one holder at a time)."""
    now = timezone.now()
    free = Q(outcome_check_lease_until__isnull=True) | Q(outcome_check_lease_until__lt=now)
    return bool(
        Booking.objects.filter(free, pk=booking_id).update(
            outcome_check_lease_until=now + CHECK_LEASE
        )
    )


def _release_check(booking_id: str) -> None:
    Booking.objects.filter(pk=booking_id).update(outcome_check_lease_until=None)


def _look_up_order(supplier: FlightSupplier, booking: Booking) -> SupplierOrder | None:
    """The booking's order at the supplier: by id when we have one, else by our booking id in
    its metadata. None: certainly absent. SupplierError: the supplier cannot tell now."""
    if booking.supplier_order_id:
        try:
            return supplier.get_order(booking.supplier_order_id)
        except SupplierError as exc:
            if exc.code == "order_not_found":
                return None
            raise
    return supplier.find_order(
        booking_id=booking.id,
        created_after=booking.created_at - ORDER_LOOKBACK,
        passengers=_order_passengers(booking),
    )


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
    if not _claim_check(booking_id):
        return "busy"
    try:
        booking = Booking.objects.select_related("team").get(pk=booking_id)
        if booking.outcome_unknown_since is None or booking.status not in _AWAITING_SUPPLIER:
            return "settled"
        try:
            order = _look_up_order(supplier_for_booking(booking), booking)
        except ApplicationError as exc:  # unreachable, unreadable, not connected: ask again
            _note_check(booking.pk, f"check failed, {exc.code}: {exc.message}")
            return "unknown"
        return _settle(booking, order)
    finally:
        _release_check(booking_id)


def _settle(booking: Booking, order: SupplierOrder | None) -> str:
    if order is not None and not order.cancelled:
        if order.documents:
            _record_ticketed(booking, order)
            return "ticketed"
        if (
            booking.type == Booking.Type.HOLD
            and booking.status == Booking.Status.PENDING
            and order.awaiting_payment
        ):
            _record_hold(booking, order)
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
    settled = _record_failure(booking, OrderAbsent(), only_if_unknown=True)
    return "failed" if settled.status == Booking.Status.FAILED else "settled"


def booking_outcome_mark_interrupted(*, booking: Booking) -> Booking:
    """A booking left pending without a supplier order by a request that died: its outcome
    is unknown from now on, and the reconcile job finds out."""
    return _record_outcome_unknown(
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
    from bookings.tasks import check_supplier_outcome

    now = now or timezone.now()
    for booking in bookings_interrupted(now=now).iterator():
        booking_outcome_mark_interrupted(booking=booking)
    recently = now - timedelta(seconds=settings.SUPPLIER_RECONCILE_INTERVAL_SECONDS / 2)
    due = (
        Booking.objects.filter(outcome_unknown_since__isnull=False, status__in=_AWAITING_SUPPLIER)
        .filter(Q(outcome_check_lease_until__isnull=True) | Q(outcome_check_lease_until__lt=now))
        .filter(Q(outcome_checked_at__isnull=True) | Q(outcome_checked_at__lt=recently))
    )
    booking_ids = list(due.values_list("id", flat=True))
    for booking_id in booking_ids:
        check_supplier_outcome.delay(booking_id)
    return booking_ids


def booking_check_with_supplier(*, booking: Booking) -> str:
    """Support's "check with the supplier now": settle what can be settled at once."""
    from bookings.services.lifecycle import booking_issue_tickets  # lifecycle imports this module

    if booking.outcome_unknown_since is None and booking.status == Booking.Status.CONFIRMED:
        return booking_issue_tickets(booking_id=booking.pk).status  # stuck ticketing
    if (
        booking.outcome_unknown_since is None
        and booking.status == Booking.Status.PENDING
        and not booking.supplier_order_id
        and bookings_interrupted().filter(pk=booking.pk).exists()
    ):
        booking_outcome_mark_interrupted(booking=booking)
    return booking_outcome_check(booking_id=booking.pk)
