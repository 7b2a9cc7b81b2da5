"""Bookings after creation: confirm (pay a hold; its tickets are issued by `ticketing`), cancel
(with the refund of `refunds`), expire, and the periodic jobs that expire holds and queue
payment reminders."""

from datetime import datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from agencies.pricing import fx_quote, price_offer, team_fx_margin_percent
from bookings.emails import email_queue
from bookings.errors import (
    BookingAlreadyCancelled,
    BookingAlreadyConfirmed,
    BookingNotPayable,
    BookingOutcomeUnknown,
    PriceChanged,
)
from bookings.inputs import PaymentInput, payment_check
from bookings.models import Booking, BookingEmail
from bookings.payloads import cancel_refund_object
from bookings.services.cancellations import (
    booking_cancellation_confirm,
    booking_cancellation_quote,
    check_cancellable,
)
from bookings.services.recording import booking_event, clear_outcome_unknown, record_events
from bookings.tasks import issue_tickets as issue_tickets_task
from core.exceptions import ApplicationError
from core.money import fmt
from flights.fx import UnknownCurrency, rate_provider
from flights.services import NO_EXCHANGE_RATE
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import SupplierError, SupplierOrder
from wallet.models import Transaction
from wallet.selectors import wallet_ensure_unrestricted
from wallet.services import wallet_debit
from webhooks.models import EventType


def booking_confirm(*, booking: Booking, payment: PaymentInput) -> Booking:
    """Pay a hold from the wallet: `confirmed`, then tickets are issued by a task. A hold whose
    price guarantee is over is paid at the supplier's current price only (`_current_price`).
    A wallet in debt pays nothing (WalletRestricted), asked before the supplier is."""
    if booking.status == Booking.Status.PENDING:
        wallet_ensure_unrestricted(team=booking.team, live_mode=booking.live_mode)
    booking = _current_price(booking=booking, payment=payment)
    payment_check(payment=payment, amount=booking.total_amount, currency=booking.total_currency)
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        # Repriced by another request since: the payment must still be the booking's total.
        payment_check(payment=payment, amount=booking.total_amount, currency=booking.total_currency)
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
        record_events(
            booking,
            booking_event(
                booking, EventType.BOOKING_CONFIRMED, previous={"status": Booking.Status.PENDING}
            ),
        )
        issue_tickets_task.delay_on_commit(booking.id)  # type: ignore[attr-defined]  # DjangoTask
    return booking


def _current_price(*, booking: Booking, payment: PaymentInput) -> Booking:
    """A pending hold without a price guarantee left (none, or past `price_guarantee_expires_at`)
    may cost more or less at the airline now: its order is read back (outside any lock). A new
    total is recorded on the booking, priced as offers are (today's reference rate with the
    team's FX margin, the team's markup and fee), with a `booking.updated`; then a payment of
    the new total goes on, any other is refused with PriceChanged (nothing debited).
    SupplierError when the order cannot be read: nothing is debited either."""
    guarantee = booking.price_guarantee_expires_at
    if (
        booking.status != Booking.Status.PENDING
        or booking.outcome_unknown_since
        or not booking.supplier_order_id
        or (guarantee is not None and guarantee > timezone.now())
    ):
        return booking
    order = supplier_for_booking(booking).get_order(booking.supplier_order_id)
    if (
        order.total_amount is None
        or not order.awaiting_payment
        or order.cancelled
        or (order.total_amount, order.total_currency or booking.total_currency)
        == (booking.total_amount, booking.total_currency)
    ):
        return booking  # the same price (or no hold to pay): paid as it is
    previous_total = booking.total_amount
    booking = _record_new_price(booking, order)
    if payment.amount == booking.total_amount and payment.currency == booking.total_currency:
        return booking
    raise PriceChanged(
        details={
            "total_amount": fmt(booking.total_amount),
            "total_currency": booking.total_currency,
            "client_amount": fmt(booking.client_amount),
            "client_currency": "BRL",
            "base_cost_brl": fmt(booking.base_cost_brl),
            "previous_total_amount": fmt(previous_total),
        }
    )


def _record_new_price(booking: Booking, order: SupplierOrder) -> Booking:
    """The supplier's new total on the pending booking, and its BRL price as an offer's."""
    assert order.total_amount is not None
    total, currency = order.total_amount, order.total_currency or booking.total_currency
    try:
        reference = rate_provider().rate(currency)
    except UnknownCurrency:
        raise SupplierError(NO_EXCHANGE_RATE.format(currency=currency)) from None
    with transaction.atomic():
        booking = Booking.objects.select_for_update(of=("self",)).get(pk=booking.pk)
        if booking.status != Booking.Status.PENDING or (
            (booking.total_amount, booking.total_currency) == (total, currency)
        ):
            return booking  # settled, or repriced by another request meanwhile
        # A new price: today's reference rate and the team's FX margin now, as a search's.
        fx = fx_quote(
            currency=currency,
            reference_rate=reference,
            margin_percent=team_fx_margin_percent(booking.team),
        )
        price = price_offer(
            total_amount=total,
            total_currency=currency,
            fx=fx,
            markup_percent=booking.team.markup_percent,
            fee=booking.team.fee.amount,  # type: ignore[attr-defined]  # MoneyField: Money
        )
        previous = {"total_amount": fmt(booking.total_amount)}
        if currency != booking.total_currency:
            previous["currency"] = booking.total_currency
        tax = order.tax_amount
        if tax is None:
            tax = total - order.base_amount if order.base_amount is not None else Decimal("0.00")
        booking.total_amount, booking.total_currency = total, currency
        booking.tax_amount, booking.base_amount = tax, total - tax
        booking.exchange_rate, booking.base_cost_brl = fx.rate, price.base_cost_brl
        booking.fx_reference_rate, booking.fx_margin_percent = fx.reference_rate, fx.margin_percent
        booking.markup_amount, booking.fee_amount = price.markup_amount, price.fee_amount
        booking.client_amount = price.client_amount
        booking.price_guarantee_expires_at = order.price_guarantee_expires_at
        booking.payment_required_by = order.payment_required_by or booking.payment_required_by
        booking.synced_at = timezone.now()
        booking.save()
        record_events(booking, booking_event(booking, EventType.BOOKING_UPDATED, previous=previous))
    return booking


def booking_cancel(*, booking: Booking) -> tuple[Booking, dict]:
    """The spec's DELETE: a quote from the supplier confirmed at once (`cancellations`); returns
    the booking and the spec's `refund` object, with what the wallet was credited."""
    quote = booking_cancellation_quote(booking=booking)
    cancellation = booking_cancellation_confirm(booking=booking, cancellation_id=quote.pk)
    booking = Booking.objects.get(pk=booking.pk)
    return booking, cancel_refund_object(booking, cancellation)


def booking_cancellable(*, booking: Booking) -> bool:
    """Whether the booking can be cancelled in its state (no call to the supplier)."""
    try:
        check_cancellable(booking)
    except ApplicationError:
        return False
    return True


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
        clear_outcome_unknown(booking)  # the hold lapsed at the airline too: nothing to find
        booking.save()
        record_events(
            booking,
            booking_event(
                booking, EventType.BOOKING_EXPIRED, previous={"status": Booking.Status.PENDING}
            ),
        )
    return True


def booking_holds_expire_due(*, now: datetime | None = None) -> int:
    """Expire pending holds past their payment deadline (`booking.expired`)."""
    now = now or timezone.now()
    due = Booking.objects.filter(
        type=Booking.Type.HOLD, status=Booking.Status.PENDING, payment_required_by__lte=now
    )
    return sum(booking_expire(booking=b, now=now) for b in due.iterator())


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
