"""Bookings: create (hold or instant), with the wallet effects of DESIGN.md "Money".

No lock is ever held across a supplier call: each step that talks to the supplier sits between
two short transactions. The booking row claims its offer first (a unique constraint on
`offer_id`), so an offer is never booked twice."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Literal, cast

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from agencies.models import Client, Team
from bookings.emails import email_queue
from bookings.models import Booking, BookingDocument, BookingEmail, BookingPassenger
from bookings.validation import (
    PassengerInput,
    check_passports,
    check_payment,
    validate_passengers,
)
from core.exceptions import ApplicationError, Conflict, InvalidRequest, NotFound
from core.money import fmt, q
from core.timestamps import iso_utc
from flights.selectors import BookableOffer, bookable_offer
from flights.suppliers import supplier_for, supplier_for_booking
from flights.suppliers.base import (
    FlightSupplier,
    OrderPassenger,
    PassengerType,
    SupplierError,
    SupplierOrder,
    SupplierOutcomeUnknown,
)
from wallet.models import Transaction
from wallet.services import wallet_credit, wallet_debit
from webhooks.models import EventType
from webhooks.services import event_record


class OfferNotFound(NotFound):
    code = "offer_not_found"
    message = "Offer not found"


class OfferExpired(InvalidRequest):
    code = "offer_expired"
    message = "Offer expired"


class InstantPaymentRequired(InvalidRequest):
    code = "instant_payment_required"
    message = "This offer requires instant payment: book it with type instant"


class OfferAlreadyBooked(Conflict):
    code = "offer_already_booked"
    message = "This offer was already booked; search again for a new offer"


def booking_create(
    *,
    team: Team,
    live_mode: bool,
    offer_id: str,
    type: str,
    passengers: object,  # the request's, validated here
    payments: object = None,
    metadata: object = None,
    idempotency_key: str = "",
) -> Booking:
    if type not in Booking.Type.values:
        raise InvalidRequest(details={"type": "Must be hold or instant."})
    offer = bookable_offer(team=team, live_mode=live_mode, offer_id=offer_id)
    if offer is None:
        raise OfferNotFound()
    if offer.expires_at <= timezone.now():
        raise OfferExpired()
    if type == Booking.Type.HOLD and offer.requires_instant_payment:
        raise InstantPaymentRequired()
    supplier_for(team=team, live_mode=live_mode)  # live mode without a supplier refuses here
    people = validate_passengers(
        offer=offer, passengers=passengers, departure_date=offer.first_departure.date()
    )
    check_passports(offer=offer, passengers=people)
    if type == Booking.Type.INSTANT:
        if not isinstance(payments, list) or len(payments) != 1:
            raise InvalidRequest(
                details={
                    "payments": "Required for an instant booking: "
                    "[{type: balance, amount, currency}]."
                }
            )
        check_payment(offer=offer, payment=payments[0])
    if metadata is not None and not isinstance(metadata, dict):
        raise InvalidRequest(details={"metadata": "Must be an object."})

    try:
        booking = _claim_offer(
            team=team,
            live_mode=live_mode,
            offer=offer,
            type=type,
            people=people,
            metadata=metadata or {},
            idempotency_key=idempotency_key,
        )
    except OfferAlreadyBooked:
        # The same request again, whose first attempt died after writing the booking (the
        # Idempotency-Key's stored answer was lost with it): answer with that booking.
        earlier = _booked_by_the_same_request(offer=offer, team=team, key=idempotency_key)
        if earlier is None:
            raise
        return _resume(earlier, offer=offer)
    return _place_order(booking, offer=offer)


def _place_order(booking: Booking, *, offer: BookableOffer) -> Booking:
    """The supplier's hold or instant order, outside any transaction, and its outcome."""
    supplier = supplier_for_booking(booking)
    instant = booking.type == Booking.Type.INSTANT
    try:
        order = supplier.create_order(
            offer=offer,
            passengers=_order_passengers(booking),
            instant=instant,
            amount=offer.total_amount,
            currency=offer.total_currency,
            booking_id=booking.id,
        )
    except SupplierOutcomeUnknown as exc:  # the order may exist: keep the money where it is
        return _record_outcome_unknown(booking, exc)
    except SupplierError as exc:
        if instant:  # the wallet was debited: the booking stays, failed and refunded
            return _record_failure(booking, exc)
        Booking.objects.filter(pk=booking.pk).delete()  # a refused hold: no booking remains
        raise
    return _record_order(booking, order)


