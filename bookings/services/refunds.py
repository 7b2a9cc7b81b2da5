"""Refund arithmetic: a refund in the booking's currency into the wallet's BRL at the booking's
own rate (`refund_in_brl`, what a confirmed cancellation credits), and what the fare's stored
refund condition promised (`refund_due`: only the e-mail of a booking cancelled before
cancellations were recorded still reads it; money follows the supplier's confirmed refund,
`cancellations`)."""

from decimal import Decimal

from bookings.models import Booking
from core.money import q


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
