"""Extras (bags and seats) of bookings (docs/extras.md): bought with an instant booking (the
requested services checked against what the supplier sells with the offer now, priced for the
team by flights.services_extras, kept on the booking as it shows them), and bags added after
the sale (`BookingServicesPurchase`: debited, then settled on the supplier's answer once)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone

from agencies.models import Team
from bookings.emails import email_queue_each_time
from bookings.inputs import PaymentInput, payment_check
from bookings.models import Booking, BookingEmail, BookingServicesPurchase
from bookings.payloads import booking_event_object
from bookings.services.recording import record_events
from core.exceptions import ApplicationError, Conflict, InvalidRequest
from core.money import fmt
from flights.selectors import BookableOffer
from flights.services_extras import (
    Extras,
    Trip,
    extras_price,
    seat_services,
    service_record,
    services_list,
    slices_with_services,
    trip_of_offer,
)
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import ServiceRequest, SupplierError, SupplierOutcomeUnknown
from wallet.models import Transaction
from wallet.selectors import wallet_ensure_unrestricted
from wallet.services import wallet_credit, wallet_debit
from webhooks.models import EventType
from webhooks.services import NewEvent


class ServicesNeedInstant(InvalidRequest):
    """Extras are bought and paid with the booking: a hold takes none (as at Duffel)."""

    code = "services_need_instant"
    message = "Services can only be bought with an instant booking"


class _OfferAt:
    """What `supplier_for_booking` reads: the offer's supplier, for the team and mode."""

    def __init__(self, offer: BookableOffer, team: Team, live_mode: bool):
        self.supplier, self.team, self.live_mode = offer.supplier, team, live_mode


def offer_extras(
    *,
    team: Team,
    live_mode: bool,
    offer: BookableOffer,
    type: str,
    requests: list[dict] | None,
) -> Extras:
    """The requested services priced for the team (none: nothing). The supplier is asked what
    it sells now: its extra bags, then its seat maps when a requested id is not a bag. Raises
    ServicesNeedInstant, ServiceNotAvailable, ServiceQuantityInvalid, SupplierError."""
    if not requests:
        return Extras()
    if type != Booking.Type.INSTANT:
        raise ServicesNeedInstant()
    supplier = supplier_for_booking(_OfferAt(offer, team, live_mode))
    available = supplier.offer_services(offer)
    sold = {service.id for service in available}
    if any(request["id"] not in sold for request in requests):
        available += seat_services(supplier.offer_seat_maps(offer))
    return extras_price(
        trip=trip_of_offer(offer), team=team, requests=requests, available=available
    )


def extras_records(offer: BookableOffer, extras: Extras) -> list[dict]:
    trip = trip_of_offer(offer)
    return [service_record(trip, line) for line in extras.lines]


def service_requests(booking: Booking) -> tuple[ServiceRequest, ...]:
    """The services bought with the booking, as its order asks the supplier for them."""
    return tuple(
        ServiceRequest(id=s["id"], quantity=s["quantity"])
        for s in booking.services
        if not s.get("purchase_id")  # bought after the booking: not part of its order
    )


# --- After the sale ----------------------------------------------------------------------------


class BookingServicesUnavailable(Conflict):
    """Extras are added to a ticketed booking before its departure, its outcome known."""

    code = "booking_services_unavailable"
    message = "Extras can be added only to a ticketed booking before departure"


class BookingServicesInProgress(Conflict):
    """Another purchase of extras for the booking is waiting for the supplier's answer."""

    code = "booking_services_in_progress"
    message = (
        "Extras are being added to this booking; wait for that purchase to be settled "
        "before adding more"
    )


class BookingServicesOutcomeUnknown(SupplierError):
    """The supplier's answer to adding extras was lost or unreadable: they may have been added.
    The wallet stays debited (once); the reconcile job reads the order and settles it."""

    code = "services_outcome_unknown"
    message = (
        "The flight supplier did not confirm the extras; the wallet was debited once and we "
        "are checking with the supplier (do not buy them again)"
    )


UNSETTLED = (BookingServicesPurchase.Status.PENDING, BookingServicesPurchase.Status.UNKNOWN)


def trip_of_booking(booking: Booking) -> Trip:
    passengers = list(booking.passengers.order_by("position"))
    return Trip(
        slices=booking.slices,
        passengers=[{"id": p.passenger_id, "type": p.type} for p in passengers],
        supplier_passenger_ids=[p.supplier_passenger_id for p in passengers],
        currency=booking.total_currency,
        exchange_rate=booking.exchange_rate,
    )