def _resume(booking: Booking, *, offer: BookableOffer) -> Booking:
    """The booking of a retried request whose first attempt died after writing it. Left
    pending without a supplier order (the process died before or during the supplier call,
    an instant booking already debited), the supplier is asked first whether the first
    attempt's order exists: found, it is recorded; certainly absent, it is ordered now; if the
    supplier cannot tell, the booking waits for the reconcile job. Otherwise it is answered as
    it is. Only this retry runs: it holds the Idempotency-Key (the others are told it is in
    flight), and the check lease keeps the reconcile job out meanwhile."""
    if booking.status != Booking.Status.PENDING or booking.supplier_order_id:
        return booking
    if not _claim_check(booking.pk):
        return booking  # the reconcile job is asking the supplier right now
    try:
        booking.refresh_from_db()
        if booking.status != Booking.Status.PENDING or booking.supplier_order_id:
            return booking
        supplier = supplier_for_booking(booking)
        try:
            order = _look_up_order(supplier, booking)
        except SupplierError as exc:
            return _record_outcome_unknown(booking, exc)
        if order is None:
            return _place_order(booking, offer=offer)
        return _record_order(booking, order)
    finally:
        _release_check(booking.pk)


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


def _booked_by_the_same_request(*, offer: BookableOffer, team: Team, key: str) -> Booking | None:
    if not key:
        return None
    return Booking.objects.filter(offer_id=offer.id, team=team, idempotency_key=key).first()


def _claim_offer(
    *,
    team: Team,
    live_mode: bool,
    offer: BookableOffer,
    type: str,
    people: list[PassengerInput],
    metadata: dict,
    idempotency_key: str = "",
) -> Booking:
    """Write the booking and its passengers (and, for instant, debit the wallet) in one short
    transaction. A second booking of the same offer fails on the unique constraint."""
    supplier_id = dict(
        zip((p["id"] for p in offer.passengers), offer.supplier_passenger_ids, strict=False)
    )
    try:
        with transaction.atomic():
            booking = Booking.objects.create(
                team=team,
                live_mode=live_mode,
                client=_client_for(
                    team=team, live_mode=live_mode, people=people, metadata=metadata
                ),
                offer_id=offer.id,
                type=type,
                supplier=offer.supplier,
                total_amount=offer.total_amount,
                total_currency=offer.total_currency,
                base_amount=offer.base_amount,
                tax_amount=offer.tax_amount,
                exchange_rate=offer.exchange_rate,
                base_cost_brl=offer.base_cost_brl,
                markup_amount=offer.markup_amount,
                fee_amount=offer.fee_amount,
                client_amount=offer.client_amount,
                owner=offer.data["owner"],
                slices=_booking_slices(offer.data["slices"]),
                conditions=offer.data["conditions"],
                departing_at=offer.first_departure,
                payment_required_by=offer.payment_required_by,
                price_guarantee_expires_at=offer.price_guarantee_expires_at,
                metadata=metadata,
                idempotency_key=idempotency_key,
            )
            BookingPassenger.objects.bulk_create(
                [
                    BookingPassenger(
                        booking=booking,
                        position=position,
                        passenger_id=p.id,
                        type=p.type,
                        title=p.title,
                        given_name=p.given_name,
                        family_name=p.family_name,
                        gender=p.gender,
                        born_on=p.born_on,
                        email=p.email,
                        phone_number=p.phone_number,
                        identity_documents=p.identity_documents,
                        loyalty_programme_accounts=p.loyalty_programme_accounts,
                        infant_passenger_id=p.infant_passenger_id,
                        supplier_passenger_id=supplier_id.get(p.id, ""),
                    )
                    for position, p in enumerate(people)
                ]
            )
            if type == Booking.Type.INSTANT:
                wallet_debit(
                    team=team,
                    live_mode=live_mode,
                    amount=offer.base_cost_brl,
                    reference_type=Transaction.ReferenceType.BOOKING,
                    reference_id=booking.id,
                    description=f"Booking {booking.id} ({offer.owner})",
                )
    except IntegrityError:
        raise OfferAlreadyBooked() from None
    return booking


