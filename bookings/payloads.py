"""The bookings' wire shapes: the API's booking object and the booking events' `data.object`."""

from bookings.models import Booking
from core.money import fmt
from core.timestamps import iso_utc


def _passenger_objects(booking: Booking) -> list[dict]:
    return [
        {
            "id": p.passenger_id,
            "type": p.type,
            "given_name": p.given_name,
            "family_name": p.family_name,
            "gender": p.gender,
            "born_on": p.born_on.isoformat() if p.born_on else None,  # None once erased
            "email": p.email,
            "phone_number": p.phone_number,
        }
        for p in booking.passengers.all()
    ]


def _document_objects(booking: Booking) -> list[dict]:
    return [
        {"type": d.type, "unique_identifier": d.unique_identifier, "passenger_id": d.passenger_id}
        for d in booking.documents.all()
    ]


def booking_event_object(booking: Booking, *, status: str | None = None) -> dict:
    """`data.object` of booking events: the fields the spec lists. `status` overrides the
    booking's for the events of states it passed through on the way, whose `documents` are
    those of that state: none before tickets are issued."""
    status = status or booking.status
    unissued = status in (Booking.Status.PENDING, Booking.Status.CONFIRMED)
    return {
        "id": booking.id,
        "booking_reference": booking.booking_reference,
        "status": status,
        "total_amount": fmt(booking.total_amount),
        "currency": booking.total_currency,
        "documents": [] if unissued else _document_objects(booking),
        "passengers": _passenger_objects(booking),
        "slices": booking.slices,
        "created_at": iso_utc(booking.created_at),
    }


def booking_object(booking: Booking) -> dict:
    awaiting = booking.status == Booking.Status.PENDING
    return {
        "id": booking.id,
        "booking_reference": booking.booking_reference,
        "status": booking.status,
        "type": booking.type,
        "live_mode": booking.live_mode,
        "synced_at": iso_utc(booking.synced_at),
        "created_at": iso_utc(booking.created_at),
        "total_amount": fmt(booking.total_amount),
        "total_currency": booking.total_currency,
        "tax_amount": fmt(booking.tax_amount),
        "tax_currency": booking.total_currency,
        "base_amount": fmt(booking.base_amount),
        "base_currency": booking.total_currency,
        "owner": booking.owner,
        "slices": booking.slices,
        "passengers": _passenger_objects(booking),
        "documents": _document_objects(booking),
        "conditions": booking.conditions,
        "payment_status": {
            "awaiting_payment": awaiting,
            "payment_required_by": iso_utc(booking.payment_required_by),
            "price_guarantee_expires_at": iso_utc(booking.price_guarantee_expires_at),
        },
        "services": booking.services,
        "metadata": booking.metadata,
    }
