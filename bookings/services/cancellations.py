"""Cancellations at the supplier (docs/after-sale.md): a quote (`bcn_`, the supplier's own
OrderCancellation), then its confirmation, settled on what the supplier *confirmed* refunding:
the wallet is credited the confirmed cash refund at the booking's own exchange rate, never more
than the booking debited, once; a refund to a voucher or to airline credits credits 0.00 and
the credits are recorded. A confirmation whose answer cannot be trusted leaves the
cancellation `unknown`, credits nothing, and the reconcile job settles it from what the supplier
says when asked again: the cancellation read back, else the order (`booking_cancellation_check`).
"""

from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bookings.emails import email_queue
from bookings.errors import (
    BookingAlreadyCancelled,
    BookingNotCancellable,
    BookingOutcomeUnknown,
    CancellationExpired,
    CancellationInProgress,
    CancellationNotFound,
    CancellationNotQuotable,
    CancellationNotSettled,
    CancellationSuperseded,
    ChangeInProgress,
)
from bookings.models import Booking, BookingCancellation, BookingEmail
from bookings.payloads import cancel_refund_object
from bookings.services.recording import booking_event, record_events
from bookings.services.refunds import refund_in_brl
from core.exceptions import ApplicationError
from core.money import fmt
from core.timestamps import iso_utc
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import (
    AirlineCredit,
    CancellationQuote,
    SupplierError,
    SupplierOutcomeUnknown,
)
from wallet.models import Transaction
from wallet.services import wallet_credit
from webhooks.models import EventType

ZERO = Decimal("0.00")
UNSETTLED = (BookingCancellation.Status.CONFIRMING, BookingCancellation.Status.UNKNOWN)


def check_cancellable(booking: Booking) -> None:
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


def debited(booking: Booking) -> bool:
    """Whether the wallet paid for the booking and was not refunded yet."""
    return booking.status in (Booking.Status.CONFIRMED, Booking.Status.TICKETED) or (
        booking.type == Booking.Type.INSTANT and booking.status == Booking.Status.PENDING
    )


def wallet_credit_for(booking: Booking, quote: CancellationQuote) -> Decimal:
    """The confirmed cash refund × the booking's rate, at most what was debited; 0.00 for a
    booking not paid, and for a refund to anything but cash; everything debited when the
    supplier was never paid (a confirmed hold whose payment had not gone out yet)."""
    if not debited(booking):
        return ZERO
    if quote.refund_to == "awaiting_payment":  # the supplier was never paid: all comes back
        return booking.base_cost_brl
    if not quote.cash or not quote.refund_amount:
        return ZERO
    return refund_in_brl(booking, quote.refund_amount)


def _problem(booking: Booking, quote: CancellationQuote) -> str:
    """Why a supplier's cancellation cannot be settled automatically ("" when it can)."""
    if quote.refund_amount is None:
        return "the supplier did not state the refund amount"
    if quote.refund_amount and quote.refund_currency != booking.total_currency:
        return (
            f"refund in {quote.refund_currency}, the booking in {booking.total_currency}: "
            "no rate of the booking's to convert it"
        )
    return ""


def _apply(cancellation: BookingCancellation, booking: Booking, quote: CancellationQuote) -> None:
    """The supplier's numbers onto our cancellation (the quote's, or the confirmed ones)."""
    paid = debited(booking)
    cancellation.supplier_cancellation_id = quote.supplier_quote_id
    cancellation.refund_amount = quote.refund_amount
    cancellation.refund_currency = quote.refund_currency or booking.total_currency
    cancellation.refund_to = quote.refund_to
    cancellation.airline_credits = [credit_json(c) for c in quote.airline_credits]
    cancellation.expires_at = quote.expires_at
    cancellation.wallet_credit_amount = wallet_credit_for(booking, quote)
    same_currency = cancellation.refund_currency == booking.total_currency
    if paid and quote.refund_to == "awaiting_payment":
        cancellation.penalty_amount, cancellation.penalty_currency = ZERO, booking.total_currency
    elif paid and quote.refund_amount is not None and same_currency:
        cancellation.penalty_amount = max(booking.total_amount - quote.refund_amount, ZERO)
        cancellation.penalty_currency = booking.total_currency
    else:
        cancellation.penalty_amount, cancellation.penalty_currency = None, ""


