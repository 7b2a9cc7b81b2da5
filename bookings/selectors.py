from decimal import Decimal

from django.db.models import Sum

from bookings.models import Booking
from core.exceptions import NotFound
from core.timestamps import business_day_bounds


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


def booking_list(*, team, live_mode: bool, statuses=None, created_after=None, created_before=None):
    """Newest first; dates are São Paulo calendar days, both inclusive."""
    queryset = Booking.objects.filter(team=team, live_mode=live_mode).select_related("client")
    if statuses:
        queryset = queryset.filter(status__in=statuses)
    if created_after:
        queryset = queryset.filter(created_at__gte=business_day_bounds(created_after)[0])
    if created_before:
        queryset = queryset.filter(created_at__lt=business_day_bounds(created_before)[1])
    return queryset.order_by("-created_at", "-id")