def check_services_addable(booking: Booking) -> None:
    if (
        booking.status != Booking.Status.TICKETED
        or booking.outcome_unknown_since is not None
        or not booking.supplier_order_id
        or booking.departing_at <= timezone.now()
    ):
        raise BookingServicesUnavailable(details={"status": booking.status})


def booking_services_available(*, booking: Booking) -> list[dict]:
    """The extra bags the supplier sells for the booking now, priced for the team at the
    booking's own exchange rate."""
    check_services_addable(booking)
    supplier = supplier_for_booking(booking)
    services = supplier.order_services(order_id=booking.supplier_order_id, booking=booking)
    return services_list(trip_of_booking(booking), booking.team, services)


def booking_services_add(
    *, booking: Booking, add_services: list[dict], payment: PaymentInput
) -> Booking:
    """Buy extras for a ticketed booking: checked and priced against what the supplier sells
    now, the payment their total in the booking's currency; the wallet debited their BRL cost
    before the supplier is asked (as an instant booking is), refunded if the supplier certainly
    refuses, kept and settled later if its answer is lost. A wallet in debt buys nothing
    (WalletRestricted), asked before the supplier is."""
    check_services_addable(booking)
    wallet_ensure_unrestricted(team=booking.team, live_mode=booking.live_mode)
    if booking.services_purchases.filter(status__in=UNSETTLED).exists():
        raise BookingServicesInProgress()
    supplier = supplier_for_booking(booking)
    trip = trip_of_booking(booking)
    available = supplier.order_services(order_id=booking.supplier_order_id, booking=booking)
    extras = extras_price(
        trip=trip,
        team=booking.team,
        requests=add_services,
        available=available,
        field_name="add_services",
    )
    payment_check(payment=payment, amount=extras.total_amount, currency=booking.total_currency)
    with transaction.atomic():
        locked = Booking.objects.select_for_update().select_related("team").get(pk=booking.pk)
        check_services_addable(locked)
        if locked.services_purchases.filter(status__in=UNSETTLED).exists():
            raise BookingServicesInProgress()
        purchase = BookingServicesPurchase.objects.create(
            booking=locked,
            services=[service_record(trip, line) for line in extras.lines],
            total_amount=extras.total_amount,
            total_currency=locked.total_currency,
            base_cost_brl=extras.base_cost_brl,
            markup_amount=extras.markup_amount,
            client_amount=extras.client_amount,
            expected_order_total=locked.total_amount + extras.total_amount,
        )
        wallet_debit(
            team=locked.team,
            live_mode=locked.live_mode,
            amount=extras.base_cost_brl,
            reference_type=Transaction.ReferenceType.BOOKING_SERVICES,
            reference_id=purchase.id,
            description=f"Extras for booking {locked.id} ({len(extras.lines)})",
        )
    try:
        order = supplier.add_order_services(
            order_id=booking.supplier_order_id,
            booking=booking,
            services=extras.requests(),
            amount=extras.total_amount,
            currency=booking.total_currency,
        )
    except SupplierOutcomeUnknown as exc:
        _note(purchase.pk, f"{exc.code}: {exc.message}", unknown=True)
        raise BookingServicesOutcomeUnknown(details={"purchase_id": purchase.pk}) from exc
    except SupplierError:
        _fail(purchase.pk, "the supplier refused the extras")
        raise
    except Exception:  # ours, after sending: the extras may have been added
        _note(purchase.pk, "the answer could not be handled", unknown=True)
        raise
    return _confirm(purchase.pk, order_id=order.supplier_order_id)


def _note(purchase_id: str, note: str, *, unknown: bool = False) -> None:
    updates: dict = {"outcome_note": note[:255]}
    if unknown:
        updates["status"] = BookingServicesPurchase.Status.UNKNOWN
    BookingServicesPurchase.objects.filter(pk=purchase_id, status__in=UNSETTLED).update(**updates)


def _locked_pair(purchase_id: str) -> tuple[Booking, BookingServicesPurchase]:
    booking_id = BookingServicesPurchase.objects.values_list("booking_id", flat=True).get(
        pk=purchase_id
    )
    booking = (
        Booking.objects.select_for_update(of=("self",))
        .select_related("team")
        .prefetch_related("passengers")
        .get(pk=booking_id)
    )
    return booking, BookingServicesPurchase.objects.select_for_update().get(pk=purchase_id)