def _client_for(
    *, team: Team, live_mode: bool, people: list[PassengerInput], metadata: dict
) -> Client:
    """`metadata.client_id` when given, otherwise the lead passenger, matched by e-mail."""
    client_id = metadata.get("client_id")
    if client_id:
        client = Client.objects.filter(pk=client_id, team=team, live_mode=live_mode).first()
        if client is None:
            raise InvalidRequest(details={"metadata.client_id": "Unknown client."})
        return client
    lead = next(p for p in people if p.type == "adult")
    client, _ = Client.objects.get_or_create(
        team=team,
        live_mode=live_mode,
        email=lead.email.lower(),
        defaults={
            "full_name": f"{lead.given_name} {lead.family_name}",
            "phone_number": lead.phone_number,
        },
    )
    return client


def _booking_slices(slices: list[dict]) -> list[dict]:
    """The offer's slices, each segment passenger as a booking shows it (with its seat)."""
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
        for slice_ in slices
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


def _record_hold(booking: Booking, order: SupplierOrder) -> Booking:
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
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
        _event(booking, EventType.BOOKING_CREATED)
        email_queue(booking=booking, kind=BookingEmail.Kind.CREATED)
    return booking


# The states in which a supplier's answer is still awaited and may be recorded.
_AWAITING_SUPPLIER = (Booking.Status.PENDING, Booking.Status.CONFIRMED)


def _record_ticketed(booking: Booking, order: SupplierOrder) -> Booking:
    """Tickets issued: documents, `ticketed`, and an event for every state passed through
    (from the state the booking is in: `pending` for an instant order answered at once,
    `confirmed` for a paid hold or an instant booking whose outcome was unknown)."""
    passenger_of = {
        p.supplier_passenger_id or p.passenger_id: p.passenger_id for p in booking.passengers.all()
    }
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if booking.status not in _AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or failed) by another request
        previous_status = booking.status
        now = timezone.now()
        _clear_outcome_unknown(booking)
        booking.supplier_order_id = order.supplier_order_id
        booking.booking_reference = order.booking_reference
        booking.status = Booking.Status.TICKETED
        booking.confirmed_at = booking.confirmed_at or now
        booking.ticketed_at = booking.synced_at = now
        booking.save()
        for document in order.documents:
            BookingDocument.objects.get_or_create(
                booking=booking,
                type=document.type,
                passenger_id=passenger_of.get(
                    document.supplier_passenger_id, document.supplier_passenger_id
                ),
                defaults={"unique_identifier": document.unique_identifier},
            )
        if previous_status == Booking.Status.PENDING:
            _event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING)
            _event(
                booking,
                EventType.BOOKING_CONFIRMED,
                status=Booking.Status.CONFIRMED,
                previous={"status": Booking.Status.PENDING},
            )
        _event(
            booking,
            EventType.BOOKING_TICKETED,
            previous={"status": Booking.Status.CONFIRMED, "documents": []},
        )
        # Once per booking and kind: a hold had its confirmation e-mail when it was made; an
        # instant booking has it now, whether its first answer came at once or later.
        email_queue(booking=booking, kind=BookingEmail.Kind.CREATED)
        email_queue(booking=booking, kind=BookingEmail.Kind.TICKETED)
    return booking


def _record_failure(
    booking: Booking, error: ApplicationError, *, only_if_unknown: bool = False
) -> Booking:
    """Nothing was issued: `failed`, and whatever the wallet paid for it back in full (an
    instant booking or a confirmed hold was debited; a pending hold was not).
    `only_if_unknown`: the reconcile job's verdict, void if the booking was settled meanwhile."""
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
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
        if previous == Booking.Status.PENDING:
            _event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING)
        _event(booking, EventType.BOOKING_FAILED, previous={"status": previous})
        email_queue(booking=booking, kind=BookingEmail.Kind.FAILED)
    return booking


