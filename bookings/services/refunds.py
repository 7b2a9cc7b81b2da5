"""The refund of a cancelled booking: what its fare's refund condition gives back, in the
booking's currency and in the wallet's BRL. `booking_cancel` credits it, its preview shows it,
and the cancellation e-mail tells the customer their share of it (`bookings.emails`)."""

from decimal import Decimal

from bookings.models import Booking
from core.money import q


def refund_for(booking: Booking) -> tuple[Decimal | None, bool]:
    """(refund in the booking's currency or None, whether the booking was paid)."""
    paid = booking.status != Booking.Status.PENDING
    return (refund_due(booking) if paid else None), paid


def refund_due(booking: Booking) -> Decimal | None:
    """Original-currency refund per `conditions.refund_before_departure`."""
    condition = booking.conditions["refund_before_departure"]
    if not condition.get("allowed"):
        return None
    penalty = Decimal(condition.get("penalty_amount") or "0")
    return max(booking.total_amount - penalty, Decimal("0"))


def refund_in_brl(booking: Booking, refund: Decimal) -> Decimal:
    """A refund of R credits q(R × locked rate); a full refund credits exactly what was debited."""
    if refund >= booking.total_amount:
        return booking.base_cost_brl
    return min(q(refund * booking.exchange_rate), booking.base_cost_brl)
