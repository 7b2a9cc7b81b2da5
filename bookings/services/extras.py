"""Extras (bags and seats) bought with a booking (docs/extras.md): the requested services checked
against what the supplier sells with the offer now, priced for the team
(flights.services_extras), and kept on the booking as it shows them."""

from agencies.models import Team
from bookings.models import Booking
from core.exceptions import InvalidRequest
from flights.selectors import BookableOffer
from flights.services_extras import (
    Extras,
    extras_price,
    seat_services,
    service_record,
    trip_of_offer,
)
from flights.suppliers import supplier_for_booking
from flights.suppliers.base import ServiceRequest


class ServicesNeedInstant(InvalidRequest):
    """Extras are bought and paid with the booking: a hold takes none (as at Duffel)."""

    code = "services_need_instant"
    message = "Services can only be bought with an instant booking"


class _OfferAt:
    """What `supplier_for_booking` reads: the offer's supplier, for the team and mode."""

    def __init__(self, offer: BookableOffer, team: Team, live_mode: bool):
        self.supplier, self.team, self.live_mode = offer.supplier, team, live_mode


def offer_extras(
    *,
    team: Team,
    live_mode: bool,
    offer: BookableOffer,
    type: str,
    requests: list[dict] | None,
) -> Extras:
    """The requested services priced for the team (none: nothing). The supplier is asked what
    it sells now: its extra bags, then its seat maps when a requested id is not a bag. Raises
    ServicesNeedInstant, ServiceNotAvailable, ServiceQuantityInvalid, SupplierError."""
    if not requests:
        return Extras()
    if type != Booking.Type.INSTANT:
        raise ServicesNeedInstant()
    supplier = supplier_for_booking(_OfferAt(offer, team, live_mode))
    available = supplier.offer_services(offer)
    sold = {service.id for service in available}
    if any(request["id"] not in sold for request in requests):
        available += seat_services(supplier.offer_seat_maps(offer))
    return extras_price(
        trip=trip_of_offer(offer), team=team, requests=requests, available=available
    )


def extras_records(offer: BookableOffer, extras: Extras) -> list[dict]:
    trip = trip_of_offer(offer)
    return [service_record(trip, line) for line in extras.lines]


def service_requests(booking: Booking) -> tuple[ServiceRequest, ...]:
    """The services bought with the booking, as its order asks the supplier for them."""
    return tuple(
        ServiceRequest(id=s["id"], quantity=s["quantity"])
        for s in booking.services
        if not s.get("purchase_id")  # bought after the booking: not part of its order
    )
