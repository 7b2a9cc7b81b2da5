"""Changing a booking's flights at its supplier (docs/after-sale.md): a change request (`ocr_`,
Duffel's OrderChangeRequest) answered with the airline's offers (`oco_`, its
OrderChangeOffers), each priced in BRL at the booking's own exchange rate; then one offer
confirmed (Duffel creates an OrderChange and confirms it).

Money: a positive difference is debited from the wallet in the transaction that claims the offer
for confirmation (so a balance too low is `422 Insufficient balance` with nothing written, and
racing confirmations debit once: `reference_type` `booking_change`, the offer's id), and given
back if the supplier certainly did not make the change. A negative difference is credited only
once the supplier's confirmed change is read, and only when refunded in cash (`refund_to`
`balance`, `original_form_of_payment`, `arc_bsp_cash`). A confirmation whose answer cannot be
trusted leaves the offer `unknown` (nothing more moves) and the reconcile job settles it once
from the supplier's order change (`booking_change_check`)."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from agencies.models import Team
from bookings.emails import email_queue_each_time
from bookings.errors import (
    BookingNotChangeable,
    BookingOutcomeUnknown,
    CancellationInProgress,
    ChangeInProgress,
    ChangeNotSettled,
    ChangeOfferExpired,
    ChangeOfferNotFound,
)
from bookings.inputs import PaymentInput, payment_check
from bookings.models import (
    Booking,
    BookingCancellation,
    BookingChangeOffer,
    BookingChangeRequest,
    BookingDocument,
    BookingEmail,
)
from bookings.payloads import booking_event_object
from bookings.services.recording import booking_event, record_events
from core.exceptions import ApplicationError
from core.ids import new_id
from core.money import fmt, q
from core.timestamps import iso_utc
from flights import airports
from flights.payloads import OfferRenderer, number
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import (
    FlightSupplier,
    SupplierError,
    SupplierOrder,
    SupplierOutcomeUnknown,
)
from flights.suppliers.order_changes import (
    CASH_CHANGE_REFUND_TO,
    BookedOrder,
    ChangeSlice,
    SupplierChangeOffer,
    SupplierOrderChange,
)
from wallet.models import Transaction
from wallet.services import wallet_credit, wallet_debit
from webhooks.models import EventType

ZERO = Decimal("0.00")
UNSETTLED = (BookingChangeOffer.Status.CONFIRMING, BookingChangeOffer.Status.UNKNOWN)
# A supplier's SupplierError codes that say it could not answer (passed on as they are); any
# other is the airline refusing the change (409 booking_not_changeable).
NOT_A_REFUSAL = frozenset(
    {
        "supplier_unavailable",
        "supplier_bad_response",
        "supplier_authentication_failed",
        "supplier_rate_limited",
        "supplier_error",
        SupplierOutcomeUnknown.code,
    }
)
EXPIRED_CODES = frozenset({"order_change_offer_expired"})


# --- Pricing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChangePrice:
    change_cost_brl: Decimal  # negative for a refund
    markup_amount: Decimal
    fee_amount: Decimal
    client_change_amount: Decimal


def change_price(
    *, booking: Booking, team: Team, change_total: Decimal, refund_to: str | None
) -> ChangePrice:
    """The agency's price of a change (docs/after-sale.md "Pricing a change"): its cost is
    `change_total_amount` × the booking's own rate (cents, half up, as offers are), the FX
    margin it was booked with already in it (never added again). The client pays the cost,
    the team's markup on a positive cost (none on a refund) and the team's fee (the work of
    rebooking, on every change); a refund the client gets back in money is subtracted, one to
    a voucher or airline credits is not (the credit stays with the airline)."""
    cost = q(change_total * booking.exchange_rate)
    markup = q(cost * team.markup_percent / 100) if cost > 0 else ZERO
    fee = q(team.fee.amount)  # type: ignore[attr-defined]  # MoneyField: Money
    client_cost = cost if cost > 0 or (refund_to or "") in CASH_CHANGE_REFUND_TO else ZERO
    return ChangePrice(
        change_cost_brl=cost,
        markup_amount=markup,
        fee_amount=fee,
        client_change_amount=client_cost + markup + fee,
    )


# --- Checks ------------------------------------------------------------------------------------


def check_changeable(booking: Booking) -> None:
    if booking.outcome_unknown_since:
        raise BookingOutcomeUnknown()
    if booking.status != Booking.Status.TICKETED:
        raise BookingNotChangeable(
            "Only a ticketed booking can be changed", details={"status": booking.status}
        )
    if booking.departing_at <= timezone.now():
        raise BookingNotChangeable("The flight has departed", details={"status": booking.status})
    condition = (booking.conditions or {}).get("change_before_departure") or {}
    if not condition.get("allowed"):
        raise BookingNotChangeable(
            "The fare's conditions do not allow changes",
            details={"change_before_departure": condition},
        )
    if booking.cancellations.filter(
        status__in=(BookingCancellation.Status.CONFIRMING, BookingCancellation.Status.UNKNOWN)
    ).exists():
        raise CancellationInProgress()


def _refusal(exc: SupplierError) -> BookingNotChangeable:
    return BookingNotChangeable(
        "The airline refused the change",
        details={"supplier_code": exc.code, "supplier_message": exc.message},
    )


def _locked(booking_id: str) -> Booking:
    return (
        Booking.objects.select_for_update(of=("self",))
        .select_related("team")
        .prefetch_related("passengers")
        .get(pk=booking_id)
    )


# --- The change request ------------------------------------------------------------------------


def booked_order(booking: Booking) -> BookedOrder:
    condition = (booking.conditions or {}).get("change_before_departure") or {}
    penalty = condition.get("penalty_amount")
    passengers = list(booking.passengers.all())
    return BookedOrder(
        order_id=booking.supplier_order_id,
        slices=tuple(
            (s["segments"][0]["origin"]["iata_code"], s["segments"][-1]["destination"]["iata_code"])
            for s in booking.slices
        ),
        passenger_types=tuple(p.type for p in passengers),  # type: ignore[misc]
        family_names=tuple(p.family_name for p in passengers),
        change_allowed=bool(condition.get("allowed")),
        change_penalty=Decimal(penalty) if penalty is not None else None,
        total_amount=booking.total_amount,
        total_currency=booking.total_currency,
    )


def booking_change_request(
    *, booking: Booking, remove: list[str], add: list[ChangeSlice]
) -> BookingChangeRequest:
    """Ask the supplier for offers to change the booking's slices `remove` (their ids, checked
    by the caller) for the slices `add`."""
    check_changeable(booking)
    if booking.change_offers.filter(status__in=UNSETTLED).exists():
        raise ChangeInProgress()
    position_of = {s["id"]: i for i, s in enumerate(booking.slices)}
    for slice_id in remove:
        if slice_id not in position_of:
            raise BookingNotChangeable(
                f"The booking has no slice {slice_id}", details={"slice_id": slice_id}
            )
    positions = [position_of[slice_id] for slice_id in remove]
    supplier = supplier_for_booking(booking)
    try:  # a network call: before, never inside, the transaction
        answer = supplier.request_order_change(
            order=booked_order(booking), remove=tuple(positions), add=tuple(add)
        )
    except SupplierError as exc:
        if exc.code in NOT_A_REFUSAL:
            raise
        raise _refusal(exc) from exc
    passengers = [(p.passenger_id, p.type) for p in booking.passengers.all()]
    with transaction.atomic():
        booking = _locked(booking.pk)
        check_changeable(booking)
        request = BookingChangeRequest.objects.create(
            booking=booking,
            supplier_request_id=answer.supplier_request_id,
            slices={
                "remove": [{"slice_id": r} for r in remove],
                "add": [
                    {
                        "origin": a.origin,
                        "destination": a.destination,
                        "departure_date": a.departure_date.isoformat(),
                        "cabin_class": str(a.cabin_class),
                    }
                    for a in add
                ],
            },
        )
        BookingChangeOffer.objects.bulk_create(
            [
                _offer_row(booking, request, offer, passengers)
                for offer in answer.offers
                if offer.change_total_currency == booking.total_currency
            ]
        )
    return request


def _offer_row(
    booking: Booking,
    request: BookingChangeRequest,
    offer: SupplierChangeOffer,
    passengers: list[tuple[str, str]],
) -> BookingChangeOffer:
    offer_id = new_id("oco")
    price = change_price(
        booking=booking,
        team=booking.team,
        change_total=offer.change_total_amount,
        refund_to=offer.refund_to,
    )
    return BookingChangeOffer(
        id=offer_id,
        change_request=request,
        booking=booking,
        supplier_offer_id=offer.supplier_offer_id,
        slices={
            "add": _as_booked(OfferRenderer(passengers).slices(offer_id, offer.added)),
            "remove": [booking.slices[position] for position in offer.removed],
        },
        change_total_amount=offer.change_total_amount,
        change_total_currency=offer.change_total_currency,
        penalty_amount=offer.penalty_amount,
        penalty_currency=offer.penalty_currency if offer.penalty_amount is not None else "",
        new_total_amount=offer.new_total_amount,
        new_total_currency=offer.new_total_currency,
        refund_to=offer.refund_to or "",
        expires_at=offer.expires_at,
        exchange_rate=booking.exchange_rate,
        fx_reference_rate=booking.fx_reference_rate,
        fx_margin_percent=booking.fx_margin_percent,
        change_cost_brl=price.change_cost_brl,
        markup_amount=price.markup_amount,
        fee_amount=price.fee_amount,
        client_change_amount=price.client_change_amount,
    )


def _as_booked(slices: list[dict]) -> list[dict]:
    """Offer slices as a booking shows them: each segment passenger with its cabin, its
    baggage and its seat (none chosen on a changed flight), as `creation` books them."""
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


# --- Confirming a change -----------------------------------------------------------------------


def booking_change_confirm(
    *, booking: Booking, change_offer_id: str, payment: PaymentInput
) -> Booking:
    """Confirm a change offer at the supplier and settle on its confirmed answer. A confirmed
    offer answers the booking again (a retry, a racing confirm): never settled twice."""
    supplier = supplier_for_booking(booking)
    with transaction.atomic():
        booking = _locked(booking.pk)
        offer = (
            BookingChangeOffer.objects.select_for_update()
            .filter(booking=booking, pk=change_offer_id)
            .first()
        )
        if offer is None:
            raise ChangeOfferNotFound()
        if offer.status == BookingChangeOffer.Status.CONFIRMED:
            return booking
        if offer.status in UNSETTLED or booking.change_offers.filter(status__in=UNSETTLED).exists():
            raise ChangeInProgress()
        check_changeable(booking)
        if offer.status == BookingChangeOffer.Status.FAILED or _expired(offer):
            raise ChangeOfferExpired(details={"expires_at": iso_utc(offer.expires_at)})
        current = {s["id"] for s in booking.slices}
        if not {s["id"] for s in offer.slices["remove"]} <= current:
            # Made before another change of the booking: its slices are gone.
            raise ChangeOfferExpired(details={"reason": "the booking changed since"})
        payment_check(
            payment=payment, amount=offer.change_total_amount, currency=offer.change_total_currency
        )
        # InsufficientBalance (or WalletRestricted: a wallet in debt pays nothing) rolls all of
        # this back; a change that costs nothing or refunds is made whatever the debt.
        if offer.change_cost_brl > 0:
            wallet_debit(
                team=booking.team,
                live_mode=booking.live_mode,
                amount=offer.change_cost_brl,
                reference_type=Transaction.ReferenceType.BOOKING_CHANGE,
                reference_id=offer.id,
                description=f"Change of booking {booking.id} ({offer.id})",
            )
            offer.wallet_amount = offer.change_cost_brl
        offer.status = BookingChangeOffer.Status.CONFIRMING
        offer.confirming_since = timezone.now()
        try:
            with transaction.atomic():
                offer.save(update_fields=["status", "confirming_since", "wallet_amount"])
        except IntegrityError:  # another offer of the booking is being confirmed
            raise ChangeInProgress() from None
    try:
        if not offer.supplier_change_id:
            pending = supplier.create_order_change(change_offer_id=offer.supplier_offer_id)
            offer.supplier_change_id = pending.supplier_change_id
            BookingChangeOffer.objects.filter(pk=offer.pk).update(
                supplier_change_id=offer.supplier_change_id
            )
        confirmed = supplier.confirm_order_change(
            change_id=offer.supplier_change_id,
            amount=max(offer.change_total_amount, ZERO),
            currency=offer.change_total_currency,
        )
    except SupplierOutcomeUnknown as exc:
        _mark_unknown(offer.pk, f"{exc.code}: {exc.message}")
        raise ChangeNotSettled(details=exc.details) from exc
    except SupplierError as exc:
        if offer.supplier_change_id and exc.code == "order_change_already_confirmed":
            _mark_unknown(offer.pk, f"{exc.code}: {exc.message}")  # by us, its answer lost
            raise ChangeNotSettled(details=exc.details) from exc
        _fail(offer.pk, f"{exc.code}: {exc.message}")
        if exc.code in EXPIRED_CODES or any(
            "expired" in str(e.get("code") or "") for e in (exc.details or {}).get("errors", [])
        ):
            raise ChangeOfferExpired() from exc
        if exc.code in NOT_A_REFUSAL:
            raise
        raise _refusal(exc) from exc
    except Exception:  # ours, after sending: the change may be made
        _mark_unknown(offer.pk, "the confirmation's answer could not be handled")
        raise
    return _settle(offer.pk, confirmed, order=_read_order(supplier, booking))


def _expired(offer: BookingChangeOffer, now: datetime | None = None) -> bool:
    return offer.expires_at is not None and offer.expires_at <= (now or timezone.now())


def _read_order(supplier: FlightSupplier, booking: Booking) -> SupplierOrder | None:
    """The order read back after a change (its reissued tickets); None when it cannot be read
    now (the tickets then stay as they were)."""
    try:
        return supplier.get_order(booking.supplier_order_id)
    except ApplicationError:
        return None


def _mark_unknown(offer_id: str, note: str) -> None:
    BookingChangeOffer.objects.filter(pk=offer_id).update(
        status=BookingChangeOffer.Status.UNKNOWN, outcome_note=note[:255]
    )


def _fail(offer_id: str, note: str) -> bool:
    """The supplier certainly did not make the change: the offer is spent, and what was debited
    for it is credited back, once."""
    with transaction.atomic():
        offer = (
            BookingChangeOffer.objects.select_for_update()
            .select_related("booking__team")
            .get(pk=offer_id)
        )
        if offer.status not in UNSETTLED:
            return False
        if offer.wallet_amount > 0:
            wallet_credit(
                team=offer.booking.team,
                live_mode=offer.booking.live_mode,
                amount=offer.wallet_amount,
                reference_type=Transaction.ReferenceType.BOOKING_CHANGE,
                reference_id=offer.id,
                description=f"Change of booking {offer.booking_id} not made ({offer.id})",
            )
            offer.wallet_amount = ZERO
        offer.status = BookingChangeOffer.Status.FAILED
        offer.outcome_note = note[:255]
        offer.save(update_fields=["status", "outcome_note", "wallet_amount"])
    return True


def _settle(
    offer_id: str, confirmed: SupplierOrderChange, *, order: SupplierOrder | None
) -> Booking:
    """Record a confirmed change on the booking, and credit a cash refund, once."""
    booking_id = BookingChangeOffer.objects.values_list("booking_id", flat=True).get(pk=offer_id)
    with transaction.atomic():  # the booking's lock first, as confirming takes them
        booking = _locked(booking_id)
        offer = BookingChangeOffer.objects.select_for_update().get(pk=offer_id)
        if offer.status == BookingChangeOffer.Status.CONFIRMED:
            return booking
        previous = {
            "slices": booking.slices,
            "total_amount": fmt(booking.total_amount),
            "documents": booking_event_object(booking)["documents"],
        }
        refund_to = confirmed.refund_to or offer.refund_to
        if offer.change_total_amount < 0 and refund_to in CASH_CHANGE_REFUND_TO:
            credit = min(-offer.change_cost_brl, booking.base_cost_brl)
            if credit > 0:
                wallet_credit(
                    team=booking.team,
                    live_mode=booking.live_mode,
                    amount=credit,
                    reference_type=Transaction.ReferenceType.BOOKING_CHANGE,
                    reference_id=offer.id,
                    description=f"Refund of the change of booking {booking.id} ({offer.id})",
                )
                offer.wallet_amount = -credit
        _apply(booking, offer, confirmed)
        booking.save()
        if order is not None and order.documents:
            _replace_documents(booking, order)
        offer.status = BookingChangeOffer.Status.CONFIRMED
        offer.confirmed_at = confirmed.confirmed_at or timezone.now()
        offer.supplier_change_id = confirmed.supplier_change_id or offer.supplier_change_id
        offer.outcome_note = ""
        offer.save()
        record_events(booking, booking_event(booking, EventType.BOOKING_UPDATED, previous=previous))
        email_queue_each_time(booking=booking, kind=BookingEmail.Kind.CHANGED)
    return booking


def _apply(booking: Booking, offer: BookingChangeOffer, confirmed: SupplierOrderChange) -> None:
    removed = {s["id"] for s in offer.slices["remove"]}
    kept = [s for s in booking.slices if s["id"] not in removed]
    booking.slices = sorted(kept + offer.slices["add"], key=_departure)
    booking.departing_at = _departure(booking.slices[0])
    booking.total_amount = confirmed.new_total_amount
    booking.base_amount = max(booking.total_amount - booking.tax_amount, ZERO)
    booking.base_cost_brl += offer.wallet_amount
    booking.markup_amount += offer.markup_amount
    booking.fee_amount += offer.fee_amount
    booking.client_amount += offer.client_change_amount
    booking.synced_at = timezone.now()


def _departure(slice_: dict) -> datetime:
    from zoneinfo import ZoneInfo

    segment = slice_["segments"][0]
    airport = airports.airport(segment["origin"]["iata_code"])
    zone = ZoneInfo(airport.time_zone if airport else "UTC")
    return datetime.fromisoformat(segment["departing_at"]).replace(tzinfo=zone)


def _replace_documents(booking: Booking, order: SupplierOrder) -> None:
    """The tickets the airline reissued for the change, in place of the old ones."""
    passenger_of = {
        p.supplier_passenger_id or p.passenger_id: p.passenger_id for p in booking.passengers.all()
    }
    booking.documents.all().delete()
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


# --- Uncertain confirmations -------------------------------------------------------------------


def booking_change_check(*, change_offer_id: str) -> str:
    """Settle an unknown confirmation from the supplier's order change: "confirmed" (settled
    once), "failed" (certainly not made after the grace period: any debit credited back),
    "unknown" (ask again later), "settled" (nothing to do)."""
    offer = BookingChangeOffer.objects.select_related("booking__team").get(pk=change_offer_id)
    if offer.status != BookingChangeOffer.Status.UNKNOWN:
        return "settled"
    booking = offer.booking
    BookingChangeOffer.objects.filter(pk=offer.pk).update(outcome_checked_at=timezone.now())
    grace = timedelta(seconds=settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
    since = offer.confirming_since or offer.created_at
    if not offer.supplier_change_id:  # the confirmation was never sent
        if timezone.now() - since < grace:
            return "unknown"
        return "failed" if _fail(offer.pk, "the change was never sent") else "settled"
    try:
        supplier = supplier_for_booking(booking)
        change = supplier.get_order_change(offer.supplier_change_id)
    except ApplicationError as exc:
        _note(offer.pk, f"check failed, {exc.code}: {exc.message}")
        return "unknown"
    if change.confirmed_at is not None:
        _settle(offer.pk, change, order=_read_order(supplier, booking))
        return "confirmed"
    if timezone.now() - since < grace:
        _note(offer.pk, "the change is not confirmed yet; waiting for the grace period")
        return "unknown"
    return "failed" if _fail(offer.pk, "the supplier did not make the change") else "settled"


def _note(offer_id: str, note: str) -> None:
    BookingChangeOffer.objects.filter(pk=offer_id).update(outcome_note=note[:255])


def booking_changes_unsettled(*, now: datetime | None = None) -> list[str]:
    """The reconcile job's share: confirmations left `confirming` by a request that is certainly
    over become unknown; every unknown one is due for a check."""
    now = now or timezone.now()
    cutoff = now - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT
    BookingChangeOffer.objects.filter(
        status=BookingChangeOffer.Status.CONFIRMING, confirming_since__lt=cutoff
    ).update(
        status=BookingChangeOffer.Status.UNKNOWN,
        outcome_note="the confirming request ended before the supplier answered",
    )
    return list(
        BookingChangeOffer.objects.filter(status=BookingChangeOffer.Status.UNKNOWN).values_list(
            "id", flat=True
        )
    )


# --- The API's objects -------------------------------------------------------------------------


def change_offer_object(offer: BookingChangeOffer) -> dict:
    return {
        "id": offer.id,
        "slices": offer.slices,
        "change_total_amount": fmt(offer.change_total_amount),
        "change_total_currency": offer.change_total_currency,
        "penalty_amount": None if offer.penalty_amount is None else fmt(offer.penalty_amount),
        "penalty_currency": offer.penalty_currency or None,
        "new_total_amount": fmt(offer.new_total_amount),
        "new_total_currency": offer.new_total_currency,
        "refund_to": offer.refund_to or None,
        "expires_at": iso_utc(offer.expires_at) if offer.expires_at else None,
        "change_cost_brl": fmt(offer.change_cost_brl),
        "client_change_amount": fmt(offer.client_change_amount),
        "client_currency": "BRL",
        "exchange_rate_used": number(offer.exchange_rate),
        # How the booking's rate was quoted (None: booked before FX margins, no margin in it).
        "fx_reference_rate": number(
            offer.exchange_rate if offer.fx_reference_rate is None else offer.fx_reference_rate
        ),
        "fx_margin_percent": fmt(offer.fx_margin_percent),
    }


def change_request_object(request: BookingChangeRequest) -> dict:
    return {
        "id": request.id,
        "booking_id": request.booking_id,
        "slices": request.slices,
        "change_offers": [
            change_offer_object(o) for o in request.offers.order_by("change_total_amount", "id")
        ],
        "created_at": iso_utc(request.created_at),
    }