def _record_outcome_unknown(
    booking: Booking, error: SupplierError, *, order: SupplierOrder | None = None
) -> Booking:
    """The supplier's answer cannot be trusted: the booking keeps its money and waits for the
    reconcile job. A paid instant booking is `confirmed` ("payment received, awaiting
    issuance"), with its events; a hold stays `pending`, a paid hold `confirmed`."""
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
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
            _event(booking, EventType.BOOKING_CREATED, status=Booking.Status.PENDING)
            _event(
                booking, EventType.BOOKING_CONFIRMED, previous={"status": Booking.Status.PENDING}
            )
    return booking


def _clear_outcome_unknown(booking: Booking) -> None:
    booking.outcome_unknown_since = None
    booking.outcome_note = ""


def _event(
    booking: Booking, type: EventType, *, status: str | None = None, previous: dict | None = None
) -> None:
    """Record a booking event. A change of an existing booking (`previous` given) is also a
    `booking.updated` with the same object, for receivers that follow every change with one
    subscription (the spec: "data or status change")."""
    data_object = booking_event_object(booking, status=status)
    for event_type in (type, EventType.BOOKING_UPDATED) if previous else (type,):
        event_record(
            team=booking.team,
            live_mode=booking.live_mode,
            type=event_type,
            data_object=data_object,
            previous_attributes=previous,
        )


# --- Wire shapes -------------------------------------------------------------------------------


def _passenger_objects(booking: Booking) -> list[dict]:
    return [
        {
            "id": p.passenger_id,
            "type": p.type,
            "given_name": p.given_name,
            "family_name": p.family_name,
            "gender": p.gender,
            "born_on": p.born_on.isoformat() if p.born_on else None,  # None once erased
            "email": p.email,
            "phone_number": p.phone_number,
        }
        for p in booking.passengers.all()
    ]


def _document_objects(booking: Booking) -> list[dict]:
    return [
        {"type": d.type, "unique_identifier": d.unique_identifier, "passenger_id": d.passenger_id}
        for d in booking.documents.all()
    ]


def booking_event_object(booking: Booking, *, status: str | None = None) -> dict:
    """`data.object` of booking events: the fields the spec lists. `status` overrides the
    booking's for the events of states it passed through on the way, whose `documents` are
    those of that state: none before tickets are issued."""
    status = status or booking.status
    unissued = status in (Booking.Status.PENDING, Booking.Status.CONFIRMED)
    return {
        "id": booking.id,
        "booking_reference": booking.booking_reference,
        "status": status,
        "total_amount": fmt(booking.total_amount),
        "currency": booking.total_currency,
        "documents": [] if unissued else _document_objects(booking),
        "passengers": _passenger_objects(booking),
        "slices": booking.slices,
        "created_at": iso_utc(booking.created_at),
    }


def booking_object(booking: Booking) -> dict:
    awaiting = booking.status == Booking.Status.PENDING
    return {
        "id": booking.id,
        "booking_reference": booking.booking_reference,
        "status": booking.status,
        "type": booking.type,
        "live_mode": booking.live_mode,
        "synced_at": iso_utc(booking.synced_at),
        "created_at": iso_utc(booking.created_at),
        "total_amount": fmt(booking.total_amount),
        "total_currency": booking.total_currency,
        "tax_amount": fmt(booking.tax_amount),
        "tax_currency": booking.total_currency,
        "base_amount": fmt(booking.base_amount),
        "base_currency": booking.total_currency,
        "owner": booking.owner,
        "slices": booking.slices,
        "passengers": _passenger_objects(booking),
        "documents": _document_objects(booking),
        "conditions": booking.conditions,
        "payment_status": {
            "awaiting_payment": awaiting,
            "payment_required_by": iso_utc(booking.payment_required_by),
            "price_guarantee_expires_at": iso_utc(booking.price_guarantee_expires_at),
        },
        "metadata": booking.metadata,
    }


# --- Confirm, ticket, cancel, expire ----------------------------------------------------------


