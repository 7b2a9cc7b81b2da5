"""The bookings' errors: what booking, confirming and cancelling refuse with (docs/errors.md)."""

from core.exceptions import Conflict, InvalidRequest, NotFound
from flights.suppliers.base import SupplierError


class OfferNotFound(NotFound):
    code = "offer_not_found"
    message = "Offer not found"


class OfferExpired(InvalidRequest):
    code = "offer_expired"
    message = "Offer expired"


class InstantPaymentRequired(InvalidRequest):
    code = "instant_payment_required"
    message = "This offer requires instant payment: book it with type instant"


class OfferAlreadyBooked(Conflict):
    code = "offer_already_booked"
    message = "This offer was already booked; search again for a new offer"


class BookingAlreadyConfirmed(Conflict):
    code = "booking_already_confirmed"
    message = "Booking already confirmed"


class BookingAlreadyCancelled(Conflict):
    code = "booking_already_cancelled"
    message = "Booking already cancelled"


class BookingNotPayable(Conflict):
    code = "booking_not_payable"
    message = "Only a pending booking can be confirmed"
    messages = ("The payment deadline has passed; search again",)


class BookingNotCancellable(Conflict):
    code = "booking_not_cancellable"
    message = "This booking can no longer be cancelled"
    messages = ("The flight has departed",)


class BookingOutcomeUnknown(Conflict):
    code = "booking_outcome_unknown"
    message = (
        "The flight supplier has not confirmed this booking's outcome yet; we are checking "
        "with it: try again in a few minutes"
    )


class OrderAbsent(SupplierError):
    code = "supplier_order_absent"
    message = "The flight supplier has no issued order for this booking: nothing was issued"


# What POST /bookings and PUT /bookings/:id/confirm refuse in their bodies (bookings/apis.py).


class InvalidPassengerData(InvalidRequest):
    code = "invalid_passenger_data"
    message = "Invalid passenger data"


class PassportRequired(InvalidRequest):
    code = "passport_required"
    message = "Passport required"


class PaymentAmountMismatch(InvalidRequest):
    code = "payment_amount_mismatch"
    message = "Payment amount mismatch"
