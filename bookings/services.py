"""Bookings: create (hold or instant), with the wallet effects of DESIGN.md "Money".

No lock is ever held across a supplier call: each step that talks to the supplier sits between
two short transactions. The booking row claims its offer first (a unique constraint on
`offer_id`), so an offer is never booked twice."""

from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone

from agencies.models import Client
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
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import OrderPassenger, SupplierError, SupplierOrder
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
    team,
    live_mode: bool,
    offer_id: str,
    type: str,
    passengers,
    payments=None,
    metadata=None,
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
        )
    except SupplierError as exc:
        if instant:  # the wallet was debited: the booking stays, failed and refunded
            return _record_failure(booking, exc)
        Booking.objects.filter(pk=booking.pk).delete()  # a refused hold: no booking remains
        raise
    if instant:
        return _record_ticketed(booking, order, previous_status=Booking.Status.PENDING)
    return _record_hold(booking, order)


def _resume(booking: Booking, *, offer: BookableOffer) -> Booking:
    """The booking of a retried request whose first attempt died after writing it. Left
    pending without a supplier order (the process died before or during the supplier call,
    an instant booking already debited), it is ordered now; otherwise it is answered as it is.
    Only this retry runs: it holds the Idempotency-Key (the others are told it is in flight)."""
    if booking.status != Booking.Status.PENDING or booking.supplier_order_id:
        return booking
    return _place_order(booking, offer=offer)


def _order_passengers(booking: Booking) -> list[OrderPassenger]:
    """The booking's passengers as the supplier knows them (by its passenger ids)."""
    passengers = list(booking.passengers.order_by("position"))
    supplier_id = {p.passenger_id: p.supplier_passenger_id or p.passenger_id for p in passengers}
    return [
        OrderPassenger(
            supplier_passenger_id=supplier_id[p.passenger_id],
            type=p.type,
            title=p.title or None,
            given_name=p.given_name,
            family_name=p.family_name,
            gender=p.gender,
            born_on=p.born_on,
            email=p.email,
            phone_number=p.phone_number,
            identity_documents=tuple(p.identity_documents),
            infant_supplier_passenger_id=supplier_id.get(p.infant_passenger_id)
            if p.infant_passenger_id
            else None,
        )
        for p in passengers
    ]


def _booked_by_the_same_request(*, offer: BookableOffer, team, key: str) -> Booking | None:
    if not key:
        return None
    return Booking.objects.filter(offer_id=offer.id, team=team, idempotency_key=key).first()


def _claim_offer(
    *, team, live_mode, offer: BookableOffer, type, people, metadata, idempotency_key=""
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


def _client_for(*, team, live_mode, people: list[PassengerInput], metadata: dict) -> Client:
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


def _record_hold(booking: Booking, order: SupplierOrder) -> Booking:
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
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


def _record_ticketed(booking: Booking, order: SupplierOrder, *, previous_status) -> Booking:
    """Tickets issued: documents, `ticketed`, and an event for every state passed through."""
    passenger_of = {
        p.supplier_passenger_id or p.passenger_id: p.passenger_id for p in booking.passengers.all()
    }
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if booking.status not in _AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or failed) by another request
        now = timezone.now()
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
        if previous_status == Booking.Status.PENDING:
            email_queue(booking=booking, kind=BookingEmail.Kind.CREATED)
        email_queue(booking=booking, kind=BookingEmail.Kind.TICKETED)
    return booking


def _record_failure(booking: Booking, error: ApplicationError) -> Booking:
    """Issuance failed after the debit: `failed`, and the full amount back to the wallet."""
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if booking.status not in _AWAITING_SUPPLIER:
            return booking  # settled meanwhile (cancelled, or ticketed) by another request
        previous = booking.status
        booking.status = Booking.Status.FAILED
        booking.failure_reason = f"{error.code}: {error.message}"[:255]
        booking.save()
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
    return booking


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
            "born_on": p.born_on.isoformat(),
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


class BookingNotCancellable(Conflict):
    code = "booking_not_cancellable"
    message = "This booking can no longer be cancelled"


def booking_confirm(*, booking: Booking, payment) -> Booking:
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

        issue_tickets.delay_on_commit(booking.id)
    return booking


def booking_issue_tickets(*, booking_id: str) -> Booking:
    """Issue a confirmed booking's tickets. Idempotent: a booking that is not `confirmed` is
    left alone, and a payment the supplier already took is read back, not made again."""
    booking = Booking.objects.get(pk=booking_id)
    if booking.status != Booking.Status.CONFIRMED:
        return booking
    supplier = supplier_for_booking(booking)
    try:
        order = supplier.pay_order(
            order_id=booking.supplier_order_id,
            amount=booking.total_amount,
            currency=booking.total_currency,
        )
    except SupplierError as exc:
        order = _already_issued(supplier, booking)
        if order is None:
            return _record_failure(booking, exc)
    return _record_ticketed(booking, order, previous_status=Booking.Status.CONFIRMED)


def _already_issued(supplier, booking: Booking) -> SupplierOrder | None:
    """After a crash between paying and recording, the supplier has the tickets already."""
    try:
        order = supplier.get_order(booking.supplier_order_id)
    except SupplierError:
        return None
    return order if order.documents else None


def _check_cancellable(booking: Booking) -> None:
    if booking.status == Booking.Status.CANCELLED:
        raise BookingAlreadyCancelled()
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
        # An instant booking is debited when it is written: still pending, its supplier order
        # never came back (an interrupted request), so it is refunded in full.
        interrupted = previous == Booking.Status.PENDING and booking.type == Booking.Type.INSTANT
        paid = previous != Booking.Status.PENDING
        refund_amount = (
            booking.total_amount if interrupted else (_refund_due(booking) if paid else None)
        )
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
        "amount": fmt(refund_amount or 0),
        "currency": booking.total_currency,
        "penalty_amount": condition.get("penalty_amount") if paid else None,
        "penalty_currency": condition.get("penalty_currency") if paid else None,
    }


def _refund_due(booking: Booking):
    """Original-currency refund per `conditions.refund_before_departure`."""
    condition = booking.conditions["refund_before_departure"]
    if not condition.get("allowed"):
        return None
    penalty = Decimal(condition.get("penalty_amount") or "0")
    return max(booking.total_amount - penalty, Decimal("0"))


def _refund_in_brl(booking: Booking, refund):
    """A refund of R credits q(R × locked rate); a full refund credits exactly what was debited."""
    if refund >= booking.total_amount:
        return booking.base_cost_brl
    return min(q(refund * booking.exchange_rate), booking.base_cost_brl)


def booking_expire(*, booking: Booking, now=None) -> bool:
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
        booking.save()
        _event(booking, EventType.BOOKING_EXPIRED, previous={"status": Booking.Status.PENDING})
    return True