class BookingAlreadyConfirmed(Conflict):
    code = "booking_already_confirmed"
    message = "Booking already confirmed"


class BookingAlreadyCancelled(Conflict):
    code = "booking_already_cancelled"
    message = "Booking already cancelled"


class BookingNotPayable(Conflict):
    code = "booking_not_payable"
    message = "Only a pending booking can be confirmed"
    messages = ("The payment deadline has passed; search again",)


class BookingNotCancellable(Conflict):
    code = "booking_not_cancellable"
    message = "This booking can no longer be cancelled"
    messages = ("The flight has departed",)


class BookingOutcomeUnknown(Conflict):
    code = "booking_outcome_unknown"
    message = (
        "The flight supplier has not confirmed this booking's outcome yet; we are checking "
        "with it: try again in a few minutes"
    )


def booking_confirm(*, booking: Booking, payment: object) -> Booking:
    """Pay a hold from the wallet: `confirmed`, then tickets are issued by a task."""
    check_payment(offer=booking, payment=payment)
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
        _event(booking, EventType.BOOKING_CONFIRMED, previous={"status": Booking.Status.PENDING})
        from bookings.tasks import issue_tickets

        issue_tickets.delay_on_commit(booking.id)  # type: ignore[attr-defined]  # DjangoTask
    return booking


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
        return _record_outcome_unknown(booking, exc)
    except SupplierError as exc:
        issued = _already_issued(supplier, booking)
        if issued is None:
            return _record_failure(booking, exc)
        order = issued
    return _record_order(booking, order)


def _already_issued(supplier: FlightSupplier, booking: Booking) -> SupplierOrder | None:
    """After a crash between paying and recording, the supplier has the tickets already."""
    try:
        order = supplier.get_order(booking.supplier_order_id)
    except SupplierError:
        return None
    return order if order.documents else None


def _check_cancellable(booking: Booking) -> None:
    if booking.status == Booking.Status.CANCELLED:
        raise BookingAlreadyCancelled()
    if booking.outcome_unknown_since or (
        # A paid instant booking without its order: the order may exist (a request still
        # waiting on the supplier, or one that died); the reconcile job finds out first.
        booking.type == Booking.Type.INSTANT
        and booking.status == Booking.Status.PENDING
        and not booking.supplier_order_id
    ):
        raise BookingOutcomeUnknown()
    if booking.status not in (
        Booking.Status.PENDING,
        Booking.Status.CONFIRMED,
        Booking.Status.TICKETED,
    ):
        raise BookingNotCancellable(details={"status": booking.status})
    if booking.departing_at <= timezone.now():
        raise BookingNotCancellable("The flight has departed", details={"status": booking.status})


def booking_cancel(*, booking: Booking) -> tuple[Booking, dict]:
    """Cancel per the states table; returns the booking and the spec's `refund` object."""
    _check_cancellable(booking)
    if booking.supplier_order_id:  # a network call: before, never inside, the transaction
        supplier = supplier_for_booking(booking)
        quote = supplier.quote_cancellation(booking.supplier_order_id)
        supplier.confirm_cancellation(quote.supplier_quote_id)
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        # The refund follows the state under the lock: the booking may have been confirmed
        # (debited) or have failed (refunded) since it was read.
        _check_cancellable(booking)
        previous = booking.status
        refund_amount, paid = _refund_for(booking)
        booking.status = Booking.Status.CANCELLED
        booking.cancelled_at = timezone.now()
        booking.save()
        if refund_amount:
            wallet_credit(
                team=booking.team,
                live_mode=booking.live_mode,
                amount=_refund_in_brl(booking, refund_amount),
                reference_type=Transaction.ReferenceType.REFUND,
                reference_id=booking.id,
                description=f"Refund of booking {booking.id}",
            )
        _event(booking, EventType.BOOKING_CANCELLED, previous={"status": previous})
        email_queue(booking=booking, kind=BookingEmail.Kind.CANCELLED)
    condition = booking.conditions["refund_before_departure"]
    return booking, {
        "amount": fmt(refund_amount or Decimal("0")),
        "currency": booking.total_currency,
        "penalty_amount": condition.get("penalty_amount") if paid else None,
        "penalty_currency": condition.get("penalty_currency") if paid else None,
    }