def _confirm(purchase_id: str, *, order_id: str = "") -> Booking:
    """The extras are in the order: onto the booking (its services, slices and amounts), once,
    with `booking.updated` and the e-mail."""
    with transaction.atomic():
        booking, purchase = _locked_pair(purchase_id)
        if purchase.status not in UNSETTLED:
            return booking
        previous = {
            "total_amount": fmt(booking.total_amount),
            "services": booking.services,
            "slices": booking.slices,
        }
        bought = [{**record, "purchase_id": purchase.pk} for record in purchase.services]
        booking.services = [*booking.services, *bought]
        booking.slices = slices_with_services(booking.slices, bought)
        booking.total_amount += purchase.total_amount
        booking.base_amount += purchase.total_amount
        booking.base_cost_brl += purchase.base_cost_brl
        booking.markup_amount += purchase.markup_amount
        booking.client_amount += purchase.client_amount
        if order_id:
            booking.supplier_order_id = order_id
        booking.synced_at = timezone.now()
        booking.save()
        purchase.status = BookingServicesPurchase.Status.CONFIRMED
        purchase.settled_at = timezone.now()
        purchase.outcome_note = ""
        purchase.save()
        prefetch_related_objects([booking], "documents")
        record_events(
            booking,
            [NewEvent(EventType.BOOKING_UPDATED, booking_event_object(booking), previous)],
        )
        email_queue_each_time(booking=booking, kind=BookingEmail.Kind.SERVICES_ADDED)
    return booking


def _fail(purchase_id: str, note: str) -> None:
    """Nothing was added, certainly: the purchase failed and its debit is refunded, once."""
    with transaction.atomic():
        booking, purchase = _locked_pair(purchase_id)
        if purchase.status not in UNSETTLED:
            return
        purchase.status = BookingServicesPurchase.Status.FAILED
        purchase.settled_at = timezone.now()
        purchase.outcome_note = note[:255]
        purchase.save()
        wallet_credit(
            team=booking.team,
            live_mode=booking.live_mode,
            amount=purchase.base_cost_brl,
            reference_type=Transaction.ReferenceType.REFUND,
            reference_id=purchase.pk,
            description=f"Refund of extras {purchase.pk} for booking {booking.id}: not added",
        )


def booking_services_check(*, purchase_id: str) -> str:
    """Settle a purchase whose answer was lost, from the supplier's order: its total grew by
    the extras → "confirmed"; still not, after SUPPLIER_UNKNOWN_GRACE_SECONDS → "failed"
    (refunded); else "unknown" (ask again later); "settled" when there is nothing to do."""
    purchase = BookingServicesPurchase.objects.select_related("booking__team").get(pk=purchase_id)
    if purchase.status not in UNSETTLED:
        return "settled"
    booking = purchase.booking
    try:
        order = supplier_for_booking(booking).get_order(booking.supplier_order_id)
    except ApplicationError as exc:
        _note(purchase.pk, f"check failed, {exc.code}: {exc.message}")
        return "unknown"
    if order.total_amount is not None and order.total_amount >= purchase.expected_order_total:
        _confirm(purchase.pk, order_id=order.supplier_order_id)
        return "confirmed"
    grace = timedelta(seconds=settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
    if order.total_amount is None or timezone.now() - purchase.created_at < grace:
        _note(purchase.pk, "the order does not show the extras yet; waiting for the grace period")
        return "unknown"
    _fail(purchase.pk, "the supplier did not add the extras")
    return "failed"


def booking_services_unsettled(*, now: datetime | None = None) -> list[str]:
    """The reconcile job's share: purchases left pending by a request that is certainly over
    become unknown; every unknown one is due for a check."""
    now = now or timezone.now()
    cutoff = now - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT
    BookingServicesPurchase.objects.filter(
        status=BookingServicesPurchase.Status.PENDING, created_at__lt=cutoff
    ).update(
        status=BookingServicesPurchase.Status.UNKNOWN,
        outcome_note="the request ended before the supplier answered",
    )
    return list(
        BookingServicesPurchase.objects.filter(
            status=BookingServicesPurchase.Status.UNKNOWN
        ).values_list("id", flat=True)
    )
