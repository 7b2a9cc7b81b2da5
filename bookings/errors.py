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


class PriceChanged(Conflict):
    """A hold whose price the airline changed (its price guarantee over): nothing was debited;
    `details` carry the new total and what it costs the team in BRL."""

    code = "price_changed"
    message = (
        "The airline changed the price of this booking; confirm again with the new "
        "total_amount in the payment"
    )


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


class CancellationNotFound(NotFound):
    code = "cancellation_not_found"
    message = "Cancellation not found"


class CancellationExpired(Conflict):
    code = "cancellation_expired"
    message = "This cancellation quote has expired; ask for a new one"


class CancellationSuperseded(Conflict):
    code = "cancellation_superseded"
    message = "A newer cancellation quote exists for this booking; confirm that one"


class CancellationInProgress(Conflict):
    code = "cancellation_in_progress"
    message = (
        "A cancellation of this booking is being confirmed at the flight supplier, or its "
        "outcome is being checked with it: try again in a few minutes"
    )


class CancellationNotSettled(SupplierError):
    """A confirmation whose answer cannot be trusted: the order may be cancelled; nothing was
    credited; the reconcile job settles it from the supplier's order."""

    code = "cancellation_outcome_unknown"
    message = (
        "The flight supplier has not confirmed the cancellation yet; we are checking with it "
        "(nothing was credited; the refund follows once it is known)"
    )


class CancellationNotQuotable(SupplierError):
    code = "cancellation_not_quotable"
    message = (
        "The flight supplier's cancellation quote cannot be settled automatically; contact support"
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


class AirlineChangeNotFound(NotFound):
    code = "airline_change_not_found"
    message = "Airline change not found"


class AirlineChangeAlreadyActioned(Conflict):
    code = "airline_change_already_actioned"
    message = "This airline change has already been answered"


class AirlineChangeActionUnavailable(Conflict):
    code = "airline_change_action_unavailable"
    message = "The airline does not allow this action on this change"
    messages = ("The flight has departed",)


class AirlineChangeNotAccepted(SupplierError):
    """The supplier's answer to an acceptance did not say it was accepted, and reading the
    change back does not either: nothing was changed on the booking."""

    code = "airline_change_not_accepted"
    message = (
        "The flight supplier has not confirmed accepting the change; nothing was changed on the "
        "booking (try again, or check the booking's airline changes)"
    )


# --- Changing a booking's flights (bookings/services/changes.py) ---------------------------------


class BookingNotChangeable(Conflict):
    code = "booking_not_changeable"
    message = "This booking's flights cannot be changed"
    messages = (
        "The fare's conditions do not allow changes",
        "Only a ticketed booking can be changed",
        "The airline refused the change",
        "The booking has no slice {slice_id}",
    )


class ChangeOfferNotFound(NotFound):
    code = "change_offer_not_found"
    message = "Change offer not found"


class ChangeOfferExpired(Conflict):
    code = "change_offer_expired"
    message = "This change offer has expired; ask for a new change request"


class ChangeInProgress(Conflict):
    code = "change_in_progress"
    message = (
        "A change of this booking is being confirmed at the flight supplier, or its outcome is "
        "being checked with it: try again in a few minutes"
    )


class ChangeNotSettled(SupplierError):
    """A confirmation whose answer cannot be trusted: the change may be made; the reconcile job
    settles it from the supplier's order change."""

    code = "change_outcome_unknown"
    message = (
        "The flight supplier has not confirmed the change yet; we are checking with it "
        "(the booking follows once it is known; nothing is debited twice)"
    )