def credit_json(credit: AirlineCredit) -> dict:
    return {
        "id": credit.id,
        "credit_amount": fmt(credit.credit_amount),
        "credit_currency": credit.credit_currency,
        "credit_code": credit.credit_code,
        "credit_name": credit.credit_name,
        "type": credit.type,
        "passenger_id": credit.passenger_id,
        "issued_on": credit.issued_on.isoformat() if credit.issued_on else None,
        "expires_at": iso_utc(credit.expires_at) if credit.expires_at else None,
    }


def _locked(booking_id: str) -> Booking:
    return Booking.objects.select_for_update().select_related("team").get(pk=booking_id)


def _check_nothing_unsettled(booking: Booking) -> None:
    if booking.cancellations.filter(status__in=UNSETTLED).exists():
        raise CancellationInProgress()
    # Extras being added (bookings/services/extras.py): their answer first, so that a
    # cancellation refunds from a total that includes them if they were added.
    if booking.services_purchases.filter(status__in=("pending", "unknown")).exists():
        raise CancellationInProgress(details={"reason": "extras being added"})
    if booking.change_offers.filter(status__in=("confirming", "unknown")).exists():
        raise ChangeInProgress()  # a change of its flights may be made: settled first


# --- Quote -------------------------------------------------------------------------------------


def booking_cancellation_quote(*, booking: Booking) -> BookingCancellation:
    """Ask the supplier what cancelling would refund now (a new quote, superseding the others)."""
    check_cancellable(booking)
    _check_nothing_unsettled(booking)
    if booking.supplier_order_id:  # a network call: before, never inside, the transaction
        quote = supplier_for_booking(booking).quote_cancellation(booking.supplier_order_id)
    else:  # a hold never placed at the supplier: nothing to cancel there, nothing paid
        quote = CancellationQuote(
            supplier_quote_id="",
            refund_amount=ZERO,
            refund_currency=booking.total_currency,
            expires_at=None,
            refund_to="awaiting_payment",
        )
    problem = _problem(booking, quote)
    if problem:
        raise CancellationNotQuotable(details={"reason": problem})
    with transaction.atomic():
        booking = _locked(booking.pk)
        check_cancellable(booking)
        _check_nothing_unsettled(booking)
        booking.cancellations.filter(superseded=False).update(superseded=True)
        cancellation = BookingCancellation(
            booking=booking, status=BookingCancellation.Status.QUOTED
        )
        _apply(cancellation, booking, quote)
        cancellation.quoted_refund_amount = quote.refund_amount
        cancellation.save()
    return cancellation


def booking_cancellation_get(*, booking: Booking, cancellation_id: str) -> BookingCancellation:
    cancellation = booking.cancellations.filter(pk=cancellation_id).first()
    if cancellation is None:
        raise CancellationNotFound()
    return cancellation


def booking_cancellation_list(*, booking: Booking) -> list[BookingCancellation]:
    return list(booking.cancellations.order_by("-created_at", "-id"))


# --- Confirm -----------------------------------------------------------------------------------


def booking_cancellation_confirm(*, booking: Booking, cancellation_id: str) -> BookingCancellation:
    """Confirm a quote at the supplier and settle on its confirmed answer. A confirmed one
    answers again as it is (a retry, a racing confirm): it is never settled twice."""
    supplier = supplier_for_booking(booking) if booking.supplier_order_id else None
    expired = False
    with transaction.atomic():
        booking = _locked(booking.pk)
        cancellation = (
            BookingCancellation.objects.select_for_update()
            .filter(booking=booking, pk=cancellation_id)
            .first()
        )
        if cancellation is None:
            raise CancellationNotFound()
        if cancellation.status == BookingCancellation.Status.CONFIRMED:
            return cancellation
        if cancellation.status in UNSETTLED:
            raise CancellationInProgress()
        check_cancellable(booking)
        _check_nothing_unsettled(booking)
        if cancellation.superseded:
            newest = booking.cancellations.filter(superseded=False).first()
            raise CancellationSuperseded(details={"newest": newest.pk if newest else None})
        now = timezone.now()
        if cancellation.status == BookingCancellation.Status.EXPIRED or (
            cancellation.expires_at is not None and cancellation.expires_at <= now
        ):
            cancellation.status = BookingCancellation.Status.EXPIRED
            cancellation.save(update_fields=["status"])
            expired = True
        else:
            cancellation.status = BookingCancellation.Status.CONFIRMING
            cancellation.confirming_since = now
            cancellation.save(update_fields=["status", "confirming_since"])
    if expired:
        raise CancellationExpired(details={"expires_at": iso_utc(cancellation.expires_at)})
    if supplier is None or not cancellation.supplier_cancellation_id:
        confirmed = CancellationQuote(
            supplier_quote_id="",
            refund_amount=ZERO,
            refund_currency=booking.total_currency,
            expires_at=None,
            refund_to="awaiting_payment",
            confirmed_at=timezone.now(),
        )
    else:
        try:
            confirmed = supplier.confirm_cancellation(cancellation.supplier_cancellation_id)
        except SupplierOutcomeUnknown as exc:
            _mark_unknown(cancellation.pk, f"{exc.code}: {exc.message}")
            raise CancellationNotSettled(details=exc.details) from exc
        except SupplierError as exc:
            if exc.code == "order_already_cancelled":  # by us (a lost answer) or elsewhere
                _mark_unknown(cancellation.pk, f"{exc.code}: {exc.message}")
                raise CancellationNotSettled(details=exc.details) from exc
            expired = exc.code == "quote_expired"
            _release(cancellation.pk, expired=expired)
            if expired:
                raise CancellationExpired() from exc
            raise
        except Exception:  # ours, after sending: the order may be cancelled
            _mark_unknown(cancellation.pk, "the confirmation's answer could not be handled")
            raise
    return _settle(cancellation.pk, confirmed)


