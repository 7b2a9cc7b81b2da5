from datetime import date, datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import DecimalField, Exists, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from agencies.models import Team
from bookings.models import Booking, BookingAirlineChange, BookingCancellation
from core.exceptions import NotFound
from core.timestamps import business_day_bounds


class BookingNotFound(NotFound):
    code = "booking_not_found"
    message = "Booking not found"


def _pending_holds(**team_filter: object) -> QuerySet:
    return Booking.objects.filter(
        status=Booking.Status.PENDING, type=Booking.Type.HOLD, **team_filter
    ).order_by()


def pending_holds_total(*, team: Team, live_mode: bool) -> Decimal:
    """BRL cost of the team's pending hold bookings (the wallet's `pending_amount`)."""
    total = _pending_holds(team=team, live_mode=live_mode).aggregate(total=Sum("base_cost_brl"))[
        "total"
    ]
    return total or Decimal("0.00")


def pending_holds_total_of(team_ref: str, *, live_mode: bool) -> Coalesce:
    """`pending_holds_total` as an expression of an outer query whose field `team_ref` is the
    team's id (the wallet's balance reads both in one query)."""
    total = (
        _pending_holds(team_id=OuterRef(team_ref), live_mode=live_mode)
        .values("team_id")
        .annotate(total=Sum("base_cost_brl"))
        .values("total")
    )
    amount = DecimalField(max_digits=14, decimal_places=2)
    return Coalesce(
        Subquery(total, output_field=amount), Value(Decimal("0.00")), output_field=amount
    )


def booking_get(*, team: Team, live_mode: bool, booking_id: str) -> Booking:
    booking = (
        Booking.objects.filter(pk=booking_id, team=team, live_mode=live_mode)
        .prefetch_related("passengers", "documents")
        .first()
    )
    if booking is None:
        raise BookingNotFound()
    return booking


def booking_list(
    *,
    team: Team,
    live_mode: bool,
    statuses: list[str] | None = None,
    created_after: date | None = None,
    created_before: date | None = None,
) -> QuerySet[Booking]:
    """Newest first; dates are São Paulo calendar days, both inclusive."""
    queryset = Booking.objects.filter(team=team, live_mode=live_mode).select_related("client")
    if statuses:
        queryset = queryset.filter(status__in=statuses)
    if created_after:
        queryset = queryset.filter(created_at__gte=business_day_bounds(created_after)[0])
    if created_before:
        queryset = queryset.filter(created_at__lt=business_day_bounds(created_before)[1])
    return queryset.order_by("-created_at", "-id")


# A confirmed booking not ticketed after this long has lost its ticketing (the sweep re-sends it).
TICKETING_STUCK_AFTER = timedelta(minutes=5)


def bookings_needing_attention(*, now: datetime | None = None) -> QuerySet[Booking]:
    """What support should look at first: a supplier outcome still unknown after the grace
    period, ticketing stuck, a booking left without its supplier order by a request that
    died, or a cancellation whose confirmation's answer was lost (`unknown`); or an airline's
    change of a ticketed booking left unanswered. Oldest first."""
    now = now or timezone.now()
    grace = timedelta(seconds=settings.SUPPLIER_UNKNOWN_GRACE_SECONDS)
    awaiting = Q(status__in=[Booking.Status.PENDING, Booking.Status.CONFIRMED])
    unknown_too_long = Q(outcome_unknown_since__lte=now - grace)
    stuck_ticketing = Q(
        status=Booking.Status.CONFIRMED,
        confirmed_at__lte=now - TICKETING_STUCK_AFTER,
        outcome_unknown_since__isnull=True,
    )
    left_without_order = Q(
        status=Booking.Status.PENDING,
        supplier_order_id="",
        created_at__lte=now - settings.IDEMPOTENCY_IN_FLIGHT_TIMEOUT,
    )
    # A cancellation confirmed at the supplier whose answer was lost, until the job settles it.
    cancellation_unknown = Exists(
        BookingCancellation.objects.filter(
            booking=OuterRef("pk"), status=BookingCancellation.Status.UNKNOWN
        )
    )
    # The airline changed the flights of a booking not yet departed, and nobody answered.
    unanswered_change = Q(
        status=Booking.Status.TICKETED,
        departing_at__gt=now,
        pk__in=BookingAirlineChange.objects.filter(action_taken="").values("booking_id"),
    )
    return Booking.objects.filter(
        (awaiting & (unknown_too_long | stuck_ticketing | left_without_order))
        | Q(cancellation_unknown)
        | unanswered_change
    ).order_by("created_at")
