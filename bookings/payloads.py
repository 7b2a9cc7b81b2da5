"""The bookings' wire shapes: the API's booking object and the booking events' `data.object`."""

from decimal import Decimal

from bookings.models import Booking, BookingCancellation
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


def cancel_refund_object(booking: Booking, cancellation: BookingCancellation) -> dict:
    """The spec's `refund` of a cancel (in the booking's currency: the supplier's confirmed
    refund) and what the wallet was credited, in BRL: DELETE's answer and the
    `booking.cancelled` event's."""
    penalty = cancellation.penalty_amount
    amount = cancellation.refund_amount or Decimal("0")
    if cancellation.refund_to == "awaiting_payment" and penalty is not None:
        amount = booking.total_amount  # paid by the wallet, never by us to the supplier
    return {
        "amount": fmt(amount),
        "currency": booking.total_currency,
        "penalty_amount": None if penalty is None else fmt(penalty),
        "penalty_currency": cancellation.penalty_currency or None,
        "refund_to": cancellation.refund_to,
        "airline_credits": cancellation.airline_credits,
        "wallet_credit_amount": fmt(cancellation.wallet_credit_amount),
        "wallet_credit_currency": "BRL",
        "transaction_id": cancellation.transaction_id or None,
        "cancellation_id": cancellation.id,
    }


def booking_event_object(
    booking: Booking, *, status: str | None = None, refund: dict | None = None
) -> dict:
    """`data.object` of booking events: the fields the spec lists. `status` overrides the
    booking's for the events of states it passed through on the way, whose `documents` are
    those of that state: none before tickets are issued. `refund` (a cancel's, as DELETE
    answers it) is added to the object of the cancellation's events, and only to them."""
    status = status or booking.status
    unissued = status in (Booking.Status.PENDING, Booking.Status.CONFIRMED)
    extra = {"refund": refund} if refund is not None else {}
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
        **extra,
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