def _mark_unknown(cancellation_id: str, note: str) -> None:
    BookingCancellation.objects.filter(pk=cancellation_id).update(
        status=BookingCancellation.Status.UNKNOWN, outcome_note=note[:255]
    )


def _release(cancellation_id: str, *, expired: bool) -> None:
    """A certain refusal: nothing was cancelled; the quote is usable again (or expired)."""
    BookingCancellation.objects.filter(
        pk=cancellation_id, status=BookingCancellation.Status.CONFIRMING
    ).update(
        status=BookingCancellation.Status.EXPIRED if expired else BookingCancellation.Status.QUOTED,
        confirming_since=None,
    )


def _settle(cancellation_id: str, confirmed: CancellationQuote) -> BookingCancellation:
    """Record a confirmed cancellation and credit its refund, once (under the locks)."""
    booking_id = BookingCancellation.objects.values_list("booking_id", flat=True).get(
        pk=cancellation_id
    )
    with transaction.atomic():  # the booking's lock first, as confirming takes them
        booking = _locked(booking_id)
        cancellation = BookingCancellation.objects.select_for_update().get(pk=cancellation_id)
        if cancellation.status == BookingCancellation.Status.CONFIRMED:
            return cancellation  # settled already (the job and a request, say)
        problem = _problem(booking, confirmed)
        if problem:
            cancellation.status = BookingCancellation.Status.UNKNOWN
            cancellation.outcome_note = problem[:255]
            cancellation.save(update_fields=["status", "outcome_note"])
            settled = False
        else:
            _record_confirmed(cancellation, booking, confirmed)
            settled = True
    if not settled:
        raise CancellationNotSettled(details={"reason": problem})
    return cancellation


def _record_confirmed(
    cancellation: BookingCancellation, booking: Booking, confirmed: CancellationQuote
) -> None:
    _apply(cancellation, booking, confirmed)
    if cancellation.wallet_credit_amount > 0:
        txn = wallet_credit(
            team=booking.team,
            live_mode=booking.live_mode,
            amount=cancellation.wallet_credit_amount,
            reference_type=Transaction.ReferenceType.REFUND,
            reference_id=booking.id,
            description=f"Refund of booking {booking.id}",
        )
        cancellation.transaction_id = txn.id
    cancellation.status = BookingCancellation.Status.CONFIRMED
    cancellation.confirmed_at = confirmed.confirmed_at or timezone.now()
    cancellation.outcome_note = ""
    cancellation.save()
    previous = booking.status
    if previous == Booking.Status.CANCELLED:
        return
    booking.status = Booking.Status.CANCELLED
    booking.cancelled_at = timezone.now()
    booking.save()
    record_events(
        booking,
        booking_event(
            booking,
            EventType.BOOKING_CANCELLED,
            previous={"status": previous},
            refund=cancel_refund_object(booking, cancellation),
        ),
    )
    email_queue(booking=booking, kind=BookingEmail.Kind.CANCELLED)


# --- Uncertain confirmations -------------------------------------------------------------------


