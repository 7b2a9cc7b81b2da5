"""A booking's order at the supplier, for the services that ask after it (creation's retry of
a request that died, the reconcile job, support's check): the booking's passengers as the
supplier knows them, looking its order up, and the check lease that lets one of them ask at a
time."""

from datetime import timedelta
from typing import Literal, cast

from django.db.models import Q
from django.utils import timezone

from bookings.models import Booking
from flights.suppliers.base import (
    FlightSupplier,
    OrderPassenger,
    PassengerType,
    SupplierError,
    SupplierOrder,
)

# Longer than any supplier call (a Duffel order may take 130 s): a live check is never joined.
CHECK_LEASE = timedelta(seconds=180)
# Orders are looked for from a little before the booking was written (clocks differ).
ORDER_LOOKBACK = timedelta(minutes=5)


def order_passengers(booking: Booking) -> list[OrderPassenger]:
    """The booking's passengers as the supplier knows them (by its passenger ids)."""
    passengers = list(booking.passengers.order_by("position"))
    supplier_id = {p.passenger_id: p.supplier_passenger_id or p.passenger_id for p in passengers}
    return [
        OrderPassenger(
            supplier_passenger_id=supplier_id[p.passenger_id],
            type=cast(PassengerType, p.type),  # one of the offer's passenger types
            title=p.title or None,
            given_name=p.given_name,
            family_name=p.family_name,
            gender=cast(Literal["m", "f"], p.gender),  # validated when booked
            born_on=p.born_on,  # type: ignore[arg-type]  # None only once erased: no orders then
            email=p.email,
            phone_number=p.phone_number,
            identity_documents=tuple(p.identity_documents),
            infant_supplier_passenger_id=supplier_id.get(p.infant_passenger_id)
            if p.infant_passenger_id
            else None,
            loyalty_programme_accounts=tuple(p.loyalty_programme_accounts),
        )
        for p in passengers
    ]


def claim_check(booking_id: str) -> bool:
    """Take the booking's check lease (a conditional UPDATE: one holder at a time)."""
    now = timezone.now()
    free = Q(outcome_check_lease_until__isnull=True) | Q(outcome_check_lease_until__lt=now)
    return bool(
        Booking.objects.filter(free, pk=booking_id).update(
            outcome_check_lease_until=now + CHECK_LEASE
        )
    )


def release_check(booking_id: str) -> None:
    Booking.objects.filter(pk=booking_id).update(outcome_check_lease_until=None)


def look_up_order(supplier: FlightSupplier, booking: Booking) -> SupplierOrder | None:
    """The booking's order at the supplier: by id when we have one, else by our booking id in
    its metadata. None: certainly absent. SupplierError: the supplier cannot tell now."""
    if booking.supplier_order_id:
        try:
            return supplier.get_order(booking.supplier_order_id)
        except SupplierError as exc:
            if exc.code == "order_not_found":
                return None
            raise
    return supplier.find_order(
        booking_id=booking.id,
        created_after=booking.created_at - ORDER_LOOKBACK,
        passengers=order_passengers(booking),
    )
