from decimal import Decimal


def pending_holds_total(*, team, live_mode: bool) -> Decimal:
    """BRL cost of the team's pending hold bookings. Bookings arrive with their issue; until
    then no booking can be pending."""
    return Decimal("0.00")