def booking_cancellation_check(*, cancellation_id: str) -> str:
    """Settle an unknown confirmation from what the supplier says now, read back first: the
    cancellation itself (confirmed → what it refunded, credited once), else the order
    (cancelled by another cancellation → that one's refund). "confirmed"; "expired" (the order
    was not cancelled, certainly, after the grace period: nothing happened); "unknown" (ask
    again later: nothing is settled on an answer that could not be read); "settled" (nothing
    to do)."""
    cancellation = BookingCancellation.objects.select_related("booking__team").get(
        pk=cancellation_id
    )
    if cancellation.status != BookingCancellation.Status.UNKNOWN:
        return "settled"
    booking = cancellation.booking
    BookingCancellation.objects.filter(pk=cancellation.pk).update(outcome_checked_at=timezone.now())
    supplier = supplier_for_booking(booking)
    try:
        if cancellation.supplier_cancellation_id:
            read_back = supplier.get_cancellation(cancellation.supplier_cancellation_id)
            if read_back.confirmed_at is not None:
                return _settle_checked(cancellation.pk, read_back)
        order = supplier.get_order(booking.supplier_order_id)
    except ApplicationError as exc:
        _note(cancellation.pk, f"check failed, {exc.code}: {exc.message}")
        return "unknown"
    if order.cancelled and order.cancellation is not None:
        return _settle_checked(cancellation.pk, order.cancellation)
    if order.cancelled:
        _note(cancellation.pk, "the order is cancelled; the supplier has not said the refund yet")
        return "unknown"
    grace = timedelta(seconds=settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
    since = cancellation.confirming_since or cancellation.created_at
    if timezone.now() - since < grace:
        _note(cancellation.pk, "the order is not cancelled yet; waiting for the grace period")
        return "unknown"
    with transaction.atomic():  # the confirmation never took effect: the quote lapses
        updated = BookingCancellation.objects.filter(
            pk=cancellation.pk, status=BookingCancellation.Status.UNKNOWN
        ).update(
            status=BookingCancellation.Status.EXPIRED,
            outcome_note="the supplier did not cancel the order",
        )
    return "expired" if updated else "settled"


def _settle_checked(cancellation_id: str, confirmed: CancellationQuote) -> str:
    try:
        return _settle(cancellation_id, confirmed).status
    except CancellationNotSettled as exc:
        _note(cancellation_id, str(exc.details.get("reason") if exc.details else exc))
        return "unknown"


def _note(cancellation_id: str, note: str) -> None:
    BookingCancellation.objects.filter(pk=cancellation_id).update(outcome_note=note[:255])


def booking_cancellations_unsettled(*, now: datetime | None = None) -> list[str]:
    """The reconcile job's share: confirmations left `confirming` by a request that is
    certainly over become unknown; every unknown one is due for a check."""
    now = now or timezone.now()
    cutoff = now - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT
    BookingCancellation.objects.filter(
        status=BookingCancellation.Status.CONFIRMING, confirming_since__lt=cutoff
    ).update(
        status=BookingCancellation.Status.UNKNOWN,
        outcome_note="the confirming request ended before the supplier answered",
    )
    return list(
        BookingCancellation.objects.filter(status=BookingCancellation.Status.UNKNOWN).values_list(
            "id", flat=True
        )
    )


# --- The API's object --------------------------------------------------------------------------


def cancellation_status(cancellation: BookingCancellation, now: datetime | None = None) -> str:
    """Its status as the API shows it: a quote past its expires_at is expired."""
    now = now or timezone.now()
    if (
        cancellation.status == BookingCancellation.Status.QUOTED
        and cancellation.expires_at is not None
        and cancellation.expires_at <= now
    ):
        return BookingCancellation.Status.EXPIRED
    return cancellation.status


def cancellation_object(cancellation: BookingCancellation) -> dict:
    def money(value: Decimal | None) -> str | None:
        return None if value is None else fmt(value)

    return {
        "id": cancellation.id,
        "booking_id": cancellation.booking_id,
        "status": cancellation_status(cancellation),
        "refund_amount": money(cancellation.refund_amount),
        "refund_currency": cancellation.refund_currency,
        "refund_to": cancellation.refund_to,
        "penalty_amount": money(cancellation.penalty_amount),
        "penalty_currency": cancellation.penalty_currency or None,
        "airline_credits": cancellation.airline_credits,
        "quoted_refund_amount": money(cancellation.quoted_refund_amount),
        "wallet_credit_amount": fmt(cancellation.wallet_credit_amount),
        "wallet_credit_currency": "BRL",
        "transaction_id": cancellation.transaction_id or None,
        "expires_at": iso_utc(cancellation.expires_at) if cancellation.expires_at else None,
        "confirmed_at": iso_utc(cancellation.confirmed_at) if cancellation.confirmed_at else None,
        "created_at": iso_utc(cancellation.created_at),
    }