@dataclass(frozen=True)
class CancelPreview:
    """What cancelling a booking now would refund (booking_cancel computes it the same way)."""

    refund_amount: Decimal  # in the booking's currency
    currency: str
    refund_brl: Decimal  # what the wallet would be credited
    penalty_amount: str | None
    penalty_currency: str | None


def booking_cancel_preview(*, booking: Booking) -> CancelPreview:
    """The refund booking_cancel would make in the booking's current state, without cancelling
    (the panel's confirmation page). Raises what booking_cancel would raise."""
    _check_cancellable(booking)
    refund_amount, paid = _refund_for(booking)
    condition = booking.conditions["refund_before_departure"]
    return CancelPreview(
        refund_amount=refund_amount or Decimal("0.00"),
        currency=booking.total_currency,
        refund_brl=_refund_in_brl(booking, refund_amount) if refund_amount else Decimal("0.00"),
        penalty_amount=condition.get("penalty_amount") if paid else None,
        penalty_currency=condition.get("penalty_currency") if paid else None,
    )


def _refund_for(booking: Booking) -> tuple[Decimal | None, bool]:
    """(refund in the booking's currency or None, whether the booking was paid)."""
    paid = booking.status != Booking.Status.PENDING
    return (_refund_due(booking) if paid else None), paid


def _refund_due(booking: Booking) -> Decimal | None:
    """Original-currency refund per `conditions.refund_before_departure`."""
    condition = booking.conditions["refund_before_departure"]
    if not condition.get("allowed"):
        return None
    penalty = Decimal(condition.get("penalty_amount") or "0")
    return max(booking.total_amount - penalty, Decimal("0"))


def _refund_in_brl(booking: Booking, refund: Decimal) -> Decimal:
    """A refund of R credits q(R × locked rate); a full refund credits exactly what was debited."""
    if refund >= booking.total_amount:
        return booking.base_cost_brl
    return min(q(refund * booking.exchange_rate), booking.base_cost_brl)


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
        _clear_outcome_unknown(booking)  # the hold lapsed at the airline too: nothing to find
        booking.save()
        _event(booking, EventType.BOOKING_EXPIRED, previous={"status": Booking.Status.PENDING})
    return True


def booking_holds_expire_due(*, now: datetime | None = None) -> int:
    """Expire pending holds past their payment deadline (`booking.expired`)."""
    now = now or timezone.now()
    due = Booking.objects.filter(
        type=Booking.Type.HOLD, status=Booking.Status.PENDING, payment_required_by__lte=now
    )
    return sum(booking_expire(booking=b, now=now) for b in due.iterator())


# Ticketing confirmed this long ago and not done: its task message was lost or its worker killed.
STUCK_CONFIRMED_AFTER = timedelta(minutes=5)


def bookings_stuck_confirmed_requeue(*, now: datetime | None = None) -> int:
    """Queue ticketing again for bookings confirmed more than 5 minutes ago and still not
    ticketed (issuing is idempotent). Unknown outcomes are the reconcile job's, never re-paid."""
    from bookings.tasks import issue_tickets

    cutoff = (now or timezone.now()) - STUCK_CONFIRMED_AFTER
    stuck = Booking.objects.filter(
        status=Booking.Status.CONFIRMED,
        confirmed_at__lte=cutoff,
        outcome_unknown_since__isnull=True,
    )
    booking_ids = list(stuck.values_list("id", flat=True))
    for booking_id in booking_ids:
        issue_tickets.delay(booking_id)
    return len(booking_ids)


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


# --- Unknown outcomes: asking the supplier what happened ---------------------------------------

# Longer than any supplier call (a Duffel order may take 130 s): a live check is never joined.
CHECK_LEASE = timedelta(seconds=180)
# Orders are looked for from a little before the booking was written (clocks differ).
ORDER_LOOKBACK = timedelta(minutes=5)


class OrderAbsent(SupplierError):
    code = "supplier_order_absent"
    message = "The flight supplier has no issued order for this booking: nothing was issued"


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
