from decimal import Decimal

from django.db.models import Sum

from bookings.models import Booking
from core.exceptions import NotFound


class BookingNotFound(NotFound):
    code = "booking_not_found"
    message = "Booking not found"


def pending_holds_total(*, team, live_mode: bool) -> Decimal:
    """BRL cost of the team's pending hold bookings (the wallet's `pending_amount`)."""
    total = Booking.objects.filter(
        team=team, live_mode=live_mode, status=Booking.Status.PENDING, type=Booking.Type.HOLD
    ).aggregate(total=Sum("base_cost_brl"))["total"]
    return total or Decimal("0.00")


def booking_get(*, team, live_mode: bool, booking_id: str) -> Booking:
    booking = (
        Booking.objects.filter(pk=booking_id, team=team, live_mode=live_mode)
        .prefetch_related("passengers", "documents")
        .first()
    )
    if booking is None:
        raise BookingNotFound()
    return booking
